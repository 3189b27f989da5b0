"""The 英雄榜: season rankings of players and of teams, by a configurable, documented key.

A ranking key is a comma-separated list of ``field [asc|desc]`` terms, e.g. the default for players::

    points desc, firsts desc, lasts asc, h2h, name

Rows are compared term by term. ``h2h`` (head-to-head) applies only inside a group of rows still tied
on every earlier term: players score one for each game in which they finished ahead of another player
of the group (both seated in it), teams one for each match they won against another team of the
group; more is better. ``name`` (ordered as GB18030 bytes, i.e. by pinyin for the common characters)
and ``id`` only order rows for display: rows equal on every other term share one rank number and
are shown as 并列 (tied). The registration id is always the final tie-breaker, so the order is
stable and deterministic.

At scale (100,000 players, a million games) the ranking is not computed, it is read: the totals are kept
up to date in the transaction of every game (``totals.py``), and so is each row's ``h2h`` for the
season's own spec (the score inside its tie group, ``season_*_totals.h2h``; the spec it holds for is in
``season_seasons.h2h_players`` / ``h2h_teams``). The database then orders the rows (``ORDER BY`` over the
totals, an index for the default key) and they stream out (:func:`ranked`, :func:`stream_ranking`); the
top N reads N rows and the rest of the tie group at the boundary (:func:`compute` with ``top``). Only
what cannot be read so falls back to computing in memory as before (:func:`rank_rows`): a spec with
``avg`` (a quotient, compared in Python), or an ``h2h`` spec other than the one kept up to date.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby, repeat
from operator import itemgetter
from typing import Any, Literal

from broadcast.errors import GoujiError
from broadcast.season.backend import SeasonConn

Kind = Literal["players", "teams"]

DEFAULT_SPECS: dict[str, str] = {
    "players": "points desc, firsts desc, lasts asc, h2h, name",
    "teams": "wins desc, points desc, firsts desc, lasts asc, h2h, name",
}

# field → (Chinese label, default direction). ``points`` for teams is net of penalties.
FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "players": {
        "points": ("积分", "desc"),
        "firsts": ("头科", "desc"),
        "seconds": ("二科", "desc"),
        "lasts": ("大落", "asc"),
        "games": ("局数", "desc"),
        "avg": ("场均", "desc"),
        "quan_san": ("圈三", "asc"),
        "opened": ("开点", "desc"),
        "h2h": ("相互战绩", "desc"),
        "name": ("姓名", "asc"),
        "id": ("编号", "asc"),
    },
    "teams": {
        "wins": ("胜场", "desc"),
        "points": ("净积分", "desc"),
        "game_points": ("局分", "desc"),
        "penalties": ("罚分", "asc"),
        "matches": ("场次", "desc"),
        "losses": ("负场", "asc"),
        "firsts": ("头科", "desc"),
        "lasts": ("大落", "asc"),
        "games": ("局数", "desc"),
        "h2h": ("相互战绩", "desc"),
        "name": ("队名", "asc"),
        "id": ("编号", "asc"),
    },
}
ORDER_ONLY = ("name", "id")


class SpecError(GoujiError, ValueError):
    """A ranking spec that cannot be used: ``SpecError("ranking", zh, en)``."""

    rule = "ranking"


@dataclass(frozen=True)
class Term:
    field: str
    desc: bool


@dataclass
class Row:
    id: int
    name: str
    team: str = ""
    team_color: str = ""
    games: int = 0
    points: int = 0
    firsts: int = 0
    seconds: int = 0
    lasts: int = 0
    quan_san: int = 0
    opened: int = 0
    matches: int = 0
    wins: int = 0
    losses: int = 0
    game_points: int = 0
    penalties: int = 0
    sponsor: str = ""
    photo: str = ""
    rank: int = 0
    tied: bool = False
    h2h: int = 0  # head-to-head score inside the tie group, where the spec applied it

    @property
    def avg(self) -> float:
        return round(self.points / self.games, 3) if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["avg"] = self.avg
        return d


def parse_spec(spec: str, kind: str, fields: dict[str, tuple[str, str]] | None = None) -> list[Term]:
    """Parse ``"points desc, firsts desc, h2h, name"``; raises :class:`SpecError` naming the bad term.

    ``fields`` is another table of fields (the qualifier board's) in place of ``FIELDS[kind]``."""
    table = fields if fields is not None else FIELDS.get(kind)
    if table is None:
        raise SpecError(
            "ranking",
            f"没有这种排名：{kind!r}（players 或 teams）",
            f"unknown ranking kind {kind!r} (players or teams)",
        )
    terms: list[Term] = []
    seen: set[str] = set()
    for raw in spec.split(","):
        words = raw.split()
        if not words:
            continue
        name = words[0].lower()
        if name not in table:
            raise SpecError(
                "ranking",
                f"排名规则里没有字段 {name!r}",
                f"unknown ranking field {name!r} for {kind}; known: {', '.join(table)}",
            )
        if len(words) > 2 or (len(words) == 2 and words[1].lower() not in ("asc", "desc")):
            raise SpecError(
                "ranking",
                f"排名规则 {raw.strip()!r} 写法不对：应为“字段”“字段 asc”或“字段 desc”",
                f"bad ranking term {raw.strip()!r}: write 'field', 'field asc' or 'field desc'",
            )
        if name in seen:
            raise SpecError("ranking", f"排名字段 {name!r} 写了两次", f"ranking field {name!r} given twice")
        seen.add(name)
        direction = words[1].lower() if len(words) == 2 else table[name][1]
        terms.append(Term(name, direction == "desc"))
    if not terms:
        raise SpecError("ranking", "排名规则是空的", "empty ranking spec")
    if "id" not in seen:
        terms.append(Term("id", False))
    return terms


def spec_text(terms: Sequence[Term]) -> str:
    return ", ".join(f"{t.field} {'desc' if t.desc else 'asc'}" for t in terms)


@lru_cache(maxsize=1 << 17)
def name_sort_key(name: str) -> bytes:
    """A name's place in the display order (GB18030 bytes; the totals' ``name_key`` column holds it, v5);
    remembered: a ranking sorted in Python asks for every tied player's, again at each ranking."""
    return name.encode("gb18030", errors="replace")


# -- the totals as SQL aggregates of the normalised rows (used by the full recompute and the rebuild) --
PLAYER_AGG_SQL = (
    "SELECT player_id, COUNT(*) AS games, SUM(points) AS points, "
    "COUNT(CASE WHEN place=1 THEN 1 END) AS firsts, "
    "COUNT(CASE WHEN place=2 THEN 1 END) AS seconds, COUNT(CASE WHEN title='大落' THEN 1 END) AS lasts, "
    "COUNT(CASE WHEN title='圈三' THEN 1 END) AS quan_san, SUM(opened) AS opened "
    "FROM season_game_seats WHERE season_id=? GROUP BY player_id"
)

# One row per team of the season (5 parameters, all the season id): ``WITH … team_totals``.
TEAM_TOTALS_SQL = (
    "WITH seat AS (SELECT team_id, SUM(points) AS points, COUNT(CASE WHEN place=1 THEN 1 END) AS firsts, "
    "   COUNT(CASE WHEN title='大落' THEN 1 END) AS lasts FROM season_game_seats WHERE season_id=? "
    "   GROUP BY team_id), "
    "side AS (SELECT id, team_a AS team, winner, status FROM season_matches WHERE season_id=? "
    "   UNION ALL SELECT id, team_b, winner, status FROM season_matches WHERE season_id=?), "
    "mt AS (SELECT s.team, COUNT(CASE WHEN s.status='final' THEN 1 END) AS matches, "
    "   COUNT(CASE WHEN s.status='final' AND s.winner=s.team THEN 1 END) AS wins, "
    "   COUNT(CASE WHEN s.status='final' AND s.winner<>s.team THEN 1 END) AS losses, "
    "   CAST(SUM((SELECT COUNT(*) FROM season_games g WHERE g.match_id=s.id)) AS INTEGER) AS games "
    "   FROM side s GROUP BY s.team), "
    "pen AS (SELECT x.team_id, SUM(x.points) AS points FROM season_penalties x "
    "   JOIN season_matches m ON m.id=x.match_id WHERE m.season_id=? GROUP BY x.team_id), "
    "team_totals AS (SELECT t.season_id, t.id AS team_id, COALESCE(mt.matches,0) AS matches, "
    "   COALESCE(mt.wins,0) AS wins, COALESCE(mt.losses,0) AS losses, COALESCE(seat.points,0) AS points, "
    "   COALESCE(pen.points,0) AS penalties, COALESCE(mt.games,0) AS games, "
    "   COALESCE(seat.firsts,0) AS firsts, "
    "   COALESCE(seat.lasts,0) AS lasts FROM season_teams t LEFT JOIN seat ON seat.team_id=t.id "
    "   LEFT JOIN mt ON mt.team=t.id LEFT JOIN pen ON pen.team_id=t.id WHERE t.season_id=?)"
)


# -- loading rows -------------------------------------------------------------------------------
def player_rows(conn: SeasonConn, season_id: int, *, materialised: bool = True) -> list[Row]:
    """Every player of the season with totals (from the materialised table, or recomputed)."""
    if materialised:
        sql = (
            "SELECT p.id, p.name, p.photo, COALESCE(t.name,'') AS team, COALESCE(t.color,'') AS color, "
            "x.games, x.points, x.firsts, x.seconds, x.lasts, x.quan_san, x.opened "
            "FROM season_player_totals x JOIN season_players p ON p.id=x.player_id "
            "LEFT JOIN season_teams t ON t.id=p.team_id WHERE x.season_id=?"
        )
    else:
        sql = (
            "WITH agg AS (" + PLAYER_AGG_SQL + ") "
            "SELECT p.id, p.name, p.photo, COALESCE(t.name,'') AS team, COALESCE(t.color,'') AS color, "
            "COALESCE(a.games,0), COALESCE(a.points,0), COALESCE(a.firsts,0), COALESCE(a.seconds,0), "
            "COALESCE(a.lasts,0), COALESCE(a.quan_san,0), COALESCE(a.opened,0) "
            "FROM season_players p LEFT JOIN agg a ON a.player_id=p.id "
            "LEFT JOIN season_teams t ON t.id=p.team_id WHERE p.season_id=?"
        )
    args = (season_id,) if materialised else (season_id, season_id)
    return [
        Row(
            id=r[0],
            name=r[1],
            photo=r[2],
            team=r[3],
            team_color=r[4],
            games=r[5],
            points=r[6],
            firsts=r[7],
            seconds=r[8],
            lasts=r[9],
            quan_san=r[10],
            opened=r[11],
        )
        for r in conn.execute(sql, args)
    ]


def team_rows(conn: SeasonConn, season_id: int, *, materialised: bool = True) -> list[Row]:
    if materialised:
        sql = (
            "SELECT t.id, t.name, t.color, t.sponsor, x.matches, x.wins, x.losses, x.points, x.penalties, "
            "x.games, x.firsts, x.lasts FROM season_team_totals x JOIN season_teams t ON t.id=x.team_id "
            "WHERE x.season_id=?"
        )
        args: tuple[Any, ...] = (season_id,)
    else:
        sql = (
            TEAM_TOTALS_SQL + " SELECT t.id, t.name, t.color, t.sponsor, x.matches, x.wins, x.losses, "
            "x.points, x.penalties, x.games, x.firsts, x.lasts FROM team_totals x "
            "JOIN season_teams t ON t.id=x.team_id"
        )
        args = (season_id,) * 5
    out = []
    for r in conn.execute(sql, args):
        out.append(
            Row(
                id=r[0],
                name=r[1],
                team=r[1],
                team_color=r[2],
                sponsor=r[3],
                matches=r[4],
                wins=r[5],
                losses=r[6],
                game_points=r[7],
                penalties=r[8],
                points=r[7] - r[8],
                games=r[9],
                firsts=r[10],
                lasts=r[11],
            )
        )
    return out


# -- the totals as rows and as SQL (the kept-up-to-date ranking) ----------------------------------
TOTALS_TABLE: dict[str, tuple[str, str]] = {
    "players": ("season_player_totals", "player_id"),
    "teams": ("season_team_totals", "team_id"),
}
TOTALS_COLUMNS: dict[str, tuple[str, ...]] = {
    "players": ("games", "points", "firsts", "seconds", "lasts", "quan_san", "opened"),
    "teams": ("matches", "wins", "losses", "points", "penalties", "games", "firsts", "lasts"),
}
# a field of the ranking key as SQL over the totals row ``x`` (``avg`` is a quotient: not ordered in SQL)
FIELD_SQL: dict[str, dict[str, str]] = {
    "players": {f: f"x.{f}" for f in (*TOTALS_COLUMNS["players"], "h2h")},
    "teams": {
        **{f: f"x.{f}" for f in (*TOTALS_COLUMNS["teams"], "h2h")},
        "points": "(x.points - x.penalties)",
        "game_points": "x.points",
    },
}
# the rows of a ranking: active ones have played (players) or played or finished a match (teams)
ACTIVE_SQL = {"players": " AND x.games > 0", "teams": " AND (x.games > 0 OR x.matches > 0)"}
# a ranking's query: the totals' own columns (the row's id first, its totals, h2h), then the key's values
_TOTALS_SQL = {
    "players": (
        "x.player_id, x.games, x.points, x.firsts, x.seconds, x.lasts, x.quan_san, x.opened, x.h2h",
        " FROM season_player_totals x WHERE x.season_id=?",
    ),
    "teams": (
        "x.team_id, x.matches, x.wins, x.losses, x.points, x.penalties, x.games, x.firsts, x.lasts, x.h2h",
        " FROM season_team_totals x WHERE x.season_id=?",
    ),
}
# who a row is (name, photo, team, colour / name, colour, sponsor): read apart from the ordered totals —
# all at once in table order for a whole ranking (not 100,000 lookups in ranking order), or the few
# rows of a top N
_WHO_SQL = {
    "players": (
        "SELECT p.id, p.name, p.photo, COALESCE(t.name,''), COALESCE(t.color,'') FROM season_players p "
        "LEFT JOIN season_teams t ON t.id=p.team_id WHERE p.season_id=?",
        "p.id",
    ),
    "teams": ("SELECT t.id, t.name, t.color, t.sponsor FROM season_teams t WHERE t.season_id=?", "t.id"),
}


def totals_row(kind: str, rid: int, values: Sequence[int]) -> Row:
    """A row of bare totals (``TOTALS_COLUMNS[kind]`` in order): what the ranking key is read from."""
    if kind == "players":
        games, points, firsts, seconds, lasts, quan_san, opened = values
        return Row(
            id=rid,
            name="",
            games=games,
            points=points,
            firsts=firsts,
            seconds=seconds,
            lasts=lasts,
            quan_san=quan_san,
            opened=opened,
        )
    matches, wins, losses, points, penalties, games, firsts, lasts = values
    return Row(
        id=rid,
        name="",
        matches=matches,
        wins=wins,
        losses=losses,
        game_points=points,
        penalties=penalties,
        points=points - penalties,
        games=games,
        firsts=firsts,
        lasts=lasts,
    )


def h2h_fields(terms: Sequence[Term]) -> list[str] | None:
    """The fields that make a tie group for ``h2h`` (the rank terms before it), or None without ``h2h``."""
    before: list[str] = []
    for t in terms:
        if t.field == "h2h":
            return before
        if t.field not in ORDER_ONLY:
            before.append(t.field)
    return None


def group_key(row: Row, fields: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, f) for f in fields)


# -- head-to-head ---------------------------------------------------------------------------------
H2H = Callable[[Sequence[Sequence[int]]], dict[int, int]]


def _h2h_players(conn: SeasonConn, season_id: int, groups: Sequence[Sequence[int]]) -> dict[int, int]:
    """For each player of each group: games in which they finished ahead of another player of the group.

    圈三 (no place) counts as behind every placed player; two 圈三 players are level. All groups are
    computed with one query (a temporary table of group members).
    """
    gid_of = {pid: g for g, ids in enumerate(groups) for pid in ids}
    score = dict.fromkeys(gid_of, 0)
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS _season_h2h(player_id INTEGER PRIMARY KEY, gid INTEGER)")
    conn.execute("DELETE FROM _season_h2h")
    conn.executemany("INSERT INTO _season_h2h(player_id, gid) VALUES(?,?)", gid_of.items())
    # only games in which two or more players of one group sat come back
    rows = conn.execute(
        "SELECT " + conn.string_agg("s.player_id || ':' || COALESCE(s.place, 99)") + " FROM _season_h2h h "
        "JOIN season_game_seats s ON s.player_id=h.player_id WHERE s.season_id=? "
        "GROUP BY s.game_id, h.gid HAVING COUNT(*) > 1",
        (season_id,),
    ).fetchall()
    conn.execute("DELETE FROM _season_h2h")
    for (packed,) in rows:
        seated = [tuple(map(int, x.split(":"))) for x in packed.split(",")]
        for pid, place in seated:
            score[pid] += sum(1 for _, other in seated if place < other)
    return score


def _h2h_teams(conn: SeasonConn, season_id: int, groups: Sequence[Sequence[int]]) -> dict[int, int]:
    """For each team of each group: matches won against another team of the group."""
    gid_of = {tid: g for g, ids in enumerate(groups) for tid in ids}
    score = dict.fromkeys(gid_of, 0)
    for a, b, winner in conn.execute(
        "SELECT team_a, team_b, winner FROM season_matches "
        "WHERE season_id=? AND status='final' AND winner IS NOT NULL",
        (season_id,),
    ):
        ga, gb = gid_of.get(a), gid_of.get(b)
        if ga is not None and ga == gb:
            score[winner] += 1
    return score


# -- ranking --------------------------------------------------------------------------------------
def rank_rows(rows: list[Row], terms: Sequence[Term], h2h: H2H | None = None) -> list[Row]:
    """Order ``rows`` by ``terms`` and number them; rows equal on all rank terms share a rank (并列)."""
    groups: list[list[Row]] = [list(rows)]
    rank_terms = [t for t in terms if t.field not in ORDER_ONLY]
    order_terms = [t for t in terms if t.field in ORDER_ONLY]
    for term in rank_terms:
        if term.field == "h2h":
            tied = [g for g in groups if len(g) > 1]
            scores = h2h([[r.id for r in g] for g in tied]) if (h2h and tied) else {}
            for g in tied:
                for r in g:
                    r.h2h = scores.get(r.id, 0)
        fname = term.field
        new_groups: list[list[Row]] = []
        for g in groups:
            if len(g) == 1:
                new_groups.append(g)
                continue

            def value(r: Row, fname: str = fname) -> Any:
                return getattr(r, fname)

            g.sort(key=value, reverse=term.desc)
            start = 0
            for i in range(1, len(g) + 1):
                if i == len(g) or value(g[i]) != value(g[start]):
                    new_groups.append(g[start:i])
                    start = i
        groups = new_groups
    out: list[Row] = []
    for g in groups:
        for t in reversed(order_terms):  # stable multi-key sort, last key first
            if t.field == "name":
                g.sort(key=lambda r: name_sort_key(r.name), reverse=t.desc)
            else:
                g.sort(key=lambda r: r.id, reverse=t.desc)
        rank = len(out) + 1
        for r in g:
            r.rank = rank
            r.tied = len(g) > 1
        out.extend(g)
    return out


@dataclass
class Ranking:
    kind: Kind
    season_id: int
    spec: str
    rows: list[Row]


def season_spec(conn: SeasonConn, season_id: int, kind: Kind) -> str:
    row = conn.execute(f"SELECT ranking_{kind} FROM season_seasons WHERE id=?", (season_id,)).fetchone()
    return str(row[0]) if row and row[0] else DEFAULT_SPECS[kind]


def compute(
    conn: SeasonConn,
    season_id: int,
    kind: Kind = "players",
    *,
    spec: str | None = None,
    materialised: bool = True,
    active_only: bool = True,
    top: int | None = None,
    fast: bool = True,
) -> Ranking:
    """The season's ranking of ``kind``. ``active_only`` leaves out players/teams with no game yet.

    Read in the database's order from the totals kept up to date (:func:`ranked`) when it can be, else
    computed in memory (``fast=False``, ``materialised=False``: from the totals / from the games, as the
    old way and the check of the new). ``top``: at least the first ``top`` rows (the whole tie group at
    the boundary), read without the rest."""
    if materialised and fast:
        terms, named = _ordered(conn, season_id, kind, spec)
        if terms is not None:
            rows: list[Row] = []
            with gc_paused():
                for part in _ranked_lists(conn, season_id, kind, terms, top, active_only, named, BATCH):
                    rows += part
            return Ranking(kind, season_id, spec_text(terms), rows)
    terms = parse_spec(spec or season_spec(conn, season_id, kind), kind)
    if kind == "players":
        rows = player_rows(conn, season_id, materialised=materialised)

        def h2h(groups: Sequence[Sequence[int]]) -> dict[int, int]:
            return _h2h_players(conn, season_id, groups)
    else:
        rows = team_rows(conn, season_id, materialised=materialised)

        def h2h(groups: Sequence[Sequence[int]]) -> dict[int, int]:
            return _h2h_teams(conn, season_id, groups)

    if active_only:
        rows = [r for r in rows if r.games or r.matches]
    return Ranking(kind, season_id, spec_text(terms), rank_rows(rows, terms, h2h))


# -- the ranking read in the database's order -------------------------------------------------------
def kept_spec(conn: SeasonConn, season_id: int, kind: Kind) -> tuple[str, str, bool]:
    """(the season's spec, the spec the ``h2h`` column is kept for: '' when none yet, whether every
    totals row holds its name's sort key: :func:`names_kept`), in one query (a round trip on PostgreSQL:
    the on-air top N reads it after every game)."""
    table, _ = TOTALS_TABLE[kind]
    row = conn.execute(
        f"SELECT ranking_{kind}, h2h_{kind}, NOT EXISTS (SELECT 1 FROM {table} WHERE name_key IS NULL) "
        "FROM season_seasons WHERE id=?",
        (season_id,),
    ).fetchone()
    if row is None:
        return DEFAULT_SPECS[kind], "", names_kept(conn, kind)
    return (str(row[0]) or DEFAULT_SPECS[kind]), str(row[1]), bool(row[2])


def _ordered(
    conn: SeasonConn, season_id: int, kind: Kind, spec: str | None
) -> tuple[list[Term] | None, bool]:
    """(:func:`ordered_terms`, whether the database orders the tie groups too: :func:`names_kept`)."""
    season, kept, named = kept_spec(conn, season_id, kind)
    terms = parse_spec(spec or season, kind)
    fields = {t.field for t in terms}
    if "avg" in fields or ("h2h" in fields and kept != spec_text(terms)):
        return None, named
    return terms, named


def ordered_terms(conn: SeasonConn, season_id: int, kind: Kind, spec: str | None = None) -> list[Term] | None:
    """The terms of ``spec`` (default: the season's) when the database can order the rows by them: no
    ``avg``, and ``h2h`` only as kept up to date for the season's spec. None: compute in memory."""
    return _ordered(conn, season_id, kind, spec)[0]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector held off while a ranking's rows are made: 100,000 new objects that live
    on set off several full collections, each walking every object the process holds (a quarter of a
    whole ranking's time, measured); none of these objects makes a cycle."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _who(conn: SeasonConn, season_id: int, kind: str, ids: Sequence[int] | None = None) -> dict[int, Any]:
    """Who each row is, by id: the rows of ``_WHO_SQL`` (id first) for the season, or for ``ids``."""
    sql, id_col = _WHO_SQL[kind]
    if ids is None:
        with gc_paused():
            rows = conn.tuples(sql, (season_id,))
            return dict(zip(map(itemgetter(0), rows), rows, strict=True))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {r[0]: r for r in conn.tuples(f"{sql} AND {id_col} IN ({marks})", (season_id, *ids))}


def _ranking_sql(kind: Kind, rank_terms: Sequence[Term], active_only: bool) -> tuple[str, str, list[int]]:
    """(the ranking's SELECT, its ORDER BY, where each rank term's value is in a row): the totals' own
    columns (``_TOTALS_SQL``), then only the key's values that are not one of them (teams' net points)."""
    columns, tail = _TOTALS_SQL[kind]
    names = [c.strip() for c in columns.split(",")]
    exprs = [FIELD_SQL[kind][t.field] for t in rank_terms]
    extra = [e for e in dict.fromkeys(exprs) if e not in names]
    at = [names.index(e) if e in names else len(names) + extra.index(e) for e in exprs]
    select = f"SELECT {columns}{''.join(f', {e}' for e in extra)}{tail}" + (
        ACTIVE_SQL[kind] if active_only else ""
    )
    order = ", ".join(f"{e} {'DESC' if t.desc else 'ASC'}" for e, t in zip(exprs, rank_terms, strict=True))
    return select, (f" ORDER BY {order}" if order else ""), at


# the rows of a whole ranking read at a time (PostgreSQL: a round trip each, the server's work between
# them; SQLite: a fetchmany)
BATCH = 10000

# the order-only terms as SQL over the totals row (the name's sort key is kept there since v5)
ORDER_SQL: dict[str, dict[str, str]] = {
    "players": {"name": "x.name_key", "id": "x.player_id"},
    "teams": {"name": "x.name_key", "id": "x.team_id"},
}


def names_kept(conn: SeasonConn, kind: Kind) -> bool:
    """Whether every totals row holds its name's sort key (a rename by SQL of someone else's clears it
    until the next :func:`broadcast.season.store.fill_name_keys`): then the database orders tie groups."""
    table, _ = TOTALS_TABLE[kind]
    return conn.execute(f"SELECT 1 FROM {table} WHERE name_key IS NULL LIMIT 1").fetchone() is None


def ranked(
    conn: SeasonConn,
    season_id: int,
    kind: Kind,
    terms: Sequence[Term],
    *,
    top: int | None = None,
    active_only: bool = True,
    names_in_db: bool | None = None,
    batch: int = BATCH,
) -> Iterator[Row]:
    """The rows in ranking order, numbered, as the database orders them (``terms`` from
    :func:`ordered_terms`): every row streamed, ``batch`` rows read at a time, or the first ``top`` and
    the rest of the tie group at the boundary. Rows equal on every rank term share the rank of the first
    of them (1, 1, 3). The database also orders each tie group for display (name, id) when every row
    holds its name's sort key (``names_in_db``: None = when :func:`names_kept`; False = sorted here, as
    before v5: the benchmark's baseline)."""
    lists = _ranked_lists(conn, season_id, kind, terms, top, active_only, names_in_db, batch)
    try:
        for rows in lists:
            yield from rows
    finally:  # the database cursor closed with the ranking (before its connection is)
        lists.close()


def _ranked_lists(
    conn: SeasonConn,
    season_id: int,
    kind: Kind,
    terms: Sequence[Term],
    top: int | None,
    active_only: bool,
    names_in_db: bool | None,
    batch: int,
) -> Generator[list[Row], None, None]:
    """:func:`ranked`'s rows, a list at a time (a whole ranking is read into one list without a Python
    call a row in between)."""
    rank_terms = [t for t in terms if t.field not in ORDER_ONLY]
    order_terms = [t for t in terms if t.field in ORDER_ONLY]
    select, order, at = _ranking_sql(kind, rank_terms, active_only)
    if names_in_db is None:
        names_in_db = all(t.field != "name" for t in order_terms) or names_kept(conn, kind)
    then = ""  # the display order inside a tie group, in SQL
    if names_in_db and order_terms:
        then = ", ".join(f"{ORDER_SQL[kind][t.field]} {'DESC' if t.desc else 'ASC'}" for t in order_terms)
        order = f"{order}, {then}" if order else f" ORDER BY {then}"
        then = f" ORDER BY {then}"
        order_terms = []  # nothing left to sort here
    key_of: Callable[[Sequence[Any]], Any] = itemgetter(*at) if at else (lambda _r: ())
    with_h2h = any(t.field == "h2h" for t in rank_terms)
    batches: Iterable[list[tuple[Any, ...]]]
    if top is None:
        who = _who(conn, season_id, kind)
        batches = conn.batches(select + order, (season_id,), size=batch)
    else:
        first = conn.tuples(select + order + " LIMIT ?", (season_id, top))
        rows = first
        if len(first) == top and top > 0:  # the rest of the tie group at the boundary
            edge = key_of(first[-1])
            exprs = [FIELD_SQL[kind][t.field] for t in rank_terms]
            values = edge if len(at) > 1 else (edge,)
            rest = conn.tuples(select + "".join(f" AND {e}=?" for e in exprs) + then, (season_id, *values))
            rows = [r for r in first if key_of(r) != edge] + rest
        who = _who(conn, season_id, kind, [r[0] for r in rows])
        batches = [rows]
    build = _ROWS_OF[kind]
    try:
        if not order_terms:  # the database's order is the final one: each list numbered as it comes
            for part in _numbered_as_read(batches, key_of):
                yield build(*part, who, with_h2h)
            return
        group: list[Row] = []
        group_key: Any = None
        done = 0
        for raw in batches:  # each list's Rows made at once, numbered below (0, not tied: for now)
            made = build(raw, [0] * len(raw), [False] * len(raw), who, with_h2h)
            for r, row in zip(raw, made, strict=True):
                key = key_of(r)
                if key != group_key and group:
                    if len(group) == 1:  # most rows: alone on their values
                        group[0].rank = done + 1
                        yield group
                        done += 1
                    else:
                        yield _numbered(group, done, order_terms)
                        done += len(group)
                    group = []
                    if top is not None and done >= top:
                        return
                group_key = key
                group.append(row)
        if group:
            yield _numbered(group, done, order_terms)
    finally:
        close = getattr(batches, "close", None)
        if close is not None:
            close()


Numbered = tuple[Sequence[Sequence[Any]], list[int], list[bool]]


def _numbered_as_read(
    batches: Iterable[Sequence[Sequence[Any]]], key_of: Callable[[Sequence[Any]], Any]
) -> Iterator[Numbered]:
    """Rows already in their final order, numbered (1, 1, 3) a list at a time: (rows, each one's rank,
    whether it shares it: 并列). The sizes of the tie groups come from ``itertools.groupby`` over the
    rows' keys (no Python call a row); the last group of a list is held back until the next list shows
    whether it goes on there."""
    done = 0  # rows handed on
    held: list[Sequence[Any]] = []  # the last tie group read so far: it may go on in the next list
    held_key: Any = None
    for rows in batches:
        if not rows:
            continue
        groups = [(key, len(list(g))) for key, g in groupby(map(key_of, rows))]
        start = 0
        if held:
            key, n = groups[0]
            if key == held_key:  # the held group goes on in this list
                held += rows[:n]
                if len(groups) == 1:
                    continue
                start, groups = n, groups[1:]
            yield held, [done + 1] * len(held), [len(held) > 1] * len(held)
            done += len(held)
        held_key, last = groups[-1]
        end = len(rows) - last
        held = list(rows[end:])
        ranks: list[int] = []
        tied: list[bool] = []
        for _, n in groups[:-1]:
            ranks += repeat(done + 1, n)
            tied += repeat(n > 1, n)
            done += n
        if end > start:
            yield rows[start:end], ranks, tied
    if held:
        yield held, [done + 1] * len(held), [len(held) > 1] * len(held)


def _player_rows(
    rows: Sequence[Sequence[Any]], ranks: list[int], tied: list[bool], who: dict[int, Any], h2h: bool
) -> list[Row]:
    """Players' rows from their totals (``_TOTALS_SQL``), numbers and who each one is (``_WHO_SQL``) —
    one comprehension (a whole ranking makes 100,000 rows: no Python call a row but the Row's own).
    Positional: Row(id, name, team, team_color, games, points, firsts, seconds, lasts, quan_san, opened,
    matches, wins, losses, game_points, penalties, sponsor, photo, rank, tied, h2h)."""
    return [
        Row(i, nm, tm, co, g, p, f1, f2, la, qs, op, 0, 0, 0, 0, 0, "", ph, rank, tie, h if h2h else 0)
        for (i, g, p, f1, f2, la, qs, op, h), rank, tie in zip(map(_PLAYERS, rows), ranks, tied, strict=True)
        for _, nm, ph, tm, co in (who[i],)
    ]  # fmt: skip


def _team_rows(
    rows: Sequence[Sequence[Any]], ranks: list[int], tied: list[bool], who: dict[int, Any], h2h: bool
) -> list[Row]:
    """Teams' rows (as :func:`_player_rows`): points net of penalties, game points, wins, the sponsor."""
    return [
        Row(i, nm, nm, co, g, gp - pe, f1, 0, la, 0, 0, m, w, lo, gp, pe, sp, "", rank, tie, h if h2h else 0)
        for (i, m, w, lo, gp, pe, g, f1, la, h), rank, tie in zip(map(_TEAMS, rows), ranks, tied, strict=True)
        for _, nm, co, sp in (who[i],)
    ]  # fmt: skip


# each row's own columns in ``_TOTALS_SQL`` (a key's value that is not one of them follows: teams' net points)
_PLAYERS = itemgetter(slice(0, 9))
_TEAMS = itemgetter(slice(0, 10))
_ROWS_OF = {"players": _player_rows, "teams": _team_rows}


def _numbered(group: list[Row], before: int, order_terms: Sequence[Term]) -> list[Row]:
    """One tie group: ordered for display by the order-only terms (name, id), one rank number."""
    if len(group) == 1:
        group[0].rank = before + 1
        return group
    if [(t.field, t.desc) for t in order_terms] == [("name", False), ("id", False)]:  # the usual: one sort
        group.sort(key=lambda r: (name_sort_key(r.name), r.id))
        order_terms = ()
    for t in reversed(order_terms):  # stable multi-key sort, last key first
        if t.field == "name":
            group.sort(key=lambda r: name_sort_key(r.name), reverse=t.desc)
        else:
            group.sort(key=lambda r: r.id, reverse=t.desc)
    for r in group:
        r.rank = before + 1
        r.tied = len(group) > 1
    return group


def count_rows(conn: SeasonConn, season_id: int, kind: Kind, *, active_only: bool = True) -> int:
    table, _ = TOTALS_TABLE[kind]
    row = conn.execute(
        f"SELECT COUNT(*) FROM {table} x WHERE x.season_id=?" + (ACTIVE_SQL[kind] if active_only else ""),
        (season_id,),
    ).fetchone()
    return int(row[0])


@dataclass
class RankingStream:
    """A ranking read once, row by row (the exports): ``count`` rows will come."""

    kind: Kind
    season_id: int
    spec: str
    rows: Iterator[Row]
    count: int

    def close(self) -> None:
        """Stop reading: the rows' database cursor is closed now (a file that could not be written
        ends the export before its connection closes; ``contextlib.closing`` it)."""
        if isinstance(self.rows, Generator):
            self.rows.close()


def stream_ranking(
    conn: SeasonConn, season_id: int, kind: Kind = "players", *, spec: str | None = None
) -> RankingStream:
    """The whole ranking as a stream (the database orders it; a spec it cannot order is computed first)."""
    terms, named = _ordered(conn, season_id, kind, spec)
    if terms is None:
        whole = compute(conn, season_id, kind, spec=spec)
        return RankingStream(kind, season_id, whole.spec, iter(whole.rows), len(whole.rows))
    count = count_rows(conn, season_id, kind)
    rows = ranked(conn, season_id, kind, terms, names_in_db=named)
    return RankingStream(kind, season_id, spec_text(terms), rows, count)


def rank_label(row: Row) -> str:
    return f"并列{row.rank}" if row.tied else str(row.rank)
