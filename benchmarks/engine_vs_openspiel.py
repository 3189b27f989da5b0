"""Decisions per second of random self-play: this engine — its compiled core (mypyc) and its pure-Python
modules — against OpenSpiel's dou_dizhu (C++, through pyspiel), in one run.

Each side plays in its own interpreter, for about ``--seconds`` of CPU a repetition; the sides alternate,
three repetitions (so a change of load on a shared machine hits them all), and each side's best
repetition is its rate, by the wall clock and by CPU time. A game is: deal (ours: the seeded 216-card
deal and its 上班 seat; OpenSpiel: its chance nodes sampled), a random legal action at every decision until
the end, the result. Ours chooses its random action without listing the legal ones (``play_randomly``);
OpenSpiel lists them all (``legal_actions()``) and picks one. Ours with every legal play listed at each
decision, as OpenSpiel does (``legal_codes()``, one picked uniformly, ``push_code``), is measured too.
Instruction counts (valgrind's callgrind; the interpreter's start-up subtracted: a run of n games minus a
run of none) stand beside the clock, a figure the load of a shared machine does not move.

Goals (issue 24): compiled >= 2.0x OpenSpiel's decisions/s, by instruction count and by the clock; pure
Python >= 1.0x. (The CLI's self-play rate against the in-process one: benchmarks/engine_cli_bench.py.)

OpenSpiel is never a project dependency. Install it into a venv of its own, once:
    python3.11 -m venv /work/.bench-openspiel && /work/.bench-openspiel/bin/pip install open_spiel
This finds that interpreter (``--openspiel-python``, else $OPENSPIEL_PYTHON, else the path above); without
it the engine's two builds are measured alone. The compiled core must be built (scripts/setup.sh, or
python -m engine build).
With ``--against DIR`` (another checkout of the project, e.g. main before a change: ``git worktree add DIR
main`` or ``git archive main engine | tar -x -C DIR``, its core built there with ``python -m engine
build``), that checkout's two builds play in the same run, alternating with the others, and the ratios
this / baseline are printed (by CPU time, and by instructions unless ``--no-callgrind``).
Usage: python benchmarks/engine_vs_openspiel.py [--seconds 3] [--reps 3] [--no-callgrind] [--quick]
       [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OPENSPIEL = "/work/.bench-openspiel/bin/python"

# ours: N games (or as many as fit in SECONDS of CPU when N < 0); prints one JSON line
_OURS = r"""
import json, random, sys, time
from engine import load_preset, native, new_game
n, seconds, listed = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "listed"
preset = load_preset("tv_match")

def game(i):
    seed = f"bench-{i}"
    g = new_game(preset, seed=seed)
    rng = random.Random(f"gouji-play:{seed}")
    if listed:  # every legal play listed at each decision, one picked uniformly (as OpenSpiel does)
        rnd = rng.random
        while not g.is_over():
            codes = g.legal_codes()
            g.push_code(codes[int(rnd() * len(codes))], undo=False)
    else:
        g.play_randomly(rng)
    g.result()
    return g.move_count

decisions = games = 0
c0, w0 = time.process_time(), time.perf_counter()
while (games < n) if n >= 0 else (time.process_time() - c0 < seconds):
    decisions += game(games)
    games += 1
cpu, wall = time.process_time() - c0, time.perf_counter() - w0
print(json.dumps({"build": native.BUILD, "games": games, "decisions": decisions, "cpu": cpu, "wall": wall}))
"""

_OPENSPIEL = r"""
import json, random, sys, time
import pyspiel
n, seconds = int(sys.argv[1]), float(sys.argv[2])
spiel = pyspiel.load_game("dou_dizhu")
rng = random.Random(0)
rnd = rng.random

def game():
    s = spiel.new_initial_state()
    d = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[int(rnd() * len(outs))][0])
        else:
            acts = s.legal_actions()
            s.apply_action(acts[int(rnd() * len(acts))])
            d += 1
    s.returns()
    return d

decisions = games = 0
c0, w0 = time.process_time(), time.perf_counter()
while (games < n) if n >= 0 else (time.process_time() - c0 < seconds):
    decisions += game()
    games += 1
cpu, wall = time.process_time() - c0, time.perf_counter() - w0
print(json.dumps({"build": "openspiel", "games": games, "decisions": decisions, "cpu": cpu, "wall": wall}))
"""


class Side:
    def __init__(
        self, name: str, python: str, code: str, env: dict[str, str], mode: str = "", cwd: Path = ROOT
    ) -> None:
        self.name, self.python, self.code, self.env, self.mode = name, python, code, env, mode
        self.cwd = cwd  # `python -c` puts the working directory first on sys.path: the checkout measured
        self.runs: list[dict[str, float]] = []
        self.instructions: float | None = None

    def cmd(self, n: int, seconds: float) -> list[str]:
        out = [self.python, "-c", self.code, str(n), str(seconds)]
        return out + ([self.mode] if self.mode else [])

    def run(self, seconds: float) -> dict[str, float]:
        r = subprocess.run(
            self.cmd(-1, seconds), env=self.env, cwd=self.cwd, capture_output=True, text=True, check=True
        )
        data: dict[str, float] = json.loads(r.stdout.strip().splitlines()[-1])
        self.runs.append(data)
        return data

    def best(self, key: str) -> float:
        return max(r["decisions"] / r[key] for r in self.runs)

    def per_game(self) -> float:
        return sum(r["decisions"] for r in self.runs) / sum(r["games"] for r in self.runs)

    def count_instructions(self, n: int) -> float:
        """User-space instructions per decision under callgrind (n games minus none)."""
        counts, decisions = [], 0.0
        for games in (n, 0):
            r = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *self.cmd(games, 0.0)],
                env=dict(self.env, PYTHONHASHSEED="0"),
                cwd=self.cwd,
                capture_output=True,
                text=True,
                check=True,
            )
            m = re.search(r"Collected : (\d+)", r.stderr)
            if m is None:
                raise SystemExit(f"valgrind printed no instruction count: {r.stderr[-300:]}")
            counts.append(int(m.group(1)))
            if games:
                decisions = json.loads(r.stdout.strip().splitlines()[-1])["decisions"]
        self.instructions = (counts[0] - counts[1]) / decisions
        return self.instructions


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _build_of(env: dict[str, str], cwd: Path) -> str:
    r = subprocess.run(
        [sys.executable, "-c", "from engine import native; print(native.BUILD)"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    return r.stdout.strip()


def _openspiel_python(arg: str | None) -> str | None:
    for candidate in (arg, os.environ.get("OPENSPIEL_PYTHON"), DEFAULT_OPENSPIEL):
        if not candidate or not Path(candidate).exists():
            continue
        r = subprocess.run([candidate, "-c", "import pyspiel"], capture_output=True, text=True)
        if r.returncode == 0:
            return candidate
        print(f"OpenSpiel is not importable by {candidate}: {r.stderr.strip().splitlines()[-1:]}")
    return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a side plays per repetition")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--games", type=int, default=150, help="games per side under callgrind")
    p.add_argument("--no-callgrind", action="store_true")
    p.add_argument("--openspiel-python", default=None)
    p.add_argument("--quick", action="store_true", help="1 s a side, 40 games under callgrind")
    p.add_argument("--against", type=Path, help="another checkout of the project: the baseline")
    args = p.parse_args()
    if args.quick:
        args.seconds, args.games = 1.0, 40
    base = dict(os.environ, PYTHONPATH=str(ROOT))
    base.pop("GOUJI_PURE_PYTHON", None)
    me = sys.executable
    compiled_env, pure_env = dict(base), dict(base, GOUJI_PURE_PYTHON="1")
    if _build_of(compiled_env, ROOT) != "compiled":
        print(
            "the compiled core does not run here (python -m engine build, or scripts/setup.sh): measuring it"
        )
        print("would measure the pure-Python modules twice; stopping")
        return 2
    sides = [
        Side("ours, compiled core (mypyc)", me, _OURS, compiled_env, "random"),
        Side("ours, pure Python", me, _OURS, pure_env, "random"),
    ]
    baseline: list[Side] = []
    if args.against:
        tree = args.against.resolve()
        benv = dict(base, PYTHONPATH=str(tree))
        if _build_of(benv, tree) != "compiled":
            print(f"the baseline's compiled core does not run in {tree} (run python -m engine build there)")
            return 2
        baseline = [
            Side("baseline, compiled core", me, _OURS, benv, "random", tree),
            Side("baseline, pure Python", me, _OURS, dict(benv, GOUJI_PURE_PYTHON="1"), "random", tree),
        ]
    listed = [
        Side("ours, compiled, every play listed", me, _OURS, compiled_env, "listed"),
        Side("ours, pure, every play listed", me, _OURS, pure_env, "listed"),
    ]
    os_python = _openspiel_python(args.openspiel_python)
    spiel = Side("OpenSpiel dou_dizhu (C++)", os_python, _OPENSPIEL, dict(os.environ)) if os_python else None
    print(
        f"random self-play, decisions/s; Python {sys.version.split()[0]}; {args.reps} alternating "
        f"repetitions of ~{args.seconds:g} CPU s a side, best of each; load average {_load()} (at the start)"
    )
    print(f"uptime: {_uptime()}")
    everyone = ([spiel] if spiel else []) + sides + baseline + listed
    t0 = time.monotonic()
    for _rep in range(args.reps):
        for side in everyone:
            side.run(args.seconds)
    print(f"(measured in {time.monotonic() - t0:.0f} s; load average {_load()} at the end; a shared machine)")
    ref_wall = spiel.best("wall") if spiel else None
    ref_cpu = spiel.best("cpu") if spiel else None
    print(f"{'side':36} {'dec/game':>9} {'dec/s wall':>12} {'dec/s CPU':>12} {'x OpenSpiel (wall, CPU)':>24}")
    for side in everyone:
        w, c = side.best("wall"), side.best("cpu")
        ratio = f"{w / ref_wall:.2f}, {c / ref_cpu:.2f}" if ref_wall and ref_cpu else "-"
        print(f"{side.name:36} {side.per_game():9.0f} {w:12,.0f} {c:12,.0f} {ratio:>24}")
    if not args.no_callgrind:
        if shutil.which("valgrind") is None:
            print("instruction counts need valgrind (Debian package valgrind)")
        else:
            print(f"instructions per decision (callgrind, {args.games} games a side, start-up subtracted):")
            ref = spiel.count_instructions(args.games) if spiel else None
            for side in ([spiel] if spiel else []) + sides + baseline + listed:
                k = side.instructions if side is spiel else side.count_instructions(args.games)
                assert k is not None
                ratio = f"  ({ref / k:.2f}x OpenSpiel)" if ref else ""
                print(f"  {side.name:36} {k:10,.0f}{ratio}")
    for ours, theirs in zip(sides, baseline, strict=False):
        what = ours.name.split(", ", 1)[1]
        line = f"this / baseline, {what}: {ours.best('cpu') / theirs.best('cpu'):.2f}x by CPU time"
        if ours.instructions and theirs.instructions:
            line += f", {theirs.instructions / ours.instructions:.2f}x by instructions"
        print(line)
    print(f"uptime: {_uptime()}")
    if spiel and ref_wall and ref_cpu:
        comp, pure = sides
        goals = [
            ("compiled >= 2.0x by the clock", comp.best("wall") / ref_wall >= 2.0),
            ("pure >= 1.0x by the clock", pure.best("wall") / ref_wall >= 1.0),
        ]
        if spiel.instructions and comp.instructions and pure.instructions:
            goals.append(("compiled >= 2.0x by instructions", spiel.instructions / comp.instructions >= 2.0))
            goals.append(("pure >= 1.0x by instructions", spiel.instructions / pure.instructions >= 1.0))
        print("goals: " + "; ".join(f"{g}: {'met' if ok else 'NOT met'}" for g, ok in goals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
