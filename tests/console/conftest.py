"""Fixtures for the console: a real store on a SQLite file, the console built over it (offscreen Qt),
and helpers that type as the operator does (QTest key clicks into the entry line)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

NAMES = ["张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰"]
TEAMS = {"odd": {"name": "小当家联盟队"}, "even": {"name": "沂蒙山泉队"}}


def open_store(path: Path) -> Any:
    from broadcast.studio import open_store as open_studio_store

    return open_studio_store(path)


@pytest.fixture(autouse=True)
def windows_deleted() -> Iterator[None]:
    """The test's windows are deleted when it ends, not in the next test: pytest-qt closes them and asks
    Qt to delete them later, which Qt does only inside an event loop — the next test's first wait, after
    its own window was built, whose theme then styled the last test's ~400 widgets again (~1.1 s of CPU a
    test). Finalised last (set up first), after the test's own fixtures closed their windows' bridges.
    The program's language goes back to Chinese too: a test that switched to English left the next test
    on this worker in English (the catalog is the application's, not a window's)."""
    yield
    app = QApplication.instance()
    if app is not None:
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    from broadcast.qt import i18n

    if i18n.current() != "zh_CN":
        i18n.install("zh_CN")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    s = open_store(tmp_path / "studio.sqlite")
    yield s
    s.close()


def show_active(qtbot: Any, w: Any) -> None:
    """Show ``w`` and wait until it is the active window, as an operator's click makes it: its keys are
    the window's shortcuts (QAction, Qt.WindowShortcut), which an inactive window never receives. On a
    busy worker the activation can come after the exposure, or another test's window can hold it."""
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=5000)


def console_window(store: Any, tmp_path: Path, qtbot: Any) -> Any:
    """The console built over ``store`` (Chinese UI, its layout in a file of the test), shown."""
    from broadcast.console.app import build

    w = build(store, QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat), lang="zh_CN")
    qtbot.addWidget(w)
    w.resize(1600, 900)
    show_active(qtbot, w)
    return w


@pytest.fixture
def window(store: Any, tmp_path: Path, qtbot: Any) -> Iterator[Any]:
    w = console_window(store, tmp_path, qtbot)
    yield w
    w.console.bridge.close()


def type_line(qtbot: Any, window: Any, text: str) -> None:
    """Type ``text`` into the entry line and press Enter; wait for the store's answer."""
    entry = window.panel.entry
    entry.setFocus()
    QTest.keyClicks(entry, text)
    QTest.keyClick(entry, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.console.busy, timeout=5000)


def settle(qtbot: Any, window: Any) -> None:
    """Every queued store call has run and its signals have been delivered."""
    window.console.bridge.drain()
    qtbot.wait(10)


def new_match(window: Any, qtbot: Any, **payload: Any) -> None:
    done: list[Any] = []
    window.console.act("match.new", {"teams": TEAMS, "names": NAMES, **payload}, on_done=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)


@pytest.fixture
def demo_window(demo_db_master: Path, tmp_path: Path, qtbot: Any) -> Iterator[Any]:
    """The console on a private copy of the demo season's database (built once per run: tests/conftest.py)."""
    import shutil

    db = tmp_path / "demo.sqlite"
    shutil.copy(demo_db_master, db)
    s = open_store(db)
    w = console_window(s, tmp_path, qtbot)
    yield w
    w.console.bridge.close()
    s.close()


def selfplay(seed: int) -> Any:
    """A whole seeded game played by the engine (its moves in ``game.moves``)."""
    import engine

    g = engine.new_game("tv_match", seed=seed)
    engine.random_playout(g, seed=seed)
    return g


def typed(line: str, pending: int | None) -> str:
    """What an operator types for ``line``: the action alone for the pending seat, else the whole line."""
    seat, act = line.split(" ", 1)
    short = {"pass": "p", "yield": "y"}.get(act, act)
    return short if pending is not None and int(seat) == pending else line


def type_game(qtbot: Any, window: Any, game: Any) -> None:
    """Key in a whole game: the 上班 seat, then every decision as the operator types it."""
    type_line(qtbot, window, str(game.leader))
    for a in game.moves:
        type_line(qtbot, window, typed(str(a), window.console.game.pending_seat))
        assert window.panel.verdict.text() == "", f"{a}: {window.panel.verdict.text()}"
