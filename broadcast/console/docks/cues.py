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
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from broadcast.clock import STUDIO_TZ
from broadcast.console import names
from broadcast.console.docks.onair import OnAir
from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, tr
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
            return str(c["label"]) + extra
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
            return v.note or str(c.get("notes", ""))
        return ""


class CueTable(QTableView):
    """The cue list's table: when it is resized (the window laid out after a restart, a dock dragged)
    the next cue is brought back into view."""

    resized = Signal()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.resized.emit()


class CuePanel(QWidget):
    def __init__(self, onair: OnAir, clock: Any = time.time, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.onair = onair
        self.console = onair.console
        self.clock = clock
        self.setObjectName("cuePanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 6)
        lay.setSpacing(4)
        top = QHBoxLayout()
        self.headline = ElidedLabel()
        self.headline.setObjectName("prompt")
        top.addWidget(self.headline, 1)
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
        top.addWidget(self.skip_button)
        top.addWidget(self.go_button)
        lay.addLayout(top)
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
            ("fixed", "contents", "stretch", "contents", "contents", "contents", "contents", "stretch")
        ):
            if mode == "contents":
                h.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
            elif mode == "stretch":
                h.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.view.setColumnWidth(0, 34)
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
            parts.append(tr("进行中：{label}{left}").format(label=running.cue["label"], left=left))
        if nxt is not None:
            parts.append(tr("下一条：{n}. {label}").format(n=nxt.index + 1, label=nxt.cue["label"]))
        elif views:
            parts.append(tr("已走完"))
        else:
            parts.append(tr("未载入（需要赞助排期）"))
        self.headline.set_full_text("   ·   ".join(parts))
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

    def show_next(self) -> None:
        """The next cue in view, two done ones above it (QLab's way), whatever the view's size now."""
        nxt = self.next_view()
        if nxt is not None:
            self.view.scrollTo(
                self.model.index(max(0, nxt.index - 2), 0), QAbstractItemView.ScrollHint.PositionAtTop
            )

    def retranslate(self) -> None:
        """The UI language changed: the column titles and every row's words."""
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(CueModel.COLUMNS) - 1)
        self.refresh()

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
    return panel
