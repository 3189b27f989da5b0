"""A folder (or a device) where a command wants its database is named for what it is, in one line with
exit 2 (hostile2): before, eight commands called a folder "数据库文件不存在 / no such database file",
which sends the operator looking for a file that is right there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile import code

FOLDER = "是一个目录，不是数据库文件"
DEVICE = "不是普通文件，不能当数据库"

COMMANDS: dict[str, Callable[[str, Path], list[str]]] = {
    "verify-journal": lambda db, t: ["verify-journal", "--db", db],
    "season show": lambda db, t: ["season", "show", "--db", db],
    "import": lambda db, t: ["import", str(t / "r.csv"), "--db", db, "--dry-run"],
    "export leaderboard": lambda db, t: ["export", "leaderboard", "--db", db, "--out", str(t / "lb.csv")],
    "report": lambda db, t: ["report", "第1期", "--db", db, "--no-pdf", "--out", str(t / "r")],
    "report --verify": lambda db, t: ["report", "第1期", "--db", db, "--verify"],
    "qualifiers board": lambda db, t: ["qualifiers", "board", "--db", db],
    "preflight": lambda db, t: ["preflight", "--db", db, "--no-obs"],
    "serve --db": lambda db, t: ["serve", "--db", db, "--port", "0"],
    "season create": lambda db, t: ["season", "create", "春季赛", "--db", db],
    "sponsors load": lambda db, t: ["sponsors", "load", "sponsor_assets/demo/placements.yaml", "--db", db],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["folder", "device"])
def test_a_folder_or_a_device_given_as_the_database_is_named_for_what_it_is(
    command: str,
    kind: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    (tmp_path / "r.csv").write_text("姓名,队伍\n张三,甲队\n", encoding="utf-8")
    if kind == "folder":
        db = tmp_path / "studio.sqlite"
        db.mkdir()
    else:
        db = Path("/dev/zero")
    assert code(COMMANDS[command](str(db), tmp_path)) == 2
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(lines) == 1 and str(db) in lines[0], lines
    assert (FOLDER if kind == "folder" else DEVICE) in lines[0], lines
    assert "不存在" not in lines[0] and "Traceback" not in lines[0]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_is_not_a_database_is_named_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One line naming the file once (``report`` printed the path twice: ``f: f: 不是 SQLite …``)."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    (tmp_path / "r.csv").write_text("姓名,队伍\n张三,甲队\n", encoding="utf-8")
    db = tmp_path / "notes.sqlite"
    db.write_text("这不是数据库\n" * 100, encoding="utf-8")
    assert code(COMMANDS[command](str(db), tmp_path)) == 2
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].count(str(db)) == 1, lines
    assert "不是 SQLite 数据库文件 / not an SQLite database file" in lines[0]
    assert db.read_text(encoding="utf-8") == "这不是数据库\n" * 100
