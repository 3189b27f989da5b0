"""``python -m broadcast producer`` on bad input: one line naming the file, exit 2, never a traceback,
and no window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.producer.conftest import ROOT


def _producer(*args: str, display: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    if not display:
        env.pop("QT_QPA_PLATFORM")
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "broadcast", "producer", "--no-web", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line(r: subprocess.CompletedProcess[str], *words: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "已打开" not in r.stdout
    lines = [ln for ln in r.stderr.splitlines() if any(w in ln for w in words)]
    assert len(lines) == 1, r.stderr


def test_a_file_that_is_not_the_database(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    db.write_text("名单\n", encoding="utf-8")
    r = _producer("--db", str(db))
    _one_line(r, "不是 SQLite 数据库文件")
    assert str(db) in r.stderr


def test_a_placements_file_that_is_not_yaml(tmp_path: Path) -> None:
    bad = tmp_path / "placements.yaml"
    bad.write_text("title: [1,\n", encoding="utf-8")
    r = _producer("--db", str(tmp_path / "studio.sqlite"), "--placements", str(bad))
    _one_line(r, "YAML 写法有错")
    assert f"{bad}:2:1" in r.stderr


def test_no_display(tmp_path: Path) -> None:
    r = _producer("--db", str(tmp_path / "studio.sqlite"), display=False)
    _one_line(r, "没有图形显示")
    assert not (tmp_path / "studio.sqlite").exists()
