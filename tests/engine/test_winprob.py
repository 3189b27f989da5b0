"""The 胜率 evaluator (engine/winprob.py): seeded figures (the same in another process, with any number
of workers), the true deal played out when the hands are known, sampled deals consistent with everything
seen (each is replayed through the referee with the sampled hands: a card a seat could not hold, a
void play it did not keep (G7.4), a 2 or joker for a 革命 seat (G10.5) or a seat left with only 3s
after its play was beaten (闷, G9.2) would make the replay refuse or differ), the pool's cancellation,
and the command line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine import Game, gjn, new_game
from engine.actions import action_of
from engine.cards import NRANKS, TOTALS, counts_to_cards
from engine.policy import Policy, play_out
from engine.seats import IN_PLAY, SEATS
from engine.winprob import Position, WinprobError, evaluate, finished
from engine.winprob_pool import Pool

from .helpers import play

ROOT = Path(__file__).resolve().parents[2]


def _self_played(rules: str, seed: str, moves: int, *, revolt: int = 0) -> Game:
    """A policy game of a seeded deal, stopped after ``moves`` moves (with a 革命 first if asked)."""
    g = new_game(rules, seed=seed)
    full = g.copy()
    play_out(full, random.Random(seed), Policy(), record=True)
    for code in full._codes[:moves]:
        g.push(action_of(code))
    return g


def _unknown(g: Game) -> Game:
    """The same moves on a deal nobody entered: 36 unknown cards a seat."""
    h = Game(g.preset, leader=g.leader)
    for code in g._codes:
        h.push(action_of(code))
    return h


def test_known_hands_play_the_true_deal_out() -> None:
    # each odd seat holds a 大王 and beats what the even seats lead: 圈三 whatever the chances
    g = Game("tv_match", hands={1: "R", 2: "34", 3: "R", 4: "34", 5: "R", 6: "34"}, leader=1)
    est = evaluate(g, 100)
    assert est["hands"] == "known" and est["playouts"] == 100
    assert est["win"] == {"odd": 1.0, "even": 0.0} and est["points"] == {"odd": 32.0, "even": 0.0}
    assert est["seats"]["1"]["title"] == "头科" and est["seats"]["2"]["title"] == "圈三"
    assert est["ci"]["win"]["odd"][0] > 0.95


def test_the_same_position_gives_the_same_figures() -> None:
    g = _self_played("tv_match", "same", 40)
    a = evaluate(g, 120)
    b = evaluate(g.copy(), 120)
    c = evaluate(Position.of_key(Position(g).key()).game, 120)  # rebuilt from plain data
    for x in (b, c):
        assert {k: v for k, v in x.items() if k != "seconds"} == {
            k: v for k, v in a.items() if k != "seconds"
        }
    assert a["seed"] == Position(g).seed
    other = _self_played("tv_match", "same", 41)
    assert Position(other).seed != a["seed"]


def _dealt_from(pos: Position, hands: list[list[int]]) -> dict[int, list[int]]:
    """Each seat's hand as it must have been dealt for the sampled hand: what it holds + what it played."""
    g = pos.game
    dealt = {s: list(hands[s]) if s in pos.unknown else list(g._hands[s] or []) for s in SEATS}
    for s in SEATS:
        if not dealt[s]:
            dealt[s] = [0] * NRANKS
    void = {(e.move - 1) for e in g._events if e.name == "zha_shao"}
    for i, code in enumerate(g._codes):
        a = action_of(code)
        if a.kind == "play" and a.cards is not None and i not in void and a.seat in pos.unknown:
            for r, c in enumerate(a.cards.counts()):
                dealt[a.seat][r] += c
    return dealt


def _check_samples(g: Game, n: int = 40) -> Position:
    pos = Position(g)
    rng = random.Random(7)
    assert pos.unknown
    for _ in range(n):
        hands = pos.deal(rng)
        for s in pos.unknown:
            assert sum(hands[s]) == g.cards_left(s)  # cards left, as counted (and as 报牌 says)
        dealt = _dealt_from(pos, hands)
        total = [sum(dealt[s][r] for s in SEATS) for r in range(NRANKS)]
        assert all(total[r] <= TOTALS[r] for r in range(NRANKS))  # G2.1: never a card the pack lacks
        for s in pos.no_wild:
            assert not (dealt[s][12] or dealt[s][13] or dealt[s][14])
        replay = Game(
            g.preset,
            hands={s: counts_to_cards(dealt[s]) for s in SEATS},
            leader=g.leader,
            buy_threes=False,
        )
        for code in g._codes:
            replay.push(action_of(code))  # raises IllegalAction if the sample contradicts a move
        assert [replay.status(s) for s in SEATS] == [g.status(s) for s in SEATS]  # no 闷 that did not happen
        assert [replay.cards_left(s) for s in SEATS] == [g.cards_left(s) for s in SEATS]
    return pos


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
def test_sampled_deals_are_consistent_with_everything_seen(rules: str) -> None:
    for k, moves in enumerate((0, 25, 90, 160)):
        g = _unknown(_self_played(rules, f"sample-{k}", moves))
        if g.is_over():
            continue
        _check_samples(g, 15)


def test_a_zha_shao_seat_keeps_its_void_play_and_a_revolutionary_holds_no_wild_card() -> None:
    g = Game("dagang", leader=1)
    # seat 3's 革命 leaves seat 6 无头; seat 2 burns, its JJJJJ lives, then it leads with no joker
    play(g, "3 revolt", "1 TTTTT", "2 JJJJJ", "5 pass", "6 pass", "2 99")
    assert g.status(2) == "zha_shao" and g.status(3) == "revolt"
    pos = _check_samples(g, 30)
    assert pos.must_hold[2][6] == 2 and pos.no_wild == [3]


def test_dagang_a_seat_whose_last_play_was_beaten_holds_more_than_3s() -> None:
    # seat 1 has 3 cards left after its 4 was beaten: under 憋3 they cannot all be 3s (it would be 闷)
    g = Game("dagang", leader=1, counts={1: 4, 2: 8, 3: 8, 4: 8, 5: 8, 6: 8})
    play(g, "1 4", "2 5", "3 pass", "4 pass", "5 pass", "6 pass", "1 pass")
    pos = Position(g)
    assert 1 in pos.not_only_threes and 2 not in pos.not_only_threes
    pos.pool = [0] * 14 + [5] * 40  # a pack left with many 3s: the condition has to bite
    rng = random.Random(3)
    for _ in range(200):
        hands = pos.deal(rng)
        assert sum(hands[1]) == 3 and hands[1][0] < 3


def test_more_unknown_cards_than_the_pack_has_left_is_refused() -> None:
    g = Game("tv_match", hands={1: "R" * 4}, leader=2, counts={s: 36 for s in SEATS})
    g2 = Game("tv_match", hands={1: counts_to_cards([16] * 13 + [4, 0])}, leader=2)
    Position(g)
    with pytest.raises(WinprobError):
        Position(g2)


def test_the_pool_gives_the_same_figures_and_a_newer_run_cancels_an_older_one() -> None:
    g = _self_played("tv_match", "pool", 30)
    alone = evaluate(g, 200)
    with Pool(2) as pool:
        pool.warm_up()
        two = pool.evaluate(g, 200)
        assert two is not None
        assert {k: v for k, v in two.items() if k != "seconds"} == {
            k: v for k, v in alone.items() if k != "seconds"
        }
        got: list[object] = []
        started = threading.Event()
        # the run's generation is read when the job is taken, as the studio's worker does: a cancel that
        # comes before the thread has reached evaluate() stops it all the same (the test raced on that)
        gen = pool.generation

        def long_run() -> None:
            started.set()
            # far more play-outs than the join below waits for: only workers that stop end it in time
            got.append(pool.evaluate(new_game("tv_match", seed="long"), 1_000_000, generation=gen))

        t = threading.Thread(target=long_run)
        t.start()
        started.wait()
        pool.cancel()  # what a newer decision does
        t.join(timeout=120)
        assert not t.is_alive() and got == [None]
        again = pool.evaluate(g, 200)  # the pool goes on working after a cancellation
        assert again is not None and again["win"] == alone["win"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "engine", "winprob", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_cli_json_is_seeded_and_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    g = _self_played("tv_match", "cli", 50)
    f = tmp_path / "partial.gjn"
    f.write_text(gjn.write_game(g), encoding="utf-8")
    p = _cli(str(f), "--json", "--playouts", "100", "--workers", "1")
    assert p.returncode == 0, p.stderr
    a = json.loads(p.stdout)
    assert {"win", "points", "seats", "playouts", "seconds"} <= set(a)
    assert set(a["win"]) == {"odd", "even"} and a["playouts"] == 100
    assert set(a["seats"]) == {"1", "2", "3", "4", "5", "6"} and {"title", "points"} <= set(a["seats"]["1"])
    assert a["win"]["odd"] + a["win"]["even"] + a["level"] == pytest.approx(1.0)
    b = json.loads(json.dumps(evaluate(gjn.replay(gjn.parse(f.read_text(encoding="utf-8"))), 100)))
    a.pop("seconds"), b.pop("seconds")
    assert a == b  # the same figures in another process (after a restart): seeded by the position
    text = _cli(str(f), "--playouts", "60", "--workers", "1")
    assert text.returncode == 0 and "单号队" in text.stdout and "win probability" in text.stdout
    bad = tmp_path / "bad.gjn"
    bad.write_text('[Leader "1"]\n1 TTTTT\n2 JJJJ\n', encoding="utf-8")  # G4.1: the sizes differ
    for args in ([str(bad)], [str(f), "--playouts", "0"], [str(tmp_path / "none.gjn")], [str(f), "--bogus"]):
        p = _cli(*args)
        assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr
        if args == [str(bad)]:
            assert "bad.gjn:3:" in p.stderr and "G4.1" in p.stderr


def test_cli_a_finished_game_is_its_result() -> None:
    g = _self_played("tv_match", "over", 10_000)
    assert g.is_over()
    r = g.result()
    est = finished(g, 0.0)
    assert est["playouts"] == 0 and est["points"]["odd"] == r.team_points["odd"]
    assert est["win"]["odd"] == float(r.team_points["odd"] > r.team_points["even"])
    assert all(g.status(s) != IN_PLAY for s in r.finish_order[:1])
