"""Where the console's window and docks go, for the screen it opens on (1366×768 … 3840×2160).

* The first start (no saved geometry) opens maximised on its screen; a saved geometry is put back
  clipped to the screen it now opens on (a layout saved on a bigger screen never leaves the status bar,
  the cue list or GO below the edge).
* Two layouts: **wide** (a screen of 1700×950 or more: the table left, the record and entry in the
  middle, monitors/graphics/sponsor events in a right-hand column, the cue list underneath) and
  **compact** (a laptop: the table and the record side by side, the other docks in one row of tabs
  underneath with the cue list in front; closer seat cards, two suggestions). The saved dock
  arrangement is put back only on a screen of the kind it was saved on; otherwise the right layout
  for this screen is laid out.
* The 胜率 (WIN %) chart sits beside the cue list when the window is wide enough for both (the cue
  list first: its columns and the rundown's longest next cue whole, then the chart at least
  ``CHART_MIN``; 3840×2160); otherwise (1920×1080) it is a tab behind the sponsor events in the
  right-hand column, one click away — and in the compact layout a tab among the others.
* View ▸ 恢复默认布局 lays out the right layout for the screen the window is on now.
* A default layout keeps its proportions whenever the window changes size (shown, then maximised by
  the window manager — late on a busy machine — or resized by the operator) until the operator arranges
  the docks (drags a separator, moves or floats a dock): from then on their arrangement is kept.

``screen_area(widget)`` is the one place that asks Qt for the screen (tests give it a size).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QRect, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QScrollArea, QWidget

LAYOUT_VERSION = 2
SMALL = (1700, 950)  # below either: the compact layout
# the cue list's least width in the wide layout, for its columns (the cue's text with room for most names
# whole) and the header's next cue; more where the rundown's longest next cue needs more on a line of its
# own (``Layout.cues_min`` asks the cue panel) — the next cue is always read whole (QLab)
CUES_MIN = 1000
RIGHT_MIN = 560  # the monitors / graphics / sponsor events column (five graphics buttons a row)
RIGHT = ("monitors", "graphics", "sponsors")  # the wide layout's right-hand column, top to bottom
CHART_MIN = 440  # the 胜率 chart beside the cue list only with this much room (else a tab, one click)


def screen_area(widget: QWidget) -> QRect:
    """The available area of the screen ``widget`` is on (its window's, else the primary screen)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return QRect(0, 0, 1920, 1080)
    return screen.availableGeometry()


def parse_geometry(spec: str) -> tuple[int, int, int, int]:
    """``--geometry WxH`` or ``WxH+X+Y`` as (x, y, w, h); one line and exit 2 when it is neither."""
    import re

    m = re.fullmatch(r"(\d+)x(\d+)(?:\+(\d+)\+(\d+))?", spec)
    if not m:
        raise SystemExit(f"--geometry {spec!r}: write WxH or WxH+X+Y")
    return int(m.group(3) or 0), int(m.group(4) or 0), int(m.group(1)), int(m.group(2))


def is_small(area: QRect) -> bool:
    return area.width() < SMALL[0] or area.height() < SMALL[1]


def kind_for(area: QRect) -> str:
    return "compact" if is_small(area) else "wide"


class Layout:
    """The window's layout (see the module doc); ``window`` is the console's MainWindow."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.kind = "wide"
        self.first_start = True
        self.default = False  # the docks are in a default layout the operator has not rearranged
        self._laying = False
        self._sized = False  # the default sizes were set for the window's size (after it showed)
        self.areas: dict[str, Qt.DockWidgetArea] = {}
        # the default sizes are set once the window's size stops changing (shown, then maximised by the
        # window manager): a burst of resizes sets them once, after the last
        self._settle = QTimer(window)
        self._settle.setSingleShot(True)
        self._settle.setInterval(120)
        self._settle.timeout.connect(self.sizes)
        # Qt applies resizeDocks at its next layout pass, and drops it when the window's dock layout is
        # not yet laid out for the new size (a quiet machine gets there before Qt does): the sizes count
        # as set once the docks have them (_verify), and are set again, a few times at most, if not
        self._check = QTimer(window)
        self._check.setSingleShot(True)
        self._check.setInterval(60)
        self._check.timeout.connect(self._verify)
        self._wanted: list[tuple[Any, int, int]] = []  # (dock, least width, most height) of sizes()
        self._tries = 0

    def remember(self, key: str, area: Qt.DockWidgetArea) -> None:
        """A dock's default place (as it was added)."""
        self.areas[key] = area

    # -- start ---------------------------------------------------------------------------------------
    def restore(self) -> None:
        """Put back the saved geometry and docks (after every part has added its docks)."""
        w, settings = self.window, self.window.settings
        area = screen_area(w)
        self.kind = kind_for(area)
        geo = settings.value("window/geometry")
        state = settings.value("window/state")
        saved_kind = str(settings.value("window/layout", ""))
        saved_screen = str(settings.value("window/screen", ""))
        # no geometry saved, or saved on a screen of another size: maximised on this one
        self.first_start = not isinstance(geo, QByteArray | bytes) or saved_screen != _size(area)
        if not self.first_start:
            w.restoreGeometry(QByteArray(geo))
        restored = (
            saved_kind == self.kind
            and isinstance(state, QByteArray | bytes)
            and w.restoreState(QByteArray(state), LAYOUT_VERSION)
        )
        self.set_compact(self.kind == "compact")
        if not restored:
            self.lay_out()
        else:
            # the arrangement is the saved one, the docks' insides are not: a tall panel scrolls in a short
            # dock as at the first start (unscrolled, their least heights made the window taller than a
            # laptop's screen on the second start: the status bar, GO and the tabs below its edge)
            self._dress()
        self.fit()

    def fit(self) -> None:
        """Keep the window inside its screen: a geometry saved on a bigger screen is cut to this one
        (never below the window's smallest size) and moved onto it."""
        w = self.window
        if w.isMaximized() or w.isFullScreen():
            return
        area = screen_area(w)
        frame = w.frameGeometry()
        extra_w = frame.width() - w.width()
        extra_h = frame.height() - w.height()
        width = max(min(w.width(), area.width() - extra_w), w.minimumSizeHint().width())
        height = max(min(w.height(), area.height() - extra_h), w.minimumSizeHint().height())
        if (width, height) != (w.width(), w.height()):
            w.resize(width, height)
        x = min(max(frame.x(), area.x()), area.right() + 1 - width - extra_w)
        y = min(max(frame.y(), area.y()), area.bottom() + 1 - height - extra_h)
        if (x, y) != (frame.x(), frame.y()):
            w.move(max(area.x(), x), max(area.y(), y))

    def save(self) -> None:
        w, settings = self.window, self.window.settings
        settings.setValue("window/geometry", w.saveGeometry())
        settings.setValue("window/state", w.saveState(LAYOUT_VERSION))
        settings.setValue("window/layout", self.kind)
        settings.setValue("window/screen", _size(screen_area(w)))
        settings.sync()

    # -- the two layouts -------------------------------------------------------------------------------
    def set_compact(self, compact: bool) -> None:
        w = self.window
        w.compact = compact
        w.table.set_compact(compact)
        w.panel.set_compact(compact)

    def lay_out(self) -> None:
        """Every dock in its default place for the kind of screen, sized once the window shows."""
        w = self.window
        self._laying = True
        try:
            for key, (dock, _t, _c) in w._docks.items():
                dock.setTitleBarWidget(None)  # the style's title bar (the compact layout's tabs hide it)
                dock.setFloating(False)
                w.addDockWidget(self.areas.get(key, Qt.DockWidgetArea.RightDockWidgetArea), dock)
                dock.show()
            if self.kind == "compact":
                self._compact()
            else:
                # the right-hand column runs the full height; the cue list sits under the table and record
                w.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
                w.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
                w.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
                width = w.width() if w.isVisible() else screen_area(w).width()
                self._place_chart(chart_beside(width, self.cues_min()))
            self._dress()
        finally:
            self._laying = False
        self.default = True
        self._sized = False
        if w.isVisible():
            self._settle.start()

    def _place_chart(self, beside: bool) -> None:
        """The 胜率 dock beside the cue list, or a tab behind the sponsor events (wide layout)."""
        w, docks = self.window, self.window._docks
        if "winprob" not in docks or "cues" not in docks:
            return
        chart, cues = docks["winprob"][0], docks["cues"][0]
        if beside:
            w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, chart)
            w.splitDockWidget(cues, chart, Qt.Orientation.Horizontal)
            return
        host = next((docks[k][0] for k in ("sponsors", "graphics", "monitors") if k in docks), None)
        if host is None:
            return
        w.tabifyDockWidget(host, chart)
        QTimer.singleShot(0, host.raise_)  # the sponsor events in front, the chart's tab one click away

    def cues_min(self) -> int:
        """The cue list's least width in the wide layout: ``CUES_MIN``, more where the rundown's longest
        next cue needs more for the header's line of its own (the cue panel measures it)."""
        panel = getattr(getattr(self.window, "onair", None), "cues", None)
        return max(CUES_MIN, panel.line_room() if panel is not None else 0)

    def chart_is_beside(self) -> bool:
        """The 胜率 dock is beside the cue list (not a tab) in the layout now."""
        docks = self.window._docks
        if "winprob" not in docks:
            return False
        chart = docks["winprob"][0]
        return not self.window.tabifiedDockWidgets(chart) and not chart.isFloating()

    def _compact(self) -> None:
        """The table and the record side by side, every other dock in one row of tabs underneath
        (their keys work whichever tab is in front), the cue list in front."""
        w = self.window
        w.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        w.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        others = [dock for key, (dock, _t, _c) in w._docks.items() if key != "table"]
        for dock in others:
            w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        for dock in others[1:]:
            w.tabifyDockWidget(others[0], dock)
        if others:
            front = w._docks["cues"][0] if "cues" in w._docks else others[0]
            QTimer.singleShot(0, front.raise_)

    def _dress(self) -> None:
        """The docks' insides for the layout's kind: a tall panel scrolls where its dock is short — in the
        compact layout every dock but the table (and a docked one has no title bar: its tab names it, the
        rows go to the cue list), in the wide one the sponsor events' panel (617 px tall once a match is
        set: unscrolled, the right-hand column made a 1920×1080 window 1198 px tall, the cue list and the
        status bar below the screen's edge; the monitors and the graphics keep their height: TAKE, CUT
        and PANIC always whole)."""
        for key, (dock, _t, _c) in self.window._docks.items():
            if key == "table" or (self.kind != "compact" and key != "sponsors"):
                continue
            _scrolled(dock)
            if self.kind == "compact" and not dock.isFloating():
                dock.setTitleBarWidget(QWidget())

    def shown(self) -> None:
        """The window shows: the default sizes once its size has settled, if the layout is a default one
        (laid out, not restored)."""
        if self.default:
            self._sized = False
            self._settle.start()

    def resized(self) -> None:
        """The window changed size (the window manager maximised it — whenever that comes — or the
        operator resized it): a default layout gets its proportions for the new size."""
        if self.window.isVisible() and self.default:
            self._settle.start()

    def arranged(self, by_hand: bool = False) -> None:
        """The operator dragged a separator, moved or floated a dock: their arrangement stays. A dock's
        place changes by hand only with a mouse button held (a drag, a double-click on its title);
        Qt reports the layout's own moves too (late, on a busy machine), and those change nothing."""
        held = QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton
        if not self._laying and (by_hand or held):
            self.default = False
            self._settle.stop()

    def settled(self) -> bool:
        """No default sizes are waiting to be set (a burst of resizes is over, and a default layout
        has had its sizes for the shown window)."""
        waiting = self.default and self.window.isVisible() and not self._sized
        return not self._settle.isActive() and not self._check.isActive() and not waiting

    def sizes(self) -> None:
        """The default proportions for the kind of screen (a window's size is known only once shown)."""
        w = self.window
        width, height = w.width(), w.height()
        docks = w._docks
        if self.kind == "compact":
            # the table beside the record; the tabs underneath a bit over a third of the height: the
            # cue list shows several whole cues and the record keeps five rows
            w.resizeDocks([docks["table"][0]], [width * 48 // 100], Qt.Orientation.Horizontal)
            self._wanted = [(docks["table"][0], width * 48 // 100, height)]
            others = [d for k, (d, _t, _c) in docks.items() if k != "table"]
            if others:
                w.resizeDocks([others[0]], [height * 36 // 100], Qt.Orientation.Vertical)
                self._wanted.append((others[0], 0, height * 36 // 100))
            self._check.start()
            return
        cues_min = self.cues_min()
        beside = chart_beside(width, cues_min)
        if "winprob" in docks and "cues" in docks and beside != self.chart_is_beside():
            self._laying = True  # the window got a size that wants the chart elsewhere: move it, size later
            try:
                self._place_chart(beside)
            finally:
                self._laying = False
            self._settle.start()
            return
        right = [docks[k][0] for k in RIGHT if k in docks]
        if right:
            w.resizeDocks([right[0]], [right_width(width, cues_min)], Qt.Orientation.Horizontal)
            share = {"monitors": 17, "graphics": 24, "sponsors": 40}
            keys = [k for k in RIGHT if k in docks]
            w.resizeDocks(right, [height * share[k] // 100 for k in keys], Qt.Orientation.Vertical)
        self._wanted = []
        if "cues" in docks:
            w.resizeDocks([docks["cues"][0]], [height * 30 // 100], Qt.Orientation.Vertical)
            self._wanted.append((docks["cues"][0], 0, height * 30 // 100))
            if "winprob" in docks and beside:  # the 胜率 chart beside the cue list: the cue list first
                strip = width - right_width(width, cues_min)
                cues = max(cues_min, strip * 55 // 100)
                w.resizeDocks(
                    [docks["cues"][0], docks["winprob"][0]], [cues, strip - cues], Qt.Orientation.Horizontal
                )
        if "table" in docks:
            w.resizeDocks([docks["table"][0]], [width * 31 // 100], Qt.Orientation.Horizontal)
            self._wanted.append((docks["table"][0], width * 31 // 100, height))
        self._check.start()

    def _verify(self) -> None:
        """The default sizes took — each dock at least its width (or its minimum where that is more) and
        at most its height (the record keeps its rows) — or they are set again: at most five times,
        then the layout is left as Qt made it."""
        took = all(
            d.width() >= least - 4 and d.height() <= most + 8
            for d, least, most in self._wanted
            if d.isVisible()
        )
        if took or not self.default or self._tries >= 5:
            self._tries = 0
            self._sized = True
            return
        self._tries += 1
        self.sizes()

    def for_size(self, width: int, height: int) -> None:
        """``--geometry``: the window is given its size, so the layout is chosen for that size (a
        1366×768 window on a big screen is laid out as on a laptop) and the size is obeyed."""
        kind = "compact" if width < SMALL[0] or height < SMALL[1] else "wide"
        if kind != self.kind:
            self.kind = kind
            self.set_compact(kind == "compact")
            self.lay_out()

    def reset(self) -> None:
        """View ▸ 恢复默认布局: the right layout for the screen the window is on now."""
        self.window.settings.remove("window/state")
        self.kind = kind_for(screen_area(self.window))
        self.set_compact(self.kind == "compact")
        self.lay_out()
        self.fit()


def right_width(width: int, cues: int = CUES_MIN) -> int:
    """The right-hand column's width in the wide layout: 37 % of the window, less where the cue list
    underneath would get less than ``cues``, never under ``RIGHT_MIN``."""
    return max(RIGHT_MIN, min(width * 37 // 100, width - cues))


def chart_beside(width: int, cues: int = CUES_MIN) -> bool:
    """A window this wide has room for the 胜率 chart beside a cue list of ``cues`` px (the cue list
    first)."""
    return width - right_width(width, cues) >= cues + CHART_MIN


def _size(area: QRect) -> str:
    return f"{area.width()}x{area.height()}"


def _scrolled(dock: QDockWidget) -> None:
    """A tall panel scrolls in a short dock (the compact layout's tabs)."""
    inner = dock.widget()
    if inner is None or isinstance(inner, QScrollArea):
        return
    scroll = QScrollArea()
    scroll.setObjectName(f"scroll_{dock.objectName()}")
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(inner)
    dock.setWidget(scroll)
