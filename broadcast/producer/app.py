"""``python -m broadcast producer [--db FILE]``: the producer's workspace (sponsors, contracts, slots with
their preview, roster and season, the season's delivery), also opened from the console's 制片 menu.

It works on the project's files beside the database (``studio-assets/``; see :mod:`broadcast.project`)
and on the season tables and as-run log inside it; it never opens the studio's show store, so it can
run beside a console that is on air. Without a display it says so in one line and exits 2.
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
    return window


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
