"""OBS outages: re-sync after a crash and the frozen-OBS watchdog, against a real headless OBS.

    .venv/bin/python benchmarks/obs_resync.py [--kills 5] [--freezes 5] [--settle 2.5]
                                              [--busy 24 --busy-seconds 60]

Goals (issue 12): from OBS's port open again after ``kill -9`` to the show fully on air again (scenes
re-used from OBS's saved collection, the state's graphics shown, program confirmed) ≤ 1.0 s; a frozen
OBS (SIGSTOP) noticed within 1.5 s, and no false outage while OBS is only starved of CPU. The bridge
runs with the product's default settings (freeze watchdog 1.2 s, pings every 0.25 s) with the game
scene's graphics up; each kill comes ``--settle`` seconds into the show after the last re-sync (the
bridge has OBS save its scene collection 1 s after a change, so OBS comes back showing the show). With
``--busy N`` that many busy loops run beside OBS for ``--busy-seconds``: every
outage the bridge reports meanwhile is a false one (OBS was never stopped), then SIGSTOPs are timed under
that load too. Printed: each cycle, then min/median/max; the machine's load average is printed too, since
OBS renders in software here and shares the cores with whatever else runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from broadcast.obs.bridge import ObsBridge  # noqa: E402
from broadcast.obs.headless import HeadlessObs  # noqa: E402
from broadcast.obs.settings import ObsSettings  # noqa: E402
from broadcast.studio import open_store  # noqa: E402

PASSWORD = "bench-pw"


def _wait(cond: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.005)
    return False


def _figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no sample"
    return (
        f"{name}: min {min(values):.3f}s, median {statistics.median(values):.3f}s, max {max(values):.3f}s "
        f"({len(values)} runs)"
    )


def _freeze(obs: HeadlessObs, bridge: ObsBridge, what: str) -> float:
    """SIGSTOP OBS; seconds until the bridge says so (then SIGCONT and wait for it to be back)."""
    _wait(lambda: bridge.status.connected, 60)
    time.sleep(1.0)
    t0 = time.monotonic()
    obs.freeze()
    try:
        _wait(lambda: not bridge.status.connected, 30)
        took = time.monotonic() - t0
        print(f"{what}: noticed after {took:.3f}s ({bridge.status.reason}; load {os.getloadavg()[0]:.1f})")
    finally:
        obs.thaw()
    _wait(lambda: bridge.status.connected, 60)
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--freezes", type=int, default=5)
    ap.add_argument(
        "--settle",
        type=float,
        default=2.5,
        help="seconds the show runs between a re-sync and the next kill (OBS saves its collection 1 s "
        "after a change)",
    )
    ap.add_argument("--busy", type=int, default=0, help="busy loops beside OBS for the false-outage watch")
    ap.add_argument("--busy-seconds", type=float, default=60.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gouji-bench-obs-"))
    obs = HeadlessObs(tmp / "obs", password=PASSWORD)
    store = open_store(tmp / "studio.sqlite")
    store.dispatch("show.update", {"episode": "基准"})
    for g in ("scoreboard", "corner_bug", "jipaiqi", "ticker", "commentary"):
        store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
    resync: list[float] = []
    noticed: list[float] = []
    noticed_busy: list[float] = []
    false_outages: list[str] = []
    loads: list[float] = []
    try:
        obs.start()
        settings = ObsSettings(port=obs.port, password=PASSWORD, pictures_dir=str(tmp / "pictures"))
        with ObsBridge(store, settings) as bridge:
            if not bridge.wait_connected(120):
                print(f"OBS never came on air: {bridge.status.line}")
                return 1
            print(f"load average {os.getloadavg()[0]:.1f}; first provisioning done; defaults {settings!r}")
            for n in range(args.kills):
                time.sleep(args.settle)  # a crash in the middle of a show, not at its re-sync
                obs.kill()
                _wait(lambda: not bridge.status.connected, 10)
                obs.start()  # returns when the port is open again
                port_open = time.monotonic()
                ok = _wait(lambda t=port_open: bridge.status.connected and bridge.status.synced_at > t, 60)
                took = bridge.status.synced_at - port_open if ok else float("nan")
                resync.append(took)
                phases = ", ".join(f"{k} {v:.3f}s" for k, v in bridge.resync_phases.items())
                print(
                    f"kill -9 #{n + 1}: port open → on air again {took:.3f}s "
                    f"({phases}; load {os.getloadavg()[0]:.1f})"
                )
            for n in range(args.freezes):
                noticed.append(_freeze(obs, bridge, f"SIGSTOP #{n + 1}"))
            if args.busy:
                busy = [
                    subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)
                ]
                try:
                    time.sleep(5.0)  # let the load average climb
                    seen: list[str] = []
                    remove = bridge.add_status_listener(
                        lambda st: seen.append(st.detail) if st.reason == "frozen" else None
                    )
                    connects = bridge.status.connects
                    t_end = time.monotonic() + args.busy_seconds
                    while time.monotonic() < t_end:
                        time.sleep(1.0)
                        loads.append(os.getloadavg()[0])
                    remove()
                    false_outages = list(dict.fromkeys(seen))
                    print(
                        f"{args.busy} busy loops for {args.busy_seconds:.0f}s (load {min(loads):.1f}–"
                        f"{max(loads):.1f}): {bridge.status.connects - connects} reconnects, "
                        f"false freezes: {false_outages or 'none'}"
                    )
                    for n in range(args.freezes):
                        noticed_busy.append(_freeze(obs, bridge, f"SIGSTOP under load #{n + 1}"))
                finally:
                    for p in busy:
                        p.kill()
                        p.wait()
    finally:
        obs.close()
        store.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(_figures("re-sync after kill -9 (port open → on air, goal ≤ 1.0 s)", resync))
    print(_figures("frozen OBS noticed (SIGSTOP → status, goal ≤ 1.5 s)", noticed))
    if args.busy:
        print(_figures(f"frozen OBS noticed beside {args.busy} busy loops", noticed_busy))
        print(f"false outages beside {args.busy} busy loops: {len(false_outages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
