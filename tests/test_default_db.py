"""One database by default: every command given no --db opens the same project database —
$GOUJI_DB, else ./data/studio.sqlite in the working directory — and says which file it opened."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from broadcast.core import db

ROOT = Path(__file__).resolve().parents[1]
PLACEMENTS = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != db.DB_ENV}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def _cli(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "broadcast", *args],
        cwd=cwd,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _opened(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in (proc.stderr + proc.stdout).splitlines() if ln.startswith("项目数据库 database: ")]
    assert lines, proc.stdout + proc.stderr
    return lines[0].removeprefix("项目数据库 database: ").removesuffix("（新建 new）").split("（")[0]


def test_the_default_is_gouji_db_else_data_studio_sqlite_in_the_working_directory() -> None:
    assert db.default_path({}) == Path("data") / "studio.sqlite"
    assert db.default_path({"GOUJI_DB": "/srv/show/ep12.sqlite"}) == Path("/srv/show/ep12.sqlite")
    assert db.default_path({"GOUJI_DB": "  "}) == Path("data") / "studio.sqlite"
    assert db.resolve("x.sqlite") == Path("x.sqlite")


def test_every_command_opens_the_same_database_and_says_which(tmp_path: Path) -> None:
    want = str(tmp_path / "data" / "studio.sqlite")
    load = _cli(tmp_path, "sponsors", "load", str(PLACEMENTS))
    assert load.returncode == 0, load.stderr
    assert _opened(load) == want and Path(want).is_file()
    for args in (("season", "list"), ("verify-journal",), ("report", "第1期", "--no-pdf")):
        proc = _cli(tmp_path, *args)
        assert _opened(proc) == want, args
        assert "Traceback" not in proc.stderr
    run = _cli(
        tmp_path, "run", "--headless", "--no-obs", "--no-rehearsal", "--exit-when-done", "--port", "0",
        "--winprob-workers", "0", "--commentators-port", "-1",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"项目数据库 database: {want}" in run.stdout  # the journal the sponsors load wrote, replayed
    assert "日志恢复到 #1" in run.stdout


@pytest.mark.parametrize("where", ["elsewhere.sqlite", "shows/ep12.sqlite"])
def test_gouji_db_moves_every_command(tmp_path: Path, where: str) -> None:
    load = _cli(tmp_path, "sponsors", "load", str(PLACEMENTS), GOUJI_DB=where)
    assert load.returncode == 0, load.stderr
    assert _opened(load) == str(tmp_path / where)
    check = _cli(tmp_path, "verify-journal", GOUJI_DB=where)
    assert _opened(check) == str(tmp_path / where)
    assert not (tmp_path / "data").exists()
    named = _cli(tmp_path, "verify-journal", "--db", where)  # a file the operator named: nothing to say
    assert named.returncode == 0 and "项目数据库" not in named.stderr + named.stdout
