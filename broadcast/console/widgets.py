"""The console's widgets: the table (six seats, the top play, the match score), the record, the entry.

Widgets read the controller's state and mirror and call its methods; they never touch the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QFontMetricsF, QKeyEvent, QPainter, QPen
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

from broadcast.console import words
from broadcast.console.controller import Console
from broadcast.console.hotkeys import HotkeyRegistry
from broadcast.console.mirror import GameMirror
from broadcast.console.models import CompletionModel, RecordModel
from broadcast.qt import theme
from broadcast.qt.widgets import ElidedLabel, set_props
from engine import words as engine_words

OPP = {1: 4, 2: 5, 3: 6, 4: 1, 5: 2, 6: 3}
# where each seat sits on screen (row, column of a 4×3 grid): counterclockwise from seat 1 at the
# bottom, 对头 across (1↔4, 2↔5, 3↔6), as in the studio seen from the camera above
SEAT_CELLS = {1: (3, 1), 2: (2, 2), 3: (1, 2), 4: (0, 1), 5: (1, 0), 6: (2, 0)}


class SeatCard(QFrame):
    """One seat: number and name (cut with its tooltip only if it cannot fit), team colour, cards left
    (报牌 ≤ 10 highlighted) or the title, and under them the badges (无头, 开点, 过 …), which wrap
    between badges and take the lines they need: nothing on the card covers anything else."""

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName(f"seat{seat}")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.grid = QGridLayout(self)
        self.grid.setHorizontalSpacing(8)
        self.grid.setVerticalSpacing(0)
        self.name = ElidedLabel()
        self.name.setObjectName("seatName")
        self.count = QLabel()
        self.count.setObjectName("seatCount")
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.badges = QLabel()
        self.badges.setObjectName("seatBadges")
        self.badges.setWordWrap(True)
        self.badges.hide()
        self.grid.addWidget(self.name, 0, 0)
        self.grid.addWidget(self.count, 0, 1)
        self.grid.addWidget(self.badges, 1, 0, 1, 2)
        self.grid.setColumnStretch(0, 1)
        self.title_below = False  # the title on the badges' line: the name and it do not fit on one
        self.compact = False
        self.set_compact(False)
        self.state: dict[str, Any] = {}
        self._look: tuple[str, bool] = (theme.BORDER, False)

    def set_compact(self, compact: bool) -> None:
        """Closer margins and smaller type on a laptop screen: the table then leaves the record and the
        cue list their rows."""
        self.compact = compact
        for w in (self.name, self.count, self.badges):
            set_props(w, compact=compact)
        # a minimum width only: the height is what its lines need (a squeezed card would cut them)
        if compact:
            self.setMinimumWidth(120)
            self.grid.setContentsMargins(14, 2, 8, 3)
        else:
            self.setMinimumWidth(128)
            self.grid.setContentsMargins(14, 5, 10, 6)

    def show_seat(
        self,
        seat: dict[str, Any],
        colour: str,
        turn: bool,
        report_max: int,
        badges: list[str],
        lang: str = "zh",
    ) -> None:
        self.state = {"seat": seat, "turn": turn, "badges": list(badges)}
        self.name.set_full_text(words.seat_label(int(seat["seat"]), str(seat["name"]), lang, sep="  "))
        title = seat.get("title")
        cards = int(seat["cards_left"])
        hot = not title and cards <= report_max and seat.get("status") in ("playing", "wutou", "burning")
        self.count.setText(words.title_words(str(title), lang) if title else str(cards))
        self.count.setToolTip("" if title else self.tr("还剩 %n 张", "", cards))
        set_props(self.count, hot=hot, title=bool(title))
        text = " · ".join(b.replace(" ", NBSP) for b in badges)  # a line breaks only between badges
        self.badges.setText(text)
        self.badges.setVisible(bool(badges))
        self._place_title()
        self._fit_badges()
        if (colour, turn) != self._look:
            self._look = (colour, turn)
            self.update()

    def _place_title(self) -> None:
        """A title (头科 … 大落; "fourth", "second" in English) goes under the name, on the badges' line,
        where the name and it do not fit on one line: the name is then whole, never cut to "3 …"."""
        title = bool(self.count.property("title"))
        margins = self.grid.contentsMargins()
        room = self.contentsRect().width() - margins.left() - margins.right()
        need = (
            QFontMetrics(self.name.font()).horizontalAdvance(self.name.full_text())
            + self.grid.horizontalSpacing()
            + self.count.sizeHint().width()
        )
        below = title and room > 0 and need > room
        if below == self.title_below:
            return
        self.title_below = below
        for w in (self.name, self.count, self.badges):
            self.grid.removeWidget(w)
        if below:  # the name across the card, the badges and the title under it
            self.grid.addWidget(self.name, 0, 0, 1, 2)
            self.grid.addWidget(self.badges, 1, 0)
            self.grid.addWidget(self.count, 1, 1)
        else:
            self.grid.addWidget(self.name, 0, 0)
            self.grid.addWidget(self.count, 0, 1)
            self.grid.addWidget(self.badges, 1, 0, 1, 2)

    def _fit_badges(self) -> None:
        """The badges' lines at the card's width are the least height the card gets (a wrapped label
        alone does not ask its layout for its second line: it would be cut)."""
        width = self.badges.width() if self.badges.width() > 0 else self.width()
        need = self.badges.heightForWidth(width) if self.badges.text() else 0
        if need > 0 and need != self.badges.minimumHeight():
            self.badges.setMinimumHeight(need)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._place_title()
        self._fit_badges()

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

    def painted_texts(self) -> list[tuple[str, QRectF, QFont]]:
        """Each line as laid out (before any "…"), the rectangle it is drawn in and its font: for the
        clipped-text audit (a line wider than its oval is a line the operator cannot read)."""
        out = []
        _r, top_rect, turn_rect = self.rects()
        for (px, lines), rect in zip(self.layout_text(), (top_rect, turn_rect), strict=True):
            f = theme.font(px, bold=True)
            step = QFontMetricsF(f).lineSpacing()
            y = rect.top() + max(0.0, (rect.height() - step * len(lines)) / 2)
            for line in lines:
                out.append((line.replace(NBSP, " "), QRectF(rect.left(), y, rect.width(), step), f))
                y += step
        return out

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

    def badges(self, seat: dict[str, Any], yielded: int | None, lang: str) -> list[str]:
        """A seat's badges in the engine's words: 无头 / 烧牌中 / 革命, 开点, 闷 / 诈烧, 让牌, 过."""
        game = self.console.game
        s = seat["seat"]
        out = []
        if seat["status"] in ("wutou", "burning"):
            out.append(engine_words.seat_word(seat["status"], lang))
        elif seat["status"] == "sitting_out":
            out.append(engine_words.event_word("revolt", lang))
        if seat["opened"]:
            out.append(engine_words.event_word("open", lang))
        status = game.status(s) if game is not None else None
        if status in ("men", "zha_shao"):
            out.append(engine_words.event_word(str(status), lang))
        if yielded == s:
            out.append(engine_words.kind_word("yield", lang))
        if seat["passed"] and not seat["title"]:
            out.append(engine_words.kind_word("pass", lang))
        return out

    def refresh(self) -> None:
        state = self.console.state
        table = state["table"]
        game = self.console.game
        teams = table["teams"]
        lang = self.console.lang
        report_max = game.preset.report_max if game is not None else 10
        turn = table["turn"]
        yielded = self._yielder(game)
        for seat in table["seats"]:
            colour = teams[seat["team"]]["color"]
            badges = self.badges(seat, yielded, lang)
            self.cards[seat["seat"]].show_seat(seat, colour, turn == seat["seat"], report_max, badges, lang)
        lp = table["last_play"]
        if lp:
            top = self.tr("上手 {seat}号 {words}").format(
                seat=lp["seat"], words=words.top_play_words(lp, lang).replace(" ", NBSP)
            )
            if lp["gouji"]:
                top += " " + engine_words.gouji_word(lang)
            if lp["burn"]:
                top += " " + words.burn_word(lang)
        elif table["phase"] == "playing":
            top = self.tr("发牌（新一轮）")
        elif table["phase"] == "over":
            top = table["message"] or self.tr("本局结束")
        else:
            top = self.tr("等待开局")
        if turn:
            who = self.tr("轮到 {who}").format(who=self.console.seat_who(turn).replace(" ", NBSP))
            if lp and OPP.get(lp["seat"]) == turn:
                who += "\n" + self.tr("（对头）")
        else:
            who = ""
        self.top.set_lines(top, who)
        rules = words.preset_words(table["rules"], lang)
        header = self.tr("第{n}局 / 共{m}局 · {rules}").format(
            n=table["game_no"], m=table["games_in_match"], rules=rules
        )
        known = sum(1 for h in state["game"]["hands"] if h)
        if known:  # the operator sees that the engine checks the hands, not only the counts
            header += " · " + (
                self.tr("手牌已录（六家）") if known == 6 else self.tr("手牌已录 %n 家", "", known)
            )
        self.header.setText(header)
        self.header.setProperty("hands", bool(known))
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
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setProperty("elidedColumns", [3, 4])  # the words and events: the row's tooltip has them whole
        h = self.horizontalHeader()  # fixed widths (measuring every row on each decision is slow)
        fm = QFontMetrics(theme.font(theme.SIZE_RECORD))
        self.pad = 2 * 6 + 10  # the style's cell padding and the focus margin
        em = fm.horizontalAdvance("国")
        # "#" holds a three-digit move ("第153步"); a seat and its name; the cards
        for col, width in ((0, fm.horizontalAdvance("000")), (1, em * 4), (2, em * 4)):
            h.setSectionResizeMode(
                col, QHeaderView.ResizeMode.Fixed if col == 0 else QHeaderView.ResizeMode.Interactive
            )
            self.setColumnWidth(col, width + self.pad)
        h.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the words and the events share the rest
        h.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        model.rowsInserted.connect(self._fit_rows)
        model.rowsInserted.connect(lambda *_: self.scrollToBottom())
        model.modelReset.connect(lambda: self._fit_rows(None, 0, model.rowCount() - 1))
        model.modelReset.connect(self.scrollToBottom)

    def _fit_rows(self, _parent: Any, first: int, last: int) -> None:
        """Widen the seat and move columns to the widest of the rows just added (never narrower):
        measuring only the new rows keeps a long game cheap."""
        model = self.model()
        fm = QFontMetrics(theme.font(theme.SIZE_RECORD, bold=True))  # a lead's words are bold
        for col in (1, 2):
            want = self.columnWidth(col)
            for row in range(max(0, first), last + 1):
                text = model.data(model.index(row, col))
                if text:
                    want = max(want, fm.horizontalAdvance(str(text)) + self.pad)
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
        self._busy_timer.timeout.connect(lambda: set_props(self, busy=self._busy))
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
            set_props(self, busy=False)
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
        self.hotkeys = hotkeys
        # a rehearsal's window (broadcast.console.rehearsal): what it is about, a bar saying where the
        # table stands in the record, the record's later moves shown greyed, a check before a decision
        self.rehearsal: Any = None
        self.before_submit: Callable[[str], bool] | None = None
        self.rehearsal_bar = ElidedLabel()  # one line (the record keeps its rows); the tooltip says all
        self.rehearsal_bar.setObjectName("rehearsalBar")
        self.rehearsal_bar.hide()
        lay.addWidget(self.rehearsal_bar)
        self._ahead = GameMirror()  # the record to its end, for the later moves' rows
        self._at: int | None = None  # the move the rehearsal's table stood at when last shown
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
        self.compact = False
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
        console.queued.connect(self._accepted)  # the line is on its way: the entry is free for the next
        console.saved.connect(self._saved)
        console.rejected.connect(self._rejected)
        console.busyChanged.connect(self.entry.set_busy)
        self.refresh()

    # -- state -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        c = self.console
        names = c.seat_labels()
        headers = ("#", self.tr("座位"), self.tr("出牌"), self.tr("说法"), "")
        if headers != self.record_model.headers:
            self.record_model.set_headers(headers)
        if self.rehearsal is None:
            self.record_model.set_record(c.mirror.moves(c.lang), names, c.pending_from())
        else:
            self._show_rehearsal(names)
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
        elif self.banner.property("kind") not in ("recovered", "saved"):
            self.banner.hide()
        self._text_changed()

    def _show_rehearsal(self, names: dict[int, str]) -> None:
        """The whole record, the moves after the table's greyed, the table's move selected; the bar
        says where the table stands and how to step."""
        c = self.console
        moves = c.mirror.moves(c.lang)
        g = c.state["game"]
        k = len(g["record"])
        later_from = None
        if g["redo"] and not c.pending:
            self._ahead.update({**c.state, "game": {**g, "record": [*g["record"], *reversed(g["redo"])]}})
            later_from = len(moves)
            moves = self._ahead.moves(c.lang)
        self.record_model.set_record(moves, names, c.pending_from(), later_from)
        n = k + len(g["redo"])
        if k != self._at:
            self._at = k
            if k:
                self.record.selectRow(k - 1)
                self.record.scrollTo(
                    self.record_model.index(k - 1, 0), QAbstractItemView.ScrollHint.PositionAtCenter
                )
            else:
                self.record.clearSelection()
                self.record.scrollToTop()

        def key(id_: str) -> str:
            return self.hotkeys.native(id_) if self.hotkeys is not None else ""

        where = self.tr("彩排 {file}：牌桌在第{k}步 / 共{n}步（彩排数据库 {db}，节目数据库未动）")
        how = self.tr("{back}/{forward} 逐步，{start}/{end} 开局/最后；从这一步打字即接着打")
        line = self.tr("彩排 {file}：第{k}步 / 共{n}步 · {back}/{forward} 逐步 · 打字即从这一步接着打")
        keys = {
            "back": key("record.back"),
            "forward": key("record.forward"),
            "start": key("record.start"),
            "end": key("record.end"),
        }
        name = self.rehearsal.name
        shown = line.format(file=name, k=k, n=n, **keys)
        self.rehearsal_bar.set_full_text(
            shown,
            "\n".join((shown, where.format(file=name, k=k, n=n, db=self.rehearsal.db), how.format(**keys))),
        )
        self.rehearsal_bar.show()

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
            self._set_verdict("")
        else:
            self._show_verdict(v, hint=True)

    def _show_verdict(self, v: Any, hint: bool) -> None:
        rule = f"{v.rule}  " if v.rule else ""
        mark = "" if hint else "✕ "
        self._set_verdict(f"{mark}{rule}{v.zh}\n{v.en}")
        set_props(self.verdict, hint=hint)

    def _set_refused(self, refused: bool) -> None:
        set_props(self.entry, refused=refused)

    def _set_verdict(self, text: str) -> None:
        """The verdict line. On a laptop screen it takes its lines from the suggestions only while it
        has something to say (the record keeps its rows, the entry does not move)."""
        self.verdict.setText(text)
        if self.compact and bool(text) != self.verdict.isVisibleTo(self):
            self.verdict.setVisible(bool(text))
            self._fit_completions(self.completion_rows)

    def set_compact(self, compact: bool) -> None:
        """The laptop layout: two suggestions in view instead of four, the verdict in their place
        while there is one (the record keeps its rows)."""
        self.compact = compact
        self.completion_rows = 2 if compact else 4
        self.verdict.setVisible(not compact or bool(self.verdict.text()))
        self._fit_completions(self.completion_rows)

    def _fit_completions(self, rows: int) -> None:
        """Exactly ``rows`` rows high (no half row at the bottom), less the verdict's lines on a laptop
        screen while it shows."""
        probe = self.completions.sizeHintForRow(0)
        row = probe if probe > 0 else self.completions.fontMetrics().height() + 8
        self._rows_fitted = probe > 0
        if self.compact and self.verdict.isVisibleTo(self):
            taken = -(-self.verdict.sizeHint().height() // row)  # whole rows the verdict takes
            rows = max(1, rows - taken)
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
        if self.before_submit is not None and not self.before_submit(text):
            return  # a rehearsal asks first, or stepped instead (broadcast.console.rehearsal)
        self.console.submit(text)

    def _accepted(self, _line: str) -> None:
        if self.banner.property("kind") in ("recovered", "saved"):  # shown until work resumes
            self.banner.setProperty("kind", "")
            self.banner.hide()
        self.entry.clear()
        self._refused_text = None
        self._set_refused(False)
        self._set_verdict("")

    def _saved(self, text: str) -> None:
        """Saved to the season: said on the table's side of the screen until the next decision."""
        self.banner.setText("✓ " + text)
        self.banner.setProperty("kind", "saved")
        self.banner.show()

    def _rejected(self, v: Any) -> None:
        self.entry.drop_held()
        self._refused_text = self.entry.text()
        self._set_refused(True)
        self._show_verdict(v, hint=False)
