"""Seasons on real SQLite files: games re-checked by the engine, match rules (G11.2), totals."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from broadcast.core import db
from broadcast.season.migrations import COMPONENT, MIGRATIONS
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.rankings import compute
from tests.season.conftest import find_games, selfplay

A_NAMES = ["张三", "李四", "王五"]
B_NAMES = ["赵六", "孙七", "周八"]


def _setup(path: Path) -> tuple[SeasonDB, int, int, int, dict[int, int]]:
    sdb = SeasonDB.open(path)
    sid = sdb.create_season("测试季", title="测试赛季")
    ta = sdb.add_team(sid, "小当家便利店联盟队", sponsor="小当家")
    tb = sdb.add_team(sid, "沂河源矿泉水队")
    pa = [sdb.add_player(sid, n, team_id=ta) for n in A_NAMES]
    pb = [sdb.add_player(sid, n, team_id=tb) for n in B_NAMES]
    lineup = {1: pa[0], 3: pa[1], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]}
    return sdb, sid, ta, tb, lineup


def _names() -> dict[int, str]:
    return {1: A_NAMES[0], 3: A_NAMES[1], 5: A_NAMES[2], 2: B_NAMES[0], 4: B_NAMES[1], 6: B_NAMES[2]}


def test_schema_is_versioned_and_survives_close_and_reopen(db_path: Path) -> None:
    sdb, sid, ta, tb, lineup = _setup(db_path)
    ep = sdb.add_episode(sid, 1, air_date="2012-05-07")
    mid = sdb.create_match(sid, ta, tb, lineup, episode_id=ep, round_=1)
    text, pts = selfplay("reopen-1", _names())
    sdb.record_game(mid, text)
    sdb.close()
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT version FROM schema_versions WHERE component='season'").fetchone()[0] == len(
        MIGRATIONS
    )
    conn.close()
    again = SeasonDB.open(db_path)
    games = again.games(mid)
    assert len(games) == 1 and games[0]["gjn"] == text
    assert (games[0]["points_a"], games[0]["points_b"]) == (pts["odd"], pts["even"])
    seats = again.conn.execute(
        "SELECT seat, title, points FROM season_game_seats WHERE game_id=? ORDER BY seat", (games[0]["id"],)
    ).fetchall()
    assert sum(r["points"] for r in seats if r["seat"] % 2) == pts["odd"]
    assert {r["title"] for r in seats} >= {"头科"}
    again.close()


def test_newer_schema_file_is_refused(db_path: Path) -> None:
    SeasonDB.open(db_path).close()
    conn = db.connect(db_path)
    conn.execute("UPDATE schema_versions SET version=99 WHERE component=?", (COMPONENT,))
    conn.close()
    with pytest.raises(db.DatabaseError, match="newer"):
        SeasonDB.open(db_path)


def test_record_rejected_by_engine_names_the_clause_and_stores_nothing(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    text, _ = selfplay("reject-1", _names())
    lines = text.splitlines()
    # a seat passes out of turn right after the lead: the engine refuses the move with its clause
    first_move = next(i for i, ln in enumerate(lines) if ln and ln[0].isdigit())
    leader = int(lines[first_move].split()[0])
    wrong = leader % 6 + 2 if leader % 6 + 2 <= 6 else 1
    bad = "\n".join(lines[: first_move + 1] + [f"{wrong} pass"] + lines[first_move + 1 :]) + "\n"
    with pytest.raises(SeasonError) as exc:
        sdb.record_game(mid, bad, filename="bad.gjn")
    assert exc.value.rule == "G5.2", exc.value  # the players act in turn after each play
    assert f"bad.gjn:{first_move + 2}:" in str(exc.value)
    truncated = "\n".join(lines[: first_move + 3]) + "\n"
    with pytest.raises(SeasonError) as exc2:
        sdb.record_game(mid, truncated, filename="short.gjn")
    assert exc2.value.rule == "G10.4"
    assert sdb.games(mid) == []
    assert sdb.conn.execute("SELECT SUM(games) FROM season_player_totals").fetchone()[0] == 0


def test_seat_names_must_match_the_lineup(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    names = _names()
    names[2] = "冒名顶替"
    text, _ = selfplay("names-1", names)
    with pytest.raises(SeasonError, match="冒名顶替"):
        sdb.record_game(mid, text)


def test_lineup_must_put_team_a_on_odd_seats(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    swapped = dict(lineup)
    swapped[1], swapped[2] = lineup[2], lineup[1]
    with pytest.raises(SeasonError) as exc:
        sdb.create_match(sid, ta, tb, swapped)
    assert exc.value.rule == "G1.2"


def test_three_games_decide_then_no_fourth(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    seeds = find_games("decide", lambda a, b: a > b, 3)
    with pytest.raises(SeasonError, match="3"):
        sdb.finish_match(mid)
    for s in seeds:
        sdb.record_game(mid, selfplay(s, _names())[0])
    with pytest.raises(SeasonError) as exc:
        sdb.record_game(mid, selfplay("decide-extra", _names())[0])
    assert exc.value.rule == "G11.2"
    r = sdb.finish_match(mid)
    assert r.winner == ta and r.decided_by == "points" and r.score_a > r.score_b
    with pytest.raises(SeasonError, match="final"):
        sdb.add_penalty(mid, ta, "大声喧哗")


def test_penalties_cost_two_points_and_can_turn_the_match(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    # three games in which A leads B by exactly 2 in total
    a1 = find_games("pen-a", lambda a, b: a - b == 2)[0]
    ties = find_games("pen-t", lambda a, b: a == b, 2)
    for s in [a1, *ties]:
        sdb.record_game(mid, selfplay(s, _names())[0])
    sdb.add_penalty(mid, ta, "偷看牌", game_number=2)
    sdb.add_penalty(mid, ta, "发暗语", game_number=3)
    r = sdb.finish_match(mid)
    assert r.score_a + 4 - r.score_b == 2
    assert r.winner == tb and r.decided_by == "points"
    teams = {row.id: row for row in compute(sdb.conn, sid, "teams").rows}
    assert teams[ta].penalties == 4 and teams[ta].points == teams[ta].game_points - 4


def test_tie_needs_extra_game_then_lots_with_recorded_seed(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    for s in find_games("tie", lambda a, b: a == b, 4):
        if len(sdb.games(mid)) == 3:
            r = sdb.finish_match(mid)
            assert r.needs_extra_game and r.winner is None
        sdb.record_game(mid, selfplay(s, _names())[0])
    assert sdb.games(mid)[-1]["extra"] == 1
    with pytest.raises(SeasonError, match="抽签"):
        sdb.finish_match(mid)
    r = sdb.finish_match(mid, lots_seed=4242)
    assert r.decided_by == "lots" and r.lots_seed == 4242 and r.winner in (ta, tb)
    m = sdb.match(mid)
    assert m["lots_seed"] == 4242 and m["status"] == "final"
    # the same seed draws the same team (reproducible from the record)
    from engine import match as engine_match

    em = engine_match.Match("tv_match", seed=4242)
    for g in sdb.games(mid):
        em.add_game(
            type("R", (), {"void": False, "team_points": {"odd": g["points_a"], "even": g["points_b"]}})()
        )
    assert (ta if em.winner == "odd" else tb) == r.winner


def test_forfeit_gives_the_match_to_the_other_team(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    mid = sdb.create_match(sid, ta, tb, lineup)
    r = sdb.record_forfeit(mid, ta)
    assert r.winner == tb and r.decided_by == "forfeit"
    with pytest.raises(SeasonError):
        sdb.record_game(mid, selfplay("ff", _names())[0])
    teams = {row.id: row for row in compute(sdb.conn, sid, "teams").rows}
    assert teams[tb].wins == 1 and teams[ta].losses == 1


def test_materialised_totals_equal_the_full_recompute(demo_season: str) -> None:
    with SeasonDB.open(demo_season) as sdb:
        sid = int(sdb.season()["id"])
        for kind in ("players", "teams"):
            fast = [r.as_dict() for r in compute(sdb.conn, sid, kind, active_only=False).rows]  # type: ignore[arg-type]
            full = [
                r.as_dict()
                for r in compute(
                    sdb.conn,
                    sid,
                    kind,
                    materialised=False,  # type: ignore[arg-type]
                    active_only=False,
                ).rows
            ]
            assert fast == full and fast
        before = [r.as_dict() for r in compute(sdb.conn, sid, "players").rows]
        sdb.conn.execute("UPDATE season_player_totals SET points=0")
        sdb.rebuild_totals(sid)
        assert [r.as_dict() for r in compute(sdb.conn, sid, "players").rows] == before


def test_demo_season_shows_every_match_rule(demo_season: str) -> None:
    with SeasonDB.open(demo_season) as sdb:
        sid = int(sdb.season()["id"])
        ms = sdb.matches(sid)
        assert {m["decided_by"] for m in ms} == {"points", "extra_game", "lots", "forfeit"}
        assert {m["round"] for m in ms} == {0, 1, 2, 3}
        assert all(m["status"] == "final" for m in ms)
        assert sdb.conn.execute("SELECT COUNT(*) FROM season_penalties").fetchone()[0] > 0
        assert any(t["name"] == "小当家便利店联盟队" for t in sdb.teams(sid))
        prizes = sdb.prizes(sid)
        assert len(prizes) == 6 * len(sdb.episodes(sid))
        # knockout: round r+1 is played by the winners of round r
        for rnd in (1, 2):
            winners = {m["winner"] for m in ms if m["round"] == rnd}
            nxt = {t for m in ms if m["round"] == rnd + 1 for t in (m["team_a"], m["team_b"])}
            assert nxt == winners
        from broadcast.season.demo import verify_records

        assert verify_records(sdb, sid) == sdb.conn.execute("SELECT COUNT(*) FROM season_games").fetchone()[0]


def test_one_draw_per_contestant_per_episode(season_db: str) -> None:
    sdb, sid, ta, tb, lineup = _setup(season_db)
    ep = sdb.add_episode(sid, 1)
    sdb.add_prize(sid, lineup[1], 5, "煎饼礼盒", episode_id=ep)
    with pytest.raises(SeasonError) as exc:
        sdb.add_prize(sid, lineup[1], 6, "云雾茶", episode_id=ep)
    assert exc.value.rule == "jiugongge"
