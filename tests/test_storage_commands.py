"""Every command against bad files and bad disks gives one line naming the file and what to do, exit 2,
never a traceback, and loses nothing (issue 13). Real processes, real SQLite files, real full and
read-only disks (tmpfs)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from broadcast.season.demo import build_demo_season
from broadcast.studio import open_store
from tests.disk import damaged_journal, fill, remount_readonly, small_disk

ROOT = Path(__file__).resolve().parent.parent
PLACEMENTS = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "broadcast", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def one_clear_line(r: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("season") / "demo.sqlite"
    build_demo_season(db)
    open_store(db).close()
    return db


def _foreign(path: Path, table: str = "journal") -> Path:
    c = sqlite3.connect(path)
    c.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, note TEXT)")
    c.commit()
    c.close()
    return path


def _newer(path: Path, component: str) -> Path:
    open_store(path).close()
    c = sqlite3.connect(path)
    c.execute(
        "INSERT INTO schema_versions(component, version) VALUES(?, 99) "
        "ON CONFLICT(component) DO UPDATE SET version=99",
        (component,),
    )
    c.commit()
    c.close()
    return path


def test_sponsors_load_on_files_that_are_not_a_studio_database(tmp_path: Path) -> None:
    notdb = tmp_path / "notdb.sqlite"
    notdb.write_text("hello\n", encoding="utf-8")
    foreign = _foreign(tmp_path / "foreign.sqlite")
    newer = _newer(tmp_path / "newer.sqlite", "journal")
    load = ("sponsors", "load", str(PLACEMENTS), "--db")
    one_clear_line(cli(*load, str(notdb)), str(notdb), "not an SQLite database file")
    one_clear_line(cli(*load, str(foreign)), str(foreign), "another program's SQLite file")
    one_clear_line(cli(*load, str(newer)), str(newer), "newer than this build", "upgrade the software")
    assert sqlite3.connect(foreign).execute("SELECT name FROM sqlite_master").fetchall() == [("journal",)]


def test_sponsors_load_on_a_read_only_disk(season_db: Path) -> None:
    with small_disk(4096) as disk:
        db = disk / "studio.sqlite"
        shutil.copy(season_db, db)
        remount_readonly(disk)
        r = cli("sponsors", "load", str(PLACEMENTS), "--db", str(db))
        one_clear_line(r, str(db), "read-only")


def test_run_on_a_newer_season_or_asrun_schema(tmp_path: Path) -> None:
    for component in ("season", "asrun"):
        db = _newer(tmp_path / f"{component}.sqlite", component)
        # no placements (--placements ""): probing the demo set's eight films first cost a second or more
        serve = ("--no-obs", "--no-rehearsal", "--exit-when-done", "--port", "0", "--placements", "")
        r = cli("run", "--db", str(db), *serve)
        err = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(err) == 1 and f"{component} schema v99" in err[0] and str(db) in err[0]


def test_read_only_commands_add_no_tables_to_a_foreign_file(tmp_path: Path) -> None:
    f = _foreign(tmp_path / "shop.sqlite", "customers")
    one_clear_line(cli("season", "leaderboard", "--db", str(f)), str(f), "another program's")
    one_clear_line(cli("export", "leaderboard", "--db", str(f), "--out", str(tmp_path / "x.csv")), str(f))
    assert sqlite3.connect(f).execute("SELECT name FROM sqlite_master").fetchall() == [("customers",)]


def test_import_on_a_full_disk_imports_nothing_and_says_so(season_db: Path, tmp_path: Path) -> None:
    roster = tmp_path / "名单.csv"
    rows = ["姓名,队伍,编号"] + [f"新选手{i:03d},新队{i % 4},N{i:04d}" for i in range(400)]
    roster.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with small_disk(2048) as disk:
        db = disk / "studio.sqlite"
        shutil.copy(season_db, db)
        players = sqlite3.connect(db).execute("SELECT COUNT(*) FROM season_players").fetchone()[0]
        filler = fill(disk)
        r = cli("import", str(roster), "--db", str(db))
        line = one_clear_line(r, str(db), "the disk is full")
        assert "rollback" not in line
        filler.unlink()
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM season_players").fetchone()[0] == players
        # with space again the same import goes through whole
        assert cli("import", str(roster), "--db", str(db)).returncode == 0
        assert (
            sqlite3.connect(db).execute("SELECT COUNT(*) FROM season_players").fetchone()[0] == players + 400
        )


def test_export_on_a_full_disk_leaves_the_old_file_and_no_part(season_db: Path) -> None:
    with small_disk(1024) as disk:
        out = disk / "英雄榜.xlsx"
        out.write_bytes(b"old file kept")
        filler = fill(disk)
        for fmt in ("xlsx", "csv", "json"):
            target = out.with_suffix(f".{fmt}")
            r = cli("export", "leaderboard", "--db", str(season_db), "--out", str(target), "--quiet")
            one_clear_line(r, str(target), "the disk is full")
            assert not list(disk.glob("*.part")), list(disk.iterdir())
        assert out.read_bytes() == b"old file kept"
        filler.unlink()
        r = cli("export", "leaderboard", "--db", str(season_db), "--out", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        assert openpyxl.load_workbook(out).active.max_row > 10


def test_export_with_placements_that_are_not_utf8(season_db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "排期.yaml"
    bad.write_bytes("sponsors:\n  x:\n    name: 鲁信\nleaderboard:\n  sponsor: x\n".encode("gbk"))
    r = cli(
        "export",
        "leaderboard",
        "--db",
        str(season_db),
        "--out",
        str(tmp_path / "lb.png"),
        "--placements",
        str(bad),
    )
    one_clear_line(r, f"{bad}:3", "UTF-8")
    assert not (tmp_path / "lb.png").exists()


def test_import_of_an_xlsx_whose_sheet_xml_is_cut_short(season_db: Path, tmp_path: Path) -> None:
    good = tmp_path / "good.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append(["姓名", "队伍"])
    for i in range(50):
        wb.active.append([f"选手{i}", "甲队"])
    wb.save(good)
    cut = tmp_path / "cut.xlsx"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(cut, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename.startswith("xl/worksheets/sheet"):
                data = data[: len(data) // 2]
            zout.writestr(info, data)
    db = tmp_path / "s.sqlite"
    shutil.copy(season_db, db)
    r = cli("import", str(cut), "--db", str(db))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{cut}:row" in r.stderr and "damaged" in r.stderr and "nothing was imported" in r.stderr
    assert (
        sqlite3.connect(db)
        .execute("SELECT COUNT(*) FROM season_players WHERE name LIKE '选手%'")
        .fetchone()[0]
        == 0
    )


def test_a_damaged_journal_stops_run_with_one_line(tmp_path: Path) -> None:
    db = damaged_journal(tmp_path / "studio.sqlite")
    r = cli("run", "--db", str(db), "--no-obs", "--no-rehearsal", "--exit-when-done", "--port", "0")
    one_clear_line(r, str(db), "damaged", "backup")


# The run on a full disk (serves the last state, writes once space is back) is the second start of
# tests/test_run.py::test_run_without_obs_plays_the_demo_match_and_recovers_on_restart_on_a_full_disk: the
# demo match it plays is the one that test's restart plays anyway.
