"""The game actions: the engine-backed scoreboard state, refusals with clause ids, undo, recovery."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from broadcast.core import ActionRefused
from broadcast.studio import open_store
from engine import new_game
from engine.words import cn_count, play_label

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


@pytest.fixture
def store(db_path: Path) -> Any:
    s = open_store(db_path)
    s.dispatch(
        "match.new",
        {"names": NAMES, "teams": {"odd": {"name": "红队", "color": "#aa0000"}, "even": {"name": "蓝队"}}},
    )
    yield s
    s.close()


def _moves(seed: int, rng_seed: int = 1) -> tuple[list[str], Any]:
    g = new_game("tv_match", seed=seed)
    rng = random.Random(rng_seed)
    moves = []
    while not g.is_over():
        a = g.random_action(rng)
        g.push(a)
        moves.append(str(a))
    return moves, g


def test_labels() -> None:
    assert [cn_count(n) for n in (1, 2, 3, 10, 12, 20, 36)] == [
        "一",
        "两",
        "三",
        "十",
        "十二",
        "二十",
        "三十六",
    ]
    assert play_label(7, 5) == "五个10"
    assert play_label(9, 3, twos=2) == "三个Q带两个2"
    assert play_label(11, 2, bigs=1) == "两个A带一个大王"
    assert play_label(13, 2) == "两个小王"
    assert play_label(12, 1) == "一个2"


def test_a_whole_game_projects_the_engine(store: Any) -> None:
    moves, g = _moves(seed=7)
    store.dispatch("game.new", {"seed": 7})
    t = store.state["table"]
    assert t["phase"] == "playing" and t["turn"] == g.leader and t["last_play"] is None
    assert [s["cards_left"] for s in t["seats"]] == [36] * 6
    assert t["jipaiqi"] == {"R": 4, "B": 4, "2": 16}
    saw_burn = saw_title_midgame = saw_pass = False
    for line in moves:
        store.dispatch("game.play", {"line": line})
        t = store.state["table"]
        lp = t["last_play"]
        if lp and lp["burn"]:
            saw_burn = True
            assert t["seats"][lp["seat"] - 1]["status"] in ("burning", "out")
        if t["phase"] == "playing" and any(s["title"] for s in t["seats"]):
            saw_title_midgame = True
        if any(s["passed"] for s in t["seats"]):
            saw_pass = True
            assert lp is not None  # passes are of the current round only
    res = g.result()
    t = store.state["table"]
    assert t["phase"] == "over" and t["turn"] is None
    assert {s["seat"]: s["title"] for s in t["seats"]} == res.titles
    assert t["results"] == [
        {
            "game_no": 1,
            "odd": res.team_points["odd"],
            "even": res.team_points["even"],
            "quan_san": res.quan_san,
        }
    ]
    assert t["teams"]["odd"]["points"] == res.team_points["odd"]
    assert t["teams"]["even"]["points"] == res.team_points["even"]
    assert t["message"].startswith("第1局结束")
    assert t["jipaiqi"] == g.jokers_and_twos_out()
    assert [s["cards_left"] for s in t["seats"]] == [g.cards_left(s) for s in range(1, 7)]
    assert store.state["game"]["record"] == moves
    assert saw_burn and saw_title_midgame and saw_pass


def test_illegal_moves_are_refused_with_the_clause(store: Any) -> None:
    store.dispatch("game.new", {"leader": 3})
    before, seq = store.snapshot(), store.journal.last_seq()
    cases = {"1 TTTTT": "G5.1", "3 9T": "G3.2", "3 XYZ": "G2.4", "7 pass": "GJN"}
    for line, rule in cases.items():
        with pytest.raises(ActionRefused) as err:
            store.dispatch("game.play", {"line": line})
        assert err.value.rule == rule, (line, err.value)
        assert err.value.message and err.value.message_en
    store.dispatch("game.play", {"line": "3 TTTTT"})
    with pytest.raises(ActionRefused) as err:  # a different size cannot beat it (G4.1)
        store.dispatch("game.play", {"line": "6 JJJJ"})
    assert err.value.rule == "G4.1", err.value
    assert store.journal.last_seq() == seq + 1
    assert before["table"]["seats"][2]["cards_left"] == 36
    assert store.state["table"]["seats"][2]["cards_left"] == 31


def test_undo_restores_the_scoreboard(store: Any) -> None:
    moves, _ = _moves(seed=3)
    store.dispatch("game.new", {"seed": 3})
    states = [store.snapshot()["table"]]
    for line in moves[:40]:
        store.dispatch("game.play", {"line": line})
        states.append(store.snapshot()["table"])
    for i in range(40, 30, -1):
        store.dispatch("game.undo")
        assert store.state["table"] == states[i - 1]
    # undoing the last move of a finished game takes its result back out
    store.dispatch("game.new", {"seed": 3, "game_no": 1})
    for line in moves:
        store.dispatch("game.play", {"line": line})
    assert store.state["table"]["results"]
    store.dispatch("game.undo")
    assert store.state["table"]["results"] == [] and store.state["table"]["phase"] == "playing"
    assert store.state["table"]["teams"]["odd"]["points"] == 0


def test_recovery_rebuilds_the_live_game(db_path: Path) -> None:
    moves, g = _moves(seed=11)
    s = open_store(db_path)
    s.dispatch("game.new", {"seed": 11})
    half = len(moves) // 2
    for line in moves[:half]:
        s.dispatch("game.play", {"line": line})
    table = s.snapshot()["table"]
    s.close()
    again = open_store(db_path)  # a crash: the journal is replayed, the engine game rebuilt
    try:
        assert again.replay_errors == []
        assert again.state["table"] == table
        again.runtime.clear()  # even with no runtime at all the next move rebuilds it
        for line in moves[half:]:
            again.dispatch("game.play", {"line": line})
        assert {s["seat"]: s["title"] for s in again.state["table"]["seats"]} == g.result().titles
    finally:
        again.close()


def test_a_three_game_match_and_penalties(store: Any) -> None:
    totals = {"odd": 0, "even": 0}
    for game_no, seed in enumerate((21, 22, 23), start=1):
        moves, g = _moves(seed=seed)
        store.dispatch("game.new", {"seed": seed})
        assert store.state["table"]["game_no"] == game_no
        for line in moves:
            store.dispatch("game.play", {"line": line})
        for k, v in g.result().team_points.items():
            totals[k] += v
    t = store.state["table"]
    assert [r["game_no"] for r in t["results"]] == [1, 2, 3]
    assert {k: t["teams"][k]["points"] for k in totals} == totals
    store.dispatch("match.penalty", {"team": "even", "reason": "大声喧哗"})
    assert store.state["table"]["teams"]["even"]["points"] == totals["even"] - 2
    with pytest.raises(ActionRefused):
        store.dispatch("match.penalty", {"team": "red"})
    store.dispatch("match.new", {})
    t = store.state["table"]
    assert t["results"] == [] and t["teams"]["odd"]["points"] == 0 and t["game_no"] == 1
    assert [s["name"] for s in t["seats"]] == NAMES and t["teams"]["odd"]["name"] == "红队"


def test_match_update_and_refusals(store: Any) -> None:
    store.dispatch(
        "match.update", {"names": {"2": "新乙"}, "teams": {"even": {"color": "#00f"}}, "games_in_match": 5}
    )
    t = store.state["table"]
    assert t["seats"][1]["name"] == "新乙" and t["teams"]["even"]["color"] == "#00f"
    assert t["games_in_match"] == 5
    for bad in (
        {"teams": {"even": {"color": "blue"}}},
        {"teams": {"green": {}}},
        {"names": ["a"]},
        {"games_in_match": 0},
        {"colour": 1},
    ):
        with pytest.raises(ActionRefused):
            store.dispatch("match.update", bad)
    with pytest.raises(ActionRefused) as err:
        store.dispatch("game.new", {})
    assert err.value.rule == "G12.1"
    with pytest.raises(ActionRefused):
        store.dispatch("game.play", {"line": "1 pass"})  # no game yet
    store.dispatch("table.message", {"text": "裁判：3号位警告一次"})
    assert store.state["table"]["message"] == "裁判：3号位警告一次"


def test_known_hands_are_checked(store: Any) -> None:
    hands = ["TTTTTJJJJ", "QQQ", "KK", "AAAA", "3333", "22"]
    store.dispatch("game.new", {"hands": hands, "leader": 1})
    assert [s["cards_left"] for s in store.state["table"]["seats"]] == [9, 3, 2, 4, 4, 2]
    with pytest.raises(ActionRefused) as err:
        store.dispatch("game.play", {"line": "1 QQQ"})  # a play is cards from the player's hand (G3.1)
    assert err.value.rule == "G3.1", err.value
    store.dispatch("game.play", {"line": "1 TTTTT"})
    assert store.state["table"]["last_play"]["gouji"] is True
