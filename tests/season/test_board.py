"""The 英雄榜 at scale, on both backends: the head-to-head scores kept up to date game by game (only what
a game moved; never all counted again), the ranking read in the database's order equal to the one
computed in memory (tie-breaks, 并列, the 1, 1, 3 numbering), the top N read without the rest, the
rankings and exports streamed."""

from __future__ import annotations

import csv
import io
import json
import random
import threading
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from broadcast.season.export import Table, export_ranking, write_xlsx
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import compute, ordered_terms, rank_label, ranked, stream_ranking
from broadcast.season.totals import Totals
from tests.season.conftest import selfplay
from tests.season.test_rankings import _insert_game

# few values to tell players apart before h2h: big tie groups, so that head-to-head decides a lot
TIGHT = "firsts desc, lasts asc, h2h, name"


def _league(target: str, spec: str = TIGHT, teams: int = 4) -> tuple[SeasonDB, int, dict[int, list[int]]]:
    sdb = SeasonDB.open(target)
    sid = sdb.create_season("积分联赛", ranking_players=spec, ranking_teams="wins desc, h2h, name")
    squads = {}
    for t in range(teams):
        tid = sdb.add_team(sid, f"第{t + 1}队")
        squads[tid] = [sdb.add_player(sid, f"队{t + 1}选手{k}", team_id=tid) for k in range(1, 5)]
    return sdb, sid, squads


def _match(sdb: SeasonDB, sid: int, squads: dict[int, list[int]], rng: random.Random) -> int:
    ta, tb = rng.sample(sorted(squads), 2)
    a, b = rng.sample(squads[ta], 3), rng.sample(squads[tb], 3)
    return sdb.create_match(sid, ta, tb, {1: a[0], 3: a[1], 5: a[2], 2: b[0], 4: b[1], 6: b[2]})


def _same_as_in_memory(sdb: SeasonDB, sid: int) -> None:
    for kind in ("players", "teams"):
        assert ordered_terms(sdb.conn, sid, kind) is not None  # type: ignore[arg-type]  # read, not computed
        read = [r.as_dict() for r in compute(sdb.conn, sid, kind, active_only=False).rows]  # type: ignore[arg-type]
        memory = compute(sdb.conn, sid, kind, active_only=False, fast=False).rows  # type: ignore[arg-type]
        assert read == [r.as_dict() for r in memory], kind
        full = compute(sdb.conn, sid, kind, active_only=False, materialised=False).rows  # type: ignore[arg-type]
        assert read == [r.as_dict() for r in full], kind


def test_head_to_head_kept_game_by_game_equals_counting_it_all_again(
    season_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted_again: list[str] = []
    real = Totals.rebuild_h2h

    def spy(self: Totals, season_id: int, kind: Any) -> None:
        counted_again.append(kind)
        real(self, season_id, kind)

    monkeypatch.setattr(Totals, "rebuild_h2h", spy)
    sdb, sid, squads = _league(season_db)
    rng = random.Random(26)
    moved = 0
    for m in range(4):
        mid = _match(sdb, sid, squads, rng)
        for g in range(3):
            before = {r.id: r.h2h for r in compute(sdb.conn, sid, "players", active_only=False).rows}
            sdb.record_game(mid, selfplay(f"board-{m}-{g}")[0])
            _same_as_in_memory(sdb, sid)
            after = {r.id: r.h2h for r in compute(sdb.conn, sid, "players", active_only=False).rows}
            moved += sum(1 for k in after if after[k] != before[k])
        if m == 1:
            team = int(sdb.match(mid)["team_a"])
            sdb.add_penalty(mid, team, "偷看牌")
            _same_as_in_memory(sdb, sid)
        if sdb.finish_match(mid, lots_seed=m).winner is None:  # a tie: the extra game, then lots
            sdb.record_game(mid, selfplay(f"board-{m}-extra")[0])
            sdb.finish_match(mid, lots_seed=m)
        _same_as_in_memory(sdb, sid)
    assert moved > 0  # head-to-head did decide something
    assert counted_again == []  # every game kept it up to date; nothing was counted all over again
    sdb.close()


def test_two_tables_recording_at_once_keep_head_to_head_right(season_db: str) -> None:
    """Two tables' games committed side by side (each its own connection): the groups a game moves are
    read with the other table's games committed (the season's writes take turns)."""
    sdb, sid, squads = _league(season_db)
    teams = sorted(squads)
    errors: list[BaseException] = []

    def table(k: int) -> None:
        try:
            with SeasonDB.open(season_db) as mine:
                ta, tb = teams[2 * k], teams[2 * k + 1]
                a, b = squads[ta], squads[tb]
                mid = mine.create_match(sid, ta, tb, {1: a[0], 3: a[1], 5: a[2], 2: b[0], 4: b[1], 6: b[2]})
                for g in range(3):
                    mine.record_game(mid, selfplay(f"two-{k}-{g}")[0])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=table, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    _same_as_in_memory(sdb, sid)
    sdb.close()


def test_a_push_stored_meanwhile_by_the_tables_first_connection_is_answered_with_that_game_counted_once(
    season_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table killed mid-push and started again pushes the game again while its first connection's push
    is still on its way: that one lands between the second's reads and its write. The second copy is
    refused by the season (the uid is unique) and the push answers with the game stored: one game, its
    seats counted once, the 英雄榜 what a recomputation says."""
    from broadcast.season import matches

    sdb, sid, squads = _league(season_db)
    mid = _match(sdb, sid, squads, random.Random(5))
    uid, text = f"m{mid}/g1", selfplay("race-1")[0]
    real = matches._replayed
    first: list[int] = []

    def replayed(gjn_text: str, filename: str) -> Any:  # the engine's replay: the reads are done by then
        outcome = real(gjn_text, filename)
        if not first:
            first.append(-1)
            with SeasonDB.open(season_db) as other:
                first[0] = other.push_game(mid, uid, text, 1, [])
        return outcome

    monkeypatch.setattr(matches, "_replayed", replayed)
    assert sdb.push_game(mid, uid, text, 1, []) == first[0] > 0
    assert [(g["number"], g["uid"]) for g in sdb.games(mid)] == [(1, uid)]
    lineup = [int(r["id"]) for r in sdb.lineup(mid).values()]
    rows = {r.id: r for r in compute(sdb.conn, sid, "players", active_only=False).rows}
    assert [rows[p].games for p in lineup] == [1] * 6
    _same_as_in_memory(sdb, sid)
    sdb.close()


def test_an_older_database_counts_head_to_head_once_then_keeps_it(season_db: str) -> None:
    sdb, sid, squads = _league(season_db)
    sdb.conn.execute("UPDATE season_seasons SET h2h_players='', h2h_teams='' WHERE id=?", (sid,))  # v2's
    assert ordered_terms(sdb.conn, sid, "players") is None  # not kept yet: computed in memory
    mid = _match(sdb, sid, squads, random.Random(1))
    sdb.record_game(mid, selfplay("older-1")[0])
    _same_as_in_memory(sdb, sid)
    sdb.close()


def _back_to_v3(sdb: SeasonDB) -> None:
    """The season's tables as a v3 build left them (v6's corrections, v5's name keys and v4's covering
    index undone)."""
    from broadcast.season.store import COMPONENT

    c = sdb.conn
    c.execute("DROP TABLE season_corrections")
    renamed = (("season_player_renamed", "season_players"), ("season_team_renamed", "season_teams"))
    for trigger, table in renamed:
        c.execute(f"DROP TRIGGER {trigger}" + (f" ON {table}" if c.postgres else ""))
    if c.postgres:
        c.execute("DROP FUNCTION season_name_key_stale()")
    for index in ("season_player_totals_order", "season_player_totals_unnamed", "season_team_totals_unnamed"):
        c.execute(f"DROP INDEX {index}")
    for table in ("season_player_totals", "season_team_totals"):
        c.execute(f"ALTER TABLE {table} DROP COLUMN name_key")
    c.execute(  # v2's index
        "CREATE INDEX season_player_totals_rank "
        "ON season_player_totals(season_id, points DESC, firsts DESC, lasts, h2h DESC)"
    )
    c.execute("UPDATE schema_versions SET version=3 WHERE component=?", (COMPONENT,))


def _indexes(sdb: SeasonDB, table: str) -> set[str]:
    if sdb.conn.postgres:
        sql = "SELECT indexname FROM pg_indexes WHERE tablename=?"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name=?"
    return {r[0] for r in sdb.conn.execute(sql, (table,))}


def test_a_season_of_an_older_version_is_brought_up_and_ranks_the_same_in_the_databases_order(
    season_db: str,
) -> None:
    """v4 (the covering index) and v5 (each row's name sort key, the index ordering tie groups by it): a
    season a v3 build left, with its games, is brought up on either backend; every row gets its key at the
    open, and the ranking read in the database's order is the same as before and as computed in memory."""
    from broadcast.season.migrations import SQLITE
    from broadcast.season.rankings import names_kept
    from broadcast.season.store import COMPONENT

    sdb, sid, squads = _league(season_db, spec="points desc, firsts desc, lasts asc, h2h, name")
    rng = random.Random(4)
    for i in range(4):
        sdb.record_game(_match(sdb, sid, squads, rng), selfplay(f"v3-{i}")[0])
    want = [r.as_dict() for r in compute(sdb.conn, sid, "players").rows]
    _back_to_v3(sdb)
    sdb.close()
    with SeasonDB.open(season_db) as again:
        version = again.conn.execute("SELECT version FROM schema_versions WHERE component=?", (COMPONENT,))
        assert version.fetchone()[0] == len(SQLITE) >= 5
        names = _indexes(again, "season_player_totals")
        assert "season_player_totals_order" in names and "season_player_totals_rank" not in names
        assert names_kept(again.conn, "players") and names_kept(again.conn, "teams")
        assert [r.as_dict() for r in compute(again.conn, sid, "players").rows] == want
        _same_as_in_memory(again, sid)


def test_a_renamed_player_moves_in_its_tie_group_however_the_name_was_changed(season_db: str) -> None:
    """The database orders a tie group by the name's key it holds (v5): a rename through the roster gives
    the new key at once; a rename by SQL (the roster import's way, or anyone's) clears it (a trigger), and
    the ranking sorts its tie groups itself until the keys are filled again — never the old name's order."""
    from broadcast.season.rankings import names_kept

    sdb, sid, squads = _league(season_db, spec="points desc, name")  # few games: big tie groups
    rng = random.Random(5)
    sdb.record_game(_match(sdb, sid, squads, rng), selfplay("rename-0")[0])
    rows = compute(sdb.conn, sid, "players", active_only=False).rows
    group = [r for r in rows if r.rank == rows[-1].rank]  # the last tie group: those with no game
    assert len(group) >= 3
    last = group[-1]
    sdb.update_player(last.id, name="阿" + last.name)  # 阿 (ā) sorts before every 队…
    assert names_kept(sdb.conn, "players")
    rows = compute(sdb.conn, sid, "players", active_only=False).rows
    assert [r.id for r in rows if r.rank == group[0].rank][0] == last.id
    _same_as_in_memory(sdb, sid)
    second = group[-2]
    sdb.conn.execute("UPDATE season_players SET name=? WHERE id=?", ("阿阿" + second.name, second.id))
    assert not names_kept(sdb.conn, "players")  # the key cleared: not the old name's place
    rows = compute(sdb.conn, sid, "players", active_only=False).rows
    assert [r.id for r in rows if r.rank == group[0].rank][:2] == [second.id, last.id]
    _same_as_in_memory(sdb, sid)
    team = next(iter(squads))
    sdb.conn.execute("UPDATE season_teams SET name='阿队' WHERE id=?", (team,))
    assert not names_kept(sdb.conn, "teams")
    assert sdb.fill_name_keys() == 2 and names_kept(sdb.conn, "players") and names_kept(sdb.conn, "teams")
    rows = compute(sdb.conn, sid, "players", active_only=False).rows
    assert [r.id for r in rows if r.rank == group[0].rank][:2] == [second.id, last.id]
    _same_as_in_memory(sdb, sid)
    sdb.close()


def test_a_new_spec_is_counted_again_and_other_specs_are_computed(season_db: str) -> None:
    sdb, sid, squads = _league(season_db, spec="points desc, firsts desc, lasts asc, h2h, name")
    rng = random.Random(3)
    for m in range(2):
        mid = _match(sdb, sid, squads, rng)
        for g in range(3):
            sdb.record_game(mid, selfplay(f"spec-{m}-{g}")[0])
    sdb.update_season(sid, ranking_players=TIGHT)
    _same_as_in_memory(sdb, sid)
    for spec in ("avg desc, h2h, name", "lasts asc, h2h, name"):  # avg, or h2h not kept: computed
        assert ordered_terms(sdb.conn, sid, "players", spec) is None
        got = compute(sdb.conn, sid, "players", spec=spec).rows
        assert [r.as_dict() for r in got] == [
            r.as_dict() for r in compute(sdb.conn, sid, "players", spec=spec, fast=False).rows
        ]
    read = compute(sdb.conn, sid, "players", spec="games desc, points desc, name")  # no h2h: read
    assert ordered_terms(sdb.conn, sid, "players", "games desc, points desc, name") is not None
    assert [r.as_dict() for r in read.rows] == [
        r.as_dict() for r in compute(sdb.conn, sid, "players", spec=read.spec, fast=False).rows
    ]
    sdb.close()


def test_top_n_reads_the_whole_tie_group_at_its_edge_numbered_1_1_3(season_db: str) -> None:
    sdb = SeasonDB.open(season_db)
    sid = sdb.create_season("并列", ranking_players="points desc, name")
    ta, tb = sdb.add_team(sid, "甲队"), sdb.add_team(sid, "乙队")
    p = {s: sdb.add_player(sid, f"选手{s}", team_id=ta if s % 2 else tb) for s in range(1, 7)}
    teams = {s: ta if s % 2 else tb for s in range(1, 7)}
    mid = sdb.create_match(sid, ta, tb, p)
    _insert_game(sdb, mid, 1, [1, 2, 3, 4, 5, 6], sid, p, teams)  # 7 5 4 3 2 1
    _insert_game(sdb, mid, 2, [6, 5, 4, 3, 2, 1], sid, p, teams)  # + 1 2 3 4 5 7: 8 7 7 7 7 8
    whole = compute(sdb.conn, sid, "players").rows
    assert [(r.name, r.points, r.rank, r.tied) for r in whole] == [
        ("选手1", 8, 1, True),
        ("选手6", 8, 1, True),
        ("选手2", 7, 3, True),
        ("选手3", 7, 3, True),
        ("选手4", 7, 3, True),
        ("选手5", 7, 3, True),
    ]
    assert [rank_label(r) for r in whole] == ["并列1", "并列1", "并列3", "并列3", "并列3", "并列3"]
    one = compute(sdb.conn, sid, "players", top=1).rows
    assert [r.as_dict() for r in one] == [r.as_dict() for r in whole[:2]]  # the one it tied with too
    three = compute(sdb.conn, sid, "players", top=3).rows
    assert [r.as_dict() for r in three] == [r.as_dict() for r in whole]  # the 3rd row's whole group
    sdb.close()


def test_a_whole_ranking_read_a_few_rows_at_a_time_numbers_its_tie_groups_across_the_reads(
    season_db: str,
) -> None:
    """A whole ranking is read a list of rows at a time (10,000 at scale): a tie group that goes on past the
    end of one read shares its rank with the rows of the next (1, 1, 3, 3 — never 3, 4), and is 并列 even
    when the read ends after its first row."""
    sdb, sid, squads = _league(season_db)
    rng = random.Random(5)
    for m in range(2):
        mid = _match(sdb, sid, squads, rng)
        for g in range(2):
            sdb.record_game(mid, selfplay(f"batch-{m}-{g}")[0])
    for kind in ("players", "teams"):
        terms = ordered_terms(sdb.conn, sid, kind)  # type: ignore[arg-type]
        assert terms is not None
        want = [r.as_dict() for r in compute(sdb.conn, sid, kind, fast=False).rows]  # type: ignore[arg-type]
        groups = [sum(1 for r in want if r["rank"] == rank) for rank in sorted({r["rank"] for r in want})]
        assert max(groups) >= 3 and (kind == "teams" or 1 in groups), groups  # groups to cut, single rows
        for size in (1, 2, 3, 5, 10_000):
            read = ranked(sdb.conn, sid, kind, terms, batch=size)  # type: ignore[arg-type]
            assert [r.as_dict() for r in read] == want, (kind, size)
    sdb.close()


def test_the_ranking_streams_in_order_and_the_exports_write_it_as_it_comes(
    season_db: str, tmp_path: Path
) -> None:
    sdb, sid, squads = _league(season_db, spec="points desc, firsts desc, lasts asc, h2h, name", teams=6)
    rng = random.Random(9)
    for m in range(3):
        mid = _match(sdb, sid, squads, rng)
        for g in range(3):
            sdb.record_game(mid, selfplay(f"stream-{m}-{g}")[0])
    want = compute(sdb.conn, sid, "players", fast=False).rows
    lists = list(
        sdb.conn.batches("SELECT id FROM season_players WHERE season_id=? ORDER BY id", (sid,), size=5)
    )
    assert [len(rows) for rows in lists[:-1]] == [5] * (len(lists) - 1) and 0 < len(lists[-1]) <= 5
    assert [r[0] for rows in lists for r in rows] == sorted(p for ps in squads.values() for p in ps)
    stream = stream_ranking(sdb.conn, sid, "players")
    assert stream.count == len(want) and not isinstance(stream.rows, list)
    assert [r.as_dict() for r in stream.rows] == [r.as_dict() for r in want]
    season = sdb.season(sid)
    for fmt in ("csv", "xlsx", "json"):
        export_ranking(
            stream_ranking(sdb.conn, sid, "players"), season, tmp_path / f"lb.{fmt}", fmt, quiet=True
        )
    expect = [(rank_label(r), r.name, r.team, r.points, r.firsts, r.games, r.avg) for r in want]
    with open(tmp_path / "lb.csv", encoding="utf-8-sig", newline="") as f:
        got = [
            (r[0], r[1], r[2], int(r[3]), int(r[4]), int(r[8]), float(r[9])) for r in list(csv.reader(f))[1:]
        ]
    assert got == expect
    ws = openpyxl.load_workbook(tmp_path / "lb.xlsx").worksheets[0]
    got = [(r[0], r[1], r[2], r[3], r[4], r[8], r[9]) for r in ws.iter_rows(min_row=3, values_only=True)]
    assert got == expect  # numbers stay numbers, names text
    assert [ws.cell(row=n, column=2).fill.fgColor.rgb[-6:] for n in (3, 5, 6)] == [
        "FFF2CC",
        "FFF2CC",
        "000000",
    ]
    assert ws.auto_filter.ref == f"A2:J{len(want) + 2}"
    data = json.loads((tmp_path / "lb.json").read_text(encoding="utf-8"))
    assert data["spec"].startswith("points desc") and [
        (r["rank_label"], r["name"], r["points"]) for r in data["rows"]
    ] == [(e[0], e[1], e[3]) for e in expect]
    sdb.close()


def test_the_xlsx_plain_rows_are_exact_text_past_a_chunk(tmp_path: Path) -> None:
    """The rows written as SpreadsheetML text: escaped, spaces kept, characters XML cannot hold dropped (as
    openpyxl refuses them), numbers as numbers, thousands of rows across the writer's chunks."""
    odd = ["  前后有空格 ", "A&B<C>\"'", "控\x01制\x1f符", "=SUM(A1)", "换\n行"]
    rows: list[list[Any]] = [[f"{n}", odd[n % len(odd)], n, n / 8, None, ""] for n in range(2500)]
    table = Table(
        "成绩", "标题 & <title>", ["名次", "姓名", "数", "小数", "空", "空串"], [8] * 6, iter(rows), ["a"] * 6
    )
    assert write_xlsx([table], tmp_path / "x.xlsx") == 2500
    ws = openpyxl.load_workbook(tmp_path / "x.xlsx").worksheets[0]
    assert ws["A1"].value == "标题 & <title>" and ws["A1"].font.b
    got = list(ws.iter_rows(min_row=3, values_only=True))
    want = [
        (str(n), odd[n % len(odd)].replace("\x01", "").replace("\x1f", ""), n, n / 8, None, None)
        for n in range(2500)
    ]
    assert got == want
    assert ws["C1003"].data_type == "n" and ws["B1004"].data_type == "s"
    buf = io.BytesIO((tmp_path / "x.xlsx").read_bytes())
    streamed = openpyxl.load_workbook(buf, read_only=True).worksheets[0]  # a streaming reader sees it all
    assert sum(1 for _ in streamed.iter_rows()) == 2502


def test_the_on_air_top_n_reads_its_rows_and_the_tie_at_its_edge_never_the_whole_ranking(
    demo_season: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graphic's top N (``leaderboard.set`` after every game) is read from the kept totals a few rows
    at a time: the database returns the first N, the rest of a tie group at the edge and those rows'
    names — never the season's every player (at a million games a full read is the second a game the
    goal forbids). Counted as the rows the database hands back."""
    from broadcast.season.actions import leaderboard_payload
    from broadcast.season.backend import SeasonConn

    handed: list[int] = []
    real_tuples, real_batches = SeasonConn.tuples, SeasonConn.batches

    def tuples(self: SeasonConn, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        rows = real_tuples(self, sql, params)
        handed.append(len(rows))
        return rows

    def batches(self: SeasonConn, sql: str, params: Any = (), *, size: int = 5000) -> Any:
        for rows in real_batches(self, sql, params, size=size):
            handed.append(len(rows))
            yield rows

    with SeasonDB.open(demo_season) as sdb:
        sid = int(sdb.season()["id"])
        whole = compute(sdb.conn, sid, "players").rows
        assert len(whole) == 32
        monkeypatch.setattr(SeasonConn, "tuples", tuples)
        monkeypatch.setattr(SeasonConn, "batches", batches)
        payload = leaderboard_payload(sdb, sid, top=5)
        shown = payload["rows"]
    assert [r["name"] for r in shown] == [r.name for r in whole[: len(shown)]] and len(shown) >= 5
    # the first five, the rest of the edge's tie group, their names: at most twice the rows it shows
    assert 0 < sum(handed) <= 2 * len(shown) + 5 < len(whole), handed
