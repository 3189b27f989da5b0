"""The Graphics dock: every graphic with its preview and program state at a glance, select → preview,
TAKE, CUT, clear one, panic — each with its key printed on its button (and in the F1 sheet).

A tile's border is green while the graphic is on preview, its face red while it is on program; an
arrow says what the next TAKE will do to it (↑ goes on air, ↓ comes off). Keys (window-wide, so they
work while the entry line has focus): F2–F8 and Ctrl+F2–F4 put a graphic on preview or take it off,
the same key with Shift clears it from program and preview, F12 TAKE, F11 CUT, Shift+Esc (or Pause)
clears program at once.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from broadcast.console import keys, names
from broadcast.console.docks.onair import OnAir
from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, tr

CTX = "GraphicsDock"
TITLE = QT_TRANSLATE_NOOP("GraphicsDock", "图形 GRAPHICS  PVW → TAKE → PGM")
BIG = {  # the big buttons: source text, operation id, colour
    "take": (QT_TRANSLATE_NOOP("GraphicsDock", "TAKE 上节目"), "graphics.take", "#1f5f3a"),
    "cut": (QT_TRANSLATE_NOOP("GraphicsDock", "CUT 立即切"), "graphics.cut", "#2d3f63"),
    "panic": (QT_TRANSLATE_NOOP("GraphicsDock", "清屏 PANIC"), "graphics.panic", "#8a1f1f"),
}
PVW = "#35c46a"
PGM = "#e0483e"
PGM_FACE = "#5a1c1c"
WIDE_ROWS = 900  # px: a graphics panel this wide (a laptop's compact tab) lays its tiles out in two rows


class GraphicTile(QAbstractButton):
    """One graphic: its name and key; green border on preview, red face on program, TAKE's arrow."""

    def __init__(self, graphic: str, onair: OnAir, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.graphic = graphic
        self.onair = onair
        self.pvw = False
        self.pgm = False
        self.item = ""
        self.setObjectName(f"tile_{graphic}")
        self.setCheckable(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMinimumSize(100, 56)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.retranslate()

    def retranslate(self) -> None:
        self.setToolTip(
            tr("{name}：{key} 放到预览/撤下预览；{clear} 清除（节目和预览）").format(
                name=names.say(names.graphic(self.graphic)),
                key=self.key,
                clear=self.onair.key(f"graphics.clear.{self.graphic}"),
            )
        )
        self.update()

    @property
    def key(self) -> str:
        """The key that puts this graphic on preview, as it is now (the operator may rebind it)."""
        return self.onair.key(f"graphics.preview.{self.graphic}")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(120, 56)

    def set_state(self, pvw: bool, pgm: bool, item: str) -> None:
        if (pvw, pgm, item) != (self.pvw, self.pgm, self.item):
            self.pvw, self.pgm, self.item = pvw, pgm, item
            self.update()

    @property
    def take_will(self) -> str:
        """What the next TAKE does to this graphic: "on", "off" or ""."""
        if self.pvw and not self.pgm:
            return "on"
        if self.pgm and not self.pvw:
            return "off"
        return ""

    def _texts(self) -> list[tuple[str, QRectF, QFont, str, int]]:
        """What the tile says and where: the name (top left, as large as fits), what the next TAKE does
        to it (top right), PVW/PGM (bottom left) and its key (bottom right): (text, rect, font,
        colour, alignment). No two share a place."""
        inner = QRectF(self.rect()).adjusted(10, 5, -10, -5)
        top, bottom = int(Qt.AlignmentFlag.AlignTop), int(Qt.AlignmentFlag.AlignBottom)
        left, right = int(Qt.AlignmentFlag.AlignLeft), int(Qt.AlignmentFlag.AlignRight)
        small = theme.font(theme.SIZE_BASE - 2, bold=True)
        low = QFontMetricsF(small).lineSpacing()  # the bottom line: PVW/PGM and the key
        half = inner.height() - low
        out: list[tuple[str, QRectF, QFont, str, int]] = []
        will = self.take_will
        arrow_w = 0.0
        if will:
            arrow = "↑" + tr("上") if will == "on" else "↓" + tr("下")
            f = theme.font(theme.SIZE_BASE, bold=True)
            arrow_w = QFontMetricsF(f).horizontalAdvance(arrow) + 6
            out.append(
                (
                    arrow,
                    QRectF(inner.right() - arrow_w, inner.top(), arrow_w, half),
                    f,
                    theme.ACCENT,
                    right | top,
                )
            )
        name = names.say(names.graphic(self.graphic))
        name_rect = QRectF(inner.left(), inner.top(), inner.width() - arrow_w, half)
        f = theme.font(theme.SIZE_BASE + 3, bold=True)
        for px in range(theme.SIZE_BASE + 3, 10, -1):  # shrink a long name to the tile, never cut it
            f = theme.font(px, bold=True)
            fm = QFontMetricsF(f)
            if fm.horizontalAdvance(name) <= name_rect.width() and fm.height() <= name_rect.height():
                break
        out.append((name, name_rect, f, theme.TEXT, left | top))
        key_w = QFontMetricsF(small).horizontalAdvance(self.key) + 2
        lower = QRectF(inner.left(), inner.top() + half, inner.width(), low)
        out.append(
            (
                self.key,
                QRectF(lower.right() - key_w, lower.top(), key_w, low),
                small,
                theme.MUTED,
                right | bottom,
            )
        )
        x = lower.left()
        for text, colour, on in (("PVW", PVW, self.pvw), ("PGM", "#ff8a80", self.pgm)):
            if on:
                w = QFontMetricsF(small).horizontalAdvance(text) + 6
                out.append((text, QRectF(x, lower.top(), w, low), small, colour, left | bottom))
                x += w
        return out

    def painted_texts(self) -> list[tuple[str, QRectF, QFont]]:
        """For the clipped-text audit: every text the tile paints, with its rectangle and font."""
        return [(text, rect, font) for text, rect, font, _c, _a in self._texts()]

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        face = QColor(PGM_FACE if self.pgm else theme.PANEL_2)
        if self.isDown():
            face = face.lighter(130)
        p.setBrush(face)
        p.setPen(QPen(QColor(PVW if self.pvw else (PGM if self.pgm else theme.BORDER)), 3 if self.pvw else 1))
        p.drawRoundedRect(r, 6, 6)
        for text, rect, font, colour, align in self._texts():
            p.setFont(font)
            p.setPen(QColor(colour))
            p.drawText(rect, align, text)
        p.end()


class GraphicsPanel(QWidget):
    def __init__(self, onair: OnAir, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.onair = onair
        self.console = onair.console
        self.setObjectName("graphicsPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 6, 8, 8)
        lay.setSpacing(6)
        self.legend = QLabel()
        self.legend.setObjectName("muted")
        lay.addWidget(self.legend)
        self.grid = QGridLayout()
        self.grid.setSpacing(6)
        self.tiles: dict[str, GraphicTile] = {}
        for g in keys.graphics_in_order():
            tile = GraphicTile(g, onair)
            tile.clicked.connect(lambda _c=False, g=g: self.toggle(g))
            tile.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            tile.customContextMenuRequested.connect(lambda _pos, g=g: self.clear(g))
            self.tiles[g] = tile
        self.columns = 0
        self._arrange(5)
        lay.addLayout(self.grid)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.take_button = self._big("take")
        self.cut_button = self._big("cut")
        self.panic_button = self._big("panic")
        for b in (self.take_button, self.cut_button, self.panic_button):
            row.addWidget(b)
        lay.addLayout(row)
        self.message = QLabel()
        self.message.setObjectName("verdict")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        lay.addWidget(self.message)
        lay.addStretch(1)
        self._seen: Any = None
        self.console.stateChanged.connect(self.refresh)
        onair.refused.connect(self._refused)
        onair.done.connect(lambda *_: self.message.hide())
        self.refresh()

    def _arrange(self, columns: int) -> None:
        """The tiles in rows of ``columns``, in the key table's order."""
        if columns == self.columns:
            return
        self.columns = columns
        for n, tile in enumerate(self.tiles.values()):
            self.grid.addWidget(tile, n // columns, n % columns)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        """Five tiles a row in the right-hand column; in a panel as wide as a laptop's screen (the compact
        layout's tab) the tiles take two rows, so TAKE, CUT and 清屏 stay in view under them in the
        tab's height (three rows left them cut off at its bottom edge at 1366×768)."""
        super().resizeEvent(event)
        self._arrange(5 if event.size().width() < WIDE_ROWS else -(-len(self.tiles) // 2))

    def _big(self, name: str) -> QPushButton:
        _text, _key, colour = BIG[name]
        b = QPushButton()
        b.setObjectName(f"{name}Button")
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.setMinimumHeight(40)
        f = theme.font(theme.SIZE_BASE + 3, bold=True)
        b.setFont(f)
        b.setStyleSheet(
            f"QPushButton#{name}Button {{ background: {colour}; border: 1px solid {theme.BORDER};"
            " border-radius: 6px; }"
        )
        b.clicked.connect(lambda _c=False: self.onair.run(name))
        return b

    # -- operations ----------------------------------------------------------------------------
    def toggle(self, graphic: str) -> None:
        self.onair.run("preview", graphic=graphic)

    def clear(self, graphic: str) -> None:
        self.onair.run("clear", graphic=graphic)

    def take(self) -> None:
        self.onair.run("take")

    def cut(self) -> None:
        self.onair.run("cut")

    def panic(self) -> None:
        self.onair.run("panic")

    def _refused(self, name: str, zh: str, en: str) -> None:
        if name in ("take", "cut", "panic", "preview", "clear"):
            self.message.setText(f"✕ {zh}\n{en}")
            self.message.show()

    # -- view -----------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        g = self.console.state["graphics"]
        if g is self._seen and not force:  # an action that did not touch the graphics
            return
        self._seen = g
        if force or not self.take_button.text():  # first time, or the UI language changed
            for name, b in (
                ("take", self.take_button),
                ("cut", self.cut_button),
                ("panic", self.panic_button),
            ):
                text, id_, _colour = BIG[name]
                b.setText(f"{QCoreApplication.translate(CTX, text)}  {self.onair.key(id_)}")
            for tile in self.tiles.values():
                tile.retranslate()
        for name, tile in self.tiles.items():
            tile.set_state(
                bool(g["preview"][name]["on"]), bool(g["program"][name]["on"]), g["program"][name]["item"]
            )
        changes = [t for t in self.tiles.values() if t.take_will]
        if changes:
            parts = [
                ("↑" if t.take_will == "on" else "↓") + names.say(names.graphic(t.graphic)) for t in changes
            ]
            self.legend.setText(tr("TAKE 将：{what}").format(what="  ".join(parts)))
        else:
            self.legend.setText(tr("预览与节目相同 · 绿框=预览 PVW，红底=节目 PGM"))


def register(window: Any, onair: OnAir) -> GraphicsPanel:
    """The Graphics dock and its keys (bound by id: :mod:`broadcast.console.keys`), on the 图形 menu."""
    panel = GraphicsPanel(onair)
    bind = window.hotkeys.bind
    bind("graphics.take", panel.take)
    bind("graphics.cut", panel.cut)
    bind("graphics.panic", panel.panic)
    menu = window.menu("graphics")
    menu.addSeparator()
    for g in keys.graphics_in_order():
        bind(f"graphics.preview.{g}", lambda g=g: panel.toggle(g))
    menu.addSeparator()
    for g in keys.graphics_in_order():
        bind(f"graphics.clear.{g}", lambda g=g: panel.clear(g))
    window.add_dock("graphics", TITLE, panel, Qt.DockWidgetArea.RightDockWidgetArea, CTX)
    return panel
