"""The push reads the season through its indexes, on both backends: a table's push is one transaction at a
million games, and one query that scans a whole table there costs seconds (it happened: a lookup joined by
``OR`` read every game of the season on each push until the 1M-game measure found it).

Every statement a push runs (a game pushed, then the match's result) is recorded as it is sent, then its
plan is asked for: on SQLite ``EXPLAIN QUERY PLAN`` (no ``SCAN`` of a season table: only ``SEARCH … USING
INDEX``; SQLite plans without statistics as if every table were big), on PostgreSQL ``EXPLAIN`` with
``enable_seqscan`` off (on a small table PostgreSQL rightly prefers reading it whole; with sequential scans
priced out, a ``Seq Scan`` left in the plan means no index can serve the query). The check is shown able to
fail: with the index of games by ``uid`` dropped, the same statements plan a scan of ``season_games``.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from broadcast.season.backend import SeasonConn
from broadcast.season.model import SeasonDB
from tests.season.conftest import find_games, selfplay

# the season's tables (a temporary table of one ranking's groups is not one of them)
SEASON_TABLE = re.compile(r"^season_\w+$")
_EXPLAINED = ("SELECT", "WITH", "UPDATE", "DELETE", "INSERT")
_ASKED = itertools.count()


@contextmanager
def _recorded(conn: SeasonConn) -> Iterator[list[tuple[str, Any]]]:
    """Every statement sent through ``conn`` meanwhile, with its parameters (one row of an executemany)."""
    sent: list[tuple[str, Any]] = []
    names = ("execute", "tuples", "batches", "executemany", "together")
    real = {name: getattr(conn, name) for name in names}

    def execute(sql: str, params: Any = ()) -> Any:
        sent.append((sql, params))
        return real["execute"](sql, params)

    def tuples(sql: str, params: Any = ()) -> Any:
        sent.append((sql, params))
        return real["tuples"](sql, params)

    def batches(sql: str, params: Any = (), **kw: Any) -> Any:
        sent.append((sql, params))
        return real["batches"](sql, params, **kw)

    def together(statements: Any, **kw: Any) -> Any:
        for st in statements:  # one run once per row ("many"): its first row
            sent.append((st[0], st[1][0]) if len(st) == 3 else st)
        return real["together"](statements, **kw)

    def executemany(sql: str, rows: Any) -> None:
        rows = list(rows)
        if rows:
            sent.append((sql, rows[0]))
        real["executemany"](sql, rows)

    for name, fn in (
        ("execute", execute),
        ("tuples", tuples),
        ("batches", batches),
        ("executemany", executemany),
        ("together", together),
    ):
        setattr(conn, name, fn)
    try:
        yield sent
    finally:
        for name in real:
            delattr(conn, name)  # the class's methods again


def _scans(conn: SeasonConn, sent: list[tuple[str, Any]]) -> list[str]:
    """The statements whose plan reads a season table whole, each with the table (empty: all indexed)."""
    found = []
    if conn.postgres:
        conn.execute("SET enable_seqscan = off")
    try:
        for sql, params in sent:
            if not sql.lstrip().upper().startswith(_EXPLAINED):
                continue
            for table in _scanned(conn, sql, params):
                found.append(f"{table}: {' '.join(sql.split())}")
    finally:
        if conn.postgres:
            conn.execute("RESET enable_seqscan")
    return found


def _scanned(conn: SeasonConn, sql: str, params: Any) -> list[str]:
    if not conn.postgres:  # a new text each time: a cached EXPLAIN is not planned again after a schema change
        plan = conn.raw.execute(f"EXPLAIN QUERY PLAN {sql} -- {next(_ASKED)}", params).fetchall()
        tables = []
        for row in plan:
            m = re.match(r"SCAN (\w+)", str(row[3]))
            if m and SEASON_TABLE.match(_table_of(sql, m.group(1))):
                tables.append(_table_of(sql, m.group(1)))
        return tables
    (doc,) = conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()
    plan = doc if isinstance(doc, list) else json.loads(doc)
    return [n["Relation Name"] for n in _nodes(plan[0]["Plan"]) if _whole(n)
            and SEASON_TABLE.match(n.get("Relation Name", ""))]  # fmt: skip


def _whole(node: dict[str, Any]) -> bool:
    """A plan node that reads its table whole: a sequential scan, or an index read end to end (no
    condition: what a merge join of a few pairs with 100,000 totals rows did at a million games)."""
    full_index = node["Node Type"] in ("Index Scan", "Index Only Scan") and "Index Cond" not in node
    return node["Node Type"] == "Seq Scan" or full_index


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from _nodes(child)


def _table_of(sql: str, name: str) -> str:
    """SQLite's plan names a table by its alias: the table the statement gives that alias."""
    m = re.search(rf"\b(?:FROM|JOIN|UPDATE)\s+(\w+)\s+(?:AS\s+)?{re.escape(name)}\b", sql, re.IGNORECASE)
    if name.startswith("season_") or m is None:
        return name
    return m.group(1)


def test_a_push_reads_the_season_only_through_indexes(season_db: str) -> None:
    sdb = SeasonDB.open(season_db)
    sid = sdb.create_season("索引")
    ta, tb = sdb.add_team(sid, "甲队"), sdb.add_team(sid, "乙队")
    lineup = {s: sdb.add_player(sid, f"选手{s}", team_id=ta if s % 2 else tb) for s in range(1, 7)}
    mid = sdb.create_match(sid, ta, tb, lineup)
    seeds = find_games("plans", lambda a, b: a > b, 3)
    with _recorded(sdb.conn) as sent:
        penalty = {"uid": f"m{mid}/p1", "team_id": tb, "reason": "大声喧哗", "game_no": 2}  # the loser's
        for n, seed in enumerate(seeds, 1):
            sdb.push_game(mid, f"m{mid}/g{n}", selfplay(seed)[0], n, [penalty] if n > 1 else [])
        sdb.push_game(mid, f"m{mid}/g1", selfplay(seeds[0])[0], 1, [])  # pushed again: acknowledged
        sdb.push_final(mid, lots_seed=None, forfeit_team=None, reason="", penalties=[penalty])
    m = sdb.match(mid)
    assert (m["status"], m["winner"], m["penalty_b"]) == ("final", ta, 2)
    assert len({sql for sql, _ in sent}) > 20  # the replay's, the totals', the head-to-head's, the result's
    assert _scans(sdb.conn, sent) == []
    sdb.conn.execute("DROP INDEX season_games_uid")  # the check can fail: the uid lookup now scans
    assert any(
        s.startswith("season_games: SELECT id FROM season_games WHERE uid=") for s in _scans(sdb.conn, sent)
    )
    sdb.close()


def test_the_check_names_the_table_a_scan_reads_by_its_alias(tmp_path: Path) -> None:
    sql = "SELECT g.id FROM season_games g WHERE g.gjn=?"
    with SeasonDB.open(tmp_path / "s.sqlite") as sdb:  # SQLite's plan says "SCAN g"
        assert _scans(sdb.conn, [(sql, ("[Event]",))]) == [f"season_games: {sql}"]
