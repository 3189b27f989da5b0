"""The Cue list dock: the episode's rundown from the placements as a cue list, in the manner of QLab and
the CasparCG client — the next cue highlighted, GO on one key (F9, or Space while the entry line is
empty), timed cues (bumpers, films) with a countdown, the opening bumpers in contract order running on
by themselves, the 英雄榜 followed by its 冠名 film, and what became of every cue GO'd: done, cut short,
skipped, late (by how much), stopped by panic, failed (with why: e.g. OBS not connected).

The cue list and its progress live in the journaled show state (``cues`` section, reducers in
:mod:`broadcast.sponsors.cues`); this widget only shows it and asks for ``cues.go`` / ``cues.skip`` /
``cues.next``. Each GO carries the id of the cue the operator sees as next, so a second press (or a GO
from a Stream Deck at the same moment) is refused instead of running the cue after it.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from broadcast.clock import STUDIO_TZ
from broadcast.console import names
from broadcast.console.docks.onair import OnAir
from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, current, tr
from broadcast.qt.widgets import ElidedLabel
from broadcast.sponsors.cues import CueView, rows

CTX = "CueList"
TITLE = QT_TRANSLATE_NOOP("CueList", "节目流程 CUE LIST")
HEADERS = (
    "",
    "#",
    QT_TRANSLATE_NOOP("", "提示"),
    QT_TRANSLATE_NOOP("", "类别"),
    QT_TRANSLATE_NOOP("", "开始"),
    QT_TRANSLATE_NOOP("", "时长/剩余"),
    QT_TRANSLATE_NOOP("", "赞助商"),
    QT_TRANSLATE_NOOP("", "说明"),
)
LABEL_SHARE = 70  # per cent of the cue list's free width for the cue's text (the notes get the rest)
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum"
STATUS_GAP = 24  # px between the next cue and the cue list's state on one row
STATUS_EMS = 8  # the cue list's state beside the next cue on one row: at least this many letters' room
Index = QModelIndex | QPersistentModelIndex
NO_INDEX = QModelIndex()
STATUS_MARK = {
    "running": ("▶", theme.OK),
    "done": ("✓", theme.MUTED),
    "cut": ("✂", theme.WARN),
    "skipped": ("⤼", theme.WARN),
    "stopped": ("■", theme.DANGER),
    "failed": ("✕", theme.DANGER),
}


_ENDED = {  # how a cue that did not run its length ended
    "cut": QT_TRANSLATE_NOOP("", "提前结束"),
    "stopped": QT_TRANSLATE_NOOP("", "清屏中断"),
    "failed": QT_TRANSLATE_NOOP("", "未播出"),
}


def clock_text(ts: float) -> str:
    return datetime.fromtimestamp(ts, STUDIO_TZ).strftime("%H:%M:%S") if ts else ""


def mmss(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def cue_words(cue: Any, key: str) -> str:
    """A cue's ``label`` or ``notes`` in the UI language: in the English UI the rundown's generated words
    in English (``label_en``/``notes_en``); a text the producer typed (none in English) as typed."""
    if current() == "en":
        en = str(cue.get(f"{key}_en") or "")
        if en:
            return en
    return str(cue.get(key, "") or "")


class CueModel(QAbstractTableModel):
    COLUMNS = ("mark", "number", "label", "kind", "time", "length", "sponsor", "notes")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.views: list[CueView] = []
        self._bold = theme.font(theme.SIZE_BASE + 2, bold=True)

    def set_views(self, views: list[CueView]) -> None:
        if len(views) != len(self.views):
            self.beginResetModel()
            self.views = views
            self.endResetModel()
            return
        self.views = views
        if views:
            self.dataChanged.emit(self.index(0, 0), self.index(len(views) - 1, len(self.COLUMNS) - 1))

    def rowCount(self, parent: Index = NO_INDEX) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.views)

    def columnCount(self, parent: Index = NO_INDEX) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(  # noqa: N802 - Qt API
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(HEADERS[section]) if HEADERS[section] else ""
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.views):
            return None
        v = self.views[index.row()]
        col = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(v, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == "mark" and v.status in STATUS_MARK:
                return QBrush(QColor(STATUS_MARK[v.status][1]))
            if col == "mark" and v.is_next:
                return QBrush(QColor(theme.ACCENT))
            if col == "time" and v.late:
                return QBrush(QColor(theme.WARN))
            if v.status in ("failed", "stopped"):
                return QBrush(QColor(theme.DANGER))
            if v.status in ("done", "skipped", "cut"):
                return QBrush(QColor(theme.MUTED))
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            if v.status == "running":
                return QBrush(QColor("#173524"))
            if v.is_next:
                return QBrush(QColor("#3a3312"))
            return None
        if role == Qt.ItemDataRole.FontRole and (v.is_next or v.status == "running"):
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole row: the label and notes may be cut
            parts = [
                f"{v.index + 1}. {self._text(v, 'label')}",
                self._text(v, "sponsor"),
                self._text(v, "notes"),
            ]
            return "\n".join(p for p in parts if p)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("number", "time", "length"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, v: CueView, col: str) -> str:
        c = v.cue
        if col == "mark":
            if v.status in STATUS_MARK:
                return STATUS_MARK[v.status][0]
            return "→" if v.is_next else ""
        if col == "number":
            return str(v.index + 1)
        if col == "label":
            extra = ""
            if c.get("follow"):
                extra = tr("（接上条自动）")
            return cue_words(c, "label") + extra
        if col == "kind":
            return names.say(names.kind(c["kind"]))
        if col == "time":
            if not v.go:
                return ""
            text = clock_text(v.go)
            if v.late:
                text += tr(" 迟{s}秒").format(s=int(round(v.late)))
            return text
        if col == "length":
            secs = c.get("seconds")
            if v.status == "running" and v.remaining is not None:
                return tr("剩 {t}").format(t=mmss(v.remaining))
            if v.status == "running":
                return tr("进行中 {t}").format(t=mmss(time.time() - v.go)) if v.go else tr("进行中")
            if v.status in ("done", "cut", "stopped", "failed") and v.end and v.go:
                text = mmss(v.end - v.go)
                if v.status != "done":
                    text += " " + tr(_ENDED[v.status])
                return text
            if v.status == "skipped":
                return tr("跳过")
            return f"{secs} s" if secs else "—"
        if col == "sponsor":
            return str(c.get("sponsor_name", ""))
        if col == "notes":
            return v.note or cue_words(c, "notes")
        return ""


class CueTable(QTableView):
    """The cue list's table: when it is resized (the window laid out after a restart, a dock dragged)
    the next cue is brought back into view. The cue's text and the notes share what the short columns
    leave, the cue's text the larger part (``LABEL_SHARE``): it is what the operator reads."""

    resized = Signal()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.share()
        self.resized.emit()

    def share(self, _section: int = -1, _old: int = 0, _new: int = 0) -> None:
        """The notes column gets ``1 - LABEL_SHARE`` of the room the short columns leave; the cue's
        text (stretched) the rest."""
        h = self.horizontalHeader()
        notes, label = CueModel.COLUMNS.index("notes"), CueModel.COLUMNS.index("label")
        if _section in (notes, label) or h.count() <= notes:
            return
        short = sum(h.sectionSize(c) for c in range(h.count()) if c not in (notes, label))
        room = max(0, self.viewport().width() - short)
        width = max(h.minimumSectionSize(), room * (100 - LABEL_SHARE) // 100)
        if h.sectionSize(notes) != width:
            h.resizeSection(notes, width)


class CuePanel(QWidget):
    measured = Signal()  # another rundown (or language): the header needs another width

    def __init__(self, onair: OnAir, clock: Any = time.time, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.onair = onair
        self.console = onair.console
        self.clock = clock
        self.setObjectName("cuePanel")
        lay = self.lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 6)
        lay.setSpacing(4)
        # the header: the next cue (QLab: always read whole), the cue list's state (the episode, the cue
        # running), skip and GO — one row where the panel has room for the rundown's longest next cue
        # beside the buttons, else the next cue on a line of its own above them (see ``arrange``)
        self.headline = ElidedLabel()  # 下一条：N. … (or 已走完 / 未载入)
        self.headline.setObjectName("prompt")
        self.headline.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.status = ElidedLabel()  # 节目流程 第N期 · 进行中：… (cut with its tooltip where short)
        self.status.setObjectName("prompt")
        self.status.setStyleSheet(f"color: {theme.MUTED};")  # set apart from the next cue beside it
        self.go_button = QPushButton()
        self.go_button.setObjectName("goButton")
        self.go_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.go_button.setMinimumSize(210, 44)
        self.go_button.setFont(theme.font(theme.SIZE_BASE + 5, bold=True))
        self.go_button.setStyleSheet(
            f"QPushButton#goButton {{ background: #1f5f3a; border: 2px solid {theme.OK};"
            " border-radius: 6px; }"
            f"QPushButton#goButton:disabled {{ background: {theme.PANEL_2}; color: {theme.MUTED};"
            f" border-color: {theme.BORDER}; }}"
        )
        self.go_button.clicked.connect(lambda _c=False: self.go())
        self.skip_button = QPushButton()
        self.skip_button.setObjectName("skipButton")
        self.skip_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.skip_button.setMinimumHeight(44)
        self.skip_button.clicked.connect(lambda _c=False: self.skip())
        self.top = QGridLayout()
        self.top.setContentsMargins(0, 0, 0, 0)
        self.top.setHorizontalSpacing(8)
        self.top.setVerticalSpacing(4)
        self.top.setColumnStretch(1, 1)
        self.one_row: bool | None = None  # how the header is arranged now (None: not yet)
        self._longest = ""  # the rundown's longest next-cue header (the one-row decision is per rundown)
        lay.addLayout(self.top)
        self.model = CueModel(self)
        self.view = CueTable()
        self.view.setObjectName("cues")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(theme.SIZE_BASE + 16)
        self.view.setShowGrid(False)
        self.view.setWordWrap(False)
        self.view.setProperty("elidedColumns", [2, 7])  # a cue's text and notes: the row's tooltip has them
        self.view.setFont(theme.font(theme.SIZE_BASE + 2))
        h = self.view.horizontalHeader()
        for col, mode in enumerate(
            ("fixed", "contents", "stretch", "contents", "contents", "contents", "contents", "share")
        ):
            if mode == "contents":
                h.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
            elif mode == "stretch":
                h.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.view.setColumnWidth(0, 34)
        h.sectionResized.connect(self.view.share)  # a short column grew with its contents
        self.view.doubleClicked.connect(self._set_next)
        self.view.resized.connect(self.show_next)
        self.view.setToolTip(tr("双击一条提示：设为下一条（不执行）"))
        lay.addWidget(self.view, 1)
        self.message = QLabel()
        self.message.setObjectName("verdict")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        lay.addWidget(self.message)
        self.timer = QTimer(self)
        self.timer.setInterval(250)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        self._seen: Any = None
        self.console.stateChanged.connect(self._changed)
        onair.refused.connect(self._refused)
        onair.done.connect(self._done)
        self._last_next = -1
        self.refresh()
        self.arrange()

    # -- operations ----------------------------------------------------------------------------
    def next_view(self) -> CueView | None:
        return next((v for v in self.model.views if v.is_next), None)

    def go(self) -> None:
        nxt = self.next_view()
        if nxt is None:
            self._say(tr("节目流程已走完（或未载入）"), "the cue list is through (or not loaded)")
            return
        self.onair.run("go", expect=nxt.cue["id"])

    def skip(self) -> None:
        self.onair.run("skip")

    def _set_next(self, index: QModelIndex) -> None:
        self.console.act("cues.next", {"index": index.row()})

    def _refused(self, name: str, zh: str, en: str) -> None:
        if name in ("go", "skip"):
            self._say(zh, en)

    def _done(self, name: str, _change: Any) -> None:
        if name in ("go", "skip"):
            self.message.hide()

    def _say(self, zh: str, en: str) -> None:
        self.message.setText(f"✕ {zh} / {en}")
        self.message.show()

    # -- view -----------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.console.state["cues"] is not self._seen:  # an action that touched the cue list
            self.refresh()

    def refresh(self) -> None:
        cq = self.console.state["cues"]
        self._seen = cq
        views = rows(cq, self.clock())
        self.model.set_views(views)
        nxt = self.next_view()
        cur = cq.get("current")
        running = next((v for v in views if cur and v.cue["id"] == cur["id"]), None)
        parts = [tr("节目流程 {ep}").format(ep=cq.get("episode") or "")]
        if running is not None:
            left = f" {mmss(running.remaining)}" if running.remaining is not None else ""
            parts.append(tr("进行中：{label}{left}").format(label=cue_words(running.cue, "label"), left=left))
        self.status.set_full_text("   ·   ".join(parts))
        if nxt is not None:
            self.headline.set_full_text(self.next_text(nxt.index))
        elif views:
            self.headline.set_full_text(tr("已走完"))
        else:
            self.headline.set_full_text(tr("未载入（需要赞助排期）"))
        longest = max((self.next_text(v.index) for v in views), key=self._advance, default="")
        if longest != self._longest:  # another rundown (or language): the header's arrangement anew
            self._longest = longest
            self.arrange()
            self.measured.emit()
        space = self.onair.key("cues.go_space")
        space = tr("空格") if space == "Space" else space
        go = self.onair.key("cues.go")
        self.go_button.setText(tr("GO  {a} / {b}").format(a=space, b=go) if nxt is not None else tr("已走完"))
        self.go_button.setEnabled(nxt is not None)
        self.skip_button.setText(tr("跳过 {k}").format(k=self.onair.key("cues.skip")))
        self.skip_button.setEnabled(nxt is not None)
        if nxt is not None and nxt.index != self._last_next:
            self._last_next = nxt.index
            self.show_next()

    def next_text(self, index: int) -> str:
        """The header's words for cue ``index`` as the next one."""
        return tr("下一条：{n}. {label}").format(
            n=index + 1, label=cue_words(self.model.views[index].cue, "label")
        )

    def _advance(self, text: str) -> int:
        self.headline.ensurePolished()  # the style sheet's font (the header's 20 px), not the default
        return QFontMetrics(self.headline.font()).horizontalAdvance(text)

    def header_room(self) -> int:
        """The width the header needs on one row: the rundown's longest next cue whole, the cue list's
        state (at least its first words) and skip and GO beside it."""
        spacing = self.top.horizontalSpacing()
        return (
            self._advance(self._longest)
            + 2 * self.headline.margin()
            + self._status_room()
            + self.skip_button.sizeHint().width()
            + max(self.go_button.sizeHint().width(), self.go_button.minimumWidth())
            + 3 * spacing
            + 4
        )

    def _status_room(self) -> int:
        """The least room for the cue list's state beside the next cue on one row."""
        self.status.ensurePolished()
        fm = QFontMetrics(self.status.font())
        return STATUS_GAP + min(
            fm.horizontalAdvance(self.status._full), fm.horizontalAdvance("M") * STATUS_EMS
        )

    def line_room(self) -> int:
        """The panel's width for the rundown's longest next cue whole on a line of its own."""
        margins = self.lay.contentsMargins()
        frame = 2 * self.headline.margin() + margins.left() + margins.right() + 4
        return self._advance(self._longest) + frame

    def arrange(self) -> None:
        """The header on one row (the next cue, the state, skip, GO) where the panel has room for the
        rundown's longest next cue beside the buttons, else the next cue on a line of its own. Decided
        for the rundown, not for the cue: the rows do not jump as the cues advance."""
        margins = self.lay.contentsMargins()
        inner = self.width() - margins.left() - margins.right()
        one = inner >= self.header_room()
        # on one row the state gets what the next cue and the buttons leave (the next cue is whole)
        rest = inner - (self.header_room() - self._status_room())
        self.status.setMaximumWidth(max(0, rest) if one else QWIDGETSIZE_MAX)
        if one == self.one_row:
            return
        self.one_row = one
        self.status.setContentsMargins(STATUS_GAP if one else 0, 0, 0, 0)  # apart from the next cue beside
        for w in (self.headline, self.status, self.skip_button, self.go_button):
            self.top.removeWidget(w)
        if one:
            self.top.addWidget(self.headline, 0, 0)
            self.top.addWidget(self.status, 0, 1)
            self.top.addWidget(self.skip_button, 0, 2)
            self.top.addWidget(self.go_button, 0, 3)
        else:
            self.top.addWidget(self.headline, 0, 0, 1, 4)
            self.top.addWidget(self.status, 1, 0, 1, 2)
            self.top.addWidget(self.skip_button, 1, 2)
            self.top.addWidget(self.go_button, 1, 3)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.arrange()

    def show_next(self) -> None:
        """The next cue in view, two done ones above it (QLab's way), whatever the view's size now."""
        nxt = self.next_view()
        if nxt is not None:
            self.view.scrollTo(
                self.model.index(max(0, nxt.index - 2), 0), QAbstractItemView.ScrollHint.PositionAtTop
            )

    def retranslate(self) -> None:
        """The UI language changed: the column titles and every row's words (and the header's room)."""
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(CueModel.COLUMNS) - 1)
        self._longest = ""
        self.refresh()
        self.arrange()

    def tick(self) -> None:
        """Every 250 ms: the countdown of the running cue."""
        cq = self.console.state["cues"]
        if cq.get("current") is not None:
            self.refresh()


def register(window: Any, onair: OnAir) -> CuePanel:
    """The cue list dock and its keys (bound by id: :mod:`broadcast.console.keys`)."""
    panel = CuePanel(onair)
    bind = window.hotkeys.bind
    bind("cues.go", panel.go)
    bind("cues.go_space", panel.go)
    bind("cues.skip", panel.skip)
    window.add_dock("cues", TITLE, panel, Qt.DockWidgetArea.BottomDockWidgetArea, CTX)
    panel.measured.connect(window.layout_.resized)  # a default layout places the 胜率 chart for it anew
    return panel
