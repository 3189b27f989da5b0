"""Restart at any journal length: goal ≤ 1 s to open the store (crash recovery) at 10k, 50k and 200k actions.

    .venv/bin/python benchmarks/restart.py [--sizes 10000,50000,200000] [--full-replay-up-to 50000]
                                           [--synchronous]

The journal is a real show's: the actions of a rehearsed match (sponsors, graphics, TAKEs, lower thirds,
three games played move by move through the engine, the finale), dispatched again and again through
``ShowStore.dispatch`` on a real SQLite file until the journal holds N actions; the store writes its
checkpoints as it does on air (every 100 actions or 60 s). Printed per size:

* ``dispatch``: the mean cost of one dispatch while the journal grew (journal + checkpoint + COW copy);
* ``open``: ``open_store`` on the file (newest checkpoint + the actions after it), best and worst of 3
  fresh processes' worth of opens — the restart figure the goal is about;
* ``full replay``: the same file opened without checkpoints (what every restart cost before), for
  sizes up to ``--full-replay-up-to``, and the ratio to ``open``.

With ``--synchronous`` it also measures what ``PRAGMA synchronous=FULL`` costs per dispatch against
NORMAL on this machine's disk (the journal's durability setting).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from broadcast.studio import open_store  # noqa: E402


def match_actions() -> list[tuple[str, dict[str, Any]]]:
    """The actions of one rehearsed match (no waiting), as the studio journals them."""
    import threading

    from broadcast.rehearsal import Rehearsal, selfplay_records

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "capture.sqlite")
        r = Rehearsal(store, 0.0, True, threading.Event(), lambda _text: None)
        r.wait = lambda _seconds: None  # type: ignore[method-assign]
        records = selfplay_records(2011, "tv_match")
        r.setup(str(ROOT / "sponsor_assets" / "demo" / "placements.yaml"), records)
        r.opening()
        r.play_match(records, seed=2011)
        out = [(e.type, e.payload) for e in store.journal.entries()]
        store.close()
    return [("sponsors.episode_reset", {}), *out]  # each repetition is a new episode


def grow(path: Path, n: int, cycle: list[tuple[str, dict[str, Any]]], validate: bool = False) -> float:
    """Dispatch the cycle until the journal holds ``n`` actions; returns the mean ms per dispatch.
    (Schema validation of each new state is off while growing: it does not change what is journaled,
    and its cost is printed on its own.)"""
    store = open_store(path, validate=validate)
    done = store.seq
    t0 = time.perf_counter()
    start = done
    while done < n:
        for type_, payload in cycle:
            if done >= n:
                break
            store.dispatch(type_, payload, source="bench")
            done += 1
    dt = time.perf_counter() - t0
    store.close()
    return dt * 1000 / max(1, n - start)


def copy_cost(cycle: list[tuple[str, dict[str, Any]]], n: int = 1400) -> None:
    """Dispatch with copy-on-write sections against a deep copy of the whole state per action (what
    dispatch and replay did before), same actions, same run; and with schema validation on."""
    import copy

    from broadcast.core import store as store_mod

    cow = store_mod._apply

    def whole(reducer: Any, state: Any, payload: Any, ctx: Any, *, diff: bool = True) -> Any:
        new = copy.deepcopy(state)
        reducer(new, payload, ctx)
        new["meta"]["seq"], new["meta"]["updated"] = ctx.seq, ctx.ts
        return new, frozenset(k for k in new if k != "meta" and new[k] != state.get(k))

    got = {}
    with tempfile.TemporaryDirectory(prefix=".bench-", dir=ROOT) as tmp:
        for label, fn, validate in (
            ("whole-state deepcopy", whole, False),
            ("copy-on-write", cow, False),
            ("copy-on-write + schema validation", cow, True),
        ):
            store_mod._apply = fn  # type: ignore[assignment]
            try:
                got[label] = grow(Path(tmp) / f"{len(got)}.sqlite", n, cycle, validate=validate)
            finally:
                store_mod._apply = cow
    base = got["whole-state deepcopy"]
    print(
        "dispatch over one match ×2 ("
        + ", ".join(f"{k} {v:.3f} ms" for k, v in got.items())
        + f"): copy-on-write is {base / got['copy-on-write']:.1f}× faster than the whole-state copy"
    )


def timed_open(path: Path, **kw: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    store = open_store(path, **kw)
    dt = time.perf_counter() - t0
    info = (store.seq, store.loaded_from, store.replayed, len(store.replay_errors))
    store.close()
    return dt, info


def sync_cost(cycle: list[tuple[str, dict[str, Any]]], n: int = 2000) -> None:
    import sqlite3

    results = {}
    with tempfile.TemporaryDirectory(prefix=".bench-", dir=ROOT) as tmp:  # the project's disk, not /tmp's
        for mode in ("NORMAL", "FULL"):
            path = Path(tmp) / f"{mode}.sqlite"
            store = open_store(path, validate=False)
            conn: sqlite3.Connection = store.journal.connection
            conn.execute(f"PRAGMA synchronous={mode}")
            t0 = time.perf_counter()
            for i in range(n):
                type_, payload = cycle[i % len(cycle)]
                store.dispatch(type_, payload, source="bench")
            results[mode] = (time.perf_counter() - t0) * 1000 / n
            store.close()
    print(
        f"synchronous: NORMAL {results['NORMAL']:.3f} ms/dispatch, FULL {results['FULL']:.3f} ms/dispatch "
        f"(+{results['FULL'] - results['NORMAL']:.3f} ms, ×{results['FULL'] / results['NORMAL']:.2f}) "
        f"over {n} dispatches on {ROOT}'s disk"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,50000,200000")
    ap.add_argument("--full-replay-up-to", type=int, default=50000)
    ap.add_argument("--synchronous", action="store_true")
    args = ap.parse_args()
    sizes = sorted(int(x) for x in args.sizes.split(","))
    cycle = match_actions()
    print(f"one rehearsed match = {len(cycle)} actions (repeated to fill the journal)")
    copy_cost(cycle)
    if args.synchronous:
        sync_cost(cycle)
    with tempfile.TemporaryDirectory(prefix=".bench-", dir=ROOT) as tmp:
        path = Path(tmp) / "studio.sqlite"
        for n in sizes:
            # one short of N: the newest checkpoint is then 99 actions back, the most a restart replays
            ms = grow(path, n - 1, cycle)
            size_mb = sum(p.stat().st_size for p in Path(tmp).glob("studio.sqlite*")) / 1e6
            opens = [timed_open(path) for _ in range(3)]
            times = [t for t, _ in opens]
            seq, cp, replayed, errors = opens[0][1]
            line = (
                f"{n:>7,} actions ({size_mb:5.1f} MB): dispatch {ms:.3f} ms/action (no validation); open "
                f"{min(times) * 1000:6.1f} ms best, {max(times) * 1000:6.1f} ms worst, median "
                f"{statistics.median(times) * 1000:6.1f} ms (checkpoint #{cp}, {replayed} replayed, "
                f"state #{seq}, {errors} errors) — goal ≤ 1000 ms: "
                + ("met" if max(times) <= 1.0 else "NOT MET")
            )
            print(line, flush=True)
            if n <= args.full_replay_up_to:
                full, info = timed_open(path, use_checkpoints=False)
                assert info[0] == seq
                print(
                    f"{'':>7}  full replay without checkpoints: {full:7.2f} s "
                    f"({full / min(times):.0f}× the checkpointed open)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
