"""The README's run command: the studio on a demo season, without OBS running (and saying so), restarted
on the same file, and on a full disk."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.disk import fill, small_disk

ROOT = Path(__file__).resolve().parent.parent


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(db: Path, obs_port: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GOUJI_OBS_HOST="127.0.0.1", GOUJI_OBS_PORT=str(obs_port))
    env.pop("GOUJI_OBS_SETTINGS", None)
    for var in ("DISPLAY", "WAYLAND_DISPLAY"):  # no screen: run says so and runs headless
        env.pop(var, None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "run",
            "--db",
            str(db),
            "--port",
            "0",
            "--pace",
            "0",
            "--quick",
            "--exit-when-done",
            *("--winprob-workers", "0", "--commentators-port", "-1"),  # no 胜率 workers: not checked here
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def _get_state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as resp:  # noqa: S310 - the test's own local server
        return dict(json.loads(resp.read().decode("utf-8")))


@pytest.mark.long
def test_run_without_obs_plays_the_demo_match_and_recovers_on_restart_on_a_full_disk(tmp_path: Path) -> None:
    """Two starts on one file, each playing the whole demo match (issue 13's full disk is the second's):
    the first builds the demo season and plays without OBS; the second, on a disk filled to its last
    byte, replays the journal (no second season), serves the last state while every write is refused,
    and writes once space is back."""
    with small_disk(16384) as disk:
        db = disk / "studio.sqlite"
        first = _run(db, _closed_port())
        assert first.returncode == 0, first.stderr
        out = first.stdout
        assert "没有图形显示" in out and out.count("running the headless studio") == 1
        assert "OBS 未连接" in out and "OBS not connected" in out
        assert "没有程序在监听" in out and "nothing listening" in out  # the real reason, not a generic line
        assert "/overlay/program.html" in out and "/overlay/preview.html" in out
        assert "演示赛季已建立" in out
        assert "彩排完成" in out
        conn = sqlite3.connect(db)
        plays = conn.execute("SELECT COUNT(*) FROM journal WHERE type='game.play'").fetchone()[0]
        games = conn.execute("SELECT COUNT(*) FROM journal WHERE type='game.new'").fetchone()[0]
        rows = conn.execute("SELECT kind, subject, source FROM asrun_events ORDER BY id").fetchall()
        first_seq = conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
        conn.close()
        assert games == 3 and plays > 300
        # without OBS nothing was seen to air: the as-run says why (an outage, nothing listening), credits
        # no graphic, and the episode has its start and its end (a clean stop)
        kinds = [k for k, _s, _src in rows]
        assert ("obs_down", "unreachable", "obs") in rows
        assert not {"graphic_on", "program_scene", "film_start"} & set(kinds)
        assert kinds.count("episode_start") == 1 and kinds[-1] == "episode_end"
        # a second start on the same file, its disk full: it replays the journal and does not rebuild the
        # season, serves the last state, applies nothing while the disk refuses, and goes on once it takes
        filler = fill(disk)
        proc = subprocess.Popen(
            [sys.executable, "-m", "broadcast", "run", "--db", str(db), "--no-obs", "--port", "0"]
            + ["--pace", "0", "--quick", "--exit-when-done"]
            + ["--winprob-workers", "0", "--commentators-port", "-1"],  # no 胜率 workers: not checked here
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        assert proc.stdout is not None and proc.stderr is not None
        lines: list[str] = []
        base = ""
        try:
            for line in proc.stdout:
                lines.append(line)
                m = re.search(r"(http://127\.0\.0\.1:\d+)/overlay/program\.html", line)
                if m:
                    base = m.group(1)
                if "写入失败 write refused:" in line:  # the rehearsal's first play is refused
                    break
            assert base, "".join(lines)
            refused = [ln for ln in lines if "写入失败" in ln]
            assert refused and all("the disk is full" in ln and str(db) in ln for ln in refused)
            state = _get_state(f"{base}/state.json")  # still on air, with the last state
            seq = state["seq"]
            time.sleep(1.0)
            assert _get_state(f"{base}/state.json")["seq"] == seq  # nothing applied while refused
            filler.unlink()  # space again: the refused writes go through, the rehearsal goes on
            rest, err = proc.communicate(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        out = "".join(lines) + rest
        assert proc.returncode == 0, err
        assert "Traceback" not in err + out
        assert "日志恢复到" in out and "演示赛季已建立" not in out
        assert "写入恢复 writes work again" in out and "彩排完成" in out
        journal = sqlite3.connect(db).execute("SELECT COUNT(*), MAX(seq) FROM journal").fetchone()
        assert journal[0] == journal[1] and journal[0] > first_seq + 300  # every play journaled, no seq gap


def test_run_refuses_a_bad_air_date_in_one_line(tmp_path: Path) -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "run",
            "--db",
            str(tmp_path / "x.sqlite"),
            "--air-date",
            "2012-13-40",
            "--no-obs",
            "--port",
            "0",
            "--exit-when-done",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert "2012-13-40" in r.stderr and "Traceback" not in r.stderr


def test_rehearsal_take_keeps_the_corner_bug_on_program_and_the_board_follows_the_jiugongge_at_once(
    tmp_path: Path,
) -> None:
    """docs/sponsorship.md: the 独家特约 corner bug is on screen for the whole broadcast — the
    scoreboard's TAKE from preview must not drop it from program. The finale goes from the 九宫格 straight
    to the 英雄榜: program never shows the game scene (its scoreboard, ticker) for a moment between two
    full-frame items (OBS showed it 0.55 s when the 九宫格 was taken off before the board went on)."""
    import threading

    from broadcast.obs.layout import SCENE_JIUGONGGE, SCENE_LEADERBOARD, program_scene_for
    from broadcast.rehearsal import Rehearsal, selfplay_records
    from broadcast.studio import open_store

    store = open_store(tmp_path / "r.sqlite")
    scenes: list[str] = []
    store.subscribe(
        lambda ch: (
            scenes.append(program_scene_for(ch.state["graphics"]["program"]))
            if not scenes or scenes[-1] != program_scene_for(ch.state["graphics"]["program"])
            else None
        )
    )
    seen_off: list[int] = []
    store.subscribe(
        lambda ch: (
            seen_off.append(ch.seq)
            if (
                ch.previous["graphics"]["program"]["corner_bug"]["on"]
                and not ch.state["graphics"]["program"]["corner_bug"]["on"]
            )
            else None
        )
    )
    r = Rehearsal(store, 0.0, True, threading.Event(), lambda _t: None)
    r.wait = lambda _s: None  # type: ignore[method-assign]  # the holds (bumpers 1 s each) change no state
    records = selfplay_records(5, "tv_match", games=1)
    r.setup(str(ROOT / "sponsor_assets" / "demo" / "placements.yaml"), records)
    r.opening()
    assert store.state["graphics"]["program"]["corner_bug"]["on"]
    r.game(records[0])
    assert store.state["graphics"]["program"]["scoreboard"]["on"]
    assert store.state["graphics"]["program"]["corner_bug"]["on"]
    assert seen_off == []
    scenes.clear()
    store.dispatch("leaderboard.set", {"rows": [{"rank": 1, "name": "王建国", "points": 12}]})
    r.finale()
    assert SCENE_JIUGONGGE in scenes and SCENE_LEADERBOARD in scenes, scenes
    assert scenes[scenes.index(SCENE_JIUGONGGE) + 1] == SCENE_LEADERBOARD, scenes
    assert seen_off == []


def test_run_hands_the_rundown_breaks_to_the_bridge_in_order(tmp_path: Path) -> None:
    """The studio's rehearsal asks the OBS bridge for the rundown's 中插 films where the placements put
    them: the 冠名 and 特约 films after the opening bumpers, the spots after games 1 and 2. The bridge
    here is a recording stand-in (no OBS): this checks the order and the waits the studio asks for;
    that OBS plays them is checked against the real OBS in tests/obs/."""
    import argparse
    import threading
    from types import SimpleNamespace

    from broadcast.rehearsal import Rehearsal, Stopped
    from broadcast.runtime import DEMO_PLACEMENTS, QUICK_FILM_S, Studio
    from broadcast.sponsors.placements import load_placements
    from broadcast.studio import open_store

    played: list[str] = []
    reels: list[list[str]] = []
    held: list[float | None] = []
    waited: list[float] = []

    class RecordingBridge:  # stands in for broadcast.obs.ObsBridge: records what it is asked to play
        status = SimpleNamespace(connected=True)

        def play_films(
            self, film_ids: list[str], reason: str = "", hold: float | None = None
        ) -> SimpleNamespace:
            reels.append(list(film_ids))
            played.extend(film_ids)
            held.append(hold)
            done = threading.Event()
            done.set()  # OBS said the last one ended (the bridge rolled each straight after the one before)
            return SimpleNamespace(done=done, failed=[], cut="")

    studio = Studio(argparse.Namespace(db=str(tmp_path / "s.sqlite")))
    studio.store = open_store(tmp_path / "s.sqlite")
    studio.placements = load_placements(DEMO_PLACEMENTS)
    studio.bridge = RecordingBridge()
    r = Rehearsal(studio.store, 0.0, True, threading.Event(), lambda _t: None)
    r.wait = waited.append  # type: ignore[method-assign]
    studio.attach_breaks(r)
    assert r.after_opening is not None and r.after_game is not None
    r.after_opening()
    # one reel per break (the bridge rolls each film straight after the one before: no show between);
    # a quick run holds each film QUICK_FILM_S after OBS started it; nothing waits on the clock
    assert reels == [["xiaodangjia_15s", "yiheyuan_15s"]] and held == [QUICK_FILM_S] and waited == []
    r.after_game(1)
    r.after_game(2)
    assert played[2:] == ["shunhe_10s", "jinyimeng_10s", "langya_10s", "babao_15s", "babao_15s", "jiaxin_5s"]
    assert len(reels) == 3 and all(reels)
    # without OBS nothing can air: no film is started and nothing waits
    studio.bridge = None
    played.clear()
    waited.clear()
    r.after_game(1)
    assert played == [] and waited == []

    # a full run plays each film to the end OBS reports (the bridge starts the next one then): the run
    # waits for the break's last end, and the run's stop ends that wait
    class PlayingBridge(RecordingBridge):  # OBS has not ended the film (yet)
        def play_films(
            self, film_ids: list[str], reason: str = "", hold: float | None = None
        ) -> SimpleNamespace:
            played.extend(film_ids)
            held.append(hold)
            return SimpleNamespace(done=threading.Event(), failed=[], cut="")

    stop = threading.Event()
    full = Rehearsal(studio.store, 0.0, False, stop, lambda _t: None)

    def wait(seconds: float) -> None:  # the operator stops the run while the film plays
        waited.append(seconds)
        stop.set()
        Rehearsal.wait(full, seconds)

    full.wait = wait  # type: ignore[method-assign]
    studio.bridge = PlayingBridge()
    held.clear()
    studio.attach_breaks(full)
    assert full.after_opening is not None
    with pytest.raises(Stopped):
        full.after_opening()
    assert played == ["xiaodangjia_15s", "yiheyuan_15s"] and held == [None] and waited == [0]
