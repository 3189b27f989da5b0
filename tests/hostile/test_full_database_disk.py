"""A project database on a full disk (a real tmpfs filled to the last byte): every command that writes
to it says the disk is full, in one line naming the file, exits 2, and the file is left as it was
(hostile2). Before, ``season create``, ``season team`` and ``import`` said "the file or its disk is
read-only", because SQLite that cannot grow its -shm on a full disk reports a read-only database."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from broadcast.__main__ import main as studio
from tests.disk import fill, small_disk

FULL = "磁盘已满，腾出空间后重试 / the disk is full: free some space, then try again"
WRITERS = {
    "season create": ["season", "create", "春季赛"],
    "season team": ["season", "team", "新来的队"],
    "import": ["import", "ROSTER"],
    "sponsors load": ["sponsors", "load", "sponsor_assets/demo/placements.yaml"],
}


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("season") / "studio.sqlite"
    assert studio(["season", "create", "第一季", "--db", str(db)]) == 0
    return db


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_full_disk_under_the_database_is_called_full_and_loses_nothing(
    command: str,
    season_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    roster = tmp_path / "r.csv"
    roster.write_text("姓名,队伍\n张三,甲队\n", encoding="utf-8")
    capsys.readouterr()
    with small_disk(2048) as disk:
        db = disk / "studio.sqlite"
        shutil.copy(season_db, db)
        before = db.read_bytes()
        fill(disk)
        argv = [str(roster) if a == "ROSTER" else a for a in WRITERS[command]]
        assert studio([*argv, "--db", str(db)]) == 2
        lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
        assert len(lines) == 1 and f"{db}: {FULL}" in lines[0], lines
        assert db.read_bytes() == before
