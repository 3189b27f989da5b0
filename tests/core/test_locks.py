"""Another process closing the database must never take this process's journal with it.

SQLite's locks are POSIX fcntl locks, which a process loses on a file as soon as it closes *any*
descriptor of that file. Opening a second connection to the project database (the season, the as-run
log) used to read the file's header with ``open()``/``close()``, silently dropping the store's locks:
a `serve --db` follower (or any other process) closing its own connection then saw no other user,
checkpointed and deleted the -wal file the store was still appending to, and every later action was
lost at the next crash — what a console killed in a test showed (journal at #5, head file at #18)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from broadcast.core import db
from broadcast.studio import open_store


def _other_process(path: Path, sql: str) -> str:
    code = (
        f"import sqlite3; c = sqlite3.connect({str(path)!r}); "
        f"print(c.execute({sql!r}).fetchone()[0]); c.close()"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    ).stdout.strip()


def test_a_second_connection_and_another_process_leave_the_journal_whole(tmp_path: Path) -> None:
    path = tmp_path / "studio.sqlite"
    store = open_store(path)
    try:
        store.dispatch("show.update", {"episode": "第1期"})
        db.connect(path).close()  # a second connection of this process (season tables, as-run log …)
        assert _other_process(path, "SELECT MAX(seq) FROM journal") == "1"  # another process opens, closes
        assert Path(f"{path}-wal").exists()  # the store's -wal is still there …
        store.dispatch("show.update", {"episode": "第2期"})
        # … so what it writes next is in the file every other process reads
        assert _other_process(path, "SELECT MAX(seq) FROM journal") == "2"
    finally:
        store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 2
    conn.close()


def test_a_second_connection_keeps_this_process_on_the_wal_index(tmp_path: Path) -> None:
    """The -shm (wal-index) too: SQLite marks a process using it with a shared fcntl lock (the "DMS"
    byte, offset 128). Reading its header with ``open()``/``close()`` at a second connection dropped
    that lock: the next other process to open the file took itself for the first, truncated and
    re-initialised the -shm under the live one — the console died of SIGBUS (issue 19's busy-database
    test) and a re-initialised index can lose committed changes."""
    path = tmp_path / "studio.sqlite"
    store = open_store(path)
    try:
        store.dispatch(
            "show.update", {"episode": "第1期"}
        )  # frames in the -wal: the next open reads the -shm
        db.connect(path).close()
        probe = (
            "import fcntl, os\n"
            f"fd = os.open({str(path) + '-shm'!r}, os.O_RDWR)\n"
            "try:\n"
            "    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)\n"
            "    print('free')\n"
            "except OSError:\n"
            "    print('in use')\n"
        )
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "in use", out
    finally:
        store.close()
