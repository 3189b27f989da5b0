"""Import rosters (选手名单) from CSV or XLSX files as producers keep them.

The first non-empty row holds the headers, in Chinese or English (aliases in :data:`COLUMNS`); only
姓名 is required. CSV may be UTF-8 (with or without BOM) or GBK/GB18030 (what Excel in China saves).
The whole file is checked first; any bad row is reported as ``file:row N: …`` (N as Excel numbers
rows, the header row included) and nothing of the file is imported. A player already in the season
(same 编号, or same 姓名 and 队伍 when there is no 编号) is updated, not duplicated, so a corrected
roster can be imported again. Teams named in the file are created if the season does not have them.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from broadcast.core.text import name_key, refusal
from broadcast.errors import GoujiError
from broadcast.season.model import PLAYER_NAME, TEAM_NAME, SeasonDB, too_long

# canonical column → accepted headers (compared without spaces, case-insensitive)
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("姓名", "选手", "选手姓名", "名字", "name", "player"),
    "team": ("队伍", "队名", "所属队伍", "战队", "参赛队", "team"),
    "code": ("编号", "选手编号", "参赛号", "code", "id"),
    "gender": ("性别", "gender", "sex"),
    "phone": ("电话", "手机", "手机号", "手机号码", "联系电话", "phone", "mobile", "tel"),
    "photo": ("照片", "头像", "照片文件", "photo", "picture"),
    "hometown": ("籍贯", "地区", "所在地", "来自", "城市", "hometown", "city"),
    "team_sponsor": ("队伍冠名", "冠名商", "赞助商", "sponsor"),
    "note": ("备注", "说明", "note", "remark"),
}
_ALIAS = {re.sub(r"\s+", "", a).lower(): canon for canon, names in COLUMNS.items() for a in names}
GENDERS = {
    "男": "男",
    "女": "女",
    "男性": "男",
    "女性": "女",
    "m": "男",
    "f": "女",
    "male": "男",
    "female": "女",
}
_PHONE = re.compile(r"^(\+?86[- ]?)?1[3-9]\d{9}$|^0\d{2,3}-?\d{7,8}(-\d{1,6})?$")


class ImportError_(GoujiError):
    """The file cannot be imported; ``errors`` lists every problem as ``file:row N: 中文 / English``
    (the first is the error's message); ``rows``: the rows that were read, for a preview of the file."""

    rule = "import"
    show_rule = False

    def __init__(self, errors: list[str], rows: list[RosterRow] | None = None) -> None:
        self.errors = errors
        self.rows = list(rows or [])
        zh, _, en = (errors[0] if errors else "导入失败 / import failed").partition(" / ")
        super().__init__("import", zh, en)


@dataclass
class RosterRow:
    row: int
    name: str
    team: str = ""
    code: str = ""
    gender: str = ""
    phone: str = ""
    photo: str = ""
    hometown: str = ""
    team_sponsor: str = ""
    note: str = ""


@dataclass
class ImportReport:
    file: str
    added: int = 0
    updated: int = 0
    teams_created: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))  # Excel stores 13800138000 as a number
    return str(v).strip()


MAX_CSV_BYTES = 64 * 1024 * 1024  # a roster of 100,000 players is about 8 MB
MAX_XLSX_BYTES = 64 * 1024 * 1024  # the file, and each of its parts once unpacked (checked first)
MAX_ROWS = 200_000
MAX_CELL = 4096  # characters in one cell


def _too_big(path: Path, size: int, limit: int, what: str) -> ImportError_:
    return ImportError_(
        [
            f"{path}:row 0: 文件太大（{what} {size / 1e6:.1f} MB，上限 {limit // (1024 * 1024)} MB），"
            f"请分成几个文件 / too large ({what} {size / 1e6:.1f} MB, the limit is "
            f"{limit // (1024 * 1024)} MB): split it into several files"
        ]
    )


def _decodes(path: Path, encoding: str) -> bool:
    """The whole file decodes as ``encoding`` (read in 1 MB pieces: memory stays bounded)."""
    try:
        with open(path, encoding=encoding, newline="") as f:
            while f.read(1 << 20):
                pass
    except UnicodeDecodeError:
        return False
    return True


def _read_csv(path: Path) -> Iterator[tuple[int, list[str]]]:
    """The rows of a CSV roster, read as they come (UTF-8, else GB18030). A quote opened and never
    closed is refused naming the row it opens (Excel would show the rest of the file in one cell)."""
    size = path.stat().st_size
    if size > MAX_CSV_BYTES:  # before anything is read
        raise _too_big(path, size, MAX_CSV_BYTES, "CSV")
    with open(path, "rb") as f:
        head = f.read(65536)
    for enc in ("utf-8-sig", "gb18030"):
        if _decodes(path, enc):
            encoding = enc
            break
    else:
        raise ImportError_(
            [
                f"{path}:row 1: 无法识别的编码（请另存为 UTF-8 或 GBK 的 CSV）/ "
                "unknown text encoding (save as UTF-8 or GBK CSV)"
            ]
        )
    sample = head.decode(encoding, "ignore")[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    with open(path, encoding=encoding, newline="") as f:
        reader = csv.reader(f, dialect, strict=True)
        row_no = 0
        line = 1  # the physical line the next row starts on
        try:
            for cells in reader:
                row_no += 1
                if row_no > MAX_ROWS:
                    raise ImportError_(
                        [
                            f"{path}:row {row_no}: 行数超过上限 {MAX_ROWS} / "
                            f"more than {MAX_ROWS} rows: split the file"
                        ]
                    )
                if any(len(c) > MAX_CELL for c in cells):
                    raise ImportError_(
                        [
                            f"{path}:row {row_no}: 单元格超过 {MAX_CELL} 个字（多半是引号没有闭合）/ "
                            f"a cell over "
                            f"{MAX_CELL} characters (most likely a quote that is not closed)"
                        ]
                    )
                yield row_no, [c.strip() for c in cells]
                line = reader.line_num + 1
        except csv.Error as exc:
            if "unexpected end of data" in str(exc) or "EOF" in str(exc):
                raise ImportError_(
                    [
                        f"{path}:row {row_no + 1}: 引号没有闭合（第 {line} 行起的引号到文件末尾都没有结束），"
                        f"请补上引号 / a quote opened in line {line} is never closed: close it"
                    ]
                ) from None
            raise ImportError_([f"{path}:row {row_no + 1}: CSV 格式错误 / malformed CSV: {exc}"]) from None


def _read_xlsx(path: Path, sheet: str | None) -> Iterator[tuple[int, list[str]]]:
    import zipfile
    import zlib

    import openpyxl

    size = path.stat().st_size
    if size > MAX_XLSX_BYTES:
        raise _too_big(path, size, MAX_XLSX_BYTES, "XLSX")
    try:
        with zipfile.ZipFile(path) as z:  # a small file that unpacks to gigabytes: refused unread
            unpacked = max((i.file_size for i in z.infolist()), default=0)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ImportError_(
            [f"{path}:row 1: 不是有效的 XLSX 文件 / not a readable XLSX file ({exc})"]
        ) from exc
    if unpacked > MAX_XLSX_BYTES * 4:
        raise _too_big(path, unpacked, MAX_XLSX_BYTES * 4, "XLSX unpacked")
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        raise ImportError_(
            [f"{path}:row 1: 不是有效的 XLSX 文件 / not a readable XLSX file ({exc})"]
        ) from exc
    try:
        if sheet is not None and sheet not in wb.sheetnames:
            raise ImportError_([f"{path}:row 1: 没有工作表 {sheet!r}（有：{', '.join(wb.sheetnames)}）"])
        ws = wb[sheet] if sheet else wb.worksheets[0]
        i = 0
        try:
            for i, values in enumerate(ws.iter_rows(values_only=True), start=1):
                if i > MAX_ROWS:
                    raise ImportError_(
                        [f"{path}:row {i}: 行数超过上限 {MAX_ROWS} / more than {MAX_ROWS} rows"]
                    )
                yield i, [_cell(v)[:MAX_CELL] for v in values]
        except (SyntaxError, zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError) as exc:
            # xml.etree's ParseError is a SyntaxError: a sheet cut short or damaged inside the zip
            raise ImportError_(
                [
                    f"{path}:row {i + 1}: 工作表已损坏（{exc}），请在 Excel 里打开并另存 / "
                    f"the sheet is damaged after row {i}: open it in Excel and save it again"
                ]
            ) from None
    finally:
        wb.close()


def _check_row(
    rec: RosterRow, p: Path, seen_code: dict[str, int], seen_name: dict[tuple[str, str], int]
) -> list[str]:
    """What is wrong with one roster row (the one text policy, lengths, gender, phone, photo, duplicates
    in the file); normalises its gender, phone and photo in place."""
    row_no = rec.row
    problems: list[str] = []
    for col in ("name", "team", "code", "gender", "phone", "photo", "hometown", "team_sponsor", "note"):
        value = getattr(rec, col)  # the one text policy: invisible characters, names that show nothing
        said = refusal(f"{COLUMNS[col][0]} ({COLUMNS[col][-1]})", value, name=bool(value))
        if said:
            problems.append(" / ".join(said))
    for col in ("name", "team", "code", "gender", "phone"):
        if any(ch in getattr(rec, col) for ch in "\r\n"):
            problems.append(
                f"{COLUMNS[col][0]} 跨行：多半是引号没有闭合（{getattr(rec, col)[:12]!r}…），"
                f"请检查这一行的引号 / the {COLUMNS[col][-1]} runs over a line end: most likely a quote "
                "is not closed in this row"
            )
            break
    if not rec.name:
        problems.append("姓名为空 / empty name")
    elif too_long("姓名", rec.name, PLAYER_NAME):  # longer than it may be on air (the schema's maximum)
        problems.append(" / ".join(too_long("姓名", rec.name, PLAYER_NAME) or ()))
    elif any(ch in rec.name for ch in "\t\r\n"):
        problems.append("姓名含换行或制表符 / control characters in the name")
    for col, label in (("team", "队伍"), ("team_sponsor", "队伍冠名")):
        said = too_long(label, getattr(rec, col), TEAM_NAME)
        if said:
            problems.append(" / ".join(said))
    if rec.gender:
        g = GENDERS.get(rec.gender.lower())
        if g is None:
            problems.append(f"性别应为 男 或 女：{rec.gender!r} / gender must be 男 or 女")
        else:
            rec.gender = g
    if rec.phone:
        phone = rec.phone.replace(" ", "")
        if not _PHONE.match(phone):
            problems.append(f"电话号码无效：{rec.phone!r}（手机 11 位，或区号-号码）/ invalid phone number")
        rec.phone = phone
    if rec.photo:
        photo = Path(rec.photo)
        if not photo.is_absolute():
            photo = p.parent / photo
        if not photo.is_file():
            problems.append(f"照片文件不存在：{rec.photo} / photo file not found")
        else:
            rec.photo = str(photo.resolve())
    if rec.code:
        if rec.code in seen_code:
            problems.append(f"编号 {rec.code} 与第 {seen_code[rec.code]} 行重复 / duplicate code")
        seen_code.setdefault(rec.code, row_no)
    elif rec.name:
        k = (name_key(rec.name), name_key(rec.team))  # look-alikes (全角/半角 …) are the same name
        if k in seen_name:
            problems.append(f"与第 {seen_name[k]} 行重复（同名同队，请加“编号”列区分）/ duplicate player")
        seen_name.setdefault(k, row_no)
    return problems


def read_roster(path: str | Path, *, sheet: str | None = None) -> tuple[list[RosterRow], list[str]]:
    """Parse and check a roster file; return its rows and ignored columns, or raise with every error."""
    p = Path(path)
    if not p.is_file():  # a folder or a device is named for what it is, not called missing
        what = "文件不存在 / file not found"
        if p.is_dir():
            what = "是一个目录，不是名单文件 / is a folder, not a roster file"
        elif p.exists():
            what = "不是普通文件 / not a regular file"
        raise ImportError_([f"{p}:row 0: {what}"])
    suffix = p.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        rows = _read_xlsx(p, sheet)
    elif suffix in (".csv", ".txt"):
        rows = _read_csv(p)
    else:
        raise ImportError_(
            [f"{p}:row 0: 只支持 .csv 和 .xlsx / only .csv and .xlsx rosters ({suffix or 'no suffix'})"]
        )
    errors: list[str] = []
    header: dict[int, str] | None = None
    ignored: list[str] = []
    out: list[RosterRow] = []
    seen_code: dict[str, int] = {}
    seen_name: dict[tuple[str, str], int] = {}
    for row_no, cells in rows:
        if not any(cells):
            continue
        if header is None:
            header = {}
            for i, h in enumerate(cells):
                key = _ALIAS.get(re.sub(r"\s+", "", h).lower())
                if key is None:
                    if h:
                        ignored.append(h)
                    continue
                if key in header.values():
                    errors.append(f"{p}:row {row_no}: 列 {h!r} 重复（与另一列同义）/ duplicate column")
                header[i] = key
            if "name" not in header.values():
                errors.append(
                    f"{p}:row {row_no}: 缺少“姓名”列（表头应含 姓名，可选 队伍、性别、电话、照片、编号…）"
                    " / no 姓名 (name) column in the header row"
                )
                break
            continue
        rec = RosterRow(row=row_no, name="")
        for i, key in header.items():
            setattr(rec, key, cells[i] if i < len(cells) else "")
        problems = _check_row(rec, p, seen_code, seen_name)
        for msg in problems:
            errors.append(f"{p}:row {row_no}: {msg}")
        out.append(rec)
    if header is None and not errors:
        errors.append(f"{p}:row 1: 文件是空的 / the file is empty")
    if not out and not errors:
        errors.append(f"{p}:row 2: 只有表头，没有选手 / no player rows")
    if errors:
        raise ImportError_(errors, out)
    return out, ignored


# (photo file, dry run) → what the season stores for it; ValueError(message) when it is not usable
PhotoHook = Callable[[Path, bool], str]


def import_roster(
    sdb: SeasonDB,
    season_id: int,
    path: str | Path,
    *,
    sheet: str | None = None,
    dry_run: bool = False,
    photos: PhotoHook | None = None,
) -> ImportReport:
    """Check then import a roster file into the season, all or nothing (use :func:`import_file`).
    ``photos``: what to do with each row's photo (the project's copy of it, e.g.
    ``broadcast.project.roster_photos(db)``); without it the file's own path is stored."""
    rows, ignored = read_roster(path, sheet=sheet)
    report = ImportReport(file=str(path), ignored_columns=ignored)
    errors: list[str] = []
    if photos is not None:
        for rec in rows:
            if rec.photo:
                try:
                    rec.photo = photos(Path(rec.photo), dry_run)
                except ValueError as exc:
                    errors.append(f"{path}:row {rec.row}: {exc}")
        if errors:
            raise ImportError_(errors, rows)
    with sdb.transaction() as c:
        team_ids = {r["name"]: int(r["id"]) for r in sdb.teams(season_id)}
        for rec in rows:
            team_id = None
            if rec.team:
                if rec.team not in team_ids:
                    team_ids[rec.team] = sdb.add_team(season_id, rec.team, sponsor=rec.team_sponsor)
                    report.teams_created.append(rec.team)
                elif rec.team_sponsor:
                    c.execute(
                        "UPDATE season_teams SET sponsor=? WHERE id=?", (rec.team_sponsor, team_ids[rec.team])
                    )
                team_id = team_ids[rec.team]
            if rec.code:
                existing = c.execute(
                    "SELECT id FROM season_players WHERE season_id=? AND code=?", (season_id, rec.code)
                ).fetchall()
            else:  # the same name, compared as it looks (NFKC): a look-alike is not a new player
                key = name_key(rec.name)
                existing = [
                    (pid, name)
                    for pid, name in c.execute(
                        "SELECT id, name FROM season_players "
                        "WHERE season_id=? AND team_id IS NOT DISTINCT FROM ? AND code IS NULL",
                        (season_id, team_id),
                    ).fetchall()
                    if name_key(name) == key
                ]
                if len(existing) == 1 and existing[0][1] != rec.name:
                    errors.append(
                        f"{path}:row {rec.row}: 姓名“{rec.name}”与赛季中已有的“{existing[0][1]}”"
                        "看起来相同（全角/半角等写法不同），请统一写法 / the name looks the same as a "
                        "player already in the season: write it the same way"
                    )
                    continue
            if len(existing) > 1:
                errors.append(
                    f"{path}:row {rec.row}: 赛季中已有 {len(existing)} 位同名同队选手，请加“编号”列 / "
                    "ambiguous player: add a 编号 column"
                )
                continue
            if existing:
                c.execute(
                    "UPDATE season_players SET name=?, team_id=?, gender=?, phone=?, photo=?, hometown=?, "
                    "note=? WHERE id=?",
                    (
                        rec.name,
                        team_id,
                        rec.gender,
                        rec.phone,
                        rec.photo,
                        rec.hometown,
                        rec.note,
                        existing[0][0],
                    ),
                )
                report.updated += 1
            else:
                sdb.add_player(
                    season_id,
                    rec.name,
                    team_id=team_id,
                    code=rec.code or None,
                    gender=rec.gender,
                    phone=rec.phone,
                    photo=rec.photo,
                    hometown=rec.hometown,
                    note=rec.note,
                )
                report.added += 1
        sdb.fill_name_keys()  # the names changed above by SQL: their sort keys (the season's v5)
        if errors:
            raise ImportError_(errors)  # rolls the transaction back: nothing of the file is kept
        if dry_run:
            raise _DryRun(report)
    return report


class _DryRun(Exception):
    def __init__(self, report: ImportReport) -> None:
        super().__init__("dry run")
        self.report = report


def import_file(
    sdb: SeasonDB,
    season_id: int,
    path: str | Path,
    *,
    sheet: str | None = None,
    dry_run: bool = False,
    photos: PhotoHook | None = None,
) -> ImportReport:
    """:func:`import_roster`; with ``dry_run`` everything is checked and counted, then rolled back."""
    try:
        return import_roster(sdb, season_id, path, sheet=sheet, dry_run=dry_run, photos=photos)
    except _DryRun as dr:
        return dr.report
