"""The overlay's 英雄榜 fed from the season database through the journaled leaderboard.set action."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.core import ActionRefused
from broadcast.season.actions import leaderboard_payload, push_leaderboard
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import compute
from broadcast.studio import open_store


def test_push_leaderboard_matches_the_ranking_and_survives_reopen(demo_db: Path) -> None:
    store = open_store(demo_db)  # the same project file: journal and season tables
    seen = []
    store.subscribe(lambda ch: seen.append(ch))
    with SeasonDB.open(demo_db) as sdb:
        ch = push_leaderboard(store, sdb, top=10)
        want = compute(sdb.conn, int(sdb.season()["id"]), "players").rows[:10]
    lb = ch.state["leaderboard"]
    assert [(r["rank"], r["name"], r["points"], r["tied"]) for r in lb["rows"]] == [
        (r.rank, r.name, r.points, r.tied) for r in want
    ]
    assert lb["sponsor"] == "鲁信汽车城" and lb["as_of"] == "第15期后" and "第一季" in lb["season"]
    assert seen and seen[-1].changed == frozenset({"leaderboard"})
    store.close()
    again = open_store(demo_db)
    assert again.state["leaderboard"] == lb
    again.close()


def test_team_board_and_refusals(demo_db: Path) -> None:
    store = open_store(demo_db)
    with SeasonDB.open(demo_db) as sdb:
        p = leaderboard_payload(sdb, kind="teams", top=8)
    assert len(p["rows"]) == 8 and p["kind"] == "teams"
    store.dispatch("leaderboard.set", p)
    before = store.seq
    for bad in (
        {"rows": "x"},
        {"rows": [{"name": "甲", "charm": 1}]},
        {"rows": [{"name": "甲", "points": "9"}]},
        {"rows": [{"rank": 1}]},
        {"rows": [], "colour": "red"},
        {"rows": [], "kind": "fans"},
    ):
        with pytest.raises(ActionRefused) as exc:
            store.dispatch("leaderboard.set", bad)
        assert exc.value.rule == "leaderboard"
    assert store.seq == before
    store.dispatch("leaderboard.set", {"rows": [{"name": "<b>王</b>", "points": 3}]})  # text, ≤ 10 characters
    assert store.state["leaderboard"]["rows"][0]["name"] == "<b>王</b>"
    store.close()


def test_cli_push(demo_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.sqlite"
    shutil.copy(demo_db, db)
    assert cli(["season", "push", "--db", str(db), "--top", "5"]) == 0
    store = open_store(db)
    assert len(store.state["leaderboard"]["rows"]) == 5
    store.close()
