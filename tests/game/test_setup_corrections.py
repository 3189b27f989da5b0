"""Every decision can be corrected, the hands and the match's set-up included (issue 19): a journaled
correction with the operator's reason, re-checked by the engine, kept in the game's history with what
it changed (``before``) so that it can be undone — and refused, naming the move and the clause, where
it would make a decision already played impossible."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import engine
from broadcast.core import ActionRefused
from broadcast.studio import open_store
from engine import deal, format_cards, new_game, random_playout

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]
SEED = 5
MOVES = 24


@pytest.fixture
def store(db_path: Path) -> Any:
    s = open_store(db_path)
    s.dispatch("match.new", {"names": NAMES, "teams": {"odd": {"name": "红队"}, "even": {"name": "蓝队"}}})
    yield s
    s.close()


@pytest.fixture(scope="module")
def played() -> Any:
    g = new_game("tv_match", seed=SEED)
    random_playout(g, seed=SEED)
    assert len(g.moves) > MOVES
    return g


def _hands() -> list[str]:
    return [format_cards(h) for h in deal(SEED)]


def _start(store: Any, game: Any) -> list[str]:
    """The seeded deal's hands entered at the deal and the first MOVES decisions played."""
    hands = _hands()
    store.dispatch("game.new", {"leader": game.leader, "hands": hands})
    for a in game.moves[:MOVES]:
        store.dispatch("game.play", {"line": str(a)})
    return [str(a) for a in game.moves[:MOVES]]


def _used(lines: list[str]) -> dict[int, Counter[str]]:
    """The cards each seat played in ``lines``."""
    used: dict[int, Counter[str]] = {s: Counter() for s in range(1, 7)}
    for line in lines:
        seat, cards = line.split(" ", 1)
        if cards not in ("pass", "yield"):
            used[int(seat)].update(cards)
    return used


def _swap(hands: list[str], a: int, ca: str, b: int, cb: str) -> list[str]:
    """Seat ``a`` gives one ``ca`` to seat ``b`` and gets one ``cb`` back (each still holds 36)."""
    out = list(hands)
    out[a - 1] = _norm(out[a - 1].replace(ca, "", 1) + cb)
    out[b - 1] = _norm(out[b - 1].replace(cb, "", 1) + ca)
    return out


def _norm(cards: str) -> str:
    """A hand written as the store writes it (the engine's order)."""
    return str(engine.cards.format_counts(engine.cards.parse_counts(cards)))


def test_a_hand_corrected_after_play_started_is_rechecked_against_every_move(store: Any, played: Any) -> None:
    lines = _start(store, played)
    hands = _hands()
    used = _used(lines)
    # the first decision in which a seat plays the last card it holds of a rank: without that card the
    # move is impossible (G3.1: a play is cards from the player's hand)
    count = {s: Counter(hands[s - 1]) for s in range(1, 7)}
    running: dict[int, Counter[str]] = {s: Counter() for s in range(1, 7)}
    target = None
    for number, line in enumerate(lines, 1):
        seat, cards = line.split(" ", 1)
        if cards in ("pass", "yield"):
            continue
        running[int(seat)].update(cards)
        full = [r for r in set(cards) if running[int(seat)][r] == count[int(seat)][r]]
        if full:
            target = (number, line, int(seat), full[0])
            break
    assert target is not None, "no decision plays a seat's last card of a rank: choose another seed"
    number, line, seat, rank = target
    other = next(s for s in range(1, 7) if s != seat)
    give = next(r for r in count[other] if r != rank and count[other][r] > used[other][r])
    wrong = _swap(hands, seat, rank, other, give)
    before = store.state["game"]
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.hands", {"hands": wrong, "reason": "录入错误"})
    assert e.value.rule == "G3.1", e.value  # the possession clause, from the engine
    assert f"第{number}步" in e.value.message and line in e.value.message
    assert f"move {number} ({line})" in e.value.message_en
    assert store.state["game"] == before  # nothing changed


def test_a_hand_correction_needs_the_reason_is_kept_in_the_history_and_can_be_undone(
    store: Any, played: Any, db_path: Path
) -> None:
    lines = _start(store, played)
    hands = _hands()
    used = _used(lines)
    count = {s: Counter(hands[s - 1]) for s in range(1, 7)}
    # two cards neither seat has played yet change hands: the record still stands
    a, b = 2, 5
    ca = next(r for r in count[a] if count[a][r] > used[a][r])
    cb = next(r for r in count[b] if r != ca and count[b][r] > used[b][r])
    fixed = _swap(hands, a, ca, b, cb)
    with pytest.raises(ActionRefused) as e:  # after play started it is a correction: the reason first
        store.dispatch("game.hands", {"hands": fixed})
    assert e.value.rule == "reason"
    with pytest.raises(ActionRefused) as e:
        store.dispatch("game.hands", {"hands": hands, "reason": "录入错误"})
    assert e.value.rule == "hands"  # nothing to correct
    store.dispatch("game.hands", {"hands": fixed, "reason": "裁判核对手牌"})
    g = store.state["game"]
    assert g["hands"] == fixed and g["record"] == lines
    last = g["history"][-1]
    assert (last["kind"], last["line"], last["move"], last["reason"]) == (
        "hands",
        "2,5",
        MOVES,
        "裁判核对手牌",
    )
    assert last["before"] == hands
    # undone: the same action with the hands as they were, re-checked and journaled with its reason
    store.dispatch("game.hands", {"hands": last["before"], "reason": "撤销更正：裁判核对手牌"})
    assert store.state["game"]["hands"] == hands and store.state["game"]["history"][-1]["before"] == fixed
    store.close()
    again = open_store(db_path)  # the journal replays to the same hands and history
    assert again.state["game"] == store.state["game"]
    again.close()


def test_the_hands_entered_at_the_deal_need_no_reason(store: Any) -> None:
    store.dispatch("game.new", {"leader": 1})
    store.dispatch("game.hands", {"hands": _hands()})
    last = store.state["game"]["history"][-1]
    assert last["kind"] == "hands" and last["before"] == [] and last["reason"] == ""


def test_the_setup_correction_moves_the_photos_with_the_players_and_can_be_undone(store: Any) -> None:
    store.dispatch("match.update", {"photos": ["a.png", "b.png", "", "", "", ""]})
    store.dispatch("game.new", {"leader": 1})
    store.dispatch("game.play", {"line": "1 TTTTT"})
    swapped = ["乙", "甲", *NAMES[2:]]
    with pytest.raises(ActionRefused) as e:
        store.dispatch("match.update", {"names": NAMES, "reason": "座位录错"})
    assert e.value.rule == "setup"  # nothing changed
    store.dispatch(
        "match.update", {"names": swapped, "teams": {"odd": {"name": "红星队"}}, "reason": "座位录错"}
    )
    seats = store.state["table"]["seats"]
    assert [s["name"] for s in seats[:2]] == ["乙", "甲"]
    assert [s["photo"] for s in seats[:2]] == ["b.png", "a.png"]  # each player's photo with the player
    assert store.state["table"]["teams"]["odd"]["name"] == "红星队"
    last = store.state["game"]["history"][-1]
    assert last["kind"] == "setup" and last["reason"] == "座位录错" and last["move"] == 1
    assert "1号 甲→乙" in last["line"] and "单号队 红队→红星队" in last["line"]
    assert last["before"] == [*NAMES, "红队", "蓝队", "a.png", "b.png", "", "", "", "", "3"]
    assert store.state["game"]["record"] == ["1 TTTTT"]  # the record stands
    b = last["before"]
    store.dispatch(
        "match.update",
        {
            "names": b[:6],
            "teams": {"odd": {"name": b[6]}, "even": {"name": b[7]}},
            "photos": b[8:14],
            "games_in_match": int(b[14]),
            "reason": "撤销更正：座位录错",
        },
    )
    seats = store.state["table"]["seats"]
    assert [s["name"] for s in seats] == NAMES and [s["photo"] for s in seats[:2]] == ["a.png", "b.png"]
    assert store.state["table"]["teams"]["odd"]["name"] == "红队"


def test_what_would_change_a_decided_record_is_refused_with_the_reason(store: Any) -> None:
    # the preset: before the match's first decision it may be corrected; after it, never (G11)
    store.dispatch("game.new", {"leader": 1})
    store.dispatch("match.update", {"rules": "dagang", "reason": "预设选错"})
    assert store.state["table"]["rules"] == "dagang"
    store.dispatch("match.update", {"rules": "tv_match", "reason": "预设选错"})
    store.dispatch("game.play", {"line": "1 TTTTT"})
    with pytest.raises(ActionRefused) as e:
        store.dispatch("match.update", {"rules": "dagang", "reason": "预设选错"})
    assert e.value.rule == "rules" and "G11" in e.value.message and "new match" in e.value.message_en
    assert store.state["table"]["rules"] == "tv_match"
    # fewer games than the match has reached (G11.2)
    store.dispatch("game.new", {"leader": 2})  # game 2
    with pytest.raises(ActionRefused) as e:
        store.dispatch("match.update", {"games_in_match": 1, "reason": "局数录错"})
    assert e.value.rule == "G11.2" and "第2局" in e.value.message
    store.dispatch("match.update", {"games_in_match": 2, "reason": "局数录错"})
    assert store.state["table"]["games_in_match"] == 2


def test_a_season_matchs_players_and_teams_are_the_seasons(store: Any) -> None:
    store.dispatch(
        "season.link",
        {
            "season_id": 1,
            "season": "第一季",
            "match_id": 7,
            "episode": "第16期",
            "team_ids": {"odd": 1, "even": 2},
        },
    )
    store.dispatch("game.new", {"leader": 1})
    before = store.state["table"]
    with pytest.raises(ActionRefused) as e:
        store.dispatch("match.update", {"names": ["乙", "甲", *NAMES[2:]], "reason": "座位录错"})
    assert e.value.rule == "season" and "第一季 第16期" in e.value.message and "lineup" in e.value.message_en
    with pytest.raises(ActionRefused):
        store.dispatch("match.update", {"teams": {"even": {"name": "别的队"}}, "reason": "队名录错"})
    assert store.state["table"] == before
