"""``python -m broadcast season …`` end to end on a real file: create, roster, match, games, finish."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.season.model import SeasonDB
from tests.season.conftest import find_games, selfplay

ROOT = Path(__file__).resolve().parents[2]


def test_match_flow_through_the_cli(
    db_path: Path, season_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same commands with the season in the project's SQLite file and, given --season-db, on
    PostgreSQL (the project file then holds no season)."""
    project = str(db_path)
    db = project if season_db.endswith(".sqlite") else season_db
    where = ["--db", project] + ([] if db == project else ["--season-db", season_db])
    assert cli(["season", "create", "春季赛", *where, "--sponsor", "鲁信汽车城"]) == 0
    roster = tmp_path / "r.csv"
    roster.write_text(
        "姓名,队伍\n张三,甲队\n李四,甲队\n王五,甲队\n赵六,乙队\n孙七,乙队\n周八,乙队\n", encoding="utf-8"
    )
    assert cli(["import", str(roster), *where]) == 0
    assert cli(["season", "episode", "1", "--air-date", "2012-05-07", *where]) == 0
    assert (
        cli(
            [
                "season",
                "match",
                *where,
                "--episode",
                "1",
                "--round",
                "1",
                "--team-a",
                "甲队",
                "--team-b",
                "乙队",
                "--a",
                "张三,李四,王五",
                "--b",
                "赵六,孙七,周八",
            ]
        )
        == 0
    )
    names = {1: "张三", 3: "李四", 5: "王五", 2: "赵六", 4: "孙七", 6: "周八"}
    files = []
    totals = {"odd": 0, "even": 0}
    for i, seed in enumerate(find_games("cli", lambda a, b: a != b, 3)):
        f = tmp_path / f"g{i + 1}.gjn"
        text, points = selfplay(seed, names)
        f.write_text(text, encoding="utf-8")
        files.append(str(f))
        totals = {k: totals[k] + points[k] for k in totals}
    assert cli(["season", "game", "1", *files, *where]) == 0
    assert cli(["season", "penalty", "1", "--team", "甲队", "--reason", "大声喧哗", *where]) == 0
    capsys.readouterr()
    rc = cli(["season", "finish", "1", *where])
    out = capsys.readouterr().out
    # G11.2: the higher total of three games wins; 甲队 (odd seats) lost 2 points to the penalty
    a, b = totals["odd"] - 2, totals["even"]
    assert a != b, "these seeds were chosen for a decided match"
    winner = "甲队" if a > b else "乙队"
    assert rc == 0
    assert out.strip() == f"比赛结束 final: {a}:{b}，胜方 winner {winner}（比分）", out
    assert cli(["season", "verify", *where]) == 0
    assert "复核无误" in capsys.readouterr().out
    assert cli(["season", "leaderboard", *where]) == 0
    board = capsys.readouterr().out
    assert "张三" in board and "排名规则" in board
    if db != project:  # the project file was not made a season: the season is on the server
        assert not db_path.exists() or SeasonDB.open(project).seasons() == []
    # a wrong file is refused with its line, one line on stderr, exit 2
    bad = tmp_path / "bad.gjn"
    bad.write_text('[Rules "tv_match"]\n[Leader "1"]\n1 XYZ\n', encoding="utf-8")
    with SeasonDB.open(db) as sdb:
        sid = int(sdb.season()["id"])
        ta, tb = sdb.team_id(sid, "甲队"), sdb.team_id(sid, "乙队")
        lineup = {s: sdb.find_players(sid, n)[0]["id"] for s, n in names.items()}
        assert ta and tb
        mid = sdb.create_match(sid, ta, tb, lineup)
    assert cli(["season", "game", str(mid), str(bad), *where]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}:3" in err[0]


def test_demo_command_in_a_subprocess(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "season", "demo", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "15 期" in r.stdout
    again = subprocess.run(
        [sys.executable, "-m", "broadcast", "season", "demo", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "Traceback" not in again.stderr
