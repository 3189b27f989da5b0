"""Keeps the cue list moving by itself: a timed cue (bumper, film) ends when its seconds run out, the
cue after it starts when it is marked ``follow``, a film cue is played through the OBS bridge, and a
panic stops the running cue. Everything it does is a ``store.dispatch`` (``cues.end``, ``cues.stop``),
so the journal says what happened and a restart carries on: a timed cue that ran out while the studio
was down is ended at once.

    runner = CueRunner(store, bridge=bridge)      # its own thread, every 0.1 s
    runner.start() … runner.stop()

    runner = CueRunner(store, clock=script_clock, threaded=False)   # tests: a scripted clock
    runner.tick()                                  # does what is due at the clock's time

A film cue is rolled by the OBS bridge itself on the change of state that starts the cue (the bridge
reads the running film cue from the state, so nothing else — the game scene after a bumper — reaches
program before the film); the runner checks that it started, or fails the cue. Such a film ends when
OBS says it ended (the bridge ends its cue, and the cue that follows starts then): the runner's clock
ends it only ``FILM_GRACE`` seconds past its length, when OBS never said so. The 英雄榜冠名 film after
the 英雄榜 is rolled by the bridge when the board comes off. A bridge that does not roll film cues
(``rolls_film_cues`` false) gets ``bridge.play_film`` on the runner's own thread. Without OBS a film
cannot air: the cue is ended as ``failed`` with the reason, which the cue list shows in red (and the
as-run log, kept from OBS's evidence, has no airing of it).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from broadcast.core import ActionRefused
from broadcast.sponsors.cues import overdue, started_film

log = logging.getLogger(__name__)

FilmPlayer = Callable[[str, int], None]  # (film id, seconds): starts it or raises with the reason

NOT_CONNECTED = "OBS 未连接，片子未能播出 / OBS not connected: the film could not air"
# a film a bridge plays to OBS ends when OBS says it ended (the bridge ends its cue: no timer decides
# when the next item takes program); the runner's clock ends it only this long past its length, when
# OBS never reported the end (a loaded OBS may take up to 12 s to start a film: the bridge's
# films.START_LIMIT, then a few seconds more)
FILM_GRACE = 15.0
# a bumper a bridge puts on OBS runs its seconds from the moment OBS showed it (the as-run's credit), not
# from the GO: a loaded machine can take a second or two to draw and show it, and a 2 s bumper counted
# from the GO then never reached air. The clock ends it this long past its length when OBS never showed it
GRAPHIC_GRACE = 10.0


class CueRunner:
    def __init__(
        self,
        store: Any,
        *,
        bridge: Any = None,
        player: FilmPlayer | None = None,
        clock: Callable[[], float] = time.time,
        interval: float = 0.1,
        threaded: bool = True,
        film_timeout: float = 10.0,
    ) -> None:
        self.store = store
        self.bridge = bridge
        self.player = player
        self.clock = clock
        self.interval = interval
        self.threaded = threaded
        self.film_timeout = film_timeout
        self.errors: list[str] = []
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    # -- life -----------------------------------------------------------------------------------
    def start(self) -> None:
        """Listen to the store; with ``threaded`` run the ticks on a thread of its own."""
        if self._unsubscribe is None:
            self._unsubscribe = self.store.subscribe(self._on_change, name="cue-runner")
            self._recover()
        if self.threaded and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="cue-runner", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stop.set()
        self._q.put(("wake", None))
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> CueRunner:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- work -------------------------------------------------------------------------------------
    def tick(self) -> None:
        """Do what is queued (films to play, a panic's stop), then end a timed cue that has run out."""
        while True:
            try:
                kind, arg = self._q.get_nowait()
            except queue.Empty:
                break
            self._handle(kind, arg)
        cq = self.store.state["cues"]
        now = self.clock()
        cid = overdue(cq, now)
        if cid is not None and not self._obs_ends(cq, cid, now) and not self._obs_holds(cq, cid, now):
            self._dispatch("cues.end", {"id": cid})

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                kind, arg = self._q.get(timeout=self.interval)
                self._handle(kind, arg)
            except queue.Empty:
                pass
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - the runner must survive a bug
                log.exception("cue runner tick failed")

    def _obs_ends(self, cq: dict[str, Any], cid: str, now: float) -> bool:
        """Is the overdue cue ``cid`` a film the bridge plays in OBS, whose end OBS is to say (within
        ``FILM_GRACE`` seconds past its length)?"""
        bridge = self.bridge
        if bridge is None or not getattr(bridge, "rolls_film_cues", False) or not bridge.status.connected:
            return False
        cue = next((c for c in cq["list"] if c["id"] == cid), None)
        if cue is None or cue["kind"] != "film":
            return False  # (the bridge may not have started it yet: a busy bridge, a loaded OBS)
        ends = cq["current"]["ends"] if cq["current"] else None
        if ends is None or now < float(ends) + FILM_GRACE:
            return True
        log.warning("cue %s: OBS never said film %s ended: ended on the clock", cid, cue["film"])
        return False

    def _obs_holds(self, cq: dict[str, Any], cid: str, now: float) -> bool:
        """Is the overdue cue ``cid`` a bumper the bridge shows in OBS that has not had its seconds on air
        yet — counted from when OBS showed it (``GRAPHIC_GRACE`` seconds past its length at most)?"""
        bridge = self.bridge
        since_of = getattr(getattr(bridge, "tracker", None), "on_air_since", None)
        if since_of is None or not bridge.status.connected:
            return False
        cue = next((c for c in cq["list"] if c["id"] == cid), None)
        cur = cq["current"]
        if cue is None or cue["kind"] != "bumper" or not cue.get("graphic") or cur is None:
            return False
        seconds = float(cue.get("seconds") or 0)
        since = since_of(str(cue["graphic"]), str(cue.get("item", "")))
        if since is not None:
            return bool(now < since + seconds)
        if now < float(cur["ends"]) + GRAPHIC_GRACE:
            return True
        log.warning("cue %s: OBS never showed %s: ended on the clock", cid, cue["graphic"])
        return False

    def _recover(self) -> None:
        """After a restart: a cue left running by a panic whose stop was not journaled is stopped."""
        st = self.store.state
        cur = st["cues"]["current"]
        if cur is None:
            return
        cue = next((c for c in st["cues"]["list"] if c["id"] == cur["id"]), None)
        if cue is not None and cue["graphic"] and cue["action"] != "play":
            if not st["graphics"]["program"][cue["graphic"]]["on"]:
                self._q.put(("stop", "恢复时发现已被清屏 / found cleared after a restart"))

    def _on_change(self, change: Any) -> None:
        # the dispatching thread: only queue work, never dispatch from here
        if change.replayed:
            return
        if change.type == "bus.panic" and change.state["cues"]["current"] is not None:
            self._q.put(("stop", "紧急清屏 panic"))
        if "cues" in change.changed:
            cue = started_film(change.previous["cues"], change.state["cues"])
            if cue is not None:
                prev = self._previous_cue(change.state["cues"], cue["id"])
                self._q.put(("film", (cue, prev)))
        if self.threaded:
            self._q.put(("wake", None))

    @staticmethod
    def _previous_cue(cq: dict[str, Any], cid: str) -> dict[str, Any] | None:
        ids = [c["id"] for c in cq["list"]]
        i = ids.index(cid)
        return cq["list"][i - 1] if i > 0 else None

    def _handle(self, kind: str, arg: Any) -> None:
        if kind == "stop":
            self._dispatch("cues.stop", {"reason": str(arg)})
        elif kind == "film":
            cue, prev = arg
            self._play(cue, prev)

    def _play(self, cue: dict[str, Any], prev: dict[str, Any] | None) -> None:
        fid = cue["film"]
        bridge = self.bridge
        if bridge is not None and prev is not None and prev["kind"] == "leaderboard":
            if getattr(bridge, "leaderboard_film", None) == fid:
                if not bridge.status.connected:
                    self._fail(cue, NOT_CONNECTED)
                return  # the bridge rolls the 英雄榜冠名 film itself when the board comes off
        try:
            if self.player is not None:
                self.player(fid, int(cue["seconds"] or 0))
            elif bridge is None or not bridge.status.connected:
                self._fail(cue, NOT_CONNECTED)
            elif getattr(bridge, "rolls_film_cues", False):
                # the bridge rolls the cue's film itself on the state change that started the cue (so no
                # other scene reaches program first): the runner only checks that it did
                if not self._wait_film(bridge, fid):
                    self._fail(cue, f"片子未能播出 / the film could not air: OBS did not start {fid}")
            else:
                bridge.play_film(fid, reason="cue", timeout=self.film_timeout)
        except Exception as exc:  # noqa: BLE001 - said on the cue, the show goes on
            self._fail(cue, f"片子未能播出 / the film could not air: {exc}")

    def _wait_film(self, bridge: Any, fid: str) -> bool:
        deadline = time.monotonic() + self.film_timeout
        while time.monotonic() < deadline and not self._stop.is_set():
            if bridge.status.film == fid:
                return True
            if not bridge.status.connected:
                return False
            time.sleep(0.05)
        return False

    def _fail(self, cue: dict[str, Any], note: str) -> None:
        cur = self.store.state["cues"]["current"]
        log.warning("cue %s failed: %s", cue["id"], note)
        if cur is not None and cur["id"] == cue["id"]:
            self._dispatch("cues.end", {"id": cue["id"], "status": "failed", "note": note})

    def _dispatch(self, type_: str, payload: dict[str, Any]) -> None:
        try:
            self.store.dispatch(type_, payload, source="cues")
        except ActionRefused as exc:  # e.g. the operator GO'd on meanwhile: nothing to do
            log.info("cue runner: %s refused: %s", type_, exc)
        except Exception as exc:  # noqa: BLE001 - a full disk etc.: kept for the status bar
            self.errors.append(f"{type_}: {exc}")
            log.error("cue runner: %s failed: %s", type_, exc)
