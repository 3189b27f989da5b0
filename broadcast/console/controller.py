"""The console's dispatcher: what the operator's keys mean, turned into store actions (via the bridge).

It keeps the last state it was sent and the engine mirror of the game (for the completion list and the
record's words) and tells the widgets when they change. It never changes the state itself: every
change is a ``store.dispatch`` on the bridge's thread, and the screen shows a decision only once the
store has journaled it (the ``changed`` signal), so what the operator sees confirmed survives a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from broadcast.console import words
from broadcast.console.completion import Completer, Suggestion, Verdict
from broadcast.console.entry import Entry, read
from broadcast.console.mirror import GameMirror
from broadcast.console.pending import Pending, pending_from, view_state
from broadcast.qt import i18n
from broadcast.qt.bridge import StoreBridge
from broadcast.qt.i18n import tr
from engine import words as engine_words

Callback = Callable[[Any], None]


def verdict_of(exc: Any, rule: str = "?") -> Verdict:
    """A refusal (``ActionRefused`` or another error) as the line under the entry: rule, zh, en."""
    return Verdict(
        getattr(exc, "rule", "") or rule,
        getattr(exc, "message", str(exc)),
        getattr(exc, "message_en", "") or str(exc),
    )


@dataclass(frozen=True)
class Mode:
    """What the entry line is for right now: ``play`` (a decision), ``leader`` (the 上班 seat of the
    next game, G12.1) or ``none`` (nothing to enter: the match is not set up)."""

    name: str
    prompt: str


# what Enter on a typed line does not do in a mode that takes no decision, in English (the prompt is the
# window's language; the refusal's second line is English whatever the window's language)
_MODE_EN = {
    "save": "the game is over: an empty Enter saves it to the season (Ctrl+S)",
    "finish": "the match is won: an empty Enter finishes it and saves it to the season",
    "lots": "still tied after the extra game: an empty Enter draws lots (G11.2)",
    "none": "nothing to enter now: Ctrl+N starts a new match",
}


def mode_refusal(mode: Mode) -> Verdict:
    """The refusal of a typed line in a mode that takes no decision: the prompt, and its English."""
    return Verdict("match", mode.prompt, _MODE_EN.get(mode.name, "no decision is taken now"))


BUSY_NOTICE_S = 30.0  # the database held this long: the operator is told in one line (nothing is dropped)
HEAD_START_S = 0.010  # a decision sent: the store's (and pages') head start before the console redraws
ESTIMATE_SECTIONS = frozenset({"winprob", "winprob_history"})  # what a winprob.estimate changes
PENDING_REFRESH_MS = 40  # a decision sent: the views wait this long for the store's answer, then show it


class Console(QObject):
    stateChanged = Signal()  # the state (and the mirror) moved on
    # only the 胜率 figures moved on (winprob.estimate): the chart and the journal's number follow
    estimated = Signal()
    accepted = Signal(str)  # work started from the entry line and waited for (a season save, lots) is done
    queued = Signal(str)  # a decision was taken from the entry line and is on its way: its line
    journaled = Signal(int, str)  # a decision is in the journal: its move number and line
    rejected = Signal(object)  # Verdict: the engine's (or the store's) refusal of the operator's entry
    notice = Signal(str)  # one line for the status bar
    saved = Signal(str)  # a game or the match saved to the season: the line that says so
    busyChanged = Signal(bool)  # a season call started from the entry line is on its way
    databaseBusy = Signal(
        int, float
    )  # operations waiting and for how long the database held them (0, 0: free)

    def __init__(self, bridge: StoreBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.state: dict[str, Any] = bridge.store.state
        self.mirror = GameMirror()
        self.mirror.update(self.state)
        self._completer: Completer | None = None
        self._callbacks: dict[int, tuple[Callback | None, Callback | None]] = {}
        self._entry_ticket: int | None = None
        self.pending: list[Pending] = []  # decisions on their way to the journal, in order
        self._busy_told = False
        self._busy_timer = QTimer(self)
        self._busy_timer.setInterval(250)
        self._busy_timer.timeout.connect(self._watch_database)
        # the views' refresh for a decision just sent: usually the store's answer comes first and
        # refreshes them once (see _queue)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(PENDING_REFRESH_MS)
        self._refresh_timer.timeout.connect(self.stateChanged.emit)
        bridge.connect_queued("changed", self._on_change)
        bridge.connect_queued("finished", self._on_finished)
        bridge.connect_queued("refused", self._on_refused)
        bridge.connect_queued("returned", self._on_finished)
        bridge.connect_queued("failed", self._on_refused)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        return self.mirror.game

    @property
    def busy(self) -> bool:
        """Something the operator entered is not answered yet (a decision not journaled, a season call)."""
        return self._entry_ticket is not None or bool(self.pending)

    def record(self) -> list[str]:
        """The game's record as the operator sees it: journaled, then the decisions on their way."""
        return list(view_state(self.state, self.pending)["game"]["record"])

    def pending_from(self) -> int:
        """The first row of :meth:`record` not journaled yet (the record shows it greyed)."""
        if not self.pending:
            return len(self.state["game"]["record"])
        return pending_from(list(self.state["game"]["record"]), self.record())

    @property
    def lang(self) -> str:
        """The words' language of the UI now: "zh" or "en" (:func:`broadcast.console.words.lang_of`)."""
        return words.lang_of(i18n.current())

    @property
    def completer(self) -> Completer | None:
        lang = self.lang
        if self._completer is not None and self._completer.lang != lang:
            self._completer = None  # the UI language changed: the suggestions' words follow it
        if self._completer is None and self.game is not None:
            self._completer = Completer(self.game, lang)
        return self._completer

    def mode(self) -> Mode:
        """What Enter does now (see :class:`Mode`): a decision, the 上班 seat of the next game, saving
        the finished game to the season, the lots after a tied extra game, finishing the match."""
        table = self.state["table"]
        match = self.state["match"]
        link = match["season"]
        result = match["result"]
        game = self.game
        n = table["game_no"]
        if game is not None and not game.is_over():
            seat = game.pending_seat
            return Mode("play", tr("轮到 {who}").format(who=self.seat_who(seat)))
        over = game is not None and game.is_over()
        if over and link and not any(s["game_no"] == n for s in link["saved"]):
            return Mode("save", tr("第{n}局结束：回车存入赛季（Ctrl+S）").format(n=n))
        if link and link["final"]:
            return Mode("none", tr("比赛已结束并存入赛季 · Ctrl+N 新比赛"))
        if result["needs_lots"]:
            return Mode("lots", tr("加赛后总分仍相同：回车抽签（种子记录在案，G11.2）"))
        if result["winner"] is not None:
            who = table["teams"][result["winner"]]["name"] or result["winner"]
            if link:
                return Mode("finish", tr("本场胜者：{who}。回车结束比赛并存入赛季").format(who=who))
            return Mode("none", tr("本场胜者：{who} · Ctrl+N 新比赛").format(who=who))
        if over:
            extra = tr("（加赛，G11.2）") if result["needs_extra_game"] else ""
            return Mode(
                "leader", tr("第{n}局结束 · 下一局{extra}：输入上班座位 1–6，回车").format(n=n, extra=extra)
            )
        return Mode("leader", tr("开局：输入上班座位 1–6（第一个亮出同花色一对3的人，G12.1），回车"))

    def seat_name(self, seat: int | None) -> str:
        """The seat's player as the console shows them: the name entered, else the seat in the UI's
        language (4号位 / Seat 4), never the other language's placeholder."""
        if seat is None:
            return ""
        return engine_words.seat_name(seat, str(self.state["table"]["seats"][seat - 1]["name"]), self.lang)

    def _entered(self, seat: int) -> str:
        return engine_words.entered_name(seat, str(self.state["table"]["seats"][seat - 1]["name"]))

    def seat_who(self, seat: int) -> str:
        """The seat as a sentence of the UI names it: ``3号 张三`` / ``Seat 3 张三``, else ``3号位`` /
        ``Seat 3`` (:func:`broadcast.console.words.seat_who`)."""
        return words.seat_who(seat, self._entered(seat), self.lang)

    def seat_labels(self) -> dict[int, str]:
        """Every seat as the record and the seat lists show it: ``3 张三``, else ``3号位`` / ``Seat 3``
        (:func:`broadcast.console.words.seat_label`: the number never twice)."""
        return {s: words.seat_label(s, self._entered(s), self.lang) for s in range(1, 7)}

    def entered_names(self) -> dict[int, str]:
        """Every seat's name as entered ('' for none): what a form to correct the names starts from."""
        return {s: self._entered(s) for s in range(1, 7)}

    def suggestions(self, text: str) -> list[Suggestion]:
        c = self.completer
        if c is None or self.mode().name != "play":
            return []
        return c.suggest(read(text))

    def verdict(self, text: str) -> Verdict | None:
        c = self.completer
        if c is None or self.mode().name != "play":
            return None
        return c.verdict(read(text))

    # -- changing (always through the store) -----------------------------------------------------------
    def act(
        self,
        type_: str,
        payload: dict[str, Any] | None = None,
        on_done: Callback | None = None,
        on_refused: Callback | None = None,
    ) -> int:
        ticket = self.bridge.ticket()
        self._callbacks[ticket] = (on_done, on_refused)
        return self.bridge.dispatch(type_, payload, ticket=ticket)

    def call(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_done: Callback | None = None,
        on_failed: Callback | None = None,
    ) -> int:
        ticket = self.bridge.ticket()
        self._callbacks[ticket] = (on_done, on_failed)
        return self.bridge.call(fn, *args, ticket=ticket)

    def submit(self, text: str) -> bool:
        """The operator pressed Enter on ``text``. Returns False (and emits ``rejected``) when there is
        nothing the store could be asked; otherwise the decision is queued (``queued``: the entry line
        is free for the next) and its answer comes as ``accepted``/``rejected``."""
        if self._entry_ticket is not None:
            return False
        mode = self.mode()
        if mode.name == "leader":
            return self._submit_leader(text)
        if mode.name in ("save", "finish", "lots") and not text.strip():
            {"save": self.save_game, "finish": self.finish_match, "lots": self.draw_lots}[mode.name]()
            return True
        if mode.name != "play":
            self.rejected.emit(mode_refusal(mode))
            return False
        entry: Entry = read(text)
        if not entry.complete:
            if entry.bad:
                v = Verdict(
                    "G2.4",
                    tr("看不懂“{ch}”：牌用 3–9 T J Q K A 2 B R，过 p，让 y").format(ch=entry.bad),
                    f"cannot read {entry.bad!r}: cards are 3-9 T J Q K A 2 B R, pass p, yield y",
                )
            else:
                v = Verdict("GJN", tr("请输入一手牌、过 (p) 或让 (y)"), "type a play, pass (p) or yield (y)")
            self.rejected.emit(v)
            return False
        line = entry.line(self.game.pending_seat)
        assert line is not None
        verdict = self.verdict(text)
        if verdict is not None:  # the engine refuses it in the game as it will be (pending ones in)
            self.rejected.emit(verdict)
            return False
        self._queue("play", "game.play", {"line": line}, line, line)
        return True

    def _submit_leader(self, text: str) -> bool:
        t = text.strip().rstrip("号號")
        if t not in ("1", "2", "3", "4", "5", "6"):
            self.rejected.emit(Verdict("G12.1", tr("上班座位应为 1–6"), "the first leader's seat is 1..6"))
            return False
        self._queue("leader", "game.new", {"leader": int(t)}, t, f"上班 {t}")
        return True

    def undo(self, reason: str) -> None:
        """Take back the last decision (journaled or still on its way), with the operator's reason."""
        self._queue("undo", "game.undo", {"reason": reason}, "", tr("撤销"))

    # -- decisions on their way -----------------------------------------------------------------------
    def _queue(self, kind: str, type_: str, payload: dict[str, Any], line: str, label: str) -> None:
        """Send an operation to the store and go on: it waits in :attr:`pending` (shown, checked
        against, undoable) until the store has journaled it, in order, however long that takes."""
        ticket = self.bridge.ticket()
        self.pending.append(Pending(ticket, kind, type_, dict(payload), line, label))
        self._callbacks[ticket] = (lambda _c: self._done(ticket, label), lambda exc: self._lost(ticket, exc))
        self.bridge.dispatch(type_, payload, ticket=ticket, head_start=HEAD_START_S)
        self._view_changed(soon=True)
        self.queued.emit(label)
        self._busy_timer.start()

    def _view_changed(self, *, soon: bool = False) -> None:
        """The console's game (what the next decision is checked against) follows at once; the views
        follow at once too, or with ``soon`` (a decision just sent) within PENDING_REFRESH_MS: by then
        the store has usually answered and they refresh once, for the journaled state, instead of
        redrawing first for the pending one while the decision is on its way to the journal and the
        pages (issue 25: that redraw held the interpreter the store's and the pages' threads need)."""
        if self.mirror.update(view_state(self.state, self.pending)):
            self._completer = None
        if soon:
            if not self._refresh_timer.isActive():
                self._refresh_timer.start()
            return
        self._refresh_timer.stop()
        self.stateChanged.emit()

    def _done(self, ticket: int, _label: str) -> None:
        """Journaled (its change came first and took it out of :attr:`pending`; ``journaled`` said so)."""
        self.pending = [p for p in self.pending if p.ticket != ticket]

    def _lost(self, ticket: int, exc: Any) -> None:
        """The store refused an operation on its way (the game moved on meanwhile, another program
        changed it): it is taken out and the operator is told which, to enter it again."""
        gone = next((p for p in self.pending if p.ticket == ticket), None)
        self.pending = [p for p in self.pending if p.ticket != ticket]
        self._view_changed()
        v = verdict_of(exc)
        if gone is not None and gone.line:
            prefix = tr("未记录：{line}").format(line=gone.label)
            v = Verdict(v.rule, f"{prefix} — {v.zh}", f"not recorded: {gone.label} — {v.en}")
            print(f"未记录 not recorded: {gone.label} [{v.rule}] {v.en}", flush=True)
        self.rejected.emit(v)

    def _watch_database(self) -> None:
        """Every 250 ms while operations wait: tell the window when the database keeps them waiting
        (another program holds it), and once, in one line, when that has lasted long."""
        waiting = self.bridge.waiting
        held = self.bridge.busy_for()
        if not waiting:
            self._busy_timer.stop()
            self._busy_told = False
            self.databaseBusy.emit(0, 0.0)
            return
        self.databaseBusy.emit(waiting, held)
        if held >= BUSY_NOTICE_S and not self._busy_told:
            self._busy_told = True
            self.notice.emit(
                tr(
                    "数据库被其他程序占用已 {s} 秒：%n 个操作都保留着，解除占用后按顺序写入", "", waiting
                ).format(s=int(held))
            )

    def _entry_ticket_for(self, label: str, *, notice: bool = False, rule: str = "?") -> int:
        """A ticket for work started from the entry line: the entry is busy until the answer, which
        is shown as accepted (``label``) or as a refusal under the entry. The caller hands the work to
        the bridge first and then emits ``busyChanged(True)`` (:meth:`_busy`): the action is on its
        way to the store before any widget work (the answer is queued to this thread, so it cannot
        come before)."""
        ticket = self.bridge.ticket()
        self._entry_ticket = ticket

        def done(_value: Any) -> None:
            self.accepted.emit(label)
            if notice:
                self.notice.emit(label)
                self.saved.emit(label)

        self._callbacks[ticket] = (done, lambda exc: self.rejected.emit(verdict_of(exc, rule)))
        return ticket

    def _send_entry(self, type_: str, payload: dict[str, Any], label: str) -> None:
        self.bridge.dispatch(type_, payload, ticket=self._entry_ticket_for(label))
        self._busy()

    def _busy(self) -> None:
        if self._entry_ticket is not None:
            self.busyChanged.emit(True)

    # -- the season and the match ------------------------------------------------------------
    @property
    def db_path(self) -> str:
        """The season's database: the studio's --season-db when its link runs, else the project
        database's file (known to the journal: no SQL on the Qt thread)."""
        from broadcast.season.push import link_of

        link = link_of(self.bridge.store)
        if link is not None:
            return str(link.target)
        return str(self.bridge.store.journal.path)

    def _entry_call(self, fn: Callable[..., Any], *args: Any, done: str, **kw: Any) -> None:
        """A season call started from the entry line (see :meth:`_entry_ticket_for`)."""
        ticket = self._entry_ticket_for(done, notice=True, rule="season")
        self.bridge.call(lambda: fn(*args, **kw), ticket=ticket)
        self._busy()

    def save_game(self) -> None:
        from broadcast.season.live import save_game

        n = self.state["table"]["game_no"]
        done = tr("已存入赛季：{episode}第{n}局，英雄榜已更新").format(episode=self._episode(), n=n)
        self._entry_call(save_game, self.bridge.store, self.db_path, done=done)

    def finish_match(self) -> None:
        from broadcast.season.live import finish_match

        done = tr("已存入赛季：{episode}比赛结果，英雄榜已更新").format(episode=self._episode())
        self._entry_call(finish_match, self.bridge.store, self.db_path, done=done)

    def _episode(self) -> str:
        """The season's episode of the match on the table, as the save message names it (第16期)."""
        link = self.state["match"]["season"]
        episode = str(link.get("episode", "")) if link else ""
        if not episode:
            return ""
        return (tr("第{n}期").format(n=episode) if episode.isdigit() else episode) + " "

    def draw_lots(self) -> None:
        import secrets

        seed = secrets.randbelow(2**31)
        self._send_entry("match.lots", {"seed": seed}, tr("抽签（种子 {seed}）").format(seed=seed))

    def start_match(self, payload: dict[str, Any], on_done: Callback | None = None) -> None:
        from broadcast.season.live import start_match

        def failed(exc: Any) -> None:
            self.rejected.emit(verdict_of(exc, "season"))

        self.call(
            lambda: start_match(self.bridge.store, self.db_path, **payload), on_done=on_done, on_failed=failed
        )

    def correct_lineup(
        self, payload: dict[str, Any], on_done: Callback | None = None, on_failed: Callback | None = None
    ) -> None:
        """The season match's lineup corrected (the season first, then the journaled ``season.lineup``)."""
        from broadcast.season.lineup import correct_lineup

        store, db = self.bridge.store, self.db_path
        self.call(lambda: correct_lineup(store, db, **payload), on_done=on_done, on_failed=on_failed)

    # -- answers from the store thread (queued to the Qt thread) -----------------------------------------
    def _on_change(self, change: Any) -> None:
        self.state = change.state
        if self.pending and self.pending[0].matches(change):  # the first on its way is journaled
            done = self.pending.pop(0)
            if done.kind == "play":
                self.journaled.emit(len(self.state["game"]["record"]), done.line)
        if change.type == "winprob.estimate" and change.changed <= ESTIMATE_SECTIONS:
            # the evaluator's figures: only the views that show them follow, not every view (issue 25:
            # a redraw of them all holds the interpreter a typed decision's way to the pages needs); and
            # none while a decision is on its way: the redraw for the store's answer shows them too
            if not self.pending:
                self.estimated.emit()
            return
        self._view_changed()

    def _on_finished(self, ticket: int, value: Any) -> None:
        self._answer(ticket, value, 0)

    def _on_refused(self, ticket: int, exc: Any) -> None:
        self._answer(ticket, exc, 1)

    def _answer(self, ticket: int, value: Any, which: int) -> None:
        cbs = self._callbacks.pop(ticket, (None, None))
        entry = ticket == self._entry_ticket
        if entry:
            self._entry_ticket = None
        cb = cbs[which]
        if cb is not None:
            cb(value)
        elif which == 1:
            self.notice.emit(f"{getattr(value, 'rule', '')} {value}")
        if entry:  # after the answer: keys typed meanwhile go to the cleared (or refused) entry
            self.busyChanged.emit(False)
