"""The as-run log: what really aired, stored in the project database (component "asrun").

:class:`AsRunLog` implements ``broadcast.core.airlog.AirLog``. Its writers:

* the OBS bridge, with ``source="obs"``: what OBS confirmed it shows (its answers, its events, its
  read-back after a reconnect), the moments OBS could not be seen (``obs_down`` with the cause) and
  was seen again (``obs_up``), proof-of-air screenshots;
* the recorder (``recorder.py``), a store listener on the application side: the operator's marks
  (口播 and their retractions, studio shots, 九宫格 draws), prize money, the episode's start and end.

**Tamper-evident**: every row carries the hash of the row before it and its own (``chain.py``), so
editing, inserting or deleting a row after the show breaks the chain at that row. A proof-of-air JPEG
is a row of its own whose detail holds the picture's SHA-256. Durations are never stored: the report
pairs on/off rows into intervals (see ``exposure``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core import db
from broadcast.core.airlog import (
    EPISODE_END,
    EPISODE_START,
    KINDS,
    OBS_DOWN,
    OBS_UP,
    PROOF,
    AirEvent,
)
from broadcast.core.ledger import HeadLedger
from broadcast.core.signing import StudioKey
from broadcast.sponsors.anchor import Anchor
from broadcast.sponsors.chain import GENESIS, ChainCheck, placements_sha256, row_hash, verify_chain

SHOT = "shot"  # a studio placement on screen, marked by the operator: subject = slot (table …)
PLACEMENTS = "placements"  # the episode's placements changed: detail.placements_sha256 (of the stored JSON)
PRIZE = "prize"  # a prize (爱心基金): subject = contestant, detail {prize_id, yuan, note}
PROOF_FAILED = "proof_failed"  # a proof that does not show what it was to prove: detail.reason (never proof)
# the operator started recording over red lines of the pre-show check: subject "preflight", detail
# {red: [lines], red_en: [lines]} — an operator's event, never evidence that anything aired
PREFLIGHT_OVERRIDE = "preflight_override"
ALL_KINDS = KINDS + (SHOT, PLACEMENTS, PRIZE, PROOF_FAILED, PREFLIGHT_OVERRIDE)

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


class AsRunLog:
    """SQLite as-run log (thread-safe; one connection guarded by a lock; rows chained by hash)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.anchor: Anchor | None = None
        db.migrate(conn, "asrun", MIGRATIONS)
        self._seal_unchained()

    @classmethod
    def open(cls, path: str | Path, *, anchored: bool = False, key: StudioKey | None = None) -> AsRunLog:
        """Open the log in the project database. ``anchored`` (the studio recording a show): its heads
        are appended, signed with the studio's key, to the head ledger beside the file (``anchor.py``)
        at each episode's start and end, every few minutes and at close, and each episode ends with a
        receipt."""
        log = cls(db.connect(path))
        if anchored:
            ledger = HeadLedger.beside(path, key or StudioKey.load_or_create())
            log.anchor = Anchor(lambda: log._conn, log._lock, ledger, Path(path))
            log.anchor.anchor("open")
            log.anchor.start()
        return log

    def _anchored(self, event: str, episode: str) -> None:
        if self.anchor is not None:
            self.anchor.anchor(event, episode)

    @property
    def connection(self) -> sqlite3.Connection:
        return self._conn

    def close(self) -> None:
        if self.anchor is not None:
            self.anchor.stop()
            self.anchor.anchor("close")
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

    def _append(
        self,
        event: AirEvent,
        episode: str,
        *,
        before: Callable[[], dict[str, Any]] | None = None,
        then: Callable[[int], object] | None = None,
    ) -> int:
        """One chained row (the caller holds the lock; a transaction makes the link atomic).
        ``before()`` runs inside it first and may give the row's detail; ``then(id)`` runs after the
        row. Rows are in time order: a row stamped before the last one (an operator's mark written by
        its own thread after OBS's next answer) is stamped at the last row's time."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            detail = _json(before() if before is not None else event.detail)
            last = self._conn.execute(
                "SELECT id, hash, ts FROM asrun_events ORDER BY id DESC LIMIT 1"
            ).fetchone()
            prev_id, prev, prev_ts = (
                (int(last[0]), str(last[1]), float(last[2])) if last else (0, GENESIS, 0.0)
            )
            rid = prev_id + 1
            ts = max(float(event.ts), prev_ts)
            h = row_hash(prev, rid, ts, event.kind, event.subject, event.source, episode, detail)
            self._conn.execute(
                "INSERT INTO asrun_events(id, ts, kind, subject, source, episode, detail, prev_hash, hash) "
                "VALUES(?,?,?,?,?,?,?,?,?)",
                (rid, ts, event.kind, event.subject, event.source, episode, detail, prev, h),
            )
            if then is not None:
                then(rid)
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return rid

    def _episode_snapshot(self, episode: str) -> dict[str, Any]:
        """What the episode table holds for ``episode``, as its chained rows state it."""
        row = self._conn.execute(
            "SELECT air_date, started, placements FROM asrun_episodes WHERE episode=?", (episode,)
        ).fetchone()
        if row is None:
            return {}
        return {
            "air_date": str(row[0]),
            "started": float(row[1]) if row[1] is not None else None,
            "placements_sha256": placements_sha256(str(row[2])),
        }

    # -- episodes --------------------------------------------------------------------------------
    def begin_episode(
        self, episode: str, ts: float, *, air_date: str = "", placements: dict[str, Any] | None = None
    ) -> None:
        """Start (or resume) an episode; events recorded with ``episode=""`` belong to it from now on."""
        if not episode:
            raise ValueError("episode id is empty")

        def upsert() -> dict[str, Any]:
            self._conn.execute(
                "INSERT INTO asrun_episodes(episode, air_date, started, ended, placements) "
                "VALUES(?,?,?,NULL,?) "
                "ON CONFLICT(episode) DO UPDATE SET ended=NULL, "
                "air_date=CASE WHEN excluded.air_date<>'' THEN excluded.air_date ELSE air_date END, "
                "placements=CASE WHEN excluded.placements<>'{}' THEN excluded.placements ELSE placements END",
                (episode, air_date, ts, _json(placements or {})),
            )
            # the row states the episode's record as it now stands (start, air date, placements)
            return self._episode_snapshot(episode)

        with self._lock:
            self._append(AirEvent(ts, EPISODE_START, episode, "app", episode), episode, before=upsert)
        self._anchored("start", episode)

    def end_episode(self, ts: float, episode: str = "") -> str:
        """End the given (or current) episode; returns its id ("" when none was running)."""
        with self._lock:
            episode = episode or self.current_episode()
            if episode:
                # the row's time is the end the table keeps (both in one transaction)
                self._append(
                    AirEvent(ts, EPISODE_END, episode, "app", episode),
                    episode,
                    then=lambda rid: self._conn.execute(
                        "UPDATE asrun_episodes SET ended=(SELECT ts FROM asrun_events WHERE id=?) "
                        "WHERE episode=?",
                        (rid, episode),
                    ),
                )
        if episode:
            self._anchored("end", episode)
        return episode

    def set_placements(self, placements: dict[str, Any], episode: str = "") -> None:
        with self._lock:
            episode = episode or self.current_episode()
            if episode:
                text = _json(placements)

                def update() -> dict[str, Any]:
                    self._conn.execute(
                        "UPDATE asrun_episodes SET placements=? WHERE episode=?", (text, episode)
                    )
                    return {"placements_sha256": placements_sha256(text)}

                self._append(
                    AirEvent(time.time(), PLACEMENTS, episode, "app", episode), episode, before=update
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
        self,
        event_id: int | None,
        jpeg: bytes,
        width: int,
        height: int,
        ts: float = 0.0,
        scene: str = "",
        *,
        failed: str = "",
        check: dict[str, Any] | None = None,
        episode: str = "",
    ) -> int:
        """A proof row (its detail holds the JPEG's SHA-256) and the picture; returns the row's id.
        ``failed`` (why): the picture does not show what it was to prove — a ``proof_failed`` row
        (its picture, if any, kept and chained too), never counted as proof. ``check``: how the picture
        was checked (kept in the row). ``episode``: an on-demand proof's (one of a row is that row's);
        "" = the current one."""
        if jpeg and not jpeg.startswith(b"\xff\xd8"):
            raise ValueError("proof is not a JPEG")
        if not jpeg and not failed:
            raise ValueError("a proof needs its picture")
        with self._lock:
            subject = scene
            if event_id is not None:
                row = self._conn.execute(
                    "SELECT episode, subject FROM asrun_events WHERE id=?", (event_id,)
                ).fetchone()
                if row is None:
                    raise ValueError(f"no as-run row #{event_id} to attach a proof to")
                episode, subject = str(row[0]), str(row[1])
            detail: dict[str, Any] = {"width": width, "height": height}
            if jpeg:
                detail["sha256"] = hashlib.sha256(jpeg).hexdigest()
            if event_id is not None:
                detail["of"] = int(event_id)
            if scene:
                detail["scene"] = scene
            if failed:
                detail["reason"] = failed
            if check:
                detail["check"] = check

            def picture(pid: int) -> None:  # in the row's transaction: never a row without its picture
                if jpeg:
                    self._conn.execute(
                        "INSERT OR REPLACE INTO asrun_proofs(event_id, jpeg, width, height) VALUES(?,?,?,?)",
                        (pid, jpeg, width, height),
                    )

            kind = PROOF_FAILED if failed else PROOF
            return self._append(
                AirEvent(ts or time.time(), kind, subject, "obs", episode, detail),
                episode or self.current_episode(),
                then=picture,
            )

    def verify(self) -> ChainCheck:
        return verify_chain(self._conn, self._lock)

    # -- prizes (爱心基金) -------------------------------------------------------------------------
    def record_prize(self, ts: float, contestant: str, yuan: float, note: str = "", episode: str = "") -> int:
        with self._lock:
            episode = episode or self.current_episode()
            ids: list[int] = []

            def insert() -> dict[str, Any]:
                cur = self._conn.execute(
                    "INSERT INTO prize_log(ts, episode, contestant, yuan, note) VALUES(?,?,?,?,?)",
                    (ts, episode, contestant, float(yuan), note),
                )
                assert cur.lastrowid is not None
                ids.append(int(cur.lastrowid))
                return {"prize_id": ids[0], "yuan": float(yuan), "note": note, "ts": float(ts)}

            self._append(AirEvent(ts, PRIZE, contestant, "operator", episode), episode, before=insert)
            return ids[0]

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
                "JOIN asrun_events e ON e.id=p.event_id WHERE e.episode=? AND e.kind=? ORDER BY p.event_id",
                (episode, PROOF),
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
