"""The action journal: every change to the show state is first appended here (SQLite, durable).

On start-up the store rebuilds the state exactly as it was, so a crash of the console loses nothing
that was confirmed to the operator: it loads the newest *checkpoint* (the whole state at one journal
position, written in the same transaction as the action it follows) and replays only the actions after
it, so a restart costs about the same at 10,000 actions as at 200,000.

Every row carries a running hash (``hash = H(previous hash, seq, ts, type, payload, source)``), so an
edited row, a row taken out or a cut-off tail is visible. Beside the database the journal keeps its
*head* (last seq and hash) in a small file ``<db>-head``, rewritten after every append: if the
database comes back shorter than its head (its ``-wal`` file deleted or emptied, an older copy put
back), :meth:`Journal.check` says which actions are missing, and the numbers of the lost actions are
never given to new ones (the gap is recorded in ``journal_gaps``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast.core import db
from broadcast.errors import plural

MIGRATIONS = [
    """
    CREATE TABLE journal (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'console'
    );
    """,
    """
    ALTER TABLE journal ADD COLUMN hash TEXT;
    CREATE TABLE journal_checkpoints (
        seq INTEGER PRIMARY KEY,
        ts REAL NOT NULL,
        fingerprint TEXT NOT NULL,
        hash TEXT NOT NULL,
        state TEXT NOT NULL
    );
    CREATE TABLE journal_gaps (
        first INTEGER NOT NULL,
        last INTEGER NOT NULL,
        noted REAL NOT NULL,
        reason TEXT NOT NULL DEFAULT ''
    );
    """,
    """
    CREATE TABLE journal_identity (id TEXT NOT NULL);
    INSERT INTO journal_identity(id) VALUES (lower(hex(randomblob(16))));
    """,
]
GENESIS = "0" * 32  # the hash "before" the first row
CHECK_SECONDS = 0.5  # a start checks the rows its checkpoint stands for within this time
KEEP_CHECKPOINTS = 3
_HEAD_WIDTH = 64


STATE_ENV = "GOUJI_STATE_DIR"


def state_dir() -> Path:
    """Where the journal keeps the second copy of each database's head: ``$GOUJI_STATE_DIR``, else
    ``$XDG_STATE_HOME/gouji-studio/heads``, else ``~/.local/state/gouji-studio/heads``."""
    given = os.environ.get(STATE_ENV, "").strip()
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_STATE_HOME", "").strip() or str(Path.home() / ".local" / "state")
    return Path(base) / "gouji-studio" / "heads"


def _version(conn: sqlite3.Connection) -> int:
    try:
        row = conn.execute("SELECT version FROM schema_versions WHERE component='journal'").fetchone()
    except sqlite3.DatabaseError:
        return 0
    return int(row[0]) if row else 0


def _pwrite(path: Path | None, record: str, *, make_folder: bool = False) -> None:
    """Write ``record`` at the start of ``path`` in place (best effort: the head is a check, not the
    record — the journal itself is committed)."""
    if path is None:
        return
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, record.encode("utf-8"), 0)
        finally:
            os.close(fd)
    except OSError:
        pass


def _read_record(path: Path | None) -> tuple[int, str] | None:
    if path is None:
        return None
    try:
        text = path.read_bytes()[:_HEAD_WIDTH].decode("ascii")
        seq_text, digest = text.split()
        return int(seq_text), digest
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def chain_hash(prev: str, seq: int, ts: float, type_: str, payload: str, source: str) -> str:
    """The running hash of one row (``payload`` as stored: compact JSON text)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{prev}\x1f{seq}\x1f{ts!r}\x1f{type_}\x1f{source}\x1f".encode())
    h.update(payload.encode("utf-8"))
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    ts: float
    type: str
    payload: dict[str, Any]
    source: str


@dataclass(frozen=True, slots=True)
class Checkpoint:
    seq: int
    ts: float
    fingerprint: str
    hash: str
    state: dict[str, Any]


class Journal:
    """Append-only log of actions in the project database."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.committed = 0  # appends made with sync=False (each one's number: sync(upto=…))
        self._synced = 0  # of those, the ones known to be on the disk
        self._sync_lock = threading.Lock()  # one fsync at a time; a later one may cover earlier commits
        self._folder_synced = False
        self.damaged: list[str] = []  # entries that could not be read or do not chain (see entries())
        before = _version(conn)
        db.migrate(conn, "journal", MIGRATIONS)
        self.identity = self._identity()
        if not self.readonly and before < len(MIGRATIONS):
            # the identity in the main file itself at once, so that a copy of the .sqlite alone carries it
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.DatabaseError:
                pass
        if not self.readonly:
            # every confirmed action on the disk before it is confirmed, even through a power cut:
            # the WAL is synced at each commit (benchmarks/restart.py --synchronous prints the cost)
            conn.execute("PRAGMA synchronous=FULL")
        self._fill_missing_hashes()

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False) -> Journal:
        return cls(db.connect(path, readonly=readonly))

    @property
    def connection(self) -> sqlite3.Connection:
        return self._conn

    @property
    def path(self) -> str:
        return str(getattr(self._conn, "path", "") or "journal")

    @property
    def readonly(self) -> bool:
        return bool(getattr(self._conn, "readonly", False))

    @property
    def head_file(self) -> Path | None:
        p = getattr(self._conn, "path", "")
        return Path(f"{p}-head") if p else None

    @property
    def second_head(self) -> Path | None:
        """The head's second copy, outside the database's folder (:func:`state_dir`), named by the
        database's identity: copying only the .sqlite file (no -wal, no -head) cannot lose it."""
        return state_dir() / f"{self.identity}.head" if self.identity else None

    def _identity(self) -> str:
        try:
            row = self._conn.execute("SELECT id FROM journal_identity LIMIT 1").fetchone()
        except sqlite3.DatabaseError:
            return ""  # a file opened read-only before its upgrade
        text = str(row[0]) if row else ""
        return text if text.isalnum() and len(text) <= 64 else ""

    # -- writing ---------------------------------------------------------------------------------
    def append(
        self,
        type_: str,
        payload: dict[str, Any],
        ts: float,
        source: str = "console",
        *,
        checkpoint: Any = None,
        sync: bool = True,
    ) -> int:
        """Append one action (and, when ``checkpoint`` is given, the state it leads to: a callable
        given the action's seq and returning ``(fingerprint, state_json)`` or ``None``, or the tuple
        itself) in one transaction. Raises
        :class:`db.StorageError` if the disk refuses it: then nothing of it is kept.

        ``sync=False``: committed to the write-ahead log without waiting for the disk — the action is
        kept if the process is killed from here on (the -wal is written), not yet through a power cut —
        and the caller then calls :meth:`sync` before it calls the action confirmed (the store tells the
        pages in between: ``ShowStore.subscribe(early=True)``). Together the two are what
        ``synchronous=FULL`` does at the commit. (A journal not in WAL mode syncs at the commit.)"""
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        if self.readonly:  # opened read-only: is the file writable by now?
            again = db.writable_again(self._conn)
            if again is None:
                raise db.refused(self._conn)
            self._conn.close()
            self._conn = again
        conn = self._conn
        later = not sync and self._in_wal()
        try:
            if later:  # this commit only: the WAL is synced by sync(), after the caller's early work
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
                last, prev = (int(row[0]), str(row[1] or GENESIS)) if row else (0, GENESIS)
                used = conn.execute("SELECT seq FROM sqlite_sequence WHERE name='journal'").fetchone()
                seq = max(last, int(used[0]) if used else 0) + 1  # never a number given out before
                digest = chain_hash(prev, seq, ts, type_, text, source)
                conn.execute(
                    "INSERT INTO journal(seq, ts, type, payload, source, hash) VALUES(?, ?, ?, ?, ?, ?)",
                    (seq, ts, type_, text, source, digest),
                )
                cp = checkpoint(seq) if callable(checkpoint) else checkpoint
                if cp is not None:
                    fingerprint, state_text = cp
                    self._write_checkpoint(seq, ts, fingerprint, digest, state_text)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # a full disk may have rolled it back already
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        finally:
            if later:
                self._full()
        if later:
            self.committed += 1
        self._write_head(seq, digest)
        return seq

    def _full(self) -> None:
        try:
            self._conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError:
            pass

    def _in_wal(self) -> bool:
        try:
            return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
        except sqlite3.DatabaseError:
            return False

    def sync(self, upto: int | None = None) -> None:
        """Put what :meth:`append` committed with ``sync=False`` — up to its ``upto``-th such commit
        (:attr:`committed` just after it), else all of them — on the disk (``fsync`` of the -wal, and
        once per journal of the folder holding it): then it survives a power cut, as with
        ``synchronous=FULL``. Any thread, without the connection: a commit made meanwhile on another
        thread is covered by a later fsync (or by this one). Raises ``OSError`` when the disk refuses."""
        want = self.committed if upto is None else upto
        with self._sync_lock:
            if self._synced >= want:
                return  # an fsync begun after that commit has ended
            covered = self.committed  # every commit made before the fsync begins is in it
            wal = Path(f"{self.path}-wal")
            fd = os.open(wal, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            if not self._folder_synced:  # the -wal's name in its folder (a new file)
                fd = os.open(wal.parent, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                self._folder_synced = True
            self._synced = max(self._synced, covered)

    def write_checkpoint(self, seq: int, ts: float, fingerprint: str, state_text: str) -> bool:
        """Store the state at journal position ``seq`` (already journaled). False if the disk refused."""
        if self.readonly:
            return False
        row = self._conn.execute("SELECT hash FROM journal WHERE seq=?", (seq,)).fetchone()
        if row is None or row[0] is None:
            return False
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._write_checkpoint(seq, ts, fingerprint, str(row[0]), state_text)
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError:
            return False
        return True

    def _write_checkpoint(self, seq: int, ts: float, fingerprint: str, digest: str, state_text: str) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO journal_checkpoints(seq, ts, fingerprint, hash, state) VALUES(?,?,?,?,?)",
            (seq, ts, fingerprint, digest, state_text),
        )
        self._conn.execute(
            "DELETE FROM journal_checkpoints WHERE seq NOT IN "
            "(SELECT seq FROM journal_checkpoints ORDER BY seq DESC LIMIT ?)",
            (KEEP_CHECKPOINTS,),
        )

    def _write_head(self, seq: int, digest: str) -> None:
        """Rewrite the head's second copy (the record and the database's path), then the head file in
        place (one fixed-size record; a torn one reads as unknown). The second copy first: a death between
        the two leaves it ahead of the head file, never behind it, so a copy of the .sqlite alone names
        every action the original had confirmed."""
        record = f"{seq:020d} {digest}".ljust(_HEAD_WIDTH - 1) + "\n"
        second = self.second_head
        if second is not None:
            _pwrite(second, record + str(Path(self.path).resolve()) + "\n", make_folder=True)
        _pwrite(self.head_file, record)

    def read_head(self) -> tuple[int, str] | None:
        return _read_record(self.head_file)

    def read_second_head(self) -> tuple[int, str, str] | None:
        """The second copy: ``(seq, hash, the path it was written for)``."""
        second = self.second_head
        head = _read_record(second)
        if head is None or second is None:
            return None
        try:
            # the path's first line: a longer one written before may still follow it (written in place)
            where = second.read_bytes()[_HEAD_WIDTH:].decode("utf-8", "replace").split("\n")[0].strip()
        except OSError:
            where = ""
        return head[0], head[1], where

    def _known_head(self) -> tuple[int, str, str] | None:
        """The head the journal must reach, and where it was seen: the head file beside the database;
        its second copy when it is further on (the same file), or when the head file is gone (a copy of
        the .sqlite alone, or its -head deleted) — then also the file the copy was made from."""
        beside = self.read_head()
        second = self.read_second_head()
        here = str(Path(self.path).resolve())
        if second is not None and (beside is None or (second[2] == here and second[0] > beside[0])):
            return second
        return (beside[0], beside[1], here) if beside is not None else None

    def _fill_missing_hashes(self) -> None:
        """Rows written by an older build have no hash: chain them once (in one transaction)."""
        if self.readonly:
            return
        try:
            # every row this build writes has its hash, and the filling below is one transaction: if
            # the last row has one, all have (a look at one row, not a scan of the journal)
            last = self._conn.execute("SELECT hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
            if last is None or last[0] is not None:
                return
            first = self._conn.execute("SELECT MIN(seq) FROM journal WHERE hash IS NULL").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        if first is None:
            return
        row = self._conn.execute(
            "SELECT hash FROM journal WHERE seq < ? ORDER BY seq DESC LIMIT 1", (first,)
        ).fetchone()
        prev = str(row[0]) if row and row[0] else GENESIS
        rows = self._conn.execute(
            "SELECT seq, ts, type, payload, source FROM journal WHERE seq >= ? ORDER BY seq", (first,)
        ).fetchall()
        updates = []
        for seq, ts, type_, payload, source in rows:
            prev = chain_hash(prev, int(seq), float(ts), str(type_), str(payload), str(source))
            updates.append((prev, int(seq)))
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.executemany("UPDATE journal SET hash=? WHERE seq=?", updates)
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        if updates:
            self._write_head(updates[-1][1], updates[-1][0])

    # -- reading ---------------------------------------------------------------------------------
    def entries(self, since: int = 0, *, prev_hash: str | None = None) -> Iterator[Entry]:
        """The entries after ``since`` in order. With ``prev_hash`` (the chain hash at ``since``) every
        row's hash is checked; a row that does not chain is named in :attr:`damaged` (and still
        returned: it is what the journal holds). An entry whose payload is not a JSON object is
        skipped and named in :attr:`damaged`; an unreadable page raises :class:`db.StorageError`."""
        prev = prev_hash
        try:
            cur = self._conn.execute(
                "SELECT seq, ts, CAST(type AS BLOB), CAST(payload AS BLOB), CAST(source AS BLOB), "
                "CAST(hash AS BLOB) FROM journal WHERE seq > ? ORDER BY seq",
                (since,),
            )
            for seq, ts, type_b, payload_b, source_b, digest_b in cur:
                try:  # read as bytes: a damaged row is named, not the end of the whole replay
                    type_, payload, source = (
                        bytes(b or b"").decode("utf-8") for b in (type_b, payload_b, source_b)
                    )
                    digest = None if digest_b is None else bytes(digest_b).decode("ascii")
                    ts = float(ts)
                except (UnicodeDecodeError, ValueError, TypeError):
                    self.damaged.append(
                        f"日志 #{seq}：内容已损坏（不是文字），已跳过 / "
                        f"journal #{seq}: damaged (not text), skipped"
                    )
                    prev = None  # the chain cannot be followed past it: the rows after are not judged
                    continue
                if prev is not None and digest is not None:
                    want = chain_hash(prev, int(seq), float(ts), type_, payload, source)
                    if want != digest:
                        self.damaged.append(
                            f"日志 #{seq} {type_}：校验不符，该行或之前的行被改动或删除 / journal #{seq} "
                            f"{type_}: hash does not chain: this row or one before it was edited or removed"
                        )
                    prev = str(digest)
                try:
                    data = json.loads(payload)
                except (TypeError, ValueError, RecursionError):
                    data = None
                if not isinstance(data, dict):
                    self.damaged.append(
                        f"日志 #{seq} {type_}：内容不是 JSON 对象，已跳过 / journal #{seq} {type_}: "
                        "payload is not a JSON object, skipped"
                    )
                    continue
                yield Entry(int(seq), float(ts), type_, data, source)
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        try:
            return self._conn.execute(sql, args).fetchone()
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc

    def last_seq(self) -> int:
        return int(self._one("SELECT COALESCE(MAX(seq), 0) FROM journal")[0])

    def hash_at(self, seq: int) -> str | None:
        if seq == 0:
            return GENESIS
        row = self._one("SELECT hash FROM journal WHERE seq=?", (seq,))
        return str(row[0]) if row and row[0] else None

    def checkpoints(self, fingerprint: str | None = None) -> list[Checkpoint]:
        """Stored checkpoints, newest first (only those of ``fingerprint`` when given); a checkpoint
        whose hash is not the journal's hash at its position (cut or edited since) is left out."""
        sql = "SELECT c.seq, c.ts, c.fingerprint, c.hash, c.state FROM journal_checkpoints c "
        sql += "JOIN journal j ON j.seq = c.seq AND j.hash = c.hash "
        args: tuple[Any, ...] = ()
        if fingerprint is not None:
            sql += "WHERE c.fingerprint = ? "
            args = (fingerprint,)
        out: list[Checkpoint] = []
        try:
            rows = self._conn.execute(sql + "ORDER BY c.seq DESC", args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        for seq, ts, fp, digest, text in rows:
            try:
                state = json.loads(text)
            except ValueError:
                continue
            if isinstance(state, dict):
                out.append(Checkpoint(int(seq), float(ts), str(fp), str(digest), state))
        return out

    def latest_checkpoint(self, fingerprint: str) -> Checkpoint | None:
        """The newest usable checkpoint written by the same software (``fingerprint``), if any."""
        sql = (
            "SELECT c.seq FROM journal_checkpoints c JOIN journal j ON j.seq = c.seq AND j.hash = c.hash "
            "WHERE c.fingerprint = ? ORDER BY c.seq DESC"
        )
        try:
            found = self._conn.execute(sql, (fingerprint,)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        for (seq,) in found:
            row = self._one(
                "SELECT seq, ts, fingerprint, hash, state FROM journal_checkpoints WHERE seq=?", (seq,)
            )
            try:
                state = json.loads(row[4])
            except ValueError:
                continue
            if isinstance(state, dict):
                return Checkpoint(int(row[0]), float(row[1]), str(row[2]), str(row[3]), state)
        return None

    # -- checks ----------------------------------------------------------------------------------
    def gaps(self) -> list[tuple[int, int, float, str]]:
        """Recorded losses: ``(first, last, when noted, why)`` for every run of numbers that was
        confirmed once and is not in the journal any more."""
        try:
            rows = self._conn.execute("SELECT first, last, noted, reason FROM journal_gaps ORDER BY first")
            return [(int(a), int(b), float(t), str(r)) for a, b, t, r in rows]
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc

    def check(self, since: int = 0) -> list[str]:
        """What start-up must report: numbers missing from the journal after ``since`` (rows taken out;
        a start checks after its checkpoint, whose own position is checked by its hash, so that the
        check costs the same at any length — ``verify-journal`` checks from the first row) and a
        journal shorter than its head file (``-wal`` deleted or emptied, an older copy put back). A
        cut is recorded as a gap so the lost numbers are never reused (when the file can be written)."""
        problems: list[str] = self.verify_before(since)
        try:
            count, hi = self._conn.execute(
                "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM journal WHERE seq > ?", (since,)
            ).fetchone()
            hi = max(int(hi), since)
            gaps = self._conn.execute("SELECT first, last FROM journal_gaps").fetchall()
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        known = sum(
            min(int(b), hi) - max(int(a), since + 1) + 1 for a, b in gaps if int(a) <= hi and int(b) > since
        )
        missing = hi - since - int(count) - known  # numbers after since neither there nor a noted gap
        if missing > 0:
            problems.append(
                f"{self.path}: 日志中间缺少 {missing} 个操作（编号不连续）/ "
                f"{missing} {plural(missing, 'action is', 'actions are')} missing "
                "from inside the journal (numbers not consecutive): run python -m broadcast verify-journal"
            )
        head = self._known_head()
        if head is not None:
            head_seq, head_hash, seen_at = head
            noted = any(int(a) <= head_seq <= int(b) for a, b in gaps)
            if head_seq > int(hi) and not noted and seen_at != str(Path(self.path).resolve()):
                problems.append(
                    f"{self.path}: 这是 {seen_at} 的副本，日志止于 #{hi}，原文件已到 #{head_seq}："
                    f"{head_seq - int(hi)} 个已确认的操作不在副本里（只复制了 .sqlite，没有 -wal）/ "
                    "this is a "
                    f"copy of {seen_at} that ends at #{hi}; the original had reached #{head_seq}: "
                    f"{head_seq - int(hi)} confirmed {plural(head_seq - int(hi), 'action is', 'actions are')}"
                    " "
                    "not in this copy (the .sqlite was copied "
                    "without its -wal): copy all of the studio's files while it is closed"
                )
                self._note_gap(int(hi) + 1, head_seq, f"copy of {seen_at} without its -wal")
            elif head_seq > int(hi) and not noted:
                problems.append(
                    f"{self.path}: 日志比上次记录的短：#{int(hi) + 1}–#{head_seq} "
                    f"共 {head_seq - int(hi)} 个已确认的操作丢失"
                    "（-wal 文件被删除、清空或损坏，或放回了旧的副本）"
                    f" / the journal ends at #{hi} but had reached #{head_seq}: "
                    f"{head_seq - int(hi)} confirmed {plural(head_seq - int(hi), 'action is', 'actions are')}"
                    " "
                    "lost (the -wal file "
                    "was deleted, emptied or damaged, or an older copy was put back)"
                )
                self._note_gap(int(hi) + 1, head_seq, "cut: journal shorter than its head file")
            elif head_seq <= int(hi) and self.hash_at(head_seq) not in (head_hash, None):
                problems.append(
                    f"{self.path}: 日志 #{head_seq} 与上次记录的不同（被改动或换成了别的文件）/ "
                    f"journal #{head_seq} is not the one last written "
                    "(edited, or another file put in its place)"
                )
        return problems

    def verify_before(self, upto: int, seconds: float = CHECK_SECONDS) -> list[str]:
        """Rows up to ``upto`` (those a start does not replay: the checkpoint stands for them), each
        checked against its own hash, within ``seconds`` (bounded: a start at any length costs the
        same; ``verify-journal`` replays and checks them all). A damaged row is named."""
        if upto <= 0:
            return []
        found: list[str] = []
        deadline = time.monotonic() + seconds
        prev = GENESIS
        try:
            cur = self._conn.execute(
                "SELECT seq, ts, CAST(type AS BLOB), CAST(payload AS BLOB), CAST(source AS BLOB), "
                "CAST(hash AS BLOB) FROM journal WHERE seq <= ? ORDER BY seq",
                (upto,),
            )
            for n, (seq, ts, *texts) in enumerate(cur):
                if n % 256 == 0 and time.monotonic() > deadline:
                    break
                try:
                    type_, payload, source, digest = (bytes(b or b"").decode("utf-8") for b in texts)
                    whole = (
                        not texts[3]
                        or chain_hash(prev, int(seq), float(ts), type_, payload, source) == digest
                    )
                except (UnicodeDecodeError, ValueError, TypeError):
                    whole, digest = False, ""
                if not whole:
                    found.append(
                        f"{self.path}: 日志 #{seq} 与它的校验值不符（文件损坏或被改动），"
                        "请运行 python -m broadcast verify-journal / "
                        f"journal #{seq} does not match its hash (damaged or edited): run "
                        "python -m broadcast verify-journal"
                    )
                    if len(found) >= 3:
                        break
                prev = digest or prev
        except sqlite3.DatabaseError as exc:
            raise db.storage_error(exc, self.path) from exc
        return found

    def _note_gap(self, first: int, last: int, reason: str) -> None:
        if self.readonly:
            return
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute(
                "INSERT INTO journal_gaps(first, last, noted, reason) VALUES(?,?,?,?)",
                (first, last, time.time(), reason),
            )
            # the lost numbers are never handed out again
            self._conn.execute("UPDATE sqlite_sequence SET seq=MAX(seq, ?) WHERE name='journal'", (last,))
            if self._conn.execute("SELECT changes()").fetchone()[0] == 0:
                self._conn.execute("INSERT INTO sqlite_sequence(name, seq) VALUES('journal', ?)", (last,))
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
