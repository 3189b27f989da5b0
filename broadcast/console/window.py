"""The console's main window: the record and entry in the middle, the table in a dock, menus, hotkeys.

Other parts of the console add their docks and keys through :meth:`MainWindow.add_dock` and
``window.hotkeys`` (see :mod:`broadcast.console.hotkeys`) before :meth:`MainWindow.restore_layout`
puts the operator's saved layout back (QSettings, as OBS keeps its docks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QCoreApplication, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QScrollArea, QWidget

from broadcast.console import dialogs, i18n
from broadcast.console.controller import Console, verdict_of
from broadcast.console.hotkeys import HelpSheet, HotkeyRegistry
from broadcast.console.widgets import EntryPanel, TablePanel

LAYOUT_VERSION = 1


def tr(text: str) -> str:
    """Module-level strings: lupdate files a bare ``tr("…")`` under the empty context."""
    return QCoreApplication.translate("", text)


def small_screen() -> bool:
    """A screen too small for every dock side by side (a 1366×768 laptop)."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return False
    g = screen.availableGeometry()
    return g.width() < 1700 or g.height() < 950


class MainWindow(QMainWindow):
    def __init__(self, console: Console, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = console
        self.settings = settings
        self.setObjectName("consoleWindow")
        self.setDockNestingEnabled(True)
        # docks snap to their new size at once: an animated re-layout (Qt's default) repaints the
        # window for every animation step each time a dock's contents change size — after every
        # decision — and that painting competes with the on-air path for the interpreter
        self.setAnimated(False)
        self.hotkeys = HotkeyRegistry(self)
        self._menus: dict[str, tuple[QMenu, str]] = {}
        self._docks: dict[str, tuple[QDockWidget, str, str]] = {}
        self._retranslators: list[Callable[[], None]] = []
        self.dialog: Any = None  # the dialog opened last (tests and automation find it here)
        self.compact = False  # the laptop layout (compact_layout)
        for key, title in (
            ("match", QT_TRANSLATE_NOOP("MainWindow", "比赛(&M)")),
            ("edit", QT_TRANSLATE_NOOP("MainWindow", "编辑(&E)")),
            ("view", QT_TRANSLATE_NOOP("MainWindow", "视图(&V)")),
            ("help", QT_TRANSLATE_NOOP("MainWindow", "帮助(&H)")),
        ):
            self.menu(key, title)
        self.panel = EntryPanel(console, self.hotkeys)
        self.setCentralWidget(self.panel)
        self.table = TablePanel(console)
        self.add_dock(
            "table",
            QT_TRANSLATE_NOOP("MainWindow", "牌桌 TABLE"),
            self.table,
            Qt.DockWidgetArea.LeftDockWidgetArea,
        )
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
        if small_screen():  # one-line seat cards, three suggestions: whatever layout was saved
            self.table.set_compact(True)
            self.panel.set_compact(True)
            if not restored:
                self.compact_layout()

    def compact_layout(self) -> None:
        """For a laptop screen (below 1700×950): the table and the record side by side, every other
        dock in one row of tabs underneath (their keys work whichever tab is in front)."""
        self.compact = True
        self.table.set_compact(True)
        self.panel.set_compact(True)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.BottomDockWidgetArea)
        others = [dock for key, (dock, _t, _c) in self._docks.items() if key != "table"]
        for dock in others:
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
            inner = dock.widget()
            if inner is not None and not isinstance(inner, QScrollArea):  # tall panels scroll here
                scroll = QScrollArea()
                scroll.setObjectName(f"scroll_{dock.objectName()}")
                scroll.setWidgetResizable(True)
                scroll.setFrameShape(QScrollArea.Shape.NoFrame)
                scroll.setWidget(inner)
                dock.setWidget(scroll)
        for dock in others[1:]:
            self.tabifyDockWidget(others[0], dock)
        if others:  # the cue list in front: its rows read well in a short dock; every key still works
            front = self._docks["cues"][0] if "cues" in self._docks else others[0]
            QTimer.singleShot(0, front.raise_)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self.focus_entry)  # the entry line has the focus from the start
        if getattr(self, "_default_sizes", False):
            self._default_sizes = False
            QTimer.singleShot(0, self.default_sizes)

    def default_sizes(self) -> None:
        """The default proportions: the table takes about 45 % of the width (40 % beside the other
        docks on a laptop screen, which then take the lower third)."""
        if self.compact:
            self.resizeDocks([self.dock("table")], [self.width() * 48 // 100], Qt.Orientation.Horizontal)
            others = [d for k, (d, _t, _c) in self._docks.items() if k != "table"]
            if others:  # the cue list in front shows several rows (header, GO, 5–6 cues)
                self.resizeDocks([others[0]], [self.height() * 42 // 100], Qt.Orientation.Vertical)
            return
        self.resizeDocks([self.dock("table")], [self.width() * 45 // 100], Qt.Orientation.Horizontal)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState(LAYOUT_VERSION))
        self.settings.sync()

    # -- keys ------------------------------------------------------------------------------------------
    def _add_core_hotkeys(self) -> None:
        hk = self.hotkeys
        match, edit, view, help_ = self.menu("match"), self.menu("edit"), self.menu("view"), self.menu("help")
        g_match = QT_TRANSLATE_NOOP("MainWindow", "比赛 Match")
        g_edit = QT_TRANSLATE_NOOP("MainWindow", "编辑 Edit")
        g_view = QT_TRANSLATE_NOOP("MainWindow", "视图 View")
        ctx = "MainWindow"
        for id_, text, keys, slot, group, menu in (
            (
                "match.new",
                QT_TRANSLATE_NOOP("MainWindow", "新比赛（从赛季选队、排座）"),
                "Ctrl+N",
                self.new_match,
                g_match,
                match,
            ),
            (
                "match.hands",
                QT_TRANSLATE_NOOP("MainWindow", "录入手牌（发牌时）"),
                "Ctrl+H",
                self.enter_hands,
                g_match,
                match,
            ),
            (
                "match.penalty",
                QT_TRANSLATE_NOOP("MainWindow", "裁判罚分 −2（写明原因）"),
                "Ctrl+P",
                self.penalty,
                g_match,
                match,
            ),
            (
                "match.save",
                QT_TRANSLATE_NOOP("MainWindow", "存入赛季（本局 / 比赛结果）"),
                "Ctrl+S",
                self.save,
                g_match,
                match,
            ),
            (
                "match.late",
                QT_TRANSLATE_NOOP("MainWindow", "选手迟到"),
                "Ctrl+Shift+L",
                self.late,
                g_match,
                match,
            ),
            (
                "match.forfeit",
                QT_TRANSLATE_NOOP("MainWindow", "弃权"),
                "Ctrl+Shift+F",
                self.forfeit,
                g_match,
                match,
            ),
            (
                "match.lots",
                QT_TRANSLATE_NOOP("MainWindow", "抽签（加赛后仍平）"),
                "Ctrl+Shift+D",
                self.console.draw_lots,
                g_match,
                match,
            ),
            (
                "edit.undo",
                QT_TRANSLATE_NOOP("MainWindow", "撤销上一步（写明原因）"),
                "Ctrl+Z",
                self.undo,
                g_edit,
                edit,
            ),
            (
                "edit.redo",
                QT_TRANSLATE_NOOP("MainWindow", "重做撤销的一步"),
                ("Ctrl+Shift+Z", "Ctrl+Y"),
                self.redo,
                g_edit,
                edit,
            ),
            (
                "edit.correct",
                QT_TRANSLATE_NOOP("MainWindow", "更正所选的一步"),
                "Ctrl+E",
                lambda: self.correct("correct"),
                g_edit,
                edit,
            ),
            (
                "edit.insert",
                QT_TRANSLATE_NOOP("MainWindow", "在所选的一步前插入漏录的一步"),
                "Ctrl+I",
                lambda: self.correct("insert"),
                g_edit,
                edit,
            ),
            (
                "edit.delete",
                QT_TRANSLATE_NOOP("MainWindow", "删除所选的一步（多录）"),
                "Ctrl+D",
                lambda: self.correct("delete"),
                g_edit,
                edit,
            ),
            (
                "edit.history",
                QT_TRANSLATE_NOOP("MainWindow", "更正记录"),
                "Ctrl+Shift+H",
                self.history,
                g_edit,
                edit,
            ),
            (
                "record.up",
                QT_TRANSLATE_NOOP("MainWindow", "牌谱中选上一步"),
                "Alt+Up",
                lambda: self.select_move(-1),
                g_edit,
                None,
            ),
            (
                "record.down",
                QT_TRANSLATE_NOOP("MainWindow", "牌谱中选下一步"),
                "Alt+Down",
                lambda: self.select_move(1),
                g_edit,
                None,
            ),
            (
                "view.entry",
                QT_TRANSLATE_NOOP("MainWindow", "回到输入行"),
                "Ctrl+L",
                self.panel.entry.setFocus,
                g_view,
                None,
            ),
        ):
            hk.add(id_, text, keys, slot, group=group, menu=menu, context=ctx)
        view.addSeparator()
        for lang, label in (("zh_CN", "中文界面 Chinese UI"), ("en", "English UI 英文界面")):
            action = view.addAction(label)
            action.triggered.connect(lambda _c=False, lang=lang: self.set_language(lang))
        view.addAction(tr("恢复默认布局")).triggered.connect(self.reset_layout)
        hk.add(
            "help.keys",
            QT_TRANSLATE_NOOP("MainWindow", "快捷键一览"),
            "F1",
            self.show_help,
            group=QT_TRANSLATE_NOOP("MainWindow", "帮助 Help"),
            menu=help_,
            context=ctx,
        )

    def focus_entry(self) -> None:
        """Back to the entry line (after a dialog): the window active again, so its keys work."""
        self.activateWindow()
        self.panel.entry.setFocus()

    def show_help(self) -> HelpSheet:
        sheet = HelpSheet(self.hotkeys, self)
        sheet.show()
        self.dialog = sheet
        return sheet

    # -- operations (each asks the store through the controller) ------------------------------------------
    def _open(self, dialog: Any, on_accept: Callable[[], None]) -> Any:
        self.dialog = dialog
        dialog.finished.connect(lambda _r: self.focus_entry())
        return dialogs.run(dialog, on_accept)

    def _refused(self, exc: Any) -> None:
        self.console.rejected.emit(verdict_of(exc))

    def undo(self) -> None:
        record = self.console.state["game"]["record"]
        if not record:
            self.statusBar().showMessage(tr("本局还没有出牌，无法撤销"), 5000)
            return
        d = dialogs.ReasonDialog(
            self,
            tr("撤销第{n}步").format(n=len(record)),
            tr("撤销：{line}").format(line=record[-1]),
            dialogs.UNDO_REASONS,
        )
        self._open(d, lambda: self.console.act("game.undo", {"reason": d.value()}, on_refused=self._refused))

    def redo(self) -> None:
        redo = self.console.state["game"]["redo"]
        if not redo:
            self.statusBar().showMessage(tr("没有可以重做的一步"), 5000)
            return
        d = dialogs.ReasonDialog(self, tr("重做"), tr("重做：{line}").format(line=redo[-1]), ("撤销错了",))
        self._open(d, lambda: self.console.act("game.redo", {"reason": d.value()}, on_refused=self._refused))

    def selected_move(self) -> int:
        """The record row the operator selected (1-based), else the last decision."""
        rows = self.panel.record.selectionModel().selectedRows()
        n = len(self.console.state["game"]["record"])
        if rows and rows[0].row() < n:
            return rows[0].row() + 1
        return n

    def select_move(self, step: int) -> None:
        n = len(self.console.state["game"]["record"])
        if not n:
            return
        rows = self.panel.record.selectionModel().selectedRows()
        cur = rows[0].row() if rows else n
        row = max(0, min(n - 1, cur + step))
        self.panel.record.selectRow(row)
        self.panel.record.scrollTo(self.panel.record_model.index(row, 0))
        self.panel.entry.setFocus()

    def correct(self, mode: str) -> None:
        record = self.console.state["game"]["record"]
        number = self.selected_move()
        if not number and mode != "insert":
            self.statusBar().showMessage(tr("本局还没有出牌"), 5000)
            return
        number = max(1, number)
        before = self.console.game.copy() if self.console.game is not None else None
        if before is not None:
            while len(before.moves) > number - 1:
                before.pop()
        old = record[number - 1] if number <= len(record) else ""
        d = dialogs.CorrectionDialog(self, number, old, before, mode)
        self._open(d, lambda: self.console.act("game.correct", d.payload(), on_refused=self._refused))

    def history(self) -> None:
        self._open(dialogs.HistoryDialog(self, self.console.state["game"]["history"]), lambda: None)

    def _teams(self) -> dict[str, str]:
        teams = self.console.state["table"]["teams"]
        return {
            k: teams[k]["name"] or (tr("单号队") if k == "odd" else tr("双号队")) for k in ("odd", "even")
        }

    def _names(self) -> dict[int, str]:
        return {s["seat"]: s["name"] for s in self.console.state["table"]["seats"]}

    def penalty(self) -> None:
        d = dialogs.PenaltyDialog(self, self._teams())
        self._open(d, lambda: self.console.act("match.penalty", d.payload(), on_refused=self._refused))

    def forfeit(self) -> None:
        d = dialogs.ForfeitDialog(self, self._teams())
        self._open(d, lambda: self.console.act("match.forfeit", d.payload(), on_refused=self._refused))

    def late(self) -> None:
        d = dialogs.LateDialog(self, self._names())
        self._open(d, lambda: self.console.act("match.late", d.payload(), on_refused=self._refused))

    def enter_hands(self) -> None:
        g = self.console.state["game"]
        if g["leader"] is None:
            self.statusBar().showMessage(tr("先开局（输入上班座位）再录手牌"), 5000)
            return
        dealt = {s: (g["counts"][s - 1] if g["counts"] else 36) for s in range(1, 7)}
        d = dialogs.HandsDialog(self, self._names(), list(g["hands"]), dealt)
        self._open(
            d,
            lambda: self.console.act(
                "game.hands", {"hands": d.hands(), "reason": tr("发牌")}, on_refused=self._refused
            ),
        )

    def save(self) -> None:
        mode = self.console.mode().name
        if mode == "finish":
            self.console.finish_match()
        elif mode == "save":
            self.console.save_game()
        elif not self.console.state["match"]["season"]:
            self.statusBar().showMessage(tr("这场比赛没有关联赛季（Ctrl+N 从赛季新建比赛）"), 8000)
        else:
            self.statusBar().showMessage(tr("没有要存的：本局还没结束，或已存入赛季"), 8000)

    def new_match(self) -> None:
        from broadcast.season.live import season_choices

        def show(choices: Any) -> None:
            if not choices["seasons"]:
                self.statusBar().showMessage(tr("数据库里还没有赛季（season create）"), 8000)
                return
            d = dialogs.NewMatchDialog(self, choices)
            self._open(d, lambda: self.console.start_match(d.payload()))

        self.console.call(season_choices, self.console.db_path, on_done=show, on_failed=self._refused)

    # -- language ------------------------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        i18n.install(lang)
        self.settings.setValue("language", lang)
        self.retranslate()

    def retranslate(self) -> None:
        for m, title in self._menus.values():
            m.setTitle(QCoreApplication.translate("MainWindow", title))
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
        """The notice after a restart: how many journaled actions brought the show back, and where."""
        state = self.console.state
        if state["game"]["leader"] is None:
            text = tr("已从日志恢复 {n} 个操作：比赛已设好，尚未开局").format(n=n)
        else:
            text = tr("已从日志恢复 {n} 个操作：回到第{g}局第{m}步").format(
                n=n, g=state["table"]["game_no"], m=len(state["game"]["record"])
            )
        self.panel.banner.setText(text)
        self.panel.banner.setProperty("kind", "recovered")
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
