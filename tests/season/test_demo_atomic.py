"""The demo season is all or nothing: a kill at any moment of the first start leaves no demo season or a
whole one, and the next start finishes the job (issue 13). Real processes, real kills (SIGKILL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from broadcast.season import demo
from broadcast.season.model import SeasonDB

ROOT = Path(__file__).resolve().parents[2]


# the studio serving nothing but the season: no OBS, no rehearsal, no 胜率 workers, no commentators' page,
# and no placements (``--placements ""``) — the season's build is what is killed, and loading the demo set
# (eight films probed by ffprobe) before it cost every start here a second or more
STUDIO = ("--port", "0", "--no-obs", "--no-rehearsal", "--winprob-workers", "0", "--commentators-port", "-1")
NO_PLACEMENTS = ("--placements", "")


def _start(db: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "broadcast", "run", "--db", str(db), *STUDIO, *NO_PLACEMENTS, *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )


def _status(db: Path) -> tuple[str, int, int]:
    with SeasonDB.open(db) as sdb:
        status = demo.demo_status(sdb)
        episodes = sdb.conn.execute("SELECT COUNT(*) FROM season_episodes").fetchone()[0]
        games = sdb.conn.execute("SELECT COUNT(*) FROM season_games").fetchone()[0]
    return status, int(episodes), int(games)


def _kill_in_the_build(db: Path, delay: float) -> None:
    """Start the studio on a new file and SIGKILL it ``delay`` s after it starts building the season
    (without placements, the new database's line is the last thing printed before the build)."""
    proc = _start(db)
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            if line.startswith("新建项目数据库"):
                break
        else:
            raise AssertionError("run ended before opening the database")
        time.sleep(delay)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        proc.stdout.close()


def _whole(tmp_path: Path) -> tuple[str, int, int]:
    """What a whole demo season holds (its games are self-played by the engine: their number follows
    the rules, so it is taken from a build of its own rather than written here)."""
    ref = tmp_path / "reference.sqlite"
    demo.build_demo_season(ref)
    whole = _status(ref)
    assert whole[0] == "complete" and whole[1] == 15 and whole[2] >= 15 * 2
    return whole


@pytest.mark.long
def test_a_kill_during_the_first_start_leaves_nothing_or_a_whole_season_and_the_next_start_finishes(
    tmp_path: Path,
) -> None:
    whole = _whole(tmp_path)
    outcomes = []
    for i, delay in enumerate((0.05, 0.3, 0.6)):
        db = tmp_path / f"studio{i}.sqlite"
        _kill_in_the_build(db, delay)
        status, episodes, games = _status(db)
        assert (status, episodes, games) in (("absent", 0, 0), whole), (delay, status)
        outcomes.append(status)
        again = subprocess.run(
            [sys.executable, "-m", "broadcast", "run", "--db", str(db), *STUDIO, *NO_PLACEMENTS]
            + ["--exit-when-done"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode == 0, again.stderr
        assert ("演示赛季已建立" in again.stdout) == (status == "absent")
        assert _status(db) == whole
    # the build takes about a second here: at least the early kill landed before its commit
    assert "absent" in outcomes


def test_a_half_built_demo_season_of_an_older_build_is_rebuilt_whole(tmp_path: Path) -> None:
    whole = _whole(tmp_path)
    db = tmp_path / "old.sqlite"
    demo.build_demo_season(db)
    with SeasonDB.open(db) as sdb:  # what an older, match-by-match build left when it was killed
        sdb.conn.execute(
            "DELETE FROM season_matches WHERE round > 0 AND id NOT IN (SELECT MIN(id) FROM season_matches "
            "WHERE round > 0)"
        )
        sdb.conn.execute("UPDATE season_matches SET status='playing' WHERE round > 0")
        assert demo.demo_status(sdb) == "incomplete"
    done, summary = demo.ensure_demo_season(db)
    assert done == "rebuilt" and summary is not None and summary.matches == 15
    assert _status(db) == whole
    assert demo.ensure_demo_season(db) == ("present", None)


def test_a_season_of_the_same_name_entered_by_hand_is_never_touched(tmp_path: Path) -> None:
    db = tmp_path / "own.sqlite"
    with SeasonDB.open(db) as sdb:
        sdb.create_season(demo.SEASON_NAME, title="我们自己的第一季")
        assert demo.demo_status(sdb) == "other"
    assert demo.ensure_demo_season(db) == ("present", None)
    with SeasonDB.open(db) as sdb:
        assert [r["title"] for r in sdb.seasons()] == ["我们自己的第一季"]
