"""Undo, redo, corrections and hands entered at the deal: journaled with the operator's reason, the
engine re-checking what follows; and the match decided by the engine's match rules (G11.2)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from broadcast.core import ActionRefused
from broadcast.studio import open_store
from engine import deal, format_cards, new_game

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


@pytest.fixture
def store(db_path: Path) -> Any:
    s = open_store(db_path)
    s.dispatch("match.new", {"names": NAMES, "teams": {"odd": {"name": "红队"}, "even": {"name": "蓝队"}}})
    yield s
    s.close()


def _journal(store: Any) -> list[str]:
    return [e.type for e in store.journal.entries()]


def _play(store: Any, *lines: str) -> None:
    for line in lines:
        store.dispatch("game.play", {"line": line})


def test_undo_and_redo_carry_the_reason_and_keep_the_history(store: Any, db_path: Path) -> None:
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ")
    store.dispatch("game.undo", {"reason": "录入错误"})
    g = store.state["game"]
    assert g["record"] == ["3 TTTTT"] and g["redo"] == ["6 JJJJJ"]
    last = g["history"][-1]
    assert (last["kind"], last["move"], last["line"], last["reason"]) == ("undo", 2, "6 JJJJJ", "录入错误")
    store.dispatch("game.redo", {"reason": "撤销错了"})
    assert store.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ"] and store.state["game"]["redo"] == []
    assert [h["kind"] for h in store.state["game"]["history"]] == ["undo", "redo"]
    # a new decision after an undo clears what could be redone
    store.dispatch("game.undo", {"reason": "x"})
    _play(store, "6 pass")
    assert store.state["game"]["redo"] == []
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.redo", {"reason": "x"})
    assert e.value.rule == "redo"
    # recovery: the journal replays to the same record and history
    store.close()
    again = open_store(db_path)
    assert again.state["game"] == store.state["game"]
    again.close()


def test_a_correction_that_invalidates_later_decisions_drops_them_with_the_clause(store: Any) -> None:
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ", "3 QQQQQ", "6 pass")
    n = len(_journal(store))
    store.dispatch("game.correct", {"move": 1, "line": "3 TTTT", "reason": "裁判：是四个10"})
    g = store.state["game"]
    assert g["record"] == ["3 TTTT"]
    # TTTT is not 够级 (G6.1): seat 4 is next in turn, so 6's JJJJJ no longer stands
    first = g["dropped"][0]
    assert (first["number"], first["line"]) == (2, "6 JJJJJ") and first["rule"].startswith("G")
    assert [d["line"] for d in g["dropped"]] == ["6 JJJJJ", "3 QQQQQ", "6 pass"]
    assert g["history"][-1]["kind"] == "correct" and g["history"][-1]["reason"] == "裁判：是四个10"
    assert store.state["table"]["turn"] == 4
    assert len(_journal(store)) == n + 1  # the correction itself is one journaled action


def test_a_correction_that_keeps_later_decisions_standing(store: Any) -> None:
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ", "3 pass", "6 44")
    store.dispatch("game.correct", {"move": 2, "line": "6 QQQQQ", "reason": "看错了"})
    assert store.state["game"]["record"] == ["3 TTTTT", "6 QQQQQ", "3 pass", "6 44"]
    assert store.state["game"]["dropped"] == []
    # a forgotten decision inserted, one deleted
    store.dispatch("game.correct", {"move": 4, "delete": True, "reason": "多录"})
    assert store.state["game"]["record"] == ["3 TTTTT", "6 QQQQQ", "3 pass"]
    store.dispatch("game.correct", {"move": 4, "insert": True, "line": "6 55", "reason": "漏录"})
    assert store.state["game"]["record"][-1] == "6 55"


def test_an_illegal_correction_is_refused_with_its_clause_and_changes_nothing(store: Any) -> None:
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ")
    n = len(_journal(store))
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.correct", {"move": 2, "line": "6 JJJJ", "reason": "x"})
    assert e.value.rule == "G4.1"
    with pytest.raises(ActionRefused) as e2:
        store.dispatch("game.correct", {"move": 2, "line": "6 QQQQQ"})  # no reason
    assert e2.value.rule == "reason"
    assert store.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ"] and len(_journal(store)) == n


def test_hands_entered_at_the_deal_are_checked_and_then_possession_is(store: Any) -> None:
    hands = [format_cards(h) for h in deal(21)]
    store.dispatch("game.new", {"leader": 1})
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.hands", {"seat": 2, "cards": hands[1][:-1]})  # 35 cards
    assert e.value.rule == "G2.1" and "35" in e.value.message
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.hands", {"seat": 2, "cards": "R" * 5 + hands[1][5:]})  # 5 大王 > the pack's 4
    assert e.value.rule in ("G2.1", "G2.4")
    for s in range(1, 7):
        store.dispatch("game.hands", {"seat": s, "cards": hands[s - 1], "reason": "发牌"})
    assert store.state["game"]["hands"] == hands
    rank = "9"
    held = hands[0].count(rank)
    with pytest.raises(ActionRefused):  # one more 9 than seat 1 holds: possession is checked now
        store.dispatch("game.play", {"line": f"1 {rank * (held + 1)}"})
    store.dispatch("game.play", {"line": f"1 {rank * held}" if held else f"1 {hands[0][-1]}"})


def test_the_match_goes_to_an_extra_game_then_lots_with_the_recorded_seed(store: Any) -> None:
    # three games decided by their records, penalties making the totals tie
    totals = {"odd": 0, "even": 0}
    for seed in (3, 4, 5):
        g = new_game("tv_match", seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            g.push(g.random_action(rng))
        store.dispatch("game.new", {"seed": seed})
        _play(store, *[str(a) for a in g.moves])
        for t in totals:
            totals[t] += g.result().team_points[t]
    res = store.state["match"]["result"]
    assert (res["odd"], res["even"], res["games"]) == (totals["odd"], totals["even"], 3)
    diff = totals["odd"] - totals["even"]
    team = "odd" if diff > 0 else "even"
    assert diff % 2 == 0  # 22 points a game: the difference is even
    for _ in range(abs(diff) // 2):
        store.dispatch("match.penalty", {"team": team, "reason": "大声喧哗"})
    res = store.state["match"]["result"]
    assert res["odd"] == res["even"] and res["needs_extra_game"] and res["winner"] is None
    with pytest.raises(ActionRefused):
        store.dispatch("match.lots", {"seed": 7})  # not before the extra game (G11.2)
    # an extra game that ties too: the same record with the seats' points mirrored is not possible,
    # so tie it with penalties after the game
    g = new_game("tv_match", seed=6)
    rng = random.Random(6)
    while not g.is_over():
        g.push(g.random_action(rng))
    store.dispatch("game.new", {"seed": 6})
    assert store.state["table"]["game_no"] == 4
    _play(store, *[str(a) for a in g.moves])
    pts = g.result().team_points
    lead = "odd" if pts["odd"] > pts["even"] else "even"
    for _ in range(abs(pts["odd"] - pts["even"]) // 2):
        store.dispatch("match.penalty", {"team": lead, "reason": "偷看牌"})
    res = store.state["match"]["result"]
    assert res["needs_lots"] and res["winner"] is None
    store.dispatch("match.lots", {"seed": 90210})
    res = store.state["match"]["result"]
    assert res["decided_by"] == "lots" and res["winner"] in ("odd", "even")
    assert store.state["match"]["lots"] == {"seed": 90210, "winner": res["winner"]}


def test_a_player_more_than_five_minutes_late_forfeits(store: Any) -> None:
    store.dispatch("match.late", {"seat": 4, "minutes": 3, "reason": "堵车"})
    assert store.state["match"]["forfeit"] is None and store.state["match"]["result"]["winner"] is None
    store.dispatch("match.late", {"seat": 4, "minutes": 6})
    m = store.state["match"]
    assert m["forfeit"]["team"] == "even" and "迟到6分钟" in m["forfeit"]["reason"]
    assert m["result"] == m["result"] | {"winner": "odd", "decided_by": "forfeit"}
    with pytest.raises(ActionRefused):
        store.dispatch("match.forfeit", {"team": "odd", "reason": "x"})


def test_redo_after_two_undos_plays_the_moves_back_in_their_order(store: Any) -> None:
    """Two decisions taken back are played again last-undone first: the record comes back move by move
    as it was, and what is left to redo shrinks from its end."""
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ", "3 QQQQQ")
    store.dispatch("game.undo", {"reason": "x"})
    store.dispatch("game.undo", {"reason": "x"})
    assert store.state["game"]["record"] == ["3 TTTTT"]
    assert store.state["game"]["redo"] == ["3 QQQQQ", "6 JJJJJ"]
    store.dispatch("game.redo", {"reason": "y"})
    assert store.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ"]
    assert store.state["game"]["redo"] == ["3 QQQQQ"]
    assert store.state["table"]["turn"] == 3  # the duel goes back to seat 3 (G6.3)
    store.dispatch("game.redo", {"reason": "y"})
    assert store.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ", "3 QQQQQ"]
    assert store.state["game"]["redo"] == []
    assert [(h["kind"], h["move"], h["line"]) for h in store.state["game"]["history"][-2:]] == [
        ("redo", 2, "6 JJJJJ"),
        ("redo", 3, "3 QQQQQ"),
    ]


def test_an_inserted_decision_drops_the_later_ones_under_their_original_numbers(store: Any) -> None:
    """A forgotten decision inserted before move 2: the decisions that no longer stand leave the record
    under the numbers the operator knew them by (2, 3, 4), not one further on."""
    store.dispatch("game.new", {"leader": 3})
    _play(store, "3 TTTTT", "6 JJJJJ", "3 pass", "6 44")
    store.dispatch("game.correct", {"move": 2, "insert": True, "line": "6 QQQQQ", "reason": "漏录"})
    g = store.state["game"]
    assert g["record"] == ["3 TTTTT", "6 QQQQQ"]
    assert [(d["number"], d["line"]) for d in g["dropped"]] == [(2, "6 JJJJJ"), (3, "3 pass"), (4, "6 44")]
    assert g["dropped"][0]["rule"].startswith("G")
    last = g["history"][-1]
    assert (last["kind"], last["move"], last["new_line"], last["dropped"]) == ("insert", 2, "6 QQQQQ", 3)


def test_seek_steps_through_the_record_and_a_new_decision_drops_the_rest(store: Any, db_path: Path) -> None:
    """A rehearsal steps through a record (game.seek): back is the engine's pop (the later decisions
    wait in ``redo``), forward its push again; the table is the engine's state at that move; a decision
    typed there clears the rest. Nothing is added to the corrections' history."""
    import engine
    from tests.game.test_projection import _from_nothing

    g = new_game("tv_match", seed=5)
    engine.random_playout(g, seed=5)
    lines = [str(a) for a in g.moves][:60]
    store.dispatch("game.new", {"leader": g.leader, "seed": 5})
    _play(store, *lines)
    store.dispatch("game.seek", {"move": 20})
    st = store.state
    assert st["game"]["record"] == lines[:20] and st["game"]["redo"] == lines[20:][::-1]
    at20 = new_game("tv_match", seed=5)
    for line in lines[:20]:
        at20.push(engine.Action.parse(line))
    assert [s["cards_left"] for s in st["table"]["seats"]] == [at20.cards_left(s) for s in range(1, 7)]
    assert _from_nothing(st) == st and st["game"]["history"] == []
    store.dispatch("game.seek", {"move": 0})
    assert store.state["game"]["record"] == [] and len(store.state["game"]["redo"]) == 60
    store.dispatch("game.seek", {"move": 60})
    assert store.state["game"]["record"] == lines and store.state["game"]["redo"] == []
    for bad in (61, -1, "3", True):
        with pytest.raises(ActionRefused) as e:
            store.dispatch("game.seek", {"move": bad})
        assert e.value.rule == "seek"
    store.dispatch("game.seek", {"move": 20})
    other = next(a for a in at20.legal_plays() if str(a) != lines[20])
    store.dispatch("game.play", {"line": str(other)})
    assert store.state["game"]["record"] == [*lines[:20], str(other)] and store.state["game"]["redo"] == []
    store.close()
    again = open_store(db_path)
    assert again.state["game"] == store.state["game"]
    again.close()
