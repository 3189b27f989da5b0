"""The qualifiers' tables in the project database (component ``qualifiers``).

``qualifiers_players`` holds each player's running totals; ``qualifiers_records`` every record ever
read (its 16-byte identity and whether it counted), so that a record read again — the same source
imported twice, or an import started again after a kill — adds nothing; ``qualifiers_refusals`` why
each refused record was refused; ``qualifiers_settings`` the board's preset, ranking key, title and
sponsor; ``qualifiers_imports`` one row per import command with its figures.

A batch is committed in one transaction: its records' identities, the players' totals (an UPSERT that
adds the batch's sums) and its refusals together — a kill leaves a batch wholly in or wholly out. One
import at a time writes a database (:meth:`QualifierDB.import_lock`, an OS lock the kernel drops with
the process).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from broadcast.core import db
from broadcast.errors import GoujiError

from .check import STATS, WIDTH, Checked, Refused

COMPONENT = "qualifiers"
MIGRATIONS: list[str] = [
    # v1 -----------------------------------------------------------------------------------------
    """
    CREATE TABLE qualifiers_players (
        id INTEGER PRIMARY KEY,
        platform_id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        place1 INTEGER NOT NULL DEFAULT 0,
        place2 INTEGER NOT NULL DEFAULT 0,
        place3 INTEGER NOT NULL DEFAULT 0,
        place4 INTEGER NOT NULL DEFAULT 0,
        place5 INTEGER NOT NULL DEFAULT 0,
        place6 INTEGER NOT NULL DEFAULT 0,
        quan_san INTEGER NOT NULL DEFAULT 0,
        opened INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE qualifiers_records (
        key BLOB PRIMARY KEY,
        counted INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE qualifiers_refusals (
        id INTEGER PRIMARY KEY,
        key BLOB NOT NULL,
        source TEXT NOT NULL,
        rule TEXT NOT NULL,
        zh TEXT NOT NULL,
        en TEXT NOT NULL,
        move INTEGER,
        line INTEGER,
        seat INTEGER
    );
    CREATE TABLE qualifiers_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE qualifiers_imports (
        id INTEGER PRIMARY KEY,
        started TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%S','now')),
        finished TEXT,
        sources TEXT NOT NULL,
        read INTEGER NOT NULL DEFAULT 0,
        counted INTEGER NOT NULL DEFAULT 0,
        refused INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0
    );
    """,
]

_UPSERT = (
    f"INSERT INTO qualifiers_players(platform_id, name, {', '.join(STATS)}) "
    f"VALUES(?, ?, {', '.join('?' * WIDTH)}) ON CONFLICT(platform_id) DO UPDATE SET "
    + ", ".join(f"{s}={s}+excluded.{s}" for s in STATS)
)
#: identities looked up per query (SQLite's default limit of host parameters is 32,766)
_LOOKUP = 900


class QualifierError(GoujiError):
    """A qualifiers command that cannot go on: ``QualifierError(rule, zh, en, where=)``."""


class QualifierDB:
    """The qualifier tables of one project database file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        db.migrate(conn, COMPONENT, MIGRATIONS)
        self._lock: IO[str] | None = None

    @classmethod
    def open(cls, path: str | Path) -> QualifierDB:
        return cls(db.connect(path))

    @property
    def path(self) -> str:
        return str(getattr(self.conn, "path", "") or "")

    def close(self) -> None:
        self.release()
        self.conn.close()

    def __enter__(self) -> QualifierDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    # -- one import at a time ------------------------------------------------------------------
    def import_lock(self) -> None:
        """Hold the database's import lock (``<db>-qualifiers.lock``) until :meth:`release`."""
        lock_path = f"{self.path}-qualifiers.lock"
        f = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the import
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "?"
            f.close()
            raise QualifierError(
                "import",
                f"另一个海选导入正在写这个数据库（进程 {holder}），请等它结束",
                f"another qualifiers import is writing this database (process {holder}): wait for it",
                where=self.path,
            ) from None
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._lock = f

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # -- settings ------------------------------------------------------------------------------
    def setting(self, key: str, default: str = "") -> str:
        row = self.conn.execute("SELECT value FROM qualifiers_settings WHERE key=?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set_setting(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO qualifiers_settings(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    # -- records seen --------------------------------------------------------------------------
    def seen(self, keys: Sequence[bytes]) -> set[bytes]:
        """Which of ``keys`` were read before (counted or refused)."""
        out: set[bytes] = set()
        for i in range(0, len(keys), _LOOKUP):
            part = keys[i : i + _LOOKUP]
            sql = f"SELECT key FROM qualifiers_records WHERE key IN ({','.join('?' * len(part))})"
            out.update(bytes(r[0]) for r in self.conn.execute(sql, part))
        return out

    # -- imports -------------------------------------------------------------------------------
    def start_import(self, sources: Iterable[str]) -> int:
        cur = self.conn.execute("INSERT INTO qualifiers_imports(sources) VALUES(?)", ("\n".join(sources),))
        return int(cur.lastrowid or 0)

    def commit(
        self, import_id: int, checked: Checked, refused: Sequence[Refused] = (), skipped: int = 0
    ) -> None:
        """Add a checked batch (and refusals found while reading) in one transaction."""
        all_refused = [*checked.refused, *refused]
        with self.transaction() as c:
            c.executemany(
                "INSERT INTO qualifiers_records(key, counted) VALUES(?, 1)", ((k,) for k in checked.counted)
            )
            c.executemany(
                "INSERT INTO qualifiers_records(key, counted) VALUES(?, 0)", ((r.key,) for r in all_refused)
            )
            s = checked.stats
            c.executemany(
                _UPSERT,
                (
                    (pid, checked.names[i], *s[i * WIDTH : (i + 1) * WIDTH])
                    for i, pid in enumerate(checked.ids)
                ),
            )
            c.executemany(
                "INSERT INTO qualifiers_refusals(key, source, rule, zh, en, move, line, seat) "
                "VALUES(?,?,?,?,?,?,?,?)",
                all_refused,
            )
            n_counted, n_refused = len(checked.counted), len(all_refused)
            c.execute(
                "UPDATE qualifiers_imports SET read=read+?, counted=counted+?, refused=refused+?, "
                "skipped=skipped+? WHERE id=?",
                (n_counted + n_refused + skipped, n_counted, n_refused, skipped, import_id),
            )

    def skip(self, import_id: int, skipped: int) -> None:
        self.conn.execute(
            "UPDATE qualifiers_imports SET read=read+?, skipped=skipped+? WHERE id=?",
            (skipped, skipped, import_id),
        )

    def finish_import(self, import_id: int) -> None:
        self.conn.execute(
            "UPDATE qualifiers_imports SET finished=strftime('%Y-%m-%dT%H:%M:%S','now') WHERE id=?",
            (import_id,),
        )

    # -- reading the board ---------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        players, games = self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(games), 0) FROM qualifiers_players"
        ).fetchone()
        counted, refused = self.conn.execute(
            "SELECT COALESCE(SUM(counted), 0), COALESCE(SUM(1 - counted), 0) FROM qualifiers_records"
        ).fetchone()
        return {
            "players": int(players),
            "records": int(counted),
            "refused": int(refused),
            "seats": int(games),
        }

    def players(self) -> Iterator[sqlite3.Row]:
        """Every player with totals, by platform id."""
        yield from self.conn.execute(
            f"SELECT platform_id, name, {', '.join(STATS)} FROM qualifiers_players ORDER BY platform_id"
        )

    def player(self, platform_id: str) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            f"SELECT platform_id, name, {', '.join(STATS)} FROM qualifiers_players WHERE platform_id=?",
            (platform_id,),
        ).fetchone()
        return row

    def refusals(self, limit: int | None = None) -> list[sqlite3.Row]:
        sql = "SELECT source, rule, zh, en, move, line, seat FROM qualifiers_refusals ORDER BY id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return self.conn.execute(sql).fetchall()

    def refusal_counts(self) -> list[tuple[str, int]]:
        return [
            (str(r[0]), int(r[1]))
            for r in self.conn.execute(
                "SELECT rule, COUNT(*) FROM qualifiers_refusals GROUP BY rule ORDER BY COUNT(*) DESC, rule"
            )
        ]
