"""The console's main window: the record and entry in the middle, the table in a dock, menus, hotkeys.

Other parts of the console add their docks and keys through :meth:`MainWindow.add_dock` and
``window.hotkeys`` (see :mod:`broadcast.console.hotkeys`) before :meth:`MainWindow.restore_layout`
puts the operator's saved layout back (QSettings, as OBS keeps its docks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QFileDialog, QLabel, QMainWindow, QMenu, QWidget

from broadcast.console import dialogs
from broadcast.console import rehearsal as rehearsal_
from broadcast.console.controller import Console, verdict_of
from broadcast.console.hotkeys import HelpSheet, HotkeyRegistry
from broadcast.console.keys import MENUS
from broadcast.console.keysdialog import KeysDialog
from broadcast.console.layout import Layout
from broadcast.console.widgets import EntryPanel, TablePanel
from broadcast.qt import i18n, theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, tr


class _SeparatorPress(QObject):
    """A press on the window itself (not on a child) is on a separator between docks: the operator
    sizes the docks, and the default proportions stop following the window's size."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.main = window

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.MouseButtonPress:
            self.main.layout_.arranged(by_hand=True)
        return False


class MainWindow(QMainWindow):
    def __init__(self, console: Console, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = console
        self.settings = settings
        self.setObjectName("consoleWindow")
        self.setDockNestingEnabled(True)
        # watched by a filter, not by an event() of this class: every repaint of the window is an event
        # to it, and Qt's C++ redraw under a Python event() held the interpreter lock the whole time —
        # the store's and the pages' threads waited for it on a decision's way to air (issue 25); with
        # no override, PySide runs the redraw with the lock released
        self._separators = _SeparatorPress(self)
        self.installEventFilter(self._separators)
        # docks snap to their new size at once: an animated re-layout (Qt's default) repaints the
        # window for every animation step each time a dock's contents change size — after every
        # decision — and that painting competes with the on-air path for the interpreter
        self.setAnimated(False)
        self.hotkeys = HotkeyRegistry(self, settings)
        self._menus: dict[str, tuple[QMenu, str]] = {}
        self._docks: dict[str, tuple[QDockWidget, str, str]] = {}
        self._retranslators: list[Callable[[], None]] = []
        self.dialog: Any = None  # the dialog opened last (tests and automation find it here)
        self.onair: Any = None  # the on-air docks (broadcast.console.docks.install)
        self.preflight: Any = None  # the pre-show check (broadcast.console.preflight.install)
        self.compact = False  # the laptop layout (see .layout)
        self.rehearsal: rehearsal_.Rehearsal | None = None  # set on a rehearsal's window (.rehearsal)
        self.rehearsals: list[MainWindow] = []  # the rehearsal windows this one opened
        # makes another console window over a store (set by broadcast.console.app.build)
        self.new_window: Callable[[Any, QSettings, MainWindow], MainWindow] | None = None
        self.layout_ = Layout(self)
        for key in ("match", "edit", "view", "help"):
            self.menu(key)
        self._docks_end = self.menu("view").addSeparator()  # the docks' toggles go above it
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
        self.db_label = QLabel()  # the database held by another program: how many operations wait
        self.db_label.setObjectName("statusDatabase")
        self.db_label.hide()
        self.statusBar().addPermanentWidget(self.db_label)
        console.databaseBusy.connect(self._database_busy)
        self._bind_core_keys()
        self.hotkeys.changed.connect(lambda _id: self.retranslate())
        console.stateChanged.connect(self._refresh_title)
        console.estimated.connect(self._refresh_journal)  # an estimate is journaled too: its number
        console.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self._refresh_title()
        self.panel.entry.setFocus()

    # -- extension points ----------------------------------------------------------------------------
    def menu(self, key: str) -> QMenu:
        """The menu ``key`` of the key table (:data:`broadcast.console.keys.MENUS`), made on first use."""
        if key not in self._menus:
            title = MENUS[key]
            m = self.menuBar().addMenu(QCoreApplication.translate("MainWindow", title))
            self._menus[key] = (m, title)
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
        self.layout_.remember(key, area)
        # the operator moving or floating a dock arranges the layout: the default sizes stop following
        dock.dockLocationChanged.connect(lambda _area: self.layout_.arranged())
        dock.topLevelChanged.connect(lambda _floating: self.layout_.arranged())
        self.menu("view").insertAction(self._docks_end, dock.toggleViewAction())
        self._docks[key] = (dock, title, context)
        return dock

    def dock(self, key: str) -> QDockWidget:
        return self._docks[key][0]

    def drop_docks(self, keys: tuple[str, ...], menus: tuple[str, ...]) -> None:
        """Take docks this window has no use for out of it (a rehearsal's on-air docks): out of the
        window, the View menu and the layout (View → Reset layout does not bring them back); the menus
        ``menus`` hidden and their operations off (their keys do nothing). Then the default layout."""
        for key in keys:
            if key not in self._docks:
                continue
            # hidden, kept in the window (its panel still follows the state and the language; taken out
            # with removeDockWidget, Python would own it and delete it under its listeners)
            dock = self._docks.pop(key)[0]
            self.menu("view").removeAction(dock.toggleViewAction())
            dock.hide()
        for h in self.hotkeys.all():
            if h.spec.menu in menus:
                h.action.setEnabled(False)
                self.removeAction(h.action)
        for key in menus:
            if key in self._menus:
                self._menus[key][0].menuAction().setVisible(False)
        self.layout_.lay_out()

    def on_retranslate(self, fn: Callable[[], None]) -> None:
        self._retranslators.append(fn)

    def restore_layout(self) -> None:
        """Put back the saved geometry and docks, fitted to this screen (:mod:`.layout`); call after
        every part has added its docks."""
        self.layout_.restore()

    @property
    def first_start(self) -> bool:
        """No saved geometry: the window opens maximised on its screen."""
        return self.layout_.first_start

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self.focus_entry)  # the entry line has the focus from the start
        self.layout_.shown()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.layout_.resized()

    def save_layout(self) -> None:
        self.layout_.save()

    # -- keys ------------------------------------------------------------------------------------------
    def _bind_core_keys(self) -> None:
        """The window's own operations, bound by id to the key table (:mod:`broadcast.console.keys`)."""
        for id_, slot in (
            ("match.new", self.new_match),
            ("match.open", self.open_record),
            ("match.hands", self.enter_hands),
            ("match.penalty", self.penalty),
            ("match.save", self.save),
            ("match.late", self.late),
            ("match.forfeit", self.forfeit),
            ("match.lots", self.console.draw_lots),
            ("edit.undo", self.undo),
            ("edit.redo", self.redo),
            ("edit.correct", lambda: self.correct("correct")),
            ("edit.insert", lambda: self.correct("insert")),
            ("edit.delete", lambda: self.correct("delete")),
            ("edit.history", self.history),
            ("edit.leader", self.correct_leader),
            ("edit.setup", self.correct_setup),
            ("edit.hands", self.enter_hands),
            ("record.up", lambda: self.select_move(-1)),
            ("record.down", lambda: self.select_move(1)),
            ("record.back", lambda: rehearsal_.step(self, "back")),
            ("record.forward", lambda: rehearsal_.step(self, "forward")),
            ("record.start", lambda: rehearsal_.step(self, "start")),
            ("record.end", lambda: rehearsal_.step(self, "end")),
            ("record.seek", lambda: rehearsal_.step(self, "selected")),
            ("view.entry", self.panel.entry.setFocus),
            ("view.lang_zh", lambda: self.set_language("zh_CN")),
            ("view.lang_en", lambda: self.set_language("en")),
            ("view.reset_layout", self.reset_layout),
            ("view.keys", self.edit_keys),
            ("help.keys", self.show_help),
        ):
            self.hotkeys.bind(id_, slot)

    def focus_entry(self) -> None:
        """Back to the entry line (after a dialog): the window active again, so its keys work."""
        self.activateWindow()
        self.panel.entry.setFocus()

    def show_help(self) -> HelpSheet:
        sheet = HelpSheet(self.hotkeys, self)
        sheet.show()
        self.dialog = sheet
        return sheet

    def edit_keys(self) -> KeysDialog:
        """View ▸ 快捷键设置…: the operator's own keys (kept in the settings; clashes refused)."""
        d = KeysDialog(self.hotkeys, self)
        self._open(d, lambda: None)
        return d

    # -- operations (each asks the store through the controller) ------------------------------------------
    def _open(self, dialog: Any, on_accept: Callable[[], object]) -> Any:
        self.dialog = dialog
        dialog.finished.connect(lambda _r: self.focus_entry())
        return dialogs.run(dialog, on_accept)

    def _refused(self, exc: Any) -> None:
        self.console.rejected.emit(verdict_of(exc))

    def _saved(self) -> bool:
        """The game on the table is saved to the season: said at once under the entry line (as the store
        would refuse it), before any dialog asks for a reason for a change that cannot be made."""
        from broadcast.core.store import ActionRefused
        from broadcast.game.record import not_saved

        try:
            not_saved(self.console.state)
        except ActionRefused as exc:
            self._refused(exc)
            return True
        return False

    def undo(self) -> None:
        """Ctrl+Z: the last decision back (one still on its way to the journal too), with the reason; or,
        where the last thing done was a correction of the hands, the set-up or the 上班 seat, that
        correction undone (a correction's undo is the store's to refuse: a season match's lineup corrected
        after its game was saved is undone in the season too)."""
        record = self.console.record()
        g = self.console.state["game"]
        last = g["history"][-1] if g["history"] else None
        if (
            last is not None
            and (
                (last["kind"] in ("hands", "setup") and last.get("before") and last.get("new_line") != "undo")
                or (last["kind"] == "leader" and not last.get("undo"))
            )
            and last["move"] == len(record)
            and not self.console.pending
        ):
            self.undo_correction(last)
            return
        if self._saved():
            return
        if not record:
            if g["leader"] is not None or any(p.kind == "leader" for p in self.console.pending):
                self.correct_leader()  # nothing played yet: what can be corrected is the 上班 seat
                return
            self.statusBar().showMessage(tr("本局还没有出牌，无法撤销"), 5000)
            return
        d = dialogs.ReasonDialog(
            self,
            tr("撤销第{n}步").format(n=len(record)),
            tr("撤销：{line}").format(line=record[-1]),
            dialogs.UNDO_REASONS,
        )
        self._open(d, lambda: self.console.undo(d.value()))

    def redo(self) -> None:
        if self._saved():
            return
        redo = self.console.state["game"]["redo"]
        if not redo:
            self.statusBar().showMessage(tr("没有可以重做的一步"), 5000)
            return
        d = dialogs.ReasonDialog(
            self, tr("重做"), tr("重做：{line}").format(line=redo[-1]), dialogs.REDO_REASONS
        )
        self._open(d, lambda: self.console.act("game.redo", {"reason": d.value()}, on_refused=self._refused))

    def selected_move(self) -> int:
        """The record row the operator selected (1-based), else the last decision."""
        rows = self.panel.record.selectionModel().selectedRows()
        n = len(self.console.state["game"]["record"])
        if rows and rows[0].row() < n:
            return rows[0].row() + 1
        return n

    def select_move(self, step: int) -> None:
        n = self.panel.record_model.rowCount()  # a rehearsal's record shows its later moves too
        if not n:
            return
        rows = self.panel.record.selectionModel().selectedRows()
        cur = rows[0].row() if rows else n
        row = max(0, min(n - 1, cur + step))
        self.panel.record.selectRow(row)
        self.panel.record.scrollTo(self.panel.record_model.index(row, 0))
        self.panel.entry.setFocus()

    def correct(self, mode: str) -> None:
        if self._saved():
            return
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

    def correct_leader(self) -> None:
        """The 上班 seat was keyed wrong: the right seat and the reason (journaled, the engine re-checks
        the record from it)."""
        g = self.console.state["game"]
        if g["leader"] is None:
            self.statusBar().showMessage(tr("还没有开局：直接输入上班座位"), 5000)
            return
        d = dialogs.LeaderDialog(self, self._names(), int(g["leader"]), len(g["record"]))
        self._open(d, lambda: self.console.act("game.leader", d.payload(), on_refused=self._refused))

    def undo_correction(self, last: dict[str, Any]) -> None:
        """Undo the correction ``last`` (the hands, the set-up or the 上班 seat, the last thing done): the
        same action with what it changed as it was, re-checked by the engine and journaled with the
        reason."""
        b = list(last.get("before", []))
        what = str(last["line"])
        if last["kind"] == "hands":
            what = tr("手牌（座位 {s}）").format(s=last["line"])
        elif last["kind"] == "leader":
            what = tr("上班座位 {a}号 → {b}号").format(a=last["line"], b=last["new_line"])
        d = dialogs.ReasonDialog(
            self, tr("撤销更正"), tr("撤销更正：{what}").format(what=what), dialogs.UNDO_CORRECTION_REASONS
        )
        payload: dict[str, Any]
        if last.get("lineup"):  # a season match's lineup: the season's correction back, from the same game
            ids = [int(v) for v in last["lineup"]]
            back = {
                "lineup": dict(zip(range(1, 7), ids[2:], strict=True)),
                "odd": ids[0],
                "even": ids[1],
                "from_game": int(last.get("from_game", 1)),
                "undo": True,
            }
            d.submit = lambda: self.console.correct_lineup(
                {**back, "reason": f"{tr('撤销更正')}：{d.value()}"}, on_done=d.journaled, on_failed=d.refused
            )
            self._open(d, lambda: None)
            return
        if last["kind"] == "leader":  # the seat given back; what the correction dropped is played again
            type_, payload = "game.leader", {"leader": int(last["line"])}
        elif last["kind"] == "hands":
            type_, payload = "game.hands", {"hands": b}
        else:
            payload = {
                "names": b[:6],
                "teams": {"odd": {"name": b[6]}, "even": {"name": b[7]}},
                "photos": b[8:14],
            }
            if len(b) > 14:
                payload["games_in_match"] = int(b[14])
            type_ = "match.update"
        d.submit = lambda: self.console.act(
            type_,
            {**payload, "undo": True, "reason": f"{tr('撤销更正')}：{d.value()}"},
            on_done=d.journaled,
            on_refused=d.refused,
        )
        self._open(d, lambda: None)

    def correct_setup(self) -> None:
        """The match's set-up keyed wrong (who sits where, a team's name, the games, the preset before
        the first decision): corrected with the reason. A season match's players and teams are the
        season's lineup: corrected by the season (:meth:`correct_lineup`)."""
        state = self.console.state
        link = state["match"]["season"]
        if link:
            self.correct_lineup(link)
            return
        table = state["table"]
        teams = {k: str(table["teams"][k]["name"]) for k in ("odd", "even")}
        started = bool(state["game"]["record"]) or bool(table["results"]) or bool(self.console.pending)
        d = dialogs.SetupDialog(
            self,
            teams,
            self.console.entered_names(),  # the names as typed: an unnamed seat's box stays empty
            games=int(table["games_in_match"]),
            rules=str(table["rules"]),
            rules_open=not started,
        )
        d.submit = lambda: self.console.act(
            "match.update", d.payload(), on_done=d.journaled, on_refused=d.refused
        )
        self._open(d, lambda: None)

    def correct_lineup(self, link: dict[str, Any]) -> None:
        """A season match's lineup (who sits where, the sides): the season's correction, from the rosters
        of the match's two teams (see :class:`dialogs.LineupDialog`)."""
        from broadcast.season.lineup import lineup_choices

        where = " ".join(str(link.get(k, "")) for k in ("season", "episode", "label") if link.get(k))

        def show(choices: Any) -> None:
            d = dialogs.LineupDialog(self, choices, where)
            d.submit = lambda: self.console.correct_lineup(
                d.payload(), on_done=d.journaled, on_failed=d.refused
            )
            self._open(d, lambda: None)

        self.console.call(
            lineup_choices, self.console.db_path, int(link["match_id"]), on_done=show, on_failed=self._refused
        )

    def history(self) -> None:
        self._open(dialogs.HistoryDialog(self, self.console.state["game"]["history"]), lambda: None)

    def _teams(self) -> dict[str, str]:
        teams = self.console.state["table"]["teams"]
        return {
            k: teams[k]["name"] or (tr("单号队") if k == "odd" else tr("双号队")) for k in ("odd", "even")
        }

    def _names(self) -> dict[int, str]:
        """Every seat as a seat list shows it (``3 张三`` / ``3号位``)."""
        return self.console.seat_labels()

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
        # after the first decision, or over hands already known, it is a correction: with the reason,
        # and the dialog stays open until the engine has re-checked the game's moves against it
        correcting = bool(self.console.record()) or bool(g["hands"])
        d = dialogs.HandsDialog(self, self._names(), list(g["hands"]), dealt, correcting=correcting)
        if correcting:
            d.submit = lambda: self.console.act(
                "game.hands",
                {"hands": d.hands(), "reason": d.reason_text()},
                on_done=d.journaled,
                on_refused=d.refused,
            )
            self._open(d, lambda: None)
            return
        self._open(
            d,
            lambda: self.console.act(
                "game.hands", {"hands": d.hands(), "reason": tr("发牌")}, on_refused=self._refused
            ),
        )

    def open_record(self) -> QFileDialog | None:
        """比赛 ▸ 打开牌谱… (Ctrl+O): a GJN record into a rehearsal of its own — a new database beside the
        project's and a window on it (:mod:`broadcast.console.rehearsal`); this window, its database and
        what is on air do not change. A bad file is one line here and creates nothing."""
        d = QFileDialog(self, tr("打开牌谱"), "", tr("牌谱 (*.gjn);;所有文件 (*)"))
        d.setFileMode(QFileDialog.FileMode.ExistingFile)
        d.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        self._open(
            d, lambda: rehearsal_.open_record(self, d.selectedFiles()[0]) if d.selectedFiles() else None
        )
        return d

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
        """The UI language of the program: this window, the show's and every rehearsal's follow."""
        i18n.install(lang)
        show = self.parent() if self.rehearsal is not None else self
        windows = [show, *show.rehearsals] if isinstance(show, MainWindow) else [self]
        for w in windows:
            w.settings.setValue("language", lang)
            w.retranslate()

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
        """View ▸ 恢复默认布局: the right layout for the screen the window is on now."""
        self.layout_.reset()

    def show_recovered(self, n: int) -> None:
        """The notice after a restart: how many journaled actions brought the show back, and where."""
        state = self.console.state
        if state["game"]["leader"] is None:
            text = tr("已从日志恢复 %n 个操作：比赛已设好，尚未开局", "", n)
        else:
            text = tr("已从日志恢复 %n 个操作：回到第{g}局第{m}步", "", n).format(
                g=state["table"]["game_no"], m=len(state["game"]["record"])
            )
        self.panel.banner.setText(text)
        self.panel.banner.setProperty("kind", "recovered")
        self.panel.banner.show()
        self.statusBar().showMessage(text, 30000)

    def _database_busy(self, waiting: int, seconds: float) -> None:
        """The status bar says when the database keeps operations waiting, how many and how long; they
        are written in order as soon as it is free (nothing is dropped)."""
        if not waiting:
            if self.db_label.isVisible():
                print(
                    "数据库已空闲，等待的操作已按顺序写入 / the database is free: what waited is written",
                    flush=True,
                )
            self.db_label.hide()
            return
        if seconds < 1.0:  # a write on its way, not (yet) kept waiting
            return
        if not self.db_label.isVisible():  # the log says it too, once per wait (an operator's terminal)
            print(
                f"数据库忙（被其他程序占用），{waiting} 个操作等待 / database busy: {waiting} waiting",
                flush=True,
            )
        self.db_label.setText(
            tr("● 数据库忙（被其他程序占用）：%n 个操作等待写入，{s} 秒", "", waiting).format(s=int(seconds))
        )
        self.db_label.setStyleSheet(
            f"color: {theme.DANGER if seconds >= 30 else theme.WARN}; font-weight: bold;"
        )
        self.db_label.show()

    # -- misc ---------------------------------------------------------------------------------------
    def _refresh_title(self) -> None:
        state = self.console.state
        show = state["show"]
        table = state["table"]
        parts = [f"《{show['title']}》"]
        if show["episode"]:
            parts.append(show["episode"])
        parts.append(tr("第{n}局/共{m}局").format(n=table["game_no"], m=table["games_in_match"]))
        if self.rehearsal is not None:
            parts.insert(0, tr("彩排 {file}").format(file=self.rehearsal.name))
        self.setWindowTitle(" · ".join(parts) + " — " + tr("导播台"))
        self._refresh_journal()

    def _refresh_journal(self) -> None:
        self.journal_label.setText(tr("日志 #{seq}").format(seq=self.console.state["meta"]["seq"]))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        self.save_layout()
        super().closeEvent(event)

    def later(self, ms: int, fn: Callable[[], Any]) -> None:
        QTimer.singleShot(ms, fn)
