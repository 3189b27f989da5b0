"""The as-run log: what really aired, stored in the project database (component "asrun").

:class:`AsRunLog` implements ``broadcast.core.airlog.AirLog``. Its writers:

* the OBS bridge, with ``source="obs"``: what OBS confirmed it shows (its answers, its events, its
  read-back after a reconnect), the moments OBS could not be seen (``obs_down`` with the cause) and
  was seen again (``obs_up``), proof-of-air screenshots;
* :class:`AsRunRecorder`, a store listener on the application side: the operator's marks — 口播
  (``sponsor.mention``; ``sponsor.mention_retract`` takes one back, as a row of its own naming the
  mention's journal seq and time), studio shots (``sponsor.shot``), 九宫格 draws — prize money, and
  the episode's start and end. The application's intention (the program bus) is never recorded as air; only a
  rehearsal on a scripted clock records it, as ``source="rehearsal"``, which no report counts as air.

**Tamper-evident**: every row carries the hash of the row before it (``prev_hash``) and its own hash
(SHA-256 over the previous hash and the row's fields), so editing, inserting or deleting a row after the
show breaks the chain at that row; :func:`verify_chain` walks it. A proof-of-air JPEG is a row of its own
whose detail holds the picture's SHA-256. Durations are never stored: the report pairs on/off rows into
intervals (see ``exposure``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core import db
from broadcast.core.airlog import (
    DRAW,
    EPISODE_END,
    EPISODE_START,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    KINDS,
    MENTION,
    MENTION_RETRACT,
    OBS_DOWN,
    OBS_UP,
    PROOF,
    AirEvent,
)
from broadcast.core.store import Change, ShowStore

SHOT = "shot"  # a studio placement on screen, marked by the operator: subject = slot (table …)
ALL_KINDS = KINDS + (SHOT,)
GENESIS = "0" * 64  # the prev_hash of the first row

MIGRATIONS = [
    """
    CREATE TABLE asrun_episodes (
        episode TEXT PRIMARY KEY,
        air_date TEXT NOT NULL DEFAULT '',
        started REAL,
        ended REAL,
        placements TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE asrun_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        source TEXT NOT NULL,
        episode TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX asrun_events_episode_ts ON asrun_events(episode, ts);
    CREATE TABLE asrun_proofs (
        event_id INTEGER PRIMARY KEY REFERENCES asrun_events(id) ON DELETE CASCADE,
        jpeg BLOB NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL
    );
    CREATE TABLE prize_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts REAL NOT NULL,
        episode TEXT NOT NULL,
        contestant TEXT NOT NULL,
        yuan REAL NOT NULL,
        note TEXT NOT NULL DEFAULT ''
    );
    """,
    # v2: the hash chain (rows of an older file are sealed, in id order, when it is first opened)
    """
    ALTER TABLE asrun_events ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
    ALTER TABLE asrun_events ADD COLUMN hash TEXT NOT NULL DEFAULT '';
    CREATE INDEX asrun_events_kind_ts ON asrun_events(kind, ts);
    """,
]


@dataclass(frozen=True)
class StoredEvent:
    id: int
    ts: float
    kind: str
    subject: str
    source: str
    episode: str
    detail: dict[str, Any] = field(default_factory=dict)
    hash: str = ""


@dataclass(frozen=True)
class Episode:
    episode: str
    air_date: str
    started: float | None
    ended: float | None
    placements: dict[str, Any]


@dataclass(frozen=True)
class Prize:
    id: int
    ts: float
    episode: str
    contestant: str
    yuan: float
    note: str


@dataclass(frozen=True)
class Proof:
    event_id: int  # the proof row (kind "proof") that carries the picture's hash
    jpeg: bytes
    width: int
    height: int
    of: int | None = None  # the row it proves (a graphic or film going to air); None = on demand


@dataclass(frozen=True)
class ChainCheck:
    """The result of walking the as-run chain: ``ok`` or where and why it breaks."""

    ok: bool
    rows: int
    head_id: int
    head_hash: str
    bad_id: int | None = None
    problem_zh: str = ""
    problem_en: str = ""
    proofs: int = 0

    @property
    def summary_zh(self) -> str:
        if self.ok:
            return (
                f"播出记录链校验通过：{self.rows} 条记录、{self.proofs} 张截图未被改动；链头 #{self.head_id}"
            )
        return f"播出记录链校验未通过：第 #{self.bad_id} 条 {self.problem_zh}"

    @property
    def summary_en(self) -> str:
        if self.ok:
            proofs = f"{self.proofs} proofs"
            return f"as-run chain verified: {self.rows} rows, {proofs} unchanged; head #{self.head_id}"
        return f"as-run chain BROKEN at row #{self.bad_id}: {self.problem_en}"


def row_hash(
    prev: str, rid: int, ts: float, kind: str, subject: str, source: str, episode: str, detail: str
) -> str:
    """SHA-256 of the previous row's hash and this row's fields (``detail`` as stored: canonical JSON)."""
    payload = json.dumps(
        [rid, float(ts), kind, subject, source, episode, detail], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(f"{prev}\n{payload}".encode()).hexdigest()


def verify_chain(conn: sqlite3.Connection, lock: threading.RLock | None = None) -> ChainCheck:
    """Walk every as-run row in id order: each ``prev_hash`` must be the hash of the row before it and
    each ``hash`` must match the row's fields; every proof picture must match the hash in its row."""
    lock = lock or threading.RLock()
    with lock:
        rows = conn.execute(
            "SELECT id, ts, kind, subject, source, episode, detail, prev_hash, hash FROM asrun_events "
            "ORDER BY id"
        ).fetchall()
        blobs = {int(r[0]): bytes(r[1]) for r in conn.execute("SELECT event_id, jpeg FROM asrun_proofs")}
    prev, head_id, proofs = GENESIS, 0, 0
    for r in rows:
        rid = int(r[0])
        if r[7] != prev:
            return ChainCheck(
                False,
                len(rows),
                head_id,
                prev,
                rid,
                "与前一条的链接不符（前面的记录被删改或插入过）",
                "does not link to the row before it (a row before it was edited, inserted or deleted)",
            )
        want = row_hash(prev, rid, r[1], r[2], r[3], r[4], r[5], r[6])
        if r[8] != want:
            return ChainCheck(
                False, len(rows), head_id, prev, rid, "内容与其哈希不符（被改动过）", "content was edited"
            )
        if r[2] == PROOF:
            detail = json.loads(r[6] or "{}")
            blob = blobs.get(rid)
            if blob is None or hashlib.sha256(blob).hexdigest() != detail.get("sha256"):
                return ChainCheck(
                    False,
                    len(rows),
                    head_id,
                    prev,
                    rid,
                    "的截图与记录的哈希不符（截图被替换或删除）",
                    "proof picture does not match its hash (replaced or deleted)",
                )
            proofs += 1
        prev, head_id = want, rid
    return ChainCheck(True, len(rows), head_id, prev, proofs=proofs)


class AsRunLog:
    """SQLite as-run log (thread-safe; one connection guarded by a lock; rows chained by hash)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        db.migrate(conn, "asrun", MIGRATIONS)
        self._seal_unchained()

    @classmethod
    def open(cls, path: str | Path) -> AsRunLog:
        return cls(db.connect(path))

    @property
    def connection(self) -> sqlite3.Connection:
        return self._conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def reopen_if_writable(self) -> bool:
        """After the file was opened read-only (full or read-only disk): a read-write connection if the
        file can be written now. Returns whether writes can be tried."""
        with self._lock:
            if not getattr(self._conn, "readonly", False):
                return True
            again = db.writable_again(self._conn)
            if again is None:
                return False
            self._conn.close()
            self._conn = again
            return True

    def _seal_unchained(self) -> None:
        """Rows written by a build before the chain existed get chained once, in id order."""
        with self._lock:
            if not self._conn.execute("SELECT 1 FROM asrun_events WHERE hash='' LIMIT 1").fetchone():
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                prev = GENESIS
                rows = self._conn.execute(
                    "SELECT id, ts, kind, subject, source, episode, detail, hash FROM asrun_events "
                    "ORDER BY id"
                ).fetchall()
                for r in rows:
                    h = r[7] or row_hash(prev, int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6])
                    if not r[7]:
                        self._conn.execute(
                            "UPDATE asrun_events SET prev_hash=?, hash=? WHERE id=?", (prev, h, int(r[0]))
                        )
                    prev = h
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def _append(self, event: AirEvent, episode: str) -> int:
        """One chained row (the caller holds the lock; a transaction makes the link atomic)."""
        detail = _json(event.detail)
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            last = self._conn.execute("SELECT id, hash FROM asrun_events ORDER BY id DESC LIMIT 1").fetchone()
            prev_id, prev = (int(last[0]), str(last[1])) if last else (0, GENESIS)
            rid = prev_id + 1
            h = row_hash(prev, rid, event.ts, event.kind, event.subject, event.source, episode, detail)
            self._conn.execute(
                "INSERT INTO asrun_events(id, ts, kind, subject, source, episode, detail, prev_hash, hash) "
                "VALUES(?,?,?,?,?,?,?,?,?)",
                (rid, float(event.ts), event.kind, event.subject, event.source, episode, detail, prev, h),
            )
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return rid

    # -- episodes --------------------------------------------------------------------------------
    def begin_episode(
        self, episode: str, ts: float, *, air_date: str = "", placements: dict[str, Any] | None = None
    ) -> None:
        """Start (or resume) an episode; events recorded with ``episode=""`` belong to it from now on."""
        if not episode:
            raise ValueError("episode id is empty")
        with self._lock:
            self._conn.execute(
                "INSERT INTO asrun_episodes(episode, air_date, started, ended, placements) "
                "VALUES(?,?,?,NULL,?) "
                "ON CONFLICT(episode) DO UPDATE SET ended=NULL, "
                "air_date=CASE WHEN excluded.air_date<>'' THEN excluded.air_date ELSE air_date END, "
                "placements=CASE WHEN excluded.placements<>'{}' THEN excluded.placements ELSE placements END",
                (episode, air_date, ts, _json(placements or {})),
            )
            self._append(
                AirEvent(ts, EPISODE_START, episode, "app", episode, {"air_date": air_date}), episode
            )

    def end_episode(self, ts: float, episode: str = "") -> str:
        """End the given (or current) episode; returns its id ("" when none was running)."""
        with self._lock:
            episode = episode or self.current_episode()
            if episode:
                self._conn.execute("UPDATE asrun_episodes SET ended=? WHERE episode=?", (ts, episode))
                self._append(AirEvent(ts, EPISODE_END, episode, "app", episode), episode)
            return episode

    def set_placements(self, placements: dict[str, Any], episode: str = "") -> None:
        with self._lock:
            episode = episode or self.current_episode()
            if episode:
                self._conn.execute(
                    "UPDATE asrun_episodes SET placements=? WHERE episode=?", (_json(placements), episode)
                )

    def current_episode(self) -> str:
        with self._lock:
            row = self._conn.execute(
                "SELECT episode FROM asrun_episodes WHERE ended IS NULL ORDER BY started DESC LIMIT 1"
            ).fetchone()
            return str(row[0]) if row else ""

    def episode(self, episode: str) -> Episode | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT episode, air_date, started, ended, placements FROM asrun_episodes WHERE episode=?",
                (episode,),
            ).fetchone()
        if row is None:
            return None
        return Episode(row[0], row[1], row[2], row[3], json.loads(row[4] or "{}"))

    def episodes(self) -> list[Episode]:
        with self._lock:
            rows = self._conn.execute("SELECT episode FROM asrun_episodes ORDER BY started").fetchall()
        return [e for e in (self.episode(r[0]) for r in rows) if e is not None]

    # -- the AirLog protocol ---------------------------------------------------------------------
    def record(self, event: AirEvent) -> int:
        if event.kind not in ALL_KINDS:
            raise ValueError(f"unknown as-run event kind {event.kind!r}")
        with self._lock:
            return self._append(event, event.episode or self.current_episode())

    def attach_proof(
        self, event_id: int | None, jpeg: bytes, width: int, height: int, ts: float = 0.0, scene: str = ""
    ) -> int:
        """A proof row (its detail holds the JPEG's SHA-256) and the picture; returns the row's id."""
        if not jpeg.startswith(b"\xff\xd8"):
            raise ValueError("proof is not a JPEG")
        with self._lock:
            episode, subject = "", scene
            if event_id is not None:
                row = self._conn.execute(
                    "SELECT episode, subject FROM asrun_events WHERE id=?", (event_id,)
                ).fetchone()
                if row is None:
                    raise ValueError(f"no as-run row #{event_id} to attach a proof to")
                episode, subject = str(row[0]), str(row[1])
            detail: dict[str, Any] = {
                "sha256": hashlib.sha256(jpeg).hexdigest(),
                "width": width,
                "height": height,
            }
            if event_id is not None:
                detail["of"] = int(event_id)
            if scene:
                detail["scene"] = scene
            pid = self._append(
                AirEvent(ts or time.time(), PROOF, subject, "obs", episode, detail),
                episode or self.current_episode(),
            )
            self._conn.execute(
                "INSERT OR REPLACE INTO asrun_proofs(event_id, jpeg, width, height) VALUES(?,?,?,?)",
                (pid, jpeg, width, height),
            )
            return pid

    def verify(self) -> ChainCheck:
        return verify_chain(self._conn, self._lock)

    # -- prizes (爱心基金) -------------------------------------------------------------------------
    def record_prize(self, ts: float, contestant: str, yuan: float, note: str = "", episode: str = "") -> int:
        with self._lock:
            episode = episode or self.current_episode()
            cur = self._conn.execute(
                "INSERT INTO prize_log(ts, episode, contestant, yuan, note) VALUES(?,?,?,?,?)",
                (ts, episode, contestant, float(yuan), note),
            )
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    def prizes(self, episode: str | None = None) -> list[Prize]:
        sql = "SELECT id, ts, episode, contestant, yuan, note FROM prize_log"
        args: tuple[Any, ...] = ()
        if episode is not None:
            sql += " WHERE episode=?"
            args = (episode,)
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY ts, id", args).fetchall()
        return [Prize(int(r[0]), float(r[1]), r[2], r[3], float(r[4]), r[5]) for r in rows]

    # -- reading ----------------------------------------------------------------------------------
    def events(self, episode: str) -> list[StoredEvent]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, ts, kind, subject, source, episode, detail, hash "
                "FROM asrun_events WHERE episode=? ORDER BY ts, id",
                (episode,),
            ).fetchall()
        return [_stored(r) for r in rows]

    def link_before(self, ts: float) -> StoredEvent | None:
        """The last ``obs_up``/``obs_down`` row before ``ts`` in any episode: was OBS seen at ``ts``?"""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, ts, kind, subject, source, episode, detail, hash FROM asrun_events "
                "WHERE kind IN (?, ?) AND ts < ? ORDER BY ts DESC, id DESC LIMIT 1",
                (OBS_UP, OBS_DOWN, ts),
            ).fetchone()
        return _stored(row) if row else None

    def proofs(self, episode: str) -> dict[int, Proof]:
        """The episode's proof pictures, keyed by the row each proves (or by their own row if on demand)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT p.event_id, p.jpeg, p.width, p.height, e.detail FROM asrun_proofs p "
                "JOIN asrun_events e ON e.id=p.event_id WHERE e.episode=? ORDER BY p.event_id",
                (episode,),
            ).fetchall()
        out: dict[int, Proof] = {}
        for r in rows:
            of = json.loads(r[4] or "{}").get("of")
            proof = Proof(int(r[0]), bytes(r[1]), int(r[2]), int(r[3]), int(of) if of is not None else None)
            out[proof.of if proof.of is not None else proof.event_id] = proof
        return out


def _stored(r: Any) -> StoredEvent:
    return StoredEvent(int(r[0]), float(r[1]), r[2], r[3], r[4], r[5], json.loads(r[6] or "{}"), str(r[7]))


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------------------------------ recorder
_STOP = object()
STORAGE_RETRY_S = 2.0  # an event the disk refused is written again this often
log = logging.getLogger(__name__)


class AsRunRecorder:
    """Application-side as-run recording, as a store listener: the operator's marks, prizes, the
    episode's start and end. It never records a graphic as on air from the show state (that is the
    application's intention, not what aired); with ``rehearsal=True`` (a rundown played on a scripted
    clock, no OBS) it records the program bus and films as ``source="rehearsal"``, which reports never
    count as air.

    Events are derived on the dispatching thread (cheap dict comparisons, timestamps from the
    action) and written by a background thread, so a slow disk never delays a TAKE.
    """

    def __init__(
        self,
        store: ShowStore,
        log: AsRunLog,
        *,
        rehearsal: bool = False,
        follow_show_episode: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._log = log
        self._clock = clock
        self._rehearsal = rehearsal
        self._follow = follow_show_episode
        self._program = _program(store.state)
        self._queue: queue.Queue[object] = queue.Queue()
        self._errors: list[str] = []
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="asrun-writer", daemon=True)
        self._thread.start()
        self._unsubscribe = store.subscribe(self._on_change, name="asrun")

    @property
    def rehearsal(self) -> bool:
        return self._rehearsal

    # -- episodes and films (the console / rundown runner calls these) ---------------------------
    def begin_episode(
        self,
        episode: str,
        *,
        air_date: str = "",
        placements: dict[str, Any] | None = None,
        ts: float | None = None,
    ) -> None:
        ts = self._clock() if ts is None else ts
        self._queue.put(("begin", episode, ts, air_date, placements))
        if self._rehearsal:  # a rehearsal's graphics already up are "on" from its first second
            for g, (on, item) in _program(self._store.state).items():
                if on:
                    self._put(
                        AirEvent(ts, GRAPHIC_ON, g, "rehearsal", episode, {"item": item, "at_start": True})
                    )

    def end_episode(self, ts: float | None = None) -> None:
        ts = self._clock() if ts is None else ts
        if self._rehearsal:
            for g, (on, item) in _program(self._store.state).items():
                if on:
                    self._put(
                        AirEvent(ts, GRAPHIC_OFF, g, "rehearsal", detail={"item": item, "at_end": True})
                    )
        self._queue.put(("end", ts))

    def film_started(self, film_id: str, *, sponsor: str = "", ts: float | None = None) -> None:
        """A rehearsal's film (OBS reports the films it really plays itself)."""
        self._require_rehearsal("film_started")
        ts = self._clock() if ts is None else ts
        self._put(AirEvent(ts, FILM_START, film_id, "rehearsal", detail={"sponsor": sponsor}))

    def film_ended(self, film_id: str, *, ts: float | None = None) -> None:
        self._require_rehearsal("film_ended")
        self._put(AirEvent(self._clock() if ts is None else ts, FILM_END, film_id, "rehearsal"))

    def _require_rehearsal(self, what: str) -> None:
        if not self._rehearsal:
            raise RuntimeError(f"{what}: only a rehearsal records films; on air, OBS reports them")

    # -- plumbing ---------------------------------------------------------------------------------
    def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything queued so far is in the database."""
        done = threading.Event()
        self._queue.put(done)
        if not done.wait(timeout):
            raise TimeoutError("as-run writer did not catch up")

    def close(self) -> None:
        self._unsubscribe()
        self._closing.set()
        self._queue.put(_STOP)
        self._thread.join(timeout=5.0)

    @property
    def errors(self) -> list[str]:
        return list(self._errors)

    def _put(self, event: AirEvent) -> None:
        self._queue.put(event)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            # a disk that refuses the write (full, read-only, I/O error) does not lose the event: it is
            # written again every few seconds (it carries its own time), the ones after it wait behind it
            failing = False
            while True:
                try:
                    self._write(item)
                except sqlite3.OperationalError as exc:
                    if db.error_kind(exc) == "damaged":
                        self._errors.append(db.describe(exc, getattr(self._log.connection, "path", "")))
                        break
                    if not failing:
                        failing = True
                        self._errors.append(db.describe(exc, getattr(self._log.connection, "path", "")))
                        log.warning("as-run write refused, retrying: %s", exc)
                    if self._closing.wait(STORAGE_RETRY_S):
                        left = self._queue.qsize() + 1
                        self._errors.append(f"as-run: {left} 条记录未能写入 events not written at close")
                        return
                    self._log.reopen_if_writable()
                    continue
                break

    def _write(self, item: object) -> None:
        try:
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, AirEvent):
                self._log.record(item)
            elif isinstance(item, tuple) and item[0] == "begin":
                _, episode, ts, air_date, placements = item
                self._log.begin_episode(episode, ts, air_date=air_date, placements=placements)
            elif isinstance(item, tuple) and item[0] == "end":
                self._log.end_episode(item[1])
            elif isinstance(item, tuple) and item[0] == "prize":
                _, ts, contestant, yuan, note = item
                self._log.record_prize(ts, contestant, yuan, note)
            elif isinstance(item, tuple) and item[0] == "placements":
                self._log.set_placements(item[1])
        except sqlite3.OperationalError:
            raise  # the disk: tried again by _run
        except Exception as exc:  # the show goes on; the error is kept for the console
            self._errors.append(f"{type(exc).__name__}: {exc}")

    def _on_change(self, change: Change) -> None:
        if change.replayed:
            return
        ts = change.ts
        st = change.state
        if "graphics" in change.changed and self._rehearsal:
            new = _program(st)
            for g, (on, item) in new.items():
                was_on, was_item = self._program.get(g, (False, ""))
                if was_on and (not on or item != was_item):
                    self._put(AirEvent(ts, GRAPHIC_OFF, g, "rehearsal", detail={"item": was_item}))
                if on and (not was_on or item != was_item):
                    self._put(AirEvent(ts, GRAPHIC_ON, g, "rehearsal", detail={"item": item}))
        self._program = _program(st)
        t = change.type
        if t == "show.update" and self._follow and "episode" in change.payload:
            episode = str(st["show"]["episode"])
            if episode and episode != str(change.previous["show"]["episode"]):
                self.end_episode(ts)
                self.begin_episode(
                    episode,
                    air_date=str(st["show"].get("air_date", "")),
                    placements=dict(st["sponsors"].get("source") or {}),
                    ts=ts,
                )
        elif t == "sponsors.load":
            self._queue.put(("placements", dict(st["sponsors"].get("source") or {})))
        elif t == "sponsor.mention":
            sid = str(change.payload.get("sponsor", ""))
            name = next((r["name"] for r in st["sponsors"]["roster"] if r["id"] == sid), sid)
            self._put(AirEvent(ts, MENTION, sid, "operator", detail={"name": name, "seq": change.seq}))
        elif t == "sponsor.mention_retract":
            now = {m["seq"] for m in st["sponsors"].get("mention_marks", [])}
            for mark in change.previous["sponsors"].get("mention_marks", []):
                if mark["seq"] not in now:  # the one taken back
                    sid = str(mark["sponsor"])
                    name = next((r["name"] for r in st["sponsors"]["roster"] if r["id"] == sid), sid)
                    detail = {
                        "name": name,
                        "of_seq": int(mark["seq"]),
                        "of_ts": float(mark["ts"]),
                        "reason": str(change.payload.get("reason", "")),
                    }
                    self._put(AirEvent(ts, MENTION_RETRACT, sid, "operator", detail=detail))
        elif t == "sponsor.shot":
            self._put(AirEvent(ts, SHOT, str(change.payload.get("slot", "")), "operator"))
        elif t == "jiugongge.draw":
            draw = st["jiugongge"]["draw"]
            cell = st["jiugongge"]["cells"][draw["cell"]]
            self._put(
                AirEvent(
                    ts,
                    DRAW,
                    cell.get("sponsor_id", ""),
                    "operator",
                    detail={
                        "draw": draw["id"],
                        "contestant": draw["contestant"],
                        "cell": draw["cell"],
                        "prize": cell["prize"],
                        "sponsor": cell.get("sponsor_id", ""),
                        "sponsor_name": cell["sponsor"],
                    },
                )
            )
        elif t == "charity.update" and isinstance(change.payload.get("prize"), dict):
            prize = change.payload["prize"]
            self._queue.put(
                (
                    "prize",
                    ts,
                    str(prize.get("contestant", "")),
                    float(prize.get("yuan", 0)),
                    str(prize.get("note", "")),
                )
            )


def _program(state: dict[str, Any]) -> dict[str, tuple[bool, str]]:
    return {g: (bool(v.get("on")), str(v.get("item", ""))) for g, v in state["graphics"]["program"].items()}
