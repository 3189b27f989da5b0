"""The CLI's per-game cost: ``python -m engine selfplay`` against the engine in process, same run.

Prints the in-process rate of ``benchmarks/engine_bench.py`` (deal + play-out + result), the rate of
the ``selfplay`` command (a fresh interpreter that deals, plays, writes one GJN file per game; its
start-up is measured apart and left out), and their ratio, both by the wall clock and by CPU time
(the process's own user + system seconds: on a shared machine the wall clock also measures the other
processes). Goal (issue 14): ratio >= 0.8.
Usage: python benchmarks/engine_cli_bench.py [--quick] [--rules tv_match|dagang]
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine_bench import bench_games  # noqa: E402


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(*args: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``python -m engine`` command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    c0, t0 = _children_cpu(), time.perf_counter()
    cmd = [sys.executable, "-m", "engine", *args]
    subprocess.run(cmd, check=True, env=env, cwd=ROOT, capture_output=True)
    return time.perf_counter() - t0, _children_cpu() - c0


def bench_cli(rules: str, n: int) -> tuple[float, float, float]:
    """Games/s of the selfplay command without interpreter start-up (wall, CPU), and the start-up (s)."""
    with tempfile.TemporaryDirectory() as tmp:
        starts = [_run("selfplay", "--games", "0", "--out", tmp, "--rules", rules) for _ in range(3)]
        wall0, cpu0 = min(w for w, _ in starts), min(c for _, c in starts)
        wall, cpu = _run("selfplay", "--games", str(n), "--seed", "bench", "--out", tmp, "--rules", rules)
        files = len(list(Path(tmp).glob("*.gjn")))
    if files != n:
        raise SystemExit(f"selfplay wrote {files} records, expected {n}")
    return n / max(wall - wall0, 1e-9), n / max(cpu - cpu0, 1e-9), wall0


def bench_inprocess(rules: str, n: int) -> tuple[float, float]:
    """engine_bench's random full games (deal + play-out + result): games/s (wall, CPU)."""
    c0 = time.process_time()
    wall_rate, _dps, _per = bench_games(rules, n)
    return wall_rate, n / max(time.process_time() - c0, 1e-9)


def main() -> None:
    quick = "--quick" in sys.argv
    rules = sys.argv[sys.argv.index("--rules") + 1] if "--rules" in sys.argv else "tv_match"
    n, rounds = (200, 3) if quick else (400, 7)  # many short rounds: the best of each side is its rate
    print(f"python {sys.version.split()[0]}, one core, {rules}, {n} games, best of {rounds} alternate rounds")
    bench_games(rules, 20)  # warm up: presets loaded, caches filled
    inw, inc, cliw, clic, starts = [], [], [], [], []
    for _ in range(rounds):  # alternate, so a change of load on a shared machine hits both sides
        w, c = bench_inprocess(rules, n)
        inw.append(w)
        inc.append(c)
        w, c, st = bench_cli(rules, n)
        cliw.append(w)
        clic.append(c)
        starts.append(st)
    print(
        f"in process (engine_bench's deal + play-out + result): {max(inw):,.0f} games/s wall, "
        f"{max(inc):,.0f} CPU"
    )
    print(
        f"python -m engine selfplay (deal + play-out + one GJN file per game): {max(cliw):,.0f} games/s "
        f"wall, {max(clic):,.0f} CPU (interpreter start-up {min(starts):.2f} s, left out)"
    )
    print(
        f"CLI / in-process ratio: {max(clic) / max(inc):.2f} by CPU time, "
        f"{max(cliw) / max(inw):.2f} by the wall clock (goal >= 0.80)"
    )


if __name__ == "__main__":
    main()
