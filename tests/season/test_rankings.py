"""The 英雄榜 ranking key: parsing, tie-breaks (头科, 大落, head-to-head), shared ranks (并列), stability."""

from __future__ import annotations

import pytest

import engine
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import (
    DEFAULT_SPECS,
    Row,
    SpecError,
    compute,
    parse_spec,
    rank_label,
    rank_rows,
)
from broadcast.season.scoring import preset, seat_points
from engine import gjn


def test_parse_spec_defaults_and_errors() -> None:
    terms = parse_spec(DEFAULT_SPECS["players"], "players")
    assert [(t.field, t.desc) for t in terms] == [
        ("points", True),
        ("firsts", True),
        ("lasts", False),
        ("h2h", True),
        ("name", False),
        ("id", False),
    ]
    with pytest.raises(SpecError, match="wins"):
        parse_spec("points desc, wins desc", "players")
    with pytest.raises(SpecError, match="sideways"):
        parse_spec("points sideways", "players")
    with pytest.raises(SpecError, match="twice"):
        parse_spec("points, points", "players")
    assert parse_spec("wins, points", "teams")[0].desc is True  # default direction of the field


def _rows() -> list[Row]:
    return [
        Row(id=1, name="王五", points=30, firsts=3, lasts=1),
        Row(id=2, name="李四", points=30, firsts=4, lasts=2),  # more 头科 beats 王五
        Row(id=3, name="张三", points=30, firsts=3, lasts=0),  # fewer 大落 beats 王五
        Row(id=4, name="赵六", points=40, firsts=0, lasts=5),
        Row(id=5, name="阿七", points=10, firsts=1, lasts=1),
        Row(id=6, name="白八", points=10, firsts=1, lasts=1),  # true tie with 阿七
    ]


def test_points_then_firsts_then_fewer_lasts() -> None:
    out = rank_rows(_rows(), parse_spec("points desc, firsts desc, lasts asc, name", "players"))
    assert [r.name for r in out] == ["赵六", "李四", "张三", "王五", "阿七", "白八"]
    assert [r.rank for r in out] == [1, 2, 3, 4, 5, 5]
    assert [rank_label(r) for r in out][-2:] == ["并列5", "并列5"]
    assert not any(r.tied for r in out[:4])


def test_name_orders_ties_by_pinyin_without_separating_them() -> None:
    out = rank_rows(_rows(), parse_spec("points desc, firsts desc, lasts asc, name", "players"))
    # 阿 (a) before 白 (bai): GB18030 order is pinyin order for these characters
    assert [r.name for r in out[-2:]] == ["阿七", "白八"]
    desc = rank_rows(_rows(), parse_spec("points desc, firsts desc, lasts asc, name desc", "players"))
    assert [r.name for r in desc[-2:]] == ["白八", "阿七"]


def test_order_is_stable_whatever_the_input_order() -> None:
    spec = parse_spec(DEFAULT_SPECS["players"], "players")
    a = [(r.id, r.rank) for r in rank_rows(_rows(), spec)]
    b = [(r.id, r.rank) for r in rank_rows(list(reversed(_rows())), spec)]
    assert a == b
    same = [Row(id=i, name="同名", points=5) for i in (9, 3, 7)]
    assert [r.id for r in rank_rows(same, spec)] == [3, 7, 9]  # the id is the final tie-breaker
    assert {r.rank for r in rank_rows(same, spec)} == {1}


def test_h2h_applies_only_inside_a_tie_group() -> None:
    calls: list[list[list[int]]] = []

    def h2h(groups):  # type: ignore[no-untyped-def]
        calls.append([sorted(g) for g in groups])
        return {5: 0, 6: 2}

    out = rank_rows(_rows(), parse_spec(DEFAULT_SPECS["players"], "players"), h2h)
    assert calls == [[[5, 6]]]  # only the group still tied is asked about
    assert [r.name for r in out[-2:]] == ["白八", "阿七"] and out[-1].rank == 6 and not out[-1].tied
    spec_rows = rank_rows(_rows(), parse_spec("h2h, points desc", "players"), lambda g: {})
    assert spec_rows[0].name == "赵六"  # h2h first: everyone level at 0, points decide


def _insert_game(
    sdb: SeasonDB,
    mid: int,
    number: int,
    seat_order: list[int],
    sid: int,
    lineup: dict[int, int],
    teams: dict[int, int],
) -> None:
    """A game row with a given finish order, written directly (to build exact ties for ranking tests)."""
    pts = {s: p for s, p in zip(seat_order, (7, 5, 4, 3, 2, 1), strict=True)}
    titles = dict(zip(seat_order, ("头科", "二科", "三科", "四科", "二落", "大落"), strict=True))
    pa, pb = sum(pts[s] for s in (1, 3, 5)), sum(pts[s] for s in (2, 4, 6))
    with sdb.transaction() as c:
        gid = c.insert(
            "INSERT INTO season_games(match_id, number, gjn, points_a, points_b) VALUES(?,?,?,?,?)",
            (mid, number, "; synthetic", pa, pb),
        )
        for s in range(1, 7):
            c.execute(
                "INSERT INTO season_game_seats(game_id, seat, season_id, player_id, team_id, title, place, "
                "points) VALUES(?,?,?,?,?,?,?,?)",
                (gid, s, sid, lineup[s], teams[s], titles[s], seat_order.index(s) + 1, pts[s]),
            )
    sdb.rebuild_totals(sid)


def test_head_to_head_from_the_database(season_db: str) -> None:
    sdb = SeasonDB.open(season_db)
    sid = sdb.create_season("H2H")
    ta, tb = sdb.add_team(sid, "甲队"), sdb.add_team(sid, "乙队")
    p = {s: sdb.add_player(sid, f"选手{s}", team_id=ta if s % 2 else tb) for s in range(1, 7)}
    teams = {s: ta if s % 2 else tb for s in range(1, 7)}
    mid = sdb.create_match(sid, ta, tb, p)
    # game 1: 1 头科, 2 二科 …; game 2: 2 头科, 1 二科 …  → 1 and 2 tie on points, 头科 and 大落
    _insert_game(sdb, mid, 1, [1, 2, 3, 4, 5, 6], sid, p, teams)
    _insert_game(sdb, mid, 2, [2, 1, 3, 4, 6, 5], sid, p, teams)
    # game 3: 1 ahead of 2 again, but both mid-table, to break the tie by head-to-head
    _insert_game(sdb, mid, 3, [3, 4, 1, 2, 6, 5], sid, p, teams)
    rows = {r.id: r for r in compute(sdb.conn, sid, "players", spec="firsts desc, lasts asc, h2h, name").rows}
    one, two, three = rows[p[1]], rows[p[2]], rows[p[3]]
    # players 1, 2 and 3 each have one 头科 and no 大落: head-to-head inside that group decides
    assert (one.firsts, one.lasts) == (two.firsts, two.lasts) == (three.firsts, three.lasts) == (1, 0)
    # 1 ahead of 2 (games 1, 3) and of 3 (games 1, 2); 2 ahead of 1 (2) and 3 (1, 2); 3 ahead of both in 3
    assert (one.h2h, two.h2h, three.h2h) == (4, 3, 2)
    assert (one.rank, two.rank, three.rank) == (1, 2, 3) and not one.tied
    # without h2h they share the rank and are shown 并列
    rows2 = {r.id: r for r in compute(sdb.conn, sid, "players", spec="firsts desc, lasts asc, name").rows}
    assert rows2[p[1]].rank == rows2[p[2]].rank == rows2[p[3]].rank == 1 and rows2[p[1]].tied
    sdb.close()


def test_season_spec_is_configurable_and_validated(season_db: str) -> None:
    sdb = SeasonDB.open(season_db)
    with pytest.raises(SpecError):
        sdb.create_season("bad", ranking_players="points desc, charm desc")
    sid = sdb.create_season("cfg", ranking_players="games desc, name")
    assert compute(sdb.conn, sid, "players").spec == "games desc, name asc, id asc"
    sdb.close()


def test_team_ranking_wins_then_points_then_h2h(demo_season: str) -> None:
    with SeasonDB.open(demo_season) as sdb:
        sid = int(sdb.season()["id"])
        rows = compute(sdb.conn, sid, "teams").rows
        keys = [(-r.wins, -r.points) for r in rows]
        assert keys == sorted(keys)
        champion = sdb.conn.execute("SELECT winner FROM season_matches WHERE round=3").fetchone()[0]
        assert rows[0].id == champion or rows[0].wins >= next(r.wins for r in rows if r.id == champion)


def test_a_tie_is_followed_by_the_rank_after_the_tied_rows() -> None:
    """Standard competition ranking: two rows tied at 1 are followed by 3 (1, 1, 3), never 2."""
    rows = [Row(id=1, name="甲", points=20), Row(id=2, name="乙", points=20), Row(id=3, name="丙", points=9)]
    rows += [Row(id=4, name="丁", points=9), Row(id=5, name="戊", points=5)]
    out = rank_rows(rows, parse_spec("points desc, name", "players"))
    assert [r.rank for r in out] == [1, 1, 3, 3, 5]
    assert [rank_label(r) for r in out] == ["并列1", "并列1", "并列3", "并列3", "5"]


def _recorded(sdb: SeasonDB, mid: int, seed: int) -> tuple[list[int], bool]:
    """A real self-played game recorded to the match: its finish order (seats) and whether it was 圈三."""
    g = engine.new_game("tv_match", seed=seed)
    engine.random_playout(g, seed=seed)
    sdb.record_game(mid, gjn.write(gjn.from_game(g, [])), filename=f"seed{seed}.gjn")
    r = g.result()
    return list(r.finish_order), bool(r.quan_san)


def test_quan_san_seat_points_and_head_to_head_with_a_quan_san_player(season_db: str) -> None:
    """At 圈三 the winners share 32 as 7:5:4 (14, 10, 8) and the 圈三 team scores 0 (G11.1); in
    head-to-head a 圈三 player counts as behind every placed player of that game, and two 圈三 players
    as level."""
    sdb = SeasonDB.open(season_db)
    sid = sdb.create_season("圈三")
    ta, tb = sdb.add_team(sid, "甲队"), sdb.add_team(sid, "乙队")
    p = {s: sdb.add_player(sid, f"选手{s}", team_id=ta if s % 2 else tb) for s in range(1, 7)}
    mid = sdb.create_match(sid, ta, tb, p)
    order, quan_san = _recorded(sdb, mid, 2)  # seed 2 ends at 圈三: 6, 2, 4 take 头科, 二科, 三科
    assert quan_san and order[:3] == [6, 2, 4]
    seats = sdb.conn.execute(
        "SELECT seat, points FROM season_game_seats WHERE season_id=?", (sid,)
    ).fetchall()
    assert {int(s): int(pts) for s, pts in seats} == {6: 14, 2: 10, 4: 8, 1: 0, 3: 0, 5: 0}
    assert seat_points(preset("tv_match"), order, True) == {6: 14, 2: 10, 4: 8, 1: 0, 3: 0, 5: 0}
    assert seat_points(preset("tv_match"), [3, 1, 2, 5, 6, 4], False) == {3: 7, 1: 5, 2: 4, 5: 3, 6: 2, 4: 1}
    games = [(order[:3], True)]
    second, q2 = _recorded(sdb, mid, 1)
    games.append((second, q2))
    assert not q2
    # head-to-head written out here: a placed seat is ahead of every 圈三 seat and of the seats placed below
    expected = dict.fromkeys(range(1, 7), 0)
    for placed, _q in games:
        place = {s: placed.index(s) for s in placed}
        for s in range(1, 7):
            for o in range(1, 7):
                if s != o and s in place and (o not in place or place[s] < place[o]):
                    expected[s] += 1
    rows = {r.id: r for r in compute(sdb.conn, sid, "players", spec="h2h, name").rows}
    assert {s: rows[p[s]].h2h for s in range(1, 7)} == expected
    sdb.close()
