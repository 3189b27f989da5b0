"""The rehearsal in a real window (Xvfb, Debian's openbox, keys sent by xdotool as a person types them):
``console --record FILE`` opens the record in a rehearsal window of its own, PgUp/PgDn step through it
(each a journaled ``game.seek`` in the rehearsal's database), and a decision typed at an earlier move
continues the game from there once the operator says Yes — none of it in the show's journal."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import gjn
from tests.console.conftest import selfplay
from tests.console.process import StudioProcess, need, xvfb

MOVES = 12


def _journal(db: Path) -> list[tuple[str, str]]:
    """The rehearsal's journal (type, payload), read-only: what the window did, as it was written."""
    if not db.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return [
                (str(t), str(p)) for t, p in conn.execute("SELECT type, payload FROM journal ORDER BY seq")
            ]
    except sqlite3.OperationalError:  # not made yet (the window is creating it)
        return []


def _until(what: str, check: Any, proc: StudioProcess, timeout: float = 60) -> Any:
    """Until ``check()`` is true — the thing compared, read as it changes (the process must stay alive)."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert proc.proc.poll() is None, proc._gone()
        assert time.monotonic() < deadline, f"no {what}:\n" + "".join(proc.output[-20:])
        time.sleep(0.05)


def _windows(c: StudioProcess, name: str) -> list[str]:
    """The visible windows whose title holds ``name`` (none yet: [])."""
    cmd = ["xdotool", "search", "--onlyvisible", "--name", name]
    return subprocess.run(cmd, env=c.env, capture_output=True, text=True, timeout=30).stdout.split()


@pytest.mark.long  # a console process of its own on a display with a window manager
def test_a_record_is_stepped_and_continued_in_a_real_rehearsal_window(demo_db: Path, tmp_path: Path) -> None:
    need("xdotool", "import")
    g = selfplay(11)
    rec = gjn.from_game(g, [("Event", "彩排")])
    rec.moves = rec.moves[:MOVES]
    lines = [str(m.action) for m in rec.moves]
    record = tmp_path / "referee.gjn"
    record.write_text(gjn.write(rec), encoding="utf-8")
    rehearsal = demo_db.parent / f"{demo_db.stem}-assets" / "rehearsals" / "referee.sqlite"
    args = ["console", "--db", str(demo_db), "--port", "0", "--no-obs", "--no-monitors", "--lang", "en"]
    args += ["--winprob-workers", "0", "--commentators-port", "-1", "--settings", str(tmp_path / "c.ini")]
    args += ["--geometry", "1366x768+0+0", "--record", str(record)]
    with xvfb("1366x768") as display:
        c = StudioProcess(args, display=display)
        try:
            c.wait_for("the console is open")
            c.wait_for(f"the rehearsal is ready: referee.gjn {MOVES}")  # the table at the record's end
            assert [t for t, _ in _journal(rehearsal)].count("game.play") == MOVES
            wid = _until("the rehearsal window", lambda: _windows(c, "Rehearsal referee"), c)[0]
            c.xdotool("windowactivate", "--sync", wid)
            seeks = lambda: [p for t, p in _journal(rehearsal) if t == "game.seek"]  # noqa: E731
            for n, key in enumerate(("Prior", "Prior", "Prior", "Next"), start=1):
                c.xdotool("key", "--window", wid, key)
                _until(f"step {n}", lambda n=n: len(seeks()) == n, c)
            assert [s.replace(" ", "") for s in seeks()] == [
                '{"move":11}',
                '{"move":10}',
                '{"move":9}',
                '{"move":10}',
            ]
            # at move 10: another legal decision continues the game from there, once the operator says Yes
            at = engine.new_game("tv_match", seed=11)
            for a in g.moves[:10]:
                at.push(a)
            other = next(str(a) for a in at.legal_plays() if str(a) != lines[10])
            c.xdotool("type", "--window", wid, "--delay", "12", other)
            c.xdotool("key", "--window", wid, "Return")
            box = _until("the question", lambda: _windows(c, "Continue from this move"), c)[0]
            c.screenshot("rehearsal-continue-real-1366x768.png")
            c.xdotool("windowactivate", "--sync", box)
            c.xdotool("key", "alt+y")
            played = lambda: [p for t, p in _journal(rehearsal) if t == "game.play"][MOVES:]  # noqa: E731
            assert other in _until("the decision continued from move 10", played, c)[0]
        finally:
            c.stop()
    show = {t for t, _ in _journal(demo_db)}  # the show's journal: none of the rehearsal's steps or plays
    assert show and not show & {"game.seek", "game.play", "game.new"}, show
