"""The qualifier board as the native OBS graphic: each row's cells on one line, side by side, inside the
board, with the fields at their maxima (what a person sees; the fit of each text is tests/obs/test_fit.py)."""

from __future__ import annotations

import pytest

from broadcast.obs import layout as L
from broadcast.obs.graphics import raster as R
from broadcast.obs.graphics.qualifiers import BOARD
from broadcast.overlay.demo import demo_state
from tests.textfit import max_state

CELLS = ("名次", "选手", "编号", "局数", "头科率", "积分")


@pytest.mark.parametrize("which", ["demo", "cjk", "latin"])
def test_every_row_reads_on_one_line_inside_the_board(which: str) -> None:
    st = demo_state(on=("qualifiers",)) if which == "demo" else max_state(which, on=("qualifiers",))
    ops = {o.name: o for o in L.build_layout(st, browser=False).pictures["qualifiers"].ops}
    x0, y0, w, h = BOARD
    rows = []
    for i in range(1, 11):
        boxes = {c: R.op_box(ops[f"海选榜·第{i}行·{c}"]) for c in CELLS}
        assert all(boxes.values()), (i, boxes)
        centres = [b[1] + b[3] / 2 for b in boxes.values() if b]
        assert max(centres) - min(centres) <= 6, f"row {i}: its cells are not on one line: {boxes}"
        lefts = sorted((b[0], b[0] + b[2], c) for c, b in boxes.items() if b)
        for (_l1, r1, c1), (l2, _r2, c2) in zip(lefts, lefts[1:], strict=False):
            assert r1 <= l2, f"row {i}: {c1} runs into {c2}"
        for b in boxes.values():
            assert b and x0 <= b[0] and b[0] + b[2] <= x0 + w and y0 <= b[1] and b[1] + b[3] <= y0 + h
        rows.append(min(b[1] for b in boxes.values() if b))
    assert rows == sorted(rows)  # ten rows, top to bottom
    foot = R.op_box(ops["海选榜·规则"])
    last = max(b[1] + b[3] for c in CELLS if (b := R.op_box(ops[f"海选榜·第10行·{c}"])))
    assert foot and foot[1] >= last, "the ranking key's line is drawn over the last row"
