"""Qt item models over what the controller knows: the game's record and the completion list."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel

from broadcast.console.completion import Suggestion
from broadcast.console.mirror import MoveInfo
from broadcast.qt import theme

Index = QModelIndex | QPersistentModelIndex
NO_INDEX = QModelIndex()


class RecordModel(QStandardItemModel):
    """The game's record, one decision a row: number, seat and name, the move, its words, rule events.

    Its cells live in Qt (a :class:`QStandardItemModel`): the record is repainted whole after every
    decision (a row added scrolls it), and a paint asks every visible cell for half a dozen roles —
    answered in C++, not by a call into Python for each (issue 25: that halved the repaint's cost on the
    Qt thread a decision's way to the pages shares the interpreter with)."""

    COLUMNS = ("number", "seat", "move", "words", "tags")
    MoveRole = Qt.ItemDataRole.UserRole + 1
    FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    STYLE_ROLES = frozenset(
        {Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole}
    )  # set on some rows only

    def __init__(self, parent: Any = None) -> None:
        super().__init__(0, len(self.COLUMNS), parent)
        self._moves: list[MoveInfo] = []
        self._names: dict[int, str] = {}
        self._headers: tuple[str, ...] = ("#", "座位", "出牌", "说法", "")
        self.setHorizontalHeaderLabels(list(self._headers))
        self._bold = theme.font(theme.SIZE_RECORD, bold=True)
        self._warn = QBrush(QColor(theme.WARN))
        self._muted = QBrush(QColor(theme.MUTED))
        self._pending_from = 0
        self._later_from = 0
        self._later = QBrush(QColor(theme.MUTED).darker(135))  # dimmer than a pass, in italics
        self._waiting = QBrush(QColor(theme.BORDER).lighter(150))
        self._italic = QFont(theme.font(theme.SIZE_RECORD))
        self._italic.setItalic(True)

    @property
    def headers(self) -> tuple[str, ...]:
        return self._headers

    def set_headers(self, headers: tuple[str, ...]) -> None:
        self._headers = headers
        self.setHorizontalHeaderLabels(list(headers))

    def set_record(
        self,
        moves: list[MoveInfo],
        names: dict[int, str],
        pending_from: int | None = None,
        later_from: int | None = None,
    ) -> None:
        """Show ``moves``; rows from ``pending_from`` on are decisions not journaled yet (greyed, in
        italics, "waiting to be written" in their tooltip); rows from ``later_from`` on are a record's
        moves after the one the table stands at (a rehearsal stepping through it: muted, said so in
        their tooltip). Rows added at the end are inserted (one ``rowsInserted`` each), the rows that
        were pending and are written restyled; anything else resets the model."""
        later_from = len(moves) if later_from is None else later_from
        pending_from = later_from if pending_from is None else pending_from
        old = self._moves
        same_prefix = len(moves) >= len(old) and moves[: len(old)] == old
        if later_from < len(moves) or self._later_from < len(old):
            same_prefix = False  # a step through a record: every row's style may change
        self._later_from = later_from
        if same_prefix and names == self._names:
            if pending_from != self._pending_from:  # rows written meanwhile lose their grey
                first = min(pending_from, self._pending_from, len(old))
                self._pending_from = pending_from
                # restyled in place: an item made in Python and put over another with setItem stays
                # referenced by the model's wrapper after Qt deleted it — a console kept ~57,000 dead
                # items more with each game typed through --type-from (its memory and every collection
                # of the interpreter grew game by game), and making them cost ~1/3 of a decision's CPU
                for r in range(first, len(old)):  # restyled in place
                    for col, cell in enumerate(self._row(old[r])):
                        item = self.item(r, col)
                        for unset in self.STYLE_ROLES - cell.keys():
                            item.setData(None, unset)
                        for role, value in cell.items():
                            item.setData(value, role)
            self._moves = list(moves)
            for m in moves[len(old) :]:
                self.appendRow(self._items(m))
            return
        self.beginResetModel()
        self.blockSignals(True)  # the views hear one reset, not a signal a row
        try:
            self._moves, self._names, self._pending_from = list(moves), dict(names), pending_from
            self.setRowCount(0)
            for m in self._moves:
                self.appendRow(self._items(m))
        finally:
            self.blockSignals(False)
        self.endResetModel()

    def _items(self, m: MoveInfo) -> list[QStandardItem]:
        out = []
        for cell in self._row(m):
            item = QStandardItem()
            item.setFlags(self.FLAGS)
            for role, value in cell.items():
                item.setData(value, role)
            out.append(item)
        return out

    def _row(self, m: MoveInfo) -> tuple[dict[int, Any], ...]:
        roles = Qt.ItemDataRole
        display, fg, font = roles.DisplayRole, roles.ForegroundRole, roles.FontRole
        tip = f"{m.number}. {self._names.get(m.seat, str(m.seat))}  {m.line}  {m.words}  {' · '.join(m.tags)}"
        later = m.number > self._later_from
        waiting = m.number > self._pending_from and not later
        if waiting:
            tip += "\n" + QCoreApplication.translate("RecordModel", "等待写入数据库")
        elif later:
            tip += "\n" + QCoreApplication.translate(
                "RecordModel", "牌谱中后面的一步（牌桌还没走到；从前面接着打会删除它）"
            )
        texts = (
            str(m.number),
            self._names.get(m.seat, str(m.seat)),
            m.line.split(" ", 1)[1],
            m.words,
            " · ".join(m.tags),
        )
        row = []
        for col, text in enumerate(texts):
            cell: dict[int, Any] = {display: text, roles.ToolTipRole: tip, self.MoveRole: m}
            if waiting:  # not journaled yet: greyed until the store has written it
                cell[fg] = self._waiting
                cell[font] = self._italic
            elif later:  # the record goes on from here: not on the table yet
                cell[fg] = self._later
                cell[font] = self._italic
            elif col == 4:
                cell[fg] = self._warn
            elif m.kind in ("pass", "yield"):
                cell[fg] = self._muted
            if m.lead and col in (2, 3) and not waiting and not later:
                cell[font] = self._bold
            row.append(cell)
        return tuple(row)

    @property
    def moves(self) -> list[MoveInfo]:
        return list(self._moves)


class CompletionModel(QAbstractListModel):
    """The legal decisions matching the entry, best guesses first."""

    SuggestionRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._items: list[Suggestion] = []
        self._font = theme.font(theme.SIZE_RECORD)
        self._burn = QBrush(QColor(theme.WARN))

    def set_suggestions(self, items: list[Suggestion]) -> None:
        if items == self._items:
            return
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def suggestion(self, row: int) -> Suggestion | None:
        return self._items[row] if 0 <= row < len(self._items) else None

    def rowCount(self, parent: Index = NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{s.line:<12}  {s.words}"
        if role == Qt.ItemDataRole.FontRole:
            return self._font
        if role == Qt.ItemDataRole.ForegroundRole and s.burn:
            return self._burn
        if role == self.SuggestionRole:
            return s
        return None


def bold(f: QFont) -> QFont:
    g = QFont(f)
    g.setBold(True)
    return g
