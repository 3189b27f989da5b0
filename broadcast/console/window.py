"""The console's main window: the record and entry in the middle, the table in a dock, menus, hotkeys.

Other parts of the console add their docks and keys through :meth:`MainWindow.add_dock` and
``window.hotkeys`` (see :mod:`broadcast.console.hotkeys`) before :meth:`MainWindow.restore_layout`
puts the operator's saved layout back (QSettings, as OBS keeps its docks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QWidget

from broadcast.console import i18n
from broadcast.console.controller import Console
from broadcast.console.hotkeys import HelpSheet, HotkeyRegistry
from broadcast.console.widgets import EntryPanel, TablePanel

LAYOUT_VERSION = 1


def tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


class MainWindow(QMainWindow):
    def __init__(self, console: Console, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = console
        self.settings = settings
        self.setObjectName("consoleWindow")
        self.setDockNestingEnabled(True)
        self.hotkeys = HotkeyRegistry(self)
        self._menus: dict[str, tuple[QMenu, str]] = {}
        self._docks: dict[str, tuple[QDockWidget, str, str]] = {}
        self._retranslators: list[Callable[[], None]] = []
        for key, title in (
            ("match", "比赛(&M)"),
            ("edit", "编辑(&E)"),
            ("view", "视图(&V)"),
            ("help", "帮助(&H)"),
        ):
            self.menu(key, title)
        self.panel = EntryPanel(console, self.hotkeys)
        self.setCentralWidget(self.panel)
        self.table = TablePanel(console)
        self.add_dock("table", "牌桌 TABLE", self.table, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.journal_label = QLabel()
        self.statusBar().addPermanentWidget(self.journal_label)
        self._add_core_hotkeys()
        console.stateChanged.connect(self._refresh_title)
        console.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self._refresh_title()
        self.panel.entry.setFocus()

    # -- extension points ----------------------------------------------------------------------------
    def menu(self, key: str, title: str = "", context: str = "MainWindow") -> QMenu:
        """The menu ``key`` (created with the source title ``title`` on first use)."""
        if key not in self._menus:
            m = self.menuBar().addMenu(QCoreApplication.translate(context, title or key))
            self._menus[key] = (m, title or key)
        return self._menus[key][0]

    def add_dock(
        self,
        key: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
        context: str = "MainWindow",
    ) -> QDockWidget:
        """Add a dock (object name ``dock_<key>``, kept in the saved layout) with a View-menu toggle."""
        if key in self._docks:
            raise ValueError(f"dock {key!r} added twice")
        dock = QDockWidget(QCoreApplication.translate(context, title), self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(area, dock)
        self.menu("view").addAction(dock.toggleViewAction())
        self._docks[key] = (dock, title, context)
        return dock

    def dock(self, key: str) -> QDockWidget:
        return self._docks[key][0]

    def on_retranslate(self, fn: Callable[[], None]) -> None:
        self._retranslators.append(fn)

    def restore_layout(self) -> None:
        """Put back the saved geometry and docks (call after every part has added its docks)."""
        geo = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geo, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geo))
        restored = isinstance(state, QByteArray | bytes) and self.restoreState(
            QByteArray(state), LAYOUT_VERSION
        )
        self._default_sizes = not restored

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if getattr(self, "_default_sizes", False):
            self._default_sizes = False
            QTimer.singleShot(0, self.default_sizes)

    def default_sizes(self) -> None:
        """The default proportions: the table takes about 45 % of the width."""
        self.resizeDocks([self.dock("table")], [self.width() * 45 // 100], Qt.Orientation.Horizontal)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState(LAYOUT_VERSION))
        self.settings.sync()

    # -- keys ------------------------------------------------------------------------------------------
    def _add_core_hotkeys(self) -> None:
        hk = self.hotkeys
        edit, view, help_ = self.menu("edit"), self.menu("view"), self.menu("help")
        g_edit, g_view = "编辑 Edit", "视图 View"
        hk.add(
            "edit.undo",
            "撤销上一步（写明原因）",
            "Ctrl+Z",
            self.undo,
            group=g_edit,
            menu=edit,
            context="MainWindow",
        )
        hk.add(
            "view.entry",
            "回到输入行",
            "Ctrl+L",
            self.panel.entry.setFocus,
            group=g_view,
            context="MainWindow",
        )
        view.addSeparator()
        for lang, label in (("zh_CN", "中文界面"), ("en", "English UI")):
            action = view.addAction(label)
            action.triggered.connect(lambda _c=False, lang=lang: self.set_language(lang))
        view.addAction(tr("恢复默认布局")).triggered.connect(self.reset_layout)
        hk.add(
            "help.keys",
            "快捷键一览",
            "F1",
            self.show_help,
            group="帮助 Help",
            menu=help_,
            context="MainWindow",
        )

    def show_help(self) -> HelpSheet:
        sheet = HelpSheet(self.hotkeys, self)
        sheet.show()
        return sheet

    def undo(self) -> None:
        self.console.act("game.undo", {})

    # -- language ------------------------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        i18n.install(lang)
        self.settings.setValue("language", lang)
        self.retranslate()

    def retranslate(self) -> None:
        for m, title in self._menus.values():
            m.setTitle(tr(title))
        for dock, title, context in self._docks.values():
            dock.setWindowTitle(QCoreApplication.translate(context, title))
        self.hotkeys.retranslate()
        for fn in self._retranslators:
            fn()
        self.table.refresh()
        self.panel.refresh()
        self._refresh_title()

    def reset_layout(self) -> None:
        self.settings.remove("window/state")
        for dock, _t, _c in self._docks.values():
            dock.setFloating(False)
            dock.show()
        self.default_sizes()

    def show_recovered(self, n: int) -> None:
        """The notice after a restart: how many journaled actions brought the show back."""
        text = tr(
            "已从日志恢复 {n} 个操作：回到第{g}局第{m}步 / recovered {n} actions from the journal"
        ).format(n=n, g=self.console.state["table"]["game_no"], m=len(self.console.state["game"]["record"]))
        self.panel.banner.setText(text)
        self.panel.banner.show()
        self.statusBar().showMessage(text, 30000)

    # -- misc ---------------------------------------------------------------------------------------
    def _refresh_title(self) -> None:
        state = self.console.state
        show = state["show"]
        table = state["table"]
        parts = [f"《{show['title']}》"]
        if show["episode"]:
            parts.append(show["episode"])
        parts.append(tr("第{n}局/共{m}局").format(n=table["game_no"], m=table["games_in_match"]))
        self.setWindowTitle(" · ".join(parts) + " — " + tr("导播台"))
        self.journal_label.setText(tr("日志 #{seq}").format(seq=state["meta"]["seq"]))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.save_layout()
        super().closeEvent(event)

    def later(self, ms: int, fn: Callable[[], Any]) -> None:
        QTimer.singleShot(ms, fn)
