"""The console's first second: a window at once, even when the project database is held by another
program (a backup tool, a second window on the same file), saying what it waits for.

:func:`start_studio` opens a small window (maximised, or at ``--geometry``) and starts the studio
(:class:`broadcast.runtime.Studio`) on a thread of its own; while it starts, the window says so and —
once the database has kept it waiting for a second — that the database is held by another program and
for how long (a probe on a thread of its own asks SQLite, never the Qt thread). It returns when the
studio is up; the console's own window then takes its place. A start that fails (a bad option, a file
that is not a studio database) is raised on the Qt thread as it would have been.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QLabel, QMainWindow

from broadcast.console.layout import parse_geometry
from broadcast.qt import theme
from broadcast.qt.i18n import tr

SAY_AFTER_S = 1.0  # a start shorter than this shows only "starting"


def database_locked(path: Path) -> bool:
    """Another program holds ``path`` locked for writing (a write lock cannot be had at once)."""
    if not path.exists():
        return False
    try:
        conn = sqlite3.connect(str(path), timeout=0, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc) or "busy" in str(exc)
    finally:
        conn.close()


class StartWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("startWindow")
        self.setWindowTitle(tr("导播台 — 正在启动"))
        self.label = QLabel(tr("正在打开项目数据库和演播室…"))
        self.label.setObjectName("startNote")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        self.label.setFont(theme.font(theme.SIZE_RECORD + 4, bold=True))
        self.setCentralWidget(self.label)
        self.statusBar().showMessage(tr("正在启动…"))

    def waiting(self, seconds: float, locked: bool) -> None:
        if locked:
            text = tr("数据库被其他程序占用，正在等待（已等 {s} 秒）。\n关闭占用它的程序，导播台会自己继续。")
            self.statusBar().showMessage(tr("数据库忙：被其他程序占用"))
        else:
            text = tr("正在打开项目数据库和演播室…（{s} 秒）")
        self.label.setText(text.format(s=int(seconds)))


class _Probe:
    """Whether the database is locked, asked once a second on a thread of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.locked = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="db-probe", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.locked = database_locked(self.path)

    def stop(self) -> None:
        self._stop.set()


def start_studio(app: QCoreApplication, studio: Any, geometry: str | None = None) -> None:
    """Start ``studio`` with a window on the screen meanwhile (see the module doc)."""
    window = StartWindow()
    if geometry:
        x, y, w, h = parse_geometry(geometry)
        window.setGeometry(x, y, w, h)
        window.show()
    else:
        window.showMaximized()
    print(
        "导播台窗口已打开，正在启动演播室 / the console's window is open, the studio is starting", flush=True
    )
    outcome: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            studio.start()
        except BaseException as exc:  # noqa: BLE001 - raised again on the Qt thread below
            outcome.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="studio-start", daemon=True).start()
    probe = _Probe(Path(studio.db_path))
    began = time.monotonic()
    loop = QEventLoop()
    timer = QTimer()
    told = [False]

    def tick() -> None:
        if done.is_set():
            loop.quit()
            return
        held = time.monotonic() - began
        if held >= SAY_AFTER_S:
            window.waiting(held, probe.locked)
            if probe.locked and not told[0]:
                told[0] = True
                print(
                    "数据库被其他程序占用，等待中 / the database is held by another program: waiting",
                    flush=True,
                )

    timer.timeout.connect(tick)
    timer.start(100)
    loop.exec()
    timer.stop()
    probe.stop()
    window.close()
    window.deleteLater()
    app.processEvents()
    if outcome:
        raise outcome[0]
