"""The as-run recorder: the application's side of the as-run log, as a store listener.

It records the operator's marks — 口播 (``sponsor.mention``; ``sponsor.mention_retract`` takes one
back, as a row of its own naming the mention's journal seq and time), studio shots (``sponsor.shot``),
九宫格 draws — prize money, and the episode's start and end, into an
:class:`~broadcast.sponsors.asrun.AsRunLog`. What OBS shows is recorded by the OBS bridge, never here.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from broadcast.core import db
from broadcast.core.airlog import (
    DRAW,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    MENTION_RETRACT,
    AirEvent,
)
from broadcast.core.store import Change, ShowStore
from broadcast.sponsors.asrun import PREFLIGHT_OVERRIDE, SHOT, AsRunLog
from engine.yamlread import YamlError, decode, read

__all__ = ["AsRunRecorder"]

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
                placements = as_aired(placements) if placements else placements
                self._log.begin_episode(episode, ts, air_date=air_date, placements=placements)
            elif isinstance(item, tuple) and item[0] == "end":
                self._log.end_episode(item[1])
            elif isinstance(item, tuple) and item[0] == "prize":
                _, ts, contestant, yuan, note = item
                self._log.record_prize(ts, contestant, yuan, note)
            elif isinstance(item, tuple) and item[0] == "placements":
                self._log.set_placements(as_aired(item[1]))
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
                source = dict(st["sponsors"].get("source") or {})
                self.begin_episode(
                    episode,
                    # the show's air date, else the one the placements were loaded for (``run --air-date``):
                    # the report checks the contracts on it and prints it on every page
                    air_date=str(st["show"].get("air_date", "") or source.get("air_date", "")),
                    placements=source,
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
        elif t == "cues.preflight":
            pf = st["cues"]["preflight"] or {}
            detail = {"red": list(pf.get("red", [])), "red_en": list(pf.get("red_en", []))}
            self._put(AirEvent(ts, PREFLIGHT_OVERRIDE, "preflight", "operator", detail=detail))
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


def as_aired(source: dict[str, Any]) -> dict[str, Any]:
    """The episode's placements as they aired: their source (file, digest, air date) and, while the file
    is still the one loaded (its digest), its text — kept in the episode's record and chained (the
    ``placements_sha256`` of its row), so a report made after the file was edited or removed reads what
    the sponsors' graphics and films were when they aired, not what the file says now."""
    out = dict(source)
    file, digest = str(out.get("file", "")), str(out.get("digest", ""))
    if not file or not digest or "text" in out:
        return out
    try:
        raw = read(file)
        if hashlib.sha256(raw).hexdigest()[:16] == digest:
            out["text"] = decode(raw, file)
    except (OSError, YamlError):  # gone or changed since it was loaded: the report says so
        pass
    return out


def _program(state: dict[str, Any]) -> dict[str, tuple[bool, str]]:
    return {g: (bool(v.get("on")), str(v.get("item", ""))) for g, v in state["graphics"]["program"].items()}
