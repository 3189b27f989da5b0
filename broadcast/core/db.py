"""The project's SQLite database: one file per production, versioned schema per component.

Every component that stores data (the journal, the as-run log, seasons) declares its migrations as a
list of SQL scripts; :func:`migrate` applies the ones a file has not seen yet, in one transaction
each, and records the version in ``schema_versions``. Opening an old file upgrades it; opening a file
from a newer build is refused with a clear message instead of corrupting it.

:func:`connect` refuses what is not a studio database before touching it (a file that is not SQLite,
or a SQLite file of another program: its tables are never added to), and opens a file it may not
write (read-only disk or file) read-only, so that it can still be read and served; every write then
fails with :class:`StorageError`, as it does on a full disk or an I/O error. :func:`describe` turns any
SQLite error into one line naming the file and what to do.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from broadcast.core import integrity
from broadcast.errors import GoujiError

SQLITE_HEADER = b"SQLite format 3\x00"

DB_ENV = "GOUJI_DB"
DEFAULT_DB = Path("data") / "studio.sqlite"  # relative to the working directory


def default_path(env: Mapping[str, str] | None = None) -> Path:
    """The project database a command opens when it is given no ``--db``: ``$GOUJI_DB`` if set, else
    ``./data/studio.sqlite`` in the working directory — never inside the installed package, which may
    not be writable. Every command (run, console, season, import, export, report, sponsors,
    verify-journal) uses this one rule."""
    value = (os.environ if env is None else env).get(DB_ENV, "").strip()
    return Path(value).expanduser() if value else DEFAULT_DB


def add_db_argument(parser: argparse.ArgumentParser, what: str = "项目数据库 project database") -> None:
    """``--db FILE`` with the project's default (:func:`default_path`, read when the command runs)."""
    parser.add_argument(
        "--db", default=None, help=f"{what}（默认 default: ${DB_ENV}，否则 else ./{DEFAULT_DB.as_posix()}）"
    )


def resolve(arg: str | Path | None) -> Path:
    """The database a command uses: its ``--db`` if given, else :func:`default_path`."""
    return Path(arg) if arg else default_path()


def chosen(arg: str | Path | None, *, stream: TextIO | None = None) -> Path:
    """The database a command opens: its ``--db``, else the project's default — and then it says which
    file that is (the operator did not name it)."""
    if arg:
        return Path(arg)
    path = default_path()
    announce(path, stream=stream)
    return path


def announce(path: str | Path, *, stream: TextIO | None = None) -> None:
    """Say which database file a command uses (on stderr unless told: stdout may be a JSON answer)."""
    p = Path(path)
    state = "" if p.exists() else "（新建 new）"
    print(f"项目数据库 database: {p.resolve()}{state}", file=stream or sys.stderr, flush=True)


class DatabaseError(GoujiError):
    """A database file that cannot be used (newer schema, not a database, another program's, locked):
    ``DatabaseError("database", zh, en, path=file)``; ``str()`` is ``file: 中文 / English``."""

    rule = "database"
    show_rule = False

    def __init__(self, rule: str = "", zh: str = "", en: str = "", *, path: str | Path = "") -> None:
        self.path = str(path)
        super().__init__(rule, zh, en, where=path)


class StorageError(DatabaseError):
    """A write the disk refused: full, read-only, an I/O error or a damaged file. Nothing of that write
    was kept (SQLite rolled it back); what was committed before is intact. ``kind`` is ``full``,
    ``readonly``, ``io``, ``damaged`` or ``locked``."""

    rule = "storage"

    def __init__(
        self, rule: str = "", zh: str = "", en: str = "", *, kind: str, path: str | Path = ""
    ) -> None:
        self.kind = kind
        super().__init__(rule, zh, en, path=path)


class StudioConnection(sqlite3.Connection):
    """A connection that knows its file and whether it was opened read-only."""

    path: str = ""
    readonly: bool = False
    reason: str = ""  # why it was opened read-only although writing was asked for (a full disk)
    reopenable: bool = False  # read-only only because the file could not be written: try again later


def refused(conn: sqlite3.Connection) -> StorageError:
    """The error for a write on a connection that was opened read-only."""
    path = getattr(conn, "path", "") or "database"
    reason = getattr(conn, "reason", "")
    if reason:
        return StorageError("storage", reason, kind="full", path=path)
    zh, en = _ADVICE["readonly"]
    return StorageError("storage", f"{zh}", f"{en}", kind="readonly", path=path)


def writable_again(conn: sqlite3.Connection) -> sqlite3.Connection | None:
    """For a connection opened read-only because its file could not be written (read-only disk or
    file, full disk): a new read-write connection if the file can be written now, else ``None``."""
    if not getattr(conn, "readonly", False) or not getattr(conn, "reopenable", False):
        return None
    try:
        new = connect(str(getattr(conn, "path", "")))
    except DatabaseError:
        return None
    if getattr(new, "readonly", False):
        new.close()
        return None
    return new


def error_kind(exc: BaseException) -> str:
    """``full``, ``readonly``, ``damaged``, ``locked`` or ``io``: what an SQLite error says of the disk."""
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "full"
    if name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text:
        return "readonly"
    if (
        name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
        or "malformed" in text
        or "not a database" in text
        or "could not decode" in text  # text that is not UTF-8: a damaged record
        or isinstance(exc, UnicodeDecodeError)
    ):
        return "damaged"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "locked"
    return "io"


_ADVICE = {
    "full": (
        "磁盘已满，腾出空间后重试",
        "the disk is full: free some space, then try again",
    ),
    "readonly": (
        "文件或磁盘只读，请换到可写的位置或改回可写",
        "the file or its disk is read-only: copy it to a writable place or make it writable",
    ),
    "damaged": (
        "数据库文件已损坏，请用备份恢复（python -m broadcast verify-journal 可检查日志）",
        "damaged: restore it from a backup (python -m broadcast verify-journal shows what it holds)",
    ),
    "locked": (
        "数据库被另一个程序锁住，关闭它后重试",
        "another program holds the database locked: close it, then try again",
    ),
    "io": (
        "磁盘读写出错，检查磁盘后重试",
        "a disk I/O error: check the disk, then try again",
    ),
}


def detail(exc: BaseException, limit: int = 100) -> str:
    """An error's own text fit for the end of a one-line message: one line, printable, cut short."""
    text = " ".join(str(exc).split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _kind_at(exc: BaseException, path: str | Path) -> str:
    """:func:`error_kind`, with the disk asked: an I/O error on a nearly full disk is a full disk; an
    I/O error on a file whose every byte reads back is the file's content (damaged), not the disk."""
    kind = error_kind(exc)
    if kind == "io":
        if disk_full(path):
            return "full"
        if _reads_back(Path(path)):
            return "damaged"
    if kind == "readonly" and disk_full(path) and _writable(Path(path)) and not _read_only_disk(path):
        return "full"  # SQLite that could not grow its -shm on a full disk says "readonly database"
    return kind


def _read_only_disk(path: str | Path) -> bool:
    p = Path(path)
    try:
        return bool(
            os.statvfs(p if p.is_dir() else (p.parent if str(p.parent) else ".")).f_flag & os.ST_RDONLY
        )
    except OSError:
        return False


def _reads_back(p: Path, limit: int = 1 << 30) -> bool:
    """Every byte of the file (and its -wal) reads without an error (up to ``limit`` bytes)."""
    try:
        for f in (p, Path(f"{p}-wal")):
            if not f.is_file():
                continue
            with open(f, "rb", buffering=0) as fh:
                left = limit
                while left > 0 and fh.read(min(left, 1 << 20)):
                    left -= 1 << 20
        return p.is_file()
    except OSError:
        return False


def describe(exc: BaseException, path: str | Path) -> str:
    """One line for a person: the file, what happened (中文 / English) and what to do."""
    if isinstance(exc, StorageError):
        return str(exc)
    zh, en = _ADVICE[_kind_at(exc, path)]
    return f"{path}: {zh} / {en} ({detail(exc)})"


FULL_BELOW = 256 * 1024  # free bytes under which an I/O error is taken for a full disk


def disk_full(path: str | Path) -> bool:
    """Whether the file system holding ``path`` is (nearly) full: SQLite reports a full disk met while
    it creates its -shm or -wal file as an I/O error, so the space is looked at too."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    try:
        st = os.statvfs(folder if str(folder) else ".")
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < FULL_BELOW


def storage_error(exc: BaseException, path: str | Path) -> StorageError:
    """The :class:`StorageError` for an SQLite error raised by a write (or a read of a damaged file)."""
    kind = _kind_at(exc, path)
    zh, en = _ADVICE[kind]
    return StorageError("storage", f"{zh}", f"{en} ({detail(exc)})", kind=kind, path=path)


def damaged(path: str | Path, what: str) -> DatabaseError:
    """The one line for a damaged file: which file, what is wrong with it, restore from a backup."""
    zh, en = _ADVICE["damaged"]
    return DatabaseError("database", f"{zh}（{what}）", f"{en} ({what})", path=path)


def _keep_damaged_wal(p: Path) -> str:
    """Copy a damaged -wal file aside before anything can checkpoint it away; the copy's name."""
    import shutil
    import time

    keep = Path(f"{p}-wal.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        shutil.copy2(f"{p}-wal", keep)
    except OSError:
        return ""
    return str(keep)


def not_a_file(path: str | Path) -> tuple[str, str] | None:
    """Why ``path`` cannot be a database file although something is there, ``(中文, English)``: a folder,
    or a device or pipe (``/dev/zero`` would be read for ever); ``None`` for a regular file or nothing at
    all (each command says what to do about a missing file in its own words). Every command that wants an
    existing database asks this before saying "no such file" (a folder was called missing)."""
    p = Path(path)
    if p.is_dir():
        return "是一个目录，不是数据库文件", "is a folder, not a database file"
    if p.exists() and not p.is_file():
        return "不是普通文件，不能当数据库", "not a regular file: it cannot be a database"
    return None


def _check_file(p: Path) -> None:
    """Refuse a file that is not SQLite before SQLite touches it."""
    try:
        head = integrity.read_kept_open(p, len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseError(
            "database", f"无法读取文件（{exc.strerror}）", f"cannot read the file ({exc.strerror})", path=p
        ) from exc
    if head and head != SQLITE_HEADER:
        if _looks_like_ours(p):
            raise damaged(p, "文件头 header")
        raise DatabaseError(
            "database",
            "不是 SQLite 数据库文件",
            "not an SQLite database file: give the studio's .sqlite file (or a new file name to start one)",
            path=p,
        )


def _looks_like_ours(p: Path) -> bool:
    """A file whose first bytes are not SQLite's but whose first 4 MB hold a studio database's
    schema: a studio database with a damaged header (not another kind of file)."""
    try:
        with open(p, "rb") as f:
            start = f.read(1 << 22)
    except OSError:
        return False
    return b"schema_versions" in start and b"CREATE TABLE" in start


def _writable(p: Path) -> bool:
    folder = p.parent if str(p.parent) else Path(".")
    if p.exists() and not os.access(p, os.W_OK):
        return False
    return os.access(folder, os.W_OK)


def _open(p: Path, *, readonly: bool, check_same_thread: bool) -> StudioConnection:
    if not readonly:
        conn = sqlite3.connect(
            str(p),
            timeout=10.0,
            check_same_thread=check_same_thread,
            isolation_level=None,
            factory=StudioConnection,
        )
        assert isinstance(conn, StudioConnection)
        return conn
    uri = p.resolve().as_uri()
    conn = sqlite3.connect(
        f"{uri}?mode=ro",
        uri=True,
        timeout=10.0,
        check_same_thread=check_same_thread,
        isolation_level=None,
        factory=StudioConnection,
    )
    assert isinstance(conn, StudioConnection)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        # a WAL file on a read-only disk without its -shm: readable as an immutable file, but only if
        # no -wal holds changes that are not in the main file yet
        conn.close()
        if Path(f"{p}-wal").exists() and Path(f"{p}-wal").stat().st_size > 0:
            raise DatabaseError(
                "database",
                f"只读磁盘上的数据库还有未合并的 -wal 文件，请把 {p.name} 和 {p.name}-wal 一起复制到可写的"
                "位置再打开",
                f"the read-only copy has un-merged changes in {p.name}-wal: copy both files to a writable "
                "place and open that",
                path=p,
            ) from None
        conn = sqlite3.connect(
            f"{uri}?mode=ro&immutable=1",
            uri=True,
            check_same_thread=check_same_thread,
            isolation_level=None,
            factory=StudioConnection,
        )
        assert isinstance(conn, StudioConnection)
    return conn


def _remove_new(p: Path) -> None:
    for f in (p, Path(f"{p}-wal"), Path(f"{p}-shm"), Path(f"{p}-journal")):
        try:
            f.unlink(missing_ok=True)
        except OSError:
            pass


def _refuse_damage(conn: StudioConnection, p: Path, wal_before: integrity.WalFrames | None) -> None:
    """A damaged -wal file or a damaged database file is refused here, in one line, before any
    component reads it (the -wal kept aside first: closing would checkpoint its good part away)."""
    bad_wal = integrity.wal_damage(p, wal_before)
    if bad_wal is not None:
        kept = _keep_damaged_wal(p)
        conn.close()
        copy = f"；原样副本 copy kept: {kept}" if kept else ""
        raise DatabaseError(
            "database",
            f"{p.name}-wal 文件已损坏（{bad_wal} 读不出），其后已确认的操作无法读取，请用备份恢复{copy}",
            f"its -wal file is damaged ({bad_wal} unreadable): the changes after it cannot be read: "
            f"restore from a backup{copy.replace('；原样副本 ', '; ')}",
            path=p,
        )
    try:
        st = p.stat()
        key = (st.st_dev, st.st_ino)
    except OSError:
        key = None
    if key is not None and key in _checked:
        return  # checked at this process's first open of the file: later connections are not slowed
    try:
        problem = integrity.quick_check(conn)
    except sqlite3.DatabaseError as exc:
        problem = detail(exc)
    if problem is not None:
        conn.close()
        raise damaged(p, detail(ValueError(problem)))
    if key is not None:
        _checked.add(key)


_checked: set[tuple[int, int]] = set()  # files whose integrity this process checked at their first open


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
    return {str(r[0]) for r in rows if not str(r[0]).startswith("sqlite_")}


def connect(
    path: str | Path, *, check_same_thread: bool = False, readonly: bool = False
) -> sqlite3.Connection:
    """Open (creating if needed) the project database with the settings every component relies on.

    ``readonly`` opens it for reading only (a missing file is then an error). A file this process may
    not write is opened read-only too (``conn.readonly``): reading works, writes raise
    :class:`StorageError`. Another program's SQLite file is refused (:class:`DatabaseError`)."""
    p = Path(path)
    exists = p.exists()
    if exists:
        refusal = not_a_file(p)
        if refusal is not None:
            raise DatabaseError("database", *refusal, path=p)
        _check_file(p)
    elif readonly:
        raise DatabaseError("database", "数据库文件不存在", "no such database file", path=p)
    else:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(
                "database",
                f"无法建立数据库所在的目录（{exc.strerror}）",
                f"cannot create the database's folder ({exc.strerror})",
                path=p,
            ) from exc
    ro = readonly or not _writable(p)
    if ro and not exists:
        raise StorageError(
            "storage",
            "目录只读，无法新建数据库",
            "the folder is read-only: cannot create the database here",
            kind="readonly",
            path=p,
        )
    conn: StudioConnection | None = None
    wal_before = integrity.wal_frames(Path(f"{p}-wal")) if exists else None
    try:
        try:
            conn = _open(p, readonly=ro, check_same_thread=check_same_thread)
            tables = _tables(conn)  # the first read: SQLite makes the -shm file of a WAL database now
        except sqlite3.OperationalError as exc:
            # a full disk: the -shm file cannot be made. An existing file can still be read (and
            # served); every write then says why it is refused, and is tried again later.
            if ro or not exists or error_kind(exc) not in ("io", "full"):
                raise
            if conn is not None:
                conn.close()
            conn = _open(p, readonly=True, check_same_thread=check_same_thread)
            ro = True
            conn.reason = str(storage_error(exc, p))
            tables = _tables(conn)
        conn.path, conn.readonly, conn.reopenable = str(p), ro, ro and not readonly
        _refuse_damage(conn, p, wal_before)
        if tables and "schema_versions" not in tables:
            conn.close()
            shown = ", ".join(sorted(tables)[:5]) + (" …" if len(tables) > 5 else "")
            raise DatabaseError(
                "database",
                f"这是别的程序的 SQLite 数据库（表 {shown}），不是演播室的项目数据库；请换一个文件名",
                f"another program's SQLite file (tables {shown}), not a studio database: use another file "
                "name",
                path=p,
            )
        if not ro:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        if not ro and "schema_versions" not in tables:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_versions ("
                "component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
    except BaseException as exc:
        if conn is not None:
            conn.close()
        if not exists:  # a database this call began and could not finish: no file is left behind
            _remove_new(p)
        if not isinstance(exc, sqlite3.DatabaseError):
            raise
        kind = _kind_at(exc, p)
        if kind in ("full", "readonly", "io", "locked"):
            raise storage_error(exc, p) from exc
        raise damaged(p, detail(exc)) from exc
    conn.row_factory = sqlite3.Row
    return conn


_migrate_lock = threading.Lock()


def migrate(conn: sqlite3.Connection, component: str, migrations: Sequence[str]) -> int:
    """Bring ``component``'s tables up to ``len(migrations)``; return the version now in the file."""
    with _migrate_lock:
        try:
            row = conn.execute(
                "SELECT version FROM schema_versions WHERE component=?", (component,)
            ).fetchone()
        except sqlite3.OperationalError as exc:  # an empty file opened read-only
            if "no such table" not in str(exc):
                raise storage_error(exc, getattr(conn, "path", "") or "database") from exc
            row = None
        have = int(row[0]) if row else 0
        path = getattr(conn, "path", "") or "database"
        if have > len(migrations):
            raise DatabaseError(
                "database",
                f"数据库来自更新的版本（{component} v{have}，本程序只认识 v{len(migrations)}），请升级软件"
                "后再打开",
                f"the database holds {component} schema v{have}, newer than this build knows "
                f"(v{len(migrations)}): upgrade the software, do not open it with this version",
                path=path,
            )
        if have < len(migrations) and getattr(conn, "readonly", False):
            if getattr(conn, "reason", ""):  # opened read-only because the disk is full
                raise StorageError("storage", str(conn.reason), kind="full", path=path)  # type: ignore[attr-defined]
            if not getattr(conn, "reopenable", True) and _writable(Path(path)) and have == 0:
                raise StorageError(  # a season-only or empty file: nothing old about it, it has none yet
                    "storage",
                    f"这个数据库里还没有 {component} 的表（只读打开，不会建表）：先用 "
                    "python -m broadcast run 打开一次",
                    f"this database has no {component} tables yet (opened read-only, none are made): open it "
                    "once with python -m broadcast run",
                    kind="readonly",
                    path=path,
                )
            if not getattr(conn, "reopenable", True) and _writable(Path(path)):  # read-only on purpose
                raise StorageError(
                    "storage",
                    f"文件来自旧版本，需要先升级（{component} v{have} → v{len(migrations)}）：先用 "
                    "python -m broadcast run 打开一次",
                    f"the file is from an older build and needs an upgrade ({component} v{have} → "
                    f"v{len(migrations)}): open it once with python -m broadcast run",
                    kind="readonly",
                    path=path,
                )
            raise StorageError(
                "storage",
                f"只读文件需要升级（{component} v{have} → v{len(migrations)}），请复制到可写的位置再打开",
                f"a read-only file needs an upgrade ({component} v{have} → v{len(migrations)}): copy it to "
                "a writable place and open that",
                kind="readonly",
                path=path,
            )
        for version in range(have + 1, len(migrations) + 1):
            script = migrations[version - 1]
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in _split_sql(script):
                        conn.execute(stmt)
                    conn.execute(
                        "INSERT INTO schema_versions(component, version) VALUES(?, ?) "
                        "ON CONFLICT(component) DO UPDATE SET version=excluded.version",
                        (component, version),
                    )
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:  # a full disk may have rolled it back already
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if error_kind(exc) == "io" and "already exists" in str(exc):
                    raise DatabaseError(
                        "database",
                        f"表已存在但不是本程序建立的（{exc}）",
                        f"a table of {component} exists but was not made by this software: use another "
                        "file name",
                        path=path,
                    ) from exc
                raise storage_error(exc, path) from exc
        return len(migrations)


def _split_sql(script: str) -> list[str]:
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
