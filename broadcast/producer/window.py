"""The producer's window: sponsors and contracts, the slots as forms with their preview, roster and
season, and the season's delivery — tabs over one :class:`~broadcast.producer.workspace.Workspace`."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QBrush, QCloseEvent, QColor, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from broadcast.console import i18n, theme
from broadcast.producer import season as season_work
from broadcast.producer.draft import Check, Path_
from broadcast.producer.forms import (
    Form,
    SlotForm,
    SponsorForm,
    alive,
    film_ids,
    new_slot,
    shown,
    tr,
)
from broadcast.producer.preview import View, slot_views
from broadcast.producer.workspace import Workspace, air_dates
from broadcast.sponsors.placements import SLOT_SPECS, Issue
from broadcast.sponsors.placements.ratecard import KIND_LABELS
from broadcast.sponsors.placements.slots import SPEC_OF


def issue_message_list(issues: list[Issue]) -> str:
    """The messages of ``issues`` (no fixes) in the UI language, for a narrow column."""
    lang = i18n.current()
    return ("; " if lang == "en" else "；").join(i.message_in(lang) for i in issues)


STYLE = f"""
QLabel#fieldIssue {{ color: {theme.DANGER}; font-size: {theme.SIZE_BASE - 1}px; }}
QLabel#fieldIssue[level="warning"] {{ color: {theme.WARN}; }}
QLineEdit[invalid="true"], QComboBox[invalid="true"], QPlainTextEdit[invalid="true"] {{
    border: 2px solid {theme.DANGER}; }}
QLabel#thumb {{ background: #000; border: 1px solid {theme.BORDER}; color: {theme.MUTED}; }}
QTreeWidget, QListWidget, QTableWidget {{ background: {theme.PANEL}; border: 1px solid {theme.BORDER}; }}
QTabWidget::pane {{ border: 1px solid {theme.BORDER}; }}
QTabBar::tab {{ background: {theme.PANEL}; padding: 8px 18px; border: 1px solid {theme.BORDER}; }}
QTabBar::tab:selected {{ background: {theme.PANEL_2}; color: {theme.ACCENT}; }}
QPushButton#save {{ border: 2px solid {theme.ACCENT}; font-weight: bold; }}
QLabel#saveState[dirty="true"] {{ color: {theme.WARN}; }}
QLabel#saveState[bad="true"] {{ color: {theme.DANGER}; }}
"""
SHORT = QColor("#5a1d1d")


def _item(text: Any, data: Any = None, *, red: bool = False, editable: bool = False) -> QTableWidgetItem:
    it = QTableWidgetItem(shown(text))
    if data is not None:
        it.setData(Qt.ItemDataRole.UserRole, data)
    flags = it.flags()
    it.setFlags(flags | Qt.ItemFlag.ItemIsEditable if editable else flags & ~Qt.ItemFlag.ItemIsEditable)
    if red:
        it.setBackground(QBrush(SHORT))
        it.setForeground(QBrush(QColor(theme.DANGER)))
    return it


def _table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _scroll(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area


# ------------------------------------------------------------------------------------------ sponsors tab
class SponsorsTab(QWidget):
    """The show's header, the sponsor registry and each sponsor's contracts (its slots)."""

    def __init__(self, ws: Workspace, window: ProducerWindow) -> None:
        super().__init__()
        self.ws = ws
        self.window_ = window
        lay = QHBoxLayout(self)
        left = QVBoxLayout()
        self.header = Form(ws, tr("节目"))
        self.header.text(tr("节目名称"), ("show",), placeholder="够级大明星")
        self.header.text(tr("季"), ("season",), placeholder=tr("第一季"), required=False)
        left.addWidget(self.header)
        head = QLabel(tr("赞助企业"))
        head.setObjectName("panelTitle")
        left.addWidget(head)
        self.list = QListWidget()
        self.list.setObjectName("sponsorList")
        self.list.currentItemChanged.connect(lambda *_: self.show_sponsor())
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        self.new_id = QLineEdit()
        self.new_id.setObjectName("newSponsorId")
        self.new_id.setPlaceholderText(tr("新企业编号，如 xiaodangjia"))
        add = QPushButton(tr("＋ 登记"))
        add.setObjectName("addSponsor")
        add.clicked.connect(lambda: self.add_sponsor(self.new_id.text()))
        self.new_id.returnPressed.connect(add.click)
        row.addWidget(self.new_id, 1)
        row.addWidget(add)
        left.addLayout(row)
        remove = QPushButton(tr("删除所选企业"))
        remove.clicked.connect(self.remove_sponsor)
        left.addWidget(remove)
        lw = QWidget()
        lw.setLayout(left)
        lw.setMaximumWidth(420)
        lay.addWidget(lw)
        right = QVBoxLayout()
        self.form_host = QStackedWidget()
        right.addWidget(self.form_host, 3)
        head2 = QLabel(tr("合同（该企业买的广告位）"))
        head2.setObjectName("panelTitle")
        right.addWidget(head2)
        self.contracts = _table(
            [tr("广告位"), tr("签约"), tr("合同期"), tr("价格"), tr("刊例价"), tr("本期问题")]
        )
        self.contracts.setObjectName("contracts")
        self.contracts.doubleClicked.connect(self.open_slot)
        right.addWidget(self.contracts, 2)
        row2 = QHBoxLayout()
        self.buy = QPushButton(tr("为该企业新增广告位 ▾"))
        self.buy.setObjectName("buySlot")
        menu = QMenu(self.buy)
        for spec in SLOT_SPECS:
            menu.addAction(KIND_LABELS[spec.kind]).triggered.connect(
                lambda _c=False, sec=spec.section: self.buy_slot(sec)
            )
        self.buy.setMenu(menu)
        row2.addWidget(self.buy)
        row2.addStretch(1)
        right.addLayout(row2)
        lay.addLayout(right, 1)
        self.form: SponsorForm | None = None
        self.refresh()

    def refresh(self) -> None:
        current = self.current()
        self.header.refresh()
        self.list.blockSignals(True)
        self.list.clear()
        for sid, name in self.ws.draft.sponsors():
            it = QListWidgetItem(f"{name or '？'}  ·  {sid}")
            it.setData(Qt.ItemDataRole.UserRole, sid)
            self.list.addItem(it)
            if sid == current:
                self.list.setCurrentItem(it)
        self.list.blockSignals(False)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.show_sponsor()

    def current(self) -> str | None:
        it = self.list.currentItem()
        return str(it.data(Qt.ItemDataRole.UserRole)) if it is not None else None

    def select(self, sid: str) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(Qt.ItemDataRole.UserRole) == sid:
                self.list.setCurrentRow(i)

    def add_sponsor(self, sid: str) -> None:
        sid = sid.strip()
        if not sid:
            return
        if sid in dict(self.ws.draft.sponsors()):
            self.ws.notice.emit(tr("编号 {sid} 已登记").format(sid=sid))
            return
        self.ws.draft.set(("sponsors", sid), {"name": ""})
        self.new_id.clear()
        self.ws.changed_structure()
        self.select(sid)

    def remove_sponsor(self) -> None:
        sid = self.current()
        if sid:
            self.ws.draft.remove(("sponsors", sid))
            if not self.ws.draft.get(("sponsors",)):
                self.ws.draft.remove(("sponsors",))
            self.ws.changed_structure()

    def show_sponsor(self) -> None:
        sid = self.current()
        if self.form is not None:
            self.form_host.removeWidget(self.form.parentWidget() or self.form)
        if sid is None:
            self.form = None
            self.contracts.setRowCount(0)
            return
        self.form = SponsorForm(self.ws, sid)
        self.form_host.addWidget(_scroll(self.form))
        self.form_host.setCurrentIndex(self.form_host.count() - 1)
        while self.form_host.count() > 1:
            self.form_host.removeWidget(self.form_host.widget(0))
        if self.ws.check is not None:
            self.form.show_check(self.ws.check)
        self.show_contracts()

    def show_contracts(self) -> None:
        sid = self.current()
        rows = [row for row in self.window_.slot_rows() if row[2] == sid]
        self.contracts.setRowCount(len(rows))
        check = self.ws.check
        for r, (path, label, _sid) in enumerate(rows):
            node = self.ws.draft.get(path) or {}
            c = node.get("contract") or {} if isinstance(node, dict) else {}
            price = node.get("price") or {} if isinstance(node, dict) else {}
            spec = SPEC_OF[str(path[0])]
            from broadcast.producer.forms import price_label

            problems = [i for i in (check.at(path) if check else []) if i.level == "error"]
            self.contracts.setItem(r, 0, _item(label, path))
            self.contracts.setItem(r, 1, _item(shown(c.get("signed"))))
            self.contracts.setItem(r, 2, _item(f"{shown(c.get('start'))} — {shown(c.get('end'))}"))
            per = {"year": "年", "month": "月", "episode": "期", "airing": "次"}.get(
                str(price.get("per")), ""
            )
            self.contracts.setItem(r, 3, _item(f"{shown(price.get('yuan'))} 元/{per}" if price else ""))
            self.contracts.setItem(
                r, 4, _item(price_label(spec.kind, node.get("seconds") if isinstance(node, dict) else None))
            )
            self.contracts.setItem(r, 5, _item(issue_message_list(problems[:2]), red=bool(problems)))

    def open_slot(self) -> None:
        r = self.contracts.currentRow()
        it = self.contracts.item(r, 0) if r >= 0 else None
        if it is not None:
            self.window_.open_slot(tuple(it.data(Qt.ItemDataRole.UserRole)))

    def buy_slot(self, section: str) -> None:
        sid = self.current()
        if not sid:
            self.ws.notice.emit(tr("先登记并选中一家企业"))
            return
        spec = SPEC_OF[section]
        if not (spec.many or spec.inside) and self.ws.draft.has((section,)):
            self.ws.notice.emit(tr("{slot}是独家广告位，已经有了").format(slot=KIND_LABELS[spec.kind]))
            self.window_.open_slot((section,))
            return
        path = new_slot(self.ws, section, sid)
        self.window_.open_slot(path)

    def show_check(self, check: Check) -> None:
        self.header.show_check(check)
        if self.form is not None:
            self.form.show_check(check)
        self.show_contracts()


# ------------------------------------------------------------------------------------------ slots tab
class RundownForm(Form):
    """The episode's shape and its commercial breaks (which films air where)."""

    def __init__(self, ws: Workspace) -> None:
        super().__init__(ws, tr("节目流程 · 插播时段"))
        self.text(tr("每期局数"), ("rundown", "games"), placeholder="3", required=False, typed=True)
        self.text(tr("每期选手人数"), ("rundown", "contestants"), placeholder="6", required=False, typed=True)
        self.films = QLabel()
        self.films.setObjectName("muted")
        self.films.setWordWrap(True)
        self.layout_.addRow(tr("可排的片子"), self.films)
        for i, _brk in ws.draft.items(("rundown", "breaks")):
            self._break(i)
        add = QPushButton(tr("＋ 插播时段"))
        add.setObjectName("addBreak")
        add.clicked.connect(self.add_break)
        self.layout_.addRow("", add)
        self._readers.append(
            lambda: self.films.setText("、".join(film_ids(ws.draft)) or tr("（还没有宣传片）"))
        )
        self.refresh()

    def _break(self, i: int) -> None:
        p: Path_ = ("rundown", "breaks", i)
        games = self.ws.draft.get(("rundown", "games"))
        anchors = (
            ["opening", "intro"]
            + [f"game {n}" for n in range(1, int(games if isinstance(games, int) else 3) + 1)]
            + ["draws"]
        )
        self.combo(tr("第{n}个时段 位置").format(n=i + 1), (*p, "after"), lambda: [(a, a) for a in anchors])
        edit = self.text(
            tr("第{n}个时段 片子").format(n=i + 1), (*p, "items"), placeholder="xiaodangjia_15s, yiheyuan_15s"
        )
        edit.textEdited.disconnect()

        def write(t: str) -> None:
            self.ws.edit((*p, "items"), [x.strip() for x in t.replace("，", ",").split(",") if x.strip()])

        def read() -> None:
            if not edit.hasFocus():
                value = self.ws.draft.get((*p, "items"))
                edit.setText(", ".join(map(str, value)) if isinstance(value, list) else shown(value))

        edit.textEdited.connect(write)
        self._readers.append(read)
        read()

    def add_break(self) -> None:
        if not self.ws.draft.has(("rundown",)):
            self.ws.draft.set(("rundown",), {"games": 3, "contestants": 6})
        self.ws.draft.append(("rundown", "breaks"), {"after": "opening", "items": []})
        QTimer.singleShot(0, self.ws.changed_structure)  # this form is built anew: not inside its click


class PreviewPane(QWidget):
    """The slot as it will air: the real program page (Qt WebEngine, 1920×1080 scaled) on a state
    composed from the unsaved draft, or the film's frame / the logo for what no page draws."""

    def __init__(self, ws: Workspace, *, web: bool = True) -> None:
        super().__init__()
        self.ws = ws
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        title = QLabel(tr("预览 PREVIEW（未保存的排期，按播出画面）"))
        title.setObjectName("panelTitle")
        row.addWidget(title, 1)
        self.views = QComboBox()
        self.views.setObjectName("previewViews")
        self.views.currentIndexChanged.connect(lambda _i: self.show_view())
        row.addWidget(self.views)
        lay.addLayout(row)
        self.stack = QStackedWidget()
        self.page: Any = None
        if web:
            from broadcast.console.docks.monitors import PageMonitor

            self.page = PageMonitor(tr("节目 PGM（图形页）"), theme.DANGER, ws.studio.url)
            self.stack.addWidget(self.page)
        else:
            self.stack.addWidget(QLabel(tr("（未启用网页预览）")))
        self.still = QLabel()
        self.still.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.still.setWordWrap(True)
        self.still.setObjectName("thumb")
        self.stack.addWidget(self.still)
        lay.addWidget(self.stack, 1)
        self.note = QLabel()
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.slot: Path_ = ()
        self.current: list[View] = []
        self.last: Any = None
        ws.previewed.connect(self._previewed)

    def show_slot(self, path: Path_, check: Check | None) -> None:
        self.slot = path
        p = check.placements if check is not None else None
        slot = next((s for s in p.slots if s.path == path), None) if p is not None else None
        self.views.blockSignals(True)
        self.views.clear()
        self.current = slot_views(slot) if slot is not None else []
        for v in self.current:
            self.views.addItem(v.label, v.key)
        self.views.blockSignals(False)
        if slot is None:
            self.stack.setCurrentWidget(self.still)
            self.still.setPixmap(QPixmap())
            self.still.setText(tr("这个广告位还不完整或排期有错误：改正后显示播出画面"))
            return
        self.show_view()

    def show_view(self) -> None:
        i = self.views.currentIndex()
        if not (0 <= i < len(self.current)):
            return
        view = self.current[i]
        p = self.ws.valid.placements if self.ws.valid is not None else None
        slot = next((s for s in p.slots if s.path == self.slot), None) if p is not None else None
        if view.still and slot is not None:
            self.stack.setCurrentWidget(self.still)
            self._still(view, slot, p)
            return
        self.stack.setCurrentIndex(0)
        self.note.setText(tr("图形页：节目总线（program.html），与 OBS 浏览器源相同；状态由未保存的排期生成"))
        self.ws.preview(str(self.slot), view)

    def _still(self, view: View, slot: Any, p: Any) -> None:
        from broadcast.producer import files

        if view.still == "film" and slot.film is not None:
            path = slot.film.asset.path
            self.note.setText(
                tr("{id}：{s:.1f} 秒（OBS 媒体源全屏播出，不经图形页）").format(
                    id=slot.film.id, s=slot.film.asset.seconds
                )
            )

            def done(poster: str) -> None:
                if not alive(self.still):
                    return
                pm = QPixmap(poster)
                self.still.setPixmap(pm.scaled(self.still.size(), Qt.AspectRatioMode.KeepAspectRatio))

            self.ws.run(lambda: str(files.poster(path, width=960)), done=done)
            return
        logo = p.logo_of(slot)
        self.note.setText(tr("现场实物广告位：屏幕上没有图形，镜头拍到的是实物（以下为所用 LOGO）"))
        if logo is not None:
            pm = QPixmap(str(logo.path))
            self.still.setPixmap(pm.scaled(self.still.size() * 0.6, Qt.AspectRatioMode.KeepAspectRatio))
        else:
            self.still.setText(tr("没有 LOGO"))

    def _previewed(self, value: Any) -> None:
        if not alive(self.still):
            return
        self.last = value
        if isinstance(value, str):
            self.stack.setCurrentWidget(self.still)
            self.still.setPixmap(QPixmap())
            self.still.setText(value)


class SlotsTab(QWidget):
    def __init__(self, ws: Workspace, window: ProducerWindow, *, web: bool = True) -> None:
        super().__init__()
        self.ws = ws
        self.window_ = window
        lay = QHBoxLayout(self)
        split = QSplitter()
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setObjectName("slotTree")
        self.tree.setHeaderLabels([tr("广告位"), tr("企业")])
        self.tree.currentItemChanged.connect(lambda *_: self.open_current())
        lv.addWidget(self.tree, 1)
        row = QHBoxLayout()
        add = QPushButton(tr("＋ 广告位 ▾"))
        menu = QMenu(add)
        for spec in SLOT_SPECS:
            menu.addAction(KIND_LABELS[spec.kind]).triggered.connect(
                lambda _c=False, sec=spec.section: self.add(sec)
            )
        menu.addAction(tr("节目流程（插播时段）")).triggered.connect(
            lambda: self.window_.open_slot(("rundown",))
        )
        add.setMenu(menu)
        row.addWidget(add)
        rm = QPushButton(tr("删除"))
        rm.clicked.connect(self.remove)
        row.addWidget(rm)
        lv.addLayout(row)
        split.addWidget(left)
        self.form_host = QStackedWidget()
        split.addWidget(self.form_host)
        self.preview = PreviewPane(ws, web=web)
        split.addWidget(self.preview)
        split.setSizes([250, 760, 590])
        lay.addWidget(split)
        self.form: Form | None = None
        self.path: Path_ = ()
        self.refresh()

    def refresh(self) -> None:
        keep = self.path
        self.tree.blockSignals(True)
        self.tree.clear()
        parents: dict[str, QTreeWidgetItem] = {}
        for path, label, sid in self.window_.slot_rows():
            sec = str(path[0])
            name = dict(self.ws.draft.sponsors()).get(str(sid), str(sid or ""))
            it = QTreeWidgetItem([label, name])
            it.setData(0, Qt.ItemDataRole.UserRole, path)
            spec = SPEC_OF[sec]
            if spec.many or spec.inside:
                if sec not in parents:
                    head = KIND_LABELS[spec.kind] + (
                        tr("（按签约先后播出）") if spec.kind == "supporter" else ""
                    )
                    parents[sec] = QTreeWidgetItem([head, ""])
                    self.tree.addTopLevelItem(parents[sec])
                parents[sec].addChild(it)
            else:
                self.tree.addTopLevelItem(it)
        rd = QTreeWidgetItem([tr("节目流程（插播时段）"), ""])
        rd.setData(0, Qt.ItemDataRole.UserRole, ("rundown",))
        self.tree.addTopLevelItem(rd)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.blockSignals(False)
        if keep:
            self.select(keep, rebuild=True)

    def select(self, path: Path_, *, rebuild: bool = False) -> None:
        it = self._find(path)
        if it is not None:
            self.tree.blockSignals(True)
            self.tree.setCurrentItem(it)
            self.tree.blockSignals(False)
        self.open(path, rebuild=rebuild)

    def _find(self, path: Path_) -> QTreeWidgetItem | None:
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            if it is None:
                continue
            if it.data(0, Qt.ItemDataRole.UserRole) == path:
                return it
            stack += [it.child(i) for i in range(it.childCount())]
        return None

    def open_current(self) -> None:
        it = self.tree.currentItem()
        path = it.data(0, Qt.ItemDataRole.UserRole) if it is not None else None
        if path:
            self.open(tuple(path))

    def open(self, path: Path_, *, rebuild: bool = True) -> None:
        if path == self.path and self.form is not None and not rebuild:
            return
        self.path = path
        if path == ("rundown",):
            form: Form = RundownForm(self.ws)
        elif path and str(path[0]) in SPEC_OF and self.ws.draft.has(path):
            spec = SPEC_OF[str(path[0])]
            label = next(
                (lab for p, lab, _s in self.window_.slot_rows() if p == path), KIND_LABELS[spec.kind]
            )
            form = SlotForm(self.ws, spec, path, label)
        else:
            self.form = None
            return
        while self.form_host.count():
            self.form_host.removeWidget(self.form_host.widget(0))
        self.form = form
        self.form_host.addWidget(_scroll(form))
        if self.ws.check is not None:
            form.show_check(self.ws.check)
        if path != ("rundown",):
            self.preview.show_slot(path, self.ws.valid)

    def add(self, section: str) -> None:
        sponsors = self.ws.draft.sponsors()
        if not sponsors:
            self.ws.notice.emit(tr("先在“赞助与合同”里登记企业"))
            return
        spec = SPEC_OF[section]
        if not (spec.many or spec.inside) and self.ws.draft.has((section,)):
            self.select((section,))
            return
        self.window_.open_slot(new_slot(self.ws, section, sponsors[0][0]))

    def remove(self) -> None:
        path = self.path
        if not path or path == ("rundown",):
            return
        spec = SPEC_OF.get(str(path[0]))
        if spec is not None and spec.kind == "cell":
            self.ws.notice.emit(tr("九宫格必须正好 9 格：改每一格的内容，不能删格"))
            return
        self.ws.draft.remove(path)
        parent = path[:-1]
        if parent and isinstance(self.ws.draft.get(parent), list) and not self.ws.draft.get(parent):
            self.ws.draft.remove(parent if len(parent) == 1 else parent[:1])
        self.path = ()
        self.form = None
        self.ws.changed_structure()

    def show_check(self, check: Check) -> None:
        if self.form is not None:
            self.form.show_check(check)
        if check.ok and self.path and self.path != ("rundown",) and not self.preview.current:
            self.preview.show_slot(self.path, check)


# ------------------------------------------------------------------------------------------ season tab
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
        self.teams = _table([tr("队名"), tr("冠名"), tr("颜色")])
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
        self.players = _table(
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
        self.episodes = _table([tr("期"), tr("播出日期"), tr("合同未覆盖的广告位")])
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
            self.teams.setItem(r, 0, _item(t["name"], t["id"], editable=True))
            self.teams.setItem(r, 1, _item(t["sponsor"], editable=True))
            colour = _item(t["color"], editable=True)
            if t["color"]:
                colour.setBackground(QBrush(QColor(t["color"])))
            self.teams.setItem(r, 2, colour)
        self.players.setRowCount(len(data.players))
        photos = self.ws.db.parent / f"{self.ws.db.stem}-assets" / "photos"
        for r, p in enumerate(data.players):
            pic = _item("", p["id"])
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
                self.players.setItem(r, c, _item(p[key], editable=key != "team"))
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
            self.episodes.setItem(r, 0, _item(f"第{e['number']}期", e["number"]))
            self.episodes.setItem(r, 1, _item(e["air_date"], editable=True, red=bool(flags)))
            self.episodes.setItem(
                r, 2, _item(("⚠ " + "；".join(flags)) if flags else tr("✓ 全部覆盖"), red=bool(flags))
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
        tid = self.teams.item(item.row(), 0).data(Qt.ItemDataRole.UserRole)
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
        pid = self.players.item(item.row(), 0).data(Qt.ItemDataRole.UserRole)
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
        number = self.episodes.item(item.row(), 0).data(Qt.ItemDataRole.UserRole)
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
            tr("{n} 行可以导入：新增 {a} 名、更新 {u} 名选手").format(
                n=len(pre.rows), a=pre.added, u=pre.updated
            )
            + (tr("；新队伍：{t}").format(t="、".join(pre.teams_created)) if pre.teams_created else "")
            if ok
            else tr("有 {n} 个问题，整份名单都不会导入（改正后再试）").format(n=len(pre.errors))
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
        self.rows = _table(
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
                self.rows.setItem(r, c, _item(v, red=row.row in bad))
        lay.addWidget(self.rows, 1)
        buttons = QDialogButtonBox()
        self.import_button = buttons.addButton(tr("导入"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setEnabled(ok)
        buttons.addButton(tr("取消"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)


# ------------------------------------------------------------------------------------------ delivery tab
class DeliveryTab(QWidget):
    """Per sponsor, promised vs delivered across every aired episode (the as-run log), shortfalls in
    red with what to add in the coming episodes; XLSX and PDF like the episode report."""

    def __init__(self, ws: Workspace) -> None:
        super().__init__()
        self.ws = ws
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.summary = QLabel(tr("按“刷新”读取播出记录"))
        self.summary.setObjectName("panelTitle")
        top.addWidget(self.summary, 1)
        refresh = QPushButton(tr("刷新"))
        refresh.setObjectName("deliveryRefresh")
        refresh.clicked.connect(self.refresh)
        top.addWidget(refresh)
        export = QPushButton(tr("导出 XLSX + PDF…"))
        export.setObjectName("deliveryExport")
        export.clicked.connect(lambda: self.export(None))
        top.addWidget(export)
        lay.addLayout(top)
        self.table = _table(
            [tr("赞助商"), tr("广告位"), tr("项目"), tr("累计承诺"), tr("累计实际"), tr("欠"), tr("后续补足")]
        )
        self.table.setObjectName("delivery")
        lay.addWidget(self.table, 1)
        self.note = QLabel(
            tr(
                "只计 OBS 确认播出的画面（与每期播出报告同一算法）；合同未覆盖的期不计承诺；"
                "以已保存的排期为准。"
            )
        )
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.result: Any = None
        self.files: list[Path] = []

    def refresh(self) -> None:
        self.summary.setText(tr("读取中…"))
        self.ws.run(
            season_work.delivery, self.ws.places, self.ws.draft.path, done=self.show, failed=self._failed
        )

    def _failed(self, exc: Any) -> None:
        self.summary.setText(tr("无法计算：{why}").format(why=str(exc).splitlines()[0] if str(exc) else exc))

    def show(self, value: Any) -> None:
        _p, d = value
        self.result = d
        rows = [(s, ln) for s in d.sponsors for ln in s.lines if ln.owed_episodes]
        self.table.setRowCount(len(rows))
        from broadcast.sponsors.delivery import fmt

        for r, (s, ln) in enumerate(rows):
            red = ln.short
            for c, v in enumerate(
                (
                    s.name,
                    ln.slot_label,
                    ln.what,
                    f"{fmt(ln.shown_promised)} {ln.unit}",
                    f"{fmt(ln.shown_delivered)} {ln.unit}",
                    (fmt(ln.owed) + (tr(" 期") if ln.percent else f" {ln.unit}")) if red else "",
                    ln.todo,
                )
            ):
                self.table.setItem(r, c, _item(v, red=red))
        through = d.aired[-1].episode if d.aired else "—"
        self.summary.setText(
            tr("截至 {ep}：已播 {n} 期，待播 {m} 期，{k} 项累计未达标").format(
                ep=through, n=len(d.aired), m=len(d.upcoming), k=d.shortfalls
            )
        )

    def export(self, out: Path | None) -> None:
        if out is None:
            chosen = QFileDialog.getExistingDirectory(self, tr("导出到"), str(self.ws.db.parent))
            if not chosen:
                return
            out = Path(chosen)

        def done(paths: list[Path]) -> None:
            self.files = paths
            self.ws.notice.emit(tr("已导出：{f}").format(f="、".join(p.name for p in paths)))

        self.ws.run(
            season_work.export_delivery,
            self.ws.places,
            self.ws.draft.path,
            out,
            done=done,
            failed=self._failed,
        )


# ------------------------------------------------------------------------------------------ the window
class ProducerWindow(QMainWindow):
    def __init__(
        self,
        ws: Workspace,
        settings: QSettings | None = None,
        *,
        web: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ws = ws
        self.web = web
        self.settings = settings
        self.setObjectName("producerWindow")
        self.setStyleSheet(STYLE)
        self.tabs = QTabWidget()
        self.setCentralWidget(self.tabs)
        self.sponsors = SponsorsTab(ws, self)
        self.slots = SlotsTab(ws, self, web=web)
        self.season = SeasonTab(ws)
        self.delivery = DeliveryTab(ws)
        self.tabs.addTab(self.sponsors, tr("赞助与合同"))
        self.tabs.addTab(self.slots, tr("广告位与预览"))
        self.tabs.addTab(self.season, tr("选手与赛季"))
        self.tabs.addTab(self.delivery, tr("赛季播出"))
        # issues of the whole file, and saving
        self.issues = QListWidget()
        self.issues.setObjectName("issues")
        self.issues.itemActivated.connect(self._goto_issue)
        self.issues.itemClicked.connect(self._goto_issue)
        self.issues_dock = dock = QDockWidget(tr("检查结果（与 sponsors check 相同）"), self)
        dock.setObjectName("dock_issues")
        dock.setWidget(self.issues)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.resizeDocks([dock], [150], Qt.Orientation.Vertical)  # the tabs keep the height
        bar = self.addToolBar(tr("排期"))
        bar.setObjectName("toolbar")
        bar.setMovable(False)
        self.save_action = QAction(tr("保存排期 (Ctrl+S)"), self)
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self.save)
        bar.addAction(self.save_action)
        save_button = bar.widgetForAction(self.save_action)
        if save_button is not None:
            save_button.setObjectName("save")
        self.reload_action = reload_action = QAction(tr("重新读取文件"), self)
        reload_action.triggered.connect(self.reload_file)
        bar.addAction(reload_action)
        bar.addSeparator()
        self.file_label = QLabel(str(ws.draft.path))
        self.file_label.setObjectName("muted")
        bar.addWidget(self.file_label)
        self.state_label = QLabel()
        self.state_label.setObjectName("saveState")
        bar.addWidget(self.state_label)
        self.view_menu = view = self.menuBar().addMenu(tr("视图(&V)"))
        self.tab_actions: list[QAction] = []
        for i in range(4):  # Ctrl+1 … Ctrl+4: the tabs, from the keyboard
            act = QAction(self)
            act.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
            act.triggered.connect(lambda _c=False, i=i: self.tabs.setCurrentIndex(i))
            view.addAction(act)
            self.tab_actions.append(act)
        self._name_tab_actions()
        self.tabs.currentChanged.connect(self._tab_shown)
        view.addSeparator()
        for lang, label in (("zh_CN", "中文界面 Chinese UI"), ("en", "English UI 英文界面")):
            view.addAction(label).triggered.connect(lambda _c=False, lang=lang: self.set_language(lang))
        ws.checked.connect(self.show_check)
        ws.structure.connect(self.restructure)
        ws.open_slot.connect(lambda path: self.open_slot(tuple(path)))
        ws.notice.connect(lambda t: self.statusBar().showMessage(t, 12000))
        ws.saved.connect(
            lambda _c: self.statusBar().showMessage(tr("已保存：{f}").format(f=ws.draft.path), 8000)
        )
        ws.load_base()
        self.setWindowTitle(tr("制片工作台 · 《够级大明星》赞助排期与赛季"))
        self.resize(1600, 960)
        if ws.check is not None:
            self.show_check(ws.check)

    # -- the slots of the draft, as lists show them -------------------------------------------------------
    def slot_rows(self) -> list[tuple[Path_, str, Any]]:
        """(path, label, sponsor id) of every slot written in the draft, in the file's order."""
        rows: list[tuple[Path_, str, Any]] = []
        d = self.ws.draft
        for spec in SLOT_SPECS:
            label = KIND_LABELS[spec.kind]
            if spec.inside:
                for i, item in d.items((spec.section, spec.inside)):
                    sid = item.get("sponsor") if isinstance(item, dict) else None
                    extra = (
                        f" {item.get('prize') or ''}"
                        if spec.kind == "cell" and isinstance(item, dict)
                        else ""
                    )
                    what = (
                        tr("第{n}格").format(n=i + 1)
                        if spec.kind == "cell"
                        else tr("第{n}行").format(n=i + 1)
                    )
                    rows.append(((spec.section, spec.inside, i), f"{label} {what}{extra}", sid))
            elif spec.many:
                for i, item in d.items((spec.section,)):
                    sid = item.get("sponsor") if isinstance(item, dict) else None
                    if spec.kind == "supporter":
                        signed = (item.get("contract") or {}).get("signed") if isinstance(item, dict) else ""
                        name = tr("{label}（第{n}家，签约 {d}）").format(
                            label=label, n=i + 1, d=shown(signed) or "?"
                        )
                    else:
                        secs = item.get("seconds") if isinstance(item, dict) else ""
                        name = tr("{label} {s}秒").format(label=label, s=shown(secs))
                    rows.append(((spec.section, i), name, sid))
            elif d.has((spec.section,)):
                node = d.get((spec.section,))
                rows.append(((spec.section,), label, node.get("sponsor") if isinstance(node, dict) else None))
        return rows

    def _name_tab_actions(self) -> None:
        for i, act in enumerate(self.tab_actions):
            act.setText(self.tabs.tabText(i))

    def _tab_shown(self, index: int) -> None:
        """The season's delivery is read when its tab is shown (the as-run log grows while on air); the
        slots' tab opens on the first slot, with its preview, when none is open yet."""
        if self.tabs.widget(index) is self.delivery:
            self.delivery.refresh()
        elif self.tabs.widget(index) is self.slots and not self.slots.path:
            rows = self.slot_rows()
            if rows:
                self.slots.select(rows[0][0], rebuild=True)

    def open_slot(self, path: Path_) -> None:
        self.tabs.setCurrentWidget(self.slots)
        self.slots.refresh()
        self.slots.select(path, rebuild=True)

    def restructure(self) -> None:
        self.sponsors.refresh()
        self.slots.refresh()

    # -- checks and saving ---------------------------------------------------------------------------------
    def show_check(self, check: Check) -> None:
        self.issues.clear()
        for i in sorted(check.issues, key=lambda i: (i.level != "error", i.line)):
            it = QListWidgetItem(("✕ " if i.level == "error" else "⚠ ") + i.located(i18n.current()))
            it.setData(Qt.ItemDataRole.UserRole, check.where(i))
            it.setForeground(QBrush(QColor(theme.DANGER if i.level == "error" else theme.WARN)))
            self.issues.addItem(it)
        n = len(check.errors)
        dirty = self.ws.draft.dirty
        self.state_label.setText(
            (tr("有 {n} 个错误，不能保存").format(n=n) if n else tr("检查通过"))
            + ("  ·  " + tr("未保存") if dirty else "")
        )
        self.state_label.setProperty("bad", bool(n))
        self.state_label.setProperty("dirty", dirty)
        self.state_label.style().unpolish(self.state_label)
        self.state_label.style().polish(self.state_label)
        self.sponsors.show_check(check)
        self.slots.show_check(check)
        self.season.show_episodes()

    def _goto_issue(self, item: QListWidgetItem) -> None:
        path = tuple(item.data(Qt.ItemDataRole.UserRole) or ())
        if not path:
            return
        if path[0] == "sponsors" and len(path) > 1:
            self.tabs.setCurrentWidget(self.sponsors)
            self.sponsors.select(str(path[1]))
            return
        for depth in (3, 2, 1):
            slot = path[:depth]
            if any(p == slot for p, _l, _s in self.slot_rows()) or slot == ("rundown",):
                self.open_slot(slot)
                return

    def save(self, *, force: bool = False) -> bool:
        from broadcast.core.files import WriteFailed
        from broadcast.producer.draft import SaveRefused

        try:
            self.ws.save(force=force)
        except SaveRefused as exc:
            if exc.conflict and not force:
                box = QMessageBox(QMessageBox.Icon.Warning, tr("文件被改过"), str(exc), parent=self)
                box.setInformativeText(tr("覆盖别人的修改，还是先重新读取？"))
                box.addButton(tr("覆盖保存"), QMessageBox.ButtonRole.DestructiveRole)
                box.addButton(tr("取消"), QMessageBox.ButtonRole.RejectRole)
                self.dialog = box
                box.buttonClicked.connect(
                    lambda b: (
                        self.save(force=True)
                        if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole
                        else None
                    )
                )
                box.open()
                return False
            errors = [str(i) for i in exc.issues if i.level == "error"]
            self.statusBar().showMessage(
                tr("未保存：{n} 个错误（见下方检查结果）").format(n=len(errors)), 15000
            )
            return False
        except WriteFailed as exc:
            self.statusBar().showMessage(str(exc), 15000)
            return False
        self.restructure()
        return True

    def reload_file(self) -> None:
        self.ws.draft.reload()
        self.ws.changed_structure()

    # -- language ----------------------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        from broadcast.console import i18n

        i18n.install(lang)
        if self.settings is not None:
            self.settings.setValue("language", lang)
        current = self.tabs.currentIndex()
        path = self.slots.path
        # every text of the window comes from tr(): build its parts again in the new language
        self.tabs.clear()
        self.sponsors = SponsorsTab(self.ws, self)
        self.slots = SlotsTab(self.ws, self, web=self.web)
        self.season = SeasonTab(self.ws)
        self.delivery = DeliveryTab(self.ws)
        for w, t in (
            (self.sponsors, tr("赞助与合同")),
            (self.slots, tr("广告位与预览")),
            (self.season, tr("选手与赛季")),
            (self.delivery, tr("赛季播出")),
        ):
            self.tabs.addTab(w, t)
        self.tabs.setCurrentIndex(current)
        self._name_tab_actions()
        if path:
            self.slots.select(path, rebuild=True)
        self.save_action.setText(tr("保存排期 (Ctrl+S)"))
        self.reload_action.setText(tr("重新读取文件"))
        self.view_menu.setTitle(tr("视图(&V)"))
        self.issues_dock.setWindowTitle(tr("检查结果（与 sponsors check 相同）"))
        self.setWindowTitle(tr("制片工作台 · 《够级大明星》赞助排期与赛季"))
        if self.ws.check is not None:
            self.show_check(self.ws.check)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.ws.draft.dirty:
            self.statusBar().showMessage(tr("排期有未保存的修改"), 5000)
        super().closeEvent(event)
