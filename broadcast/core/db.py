"""The project's SQLite database: one file per production, versioned schema per component.

Every component that stores data (the journal, the as-run log, seasons) declares its migrations as a
list of SQL scripts; :func:`migrate` applies the ones a file has not seen yet, in one transaction
each, and records the version in ``schema_versions``. Opening an old file upgrades it; opening a file
from a newer build is refused with a clear message instead of corrupting it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path


class DatabaseError(Exception):
    """A database file that cannot be used (newer schema, not a database, locked)."""


def connect(path: str | Path, *, check_same_thread: bool = False) -> sqlite3.Connection:
    """Open (creating if needed) the project database with the settings every component relies on."""
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(
            str(p), timeout=10.0, check_same_thread=check_same_thread, isolation_level=None
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_versions ("
            "component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{p}: not a usable SQLite database ({exc})") from exc
    conn.row_factory = sqlite3.Row
    return conn


_migrate_lock = threading.Lock()


def migrate(conn: sqlite3.Connection, component: str, migrations: Sequence[str]) -> int:
    """Bring ``component``'s tables up to ``len(migrations)``; return the version now in the file."""
    with _migrate_lock:
        row = conn.execute("SELECT version FROM schema_versions WHERE component=?", (component,)).fetchone()
        have = int(row[0]) if row else 0
        if have > len(migrations):
            raise DatabaseError(
                f"the database holds {component} schema v{have}, newer than this build knows "
                f"(v{len(migrations)}): upgrade the software, do not open it with this version"
            )
        for version in range(have + 1, len(migrations) + 1):
            script = migrations[version - 1]
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
                conn.execute("ROLLBACK")
                raise
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
