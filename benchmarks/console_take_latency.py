"""Hotkey TAKE → the program page has painted it: the console's on-air path end to end.

    .venv/bin/python benchmarks/console_take_latency.py [--takes 300]

The real console (offscreen Qt) over a real ShowStore (SQLite journal) with the overlay server, and the
composite program page in headless Debian Chromium opened with ``echo=1``. Each round puts the
scoreboard on preview (F2) and takes it (F12), then clears it (Shift+F2); the F12 key press goes to the
entry line (focused, as on air) and runs as the operator's does: the window's shortcut → the on-air
operation on the console's store thread → ``bus.take`` journaled → the server's patch → the page's
requestAnimationFrame. Rounds are spaced by a random 0–20 ms so the keys land at every phase of the
60 Hz frame clock. Printed: key → the start of the frame that shows it (page clock = system clock, same
machine: the goal, p99 ≤ 30 ms), key → the page's echo back in Python, and key → journaled. Every
other round is the same run's baseline: ``bus.take`` dispatched on the console's store thread with no
key and no console code on the way, timed the same way, and key → frame is printed as a ratio to it.

:func:`take_latency` is the function ``benchmarks/console_latency.py`` (the console's decision → page
benchmark) calls to print the same figures beside its own.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


def take_latency(takes: int = 300, seed: int = 11) -> dict[str, float]:
    """Run the benchmark; returns the figures in milliseconds (p50/p99 of each)."""
    from playwright.sync_api import sync_playwright
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS
    from broadcast.console.app import build
    from broadcast.overlay import OverlayServer, Rendered
    from broadcast.studio import open_store

    app = QApplication.instance() or QApplication([sys.argv[0]])
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        store = open_store(Path(d) / "bench.sqlite")
        journaled: dict[int, float] = {}
        frames: dict[int, Rendered] = {}
        echoed: dict[int, float] = {}
        cond = threading.Condition()

        def on_change(ch: Any) -> None:
            journaled[ch.seq] = time.perf_counter()

        def on_echo(r: Rendered) -> None:
            with cond:
                echoed.setdefault(r.seq, r.received)
                frames.setdefault(r.seq, r)
                cond.notify_all()

        store.subscribe(on_change, "bench")
        srv = OverlayServer(store, port=0)
        srv.on_rendered(on_echo)
        srv.start()
        window = build(store, QSettings(str(Path(d) / "c.ini"), QSettings.Format.IniFormat), monitors=False)
        window.resize(1600, 900)
        window.show()
        window.activateWindow()
        entry = window.panel.entry
        for _ in range(50):
            app.processEvents()
            time.sleep(0.01)
        entry.setFocus()

        def press(
            key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
        ) -> tuple[float, float]:
            wall, t0 = time.time(), time.perf_counter()
            QTest.keyClick(entry, key, mods)
            return wall, t0

        def wait_seq(pred: Any, timeout: float = 5.0) -> int:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                app.processEvents()
                seq = store.seq
                if pred(store.state):
                    with cond:
                        left = max(0.0, deadline - time.monotonic())
                        if cond.wait_for(lambda s=seq: s in echoed, timeout=left):
                            return seq
                time.sleep(0.001)
            raise TimeoutError("the page did not echo the change")

        key_frame: list[float] = []
        key_echo: list[float] = []
        key_journal: list[float] = []
        base_frame: list[float] = []
        base_journal: list[float] = []
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
                page.goto(srv.url("program", echo="1"))
                page.wait_for_function("window.__rendered && window.__rendered.seq >= 0", timeout=20000)
                on = lambda st: st["graphics"]["program"]["scoreboard"]["on"]  # noqa: E731
                for i in range(2 * takes):
                    direct = i % 2 == 1  # the same-run baseline: every other take without a key
                    press(Qt.Key.Key_F2)
                    wait_seq(lambda st: st["graphics"]["preview"]["scoreboard"]["on"])
                    time.sleep(rng.uniform(0, 0.020))
                    if direct:  # bus.take on the console's store thread, no key, no console code
                        wall, t0 = time.time(), time.perf_counter()
                        window.console.bridge.call(store.dispatch, "bus.take", {})
                    else:
                        wall, t0 = press(Qt.Key.Key_F12)
                    seq = wait_seq(on)
                    r = frames[seq]
                    if direct:
                        base_frame.append((r.page_frame - wall) * 1000)
                        base_journal.append((journaled[seq] - t0) * 1000)
                    else:
                        key_frame.append((r.page_frame - wall) * 1000)
                        key_echo.append((echoed[seq] - t0) * 1000)
                        key_journal.append((journaled[seq] - t0) * 1000)
                    press(Qt.Key.Key_F2, Qt.KeyboardModifier.ShiftModifier)  # clear: off both buses
                    wait_seq(lambda st: not on(st) and not st["graphics"]["preview"]["scoreboard"]["on"])
                browser.close()
        finally:
            window.console.bridge.close()
            window.close()
            srv.stop()
            store.close()
    return {
        "takes": float(len(key_frame)),
        "key_frame_p50": statistics.median(key_frame),
        "key_frame_p99": pct(key_frame, 99),
        "key_echo_p50": statistics.median(key_echo),
        "key_echo_p99": pct(key_echo, 99),
        "key_journal_p50": statistics.median(key_journal),
        "key_journal_p99": pct(key_journal, 99),
        "base_frame_p50": statistics.median(base_frame),
        "base_frame_p99": pct(base_frame, 99),
        "base_journal_p50": statistics.median(base_journal),
        "base_journal_p99": pct(base_journal, 99),
    }


def print_figures(f: dict[str, float]) -> None:
    print(f"hotkey TAKE (F12, entry focused) → program page, {int(f['takes'])} takes:")
    for label, key, goal in (
        ("key → frame that shows it  ", "key_frame", "  (goal p99 ≤ 30)"),
        ("key → page's echo in Python", "key_echo", ""),
        ("key → journaled (bus.take) ", "key_journal", ""),
    ):
        print(f"  {label} p50 {f[key + '_p50']:6.1f} ms   p99 {f[key + '_p99']:6.1f} ms{goal}")
    if "base_frame_p50" in f:
        print(
            f"  baseline, same run (as many takes in between, bus.take on the store thread without a key):"
            f" → frame p50 {f['base_frame_p50']:.1f} ms, p99 {f['base_frame_p99']:.1f} ms; → journaled "
            f"p50 {f['base_journal_p50']:.1f} ms, p99 {f['base_journal_p99']:.1f} ms"
        )
        print(
            f"  key → frame as a ratio to baseline: p50 × {f['key_frame_p50'] / f['base_frame_p50']:.2f}, "
            f"p99 × {f['key_frame_p99'] / f['base_frame_p99']:.2f}; load average {os.getloadavg()[0]:.1f}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--takes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    print_figures(take_latency(args.takes, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
