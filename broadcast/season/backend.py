"""Where the season lives: the project's SQLite file (the embedded default) or a PostgreSQL server.

    conn = connect("studio.sqlite")                          # SQLite (a path, or sqlite:///path)
    conn = connect("postgresql://gouji@db.studio/season")     # PostgreSQL, psycopg 3
    with conn.transaction() as c:
        new_id = c.insert("INSERT INTO season_teams(season_id, name) VALUES(?,?)", (sid, "甲队"))
    for row in conn.execute("SELECT id, name FROM season_teams WHERE season_id=?", (sid,)):
        row["name"], row[0]                                   # by name or by position, on both

One :class:`SeasonConn` for both: SQL is written once with ``?`` placeholders (turned into psycopg's
``%s``); a row is read by name or by position; :attr:`SeasonConn.IntegrityError` is the driver's;
:meth:`SeasonConn.transaction` is one write transaction (SQLite ``BEGIN IMMEDIATE``; PostgreSQL nests
as savepoints). The few statements that differ between the two (the migrations, a string aggregate)
ask :attr:`SeasonConn.dialect`. Migrations: :func:`migrate` — the project's own runner on both (see
``migrations.py``), the schema version in ``schema_versions`` like every other component's.

A module that keeps its own tables in the season (the qualifiers) opens it with :func:`connect` and
brings its tables up with ``migrate(conn, "qualifiers", SQLITE_SCRIPTS, POSTGRESQL_SCRIPTS)``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from broadcast.core import db
from broadcast.core.db import DatabaseError

if TYPE_CHECKING:
    import psycopg

SEASON_DB_ENV = "GOUJI_SEASON_DB"
Dialect = Literal["sqlite", "postgresql"]
# a row of a query: by column name or by position (sqlite3.Row on SQLite, Record on PostgreSQL)
Rec = Any
# a statement of :meth:`SeasonConn.together`: (sql, params), or (sql, rows, "many") run once per row
Statement = tuple[str, Sequence[Any]] | tuple[str, Sequence[Sequence[Any]], Literal["many"]]


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


def is_url(target: str | Path) -> bool:
    """A PostgreSQL URL (``postgresql://`` or ``postgres://``), as opposed to a file path."""
    return str(target).startswith(("postgresql://", "postgres://"))


def shown(target: str | Path) -> str:
    """The target as a person may see it in a message: a URL without its password."""
    text = str(target)
    if not is_url(text):
        return text
    try:
        parts = urlsplit(text)
        password = parts.password
    except ValueError:  # not a URL urllib can read (the server refuses it too): hide what may be one
        return _PASSWORD.sub(r"\1***@", text)
    if password is None:
        return text
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")  # user:password@ in a URL urllib cannot split


def add_season_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--season-db URL|FILE``: every command that opens the season takes it (``$GOUJI_SEASON_DB``;
    default: the season in the project database ``--db``)."""
    parser.add_argument(
        "--season-db",
        default=None,
        metavar="URL",
        help="赛季数据库：postgresql://… 或 SQLite 文件（默认 $GOUJI_SEASON_DB，否则项目数据库）/ "
        "the season: postgresql://… or a SQLite file (default: $GOUJI_SEASON_DB, else the project database)",
    )


def season_target(season_db: str | None, project_db: str | Path) -> str:
    """The season a command opens: its ``--season-db``, else ``$GOUJI_SEASON_DB``, else the project's
    SQLite file."""
    chosen = (season_db or os.environ.get(SEASON_DB_ENV, "")).strip()
    if chosen.startswith("sqlite:///"):
        chosen = chosen[len("sqlite://") :]
    return chosen or str(project_db)


class Record(tuple[Any, ...]):
    """A PostgreSQL row read like ``sqlite3.Row``: ``r[0]``, ``r["name"]``, ``r.keys()``, ``dict(r)``."""

    __slots__ = ()
    _index: dict[str, int] = {}
    _names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> tuple[str, ...]:
        return self._names


@lru_cache(maxsize=512)
def _record_class(names: tuple[str, ...]) -> type[Record]:
    index: dict[str, int] = {}
    for i, n in enumerate(names):
        index.setdefault(n, i)  # the first of two equal names, as sqlite3.Row
    return type("Record", (Record,), {"__slots__": (), "_index": index, "_names": names})


def _record_factory(cursor: Any) -> Any:
    desc = cursor.description
    if desc is None:
        return tuple
    cls = _record_class(tuple(d.name for d in desc))

    def make(values: Sequence[Any]) -> Record:
        return cls(values)

    return make


TURN_POLL_S = 0.002  # SQLite: how often a writer asks for its turn while another table has it
TURN_WAIT_S = 30.0  # … and for how long, before "database is locked" goes to the caller (who tries again)
_STREAMS = itertools.count(1)  # server-side cursors' names (one connection may hold several)


@lru_cache(maxsize=1024)
def _pg_sql(sql: str) -> str:
    """``?`` placeholders → ``%s`` (a literal ``%`` doubled). No season SQL has a ``?`` in a literal."""
    return sql.replace("%", "%%").replace("?", "%s")


class SeasonConn:
    """One connection to the season, SQLite or PostgreSQL (see the module's doc)."""

    dialect: Dialect
    target: str

    def __init__(self, target: str, raw: Any, dialect: Dialect) -> None:
        self.target = target
        self.raw = raw
        self.dialect = dialect
        self._depth = 0
        self._pipe: Any = None  # PostgreSQL: the pipeline of :meth:`sent_together`, while it runs
        self.bumped: dict[int, int] = {}  # season → its revision, once moved on in this write transaction
        self._lock = threading.RLock()
        self.IntegrityError: type[Exception]
        self.OperationalError: tuple[type[Exception], ...]
        if dialect == "sqlite":
            self.IntegrityError = sqlite3.IntegrityError
            self.OperationalError = (sqlite3.OperationalError,)
        else:
            import psycopg

            self.IntegrityError = psycopg.IntegrityError
            self.OperationalError = (psycopg.OperationalError, psycopg.InterfaceError)

    @property
    def postgres(self) -> bool:
        return self.dialect == "postgresql"

    @property
    def where(self) -> str:
        """The season as messages name it (a file, or the URL without its password)."""
        return shown(self.target)

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Cursor:
        if self.dialect == "sqlite":
            cur: Cursor = self.raw.execute(sql, params)
            return cur
        if not params:  # no parameters: psycopg sends the text as it is (a `%` stays one)
            return self.raw.execute(sql)  # type: ignore[no-any-return]
        return self.raw.execute(_pg_sql(sql), params)  # type: ignore[no-any-return]

    def batches(
        self, sql: str, params: Sequence[Any] = (), *, size: int = 5000
    ) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of a query as they come, ``size`` rows at a time (a list each; the last may be shorter),
        never all held at once, as plain tuples (read by position: a whole ranking is 100,000 rows, and a
        row read by name costs a Python call each; a list a time lets the reader handle its rows without a
        Python call a row); ``close()`` it when not read to its end. SQLite: the cursor's ``fetchmany``.
        PostgreSQL: a server-side cursor, a round trip a list (inside a read transaction, held until the
        last row or until the iterator is closed), in the binary format (an integer read as text is parsed
        by ``int()``'s own parser: a sixth of a whole ranking's instructions, measured)."""
        if self.dialect == "sqlite":
            cur = self.raw.cursor()
            cur.row_factory = None
            try:
                cur.execute(sql, params)
                while rows := cur.fetchmany(size):
                    yield rows
            finally:
                cur.close()
            return
        from psycopg.rows import tuple_row

        with (
            self._lock,
            self.raw.transaction(),
            self.raw.cursor(name=f"gouji_stream_{next(_STREAMS)}", row_factory=tuple_row, binary=True) as cur,
        ):
            cur.execute(_pg_sql(sql), params)
            while rows := cur.fetchmany(size):
                yield rows

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query at once, as plain tuples (read by position; see :meth:`batches`)."""
        if self.dialect == "sqlite":
            cur = self.raw.cursor()
            cur.row_factory = None
            try:
                return cur.execute(sql, params).fetchall()  # type: ignore[no-any-return]
            finally:
                cur.close()
        from psycopg.rows import tuple_row

        with self.raw.cursor(row_factory=tuple_row) as cur:
            cur.execute(_pg_sql(sql) if params else sql, params or None)
            rows: list[tuple[Any, ...]] = cur.fetchall()
            return rows

    def together(self, statements: Sequence[Statement], *, plain: bool = False) -> list[list[Any]]:
        """Statements whose parameters do not depend on each other's answers, run in order: each one's
        rows ([] for one that returns none). A statement is ``(sql, params)``, or ``(sql, rows, "many")``
        for one run once per row. PostgreSQL: sent in one go (psycopg's pipeline mode: one round trip for
        all of them, where each costs a wait for a core on a loaded machine); SQLite: one after the other
        (no round trip to save). ``plain``: rows as plain tuples, read by position (see :meth:`batches`)."""
        if self.dialect == "sqlite":
            out: list[list[Any]] = []
            for st in statements:
                if len(st) == 3:
                    self.raw.executemany(st[0], st[1])
                    out.append([])
                    continue
                cur = self.raw.cursor()
                if plain:
                    cur.row_factory = None
                try:
                    out.append(cur.execute(st[0], st[1]).fetchall())
                finally:
                    cur.close()
            return out
        with self._lock:
            cursors: list[Any] = []
            try:
                if self._pipe is not None:  # inside :meth:`sent_together`: sent behind what is queued
                    self._send(statements, cursors, plain)
                    self._pipe.sync()
                else:
                    with self.raw.pipeline():  # sent together; the block's end is the one sync
                        self._send(statements, cursors, plain)
                return self._results(cursors)
            finally:
                for cur in cursors:
                    cur.close()

    def _send(self, statements: Sequence[Statement], cursors: list[Any], plain: bool) -> None:
        from psycopg.rows import tuple_row

        for st in statements:
            cur = self.raw.cursor(row_factory=tuple_row) if plain else self.raw.cursor()
            cursors.append(cur)
            if len(st) == 3:
                cur.executemany(_pg_sql(st[0]), list(st[1]))
            else:
                cur.execute(_pg_sql(st[0]), st[1])

    @staticmethod
    def _results(cursors: list[Any]) -> list[list[Any]]:
        return [cur.fetchall() if cur.description is not None else [] for cur in cursors]

    @contextmanager
    def sent_together(self) -> Iterator[SeasonConn]:
        """One write transaction whose statements go to the server without waiting for each other's
        answers: PostgreSQL holds it in psycopg's pipeline mode, ``BEGIN`` and ``COMMIT`` included, so
        each :meth:`together` is one round trip for everything sent since the last, a statement sent by
        :meth:`executemany` waits for nothing, and the ``COMMIT`` goes with the last of them. SQLite (or
        inside another transaction): :meth:`transaction`, joined."""
        if self.dialect == "sqlite" or self._depth:
            with self.transaction() as c:
                yield c
            return
        with self._lock:
            self._depth += 1
            try:
                with self.raw.pipeline() as pipe:
                    self._pipe = pipe
                    self.raw.execute("BEGIN")
                    yield self
                    self.raw.execute("COMMIT")  # sent with the block's last statements: one round trip
            except BaseException:
                self._pipe = None
                self._rollback_quietly()
                self.bumped.clear()
                raise
            finally:
                self._pipe = None
                self._depth -= 1
                if not self._depth:
                    self.bumped.clear()

    def _rollback_quietly(self) -> None:
        """After a failed :meth:`sent_together`: its transaction ended (a lost connection: nothing to end)."""
        from psycopg import Error
        from psycopg.pq import TransactionStatus

        if self.raw.closed or self.raw.info.transaction_status == TransactionStatus.IDLE:
            return
        try:
            self.raw.execute("ROLLBACK")
        except Error:
            pass

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """``sql`` once per row (PostgreSQL: in pipeline mode, each row sent without waiting; inside
        :meth:`sent_together`, not waited for at all: a failure comes with its next round trip)."""
        if self.dialect == "sqlite":
            self.raw.executemany(sql, rows)
            return
        todo = list(rows)
        if todo:
            with self.raw.cursor() as cur:
                cur.executemany(_pg_sql(sql), todo)

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``INSERT`` and return the new row's ``id`` (``RETURNING id``, on both)."""
        row = self.execute(sql + " RETURNING id", params).fetchone()
        return int(row[0])

    def script(self, sql: str) -> None:
        """Run several statements (no parameters)."""
        if self.dialect == "sqlite":
            for stmt in db._split_sql(sql):
                self.raw.execute(stmt)
        else:
            self.raw.execute(sql)

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0 or (self.dialect == "sqlite" and bool(self.raw.in_transaction))

    @contextmanager
    def transaction(self) -> Iterator[SeasonConn]:
        """One write transaction; nested calls join the outer one (SQLite) or are savepoints
        (PostgreSQL, so that a refused insert inside does not spoil the outer transaction)."""
        if self.dialect == "sqlite":
            if self.raw.in_transaction:
                yield self
                return
            self._begin_immediate()
            self._depth += 1
            try:
                yield self
                self.raw.execute("COMMIT")
            except BaseException:
                if self.raw.in_transaction:  # a full disk makes SQLite roll back by itself
                    self.raw.execute("ROLLBACK")
                raise
            finally:
                self._depth -= 1
                self.bumped.clear()
            return
        with self._lock, self.raw.transaction():
            self._depth += 1
            try:
                yield self
            except BaseException:
                self.bumped.clear()  # a savepoint rolled back may have held the bump: bump again
                raise
            finally:
                self._depth -= 1
                if not self._depth:
                    self.bumped.clear()

    def _begin_immediate(self) -> None:
        """SQLite's write turn, asked for every ``TURN_POLL_S`` until ``TURN_WAIT_S``: SQLite's own busy
        handler sleeps up to 100 ms between tries and, while another table pushes back to back, can
        miss every moment the lock is free for longer than its timeout (measured: two consoles on a season of
        a million games). The connection's busy timeout is off only while asking."""
        deadline = time.monotonic() + TURN_WAIT_S
        busy_ms = int(self.raw.execute("PRAGMA busy_timeout").fetchone()[0])
        self.raw.execute("PRAGMA busy_timeout=0")
        try:
            while True:
                try:
                    self.raw.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                time.sleep(TURN_POLL_S)
        finally:
            self.raw.execute(f"PRAGMA busy_timeout={busy_ms}")

    def string_agg(self, expr: str) -> str:
        """``expr`` joined with commas over a group (SQLite ``group_concat``, PostgreSQL ``string_agg``)."""
        return f"group_concat({expr})" if self.dialect == "sqlite" else f"string_agg(({expr})::text, ',')"

    def close(self) -> None:
        self.raw.close()


def _connect_postgres(url: str) -> psycopg.Connection[Any]:
    import psycopg

    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=10, application_name="gouji-season")
    except psycopg.Error as exc:
        zh, en = _why_not(_unsaid(_first_line(exc), url))
        raise DatabaseError(
            "database",
            f"连不上赛季数据库：{zh}",
            f"cannot connect to the season database: {en}",
            path=shown(url),
        ) from None
    conn.row_factory = _record_factory
    return conn


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# what a producer can act on, read from libpq's reason (its wording is stable across versions)
_REASONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r'password authentication failed for user "([^"]*)"'),
        "用户 {0} 的密码不对",
        "the password of user {0} was refused",
    ),
    (
        re.compile(r"no password supplied"),
        "服务器要求密码，网址里没有",
        "the server asks for a password and the URL gives none",
    ),
    (re.compile(r'role "([^"]*)" does not exist'), "服务器上没有用户 {0}", "no user {0} on the server"),
    (
        re.compile(r'database "([^"]*)" does not exist'),
        "服务器上没有数据库 {0}",
        "no database {0} on the server",
    ),
    (
        re.compile(r"Connection refused"),
        "那里没有运行中的服务器（未启动，或主机、端口不对）",
        "no server is running there (not started, or the wrong host or port)",
    ),
    (
        re.compile(r"(?:failed to resolve host|could not translate host name) '?\"?([^'\"]*)"),
        "找不到主机 {0}",
        "unknown host {0}",
    ),
    (re.compile(r"timeout expired"), "服务器 10 秒内没有应答", "the server did not answer within 10 s"),
    (
        re.compile(
            r"in URI|invalid (?:connection option|URI|integer value|percent-encoded)"
            r"|missing \"=\"|invalid sslmode"
        ),
        "网址写得不对（postgresql://用户:密码@主机:端口/数据库）",
        "the URL is not valid (postgresql://user:password@host:port/database)",
    ),
)


def _unsaid(text: str, url: str) -> str:
    """``text`` without the URL's password (nor its part after an ``@`` libpq took for the host's)."""
    try:
        password = urlsplit(url).password or ""
    except ValueError:
        return _PASSWORD.sub(r"\1***@", text)
    for secret in sorted({password, password.rsplit("@", 1)[-1]} - {""}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _why_not(reason: str) -> tuple[str, str]:
    """Why a server could not be reached, in both languages (the server's own words when not known)."""
    for pattern, zh, en in _REASONS:
        found = pattern.search(reason)
        if found:
            return zh.format(*found.groups()), en.format(*found.groups())
    return reason, reason


def connect(target: str | Path) -> SeasonConn:
    """Open the season at ``target`` (a PostgreSQL URL or a SQLite file; see :func:`season_target`)."""
    text = str(target)
    if is_url(text):
        return SeasonConn(text, _connect_postgres(text), "postgresql")
    return SeasonConn(text, db.connect(Path(text)), "sqlite")


# -- migrations ---------------------------------------------------------------------------------------
_PG_LOCK = 0x676F756A69  # pg_advisory_xact_lock key ("gouji"): one migrator at a time per server


def migrate(conn: SeasonConn, component: str, sqlite: Sequence[str], postgresql: Sequence[str]) -> int:
    """Bring ``component``'s tables up to the number of scripts (the two lists are the same versions,
    one per dialect); returns the version now in the database. A database from a newer build is
    refused (:class:`DatabaseError`)."""
    if len(sqlite) != len(postgresql):
        raise ValueError(f"{component}: {len(sqlite)} SQLite migrations, {len(postgresql)} PostgreSQL")
    if conn.dialect == "sqlite":
        return db.migrate(conn.raw, component, sqlite)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(?)", (_PG_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_versions "
            "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
        row = conn.execute("SELECT version FROM schema_versions WHERE component=?", (component,)).fetchone()
        have = int(row[0]) if row else 0
        if have > len(postgresql):
            raise DatabaseError(
                "database",
                f"数据库来自更新的版本（{component} v{have}，本程序只认识 v{len(postgresql)}），请升级软件",
                f"the database holds {component} schema v{have}, newer than this build knows "
                f"(v{len(postgresql)}): upgrade the software",
                path=conn.where,
            )
        for version in range(have + 1, len(postgresql) + 1):
            conn.script(postgresql[version - 1])
            conn.execute(
                "INSERT INTO schema_versions(component, version) VALUES(?, ?) "
                "ON CONFLICT(component) DO UPDATE SET version=excluded.version",
                (component, version),
            )
        return len(postgresql)
