"""After a decision, how long until the new 胜率 is ready: ``Pool.evaluate`` with 1,000 play-outs over
2 worker processes (engine/winprob_pool.py, what the studio's evaluator runs), known and unknown hands.

    nice .venv/bin/python benchmarks/winprob.py [--games 6] [--every 20] [--playouts 1000] [--workers 2]
        [--minutes 30]

Positions: every ``--every``-th decision of ``--games`` self-played games of the policy per preset
(tv_match, dagang), from the deal on (the earliest positions, with the longest play-outs, are the
slowest). Each position is evaluated as the console sees it with the hands entered (``known``: the
true deal played out) and with no hands entered (``sampled``: a fresh consistent deal per play-out).
Goal (issue 25): p95 ≤ 1 s with ≥ 1,000 play-outs on this 2-core machine, quiet; the last lines say
whether it is met, for known and for sampled hands over both presets. Bounded: no position is started
after ``--minutes`` (the figures are then of the positions timed, and it says so).

Baselines of the same run: the same evaluation in this one process (the pool's speed-up), and the
engine's random play-out of the same positions (the policy's play-out cost against the random one).
The one-process evaluation's CPU seconds are printed too: on a shared machine the clock says little,
the CPU time of the first (slowest: longest play-outs) positions divided by the workers is about what
two idle cores would take.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, new_game  # noqa: E402
from engine.actions import action_of  # noqa: E402
from engine.policy import Policy, play_out  # noqa: E402
from engine.winprob import evaluate  # noqa: E402
from engine.winprob_pool import Pool  # noqa: E402


def positions(rules: str, games: int, every: int) -> list[Game]:
    out: list[Game] = []
    for i in range(games):
        seed = f"bench-winprob:{rules}:{i}"
        g = new_game(rules, seed=seed)
        full = g.copy()
        play_out(full, random.Random(seed), Policy(), record=True)
        for k, code in enumerate(full._codes):
            if k % every == 0:
                out.append(g.copy())
            g.push(action_of(code))
    return out


def hidden(g: Game) -> Game | None:
    """The same moves with no hands entered; None past a 闷 (G9.2: with unknown hands the engine cannot
    see it, so the record's later turns do not replay)."""
    if any(e.name == "men" for e in g.events()):
        return None
    h = Game(g.preset, leader=g.leader)
    for code in g._codes:
        h.push(action_of(code))
    return h


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def compiled() -> str:
    import engine.policy
    import engine.turns

    kinds = [m.__file__ or "" for m in (engine.turns, engine.policy)]
    return ", ".join(("compiled" if f.endswith(".so") else "pure Python") for f in kinds)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--every", type=int, default=20)
    p.add_argument("--playouts", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--baseline", type=int, default=4, help="positions timed in one process too")
    p.add_argument("--minutes", type=float, default=30.0, help="no position started after this")
    a = p.parse_args()
    t_start = time.perf_counter()
    deadline = t_start + 60 * a.minutes
    every: dict[str, list[float]] = {"known": [], "sampled": []}
    stopped = False
    print(
        f"winprob: {a.playouts} play-outs a position, {a.workers} worker processes; "
        f"engine.turns, engine.policy: {compiled()}"
    )
    print(
        f"load average at the start {os.getloadavg()[0]:.1f} (the machine may be shared; goal measured quiet)"
    )
    with Pool(a.workers) as pool:
        for rules in ("tv_match", "dagang"):
            pos = positions(rules, a.games, a.every)
            for kind in ("known", "sampled"):
                times: list[float] = []
                for g in pos:
                    x = g if kind == "known" else hidden(g)
                    if x is None:
                        continue
                    if time.perf_counter() > deadline:
                        stopped = True
                        break
                    t0 = time.perf_counter()
                    est = pool.evaluate(x, a.playouts)
                    times.append(time.perf_counter() - t0)
                    assert est is not None and est["hands"] == kind and est["playouts"] == a.playouts
                every[kind] += times
                if not times:
                    continue
                one: list[float] = []
                cpu: list[float] = []
                rnd: list[float] = []
                for g in pos[: a.baseline]:
                    x = g if kind == "known" else hidden(g)
                    assert x is not None
                    t0, c0 = time.perf_counter(), time.process_time()
                    evaluate(x, a.playouts)
                    one.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                    if kind == "known":
                        t0 = time.perf_counter()
                        for i in range(a.playouts):
                            y = x.copy()
                            y.play_randomly(random.Random(i), record=False)
                        rnd.append(time.perf_counter() - t0)
                pool_same = sum(times[: a.baseline])
                line = (
                    f"{rules:8} {kind:7} {len(times)} positions: p50 {statistics.median(times):.3f} s, "
                    f"p95 {pct(times, 0.95):.3f} s, max {max(times):.3f} s "
                    f"({a.playouts * len(times) / sum(times):.0f} play-outs/s); one process × "
                    f"{sum(one) / pool_same:.2f} slower"
                )
                if rnd:
                    line += f"; a policy play-out costs × {sum(one) / sum(rnd):.2f} a random one"
                if cpu:  # the load does not change it much: what two quiet cores would take, about
                    line += (
                        f"; CPU of one evaluation in one process max {max(cpu):.2f} s "
                        f"(/ {a.workers} = {max(cpu) / a.workers:.2f} s on {a.workers} idle cores)"
                    )
                print(line + f"  [load {os.getloadavg()[0]:.1f}]", flush=True)
    if stopped:
        print(f"STOPPED at {a.minutes:g} min: the figures are of the positions timed before")
    for kind, times in every.items():
        if times:
            p95 = pct(times, 0.95)
            print(
                f"goal ({kind} hands, both presets, {len(times)} positions): p95 {p95:.3f} s ≤ 1 s with "
                f"{a.playouts} play-outs: {'met' if p95 <= 1.0 and a.playouts >= 1000 else 'NOT met'}"
            )
    print(f"[{time.perf_counter() - t_start:.0f} s wall, load {os.getloadavg()[0]:.1f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
