"""The materialised totals of players and teams, and their head-to-head scores: what the 英雄榜 is read
from (one layer of :class:`~broadcast.season.model.SeasonDB`).

The totals are updated in the transaction of every game, penalty and result; so is ``h2h``, each row's
head-to-head score inside its tie group for the season's ranking spec (the spec it holds for is kept in
``season_seasons.h2h_players`` / ``h2h_teams``), so that the database can order the ranking by it
(:func:`broadcast.season.rankings.ranked`). Only what the change moved is touched:

* the rows of the change (the game's six players and two teams; a result's two teams) get their totals
  and their score inside their new group, counted from their own games (matches, for teams);
* a row they left or joined gains or loses what it scored against them (one query over the moved rows'
  games; a row not in the change scored nothing new, so nothing else moves).

A row's score is the number of games in which it finished ahead of another member of its group (teams:
matches won against one), as :func:`~broadcast.season.rankings.rank_rows` counts it; alone in its group it
is 0. Changed spec, an older database (no spec kept yet) or :meth:`Totals.rebuild_totals`: every score is
counted again at once (:meth:`Totals.rebuild_h2h`). Writes to the totals take turns per season
(:meth:`~broadcast.season.store.SeasonStore.changed` first): a score is always counted on committed groups.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from broadcast.season.backend import SeasonConn, Statement
from broadcast.season.rankings import (
    DEFAULT_SPECS,
    PLAYER_AGG_SQL,
    TEAM_TOTALS_SQL,
    TOTALS_COLUMNS,
    TOTALS_TABLE,
    Kind,
    Row,
    _h2h_players,
    _h2h_teams,
    group_key,
    h2h_fields,
    parse_spec,
    spec_text,
    totals_row,
)
from broadcast.season.roster import Roster

KINDS: tuple[Kind, ...] = ("players", "teams")

# the moved rows' head-to-head pairs: (moved row, other row, games it finished ahead, games behind),
# then the other row's totals (TOTALS_COLUMNS) — one query over the moved rows' own games / matches;
# ``{other}`` is where the other row's totals come from (:func:`_pairs_sql`)
_PAIRS_SQL: dict[str, str] = {
    "players": (
        "WITH p AS (SELECT a.player_id AS x, b.player_id AS z, "
        "SUM(CASE WHEN COALESCE(a.place, 99) < COALESCE(b.place, 99) THEN 1 ELSE 0 END) AS ahead, "
        "SUM(CASE WHEN COALESCE(b.place, 99) < COALESCE(a.place, 99) THEN 1 ELSE 0 END) AS behind "
        "FROM season_game_seats a JOIN season_game_seats b ON b.game_id=a.game_id AND b.seat<>a.seat "
        "WHERE a.player_id IN ({ids}) GROUP BY a.player_id, b.player_id) "
        "SELECT p.x, p.z, p.ahead, p.behind, "
        + ", ".join(f"t.{c}" for c in TOTALS_COLUMNS["players"])
        + " FROM p {other}"
    ),
    "teams": (
        "WITH s AS (SELECT team_a AS x, team_b AS z, winner FROM season_matches "
        "   WHERE status='final' AND winner IS NOT NULL AND team_a IN ({ids}) "
        "   UNION ALL SELECT team_b, team_a, winner FROM season_matches "
        "   WHERE status='final' AND winner IS NOT NULL AND team_b IN ({ids})), "
        "p AS (SELECT x, z, SUM(CASE WHEN winner=x THEN 1 ELSE 0 END) AS ahead, "
        "   SUM(CASE WHEN winner=z THEN 1 ELSE 0 END) AS behind FROM s GROUP BY x, z) "
        "SELECT p.x, p.z, p.ahead, p.behind, "
        + ", ".join(f"t.{c}" for c in TOTALS_COLUMNS["teams"])
        + " FROM p {other}"
    ),
}
# the other row's totals, looked up by its id: SQLite's join does that; PostgreSQL's planner, which counts
# on ~3,000 pairs where a game's six players have ~400, read all 100,000 totals rows instead (a hash or a
# merge join: 30–60 ms of a push at a million games, inside the season's turn) — a lateral lookup that
# cannot be merged into a join (OFFSET 0) is one index search a pair on PostgreSQL
_OTHER_SQL: dict[tuple[str, bool], str] = {
    (kind, postgres): (
        f"CROSS JOIN LATERAL (SELECT * FROM {table} t WHERE t.{id_col}=p.z OFFSET 0) t"
        if postgres
        else f"JOIN {table} t ON t.{id_col}=p.z"
    )
    for kind, (table, id_col) in TOTALS_TABLE.items()
    for postgres in (False, True)
}


class Totals(Roster):
    """The totals and head-to-head scores the 英雄榜 is read from."""

    # -- the changes ---------------------------------------------------------------------------------
    def count_game(
        self, season_id: int, seat_rows: Sequence[tuple[Any, ...]], first: Sequence[Statement] = ()
    ) -> list[list[Any]]:
        """Inside the transaction that stores a game: its seat rows (game, seat, season, player, team,
        title, place, points, opened) added to the totals, the groups they moved kept in order. The
        statements ``first`` (the game's own rows) go before, in the same round trip; their answers are
        returned. Two round trips in all on PostgreSQL (inside :meth:`SeasonConn.sent_together`, the
        second goes with the ``COMMIT``): the season's turn (taken first, so that every group is read with
        the other tables' writes committed; the ranking specs read with it), the rows before, the totals
        added, the rows after and their head-to-head pairs; then what moved in the groups."""
        c = self.conn
        ids: dict[Kind, list[int]] = {
            "players": list(dict.fromkeys(int(r[3]) for r in seat_rows)),
            "teams": sorted({int(r[4]) for r in seat_rows}),
        }
        specs = tuple(f"{col}_{kind}" for kind in KINDS for col in ("ranking", "h2h"))
        found = c.together(
            [
                *first,
                self.turn(season_id, *specs),
                *(self._rows_sql(kind, ids[kind]) for kind in KINDS),
                *add_to_totals(seat_rows),
                *(self._rows_sql(kind, ids[kind]) for kind in KINDS),
                *(_pairs_sql(c, kind, ids[kind]) for kind in KINDS),
            ],
            plain=True,  # ~900 rows a game, read by position
        )
        answers, (turn, before_p, before_t, *rest) = found[: len(first)], found[len(first) :]
        self.took_turn(season_id, turn[0] if turn else None)
        after_p, after_t, pairs_p, pairs_t = rest[-4:]
        kept = turn[0] if turn else None
        moved: tuple[tuple[Kind, list[Any], list[Any], list[Any]], ...] = (
            ("players", before_p, after_p, pairs_p),
            ("teams", before_t, after_t, pairs_t),
        )
        for kind, before, after, pairs in moved:
            at = 1 + specs.index(f"ranking_{kind}")  # the turn's row: the revision, then ``specs``
            spec = (kept[at], kept[at + 1]) if kept else None
            self._moved(season_id, kind, spec, self._rows_of(kind, before), self._rows_of(kind, after), pairs)
        return answers

    def count_result(self, season_id: int, winner: int, loser: int) -> None:
        """Inside the transaction that made a match final (after its status was written)."""
        c = self.conn
        self.changed(season_id)
        before = self._rows(c, "teams", [winner, loser])
        c.execute("UPDATE season_team_totals SET matches=matches+1, wins=wins+1 WHERE team_id=?", (winner,))
        c.execute(
            "UPDATE season_team_totals SET matches=matches+1, losses=losses+1 WHERE team_id=?", (loser,)
        )
        self._regroup(season_id, "teams", before)

    def count_penalty(self, season_id: int, team_id: int, points: int) -> None:
        """Inside the transaction that stored a penalty: ``points`` off the team's net points."""
        c = self.conn
        self.changed(season_id)
        before = self._rows(c, "teams", [team_id])
        c.execute("UPDATE season_team_totals SET penalties=penalties+? WHERE team_id=?", (points, team_id))
        self._regroup(season_id, "teams", before)

    def create_season(self, name: str, **fields: str) -> int:
        """As :meth:`Roster.create_season`; nobody has played yet, so every head-to-head score is 0 and
        holds for the season's spec at once."""
        with self.transaction() as c:
            sid = super().create_season(name, **fields)
            for kind in KINDS:
                spec = spec_text(parse_spec(self._season_spec(c, sid, kind), kind))
                c.execute(f"UPDATE season_seasons SET h2h_{kind}=? WHERE id=?", (spec, sid))
            return sid

    def update_season(self, season_id: int, **fields: str) -> None:
        """As :meth:`Roster.update_season`; a new ranking spec has its head-to-head scores counted anew."""
        with self.transaction():
            super().update_season(season_id, **fields)
            for kind in KINDS:
                if f"ranking_{kind}" in fields:
                    self.rebuild_h2h(season_id, kind)

    # -- materialised totals ---------------------------------------------------------------------
    def rebuild_totals(self, season_id: int) -> None:
        """Recompute the materialised totals and the head-to-head scores from the normalised rows
        (repair / verification)."""
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
            self.fill_name_keys()
            for kind in KINDS:
                self.rebuild_h2h(season_id, kind)

    # -- head-to-head ----------------------------------------------------------------------------------
    def rebuild_h2h(self, season_id: int, kind: Kind) -> None:
        """Every row's head-to-head score counted again for the season's spec (and that spec noted)."""
        with self.transaction() as c:
            terms = parse_spec(self._season_spec(c, season_id, kind), kind)
            fields = h2h_fields(terms)
            table, id_col = TOTALS_TABLE[kind]
            scores: dict[int, int] = {}
            if fields is not None:
                groups: dict[tuple[Any, ...], list[int]] = defaultdict(list)
                for row in self._season_rows(c, season_id, kind):
                    groups[group_key(row, fields)].append(row.id)
                tied = [g for g in groups.values() if len(g) > 1]
                if tied:
                    count = _h2h_players if kind == "players" else _h2h_teams
                    scores = {k: v for k, v in count(c, season_id, tied).items() if v}
            c.execute(f"UPDATE {table} SET h2h=0 WHERE season_id=? AND h2h<>0", (season_id,))
            c.executemany(f"UPDATE {table} SET h2h=? WHERE {id_col}=?", [(v, k) for k, v in scores.items()])
            c.execute(f"UPDATE season_seasons SET h2h_{kind}=? WHERE id=?", (spec_text(terms), season_id))

    def _regroup(self, season_id: int, kind: Kind, before: dict[int, Row]) -> None:
        """After the rows ``before`` (their totals as they were) moved: :meth:`_moved`, its reads (the
        spec kept, the rows after, their pairs) in one round trip."""
        statements: list[Statement] = [
            (f"SELECT ranking_{kind}, h2h_{kind} FROM season_seasons WHERE id=?", (season_id,))
        ]
        if before:
            statements += [self._rows_sql(kind, list(before)), _pairs_sql(self.conn, kind, list(before))]
        kept, *rest = self.conn.together(statements, plain=True)
        after, pairs = rest if rest else ([], [])
        spec = (kept[0][0], kept[0][1]) if kept else None
        self._moved(season_id, kind, spec, before, self._rows_of(kind, after), pairs)

    def _moved(
        self,
        season_id: int,
        kind: Kind,
        spec: tuple[Any, Any] | None,
        before: dict[int, Row],
        after: dict[int, Row],
        pairs: Iterable[Any],
    ) -> None:
        """The rows ``before`` (their totals as they were) are now ``after``: their scores counted in
        their new groups, and the rows of the groups they left or joined given or taken what they scored
        against them (``pairs``: :data:`_PAIRS_SQL`'s rows; see the module's doc). ``spec``: the season's
        ranking spec and the spec its scores hold for (None: no season row)."""
        c = self.conn
        terms = parse_spec(str(spec[0]) if spec and spec[0] else DEFAULT_SPECS[kind], kind)
        if spec is None or str(spec[1]) != spec_text(terms):
            self.rebuild_h2h(season_id, kind)  # an older database, or a spec not counted yet
            return
        fields = h2h_fields(terms)
        if fields is None or not before:
            return
        old = {x: group_key(r, fields) for x, r in before.items()}
        new = {x: group_key(r, fields) for x, r in after.items()}
        score = dict.fromkeys(before, 0)
        delta: dict[int, int] = defaultdict(int)
        width = len(TOTALS_COLUMNS[kind])
        for r in pairs:
            x, z, ahead, behind = int(r[0]), int(r[1]), int(r[2]), int(r[3])
            if x not in score:  # a row without totals (none: every player and team has its row)
                continue
            kz = new[z] if z in new else group_key(totals_row(kind, z, r[4 : 4 + width]), fields)
            if kz == new[x]:
                score[x] += ahead
            if z not in new and old[x] != new[x]:  # z stayed where it was; x left or joined its group
                if kz == old[x]:
                    delta[z] -= behind
                elif kz == new[x]:
                    delta[z] += behind
        table, id_col = TOTALS_TABLE[kind]
        c.executemany(  # inside :meth:`SeasonConn.sent_together`: sent, not waited for
            f"UPDATE {table} SET h2h=? WHERE {id_col}=?",
            [(v, x) for x, v in score.items() if v != after[x].h2h],
        )
        c.executemany(
            f"UPDATE {table} SET h2h=h2h+? WHERE {id_col}=?", [(d, z) for z, d in delta.items() if d]
        )

    # -- reading the totals ---------------------------------------------------------------------------
    @staticmethod
    def _season_spec(c: SeasonConn, season_id: int, kind: Kind) -> str:
        row = c.execute(f"SELECT ranking_{kind} FROM season_seasons WHERE id=?", (season_id,)).fetchone()
        return str(row[0]) if row and row[0] else DEFAULT_SPECS[kind]

    @staticmethod
    def _rows(c: SeasonConn, kind: Kind, ids: Iterable[int]) -> dict[int, Row]:
        """The totals (and ``h2h``) of the rows ``ids``."""
        sql, wanted = Totals._rows_sql(kind, ids)
        return Totals._rows_of(kind, c.execute(sql, wanted).fetchall() if wanted else [])

    @staticmethod
    def _rows_sql(kind: Kind, ids: Iterable[int]) -> tuple[str, list[int]]:
        """The query of :meth:`_rows` (none wanted: one that finds nothing)."""
        wanted = list(dict.fromkeys(ids))
        table, id_col = TOTALS_TABLE[kind]
        marks = ",".join("?" * len(wanted)) or "NULL"
        columns = ", ".join(TOTALS_COLUMNS[kind])
        return f"SELECT {id_col}, {columns}, h2h FROM {table} WHERE {id_col} IN ({marks})", wanted

    @staticmethod
    def _rows_of(kind: Kind, rows: Iterable[Any]) -> dict[int, Row]:
        cols = TOTALS_COLUMNS[kind]
        out: dict[int, Row] = {}
        for r in rows:
            row = totals_row(kind, int(r[0]), r[1 : 1 + len(cols)])
            row.h2h = int(r[1 + len(cols)])
            out[row.id] = row
        return out

    @staticmethod
    def _season_rows(c: SeasonConn, season_id: int, kind: Kind) -> Iterable[Row]:
        table, id_col = TOTALS_TABLE[kind]
        cols = TOTALS_COLUMNS[kind]
        for r in c.execute(
            f"SELECT {id_col}, {', '.join(cols)} FROM {table} WHERE season_id=?", (season_id,)
        ):
            yield totals_row(kind, int(r[0]), r[1:])


def add_to_totals(seat_rows: Sequence[tuple[Any, ...]]) -> list[Statement]:
    """The statements that add one game's seat rows (game, seat, season, player, team, title, place,
    points, opened) to the totals."""
    by_team: dict[int, list[int]] = {}
    for r in seat_rows:
        t = by_team.setdefault(int(r[4]), [0, 0, 0])
        t[0] += int(r[7])
        t[1] += int(r[6] == 1)
        t[2] += int(r[5] == "大落")
    return [
        (
            "UPDATE season_player_totals SET games=games+1, points=points+?, firsts=firsts+?, "
            "seconds=seconds+?, lasts=lasts+?, quan_san=quan_san+?, opened=opened+? WHERE player_id=?",
            [
                (r[7], int(r[6] == 1), int(r[6] == 2), int(r[5] == "大落"), int(r[5] == "圈三"), r[8], r[3])
                for r in seat_rows
            ],
            "many",
        ),
        (
            "UPDATE season_team_totals SET games=games+1, points=points+?, firsts=firsts+?, "
            "lasts=lasts+? WHERE team_id=?",
            [(v[0], v[1], v[2], k) for k, v in sorted(by_team.items())],
            "many",
        ),
    ]


def _pairs_sql(c: SeasonConn, kind: Kind, ids: Sequence[int]) -> Statement:
    """:data:`_PAIRS_SQL` for the rows ``ids`` (at least one), as ``c``'s dialect runs it best."""
    marks = ",".join("?" * len(ids))
    sql = _PAIRS_SQL[kind].replace("{ids}", marks).replace("{other}", _OTHER_SQL[kind, c.postgres])
    return sql, list(ids) * sql.count(marks)
