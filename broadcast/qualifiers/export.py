"""The qualifier board as CSV (UTF-8 with BOM, for Excel) and XLSX, with the season exports' writers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broadcast.season.export import ExportError, Table, write_csv, write_xlsx

from .board import BoardRow, describe, ranked, spec_of
from .store import QualifierDB

COLUMNS: list[tuple[str, str, int]] = [
    ("rank", "名次", 8),
    ("platform_id", "平台编号", 16),
    ("name", "昵称", 16),
    ("games", "局数", 8),
    ("points", "积分", 8),
    ("avg", "场均", 8),
    ("firsts", "头科", 8),
    ("first_rate", "头科率", 9),
    ("seconds", "二科", 8),
    ("thirds", "三科", 8),
    ("fourths", "四科", 8),
    ("fifths", "二落", 8),
    ("lasts", "大落", 8),
    ("quan_san", "圈三", 8),
    ("opened", "开点", 8),
]


def _cells(r: BoardRow) -> list[Any]:
    d = r.as_dict()
    d["rank"] = r.rank_label
    d["first_rate"] = f"{r.first_rate * 100:.1f}%"
    return [d[key] for key, _, _ in COLUMNS]


def board_table(qdb: QualifierDB, *, spec: str | None = None, top: int | None = None) -> Table:
    used = spec_of(qdb, spec)
    title = qdb.setting("title") or "网络海选"
    return Table(
        name="海选榜",
        title=f"{title} 海选榜（{describe(used)}；排名规则 {used}）",
        headers=[c[1] for c in COLUMNS],
        widths=[c[2] for c in COLUMNS],
        rows=[_cells(r) for r in ranked(qdb, used, top)],
        keys=[c[0] for c in COLUMNS],
    )


def export_board(qdb: QualifierDB, out: Path, *, spec: str | None = None, top: int | None = None) -> int:
    """Write the board to ``out`` (``.csv`` or ``.xlsx``, by its suffix); the number of rows written."""
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("csv", "xlsx"):
        raise ExportError(
            "export",
            f"未知格式 {fmt or '(无后缀)'!r}，海选榜可导出 csv 或 xlsx",
            f"unknown format {fmt or '(no suffix)'!r}: the qualifier board exports to csv or xlsx",
            where=out,
        )
    table = board_table(qdb, spec=spec, top=top)
    if fmt == "csv":
        return write_csv(table, out)
    return write_xlsx([table], out)
