"""No hole between items: a film's cue ends when OBS says the film ended (not on a timer), and the item
marked to follow it starts in that same moment — the next film, the prizes' 九宫格, the credits."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from broadcast.clock import ScriptClock
from broadcast.obs import follow
from broadcast.obs.onair import OnAirTracker
from broadcast.resources import demo_placements
from broadcast.sponsors.cuerunner import FILM_GRACE, GRAPHIC_GRACE, CueRunner
from broadcast.sponsors.cues import cue_list
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.rundown import build_rundown
from broadcast.studio import open_store


def _cues() -> list[dict[str, Any]]:
    return list(cue_list(build_rundown(load_placements(demo_placements()), episode="第16期"))["cues"])


def test_what_follows_by_itself() -> None:
    """Timed cues after timed cues (bumpers into films, the films of a break), and a full-frame item
    right after a film (the prizes' 九宫格 after the opening films, the credits after the 英雄榜冠名
    film); a game after a break waits for GO (the studio is back)."""
    cues = _cues()
    follows = {c["id"] for c in cues if c["follow"]}
    after = {c["id"]: prev["id"] for prev, c in zip(cues, cues[1:], strict=False)}
    assert {"intro_prizes", "credits", "break_opening_1", "bumper_special"} <= follows
    assert after["credits"] == "leaderboard_film" and after["intro_prizes"].startswith("break_opening")
    assert not any(
        c["id"].startswith(("game_", "draw_")) or c["id"] == "leaderboard" for c in cues if c["follow"]
    )


class _Bridge:
    rolls_film_cues = True

    def __init__(self) -> None:
        self.status = SimpleNamespace(connected=True, film="")


def test_a_film_played_by_obs_ends_when_obs_says_so_and_the_credits_follow(tmp_path: Path) -> None:
    p = load_placements(demo_placements())
    clock = ScriptClock(1_000_000.0)
    store = open_store(tmp_path / "s.sqlite", clock=clock)
    store.dispatch("sponsors.load", to_state(p))
    cues = _cues()
    store.dispatch("cues.load", {"episode": "第16期", "cues": cues})
    bridge = _Bridge()
    runner = CueRunner(store, bridge=bridge, clock=clock, threaded=False)
    try:
        store.dispatch("cues.go", {"index": next(i for i, c in enumerate(cues) if c["id"] == "leaderboard")})
        store.dispatch("cues.go", {"expect": "leaderboard_film"})
        film = next(c for c in cues if c["id"] == "leaderboard_film")
        bridge.status.film = film["film"]  # OBS plays it
        # its seconds run out on the clock, and OBS has not ended it: the cue keeps running
        clock.advance(film["seconds"] + FILM_GRACE / 2)
        runner.tick()
        assert store.state["cues"]["current"]["id"] == "leaderboard_film"
        # OBS's MediaInputPlaybackEnded: the bridge ends the cue, the credits take over in the same action
        assert follow.end_film_cue(store, "another film") is None
        state = follow.end_film_cue(store, film["film"])
        assert state is not None and state["cues"]["current"]["id"] == "credits"
        assert state["graphics"]["program"]["credits"]["on"]
        assert store.state["cues"]["log"]["leaderboard_film"]["status"] == "done"
        assert follow.end_film_cue(store, film["film"]) is None  # once
    finally:
        store.close()


def test_a_film_obs_never_ends_is_ended_by_the_runner_after_its_grace(tmp_path: Path) -> None:
    clock = ScriptClock(1_000_000.0)
    store = open_store(tmp_path / "s.sqlite", clock=clock)
    store.dispatch(
        "cues.load",
        {
            "episode": "x",
            "cues": [{"id": "spot", "kind": "film", "film": "a", "seconds": 5, "action": "play"}],
        },
    )
    bridge = _Bridge()
    runner = CueRunner(store, bridge=bridge, clock=clock, threaded=False)
    try:
        store.dispatch("cues.go", {})
        bridge.status.film = "a"
        clock.advance(5 + FILM_GRACE - 0.5)
        runner.tick()
        assert store.state["cues"]["current"] is not None
        clock.advance(1.0)
        runner.tick()
        assert store.state["cues"]["current"] is None  # OBS never said: the clock ends it, late
    finally:
        store.close()


def test_a_bumper_runs_its_seconds_from_when_obs_showed_it(tmp_path: Path) -> None:
    """A 2 s bumper OBS showed 1.5 s after the GO is on air its full 2 s before the next one follows (on a
    loaded machine one counted from the GO was replaced before OBS ever showed it: never credited); one OBS
    never shows is ended by the clock after its grace."""
    clock = ScriptClock(1_000_000.0)
    store = open_store(tmp_path / "s.sqlite", clock=clock)
    bumper = {"kind": "bumper", "graphic": "bumper", "seconds": 2}
    store.dispatch(
        "cues.load",
        {
            "episode": "x",
            "cues": [
                {"id": "title", "item": "title", **bumper},
                {"id": "special", "item": "special", "follow": True, **bumper},
            ],
        },
    )
    rows: list[tuple[float, str, str]] = []
    tracker = OnAirTracker(lambda ts, kind, subject, detail, source="obs": rows.append((ts, kind, subject)))
    tracker.up(clock())
    bridge = _Bridge()
    bridge.tracker = tracker  # type: ignore[attr-defined]
    runner = CueRunner(store, bridge=bridge, clock=clock, threaded=False)
    try:
        store.dispatch("cues.go", {})
        clock.advance(1.5)
        tracker.observe(clock(), "垫片", {"bumper": "title"})  # OBS shows it 1.5 s after the GO
        clock.advance(1.0)  # 2.5 s after the GO: overdue on the clock, 1 s on air
        runner.tick()
        assert store.state["cues"]["current"]["id"] == "title"
        clock.advance(1.01)  # 2 s on air
        runner.tick()
        assert store.state["cues"]["current"]["id"] == "special"
        # OBS never shows the special bumper: held its grace past its length, then ended on the clock
        clock.advance(2 + GRAPHIC_GRACE - 0.5)
        runner.tick()
        assert store.state["cues"]["current"]["id"] == "special"
        clock.advance(1.0)
        runner.tick()
        assert store.state["cues"]["current"] is None
    finally:
        store.close()


def test_the_witness_counts_game_scene_looks_between_items_only() -> None:
    """The audit's witness (:func:`broadcast.audit.obswatch.holes`): a run of game-scene looks between two
    items while no studio segment ran is a hole; the game before the first item, after the last, and
    while a game segment runs (up to OBS's lag after it began) is the show's own."""
    from broadcast.audit.obswatch import holes
    from broadcast.obs import layout as L

    class _Intent:
        def __init__(self, studio: list[tuple[float, float]]) -> None:
            self.studio = studio

        def studio_during(self, t0: float, t1: float) -> bool:
            return any(a <= t1 and t0 <= b for a, b in self.studio)

    g, film, board = L.SCENE_GAME, L.SCENE_BREAK, L.SCENE_LEADERBOARD
    looks = [(t * 0.05, s) for t, s in enumerate([g, g, film, film, g, g, g, board, g, g])]
    found = holes(looks, _Intent([]))  # type: ignore[arg-type]
    assert [(round(h.start, 2), round(h.end, 2), h.looks, h.before, h.after) for h in found] == [
        (0.2, 0.3, 3, film, board)
    ]
    assert "3 次" in found[0].text() and "0.15 s" in found[0].text()
    assert holes(looks, _Intent([(0.15, 0.4)])) == []  # a game segment ran: the studio was meant


def test_the_audit_names_every_booked_film_that_never_aired() -> None:
    """A film booked twice must air twice; one that never started is named with its cue's status."""
    from broadcast.audit.obsrun import missing

    cues = {
        "list": [
            {"id": "a", "kind": "film", "film": "x"},
            {"id": "g", "kind": "segment"},
            {"id": "b", "kind": "film", "film": "x"},
            {"id": "c", "kind": "film", "film": "y"},
        ],
        "log": {"c": {"status": "failed", "note": "OBS lost"}},
    }
    assert missing(cues, ["x", "x", "y"]) == []
    assert missing(cues, ["x"]) == ["b x (not run)", "c y (failed OBS lost)"]


def test_the_picture_that_follows_a_film_is_known_while_it_plays() -> None:
    """What the bridge loads while a film plays: the prizes' 九宫格 during the last opening film, the
    credits during the 英雄榜冠名 film; nothing during a film a film follows, a bumper or a game."""
    cues = _cues()
    ids = [c["id"] for c in cues]
    off = {g: {"on": False, "item": ""} for g in {c["graphic"] for c in cues if c["graphic"]}}

    def nxt(current: str, on: tuple[str, ...] = ()) -> tuple[str, str] | None:
        program = {g: {"on": g in on, "item": ""} for g in off}
        cur = {"id": current, "started": 0.0, "ends": None}
        state = {"cues": {"list": cues, "current": cur, "next": ids.index(current) + 1}}
        got = follow.next_picture({**state, "graphics": {"program": program}})
        return None if got is None else (got[0], got[1][got[0]]["item"])

    assert nxt("break_opening_2") == ("jiugongge", "intro")
    assert nxt("leaderboard_film") == ("credits", "end")
    assert nxt("break_opening_1") is None  # the next film follows
    assert nxt("bumper_title", ("bumper",)) is None
    assert nxt("game_1", ("scoreboard",)) is None
