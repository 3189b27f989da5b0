"""The season's connection and its transactions: the bottom layer of
:class:`~broadcast.season.model.SeasonDB` (SQLite or PostgreSQL, :mod:`broadcast.season.backend`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from broadcast.season.backend import SeasonConn, connect, migrate
from broadcast.season.migrations import COMPONENT, POSTGRESQL, SQLITE

NOTIFY_CHANNEL = "gouji_season"  # PostgreSQL: every counted change is announced here (payload: season id)


class SeasonStore:
    """One season database (a project's SQLite file or a PostgreSQL URL), its schema brought up to date."""

    def __init__(self, conn: SeasonConn) -> None:
        self.conn = conn
        migrate(conn, COMPONENT, SQLITE, POSTGRESQL)

    @classmethod
    def open(cls, target: str | Path) -> Self:
        """Open the season at ``target``: a SQLite file (the project database) or ``postgresql://…``."""
        return cls(connect(target))

    @property
    def postgres(self) -> bool:
        return self.conn.postgres

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[SeasonConn]:
        """One write transaction (nested calls join the outer one)."""
        with self.conn.transaction() as c:
            yield c

    def changed(self, season_id: int) -> int:
        """Inside a write transaction: the season's ``revision`` moves on (it also serialises the writes
        of one season: two tables pushing at once take turns here) and, on PostgreSQL, every studio
        listening is told at commit. Returns the new revision."""
        c = self.conn
        if season_id in c.bumped and c.in_transaction:  # once per transaction is enough (and one turn)
            return c.bumped[season_id]
        if c.postgres:  # one round trip: the revision moved on and the listeners told at commit
            row = c.execute(
                "WITH u AS (UPDATE season_seasons SET revision=revision+1 WHERE id=? RETURNING revision) "
                "SELECT u.revision, pg_notify(?, ?) FROM u",
                (season_id, NOTIFY_CHANNEL, str(season_id)),
            ).fetchone()
        else:
            row = c.execute(
                "UPDATE season_seasons SET revision=revision+1 WHERE id=? RETURNING revision", (season_id,)
            ).fetchone()
        revision = int(row[0]) if row else 0
        if c.in_transaction:
            c.bumped[season_id] = revision
        return revision

    def revision(self, season_id: int) -> int:
        row = self.conn.execute("SELECT revision FROM season_seasons WHERE id=?", (season_id,)).fetchone()
        return int(row[0]) if row else 0
