"""The console as a real process: killed with SIGKILL at random moments of a typed game and restarted,
it loses no decision it had shown as recorded; under Xvfb it is typed into with xdotool as a person
and photographed at 1920×1080 and 1366×768 into test-artifacts/console/."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pytest
from PIL import Image, ImageStat

import engine
from tests.console.conftest import NAMES, TEAMS, selfplay, typed
from tests.console.process import ConsoleProcess, need, xvfb

pytestmark = pytest.mark.timeout(900)


def _prepare(db: Path) -> None:
    from broadcast.studio import open_store

    store = open_store(db)
    try:
        store.dispatch("show.update", {"episode": "第7期"})
        store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    finally:
        store.close()


def _game(db: Path) -> dict[str, object]:
    from broadcast.studio import open_store

    store = open_store(db)
    try:
        return dict(store.state["game"])
    finally:
        store.close()


def _record(db: Path) -> list[str]:
    return list(_game(db)["record"])  # type: ignore[call-overload]


def _plays(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM journal WHERE type='game.play'").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.long
def test_sigkill_at_random_moments_loses_no_confirmed_decision(tmp_path: Path) -> None:
    """Each run: the next stretch of decisions typed ahead (as an operator faster than the machine), the
    plug pulled while the console works through them — after a random number of them were shown as
    recorded, a random instant later (mid-decision most often) — then restarted on the same database."""
    db, ini = tmp_path / "studio.sqlite", tmp_path / "console.ini"
    _prepare(db)
    game = selfplay(23)
    lines = [str(a) for a in game.moves]
    rng = random.Random(23)
    confirmed: list[str] = []  # every "n line" some console showed as recorded, over all runs
    kills = 0
    while True:
        c = ConsoleProcess(db, ini)
        try:
            c.wait_for("导播台已打开")
            state = _game(db)  # where the restarted console stands (the journal replayed)
            done = len(state["record"])  # type: ignore[arg-type]
            leader = [str(game.leader)] if state["leader"] is None else []  # the 上班 seat starts the game
            if kills == 3:  # after the last restart the game goes on where it stood
                for line in [*leader, *lines[done : done + 6]]:
                    c.type(line)
                c.wait_confirmed(6)
                confirmed += c.confirmed
                break
            stretch = lines[done : done + rng.randint(8, 25)]
            for line in [*leader, *stretch]:
                c.type(line)
            c.wait_confirmed(rng.randint(0, len(stretch) - 1))
            time.sleep(rng.uniform(0.0, 0.05))  # a random instant inside the next decision's work
            c.kill()
            kills += 1
            confirmed += c.confirmed
        finally:
            c.stop()
        # every decision confirmed on screen before the kill is in the record after it
        record = _record(db)
        for item in confirmed:
            n, line = item.split(" ", 1)
            assert int(n) <= len(record) and record[int(n) - 1] == line, (item, record[-5:])
    assert kills == 3
    record = _record(db)
    assert len(record) >= 6 and record == lines[: len(record)]  # each decision once, in order
    assert _plays(db) == len(record)
    assert len(confirmed) == len(set(confirmed)) >= 6


def _busy(path: Path, size: tuple[int, int]) -> float:
    with Image.open(path) as im:
        assert im.size == size
        return float(sum(ImageStat.Stat(im.convert("L")).stddev))


@pytest.mark.parametrize("size", ["1920x1080", "1366x768"])
def test_typed_by_xdotool_and_photographed(tmp_path: Path, size: str) -> None:
    need("xdotool", "import")
    db, ini = tmp_path / "studio.sqlite", tmp_path / "console.ini"
    _prepare(db)
    game = selfplay(7)
    lines = [str(a) for a in game.moves]
    with xvfb(size) as display:
        c = ConsoleProcess(db, ini, display=display, geometry=f"{size}+0+0")
        try:
            c.wait_for("导播台已打开")
            c.focus()  # once the window is mapped and the window manager made it active
            # the operator types the 上班 seat and the first decisions, as a person at the keyboard
            c.xdotool("type", "--delay", "12", str(game.leader))
            c.xdotool("key", "Return")
            at = engine.new_game("tv_match", seed=7)  # to know whose decision it is, as the screen says
            for a in game.moves[:10]:
                c.xdotool("type", "--delay", "12", typed(str(a), at.pending_seat))
                c.xdotool("key", "Return")
                c.wait_for("已确认 confirmed #", timeout=60)
                at.push(a)
            before = _plays(db)
            # an illegal play: refused on the spot, its clause under the entry, nothing journaled
            top = at.last_play
            wrong = "JQ" if top is None else ("AA" if top[1].size == 1 else "A")  # G3.2 / G4.1
            c.xdotool("type", "--delay", "12", wrong)
            c.xdotool("key", "Return")
            refused = c.wait_for("未接受 refused", timeout=60)  # under the entry line (the --type-from hook)
            assert "[G3.2]" in refused or "[G4.1]" in refused, refused
            shot = c.screenshot(f"console-{size}.png")
            assert _plays(db) == before
            if size == "1920x1080":
                c.xdotool("key", "F1")  # the keys sheet, photographed once it is on the screen
                c.xdotool("search", "--sync", "--onlyvisible", "--name", "快捷键 Keys")  # mapped
                c.wait_for("已显示 shown: 快捷键 Keys", timeout=60)  # and painted (the console says so)
                c.screenshot(f"console-help-{size}.png")
                c.xdotool("key", "Escape")
        finally:
            c.stop()
    w, h = (int(x) for x in size.split("x"))
    assert _busy(shot, (w, h)) > 20
    assert _record(db) == lines[:10]


def test_run_opens_the_console_when_there_is_a_display(tmp_path: Path) -> None:
    """The README's first command: ``run`` (scripts/run.sh) opens the console on the demo season."""
    import os
    import subprocess
    import sys

    from tests.console.process import ROOT

    with xvfb("1366x768") as display:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
        cmd = [
            sys.executable,
            "-m",
            "broadcast",
            "run",
            "--db",
            str(tmp_path / "s.sqlite"),
            "--port",
            "0",
            "--no-obs",
        ]
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            assert proc.stdout is not None
            seen = []
            for line in proc.stdout:
                seen.append(line)
                if "导播台已打开" in line:
                    break
            assert any("导播台已打开" in s for s in seen), "".join(seen[-20:])
            assert any("演示赛季已建立" in s for s in seen)  # on the demo season
        finally:
            os.killpg(proc.pid, 15)
            proc.wait(30)
    assert proc.returncode == 0  # SIGTERM closes the window properly
