"""The producer's window: sponsors and contracts, the slots as forms with their preview, roster and
season, and the season's delivery — tabs (:mod:`broadcast.producer.tabs`) over one
:class:`~broadcast.producer.workspace.Workspace`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QBrush, QCloseEvent, QColor, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from broadcast.producer.draft import Check, Path_
from broadcast.producer.forms import (
    shown,
)
from broadcast.producer.tabs.delivery import DeliveryTab
from broadcast.producer.tabs.qualifiers import QualifiersTab
from broadcast.producer.tabs.season import SeasonTab
from broadcast.producer.tabs.slots import SlotsTab
from broadcast.producer.tabs.sponsors import SponsorsTab
from broadcast.producer.widgets import STYLE
from broadcast.producer.workspace import Workspace
from broadcast.qt import i18n, theme
from broadcast.qt.i18n import tr
from broadcast.qt.widgets import set_props
from broadcast.sponsors.placements import SLOT_SPECS
from broadcast.sponsors.placements.ratecard import KIND_LABELS


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
        self.qualifiers = QualifiersTab(ws)
        self.qualifiers.season_changed.connect(lambda: self.season.reload(self.season.sid))
        self.tabs.addTab(self.sponsors, tr("赞助与合同"))
        self.tabs.addTab(self.slots, tr("广告位与预览"))
        self.tabs.addTab(self.season, tr("选手与赛季"))
        self.tabs.addTab(self.delivery, tr("赛季播出"))
        self.tabs.addTab(self.qualifiers, tr("海选榜"))
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
        for i in range(self.tabs.count()):  # Ctrl+1 … Ctrl+5: the tabs, from the keyboard
            act = QAction(self)
            act.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
            act.triggered.connect(lambda _c=False, i=i: self.tabs.setCurrentIndex(i))
            view.addAction(act)
            self.tab_actions.append(act)
        self._name_tab_actions()
        self._opening = False  # open_slot() is showing the slots' tab with a form of its choosing
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
        slots' tab opens on the first slot, with its preview, when none is open yet, and builds its form
        again if the draft's structure changed while it was hidden (:meth:`SlotsTab.shown`)."""
        if self.tabs.widget(index) is self.delivery:
            self.delivery.refresh()
        elif self.tabs.widget(index) is self.slots and not self._opening:
            self.slots.shown()

    def open_slot(self, path: Path_) -> None:
        """The slots' tab shown with ``path``'s form (built once: not first the one open before)."""
        self._opening = True
        try:
            self.tabs.setCurrentWidget(self.slots)
        finally:
            self._opening = False
        self.slots.refresh(then=path)

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
            (tr("有 %n 个错误，不能保存", "", n) if n else tr("检查通过"))
            + ("  ·  " + tr("未保存") if dirty else "")
        )
        set_props(self.state_label, bad=bool(n), dirty=dirty)
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
            self.statusBar().showMessage(tr("未保存：%n 个错误（见下方检查结果）", "", len(errors)), 15000)
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
        from broadcast.qt import i18n

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
        self.qualifiers = QualifiersTab(self.ws)
        self.qualifiers.season_changed.connect(lambda: self.season.reload(self.season.sid))
        for w, t in (
            (self.sponsors, tr("赞助与合同")),
            (self.slots, tr("广告位与预览")),
            (self.season, tr("选手与赛季")),
            (self.delivery, tr("赛季播出")),
            (self.qualifiers, tr("海选榜")),
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
