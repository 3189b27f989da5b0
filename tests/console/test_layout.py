"""The console's default layout leaves every part readable: on a 1366×768 laptop (the table and the
record side by side, the other docks tabbed underneath with the cue list in front) the cue list shows
several whole rows, the six seats and the entry line stay in view; at 1920×1080 too."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings

from tests.console.conftest import NAMES, TEAMS

ROOT = Path(__file__).resolve().parents[2]


def _open(tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> Any:
    import broadcast.console.layout as layout_module
    from broadcast.console.app import build
    from broadcast.sponsors.placements import load_placements, to_state
    from broadcast.studio import open_store

    monkeypatch.setattr(layout_module, "screen_area", lambda _w: QRect(0, 0, *size))
    store = open_store(tmp_path / "studio.sqlite")
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    settings = QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat)
    w = build(store, settings, lang="zh_CN", placements=p, monitors=False)
    w._test_store = store
    qtbot.addWidget(w)
    w.setGeometry(0, 0, *size)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture(params=[(1366, 768), (1920, 1080)], ids=["1366x768", "1920x1080"])
def sized(request: Any, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    w = _open(tmp_path, qtbot, monkeypatch, request.param)
    yield w
    w.console.bridge.close()
    w._test_store.close()


def _inside(w: Any, widget: Any) -> bool:
    """``widget`` is shown whole inside the window (not cut off, not behind another tab)."""
    top_left = widget.mapTo(w, widget.rect().topLeft())
    return widget.isVisible() and w.rect().contains(QRect(top_left, widget.size()))


def test_the_default_layout_shows_several_cues_the_seats_and_the_entry(sized: Any, qtbot: Any) -> None:
    w = sized
    view = w.onair.cues.view
    # the demo episode's rundown is loaded (the cue list follows the store's state by signal)
    qtbot.waitUntil(lambda: view.model().rowCount() >= 10, timeout=10000)

    def rows_in_view() -> float:
        return float(view.viewport().height() / max(1, view.rowHeight(0)))

    qtbot.waitUntil(lambda: rows_in_view() >= 4, timeout=5000)  # the first show sizes the docks
    qtbot.waitUntil(w.layout_.settled)
    assert rows_in_view() >= 4, rows_in_view()
    assert _inside(w, view.viewport()), "the cue list is hidden or cut off"
    for card in w.table.cards.values():
        assert _inside(w, card) and card.height() >= card.minimumHeight(), card.objectName()
    assert _inside(w, w.table.top) and _inside(w, w.table.score)
    assert _inside(w, w.panel.entry) and _inside(w, w.panel.completions)
    record = w.panel.record
    assert record.viewport().height() >= 2 * record.verticalHeader().defaultSectionSize()
    if w.width() < 1700:
        assert w.compact and all(c.compact for c in w.table.cards.values())


def test_the_default_sizes_follow_a_late_resize_until_the_operator_sizes_a_dock(
    tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: a window manager's maximise comes whenever it comes (late on a busy machine); the
    default layout takes its proportions for the size the window ends at — and once the operator drags
    a separator, their size stays when the window is resized."""
    from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    w = _open(tmp_path, qtbot, monkeypatch, (1920, 1080))
    try:
        table = w.dock("table")
        qtbot.waitUntil(w.layout_.settled)
        w.resize(1700, 1000)  # the late resize: long after the first show sized the docks
        qtbot.waitUntil(lambda: w.layout_.settled() and abs(table.width() - 1700 * 31 // 100) <= 12)
        # the operator drags the separator right of the table 150 px to the right
        edge = table.geometry().right() + 1
        for dx in range(0, 4):  # the separator is a few pixels wide: find it where a press takes it
            at = QPoint(edge + dx, table.geometry().center().y())
            if w.childAt(at) is None:
                break
        else:
            raise AssertionError("no separator right of the table")
        before = table.width()

        def mouse(kind: QEvent.Type, pos: QPoint, button: Qt.MouseButton, held: Qt.MouseButton) -> None:
            e = QMouseEvent(
                kind, QPointF(pos), QPointF(w.mapToGlobal(pos)), button, held, Qt.KeyboardModifier.NoModifier
            )
            QApplication.sendEvent(w, e)

        left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
        mouse(QEvent.Type.MouseButtonPress, at, left, left)
        mouse(QEvent.Type.MouseMove, at + QPoint(150, 0), none, left)
        qtbot.waitUntil(lambda: table.width() >= before + 100)  # the separator moves (on a zero timer)
        mouse(QEvent.Type.MouseButtonRelease, at + QPoint(150, 0), left, none)
        sized = table.width()
        w.resize(1800, 1000)
        qtbot.waitUntil(lambda: w.width() == 1800 and w.layout_.settled())
        assert abs(table.width() - sized) <= 2, (table.width(), sized)  # the operator's width stays
    finally:
        w.console.bridge.close()
        w._test_store.close()
