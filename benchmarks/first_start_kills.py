"""Kill the studio's first start at random moments: the demo season must be absent or whole, never half.

    .venv/bin/python benchmarks/first_start_kills.py [--tries 20] [--seed 13] [--max-delay 4.0]

Each try starts ``python -m broadcast run`` on a new database file, sends it SIGKILL after a seeded
random delay (0 … --max-delay seconds after the process started: opening the journal, loading the
placements, building the season, serving), reads what the file holds, then starts ``run`` again and
checks that it finished the job. A whole season is what the demo itself builds: its episodes and games
are counted from a reference build made first (the games are self-played by the engine, so their number
follows the rules of the day, not a figure written here). Prints one line per try and the tally
(issues 13, 23).
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from broadcast.season.demo import build_demo_season, demo_status  # noqa: E402
from broadcast.season.model import SeasonDB  # noqa: E402

RUN = [sys.executable, "-m", "broadcast", "run", "--port", "0", "--no-obs", "--no-rehearsal"]


def _status(db: Path) -> tuple[str, int, int]:
    if not db.exists():
        return "no file", 0, 0
    with SeasonDB.open(db) as sdb:
        status = demo_status(sdb)
        episodes = int(sdb.conn.execute("SELECT COUNT(*) FROM season_episodes").fetchone()[0])
        games = int(sdb.conn.execute("SELECT COUNT(*) FROM season_games").fetchone()[0])
    return status, episodes, games


def whole_season(tmp: Path) -> tuple[str, int, int]:
    """What a whole demo season holds: counted from a reference build of the demo itself."""
    ref = tmp / "reference.sqlite"
    build_demo_season(ref)
    whole = _status(ref)
    if whole[0] != "complete":
        raise SystemExit(f"the reference build of the demo season is {whole[0]}, not complete")
    return whole


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--max-delay", type=float, default=4.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tally: dict[str, int] = {}
    bad = 0
    with tempfile.TemporaryDirectory(prefix="gouji-kills-") as tmp:
        whole_demo = whole_season(Path(tmp))
        print(
            f"a whole demo season: {whole_demo[1]} episodes, {whole_demo[2]} games (its own reference build)"
        )
        for i in range(1, args.tries + 1):
            db = Path(tmp) / f"studio{i}.sqlite"
            delay = rng.uniform(0.0, args.max_delay)
            proc = subprocess.Popen(
                [*RUN, "--db", str(db)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            status, episodes, games = _status(db)
            whole = (status, episodes, games) in (("no file", 0, 0), ("absent", 0, 0), whole_demo)
            again = subprocess.run(
                [*RUN, "--db", str(db), "--exit-when-done"], cwd=ROOT, capture_output=True, text=True
            )
            after = _status(db)
            finished = again.returncode == 0 and after == whole_demo
            bad += (not whole) + (not finished)
            tally[status] = tally.get(status, 0) + 1
            print(
                f"  try {i:2d}: kill after {delay:4.2f} s → {status:<8} "
                f"({episodes:2d} episodes, {games:2d} games); "
                f"next start → {after[0]} ({after[1]} episodes, {after[2]} games)"
                + ("" if whole and finished else "   ✗ HALF-BUILT OR NOT FINISHED")
            )
    print(
        f"{args.tries} kills during the first start: "
        + ", ".join(f"{n} × {k}" for k, n in sorted(tally.items()))
        + f"; half-built or unfinished: {bad}; every next start finished the season: "
        + ("yes" if not bad else "NO")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
