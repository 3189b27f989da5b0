"""What the producer's tabs share: the window's style additions, table cells and tables, a scroll area,
the issues of a check as one line, and :class:`TabHost` (what a tab asks of the window)."""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from broadcast.producer.draft import Path_
from broadcast.producer.forms import (
    shown,
)
from broadcast.qt import i18n, theme
from broadcast.sponsors.placements import Issue


class TabHost(Protocol):
    """The producer's window as its tabs see it."""

    def slot_rows(self) -> list[tuple[Path_, str, Any]]: ...

    def open_slot(self, path: Path_) -> None: ...


def issue_message_list(issues: list[Issue]) -> str:
    """The messages of ``issues`` (no fixes) in the UI language, for a narrow column."""
    lang = i18n.current()
    return ("; " if lang == "en" else "；").join(i.message_in(lang) for i in issues)


STYLE = f"""
QLabel#fieldIssue {{ color: {theme.DANGER}; font-size: {theme.SIZE_BASE - 1}px; }}
QLabel#fieldIssue[level="warning"] {{ color: {theme.WARN}; }}
QLineEdit[invalid="true"], QComboBox[invalid="true"], QPlainTextEdit[invalid="true"] {{
    border: 2px solid {theme.DANGER}; }}
QLabel#thumb {{ background: #000; border: 1px solid {theme.BORDER}; color: {theme.MUTED}; }}
QTreeWidget, QListWidget, QTableWidget {{ background: {theme.PANEL}; border: 1px solid {theme.BORDER}; }}
QTabWidget::pane {{ border: 1px solid {theme.BORDER}; }}
QTabBar::tab {{ background: {theme.PANEL}; padding: 8px 18px; border: 1px solid {theme.BORDER}; }}
QTabBar::tab:selected {{ background: {theme.PANEL_2}; color: {theme.ACCENT}; }}
QPushButton#save {{ border: 2px solid {theme.ACCENT}; font-weight: bold; }}
QLabel#saveState[dirty="true"] {{ color: {theme.WARN}; }}
QLabel#saveState[bad="true"] {{ color: {theme.DANGER}; }}
"""
SHORT = QColor("#5a1d1d")


def cell(text: Any, data: Any = None, *, red: bool = False, editable: bool = False) -> QTableWidgetItem:
    it = QTableWidgetItem(shown(text))
    it.setToolTip(shown(text))  # a long cell (a contract list) is cut with "…": the tooltip has it whole
    if data is not None:
        it.setData(Qt.ItemDataRole.UserRole, data)
    flags = it.flags()
    it.setFlags(flags | Qt.ItemFlag.ItemIsEditable if editable else flags & ~Qt.ItemFlag.ItemIsEditable)
    if red:
        it.setBackground(QBrush(SHORT))
        it.setForeground(QBrush(QColor(theme.DANGER)))
    return it


def row_data(table: QTableWidget, row: int) -> Any:
    """What the first cell of ``row`` holds (its UserRole data), None for an empty row."""
    first = table.item(row, 0)
    return first.data(Qt.ItemDataRole.UserRole) if first is not None else None


def new_table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    t.setProperty("elidedColumns", list(range(len(headers))))  # each cell's tooltip holds its whole text
    return t


def scrolled(widget: QWidget, parent: QWidget | None = None) -> QScrollArea:
    """``widget`` in a scroll area; made a child of ``parent`` (where it is shown) before ``widget`` goes
    in, so that the widget's tree is styled once, not again when the area moves into its place."""
    area = QScrollArea(parent)
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area
