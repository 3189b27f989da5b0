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
what is on air in ``onair.py``, the evidence of air (what OBS confirmed, and when) in
``evidence.py``, proof pictures in ``proofs.py``, the cut's independent watcher in ``cutwatch.py``,
OBS's saves of its scene collection in ``saves.py``, the operator's status in ``status.py``. This file
is the worker: the connection's life, provisioning, sync and cuts.
"""

from __future__ import annotations

import copy
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast.core import airlog as A
from broadcast.obs import drawn, follow
from broadcast.obs import layout as L
from broadcast.obs import sync as S
from broadcast.obs.assets import AssetResolver
from broadcast.obs.client import ObsClient
from broadcast.obs.cuts import ProgramCuts
from broadcast.obs.errors import (
    ObsAuthError,
    ObsError,
    ObsNotConnected,
    ObsTimeout,
    ObsUnreachable,
)
from broadcast.obs.evidence import Evidence
from broadcast.obs.films import Film, FilmPlayer, Reel, check_known, cue_film
from broadcast.obs.graphics.raster import PictureStore, default_folder
from broadcast.obs.onair import UP, OnAirTracker
from broadcast.obs.proofs import Proof, ProofTaker
from broadcast.obs.provision import ProvisionError, ProvisionReport, has_browser_source, provision
from broadcast.obs.saves import SAVE_AFTER, SAVE_AFTER_CUT, CollectionSaver
from broadcast.obs.settings import ObsSettings
from broadcast.obs.status import (
    AUTH_FAILED,
    CONNECTED,
    CONNECTING,
    PROVISIONING,
    RECONNECTING,
    STOPPED,
    BridgeStatus,
    StatusBoard,
    reason_text,
)
from broadcast.obs.timers import Timers

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


@dataclass(frozen=True)
class ObsEvent:
    type: str  # obs-websocket eventType
    data: dict[str, Any]
    ts: float  # receive time (epoch seconds), taken on the receive thread


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
        self.assets = assets or AssetResolver(base=self.settings.assets_dir)
        self._q: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._latest: dict[str, Any] | None = None
        self._state_lock = threading.Lock()
        self._sync_queued = False
        self._panic = False
        self.board = StatusBoard()
        self._event_listeners: list[Callable[[ObsEvent], None]] = []
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._unsubscribe: Callable[[], None] | None = None
        self._client: ObsClient | None = None
        self._watcher: ObsClient | None = None  # a quiet second session that times cuts
        self._close_since = 0.0
        self._timers = Timers()
        self.resync_phases: dict[str, float] = {}
        self.pictures = PictureStore(self.settings.pictures_dir or default_folder())
        self._rolled_cue: tuple[str, float] | None = None  # the film cue of the state already rolled
        self.proofs = ProofTaker(self, self.settings, airlog, background=True)
        self.evidence = Evidence(airlog, on_graphic_on=self.proofs.graphic_went_on)
        # every row OBS confirms belongs to an episode: the one the bridge was started for (else the show's
        # at start), then the show's as the operator moves on — never the log's "current" one, which the
        # recorder may not have begun yet
        self.evidence.episode = episode
        self._episode_seen = ""  # the show's episode in the latest state, and since when (a change's time)
        self._episode_since = 0.0
        self.player = FilmPlayer(self, self.films)
        self.saver = CollectionSaver(self.after, lambda: self._client)
        self.cuts = ProgramCuts(self.settings, self.evidence.when, self._program_seen)
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
        self.cuts.reset()
        self._applied: dict[str, Any] | None = None  # the state last pushed to OBS
        self._front: dict[str, str] = {}  # native graphic → the picture source that shows it
        self._holds: dict[str, str] = {}  # picture source → the state's item whose picture it holds
        self.evidence.echo_bus = {}  # browser mode: what the page inside OBS last painted
        self._timers.clear()
        self.saver.reset()
        self.player.forget()

    def __repr__(self) -> str:
        return f"<ObsBridge {self.settings!r} {self.status.state}>"

    # -- what the film player needs (FilmHost) -------------------------------------------------
    @property
    def layout(self) -> L.Layout | None:
        return self._layout

    @property
    def item_ids(self) -> Mapping[tuple[str, str], int]:
        return self._item_ids

    @property
    def program(self) -> str:
        return self.cuts.program

    @property
    def episode(self) -> str:
        """The episode the rows OBS confirms now belong to (the as-run's ``episode``)."""
        return self.evidence.episode

    @property
    def tracker(self) -> OnAirTracker:
        return self.evidence.tracker

    @property
    def client(self) -> ObsClient | None:
        return self._client

    def picture_of(self, graphic: str) -> tuple[str, float, float] | None:
        """The picture file program shows for a native graphic, and its top-left corner (ProofHost)."""
        lay, front = self._layout, self._front.get(graphic, "")
        spec = lay.inputs.get(front) if lay is not None and not lay.browser else None
        file = str(self._sent.get(front, {}).get("file", ""))
        return (file, spec.x, spec.y) if spec is not None and file else None

    def film_changed(self, film_id: str) -> None:
        self._set_status(self.status.state, self.status.reason, self.status.detail, film=film_id)

    def film_done(self, client: ObsClient, film_id: str, failed: str = "") -> None:
        """OBS ended ``film_id``: its running cue ends now (OBS's event, not a timer) and what follows
        takes program straight from the break — the next film rolled here, a full-frame item by the
        scene the new state wants — with no frame of the game scene between (:mod:`.follow`)."""
        state = follow.end_film_cue(self.store, film_id, failed) or self._state()
        if self.player.advance(client, film_id, failed):
            return  # the break's next film rolled straight from this one (:class:`~.films.Reel`)
        key, next_film = cue_film(state, self.films)
        if next_film and key is not None and key != self._rolled_cue:
            self._rolled_cue = key
            self.player.start(client, next_film, "cue")
            self._preload(client, state)
            return
        self._sync(client)  # the new state's picture shown (loaded while the film ran), then the cut

    def _preload(self, client: ObsClient, state: Mapping[str, Any]) -> None:
        """While a film plays, the picture of the native graphic marked to follow it goes into its hidden
        source (:func:`follow.next_picture`): when OBS ends the film, the sync finds it loaded and shows
        it at once, with nothing to wait for between the film and the item."""
        nxt = follow.next_picture(state) if not self._browser else None
        if nxt is None or self._layout is None:
            return
        graphic, bus = nxt
        lay = self._build({**state, "graphics": {**state["graphics"], "program": bus}})
        if set(lay.inputs) != set(self._layout.inputs) or graphic not in lay.pictures:
            return
        path = self.pictures.ensure([lay.pictures[graphic]])[0]
        plan = S.plan_sync(
            lay,
            bus,
            sent=self._sent,
            enabled=self._enabled,
            item_ids=self._item_ids,
            program=self.cuts.program,
            want_scene="",
            files={graphic: str(path)},
            front=self._front,
        )
        own = {i.source for i in lay.graphics.get(graphic, [])}
        loads = [(t, d) for t, d in plan.loads() if d.get("inputName") in own]
        sent = time.time()
        results, at = client.pipeline_timed(loads, timeout=max(self.settings.timeout, 5.0))
        self._confirm(loads, results, sent, at)

    def proof_later(self, event_id: int, delay: float) -> None:
        self.proofs.later(event_id, delay)

    def after(self, seconds: float, fn: Callable[[], None]) -> None:
        self._timers.after(seconds, fn)

    def after_threadsafe(self, seconds: float, fn: Callable[[], None]) -> None:
        self._q.put(("timer", (seconds, fn)))

    # -- public API (any thread, never blocks beyond a timeout) --------------------------------
    @property
    def status(self) -> BridgeStatus:
        return self.board.status

    def add_status_listener(self, fn: Callable[[BridgeStatus], None]) -> Callable[[], None]:
        return self.board.add_listener(fn)

    def add_event_listener(self, fn: Callable[[ObsEvent], None]) -> Callable[[], None]:
        self._event_listeners.append(fn)
        return lambda: self._event_listeners.remove(fn) if fn in self._event_listeners else None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._rolled_cue = cue_film(self.store.state, self.films)[0] or None  # one running before us
        self._episode_seen = str(self.store.state["show"].get("episode", ""))
        if not self.evidence.episode:
            self.evidence.episode = self._episode_seen
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
        self.proofs.close()
        if self.tracker.link == UP:
            self.tracker.down(time.time(), "stopped")
        self._set_status(STOPPED, "stopped")

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every state change so far has reached OBS and the events OBS sent back have
        reached the as-run log (before a clean stop). False when offline or past ``timeout``."""
        if not self.status.connected:
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
            if self.status.connected and self.status.synced_at:
                return True
            time.sleep(0.01)
        return False

    def submit(self, fn: Callable[[ObsClient], Any]) -> Future[Any]:
        """Run ``fn(client)`` on the worker; the future fails at once with ObsNotConnected while OBS
        is not connected (a console never waits on a dead link)."""
        fut: Future[Any] = Future()
        if self.status.state not in (CONNECTED, PROVISIONING) and self._thread is not None:
            zh, en = reason_text(self.status.reason)
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
        return self.submit(lambda c: self.proofs.take(c, None))

    def play_film(
        self, film_id: str, *, reason: str = "break", timeout: float | None = None, hold: float | None = None
    ) -> Film:
        """Play one film in the break scene now; program returns to the state's scene when it ends — when
        OBS says it ended, or ``hold`` seconds after OBS started it. The returned :class:`Film`'s ``done``
        is set then (``ended`` says how)."""
        check_known([film_id], self.films)
        film: Film = self._wait(
            self.submit(lambda c: self.player.start(c, film_id, reason, hold)), timeout, "play_film"
        )
        return film

    def play_films(
        self,
        film_ids: list[str],
        *,
        reason: str = "break",
        timeout: float | None = None,
        hold: float | None = None,
    ) -> Reel:
        """Play a break's films back to back in the break scene: each starts the moment OBS ends the one
        before (or its ``hold`` runs out), with no frame of the show between them; program returns to the
        state's scene after the last. The returned :class:`~.films.Reel`'s ``done`` is set then; its
        ``failed`` lists the films that did not air and why."""
        check_known(film_ids, self.films)
        reel: Reel = self._wait(
            self.submit(lambda c: self.player.roll(c, list(film_ids), reason, hold)), timeout, "play_films"
        )
        return reel

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
        early = self.evidence.remember(int(change.seq), change.state)
        if early is not None:  # the page inside OBS echoed this state before this listener was told
            self._q.put(("echo", (int(change.seq), early)))
        self._on_change_state(change.state, float(change.ts))

    def _on_change_state(self, state: dict[str, Any], ts: float = 0.0) -> None:
        with self._state_lock:
            self._latest = state
            episode = str(state["show"].get("episode", ""))
            if episode and episode != self._episode_seen:  # the show moved on (as the recorder sees it)
                self._episode_seen, self._episode_since = episode, ts or time.time()
            if self._sync_queued:
                return
            self._sync_queued = True
        self._q.put(("sync", None))

    def _on_obs_event(self, name: str, data: dict[str, Any], ts: float) -> None:
        # the receive thread: never call OBS from here
        self.evidence.note_event(name, data, ts)
        self._q.put(("event", ObsEvent(name, data, ts)))

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
            else (RECONNECTING if self.status.connects else CONNECTING)
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
                    zh, en = reason_text(self.status.reason)
                    fut.set_exception(ObsNotConnected(zh=zh, en=f"OBS not connected: {en}"))
            elif kind == "sync":
                with self._state_lock:
                    self._sync_queued = False

    def _connect(self) -> None:
        if not self.status.connects and self.status.state == STOPPED:
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
                self.cuts.leave_studio_mode(client)
            self.cuts.program = self.cuts.asked = str(program.get("currentProgramSceneName", ""))
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
        st = self.status
        self._set_status(
            CONNECTED,
            "on_air",
            "",
            obs_version=str(version.get("obsVersion", "")),
            browser_source=self._browser,
            program_scene=self.cuts.program,
            # on air when OBS showed it (its answers, events, the cut's watcher), not when the last
            # answer came back
            synced_at=time.monotonic() - (time.time() - ts),
            resync_seconds=time.monotonic() - (time.time() - ts) - t_open,
            connects=st.connects + 1,
            down_since=0.0,
        )

    def _serve(self, client: ObsClient) -> None:
        timeout = self._timers.wait(0.25)
        try:
            kind, arg = self._q.get(timeout=timeout)
        except queue.Empty:
            kind, arg = "idle", None
        self._timers.run_due()
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
                self.cuts.seen(scene, ts)
            elif scene == self.cuts.pending:  # OBS never showed it: the state's scene is asked again
                self.cuts.pending = ""
                self._on_change_state(self._state())
        elif kind == "timer":
            self.after(*arg)
        elif kind == "echo":
            seq, ts = arg
            if self._browser and self.evidence.painted(seq, ts):
                self._observe(ts)
        elif kind == "call":
            fn, fut = arg
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(client))
                except BaseException as exc:  # noqa: BLE001 - handed to the caller
                    fut.set_exception(exc)

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
        self.cuts.transition = rep.transition
        if rep.changed or rep.inputs_updated or rep.transforms_set:
            self.saver.soon(SAVE_AFTER)
        return rep

    def _sync(self, client: ObsClient) -> float:
        """Bring OBS to the latest state; returns when OBS confirmed the last change (0 = nothing)."""
        with self._state_lock:
            self._sync_queued = False
            state = self._latest if self._latest is not None else self.store.state
            episode, since = self._episode_seen, self._episode_since
        if episode and since:  # what OBS shows is carried into the new episode before this state's rows
            self.evidence.switch_episode(episode, since)
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
            program=self.cuts.pending or self.cuts.program,
            want_scene=want,
            files=files,
            front=self._front,
        )
        self._applied = state
        last = 0.0
        # new pictures into hidden sources, loaded by OBS (drawn.py: on air means drawn), then shown
        # items, then the scene switch, then hidden: a graphic leaving with its scene is never seen
        # vanishing on air, nor one changing blanking, nor one shown before OBS has its picture
        sent = time.time()
        loads, shows = plan.loads(), plan.shows()
        results, at = client.pipeline_timed(loads, timeout=max(self.settings.timeout, 5.0))
        failed = {
            d.get("inputName")
            for (t, d), r in zip(loads, results, strict=True)
            if t == "SetInputSettings" and isinstance(r, ObsError)
        }
        last = max(last, self._confirm(loads, results, sent, at))
        if any(t == "SetInputSettings" and "file" in d["inputSettings"] for t, d in loads):
            drawn.wait_loaded(client, timeout=max(self.settings.timeout, 2.0))
        for graphic, front in plan.front:
            if front in failed:
                continue  # OBS did not take the picture: that source does not hold it
            self._front[graphic] = front
            if bus.get(graphic, {}).get("on"):
                self._holds[front] = str(bus[graphic].get("item", ""))
        sent = time.time()
        results, at = client.pipeline_timed(shows, timeout=max(self.settings.timeout, 5.0))
        last = max(last, self._confirm(shows, results, sent, at))
        late = plan.last()
        if film:
            self.player.start(client, film, "leaderboard" if film == self.leaderboard_film else "cue")
            self._preload(client, state)
        elif plan.cut() is not None:
            # in the scene about to be cut to, out of sight, the old picture goes before the cut (one
            # hidden after it shows through the new one's translucent panels on air)
            early = [c for c in late if c[1]["sceneName"] == plan.program]
            if early and self.cuts.unseen(plan.program, time.time()):
                sent = time.time()
                results, at = client.pipeline_timed(early, timeout=max(self.settings.timeout, 5.0))
                last = max(last, self._confirm(early, results, sent, at))
                late = [c for c in late if c not in early]
            cut = "Cut" if panic or state["graphics"].get("transition") == "cut" else self.settings.transition
            self.set_program(client, plan.program, transition=cut)
            last = max(last, self.cuts.program_at)
        sent = time.time()
        results, at = client.pipeline_timed(late, timeout=max(self.settings.timeout, 5.0))
        last = max(last, self._confirm(late, results, sent, at))
        if not plan.empty:
            self.saver.soon(SAVE_AFTER)  # (a cut has asked for it sooner)
        self._set_status(
            self.status.state, self.status.reason, self.status.detail, program_scene=self.cuts.program
        )
        return last

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
                    self.evidence.when(
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

    def set_program(self, client: ObsClient, scene: str, *, transition: str = "") -> None:
        """Cut program to ``scene`` (see :meth:`ProgramCuts.cut`); a switch OBS answers too late is
        reported on this connection only (a report after a reconnect would be older than what OBS said
        since)."""
        link = self._link
        self.cuts.cut(
            client,
            self._watcher,
            scene,
            transition=transition,
            late=lambda sc, ts: self._q.put(("program_seen", (link, sc, ts))),
        )

    def _program_seen(self, scene: str, ts: float) -> None:
        """OBS switched program to ``scene`` at ``ts``."""
        self._observe(ts)
        self.saver.soon(SAVE_AFTER_CUT)  # OBS does not save a cut: it comes back on it after a crash
        self._set_status(self.status.state, self.status.reason, self.status.detail, program_scene=scene)

    # -- OBS events ----------------------------------------------------------------------------
    def _handle_event(self, client: ObsClient, ev: ObsEvent) -> None:
        t, d = ev.type, ev.data
        if t == "CurrentProgramSceneChanged":
            self.cuts.scene_event(client, str(d.get("sceneName", "")), ev.ts)
        elif t == "CurrentSceneTransitionChanged":
            self.cuts.transition = str(d.get("transitionName", ""))
        elif t == "StudioModeStateChanged" and d.get("studioModeEnabled"):
            self.cuts.leave_studio_mode(client)
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
        """Tell the evidence what OBS confirmed is on program now."""
        self.evidence.observe(ts, self._layout, self.cuts.program, self._enabled, self._holds)

    # -- status --------------------------------------------------------------------------------
    def _set_status(self, state: str, reason: str, detail: str = "", **kw: Any) -> None:
        self.board.set(state, reason, detail, **kw)
