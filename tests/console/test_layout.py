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
    qtbot.wait(100)
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
