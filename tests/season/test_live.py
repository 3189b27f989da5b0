"""The live match saved to the season: each finished game re-checked by the engine and stored once,
the 英雄榜 updated, the match made final as the table's match rules decided it (G11.2)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from broadcast.core import ActionRefused
from broadcast.season.live import finish_match, game_record, save_game, season_choices, start_match
from broadcast.season.model import SeasonDB
from broadcast.studio import open_store
from engine import new_game


def _pick(db: Path) -> dict[str, Any]:
    season = season_choices(db)["seasons"][0]
    a, b = season["teams"][0], season["teams"][1]
    lineup = {
        1: a["players"][0]["id"],
        3: a["players"][1]["id"],
        5: a["players"][2]["id"],
        2: b["players"][0]["id"],
        4: b["players"][1]["id"],
        6: b["players"][2]["id"],
    }
    return {
        "season": season["name"],
        "odd": a["id"],
        "even": b["id"],
        "lineup": lineup,
        "episode": max(season["episodes"]) + 1,
    }


def _play_game(store: Any, seed: int) -> None:
    g = new_game("tv_match", seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.push(g.random_action(rng))
    store.dispatch("game.new", {"leader": g.leader})
    for a in g.moves:
        store.dispatch("game.play", {"line": str(a)})


def _games_of(db: Path, player_id: int) -> int:
    with SeasonDB.open(db) as sdb:
        row = sdb.conn.execute(
            "SELECT games FROM season_player_totals WHERE player_id=?", (player_id,)
        ).fetchone()
    return int(row[0])


def test_a_three_game_match_is_saved_to_the_season(demo_db: Path) -> None:
    pick = _pick(demo_db)
    store = open_store(demo_db)
    try:
        before = _games_of(demo_db, pick["lineup"][1])
        mid = start_match(store, demo_db, label="表演赛", **pick)
        link = store.state["match"]["season"]
        assert link["match_id"] == mid and store.state["show"]["episode"] == f"第{pick['episode']}期"
        with pytest.raises(ActionRefused):
            save_game(store, demo_db)  # nothing finished yet (G10.4)
        for n, seed in enumerate((31, 32, 33), start=1):
            _play_game(store, seed)
            gid = save_game(store, demo_db)
            assert save_game(store, demo_db) == gid  # saved once
            assert [s["game_no"] for s in store.state["match"]["season"]["saved"]] == list(range(1, n + 1))
        store.dispatch("match.penalty", {"team": "odd", "reason": "偷看牌"})
        result = store.state["match"]["result"]
        if result["winner"] is None:  # a tie: the extra game (G11.2)
            _play_game(store, 34)
            save_game(store, demo_db)
            result = store.state["match"]["result"]
            if result["needs_lots"]:
                store.dispatch("match.lots", {"seed": 5})
        final = finish_match(store, demo_db)
        assert final["winner"] == store.state["match"]["result"]["winner"]
        assert store.state["match"]["season"]["final"]
        with SeasonDB.open(demo_db) as sdb:
            m = sdb.match(mid)
            assert m["status"] == "final" and len(sdb.games(mid)) >= 3 and len(sdb.penalties(mid)) == 1
            first = sdb.games(mid)[0]["gjn"]
        assert "[Seat1 " in first and "[Leader " in first
        # the seated players' totals and the 英雄榜 on air follow
        assert _games_of(demo_db, pick["lineup"][1]) == before + len(store.state["match"]["season"]["saved"])
        assert store.state["leaderboard"]["rows"] and store.journal.last_seq() > 0
    finally:
        store.close()


def test_a_save_interrupted_after_the_season_write_completes_without_a_second_copy(demo_db: Path) -> None:
    pick = _pick(demo_db)
    store = open_store(demo_db)
    try:
        mid = start_match(store, demo_db, **pick)
        _play_game(store, 41)
        with SeasonDB.open(demo_db) as sdb:  # the season write happened, then the process died
            sdb.record_game(mid, game_record(store.state))
        gid = save_game(store, demo_db)
        with SeasonDB.open(demo_db) as sdb:
            assert [int(g["id"]) for g in sdb.games(mid)] == [gid]
    finally:
        store.close()


def test_the_season_refuses_a_lineup_of_the_wrong_team(demo_db: Path) -> None:
    pick = _pick(demo_db)
    pick["lineup"][1], pick["lineup"][2] = pick["lineup"][2], pick["lineup"][1]
    store = open_store(demo_db)
    try:
        with pytest.raises(ActionRefused) as e:
            start_match(store, demo_db, **pick)
        assert e.value.rule == "G1.2"
        assert store.state["match"]["season"] is None
    finally:
        store.close()


def test_a_name_too_long_for_the_scoreboard_is_refused_before_the_match_is_created(demo_db: Path) -> None:
    """Issue 13: a season player whose name is longer than the scoreboard's maximum (the schema's
    table.seats[].name) is refused naming the seat's field, before a season match is created."""
    pick = _pick(demo_db)
    with SeasonDB.open(demo_db) as sdb, sdb.transaction() as c:  # a season written before the maxima
        c.execute("UPDATE season_players SET name=? WHERE id=?", ("欧阳" + "建" * 9, pick["lineup"][3]))
        matches = c.execute("SELECT COUNT(*) FROM season_matches").fetchone()[0]
    store = open_store(demo_db)
    try:
        seq = store.journal.last_seq()
        with pytest.raises(ActionRefused) as e:
            start_match(store, demo_db, **pick)
        assert e.value.rule == "text.length"
        assert "table.seats[2].name" in e.value.zh and "最多 10 个字" in e.value.zh
        assert store.journal.last_seq() == seq and store.state["match"]["season"] is None
        with pytest.raises(ActionRefused) as e2:  # the round's words too (show.round)
            start_match(store, demo_db, **{**pick, "label": "第一届够级大明星表演赛"})
        assert "show.round" in e2.value.zh
    finally:
        store.close()
    with SeasonDB.open(demo_db) as sdb:
        assert sdb.conn.execute("SELECT COUNT(*) FROM season_matches").fetchone()[0] == matches
