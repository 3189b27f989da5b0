"""Two tables, one season on a real PostgreSQL: two real ``season table`` processes (each its own show
journal, three matches each) push into one season while each of them and the server are killed -9 along
the way; every game is in the season once, the 英雄榜 equals a recomputation from the games, and both
tables' boards (what their pages are sent) show it. A studio's board follows a game another table
recorded (NOTIFY)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.season.actions import leaderboard_payload
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.push import SeasonLink
from broadcast.season.rankings import compute
from broadcast.studio import open_store
from tests.pgserver import TempPostgres
from tests.season.conftest import fresh_database, selfplay

ROOT = Path(__file__).resolve().parents[2]
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


def _table(url: str, tmp: Path, name: str, a: str, b: str, seed: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "broadcast", "season", "table", "--db", str(tmp / f"{name}.sqlite")]
    cmd += ["--season-db", url, "--table", name, "--team-a", a, "--team-b", b, "--matches", "3"]
    cmd += ["--seed", str(seed), "--pace", "0.004"]
    log = open(tmp / f"{name}.log", "a", encoding="utf-8")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True)


def _games_of(pg: TempPostgres, url: str, table: str) -> int:
    try:
        with SeasonDB.open(url) as sdb:
            row = sdb.conn.execute(
                "SELECT COUNT(*) FROM season_games g JOIN season_matches m ON m.id=g.match_id "
                "WHERE m.label LIKE ?",
                (f"{table} %",),
            ).fetchone()
            return int(row[0])
    except Exception:  # the server is down right now
        return -1


def _wait(
    pred: Callable[[], object], what: str, limit: float = 300.0, table: subprocess.Popen[str] | None = None
) -> None:
    """Until ``pred()``. Waiting on a ``table``: as long as it plays (a loaded machine only makes it
    slower; the test's own time limit is the bound) — it fails at once if the table has stopped."""
    deadline = time.monotonic() + limit
    while not pred():
        if table is not None:
            if table.poll() is not None and not pred():
                log = Path(table.args[table.args.index("--db") + 1]).with_suffix(".log")
                raise AssertionError(f"{what}: the table stopped ({table.returncode})\n{_tail(log)}")
        elif time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.1)


def _tail(log: Path) -> str:
    return log.read_text(encoding="utf-8")[-3000:] if log.exists() else ""


@pytest.mark.long
@pytest.mark.timeout(900)
def test_two_tables_kill_9_of_each_and_of_postgresql_every_game_once(
    postgres: TempPostgres, tmp_path: Path
) -> None:
    url = fresh_database(postgres)
    sid = _season(url)
    a = _table(url, tmp_path, "一号桌", "甲队", "乙队", 1)
    b = _table(url, tmp_path, "二号桌", "丙队", "丁队", 2)
    try:
        _wait(lambda: _games_of(postgres, url, "一号桌") >= 2, "table 1 pushed two games", table=a)
        a.send_signal(signal.SIGKILL)  # kill -9 of a console mid-match
        a.wait()
        a = _table(url, tmp_path, "一号桌", "甲队", "乙队", 1)
        _wait(lambda: _games_of(postgres, url, "二号桌") >= 3, "table 2 pushed three games", table=b)
        postgres.kill()  # kill -9 of PostgreSQL while both tables play and push
        time.sleep(1.5)
        postgres.start()
        _wait(lambda: _games_of(postgres, url, "二号桌") >= 5, "table 2 pushed five games", table=b)
        b.send_signal(signal.SIGKILL)
        b.wait()
        b = _table(url, tmp_path, "二号桌", "丙队", "丁队", 2)
        assert a.wait(timeout=600) == 0, (tmp_path / "一号桌.log").read_text(encoding="utf-8")[-2000:]
        assert b.wait(timeout=600) == 0, (tmp_path / "二号桌.log").read_text(encoding="utf-8")[-2000:]
    finally:
        for p in (a, b):
            if p.poll() is None:
                p.kill()
                p.wait()
    with SeasonDB.open(url) as sdb:
        matches = sdb.matches(sid)
        assert len(matches) == 6 and all(m["status"] == "final" for m in matches)
        for m in matches:  # every game once: numbered 1…n without a gap or a second copy, each with its uid
            games = sdb.games(int(m["id"]))
            assert [g["number"] for g in games] == list(range(1, len(games) + 1)) and len(games) >= 3
            assert [g["uid"] for g in games] == [f"m{m['id']}/g{g['number']}" for g in games]
        fast = [r.as_dict() for r in compute(sdb.conn, sid, "players").rows]
        full = [r.as_dict() for r in compute(sdb.conn, sid, "players", materialised=False).rows]
        assert fast == full and len(fast) == 12
        want = leaderboard_payload(sdb, sid)["rows"]
    # both studios' pages show it: each table's studio (``run`` on the table's own journal and the
    # season) serves its pages the season's 英雄榜; each journal holds every game it played, acknowledged
    studios = {name: _studio(url, tmp_path, name) for name in ("一号桌", "二号桌")}
    try:
        for name, proc in studios.items():
            base = _served_at(proc, tmp_path / f"{name}.run.log")
            _wait(lambda base=base: _pages_board(base) == want, f"{name}'s pages show the 英雄榜", 120)
    finally:
        for proc in studios.values():
            proc.send_signal(signal.SIGINT)  # Ctrl-C
        for name, proc in studios.items():
            assert proc.wait(timeout=120) == 0, (tmp_path / f"{name}.run.log").read_text(encoding="utf-8")
    for name in studios:
        store = open_store(tmp_path / f"{name}.sqlite")
        try:
            assert store.state["season_push"]["pending"] == []
            assert store.state["season_push"]["refused"] is None
            assert store.state["leaderboard"]["rows"] == want
        finally:
            store.close()


def _studio(url: str, tmp: Path, name: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "broadcast", "run", "--headless", "--no-obs", "--no-rehearsal"]
    cmd += ["--db", str(tmp / f"{name}.sqlite"), "--season-db", url, "--port", "0"]
    cmd += ["--commentators-port", "-1", "--winprob-workers", "0"]  # the pages only (no fixed port 8620)
    log = open(tmp / f"{name}.run.log", "w", encoding="utf-8")  # noqa: SIM115 - closed with the process
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)


def _served_at(proc: subprocess.Popen[str], log: Path) -> str:
    """The studio's page server (``http://127.0.0.1:PORT``), once the studio is on (its start done)."""
    found: list[str] = []

    def said() -> bool:
        text = log.read_text(encoding="utf-8")
        m = re.search(r"(http://127\.0\.0\.1:\d+)/overlay/program\.html", text)
        if m and "the studio is on" in text:
            found.append(m.group(1))
        assert proc.poll() is None, text
        return bool(found)

    _wait(said, "the studio serves its pages", 120)
    return found[-1]


def _pages_board(base: str) -> list[dict[str, object]] | None:
    """The 英雄榜 rows the studio's pages are sent (its /state.json: what a page gets when it connects)."""
    with urllib.request.urlopen(f"{base}/state.json", timeout=10) as resp:  # noqa: S310 - our own server
        state = json.loads(resp.read().decode("utf-8")).get("state", {})
    rows = state.get("leaderboard", {}).get("rows")
    return rows if isinstance(rows, list) else None


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
            sdb.record_game(mid, selfplay("follow-1")[0])
            want = leaderboard_payload(sdb, sid)["rows"]
        assert want
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
