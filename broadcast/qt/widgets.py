"""Small widgets both windows use.

:class:`ElidedLabel` shows show data (a player's name, a cue's text) on one line: whole when it fits,
else cut with "…" and the whole text in its tooltip — the one way the studio's windows cut a text (the
clipped-text audit allows it only where the widget says so: ``property("elides")``).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


def set_props(w: QWidget, **props: object) -> None:
    """Set dynamic properties the style sheet selects on, and re-polish ``w`` only if one changed: a
    polish matches every rule of the style sheet again (the producer's check marks every field after
    each keystroke, nearly always as it was)."""
    changed = False
    for k, v in props.items():
        if w.property(k) != v:
            w.setProperty(k, v)
            changed = True
    if changed:
        w.style().unpolish(w)
        w.style().polish(w)


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self._tip = ""
        self.setProperty("elides", True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.set_full_text(text)

    def set_full_text(self, text: str, tooltip: str = "") -> None:
        """Show ``text`` (cut to the width with "…" if it does not fit; ``tooltip`` or the whole text
        is then the tooltip)."""
        self._full, self._tip = text, tooltip
        self._fit()

    def full_text(self) -> str:
        """The whole text, however much of it shows."""
        return self._full

    def _fit(self) -> None:
        width = self.contentsRect().width() - 2 * self.margin()
        shown = QFontMetrics(self.font()).elidedText(self._full, Qt.TextElideMode.ElideRight, max(0, width))
        super().setText(shown)
        self.setToolTip(self._tip or (self._full if shown != self._full else ""))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: object) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)  # type: ignore[arg-type]
        self._fit()  # a new font (the style sheet) changes what fits

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance("…") * 3, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(self._full) + 2 * self.margin() + 2, super().sizeHint().height())


def widen_combos(root: QWidget) -> None:
    """Every non-editable combo box under ``root`` at least as wide as its longest item needs: the style
    sheet's padding is not in a combo box's size hint, which cut the last character off a title as long
    as 《够级大明星》第一季 in the new-match dialog."""
    from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox

    for box in root.findChildren(QComboBox):
        if box.isEditable() or box.count() == 0:
            continue
        fm = QFontMetrics(box.font())
        need = max(fm.horizontalAdvance(box.itemText(i)) for i in range(box.count()))
        opt = QStyleOptionComboBox()
        box.initStyleOption(opt)
        field = box.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, box
        )
        short = need + 2 - field.width()
        if short > 0:
            box.setMinimumWidth(box.width() + short)
