"""Damaged database files (issue 23): a seeded fuzz of random bytes in the header, the journal's pages,
any page, the -wal file, and cut-short files. Every outcome is either a clean start with the content
intact, a start that names the damage, or one line naming the file and what to do — never "internal
error", never a wrong cause ("disk I/O error" for a damaged file), never a silent start with other
content. ``verify-journal`` never fails with an internal error."""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from broadcast.__main__ import main as cli
from broadcast.core.db import DatabaseError
from broadcast.studio import open_store

SEED = 23
CASES = 36
PAGE = 4096


def _season_digest(db: Path) -> str:
    """Every row of the season's tables (what the 英雄榜 and the reports are made of)."""
    c = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        c.text_factory = bytes
        h = hashlib.sha256()
        names = [
            r[0].decode()
            for r in c.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        ]
        for name in names:
            if name.startswith(("journal", "sqlite_")):
                continue
            for row in c.execute(f'SELECT * FROM "{name}" ORDER BY 1'):
                h.update(repr(row).encode())
        return h.hexdigest()
    finally:
        c.close()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A project database as the studio leaves it mid-show: the demo season and 100 actions in the
    main file, 40 more only in the -wal (copied while the store was open, as a crash leaves it)."""
    d = tmp_path_factory.mktemp("damage-base")
    db = d / "studio.sqlite"
    assert cli(["season", "demo", "--db", str(db)]) == 0
    store = open_store(db)
    for i in range(100):
        store.dispatch("show.update", {"round": f"第{i}轮"})
    store.close()
    store = open_store(db)
    store.journal.connection.execute("PRAGMA wal_autocheckpoint=0")
    for i in range(40):
        store.dispatch("graphic.set", {"bus": "program", "graphic": "ticker", "on": i % 2 == 0})
    frozen = d / "frozen"
    frozen.mkdir()
    for suffix in ("", "-wal", "-head"):
        shutil.copy(f"{db}{suffix}", frozen / f"studio.sqlite{suffix}")
    state = store.state
    store.close()
    truth = frozen / "studio.sqlite"
    assert Path(f"{truth}-wal").stat().st_size > 40 * PAGE
    return {"db": truth, "state": state, "season": _season_digest(db)}


def _damage(rng: random.Random, case: int, db: Path) -> str:
    wal = Path(f"{db}-wal")
    main = bytearray(db.read_bytes())
    kind = ("header", "journal", "page", "wal", "wal-header", "cut")[case % 6]
    if kind == "header":
        off = rng.randrange(0, 100 - 16)
    elif kind == "journal":  # inside the journal's rows in the main file
        spots = [i for i in range(len(main)) if main.startswith(b"show.update", i)]
        off = max(100, min(len(main) - 16, rng.choice(spots) + rng.randrange(-600, 600)))
    elif kind == "page":  # anywhere past the header: b-tree page headers, cells, free space
        off = rng.randrange(100, len(main) - 16)
    elif kind == "cut":
        target = rng.choice([db, wal])
        data = target.read_bytes()
        target.write_bytes(data[: rng.randrange(1, len(data))])
        return f"{kind}:{target.name}"
    if kind.startswith("wal"):
        data = bytearray(wal.read_bytes())
        off = rng.randrange(0, 32) if kind == "wal-header" else rng.randrange(32, len(data) - 16)
        data[off : off + 16] = rng.randbytes(16)
        wal.write_bytes(bytes(data))
        return f"{kind}@{off}"
    main[off : off + 16] = rng.randbytes(16)
    db.write_bytes(bytes(main))
    return f"{kind}@{off}"


def _one_line(text: str, db: Path) -> None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, text
    assert str(db) in lines[0] or db.name in lines[0], text
    assert "internal error" not in text and "内部错误" not in text, text
    assert "disk I/O error" not in text, text  # the disk is fine: the file is damaged


def test_random_damage_is_named_in_one_line_or_the_content_is_intact(
    base: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(SEED)
    outcomes: dict[str, int] = {}
    seen: list[str] = []
    for case in range(CASES):
        d = tmp_path / f"c{case}"
        d.mkdir()
        db = d / "studio.sqlite"
        for suffix in ("", "-wal", "-head"):
            shutil.copy(f"{base['db']}{suffix}", f"{db}{suffix}")
        what = _damage(rng, case, db)
        said = ""
        wal_as_damaged = Path(f"{db}-wal").read_bytes()
        capsys.readouterr()
        # the full check first (read-only): a verdict, never an internal error
        rc = cli(["verify-journal", "--db", str(db)])
        out, err = capsys.readouterr()
        assert rc in (0, 1, 2), (what, rc, out, err)
        assert "internal error" not in out + err and "Traceback" not in out + err, (what, out, err)
        if rc == 2:
            _one_line(err, db)
        # then the studio's start
        try:
            store = open_store(db)
        except DatabaseError as exc:
            _one_line(str(exc), db)
            outcome = "refused"
            said = str(exc).split(" / ", 1)[-1]
            assert "damaged" in said or "lost" in said, (what, str(exc))
            if "-wal file is damaged" in said:  # kept as it was before anything could checkpoint it away
                kept = sorted(d.glob("studio.sqlite-wal.damaged-*"))
                assert kept and kept[0].read_bytes() == wal_as_damaged, what
        else:
            try:
                if store.replay_errors:
                    assert all(str(db) in e or "#" in e for e in store.replay_errors), store.replay_errors
                    outcome = "named"
                else:
                    assert store.state == base["state"], f"{what}: started silently with other content"
                    assert rc == 0, (what, out, err)
                    outcome = "intact"
                    if _season_digest(db) != base["season"]:
                        # a value changed inside a season row, the file's structure and every index whole:
                        # no check of SQLite's can tell that from an edit (the season's rows carry no hash)
                        c = sqlite3.connect(db)
                        assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)], what
                        c.close()
                        outcome = "value changed in a season row"
            finally:
                store.close()
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        seen.append(f"case {case:2} {what:24} verify-journal={rc} start={outcome} {said[:60]}")
    print("\n".join(seen))
    print("outcomes:", outcomes)
    assert sum(outcomes.values()) == CASES >= 30
    assert outcomes.get("refused", 0) + outcomes.get("named", 0) >= CASES // 3  # the fuzz does damage


@pytest.mark.parametrize("command", [["season", "demo"], ["verify-journal"], ["import", "x.csv"], None])
def test_a_database_that_cannot_be_created_leaves_no_file_behind(
    command: list[str] | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new database on a full disk: one line naming the file, exit 2, and no empty file left."""
    from tests.disk import fill, small_disk

    with small_disk(1024) as disk:
        db = disk / "new.sqlite"
        filler = fill(disk)
        try:
            if command is None:
                with pytest.raises(DatabaseError) as err:
                    open_store(db)
                assert str(db) in str(err.value) and "full" in str(err.value)
            else:
                capsys.readouterr()
                (tmp_path / "x.csv").write_text("姓名,队名\n王建军,新队\n", encoding="utf-8")
                args = [*command[:1], *(str(tmp_path / a) if a.endswith(".csv") else a for a in command[1:])]
                assert cli([*args, "--db", str(db)]) == 2
                _, err_text = capsys.readouterr()
                _one_line(err_text, db)
            assert sorted(p.name for p in disk.iterdir()) == ["filler.bin"]
        finally:
            filler.unlink()


def test_a_frame_damaged_in_the_middle_of_the_wal_is_refused_and_the_wal_kept(
    base: dict[str, Any], tmp_path: Path
) -> None:
    """SQLite stops at the first -wal frame that fails its checksum and would checkpoint the frames
    before it and drop every later transaction: the start refuses, names the -wal, and keeps it."""
    db = tmp_path / "studio.sqlite"
    for suffix in ("", "-wal", "-head"):
        shutil.copy(f"{base['db']}{suffix}", f"{db}{suffix}")
    wal = Path(f"{db}-wal")
    data = bytearray(wal.read_bytes())
    third_page = 32 + 2 * (24 + PAGE) + 24  # the page of the third frame: 40 transactions follow it
    data[third_page + 100 : third_page + 116] = bytes(
        b ^ 0xFF for b in data[third_page + 100 : third_page + 116]
    )
    wal.write_bytes(bytes(data))
    with pytest.raises(DatabaseError) as err:
        open_store(db)
    assert "its -wal file is damaged (frame 3 of" in str(err.value) and str(db) in str(err.value)
    kept = sorted(tmp_path.glob("studio.sqlite-wal.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == bytes(data)
