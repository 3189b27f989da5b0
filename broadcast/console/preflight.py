"""The console's pre-show check (节目流程 ▸ 开录前检查…, Ctrl+Shift+R) and its gate on the first GO.

The lines are :mod:`broadcast.preflight`'s (OBS as the studio's bridge provisioned it, the rundown's
assets and contracts on the air date, the episode/teams/seats, the disk), computed on a worker thread
(loading the placements probes every film; OBS is asked on the bridge's own thread) and shown as plain
text, green ✔ or red ✘ with what to do, in the UI language.

Recording starts with the episode's first GO (the status bar's 录制 clock counts from it). That GO first
runs the check: all green, it goes at once; red lines, the dialog asks — **仍然开始录制** journals
``cues.preflight`` with the red lines (the as-run log records it as the operator's event,
``preflight_override``) and then GOes; 取消 (the default, Esc) changes nothing. A check that came out
all green in the last :data:`FRESH_S` seconds is not run again. A GO from the HTTP control API (a Stream
Deck) is gated the same way (:meth:`Preflight.api_gate`, set as the overlay server's ``before_go`` by the
console's ``main``): refused over red lines, naming them, until sent with ``confirm: true``.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from broadcast import preflight as P
from broadcast.errors import count
from broadcast.qt import i18n, theme
from broadcast.qt.i18n import tr

FRESH_S = 600.0  # an all-green check this recent lets the first GO go without checking again
OBS_TIMEOUT_S = 15.0

Check = Callable[[Mapping[str, Any]], list[P.Line]]


def recording_started(cues: Mapping[str, Any]) -> float:
    """The first GO of the episode's cue list (the recording's start), 0 before it."""
    gos = [
        float(e["go"]) for e in cues.get("log", {}).values() if e.get("go") and e.get("status") != "skipped"
    ]
    return min(gos) if gos else 0.0


def studio_check(studio: Any, placements: Any, store: Any) -> Check:
    """The check over a running :class:`broadcast.runtime.Studio` — its database, its placements file
    and air date, its OBS bridge — or, without one (``studio`` None: tests, automation), over the
    store's database and ``placements``, without OBS."""

    def check(state: Mapping[str, Any]) -> list[P.Line]:
        args = getattr(studio, "args", None)
        db = Path(getattr(studio, "db_path", None) or store.journal.path)
        file = getattr(args, "placements", None) or (placements.file if placements is not None else None)
        air = P.air_date_of(state, getattr(args, "air_date", None)) or P.season_air_date(db, state)
        bridge = getattr(studio, "bridge", None)
        settings = getattr(bridge, "settings", None)

        def obs() -> list[P.Line]:
            if bridge is None:
                return [P.obs_down("没有启用（--no-obs）", "switched off (--no-obs)")]
            where = f"{settings.host}:{settings.port}" if settings is not None else ""
            st = bridge.status
            lay = bridge.layout
            if not st.connected or lay is None:
                return [P.obs_down(st.message_zh or st.line, st.message_en or st.line, where)]
            try:
                lines: list[P.Line] = bridge.submit(lambda c: P.check_obs(c, lay, where)).result(
                    OBS_TIMEOUT_S
                )
            except Exception as exc:  # noqa: BLE001 - a dropped OBS is a red line, never a traceback
                return [P.obs_down(str(exc), str(exc), where)]
            return lines

        return P.run(
            state,
            db=db,
            placements=file,
            air_date=air,
            obs=obs,
            proof_width=int(getattr(settings, "proof_width", 640)),
        )

    return check


class PreflightDialog(QDialog):
    """The lines, green or red, with what to do; 重新检查 (F5) and 关闭 (Esc) — or, before the first GO
    with red lines, 仍然开始录制 and 取消 (the default)."""

    recheck = Signal()

    def __init__(self, parent: QWidget | None, *, confirm: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("preflightDialog")
        self.confirm = confirm
        self.lines: list[P.Line] = []
        self.setWindowTitle(tr("开录前检查"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        lay = QVBoxLayout(self)
        self.summary = QLabel(tr("正在检查…"))
        self.summary.setObjectName("preflightSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.area = QScrollArea()
        self.area.setObjectName("preflightLines")
        self.area.setWidgetResizable(True)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setColumnStretch(1, 1)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.area.setWidget(self.body)
        lay.addWidget(self.area, 1)
        self.buttons = QDialogButtonBox()
        if confirm:
            self.go = QPushButton(tr("仍然开始录制"))
            self.go.setObjectName("preflightGo")
            self.go.setEnabled(False)
            self.cancel = self.buttons.addButton(tr("取消"), QDialogButtonBox.ButtonRole.RejectRole)
            self.buttons.addButton(self.go, QDialogButtonBox.ButtonRole.AcceptRole)
            self.go.setAutoDefault(True)  # Enter presses it once Tab has brought the focus to it
            self.cancel.setDefault(True)  # else Enter is 取消
        else:
            self.again = self.buttons.addButton(tr("重新检查 F5"), QDialogButtonBox.ButtonRole.ActionRole)
            self.again.clicked.connect(self.recheck.emit)
            QShortcut(QKeySequence("F5"), self, self.recheck.emit)
            self.cancel = self.buttons.addButton(tr("关闭"), QDialogButtonBox.ButtonRole.RejectRole)
            self.cancel.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        # Tab goes round the buttons; the list scrolls with the arrows and Page Up/Down from anywhere
        self.area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cancel.setFocus()
        screen = (parent.screen() if parent is not None else self.screen()).availableGeometry()
        self.resize(min(980, int(screen.width() * 0.9)), min(640, int(screen.height() * 0.85)))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        bar = self.area.verticalScrollBar()
        step = {
            Qt.Key.Key_Up: -bar.singleStep(),
            Qt.Key.Key_Down: bar.singleStep(),
            Qt.Key.Key_PageUp: -bar.pageStep(),
            Qt.Key.Key_PageDown: bar.pageStep(),
        }.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        bar.setValue(bar.value() + step)

    def checking(self) -> None:
        self.summary.setText(tr("正在检查…"))
        if self.confirm:
            self.go.setEnabled(False)

    def show_lines(self, lines: list[P.Line]) -> None:
        """The check's lines, each a mark and its text (plain text, wrapped), the file it names below."""
        self.lines = list(lines)
        while self.grid.count():
            item = self.grid.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        lang = "en" if i18n.current() == "en" else "zh_CN"
        colour = {P.OK: theme.OK, P.WARN: theme.WARN, P.FAIL: theme.DANGER}
        for row, ln in enumerate(lines):
            mark = QLabel(P.MARK[ln.status])
            mark.setObjectName(f"preflightMark_{ln.status}")
            mark.setStyleSheet(f"color: {colour[ln.status]}; font-weight: bold;")
            mark.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
            text = QLabel(_shown(ln, lang))
            text.setObjectName(f"preflight_{ln.id}")
            text.setTextFormat(Qt.TextFormat.PlainText)  # show data (names, file names) is never markup
            text.setWordWrap(True)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            text.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the list (arrows scroll) and buttons
            if ln.where:
                text.setToolTip(ln.where)
            if ln.red:
                text.setStyleSheet(f"color: {theme.DANGER};")
            self.grid.addWidget(mark, row, 0)
            self.grid.addWidget(text, row, 1)
            mark.show()  # the dialog is up: new labels show now, not at the next turn of the loop
            text.show()
        n = len(P.red(lines))
        if not n:
            self.summary.setText(tr("全部通过：可以开始录制"))
        elif self.confirm:
            self.summary.setText(tr("%n 项未通过。仍然开始录制的话，播出记录会记下这 %n 项。", "", n))
            self.go.setText(tr("仍然开始录制（{n} 项未通过）").format(n=n))
            self.go.setEnabled(True)
        else:
            self.summary.setText(tr("{n} 项未通过：按每一行说的处理后按 F5 重新检查").format(n=n))


def _shown(ln: P.Line, lang: str) -> str:
    """The line as the dialog shows it: the message and what to do; a file by its name and line below
    it (the whole path in the tooltip: a path has no place to wrap)."""
    text = P.Line(ln.id, ln.status, ln.zh, ln.en, ln.fix_zh, ln.fix_en).text(lang)
    file, _sep, line = ln.where.rpartition(":")
    if not (file and line.isdigit()):
        return text
    return f"{text}\n{Path(file).name}:{line}"


class Preflight(QObject):
    """Runs the check off the Qt thread and shows it; gates the first GO of an episode."""

    finished = Signal(object)  # list[Line], on the Qt thread

    def __init__(self, window: Any, check: Check) -> None:
        super().__init__(window)
        self.window = window
        self.check = check
        self.last: list[P.Line] | None = None
        self.last_at = 0.0
        self.finished.connect(self._finished)
        self._waiting: list[Callable[[list[P.Line]], None]] = []
        self._running = False
        self._let_through: str | None = None  # the episode whose first GO was let through

    # -- running the check ----------------------------------------------------------------------------
    def run(self, then: Callable[[list[P.Line]], None]) -> None:
        """Run the check on a worker thread; ``then`` gets the lines on the Qt thread."""
        self._waiting.append(then)
        if self._running:
            return
        self._running = True
        state = copy.deepcopy(self.window.console.state)
        threading.Thread(target=self._work, args=(state,), name="preflight", daemon=True).start()

    def _work(self, state: Mapping[str, Any]) -> None:
        try:
            lines = self.check(state)
        except Exception as exc:  # noqa: BLE001 - the check itself failed: one red line says so
            lines = [P.Line("preflight", P.FAIL, f"检查本身出错：{exc}", f"the check itself failed: {exc}")]
        self.finished.emit(lines)

    def _finished(self, lines: list[P.Line]) -> None:
        self._running = False
        self.last, self.last_at = lines, time.monotonic()
        waiting, self._waiting = self._waiting, []
        for fn in waiting:
            fn(lines)

    # -- the menu item --------------------------------------------------------------------------------
    def open(self) -> PreflightDialog:
        """节目流程 ▸ 开录前检查…: the dialog, filled when the check is done (F5 runs it again)."""
        d = PreflightDialog(self.window)
        self.window.dialog = d
        d.finished.connect(lambda _r: self.window.focus_entry())

        def again() -> None:
            d.checking()
            self.run(lambda lines: _fill(d, lines))

        d.recheck.connect(again)
        d.open()
        again()
        return d

    # -- the gate on the first GO -----------------------------------------------------------------------
    def gate(self, onair: Any) -> None:
        """Check before the episode's first GO of ``onair`` (:class:`~.docks.onair.OnAir`)."""
        onair.before_go = self.before_go

    def api_gate(self, state: Mapping[str, Any], confirm: bool) -> list[tuple[str, dict[str, Any]]]:
        """The gate of a GO from the HTTP control API or a Stream Deck (:data:`broadcast.control.GoGate`,
        run on the API's thread): the episode's first GO runs the check here (unless one came out all
        green in the last :data:`FRESH_S` seconds); over red lines it is refused, naming them and how to
        confirm — ``go {confirm: true}`` records the confirmation (``cues.preflight``, as the console's
        仍然开始录制) and GOes."""
        from broadcast.control import ControlError

        cues = state["cues"]
        episode = str(cues.get("episode") or "")
        if recording_started(cues) or self._let_through == episode:
            return []
        last, fresh = self.last, time.monotonic() - self.last_at < FRESH_S
        if last is not None and fresh and not P.red(last):
            self._let_through = episode
            return []
        try:
            lines = self.check(state)
        except Exception as exc:  # noqa: BLE001 - the check itself failed: one red line says so
            lines = [P.Line("preflight", P.FAIL, f"检查本身出错：{exc}", f"the check itself failed: {exc}")]
        self.last, self.last_at = lines, time.monotonic()
        red = P.red(lines)
        if not red:
            self._let_through = episode
            return []
        zh, en = [ln.text("zh_CN") for ln in red], [ln.text("en") for ln in red]
        if confirm:
            self._let_through = episode
            return [("cues.preflight", {"red": zh, "red_en": en})]
        raise ControlError(
            "preflight",
            f"开录前检查有 {len(red)} 项未通过（这次 GO 开始录制）：{'；'.join(zh)}。"
            "要仍然开始录制：在导播台按 GO 并确认，或带 confirm=true 再发一次 GO（播出记录会记下）",
            f"the pre-show check has {count(len(red), 'red line')} (this GO starts the recording): "
            f"{'; '.join(en)}."
            " To start anyway: press GO at the console and confirm, or send GO again with confirm=true"
            " (the as-run log records it)",
            param="confirm",
        )

    def before_go(self, go: Callable[[], object]) -> None:
        """The episode's first GO starts the recording: checked first (see the module's doc)."""
        cues = self.window.console.state["cues"]
        if recording_started(cues) or self._let_through == cues.get("episode"):
            go()  # recording under way (or its first GO on its way to the store: the view lags)
            return
        episode = str(cues.get("episode") or "")

        def start() -> None:
            self._let_through = episode
            go()

        if self.last is not None and not P.red(self.last) and time.monotonic() - self.last_at < FRESH_S:
            start()
            return
        d = PreflightDialog(self.window, confirm=True)
        self.window.dialog = d
        d.finished.connect(lambda _r: self.window.focus_entry())

        def checked(lines: list[P.Line]) -> None:
            if not d.isVisible():
                return  # the operator cancelled while it ran: nothing
            if not P.red(lines):
                d.done(QDialog.DialogCode.Accepted.value)
                start()
                return
            d.show_lines(lines)

        def confirmed() -> None:
            red = P.red(d.lines)
            if not red:
                return
            payload = {"red": [ln.text("zh_CN") for ln in red], "red_en": [ln.text("en") for ln in red]}
            self.window.console.act("cues.preflight", payload)
            start()  # after the record of it: the store's thread runs them in this order

        d.go.clicked.connect(confirmed)
        d.open()
        self.run(checked)


def _fill(d: PreflightDialog, lines: list[P.Line]) -> None:
    if d.isVisible():
        d.show_lines(lines)


def install(window: Any, check: Check) -> Preflight:
    """The menu item (key ``cues.preflight``); the gate on the first GO is :meth:`Preflight.gate`
    (the console's ``main`` sets it: a window built around a bare store for tests has none)."""
    pf = Preflight(window, check)
    window.hotkeys.bind("cues.preflight", pf.open)
    window.preflight = pf
    return pf
