"""The OBS bridge's worker: keeps OBS equal to the show state and tells the as-run log what OBS shows.

    bridge = ObsBridge(store, ObsSettings.load(), airlog=asrun, overlay_urls={"program": url, …})
    bridge.add_status_listener(lambda st: print(st.line))   # BridgeStatus: state, reason, zh/en
    bridge.start()                 # returns at once; connects (and re-connects) in the background
    …
    bridge.proof_of_air()          # a 640 px JPEG of program, a chained as-run row of its own
    bridge.stop()                  # closes what is on air in the as-run log: a clean stop

Threads: a store listener only records the latest state (bursts coalesce: only the latest matters);
the connection's receive thread only stamps events and queues them; **one worker thread** does every
OBS call: connect (retrying), provision, sync state → OBS, handle events and page echoes, run timers.
Nothing here blocks the caller beyond its timeout; status and event listeners run on the worker
thread (a Qt console re-emits them as signals); :meth:`submit` hands any call to the worker and
returns a :class:`~concurrent.futures.Future`.

The jobs live in their own files: the connection and its freeze watchdog in ``client.py``, the
state → OBS comparison in ``sync.py`` (pure), the scenes in ``layout.py``, films in ``films.py``,
what is on air in ``onair.py``, the operator's status in ``status.py``.

On-air evidence: only what OBS confirmed — the answer to our request that changed something (the time
it arrived), OBS's own events for changes made elsewhere (ignored when older than our last
confirmation of the same thing), and in browser-source mode the program page's report, from inside
OBS, that it painted a state. The show state's intention alone is never recorded as air.
"""

from __future__ import annotations

import copy
import functools
import heapq
import io
import itertools
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs import sync as S
from broadcast.obs.assets import AssetResolver
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import (
    ObsAuthError,
    ObsError,
    ObsNotConnected,
    ObsTimeout,
    ObsUnreachable,
)
from broadcast.obs.films import FilmPlayer, cue_film
from broadcast.obs.graphics.raster import PictureStore, default_folder
from broadcast.obs.onair import UP, OnAirTracker
from broadcast.obs.provision import ProvisionError, ProvisionReport, has_browser_source, provision
from broadcast.obs.settings import ObsSettings
from broadcast.obs.status import (
    AUTH_FAILED,
    CONNECTED,
    CONNECTING,
    PROVISIONING,
    RECONNECTING,
    STOPPED,
    BridgeStatus,
    reason_text,
)

__all__ = [
    "AUTH_FAILED",
    "CONNECTED",
    "CONNECTING",
    "PROVISIONING",
    "RECONNECTING",
    "STOPPED",
    "BridgeStatus",
    "ObsBridge",
    "ObsEvent",
    "Proof",
]

log = logging.getLogger(__name__)

PROOF_DELAY = 0.3  # a graphic is drawn on the next frame: wait a little before the shot
PROOF_DELAY_FILM = 1.0
PROOF_EVERY = 30.0  # seconds between automatic proofs of the same graphic and item
SAVE_AFTER = 1.0  # OBS is asked to save its scene collection this long after a change (coalesced) …
SAVE_AFTER_CUT = 0.3  # … and soon after a cut (a program scene OBS did not save costs a re-sync a cut) …
SAVE_GAP = 1.0  # … but at most once a second: a save is work for OBS's UI thread, which cuts wait for
ECHO_MEMORY = 512  # states remembered for the pages' echoes (by journal seq)


@dataclass(frozen=True)
class ObsEvent:
    type: str  # obs-websocket eventType
    data: dict[str, Any]
    ts: float  # receive time (epoch seconds), taken on the receive thread


@dataclass(frozen=True)
class Proof:
    event_id: int | None  # the proof's own as-run row
    jpeg: bytes
    width: int
    height: int
    scene: str
    ts: float


class _ProgramWatch:
    """Polls ``GetCurrentProgramScene`` on a session of its own while a cut is under way, and keeps the
    time OBS first reported the new scene (what an independent poller of OBS sees). When the cut's
    answer does not come in time, :meth:`detach` lets it go on watching and report the switch later
    (OBS does switch, and its UI answers seconds later on a busy machine)."""

    POLL = 0.02
    DETACHED_FOR = 120.0  # seconds a detached watch keeps looking

    def __init__(self, watcher: ObsClient | None, scene: str) -> None:
        self.scene = scene
        self.seen = 0.0
        self._done = threading.Event()
        self._watcher = watcher
        self._report: Callable[[str, float], None] | None = None
        self._over = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        if watcher is not None and watcher.connected:
            self._thread = threading.Thread(target=self._run, name="obs-program-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self._watcher is not None
        deadline = time.monotonic() + self.DETACHED_FOR
        seen = 0.0
        while time.monotonic() < deadline and not seen:
            try:
                out, at = self._watcher.request_timed("GetCurrentProgramScene", timeout=2.0)
            except ObsError:
                break
            if out.get("currentProgramSceneName") == self.scene:
                seen = at
            elif self._done.wait(self.POLL):
                break
        with self._lock:
            self.seen, self._over = seen, True
            report = self._report
        if report is not None:
            report(self.scene, seen)  # 0.0: never seen (the worker may cut again)

    def detach(self, report: Callable[[str, float], None]) -> None:
        """Keep watching after the worker gave up waiting; ``report(scene, when)`` once OBS shows it
        (``when`` 0.0: it never did)."""
        with self._lock:
            over = self._over or self._thread is None
            if not over:
                self._report = report
        if over:
            report(self.scene, self.seen)

    def result(self) -> float:
        """Stop watching (one more look is allowed after the cut's answer) and say when it was seen."""
        if self._thread is not None:  # never holds the worker long: a watcher still asking is let go
            self._thread.join(0.1)
            self._done.set()
            self._thread.join(0.1)
        return self.seen


@dataclass(order=True)
class _Timer:
    due: float
    seq: int
    fn: Callable[[], None] = field(compare=False)


def _bus_items(state: Mapping[str, Any]) -> dict[str, str]:
    """The program bus as graphic → item, for the graphics that are on."""
    return {g: str(v.get("item", "")) for g, v in state["graphics"]["program"].items() if v.get("on")}


class ObsBridge:
    rolls_film_cues = True  # the state's running film cue is rolled here (cue runners only check it)

    def __init__(
        self,
        store: Any,
        settings: ObsSettings | None = None,
        airlog: A.AirLog | None = None,
        overlay_urls: Mapping[str, str] | None = None,
        *,
        films: Mapping[str, str | Path] | None = None,
        leaderboard_film: str | None = None,
        episode: str = "",
        assets: Callable[[str], str] | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or ObsSettings.load()
        self.airlog = airlog
        self.overlay_urls = dict(overlay_urls or {})
        films_map = self.settings.film_paths()
        films_map.update({k: Path(v).resolve() for k, v in (films or {}).items()})
        self.films: dict[str, Path] = films_map
        self.leaderboard_film = (
            leaderboard_film if leaderboard_film is not None else self.settings.leaderboard_film
        )
        self.episode = episode
        self.assets = assets or AssetResolver(base=self.settings.assets_dir)
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._latest: dict[str, Any] | None = None
        self._state_lock = threading.Lock()
        self._sync_queued = False
        self._panic = False
        self._status = BridgeStatus()
        self._status_listeners: list[Callable[[BridgeStatus], None]] = []
        self._event_listeners: list[Callable[[ObsEvent], None]] = []
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._unsubscribe: Callable[[], None] | None = None
        self._client: ObsClient | None = None
        self._watcher: ObsClient | None = None  # a quiet second session that times cuts
        self._close_since = 0.0
        self._timers: list[_Timer] = []
        self._timer_seq = itertools.count()
        self._bus_by_seq: OrderedDict[int, dict[str, str]] = OrderedDict()
        self._seen: dict[tuple[Any, ...], float] = {}  # what OBS's events said, when (receive thread)
        self._proofs_at: dict[tuple[str, str], float] = {}
        self.resync_phases: dict[str, float] = {}
        self.pictures = PictureStore(self.settings.pictures_dir or default_folder())
        self._rolled_cue: tuple[str, float] | None = None  # the film cue of the state already rolled
        self.tracker = OnAirTracker(self._record, on_graphic_on=self._graphic_went_on)
        self.player = FilmPlayer(self, self.films)
        self._link = 0
        self._reset_obs_view()

    def _reset_obs_view(self) -> None:
        """Forget what we knew of OBS (a new connection starts from what OBS says)."""
        self._link += 1  # which connection a late report belongs to
        self._browser = False
        self._layout: L.Layout | None = None
        self._item_ids: dict[tuple[str, str], int] = {}
        self._item_of_id: dict[tuple[str, int], str] = {}
        self._enabled: dict[tuple[str, str], bool] = {}
        self._confirmed_at: dict[tuple[str, str], float] = {}  # when OBS last confirmed each item
        self._sent: dict[str, dict[str, Any]] = {}  # what OBS holds per input (read back, then confirmed)
        self._program = ""  # as OBS last confirmed
        self._program_at = 0.0
        self._program_asked = ""
        self._pending_cut = ""  # a cut OBS has not answered in time: its switch is reported later
        self._transition = ""  # OBS's current scene transition
        self._applied: dict[str, Any] | None = None  # the state last pushed to OBS
        self._front: dict[str, str] = {}  # native graphic → the picture source that shows it
        self._holds: dict[str, str] = {}  # picture source → the state's item whose picture it holds
        self._echo_bus: dict[str, str] = {}  # browser mode: what the page inside OBS last painted
        self._timers = []
        self._save_at = 0.0  # when OBS is next asked to save its collection (monotonic; 0 = not asked)
        self._saved_at = 0.0  # when it was last asked
        self.player.forget()

    def __repr__(self) -> str:
        return f"<ObsBridge {self.settings!r} {self._status.state}>"

    # -- what the film player needs (FilmHost) -------------------------------------------------
    @property
    def layout(self) -> L.Layout | None:
        return self._layout

    @property
    def item_ids(self) -> Mapping[tuple[str, str], int]:
        return self._item_ids

    @property
    def program(self) -> str:
        return self._program

    def film_changed(self, film_id: str) -> None:
        self._set_status(self._status.state, self._status.reason, self._status.detail, film=film_id)

    def return_to_show(self, client: ObsClient) -> None:
        state = self._applied or self._state()
        self.set_program(client, L.program_scene_for(state["graphics"]["program"]))

    def proof_later(self, event_id: int, delay: float) -> None:
        self.after(delay, lambda: self._auto_proof(event_id))

    def after(self, seconds: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, _Timer(time.monotonic() + seconds, next(self._timer_seq), fn))

    # -- public API (any thread, never blocks beyond a timeout) --------------------------------
    @property
    def status(self) -> BridgeStatus:
        return self._status

    def add_status_listener(self, fn: Callable[[BridgeStatus], None]) -> Callable[[], None]:
        self._status_listeners.append(fn)
        return lambda: self._status_listeners.remove(fn) if fn in self._status_listeners else None

    def add_event_listener(self, fn: Callable[[ObsEvent], None]) -> Callable[[], None]:
        self._event_listeners.append(fn)
        return lambda: self._event_listeners.remove(fn) if fn in self._event_listeners else None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._rolled_cue = cue_film(self.store.state, self.films)[0] or None  # one running before us
        self._on_change_state(self.store.state)
        self._unsubscribe = self.store.subscribe(self._on_store_change, name="obs-bridge")
        self._thread = threading.Thread(target=self._run, name="obs-bridge", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker and drop the link. What was on air is closed in the as-run log at this
        moment (a clean stop leaves no interval open)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stopping.set()
        self._q.put(("wake", None))
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._client is not None:
            self._client.close("bridge stopped")
            self._client = None
        self._close_watcher()
        if self.tracker.link == UP:
            self.tracker.down(time.time(), "stopped")
        self._set_status(STOPPED, "stopped")

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every state change so far has reached OBS and the events OBS sent back have
        reached the as-run log (before a clean stop). False when offline or past ``timeout``."""
        if not self._status.connected:
            return False
        try:
            # the worker applies queued syncs first; OBS's events for them arrive before the answer to
            # GetStats and are queued before the second call, which therefore runs after them
            self.submit(lambda c: c.request("GetStats")).result(timeout)
            self.submit(lambda c: None).result(timeout)
        except Exception:  # noqa: BLE001 - offline, timed out: nothing more can be confirmed
            return False
        return True

    def __enter__(self) -> ObsBridge:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_connected(self, timeout: float) -> bool:
        """Block until connected and synced (for scripts and tests; never call from the Qt thread)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._status.connected and self._status.synced_at:
                return True
            time.sleep(0.01)
        return False

    def submit(self, fn: Callable[[ObsClient], Any]) -> Future[Any]:
        """Run ``fn(client)`` on the worker; the future fails at once with ObsNotConnected while OBS
        is not connected (a console never waits on a dead link)."""
        fut: Future[Any] = Future()
        if self._status.state not in (CONNECTED, PROVISIONING) and self._thread is not None:
            zh, en = reason_text(self._status.reason)
            fut.set_exception(ObsNotConnected(zh=zh, en=f"OBS not connected: {en}"))
            return fut
        self._q.put(("call", (fn, fut)))
        return fut

    def _wait(self, fut: Future[Any], timeout: float | None, what: str) -> Any:
        timeout = self.settings.timeout if timeout is None else timeout
        try:
            return fut.result(timeout)
        except TimeoutError:
            fut.cancel()
            raise ObsTimeout(what, timeout) from None

    def request(
        self, request_type: str, data: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        """One OBS request through the worker; waits at most ``timeout`` (default settings.timeout)."""
        t = self.settings.timeout if timeout is None else timeout
        result: dict[str, Any] = self._wait(
            self.submit(lambda c: c.request(request_type, data, timeout=t)), t, request_type
        )
        return result

    def provision(self, timeout: float | None = None) -> ProvisionReport:
        report: ProvisionReport = self._wait(
            self.submit(lambda c: self._provision(c)), timeout or self.settings.timeout * 10, "provision"
        )
        return report

    def proof_of_air(self, timeout: float | None = None) -> Proof:
        proof: Proof = self._wait(self.submit_proof(), timeout or self.settings.timeout * 2, "proof_of_air")
        return proof

    def submit_proof(self) -> Future[Any]:
        return self.submit(lambda c: self._proof(c, None))

    def play_film(self, film_id: str, *, reason: str = "break", timeout: float | None = None) -> None:
        """Play one film in the break scene now; program returns to the state's scene when it ends."""
        if film_id not in self.films:
            raise KeyError(f"unknown film {film_id!r}; known: {', '.join(sorted(self.films)) or 'none'}")
        self._wait(self.submit(lambda c: self.player.start(c, film_id, reason)), timeout, "play_film")

    def panic(self) -> None:
        """Everything off program at once (dispatches ``bus.panic``; the worker cleans OBS up)."""
        self.store.dispatch("bus.panic", {}, source="obs")

    def on_rendered(self, echo: Any) -> None:
        """The overlay server's page echo (``broadcast.overlay.server.Rendered``): evidence only when
        the program page reports from inside OBS (``window.obsstudio``) that it painted state ``seq``."""
        if getattr(echo, "bus", "") != "program" or not getattr(echo, "inside_obs", False):
            return
        self._q.put(("echo", (int(echo.seq), time.time())))

    # -- inputs from other threads -------------------------------------------------------------
    def _on_store_change(self, change: Any) -> None:
        if change.type == "bus.panic":
            self._panic = True
        with self._state_lock:
            self._bus_by_seq[int(change.seq)] = _bus_items(change.state)
            while len(self._bus_by_seq) > ECHO_MEMORY:
                self._bus_by_seq.popitem(last=False)
        self._on_change_state(change.state)

    def _on_change_state(self, state: dict[str, Any]) -> None:
        with self._state_lock:
            self._latest = state
            if self._sync_queued:
                return
            self._sync_queued = True
        self._q.put(("sync", None))

    def _on_obs_event(self, name: str, data: dict[str, Any], ts: float) -> None:
        # the receive thread: never call OBS from here. What OBS says it did is noted at once, so a
        # change confirmed by our request's (later) answer is timed by OBS's (earlier) event
        if name == "CurrentProgramSceneChanged":
            self._seen[("scene", str(data.get("sceneName", "")))] = ts
        elif name == "SceneItemEnableStateChanged":
            key = ("item", str(data.get("sceneName", "")), int(data.get("sceneItemId", -1)))
            self._seen[(*key, bool(data.get("sceneItemEnabled")))] = ts
        self._q.put(("event", ObsEvent(name, data, ts)))

    def _when(self, key: tuple[Any, ...], sent: float, answered: float) -> float:
        """When OBS made a change we asked for at ``sent``: its event if it came, else its answer."""
        seen = self._seen.get(key, 0.0)
        return seen if sent <= seen <= answered else answered

    def _on_obs_close(self, reason: str, cause: str, since: float) -> None:
        self._close_since = since
        self._q.put(("closed", (reason, cause, since)))

    # -- worker --------------------------------------------------------------------------------
    def _run(self) -> None:
        backoff = self.settings.backoff_initial
        while not self._stopping.is_set():
            client = self._client
            if client is None or not client.connected:
                if client is not None:
                    self._lost(client.close_reason or "connection lost", client.close_cause or "lost")
                try:
                    self._connect()
                except ObsError as exc:
                    self._failed(exc)
                    if isinstance(exc, ObsUnreachable):
                        wait = self.settings.retry_interval  # a refused connect is cheap: OBS back soon
                    elif isinstance(exc, ObsAuthError):
                        wait = max(2.0, self.settings.backoff_max)
                    else:
                        wait, backoff = backoff, min(backoff * 2, self.settings.backoff_max)
                    self._idle(wait)
                    continue
                backoff = self.settings.backoff_initial
                continue
            try:
                self._serve(client)
            except ObsError as exc:
                if client.connected:
                    # a sync that failed half-way is tried again from what OBS confirmed
                    log.warning("OBS request failed: %s", exc)
                    self._on_change_state(self._state())
            except Exception:  # noqa: BLE001 - the worker must survive a bug in a handler
                log.exception("OBS bridge worker error")
        if self._client is not None:
            self._client.close("bridge stopped")

    def _failed(self, exc: ObsError) -> None:
        """A (re)connect failed: say why, and record that OBS is not seen (once per outage)."""
        client, self._client = self._client, None
        if client is not None:
            client.close("connect failed", exc.cause)
        self._close_watcher()
        reason = exc.cause
        if isinstance(exc, ObsAuthError) and "none is set" in str(exc):
            reason = "no_password"
        if isinstance(exc, ProvisionError):
            reason = "provision_failed"
        state = (
            AUTH_FAILED
            if isinstance(exc, ObsAuthError)
            else (RECONNECTING if self._status.connects else CONNECTING)
        )
        self.tracker.down(time.time(), exc.cause, detail=str(exc))
        self._set_status(state, reason, f"{self.settings.host}:{self.settings.port} — {exc}")

    def _idle(self, seconds: float) -> None:
        """Wait while offline; keep answering calls (with ObsNotConnected) and coalescing syncs."""
        deadline = time.monotonic() + seconds
        while not self._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                kind, arg = self._q.get(timeout=left)
            except queue.Empty:
                return
            if kind == "call":
                _fn, fut = arg
                if fut.set_running_or_notify_cancel():
                    zh, en = reason_text(self._status.reason)
                    fut.set_exception(ObsNotConnected(zh=zh, en=f"OBS not connected: {en}"))
            elif kind == "sync":
                with self._state_lock:
                    self._sync_queued = False

    def _connect(self) -> None:
        if not self._status.connects and self._status.state == STOPPED:
            self._set_status(CONNECTING, "connecting", f"{self.settings.host}:{self.settings.port}")
        t_open = time.monotonic()
        client = ObsClient(self.settings, on_event=self._on_obs_event, on_close=self._on_obs_close)
        client.connect()
        self._client = client
        self._reset_obs_view()
        self._close_watcher()
        watcher = ObsClient(self.settings, keepalive=False)
        try:
            watcher.connect()
            self._watcher = watcher
        except ObsError:
            self._watcher = None  # cuts are then timed by OBS's event or answer
        self._set_status(PROVISIONING, "provisioning", f"{self.settings.host}:{self.settings.port}")
        if self.tracker.link != UP:  # the first connection: not on air until provisioned and confirmed
            self.tracker.down(time.time(), "provisioning")
        try:
            version, kinds, studio, program = client.pipeline(
                [
                    ("GetVersion", {}),
                    ("GetInputKindList", {}),
                    ("GetStudioModeEnabled", {}),
                    ("GetCurrentProgramScene", {}),
                ]
            )
            for r in (version, kinds, studio, program):
                if isinstance(r, ObsError):
                    raise r
            assert not isinstance(version, ObsError) and not isinstance(kinds, ObsError)
            assert not isinstance(studio, ObsError) and not isinstance(program, ObsError)
            phases = {"connect": time.monotonic() - t_open}
            self._browser = has_browser_source([str(k) for k in kinds.get("inputKinds", [])])
            if studio.get("studioModeEnabled"):
                self._leave_studio_mode(client)
            self._program = self._program_asked = str(program.get("currentProgramSceneName", ""))
            self._provision(client)
            phases["provision"] = time.monotonic() - t_open - sum(phases.values())
            confirmed = self._sync(client)
            phases["sync"] = time.monotonic() - t_open - sum(phases.values())
            self.resync_phases = phases  # where a re-sync's time went (benchmarks/obs_resync.py)
        except ObsError:
            client.close("initial sync failed", "lost")
            self._client = None
            raise
        # OBS confirmed program and graphics: from here on they count (start-up graphics included)
        ts = min(confirmed or time.time(), time.time())
        self.tracker.up(ts, {"obs_version": str(version.get("obsVersion", "")), "browser": self._browser})
        self._observe(ts)
        st = self._status
        self._set_status(
            CONNECTED,
            "on_air",
            "",
            obs_version=str(version.get("obsVersion", "")),
            browser_source=self._browser,
            program_scene=self._program,
            # on air when OBS showed it (its answers, events, the cut's watcher), not when the last
            # answer came back
            synced_at=time.monotonic() - (time.time() - ts),
            resync_seconds=time.monotonic() - (time.time() - ts) - t_open,
            connects=st.connects + 1,
            down_since=0.0,
        )

    def _serve(self, client: ObsClient) -> None:
        timeout = 0.25
        if self._timers:
            timeout = max(0.0, min(timeout, self._timers[0].due - time.monotonic()))
        try:
            kind, arg = self._q.get(timeout=timeout)
        except queue.Empty:
            kind, arg = "idle", None
        self._run_timers()
        if not client.connected:
            if kind == "call":
                self._q.put((kind, arg))  # answered by _idle once the loss is handled
            return
        if kind == "sync":
            self._sync(client)
        elif kind == "event":
            self._handle_event(client, arg)
        elif kind == "program_seen":  # a cut OBS answered too late for the worker to wait
            link, scene, ts = arg
            if link != self._link:
                pass  # seen on a connection since lost: the re-sync asked OBS afresh
            elif ts:
                self._program_seen(scene, ts)
            elif scene == self._pending_cut:  # OBS never showed it: the state's scene is asked again
                self._pending_cut = ""
                self._on_change_state(self._state())
        elif kind == "echo":
            seq, ts = arg
            with self._state_lock:
                bus = self._bus_by_seq.get(seq)
            if bus is not None and self._browser:
                self._echo_bus = dict(bus)
                self._observe(ts)
        elif kind == "call":
            fn, fut = arg
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(client))
                except BaseException as exc:  # noqa: BLE001 - handed to the caller
                    fut.set_exception(exc)

    def _run_timers(self) -> None:
        now = time.monotonic()
        while self._timers and self._timers[0].due <= now:
            t = heapq.heappop(self._timers)
            try:
                t.fn()
            except ObsError as exc:
                log.warning("OBS timer task failed: %s", exc)

    def _close_watcher(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.close("bridge: new connection")

    def _lost(self, reason: str, cause: str) -> None:
        """The link is gone: nothing is on air as far as we can tell, from the last moment OBS was
        known alive (a frozen OBS: its last answer; a dropped link: now)."""
        now = time.time()
        since = self._close_since or now
        self._close_since = 0.0
        self.tracker.down(now, cause, since=since, detail=reason)
        self._client = None
        self._close_watcher()
        self._reset_obs_view()
        zh, _en = reason_text(cause)
        log.warning("OBS: %s (%s)", zh, reason)
        self._set_status(RECONNECTING, cause, reason, program_scene="", film="", down_since=since)

    # -- provisioning and sync -----------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        with self._state_lock:
            st = self._latest
        return st if st is not None else self.store.state

    def _build(self, state: Mapping[str, Any]) -> L.Layout:
        s = self.settings
        return L.build_layout(
            state,
            browser=self._browser,
            font=s.font,
            assets_dir=s.assets_dir,
            overlay_urls=self.overlay_urls,
            films=self.films,
            width=s.width,
            height=s.height,
            camera_kind=s.camera_kind,
            camera_settings=s.camera_settings,
            resolve=self.assets,
        )

    def _provision(self, client: ObsClient) -> ProvisionReport:
        lay = self._build(self._state())
        s = self.settings
        rep = provision(
            client,
            lay,
            width=s.width,
            height=s.height,
            fps=s.fps,
            transition=s.transition,
            transition_ms=s.transition_ms,
            timeout=max(5.0, s.timeout * 5),
        )
        self._layout = lay
        self._item_ids = dict(rep.item_ids)
        self._item_of_id = {(sc, iid): src for (sc, src), iid in rep.item_ids.items()}
        self._enabled = dict(rep.enabled)
        self._sent = copy.deepcopy(rep.settings)
        self._transition = rep.transition
        if rep.changed or rep.inputs_updated or rep.transforms_set:
            self._save_soon(SAVE_AFTER)
        return rep

    def _sync(self, client: ObsClient) -> float:
        """Bring OBS to the latest state; returns when OBS confirmed the last change (0 = nothing)."""
        with self._state_lock:
            self._sync_queued = False
            state = self._latest if self._latest is not None else self.store.state
        panic, self._panic = self._panic, False
        prev = self._applied
        lay = self._build(state)
        if self._layout is None or set(lay.inputs) != set(self._layout.inputs):
            self._provision(client)
        self._layout = lay
        bus = state["graphics"]["program"]
        # the native graphics' pictures, rendered where new (the same state gives the same files)
        paths = self.pictures.ensure(list(lay.pictures.values()))
        files = {g: str(path) for g, path in zip(lay.pictures, paths, strict=True)}
        want, film = self._scene_decision(client, state, prev, bus, panic)
        plan = S.plan_sync(
            lay,
            bus,
            sent=self._sent,
            enabled=self._enabled,
            item_ids=self._item_ids,
            program=self._pending_cut or self._program,
            want_scene=want,
            files=files,
            front=self._front,
        )
        self._applied = state
        last = 0.0
        # new pictures into hidden sources and shown items first, then the scene switch, then hidden:
        # a graphic leaving with its scene is never seen vanishing on air, nor one changing blanking
        sent = time.time()
        results, at = client.pipeline_timed(plan.first(), timeout=max(self.settings.timeout, 5.0))
        failed = {
            d.get("inputName")
            for (t, d), r in zip(plan.first(), results, strict=True)
            if t == "SetInputSettings" and isinstance(r, ObsError)
        }
        for graphic, front in plan.front:
            if front in failed:
                continue  # OBS did not take the picture: that source does not hold it
            self._front[graphic] = front
            if bus.get(graphic, {}).get("on"):
                self._holds[front] = str(bus[graphic].get("item", ""))
        last = max(last, self._confirm(plan.first(), results, sent, at))
        if film:
            self.player.start(client, film, "leaderboard" if film == self.leaderboard_film else "cue")
        elif plan.cut() is not None:
            cut = "Cut" if panic or state["graphics"].get("transition") == "cut" else self.settings.transition
            self.set_program(client, plan.program, transition=cut)
            last = max(last, self._program_at)
        sent = time.time()
        results, at = client.pipeline_timed(plan.last(), timeout=max(self.settings.timeout, 5.0))
        last = max(last, self._confirm(plan.last(), results, sent, at))
        if not plan.empty:
            self._save_soon(SAVE_AFTER)  # (a cut has asked for it sooner)
        self._set_status(
            self._status.state, self._status.reason, self._status.detail, program_scene=self._program
        )
        return last

    def _save_soon(self, delay: float) -> None:
        """Have OBS save its scene collection in ``delay`` seconds (one save for a burst of changes)."""
        now = time.monotonic()
        due = max(now + delay, self._saved_at + SAVE_GAP)
        if self._save_at and self._save_at <= due:
            return
        self._save_at = due
        self.after(due - now, self._save)

    def _save(self) -> None:
        """OBS saves its scene collection when a scene is renamed, not when we cut, move, show or set
        something: renaming the empty 存档 scene and back makes it save, so that after a crash OBS comes
        back showing the show as it last was (program scene, shown items, transforms, pictures) and the
        re-sync has next to nothing to change — no cut waiting for OBS's UI. Sent without waiting: only
        OBS's UI thread has work to do."""
        if not self._save_at or time.monotonic() < self._save_at - 0.001:
            return  # an earlier save was done, or a later one is due
        self._save_at = 0.0
        self._saved_at = time.monotonic()
        client = self._client
        if client is None or not client.connected:
            return
        client.post(
            [
                ("SetSceneName", {"sceneName": L.SCENE_SAVE, "newSceneName": L.SCENE_SAVE_ASIDE}),
                ("SetSceneName", {"sceneName": L.SCENE_SAVE_ASIDE, "newSceneName": L.SCENE_SAVE}),
            ]
        )

    def _confirm(
        self,
        calls: list[S.Request],
        results: list[dict[str, Any] | ObsError],
        sent: float,
        at: float,
    ) -> float:
        """What OBS answered for ``calls`` is what it now holds (a refused request changes nothing).
        Returns when OBS made the last of these changes (its events' times where they came)."""
        if calls:
            at = max(
                [
                    self._when(
                        ("item", d["sceneName"], d["sceneItemId"], bool(d["sceneItemEnabled"])), sent, at
                    )
                    for t, d in calls
                    if t == "SetSceneItemEnabled"
                ]
                or [at]
            )
        for (rtype, data), r in zip(calls, results, strict=True):
            if isinstance(r, ObsTimeout):
                raise r
            if isinstance(r, ObsError):
                log.warning("OBS sync: %s", r)
                continue
            if rtype == "SetInputSettings":  # OBS overlays the settings on what it held
                name = data["inputName"]
                self._sent[name] = {**self._sent.get(name, {}), **copy.deepcopy(data["inputSettings"])}
            elif rtype == "SetSceneItemEnabled":
                key = (data["sceneName"], self._item_of_id.get((data["sceneName"], data["sceneItemId"]), ""))
                self._enabled[key] = bool(data["sceneItemEnabled"])
                self._confirmed_at[key] = at
        at = at or time.time()  # nothing had to change: OBS held this state already
        self._observe(at)
        return at

    def _scene_decision(
        self,
        client: ObsClient,
        state: dict[str, Any],
        prev: dict[str, Any] | None,
        bus: Mapping[str, Any],
        panic: bool,
    ) -> tuple[str, str]:
        """The program scene the state wants ("" = leave program to the film player) and the film to
        roll instead of a cut ("" = none): the 英雄榜冠名 film when the board comes off, or the film of
        a film cue the state has just started (rolled straight from the scene before: no flash of the
        game scene between a bumper and the break)."""
        if panic and self.player.current is not None:
            self.player.stop(client, "panic")
        key, cue_film_id = cue_film(state, self.films)
        new_cue = key is not None and key != self._rolled_cue
        if new_cue:
            self._rolled_cue = key
        was_board = bool(prev and prev["graphics"]["program"]["leaderboard"]["on"])
        want = L.program_scene_for(bus)
        if not panic and was_board and not bus["leaderboard"]["on"] and self.leaderboard_film in self.films:
            return "", self.leaderboard_film  # the board coming off rolls the 英雄榜冠名 film
        if not panic and new_cue and cue_film_id:
            return "", cue_film_id
        if self.player.current is not None:
            if prev is not None and L.program_scene_for(prev["graphics"]["program"]) == want:
                return "", ""  # the film keeps program until it ends
            self.player.stop(client, "interrupted")
        return want, ""

    def _leave_studio_mode(self, client: ObsClient) -> None:
        """The bridge switches program itself; in studio mode OBS would put a private copy of the scene
        on program (its "duplicate scene" default), which our show/hide of items never reaches: the
        as-run would say what program does not show. Studio mode is switched off, and said."""
        log.warning("OBS 工作室模式已关闭：节目由本软件切换 / OBS studio mode off: the bridge cuts program")
        client.request("SetStudioModeEnabled", {"studioModeEnabled": False})

    def set_program(self, client: ObsClient, scene: str, *, transition: str = "") -> None:
        """Cut program to ``scene`` with OBS's ``transition`` (Cut for CUT and panic, the configured one
        for TAKE). Timed as OBS switched (the watcher session, OBS's event, else its answer); when OBS's
        answer does not come in time the switch is still recorded once OBS shows it."""
        if scene == self._program_asked and scene == self._program:
            return
        calls: list[S.Request] = []
        if transition and transition != self._transition:
            calls.append(("SetCurrentSceneTransition", {"transitionName": transition}))
            if transition != "Cut":
                calls.append(
                    (
                        "SetCurrentSceneTransitionDuration",
                        {"transitionDuration": int(self.settings.transition_ms)},
                    )
                )
        calls.append(("SetCurrentProgramScene", {"sceneName": scene}))
        sent = time.time()
        watch = _ProgramWatch(self._watcher, scene)
        self._pending_cut = scene
        try:
            # OBS answers a cut only once its UI has caught up (seconds on a busy machine): a long
            # wait is not a fault here, the freeze watchdog tells a frozen OBS apart
            results, at = client.pipeline_timed(calls, timeout=self.settings.cut_timeout)
        except ObsTimeout:
            # OBS may still switch: the watcher (or OBS's event) reports it when it does — on this
            # connection only (a report after a reconnect would be older than what OBS said since)
            link = self._link
            watch.detach(lambda sc, ts: self._q.put(("program_seen", (link, sc, ts))))
            raise
        except ObsError:
            seen = watch.result()
            self._pending_cut = ""
            if seen:  # OBS did switch (the watcher saw it) before the link went: that aired
                self._program_seen(scene, seen)
            raise
        seen = watch.result()
        self._pending_cut = ""
        for (rtype, data), r in zip(calls, results, strict=True):
            if isinstance(r, ObsError):
                if rtype == "SetCurrentProgramScene":
                    raise r
                log.warning("OBS transition %s: %s", data, r)
            elif rtype == "SetCurrentSceneTransition":
                self._transition = str(data["transitionName"])
        # OBS switches program at once, then may spend seconds in its UI (the scene's source list)
        # before its event and its answer go out: the watcher saw the switch as any poller would
        at = min(self._when(("scene", scene), sent, at), seen or at)
        self._program_asked = scene
        self._program_seen(scene, at, force=True)

    def _program_now(self, client: ObsClient) -> str:
        """What OBS's program shows now ("" when OBS does not answer). OBS sends its program-scene event
        at the end of the transition: the event of an earlier cut can arrive after a later cut was
        seen, and must not be taken for a new switch — so an event that disagrees with what we know is
        checked against OBS's state before it counts."""
        try:
            out = client.request("GetCurrentProgramScene")
        except ObsError as exc:
            log.warning("OBS program scene not confirmed: %s", exc)
            return ""
        return str(out.get("currentProgramSceneName", ""))

    def _program_seen(self, scene: str, ts: float, *, force: bool = False) -> None:
        """OBS showed ``scene`` on program from ``ts`` (its answer, its event, or the watcher)."""
        if scene == self._pending_cut:
            self._pending_cut = ""
        if scene == self._program and not force:
            return
        if not force and ts < self._program_at:
            return  # older than what OBS confirmed since
        self._program = self._program_asked = scene
        self._program_at = ts
        self._observe(ts)
        self._save_soon(SAVE_AFTER_CUT)  # OBS does not save a cut: it comes back on it after a crash
        self._set_status(self._status.state, self._status.reason, self._status.detail, program_scene=scene)

    # -- OBS events ----------------------------------------------------------------------------
    def _handle_event(self, client: ObsClient, ev: ObsEvent) -> None:
        t, d = ev.type, ev.data
        if t == "CurrentProgramSceneChanged":
            scene = str(d.get("sceneName", ""))
            if scene != self._program and ev.ts >= self._program_at and self._program_now(client) == scene:
                # a cut made elsewhere, or ours that OBS answered too late: OBS shows it now
                self._program_asked = scene
                self._program_seen(scene, ev.ts)
        elif t == "CurrentSceneTransitionChanged":
            self._transition = str(d.get("transitionName", ""))
        elif t == "StudioModeStateChanged" and d.get("studioModeEnabled"):
            self._leave_studio_mode(client)
        elif t == "SceneItemEnableStateChanged":
            scene, iid = str(d.get("sceneName", "")), int(d.get("sceneItemId", -1))
            src = self._item_of_id.get((scene, iid))
            key = (scene, src or "")
            if src is not None and ev.ts >= self._confirmed_at.get(key, 0.0):
                self._enabled[key] = bool(d.get("sceneItemEnabled"))
                self._confirmed_at[key] = ev.ts
                self._observe(ev.ts)
        elif t in ("MediaInputPlaybackStarted", "MediaInputPlaybackEnded"):
            self.player.on_event(client, t, d, ev.ts)
        elif t == "ExitStarted":
            self._close_since = ev.ts
            client.close("OBS 正在退出 / OBS is quitting", "lost")
        for fn in list(self._event_listeners):
            try:
                fn(ev)
            except Exception:  # noqa: BLE001
                log.exception("OBS event listener failed")

    def _observe(self, ts: float) -> None:
        """Tell the tracker what OBS confirmed is on program now (graphic → item)."""
        lay, prog = self._layout, self._program
        shown: dict[str, str] = {}
        if lay is not None and prog in lay.scenes:
            if lay.browser:
                if prog != L.SCENE_BREAK and self._enabled.get((prog, L.INPUT_OVERLAY), False):
                    shown = dict(self._echo_bus)
            else:
                # a graphic is on air while OBS shows one of its picture sources (the top one, when it
                # shows both for a moment while a new picture takes over): as the item it holds
                for g, items in L.graphic_items(lay, prog).items():
                    on = [i.source for i in items if self._enabled.get((prog, i.source), False)]
                    if on:
                        shown[g] = self._holds.get(on[-1], "")
        self.tracker.observe(ts, prog, shown, source="echo" if lay is not None and lay.browser else "obs")

    # -- as-run and proof ----------------------------------------------------------------------
    def _record(
        self, ts: float, kind: str, subject: str, detail: dict[str, Any], source: str = "obs"
    ) -> int | None:
        if self.airlog is None:
            return None
        try:
            return int(
                self.airlog.record(
                    A.AirEvent(ts=ts, kind=kind, subject=subject, source=source, episode="", detail=detail)
                )
            )
        except Exception:  # noqa: BLE001 - the as-run store must not stop the show
            log.exception("as-run record failed (%s %s)", kind, subject)
            return None

    def _graphic_went_on(self, graphic: str, event_id: int) -> None:
        # one proof per sponsor graphic and item per PROOF_EVERY seconds: a screenshot makes OBS render
        # the scene once more, which a busy software renderer pays for in seconds
        item = self.tracker.on_air.get(graphic, "")
        now = time.monotonic()
        if graphic in L.SPONSOR_GRAPHICS and now - self._proofs_at.get((graphic, item), -1e9) >= PROOF_EVERY:
            self._proofs_at[(graphic, item)] = now
            self.after(PROOF_DELAY, functools.partial(self._auto_proof, event_id))

    def _auto_proof(self, event_id: int) -> None:
        if self._client is not None and self._client.connected and self.tracker.link == UP:
            self._proof(self._client, event_id)

    def _proof(self, client: ObsClient, event_id: int | None) -> Proof:
        scene = self._program or str(
            client.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        )
        jpeg = client.screenshot(
            scene,
            width=self.settings.proof_width,
            fmt="jpg",
            quality=80,
            timeout=max(self.settings.timeout, 10.0),
        )
        from PIL import Image

        with Image.open(io.BytesIO(jpeg)) as im:
            w, h = im.size
        ts = time.time()
        proof_id: int | None = None
        if self.airlog is not None:
            try:
                proof_id = int(self.airlog.attach_proof(event_id, jpeg, w, h, ts))
            except Exception:  # noqa: BLE001
                log.exception("as-run attach_proof failed")
        return Proof(proof_id, jpeg, w, h, scene, ts)

    # -- status --------------------------------------------------------------------------------
    def _set_status(self, state: str, reason: str, detail: str = "", **kw: Any) -> None:
        old = self._status
        zh, en = reason_text(reason)
        new = replace(old, state=state, reason=reason, message_zh=zh, message_en=en, detail=detail, **kw)
        if state != old.state:
            new = replace(new, since=time.time())
        if state != CONNECTED and state != old.state:
            new = replace(new, synced_at=0.0)
        if new == old:
            return
        self._status = new
        if (state, reason) != (old.state, old.reason):
            log.info("OBS bridge: %s %s", zh, detail)
        for fn in list(self._status_listeners):
            try:
                fn(new)
            except Exception:  # noqa: BLE001
                log.exception("OBS status listener failed")
