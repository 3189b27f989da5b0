"""The Sponsors tab: the show's header, the sponsor registry and each sponsor's contracts (its slots)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer.draft import Check
from broadcast.producer.forms import (
    Form,
    SponsorForm,
    new_slot,
    shown,
)
from broadcast.producer.widgets import TabHost, cell, issue_message_list, new_table, scrolled
from broadcast.producer.workspace import Workspace
from broadcast.qt.i18n import tr
from broadcast.sponsors.placements import SLOT_SPECS
from broadcast.sponsors.placements.ratecard import KIND_LABELS
from broadcast.sponsors.placements.slots import SPEC_OF


class SponsorsTab(QWidget):
    """The show's header, the sponsor registry and each sponsor's contracts (its slots)."""

    def __init__(self, ws: Workspace, window: TabHost) -> None:
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
        self.contracts = new_table(
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
        self.form_host.addWidget(scrolled(self.form, self.form_host))
        self.form_host.setCurrentIndex(self.form_host.count() - 1)
        while (old := self.form_host.widget(0)) is not None and self.form_host.count() > 1:
            self.form_host.removeWidget(old)
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
            self.contracts.setItem(r, 0, cell(label, path))
            self.contracts.setItem(r, 1, cell(shown(c.get("signed"))))
            self.contracts.setItem(r, 2, cell(f"{shown(c.get('start'))} — {shown(c.get('end'))}"))
            per = {"year": "年", "month": "月", "episode": "期", "airing": "次"}.get(
                str(price.get("per")), ""
            )
            self.contracts.setItem(r, 3, cell(f"{shown(price.get('yuan'))} 元/{per}" if price else ""))
            self.contracts.setItem(
                r, 4, cell(price_label(spec.kind, node.get("seconds") if isinstance(node, dict) else None))
            )
            self.contracts.setItem(r, 5, cell(issue_message_list(problems[:2]), red=bool(problems)))

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
