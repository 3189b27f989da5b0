"""The studio's 胜率 (broadcast/winprob): the worker process cancels an older run when a newer decision comes,
the service feeds it from the store and applies its figures, an estimate of a position gone is refused,
the history follows the game (a new game starts a new one, a decision taken back takes its point)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from broadcast.commentators.view import fresh
from broadcast.commentators.view import view as commentators_view
from broadcast.core import ActionRefused
from broadcast.obs.graphics import winprob as native
from broadcast.rehearsal import selfplay_records
from broadcast.studio import open_store
from broadcast.winprob.actions import position_key
from broadcast.winprob.service import WinprobService, job_of
from broadcast.winprob.worker import NICE

ROOT = Path(__file__).resolve().parents[2]


def _job(store: Any, playouts: int) -> dict[str, Any]:
    job = job_of(store.state, playouts)
    assert job is not None
    return job


def test_the_worker_drops_an_older_run_for_a_newer_decision(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    rec = selfplay_records(2011, "tv_match")[0]
    store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
    old = _job(store, 500_000)  # minutes of play-outs: it must not be waited for
    for line in rec.moves[:3]:
        store.dispatch("game.play", {"line": line})
    new = _job(store, 40)
    proc = subprocess.Popen(
        [sys.executable, "-m", "broadcast.winprob.worker", "--workers", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(old).encode() + b"\n")
        proc.stdin.flush()
        time.sleep(0.5)  # the older run is under way (or about to be): either way it must give way
        proc.stdin.write(json.dumps(new).encode() + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())  # the first answer is the newer position's
        assert answer["position"] == new["position"] != old["position"]
        assert answer["estimate"]["playouts"] == 40 and answer["seat"] == int(rec.moves[2].split()[0])
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0  # the end of its input ends it (and its pool)
        assert proc.stdout.read() == b""  # nothing more: the older run never answered
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        store.close()


def _wait(store: Any, moves: int, timeout: float = 120.0) -> dict[str, Any]:
    """The state once its 胜率 is of the record's position after ``moves`` decisions (waits on it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        cur = store.state["winprob"]["current"]
        if cur is not None and cur["moves"] == moves and len(store.state["game"]["record"]) == moves:
            return dict(store.state["winprob"])
        time.sleep(0.05)
    raise AssertionError(f"no 胜率 for move {moves}: {store.state['winprob']['current']}")


def test_the_service_evaluates_every_new_position_out_of_the_store(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    rec = selfplay_records(2011, "tv_match")[0]
    answers: list[dict[str, Any]] = []
    try:
        with WinprobService(store, workers=1, playouts=60, on_answer=answers.append) as svc:
            store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
            first = _wait(store, 0)
            assert first["current"]["hands"] == "known" and first["current"]["playouts"] == 60
            for line in rec.moves[:12]:
                store.dispatch("game.play", {"line": line})  # faster than the worker: runs cancelled
            wp = _wait(store, 12)
            cur = wp["current"]
            assert 0.0 <= cur["odd"] + cur["even"] + cur["level"] <= 1.0001
            assert cur["odd_ci"][0] <= cur["odd"] <= cur["odd_ci"][1]
            hist = store.state["winprob_history"]["history"]
            assert hist[0]["moves"] == 0 and hist[-1]["line"] == rec.moves[11]
            assert [h["moves"] for h in hist] == sorted({h["moves"] for h in hist})
            assert svc.errors == []
            store.dispatch("game.undo", {"reason": "录错了"})
            wp = _wait(store, 11)
            hist = store.state["winprob_history"]["history"]
            assert max(h["moves"] for h in hist) == 11  # the point of the decision taken back went
    finally:
        store.close()


def test_an_estimate_of_a_position_gone_is_refused_and_a_new_game_starts_afresh(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    a, b = selfplay_records(2011, "tv_match")[:2]
    try:
        store.dispatch("game.new", {"leader": a.leader, "hands": a.hands})
        est = {"odd": 0.6, "even": 0.3, "level": 0.1, "playouts": 10, "hands": "known", "seconds": 0.1}
        gone = position_key(store.state)
        store.dispatch("winprob.estimate", {"position": gone, "estimate": est})
        store.dispatch("game.play", {"line": a.moves[0]})
        with pytest.raises(ActionRefused) as exc:
            store.dispatch("winprob.estimate", {"position": gone, "estimate": est})
        assert exc.value.rule == "winprob"
        now = position_key(store.state)
        before = store.state
        store.dispatch("winprob.estimate", {"position": now, "estimate": est, "tags": []})
        assert [h["moves"] for h in store.state["winprob_history"]["history"]] == [0, 1]
        # what an estimate only reads is not copied (issue 25: its dispatch holds the interpreter a typed
        # decision's way to the pages needs): the record, the table and the history's earlier points are
        # the state before's own objects, unchanged
        after = store.state
        assert after["game"] is before["game"] and after["table"] is before["table"]
        assert after["winprob_history"]["history"][0] is before["winprob_history"]["history"][0]
        assert before["winprob_history"]["history"] == [after["winprob_history"]["history"][0]]
        store.dispatch("game.new", {"leader": b.leader, "hands": b.hands})
        store.dispatch("winprob.estimate", {"position": position_key(store.state), "estimate": est})
        assert [h["moves"] for h in store.state["winprob_history"]["history"]] == [0]
        # a misdeal: the same game dealt again (same game number, nothing played yet). The figures of the
        # deal gone name their deal: the graphic (pages, native) and the commentators show none of them
        # until the new deal's are in (the console's chart keys its history on the deal's digest already)
        old = store.state["winprob"]["current"]
        assert old["deal"] == store.state["table"]["deal"] == 2 and old["moves"] == 0
        store.dispatch("game.new", {"leader": a.leader, "hands": a.hands, "game_no": 2})
        st = store.state
        assert st["table"]["game_no"] == old["game_no"] and st["table"]["moves"] == 0
        assert st["table"]["deal"] == 3 and st["winprob"]["current"] == old  # not in yet
        assert not native.of_the_table(old, st["table"]) and not fresh(st)
        assert commentators_view(st)["winprob"]["history"] == []
        store.dispatch("winprob.estimate", {"position": position_key(st), "estimate": est})
        st = store.state
        assert native.of_the_table(st["winprob"]["current"], st["table"]) and fresh(st)
        assert [h["moves"] for h in commentators_view(st)["winprob"]["history"]] == [0]
        store.dispatch("winprob.on", {"on": False})
        assert job_of(store.state, 10) is None  # switched off: nothing is sent to the worker
    finally:
        store.close()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                out.append(int(d.name))
    return out


def _gone(pids: list[int], timeout: float = 60.0) -> list[int]:
    """Those of ``pids`` still alive after waiting up to ``timeout`` s for them to end (a guard)."""
    end = time.monotonic() + timeout
    alive = pids
    while alive and time.monotonic() < end:
        alive = [p for p in alive if Path(f"/proc/{p}").exists() and "(Z)" not in _state(p)]
        time.sleep(0.1)
    return alive


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "(Z)"
    return f"({stat[stat.rindex(')') + 2]})"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal: Linux")
def test_a_worker_killed_outright_leaves_no_pool_process_behind(tmp_path: Path) -> None:
    """SIGKILL gives the worker no time to close its pool: the pool's processes end with it (the kernel's
    parent-death signal), never orphans playing out a position nobody waits for."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "broadcast.winprob.worker", "--workers", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        store = open_store(tmp_path / "s.sqlite")
        rec = selfplay_records(2011, "tv_match")[0]
        store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
        proc.stdin.write(json.dumps(_job(store, 20)).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["estimate"]["playouts"] == 20  # its pool is up
        store.close()
        pool = _children(proc.pid)
        assert len(pool) >= 2
        # the worker and its pool yield the processors to the studio (issue 25: typing never slowed)
        for pid in (proc.pid, *pool):
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE)
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        proc.kill()
        proc.wait()
        assert _gone(pool) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
