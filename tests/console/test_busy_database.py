"""A busy database never loses a decision and never prints a traceback (issue 19): a real second
process holds the project database with ``BEGIN EXCLUSIVE`` for 20 s while the console starts, and again
while a game is typed into the real window (xdotool, Xvfb with openbox).

The window opens at once and says it waits for the database; typed decisions show as pending (greyed, in
order) and the status bar says the database is busy and how many wait; once the lock is gone every one
is journaled in the order typed; an undo typed during the lock takes the last one back; nothing is
dropped and nothing prints a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.console.conftest import NAMES, TEAMS, open_store, selfplay
from tests.console.process import StudioProcess, xvfb

pytestmark = [pytest.mark.long, pytest.mark.timeout(400)]
HOLD_S = 20


class Locker:
    """Another program holding the database: ``BEGIN EXCLUSIVE`` until :meth:`release` (after ``HOLD_S``
    at least, and never before the test has seen what it looks for while the file is held)."""

    def __init__(self, db: Path) -> None:
        code = (
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(db)!r}, timeout=30, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            "sys.stdin.readline()\n"
            "c.execute('COMMIT')\n"
            "print('released', flush=True)\n"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "locked"
        self.since = time.monotonic()

    def release(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        time.sleep(max(0.0, HOLD_S - (time.monotonic() - self.since)))  # held HOLD_S at least
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "released"
        self.proc.wait(30)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def _record(db: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT type, payload FROM journal ORDER BY seq").fetchall()
    finally:
        conn.close()
    import json

    out: list[str] = []
    for type_, payload in rows:
        p = json.loads(payload)
        if type_ == "game.new":
            out = [f"leader {p['leader']}"]
        elif type_ == "game.play":
            out.append(p["line"])
        elif type_ == "game.undo":
            out.pop()
    return out


def _until_dialog(display: str, pid: int, *, shown: bool) -> None:
    """Until the undo's reason dialog is on the screen (the console shows two windows), or gone."""
    env = dict(os.environ, DISPLAY=display)
    cmd = ["xdotool", "search", "--onlyvisible", "--pid", str(pid)]
    for _ in range(600):
        found = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=30).stdout.split()
        if (len(found) > 1) is shown:
            return
        time.sleep(0.1)
    raise AssertionError(f"the undo's reason dialog was {'never shown' if shown else 'never closed'}")


def test_a_locked_database_at_start_and_while_typing_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    s = open_store(db)
    s.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    s.close()
    game = selfplay(7)
    lines = [str(a) for a in game.moves[:14]]
    with xvfb("1920x1080") as display:
        locker = Locker(db)
        args = ["console", "--db", str(db), "--port", "0", "--no-obs", "--no-monitors"]
        args += ["--winprob-workers", "0", "--commentators-port", "-1"]  # the database is what this is about
        args += ["--settings", str(tmp_path / "console.ini")]
        c = StudioProcess(args, display=display)
        try:
            started = time.monotonic()
            c.wait_for("导播台窗口已打开", timeout=60)  # the window at once, the studio starting behind it
            opened_after = time.monotonic() - started
            c.wait_for("数据库被其他程序占用", timeout=30)
            c.screenshot("busy-start-1920x1080.png")
            locker.release()
            c.wait_for("导播台已打开", timeout=120)
            assert opened_after < HOLD_S / 2, opened_after
            wid = c.xdotool("search", "--sync", "--onlyvisible", "--pid", str(c.proc.pid)).split()[0]
            c.xdotool("windowactivate", "--sync", wid)
            time.sleep(1.0)
            # the second lock: a game typed into the real window while another program holds the file
            locker = Locker(db)
            typed = [str(game.leader), *lines, "UNDO", lines[-1]]
            for text in typed:
                if text == "UNDO":  # Ctrl+Z on a decision still waiting: the reason dialog, Enter
                    c.xdotool("key", "ctrl+z")
                    _until_dialog(display, c.proc.pid, shown=True)
                    c.xdotool("key", "Return")
                    _until_dialog(display, c.proc.pid, shown=False)  # the next line goes to the entry
                else:
                    c.xdotool("type", "--delay", "20", text)
                    c.xdotool("key", "Return")
                time.sleep(0.3)
            c.wait_for("数据库忙", timeout=30)  # the status bar said so (and the log line with it)
            time.sleep(1.0)
            c.screenshot("busy-typing-1920x1080.png")
            assert _record(db) == []  # nothing could be written yet: all of it waits, in order
            locker.release()
            want = [f"leader {game.leader}", *lines]
            for _ in range(len(typed) + 2):  # the console says when nothing waits any more
                if _record(db) == want:
                    break
                c.wait_for("数据库已空闲", timeout=300)
            assert _record(db) == want, (_record(db), "".join(c.output)[-4000:])
            time.sleep(1.0)
            c.screenshot("busy-after-1920x1080.png")
        finally:
            locker.kill()
            c.stop()
    out = "".join(c.output)
    assert "Traceback" not in out, out[-3000:]
    assert c.proc.returncode == 0
