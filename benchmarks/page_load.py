"""300 pages, 2,000 fast changes: does every page stay connected and how far behind is its latest state?
Goal (issue 13): no page dropped, every page ends on the final state, latest state p99 ≤ 1 s behind.

    .venv/bin/python benchmarks/page_load.py [--pages 300] [--changes 2000]

The studio's overlay server (this process) serves a real ShowStore (SQLite journal; schema validation
off so that the changes come as fast as dispatch allows); a second process opens ``--pages`` WebSocket
pages (aiohttp, as many sockets as OBS browser sources and preview screens would) and applies every
snapshot/patch and acknowledges it as a page does (``overlays/js/client.js``: ``ack=1``). Then
``--changes`` actions are dispatched back to back (show fields and
graphics toggles). For every change and every page: the time from the change (the store's listener) to
the page holding that state or a newer one. Printed: p50/p99/max of that lag, the messages the pages
received against changes × pages (what coalescing saved), pages dropped, pages on the final state.

The same changes are first sent to a single page (``--baseline-pages 1``): that run's lag is the
baseline of this machine at this moment (its load, its disk's commits), and the many pages' figures
are printed as ratios to it as well.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from broadcast.overlay import OverlayServer  # noqa: E402
from broadcast.studio import open_store  # noqa: E402

PAGES = r"""
import asyncio, json, sys, time, hashlib
import aiohttp

port, n = int(sys.argv[1]), int(sys.argv[2])

async def page(i, session, final, out):
    state, seen, dropped = {}, [], False
    try:
        async with session.ws_connect(f"ws://127.0.0.1:{port}/ws?bus=program&ack=1", heartbeat=None) as ws:
            out["connected"] += 1
            while True:
                msg = await ws.receive()
                if msg.type != aiohttp.WSMsgType.TEXT:
                    dropped = True
                    break
                data = json.loads(msg.data)
                if data["type"] in ("snapshot", "patch"):  # as the pages' client.js does
                    await ws.send_str('{"type":"ack","seq":%d}' % data["seq"])
                if data["type"] == "snapshot":
                    state = data["state"]
                elif data["type"] == "patch":
                    state.update(data["set"])
                if data["type"] in ("snapshot", "patch"):
                    seen.append((state["meta"]["seq"], time.time()))
                # checked on a heartbeat too: the final state may have come before its number did
                if final.done() and state and state["meta"]["seq"] >= final.result():
                    break
    except (aiohttp.ClientError, asyncio.TimeoutError):
        dropped = True
    digest = hashlib.sha256(json.dumps(state, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    out["pages"].append({"id": i, "dropped": dropped, "seen": seen, "digest": digest,
                         "seq": state.get("meta", {}).get("seq")})

async def main():
    out = {"connected": 0, "pages": []}
    loop = asyncio.get_running_loop()
    final = loop.create_future()
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as session:
        tasks = []
        for i in range(n):
            tasks.append(asyncio.create_task(page(i, session, final, out)))
            if i % 25 == 24:
                await asyncio.sleep(0.05)
        while out["connected"] < n:
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        line = await loop.run_in_executor(None, sys.stdin.readline)
        final.set_result(int(line))
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
    print(json.dumps(out), flush=True)

asyncio.run(main())
"""


def run(pages_n: int, changes: int) -> dict[str, Any]:
    """One run: ``pages_n`` pages, ``changes`` actions back to back; the figures (see the module doc)."""
    before_self = resource.getrusage(resource.RUSAGE_SELF)
    before_kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "studio.sqlite", validate=False)
        changed_at: dict[int, float] = {}
        lock = threading.Lock()

        def note(change: object) -> None:
            with lock:
                changed_at[int(change.seq)] = time.time()  # type: ignore[attr-defined]

        store.subscribe(note)
        with OverlayServer(store, port=0) as srv:
            proc = subprocess.Popen(
                [sys.executable, "-c", PAGES, str(srv.port), str(pages_n)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert proc.stdin is not None and proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready", "the pages did not connect"
            t0 = time.perf_counter()
            for k in range(changes):
                if k % 2:
                    store.dispatch("graphic.set", {"bus": "program", "graphic": "ticker", "on": k % 4 == 1})
                else:
                    store.dispatch(
                        "show.update", {"round": f"第{k}手", "subtitle": "压力测试 " + "字" * (k % 40)}
                    )
            burst = time.perf_counter() - t0
            store.dispatch("show.update", {"episode": "终"})
            final_seq = store.seq
            proc.stdin.write(f"{final_seq}\n")
            proc.stdin.flush()
            result = json.loads(proc.stdout.readline())
            proc.wait(60)
            stats = dict(srv.stats)
            want = {k: v for k, v in store.state.items() if k not in srv.private}
        digest = hashlib.sha256(json.dumps(want, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        store.close()
    pages = result["pages"]
    lags: list[float] = []
    messages = 0
    for p in pages:
        seen = p["seen"]
        messages += len(seen)
        j = 0
        for seq in range(1, final_seq + 1):  # the first message holding seq or newer
            while j < len(seen) and seen[j][0] < seq:
                j += 1
            if j < len(seen) and seq in changed_at:
                lags.append(max(0.0, seen[j][1] - changed_at[seq]))
    lags.sort()
    q = statistics.quantiles(lags, n=100)
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "pages": pages_n,
        "changes": changes,
        "burst": burst,
        "p50": statistics.median(lags),
        "p99": q[98],
        "max": lags[-1],
        "dropped": sum(p["dropped"] for p in pages),
        "on_final": sum(p["seq"] == final_seq and p["digest"] == digest for p in pages),
        "messages": messages,
        "stats": stats,
        "cpu_self": me.ru_utime + me.ru_stime - before_self.ru_utime - before_self.ru_stime,
        "cpu_pages": kids.ru_utime + kids.ru_stime - before_kids.ru_utime - before_kids.ru_stime,
    }


def report(r: dict[str, Any], base: dict[str, Any] | None) -> None:
    n, changes, stats = r["pages"], r["changes"], r["stats"]
    ratio = ""
    if base is not None:
        ratio = (
            f" (× {r['p50'] / base['p50']:.1f} and × {r['p99'] / base['p99']:.1f} "
            f"the {base['pages']}-page run's)"
        )
    print(
        f"{n} pages, {changes} changes in {r['burst']:.2f} s ({changes / r['burst']:.0f}/s): "
        f"latest state behind p50 {r['p50'] * 1000:.0f} ms, p99 {r['p99'] * 1000:.0f} ms, "
        f"max {r['max'] * 1000:.0f} ms{ratio}"
        + (f" — goal p99 ≤ 1000 ms: {'met' if r['p99'] <= 1.0 else 'NOT MET'}" if base is not None else "")
    )
    total = (changes + 1) * n
    print(
        f"  pages dropped {r['dropped']}, on the final state {r['on_final']}/{n}; messages received "
        f"{r['messages']:,} for {changes + 1:,} changes × {n} pages = {total:,} "
        f"({r['messages'] / total:.1%}); "
        f"server: {stats['patches']:,} patches, {stats.get('merged', 0):,} changes merged before the loop, "
        f"{stats['coalesced']:,} coalesced per page, {stats['closed_slow']} closed as too slow, "
        f"{stats.get('ack_waits', 0)} acks waited out"
    )
    print(
        f"  CPU: studio process {r['cpu_self']:.1f} s, page process {r['cpu_pages']:.1f} s "
        f"(2 cores shared with whatever else runs; load average {os.getloadavg()[0]:.1f})"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--changes", type=int, default=2000)
    ap.add_argument("--baseline-pages", type=int, default=1, help="the same run's baseline (0: none)")
    args = ap.parse_args()
    base = None
    if args.baseline_pages:
        base = run(args.baseline_pages, args.changes)
        report(base, None)
    r = run(args.pages, args.changes)
    report(r, base)
    ok = all(x["dropped"] == 0 and x["on_final"] == x["pages"] for x in ([base] if base else []) + [r])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
