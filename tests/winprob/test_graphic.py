"""The 胜率 graphic as a viewer sees it, in the page (the session's Chromium) and in the native OBS graphic:
the figures shown are of the decision the graphic names — a decision keyed since they were made (or one
taken back and keyed differently) takes them off until its own come; its texts fit its box at their
declared maxima (the longest team names, 4-digit move numbers, the worker's largest run); it stays in
its zone (overlays/tokens.json); and, end to end, with the studio's evaluator running from the store, every
figure that reaches the page is the one the evaluator made for the move the page names."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from broadcast import tokens as T
from broadcast.obs.graphics import winprob as native
from broadcast.obs.graphics.paint import Painter
from broadcast.obs.spec import COLOR
from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore
from broadcast.rehearsal import selfplay_records
from broadcast.studio import open_store
from broadcast.winprob.service import WinprobService
from tests.overlay.conftest import screenshot, settle, wait_rendered
from tests.textfit import max_state

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "winprob"
BOX = T.zone("winprob").box

# the texts of the page graphic, in the order a viewer reads them
TEXTS = """root => ({
  moves: root.dataset.moves,
  pending: root.classList.contains('pending'),
  pct: [...root.querySelectorAll('.wp-pct')].map(e => e.textContent),
  foot: root.querySelector('.wp-foot').textContent,
})"""
# texts wider or taller than their element, and the graphic's box
OVERFLOW = """root => [...root.querySelectorAll('.wp-team, .wp-title, .wp-pct, .wp-foot')]
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => `${e.className}: ${e.textContent} ${e.scrollWidth}×${e.scrollHeight}`
    + ` > ${e.clientWidth}×${e.clientHeight}`)"""
RECT = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"


def _shown(page: Any) -> dict[str, Any]:
    return dict(page.eval_on_selector(".winprob", TEXTS))


def _inside_zone(page: Any) -> None:
    settle(page)  # measured where it rests, as a viewer sees it: not 0.6 px into its in-transition
    x, y, w, h = page.eval_on_selector(".winprob", RECT)
    assert BOX[0] - 0.5 <= x and x + w <= BOX[0] + BOX[2] + 0.5, (x, w, BOX)
    assert BOX[1] - 0.5 <= y and y + h <= BOX[1] + BOX[3] + 0.5, (y, h, BOX)


@pytest.mark.browser
def test_the_page_shows_only_figures_of_the_move_on_the_table_and_fits_at_its_maxima(page: Any) -> None:
    st = demo_state(on=("winprob",))
    store = MemoryStore(st)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with OverlayServer(store, port=0) as srv:
        page.goto(srv.url("winprob"))
        wait_rendered(page, store.seq)
        page.wait_for_function("document.querySelector('.winprob.on') !== null")
        assert _shown(page) == {
            "moves": "46",
            "pending": False,
            "pct": ["62%", "33%"],
            "foot": "第46步后 · 平局 5% · 1000次推演估算",
        }
        _inside_zone(page)
        screenshot(page, SHOTS / "graphic.png")

        # a decision keyed: the figures of move 46 go off until move 47's come
        def table(moves: int, last: str) -> None:
            store.edit(lambda s: s["table"].update(moves=moves, last_move=last))
            wait_rendered(page, store.seq)

        table(47, "4 pass")
        assert _shown(page) == {"moves": "", "pending": True, "pct": ["…", "…"], "foot": "第47步 估算中…"}
        screenshot(page, SHOTS / "graphic-pending.png")
        # taken back and keyed differently: 46 decisions again, but not the ones the figures are of
        table(46, "3 22")
        assert _shown(page)["pending"] is True and _shown(page)["pct"] == ["…", "…"]
        table(46, "3 pass")  # back to the position they are of
        assert _shown(page)["pct"] == ["62%", "33%"]
        # another game of the match with as many decisions: not its figures either
        store.edit(lambda s: s["table"].update(game_no=3))
        wait_rendered(page, store.seq)
        assert _shown(page)["pending"] is True

        # the same game dealt again (a misdeal): the same number, as many decisions, another deal — the
        # figures of the deal gone never show (table.deal against winprob.current.deal)
        def deal(on_table: int) -> None:
            def edit(s: dict[str, Any]) -> None:
                s["table"].update(game_no=2, deal=on_table)
                s["winprob"]["current"]["deal"] = 4

            store.edit(edit)
            wait_rendered(page, store.seq)

        deal(4)
        assert _shown(page)["pct"] == ["62%", "33%"]
        deal(5)
        assert _shown(page) == {"moves": "", "pending": True, "pct": ["…", "…"], "foot": "第46步 估算中…"}

        # at the maxima: the longest team names, a 4-digit move, the worker's largest run, 100 % level
        big = max_state("cjk", on=("winprob",))
        cur = big["winprob"]["current"]
        cur.update(
            moves=9999, odd=0.0, even=0.0, level=1.0, playouts=100_000, game_no=big["table"]["game_no"]
        )
        big["table"].update(moves=9999)
        store.replace(copy.deepcopy(big))
        wait_rendered(page, store.seq)
        shown = _shown(page)
        assert shown["foot"] == "第9999步后 · 平局 100% · 100000次推演估算" and shown["pct"] == ["0%", "0%"]
        assert page.eval_on_selector(".winprob", OVERFLOW) == []
        _inside_zone(page)
        screenshot(page, SHOTS / "graphic-maxima.png")
        big["table"].update(moves=9998)  # and its pending line at the maximum
        store.replace(big)
        wait_rendered(page, store.seq)
        assert _shown(page)["foot"] == "第9998步 估算中…"
        assert page.eval_on_selector(".winprob", OVERFLOW) == []
    assert page.errors == []  # type: ignore[attr-defined]


def _paint(state: dict[str, Any]) -> dict[str, Any]:
    p = Painter("winprob", T.native_font(), lambda ref: ref)
    native.paint(p, state)
    return {"ops": {op.name: op for op in p.ops}, "fitted": p.fitted}


def test_the_native_graphic_shows_only_figures_of_the_move_on_the_table_and_fits_at_its_maxima() -> None:
    st = demo_state(on=("winprob",))
    now = _paint(st)["ops"]
    assert [now[n].settings["text"] for n in ("胜率·单号率", "胜率·双号率", "胜率·注")] == [
        "62%",
        "33%",
        "第46步后 · 平局 5% · 1000次推演估算",
    ]
    full = int(now["胜率·单号条"].settings["color"]) >> 24
    st["table"].update(moves=47, last_move="4 pass")
    later = _paint(st)["ops"]
    assert [later[n].settings["text"] for n in ("胜率·单号率", "胜率·双号率", "胜率·注")] == [
        "…",
        "…",
        "第47步 估算中…",
    ]
    assert int(later["胜率·单号条"].settings["color"]) >> 24 < full  # … dimmed, not a figure
    # the same ops (a picture's sources never change with the state), all inside the zone's box
    assert set(later) == set(now)
    x0, y0, w0, h0 = BOX
    for op in now.values():
        if op.kind == COLOR:
            assert x0 <= op.x and op.x + op.settings["width"] <= x0 + w0, op.name
            assert y0 <= op.y and op.y + op.settings["height"] <= y0 + h0, op.name
    # at the maxima: every text whole
    big = max_state("cjk", on=("winprob",))
    big["winprob"]["current"].update(moves=9999, level=1.0, playouts=100_000, game_no=big["table"]["game_no"])
    big["table"].update(moves=9999)
    assert [native.pct(x) for x in (0.525, 0.015, 0.5149, 1.2)] == ["53%", "2%", "51%", "100%"]  # as JS
    drawn = _paint(big)
    assert drawn["ops"]["胜率·注"].settings["text"] == "第9999步后 · 平局 100% · 100000次推演估算"
    for name, f in drawn["fitted"].items():
        assert f.how != "ellipsis", f"{name} cut at its maximum: {f.text}"


def _wait_for(store: Any, moves: int) -> None:
    import time

    end = time.monotonic() + 120  # a guard against a worker that never answers, not a speed goal
    while time.monotonic() < end:
        cur = store.state["winprob"]["current"]
        if cur is not None and cur["moves"] == moves:
            return
        time.sleep(0.05)
    raise AssertionError(f"no 胜率 for decision {moves}")


# every (move named, percentages) the graphic showed, recorded in the page as it changed
RECORD = """() => {
  window.__seen = [];
  const root = document.querySelector('.winprob');
  const note = () => window.__seen.push([root.dataset.moves || '',
    [...root.querySelectorAll('.wp-pct')].map(e => e.textContent)]);
  new MutationObserver(note).observe(root, {subtree: true, childList: true, characterData: true,
    attributes: true});
  note();
}"""


@pytest.mark.browser
def test_with_the_evaluator_running_every_figure_on_air_is_the_one_made_for_the_move_named(
    page: Any, tmp_path: Path
) -> None:
    store = open_store(tmp_path / "s.sqlite")
    rec = selfplay_records(2011, "tv_match")[0]
    try:
        # put on air like any graphic: on preview, then TAKE
        store.dispatch("graphic.set", {"bus": "preview", "graphic": "winprob", "on": True})
        store.dispatch("bus.take", {})
        with (
            OverlayServer(store, port=0) as srv,
            WinprobService(store, workers=1, playouts=40) as svc,
        ):
            store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
            _wait_for(store, 0)
            page.goto(srv.url("winprob"))
            wait_rendered(page, store.seq)
            page.evaluate(RECORD)
            for line in rec.moves[:10]:  # keyed faster than the worker answers: older runs cancelled
                store.dispatch("game.play", {"line": line})
            _wait_for(store, 10)
            wait_rendered(page, store.seq)
            page.wait_for_function("document.querySelector('.winprob').dataset.moves === '10'")
            seen = page.evaluate("window.__seen")
            assert svc.errors == []
            store.dispatch("graphic.clear", {"graphic": "winprob"})  # and off like any graphic
            wait_rendered(page, store.seq)
            page.wait_for_function("document.querySelector('.winprob.on') === null")
        history = {h["moves"]: h for h in store.state["winprob_history"]["history"]}
        figures = [(m, pct) for m, pct in seen if m]
        assert figures and figures[-1][0] == "10"
        for moves, pct in figures:  # each figure shown is the evaluator's for the move it names
            point = history[int(moves)]
            assert pct == [native.pct(point["odd"]), native.pct(point["even"])], (moves, pct)
        for moves, pct in seen:  # and none is shown without naming its move
            assert moves or pct in (["…", "…"], ["—", "—"]), (moves, pct)
    finally:
        store.close()
