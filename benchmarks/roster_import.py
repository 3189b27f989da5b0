"""A roster of 100,000 rows imported end to end by the real command, within its limits.

    .venv/bin/python benchmarks/roster_import.py [--rows 100000] [--baseline 10000]

Each run writes a UTF-8 CSV roster (姓名, 队伍, 编号; 500 teams) into a new season database and runs
``python -m broadcast import ROSTER --db FILE`` through a small meter process (the command's own CPU
time and peak RSS from ``wait4``: see ``tests/core/test_limits.py`` for why a meter), then checks that
every row is in the season. The same run imports ``--baseline`` rows first: the figures are printed
beside it, with the ratio of CPU per row (≈ 1 when the import streams, growing if it held the roster or
searched it row by row) and of peak memory. Limits (docs/season.md): 64 MB and 200,000 rows per roster,
the interpreter with the command's imports plus the rows being written, well under the 400 MB the limits
test allows. The load average is printed: on a shared machine the times are upper bounds.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "_, status, u = os.wait4(p.pid, 0)\n"
    "print(u.ru_maxrss, u.ru_utime + u.ru_stime)\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def _roster(path: Path, rows: int) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        f.write("姓名,队伍,编号\n")
        for i in range(rows):
            f.write(f"选手{i:06d},队{i % 500:03d},N{i:07d}\n")
    return path


def measure(rows: int, folder: Path) -> dict[str, float]:
    from broadcast.season.model import SeasonDB

    db = folder / f"season-{rows}.sqlite"
    sdb = SeasonDB.open(db)
    sdb.create_season("第一季")
    sdb.close()
    roster = _roster(folder / f"roster-{rows}.csv", rows)
    t0 = time.monotonic()
    command = [sys.executable, "-m", "broadcast", "import", str(roster), "--db", str(db)]
    proc = subprocess.run(
        [sys.executable, "-c", METER, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        sys.exit(f"the import of {rows} rows failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
    peak_kb, cpu = proc.stdout.split()
    conn = sqlite3.connect(db)
    try:
        stored = int(conn.execute("SELECT COUNT(*) FROM season_players").fetchone()[0])
    finally:
        conn.close()
    if stored != rows:
        sys.exit(f"{rows} rows imported but {stored} players in the season")
    return {
        "rows": rows,
        "mb": roster.stat().st_size / 1e6,
        "wall": wall,
        "cpu": float(cpu),
        "rss": int(peak_kb) / 1024,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--baseline", type=int, default=10_000)
    args = ap.parse_args()
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (a shared machine: upper bounds)")
    with tempfile.TemporaryDirectory(prefix="roster-bench-") as tmp:
        base = measure(args.baseline, Path(tmp))
        big = measure(args.rows, Path(tmp))
    for m in (base, big):
        print(
            f"{m['rows']:>7,} rows ({m['mb']:.1f} MB): wall {m['wall']:.1f} s, CPU {m['cpu']:.1f} s "
            f"({m['rows'] / m['cpu']:,.0f} rows/s of CPU), peak RSS {m['rss']:.0f} MB"
        )
    per_row = (big["cpu"] / big["rows"]) / (base["cpu"] / base["rows"])
    print(
        f"ratio to the {base['rows']:,}-row baseline: CPU per row × {per_row:.2f} (the start's imports count "
        f"less in the larger run), peak RSS × {big['rss'] / base['rss']:.2f}"
    )
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
