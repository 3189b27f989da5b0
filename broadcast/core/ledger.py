"""The head ledger: an append-only, fsync'd, signed file beside the database that anchors its chains.

Copying or editing only the ``.sqlite`` file cannot change what the ledger says the chains' heads
were: ``python -m broadcast report --verify`` and ``verify-receipt`` compare the database with it.
The file is ``<database>.heads`` (``studio.sqlite`` → ``studio.sqlite.heads``); one JSON object per
line (UTF-8, ``\\n``), each line signed with the studio's Ed25519 key (:mod:`broadcast.core.signing`)::

    {"v": 1, "n": 7, "kind": "asrun", "ts": 1764570000.25, "prev": "<sha256 of line 6>",
     "body": {…}, "key": "SHA256:<fingerprint>", "sig": "<base64 Ed25519 signature>"}

* ``n`` counts lines from 1; ``prev`` is the SHA-256 (hex) of the previous line's bytes without its
  newline (64 zeros for the first), so a line taken out of the middle breaks the ledger's own chain;
* ``sig`` signs the line's canonical JSON without ``sig`` (keys sorted, no spaces, UTF-8);
* ``kind`` says which chain the body anchors; a reader skips kinds it does not know. ``asrun`` is the
  as-run log's (``broadcast.sponsors.anchor`` writes it: see docs/sponsors.md); another chain (the
  journal's head) is appended the same way with a kind of its own, e.g.
  ``ledger.append("journal", {"seq": 812, "head": "…"})``.

Appending takes an exclusive ``flock`` on the file, writes one line with ``O_APPEND`` and fsyncs it
(and the folder, when the file is new), so two writers never interleave and a line that returned is
on the disk. Reading checks every line (format, ``n``, ``prev``, signature) and says what is wrong.

A last line without its newline is a write a crash cut short (an append returns only once its whole
line is on the disk, so nothing relied on it): the next append mends it first, under the same lock — a
whole line that lost only its newline gets it back; a fragment is copied aside to
``<ledger>.torn-<time>`` (kept, never deleted) and cut off, and the ledger goes on from the line before.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core.signing import PublicKey, StudioKey

__all__ = ["LEDGER_LIMIT", "HeadLedger", "LedgerReading", "LedgerRecord", "ledger_path"]

VERSION = 1
ZERO = "0" * 64
LEDGER_LIMIT = 256 * 1024 * 1024  # a ledger beyond this is refused as damaged (years of shows are MBs)
LINE_LIMIT = 4 * 1024 * 1024
log = logging.getLogger(__name__)


def ledger_path(database: str | Path) -> Path:
    return Path(f"{Path(database)}.heads")


def canonical(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class LedgerRecord:
    n: int
    kind: str
    ts: float
    prev: str
    body: dict[str, Any]
    key: str
    sig: str
    line_hash: str  # SHA-256 of this line's bytes (the next line's prev)


@dataclass
class LedgerReading:
    """Every line of a ledger, and what is wrong with it (empty: sound)."""

    records: list[LedgerRecord] = field(default_factory=list)
    problems: list[tuple[int, str, str]] = field(default_factory=list)  # (line, zh, en)
    exists: bool = True

    @property
    def ok(self) -> bool:
        return self.exists and not self.problems

    def of_kind(self, kind: str) -> list[LedgerRecord]:
        return [r for r in self.records if r.kind == kind]


class HeadLedger:
    def __init__(self, path: str | Path, key: StudioKey) -> None:
        self.path = Path(path)
        self.key = key
        self._lock = threading.Lock()
        self.mended: list[str] = []  # what the appends found torn and did about it (also logged)

    @classmethod
    def beside(cls, database: str | Path, key: StudioKey) -> HeadLedger:
        return cls(ledger_path(database), key)

    def append(self, kind: str, body: dict[str, Any], *, ts: float | None = None) -> LedgerRecord:
        """One signed line, on the disk when this returns."""
        if not kind or not kind.isascii() or not kind.replace("_", "").isalnum():
            raise ValueError(f"ledger kind must be a short ASCII word, not {kind!r}")
        with self._lock:
            new = not self.path.exists()
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                mended = _mend_torn_tail(fd, self.path)
                if mended:
                    log.warning("%s", mended)
                    self.mended.append(mended)
                n, prev = _last(fd)
                rec: dict[str, Any] = {
                    "v": VERSION,
                    "n": n + 1,
                    "kind": kind,
                    "ts": round(time.time() if ts is None else ts, 6),
                    "prev": prev,
                    "body": body,
                    "key": self.key.public.fingerprint,
                }
                rec["sig"] = self.key.sign(canonical(rec))
                line = canonical(rec)
                os.write(fd, line + b"\n")
                os.fsync(fd)
            finally:
                os.close(fd)  # (closing releases the lock)
            if new:
                _fsync_dir(self.path.parent)
        return _record(rec, line)


def read_ledger(path: str | Path, key: PublicKey | None = None) -> LedgerReading:
    """Every line, checked: format, numbering, the chain of lines and (given ``key``) each signature."""
    p = Path(path)
    out = LedgerReading()
    try:
        size = p.stat().st_size
        if size > LEDGER_LIMIT:
            out.problems.append((0, f"文件过大（{size} 字节）", f"file too large ({size} bytes)"))
            return out
        data = p.read_bytes()
    except FileNotFoundError:
        out.exists = False
        return out
    except OSError as exc:
        out.problems.append((0, f"无法读取（{exc.strerror}）", f"cannot read ({exc.strerror})"))
        return out
    prev, expect = ZERO, 1
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        out.problems.append(
            (
                len(lines),
                "最后一行不完整（写入时崩溃）：演播室下次写账本时会把它另存为 .torn-… 并接着写",
                "the last line is incomplete (a crash cut its write short): the studio's next append sets it "
                "aside as .torn-… and goes on",
            )
        )
        lines = lines[:-1]
    for i, line in enumerate(lines, 1):
        rec = _parse(line)
        if rec is None:
            out.problems.append((i, "不是账本记录（格式损坏）", "not a ledger line (damaged)"))
            return out
        if rec.n != expect or rec.prev != prev:
            out.problems.append(
                (
                    i,
                    "与前一行接不上（有行被删除、插入或改动）",
                    "does not follow the line before (deleted, inserted or edited)",
                )
            )
            return out
        if key is not None:
            unsigned = {k: v for k, v in json.loads(line).items() if k != "sig"}
            if rec.key != key.fingerprint or not key.verify(rec.sig, canonical(unsigned)):
                out.problems.append(
                    (i, "签名不符（不是这把演播室密钥签的，或被改动）", "signature does not verify")
                )
                return out
        out.records.append(rec)
        prev, expect = rec.line_hash, expect + 1
    return out


def _parse(line: bytes) -> LedgerRecord | None:
    if len(line) > LINE_LIMIT:
        return None
    try:
        obj = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        return None
    try:
        return _record(obj, line)
    except (KeyError, TypeError, ValueError):
        return None


def _record(obj: dict[str, Any], line: bytes) -> LedgerRecord:
    body = obj["body"]
    if not isinstance(body, dict):
        raise TypeError("body")
    return LedgerRecord(
        int(obj["n"]),
        str(obj["kind"]),
        float(obj["ts"]),
        str(obj["prev"]),
        body,
        str(obj["key"]),
        str(obj["sig"]),
        hashlib.sha256(line).hexdigest(),
    )


def _last(fd: int) -> tuple[int, str]:
    """The last complete line's number and hash (0 and zeros for an empty ledger)."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0:
        return 0, ZERO
    step, tail = 4096, b""
    pos = size
    while pos > 0:
        back = min(step, pos)
        pos -= back
        tail = os.pread(fd, back, pos) + tail
        body = tail[:-1] if tail.endswith(b"\n") else tail
        cut = body.rfind(b"\n")
        if cut >= 0 or pos == 0:
            line = body[cut + 1 :]
            rec = _parse(line)
            if rec is None:
                raise OSError(f"the head ledger's last line is damaged: {line[:80]!r}")
            return rec.n, rec.line_hash
        step *= 2
    return 0, ZERO


def _mend_torn_tail(fd: int, path: Path) -> str:
    """A last line without its newline (see the module's doc): mended; what was done, or "" if whole."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return ""
    start, step = size, 4096
    while start > 0:  # back to the newline before the torn line (or the file's start)
        back = min(step, start)
        chunk = os.pread(fd, back, start - back)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            start = start - back + cut + 1
            break
        start -= back
        step *= 2
    fragment = os.pread(fd, size - start, start)
    if _parse(fragment) is not None:  # the whole line, only its newline lost
        os.write(fd, b"\n")
        os.fsync(fd)
        return f"{path}: 最后一行缺换行符，已补上 / the last line had lost its newline: added"
    keep = path.with_name(f"{path.name}.torn-{time.strftime('%Y%m%d-%H%M%S')}-{size}")
    with open(keep, "wb") as f:
        f.write(fragment)
        f.flush()
        os.fsync(f.fileno())
    os.ftruncate(fd, start)
    os.fsync(fd)
    _fsync_dir(path.parent)
    return (
        f"{path}: 最后一行写入时被打断（{len(fragment)} 字节），已另存为 {keep.name} 并从前一行接着写 / "
        f"the last line was cut short by a crash ({len(fragment)} bytes): kept aside as {keep.name}, the "
        "ledger goes on from the line before"
    )


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
