"""View ▸ 快捷键设置… (Ctrl+Shift+K): the operator's own keys, with the keyboard alone.

Every operation of the key table in a list (group, operation, key now); Enter on a row (or 更改) waits
for the new key and gives it to the operation at once (menus, buttons and the F1 sheet follow). A key
another operation has, or one the entry line needs, is refused with one line naming why and the
binding stays as it was; Esc while waiting cancels. 无按键 takes the key away, 恢复默认 puts the table's
default back, 全部恢复默认 every default. Bindings are kept in the console's settings (QSettings
``keys/<id>``) by :class:`~broadcast.console.hotkeys.HotkeyRegistry`.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from broadcast.console import keys as table
from broadcast.console.hotkeys import HotkeyRegistry, native, portable


class KeyCapture(QKeySequenceEdit):
    """Waits for one key (with its modifiers); Esc alone cancels instead of being recorded."""

    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMaximumSequenceLength(1)
        self.setObjectName("keyCapture")

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.key() == Qt.Key.Key_Escape and mods == Qt.KeyboardModifier.NoModifier:
            self.clear()
            self.cancelled.emit()
            return
        super().keyPressEvent(event)


class KeysDialog(QDialog):
    def __init__(self, registry: HotkeyRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry = registry
        self.setObjectName("keysDialog")
        self.setWindowTitle(self.tr("快捷键设置"))
        self.resize(820, 640)
        lay = QVBoxLayout(self)
        hint = QLabel(self.tr("选一行按回车，再按新的键；Esc 取消。改动立即生效并保存。"))
        hint.setWordWrap(True)
        lay.addWidget(hint)
        self.table = QTableWidget(0, 3, self)
        self.table.setObjectName("keys")
        self.table.setHorizontalHeaderLabels([self.tr("分组"), self.tr("操作"), self.tr("按键")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # the arrows go from operation to operation; Tab goes on to the buttons (a list of ~100 keys would
        # keep Tab for itself otherwise: the dialog could not be left with the keyboard alone)
        self.table.setTabKeyNavigation(False)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.activated.connect(lambda _i: self.capture())
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.capture_box = KeyCapture()
        self.capture_box.editingFinished.connect(self._captured)
        self.capture_box.cancelled.connect(self._cancelled)
        self.capture_box.setEnabled(False)
        row.addWidget(self.capture_box, 1)
        self._button(self.tr("更改…"), self.capture, row)
        self._button(self.tr("无按键"), lambda: self._set(()), row)
        self._button(self.tr("恢复默认"), self._default, row)
        self._button(self.tr("全部恢复默认"), self._all_defaults, row)
        lay.addLayout(row)
        self.message = QLabel()
        self.message.setObjectName("verdict")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setAutoDefault(False)
        lay.addWidget(buttons)
        self.ids = [a.id for a in table.ACTIONS]
        self.fill()
        self.table.selectRow(0)
        self.table.setFocus()

    def _button(self, text: str, slot: object, row: QHBoxLayout) -> QPushButton:
        b = QPushButton(text)
        b.setAutoDefault(False)
        b.clicked.connect(lambda _c=False: slot())  # type: ignore[operator]
        row.addWidget(b)
        return b

    def fill(self) -> None:
        """One row per operation of the key table, with the key it has now."""
        self.table.setRowCount(len(self.ids))
        for r, id_ in enumerate(self.ids):
            spec = table.BY_ID[id_]
            group = QCoreApplication.translate(table.CTX, table.GROUPS[spec.group])
            keys = " / ".join(native(k) for k in self.registry.keys(id_)) or "—"
            for c, text in enumerate((group, spec.label(), keys)):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, id_)
                self.table.setItem(r, c, item)
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(2)

    def current_id(self) -> str | None:
        row = self.table.currentRow()
        return self.ids[row] if 0 <= row < len(self.ids) else None

    def capture(self) -> None:
        """Wait for the new key of the selected operation."""
        if self.current_id() is None:
            return
        self.capture_box.clear()
        self.capture_box.setEnabled(True)
        self.capture_box.setFocus()
        self.message.setText(self.tr("请按新的键（Esc 取消）"))

    def _captured(self) -> None:
        seq: QKeySequence = self.capture_box.keySequence()
        if seq.isEmpty():
            return
        self._set((portable(seq),))

    def _cancelled(self) -> None:
        self._done_capturing()
        self.message.setText("")

    def _done_capturing(self) -> None:
        self.capture_box.clear()
        self.capture_box.setEnabled(False)
        self.table.setFocus()

    def _set(self, keys: tuple[str, ...]) -> None:
        id_ = self.current_id()
        if id_ is None:
            return
        self._show(self.registry.rebind(id_, keys), id_)

    def _default(self) -> None:
        id_ = self.current_id()
        if id_ is not None:
            self._show(self.registry.reset(id_), id_)

    def _all_defaults(self) -> None:
        """Every operation back to its default; those whose default another one holds are said."""
        refused = []
        for _ in range(2):  # a default freed by another's reset comes back on the second pass
            refused = [id_ for id_ in self.ids if self.registry.reset(id_)]
            if not refused:
                break
        self.fill()
        self.message.setText("" if not refused else self.tr("未能恢复：{ids}").format(ids="、".join(refused)))

    def _show(self, why: str, id_: str) -> None:
        row = self.table.currentRow()
        self._done_capturing()
        self.fill()
        self.table.selectRow(row)
        if why:
            self.message.setText("✕ " + why)
        else:
            keys = " / ".join(native(k) for k in self.registry.keys(id_)) or "—"
            self.message.setText(self.tr("{what}：{keys}").format(what=table.BY_ID[id_].label(), keys=keys))
