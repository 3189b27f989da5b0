"""Seasons, episodes, teams, players, matches and games: the season's one model, in the project's SQLite
file or in PostgreSQL (a season many tables share).

    sdb = SeasonDB.open("studio.sqlite")                  # or SeasonDB.open("postgresql://…")
    sid = sdb.create_season("2024春季赛", title="够级大明星 第一季")
    ...
    mid = sdb.create_match(sid, team_a, team_b, lineup={1: p1, 2: q1, 3: p2, 4: q2, 5: p3, 6: q3})
    sdb.record_game(mid, gjn_text)          # the engine replays the record; refused with its clause
    sdb.finish_match(mid)                   # the engine's match rules: extra game, lots, penalties

Team A of a match sits on the odd seats (1, 3, 5), team B on the even seats (2, 4, 6) (G1.2).
Every write is one transaction; the materialised totals are updated in the same transaction.

The model is built in layers, one job each: the connection and its transactions (``store.py``), the
season's people and calendar (``roster.py``), the totals the 英雄榜 is read from (``totals.py``), the
matches, games and results (``matches.py``), the corrections of a match's set-up (``corrections.py``);
the words and the on-air text checks are in ``texts.py``.
"""

from __future__ import annotations

from broadcast.season.corrections import Corrections, LineupCorrected
from broadcast.season.matches import MatchResult
from broadcast.season.texts import (
    EVEN_SEATS,
    ODD_SEATS,
    PLAYER_NAME,
    ROUND_NAMES,
    TEAM_NAME,
    SeasonError,
    on_air_limits,
    round_name,
    too_long,
)


class SeasonDB(Corrections):
    """The season tables of one database (a SQLite file or a PostgreSQL URL)."""


__all__ = [
    "EVEN_SEATS",
    "LineupCorrected",
    "ODD_SEATS",
    "PLAYER_NAME",
    "ROUND_NAMES",
    "TEAM_NAME",
    "MatchResult",
    "SeasonDB",
    "SeasonError",
    "on_air_limits",
    "round_name",
    "too_long",
]
