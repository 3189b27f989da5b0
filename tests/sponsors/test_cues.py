"""The cue list in the journaled state (cues.*) and the cue runner, on a scripted clock: GO, timed cues
that end and follow by themselves, skipped and late cues, panic, a restart in the middle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast.clock import ScriptClock, air_start
from broadcast.core import ActionRefused
from broadcast.sponsors.cuerunner import CueRunner
from broadcast.sponsors.cues import LATE_S, cue_list, rows
from broadcast.sponsors.placements import Placements, to_state
from broadcast.sponsors.rundown import build_rundown
from broadcast.studio import open_store

EPISODE = "第1期"


def _store(path: Path, clock: ScriptClock, demo: Placements, *, intro_follows: bool = True) -> Any:
    s = open_store(path, clock=clock)
    if not s.state["sponsors"]["roster"]:
        s.dispatch("sponsors.load", to_state(demo))
        cues = cue_list(build_rundown(demo, episode=EPISODE))
        for c in cues["cues"]:
            if c["id"] == "intro_prizes" and not intro_follows:
                c["follow"] = False  # a cue list whose intro the operator GOes by hand
        s.dispatch("cues.load", cues)
    return s


def _ids(store: Any) -> list[str]:
    return [c["id"] for c in store.state["cues"]["list"]]


def _program(store: Any) -> dict[str, str]:
    return {g: e["item"] for g, e in store.state["graphics"]["program"].items() if e["on"]}


def test_opening_bumpers_follow_in_contract_order_and_end_by_themselves(
    tmp_path: Path, demo: Placements
) -> None:
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    played: list[str] = []
    runner = CueRunner(store, clock=clock, threaded=False, player=lambda f, s: played.append(f))
    runner.start()
    try:
        store.dispatch("cues.go", {})  # corner bug: instant, stays on
        assert _program(store) == {"corner_bug": "yiheyuan"}
        store.dispatch("cues.go", {"expect": "bumper_title"})
        bumpers = [c["item"] for c in store.state["cues"]["list"] if c["kind"] == "bumper"]
        assert bumpers[:2] == ["title", "special"]  # then the supporters in signing order
        seen = []
        for _ in range(200):  # one GO runs the whole opening: bumpers, the opening films, the prizes
            clock.advance(0.5)
            runner.tick()
            item = store.state["graphics"]["program"]["bumper"]
            if item["on"] and (not seen or seen[-1] != item["item"]):
                seen.append(item["item"])
            cur = store.state["cues"]["current"]
            if cur is None or cur["id"] == "intro_prizes":
                break
        assert seen == bumpers
        assert played == [c.film for c in build_rundown(demo).cues if c.id.startswith("break_opening")]
        # the prizes' 九宫格 (full frame) took over from the last film by itself: no frame of the studio
        assert store.state["cues"]["current"]["id"] == "intro_prizes"
        # the bug stayed on program on both buses, so a TAKE now keeps it
        store.dispatch("bus.take", {})
        assert _program(store) == {"corner_bug": "yiheyuan", "jiugongge": "intro"}
        log = store.state["cues"]["log"]
        assert all(log[c]["status"] == "done" for c in _ids(store)[:8])
    finally:
        runner.stop()
        store.close()


def test_a_late_go_and_a_skip_are_marked(tmp_path: Path, demo: Placements) -> None:
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo, intro_follows=False)
    runner = CueRunner(store, clock=clock, threaded=False, player=lambda f, s: None)
    runner.start()
    try:
        store.dispatch("cues.go", {})
        store.dispatch("cues.go", {})
        while store.state["cues"]["current"] is not None:
            clock.advance(1)
            runner.tick()
        clock.advance(LATE_S + 7)
        store.dispatch("cues.skip", {})  # 奖品介绍 skipped
        store.dispatch("cues.go", {})  # the ticker, 9 s after the opening ran out
        log = store.state["cues"]["log"]
        assert log["intro_prizes"]["status"] == "skipped"
        assert log["ticker_on"]["late"] == pytest.approx(LATE_S + 7, abs=1.01)
        by_id = {r.cue["id"]: r for r in rows(store.state["cues"], clock())}
        assert by_id["ticker_on"].status == "done" and by_id["game_1"].is_next
        # GO straight to game 2: game 1 and its breaks are skipped, not lost
        i = _ids(store).index("game_2")
        store.dispatch("cues.go", {"index": i})
        log = store.state["cues"]["log"]
        assert [log[c]["status"] for c in _ids(store)[10:i]] == ["skipped"] * (i - 10)
        assert _program(store)["scoreboard"] == "game 2"
    finally:
        runner.stop()
        store.close()


def test_go_with_a_stale_expectation_is_refused_and_journals_nothing(
    tmp_path: Path, demo: Placements
) -> None:
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    try:
        store.dispatch("cues.go", {"expect": "corner_bug_on"})
        seq = store.seq
        with pytest.raises(ActionRefused) as err:
            store.dispatch("cues.go", {"expect": "corner_bug_on"})  # a second press of the same GO
        assert err.value.rule == "cues.expect"
        assert store.seq == seq
    finally:
        store.close()


def test_panic_stops_the_running_cue_and_leaves_nothing_on_either_bus(
    tmp_path: Path, demo: Placements
) -> None:
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    runner = CueRunner(store, clock=clock, threaded=False, player=lambda f, s: None)
    runner.start()
    try:
        store.dispatch("cues.go", {})
        store.dispatch("cues.go", {})  # the title bumper is on
        clock.advance(2)
        store.dispatch("bus.panic", {})
        runner.tick()
        cq = store.state["cues"]
        assert cq["current"] is None
        assert cq["log"]["bumper_title"]["status"] == "stopped"
        assert _program(store) == {}
        # the bumper is off preview too: a TAKE after the panic does not bring it back
        store.dispatch("bus.take", {})
        assert "bumper" not in _program(store)
        clock.advance(30)
        runner.tick()  # the bumper's 5 s are long gone: nothing follows after a panic
        assert store.state["cues"]["current"] is None
    finally:
        runner.stop()
        store.close()


def test_a_restart_mid_bumper_carries_on_where_the_journal_left_it(tmp_path: Path, demo: Placements) -> None:
    path = tmp_path / "s.sqlite"
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(path, clock, demo)
    store.dispatch("cues.go", {})
    store.dispatch("cues.go", {})
    store.close()  # the studio goes down while the title bumper is on air
    clock.advance(6)
    again = _store(path, clock, demo)
    runner = CueRunner(again, clock=clock, threaded=False, player=lambda f, s: None)
    runner.start()
    try:
        assert again.state["cues"]["current"]["id"] == "bumper_title"
        runner.tick()  # ran out while down: ended, and the next bumper follows
        assert again.state["cues"]["log"]["bumper_title"]["status"] == "done"
        assert again.state["cues"]["current"]["id"] == "bumper_special"
        # loading the same rundown again keeps the progress
        again.dispatch("cues.load", cue_list(build_rundown(demo, episode=EPISODE)))
        assert again.state["cues"]["current"]["id"] == "bumper_special"
    finally:
        runner.stop()
        again.close()


def test_a_film_without_obs_is_failed_with_the_reason(tmp_path: Path, demo: Placements) -> None:
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    runner = CueRunner(store, clock=clock, threaded=False)  # no bridge, no player: nothing can play a film
    runner.start()
    try:
        i = _ids(store).index("break_game_1_1")
        store.dispatch("cues.go", {"index": i})
        runner.tick()
        entry = store.state["cues"]["log"]["break_game_1_1"]
        assert entry["status"] == "failed" and "OBS" in entry["note"]
    finally:
        runner.stop()
        store.close()


def test_a_film_after_a_game_or_the_leaderboard_waits_for_go(tmp_path: Path, demo: Placements) -> None:
    """Only a timed cue right after a timed cue follows by itself (the opening bumpers into the opening
    films); a film after a game or after the 英雄榜 rolls on GO — even one a cue list marks ``follow``,
    and even when the game or the board is ended without a GO."""
    cues = cue_list(build_rundown(demo, episode=EPISODE))["cues"]
    after = {c["id"]: prev["kind"] for prev, c in zip(cues, cues[1:], strict=False)}
    films = {c["id"]: c["follow"] for c in cues if c["kind"] == "film"}
    assert after["leaderboard_film"] == "leaderboard" and films["leaderboard_film"] is False
    behind_games = [cid for cid in films if after[cid] == "segment"]
    assert behind_games and not any(films[cid] for cid in behind_games)
    opening = [cid for cid in films if after[cid] in ("bumper", "film")]
    assert opening and all(films[cid] for cid in opening)

    clock = ScriptClock(air_start("2012-05-07"))
    store = open_store(tmp_path / "s.sqlite", clock=clock)
    store.dispatch(
        "cues.load",
        {
            "episode": EPISODE,
            "cues": [
                {"id": "game_1", "kind": "segment", "label": "第一局"},
                {"id": "film_a", "kind": "film", "film": "a", "seconds": 5, "follow": True},
                {"id": "leaderboard", "kind": "leaderboard", "graphic": "leaderboard"},
                {"id": "film_b", "kind": "film", "film": "b", "seconds": 5, "follow": True},
            ],
        },
    )
    played: list[str] = []
    runner = CueRunner(store, clock=clock, threaded=False, player=lambda f, s: played.append(f))
    runner.start()
    try:
        for segment, film in (("game_1", "film_a"), ("leaderboard", "film_b")):
            store.dispatch("cues.go", {"expect": segment})
            for _ in range(20):
                clock.advance(1.0)
                runner.tick()
            store.dispatch("cues.end", {"id": segment})  # the segment is over, nobody pressed GO
            runner.tick()
            cq = store.state["cues"]
            assert (
                cq["current"] is None
                and film not in cq["log"]
                and played == ([] if film == "film_a" else ["a"])
            )
            assert cq["list"][cq["next"]]["id"] == film
            store.dispatch("cues.go", {"expect": film})
            runner.tick()
            assert store.state["cues"]["current"]["id"] == film
            clock.advance(6.0)
            runner.tick()
        assert played == ["a", "b"]
    finally:
        runner.stop()
        store.close()


def _opening_films(store: Any) -> list[dict[str, Any]]:
    """The opening films: the first film marked follow and the cues that follow it, up to the first that
    does not."""
    cues = store.state["cues"]["list"]
    i = next(i for i, c in enumerate(cues) if c["kind"] == "film" and c["follow"])
    out = [cues[i]]
    while i + len(out) < len(cues) and cues[i + len(out)]["follow"] and cues[i + len(out)]["kind"] == "film":
        out.append(cues[i + len(out)])
    return out


def test_a_failed_film_does_not_stall_the_rundown(tmp_path: Path, demo: Placements) -> None:
    """The first opening film cannot air (OBS lost): it is marked failed with the reason and the films
    that follow it still roll by themselves; after the last, the full-frame item marked to follow them
    (the prizes' 九宫格) takes over by itself, nothing of the break left running."""
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    films = _opening_films(store)
    assert len(films) >= 2
    first = films[0]

    def player(fid: str, seconds: int) -> None:
        if fid == first["film"]:
            raise RuntimeError("OBS lost")
        played.append(fid)

    played: list[str] = []
    runner = CueRunner(store, clock=clock, threaded=False, player=player)
    runner.start()
    try:
        store.dispatch("cues.go", {"index": _ids(store).index(first["id"])})
        for _ in range(400):
            clock.advance(0.5)
            runner.tick()
            cur = store.state["cues"]["current"]
            if cur is None or cur["id"] not in {f["id"] for f in films}:
                break
        log = store.state["cues"]["log"]
        assert log[first["id"]]["status"] == "failed" and "OBS lost" in log[first["id"]]["note"]
        assert played == [f["film"] for f in films[1:]]
        assert all(log[f["id"]]["status"] == "done" for f in films[1:])
        cq = store.state["cues"]
        after = cq["list"][_ids(store).index(films[-1]["id"]) + 1]
        assert after["follow"] and cq["current"] is not None and cq["current"]["id"] == after["id"]
        assert (
            after["kind"] not in ("film", "bumper")
            and store.state["graphics"]["program"][after["graphic"]]["on"]
        )
    finally:
        runner.stop()
        store.close()


class _Status:
    connected = False
    film = ""


class _BridgeWithoutObs:
    """What the cue runner asks of the OBS bridge, with OBS down."""

    rolls_film_cues = True

    def __init__(self, leaderboard_film: str) -> None:
        self.leaderboard_film = leaderboard_film
        self.status = _Status()


def test_the_leaderboard_film_with_obs_down_is_failed_not_left_running(
    tmp_path: Path, demo: Placements
) -> None:
    """The 英雄榜冠名 film is rolled by the bridge when the board comes off; with OBS down it cannot air:
    the cue is failed at once with the reason, not left running as if on air (what follows it goes on)."""
    clock = ScriptClock(air_start("2012-05-07"))
    store = _store(tmp_path / "s.sqlite", clock, demo)
    film = next(c for c in store.state["cues"]["list"] if c["id"] == "leaderboard_film")
    runner = CueRunner(store, clock=clock, threaded=False, bridge=_BridgeWithoutObs(film["film"]))
    runner.start()
    try:
        store.dispatch("cues.go", {"expect": "leaderboard", "index": _ids(store).index("leaderboard")})
        store.dispatch("cues.go", {"expect": "leaderboard_film"})
        runner.tick()
        entry = store.state["cues"]["log"]["leaderboard_film"]
        assert entry["status"] == "failed" and "OBS" in entry["note"]
        # not left running: the credits, marked to follow the film, take over
        assert store.state["cues"]["current"]["id"] == "credits"
    finally:
        runner.stop()
        store.close()
