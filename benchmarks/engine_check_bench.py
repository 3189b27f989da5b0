"""``gjn.check`` (parse + replay + result): records/s, what the qualifiers' import pays for each record.

The records: N seeded self-played games (alternately tv_match and dagang) with the tags a qualifier
record carries, written once by this checkout and read by every side from the same file. Each side runs
in a fresh interpreter, CPU time of that process: one warm-up pass over the first records (the move-line
cache of a worker that has read a few records), then ``gjn.check`` of every record, which must say ok.

Sides, alternating, ``--reps`` times (the best of each is kept):
- ``compiled``: this checkout's compiled core (when it is built and current);
- ``pure``: this checkout's pure-Python modules (``GOUJI_PURE_PYTHON=1``);
- with ``--against DIR``: the same two of another checkout (e.g. main before a change), as the baseline.

``--callgrind`` adds instructions per record (valgrind's callgrind; a run of N records minus a run of
none, so the start-up and the reading of the file are subtracted), which a busy machine does not change.
The qualifiers' budget is printed beside the figures: 1,700 records/s on two workers (issue 27), that
is 850 records/s a worker for everything the worker does, the engine's check included.

Usage: nice python benchmarks/engine_check_bench.py [--records 1500] [--reps 3] [--against DIR] [--callgrind]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 1700 / 2  # records/s a worker: the qualifiers' 1,700 records/s on two workers

_MAKE = r"""
import json, random, sys
from engine import gjn, new_game
n, out = int(sys.argv[1]), sys.argv[2]
texts = []
for i in range(n):
    rules = "dagang" if i % 2 else "tv_match"
    seed = f"check-bench-{i}"
    g = new_game(rules, seed=seed)
    g.play_randomly(random.Random(f"gouji-play:{seed}"))
    tags = [("Event", "线上海选"), ("Site", "齐鲁棋牌网")]
    tags += [(f"Seat{s}", f"选手{i}-{s}") for s in range(1, 7)]
    texts.append(gjn.write_game(g, tags))
json.dump(texts, open(out, "w", encoding="utf-8"), ensure_ascii=False)
"""

_CHECK = r"""
import json, sys, time
from engine import gjn, native
texts = json.load(open(sys.argv[1], encoding="utf-8"))[: int(sys.argv[2])]
for t in texts[:50]:  # warm-up: a worker that has read a few records
    gjn.check(t)
c0 = time.process_time()
ok = sum(1 for t in texts if gjn.check(t)["ok"])
cpu = time.process_time() - c0
assert ok == len(texts), (ok, len(texts))
print(json.dumps({"build": native.BUILD, "records": len(texts), "cpu": cpu}))
"""


def _env(pure: bool, tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("GOUJI_PURE_PYTHON", None)
    if pure:
        env["GOUJI_PURE_PYTHON"] = "1"
    return env


def _python(tree: Path) -> str:
    venv = tree / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def _run(tree: Path, pure: bool, records: Path, n: int, prefix: list[str] | None = None) -> dict[str, object]:
    cmd = [*(prefix or []), _python(tree), "-c", _CHECK, str(records), str(n)]
    r = subprocess.run(cmd, env=_env(pure, tree), cwd=tree, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{tree} ({'pure' if pure else 'compiled'}) failed:\n{r.stderr[-2000:]}")
    data: dict[str, object] = json.loads(r.stdout.strip().splitlines()[-1])
    return data


def _instructions(tree: Path, pure: bool, records: Path, n: int) -> float:
    """User-space instructions per record: callgrind of n records minus callgrind of none."""

    def total(k: int) -> int:
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "cg.out"
            _run(tree, pure, records, k, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
            for line in out.read_text().splitlines():
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(line.split()[1])
        raise SystemExit("callgrind wrote no totals")

    return (total(n) - total(0)) / (n + min(n, 50))  # the warm-up pass checks the first 50 too


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--records", type=int, default=1500)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--against", type=Path, help="another checkout of the project: the baseline")
    p.add_argument("--callgrind", action="store_true", help="instructions per record (valgrind)")
    args = p.parse_args()
    trees = [("this", ROOT)] + ([("baseline", args.against.resolve())] if args.against else [])
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"python {sys.version.split()[0]}; one process a side, CPU time; {args.records} records")
    with tempfile.TemporaryDirectory() as d:
        records = Path(d) / "records.json"
        subprocess.run([sys.executable, "-c", _MAKE, str(args.records), str(records)], check=True, cwd=ROOT)
        best: dict[tuple[str, str], float] = {}
        builds: dict[tuple[str, str], object] = {}
        for _ in range(args.reps):
            for name, tree in trees:
                for pure in (False, True):
                    key = (name, "pure" if pure else "compiled")
                    r = _run(tree, pure, records, args.records)
                    rate = float(r["records"]) / max(float(r["cpu"]), 1e-9)  # type: ignore[arg-type]
                    best[key] = max(best.get(key, 0.0), rate)
                    builds[key] = r["build"]
        instr: dict[tuple[str, str], float] = {}
        if args.callgrind:
            n = min(args.records, 150)
            for name, tree in trees:
                for pure in (False, True):
                    instr[(name, "pure" if pure else "compiled")] = _instructions(tree, pure, records, n)
    for (name, side), rate in best.items():
        ran = builds[(name, side)]
        note = "" if ran == side else f" (ran: {ran}; not built?)"
        line = f"{name:8} {side:8}: {rate:8,.0f} records/s, {1e3 / rate:.3f} ms CPU a record{note}"
        line += f"; {rate / BUDGET:.1f}x the qualifiers' budget of {BUDGET:,.0f}/s a worker"
        if (name, side) in instr:
            line += f"; {instr[(name, side)]:,.0f} instructions a record"
        print(line)
    for side in ("compiled", "pure"):
        if ("baseline", side) in best:
            ratio = best[("this", side)] / best[("baseline", side)]
            line = f"this / baseline, {side}: {ratio:.2f}x by the clock"
            if ("baseline", side) in instr:
                line += f", {instr[('baseline', side)] / instr[('this', side)]:.2f}x by instructions"
            print(line)
    if ("this", "pure") in best:
        line = (
            f"compiled / pure (this): {best[('this', 'compiled')] / best[('this', 'pure')]:.2f}x by the clock"
        )
        if ("this", "pure") in instr:
            line += f", {instr[('this', 'pure')] / instr[('this', 'compiled')]:.2f}x by instructions"
        print(line)
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
