"""The console's default layout leaves every part readable: on a 1366×768 laptop (the table and the
record side by side, the other docks tabbed underneath with the cue list in front) the cue list shows
several whole rows, the six seats and the entry line stay in view; at 1920×1080 too. The cue list has
priority over the 胜率 chart (QLab: the next cue always in view): its header reads the next cue's whole
text — the rundown's longest — at 1366×768, 1920×1080 and 3840×2160 in both languages; the chart is
beside it where the window has room for both (3840×2160), else a tab one click away."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings

from tests.console.conftest import NAMES, TEAMS, selfplay

ROOT = Path(__file__).resolve().parents[2]


def _open(
    tmp_path: Path,
    qtbot: Any,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
    lang: str = "zh_CN",
    title_bar: int = 0,
) -> Any:
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
    # the monitors too, as the console has them with a studio (no pages to show here: their frames only)
    w = build(store, settings, lang=lang, placements=p, monitors=True)
    w._test_store = store
    qtbot.addWidget(w)
    w._test_client = (size[0], size[1] - title_bar)  # maximised under a window manager: less its title bar
    w.setGeometry(0, 0, *w._test_client)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture(params=[(1366, 768), (1920, 1080)], ids=["1366x768", "1920x1080"])
def sized(request: Any, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    w = _open(tmp_path, qtbot, monkeypatch, request.param, title_bar=19)  # openbox's, measured under Xvfb
    yield w
    w.console.bridge.close()
    w._test_store.close()


def _inside(w: Any, widget: Any) -> bool:
    """``widget`` is shown whole inside the window (not cut off, not behind another tab)."""
    top_left = widget.mapTo(w, widget.rect().topLeft())
    return widget.isVisible() and w.rect().contains(QRect(top_left, widget.size()))


def test_the_default_layout_shows_several_cues_the_seats_and_the_entry(sized: Any, qtbot: Any) -> None:
    import broadcast.console.layout as layout_module

    w = sized
    view = w.onair.cues.view
    # the demo episode's rundown is loaded (the cue list follows the store's state by signal)
    qtbot.waitUntil(lambda: view.model().rowCount() >= 10, timeout=10000)

    def rows_in_view() -> float:
        return float(view.viewport().height() / max(1, view.rowHeight(0)))

    qtbot.waitUntil(lambda: rows_in_view() >= 4, timeout=5000)  # the first show sizes the docks
    qtbot.waitUntil(w.layout_.settled)
    # the window is the screen's size, never taller: no dock's least height pushes the cue list or the
    # status bar below the screen's edge (the sponsor events' panel once made a 1920×1080 window 1198 tall)
    screen = layout_module.screen_area(w)
    assert w.minimumSizeHint().height() <= screen.height(), (w.minimumSizeHint(), screen)
    assert (w.width(), w.height()) == w._test_client, (w.size(), w._test_client, screen)
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
    # the graphics brought forward (a tab on a laptop): every tile, TAKE, CUT and 清屏 whole in view,
    # none cut by the tab's bottom edge (three rows of tiles pushed them under it at 1366×768)
    w.dock("graphics").raise_()
    panel = w.onair.graphics
    parts = [*panel.tiles.values(), panel.take_button, panel.cut_button, panel.panic_button]
    qtbot.waitUntil(lambda: all(p.isVisible() for p in parts))

    def whole(part: Any) -> bool:
        return bool(part.visibleRegion().boundingRect() == part.rect()) and _inside(w, part)

    with contextlib.suppress(Exception):  # a layout pass may still be under way: then measured as it is
        qtbot.waitUntil(lambda: all(whole(p) for p in parts), timeout=5000)
    cut = [
        (p.objectName() or p.graphic, p.visibleRegion().boundingRect().height(), p.height()) for p in parts
    ]
    assert all(whole(p) for p in parts), [c for c, p in zip(cut, parts, strict=True) if not whole(p)]


def test_the_console_started_again_on_the_same_screen_fits_it(sized: Any, qtbot: Any) -> None:
    """The second start on a laptop puts back the saved arrangement — and the window still fits the
    screen: the compact tabs scroll as at the first start (unscrolled, their least heights made a
    1366×768 laptop's window 1015 px tall: the status bar, GO and the tabs below the screen's edge)."""
    from broadcast.console.app import build

    first = sized
    qtbot.waitUntil(first.layout_.settled)
    size = (first.width(), first.height())
    first.save_layout()
    first.close()
    again = build(first._test_store, first.settings, monitors=False)
    qtbot.addWidget(again)
    try:
        assert not again.first_start  # the saved arrangement is put back, not a new default
        assert again.minimumSizeHint().height() <= size[1], again.minimumSizeHint()
        again.setGeometry(0, 0, *size)
        again.show()
        qtbot.waitExposed(again)
        qtbot.waitUntil(lambda: again.layout_.settled() and again.size().toTuple() == size)
        cues = again.onair.cues
        for part in (again.statusBar(), cues.go_button, cues.view.viewport(), again.panel.entry):
            assert _inside(again, part), part.objectName()
    finally:
        again.console.bridge.close()


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


@pytest.mark.parametrize(
    ("size", "lang"),
    [
        ((1366, 768), "zh_CN"),
        ((1366, 768), "en"),
        ((1920, 1080), "zh_CN"),
        ((1920, 1080), "en"),
        ((3840, 2160), "zh_CN"),
        ((3840, 2160), "en"),
    ],
    ids=["1366x768", "1366x768-en", "1920x1080", "1920x1080-en", "3840x2160", "3840x2160-en"],
)
def test_the_next_cue_reads_whole_beside_the_chart_and_the_seat_names_too(
    size: tuple[int, int], lang: str, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As an operator reads it: with the next cue set to the rundown's longest, the header's next-cue
    text fits its label (its full advance, no "…"); the header is on one row with skip and GO where the
    panel has room for that text beside them, else on a line of its own; the cue's text column has the
    larger share; four whole cue rows at 1366×768, five record rows; every seat name whole; the window
    and its status bar on the screen; the 胜率 chart beside the cue list where the window has room for
    both, else a tab that one click brings forward — and the next cue is still whole then."""
    from PySide6.QtGui import QFontMetrics

    w = _open(tmp_path, qtbot, monkeypatch, size, lang)
    try:
        panel = w.onair.cues
        model = panel.model
        qtbot.waitUntil(lambda: model.rowCount() >= 10, timeout=10000)
        texts = [panel.next_text(v.index) for v in model.views]
        head = panel.headline
        fm_head = QFontMetrics(head.font())
        longest = max(range(len(texts)), key=lambda i: fm_head.horizontalAdvance(texts[i]))
        w.console.act("cues.next", {"index": longest})
        qtbot.waitUntil(lambda: _next_is(panel, longest) and _full(head) == texts[longest])
        qtbot.waitUntil(w.layout_.settled)

        def fits() -> bool:
            need = QFontMetrics(head.font()).horizontalAdvance(_full(head))
            return need <= head.contentsRect().width() - 2 * head.margin()

        def header_whole() -> None:
            with contextlib.suppress(qtbot.TimeoutError):  # the label's new text laid out (events)
                qtbot.waitUntil(fits, timeout=5000)
            need = QFontMetrics(head.font()).horizontalAdvance(_full(head))
            room = head.contentsRect().width() - 2 * head.margin()
            assert need <= room, (
                f"the next cue needs {need} px, the header's label has {room} ({_full(head)}; one row:"
                f" {panel.one_row}, panel {panel.width()}, needs {panel.header_room()} on one row, the state"
                f" {panel.status.width()}/{panel.status.maximumWidth()})"
            )
            assert head.text() == _full(head) and "…" not in head.text(), head.text()
            assert _inside(w, head), "the cue list's header is hidden or cut off"

        header_whole()
        # one row where the panel has room for the longest next cue beside skip and GO
        room = panel.header_room() + 16  # the panel's margins
        assert panel.one_row is (panel.width() >= room), (panel.width(), room)
        if panel.one_row:  # the next cue level with GO
            go = panel.go_button.geometry()
            assert go.top() <= head.geometry().center().y() <= go.bottom(), (head.geometry(), go)
        else:
            assert head.geometry().bottom() < panel.go_button.geometry().top()
        # the columns: the short ones at their contents, the cue's text the larger share of the rest
        view = panel.view
        h = view.horizontalHeader()
        for col in (1, 3, 4, 5, 6):
            assert h.sectionSize(col) >= view.sizeHintForColumn(col), (col, h.sectionSize(col))
        assert h.sectionSize(2) > h.sectionSize(7), (h.sectionSize(2), h.sectionSize(7))
        # rows: four whole cues at the least (the laptop), five record rows
        rows = view.viewport().height() / max(1, view.rowHeight(0))
        assert rows >= 4, f"{rows:.2f} cue rows in view"
        record = w.panel.record
        record_rows = record.viewport().height() / record.verticalHeader().defaultSectionSize()
        assert record_rows >= 5, f"{record_rows:.2f} record rows in view"
        # the seat cards: every name whole
        for card in w.table.cards.values():
            name = card.name
            need = QFontMetrics(name.font()).horizontalAdvance(_full(name))
            assert name.text() == _full(name), (card.objectName(), name.text(), need, name.width())
            assert need <= name.contentsRect().width(), (card.objectName(), need, name.width())
        # the window on its screen: the status bar in view
        bar = w.statusBar()
        assert bar.isVisible()
        assert w.width() <= size[0] and w.height() <= size[1], w.size()
        assert _inside(w, bar), (bar.geometry(), w.size())
        shots = ROOT / "test-artifacts" / "console"
        shots.mkdir(parents=True, exist_ok=True)
        assert w.grab().save(str(shots / f"layout-next-cue-{size[0]}x{size[1]}-{lang}.png"))
        # the 胜率 chart: beside the cue list where there is room, else one click (its tab) away
        chart_dock = w.dock("winprob")
        chart = w.onair.winprob
        beside = w.layout_.chart_is_beside()
        assert beside is (size[0] >= 3000), (size, beside)
        if beside:
            assert _inside(w, chart) and not chart.visibleRegion().isEmpty()
            assert w.dock("cues").width() >= chart_dock.width() and chart.width() >= 440, chart.width()
        else:
            tabs = w.tabifiedDockWidgets(chart_dock)
            assert tabs, "the chart is neither beside the cue list nor a tab"
            chart_dock.raise_()  # the click on its tab
            qtbot.waitUntil(lambda: _inside(w, chart) and not chart.visibleRegion().isEmpty())
            if not w.compact:  # behind the sponsor events: the cue list stays in view, its next cue whole
                assert w.dock("sponsors") in tabs
                assert _inside(w, view.viewport()), "bringing the chart forward hid the cue list"
                header_whole()
                assert w.grab().save(str(shots / f"layout-chart-{size[0]}x{size[1]}-{lang}.png"))
        # the game played out: each seat's title (头科 … 大落; "fourth", "second") beside its name, or
        # under it where both do not fit — the name whole either way (it was cut to "3 …" in English)
        game = selfplay(11)
        store = w._test_store
        store.dispatch("game.new", {"leader": game.leader})
        for move in game.moves:
            store.dispatch("game.play", {"line": str(move)})
        cards = w.table.cards.values()
        qtbot.waitUntil(lambda: all(c.count.property("title") for c in cards), timeout=10000)
        for card in cards:
            for label, full in ((card.name, _full(card.name)), (card.count, card.count.text())):
                need = QFontMetrics(label.font()).horizontalAdvance(full)
                with contextlib.suppress(qtbot.TimeoutError):  # laid out for the titles (events)
                    qtbot.waitUntil(lambda label=label, need=need: need <= label.contentsRect().width())
                assert label.text() == full and need <= label.contentsRect().width(), (
                    card.objectName(),
                    label.text(),
                    need,
                    label.width(),
                )
            assert _inside(w, card.name) and _inside(w, card.count), card.objectName()
        assert w.grab().save(str(shots / f"layout-titles-{size[0]}x{size[1]}-{lang}.png"))
    finally:
        w.console.bridge.close()
        w._test_store.close()


def _full(label: Any) -> str:
    return str(label._full)


def _next_is(panel: Any, index: int) -> bool:
    nxt = panel.next_view()
    return nxt is not None and nxt.index == index
