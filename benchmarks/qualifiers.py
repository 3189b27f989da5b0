"""The online qualifiers at scale: records checked, aggregated and ranked per second, at 1 and 2 workers.

    .venv/bin/python benchmarks/qualifiers.py [--records 1000000] [--workers 1,2] [--players 100000]
        [--pool 400] [--dir DIR] [--keep]

Goals (issue 27, this 2-core machine, the compiled engine): 1,000,000 records checked, aggregated and
ranked in ≤ 10 minutes (≥ 1,700 records/s end to end), memory ≤ 1 GB (the command and its workers
together), scaling 1 → 2 workers ≥ 1.8×.

The records are synthetic from the engine's self-play (``broadcast.qualifiers.synthetic``: a pool of
self-played games dealt to distinct records between ``--players`` platform players, 1 % made illegal by
mutations the engine refuses), written once as a JSON-lines export. Each run is the real command —
``python -m broadcast qualifiers import`` on a fresh database with a LocalCluster of N worker processes —
followed by ``qualifiers board --top 10`` (the ranking), timed end to end by the wall clock; the
command's and its workers' memory (RSS, summed) and CPU time are sampled every 0.2 s. The same run's
baseline: the engine's own check rate in this process (no Dask, no database) on a sample of the
records, so that the per-worker rate of the import reads as a share of what the engine can do.
Projection to 16 workers: each worker's measured rate times 16, capped by what the command itself
(reading, identities, commits: its CPU seconds per record) can feed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from broadcast.qualifiers import synthetic  # noqa: E402
from broadcast.qualifiers.check import check_batch  # noqa: E402
from broadcast.qualifiers.records import read  # noqa: E402


def load() -> str:
    a, b, c = os.getloadavg()
    return f"load average {a:.1f} {b:.1f} {c:.1f}"


def generate(path: Path, records: int, players: int, pool_size: int) -> tuple[int, float]:
    t0 = time.perf_counter()
    pool = synthetic.Pool(size=pool_size, bad=max(pool_size // 10, 5), seed=2012)
    roster = synthetic.players(players, seed=2012)
    legal = synthetic.write_jsonl(path, pool, records, roster, illegal=0.01, seed=2012)
    return legal, time.perf_counter() - t0


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


def run(cmd: list[str]) -> tuple[float, int, float, float, str]:
    """(wall s, peak RSS bytes of the process tree, command CPU s, workers' CPU s, stdout)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--pool", type=int, default=400)
    ap.add_argument("--dir", help="where the export and databases go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the export for the next run")
    args = ap.parse_args()
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="gouji-qualifiers-"))
    base.mkdir(parents=True, exist_ok=True)
    export = base / f"export-{args.records}.jsonl"
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    print(f"qualifiers benchmark: {args.records:,} records, {args.players:,} players; {load()}")
    print("the machine is shared: other sessions' load slows every figure below (the wall clock)")
    if export.exists():
        legal = None
        print(f"  export: {export} (kept from an earlier run)")
    else:
        legal, secs = generate(export, args.records, args.players, args.pool)
        print(f"  export: {export.stat().st_size / 1e9:.2f} GB written in {secs:.1f} s ({legal:,} legal)")
    baseline = engine_rate(export)
    print(f"  baseline: the engine's check in this process, one core: {baseline:,.0f} records/s (CPU time)")
    results: dict[int, tuple[float, float]] = {}
    for w in [int(x) for x in args.workers.split(",")]:
        db = base / f"q{w}.sqlite"
        for f in base.glob(f"q{w}.sqlite*"):
            f.unlink()
        print(f"  {w} worker(s): importing … ({load()})", flush=True)
        imp = [sys.executable, "-m", "broadcast", "qualifiers", "import", str(export), "--db", str(db)]
        wall, peak, main_cpu, workers_cpu, out = run([*imp, "--workers", str(w), "--no-progress"])
        t0 = time.perf_counter()
        board = subprocess.run(
            [sys.executable, "-m", "broadcast", "qualifiers", "board", "--top", "10", "--db", str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        wall += time.perf_counter() - t0
        counted = next(ln for ln in out.splitlines() if ln.startswith("读取"))
        rate = args.records / wall
        results[w] = (rate, main_cpu)
        print(f"    {counted}")
        if legal is not None and f"计入 counted {legal:,}," not in counted:
            print(f"    !! expected {legal:,} counted")
        print(
            f"    end to end (import + board --top 10): {wall:.1f} s = {rate:,.0f} records/s; "
            f"peak memory {peak / 2**20:,.0f} MB (command + workers); CPU: command {main_cpu:.1f} s, "
            f"workers {workers_cpu:.1f} s ({args.records / max(workers_cpu, 1e-9):,.0f} records/s per "
            f"worker-CPU-second = {args.records / max(workers_cpu, 1e-9) / baseline:.2f} of the baseline)"
        )
        print("    " + board.stdout.splitlines()[2] if len(board.stdout.splitlines()) > 2 else "")
        print(f"    ({load()})")
    if 1 in results and 2 in results:
        r1, r2 = results[1][0], results[2][0]
        print(f"  scaling 1 → 2 workers: ×{r2 / r1:.2f} (goal ≥ 1.8)")
        per_worker = r1
        feed = args.records / max(results[2][1], 1e-9)  # records per CPU-second of the command itself
        print(
            f"  projection, 16 workers on a cluster: min(16 × {per_worker:,.0f}, the command's feed "
            f"{feed:,.0f}) = {min(16 * per_worker, feed):,.0f} records/s"
        )
    if not args.keep and not args.dir:
        for f in base.iterdir():
            f.unlink()
        base.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
