"""OBS outages: re-sync after a crash and the frozen-OBS watchdog, against a real headless OBS.

    .venv/bin/python benchmarks/obs_resync.py [--kills 5] [--freezes 5]

Goals (issue 12): from OBS's port open again after ``kill -9`` to the show fully on air again (scenes
re-used from OBS's saved collection, the state's graphics shown, program confirmed) ≤ 1.0 s; a frozen
OBS (SIGSTOP) noticed within 1.5 s. The bridge runs with the product's default settings (1 s freeze
watchdog, pings every 0.25 s) with the game scene's graphics up. Printed: each cycle,
then min/median/max; the machine's load average is printed too, since OBS renders in software here and
shares the cores with whatever else runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--freezes", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gouji-bench-obs-"))
    obs = HeadlessObs(tmp / "obs", password=PASSWORD)
    store = open_store(tmp / "studio.sqlite")
    store.dispatch("show.update", {"episode": "基准"})
    for g in ("scoreboard", "corner_bug", "jipaiqi", "ticker", "commentary"):
        store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
    resync: list[float] = []
    noticed: list[float] = []
    try:
        obs.start()
        settings = ObsSettings(port=obs.port, password=PASSWORD)
        with ObsBridge(store, settings) as bridge:
            if not bridge.wait_connected(120):
                print(f"OBS never came on air: {bridge.status.line}")
                return 1
            print(f"load average {os.getloadavg()[0]:.1f}; first provisioning done; defaults {settings!r}")
            for n in range(args.kills):
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
                time.sleep(1.0)
                t0 = time.monotonic()
                obs.freeze()
                try:
                    _wait(lambda: not bridge.status.connected, 15)
                    noticed.append(time.monotonic() - t0)
                    print(f"SIGSTOP #{n + 1}: noticed after {noticed[-1]:.3f}s ({bridge.status.reason})")
                finally:
                    obs.thaw()
                _wait(lambda: bridge.status.connected, 60)
    finally:
        obs.close()
        store.close()
    print(_figures("re-sync after kill -9 (port open → on air, goal ≤ 1.0 s)", resync))
    print(_figures("frozen OBS noticed (SIGSTOP → status, goal ≤ 1.5 s)", noticed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
