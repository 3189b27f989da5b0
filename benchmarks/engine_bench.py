"""Engine benchmarks: random full games/s, lead enumeration, replay-and-verify. Prints its figures.

Goals (issue 2): >= 500 random full tv_match games/s on one core; lead enumeration for a 36-card
hand <= 50 us median; replay-and-verify of a full recorded game <= 5 ms.
Usage: python benchmarks/engine_bench.py [--quick]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, deal, gjn, load_preset  # noqa: E402
from engine.deal import deal_counts, first_leader  # noqa: E402
from engine.game import enumerate_leads  # noqa: E402


def bench_games(rules: str, n: int) -> tuple[float, float, float]:
    preset = load_preset(rules)
    decisions = 0
    t0 = time.perf_counter()
    for i in range(n):
        hands = deal_counts(i)
        g = Game(preset, hands={s: _cards(hands[s - 1]) for s in range(1, 7)}, leader=1 + i % 6)
        g.play_randomly(random.Random(i))
        g.result()
        decisions += len(g.moves)
    dt = time.perf_counter() - t0
    return n / dt, decisions / dt, decisions / n


def _cards(counts: list[int]) -> list[int]:
    out: list[int] = []
    for r, c in enumerate(counts):
        out += [r] * c
    return out


def bench_playout_only(rules: str, n: int) -> float:
    """Games/s of the play-out alone (hands dealt beforehand)."""
    preset = load_preset(rules)
    games = []
    for i in range(n):
        hands = deal_counts(i)
        games.append(Game(preset, hands={s: _cards(hands[s - 1]) for s in range(1, 7)}, leader=1 + i % 6))
    t0 = time.perf_counter()
    for i, g in enumerate(games):
        g.play_randomly(random.Random(i), record=False)
    return n / (time.perf_counter() - t0)


def bench_leads(n: int) -> tuple[float, float, float, float]:
    hands = [deal_counts(i)[i % 6] for i in range(n)]
    times = []
    sizes = []
    for h in hands:
        t0 = time.perf_counter_ns()
        leads = enumerate_leads(h)
        times.append(time.perf_counter_ns() - t0)
        sizes.append(len(leads))
    views = []
    for i in range(min(n, 300)):
        g = Game(
            "tv_match",
            hands={s: _cards(c) for s, c in zip(range(1, 7), deal_counts(i), strict=True)},
            leader=1,
        )
        t0 = time.perf_counter_ns()
        acts = list(g.legal_plays())
        views.append(time.perf_counter_ns() - t0)
        assert acts
    return (
        statistics.median(times) / 1000,
        statistics.median(sizes),
        statistics.median(views) / 1000,
        max(times) / 1000,
    )


def bench_replay(n: int) -> tuple[float, float, float]:
    texts = []
    lens = []
    for i in range(n):
        g = Game("tv_match", hands=deal(f"r{i}"), leader=first_leader(f"r{i}"))
        g.play_randomly(random.Random(i))
        texts.append(gjn.write(gjn.from_game(g)))
        lens.append(len(g.moves))
    check_t = []
    replay_t = []
    for text in texts:
        t0 = time.perf_counter_ns()
        out = gjn.check(text)
        check_t.append(time.perf_counter_ns() - t0)
        assert out["ok"], out
        rec = gjn.parse(text)
        t0 = time.perf_counter_ns()
        gjn.replay(rec)
        replay_t.append(time.perf_counter_ns() - t0)
    return statistics.median(check_t) / 1e6, statistics.median(replay_t) / 1e6, statistics.median(lens)


def main() -> None:
    quick = "--quick" in sys.argv
    n = 200 if quick else 2000
    print(f"python {sys.version.split()[0]}, one core, pure CPython")
    for rules in ("tv_match", "dagang"):
        gps, dps, per = bench_games(rules, n)
        print(
            f"random full games ({rules}, deal + play-out + result, {n} games): {gps:,.0f} games/s, "
            f"{dps:,.0f} decisions/s, {per:.0f} decisions/game"
        )
    print(f"random play-out only (tv_match): {bench_playout_only('tv_match', n):,.0f} games/s")
    med, size, view, worst = bench_leads(1000 if quick else 5000)
    print(
        f"lead enumeration, 36-card hand: median {med:.1f} us ({size:.0f} plays), max {worst:.0f} us; "
        f"list(legal_plays()) at a lead with Action objects: median {view:.0f} us"
    )
    chk, rep, moves = bench_replay(50 if quick else 300)
    print(
        f"replay-and-verify of a full recorded game ({moves:.0f} moves): gjn.check median {chk:.2f} ms "
        f"(parse + replay + result), replay alone {rep:.2f} ms"
    )


if __name__ == "__main__":
    main()
