"""A busy database never loses a decision and never prints a traceback (issue 19): a real second
process holds the project database with ``BEGIN EXCLUSIVE`` for 20 s while the console starts, and again
while a game is typed into the real window (xdotool, Xvfb with openbox).

The window opens at once and says it waits for the database; typed decisions show as pending (greyed, in
order) and the status bar says the database is busy and how many wait; once the lock is gone every one
is journaled in the order typed; an undo typed during the lock takes the last one back; nothing is
dropped and nothing prints a traceback."""

from __future__ import annotations

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
    """Another program holding the database: ``BEGIN EXCLUSIVE`` for ``seconds``, then commit."""

    def __init__(self, db: Path, seconds: float) -> None:
        code = (
            "import sqlite3, sys, time\n"
            f"c = sqlite3.connect({str(db)!r}, timeout=30, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            f"time.sleep({seconds})\n"
            "c.execute('COMMIT')\n"
            "print('released', flush=True)\n"
        )
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "locked"
        self.since = time.monotonic()

    def wait(self) -> None:
        assert self.proc.stdout is not None
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


def test_a_locked_database_at_start_and_while_typing_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    s = open_store(db)
    s.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    s.close()
    game = selfplay(7)
    lines = [str(a) for a in game.moves[:14]]
    with xvfb("1920x1080") as display:
        locker = Locker(db, HOLD_S)
        args = ["console", "--db", str(db), "--port", "0", "--no-obs", "--no-monitors"]
        args += ["--settings", str(tmp_path / "console.ini")]
        c = StudioProcess(args, display=display)
        try:
            started = time.monotonic()
            c.wait_for("导播台窗口已打开", timeout=60)  # the window at once, the studio starting behind it
            opened_after = time.monotonic() - started
            c.wait_for("数据库被其他程序占用", timeout=30)
            c.screenshot("busy-start-1920x1080.png")
            c.wait_for("导播台已打开", timeout=120)
            locker.wait()
            assert opened_after < HOLD_S / 2, opened_after
            wid = c.xdotool("search", "--sync", "--onlyvisible", "--pid", str(c.proc.pid)).split()[0]
            c.xdotool("windowactivate", "--sync", wid)
            time.sleep(1.0)
            # the second lock: a game typed into the real window while another program holds the file
            locker = Locker(db, HOLD_S)
            typed = [str(game.leader), *lines, "UNDO", lines[-1]]
            for text in typed:
                if text == "UNDO":  # Ctrl+Z on a decision still waiting: the reason dialog, Enter
                    c.xdotool("key", "ctrl+z")
                    time.sleep(0.8)
                    c.xdotool("key", "Return")
                else:
                    c.xdotool("type", "--delay", "20", text)
                    c.xdotool("key", "Return")
                time.sleep(0.3)
            c.wait_for("数据库忙", timeout=30)  # the status bar said so (and the log line with it)
            time.sleep(1.0)
            c.screenshot("busy-typing-1920x1080.png")
            assert _record(db) == []  # nothing could be written yet: all of it waits, in order
            locker.wait()
            deadline = time.monotonic() + 60
            want = [f"leader {game.leader}", *lines]
            while _record(db) != want and time.monotonic() < deadline:
                time.sleep(0.5)
            assert _record(db) == want, (_record(db), "".join(c.output)[-4000:])
            time.sleep(1.0)
            c.screenshot("busy-after-1920x1080.png")
        finally:
            locker.kill()
            c.stop()
    out = "".join(c.output)
    assert "Traceback" not in out, out[-3000:]
    assert c.proc.returncode == 0
