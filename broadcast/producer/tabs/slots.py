"""The Slots tab: every slot as a form beside its preview in the real program page; the rundown's breaks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer.draft import Check, Path_
from broadcast.producer.forms import (
    Form,
    SlotForm,
    alive,
    film_ids,
    new_slot,
    shown,
)
from broadcast.producer.preview import View, slot_views
from broadcast.producer.widgets import TabHost, scrolled
from broadcast.producer.workspace import Workspace
from broadcast.qt import theme
from broadcast.qt.i18n import tr
from broadcast.sponsors.placements import SLOT_SPECS
from broadcast.sponsors.placements.ratecard import KIND_LABELS
from broadcast.sponsors.placements.slots import SPEC_OF


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
        title.setWordWrap(True)  # a narrow pane wraps the title and leaves the view list its width
        row.addWidget(title, 1)
        self.views = QComboBox()
        self.views.setObjectName("previewViews")
        self.views.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.views.currentIndexChanged.connect(lambda _i: self.show_view())
        row.addWidget(self.views)
        lay.addLayout(row)
        self.stack = QStackedWidget()
        self.page: Any = None
        if web:
            from broadcast.qt.monitor import PageMonitor

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
    def __init__(self, ws: Workspace, window: TabHost, *, web: bool = True) -> None:
        super().__init__()
        self.ws = ws
        self.window_ = window
        lay = QHBoxLayout(self)
        split = QSplitter()
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.tree = QTreeWidget()
        self.tree.setProperty("elidedColumns", [0, 1])  # a long slot or sponsor name: its tooltip has it
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
        self.stale = False  # the open form may stand for another slot now: built again once shown
        self.refresh()

    def refresh(self, then: Path_ | None = None) -> None:
        """The tree read again from the draft, then ``then``'s form opened — or, without it, the open
        form built again (its place may hold another slot now): on a tab that is not shown, only once it
        is shown (:meth:`shown`). A form is ~75 ms of CPU: a slot bought on the sponsors' tab is opened
        right after the draft's structure changed, and was built three times."""
        keep = self.path if then is None else then
        self.tree.blockSignals(True)
        self.tree.clear()
        parents: dict[str, QTreeWidgetItem] = {}
        for path, label, sid in self.window_.slot_rows():
            sec = str(path[0])
            name = dict(self.ws.draft.sponsors()).get(str(sid), str(sid or ""))
            it = QTreeWidgetItem([label, name])
            it.setToolTip(0, label)
            it.setToolTip(1, name)
            it.setData(0, Qt.ItemDataRole.UserRole, path)
            spec = SPEC_OF[sec]
            if spec.many or spec.inside:
                if sec not in parents:
                    head = KIND_LABELS[spec.kind] + (
                        tr("（按签约先后播出）") if spec.kind == "supporter" else ""
                    )
                    parents[sec] = QTreeWidgetItem([head, ""])
                    parents[sec].setToolTip(0, head)
                    self.tree.addTopLevelItem(parents[sec])
                parents[sec].addChild(it)
            else:
                self.tree.addTopLevelItem(it)
        rd = QTreeWidgetItem([tr("节目流程（插播时段）"), ""])
        rd.setToolTip(0, rd.text(0))
        rd.setData(0, Qt.ItemDataRole.UserRole, ("rundown",))
        self.tree.addTopLevelItem(rd)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.blockSignals(False)
        if keep and then is None and not self.isVisibleTo(self.window()):
            self._mark(keep)
            self.stale = True
        elif keep:
            self.select(keep, rebuild=True)

    def shown(self) -> None:
        """The tab came into view: its form built again if the draft's structure changed meanwhile; the
        first slot opened, with its preview, when none is open yet."""
        if self.stale:
            self.select(self.path, rebuild=True)
        elif not self.path:
            rows = self.window_.slot_rows()
            if rows:
                self.select(rows[0][0], rebuild=True)

    def select(self, path: Path_, *, rebuild: bool = False) -> None:
        self._mark(path)
        self.open(path, rebuild=rebuild)

    def _mark(self, path: Path_) -> None:
        """``path``'s row made the tree's current one (no form opened for it)."""
        it = self._find(path)
        if it is not None:
            self.tree.blockSignals(True)
            self.tree.setCurrentItem(it)
            self.tree.blockSignals(False)

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
        if path == self.path and self.form is not None and not rebuild and not self.stale:
            return
        self.path = path
        self.stale = False
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
        while (old := self.form_host.widget(0)) is not None:
            self.form_host.removeWidget(old)
        self.form = form
        self.form_host.addWidget(scrolled(form, self.form_host))
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
        if self.stale:
            return  # its form is built again, and marked, once the tab is shown
        if self.form is not None:
            self.form.show_check(check)
        if check.ok and self.path and self.path != ("rundown",) and not self.preview.current:
            self.preview.show_slot(self.path, check)
