"""The materialised totals of players and teams (updated in the transaction of every game, penalty and
result; rebuilt from the normalised rows by :meth:`Totals.rebuild_totals`): one layer of
:class:`~broadcast.season.model.SeasonDB`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from broadcast.season.backend import SeasonConn
from broadcast.season.rankings import PLAYER_AGG_SQL, TEAM_TOTALS_SQL
from broadcast.season.roster import Roster


class Totals(Roster):
    """The totals the 英雄榜 is read from."""

    def game_counted(self, season_id: int, seat_rows: Sequence[tuple[Any, ...]]) -> None:
        """Inside the transaction that stored a game (its seat rows added to the totals): the season
        moves on (studios following it are told)."""
        self.changed(season_id)

    def match_counted(self, season_id: int, teams: Sequence[int]) -> None:
        """Inside the transaction that made a match final (its teams' wins and losses counted)."""
        self.changed(season_id)

    # -- materialised totals ---------------------------------------------------------------------
    def rebuild_totals(self, season_id: int) -> None:
        """Recompute the materialised totals from the normalised rows (repair / verification)."""
        with self.transaction() as c:
            c.execute("DELETE FROM season_player_totals WHERE season_id=?", (season_id,))
            c.execute(
                "INSERT INTO season_player_totals(season_id, player_id, games, points, firsts, seconds, "
                "lasts, quan_san, opened) WITH agg AS (" + PLAYER_AGG_SQL + ") "
                "SELECT p.season_id, p.id, COALESCE(a.games,0), COALESCE(a.points,0), COALESCE(a.firsts,0), "
                "COALESCE(a.seconds,0), COALESCE(a.lasts,0), COALESCE(a.quan_san,0), COALESCE(a.opened,0) "
                "FROM season_players p LEFT JOIN agg a ON a.player_id=p.id WHERE p.season_id=?",
                (season_id, season_id),
            )
            c.execute("DELETE FROM season_team_totals WHERE season_id=?", (season_id,))
            c.execute(
                "INSERT INTO season_team_totals(season_id, team_id, matches, wins, losses, points, "
                "penalties, games, firsts, lasts) "
                + TEAM_TOTALS_SQL
                + " SELECT season_id, team_id, matches, wins, losses, points, penalties, games, "
                "firsts, lasts "
                "FROM team_totals",
                (season_id,) * 5,
            )


def add_to_totals(c: SeasonConn, seat_rows: Sequence[tuple[Any, ...]]) -> None:
    """Add one game's seat rows (game, seat, season, player, team, title, place, points, opened)."""
    c.executemany(
        "UPDATE season_player_totals SET games=games+1, points=points+?, firsts=firsts+?, seconds=seconds+?, "
        "lasts=lasts+?, quan_san=quan_san+?, opened=opened+? WHERE player_id=?",
        [
            (r[7], int(r[6] == 1), int(r[6] == 2), int(r[5] == "大落"), int(r[5] == "圈三"), r[8], r[3])
            for r in seat_rows
        ],
    )
    by_team: dict[int, list[int]] = {}
    for r in seat_rows:
        t = by_team.setdefault(int(r[4]), [0, 0, 0])
        t[0] += int(r[7])
        t[1] += int(r[6] == 1)
        t[2] += int(r[5] == "大落")
    c.executemany(
        "UPDATE season_team_totals SET games=games+1, points=points+?, firsts=firsts+?, "
        "lasts=lasts+? WHERE team_id=?",
        [(v[0], v[1], v[2], k) for k, v in by_team.items()],
    )
