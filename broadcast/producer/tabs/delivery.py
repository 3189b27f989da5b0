"""The Delivery tab: what each sponsor was promised against what aired this season, shortfalls in red,
XLSX + PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer import season as season_work
from broadcast.producer.widgets import cell, new_table
from broadcast.producer.workspace import Workspace
from broadcast.qt.i18n import tr


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
        self.table = new_table(
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
            season_work.delivery,
            self.ws.places,
            self.ws.draft.path,
            done=self.show_delivery,
            failed=self._failed,
        )

    def _failed(self, exc: Any) -> None:
        self.summary.setText(tr("无法计算：{why}").format(why=str(exc).splitlines()[0] if str(exc) else exc))

    def show_delivery(self, value: Any) -> None:
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
                self.table.setItem(r, c, cell(v, red=red))
        through = d.aired[-1].episode if d.aired else "—"
        self.summary.setText(
            tr("截至 {ep}：已播 %n 期，待播 {m} 期，{k} 项累计未达标", "", len(d.aired)).format(
                ep=through, m=len(d.upcoming), k=d.shortfalls
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
