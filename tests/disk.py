"""Real full and read-only disks for the storage tests: a small tmpfs mounted for the test (root, as the
test command runs), filled to the last byte or remounted read-only. Never a stand-in: SQLite and the
exporters meet the kernel's own ENOSPC / EROFS. And a real damaged database file."""

from __future__ import annotations

import errno
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_disk(size_kb: int = 4096) -> Iterator[Path]:
    """A fresh tmpfs of ``size_kb`` KiB, unmounted afterwards."""
    where = Path(tempfile.mkdtemp(prefix="gouji-disk-"))
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0777", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        where.rmdir()
        pytest.skip(f"a small tmpfs cannot be mounted here (the test command runs as root): {r.stderr}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        where.rmdir()


def fill(where: Path) -> Path:
    """Fill the disk holding ``where`` to the last byte; returns the filler file (delete it to free)."""
    filler = where / "filler.bin"
    block = b"\0" * 65536
    with filler.open("wb", buffering=0) as f:
        for size in (65536, 4096, 512, 1):
            while True:
                try:
                    f.write(block[:size])
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    st = os.statvfs(where)
    assert st.f_bavail == 0, "the disk is not full"
    return filler


def remount_readonly(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True)


def remount_writable(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,rw", str(where)], check=True, capture_output=True)


def damaged_journal(db: Path, actions: int = 300) -> Path:
    """A studio database whose journal b-tree root page is scribbled over (a damaged disk sector):
    ``actions`` journaled first so the journal spans pages, then its root's cell pointers overwritten."""
    import sqlite3

    from broadcast.studio import open_store

    store = open_store(db)
    for i in range(actions):
        store.dispatch("show.update", {"air_date": f"第{i}轮 " + "字" * 40})  # no on-air maximum
    store.close()
    c = sqlite3.connect(db)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = c.execute("SELECT rootpage FROM sqlite_master WHERE name='journal'").fetchone()[0]
    page = c.execute("PRAGMA page_size").fetchone()[0]
    c.close()
    raw = bytearray(db.read_bytes())
    start = (root - 1) * page
    raw[start + 8 : start + 200] = b"\xff" * 192
    db.write_bytes(bytes(raw))
    return db
