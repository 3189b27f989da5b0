"""The console's real window on a real display, measured from inside (run as a module:
``python -m tests.console.geometry_probe``) under Xvfb and a window manager (test_geometry.py runs it at
each screen size).

It opens the console exactly as ``python -m broadcast console`` shows it (``broadcast.console.app.build``
and ``show_window``, the same settings file, so a second run is a restart), waits until the window
manager has placed it, and prints one line ``PROBE {json}``: the screen, the window's frame, whether it is
maximised, and for the entry line, GO, the status bar and the record whether each is whole on the
screen, how many record rows show, whether the next cue is in view, and the clipped-text audit's
findings. ``--shot FILE`` saves the whole screen as a person sees it. Closing saves the layout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _store(db: Path, moves: int, gos: int) -> Any:
    import engine
    from broadcast.sponsors.placements import load_placements, to_state
    from broadcast.studio import open_store
    from tests.console.conftest import NAMES, TEAMS

    fresh = not db.exists()
    store = open_store(db)
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    if fresh:
        store.dispatch("sponsors.load", to_state(p))
        store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07"})
        store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
        if moves:
            g = engine.new_game("tv_match", seed=313)
            engine.random_playout(g, seed=313)
            store.dispatch("game.new", {"leader": g.leader})
            for a in g.moves[:moves]:
                store.dispatch("game.play", {"line": str(a)})
    return store, p


def _whole(window: Any, widget: Any) -> bool:
    """Shown, and its whole rectangle on the screen and inside the window."""
    from PySide6.QtCore import QPoint, QRect

    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    top_left = widget.mapToGlobal(QPoint(0, 0))
    rect = QRect(top_left, widget.size())
    screen = window.screen().geometry()
    inside = QRect(window.mapToGlobal(QPoint(0, 0)), window.size())
    return screen.contains(rect) and inside.contains(rect)


def _exposed(window: Any) -> bool:
    handle = window.windowHandle()
    return bool(window.isVisible() and handle is not None and handle.isExposed())


def _fills(window: Any) -> bool:
    """The window manager's maximise has arrived: the frame covers the screen's available area."""
    area = window.screen().availableGeometry()
    return bool(window.frameGeometry() == area)


def _settled(app: Any, window: Any) -> bool:
    """Nothing is left to lay out: no default dock sizes wait to be set
    (:meth:`broadcast.console.layout.Layout.settled`) and the posted events (layout requests, resizes)
    are handled — twice over, so that what the first pass posted is handled too."""
    for _ in range(2):
        app.sendPostedEvents()
        if not window.layout_.settled():
            return False
        app.processEvents()
    return bool(window.layout_.settled())


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--settings", required=True)
    ap.add_argument("--geometry", default=None)
    ap.add_argument("--lang", default="zh_CN")
    ap.add_argument("--moves", type=int, default=0)
    ap.add_argument("--gos", type=int, default=0, help="GO this many cues before measuring")
    ap.add_argument("--shot", default=None)
    args = ap.parse_args(argv)
    from PySide6.QtCore import QEventLoop, QSettings
    from PySide6.QtWidgets import QApplication

    from broadcast.console.app import build, show_window
    from broadcast.console.layout import parse_geometry
    from tests.qtaudit import audit

    app = QApplication([sys.argv[0]])
    store, placements = _store(Path(args.db), args.moves, args.gos)
    settings = QSettings(args.settings, QSettings.Format.IniFormat)
    window = build(store, settings, lang=args.lang, placements=placements, monitors=False)
    cues = window.onair.cues

    def until(what: str, ready: Callable[[], bool], limit_s: float = 180.0) -> None:
        """Run the event loop until ``ready()`` — what is measured next is there. The limit only ends a
        run in which it never comes (then the line says what was waited for)."""
        end = time.monotonic() + limit_s
        while not ready():
            if time.monotonic() > end:
                waited.append(what)
                return
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)

    waited: list[str] = []
    until("the rundown", lambda: cues.model.rowCount() > 0)  # cues.load comes back from the store thread

    def next_index() -> int:
        nxt = cues.next_view()
        return -1 if nxt is None else int(nxt.index)

    for _ in range(args.gos):
        before = next_index()
        window.onair.onair.run("go")
        window.console.bridge.drain()
        until("GO", lambda b=before: next_index() != b)  # the cue list shows the GO (by signal)
    show_window(window, args.geometry)
    until("the window on the screen", lambda: _exposed(window))
    if args.geometry:
        x, y, w, h = parse_geometry(args.geometry)
        until("--geometry", lambda: window.geometry().getRect() == (x, y, w, h))  # placed as asked
    elif window.first_start:
        until("the maximise", lambda: window.isMaximized() and _fills(window))
    until("the layout", lambda: _settled(app, window))
    screen = window.screen().availableGeometry()
    frame = window.frameGeometry()
    record = window.panel.record
    rows = record.viewport().height() / max(
        1, record.rowHeight(0) or record.verticalHeader().defaultSectionSize()
    )
    nxt = cues.next_view()
    next_visible = False
    if nxt is not None:
        r = cues.view.visualRect(cues.model.index(nxt.index, 2))
        next_visible = cues.view.viewport().rect().contains(r) and _whole(window, cues.view.viewport())
    out = {
        "screen": [screen.x(), screen.y(), screen.width(), screen.height()],
        "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
        "client": [window.width(), window.height()],
        "at": [window.geometry().x(), window.geometry().y()],
        "maximized": window.isMaximized(),
        "compact": window.compact,
        "entry": _whole(window, window.panel.entry),
        "go": _whole(window, cues.go_button),
        "status": _whole(window, window.statusBar()),
        "record": _whole(window, record.viewport()),
        "record_rows": round(rows, 2),
        "next": nxt.index + 1 if nxt is not None else None,
        "next_visible": next_visible,
        "findings": [str(f) for f in audit(window)],
        "never_came": waited,
    }
    print("PROBE " + json.dumps(out, ensure_ascii=False), flush=True)
    if args.shot and shutil.which("import"):
        subprocess.run(["import", "-window", "root", args.shot], check=True, timeout=60)
    window.close()  # saves the layout, as the operator's window does
    window.console.bridge.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
