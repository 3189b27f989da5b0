"""A season match's lineup corrected mid-match (SQLite and PostgreSQL): the games already in the season
move to the players who played them, records re-checked by the engine, and the 英雄榜 equals a
recomputation; what would make the record inconsistent is refused naming the clause (G1.1, G1.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.rankings import compute
from engine import gjn
from tests.season.conftest import selfplay

A_NAMES = ["张三", "李四", "王五", "钱十"]  # the fourth sits out (a substitute)
B_NAMES = ["赵六", "孙七", "周八"]


def _ranking(sdb: SeasonDB, sid: int) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The 英雄榜 from the totals kept up to date, and recomputed from the games."""
    kept = [r.as_dict() for r in compute(sdb.conn, sid, "players", active_only=False).rows]  # type: ignore[attr-defined]
    full = compute(sdb.conn, sid, "players", materialised=False, active_only=False).rows
    return kept, [r.as_dict() for r in full]  # type: ignore[attr-defined]


def test_a_lineup_keyed_wrong_is_corrected_with_the_games_already_in_the_season(season_db: str) -> None:
    with SeasonDB.open(season_db) as sdb:
        sid = sdb.create_season("测试季")
        ta, tb = sdb.add_team(sid, "小当家便利店联盟队"), sdb.add_team(sid, "沂河源矿泉水队")
        pa = [sdb.add_player(sid, n, team_id=ta) for n in A_NAMES]
        pb = [sdb.add_player(sid, n, team_id=tb) for n in B_NAMES]
        # keyed wrong: 张三 and 李四 exchanged (seats 1 and 3)
        wrong = {1: pa[1], 3: pa[0], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]}
        mid = sdb.create_match(sid, ta, tb, wrong)
        names = {s: r["name"] for s, r in sdb.lineup(mid).items()}
        sdb.record_game(mid, selfplay("fix-1", names)[0])
        seat1_points = int(
            sdb.conn.execute(
                "SELECT points FROM season_game_seats s JOIN season_games g ON g.id=s.game_id "
                "WHERE g.match_id=? AND s.seat=1",
                (mid,),
            ).fetchone()[0]
        )
        right = dict(wrong)
        right[1], right[3] = pa[0], pa[1]

        refusals = [  # (lineup, keyword arguments, the clause)
            ({**right, 3: pa[0]}, {}, "G1.1"),  # 张三 in two seats
            ({**right, 2: pa[3]}, {}, "G1.2"),  # 钱十 is not on the even seats' team
            (right, {"odd": tb, "even": ta}, "G1.2"),  # the sides, with game 1 counted for them
            (right, {"odd": ta, "even": sdb.add_team(sid, "第三队")}, "G1.2"),  # not the match's team
            (wrong, {}, "season"),  # nothing changed
            (right, {"from_game": 3}, "season"),  # the season has one game: from game 1 or 2
        ]
        for lineup, kw, rule in refusals:
            with pytest.raises(SeasonError) as exc:
                sdb.correct_lineup(mid, lineup, "座位录错", **kw)  # type: ignore[arg-type]
            assert exc.value.rule == rule, (lineup, kw, exc.value.zh)
        with pytest.raises(SeasonError, match="原因"):
            sdb.correct_lineup(mid, right, "  ")
        assert sdb.corrections(mid) == []

        done = sdb.correct_lineup(mid, right, "座位录错", uid="m1/c1")
        assert done.games == (1,) and done.before[2:] == tuple(wrong[s] for s in range(1, 7))
        assert {s: int(r["id"]) for s, r in sdb.lineup(mid).items()} == right
        # game 1 credits the players who played it: seat 1's points are 张三's now, the record says so
        owner = sdb.conn.execute(
            "SELECT player_id FROM season_game_seats s JOIN season_games g ON g.id=s.game_id "
            "WHERE g.match_id=? AND s.seat=1",
            (mid,),
        ).fetchone()[0]
        assert int(owner) == pa[0]
        record = gjn.parse(sdb.games(mid)[0]["gjn"])
        assert record.names()[1] == "张三" and record.names()[3] == "李四" and record.names()[2] == "赵六"
        totals = {
            int(r[0]): int(r[1])
            for r in sdb.conn.execute("SELECT player_id, points FROM season_player_totals").fetchall()
        }
        assert totals[pa[0]] == seat1_points
        kept, full = _ranking(sdb, sid)
        assert kept == full and kept
        row = sdb.corrections(mid)[0]
        assert row["reason"] == "座位录错" and json.loads(row["games"]) == [1]
        assert done.correction_id == int(row["id"])  # the answer names the season's row of it
        assert sdb.correct_lineup(mid, right, "座位录错", uid="m1/c1") == done  # pushed again: once
        assert len(sdb.corrections(mid)) == 1

        # the next game is recorded under the corrected lineup; then a substitution from game 3 keeps
        # games 1–2 with who played them
        names = {s: r["name"] for s, r in sdb.lineup(mid).items()}
        sdb.record_game(mid, selfplay("fix-2", names)[0])
        sub = {**right, 5: pa[3]}
        assert sdb.correct_lineup(mid, sub, "选手换人（裁判允许）", from_game=3).games == ()
        played = sdb.conn.execute(
            "SELECT COUNT(*) FROM season_game_seats WHERE player_id=?", (pa[3],)
        ).fetchone()[0]
        assert played == 0
        sdb.record_game(mid, selfplay("fix-3", {**names, 5: "钱十"})[0])
        kept, full = _ranking(sdb, sid)
        assert kept == full
        sdb.finish_match(mid)
        with pytest.raises(SeasonError, match="已结束"):
            sdb.correct_lineup(mid, right, "座位录错")


def test_the_sides_exchanged_before_the_first_game(season_db: str) -> None:
    with SeasonDB.open(season_db) as sdb:
        sid = sdb.create_season("测试季")
        ta, tb = sdb.add_team(sid, "甲队"), sdb.add_team(sid, "乙队")
        pa = [sdb.add_player(sid, n, team_id=ta) for n in A_NAMES[:3]]
        pb = [sdb.add_player(sid, n, team_id=tb) for n in B_NAMES]
        mid = sdb.create_match(sid, ta, tb, {1: pa[0], 3: pa[1], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]})
        swapped = {1: pb[0], 3: pb[1], 5: pb[2], 2: pa[0], 4: pa[1], 6: pa[2]}
        with pytest.raises(SeasonError) as exc:
            sdb.correct_lineup(mid, swapped, "队伍坐反")  # the even team's players on the odd seats
        assert exc.value.rule == "G1.2"
        done = sdb.correct_lineup(mid, swapped, "队伍坐反", odd=tb, even=ta)
        m = sdb.match(mid)
        assert (m["team_a"], m["team_b"]) == (tb, ta) and done.after[:2] == (tb, ta)


def test_the_table_follows_the_correction_and_it_can_be_undone(demo_db: Path) -> None:
    """At the table: the season corrects (game 1, already saved, with it), the journaled season.lineup puts
    the names, photos and teams on the table and in the game's history; the same correction back undoes
    it; a game still on its way to the season is waited for."""
    from broadcast.core import ActionRefused
    from broadcast.season.actions import leaderboard_payload
    from broadcast.season.lineup import correct_lineup
    from broadcast.season.live import start_match
    from broadcast.studio import open_store
    from tests.season.test_live import _pick

    pick = _pick(demo_db)
    right = dict(pick["lineup"])
    pick["lineup"][1], pick["lineup"][3] = right[3], right[1]  # keyed wrong
    store = open_store(demo_db)
    try:
        mid = start_match(store, demo_db, **pick)
        wrong_names = [s["name"] for s in store.state["table"]["seats"]]
        with SeasonDB.open(demo_db) as sdb:  # game 1 in the season under the lineup keyed wrong
            text = selfplay("table-1", dict(enumerate(wrong_names, start=1)))[0]
            store.dispatch("season.game_saved", {"game_no": 1, "game_id": sdb.record_game(mid, text)})
        store.dispatch("season.queue", {"uid": "m0/x", "kind": "game", "match_id": mid})  # on its way
        with pytest.raises(ActionRefused, match="m0/x"):
            correct_lineup(store, demo_db, lineup=right, reason="座位录错")
        store.dispatch("season.pushed", {"uid": "m0/x"})
        store.dispatch("leaderboard.set", {"title": "英雄榜", "season": "", "rows": []})
        done = correct_lineup(store, demo_db, lineup=right, reason="座位录错")
        assert done.games == (1,)
        names = [s["name"] for s in store.state["table"]["seats"]]
        assert names[0] == wrong_names[2] and names[2] == wrong_names[0] and names[1:2] == wrong_names[1:2]
        last = store.state["game"]["history"][-1]
        assert last["kind"] == "setup" and last["reason"] == "座位录错" and last["before"][:6] == wrong_names
        assert last["lineup"][2:] == [pick["lineup"][s] for s in range(1, 7)] and "第1局" in last["line"]
        with SeasonDB.open(demo_db) as sdb:  # the 英雄榜 on air follows the season's, equal to a recount
            sid = int(store.state["match"]["season"]["season_id"])
            kept, full = _ranking(sdb, sid)
            assert kept == full
            assert store.state["leaderboard"]["rows"] == leaderboard_payload(sdb, sid, top=10)["rows"] != []
        # Ctrl+Z's way: the same correction back, from the same game, with its own reason
        before = dict(zip(range(1, 7), last["lineup"][2:], strict=True))
        correct_lineup(store, demo_db, lineup=before, reason="撤销更正：更正错了", undo=True)
        assert [s["name"] for s in store.state["table"]["seats"]] == wrong_names
        assert store.state["game"]["history"][-1]["new_line"] == "undo"
    finally:
        store.close()
