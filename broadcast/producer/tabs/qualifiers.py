"""The 海选榜 tab: the online qualifiers' board as the producer sees it — the top N with their totals, the
top N invited into a season (``qualifiers invite``'s code), and the invited players put into teams.

The records are imported and re-checked by ``python -m broadcast qualifiers import`` (docs/qualifiers.md);
this tab only reads the board and writes the season. Every read and write runs on the workspace's worker
(:meth:`~broadcast.producer.workspace.Workspace.run`), its answer delivered to the Qt thread by signal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QRect, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QStyle,
    QStyleOptionComboBox,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer.season import Places
from broadcast.producer.widgets import cell, new_table
from broadcast.producer.workspace import Workspace
from broadcast.qt import i18n
from broadcast.qt.i18n import tr
from broadcast.qualifiers import board
from broadcast.qualifiers.board import BoardRow
from broadcast.qualifiers.invite import Invited, invite
from broadcast.qualifiers.store import QualifierDB
from broadcast.season.model import PLAYER_NAME, SeasonDB, on_air_limits
from engine.english import plural

TOP_DEFAULT = 24  # a season's field: four teams of six
TOP_MAX = 500


@dataclass(frozen=True)
class BoardView:
    """What the tab shows, read on the worker: the board's first ``top`` rows (and any tied with the
    last), the seasons, and which of the rows are already players of the chosen season (and their team)."""

    top: int
    title: str = ""
    spec: str = ""
    totals: dict[str, int] = field(default_factory=dict)
    rows: list[BoardRow] = field(default_factory=list)
    seasons: list[tuple[int, str]] = field(default_factory=list)
    season_id: int | None = None
    teams: list[tuple[int, str]] = field(default_factory=list)
    members: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # platform id → (player, team)


def load_board(places: Places, top: int, season: int | None = None) -> BoardView:
    """The board and the season's side of it (on the worker: SQL never runs on the Qt thread)."""
    if not places.season_exists:
        return BoardView(top)
    with QualifierDB.open(places.season) as qdb:
        spec = board.spec_of(qdb)
        rows = list(board.ranked(qdb, spec, top))
        totals = qdb.totals()
        title = qdb.setting("title")
    with SeasonDB.open(places.season) as sdb:
        seasons = [(int(s["id"]), str(s["name"])) for s in sdb.seasons()]
        if not seasons:
            return BoardView(top, title, spec, totals, rows)
        sid = season if season in {i for i, _ in seasons} else seasons[-1][0]
        teams = [(int(t["id"]), str(t["name"])) for t in sdb.teams(sid)]
        codes = {r.platform_id for r in rows}
        members = {
            str(p["code"]): (int(p["id"]), None if p["team_id"] is None else int(p["team_id"]))
            for p in sdb.players(sid)
            if p["code"] is not None and str(p["code"]) in codes
        }
    return BoardView(top, title, spec, totals, rows, seasons, sid, teams, members)


def invite_top(places: Places, top: int, season: int, renames: dict[str, str]) -> Invited:
    """The board's first ``top`` into ``season`` (as ``qualifiers invite --top N --season ID --rename
    ID=NAME``): all or nothing, a name too long for air stops it."""
    with QualifierDB.open(places.season) as qdb, SeasonDB.open(places.season) as sdb:
        return invite(qdb, sdb, top, season=str(season), renames=renames)


def set_team(places: Places, player_id: int, team_id: int | None) -> None:
    with SeasonDB.open(places.season) as sdb:
        sdb.update_player(player_id, team_id=team_id)


def ui_message(exc: Any) -> str:
    """An error's message in the UI language (a GoujiError has both), its lines joined."""
    zh, en = getattr(exc, "zh", ""), getattr(exc, "en", "")
    text = (en if i18n.current() == "en" else zh) if zh else str(exc)
    return ("; " if i18n.current() == "en" else "；").join(text.splitlines()) or type(exc).__name__


def fit_choices(box: QComboBox) -> int:
    """Widen ``box`` so that every choice shows whole in it (a styled combo box's own size hint leaves
    the style sheet's padding out); its width."""
    box.ensurePolished()
    opt = QStyleOptionComboBox()
    box.initStyleOption(opt)
    opt.rect = QRect(0, 0, 1000, max(box.sizeHint().height(), 20))
    style = box.style()
    text_field = style.subControlRect(
        QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    fm = box.fontMetrics()
    widest = max((fm.horizontalAdvance(box.itemText(i)) for i in range(box.count())), default=0)
    width = widest + 1000 - text_field.width() + 2
    box.setMinimumWidth(width)
    return width


class QualifiersTab(QWidget):
    """The 海选榜: summary, the first N rows (并列 shown), the season's column (a team chooser for the
    invited players), and the invitation of the first N into the chosen season."""

    season_changed = Signal()  # players invited or a team chosen: the Season tab reads again

    COLUMNS = ("rank", "name", "platform_id", "games", "points", "avg", "firsts", "first_rate", "lasts")

    def __init__(self, ws: Workspace) -> None:
        super().__init__()
        self.ws = ws
        self.view: BoardView | None = None
        self.renames: dict[str, str] = {}  # platform id → the name it is invited under (the name column)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.summary = QLabel(tr("读取中…"))
        self.summary.setObjectName("panelTitle")
        self.summary.setWordWrap(True)  # a long title and key take two lines, never a wider window
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel(tr("前")))
        self.top = QSpinBox()
        self.top.setObjectName("qualifiersTop")
        self.top.setRange(1, TOP_MAX)
        self.top.setValue(TOP_DEFAULT)
        self.top.setSuffix(tr(" 名"))
        self.top.editingFinished.connect(self.refresh)
        top.addWidget(self.top)
        refresh = QPushButton(tr("刷新"))
        refresh.setObjectName("qualifiersRefresh")
        refresh.clicked.connect(self.refresh)
        top.addWidget(refresh)
        top.addWidget(QLabel(tr("赛季")))
        self.seasons = QComboBox()
        self.seasons.setObjectName("qualifiersSeason")
        self.seasons.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # a season's whole name
        self.seasons.currentIndexChanged.connect(lambda _i: self.refresh())
        top.addWidget(self.seasons)
        self.invite_button = QPushButton(tr("邀请前 {n} 名进入赛季…").format(n=TOP_DEFAULT))
        self.invite_button.setObjectName("qualifiersInvite")
        self.invite_button.clicked.connect(self.ask_invite)
        top.addWidget(self.invite_button)
        lay.addLayout(top)
        self.table = new_table(
            [
                tr("名次"),
                tr("昵称"),
                tr("平台编号"),
                tr("局数"),
                tr("积分"),
                tr("场均"),
                tr("头科"),
                tr("头科率"),
                tr("大落"),
                tr("圈三"),
                tr("赛季队伍"),
            ]
        )
        self.table.setObjectName("qualifiersBoard")
        self.table.itemChanged.connect(self._renamed)
        lay.addWidget(self.table, 1)
        self.note = QLabel(
            tr(
                "海选记录用 python -m broadcast qualifiers import 导入，每局由规则引擎复核，被拒的不计分"
                "（docs/qualifiers.md）。昵称可在邀请前改（赛季选手姓名最多 {limit} 个字）；"
                "邀请的选手没有队伍：在“赛季队伍”一列为他们选择队伍。"
            ).format(limit=on_air_limits()[PLAYER_NAME])
        )
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        """Read when shown (an import may have run meanwhile), never before: a window that is never
        turned to this tab never opens the qualifier tables."""
        super().showEvent(event)
        self.refresh()

    # -- reading ---------------------------------------------------------------------------------------
    def refresh(self) -> None:
        season = self.seasons.currentData()
        self.ws.run(
            load_board,
            self.ws.places,
            self.top.value(),
            season if isinstance(season, int) else None,
            done=self.show_board,
            failed=self._failed,
        )

    def _failed(self, exc: Any) -> None:
        self.summary.setText(tr("无法读取海选榜：{why}").format(why=ui_message(exc)))

    def _refused(self, exc: Any) -> None:
        self.ws.notice.emit(tr("未邀请：{why}").format(why=ui_message(exc)))
        QMessageBox.warning(self, tr("邀请进入赛季"), tr("未邀请：{why}").format(why=ui_message(exc)))

    def show_board(self, view: BoardView) -> None:
        self.view = view
        self.seasons.blockSignals(True)
        self.seasons.clear()
        for sid, name in view.seasons:
            self.seasons.addItem(name, sid)
        self.seasons.setCurrentIndex(max(0, self.seasons.findData(view.season_id)))
        fit_choices(self.seasons)
        self.seasons.blockSignals(False)
        self.invite_button.setEnabled(bool(view.rows) and view.season_id is not None)
        self.invite_button.setText(tr("邀请前 {n} 名进入赛季…").format(n=view.top))
        t = view.totals
        if not view.rows:
            self.summary.setText(tr("海选榜是空的：先用 qualifiers import 导入海选记录"))
        else:
            ranked_by = board.describe(view.spec) if i18n.current() != "en" else view.spec
            players, games = int(t["players"]), int(t["records"])
            self.summary.setText(
                tr("{title}：{p} 名选手，计入 {g} 局，拒绝 {r} 局 · {key}").format(
                    title=view.title or tr("网络海选"),
                    p=f"{players:,}",
                    g=f"{games:,}",
                    r=f"{t['refused']:,}",
                    key=ranked_by,
                    # English counts: "1 player", "30 players" (engine.english.plural, the one place)
                    players=plural(players, "player"),
                    games=plural(games, "game"),
                )
            )
        self.table.blockSignals(True)
        self.table.setRowCount(len(view.rows))
        last = view.rows[min(view.top, len(view.rows)) - 1].rank if view.rows else 0
        widest = 0
        for r, row in enumerate(view.rows):
            values = (
                tr("并列{n}").format(n=row.rank) if row.tied else str(row.rank),
                row.name,
                row.platform_id,
                row.games,
                row.points,
                f"{row.avg:.2f}",
                row.firsts,
                f"{row.first_rate * 100:.1f}%",
                row.lasts,
                row.quan_san,
            )
            member = view.members.get(row.platform_id)
            for c, v in enumerate(values):
                self.table.setItem(r, c, cell(v, row.platform_id if c == 0 else None))
            if member is None and r < view.top:  # renamed here for the invitation
                self.table.setItem(r, 1, cell(self.renames.get(row.platform_id, row.name), editable=True))
            self.table.removeCellWidget(r, 10)
            if member is not None:
                self.table.setItem(r, 10, cell(""))
                box = self._team_box(member)
                self.table.setCellWidget(r, 10, box)
                widest = max(widest, fit_choices(box))  # in the view: with the window's style sheet
            elif r >= view.top:
                self.table.setItem(
                    r, 10, cell(tr("与第 {n} 名并列，不在前 {top} 名").format(n=last, top=view.top))
                )
            else:
                self.table.setItem(r, 10, cell(tr("未邀请")))
        self.table.blockSignals(False)
        self.table.resizeColumnsToContents()
        if widest > self.table.columnWidth(10):  # the team choosers whole, whatever the team's name
            self.table.setColumnWidth(10, widest)

    def _renamed(self, item: Any) -> None:
        if item.column() != 1 or self.view is None or item.row() >= len(self.view.rows):
            return
        row = self.view.rows[item.row()]
        name = item.text().strip()
        if name and name != row.name:
            self.renames[row.platform_id] = name
        else:
            self.renames.pop(row.platform_id, None)

    def _team_box(self, member: tuple[int, int | None]) -> QComboBox:
        player_id, team_id = member
        box = QComboBox()
        box.setObjectName(f"team_{player_id}")
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # the column fits every team
        box.addItem(tr("（未分队）"), None)
        for tid, name in self.view.teams if self.view is not None else []:
            box.addItem(name, tid)
        box.setCurrentIndex(max(0, box.findData(team_id)))
        box.currentIndexChanged.connect(lambda _i: self.choose_team(player_id, box.currentData()))
        return box

    # -- writing the season ------------------------------------------------------------------------------
    def choose_team(self, player_id: int, team_id: int | None) -> None:
        self.ws.run(
            set_team, self.ws.places, player_id, team_id, done=self._season_written, failed=self._failed
        )

    def _season_written(self, _value: Any = None) -> None:
        self.season_changed.emit()
        self.refresh()

    def ask_invite(self) -> None:
        if self.view is None or self.view.season_id is None:
            return
        n, season = self.view.top, self.seasons.currentText()
        answer = QMessageBox.question(
            self,
            tr("邀请进入赛季"),
            tr("把海选榜前 {n} 名作为选手加入“{season}”？已在赛季的不会重复加入。").format(
                n=n, season=season
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.invite()

    def invite(self) -> None:
        """The first N (the spin box) into the chosen season; the answer in the status bar."""
        if self.view is None or self.view.season_id is None:
            return
        self.ws.run(
            invite_top,
            self.ws.places,
            self.top.value(),
            self.view.season_id,
            dict(self.renames),
            done=self._invited,
            failed=self._refused,
        )

    def _invited(self, done: Invited) -> None:
        text = tr("已邀请 {a} 名进入“{season}”（{b} 名已在赛季）：在“赛季队伍”一列为他们选择队伍").format(
            a=len(done.added), b=len(done.already), season=done.season
        )
        if done.tied_out:
            text += tr("；{k} 名与最后一名并列而未邀请").format(k=len(done.tied_out))
        self.ws.notice.emit(text)
        self._season_written()
