"""The heuristic player's strength: its team's win rate with a 95 % interval over seeded games against
the random player and against its own previous version (engine/policy.py, issue 25).

    nice .venv/bin/python benchmarks/policy_strength.py [--games 10000] [--rules tv_match,dagang]
        [--workers 2]

Duplicate format: each seeded deal is played twice, the player under test on the odd seats and then on
the even seats of the same deal, against the same opponents, so the deal's luck cancels. A game is won
by the team that scores more points (G11); a level game counts half. The interval is over the deals
(each deal's two games scored together: 0, ¼ … 1), normal approximation; the baseline of the same run is
50 % (players of equal strength).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import new_game  # noqa: E402
from engine.policy import Policy, play_table  # noqa: E402
from engine.results import result  # noqa: E402

MATCHES = {
    "v2-random": (2, 0),  # player under test, opponent (0 = the random player)
    "v2-v1": (2, 1),
    "v1-random": (1, 0),
}


def _player(version: int) -> Policy | None:
    return Policy(version) if version else None


def play_deals(args: tuple[str, str, int, int, int, int]) -> list[tuple[float, int, int, int]]:
    """Deals ``lo`` … ``hi`` of a match: per deal (score, wins, levels, losses) of the player under test."""
    rules, match, mine, theirs, lo, hi = args
    a, b = _player(mine), _player(theirs)
    out = []
    for i in range(lo, hi):
        w = d = lost = 0
        for side in (1, 0):
            seed = f"strength:{match}:{rules}:{i}"
            g = new_game(rules, seed=seed)
            players = [None] + [a if s % 2 == side else b for s in range(1, 7)]
            play_table(g, random.Random(f"{seed}:{side}"), players)
            pts = result(g).team_points
            us, them = (pts["odd"], pts["even"]) if side else (pts["even"], pts["odd"])
            if us > them:
                w += 1
            elif us == them:
                d += 1
            else:
                lost += 1
        out.append(((w + d / 2) / 2, w, d, lost))
    return out


def run(rules: str, match: str, games: int, workers: int) -> dict[str, float]:
    mine, theirs = MATCHES[match]
    deals = max(1, games // 2)
    step = max(1, deals // (workers * 8))
    jobs = [(rules, match, mine, theirs, lo, min(deals, lo + step)) for lo in range(0, deals, step)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as ex:
        rows = [r for part in ex.map(play_deals, jobs) for r in part]
    secs = time.perf_counter() - t0
    n = len(rows)
    scores = [r[0] for r in rows]
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.0
    half = 1.959963984540054 * math.sqrt(var / n)
    w, d, lost = (sum(r[k] for r in rows) for k in (1, 2, 3))
    # a rate cannot leave [0, 1]: near its ends the normal interval is clipped there (it said 100.2 %)
    lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    return {"rate": mean, "lo": lo, "hi": hi, "w": w, "d": d, "l": lost, "s": secs}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10_000, help="games per match (two per deal)")
    p.add_argument("--rules", default="tv_match,dagang")
    p.add_argument("--matches", default=",".join(MATCHES))
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    a = p.parse_args()
    print(f"policy strength: {a.games} games a match, duplicate deals, {a.workers} worker processes")
    print(f"load average at the start {os.getloadavg()[0]:.1f} (the machine may be shared)")
    for rules in a.rules.split(","):
        for match in a.matches.split(","):
            r = run(rules, match, a.games, a.workers)
            games = r["w"] + r["d"] + r["l"]
            print(
                f"{rules:8} {match:10} win rate {100 * r['rate']:5.1f} % "
                f"(95 % interval {100 * r['lo']:.1f}–{100 * r['hi']:.1f}; baseline 50.0 %, "
                f"× {r['rate'] / 0.5:.2f})  won {r['w']}, level {r['d']}, lost {r['l']} of {games}  "
                f"[{r['s']:.0f} s, {games / r['s']:.0f} games/s, load {os.getloadavg()[0]:.1f}]",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
