"""The season's connection and its transactions: the bottom layer of
:class:`~broadcast.season.model.SeasonDB` (SQLite or PostgreSQL, :mod:`broadcast.season.backend`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from broadcast.season.backend import SeasonConn, connect, migrate
from broadcast.season.migrations import COMPONENT, POSTGRESQL, SQLITE
from broadcast.season.rankings import name_sort_key

NOTIFY_CHANNEL = "gouji_season"  # PostgreSQL: every counted change is announced here (payload: season id)

# the totals rows whose name sort key is missing (added by v5, renamed by another way: the trigger's NULL)
_UNNAMED = {
    "season_player_totals": (
        "SELECT x.player_id, p.name FROM season_player_totals x JOIN season_players p ON p.id=x.player_id "
        "WHERE x.name_key IS NULL",
        "UPDATE season_player_totals SET name_key=? WHERE player_id=?",
    ),
    "season_team_totals": (
        "SELECT x.team_id, t.name FROM season_team_totals x JOIN season_teams t ON t.id=x.team_id "
        "WHERE x.name_key IS NULL",
        "UPDATE season_team_totals SET name_key=? WHERE team_id=?",
    ),
}


def fill_name_keys(conn: SeasonConn) -> int:
    """Every totals row without its name's sort key (``name_key``, migration v5) given it; returns how
    many. Cheap when none is missing (a partial index holds only the missing ones)."""
    done = 0
    for select, update in _UNNAMED.values():
        missing = conn.tuples(select)
        if missing:
            with conn.transaction():
                conn.executemany(update, [(name_sort_key(name), rid) for rid, name in missing])
            done += len(missing)
    return done


class SeasonStore:
    """One season database (a project's SQLite file or a PostgreSQL URL), its schema brought up to date."""

    def __init__(self, conn: SeasonConn) -> None:
        self.conn = conn
        migrate(conn, COMPONENT, SQLITE, POSTGRESQL)
        fill_name_keys(conn)

    def fill_name_keys(self) -> int:
        """:func:`fill_name_keys` (after a rename by SQL of one's own, e.g. the roster import's)."""
        return fill_name_keys(self.conn)

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
        row = c.execute(*self.turn(season_id)).fetchone()
        return self.took_turn(season_id, row)

    def turn(self, season_id: int, *also: str) -> tuple[str, tuple[Any, ...]]:
        """The statement of :meth:`changed` (one round trip: the revision moved on and, on PostgreSQL,
        the listeners told at commit), returning the revision and then the season's columns ``also``
        (read in the same statement, with the season's turn taken) — or, when this transaction has had
        its turn already, only those columns read (the revision first, as it is)."""
        c = self.conn
        cols = "".join(f", {col}" for col in also)
        if season_id in c.bumped and c.in_transaction:
            return f"SELECT revision{cols} FROM season_seasons WHERE id=?", (season_id,)
        bump = f"UPDATE season_seasons SET revision=revision+1 WHERE id=? RETURNING revision{cols}"
        if c.postgres:
            return f"WITH u AS ({bump}) SELECT u.*, pg_notify(?, ?) FROM u", (
                season_id,
                NOTIFY_CHANNEL,
                str(season_id),
            )
        return bump, (season_id,)

    def took_turn(self, season_id: int, row: Any) -> int:
        """The revision :meth:`turn`'s statement returned (noted: the transaction has had its turn)."""
        c = self.conn
        revision = int(row[0]) if row else 0
        if c.in_transaction and row:
            c.bumped.setdefault(season_id, revision)
        return revision

    def revision(self, season_id: int) -> int:
        row = self.conn.execute("SELECT revision FROM season_seasons WHERE id=?", (season_id,)).fetchone()
        return int(row[0]) if row else 0
