"""``serve --db``'s follower: from an action appended by the studio to the follower's state holding it.
Goal: within 50 ms, at any journal length.

    .venv/bin/python benchmarks/follower_latency.py [--journal 10000] [--actions 300] [--poll 0.02]

A journal of a real show (the rehearsed match's actions, repeated) is grown to ``--journal`` actions;
then a writer process appends ``--actions`` more at random 0–40 ms intervals (a busy operator, a
rehearsal at full speed) while a follower (:class:`broadcast.overlay.cli.JournalFollower`, the one
``serve --db`` runs) in this process applies them. The writer notes the wall-clock time each append
returned; the follower's listener notes when the action reached its state. Printed: p50/p95/p99/max of
the difference, and how many actions the follower applied (each new one, never a replay of the
journal).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from restart import grow, match_actions  # noqa: E402

from broadcast.overlay.cli import JournalFollower  # noqa: E402

WRITER = """
import json, random, sys, time
sys.path.insert(0, sys.argv[3])
from broadcast.studio import open_store
cycle = json.loads(open(sys.argv[2], encoding="utf-8").read())
store = open_store(sys.argv[1], validate=False)
rng = random.Random(7)
print("ready", flush=True)
sys.stdin.readline()
for i in range(int(sys.argv[4])):
    t, p = cycle[i % len(cycle)]
    ch = store.dispatch(t, p, source="bench")
    print(ch.seq, repr(time.time()), flush=True)
    time.sleep(rng.uniform(0, 0.04))
store.close()
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--journal", type=int, default=10000)
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--poll", type=float, default=0.02)
    args = ap.parse_args()
    cycle = match_actions()
    with tempfile.TemporaryDirectory(prefix=".bench-", dir=ROOT) as tmp:
        db = Path(tmp) / "studio.sqlite"
        grow(db, args.journal, cycle)
        start = args.journal % len(cycle)
        rest = cycle[start:] + cycle[:start]
        (Path(tmp) / "cycle.json").write_text(json.dumps(rest, ensure_ascii=False), encoding="utf-8")
        t0 = time.perf_counter()
        follower = JournalFollower(db, args.poll)
        opened = time.perf_counter() - t0
        applied: dict[int, float] = {}
        lock = threading.Lock()

        def listen(change: object) -> None:
            with lock:
                applied[int(change.seq)] = time.time()  # type: ignore[attr-defined]

        follower.store.subscribe(listen)
        follower.start()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                str(db),
                str(Path(tmp) / "cycle.json"),
                str(ROOT),
                str(args.actions),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdin is not None and proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        proc.stdin.write("go\n")
        proc.stdin.flush()
        appended: dict[int, float] = {}
        for line in proc.stdout:
            seq, ts = line.split()
            appended[int(seq)] = float(ts)
        proc.wait(60)
        end = time.monotonic() + 5
        while time.monotonic() < end and len(applied) < len(appended):
            time.sleep(0.01)
        follower.stop()
    lags = sorted((applied[s] - t) * 1000 for s, t in appended.items() if s in applied)
    q = statistics.quantiles(lags, n=100) if len(lags) > 1 else lags * 99
    print(
        f"follower on a {args.journal:,}-action journal (opened in {opened * 1000:.0f} ms), "
        f"poll {args.poll * 1000:.0f} ms: "
        f"{len(lags)}/{len(appended)} appended actions applied one by one; append → follower's state "
        f"p50 {statistics.median(lags):.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, "
        f"max {lags[-1]:.1f} ms "
        f"— goal ≤ 50 ms: {'met' if q[98] <= 50 else 'NOT MET'} (p99)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
