"""Every studio command that reads GJN records refuses one over 1 MiB from its size, unread: one line
naming the file, exit 2 (issue 24). The limit is the engine's (``engine.gjn.read``; its own tests:
tests/engine/test_record_limit.py); these hold the commands to it: ``season game`` and
``rehearse --games``. (``qualifiers import`` refuses such a record as a record, tests/qualifiers.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from tests.engine.test_record_limit import sparse_record

ROOT = Path(__file__).resolve().parents[1]
MiB = 1 << 20


def test_season_game_refuses_a_huge_record_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(tmp_path / "studio.sqlite")]
    assert cli(["season", "create", "春季赛", *db]) == 0
    roster = tmp_path / "r.csv"
    roster.write_text(
        "姓名,队伍\n张三,甲队\n李四,甲队\n王五,甲队\n赵六,乙队\n孙七,乙队\n周八,乙队\n", encoding="utf-8"
    )
    assert cli(["import", str(roster), *db]) == 0
    assert cli(["season", "episode", "1", "--air-date", "2012-05-07", *db]) == 0
    match = ["--episode", "1", "--round", "1", "--team-a", "甲队", "--team-b", "乙队"]
    assert cli(["season", "match", *db, *match, "--a", "张三,李四,王五", "--b", "赵六,孙七,周八"]) == 0
    capsys.readouterr()
    big = sparse_record(tmp_path / "huge.gjn", 50 * MiB)
    assert cli(["season", "game", "1", str(big), *db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"{big}:0" in err[0] and "52,428,800" in err[0] and "1 MiB" in err[0], err


def test_rehearse_games_refuses_a_huge_record_in_one_line(tmp_path: Path) -> None:
    big = sparse_record(tmp_path / "huge.gjn", 50 * MiB)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "rehearse",
            "--games",
            str(big),
            str(big),
            str(big),
            "--port",
            "0",
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{big}:0: 牌谱过大（52,428,800 字节）"), lines
