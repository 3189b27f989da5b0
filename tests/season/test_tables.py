"""Tables sharing one season: a studio's board follows a game another table recorded (NOTIFY); what a
table finishes is queued before it can go on (also after a kill -9); two tables starting one episode
share it. (Two real consoles playing into one PostgreSQL season, killed along the way:
``test_two_consoles.py``.)"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.season.actions import leaderboard_payload
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.push import SeasonLink
from broadcast.studio import open_store
from tests.season.conftest import selfplay

TEAMS = {
    "甲队": "张一 张二 张三",
    "乙队": "李一 李二 李三",
    "丙队": "王一 王二 王三",
    "丁队": "赵一 赵二 赵三",
}


def _season(url: str) -> int:
    with SeasonDB.open(url) as sdb:
        sid = sdb.create_season("联赛", title="两桌联赛")
        for team, names in TEAMS.items():
            tid = sdb.add_team(sid, team)
            for n in names.split():
                sdb.add_player(sid, n, team_id=tid)
    return sid


def _wait(pred: Callable[[], object], what: str, limit: float) -> None:
    deadline = time.monotonic() + limit
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.1)


def test_a_studio_board_follows_a_game_another_table_recorded(pg_url: str, tmp_path: Path) -> None:
    sid = _season(pg_url)
    store = open_store(tmp_path / "studio.sqlite")
    link = SeasonLink(store, pg_url).start()
    try:
        with SeasonDB.open(pg_url) as sdb:  # another table records a match's first game
            ids = {t["name"]: int(t["id"]) for t in sdb.teams(sid)}
            pa = [int(p["id"]) for p in sdb.players(sid, ids["甲队"])]
            pb = [int(p["id"]) for p in sdb.players(sid, ids["乙队"])]
            lineup = {1: pa[0], 3: pa[1], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]}
            mid = sdb.create_match(sid, ids["甲队"], ids["乙队"], lineup)
            before = leaderboard_payload(sdb, sid)["rows"]
            # the studio has put the season up as it was (its first look, once it listens): what follows
            # can only come from the season's NOTIFY
            _wait(lambda: store.state["leaderboard"]["rows"] == before, "the board put up", 60)
            sdb.record_game(mid, selfplay("follow-1")[0])
            want = leaderboard_payload(sdb, sid)["rows"]
        assert want and want != before
        _wait(lambda: store.state["leaderboard"]["rows"] == want, "the board followed the season", 60)
    finally:
        link.stop()
        store.close()
    assert os.path.exists(tmp_path / "studio.sqlite")


def test_a_game_is_queued_when_it_ends_even_while_the_pusher_is_busy(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two-tables test once lost a game: table 1's pusher was still pushing the last match (the
    season just back after its kill -9) while the table ended game 1 of the next match and began game 2
    — the pusher, looking afterwards, never saw the game over, and game 2 was refused (season has 0
    games). A finished game is queued in the thread that ended it, before the next can begin."""
    import broadcast.season.push as push
    from broadcast.season.live import start_match
    from tests.season.test_live import _pick, _play_game

    busy, release = threading.Event(), threading.Event()
    real_push = push.push_pending

    def held(store, sdb):  # type: ignore[no-untyped-def]
        busy.set()
        release.wait(60)
        return real_push(store, sdb)

    monkeypatch.setattr(push, "push_pending", held)
    store = open_store(demo_db)
    link = SeasonLink(store, demo_db, follow=False).start()
    try:
        mid = start_match(store, demo_db, label="快手桌", **_pick(demo_db))
        _play_game(store, 41)
        busy.wait(60)  # the pusher holds game 1 (being pushed) ...
        _play_game(store, 42)  # ... while the table plays game 2 to its end and at once ...
        store.dispatch("game.new", {"seed": 43})  # ... begins game 3
        queued = [p["uid"] for p in store.state["season_push"]["pending"]]
        assert queued == [f"m{mid}/g1", f"m{mid}/g2"]
        release.set()
        assert link.wait_pushed(f"m{mid}/g2", 60)
    finally:
        release.set()
        link.stop()
        store.close()
    with SeasonDB.open(demo_db) as sdb:
        assert [g["uid"] for g in sdb.games(mid)] == [f"m{mid}/g1", f"m{mid}/g2"]
    assert store.state["season_push"]["refused"] is None


def test_a_game_over_at_a_kill_is_queued_before_the_table_goes_on(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 of a table between a game's last play (journaled) and its ``season.queue``: started again,
    the table begins the next game at once. The link queues the finished game as it starts, in the
    table's thread — its pusher, looking later, would find the next game on the table and the game
    over would never reach the season (and the next be refused)."""
    import broadcast.season.push as push
    from broadcast.season.live import start_match
    from tests.season.test_live import _pick, _play_game

    store = open_store(demo_db)
    try:
        mid = start_match(store, demo_db, label="快手桌", **_pick(demo_db))
        _play_game(store, 41)  # no link running: the game is over and not queued (as after a kill)
        assert store.state["table"]["phase"] == "over" and store.state["season_push"]["pending"] == []
        late = threading.Event()
        real_pusher = push.SeasonLink._pusher

        def slow_pusher(self):  # type: ignore[no-untyped-def]
            late.wait(60)  # the pusher thread gets a core only after the table went on
            real_pusher(self)

        monkeypatch.setattr(push.SeasonLink, "_pusher", slow_pusher)
        link = SeasonLink(store, demo_db, follow=False).start()
        try:
            store.dispatch("game.new", {"seed": 42})  # the table goes on at once
            assert [p["uid"] for p in store.state["season_push"]["pending"]] == [f"m{mid}/g1"]
            late.set()
            assert link.wait_pushed(f"m{mid}/g1", 60)
        finally:
            late.set()
            link.stop()
    finally:
        store.close()
    with SeasonDB.open(demo_db) as sdb:
        assert [g["uid"] for g in sdb.games(mid)] == [f"m{mid}/g1"]


def test_two_tables_starting_the_same_episode_at_once_share_it(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two-tables test once lost a table: both started their first match of 第1期 together, both found
    the episode missing, and the second insert was refused (第1期已存在) — the table died. The table whose
    insert comes second takes the episode the other made."""
    from broadcast.season.live import start_match
    from tests.season.test_live import _pick

    pick = _pick(demo_db)
    with SeasonDB.open(demo_db) as sdb:  # the other table made the episode a moment ago ...
        sid = int(sdb.season(pick["season"])["id"])
        made = sdb.add_episode(sid, pick["episode"])
    real = SeasonDB.episode
    looks: list[int] = []

    def not_yet(self, season_id, number):  # type: ignore[no-untyped-def]
        looks.append(number)
        if len(looks) == 1:  # ... after this table's first look found nothing
            raise SeasonError("episode", "没有这一期", "no such episode")
        return real(self, season_id, number)

    monkeypatch.setattr(SeasonDB, "episode", not_yet)
    store = open_store(demo_db)
    try:
        mid = start_match(store, demo_db, label="二号桌 第1场", **pick)
    finally:
        store.close()
    with SeasonDB.open(demo_db) as sdb:
        assert int(sdb.match(mid)["episode_id"]) == made
        assert [int(e["number"]) for e in sdb.episodes(sid)].count(pick["episode"]) == 1


@pytest.mark.long
@pytest.mark.timeout(900)
def test_season_table_killed_and_started_again_plays_its_match_once(tmp_path: Path) -> None:
    """``season table`` (a table played out by the engine into a shared season): killed -9 once it has
    pushed a game and started again with the same arguments, it finishes its match — every game in the
    season once, the match final, the table's board the season's."""
    import signal
    import subprocess
    import sys

    season = tmp_path / "season.sqlite"
    sid = _season(str(season))
    cmd = [sys.executable, "-m", "broadcast", "season", "table", "--db", str(tmp_path / "t.sqlite")]
    cmd += ["--season-db", str(season), "--table", "一号桌", "--team-a", "甲队", "--team-b", "乙队"]
    # ~0.4 s of pace a game (on top of its work): the kill still falls mid-match (asserted below)
    cmd += ["--matches", "1", "--seed", "3", "--pace", "0.002"]

    def games() -> int:
        with SeasonDB.open(season) as sdb:
            return int(sdb.conn.execute("SELECT COUNT(*) FROM season_games").fetchone()[0])

    table = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        while games() < 1:
            assert table.poll() is None, table.communicate()[0]
            time.sleep(0.1)
        table.send_signal(signal.SIGKILL)
        table.wait()
        assert table.returncode == -signal.SIGKILL, table.communicate()[0]  # killed, not finished
        with SeasonDB.open(season) as sdb:  # … in the middle of its match
            assert [m["status"] for m in sdb.matches(sid)] != ["final"]
        again = subprocess.run(cmd, capture_output=True, text=True, timeout=800)
        assert again.returncode == 0, again.stdout + again.stderr
        assert re.search(
            r"^一号桌 第1场: \d+:\d+，胜方 winner [甲乙]队（(比分|加赛|抽签)）$", again.stdout, re.M
        ), again.stdout
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
    with SeasonDB.open(season) as sdb:
        (m,) = sdb.matches(sid)
        assert m["status"] == "final" and m["label"] == "一号桌 第1场"
        played = sdb.games(int(m["id"]))
        assert [g["number"] for g in played] == list(range(1, len(played) + 1)) and len(played) >= 3
        assert [g["uid"] for g in played] == [f"m{m['id']}/g{g['number']}" for g in played]
        want = leaderboard_payload(sdb, sid)["rows"]
    store = open_store(tmp_path / "t.sqlite")
    try:
        assert store.state["season_push"]["pending"] == [] and store.state["leaderboard"]["rows"] == want
    finally:
        store.close()


def test_a_push_the_season_cannot_take_now_is_said_once_in_both_languages_and_tried_again(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The season away (a server restarting): the operator's terminal says so once, in Chinese and
    English (it said "season push: …; retrying"), and the game is pushed once the season is back."""
    import logging

    import broadcast.season.push as push
    from broadcast.season.live import start_match
    from tests.season.test_live import _pick, _play_game

    real_push = push.push_pending
    away = [2]  # the first two tries find the season away

    def flaky(store, sdb):  # type: ignore[no-untyped-def]
        if away[0]:
            away[0] -= 1
            raise ConnectionError("server closed the connection unexpectedly")
        return real_push(store, sdb)

    monkeypatch.setattr(push, "push_pending", flaky)
    monkeypatch.setattr(push, "RETRY_S", (0.01,))
    store = open_store(demo_db)
    link = SeasonLink(store, demo_db, follow=False).start()
    try:
        with caplog.at_level(logging.WARNING, logger=push.log.name):
            mid = start_match(store, demo_db, label="快手桌", **_pick(demo_db))
            _play_game(store, 41)
            assert link.wait_pushed(f"m{mid}/g1", 60)
    finally:
        link.stop()
        store.close()
    said = [r.getMessage() for r in caplog.records if r.name == push.log.name]
    assert said == [
        "赛季暂未确认，稍后重试 / the season has not acknowledged yet, retrying: "
        "server closed the connection unexpectedly"
    ]
    assert link.errors == 2
    with SeasonDB.open(demo_db) as sdb:
        assert [g["uid"] for g in sdb.games(mid)] == [f"m{mid}/g1"]
