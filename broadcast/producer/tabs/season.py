"""The Season tab: seasons, teams, players with their photos, episodes, and the roster import with its
preview."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer import season as season_work
from broadcast.producer.widgets import cell, new_table, row_data
from broadcast.producer.workspace import Workspace, air_dates
from broadcast.qt import theme
from broadcast.qt.i18n import tr


class SeasonTab(QWidget):
    """Teams, players (photos copied into the project), episodes with air dates (contracts that do not
    cover one are flagged on it), and the roster import with its preview."""

    def __init__(self, ws: Workspace) -> None:
        super().__init__()
        self.ws = ws
        self.data: Any = None
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.seasons = QComboBox()
        self.seasons.setObjectName("seasons")
        self.seasons.currentIndexChanged.connect(lambda _i: self.reload(self.seasons.currentData()))
        top.addWidget(QLabel(tr("赛季")))
        top.addWidget(self.seasons)
        new = QPushButton(tr("新建赛季"))
        new.clicked.connect(self.new_season)
        top.addWidget(new)
        imp = QPushButton(tr("导入名单（CSV/XLSX）…"))
        imp.setObjectName("importRoster")
        imp.clicked.connect(lambda: self.import_roster(None))
        top.addWidget(imp)
        top.addStretch(1)
        lay.addLayout(top)
        split = QSplitter()
        # teams
        tw = QWidget()
        tl = QVBoxLayout(tw)
        tl.addWidget(self._title(tr("队伍")))
        self.teams = new_table([tr("队名"), tr("冠名"), tr("颜色")])
        self.teams.setObjectName("teams")
        self.teams.itemChanged.connect(self._team_edited)
        tl.addWidget(self.teams, 1)
        b = QPushButton(tr("＋ 队伍"))
        b.clicked.connect(self.add_team)
        tl.addWidget(b)
        split.addWidget(tw)
        # players
        pw = QWidget()
        pl = QVBoxLayout(pw)
        pl.addWidget(self._title(tr("参赛选手")))
        self.players = new_table(
            [tr("照片"), tr("编号"), tr("姓名"), tr("队伍"), tr("性别"), tr("电话"), tr("籍贯")]
        )
        self.players.setObjectName("players")
        self.players.verticalHeader().setDefaultSectionSize(52)
        self.players.itemChanged.connect(self._player_edited)
        pl.addWidget(self.players, 1)
        pr = QHBoxLayout()
        b2 = QPushButton(tr("＋ 选手"))
        b2.clicked.connect(self.add_player)
        pr.addWidget(b2)
        b3 = QPushButton(tr("所选选手的照片…"))
        b3.setObjectName("photo")
        b3.clicked.connect(lambda: self.pick_photo(None))
        pr.addWidget(b3)
        pr.addStretch(1)
        pl.addLayout(pr)
        split.addWidget(pw)
        # episodes
        ew = QWidget()
        el = QVBoxLayout(ew)
        el.addWidget(self._title(tr("各期（播出日期 · 合同是否覆盖）")))
        self.episodes = new_table([tr("期"), tr("播出日期"), tr("合同未覆盖的广告位")])
        self.episodes.setObjectName("episodes")
        self.episodes.itemChanged.connect(self._episode_edited)
        el.addWidget(self.episodes, 1)
        b4 = QPushButton(tr("＋ 一期"))
        b4.clicked.connect(self.add_episode)
        el.addWidget(b4)
        split.addWidget(ew)
        split.setSizes([300, 700, 560])
        lay.addWidget(split, 1)
        self.reload()

    def _title(self, text: str) -> QLabel:
        lab = QLabel(text)
        lab.setObjectName("panelTitle")
        return lab

    @property
    def sid(self) -> int | None:
        return self.data.season_id if self.data is not None else None

    def reload(self, season: int | None = None) -> None:
        self.ws.run(season_work.load, self.ws.places, season, done=self.show_data)

    def _then_reload(self, _value: Any = None) -> None:
        self.reload(self.sid)

    def _failed(self, exc: Any) -> None:
        self.ws.notice.emit(str(exc))
        self.reload(self.sid)

    def show_data(self, data: Any) -> None:
        self.data = data
        self.seasons.blockSignals(True)
        self.seasons.clear()
        for sid, name in data.seasons:
            self.seasons.addItem(name, sid)
        self.seasons.setCurrentIndex(max(0, self.seasons.findData(data.season_id)))
        self.seasons.blockSignals(False)
        for table in (self.teams, self.players, self.episodes):
            table.blockSignals(True)
        self.teams.setRowCount(len(data.teams))
        for r, t in enumerate(data.teams):
            self.teams.setItem(r, 0, cell(t["name"], t["id"], editable=True))
            self.teams.setItem(r, 1, cell(t["sponsor"], editable=True))
            colour = cell(t["color"], editable=True)
            if t["color"]:
                colour.setBackground(QBrush(QColor(t["color"])))
            self.teams.setItem(r, 2, colour)
        self.players.setRowCount(len(data.players))
        photos = self.ws.db.parent / f"{self.ws.db.stem}-assets" / "photos"
        for r, p in enumerate(data.players):
            pic = cell("", p["id"])
            if p["photo"]:
                path = Path(p["photo"]) if Path(p["photo"]).is_absolute() else photos / p["photo"]
                pm = QPixmap(str(path))
                if not pm.isNull():
                    pic.setData(
                        Qt.ItemDataRole.DecorationRole, pm.scaled(44, 44, Qt.AspectRatioMode.KeepAspectRatio)
                    )
                pic.setToolTip(str(p["photo"]))
            self.players.setItem(r, 0, pic)
            for c, key in enumerate(("code", "name", "team", "gender", "phone", "hometown"), start=1):
                self.players.setItem(r, c, cell(p[key], editable=key != "team"))
        self.show_episodes()
        for table in (self.teams, self.players, self.episodes):
            table.blockSignals(False)

    def show_episodes(self) -> None:
        if self.data is None:
            return
        uncovered = air_dates(self.ws.valid)
        self.episodes.blockSignals(True)
        self.episodes.setRowCount(len(self.data.episodes))
        for r, e in enumerate(self.data.episodes):
            day = None
            try:
                day = date.fromisoformat(str(e["air_date"])) if e["air_date"] else None
            except ValueError:
                day = None
            flags = uncovered(day) if day is not None else []
            self.episodes.setItem(r, 0, cell(f"第{e['number']}期", e["number"]))
            self.episodes.setItem(r, 1, cell(e["air_date"], editable=True, red=bool(flags)))
            self.episodes.setItem(
                r, 2, cell(("⚠ " + "；".join(flags)) if flags else tr("✓ 全部覆盖"), red=bool(flags))
            )
        self.episodes.blockSignals(False)

    # -- edits (each through SeasonDB on the worker, then the tables are read again) -------------------------
    def new_season(self) -> None:
        n = len(self.data.seasons) + 1 if self.data else 1
        self.ws.run(
            season_work.create_season,
            self.ws.places,
            f"第{n}季",
            done=lambda sid: self.reload(sid),
            failed=self._failed,
        )

    def add_team(self) -> None:
        if self.sid is None:
            return self.ws.notice.emit(tr("先新建赛季"))
        n = len(self.data.teams) + 1
        self.ws.run(
            season_work.add_team,
            self.ws.places,
            self.sid,
            tr("新队伍{n}").format(n=n),
            done=self._then_reload,
            failed=self._failed,
        )
        return None

    def add_player(self) -> None:
        if self.sid is None:
            return self.ws.notice.emit(tr("先新建赛季"))
        team = self.data.teams[0]["id"] if self.data.teams else None
        r = self.teams.currentRow()
        if 0 <= r < len(self.data.teams):
            team = self.data.teams[r]["id"]
        n = len(self.data.players) + 1
        self.ws.run(
            season_work.add_player,
            self.ws.places,
            self.sid,
            tr("新选手{n}").format(n=n),
            team,
            done=self._then_reload,
            failed=self._failed,
        )
        return None

    def add_episode(self) -> None:
        if self.sid is None:
            return self.ws.notice.emit(tr("先新建赛季"))
        self.ws.run(
            season_work.add_episode, self.ws.places, self.sid, done=self._then_reload, failed=self._failed
        )
        return None

    def _team_edited(self, item: QTableWidgetItem) -> None:
        tid = row_data(self.teams, item.row())
        key = ("name", "sponsor", "color")[item.column()]
        self.ws.run(
            season_work.update_team,
            self.ws.places,
            tid,
            **{key: item.text().strip()},
            done=self._then_reload,
            failed=self._failed,
        )

    def _player_edited(self, item: QTableWidgetItem) -> None:
        pid = row_data(self.players, item.row())
        key = ("photo", "code", "name", "team", "gender", "phone", "hometown")[item.column()]
        if key in ("photo", "team"):
            return
        self.ws.run(
            season_work.update_player,
            self.ws.places,
            pid,
            **{key: item.text().strip()},
            done=self._then_reload,
            failed=self._failed,
        )

    def _episode_edited(self, item: QTableWidgetItem) -> None:
        number = row_data(self.episodes, item.row())
        self.ws.run(
            season_work.update_episode,
            self.ws.places,
            self.sid,
            number,
            item.text().strip(),
            done=self._then_reload,
            failed=self._failed,
        )

    def pick_photo(self, src: Path | None) -> None:
        r = self.players.currentRow()
        if self.data is None or not (0 <= r < len(self.data.players)):
            self.ws.notice.emit(tr("先选中一名选手"))
            return
        p = self.data.players[r]
        if src is None:
            chosen, _ = QFileDialog.getOpenFileName(
                self, tr("选手照片"), str(Path.home()), tr("图片 (*.png *.jpg *.jpeg *.webp)")
            )
            if not chosen:
                return
            src = Path(chosen)
        hint = str(p["code"] or p["name"])
        self.ws.run(
            season_work.set_photo,
            self.ws.places,
            p["id"],
            src,
            hint,
            done=self._then_reload,
            failed=self._failed,
        )

    def import_roster(self, path: Path | None) -> None:
        if self.sid is None:
            self.ws.notice.emit(tr("先新建赛季"))
            return
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(
                self, tr("选手名单"), str(Path.home()), tr("名单 (*.csv *.xlsx *.txt)")
            )
            if not chosen:
                return
            path = Path(chosen)
        sid = self.sid
        self.ws.run(
            season_work.preview_roster,
            self.ws.places,
            sid,
            path,
            done=lambda pre: self._preview(sid, path, pre),
        )

    def _preview(self, sid: int, path: Path, pre: Any) -> None:
        self.dialog = RosterDialog(self, path, pre)

        def accept() -> None:
            self.ws.run(
                season_work.import_roster, self.ws.places, sid, path, done=self._imported, failed=self._failed
            )

        self.dialog.accepted.connect(accept)
        self.dialog.open()

    def _imported(self, rep: Any) -> None:
        self.ws.notice.emit(tr("已导入：新增 {a} 名，更新 {u} 名").format(a=rep.added, u=rep.updated))
        self.reload(self.sid)


class RosterDialog(QDialog):
    """What a roster file holds and what is wrong with it — before anything is written."""

    def __init__(self, parent: QWidget, path: Path, pre: Any) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("导入预览：{f}").format(f=path.name))
        self.resize(900, 600)
        lay = QVBoxLayout(self)
        ok = not pre.errors
        summary = (
            tr("%n 行可以导入：新增 {a} 名、更新 {u} 名选手", "", len(pre.rows)).format(
                a=pre.added, u=pre.updated
            )
            + (tr("；新队伍：{t}").format(t="、".join(pre.teams_created)) if pre.teams_created else "")
            if ok
            else tr("有 %n 个问题，整份名单都不会导入（改正后再试）", "", len(pre.errors))
        )
        self.summary = QLabel(summary)
        self.summary.setObjectName("panelTitle" if ok else "fieldIssue")
        lay.addWidget(self.summary)
        self.errors = QListWidget()
        self.errors.setObjectName("rosterErrors")
        for e in pre.errors:
            it = QListWidgetItem(e)
            it.setForeground(QBrush(QColor(theme.DANGER)))
            self.errors.addItem(it)
        self.errors.setVisible(bool(pre.errors))
        lay.addWidget(self.errors)
        self.rows = new_table(
            [tr("行"), tr("姓名"), tr("队伍"), tr("编号"), tr("性别"), tr("电话"), tr("照片"), tr("籍贯")]
        )
        self.rows.setObjectName("rosterRows")
        self.rows.setRowCount(len(pre.rows))
        bad = {int(e.split(":row ", 1)[1].split(":", 1)[0]) for e in pre.errors if ":row " in e}
        for r, row in enumerate(pre.rows):
            for c, v in enumerate(
                (
                    row.row,
                    row.name,
                    row.team,
                    row.code,
                    row.gender,
                    row.phone,
                    Path(row.photo).name if row.photo else "",
                    row.hometown,
                )
            ):
                self.rows.setItem(r, c, cell(v, red=row.row in bad))
        lay.addWidget(self.rows, 1)
        buttons = QDialogButtonBox()
        self.import_button = buttons.addButton(tr("导入"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(ok)
        buttons.addButton(tr("取消"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
