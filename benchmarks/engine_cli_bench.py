"""The CLI's per-game cost: ``python -m engine selfplay`` against the engine in process, same run.

Prints the in-process rate of ``benchmarks/engine_bench.py`` (deal + play-out + result), the rate of
the ``selfplay`` command (a fresh interpreter that deals, plays, writes one GJN file per game; its
start-up left out: it runs for n and 2n games and the difference is timed), and their ratio, both by
the wall clock and by CPU time (the process's own user + system seconds: on a shared machine the wall
clock also measures the other processes). Goal (issue 14): ratio >= 0.8.

With ``--instructions`` it also counts the user-space instructions of each side under valgrind's
callgrind (start-up subtracted): a figure the load of a shared machine does not move, though it leaves
out the kernel's share of writing the files.
Usage: python benchmarks/engine_cli_bench.py [--quick] [--rules tv_match|dagang] [--instructions]
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine_bench import bench_games  # noqa: E402

from engine import native  # noqa: E402


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
    """Games/s of the selfplay command (wall, CPU) and its start-up (CPU s): it runs for n and for 2n
    games, and the difference of the two is n games with no start-up in it."""
    runs = []
    for games in (n, 2 * n):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(_run("selfplay", "--games", str(games), "--out", tmp, "--rules", rules))
            files = len(list(Path(tmp).glob("*.gjn")))
        if files != games:
            raise SystemExit(f"selfplay wrote {files} records, expected {games}")
    (w1, c1), (w2, c2) = runs
    wall, cpu = max(w2 - w1, 1e-9), max(c2 - c1, 1e-9)
    return n / wall, n / cpu, max(c1 - cpu, 0.0)


def bench_inprocess(rules: str, n: int) -> tuple[float, float]:
    """engine_bench's random full games (deal + play-out + result): games/s (wall, CPU)."""
    w0, c0 = time.perf_counter(), time.process_time()
    bench_games(rules, n)
    return n / max(time.perf_counter() - w0, 1e-9), n / max(time.process_time() - c0, 1e-9)


def _instructions(*cmd: str) -> int:
    """User-space instructions of a command under callgrind."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    m = re.search(r"Collected : (\d+)", p.stderr)
    if m is None:
        raise SystemExit(f"valgrind printed no instruction count: {p.stderr[-300:]}")
    return int(m.group(1))


def bench_instructions(rules: str, n: int) -> tuple[float, float]:
    """Instructions per game: (in process, selfplay command), each with its start-up subtracted."""
    py = sys.executable
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); from engine_bench import bench_games; "
        f"from engine import load_preset; load_preset({rules!r}); n = int(sys.argv[1]); "
        f"n and bench_games({rules!r}, n)"
    )
    inproc = _instructions(py, "-c", code, str(n)) - _instructions(py, "-c", code, "0")
    with tempfile.TemporaryDirectory() as tmp:
        selfplay = (py, "-m", "engine", "selfplay", "--rules", rules, "--out", tmp, "--seed", "bench")
        cli = _instructions(*selfplay, "--games", str(n)) - _instructions(*selfplay, "--games", "0")
    return inproc / n, cli / n


def bench_pure_inprocess(rules: str, n: int) -> float:
    """The in-process rate (games/s of CPU) on the pure-Python modules, in a fresh interpreter."""
    code = (
        "import sys, time; sys.path.insert(0, 'benchmarks'); from engine_bench import bench_games; "
        f"bench_games({rules!r}, 20); t = time.process_time(); bench_games({rules!r}, {n}); "
        f"print({n} / (time.process_time() - t))"
    )
    env = dict(os.environ, GOUJI_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return float(r.stdout.split()[-1])


def main() -> None:
    quick = "--quick" in sys.argv
    rules = sys.argv[sys.argv.index("--rules") + 1] if "--rules" in sys.argv else "tv_match"
    n, rounds = (150, 3) if quick else (400, 5)  # several rounds: the best of each side is its rate
    print(f"python {sys.version.split()[0]}, one core, {rules}, {n} games, best of {rounds} alternate rounds")
    print(f"engine core: {native.BUILD} ({native.REASON}); load average {os.getloadavg()[0]:.1f}")
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
        f"wall, {max(clic):,.0f} CPU (start-up {min(starts):.2f} s, left out)"
    )
    print(
        f"CLI / in-process ratio: {max(clic) / max(inc):.2f} by CPU time, "
        f"{max(cliw) / max(inw):.2f} by the wall clock (goal >= 0.80)"
    )
    if native.BUILD == "compiled":
        pure = bench_pure_inprocess(rules, n)
        print(
            f"in process on the pure-Python modules (GOUJI_PURE_PYTHON=1): {pure:,.0f} games/s CPU: "
            f"compiled / pure {max(inc) / pure:.2f} by CPU time"
        )
    if "--instructions" in sys.argv:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind (Debian package valgrind)")
        k = 40 if quick else 100
        a, b = bench_instructions(rules, k)
        print(
            f"user-space instructions per game ({k} games, callgrind): in process {a / 1e6:.2f} M, "
            f"selfplay {b / 1e6:.2f} M: ratio {a / b:.2f}"
        )


if __name__ == "__main__":
    main()
