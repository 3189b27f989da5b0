"""The project database against bad files and bad disks (issue 13): what is not ours is refused untouched,
a full or read-only disk refuses writes with a clear error while reading goes on, and nothing confirmed is
lost or renumbered. Real SQLite files on real (tmpfs) disks."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from broadcast.core.db import DatabaseError, StorageError, connect
from broadcast.season.model import SeasonDB
from broadcast.studio import open_store
from tests.disk import damaged_journal, fill, remount_readonly, remount_writable, small_disk


def _tables(path: Path) -> list[str]:
    c = sqlite3.connect(path)
    try:
        return sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'"))
    finally:
        c.close()


def test_a_file_that_is_not_sqlite_is_refused_by_name_and_left_as_it_was(tmp_path: Path) -> None:
    f = tmp_path / "notes.sqlite"
    f.write_bytes("这不是数据库 not a database\n".encode())
    before = f.read_bytes()
    with pytest.raises(DatabaseError) as err:
        open_store(f)
    assert str(f) in str(err.value) and "not an SQLite database file" in str(err.value)
    assert f.read_bytes() == before


def test_another_programs_sqlite_file_is_refused_and_gets_no_tables(tmp_path: Path) -> None:
    f = tmp_path / "other.sqlite"
    c = sqlite3.connect(f)
    c.execute("CREATE TABLE journal (id INTEGER, text TEXT)")  # a foreign table of the same name
    c.execute("INSERT INTO journal VALUES (1, '日记')")
    c.commit()
    c.close()
    for opener in (open_store, SeasonDB.open):  # a writer and a reader (season list, export)
        with pytest.raises(DatabaseError) as err:
            opener(f)
        assert str(f) in str(err.value) and "another program's SQLite file" in str(err.value)
        assert "journal" in str(err.value)
    assert _tables(f) == ["journal"]


def test_a_file_from_a_newer_build_is_refused_naming_file_and_component(tmp_path: Path) -> None:
    f = tmp_path / "newer.sqlite"
    open_store(f).close()
    c = sqlite3.connect(f)
    c.execute("UPDATE schema_versions SET version=99 WHERE component='journal'")
    c.commit()
    c.close()
    with pytest.raises(DatabaseError) as err:
        open_store(f)
    msg = str(err.value)
    assert str(f) in msg and "journal schema v99" in msg and "upgrade the software" in msg


def test_a_full_disk_refuses_the_action_keeps_the_state_and_loses_no_seq(tmp_path: Path) -> None:
    with small_disk(2048) as disk:
        db = disk / "studio.sqlite"
        store = open_store(db)
        store.dispatch("show.update", {"episode": "第1期"})
        seen: list[int] = []
        store.subscribe(lambda ch: seen.append(ch.seq))
        filler = fill(disk)
        before = store.snapshot()
        refused = 0
        for i in range(200):  # the WAL has some room left in its pages: write until the disk says no
            try:
                # a field with no on-air maximum (air_date is not drawn): the filler that fills the disk
                store.dispatch("show.update", {"air_date": f"第{i}轮" + "长" * 2000})
            except StorageError as exc:
                assert exc.kind == "full" and str(db) in str(exc) and "free some space" in str(exc)
                refused += 1
                break
            before = store.snapshot()
        assert refused == 1
        assert store.state == before  # the refused action changed nothing on screen
        confirmed = store.seq
        assert seen[-1:] == ([confirmed] if seen else [])
        filler.unlink()  # the operator frees space: the next write goes through, numbered next
        change = store.dispatch("show.update", {"round": "决赛"})
        assert change.seq == confirmed + 1
        store.close()
        again = open_store(db)
        assert again.seq == confirmed + 1 and again.state["show"]["round"] == "决赛"
        assert again.state["show"]["episode"] == "第1期"
        again.close()


def test_a_studio_file_on_a_full_disk_opens_read_only_and_writes_once_space_is_back(tmp_path: Path) -> None:
    src = tmp_path / "src.sqlite"
    s = open_store(src)
    s.dispatch("show.update", {"episode": "第7期"})
    s.close()
    with small_disk(2048) as disk:
        db = disk / "studio.sqlite"
        shutil.copy(src, db)
        filler = fill(disk)  # not even room for SQLite's -shm file
        store = open_store(db)  # a restart on the full disk: the last state is read
        assert store.state["show"]["episode"] == "第7期" and store.seq == 1
        with pytest.raises(StorageError) as err:
            store.dispatch("show.update", {"episode": "第8期"})
        assert err.value.kind == "full" and str(db) in str(err.value)
        assert store.state["show"]["episode"] == "第7期"
        filler.unlink()
        assert store.dispatch("show.update", {"episode": "第8期"}).seq == 2
        store.close()


def test_a_read_only_disk_is_read_and_served_and_writes_are_refused_until_it_is_writable(
    tmp_path: Path,
) -> None:
    src = tmp_path / "src.sqlite"
    s = open_store(src)
    s.dispatch("show.update", {"episode": "第3期"})
    s.close()
    with small_disk(4096) as disk:
        db = disk / "studio.sqlite"
        shutil.copy(src, db)
        remount_readonly(disk)
        store = open_store(db)
        assert store.state["show"]["episode"] == "第3期"
        with pytest.raises(StorageError) as err:
            store.dispatch("show.update", {"episode": "第4期"})
        assert err.value.kind == "readonly" and str(db) in str(err.value)
        remount_writable(disk)
        assert store.dispatch("show.update", {"episode": "第4期"}).seq == 2
        store.close()
    # a new database cannot be made in a read-only folder: said so, by name
    with small_disk(1024) as disk:
        remount_readonly(disk)
        with pytest.raises(StorageError) as err2:
            open_store(disk / "new.sqlite")
        assert "read-only" in str(err2.value) and str(disk / "new.sqlite") in str(err2.value)


def test_journal_rows_that_are_not_json_objects_are_named_not_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    s = open_store(db)
    s.dispatch("show.update", {"episode": "第1期"})
    s.dispatch("show.update", {"round": "积分赛"})
    s.dispatch("show.update", {"title": "够级英雄"})
    s.close()
    c = sqlite3.connect(db)
    c.execute("UPDATE journal SET payload='{not json' WHERE seq=2")
    c.execute("UPDATE journal SET payload='[1, 2]' WHERE seq=3")
    c.commit()
    c.close()
    store = open_store(db)
    errors = store.replay_errors
    assert [e for e in errors if "not a JSON object" in e] == [
        e for e in errors if "not a JSON object" in e and ("#2" in e or "#3" in e)
    ]
    assert sum("not a JSON object" in e for e in errors) == 2
    assert sum("hash does not chain" in e for e in errors) == 2  # the edits are visible as such
    assert store.state["show"]["episode"] == "第1期"
    store.close()


def test_a_damaged_journal_page_is_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    db = damaged_journal(tmp_path / "studio.sqlite")
    with pytest.raises(DatabaseError) as err:
        open_store(db)
    assert str(db) in str(err.value) and "damaged" in str(err.value)


def test_connect_read_only_never_creates_a_file(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError):
        connect(tmp_path / "missing.sqlite", readonly=True)
    assert not (tmp_path / "missing.sqlite").exists()
