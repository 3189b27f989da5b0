"""The online qualifiers at scale: records checked, aggregated and ranked per second, at 1 and 2 workers.

    nice .venv/bin/python benchmarks/qualifiers.py [--records 1000000] [--measure 20000] [--workers 1,2]
        [--players 100000] [--pool 400] [--dir DIR] [--keep]

Goals (issue 27, this 2-core machine, the compiled engine): 1,000,000 records checked, aggregated and
ranked in ≤ 10 minutes (≥ 1,700 records/s end to end), memory ≤ 1 GB (the command and its workers
together), scaling 1 → 2 workers ≥ 1.8×.

The records are synthetic from the engine's self-play (``broadcast.qualifiers.synthetic``: a pool of
self-played games dealt to distinct records between ``--players`` platform players, 1 % made illegal by
mutations the engine refuses), written once as a JSON-lines export of ``--records`` records. Each run is
the real command — ``python -m broadcast qualifiers import`` on a fresh database with a LocalCluster of
N worker processes — followed by ``qualifiers board --top 10`` (the ranking), timed end to end by the
wall clock; the command's and its workers' memory (RSS, summed) and CPU time are sampled every 0.2 s.

``--measure N`` imports the export's first N records (written beside it as their own export, the same
bytes) instead of all of them, and the figures for ``--records`` are **extrapolated** from it — linear in
the records, as the import streams (its memory does not grow with the records; the database's indexes
grow as log n) — and printed as such. ``--measure 0`` imports the whole export.

The same run's baseline: the engine's own check rate in a child process (no Dask, no database) on a sample
of the records, so that the per-worker rate of the import reads as a share of what the engine can do.
The script says which engine ran (the compiled core or the pure-Python modules: ``engine.native`` where
the tree has one; ``--engines pure,compiled`` measures both in one run, the pure one forced by
``GOUJI_PURE_PYTHON=1``), lowers its own priority (``nice`` 10, inherited by the command and its workers) and
prints the load average before and after each run: on a shared machine every figure is a lower bound.
Projection to 16 workers: each worker's measured rate times 16, capped by what the command itself
(reading, identities, commits: its CPU seconds per record) can feed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from broadcast.qualifiers import synthetic  # noqa: E402
from broadcast.qualifiers.check import check_batch  # noqa: E402
from broadcast.qualifiers.records import read  # noqa: E402
from engine.english import count  # noqa: E402


def load() -> str:
    a, b, c = os.getloadavg()
    return f"load average {a:.1f} {b:.1f} {c:.1f}"


def which_engine() -> str:
    """Which engine this process runs: the compiled core or the pure-Python modules (and why)."""
    import engine

    native = getattr(engine, "native", None)
    if native is None:
        return "pure Python (this tree has no compiled core)"
    return f"{native.BUILD} ({native.REASON})"


def engine_env(kind: str) -> dict[str, str]:
    """The environment of the commands for ``kind``: "pure" forces the pure-Python engine
    (``GOUJI_PURE_PYTHON=1``), "compiled"/"this" leave the engine to choose (its compiled core if built)."""
    env = {k: v for k, v in os.environ.items() if k != "GOUJI_PURE_PYTHON"}
    if kind == "pure":
        env["GOUJI_PURE_PYTHON"] = "1"
    return env


def child_engine(env: dict[str, str]) -> str:
    """Which engine a command started with ``env`` runs (asked of a child Python, as the import's)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import benchmarks.qualifiers as q; print(q.which_engine())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT)], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def generate(
    path: Path, prefix: Path | None, records: int, measure: int, players: int, pool_size: int
) -> dict[str, Any]:
    """Write the export and its first ``measure`` records as their own export — or only the latter when
    the export was kept (the generator is deterministic: the same bytes as the export's first lines);
    the counts of legal records (kept beside the export)."""
    t0 = time.perf_counter()
    pool = synthetic.Pool(size=pool_size, bad=max(pool_size // 10, 5), seed=2012)
    roster = synthetic.players(players, seed=2012)
    kw: dict[str, Any] = {"illegal": 0.01, "seed": 2012}
    counts_file = path.with_suffix(".json")
    counts: dict[str, Any] = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    if path.exists() and counts.get("records") == records and counts.get("players") == players:
        if prefix is not None:
            counts["measured"][str(measure)] = synthetic.write_jsonl(prefix, pool, measure, roster, **kw)[0]
        counts["kept"] = True
    else:
        first = None if prefix is None else (prefix, measure)
        legal, legal_prefix = synthetic.write_jsonl(path, pool, records, roster, first=first, **kw)
        counts = {"records": records, "players": players, "legal": legal, "measured": {}, "kept": False}
        counts["measured"][str(measure)] = legal_prefix if prefix is not None else legal
    counts_file.write_text(json.dumps({k: v for k, v in counts.items() if k != "kept"}))
    counts["seconds"] = time.perf_counter() - t0
    return counts


def engine_rate(path: Path, n: int = 1500) -> float:
    """Records/s of ``check_batch`` in this process on the export's first ``n`` records (CPU time)."""
    items = []
    for raw in read(path):
        items.append((raw.key, raw.where, raw.kind, raw.text))
        if len(items) >= n:
            break
    t0 = time.process_time()
    check_batch(items, "tv_match")
    return len(items) / (time.process_time() - t0)


def child_engine_rate(path: Path, env: dict[str, str]) -> float:
    """:func:`engine_rate` in a child started with ``env`` (the engine chosen as the import's is)."""
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
        "import benchmarks.qualifiers as q; print(q.engine_rate(Path(sys.argv[2])))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT), str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int, float, float, str]:
    """(wall s, peak RSS bytes of the process tree, command CPU s, workers' CPU s, stdout)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    top = psutil.Process(proc.pid)
    peak = 0
    cpu: dict[int, float] = {}
    main_cpu = 0.0
    while proc.poll() is None:
        try:
            tree = [top, *top.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        rss = 0
        for p in tree:
            try:
                rss += p.memory_info().rss
                t = p.cpu_times()
                if p.pid == top.pid:
                    main_cpu = t.user + t.system
                else:
                    cpu[p.pid] = t.user + t.system
            except psutil.NoSuchProcess:
                pass
        peak = max(peak, rss)
        time.sleep(0.2)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {err[-2000:]}")
    return wall, peak, main_cpu, sum(cpu.values()), out


def measure_engine(
    ran: str,
    env: dict[str, str],
    args: argparse.Namespace,
    source: Path,
    measure: int,
    expected: int,
    base: Path,
    cores: int,
) -> list[str]:
    """Import ``source`` at each worker count with the engine ``env`` chooses; its summary lines.

    Besides the wall clock (which on a shared machine measures the other sessions as much as this), each
    run's CPU seconds are taken apart: an import of a one-record export at the same worker count gives the
    fixed cost (Python, Dask and the cluster starting and stopping), and what is left per record is set
    beside the engine's own check (the baseline): the pipeline's own cost per record is the difference.
    The CPU-bound rate is what ``min(workers, cores)`` quiet cores give at those costs (the fixed cost
    spread over ``--project`` records, a million by default)."""
    baseline = child_engine_rate(source, env)
    engine_ms = 1e3 / baseline
    print(
        f"  baseline: the engine's check alone (no Dask, no database) in a child process, one core: "
        f"{baseline:,.0f} records/s (CPU time) = {engine_ms:.3f} ms CPU a record"
    )
    empty = base / "export-one.jsonl"  # one record: the workers load the engine as in a real import
    with source.open("rb") as f:
        empty.write_bytes(f.readline())
    results: dict[int, tuple[float, float, float]] = {}
    for w in [int(x) for x in args.workers.split(",")]:
        db = base / f"q{w}-{ran.split(' ')[0]}.sqlite"
        for f in base.glob(f"q{w}-*.sqlite*"):
            f.unlink()
        imp = [sys.executable, "-m", "broadcast", "qualifiers", "import"]
        fixed_wall, _peak, fixed_main, fixed_workers, _out = run(
            [*imp, str(empty), "--db", str(base / f"empty{w}.sqlite"), "--workers", str(w), "--no-progress"],
            env,
        )
        for f in base.glob(f"empty{w}.sqlite*"):
            f.unlink()
        print(
            f"  {count(w, 'worker')}: fixed cost (an export of one record): {fixed_wall:.1f} s, "
            f"CPU command {fixed_main:.1f} s "
            f"+ workers {fixed_workers:.1f} s"
        )
        print(f"  {count(w, 'worker')}: importing {measure:,} records … ({load()})", flush=True)
        wall, peak, main_cpu, workers_cpu, out = run(
            [*imp, str(source), "--db", str(db), "--workers", str(w), "--no-progress"], env
        )
        t0 = time.perf_counter()
        board = subprocess.run(
            [sys.executable, "-m", "broadcast", "qualifiers", "board", "--top", "10", "--db", str(db)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        wall += time.perf_counter() - t0
        counted = next(ln for ln in out.splitlines() if ln.startswith("读取"))
        rate = measure / wall
        cmd_us = max(main_cpu - fixed_main, 0.0) / measure * 1e6
        wrk_ms = max(workers_cpu - fixed_workers, 0.0) / measure * 1e3
        per_record_ms = cmd_us / 1e3 + wrk_ms
        fixed_cpu = fixed_main + fixed_workers
        quiet = args.project / ((fixed_cpu + args.project * per_record_ms / 1e3) / min(w, cores))
        results[w] = (rate, main_cpu, quiet)
        print(f"    {counted}")
        if f"计入 counted {expected:,}," not in counted:
            print(f"    !! expected {expected:,} counted")
        print(
            f"    end to end (import + board --top 10): {wall:.1f} s = {rate:,.0f} records/s "
            "by the wall clock "
            f"(the machine is shared); peak memory {peak / 2**20:,.0f} MB (command + workers)"
        )
        print(
            f"    CPU a record past the fixed cost: command {cmd_us:,.0f} µs + workers {wrk_ms:.3f} ms = "
            f"{per_record_ms:.3f} ms = ×{per_record_ms / engine_ms:.2f} the baseline's {engine_ms:.3f} ms "
            f"(the pipeline's own cost: {(per_record_ms - engine_ms) * 1e3:,.0f} µs a record)"
        )
        print(
            f"    CPU-bound rate on {count(min(w, cores), 'quiet core')}, "
            f"{args.project:,} records with the fixed cost: "
            f"{quiet:,.0f} records/s = {args.project / quiet / 60:,.1f} min"
        )
        if measure < args.records:
            print(
                f"    by the wall clock, extrapolated to {args.records:,} records: "
                f"{args.records / rate / 60:,.1f} min (goal ≤ 10 min on 2 cores); not measured"
            )
        head = board.stdout.splitlines()
        print("    " + (head[2] if len(head) > 2 else "(the board printed no row)"))
        print(f"    ({load()})")
    lines = [
        f"  summary, engine {ran.split(' ')[0]}: baseline {baseline:,.0f} records/s on one core "
        f"({engine_ms:.3f} ms a record)"
    ]
    for w, (rate, _cpu, quiet) in sorted(results.items()):
        lines.append(
            f"    {count(w, 'worker')}: {rate:,.0f} records/s by the wall clock "
            f"({rate / min(w, cores):,.0f} per core); "
            f"CPU-bound {quiet:,.0f} records/s = {args.project:,} records "
            f"in {args.project / quiet / 60:,.1f} min "
            f"on {count(min(w, cores), 'quiet core')} (×{quiet / baseline:.2f} the baseline)"
        )
    if 1 in results and 2 in results:
        r1, r2 = results[1][0], results[2][0]
        q1, q2 = results[1][2], results[2][2]
        lines.append(
            f"    scaling 1 → 2 workers (same run): ×{r2 / r1:.2f} by the wall clock, "
            f"×{q2 / q1:.2f} CPU-bound "
            "(goal ≥ 1.8)"
        )
        feed = measure / max(results[2][1], 1e-9)  # records per CPU-second of the command itself
        lines.append(
            f"    projection, 16 workers on a cluster: min(16 × {q1:,.0f}, the command's feed "
            f"{feed:,.0f}) = {min(16 * q1, feed):,.0f} records/s"
        )
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1_000_000, help="the export's records (1,000,000)")
    ap.add_argument(
        "--measure", type=int, default=20_000, help="import its first N records and extrapolate (0: all)"
    )
    ap.add_argument("--workers", default="1,2")
    ap.add_argument(
        "--project",
        type=int,
        default=1_000_000,
        help="records the CPU-bound figures are given for (1,000,000)",
    )
    ap.add_argument(
        "--engines",
        default="this",
        help="this (what the tree runs), or pure,compiled: each measured in the same run (GOUJI_PURE_PYTHON)",
    )
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--pool", type=int, default=400)
    ap.add_argument("--dir", help="where the export and databases go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the export for the next run")
    args = ap.parse_args()
    os.nice(10)  # a shared machine: the command and its workers inherit it
    measure = args.measure if 0 < args.measure < args.records else args.records
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="gouji-qualifiers-"))
    base.mkdir(parents=True, exist_ok=True)
    export = base / f"export-{args.records}.jsonl"
    source = export if measure == args.records else base / f"export-{args.records}-first-{measure}.jsonl"
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    cores = os.cpu_count() or 1
    print(
        f"qualifiers benchmark: {args.records:,} records, {args.players:,} players; {cores} cores; {load()}"
    )
    print(f"  engine of this process: {which_engine()}; nice {os.nice(0)}")
    print("  the machine is shared: other sessions' load slows every figure below (the wall clock)")
    counts = generate(
        export, None if source == export else source, args.records, measure, args.players, args.pool
    )
    if counts["kept"]:
        print(f"  export: {export} (kept from an earlier run: {counts['legal']:,} legal records)")
    else:
        print(
            f"  export: {export.stat().st_size / 1e9:.2f} GB, {args.records:,} records "
            f"({counts['legal']:,} legal) written in {counts['seconds']:.1f} s"
        )
    expected = int(counts["measured"][str(measure)])
    if source != export:
        print(
            f"  measured: its first {measure:,} records ({measure / args.records:.1%}; "
            f"{source.stat().st_size / 1e6:,.0f} MB, {expected:,} legal); the {args.records:,}-record "
            "figures are EXTRAPOLATED from them"
        )
    summary: list[str] = []
    for kind in args.engines.split(","):
        env = engine_env(kind)
        ran = child_engine(env)
        print(f"  — engine: {ran} —")
        if kind == "compiled" and not ran.startswith("compiled"):
            print("    (no compiled core runs on this tree: skipped)")
            continue
        summary += measure_engine(ran, env, args, source, measure, expected, base, cores)
    for line in summary:
        print(line)
    print(f"  {load()}")
    if not args.keep and not args.dir:
        for f in base.iterdir():
            f.unlink()
        base.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
