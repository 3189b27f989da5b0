"""``python -m broadcast producer [--db FILE]``: the producer's workspace (sponsors, contracts, slots with
their preview, roster and season, the season's delivery), also opened from the console's 制片 menu.

It works on the project's files beside the database (``studio-assets/``; see :mod:`broadcast.project`)
and on the season tables and as-run log inside it; it never opens the studio's show store, so it can
run beside a console that is on air. Without a display it says so in one line and exits 2.

With ``GOUJI_SAY_READY=1`` in its environment the window prints a line each time it has drawn all it was
loading — at its opening and after each change of tab (:class:`ReadyLines`): a script or a test driving
the real window photographs it then, rather than after a guessed pause.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings


def register(parser: argparse.ArgumentParser) -> None:
    from broadcast.core.db import add_db_argument
    from broadcast.season.backend import add_season_db_argument

    add_db_argument(parser)
    add_season_db_argument(parser)
    parser.add_argument(
        "--placements",
        default=None,
        help="要编辑的排期文件（默认：数据库旁 studio-assets/sponsors/placements.yaml）/ placements to edit",
    )
    parser.add_argument("--lang", choices=("zh_CN", "en"), default=None, help="界面语言 / UI language")
    parser.add_argument("--settings", default=None, help="界面设置文件 (INI) / settings file")
    parser.add_argument("--geometry", default=None, help="窗口 WxH / window size")
    parser.add_argument("--no-web", action="store_true", help="不用 Qt WebEngine 预览 / no page preview")


def build(
    db: str | Path,
    *,
    placements: str | Path | None = None,
    settings: QSettings | None = None,
    lang: str | None = None,
    web: bool = True,
    parent: Any = None,
    season_db: str | None = None,
) -> Any:
    """The producer's window over ``db`` (a QApplication must exist); its season screens work on
    ``season_db`` (else ``$GOUJI_SEASON_DB``, else the season in ``db``). ``window.ws`` is its workspace:
    close it (``window.ws.close()``) when the window is done with."""
    from PySide6.QtWidgets import QApplication

    from broadcast.producer.window import ProducerWindow
    from broadcast.producer.workspace import Workspace
    from broadcast.qt import i18n, theme

    app = QApplication.instance()
    assert isinstance(app, QApplication), "a QApplication must exist"
    if parent is None:
        theme.apply(app)
        i18n.install(lang or (str(settings.value("language", "zh_CN")) if settings is not None else "zh_CN"))
    from broadcast.season.backend import season_target

    ws = Workspace(db, placements, season=season_target(season_db, db))
    window = ProducerWindow(ws, settings, web=web, parent=parent)
    if os.environ.get("GOUJI_SAY_READY") == "1":
        setattr(window, "ready_lines", ReadyLines(window))  # noqa: B010 - kept with the window
    return window


class ReadyLines:
    """``GOUJI_SAY_READY=1``: "制片工作台已就绪 #N" on stdout once the window is on the screen with nothing
    left to load — no work on the workspace's worker and no answer of it undelivered, no check waiting
    for its timer, and on the slots' tab the preview page loaded and showing the latest preview state
    (the page's own record of the state it drew, ``window.__rendered``) — at its opening and after each
    change of tab, the window repainted and the window system synced first."""

    POLL_MS = 50

    def __init__(self, window: Any) -> None:
        from PySide6.QtCore import QTimer

        self.window = window
        self.said = 0
        self._quiet = 0  # polls in a row that found the window settled
        self._drawn_seq = -1  # the state the preview page last said it drew
        self._timer = QTimer(window)
        self._timer.setInterval(self.POLL_MS)
        self._timer.timeout.connect(self._poll)
        window.tabs.currentChanged.connect(lambda _i: self.arm())
        for act in getattr(window, "tab_actions", ()):  # Ctrl+N on the tab shown already: said again too
            act.triggered.connect(lambda _c=False: self.arm())
        self.arm()

    def arm(self) -> None:
        self._quiet = 0
        self._timer.start()

    def _preview_page(self) -> Any:
        """The preview's page monitor when the slots' tab shows it, else None."""
        slots = getattr(self.window, "slots", None)
        pane = getattr(slots, "preview", None)
        page = getattr(pane, "page", None)
        if pane is None or page is None or self.window.tabs.currentWidget() is not slots:
            return None
        return page if pane.stack.currentWidget() is page and page.view is not None else None

    def _settled(self) -> bool:
        ws = self.window.ws
        if not self.window.isVisible() or ws._handlers or ws.bridge.waiting or ws._timer.isActive():
            return False
        page = self._preview_page()
        if page is None:
            return True
        if not page.loaded:
            return False
        page.view.page().runJavaScript("(window.__rendered || {seq: -1}).seq", 0, resultCallback=self._drawn)
        return bool(self._drawn_seq >= int(ws.studio.store.seq))

    def _drawn(self, seq: Any) -> None:
        self._drawn_seq = int(seq) if isinstance(seq, int | float) else -1

    def _poll(self) -> None:
        self._quiet = self._quiet + 1 if self._settled() else 0
        if self._quiet < 2:  # settled on two polls in a row (an answer may queue more work)
            return
        from PySide6.QtGui import QGuiApplication

        self._timer.stop()
        self.window.repaint()
        QGuiApplication.sync()  # the picture is with the window system before the line
        self.said += 1
        tab = self.window.tabs.currentIndex() + 1
        print(
            f"制片工作台已就绪 #{self.said} / the producer's workspace is drawn #{self.said}: tab {tab}",
            flush=True,
        )


def open_from_console(console_window: Any, *, web: bool = True) -> Any:
    """The console's 制片 menu (Ctrl+Shift+P): the producer's window on the console's database, a window
    of the console (closed with it), with a worker of its own (the console's store thread is never used
    for the producer's work). A second call brings the open window to the front."""
    import shiboken6
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    existing = getattr(console_window, "producer", None)
    if existing is not None and shiboken6.isValid(existing):
        existing.show()
        existing.raise_()
        existing.activateWindow()
        return existing
    console = console_window.console
    db = console.bridge.store.journal.path  # the project's file; its season: the console's (db_path)
    window = build(
        db, settings=console_window.settings, web=web, parent=console_window, season_db=console.db_path
    )
    window.setWindowFlag(Qt.WindowType.Window, True)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    ws = window.ws
    window.destroyed.connect(lambda *_: ws.close())
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(ws.close)
    console_window.producer = window
    window.show()
    return window


def main(args: argparse.Namespace) -> int:
    from broadcast.qt.display import has_display

    if not has_display():
        print(
            "没有图形显示（DISPLAY 未设置），制片工作台无法打开 / no display (DISPLAY is not set): "
            "the producer's workspace cannot open; QT_QPA_PLATFORM=offscreen runs it without one",
            file=sys.stderr,
        )
        return 2
    from broadcast.core.db import chosen

    db = chosen(args.db)
    from broadcast.core.db import DatabaseError
    from broadcast.season.backend import season_target, shown
    from broadcast.season.model import SeasonDB

    season = season_target(args.season_db, db)
    db.parent.mkdir(parents=True, exist_ok=True)
    try:  # a file that is not the studio's database, a season server not there: one line, before any window
        for target in dict.fromkeys((str(db), season)):
            with SeasonDB.open(target):
                pass
    except DatabaseError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")
    from PySide6.QtWidgets import QApplication

    from broadcast.producer.draft import DraftError
    from broadcast.qt.monitor import prepare

    if not args.no_web:
        prepare()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("gouji-producer")
    app.setOrganizationName("gouji-studio")
    settings = (
        QSettings(args.settings, QSettings.Format.IniFormat)
        if args.settings
        else QSettings("gouji-studio", "producer")
    )
    try:
        window = build(
            db,
            placements=args.placements,
            settings=settings,
            lang=args.lang,
            web=not args.no_web,
            season_db=season,
        )
    except DraftError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.geometry:
        w, _, h = args.geometry.partition("x")
        window.resize(int(w), int(h))
    window.show()
    print(
        f"制片工作台已打开 / the producer's workspace is open: {db}（排期 {window.ws.draft.path}；"
        f"赛季 season {shown(season)}）",
        flush=True,
    )
    try:
        rc = app.exec()
    finally:
        window.ws.close()
    return int(rc)
