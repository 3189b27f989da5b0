"""Post-show export: the 英雄榜 and episode results to CSV / XLSX / JSON, GJN records of an episode.

CSV is written as UTF-8 with BOM (Excel in China opens it with the right characters). XLSX is written
with openpyxl's write-only mode: Chinese headers, a title line, bold header row with the show's
colours, the top three on a gold band, frozen panes, column widths, a filter. The PNG of the 英雄榜 is
in :mod:`broadcast.season.render`.

Rows stream: a ranking comes from the database row by row (:func:`~broadcast.season.rankings.
stream_ranking`) and goes to the file as it comes, CSV, XLSX and JSON alike (the 100,000 rows of a
qualifier-sized season are never all held). In the XLSX the styled rows (title, header, podium) go
through openpyxl's cells; the plain rows after them are handed to openpyxl's own sheet writer as
SpreadsheetML text, a thousand rows at a time (:class:`_SheetWriter`) — openpyxl's per-cell path costs
some 14 µs a cell, ten times the text's, and 100,000 rows × 10 columns must fit in seconds.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

from broadcast.core.files import atomic_path, write_text
from broadcast.errors import GoujiError
from broadcast.season.backend import Rec, SeasonConn
from broadcast.season.model import SeasonDB, round_name
from broadcast.season.progress import Progress
from broadcast.season.rankings import Ranking, RankingStream, Row, rank_label

FORMATS = ("csv", "xlsx", "json")

PLAYER_COLUMNS: list[tuple[str, str, Callable[[Row], Any], int]] = [
    ("rank", "名次", rank_label, 8),
    ("name", "姓名", lambda r: r.name, 14),
    ("team", "队伍", lambda r: r.team, 22),
    ("points", "积分", lambda r: r.points, 8),
    ("firsts", "头科", lambda r: r.firsts, 7),
    ("seconds", "二科", lambda r: r.seconds, 7),
    ("lasts", "大落", lambda r: r.lasts, 7),
    ("quan_san", "圈三", lambda r: r.quan_san, 7),
    ("games", "局数", lambda r: r.games, 7),
    ("avg", "场均", lambda r: r.avg, 8),
]
TEAM_COLUMNS: list[tuple[str, str, Callable[[Row], Any], int]] = [
    ("rank", "名次", rank_label, 8),
    ("name", "队伍", lambda r: r.name, 24),
    ("sponsor", "冠名", lambda r: r.sponsor, 16),
    ("wins", "胜", lambda r: r.wins, 6),
    ("losses", "负", lambda r: r.losses, 6),
    ("points", "净积分", lambda r: r.points, 9),
    ("game_points", "局分", lambda r: r.game_points, 8),
    ("penalties", "罚分", lambda r: r.penalties, 7),
    ("firsts", "头科", lambda r: r.firsts, 7),
    ("lasts", "大落", lambda r: r.lasts, 7),
    ("games", "局数", lambda r: r.games, 7),
]
DECIDED_BY = {"points": "比分", "extra_game": "加赛", "lots": "抽签", "forfeit": "弃权", "": ""}


class ExportError(GoujiError):
    """An export that cannot be made: ``ExportError("export", zh, en, where=file)``."""

    rule = "export"
    show_rule = False


@dataclass
class Table:
    """One sheet: a title line, Chinese headers, rows."""

    name: str
    title: str
    headers: list[str]
    widths: list[int]
    rows: Iterable[list[Any]]  # a list, or rows streamed once (then ``count`` says how many will come)
    keys: list[str]
    count: int | None = None

    @property
    def total(self) -> int:
        if self.count is not None:
            return self.count
        return len(self.rows) if isinstance(self.rows, Sequence) else 0


def fmt_from(path: Path, fmt: str | None) -> str:
    f = (fmt or path.suffix.lstrip(".")).lower()
    if f not in FORMATS + ("png",):
        raise ExportError(
            "export",
            f"未知格式 {f or '(无后缀)'!r}，应为 csv、xlsx、json 或 png",
            f"unknown format {f or '(no suffix)'!r}: csv, xlsx, json or png",
            where=path,
        )
    return f


# -- tables ---------------------------------------------------------------------------------------
def ranking_table(ranking: Ranking | RankingStream, season_title: str) -> Table:
    """The ranking as a sheet; its rows are made as they are written (a stream is read once)."""
    cols = PLAYER_COLUMNS if ranking.kind == "players" else TEAM_COLUMNS
    what = "选手" if ranking.kind == "players" else "队伍"
    getters = [c[2] for c in cols]
    count = ranking.count if isinstance(ranking, RankingStream) else len(ranking.rows)
    return Table(
        name=f"英雄榜（{what}）",
        title=f"{season_title} 英雄榜 · {what}排名（排名规则：{ranking.spec}）",
        headers=[c[1] for c in cols],
        widths=[c[3] for c in cols],
        rows=([get(r) for get in getters] for r in ranking.rows),
        keys=[c[0] for c in cols],
        count=count,
    )


def episode_results(sdb: SeasonDB, season_id: int, episode_id: int | None) -> list[dict[str, Any]]:
    """Every match of the episode (or season) with its games, penalties and decision."""
    c = sdb.conn
    team = {int(r["id"]): r["name"] for r in sdb.teams(season_id)}
    out = []
    for m in sdb.matches(season_id, episode_id):
        games = sdb.games(int(m["id"]))
        lineup = sdb.lineup(int(m["id"]))
        ep = c.execute("SELECT number FROM season_episodes WHERE id=?", (m["episode_id"],)).fetchone()
        out.append(
            {
                "match_id": int(m["id"]),
                "episode": int(ep[0]) if ep else None,
                "round": int(m["round"]),
                "round_name": round_name(int(m["round"])),
                "label": m["label"],
                "team_a": team[int(m["team_a"])],
                "team_b": team[int(m["team_b"])],
                "players_a": [lineup[s]["name"] for s in (1, 3, 5) if s in lineup],
                "players_b": [lineup[s]["name"] for s in (2, 4, 6) if s in lineup],
                "games": [
                    {
                        "number": int(g["number"]),
                        "extra": bool(g["extra"]),
                        "points_a": int(g["points_a"]),
                        "points_b": int(g["points_b"]),
                        "quan_san": bool(g["quan_san"]),
                    }
                    for g in games
                ],
                "penalties": [
                    {
                        "team": team[int(p["team_id"])],
                        "points": int(p["points"]),
                        "reason": p["reason"],
                        "game": p["game_number"],
                    }
                    for p in sdb.penalties(int(m["id"]))
                ],
                "penalty_a": int(m["penalty_a"]),
                "penalty_b": int(m["penalty_b"]),
                "score_a": int(m["score_a"]),
                "score_b": int(m["score_b"]),
                "status": m["status"],
                "winner": team.get(int(m["winner"])) if m["winner"] is not None else None,
                "decided_by": m["decided_by"],
                "lots_seed": m["lots_seed"],
                "forfeit": team.get(int(m["forfeit_team"])) if m["forfeit_team"] is not None else None,
            }
        )
    return out


def results_table(results: list[dict[str, Any]], title: str) -> Table:
    headers = [
        "期",
        "轮次",
        "场次",
        "A队（单号位）",
        "A队选手",
        "B队（双号位）",
        "B队选手",
        "第1局",
        "第2局",
        "第3局",
        "加赛",
        "A队罚分",
        "B队罚分",
        "总比分",
        "胜方",
        "决胜方式",
        "抽签种子",
    ]
    widths = [6, 8, 10, 22, 24, 22, 24, 8, 8, 8, 8, 8, 8, 9, 22, 9, 10]
    rows = []
    for r in results:
        g = {x["number"]: f"{x['points_a']}:{x['points_b']}" for x in r["games"]}
        extra = [f"{x['points_a']}:{x['points_b']}" for x in r["games"] if x["extra"]]
        rows.append(
            [
                r["episode"] or "",
                r["round_name"],
                r["label"],
                r["team_a"],
                "、".join(r["players_a"]),
                r["team_b"],
                "、".join(r["players_b"]),
                g.get(1, ""),
                g.get(2, ""),
                g.get(3, ""),
                "、".join(extra),
                r["penalty_a"],
                r["penalty_b"],
                f"{r['score_a']}:{r['score_b']}" if r["status"] == "final" else "未完",
                r["winner"] or "",
                DECIDED_BY.get(r["decided_by"], r["decided_by"]),
                "" if r["lots_seed"] is None else r["lots_seed"],
            ]
        )
    return Table(
        "比赛结果",
        title,
        headers,
        widths,
        rows,
        [
            "episode",
            "round",
            "label",
            "team_a",
            "players_a",
            "team_b",
            "players_b",
            "game1",
            "game2",
            "game3",
            "extra",
            "penalty_a",
            "penalty_b",
            "score",
            "winner",
            "decided_by",
            "lots_seed",
        ],
    )


def placings_table(conn: SeasonConn, season_id: int, episode_id: int | None, title: str) -> Table:
    sql = (
        "SELECT m.id, g.number, s.seat, p.name, t.name, s.title, s.points FROM season_game_seats s "
        "JOIN season_games g ON g.id=s.game_id JOIN season_matches m ON m.id=g.match_id "
        "JOIN season_players p ON p.id=s.player_id JOIN season_teams t ON t.id=s.team_id "
        "WHERE s.season_id=?"
    )
    args: list[Any] = [season_id]
    if episode_id is not None:
        sql += " AND m.episode_id=?"
        args.append(episode_id)
    rows = [list(r) for r in conn.execute(sql + " ORDER BY m.id, g.number, s.seat", args)]
    return Table(
        "每局名次",
        title,
        ["场次编号", "局", "座位", "选手", "队伍", "名次", "积分"],
        [9, 5, 5, 14, 22, 7, 6],
        rows,
        ["match_id", "game", "seat", "player", "team", "title", "points"],
    )


def prizes_table(sdb: SeasonDB, season_id: int, episode_id: int | None, title: str) -> Table:
    rows = [
        [r["episode"] or "", r["player"], r["cell"], r["prize"], r["sponsor"], r["value_yuan"]]
        for r in sdb.prizes(season_id, episode_id)
    ]
    return Table(
        "九宫格奖品",
        title,
        ["期", "选手", "格", "奖品", "提供", "价值（元）"],
        [6, 14, 5, 24, 22, 11],
        rows,
        ["episode", "player", "cell", "prize", "sponsor", "value_yuan"],
    )


# -- writers --------------------------------------------------------------------------------------
def write_csv(table: Table, path: Path, progress: Progress | None = None) -> int:
    """The table as CSV (UTF-8 with BOM), row by row as they come; the number of rows written."""
    n = 0
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(table.headers)
        for row in table.rows:
            w.writerow(row)
            n += 1
            if progress:
                progress.advance()
    return n


def write_xlsx(tables: Sequence[Table], path: Path, progress: Progress | None = None) -> int:
    """The tables as the sheets of one workbook (openpyxl, write-only), rows as they come; the number of
    data rows written."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.utils import get_column_letter

    wb = Workbook(write_only=True)
    title_font = Font(name="Noto Sans CJK SC", size=16, bold=True, color="8B0000")
    head_font = Font(name="Noto Sans CJK SC", size=11, bold=True, color="FFFFFF")
    head_fill = PatternFill("solid", fgColor="B22222")
    gold_fill = PatternFill("solid", fgColor="FFF2CC")
    thin = Side(style="thin", color="D9B38C")
    border = Border(bottom=thin)
    center = Alignment(horizontal="center", vertical="center")
    written = 0
    for table in tables:
        ws = wb.create_sheet(table.name[:31])
        for i, w in enumerate(table.widths, start=1):
            ws.column_dimensions[get_column_letter(i)].width = w
        ws.freeze_panes = "A3"
        sheet = _SheetWriter.install(ws)
        t = WriteOnlyCell(ws, value=table.title)
        t.font = title_font
        ws.append([t])
        heads = []
        for h in table.headers:
            c = WriteOnlyCell(ws, value=h)
            c.font, c.fill, c.alignment, c.border = head_font, head_fill, center, border
            heads.append(c)
        ws.append(heads)
        rows = iter(table.rows)
        n = 0
        if table.name.startswith("英雄榜"):  # the top three on a gold band
            for row in islice(rows, 3):
                cells = []
                for v in row:
                    c = WriteOnlyCell(ws, value=v)
                    c.fill = gold_fill
                    cells.append(c)
                ws.append(cells)
                n += 1
                if progress:
                    progress.advance()
        n += sheet.write_plain(ws, rows, first=n + 3, progress=progress)
        if n:
            ws.auto_filter.ref = f"A2:{get_column_letter(len(table.headers))}{n + 2}"
        written += n
    # built in memory, then written in one go: a full disk then fails on a plain write, instead of
    # inside openpyxl's zip writer (which leaves half-closed files behind that complain at exit)
    buf = io.BytesIO()
    _save(wb, buf)
    with atomic_path(path) as tmp:
        tmp.write_bytes(buf.getvalue())
    return written


def _save(wb: Any, out: io.BytesIO) -> None:
    """openpyxl's ``save_workbook``, its zip deflated at level 1 instead of 6: 100,000 rows of 12 columns
    (a 46 MB sheet) deflated in 0.24 s of CPU instead of 1.14 s, 6.8 MB instead of 5.1."""
    from zipfile import ZIP_DEFLATED, ZipFile

    from openpyxl.writer.excel import ExcelWriter

    if not wb.worksheets:  # as Workbook.save: a workbook has at least one sheet
        wb.create_sheet()
    wb.properties.modified = datetime.now(tz=UTC).replace(tzinfo=None)
    archive = ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True, compresslevel=1)
    ExcelWriter(wb, archive).save()  # closes the archive


class _SheetWriter:
    """openpyxl's write-only sheet writer (``WorksheetWriter``), its stream opened on a file we hold, so
    that plain rows can be written into ``<sheetData>`` as SpreadsheetML text: openpyxl's own stream is
    flushed first, then the text follows it in the same file. Everything else (the sheet's head, styled
    cells, the filter, the workbook, the zip) is openpyxl's. Without lxml's flushable writer the rows go
    through ``ws.append`` as usual."""

    CHUNK = 1000  # rows per write

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    @classmethod
    def install(cls, ws: Any) -> _SheetWriter:
        """Give the write-only sheet ``ws`` (widths and panes set, nothing appended yet) this writer."""
        from openpyxl.worksheet._writer import WorksheetWriter
        from openpyxl.xml.constants import SHEET_MAIN_NS
        from openpyxl.xml.functions import xmlfile

        class Writer(WorksheetWriter):
            handle: Any = None
            stream: Any = None

            def get_stream(self) -> Generator[Any, Any, None]:  # WorksheetWriter's, on a file we hold
                with open(str(self.out), "wb") as fh, xmlfile(fh) as xf:
                    self.handle, self.stream = fh, xf
                    with xf.element("worksheet", xmlns=SHEET_MAIN_NS):
                        try:
                            while True:
                                el = yield
                                if el is True:
                                    yield xf
                                elif el is not None:
                                    xf.write(el)
                        except GeneratorExit:
                            pass

        ws._writer = Writer(ws)
        ws._writer.write_top()
        return cls(ws._writer)

    def write_plain(
        self, ws: Any, rows: Iterator[list[Any]], *, first: int, progress: Progress | None = None
    ) -> int:
        """Rows ``first``, ``first + 1`` … of the sheet (after its appended rows); how many were written."""
        if not hasattr(self.writer.stream, "flush"):  # et_xmlfile: openpyxl's cells, as before
            n = 0
            for row in rows:
                ws.append(row)
                n += 1
                if progress:
                    progress.advance()
            return n
        from openpyxl.utils import get_column_letter

        letters: list[str] = []
        n = 0
        while True:
            chunk = list(islice(rows, self.CHUNK))
            if not chunk:
                return n
            width = max(len(r) for r in chunk)
            letters += [get_column_letter(i) for i in range(len(letters) + 1, width + 1)]
            text = "".join(_row_xml(first + n + i, row, letters) for i, row in enumerate(chunk))
            self.writer.stream.flush()
            self.writer.handle.write(text.encode("utf-8"))
            n += len(chunk)
            if progress:
                progress.advance(len(chunk))


def _row_xml(number: int, values: Sequence[Any], letters: Sequence[str]) -> str:
    """One ``<row>`` of SpreadsheetML: numbers as numbers, text inline (escaped, control characters XML
    cannot hold dropped, outer spaces kept), nothing for an empty cell."""
    n = str(number)
    cells = [f'<row r="{n}">']
    for col, v in zip(letters, values, strict=False):
        kind = type(v)
        if kind is int or kind is float:
            cells.append(f'<c r="{col}{n}" t="n"><v>{v!r}</v></c>')
        elif kind is bool:
            cells.append(f'<c r="{col}{n}" t="b"><v>{int(v)}</v></c>')
        elif v is not None and v != "":
            text = str(v).translate(_XML_TEXT)
            space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
            cells.append(f'<c r="{col}{n}" t="inlineStr"><is><t{space}>{text}</t></is></c>')
    cells.append("</row>")
    return "".join(cells)


# escaped for an XML text node, and the control characters XML 1.0 cannot hold dropped (openpyxl refuses
# them): one str.translate per cell
_XML_TEXT: dict[int, str | None] = {
    **{c: None for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))},
    ord("&"): "&amp;",
    ord("<"): "&lt;",
    ord(">"): "&gt;",
}


def write_json(obj: Any, path: Path) -> None:
    write_text(path, json.dumps(obj, ensure_ascii=False, indent=1, default=str) + "\n")


def _ranking_head(ranking: Ranking | RankingStream, season: Rec) -> dict[str, Any]:
    return {
        "season": season["name"],
        "title": season["title"],
        "kind": ranking.kind,
        "spec": ranking.spec,
        "generated": datetime.now().isoformat(timespec="seconds"),
    }


def _json_row(r: Row) -> dict[str, Any]:
    return {**r.as_dict(), "rank_label": rank_label(r)}


def write_ranking_json(
    ranking: Ranking | RankingStream, season: Rec, path: Path, progress: Progress | None = None
) -> int:
    """The ranking as JSON ({season, title, kind, spec, generated, rows: [{…, rank_label}]}), written row
    by row as the rows come (one row a line); the number of rows written."""
    head = json.dumps(_ranking_head(ranking, season), ensure_ascii=False, indent=1)
    n = 0
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as f:
        f.write(head[: head.rindex("}")].rstrip() + ',\n "rows": [')
        for r in ranking.rows:
            f.write(("," if n else "") + "\n  " + json.dumps(_json_row(r), ensure_ascii=False, default=str))
            n += 1
            if progress:
                progress.advance()
        f.write("\n ]\n}\n")
    return n


def export_ranking(
    ranking: Ranking | RankingStream,
    season: Rec,
    path: Path,
    fmt: str,
    *,
    quiet: bool = False,
    progress_enabled: bool | None = None,
) -> Path:
    """The ranking to ``path`` as CSV, XLSX or JSON, its rows as they come (a stream is read once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = ranking_table(ranking, season["title"])
    enabled = False if quiet else progress_enabled
    with Progress(table.total, f"导出英雄榜 {path.name}", enabled=enabled) as bar:
        if fmt == "csv":
            write_csv(table, path, bar)
        elif fmt == "xlsx":
            write_xlsx([table], path, bar)
        elif fmt == "json":
            write_ranking_json(ranking, season, path, bar)
        else:
            raise ExportError(
                "export", f"英雄榜不能导出为 {fmt}", f"the leaderboard cannot be exported as {fmt}"
            )
    return path


def export_results(
    sdb: SeasonDB,
    season: Rec,
    episode_id: int | None,
    path: Path,
    fmt: str,
    *,
    quiet: bool = False,
    progress_enabled: bool | None = None,
) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    sid = int(season["id"])
    ep_label = ""
    if episode_id is not None:
        ep = sdb.conn.execute(
            "SELECT number, air_date FROM season_episodes WHERE id=?", (episode_id,)
        ).fetchone()
        ep_label = f" 第{ep[0]}期" + (f"（{ep[1]}播出）" if ep[1] else "")
    results = episode_results(sdb, sid, episode_id)
    title = f"{season['title']}{ep_label} 比赛结果"
    enabled = False if quiet else progress_enabled
    if fmt == "json":
        prizes = [dict(r) for r in sdb.prizes(sid, episode_id)]
        write_json(
            {"season": season["name"], "episode": ep_label.strip(), "matches": results, "prizes": prizes},
            path,
        )
        return path
    tables = [results_table(results, title)]
    if fmt == "xlsx":
        tables.append(placings_table(sdb.conn, sid, episode_id, f"{season['title']}{ep_label} 每局名次"))
        tables.append(prizes_table(sdb, sid, episode_id, f"{season['title']}{ep_label} 九宫格奖品"))
    with Progress(sum(t.total for t in tables), f"导出成绩 {path.name}", enabled=enabled) as bar:
        if fmt == "csv":
            write_csv(tables[0], path, bar)
        elif fmt == "xlsx":
            write_xlsx(tables, path, bar)
        else:
            raise ExportError("export", f"成绩不能导出为 {fmt}", f"results cannot be exported as {fmt}")
    return path


def export_records(
    sdb: SeasonDB,
    season: Rec,
    episode_id: int | None,
    out_dir: Path,
    *,
    quiet: bool = False,
    progress_enabled: bool | None = None,
) -> list[Path]:
    """Every game's GJN record of the episode, one file each, plus ``index.csv`` listing them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    sql = (
        "SELECT g.id, g.number, g.extra, g.gjn, g.points_a, g.points_b, m.id AS match_id, m.round, "
        "e.number AS episode, ta.name AS team_a, tb.name AS team_b FROM season_games g "
        "JOIN season_matches m ON m.id=g.match_id JOIN season_teams ta ON ta.id=m.team_a "
        "JOIN season_teams tb ON tb.id=m.team_b LEFT JOIN season_episodes e ON e.id=m.episode_id "
        "WHERE m.season_id=?"
    )
    args: list[Any] = [season["id"]]
    if episode_id is not None:
        sql += " AND m.episode_id=?"
        args.append(episode_id)
    rows = sdb.conn.execute(sql + " ORDER BY m.id, g.number", args).fetchall()
    written: list[Path] = []
    enabled = False if quiet else progress_enabled
    index = [["文件", "期", "轮次", "场次编号", "局", "A队", "B队", "A队得分", "B队得分"]]
    with Progress(len(rows), f"导出牌谱 {out_dir.name}", enabled=enabled) as bar:
        for r in rows:
            ep = f"E{int(r['episode']):02d}-" if r["episode"] is not None else ""
            name = f"{ep}M{int(r['match_id']):04d}-G{int(r['number'])}{'-extra' if r['extra'] else ''}.gjn"
            p = out_dir / name
            text = r["gjn"] if r["gjn"].endswith("\n") else r["gjn"] + "\n"
            write_text(p, text)
            written.append(p)
            index.append(
                [
                    name,
                    r["episode"] or "",
                    round_name(int(r["round"])),
                    r["match_id"],
                    r["number"],
                    r["team_a"],
                    r["team_b"],
                    r["points_a"],
                    r["points_b"],
                ]
            )
            bar.advance()
    with atomic_path(out_dir / "index.csv") as tmp, tmp.open("w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(index)
    return written
