"""Inputs named for what they are (hostile2): a folder or a device given as a roster was "file not
found"; a database that never had a journal (a season-only file from ``season demo``, an empty file)
opened read-only was "from an older build, needs an upgrade (journal v0 → v3)"."""

from __future__ import annotations

from pathlib import Path

import pytest

from broadcast.__main__ import main as studio
from tests.hostile import code


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("folder", "是一个目录，不是名单文件 / is a folder, not a roster file"),
        ("device", "不是普通文件 / not a regular file"),
    ],
)
def test_a_folder_or_a_device_given_as_a_roster_is_named_for_what_it_is(
    kind: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "studio.sqlite"
    assert studio(["season", "create", "春季赛", "--db", str(db)]) == 0
    roster = tmp_path / "名单.csv" if kind == "folder" else Path("/dev/zero")
    if kind == "folder":
        roster.mkdir()
    capsys.readouterr()
    assert studio(["import", str(roster), "--db", str(db), "--dry-run"]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert err == [f"{roster}:row 0: {said}", "未导入任何数据 / nothing was imported"], err


@pytest.mark.parametrize("kind", ["season-only", "empty"])
@pytest.mark.parametrize("command", ["preflight", "verify-journal", "serve"])
def test_a_database_without_a_journal_is_not_called_an_older_build(
    kind: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "studio.sqlite"
    if kind == "season-only":
        assert studio(["season", "create", "春季赛", "--db", str(db)]) == 0
    else:
        db.write_bytes(b"")
    capsys.readouterr()
    argv = {
        "preflight": ["preflight", "--db", str(db), "--no-obs"],
        "verify-journal": ["verify-journal", "--db", str(db)],
        "serve": ["serve", "--db", str(db), "--port", "0"],
    }[command]
    assert code(argv) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and str(db) in err[0], err
    assert "这个数据库里还没有 journal 的表" in err[0] and "has no journal tables yet" in err[0], err
    assert "旧版本" not in err[0] and "older build" not in err[0]


def test_audit_names_a_bad_placements_file_s_line_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``bad.yaml:0: bad.yaml:2:1: 错误: YAML 语法错误…`` — the file twice, the first at a line 0."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1\n", encoding="utf-8")
    assert code(["audit", "第16期", "--placements", str(bad), "--out", str(tmp_path / "audit")]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert err and err[0].startswith(f"{bad}:2:1: 错误: YAML 语法错误") and err[0].count(str(bad)) == 1, err
    assert not (tmp_path / "audit").exists()


def test_audit_names_a_bad_obs_settings_file_s_line_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "obs.yaml"
    bad.write_text("obs: [1\n", encoding="utf-8")
    argv = ["audit", "第16期", "--obs", "--obs-settings", str(bad), "--out", str(tmp_path / "audit")]
    assert code(argv) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith(f"{bad}:2: invalid YAML") and err[0].count(str(bad)) == 1, err
