"""Fixtures for the producer's workspace: its window over a fresh project database (offscreen Qt), and
helpers that fill its forms as a producer does (typing into the fields, choosing in the lists, picking
files)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QSettings  # noqa: E402
from PySide6.QtGui import QKeyEvent  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit  # noqa: E402

from tests.console.conftest import show_active, windows_deleted  # noqa: E402, F401 - autouse: each test's windows go with it

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo"


@pytest.fixture
def producer(tmp_path: Path, qtbot: Any) -> Iterator[Any]:
    from broadcast.producer.app import build

    w = build(
        tmp_path / "studio.sqlite",
        settings=QSettings(str(tmp_path / "producer.ini"), QSettings.Format.IniFormat),
        lang="zh_CN",
        web=False,
    )
    qtbot.addWidget(w)
    w.resize(1600, 960)
    show_active(qtbot, w)
    settle(qtbot, w)
    yield w
    w.ws.close()


def settle(qtbot: Any, w: Any) -> None:
    """The draft checked as it is now, every queued piece of work done and its answer delivered — and
    the work those answers queued in turn, until two rounds in a row queue nothing (waited on, not timed:
    three fixed 15 ms waits cost ~7 s of a test that settles ~150 times)."""
    w.ws.schedule(now=True)
    quiet = 0
    for _ in range(500):
        w.ws.drain()  # every call queued so far has run and posted its answer to the Qt thread
        QCoreApplication.processEvents()  # the answers delivered (and zero-timers run)
        quiet = quiet + 1 if w.ws.bridge.waiting == 0 else 0
        if quiet == 2:
            return
    raise AssertionError("the producer's workspace never came to rest")


def editor(form: Any, path: tuple[Any, ...]) -> Any:
    name = "field_" + "_".join(map(str, path))
    for cls in (QLineEdit, QComboBox, QPlainTextEdit):
        found = form.findChild(cls, name)
        if found is not None:
            return found
    raise AssertionError(f"no field {name} in {type(form).__name__}")


def type_into(form: Any, path: tuple[Any, ...], text: str) -> None:
    """Clear the field and type ``text`` into it, key by key, then leave it (Tab)."""
    from PySide6.QtCore import Qt

    e = editor(form, path)
    e.setFocus()
    if isinstance(e, QPlainTextEdit):
        e.setPlainText(text)
        return
    e.selectAll()
    QTest.keyClick(e, Qt.Key.Key_Delete)
    for ch in text:  # key events carrying the character (QTest.keyClicks is for ASCII only)
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QCoreApplication.sendEvent(e, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))
    e.clearFocus()
    e.editingFinished.emit()


def choose(form: Any, path: tuple[Any, ...], value: Any) -> None:
    box = editor(form, path)
    i = box.findData(value)
    assert i >= 0, f"{value!r} is not offered at {path}"
    box.setCurrentIndex(i)
