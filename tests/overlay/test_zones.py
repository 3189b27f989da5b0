"""The one table of zones and layers (overlays/tokens.json → broadcast.show.zones): what may share
program. Every pair of graphics has one answer — coexist, replace, cover (a full-frame item clears the
older and brings it back when it ends) or refuse — and the store, the pages and the native OBS graphics
follow it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broadcast import tokens as T
from broadcast.core import ActionRefused
from broadcast.obs import layout as L
from broadcast.obs.graphics import FRAMES
from broadcast.show import zones
from broadcast.show.actions import GRAPHICS
from broadcast.studio import open_store

# The table as the studio means it, written out by hand (rows: the newer graphic, coming on; columns:
# the older, on program): c coexist, r replace, v cover (cleared, brought back when it ends), x refuse.
COLS = ("scoreboard", "jipaiqi", "lower_third", "commentary", "ticker", "corner_bug", "bumper", "jiugongge",
        "leaderboard", "qualifiers", "credits", "winprob")  # fmt: skip
EXPECTED = {
    #              sb   jp   lt   cm   tk   cb   bp   jg   lb   qb   cr   wp
    "scoreboard": ("-", "c", "c", "c", "c", "c", "x", "x", "x", "x", "x", "c"),
    "jipaiqi": ("c", "-", "c", "c", "c", "c", "x", "x", "x", "x", "x", "c"),
    "lower_third": ("c", "c", "-", "c", "c", "c", "x", "x", "x", "x", "x", "c"),
    "commentary": ("c", "c", "c", "-", "c", "c", "x", "x", "x", "x", "x", "c"),
    "ticker": ("c", "c", "c", "c", "-", "c", "x", "x", "x", "x", "x", "c"),
    "corner_bug": ("c", "c", "c", "c", "c", "-", "c", "c", "c", "c", "c", "c"),
    "bumper": ("v", "v", "v", "v", "v", "c", "-", "r", "r", "r", "r", "v"),
    "jiugongge": ("v", "v", "v", "v", "v", "c", "r", "-", "r", "r", "r", "v"),
    "leaderboard": ("v", "v", "v", "v", "v", "c", "r", "r", "-", "r", "r", "v"),
    "qualifiers": ("v", "v", "v", "v", "v", "c", "r", "r", "r", "-", "r", "v"),
    "credits": ("v", "v", "v", "v", "v", "c", "r", "r", "r", "r", "-", "v"),
    "winprob": ("c", "c", "c", "c", "c", "c", "x", "x", "x", "x", "x", "-"),
}
WORD = {"c": "coexist", "r": "replace", "v": "cover", "x": "refuse"}
PAIRS = [(n, o) for n in COLS for o in COLS if n != o]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    s = open_store(tmp_path / "zones.sqlite")
    yield s
    s.close()


def _program(store: Any) -> dict[str, str]:
    return {g: e["item"] for g, e in store.state["graphics"]["program"].items() if e["on"]}


def _set(store: Any, graphic: str, on: bool = True, item: str = "", bus: str = "program") -> Any:
    payload: dict[str, Any] = {"bus": bus, "graphic": graphic, "on": on}
    if item:
        payload["item"] = item
    return store.dispatch("graphic.set", payload)


def test_the_table_covers_every_graphic_and_every_pair() -> None:
    assert set(COLS) == set(GRAPHICS) == set(T.zones())
    for newer, older in PAIRS:
        want = WORD[EXPECTED[newer][COLS.index(older)]]
        assert zones.verdict(newer, older) == want, f"{newer} over {older}: {zones.verdict(newer, older)}"


def test_graphics_that_may_share_program_have_boxes_apart() -> None:
    """Coexisting graphics never overlap: the boxes decide, so nothing allowed on together is drawn
    over another; the full-frame items' boxes cover the graphics they clear or replace."""
    for newer, older in PAIRS:
        if zones.verdict(newer, older) == "coexist":
            assert not zones.overlap(newer, older), f"{newer} and {older} share program but overlap"
    assert zones.overlap("bumper", "scoreboard")  # what the bumper used to be drawn across
    assert zones.overlap("leaderboard", "ticker")


@pytest.mark.parametrize(("newer", "older"), PAIRS)
def test_a_graphic_put_on_program_follows_the_table(store: Any, newer: str, older: str) -> None:
    _set(store, older, item="old")
    before = store.state["graphics"]
    want = zones.verdict(newer, older)
    if want == "refuse":
        with pytest.raises(ActionRefused) as err:
            _set(store, newer, item="new")
        assert err.value.rule == "zones"
        assert zones.ZH[older] in err.value.zh and zones.ZH[newer] in err.value.zh
        assert store.state["graphics"] == before  # nothing changed
        return
    _set(store, newer, item="new")
    got = _program(store)
    held = store.state["graphics"]["held"]
    if want == "coexist":
        assert got == {older: "old", newer: "new"}
    elif want == "replace":
        assert got == {newer: "new"} and not held
    else:  # cover: held under the full-frame item, back when it ends
        assert got == {newer: "new"} and held == {older: {"item": "old", "by": newer}}
    _set(store, newer, on=False)
    back = T.zone(newer).restores
    if want == "cover":
        assert _program(store) == ({older: "old"} if older in back else {})
    assert not store.state["graphics"]["held"]


def test_the_bumper_over_the_scoreboard_and_lower_third_clears_them_and_brings_them_back(store: Any) -> None:
    """The case seen on air: scoreboard and a lower third on program, GO on a bumper. The bumper clears
    both (no band across them), the next bumper replaces it keeping them held, and when the last bumper
    ends they come back; the corner bug stays throughout."""
    for g in ("corner_bug", "scoreboard", "lower_third"):
        _set(store, g, bus="preview", item=g)
    store.dispatch("bus.take", {})
    _set(store, "bumper", item="title")
    assert _program(store) == {"corner_bug": "corner_bug", "bumper": "title"}
    assert store.state["graphics"]["transition"] == "mix"  # the older leave with their own animation
    _set(store, "bumper", item="special")
    assert _program(store)["bumper"] == "special"
    _set(store, "leaderboard", item="rank")  # replaces the bumper; what it held stays held
    assert _program(store) == {"corner_bug": "corner_bug", "leaderboard": "rank"}
    assert set(store.state["graphics"]["held"]) == {"scoreboard", "lower_third"}
    _set(store, "leaderboard", on=False)
    assert _program(store) == {g: g for g in ("corner_bug", "scoreboard", "lower_third")}


def test_a_take_follows_the_table(store: Any) -> None:
    for g in ("scoreboard", "ticker"):
        _set(store, g, bus="preview")
    store.dispatch("bus.take", {})
    # preview adds the 英雄榜 to what it shows: the TAKE puts the board on, covering the rest
    _set(store, "leaderboard", bus="preview")
    store.dispatch("bus.cut", {})
    assert set(_program(store)) == {"leaderboard"}
    assert set(store.state["graphics"]["held"]) == {"scoreboard", "ticker"}
    # the same preview again: nothing comes back while the board is on
    store.dispatch("bus.take", {})
    assert set(_program(store)) == {"leaderboard"}
    # two full-frame items on preview: refused, with both named
    _set(store, "credits", bus="preview")
    with pytest.raises(ActionRefused) as err:
        store.dispatch("bus.take", {})
    assert "英雄榜" in err.value.zh and "片尾" in err.value.zh
    # the board off preview: the TAKE ends it and brings back what it held
    _set(store, "credits", on=False, bus="preview")
    _set(store, "leaderboard", on=False, bus="preview")
    store.dispatch("bus.take", {})
    assert set(_program(store)) == {"scoreboard", "ticker"} and not store.state["graphics"]["held"]
    # a held graphic taken off preview does not come back
    _set(store, "leaderboard", bus="preview")
    store.dispatch("bus.take", {})
    _set(store, "ticker", on=False, bus="preview")
    _set(store, "leaderboard", on=False, bus="preview")
    store.dispatch("bus.take", {})
    assert set(_program(store)) == {"scoreboard"}


def test_the_operator_is_refused_a_graphic_under_a_full_frame_item_and_a_panic_drops_what_is_held(
    store: Any,
) -> None:
    _set(store, "scoreboard")
    _set(store, "credits")
    with pytest.raises(ActionRefused) as err:
        _set(store, "ticker")
    assert "片尾（全屏）在播出中" in err.value.zh and "credits (full frame)" in err.value.en
    store.dispatch("bus.panic", {})
    assert _program(store) == {} and not store.state["graphics"]["held"]


def test_the_credits_clear_and_bring_nothing_back(store: Any) -> None:
    _set(store, "ticker")
    _set(store, "credits")
    _set(store, "credits", on=False)
    assert _program(store) == {}


def test_the_native_graphics_and_the_obs_scenes_follow_the_table() -> None:
    """Each native picture's frame is its zone's box; the scene of a full-frame item carries it and what
    it does not clear (the corner bug); the game scene carries every other graphic, bottom layer first."""
    for g, zone in T.zones().items():
        assert FRAMES[g] == zone.box
    layers = list(T.zones())
    for scene, graphics in L.SCENE_GRAPHICS.items():
        assert list(graphics) == sorted(graphics, key=layers.index), scene
    for g, scene in L.FULLSCREEN:
        kept = {o for o in T.zones() if zones.verdict(g, o) == "coexist"}
        assert set(L.SCENE_GRAPHICS[scene]) == {g} | kept
    assert set(L.SCENE_GRAPHICS[L.SCENE_GAME]) == {g for g in T.zones() if not T.zone(g).full}
