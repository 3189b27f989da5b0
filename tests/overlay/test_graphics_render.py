"""Every graphic renders the demo state in real headless Chromium: DOM assertions, a screenshot saved
as an artifact, and a pixel check (the graphic's region is drawn, everything else is transparent) —
``check_renders_demo_state``, run on each graphic's own page by tests/overlay/test_fit.py before it sends
that page the maxima (one page load for both); here the program page: all off, the composite, the
sponsors' placements."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import NAMES, demo_state
from broadcast.overlay.memory import MemoryStore
from broadcast.show.actions import GRAPHICS
from tests.overlay.conftest import (
    SAFE,
    assert_outside_safe_is_transparent,
    box_area,
    element_box,
    opaque_bbox,
    opaque_fraction,
    open_page,
    screenshot,
    settle,
    wait_rendered,
)


def _texts(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")


def _check_scoreboard(page: Any) -> None:
    assert _texts(page, ".scoreboard .seat .name") == list(NAMES)
    seats = page.eval_on_selector_all(
        ".scoreboard .seat",
        "els => els.map(e => ({cls: e.className, cards: e.querySelector('.cards').textContent,"
        " title: e.querySelector('.title').textContent, team: e.dataset.team}))",
    )
    assert [s["team"] for s in seats] == ["odd", "even"] * 3
    assert [s["cards"] for s in seats] == ["7", "12", "", "21", "9", "16"]
    assert seats[2]["title"] == "头科" and "finished" in seats[2]["cls"]
    # 报牌 highlight at ≤ 10 cards (seats 1 and 5), not at 12 or more
    assert [("baopai" in s["cls"]) for s in seats] == [True, False, False, False, True, False]
    assert [("turn" in s["cls"].split()) for s in seats] == [False, False, False, True, False, False]
    assert "wutou" in seats[5]["cls"]
    assert page.text_content(".scoreboard .game-no") == "第2局"
    assert page.text_content(".scoreboard .game-of") == "共3局"
    assert _texts(page, ".scoreboard .team-points") == ["17", "11"]
    assert _texts(page, ".scoreboard .team-name") == ["小当家联盟队", "沂蒙山泉队"]
    assert page.text_content(".scoreboard .lp-play") == "五个10"
    assert page.text_content(".scoreboard .lp-seat") == "1号"
    assert _texts(page, ".scoreboard .lp-cards .chip") == ["10"] * 5
    assert page.text_content(".scoreboard .turn-name") == "4号 赵海峰"
    assert page.text_content(".scoreboard .disc-name") == "小当家便利店"
    assert page.get_attribute(".scoreboard .disc-logo", "src") == "/overlay/assets/demo/xdj.svg"
    assert page.eval_on_selector(".scoreboard .disc-logo", "e => e.complete && e.naturalWidth > 0")
    assert _texts(page, ".scoreboard .pip-score") == ["17:11"]


def _check_leaderboard(page: Any) -> None:
    assert page.text_content(".leaderboard .lb-sponsor") == "金沂蒙酒业"
    assert page.text_content(".leaderboard .lb-title") == "够级英雄榜"
    names = _texts(page, ".leaderboard .lb-body .name")
    assert len(names) == 10 and names[0] == "王建军"
    assert _texts(page, ".leaderboard .lb-body .points")[:2] == ["86", "81"]
    # ties share a rank and say so (rows 3 and 4: 77 points)
    assert _texts(page, ".leaderboard .lb-body .rank")[2:5] == ["3并列", "3并列", "5"]


def _check_jiugongge(page: Any) -> None:
    assert len(_texts(page, ".jiugongge .jg-cell")) == 9
    assert _texts(page, ".jiugongge .jg-sponsor")[0] == "小当家便利店"
    chosen = page.eval_on_selector_all(".jiugongge .jg-cell.chosen", "els => els.map(e => e.dataset.cell)")
    assert chosen == ["4"]
    taken = page.eval_on_selector_all(".jiugongge .jg-cell.taken", "els => els.map(e => e.dataset.cell)")
    assert taken == ["0"]
    assert page.text_content(".jiugongge .jg-r-prize") == "500元购物卡"
    assert page.text_content(".jiugongge .jg-r-sponsor") == "本礼品由「临沂商城物流」提供"
    assert page.text_content(".jiugongge .jg-r-who") == "恭喜 李春燕 抽中"


def _check_corner_bug(page: Any) -> None:
    assert page.text_content(".corner-bug .cb-cap") == "独家特约"
    assert page.text_content(".corner-bug .cb-name") == "沂蒙山泉"


def _check_bumper(page: Any) -> None:
    assert page.text_content(".bumper .bp-text") == "《够级大明星》栏目由“小当家便利店”独家冠名播出"


def _check_ticker(page: Any) -> None:
    items = _texts(page, ".ticker .tk-item")
    assert len(items) == 3 and items[0].startswith("小当家便利店")
    # the crawl moves by transform only
    assert page.eval_on_selector(".ticker .tk-track", "e => e.getAnimations().length") == 1


def _check_qualifiers(page: Any) -> None:
    assert page.text_content(".qualifiers .qb-sponsor") == "临沂商城物流"
    assert page.text_content(".qualifiers .qb-title") == "2012春季网络海选"
    assert _texts(page, ".qualifiers .qb-body .name")[:2] == ["沂蒙够级王", "临沂老K"]
    assert _texts(page, ".qualifiers .qb-body .pid")[0] == "QL1002331"
    assert _texts(page, ".qualifiers .qb-body .rank")[2:5] == ["3并列", "3并列", "5"]
    assert _texts(page, ".qualifiers .qb-body .rate")[0] == "28.1%"
    assert _texts(page, ".qualifiers .qb-body .points")[:2] == ["412", "398"]
    assert "按积分" in page.text_content(".qualifiers .qb-foot")


def _check_credits(page: Any) -> None:
    assert page.text_content(".credits .cr-heading") == "片尾鸣谢"
    assert _texts(page, ".credits .cr-role")[:3] == ["独家冠名", "独家特约", "赞助播出"]
    assert "小当家便利店" in _texts(page, ".credits .cr-name")


def _check_commentary(page: Any) -> None:
    assert page.text_content(".commentary .cm-title") == "够级大明星"
    assert page.text_content(".commentary .cm-cap") == "解说区"
    assert page.text_content(".commentary .cm-name") == "沂河电器"


def _check_lower_third(page: Any) -> None:
    assert page.text_content(".lower-third .lt-name") == "王建军"
    assert page.text_content(".lower-third .lt-line2") == "小当家联盟队 · 英雄榜第一名"


def _check_jipaiqi(page: Any) -> None:
    assert _texts(page, ".jipaiqi .jp-label") == ["大王", "小王", "2"]
    assert _texts(page, ".jipaiqi .jp-count") == ["1", "2", "5"]


def _check_winprob(page: Any) -> None:
    assert _texts(page, ".winprob .wp-team") == ["小当家联盟队", "沂蒙山泉队"]
    assert page.text_content(".winprob .wp-title") == "胜率（估算）"  # labelled as an estimate
    assert _texts(page, ".winprob .wp-pct") == ["62%", "33%"]
    assert (
        page.text_content(".winprob .wp-foot") == "第46步后 · 平局 5% · 1000次推演估算"
    )  # the move it is of
    settle(page)  # the bars grow to their figures: measured where they rest, as a viewer sees them
    widths = page.eval_on_selector_all(
        ".winprob .wp-fill", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    total = sum(widths)
    assert abs(widths[0] / total - 0.62) < 0.02 and abs(widths[2] / total - 0.33) < 0.02, widths


CHECKS = {
    "scoreboard": _check_scoreboard,
    "leaderboard": _check_leaderboard,
    "qualifiers": _check_qualifiers,
    "jiugongge": _check_jiugongge,
    "corner_bug": _check_corner_bug,
    "bumper": _check_bumper,
    "ticker": _check_ticker,
    "credits": _check_credits,
    "commentary": _check_commentary,
    "lower_third": _check_lower_third,
    "jipaiqi": _check_jipaiqi,
    "winprob": _check_winprob,
}


def demo_state_for(graphic: str) -> dict[str, Any]:
    st = demo_state(on=(graphic,))
    if graphic == "jiugongge":
        st["jiugongge"]["draws"] = [
            {"id": 1, "contestant": "王建军", "cell": 0},
            {"id": 2, "contestant": "李春燕", "cell": 4},
        ]
        st["jiugongge"]["draw"] = {"id": 2, "contestant": "李春燕", "cell": 4}
    if graphic == "bumper":
        st["graphics"]["program"]["bumper"]["item"] = "title"
    if graphic == "credits":
        st["graphics"]["program"]["credits"]["item"] = "still"  # a still card for the pixel check
    return st


def test_every_graphic_has_a_check() -> None:
    assert set(CHECKS) == set(GRAPHICS)


def check_renders_demo_state(page: Any, graphic: str, shots: Path) -> None:
    """``graphic``'s own page, just loaded on ``demo_state_for(graphic)``: its DOM shows the demo state
    (``CHECKS``), every part of it is laid out inside the title-safe area, and the pixels are drawn in its
    box and nowhere else (screenshot saved as an artifact). Run for every graphic by
    tests/overlay/test_fit.py on the page it then sends the maxima (one page load per graphic for both)."""
    root = f"[data-graphic={graphic}]"
    assert page.eval_on_selector(root, "e => e.classList.contains('on')")
    CHECKS[graphic](page)
    img = screenshot(page, shots / f"{graphic}.png")
    bbox = element_box(page, root)
    # every part of the graphic is laid out inside the title-safe area (moving crawls/rolls aside)
    outside = page.eval_on_selector_all(
        f"{root} *",
        "(els, safe) => els.filter(e => !e.closest('.tk-track, .cr-roll')).map(e => {"
        " const r = e.getBoundingClientRect(); return r.width && r.height &&"
        " (r.left < safe[0] - 1 || r.top < safe[1] - 1 ||"
        " r.right > safe[2] + 1 || r.bottom > safe[3] + 1)"
        " ? e.className : null; }).filter(Boolean)",
        list(SAFE),
    )
    assert outside == [], outside
    assert page.errors == []
    # the graphic sits inside the title-safe area and draws there ...
    assert SAFE[0] <= bbox[0] and SAFE[1] <= bbox[1] and bbox[2] <= SAFE[2] and bbox[3] <= SAFE[3], bbox
    drawn = opaque_bbox(img)
    assert drawn is not None, f"{graphic}: nothing was drawn"
    assert opaque_fraction(img, bbox) > 0.05, f"{graphic}: the graphic's region is (nearly) empty"
    # ... and nowhere else: outside its own box (and the title-safe area) the page stays transparent
    assert_outside_safe_is_transparent(img)
    shadow = 40  # drop shadows may spill a little past the box
    assert drawn[0] >= bbox[0] - shadow and drawn[1] >= bbox[1] - shadow, (graphic, drawn, bbox)
    assert drawn[2] <= bbox[2] + shadow and drawn[3] <= bbox[3] + shadow, (graphic, drawn, bbox)
    assert box_area(bbox) > 0


@pytest.mark.browser
def test_graphic_off_draws_nothing(page: Any, shots: Path) -> None:
    store = MemoryStore(demo_state(on=()))
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        img = screenshot(page, shots / "program_all_off.png")
        assert page.eval_on_selector_all(".g.on", "els => els.length") == 0
    assert opaque_bbox(img) is None


@pytest.mark.browser
def test_composite_program_page(page: Any, shots: Path) -> None:
    on = ("scoreboard", "corner_bug", "ticker", "jipaiqi", "commentary", "lower_third")
    store = MemoryStore(demo_state(on=on))
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        shown = page.eval_on_selector_all(".g.on", "els => els.map(e => e.dataset.graphic)")
        assert sorted(shown) == sorted(on)
        img = screenshot(page, shots / "program_composite.png")
        boxes = [element_box(page, f"[data-graphic={g}]") for g in on]
        fonts_ok = page.evaluate("document.fonts.check('32px \"Gouji CJK\"', '够级大明星')")
    assert fonts_ok
    assert_outside_safe_is_transparent(img)
    for b in boxes:
        assert opaque_fraction(img, b) > 0.05
    # the middle of the picture (the players) is left clear
    assert opaque_bbox(img, (560, 300, 1100, 700)) is None


@pytest.mark.browser
def test_sponsor_logos_from_the_placements_file(page: Any, shots: Path) -> None:
    """The sponsors' real demo placements (sponsor_assets/) load through /assets/sponsors/."""
    from broadcast.sponsors.placements import load_placements, to_state
    from broadcast.studio import open_store

    placements = load_placements(Path(__file__).resolve().parents[2] / "sponsor_assets/demo/placements.yaml")
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d) / "s.sqlite")
        store.dispatch("sponsors.load", to_state(placements))
        for g in ("scoreboard", "corner_bug"):
            store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
        with OverlayServer(store, port=0) as srv:
            open_page(page, srv.url("program"), store.seq)
            screenshot(page, shots / "program_placements.png")
            for sel in (".corner-bug .cb-logo", ".scoreboard .disc-logo"):
                src = page.get_attribute(sel, "src")
                assert src and src.startswith("/assets/sponsors/"), src
                assert page.eval_on_selector(sel, "e => e.complete && e.naturalWidth > 0"), sel
            assert page.text_content(".corner-bug .cb-name") == store.state["sponsors"]["special"]["name"]
        store.close()


@pytest.mark.browser
def test_a_browser_source_of_1280x720_shows_the_whole_picture_scaled(page: Any, shots: Path) -> None:
    """OBS on a 720p canvas takes the pages as 1280×720 browser sources: the viewer sees the same
    picture as at 1920×1080, two thirds the size — every graphic whole in the frame, in the same place
    (before, the 1920×1080 canvas was cut: the 九宫格's right-hand column and bottom row were off
    the frame)."""
    on = ("scoreboard", "ticker", "lower_third", "corner_bug", "jiugongge")
    store = MemoryStore(demo_state(on=on))
    rect = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        settle(page)
        big = {g: page.eval_on_selector(f"[data-graphic={g}]", rect) for g in on}
        page.set_viewport_size({"width": 1280, "height": 720})
        try:
            open_page(page, srv.url("program"))
            img = screenshot(page, shots / "program_1280x720.png")
            small = {g: page.eval_on_selector(f"[data-graphic={g}]", rect) for g in on}
            fitted = page.evaluate("window.__fit")
        finally:
            page.set_viewport_size({"width": 1920, "height": 1080})
    assert img.size == (1280, 720)
    for g in on:
        left, top, right, bottom = small[g]
        assert 0 <= left and 0 <= top and right <= 1280 and bottom <= 720, (g, small[g])  # whole in frame
        for a, b in zip(small[g], big[g], strict=True):
            assert abs(a - b * 2 / 3) <= 2, (g, small[g], big[g])  # the same place, two thirds the size
        assert opaque_fraction(img, tuple(round(v) for v in small[g])) > 0.05, g  # and drawn there
    assert fitted["pending"] == 0, fitted  # every text fitted (none left waiting as if edge-on)


# every transition paused where it starts (the moment a change begins to show), and what each graphic
# shows then: its opacity and whether it is still on its way out or in
FREEZE = """() => { window.__freeze = true; addEventListener('transitionrun', () => {
  if (window.__freeze) for (const a of document.getAnimations()) a.pause(); }, true); }"""
LOOK = """ids => ids.map(id => { const e = document.querySelector(`[data-graphic="${id}"]`);
  const moving = e.getAnimations().some(a => a.transitionProperty === 'opacity');
  return [id, +getComputedStyle(e).opacity, moving]; })"""


@pytest.mark.browser
def test_a_full_frame_item_and_what_it_replaces_are_never_drawn_over_each_other(page: Any) -> None:
    """A TAKE from the 英雄榜 to the 九宫格, the 九宫格 ending and giving the scoreboard back, the credits
    covering the scoreboard: at the moment the newer begins its way in the older is already gone (it
    leaves at once), so no frame shows the two mixed over each other — before, both faded at once and the
    frames in between showed the 英雄榜 at half strength through the 九宫格."""
    steps = [("leaderboard", "jiugongge"), ("jiugongge", "scoreboard"), ("scoreboard", "credits")]
    store = MemoryStore(demo_state(on=(steps[0][0],)))
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        page.evaluate(FREEZE)
        for older, newer in steps:
            settle(page)

            def swap(st: dict[str, Any], older: str = older, newer: str = newer) -> None:
                st["graphics"]["program"][older]["on"] = False
                st["graphics"]["program"][newer]["on"] = True

            change = store.edit(swap)
            wait_rendered(page, change.seq)
            page.wait_for_function(  # the newer's way in has begun (and is held there)
                f"() => document.querySelector('[data-graphic=\"{newer}\"]').getAnimations().length > 0"
            )
            (_o, old_opacity, old_moving), (_n, _new_opacity, new_moving) = page.evaluate(
                LOOK, [older, newer]
            )
            assert new_moving, (older, newer)
            assert old_opacity == 0 and not old_moving, (
                f"{older} is still drawn ({old_opacity:.2f}, fading: {old_moving}) as {newer} comes in"
            )
            page.evaluate("() => document.getAnimations().forEach(a => a.play())")
        settle(page)
        assert page.evaluate(LOOK, ["scoreboard", "credits"]) == [
            ["scoreboard", 0, False],
            ["credits", 1, False],
        ]
