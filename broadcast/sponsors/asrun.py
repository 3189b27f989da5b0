"""The as-run log: what really aired, stored in the project database (component "asrun").

:class:`AsRunLog` implements ``broadcast.core.airlog.AirLog``. Two writers feed it:

* the OBS bridge, with ``source="obs"``, from OBS's own events (scene switches, media start/stop),
  when OBS is connected;
* :class:`AsRunRecorder`, a store listener on the application side: graphic on/off from the
  program bus (``source="app"``) while OBS is *not* connected (``recorder.obs_connected = True``
  switches that part off), and always the operator's marks: 口播 (``sponsor.mention``), studio shots
  (``sponsor.shot``), 九宫格 draws and prize money.

Durations are never stored: the report pairs on/off events into intervals (see ``exposure``).
"""

from __future__ import annotations

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
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    KINDS,
    MENTION,
    AirEvent,
)
from broadcast.core.store import Change, ShowStore

SHOT = "shot"  # a studio placement on screen, marked by the operator: subject = slot (table …)
ALL_KINDS = KINDS + (SHOT,)

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
    event_id: int
    jpeg: bytes
    width: int
    height: int


class AsRunLog:
    """SQLite as-run log (thread-safe; one connection guarded by a lock)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        db.migrate(conn, "asrun", MIGRATIONS)

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

    def end_episode(self, ts: float, episode: str = "") -> str:
        """End the given (or current) episode; returns its id ("" when none was running)."""
        with self._lock:
            episode = episode or self.current_episode()
            if episode:
                self._conn.execute("UPDATE asrun_episodes SET ended=? WHERE episode=?", (ts, episode))
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
            episode = event.episode or self.current_episode()
            cur = self._conn.execute(
                "INSERT INTO asrun_events(ts, kind, subject, source, episode, detail) VALUES(?,?,?,?,?,?)",
                (float(event.ts), event.kind, event.subject, event.source, episode, _json(event.detail)),
            )
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    def attach_proof(self, event_id: int, jpeg: bytes, width: int, height: int) -> None:
        if not jpeg.startswith(b"\xff\xd8"):
            raise ValueError("proof is not a JPEG")
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO asrun_proofs(event_id, jpeg, width, height) VALUES(?,?,?,?)",
                (event_id, jpeg, width, height),
            )

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
                "SELECT id, ts, kind, subject, source, episode, detail "
                "FROM asrun_events WHERE episode=? ORDER BY ts, id",
                (episode,),
            ).fetchall()
        return [
            StoredEvent(int(r[0]), float(r[1]), r[2], r[3], r[4], r[5], json.loads(r[6] or "{}"))
            for r in rows
        ]

    def proofs(self, episode: str) -> dict[int, Proof]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT p.event_id, p.jpeg, p.width, p.height FROM asrun_proofs p "
                "JOIN asrun_events e ON e.id=p.event_id WHERE e.episode=?",
                (episode,),
            ).fetchall()
        return {int(r[0]): Proof(int(r[0]), bytes(r[1]), int(r[2]), int(r[3])) for r in rows}


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------------------------------ recorder
_STOP = object()
STORAGE_RETRY_S = 2.0  # an event the disk refused is written again this often
log = logging.getLogger(__name__)


class AsRunRecorder:
    """Application-side as-run recording, as a store listener.

    Events are derived on the dispatching thread (cheap dict comparisons, timestamps from the
    action) and written by a background thread, so a slow disk never delays a TAKE.
    """

    def __init__(
        self,
        store: ShowStore,
        log: AsRunLog,
        *,
        obs_connected: bool = False,
        follow_show_episode: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._log = log
        self._clock = clock
        self._obs = obs_connected
        self._follow = follow_show_episode
        self._program = _program(store.state)
        self._queue: queue.Queue[object] = queue.Queue()
        self._errors: list[str] = []
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="asrun-writer", daemon=True)
        self._thread.start()
        self._unsubscribe = store.subscribe(self._on_change, name="asrun")

    # -- switches ---------------------------------------------------------------------------------
    @property
    def obs_connected(self) -> bool:
        return self._obs

    @obs_connected.setter
    def obs_connected(self, value: bool) -> None:
        self.set_obs_connected(value)

    def set_obs_connected(self, connected: bool, ts: float | None = None) -> None:
        """Hand graphic recording over to the OBS bridge (True) or take it back (False).

        At the hand-over the app closes its open intervals (detail.handover) and, when taking back,
        opens intervals for what is on program now, so no second of air is lost or counted twice.
        """
        if connected == self._obs:
            return
        ts = self._clock() if ts is None else ts
        program = _program(self._store.state)
        kind = GRAPHIC_OFF if connected else GRAPHIC_ON
        for g, (on, item) in program.items():
            if on:
                self._put(
                    AirEvent(
                        ts, kind, g, "app", detail={"item": item, "handover": "obs" if connected else "app"}
                    )
                )
        self._program = program
        self._obs = connected

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
        # graphics already on program when the episode starts are on air from its first second
        if not self._obs:
            for g, (on, item) in _program(self._store.state).items():
                if on:
                    self._put(AirEvent(ts, GRAPHIC_ON, g, "app", episode, {"item": item, "at_start": True}))

    def end_episode(self, ts: float | None = None) -> None:
        ts = self._clock() if ts is None else ts
        if not self._obs:
            for g, (on, item) in _program(self._store.state).items():
                if on:
                    self._put(AirEvent(ts, GRAPHIC_OFF, g, "app", detail={"item": item, "at_end": True}))
        self._queue.put(("end", ts))

    def film_started(self, film_id: str, *, sponsor: str = "", ts: float | None = None) -> None:
        """A film went to air from the application's own playout (OBS reports its own with source obs)."""
        self._put(
            AirEvent(
                self._clock() if ts is None else ts, FILM_START, film_id, "app", detail={"sponsor": sponsor}
            )
        )

    def film_ended(self, film_id: str, *, ts: float | None = None) -> None:
        self._put(AirEvent(self._clock() if ts is None else ts, FILM_END, film_id, "app"))

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
        if "graphics" in change.changed and not self._obs:
            new = _program(st)
            for g, (on, item) in new.items():
                was_on, was_item = self._program.get(g, (False, ""))
                if was_on and (not on or item != was_item):
                    self._put(AirEvent(ts, GRAPHIC_OFF, g, "app", detail={"item": was_item}))
                if on and (not was_on or item != was_item):
                    self._put(AirEvent(ts, GRAPHIC_ON, g, "app", detail={"item": item}))
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
            self._put(AirEvent(ts, MENTION, sid, "operator", detail={"name": name}))
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
