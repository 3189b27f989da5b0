"""The clipped-text audit: walk a window's whole widget tree and find every text a person would see cut
off or covered — wider (or taller) than the space its widget gives it, measured with the widget's own
font (``QFontMetrics``), as Qt would draw it.

What is measured, for every widget a person can see (shown, inside the window, not behind another tab):

* labels: each line of a plain label against its contents rectangle; a word-wrapped label's height
  for its width against its height;
* buttons (push, tool, check, radio): the text against the style's contents rectangle;
* group boxes, dock titles and tab bars: their titles against the space the style gives them;
* item views (tables, lists, trees, headers): every visible cell's text against the style's text
  rectangle of that cell (its padding and the item font included);
* combo boxes: the current text against the edit field;
* widgets that paint their own text (the table's top play, the graphics tiles) through the protocol
  ``painted_texts() -> [(text, QRectF, QFont)]``;
* covered text: two visible siblings of one layout whose rectangles overlap.

Eliding is allowed only where a widget says it elides (``setProperty("elides", True)``, or for a view
``setProperty("elidedColumns", [3, 4])``) and a tooltip holds the whole text. Each finding names the
widget by its object names from the window down, the text, the pixels needed and the pixels it had.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from PySide6 import QtGui
from PySide6.QtCore import QAbstractListModel, QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPushButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionGroupBox,
    QStyleOptionViewItem,
    QTabBar,
    QWidget,
)

SLACK = 1  # pixels of rounding forgiven


@dataclass(frozen=True)
class Finding:
    where: str
    what: str
    text: str
    need: int
    have: int

    def __str__(self) -> str:
        return f"{self.where}: {self.what} {self.text!r} needs {self.need} px, has {self.have}"


def path_of(w: QWidget, root: QWidget) -> str:
    names = []
    cur: QWidget | None = w
    while cur is not None and cur is not root:
        names.append(cur.objectName() or type(cur).__name__)
        cur = cur.parentWidget()
    return "/".join(reversed(names))


def seen(w: QWidget, root: QWidget) -> bool:
    """Shown and not hidden behind another tab or scrolled wholly out of its viewport."""
    if not w.isVisibleTo(root) or not w.isVisible():
        return False
    if w.width() <= 0 or w.height() <= 0:
        return False
    return not w.visibleRegion().isEmpty()


def plain(text: str) -> str:
    if QtGui.Qt.mightBeRichText(text):  # type: ignore[attr-defined]
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"


def unbreakable(text: str) -> list[str]:
    """The pieces a wrapped line cannot break inside: a run without spaces (a no-break space holds
    its words together) — except that a line may break between Chinese characters."""
    out: list[str] = []
    for chunk in re.split(r"[ \t\n]+", text):
        out += re.findall(f"[^{_CJK}]+|[{_CJK}]", chunk)
    return out


def _elided_ok(w: QWidget, text: str) -> bool:
    tip = w.toolTip()
    return bool(w.property("elides")) and bool(tip) and text.rstrip("…").strip() in tip


def _label(w: QLabel, root: QWidget) -> list[Finding]:
    text = w.text()
    if not text or w.pixmap() is not None and not w.pixmap().isNull():
        return []
    raw = plain(text)
    text = raw.replace("\u00a0", " ")
    cr = w.contentsRect()
    margin = w.margin()
    indent = max(0, w.indent())
    width = cr.width() - 2 * margin - indent
    height = cr.height() - 2 * margin
    fm = QFontMetrics(w.font())
    if w.wordWrap():
        need = w.heightForWidth(w.width())
        if need > w.height() + SLACK:
            return [Finding(path_of(w, root), "label (wrapped) too short", text, need, w.height())]
        # a single word wider than the line cannot wrap: it is cut
        for word in unbreakable(raw):
            if word and fm.horizontalAdvance(word) > width + SLACK and not _elided_ok(w, text):
                return [
                    Finding(
                        path_of(w, root), "word wider than label", word, fm.horizontalAdvance(word), width
                    )
                ]
        return []
    out = []
    if text.endswith("…") and not _elided_ok(w, text):
        out.append(Finding(path_of(w, root), "cut with … but no tooltip holds the rest", text, 0, width))
    lines = text.split("\n")
    for line in lines:
        need = fm.horizontalAdvance(line)
        if need > width + SLACK and not _elided_ok(w, text):
            out.append(Finding(path_of(w, root), "label too narrow", line, need, width))
    need_h = fm.height() * len(lines)
    if need_h > height + max(SLACK, fm.height() // 3):
        out.append(Finding(path_of(w, root), "label too short", text, need_h, height))
    return out


def _button(w: QAbstractButton, root: QWidget) -> list[Finding]:
    text = w.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    if not text:
        return []
    fm = QFontMetrics(w.font())
    opt = QStyleOptionButton()
    opt.initFrom(w)
    opt.text = text
    if isinstance(w, QPushButton):
        rect = w.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, opt, w)
    elif w.inherits("QCheckBox"):
        rect = w.style().subElementRect(QStyle.SubElement.SE_CheckBoxContents, opt, w)
    elif w.inherits("QRadioButton"):
        rect = w.style().subElementRect(QStyle.SubElement.SE_RadioButtonContents, opt, w)
    else:
        rect = w.contentsRect()
    out = []
    for line in text.split("\n"):
        need = fm.horizontalAdvance(line)
        if need > rect.width() + SLACK and not _elided_ok(w, text):
            out.append(Finding(path_of(w, root), "button text too wide", line, need, rect.width()))
    need_h = fm.height() * len(text.split("\n"))
    if need_h > rect.height() + SLACK + 2:
        out.append(Finding(path_of(w, root), "button text too tall", text, need_h, rect.height()))
    return out


def _group(w: QGroupBox, root: QWidget) -> list[Finding]:
    title = w.title().replace("&", "")
    if not title:
        return []
    opt = QStyleOptionGroupBox()
    w.initStyleOption(opt)
    rect = w.style().subControlRect(
        QStyle.ComplexControl.CC_GroupBox, opt, QStyle.SubControl.SC_GroupBoxLabel, w
    )
    need = QFontMetrics(w.font()).horizontalAdvance(title)
    have = w.width() - rect.left()  # the title may run the box's width
    if need > have + SLACK:
        return [Finding(path_of(w, root), "group title too wide", title, need, have)]
    return []


def _dock(w: QDockWidget, root: QWidget) -> list[Finding]:
    title = w.windowTitle()
    if not title or w.isFloating():
        return []
    bar = w.titleBarWidget()
    if bar is not None:
        return []
    fm = QFontMetrics(w.font())
    # the title area: the dock's width less the style's margins and the close/float buttons
    buttons = 2 * (w.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarButtonSize, None, w) + 4)
    have = (
        w.width() - buttons - 2 * w.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetTitleMargin, None, w)
    )
    need = fm.horizontalAdvance(title)
    if need > have + SLACK:
        return [Finding(path_of(w, root), "dock title too wide", title, need, have)]
    return []


def _tabs(w: QTabBar, root: QWidget) -> list[Finding]:
    out = []
    fm = QFontMetrics(w.font())
    for i in range(w.count()):
        text = w.tabText(i).replace("&", "")
        rect = w.tabRect(i)
        if rect.isEmpty():
            continue
        need = fm.horizontalAdvance(text)
        pad = w.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, w)
        if need + pad // 2 > rect.width() + SLACK:
            out.append(Finding(path_of(w, root), "tab title too wide", text, need, rect.width() - pad // 2))
    return out


def _view_cells(view: QAbstractItemView, root: QWidget) -> list[Finding]:
    model = view.model()
    if model is None:
        return []
    vp = view.viewport()
    elided = set(view.property("elidedColumns") or [])
    out: list[Finding] = []
    rows = model.rowCount(QModelIndex())
    cols = 1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
    for r in range(rows):
        for c in range(cols):
            idx = model.index(r, c)
            rect = view.visualRect(idx)
            if rect.isEmpty() or not vp.rect().intersects(rect):
                continue
            text = idx.data(Qt.ItemDataRole.DisplayRole)
            if text is None or str(text) == "":
                continue
            text = str(text)
            f = _finding_for_cell(view, idx, rect, text, root)
            if f is None:
                continue
            if c in elided and text in str(idx.data(Qt.ItemDataRole.ToolTipRole) or ""):
                continue
            out.append(f)
        if len(out) > 20:
            break
    return out


def _finding_for_cell(
    view: QAbstractItemView, idx: QModelIndex, rect: QRect, text: str, root: QWidget
) -> Finding | None:
    opt = QStyleOptionViewItem()
    view.initViewItemOption(opt)
    opt.rect = rect
    opt.index = idx
    opt.text = text
    opt.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
    font = idx.data(Qt.ItemDataRole.FontRole)
    if font is not None:
        opt.font = font
        opt.fontMetrics = QFontMetrics(font)
    if idx.data(Qt.ItemDataRole.DecorationRole) is not None:
        opt.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
    text_rect = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, view)
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    fm = QFontMetrics(opt.font)
    need = max(fm.horizontalAdvance(line) for line in text.split("\n")) + 2 * margin
    have = min(text_rect.right(), view.viewport().width()) - max(text_rect.left(), 0) + 1
    if need > have + SLACK:
        return Finding(
            f"{path_of(view, root)}[{idx.row()},{idx.column()}]", "cell too narrow", text, need, have
        )
    return None


def _header(h: QHeaderView, root: QWidget) -> list[Finding]:
    model = h.model()
    if model is None or not h.isVisible():
        return []
    out = []
    fm = QFontMetrics(h.font())
    for s in range(h.count()):
        if h.isSectionHidden(s):
            continue
        text = model.headerData(s, h.orientation(), Qt.ItemDataRole.DisplayRole)
        if not text:
            continue
        size = h.sectionSize(s)
        need = fm.horizontalAdvance(str(text)) + 2 * 4
        if h.orientation() == Qt.Orientation.Horizontal and need > size + SLACK:
            out.append(Finding(f"{path_of(h, root)}[{s}]", "header too narrow", str(text), need, size))
    return out


def _combo(w: QComboBox, root: QWidget) -> list[Finding]:
    text = w.currentText()
    if not text:
        return []
    fm = QFontMetrics(w.font())
    if w.isEditable() and w.lineEdit() is not None:
        have = w.lineEdit().contentsRect().width() - 4
    else:
        from PySide6.QtWidgets import QStyleOptionComboBox

        opt = QStyleOptionComboBox()
        w.initStyleOption(opt)
        have = (
            w.style()
            .subControlRect(QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, w)
            .width()
        )
    need = fm.horizontalAdvance(text)
    if need > have + SLACK and not _elided_ok(w, text):
        return [Finding(path_of(w, root), "combo text too wide", text, need, have)]
    return []


def _painted(w: Any, root: QWidget) -> list[Finding]:
    out = []
    for text, rect, font in w.painted_texts():
        fm = QFontMetrics(font)
        for line in text.split("\n"):
            need = fm.horizontalAdvance(line)
            if need > rect.width() + SLACK:
                out.append(Finding(path_of(w, root), "painted text too wide", line, need, int(rect.width())))
        need_h = fm.height() * len(text.split("\n"))
        if need_h > rect.height() + 2:
            out.append(Finding(path_of(w, root), "painted text too tall", text, need_h, int(rect.height())))
    return out


def _covered(parent: QWidget, root: QWidget) -> list[Finding]:
    """Two visible siblings laid out by one layout whose rectangles overlap: one covers the other."""
    lay = parent.layout()
    if lay is None or isinstance(parent, QMainWindow):  # docks: tabbed ones share their place
        return []
    kids = [
        lay.itemAt(i).widget()
        for i in range(lay.count())
        if lay.itemAt(i).widget() is not None and lay.itemAt(i).widget().isVisible()
    ]
    out = []
    for i, a in enumerate(kids):
        for b in kids[i + 1 :]:
            inter = a.geometry().intersected(b.geometry())
            if inter.width() > 2 and inter.height() > 2:
                out.append(
                    Finding(
                        f"{path_of(a, root)} × {b.objectName() or type(b).__name__}",
                        "covered by a sibling",
                        _text_of(a) + " / " + _text_of(b),
                        inter.width(),
                        0,
                    )
                )
    return out


def _text_of(w: QWidget) -> str:
    for attr in ("text", "title", "windowTitle"):
        fn = getattr(w, attr, None)
        if callable(fn):
            try:
                value = fn()
            except TypeError:
                continue
            if isinstance(value, str) and value:
                return value
    return ""


def audit(root: QWidget) -> list[Finding]:
    """Every clipped or covered text of ``root``'s widget tree (see the module doc)."""
    found: list[Finding] = []
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if not seen(w, root):
            continue
        if hasattr(w, "painted_texts"):
            found += _painted(w, root)
        if isinstance(w, QLabel):
            found += _label(w, root)
        elif isinstance(w, QAbstractButton) and not isinstance(w, QTabBar):
            if w.objectName() not in ("qt_dockwidget_closebutton", "qt_dockwidget_floatbutton"):
                found += _button(w, root)
        elif isinstance(w, QGroupBox):
            found += _group(w, root)
        elif isinstance(w, QTabBar):
            found += _tabs(w, root)
        elif isinstance(w, QComboBox):
            found += _combo(w, root)
        elif isinstance(w, QHeaderView):
            found += _header(w, root)
        elif isinstance(w, QAbstractItemView):
            found += _view_cells(w, root)
        if isinstance(w, QDockWidget):
            found += _dock(w, root)
        found += _covered(w, root)
    return found


def inside(window: QWidget, widget: QWidget) -> bool:
    """``widget`` is shown whole inside ``window`` (not cut off by the window's edge)."""
    top_left = widget.mapTo(window, QPoint(0, 0))
    return widget.isVisible() and window.rect().contains(QRect(top_left, widget.size()))
