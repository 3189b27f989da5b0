"""Engine benchmarks: random full games/s, lead enumeration, replay-and-verify. Prints its figures.

Goals (issue 2): >= 500 random full tv_match games/s on one core; lead enumeration for a 36-card
hand <= 50 us median; replay-and-verify of a full recorded game <= 5 ms.
Times are CPU time of this process (``time.process_time``): on a shared machine the wall clock also
measures the other processes. Run on the compiled core (engine/native.py), it measures the pure-Python
modules too, in a fresh interpreter (GOUJI_PURE_PYTHON=1), and prints the compiled/pure ratio of each
figure beside it.
Usage: python benchmarks/engine_bench.py [--quick] [--json]
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, deal, gjn, load_preset, native  # noqa: E402
from engine.deal import deal_counts, first_leader  # noqa: E402
from engine.game import enumerate_leads  # noqa: E402


def bench_games(rules: str, n: int) -> tuple[float, float, float]:
    preset = load_preset(rules)
    decisions = 0
    t0 = time.process_time()
    for i in range(n):
        hands = deal_counts(i)
        g = Game(preset, hands={s: _cards(hands[s - 1]) for s in range(1, 7)}, leader=1 + i % 6)
        g.play_randomly(random.Random(i))
        g.result()
        decisions += len(g.moves)
    dt = time.process_time() - t0
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
    t0 = time.process_time()
    for i, g in enumerate(games):
        g.play_randomly(random.Random(i), record=False)
    return n / (time.process_time() - t0)


def bench_leads(n: int) -> tuple[float, float, float, float]:
    hands = [deal_counts(i)[i % 6] for i in range(n)]
    times = []
    sizes = []
    for h in hands:
        t0 = time.process_time_ns()
        leads = enumerate_leads(h)
        times.append(time.process_time_ns() - t0)
        sizes.append(len(leads))
    views = []
    for i in range(min(n, 300)):
        g = Game(
            "tv_match",
            hands={s: _cards(c) for s, c in zip(range(1, 7), deal_counts(i), strict=True)},
            leader=1,
        )
        t0 = time.process_time_ns()
        acts = list(g.legal_plays())
        views.append(time.process_time_ns() - t0)
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
        t0 = time.process_time_ns()
        out = gjn.check(text)
        check_t.append(time.process_time_ns() - t0)
        assert out["ok"], out
        rec = gjn.parse(text)
        t0 = time.process_time_ns()
        gjn.replay(rec)
        replay_t.append(time.process_time_ns() - t0)
    return statistics.median(check_t) / 1e6, statistics.median(replay_t) / 1e6, statistics.median(lens)


def figures(quick: bool) -> dict[str, float]:
    """Every figure of this benchmark, on the engine build that runs in this process."""
    n = 200 if quick else 2000
    out: dict[str, float] = {}
    for rules in ("tv_match", "dagang"):
        gps, dps, per = bench_games(rules, n)
        out[f"{rules} games/s"], out[f"{rules} decisions/s"], out[f"{rules} decisions/game"] = gps, dps, per
    out["play-out only games/s"] = bench_playout_only("tv_match", n)
    med, size, view, worst = bench_leads(1000 if quick else 5000)
    out["lead us"], out["lead plays"], out["legal_plays us"], out["lead max us"] = med, size, view, worst
    chk, rep, moves = bench_replay(50 if quick else 300)
    out["check ms"], out["replay ms"], out["moves"] = chk, rep, moves
    return out


def _pure_figures(quick: bool) -> dict[str, float]:
    """The same figures from a fresh interpreter on the pure-Python modules (GOUJI_PURE_PYTHON=1)."""
    env = dict(os.environ, GOUJI_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    args = [sys.executable, __file__, "--json"] + (["--quick"] if quick else [])
    r = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    data: dict[str, float] = json.loads(r.stdout.splitlines()[-1])
    return data


def main() -> None:
    quick = "--quick" in sys.argv
    if "--json" in sys.argv:
        print(json.dumps(figures(quick)))
        return
    n = 200 if quick else 2000
    load = os.getloadavg()[0]
    print(f"python {sys.version.split()[0]}, one core, CPU time; load average {load:.1f} at the start")
    f = figures(quick)
    p = _pure_figures(quick) if native.BUILD == "compiled" else None

    def vs(key: str, higher_is_better: bool = True) -> str:
        if p is None:
            return ""
        ratio = f[key] / p[key] if higher_is_better else p[key] / f[key]
        return f" [pure Python: {p[key]:,.1f}; compiled {ratio:.2f}x]"

    print(f"engine core: {native.BUILD} ({native.REASON})")
    for rules in ("tv_match", "dagang"):
        print(
            f"random full games ({rules}, deal + play-out + result, {n} games): {f[f'{rules} games/s']:,.0f} "
            f"games/s, {f[f'{rules} decisions/s']:,.0f} decisions/s{vs(f'{rules} decisions/s')}, "
            f"{f[f'{rules} decisions/game']:.0f} decisions/game"
        )
    po = "play-out only games/s"
    print(f"random play-out only (tv_match): {f[po]:,.0f} games/s{vs(po)}")
    print(
        f"lead enumeration, 36-card hand: median {f['lead us']:.1f} us{vs('lead us', False)} "
        f"({f['lead plays']:.0f} plays), max {f['lead max us']:.0f} us; list(legal_plays()) at a lead with "
        f"Action objects: median {f['legal_plays us']:.0f} us{vs('legal_plays us', False)}"
    )
    print(
        f"replay-and-verify of a full recorded game ({f['moves']:.0f} moves): gjn.check median "
        f"{f['check ms']:.2f} ms{vs('check ms', False)} (parse + replay + result), replay alone "
        f"{f['replay ms']:.2f} ms{vs('replay ms', False)}"
    )
    if p is None:
        print("(the compiled core does not run here: no compiled/pure ratio; python -m engine build)")
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end (a shared machine?)")


if __name__ == "__main__":
    main()
