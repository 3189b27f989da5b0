"""Text fits in the native OBS graphics too (issue 13): every text with a box is fitted by the pages'
rule (shrunk to its floor, then cut with …), measured by the renderer that draws the graphic's picture;
at every field's declared maximum (the schema's maxLength, the same states as the pages' Chromium tests)
each text is whole, inside its box, at or above its floor, and drawn at that size (the picture never
squeezes it further); graphics that air together do not overlap. The pictures at the maxima, shown by a
real OBS, are screenshotted in test_live.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from broadcast import tokens as T
from broadcast.obs import layout as L
from broadcast.obs.graphics import PAINTERS
from broadcast.obs.graphics import raster as R
from broadcast.obs.graphics.fit import ELLIPSIS, Fitted, fit_text
from broadcast.obs.graphics.paint import Painter
from broadcast.obs.graphics.scoreboard import SEAT_NAME_BOX
from broadcast.obs.spec import COLOR, InputSpec
from tests.textfit import ENGINE_WORDS, WHERE, limits, max_state, text_of

# fields that no native graphic draws (the native credits card has no channel line; 九宫格 cells show
# prize and sponsor, not the slogan) or that air through another field (WHERE: no page draws them)
NOT_NATIVE = {"show.channel", "show.episode", "jiugongge.cells[].slogan"}


def paint_graphic(graphic: str, state: Mapping[str, Any]) -> tuple[dict[str, InputSpec], dict[str, Fitted]]:
    p = Painter(graphic, T.native_font(), lambda ref: ref)
    PAINTERS[graphic](p, state)
    return {op.name: op for op in p.ops}, p.fitted


def check_fitted(ops: Mapping[str, InputSpec], fitted: Mapping[str, Fitted], where: str) -> None:
    """Each fitted text: what the picture draws, at the size chosen, inside its box, at or above its
    floor (the picture's renderer measures it: R.op_box)."""
    for name, f in fitted.items():
        op = ops[name]
        assert op.settings["text"] == f.text and op.settings["font"]["size"] == f.size, name
        assert op.fit is not None and f.size >= f.floor, (
            f"{where}: {name} at {f.size} px < its floor {f.floor}"
        )
        box = R.op_box(op)
        if box is None:
            continue
        assert box[2] <= op.fit[0] and box[3] <= op.fit[1], f"{where}: {name} “{f.text}” {box} > {op.fit}"
        w, h = R.text_extent(
            f.text,
            f.size,
            face=op.settings["font"]["face"],
            bold=op.settings["font"]["style"] == "Bold",
            shadow=bool(op.settings.get("drop_shadow")),
        )
        assert (box[2], box[3]) == (w, h), f"{where}: {name} squeezed by the picture"


@pytest.mark.parametrize("alphabet", ["cjk", "latin"])
def test_every_native_text_is_whole_inside_its_box_at_the_maxima(alphabet: str) -> None:
    state = max_state(alphabet)
    quiet = max_state(alphabet)
    quiet["table"]["message"] = ""  # the referee line takes the scoreboard's foot: also without it
    drawn = ""
    for graphic, st in [(g, state) for g in PAINTERS] + [("scoreboard", quiet)]:
        ops, fitted = paint_graphic(graphic, st)
        check_fitted(ops, fitted, f"{graphic} ({alphabet})")
        for name, f in fitted.items():
            if graphic == "ticker" and name == "字幕条·文字":
                continue  # every line joined (the native ticker does not crawl): checked below
            assert f.how != "ellipsis", f"{graphic}: {name} cut at its maximum: “{f.text}”"
        drawn += "\n".join(str(o.settings.get("text", "")).replace("\n", "") for o in ops.values())
    # every field a page draws reaches the native graphics whole at its maximum (the same maxima)
    native_fields = [f for f, sel in WHERE.items() if sel and f not in NOT_NATIVE and f not in ENGINE_WORDS]
    for k, (field, n) in enumerate(limits().items()):
        if field in native_fields:
            value = text_of(n, alphabet, start=7 * k)
            assert value in drawn, f"{field}: “{value}” ({n} characters) not drawn whole by OBS"
    # the ticker: its first line whole at its maximum, the rest cut with … where the band ends
    _ops, fitted = paint_graphic("ticker", state)
    first = state["sponsors"]["ticker"][0]
    assert len(first) == limits()["sponsors.ticker[]"] and fitted["字幕条·文字"].text.startswith(first)


def test_a_text_longer_than_its_maximum_shrinks_to_its_floor_then_ends_with_an_ellipsis() -> None:
    """A text past every maximum (a journal older than the maxima): at its floor, cut with …, inside."""
    state = max_state("cjk")
    state["lower_third"]["name"] = "王" * 40
    state["sponsors"]["special"]["name"] = "临沂沂蒙山泉矿泉水饮品有限公司临沂分公司"
    for graphic, name, role in (
        ("lower_third", "人名条·姓名", "text"),
        ("corner_bug", "角标·文字", "sponsor"),
    ):
        ops, fitted = paint_graphic(graphic, state)
        check_fitted(ops, fitted, graphic)
        f = fitted[name]
        assert f.how == "ellipsis" and f.text.endswith(ELLIPSIS) and len(f.text) < 40
        assert f.size == f.floor and ops[name].settings["font"]["size"] == f.floor
        assert f.floor >= T.fit_floor(role, {"人名条·姓名": 52, "角标·文字": 28}[name]) - 1e-9
    # on two lines: balanced before shrinking, the second line ending with … at the floor
    two = fit_text("够级" * 20, 22, SEAT_NAME_BOX, bold=True, lines=2)
    assert two.how == "ellipsis" and two.text.count("\n") == 1 and two.text.endswith(ELLIPSIS)
    short = fit_text("张三", 22, SEAT_NAME_BOX, bold=True, lines=2)
    assert (short.text, short.size, short.how) == ("张三", 22, "base")


def test_native_graphics_that_air_together_do_not_overlap() -> None:
    """At the maxima, the panels of the graphics one air scene carries (the 角标 is on screen for the
    whole broadcast) do not run into each other."""
    state = max_state("cjk")

    def extent(graphic: str) -> tuple[float, float, float, float]:
        ops, _ = paint_graphic(graphic, state)
        boxes = [
            (s.x, s.y, s.x + s.settings["width"], s.y + s.settings["height"])
            for s in ops.values()
            if s.kind == COLOR and int(s.settings["color"]) >> 24 > 0
        ]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    for scene, graphics in L.SCENE_GRAPHICS.items():
        boxes = {g: extent(g) for g in graphics}
        names = list(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if {a, b} == {"jiugongge", "lower_third"}:
                    continue  # the contestant's 人名条 is laid over the board's foot on purpose
                x = min(boxes[a][2], boxes[b][2]) - max(boxes[a][0], boxes[b][0])
                y = min(boxes[a][3], boxes[b][3]) - max(boxes[a][1], boxes[b][1])
                assert x <= 0 or y <= 0, f"{scene}: {a} {boxes[a]} overlaps {b} {boxes[b]}"
