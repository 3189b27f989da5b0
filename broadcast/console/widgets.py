"""The console's widgets: the table (six seats, the top play, the match score), the record, the entry.

Widgets read the controller's state and mirror and call its methods; they never touch the store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QKeyEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from broadcast.console.controller import Console
from broadcast.console.hotkeys import HotkeyRegistry
from broadcast.console.models import CompletionModel, RecordModel
from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP

OPP = {1: 4, 2: 5, 3: 6, 4: 1, 5: 2, 6: 3}
# where each seat sits on screen (row, column of a 4×3 grid): counterclockwise from seat 1 at the
# bottom, 对头 across (1↔4, 2↔5, 3↔6), as in the studio seen from the camera above
SEAT_CELLS = {1: (3, 1), 2: (2, 2), 3: (1, 2), 4: (0, 1), 5: (1, 0), 6: (2, 0)}
STATUS_BADGES = {
    "wutou": QT_TRANSLATE_NOOP("TablePanel", "无头"),
    "burning": QT_TRANSLATE_NOOP("TablePanel", "烧牌中"),
    "sitting_out": QT_TRANSLATE_NOOP("TablePanel", "革命"),
}


def _set_props(w: QWidget, **props: bool) -> None:
    """Set dynamic properties the style sheet selects on, and re-polish if one changed."""
    changed = False
    for k, v in props.items():
        if w.property(k) != v:
            w.setProperty(k, v)
            changed = True
    if changed:
        w.style().unpolish(w)
        w.style().polish(w)


class SeatCard(QFrame):
    """One seat: number and name, team colour, cards left (报牌 ≤ 10 highlighted), badges, title."""

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName(f"seat{seat}")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(14, 6, 10, 6)
        self.grid.setHorizontalSpacing(8)
        self.grid.setVerticalSpacing(2)
        self.name = QLabel()
        self.name.setObjectName("seatName")
        self.count = QLabel()
        self.count.setObjectName("seatCount")
        self.badges = QLabel()
        self.badges.setObjectName("seatBadges")
        self.compact = False
        self.set_compact(False)
        self.state: dict[str, Any] = {}
        self._look: tuple[str, bool] = (theme.BORDER, False)

    def set_compact(self, compact: bool) -> None:
        """Two lines (name; cards left and badges) or, on a laptop screen, one line (name and badges;
        cards left at the right, as large): the table then leaves the cue list its rows."""
        self.compact = compact
        _set_props(self.count, compact=compact)
        for w in (self.name, self.count, self.badges):
            self.grid.removeWidget(w)
        if compact:
            self.setMinimumSize(128, 46)
            self.grid.setContentsMargins(14, 2, 10, 2)
            self.grid.addWidget(self.name, 0, 0)
            self.grid.addWidget(self.badges, 0, 1)
            self.grid.addWidget(self.count, 0, 2)
            self.grid.setColumnStretch(0, 1)
            self.grid.setColumnStretch(1, 0)
        else:
            self.setMinimumSize(128, 80)
            self.grid.setContentsMargins(14, 6, 10, 6)
            self.grid.addWidget(self.name, 0, 0, 1, 3)
            self.grid.addWidget(self.count, 1, 0)
            self.grid.addWidget(self.badges, 1, 2)
            self.grid.setColumnStretch(0, 0)
            self.grid.setColumnStretch(1, 1)
        self.badges.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def show_seat(
        self, seat: dict[str, Any], colour: str, turn: bool, report_max: int, badges: list[str]
    ) -> None:
        self.state = {"seat": seat, "turn": turn, "badges": list(badges)}
        self.name.setText(f"{seat['seat']}  {seat['name']}")
        title = seat.get("title")
        cards = int(seat["cards_left"])
        hot = not title and cards <= report_max and seat.get("status") in ("playing", "wutou", "burning")
        self.count.setText(str(title) if title else self.tr("{n} 张").format(n=cards))
        _set_props(self.count, hot=hot, title=bool(title))
        self.badges.setText("  ".join(badges))
        if (colour, turn) != self._look:
            self._look = (colour, turn)
            self.update()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        """The card: panel colour, the team's stripe on the left, an accent frame on the seat to act
        (painted, not styled: restyling a widget on every decision is slow)."""
        colour, turn = self._look
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor(theme.ACCENT if turn else theme.BORDER), 3 if turn else 1))
        p.setBrush(QColor(theme.PANEL_2))
        p.drawRoundedRect(r, 6, 6)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(colour))
        p.drawRoundedRect(QRectF(r.left(), r.top(), 8, r.height()), 3, 3)
        p.end()


NBSP = "\u00a0"  # joins the words of one term ("两个7", "seat 3"): a line never breaks there


def fit_terms(
    text: str, width: float, height: float, largest: int, smallest: int = 9, bold: bool = True
) -> tuple[int, list[str]]:
    """The largest pixel size (``largest`` down to ``smallest``) at which ``text`` fits ``width`` ×
    ``height`` with lines broken only between its terms (runs without a plain space; ``\\n`` forces a
    break), and the lines. A term is never split: at the smallest size a line that is still too wide
    is left whole (the painter elides it)."""
    paragraphs = [[t for t in p.split(" ") if t] for p in text.split("\n")]  # not NBSP
    lines: list[str] = []
    for px in range(largest, smallest - 1, -1):
        fm = QFontMetricsF(theme.font(px, bold))
        space = fm.horizontalAdvance(" ")
        lines, fits = [], True
        for terms in paragraphs:
            line, used = "", 0.0
            for term in terms:
                w = fm.horizontalAdvance(term)
                if w > width:
                    fits = False
                if line and used + space + w > width:
                    lines.append(line)
                    line, used = term, w
                else:
                    line, used = (f"{line} {term}", used + space + w) if line else (term, w)
            lines.append(line)
        if fits and len(lines) * fm.lineSpacing() <= height:
            return px, lines
    return smallest, lines


class TopPlay(QWidget):
    """The middle of the table: the top play with its on-air words, and whose decision it is. Each
    line is broken only between terms (``上手 3号 两个7 够级``: never inside ``两个7``) and shrinks to
    fit the oval instead."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(170, 100)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.lines: tuple[str, str] = ("", "")
        self.laid_out: list[tuple[int, list[str]]] = []  # (pixel size, lines) of each part, as painted

    def set_lines(self, top: str, turn: str) -> None:
        self.lines = (top, turn)
        self.update()

    def rects(self) -> tuple[QRectF, QRectF, QRectF]:
        r = QRectF(self.rect()).adjusted(6, 6, -6, -6)
        inner = r.adjusted(r.width() * 0.1, r.height() * 0.16, -r.width() * 0.1, -r.height() * 0.16)
        top_rect = QRectF(inner.left(), inner.top(), inner.width(), inner.height() * 0.58)
        turn_rect = QRectF(
            inner.left(), inner.top() + inner.height() * 0.58, inner.width(), inner.height() * 0.42
        )
        return r, top_rect, turn_rect

    def layout_text(self) -> list[tuple[int, list[str]]]:
        """The size and lines of the top play and of the turn line in the current oval."""
        _r, top_rect, turn_rect = self.rects()
        return [
            fit_terms(self.lines[0], top_rect.width(), top_rect.height(), theme.SIZE_TOP),
            fit_terms(self.lines[1], turn_rect.width(), turn_rect.height(), theme.SIZE_BASE + 3),
        ]

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r, top_rect, turn_rect = self.rects()
        p.setPen(QPen(QColor(theme.ACCENT if self.lines[1] else theme.BORDER), 2))
        p.setBrush(QColor(theme.FELT))
        p.drawEllipse(r)
        self.laid_out = self.layout_text()
        for (px, lines), rect, colour in zip(
            self.laid_out, (top_rect, turn_rect), (theme.TEXT, theme.ACCENT), strict=True
        ):
            f = theme.font(px, bold=True)
            fm = QFontMetricsF(f)
            p.setFont(f)
            p.setPen(QColor(colour))
            step = fm.lineSpacing()
            y = rect.top() + max(0.0, (rect.height() - step * len(lines)) / 2)
            for line in lines:
                shown = fm.elidedText(line, Qt.TextElideMode.ElideRight, rect.width())
                p.drawText(
                    QRectF(rect.left(), y, rect.width(), step), int(Qt.AlignmentFlag.AlignCenter), shown
                )
                y += step
        p.end()


class TablePanel(QWidget):
    """The six seats as the players sit, the top play in the middle, the match score underneath."""

    def __init__(self, console: Console, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = console
        self.setObjectName("tablePanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        self.header = QLabel()
        self.header.setObjectName("tableHeader")
        outer.addWidget(self.header)
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(8)
        self.grid = grid
        self.cards = {s: SeatCard(s) for s in range(1, 7)}
        for s, (r, c) in SEAT_CELLS.items():
            grid.addWidget(self.cards[s], r, c)
        self.top = TopPlay()
        grid.addWidget(self.top, 1, 1, 2, 1)
        for c in range(3):
            grid.setColumnStretch(c, 1)
        outer.addLayout(grid, 1)
        self.score = QLabel()
        self.score.setObjectName("score")
        self.score.setWordWrap(True)
        outer.addWidget(self.score)
        self.penalties = QLabel()
        self.penalties.setObjectName("penalties")
        self.penalties.setWordWrap(True)
        outer.addWidget(self.penalties)
        self.result = QLabel()
        self.result.setObjectName("prompt")
        self.result.setWordWrap(True)
        outer.addWidget(self.result)
        console.stateChanged.connect(self.refresh)
        self.refresh()

    def set_compact(self, compact: bool) -> None:
        """The laptop layout (1366×768): one-line seat cards, closer rows."""
        for card in self.cards.values():
            card.set_compact(compact)
        self.grid.setVerticalSpacing(5 if compact else 8)

    def refresh(self) -> None:
        state = self.console.state
        table = state["table"]
        game = self.console.game
        teams = table["teams"]
        report_max = game.preset.report_max if game is not None else 10
        turn = table["turn"]
        yielded = self._yielder(game)
        for seat in table["seats"]:
            s = seat["seat"]
            badges = []
            if seat["status"] in STATUS_BADGES:
                badges.append(self.tr(STATUS_BADGES[seat["status"]]))
            if seat["opened"]:
                badges.append(self.tr("开点"))
            if game is not None and game.status(s) == "men":
                badges.append(self.tr("闷"))
            if game is not None and game.status(s) == "zha_shao":
                badges.append(self.tr("诈烧"))
            if yielded == s:
                badges.append(self.tr("让牌"))
            if seat["passed"] and not seat["title"]:
                badges.append(self.tr("过"))
            colour = teams[seat["team"]]["color"]
            self.cards[s].show_seat(seat, colour, turn == s, report_max, badges)
        lp = table["last_play"]
        if lp:
            top = self.tr("上手 {seat}号 {words}").format(
                seat=lp["seat"], words=lp["label"].replace(" ", NBSP)
            )
            if lp["gouji"]:
                top += self.tr(" 够级")
            if lp["burn"]:
                top += self.tr(" 烧牌")
        elif table["phase"] == "playing":
            top = self.tr("发牌（新一轮）")
        elif table["phase"] == "over":
            top = table["message"] or self.tr("本局结束")
        else:
            top = self.tr("等待开局")
        if turn:
            who = self.tr("轮到 {seat}号 {name}").format(
                seat=turn, name=self.console.seat_name(turn).replace(" ", NBSP)
            )
            if lp and OPP.get(lp["seat"]) == turn:
                who += "\n" + self.tr("（对头）")
        else:
            who = ""
        self.top.set_lines(top, who)
        rules = {"tv_match": self.tr("比赛规则"), "dagang": self.tr("够级大纲")}.get(
            table["rules"], table["rules"]
        )
        self.header.setText(
            self.tr("第{n}局 / 共{m}局 · {rules}").format(
                n=table["game_no"], m=table["games_in_match"], rules=rules
            )
        )
        odd, even = teams["odd"], teams["even"]
        self.score.setText(
            self.tr("比分  {a} {pa} : {pb} {b}").format(
                a=odd["name"] or self.tr("单号队"),
                pa=odd["points"],
                pb=even["points"],
                b=even["name"] or self.tr("双号队"),
            )
        )
        res = state["match"]["result"]
        status = ""
        if state["match"]["forfeit"]:
            f = state["match"]["forfeit"]
            status = self.tr("弃权：{team}（{why}）").format(
                team=teams[f["team"]]["name"] or f["team"], why=f["reason"]
            )
        if res["winner"]:
            by = {
                "points": self.tr("总分"),
                "extra_game": self.tr("加赛"),
                "lots": self.tr("抽签"),
                "forfeit": self.tr("对方弃权"),
            }.get(res["decided_by"], res["decided_by"])
            status = self.tr("本场胜者：{who}（{by}）").format(
                who=teams[res["winner"]]["name"] or res["winner"], by=by
            )
        elif res["needs_lots"]:
            status = self.tr("加赛后仍平：抽签（G11.2）")
        elif res["needs_extra_game"]:
            status = self.tr("三局总分相同：加赛一局（G11.2）")
        self.result.setText(status)
        self.result.setVisible(bool(status))  # an empty line takes no height from the table
        pens = state["game"]["penalties"]
        if pens:
            parts = [
                f"−{p['points']} {teams[p['team']]['name'] or p['team']}（{p['reason'] or '—'}）"
                for p in pens
            ]
            self.penalties.setText(self.tr("罚分：") + "；".join(parts))
        else:
            self.penalties.setText("")
        self.penalties.setVisible(bool(pens))

    @staticmethod
    def _yielder(game: Any) -> int | None:
        if game is None or game.is_over():
            return None
        moves = game.moves
        if moves and moves[-1].kind == "yield":
            return int(moves[-1].seat)
        return None


class RecordView(QTableView):
    def __init__(self, model: RecordModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("record")
        self.setModel(model)
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(theme.SIZE_RECORD + 14)
        self.setShowGrid(False)
        self.setWordWrap(False)
        h = self.horizontalHeader()  # fixed widths (measuring every row on each decision is slow)
        fm = self.fontMetrics()
        em = max(fm.horizontalAdvance("国"), theme.SIZE_RECORD)
        for col, ems in ((0, 2.2), (1, 5.6), (2, 4.5), (4, 3.5)):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.setColumnWidth(col, int(em * ems))
        h.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the words take what is left
        model.rowsInserted.connect(self._fit_rows)
        model.rowsInserted.connect(lambda *_: self.scrollToBottom())
        model.modelReset.connect(lambda: self._fit_rows(None, 0, model.rowCount() - 1))
        model.modelReset.connect(self.scrollToBottom)

    def _fit_rows(self, _parent: Any, first: int, last: int) -> None:
        """Widen the seat, move and rule-event columns to the widest of the rows just added (never
        narrower): measuring only the new rows keeps a long game cheap."""
        model = self.model()
        fm = self.fontMetrics()
        pad = 2 * 6 + 8
        for col in (1, 2, 4):
            want = self.columnWidth(col)
            for row in range(max(0, first), last + 1):
                text = model.data(model.index(row, col))
                if text:
                    want = max(want, fm.horizontalAdvance(str(text)) + pad)
            if want > self.columnWidth(col):
                self.setColumnWidth(col, want)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        """Keep the latest decision in view when the panel is resized (docks moved, window sized)."""
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 1
        super().resizeEvent(event)
        if at_end:
            self.scrollToBottom()


class EntryLine(QLineEdit):
    """The entry line: keeps focus; owns Enter, Tab, Esc and the arrows; gives up registered hotkeys;
    keys typed while an entry is on its way to the store are kept and replayed after."""

    BUSY_SHOWN_AFTER_MS = 150

    submitted = Signal(str)
    moveSelection = Signal(int)  # -1 up, +1 down
    complete = Signal()
    cleared = Signal()
    emptyKey = Signal(object)  # a Hotkey owning a plain key while the entry is empty

    def __init__(self, hotkeys: HotkeyRegistry | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("entry")
        self.hotkeys = hotkeys
        self._held: list[QKeyEvent] = []
        self._busy = False
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(self.BUSY_SHOWN_AFTER_MS)
        self._busy_timer.timeout.connect(lambda: _set_props(self, busy=self._busy))
        self.setClearButtonEnabled(False)
        self.setMinimumHeight(theme.SIZE_ENTRY + 24)

    def set_busy(self, busy: bool) -> None:
        """Keys typed while an entry is on its way are held (and replayed after the answer) at once;
        the line is shown muted only if the answer takes longer than ``BUSY_SHOWN_AFTER_MS`` — a
        decision is answered in a few ms, and re-styling the line twice for each would cost the Qt
        thread more than that (style sheets re-polish the widget)."""
        self._busy = busy
        if busy:
            self._busy_timer.start()
        else:
            self._busy_timer.stop()
            _set_props(self, busy=False)
        if not busy:
            held, self._held = self._held, []
            for ev in held:
                self.keyPressEvent(ev)

    def drop_held(self) -> None:
        """Forget keys typed ahead (after a refusal the operator corrects the refused text first)."""
        self._held = []

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ShortcutOverride and self.hotkeys is not None:
            if self.hotkeys.owns(e):  # type: ignore[arg-type]
                e.ignore()
                return False
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if self._busy:
            self._held.append(
                QKeyEvent(e.type(), e.key(), e.modifiers(), e.text(), e.isAutoRepeat(), e.count())
            )
            return
        key = e.key()
        mods = e.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not mods:
            self.submitted.emit(self.text())
            return
        if key == Qt.Key.Key_Up and not mods:
            self.moveSelection.emit(-1)
            return
        if key == Qt.Key.Key_Down and not mods:
            self.moveSelection.emit(1)
            return
        if key == Qt.Key.Key_Tab and not mods:
            self.complete.emit()
            return
        if key == Qt.Key.Key_Escape and not mods:
            self.clear()
            self.cleared.emit()
            return
        if not self.text() and self.hotkeys is not None:
            h = self.hotkeys.entry_empty_key(e)
            if h is not None:
                self.emptyKey.emit(h)
                h.action.trigger()
                return
        super().keyPressEvent(e)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002,N802 - Qt API: Tab stays here
        return False


class EntryPanel(QWidget):
    """The record with the entry line under it: prompt, entry, completion list, the engine's verdict."""

    def __init__(
        self, console: Console, hotkeys: HotkeyRegistry | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.console = console
        self.setObjectName("entryPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 8, 8)
        lay.setSpacing(6)
        self.record_model = RecordModel(self)
        self.record = RecordView(self.record_model)
        lay.addWidget(self.record, 1)
        self.banner = QLabel()
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        lay.addWidget(self.banner)
        self.prompt = QLabel()
        self.prompt.setObjectName("prompt")
        self.prompt.setWordWrap(True)
        lay.addWidget(self.prompt)
        self.entry = EntryLine(hotkeys)
        lay.addWidget(self.entry)
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.verdict)
        self.completion_model = CompletionModel(self)
        self.completions = QListView()
        self.completions.setObjectName("completions")
        self.completions.setModel(self.completion_model)
        self.completions.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.completions.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.completions.setUniformItemSizes(True)
        self.completion_rows = 4
        self._fit_completions(self.completion_rows)
        self.completions.clicked.connect(self._clicked)
        lay.addWidget(self.completions)
        self._chosen = -1  # a row picked with the arrows (-1: Enter records what was typed)
        self._refused_text: str | None = None
        self.entry.textChanged.connect(self._text_changed)
        self.entry.submitted.connect(self._submit)
        self.entry.moveSelection.connect(self._move)
        self.entry.complete.connect(self._complete)
        self.entry.cleared.connect(self._text_changed)
        console.stateChanged.connect(self.refresh)
        console.accepted.connect(self._accepted)
        console.rejected.connect(self._rejected)
        console.busyChanged.connect(self.entry.set_busy)
        self.refresh()

    # -- state -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        c = self.console
        names = {s["seat"]: s["name"] for s in c.state["table"]["seats"]}
        headers = ("#", self.tr("座位"), self.tr("出牌"), self.tr("说法"), "")
        if headers != self.record_model.headers:
            self.record_model.set_headers(headers)
        self.record_model.set_record(c.mirror.moves(), names)
        self.prompt.setText(c.mode().prompt)
        dropped = c.state["game"]["dropped"]
        if dropped:
            first = dropped[0]
            lines = "、".join(f"{d['number']}. {d['line']}" for d in dropped[:8]) + (
                "…" if len(dropped) > 8 else ""
            )
            self.banner.setText(
                self.tr("更正后不再成立（请按实际重新录入）：{lines}\n第{n}步 {rule} {zh} / {en}").format(
                    lines=lines, n=first["number"], rule=first["rule"], zh=first["zh"], en=first["en"]
                )
            )
            self.banner.show()
        elif self.banner.property("kind") != "recovered":
            self.banner.hide()
        self._text_changed()

    def _text_changed(self, *_: Any) -> None:
        text = self.entry.text()
        self._chosen = -1
        self.completions.clearSelection()
        self.completion_model.set_suggestions(self.console.suggestions(text))
        if not self._rows_fitted and self.completion_model.rowCount():
            self._fit_completions(self.completion_rows)
        if self._refused_text is not None and text == self._refused_text:
            return  # keep the refusal on screen until the text is edited
        self._refused_text = None
        self._set_refused(False)
        v = self.console.verdict(text)
        if v is None:
            self.verdict.setText("")
        else:
            self._show_verdict(v, hint=True)

    def _show_verdict(self, v: Any, hint: bool) -> None:
        rule = f"{v.rule}  " if v.rule else ""
        mark = "" if hint else "✕ "
        self.verdict.setText(f"{mark}{rule}{v.zh}\n{v.en}")
        _set_props(self.verdict, hint=hint)

    def _set_refused(self, refused: bool) -> None:
        _set_props(self.entry, refused=refused)

    def set_compact(self, compact: bool) -> None:
        """The laptop layout: three suggestions in view instead of four (the record keeps its rows)."""
        self.completion_rows = 3 if compact else 4
        self._fit_completions(self.completion_rows)

    def _fit_completions(self, rows: int) -> None:
        """Exactly ``rows`` rows high (no half row at the bottom)."""
        probe = self.completions.sizeHintForRow(0)
        row = probe if probe > 0 else self.completions.fontMetrics().height() + 8
        self._rows_fitted = probe > 0
        self.completions.setFixedHeight(rows * row + 2 * self.completions.frameWidth())

    # -- keys ----------------------------------------------------------------------------------------
    def _move(self, step: int) -> None:
        n = self.completion_model.rowCount()
        if not n:
            return
        self._chosen = max(0, min(n - 1, self._chosen + step)) if self._chosen >= 0 or step > 0 else -1
        if self._chosen < 0:
            self.completions.clearSelection()
            return
        idx = self.completion_model.index(self._chosen)
        self.completions.setCurrentIndex(idx)
        self.completions.scrollTo(idx)

    def _complete(self) -> None:
        row = self._chosen if self._chosen >= 0 else 0
        s = self.completion_model.suggestion(row)
        if s is not None:
            self.entry.setText(self._text_for(s))

    def _text_for(self, s: Any) -> str:
        game = self.console.game
        pending = game.pending_seat if game is not None else None
        line = str(s.line)
        return line if s.seat != pending else line.split(" ", 1)[1]

    def _clicked(self, index: QModelIndex) -> None:
        s = self.completion_model.suggestion(index.row())
        if s is not None:
            self.entry.setText(self._text_for(s))
        self.entry.setFocus()

    def _submit(self, text: str) -> None:
        if self._chosen >= 0:
            s = self.completion_model.suggestion(self._chosen)
            if s is not None:
                text = s.line
        self.console.submit(text)

    def _accepted(self, _line: str) -> None:
        if self.banner.property("kind") == "recovered":  # the recovery notice stays until work resumes
            self.banner.setProperty("kind", "")
            self.banner.hide()
        self.entry.clear()
        self._refused_text = None
        self._set_refused(False)
        self.verdict.setText("")

    def _rejected(self, v: Any) -> None:
        self.entry.drop_held()
        self._refused_text = self.entry.text()
        self._set_refused(True)
        self._show_verdict(v, hint=False)
