"""The heuristic player (engine/policy.py): every choice legal (replayed through the referee, Game.push),
in both presets, alone and at a table with the random player and its first version; what it does in
the positions its docstring names; and that it beats the random player."""

from __future__ import annotations

import random

import pytest

from engine import Action, Game, new_game
from engine.actions import action_of
from engine.cards import Play
from engine.policy import Policy, choose, decide, lead, play_out, play_table
from engine.results import result
from engine.state import BEAT, BURN, LEAD, PASS, REVOLT, YIELD

from .helpers import play


def _replayed(g: Game, rules: str, seed: str) -> Game:
    """The recorded moves of ``g`` pushed one by one on the same deal: each is checked by the referee."""
    h = new_game(rules, seed=seed)
    for code in g._codes:
        h.push(action_of(code))
    return h


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
def test_every_choice_is_legal_over_many_seeded_games(rules: str) -> None:
    pol = Policy()
    moves = 0
    for i in range(40):
        seed = f"legal-{i}"
        g = new_game(rules, seed=seed)
        play_out(g, random.Random(seed), pol, record=True)
        h = _replayed(g, rules, seed)  # raises IllegalAction (with its clause) on an illegal choice
        assert h.is_over() and h.result() == result(g)
        moves += len(g._codes)
    assert moves > 40 * 60


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
def test_every_choice_is_legal_at_a_table_with_random_and_first_version_players(rules: str) -> None:
    events: set[str] = set()
    for i in range(30):
        seed = f"table-{i}"
        players: list[Policy | None] = [None, Policy(), None, Policy(1), Policy(), None, Policy(1)]
        if i % 2:
            players = [None, *players[:0:-1]]
        g = new_game(rules, seed=seed)
        play_table(g, random.Random(seed), players, record=True)
        h = _replayed(g, rules, seed)
        assert h.is_over() and h.result() == result(g)
        events |= {e.name for e in h.events()}
    assert {"burn", "finish"} <= events  # the burns of both kinds of player were checked too


def _game(hands: dict[int, str], leader: int = 1, rules: str = "tv_match") -> Game:
    return Game(rules, hands=hands, leader=leader)


def test_passes_on_a_teammates_play_and_beats_an_opponents_with_the_lowest_play() -> None:
    g = _game({1: "5KKQQ9", 2: "4", 3: "6789A", 4: "3", 5: "3", 6: "3"})
    play(g, "1 5", "2 pass")
    assert decide(g, 3, random.Random(0), Policy(vary=0.0)) == (3, PASS, None)  # seat 1 is a teammate
    g = _game({1: "5KKQQ9", 2: "79KAB", 3: "3", 4: "3", 5: "3", 6: "3"})
    play(g, "1 5")
    assert decide(g, 2, random.Random(0), Policy(vary=0.0)) == (2, BEAT, Play.parse("7"))


def test_keeps_its_jokers_for_its_duitou() -> None:
    hands = {1: "5KKQQ99887", 2: "B4", 3: "4", 4: "B4", 5: "4", 6: "4"}
    g = _game(hands)
    play(g, "1 5")  # an opponent that is not seat 2's 对头, with 9 cards left: no joker spent on it
    assert decide(g, 2, random.Random(0), Policy(vary=0.0))[1] == PASS
    play(g, "2 pass", "3 pass")  # seat 4, its 对头: the 小王 goes on (a 够级牌: no yield)
    assert decide(g, 4, random.Random(0), Policy(vary=0.0)) == (4, BEAT, Play.parse("B"))
    assert decide(_replay_first(hands), 2, random.Random(0), Policy(1, vary=0.0))[1] == BEAT  # v1 spends it


def _replay_first(hands: dict[int, str]) -> Game:
    return play(_game(hands), "1 5")


def test_spends_a_joker_on_a_player_about_to_finish() -> None:
    g = _game({1: "5KK", 2: "B4", 3: "4", 4: "B4", 5: "4", 6: "4"})
    play(g, "1 5")  # seat 1 holds 2 cards: 报牌
    assert decide(g, 2, random.Random(0), Policy(vary=0.0)) == (2, BEAT, Play.parse("B"))


def test_burns_when_the_burn_can_finish_and_not_otherwise() -> None:
    g = _game({1: "TTTTT44", 2: "JJJJJB6", 3: "3", 4: "3", 5: "3", 6: "3"})
    play(g, "1 TTTTT")  # a 够级牌: only seat 4 answers unless it is burned (G6.2, G7.1)
    assert choose(g, random.Random(0), Policy()) == (2, BURN, Play.parse("JJJJJ"))  # then 6B: finishes
    g = _game({1: "TTTTT44", 2: "JJJJJ68", 3: "3", 4: "3", 5: "3", 6: "3"})
    play(g, "1 TTTTT")  # after the burn 6 and 8 are left and no joker to lead the first with
    seat, mode, _ = choose(g, random.Random(0), Policy())
    assert (seat, mode) == (4, PASS)
    assert choose(g, random.Random(0), Policy(1))[1] == PASS  # the first version never burns


def test_never_burns_a_teammate() -> None:
    g = _game({1: "TTTTT44", 2: "3", 3: "JJJJJB6", 4: "3", 5: "3", 6: "3"})
    play(g, "1 TTTTT")
    assert choose(g, random.Random(0), Policy())[0] == 4


def test_yields_on_its_duitous_play_where_its_beat_would_not_be_gouji() -> None:
    g = _game({1: "5KKQQ", 2: "4", 3: "4", 4: "6Q", 5: "4", 6: "4"})
    play(g, "1 5", "2 pass", "3 pass")
    assert decide(g, 4, random.Random(0), Policy()) == (4, YIELD, None)  # G5.5: 5 and 6 act first
    assert Action(4, "yield") in g.legal_plays()
    assert decide(g, 4, random.Random(0), Policy(1))[1] == BEAT


def test_dagang_the_play_before_the_3s_carries_the_jokers_and_the_3s_go_last() -> None:
    g = _game({1: "333KKB", 2: "4", 3: "4", 4: "4", 5: "4", 6: "4"}, rules="dagang")
    assert lead(g, 1, g._hands[1] or [], random.Random(0), Policy()) == Play.parse("KKB")
    g = _game({1: "3339R", 2: "4", 3: "4", 4: "4", 5: "4", 6: "4"}, rules="dagang")
    pl = lead(g, 1, g._hands[1] or [], random.Random(0), Policy())
    assert pl == Play.parse("9R") and pl.is_dead  # dead (G4.3): 对头 passes, then the 3s
    play(g, "1 9R", "4 pass")
    assert decide(g, 1, random.Random(0), Policy()) == (1, LEAD, Play.parse("333"))


def test_leads_a_whole_hand_that_is_one_play() -> None:
    g = _game({1: "KK22B", 2: "4", 3: "4", 4: "4", 5: "4", 6: "4"})
    assert decide(g, 1, random.Random(0), Policy()) == (1, LEAD, Play.parse("KK22B"))


def test_a_burner_leads_with_a_joker() -> None:
    g = _game({1: "TTTTT44", 2: "JJJJJB67R", 3: "3", 4: "3", 5: "3", 6: "3"})
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass")  # seat 2 burns; its 对头 seat 5 passes: it leads
    assert g.burner == 2
    seat, mode, pl = decide(g, 2, random.Random(0), Policy())
    assert (seat, mode) == (2, LEAD) and pl is not None and pl.has_joker


def test_revolts_in_dagang_with_a_hand_dealt_no_2_and_no_joker() -> None:
    hands = {1: "3456789TJQKA", 2: "2B3", 3: "2R3", 4: "23", 5: "2B3", 6: "2R3"}
    g = Game("dagang", hands=hands, leader=2, buy_threes=False)
    assert choose(g, random.Random(0), Policy()) == (1, REVOLT, None)
    assert choose(g, random.Random(0), Policy(1))[1] == LEAD


def test_the_policy_beats_the_random_player() -> None:
    score = 0.0
    for i in range(10):
        for side in (1, 0):  # the same deal with the teams swapped (duplicate)
            g = new_game("tv_match", seed=f"strength-{i}")
            players = [None] + [Policy() if s % 2 == side else None for s in range(1, 7)]
            play_table(g, random.Random(f"strength-{i}-{side}"), players)
            pts = result(g).team_points
            mine, theirs = (pts["odd"], pts["even"]) if side else (pts["even"], pts["odd"])
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert score >= 18


def test_policy_versions() -> None:
    assert Policy().version == 2 and Policy(1).burns is False
    with pytest.raises(ValueError):
        Policy(3)
