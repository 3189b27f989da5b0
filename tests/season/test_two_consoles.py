"""Two tables, one season on a real PostgreSQL, played on two real operator consoles: two
``python -m broadcast console --season-db URL`` processes (Qt, offscreen; each its own show journal), every
decision typed into the console's entry line as the operator types it (``--type-from -``: key presses),
three matches each (each console closed after a match and opened again for the next, as between matches
at a real table). Along the way each console and the server are killed -9 (console 1 in its first
match, the server once table 2 has pushed three games, console 2 after its fourth); each console is
started again on its journal and the operator goes on where it stopped. At the end every game is in the
season once and is the game typed at its table (its plays, by the engine's re-check of every record), the
英雄榜 equals a recomputation from the games, and both consoles' pages show it (the 英雄榜 page in
Chromium, and the state a page gets when it connects).
The deals are ones whose play-out is short (at most :data:`PLAYS` plays, about one deal in a hundred; a median
deal has ~210): the typing is most of the test's time, and a short game is a whole game all the same.

The operator's part, as at a real table: the season match is set up on the table before the console
opens it (what the new-match dialog does: :func:`broadcast.season.live.start_match`); the 上班 seat and
each play are typed; Enter saves a finished game (the console pushes it by itself too), draws the lots or
finishes the match when the console asks for it."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import engine
from broadcast.season.actions import leaderboard_payload
from broadcast.season.backend import SeasonConn, connect
from broadcast.season.demo import verify_records
from broadcast.season.live import start_match
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import compute
from broadcast.season.scoring import decide_match
from broadcast.studio import open_store
from engine import gjn
from tests.console.process import ConsoleProcess
from tests.pgserver import TempPostgres
from tests.season.conftest import fresh_database
from tests.season.test_tables import _season  # the two-table league (甲乙丙丁队, three players each)

pytestmark = [pytest.mark.long, pytest.mark.timeout(1200)]

MATCHES = 3
PLAYS = 150  # the longest play-out a table's deal may have (see the module's docstring)
SEEDS = 10_000  # … looked for in this many seeds a game (about one deal in a hundred has so few plays)
POLL_S = 0.05  # how often the test looks at the season (one indexed row, on a connection kept open)
STALLED_S = 600.0  # one step of one table (a game typed, a push) never takes this long


class Died(Exception):
    """The console process is gone (killed by the test: it is started again)."""


def _retrying(fn: Any, what: str) -> Any:
    """``fn()``, tried again while the season's server is down (it is killed and started again); a
    failure that is not the server being away is the test's failure."""
    while True:
        try:
            return fn()
        except Exception as exc:
            if not (type(exc).__module__.startswith("psycopg") or "连不上" in str(exc)):
                raise AssertionError(f"{what}: {exc!r}") from exc
            time.sleep(0.1)


class Probe:
    """The test's own look at the season: one connection, kept open (a look costs one indexed query, not
    a new server process), opened again after a failure (the server killed and started again)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn: SeasonConn | None = None

    def rows(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            if self.conn is None:
                self.conn = connect(self.url)
            return self.conn.execute(sql, params).fetchall()
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
            self.conn = None


class Table:
    """One table: its console process, its journal, the matches it plays; driven by its own thread."""

    def __init__(self, url: str, tmp: Path, name: str, team_a: str, team_b: str, seed: int) -> None:
        self.url, self.name, self.seed = url, name, seed
        self.teams = (team_a, team_b)
        self.db = tmp / f"{name}.sqlite"
        self.ini = tmp / f"{name}.ini"
        self.proc: ConsoleProcess | None = None
        self.kills = 0
        self.starts = 0
        self.error: BaseException | None = None
        self.done = threading.Event()
        self.on = threading.Event()  # a console is up and being typed into
        self.base = ""  # its page server, as it printed it
        self.resume: tuple[int, bool, int] = (0, False, 0)  # the journal's game: number, 上班 given, plays
        self.probe = Probe(url)

    # -- the thread ------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            for k in range(1, MATCHES + 1):
                while True:
                    try:
                        self._match(k)
                        break
                    except Died:
                        continue  # killed by the test: started again on its journal
            if not self.on.is_set():  # the last match was acknowledged before a kill: its pages
                self._open()
        except BaseException as exc:  # reported by the test's thread
            self.error = exc
        finally:
            self.done.set()

    def kill(self) -> None:
        """kill -9 of the console (the test's thread), once it is up."""
        assert self.on.wait(600), f"{self.name}: no console came up"
        self.kills += 1
        assert self.proc is not None
        self.proc.kill()

    # -- one match -------------------------------------------------------------------------------
    def _label(self, k: int) -> str:
        return f"{self.name} 第{k}场"

    def _match(self, k: int) -> None:
        mid = self._set_up(k)
        if mid is None:
            return  # final in the season and acknowledged at the table
        self.resume = self._where()
        self._open()
        try:
            self._play(mid, k)
        finally:
            if self.proc is not None and (k < MATCHES or self.proc.proc.poll() is not None):
                self._close()

    def _set_up(self, k: int) -> int | None:
        """The match on the table, from its journal (the console closed): linked now if it is not yet
        (the new-match dialog's work); None when it is over and acknowledged."""
        label = self._label(k)
        store = open_store(self.db)
        try:
            link = store.state["match"]["season"]
            if link and link.get("label") == label:
                if link["final"] and not store.state["season_push"]["pending"]:
                    return None
                return int(link["match_id"])
            return int(
                _retrying(
                    lambda: start_match(store, self.url, **self._lineup(), label=label, uid=label), label
                )
            )
        finally:
            store.close()

    def _where(self) -> tuple[int, bool, int]:
        """The game on the table as its journal has it (the console closed): its number in the match,
        whether its 上班 seat was given, how many plays were recorded."""
        store = open_store(self.db)
        try:
            s = store.state
            return int(s["table"]["game_no"]), s["game"]["leader"] is not None, len(s["game"]["record"])
        finally:
            store.close()

    def _lineup(self) -> dict[str, Any]:
        with SeasonDB.open(self.url) as sdb:
            sid = int(sdb.season("联赛")["id"])
            ids = [int(sdb.team_id(sid, t) or 0) for t in self.teams]
            pa, pb = ([int(p["id"]) for p in sdb.players(sid, t)] for t in ids)
        lineup = {1: pa[0], 3: pa[1], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]}
        return {"season": sid, "episode": 1, "odd": ids[0], "even": ids[1], "lineup": lineup}

    def _open(self) -> None:
        self.proc = ConsoleProcess(self.db, self.ini)
        self.starts += 1
        self._wait_line("导播台已打开")
        found = re.search(r"(http://127\.0\.0\.1:\d+)/overlay/", "".join(self.proc.output))
        assert found, "".join(self.proc.output[-30:])
        self.base = found.group(1)
        self.on.set()

    def _close(self) -> None:
        self.on.clear()
        assert self.proc is not None
        self.proc.stop()

    def _wait_line(self, marker: str) -> str:
        assert self.proc is not None
        try:
            return self.proc.wait_for(marker, timeout=600)
        except AssertionError:
            if self.proc.proc.poll() is not None and self.kills:
                raise Died from None
            raise

    def _alive(self) -> None:
        assert self.proc is not None
        if self.proc.proc.poll() is not None:
            self.on.clear()
            if self.kills:  # only the test kills a console
                raise Died
            raise AssertionError(
                f"{self.name} exited ({self.proc.proc.returncode}):\n" + "".join(self.proc.output[-30:])
            )

    def _type(self, line: str) -> None:
        self._alive()
        assert self.proc is not None
        try:
            self.proc.type(line)
        except AssertionError:
            self._alive()
            raise

    # -- what the operator does ---------------------------------------------------------------------
    def _play(self, mid: int, k: int) -> None:
        """Until the match is final in the season and acknowledged at the table."""
        while True:
            games, final, rules = _retrying(lambda: _season_match(self.probe, mid), "the season match")
            if final:
                return
            if games:  # the games so far decide the match, or not yet
                decision = decide_match(games, 0, 0, rules=rules)
                if decision.winner is not None or decision.decided_by == "lots":
                    self._type("")  # Enter: draw the lots, or finish the match and store it
                    self._until(lambda: _retrying(lambda: _season_match(self.probe, mid)[1], "final"))
                    continue
            self._game(mid, k, len(games) + 1)

    def _game(self, mid: int, k: int, n: int) -> None:
        """Game ``n``: the 上班 seat (unless the journal shows it given) and the plays not yet in the
        journal typed, then Enter to save it once the console has pushed it by itself."""
        game = _deal(self.seed, k, n)
        lines = [str(a) for a in game.moves]
        number, led, done = self.resume
        if number != n:  # a game the console has not begun
            led, done = False, 0
        self.resume = (0, False, 0)
        for line in ([] if led else [str(game.leader)]) + lines[done:]:
            self._type(line)
        uid = f"m{mid}/g{n}"  # the game over, the console pushes it by itself: the season has it
        self._until(lambda: _retrying(lambda: _in_season(self.probe, uid), uid))
        self._type("")  # Enter: "save to the season" (it is there already: the console says so)

    def _until(self, pred: Any, pause: float = POLL_S) -> None:
        """Until ``pred()``, as long as the console runs (the bound only turns a console that stopped
        answering into a failure that shows what it said)."""
        stalled = time.monotonic() + STALLED_S
        while not pred():
            self._alive()
            if time.monotonic() > stalled:
                assert self.proc is not None
                raise AssertionError(f"{self.name}: no progress\n" + "".join(self.proc.output[-40:]))
            time.sleep(pause)


def _deal(seed: int, k: int, n: int) -> engine.Game:
    """Game ``n`` of match ``k`` at a table: a deal played out by the engine (what the players play),
    the first from its own series of seeds whose play-out has at most :data:`PLAYS` plays."""
    base = (seed * 1000 + k * 10 + n) * SEEDS
    for s in range(base, base + SEEDS):
        g = engine.new_game("tv_match", seed=s)
        engine.random_playout(g, seed=s)
        if len(g.moves) <= PLAYS:
            return g
    raise AssertionError(f"no deal of at most {PLAYS} plays in seeds {base}…{base + SEEDS - 1}")


def _season_match(probe: Probe, mid: int) -> tuple[list[tuple[int, int]], bool, str]:
    (m,) = probe.rows(
        "SELECT m.status, s.rules FROM season_matches m JOIN season_seasons s ON s.id=m.season_id "
        "WHERE m.id=?",
        (mid,),
    )
    games = probe.rows("SELECT points_a, points_b FROM season_games WHERE match_id=? ORDER BY number", (mid,))
    return [(int(g[0]), int(g[1])) for g in games], m[0] == "final", str(m[1])


def _in_season(probe: Probe, uid: str) -> bool:
    return bool(probe.rows("SELECT 1 FROM season_games WHERE uid=?", (uid,)))


def _pages_board(base: str) -> list[dict[str, object]] | None:
    """The 英雄榜 rows the studio's pages are sent (its /state.json: what a page gets when it connects)."""
    with urllib.request.urlopen(f"{base}/state.json", timeout=10) as resp:  # noqa: S310 - our own server
        state = json.loads(resp.read().decode("utf-8")).get("state", {})
    rows = state.get("leaderboard", {}).get("rows")
    return rows if isinstance(rows, list) else None


def _games_of(probe: Probe, table: str) -> int:
    try:
        (row,) = probe.rows(
            "SELECT COUNT(*) FROM season_games g JOIN season_matches m ON m.id=g.match_id "
            "WHERE m.label LIKE ?",
            (f"{table} %",),
        )
        return int(row[0])
    except Exception:  # the server is down right now
        return -1


def _wait(pred: Any, what: str, tables: list[Table]) -> None:
    """Until ``pred()``; fails at once if a table's thread has stopped with an error."""
    while not pred():
        for t in tables:
            if t.error is not None:
                raise AssertionError(f"{t.name}: {what}") from t.error
            if t.done.is_set() and not pred():
                raise AssertionError(f"{t.name} finished before: {what}")
        time.sleep(POLL_S)


# the 英雄榜 page's rows as drawn (name and points, in order) are the season's
ROWS_SHOWN = """want => JSON.stringify([...document.querySelectorAll('.leaderboard .lb-body .lb-row')]
  .map(r => [r.querySelector('.name').textContent, r.querySelector('.points').textContent]))
  === JSON.stringify(want)"""


def test_two_consoles_kill_9_of_each_and_of_postgresql_every_game_once(
    postgres: TempPostgres, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: Any
) -> None:
    url = fresh_database(postgres)
    monkeypatch.setenv("GOUJI_SEASON_DB", url)  # the consoles' --season-db
    sid = _season(url)
    probe = Probe(url)
    a = Table(url, tmp_path, "一号桌", "甲队", "乙队", 1)
    b = Table(url, tmp_path, "二号桌", "丙队", "丁队", 2)
    threads = [threading.Thread(target=t.run, name=t.name, daemon=True) for t in (a, b)]
    for th in threads:
        th.start()
    try:
        _wait(lambda: _games_of(probe, a.name) >= 2, "table 1 pushed two games", [a, b])
        a.kill()  # kill -9 of a console mid-match
        _wait(lambda: _games_of(probe, b.name) >= 3, "table 2 pushed three games", [a, b])
        postgres.kill()  # kill -9 of PostgreSQL while both consoles play and push (every connection lost)
        postgres.start()  # crash recovery
        # in its second match (three games or more each), with a game or more still to play
        _wait(lambda: _games_of(probe, b.name) >= 4, "table 2 pushed four games", [a, b])
        b.kill()
        for t, th in zip((a, b), threads, strict=True):
            th.join(1100)
            if t.error is not None:
                raise AssertionError(f"{t.name} failed") from t.error
            assert t.done.is_set(), f"{t.name} did not finish"
        assert a.kills == b.kills == 1 and a.starts >= MATCHES and b.starts >= MATCHES
        with SeasonDB.open(url) as sdb:
            matches = sdb.matches(sid)
            assert len(matches) == 2 * MATCHES and all(m["status"] == "final" for m in matches)
            seeds = {t.name: t.seed for t in (a, b)}
            for m in matches:  # every game once: numbered 1…n without a gap or a second copy, with its uid
                games = sdb.games(int(m["id"]))
                assert [g["number"] for g in games] == list(range(1, len(games) + 1)) and len(games) >= 3
                assert [g["uid"] for g in games] == [f"m{m['id']}/g{g['number']}" for g in games]
                label = re.fullmatch(r"(.+) 第(\d+)场", str(m["label"]))
                assert label, m["label"]
                table, k = label.groups()
                for g in games:  # … and it is the game typed at its table: its 上班 seat and every play
                    record, dealt = gjn.parse(str(g["gjn"])), _deal(seeds[table], int(k), int(g["number"]))
                    assert dict(record.tags)["Leader"] == str(dealt.leader), (m["label"], g["number"])
                    assert [str(x) for x in record.moves] == [str(x) for x in dealt.moves], (
                        m["label"],
                        g["number"],
                    )
            assert verify_records(sdb, sid) == sum(
                len(sdb.games(int(m["id"]))) for m in matches
            )  # the engine
            fast = [r.as_dict() for r in compute(sdb.conn, sid, "players").rows]
            full = [r.as_dict() for r in compute(sdb.conn, sid, "players", materialised=False).rows]
            assert fast == full and len(fast) == 12
            want = leaderboard_payload(sdb, sid)["rows"]
        for t in (a, b):  # both consoles' pages show the season's 英雄榜: what a page gets, what it draws
            _wait(lambda t=t: _pages_board(t.base) == want, f"{t.name}'s pages show the 英雄榜", [])
            page.goto(f"{t.base}/overlay/leaderboard.html?bus=program")
            shown = [[r["name"], str(r["points"])] for r in want]
            page.wait_for_function(ROWS_SHOWN, arg=shown, timeout=60000)
    finally:
        for t in (a, b):
            if t.proc is not None:
                t.proc.stop()
        for th in threads:
            th.join(30)
        for probe_ in (probe, a.probe, b.probe):
            probe_.close()
    for t in (a, b):  # each journal: nothing pending, nothing refused, the board the season's
        store = open_store(t.db)
        try:
            assert store.state["season_push"]["pending"] == []
            assert store.state["season_push"]["refused"] is None
            assert store.state["leaderboard"]["rows"] == want
        finally:
            store.close()
