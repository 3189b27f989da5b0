"""One registry of the console's operations and their keys, shown by the F1 help sheet.

Every operation is a ``QAction`` on the main window with a window-wide shortcut, so it works while the
entry line has focus (the entry gives up the keys the registry owns, Ctrl+Z included, instead of
using them for its own text editing). Later docks add theirs the same way::

    window.hotkeys.add("graphics.take", "TAKE 上节目", "F12", take, group="图形 Graphics",
                       menu=window.menu("graphics"))

An operation may instead own a plain key only while the entry line is empty (``entry_empty=True``:
Space for GO), since the entry needs every printable key for typing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt
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


def tr(text: str) -> str:
    """Module-level strings: lupdate files a bare ``tr("…")`` under the empty context."""
    return QCoreApplication.translate("", text)


# a {field} of a hotkey's text: shown as it is (a number), or (context, source) translated
Arg = str | int | tuple[str, str]


@dataclass
class Hotkey:
    id: str
    text: str  # untranslated source text (Chinese); shown through tr()
    keys: tuple[str, ...]  # portable key sequences ("Ctrl+Z")
    group: str
    action: QAction
    entry_empty: bool = False
    context: str = "Hotkeys"  # the tr() context of ``text`` and ``group``
    args: Mapping[str, Arg] = field(default_factory=dict)  # ``text``'s {fields}

    def label(self) -> str:
        return translated(self.context, self.text, self.args)


def translated(context: str, text: str, args: Mapping[str, Arg] | None = None) -> str:
    """``text`` (a source string marked with QT_TRANSLATE_NOOP) in the UI language, its {fields}
    filled from ``args``; a field given as ``(context, source)`` is translated too (a graphic's name)."""
    out = QCoreApplication.translate(context, text)
    if not args:
        return out
    values = {
        k: QCoreApplication.translate(v[0], v[1]) if isinstance(v, tuple) else str(v) for k, v in args.items()
    }
    return out.format(**values)


# keys the entry line handles itself (listed on the help sheet, not registered as shortcuts)
ENTRY_KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", QT_TRANSLATE_NOOP("Hotkeys", "记录所打的一手（或所选的提示）")),
    ("↑ ↓", QT_TRANSLATE_NOOP("Hotkeys", "在提示列表中选择")),
    ("Tab", QT_TRANSLATE_NOOP("Hotkeys", "把所选提示填入输入行")),
    ("Esc", QT_TRANSLATE_NOOP("Hotkeys", "清空输入行")),
    ("p / 过", QT_TRANSLATE_NOOP("Hotkeys", "过牌 pass（再按回车）")),
    ("y / 让", QT_TRANSLATE_NOOP("Hotkeys", "让牌 yield（再按回车）")),
    ("3 TTTTT", QT_TRANSLATE_NOOP("Hotkeys", "指明座位：烧牌或其他不在轮次的出牌")),
)


class HotkeyRegistry(QObject):
    """The window's operations with their keys (see the module doc)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._keys: dict[str, Hotkey] = {}

    def add(
        self,
        id_: str,
        text: str,
        keys: str | tuple[str, ...],
        slot: Callable[[], object],
        *,
        group: str,
        menu: QMenu | None = None,
        entry_empty: bool = False,
        context: str = "Hotkeys",
        args: Mapping[str, Arg] | None = None,
    ) -> QAction:
        """Register an operation. ``text``/``group`` are source (Chinese) strings marked with
        ``QT_TRANSLATE_NOOP(context, …)`` so that lupdate files them, translated with ``context``;
        ``text`` may hold {fields} filled from ``args`` (see :func:`translated`); ``keys`` one or
        more portable sequences; ``slot`` is called with no argument."""
        if id_ in self._keys:
            raise ValueError(f"hotkey {id_!r} registered twice")
        seqs = (keys,) if isinstance(keys, str) else tuple(keys)
        for other in self._keys.values():
            clash = set(other.keys) & set(seqs)
            if clash:
                raise ValueError(f"{id_}: key {', '.join(clash)} already belongs to {other.id}")
        hotkey = Hotkey(id_, text, (), group, QAction(self._window), entry_empty, context, dict(args or {}))
        action = hotkey.action
        action.setText(hotkey.label())
        action.setObjectName(id_)
        if not entry_empty:
            action.setShortcuts([QKeySequence(s) for s in seqs])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        self._window.addAction(action)
        if menu is not None:
            menu.addAction(action)
        hotkey.keys = seqs
        self._keys[id_] = hotkey
        return action

    def get(self, id_: str) -> Hotkey:
        return self._keys[id_]

    def all(self) -> list[Hotkey]:
        return list(self._keys.values())

    def retranslate(self) -> None:
        for h in self._keys.values():
            h.action.setText(h.label())

    # -- used by the entry line ------------------------------------------------------------------
    def owns(self, event: QKeyEvent) -> bool:
        """True if ``event`` is the key of a registered shortcut (the entry must not eat it)."""
        seq = _sequence(event)
        return any(not h.entry_empty and seq in h.keys for h in self._keys.values())

    def entry_empty_key(self, event: QKeyEvent) -> Hotkey | None:
        """The operation owning this plain key while the entry line is empty, if any."""
        seq = _sequence(event)
        for h in self._keys.values():
            if h.entry_empty and seq in h.keys and h.action.isEnabled():
                return h
        return None


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
            (k, QCoreApplication.translate("Hotkeys", t), self.tr("输入行")) for k, t in ENTRY_KEYS
        ]
        for h in registry.all():
            keys = " / ".join(
                QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in h.keys
            )
            if h.entry_empty:
                keys += self.tr("（输入行为空时）")
            rows.append((keys, h.label(), QCoreApplication.translate(h.context, h.group)))
        for r, (k, what, group) in enumerate(rows):
            self.table.insertRow(r)
            for c, text in enumerate((k, what, group)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(2)
        lay.addWidget(self.table)

    def rows(self) -> list[tuple[str, str, str]]:
        out = []
        for r in range(self.table.rowCount()):
            out.append(tuple(self.table.item(r, c).text() for c in range(3)))  # type: ignore[misc]
        return out  # type: ignore[return-value]
