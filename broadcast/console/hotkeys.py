"""The window's operations bound to the keys of the key table (:mod:`broadcast.console.keys`), with the
operator's own bindings kept in QSettings (``keys/<id>``), and the F1 help sheet.

Every operation is a ``QAction`` on the main window with a window-wide shortcut, so it works while the
entry line has focus (the entry gives up the keys the registry owns, Ctrl+Z included, instead of using
them for its own text editing). The window and each dock bind their slots by id::

    window.hotkeys.bind("graphics.take", panel.take)

and print an id's key as it is now (``window.hotkeys.native("graphics.take")``). An operation may own a
plain key only while the entry line is empty (``entry_empty``: Space for GO), since the entry needs every
printable key for typing. :meth:`HotkeyRegistry.rebind` changes an operation's keys (the keys dialog,
:mod:`broadcast.console.keysdialog`): a key another operation has, or one the entry line needs, is
refused with one line saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from broadcast.console import keys as table
from broadcast.console.keys import CTX, ENTRY_KEYS, GROUPS, RESERVED, KeyAction
from broadcast.qt.i18n import tr

SETTINGS_GROUP = "keys"


@dataclass
class Hotkey:
    """An operation of the table bound to its slot: its QAction and the keys it has now."""

    spec: KeyAction
    action: QAction
    keys: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def entry_empty(self) -> bool:
        return self.spec.entry_empty

    def label(self) -> str:
        return self.spec.label()


def native(key: str) -> str:
    """A portable key sequence as the operator's keyboard names it."""
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)


def portable(seq: QKeySequence | str) -> str:
    """One key sequence in portable text ("Ctrl+Shift+Z"), whatever way it was written."""
    q = QKeySequence(seq) if isinstance(seq, str) else seq
    return q.toString(QKeySequence.SequenceFormat.PortableText)


class HotkeyRegistry(QObject):
    """The window's operations with their keys (see the module doc). ``changed(id)`` after a rebinding."""

    changed = Signal(str)

    def __init__(self, window: QWidget, settings: QSettings | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._settings = settings
        self._bound: dict[str, Hotkey] = {}
        self._keys: dict[str, tuple[str, ...]] = {a.id: a.keys for a in table.ACTIONS}
        for a in table.ACTIONS:  # the operator's own bindings, each as long as it clashes with nothing
            saved = self._saved(a)
            if saved != a.keys and not self.clash(a.id, saved):
                self._keys[a.id] = saved

    def _saved(self, spec: KeyAction) -> tuple[str, ...]:
        """The operator's keys for ``spec`` (QSettings), else its defaults."""
        if self._settings is None:
            return spec.keys
        value = self._settings.value(f"{SETTINGS_GROUP}/{spec.id}")
        if value is None:
            return spec.keys
        items = value if isinstance(value, list) else [v for v in str(value).split(",")]
        return tuple(portable(v.strip()) for v in items if str(v).strip())

    # -- binding -----------------------------------------------------------------------------------
    def bind(self, id_: str, slot: Callable[[], object], *, menu: QMenu | None = None) -> QAction:
        """The QAction of operation ``id_`` (from the key table) calling ``slot``; added to the window
        (its keys work everywhere in it) and to ``menu`` (the table's menu unless given)."""
        if id_ in self._bound:
            raise ValueError(f"hotkey {id_!r} bound twice")
        spec = table.BY_ID[id_]
        action = QAction(self._window)
        action.setObjectName(id_)
        action.triggered.connect(lambda _checked=False: slot())
        self._window.addAction(action)
        hotkey = Hotkey(spec, action, ())
        self._bound[id_] = hotkey
        self._apply(hotkey)
        if menu is None and spec.menu is not None:
            menu = self._window.menu(spec.menu)  # type: ignore[attr-defined]
        if menu is not None:
            menu.addAction(action)
        return action

    def _apply(self, h: Hotkey) -> None:
        h.keys = self._keys[h.id]
        h.action.setText(h.label())
        if h.entry_empty:
            h.action.setShortcuts([])  # the entry line triggers it (see entry_empty_key)
        else:
            h.action.setShortcuts([QKeySequence(s) for s in h.keys])
            h.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)

    def get(self, id_: str) -> Hotkey:
        return self._bound[id_]

    def all(self) -> list[Hotkey]:
        """The bound operations, in the key table's order."""
        return [self._bound[a.id] for a in table.ACTIONS if a.id in self._bound]

    def keys(self, id_: str) -> tuple[str, ...]:
        """The keys operation ``id_`` has now (the operator's, else the default)."""
        return self._keys[id_]

    def native(self, id_: str) -> str:
        """The first key of ``id_`` as the keyboard names it ("" when it has none)."""
        k = self._keys[id_]
        return native(k[0]) if k else ""

    def retranslate(self) -> None:
        for h in self._bound.values():
            h.action.setText(h.label())

    # -- the operator's bindings -----------------------------------------------------------------------
    def clash(self, id_: str, keys: tuple[str, ...]) -> str:
        """Why ``keys`` cannot be ``id_``'s (one line in the UI language), or "" when they can."""
        spec = table.BY_ID[id_]
        for key in keys:
            seq = QKeySequence(key)
            if seq.isEmpty() or seq.count() != 1:
                return tr("“{key}”不是一个按键").format(key=key)
            mods, plain = _split(portable(seq))
            if plain in RESERVED and not mods:
                return tr("{key} 留给输入行（打字、选提示、清空）").format(key=native(key))
            printable = len(plain) == 1 or plain == "Space"
            shifted_only = mods <= {"Shift"}
            if printable and shifted_only and not spec.entry_empty:
                return tr("{key} 会打进输入行：请加 Ctrl 或 Alt").format(key=native(key))
            for other in table.ACTIONS:
                if other.id != id_ and portable(key) in self._keys[other.id]:
                    return tr("{key} 已是“{other}”的键").format(key=native(key), other=other.label())
        if len(set(keys)) != len(keys):
            return tr("同一个键写了两次")
        return ""

    def rebind(self, id_: str, keys: tuple[str, ...]) -> str:
        """Give ``id_`` these keys (``()``: none), kept in QSettings; returns "" or the refusal (see
        :meth:`clash`), and nothing changes then."""
        keys = tuple(portable(k) for k in keys)
        why = self.clash(id_, keys)
        if why:
            return why
        self._keys[id_] = keys
        if self._settings is not None:
            name = f"{SETTINGS_GROUP}/{id_}"
            if keys == table.BY_ID[id_].keys:
                self._settings.remove(name)
            else:
                self._settings.setValue(name, ", ".join(keys))
            self._settings.sync()
        if id_ in self._bound:
            self._apply(self._bound[id_])
        self.changed.emit(id_)
        return ""

    def reset(self, id_: str) -> str:
        """Back to the table's default keys (refused if another operation was given one of them)."""
        return self.rebind(id_, table.BY_ID[id_].keys)

    # -- used by the entry line ------------------------------------------------------------------
    def owns(self, event: QKeyEvent) -> bool:
        """True if ``event`` is the key of a bound shortcut (the entry must not eat it)."""
        seq = _sequence(event)
        return any(not h.entry_empty and seq in h.keys for h in self._bound.values())

    def entry_empty_key(self, event: QKeyEvent) -> Hotkey | None:
        """The operation owning this plain key while the entry line is empty, if any."""
        seq = _sequence(event)
        for h in self._bound.values():
            if h.entry_empty and seq in h.keys and h.action.isEnabled():
                return h
        return None


def _split(key: str) -> tuple[set[str], str]:
    """A portable key ("Ctrl+Shift+Z", "Ctrl++") as its modifiers and its key."""
    if key.endswith("++"):
        return set(key[:-2].split("+")) - {""}, "+"
    *mods, plain = key.split("+")
    return set(mods), plain


def _sequence(event: QKeyEvent) -> str:
    combo = event.keyCombination()
    return QKeySequence(combo).toString(QKeySequence.SequenceFormat.PortableText)


class HelpSheet(QDialog):
    """F1: every key of the console (the entry's own, then the registry's by group)."""

    def __init__(self, registry: HotkeyRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpSheet")
        self.setWindowTitle(self.tr("快捷键 Keys"))
        self.resize(760, 640)
        lay = QVBoxLayout(self)
        title = QLabel(self.tr("所有按键（输入行有焦点时也有效）"))
        title.setObjectName("panelTitle")
        lay.addWidget(title)
        self.table = QTableWidget(0, 3, self)
        self.table.setObjectName("help")
        self.table.setHorizontalHeaderLabels([self.tr("按键"), self.tr("操作"), self.tr("分组")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        rows: list[tuple[str, str, str]] = [
            (k, QCoreApplication.translate(CTX, t), self.tr("输入行")) for k, t in ENTRY_KEYS
        ]
        for group in GROUPS:
            for h in registry.all():
                if h.spec.group != group:
                    continue
                keys = " / ".join(native(k) for k in h.keys) or "—"
                if h.entry_empty:
                    keys += self.tr("（输入行为空时）")
                rows.append((keys, h.label(), QCoreApplication.translate(CTX, GROUPS[group])))
        for r, (k, what, group_name) in enumerate(rows):
            self.table.insertRow(r)
            for c, text in enumerate((k, what, group_name)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(2)
        lay.addWidget(self.table)

    def rows(self) -> list[tuple[str, str, str]]:
        out: list[tuple[str, str, str]] = []
        for r in range(self.table.rowCount()):
            cells = [self.table.item(r, c) for c in range(3)]
            a, b, c = (cell.text() if cell is not None else "" for cell in cells)
            out.append((a, b, c))
        return out
