"""The action journal: every change to the show state is first appended here (SQLite, durable).

On start-up the store replays the journal to rebuild the state exactly as it was, so a crash of the
console loses nothing that was confirmed to the operator.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast.core import db

MIGRATIONS = [
    """
    CREATE TABLE journal (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'console'
    );
    """,
]


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    ts: float
    type: str
    payload: dict[str, Any]
    source: str


class Journal:
    """Append-only log of actions in the project database."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.damaged: list[str] = []  # entries that could not be read (see entries())
        db.migrate(conn, "journal", MIGRATIONS)

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        return cls(db.connect(path))

    @property
    def connection(self) -> sqlite3.Connection:
        return self._conn

    @property
    def path(self) -> str:
        return str(getattr(self._conn, "path", "") or "journal")

    def append(self, type_: str, payload: dict[str, Any], ts: float, source: str = "console") -> int:
        """Append one action; :class:`db.StorageError` if the disk refuses it (then nothing is kept)."""
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        if getattr(self._conn, "readonly", False):  # opened read-only: is the file writable by now?
            again = db.writable_again(self._conn)
            if again is None:
                raise db.refused(self._conn)
            self._conn.close()
            self._conn = again
        try:
            cur = self._conn.execute(
                "INSERT INTO journal(ts, type, payload, source) VALUES(?, ?, ?, ?)", (ts, type_, text, source)
            )
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        seq = cur.lastrowid
        assert seq is not None
        return int(seq)

    def entries(self, since: int = 0) -> Iterator[Entry]:
        """The entries after ``since`` in order. An entry whose payload is not a JSON object is skipped
        and named in :attr:`damaged`; an unreadable page raises :class:`db.StorageError` (``damaged``)."""
        try:
            cur = self._conn.execute(
                "SELECT seq, ts, type, payload, source FROM journal WHERE seq > ? ORDER BY seq", (since,)
            )
            for seq, ts, type_, payload, source in cur:
                try:
                    data = json.loads(payload)
                except (TypeError, ValueError):
                    data = None
                if not isinstance(data, dict):
                    self.damaged.append(
                        f"日志 #{seq} {type_}：内容不是 JSON 对象，已跳过 / journal #{seq} {type_}: "
                        "payload is not a JSON object, skipped"
                    )
                    continue
                yield Entry(int(seq), float(ts), str(type_), data, str(source))
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc

    def last_seq(self) -> int:
        row = self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()
        return int(row[0])
