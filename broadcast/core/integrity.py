"""Is a database file whole? The bounded check every open runs, and the -wal file's own check.

* :func:`quick_check` runs SQLite's ``PRAGMA integrity_check`` (every page's structure, every
  record's format, every index against its table) within a time budget: a damaged file is refused at
  open instead of starting and failing later on the page that is damaged. A file too big to check
  within the budget is checked as far as the budget goes (the journal's hash chain covers the show's
  record anyway). A value changed inside a row that leaves all of that whole cannot be told from an
  edit by any check of SQLite's: the journal's rows carry their hash for that.
* :func:`wal_frames` reads the -wal file's frame headers without SQLite (walformat: a 32-byte header,
  then frames of a 24-byte header and one page): how many frames of the current generation end a
  committed transaction. :func:`wal_in_use` reads how many SQLite took (the wal-index header in the
  -shm file). A crash may leave the last transaction torn (written, never confirmed): SQLite leaves it
  out. Two or more transactions it left out mean a frame before the last one failed its checksum: the
  -wal file is damaged, and every change after that frame would be thrown away by the next checkpoint.
"""

from __future__ import annotations

import os
import sqlite3
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CHECK_SECONDS = 1.0  # the open's integrity check gives up (the file counts as checked) after this
_MAGIC = (0x377F0682, 0x377F0683)
_WAL_HEADER = 32
_FRAME_HEADER = 24


def quick_check(conn: sqlite3.Connection, seconds: float = CHECK_SECONDS) -> str | None:
    """The first problem ``PRAGMA quick_check`` finds in the file, or ``None`` (whole, or the budget
    ran out first). Raises what SQLite raises for a file it cannot read at all."""
    deadline = time.monotonic() + seconds
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        rows = conn.execute("PRAGMA integrity_check(3)").fetchall()
    except sqlite3.OperationalError as exc:
        if "interrupt" in str(exc).lower():
            return None  # bounded: checked as far as the budget went
        raise
    finally:
        conn.set_progress_handler(None, 0)
    findings = [str(r[0]) for r in rows if str(r[0]) != "ok"]
    return "; ".join(findings) if findings else None


def _checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


@dataclass(frozen=True)
class WalFrames:
    salts: bytes  # the current generation's salts (frames with others are left over from before)
    header_ok: bool  # magic and the header's checksum hold
    frames: int  # frames the file has room for
    commits: tuple[int, ...]  # the frames of the current generation that end a transaction


def wal_frames(wal: Path) -> WalFrames | None:
    """The -wal file's frames as its headers say (``None``: no file, or nothing in it)."""
    try:
        with open(wal, "rb") as f:
            header = f.read(_WAL_HEADER)
            if len(header) < _WAL_HEADER:
                return None
            magic, _version, page_size = struct.unpack(">III", header[:12])
            stored = struct.unpack(">II", header[24:32])
            header_ok = magic in _MAGIC and _checksum(header[:24], magic & 1 == 1) == stored
            if not header_ok or not 512 <= page_size <= 65536 or page_size & (page_size - 1):
                size = wal.stat().st_size
                return WalFrames(header[16:24], False, max(0, size - _WAL_HEADER) // 4096, ())
            salts = header[16:24]
            step = _FRAME_HEADER + page_size
            frames = 0
            commits: list[int] = []
            while True:
                f.seek(_WAL_HEADER + frames * step)
                fh = f.read(_FRAME_HEADER)
                if len(fh) < _FRAME_HEADER:
                    break
                frames += 1
                commit = struct.unpack(">I", fh[4:8])[0]
                if fh[8:16] == salts and commit:
                    commits.append(frames)
            return WalFrames(salts, True, frames, tuple(commits))
    except OSError:
        return None


_kept_fds: dict[tuple[int, int], int] = {}
_kept_lock = threading.Lock()


def read_kept_open(path: Path, n: int) -> bytes:
    """The file's first ``n`` bytes, read through a descriptor this process keeps open for good.

    SQLite's locks are fcntl locks, and POSIX drops every fcntl lock a process holds on a file when it
    closes *any* descriptor of it. An ``open()``/``close()`` of the database (its header) or of its -shm
    (the wal-index) while this process has the database open would leave it looking unused to other
    processes: the next one to close its connection then checkpoints and deletes the -wal this process
    still appends to, or the next one to open it re-initialises the -shm under it (the console's
    busy-database test: the console died of SIGBUS on its truncated wal-index; a re-initialised index
    can lose committed changes). So the descriptor is never closed."""
    st = path.stat()
    key = (st.st_dev, st.st_ino)
    with _kept_lock:
        fd = _kept_fds.get(key)
        if fd is None:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            _kept_fds[key] = fd
    return os.pread(fd, n, 0)


def wal_in_use(db: Path) -> tuple[int, bytes] | None:
    """How many -wal frames SQLite took as valid (``mxFrame`` in the wal-index header of the -shm
    file, native byte order) — read after a connection has read the database — with the -wal's
    salts at that moment; ``None`` when there is no -shm to read."""
    try:
        hdr = read_kept_open(Path(f"{db}-shm"), 48)
        with open(f"{db}-wal", "rb") as f:  # no locks on the -wal (SQLite keeps them in the -shm)
            salts = f.read(_WAL_HEADER)[16:24]
    except OSError:
        return None
    if len(hdr) < 48 or hdr[12] != 1:  # isInit
        return None
    return struct.unpack("=I", hdr[16:20])[0], salts


def wal_damage(db: Path, before: WalFrames | None) -> str | None:
    """Why the -wal file beside ``db`` is damaged (committed frames SQLite could not take), or ``None``.
    ``before`` is :func:`wal_frames` read before the connection opened the file; a -wal that a live
    writer started anew meanwhile (other salts) is not judged."""
    if before is None or before.frames == 0:
        return None
    used = wal_in_use(db)
    if used is None:
        return None
    mx, salts_now = used
    if not before.header_ok:
        if mx == 0 and before.frames > 0:
            return "header"
        return None
    if salts_now != before.salts:  # started anew by a writer since: nothing to judge
        return None
    # frames SQLite did not take: the last transaction torn by a crash (its frames are written before
    # it is confirmed) is normal; a later transaction complete after them means a frame was damaged
    after = [c for c in before.commits if c > mx]
    if len(after) >= 2:
        return f"frame {mx + 1} of {after[-1]}"
    return None
