"""A busy database never loses a decision and never prints a traceback (issue 19): a real second
process holds the project database with ``BEGIN EXCLUSIVE`` while the console starts, and again while a
game is typed into the real window (xdotool, Xvfb with openbox). Each lock is held for what the behaviour
needs, seen in the console's own words, never for a fixed time: at the start until the window says it
waits for the database; while typing until the console's writes have outlived SQLite's own busy timeout
(10 s, ``broadcast/core/db.py``: where the decisions typed during a lock used to be lost with a
traceback) and it goes on waiting.

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
UNDO_TITLE = "撤销第"  # the undo's reason dialog: 撤销第N步


class Locker:
    """Another program holding the database: ``BEGIN EXCLUSIVE`` until :meth:`release` (called once the
    test has seen what it looks for while the file is held)."""

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

    def release(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "released"
        self.proc.wait(30)

    def holding(self) -> bool:
        return self.proc.poll() is None

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


def _windows(display: str, pid: int) -> list[str]:
    """The titles of the process's windows on the screen."""
    env = dict(os.environ, DISPLAY=display)

    def run(*args: str) -> str:
        return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=60).stdout

    return [
        run("getwindowname", wid).strip() for wid in run("search", "--onlyvisible", "--pid", str(pid)).split()
    ]


def _active(display: str) -> str:
    """The title of the window the window manager has made active (the one the keys go to)."""
    env = dict(os.environ, DISPLAY=display)
    r = subprocess.run(
        ["xdotool", "getactivewindow", "getwindowname"], env=env, capture_output=True, text=True
    )
    return r.stdout.strip()


def _until_dialog(display: str, pid: int, *, shown: bool) -> None:
    """Until the undo's reason dialog is on the screen and has the keys (found by its title), or is gone
    and the console's window has the keys again. The limit only ends a run in which it never comes."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        on_screen = any(UNDO_TITLE in title for title in _windows(display, pid))
        active = _active(display)
        has_keys = UNDO_TITLE in active if shown else "导播台" in active  # the main window: "… — 导播台"
        if on_screen is shown and has_keys:
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
            # the window at once, the studio starting behind it: on the screen while the file is held
            c.wait_for("导播台窗口已打开", timeout=120)
            c.wait_for("数据库被其他程序占用", timeout=120)  # its window says what it waits for
            assert _windows(display, c.proc.pid), "no window on the screen while the database is held"
            c.screenshot("busy-start-1920x1080.png")
            assert locker.holding()
            locker.release()
            c.wait_for("导播台已打开", timeout=120)
            wid = c.xdotool("search", "--sync", "--onlyvisible", "--pid", str(c.proc.pid)).split()[0]
            c.xdotool("windowactivate", "--sync", wid)  # returns once the window manager made it active
            # the second lock: a game typed into the real window while another program holds the file
            locker = Locker(db)
            typed = [str(game.leader), *lines, "UNDO", lines[-1]]
            for text in typed:
                if text == "UNDO":  # Ctrl+Z on a decision still waiting: the reason dialog, Enter
                    c.xdotool("key", "ctrl+z")
                    _until_dialog(display, c.proc.pid, shown=True)
                    c.xdotool("key", "Return")
                    _until_dialog(display, c.proc.pid, shown=False)  # the next line goes to the entry
                else:  # X queues the keys in order: the console takes them as fast as it can
                    c.xdotool("type", "--delay", "20", text)
                    c.xdotool("key", "Return")
            c.wait_for("数据库忙", timeout=120)  # the status bar said so (and the log line with it)
            c.screenshot("busy-typing-1920x1080.png")
            # SQLite's own wait (its 10 s busy timeout) ran out and the console kept the work and waits on
            c.wait_for("database locked by another program: waiting", timeout=120)
            assert locker.holding()
            assert _record(db) == []  # nothing could be written yet: all of it waits, in order
            locker.release()
            want = [f"leader {game.leader}", *lines]
            for _ in range(len(typed) + 2):  # the console says when nothing waits any more
                if _record(db) == want:
                    break
                c.wait_for("数据库已空闲", timeout=300)
            assert _record(db) == want, (_record(db), "".join(c.output)[-4000:])
            c.screenshot("busy-after-1920x1080.png")
        finally:
            locker.kill()
            c.stop()
    out = "".join(c.output)
    assert "Traceback" not in out, out[-3000:]
    assert c.proc.returncode == 0, out[-3000:]  # closed by SIGTERM as an operator's logout does
