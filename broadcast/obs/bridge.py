"""The OBS bridge: keeps OBS equal to the show state, reports what is really on program.

    bridge = ObsBridge(store, ObsSettings.load(), airlog=asrun, overlay_urls={"program": url, …})
    bridge.add_status_listener(lambda st: print(st.message_zh))
    bridge.start()                 # returns at once; connects (and re-connects) in the background
    …
    bridge.proof_of_air()          # a 640 px JPEG of program, stored with an as-run entry
    bridge.stop()

Threads: a store listener only records the latest state (bursts coalesce: only the latest matters);
the library's receive thread only stamps events and queues them; **one worker thread** does every
OBS call: connect with backoff, provision, sync state → OBS, handle events, a watchdog ping. Nothing
here blocks the caller beyond its timeout; status and event listeners run on the worker thread
(a Qt console re-emits them as signals).

State → OBS: ``graphics.program`` chooses the program scene (英雄榜, 九宫格, 片尾, 垫片 are full
screen; otherwise the game scene) and, with OBS's own sources, which graphic items are visible;
table/sponsors/leaderboard fill the texts and images. Taking the 英雄榜 off plays the 英雄榜冠名
film (``leaderboard_film``) in the break scene, then returns to the game when OBS says it ended.
``bus.panic`` clears everything at once: no film, game scene, nothing on air.

As-run: program scene changes, graphics on/off (what the program scene really shows, from OBS's
events) and film start/end go to the :class:`~broadcast.core.airlog.AirLog`, stamped with the time
the event arrived; when a sponsor's graphic or film goes on air a proof screenshot is attached.
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
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import (
    ObsAuthError,
    ObsError,
    ObsNotConnected,
    ObsRequestError,
    ObsTimeout,
)
from broadcast.obs.provision import ProvisionReport, has_browser_source, input_kinds, provision
from broadcast.obs.settings import ObsSettings

log = logging.getLogger(__name__)

# bridge states
STOPPED = "stopped"
CONNECTING = "connecting"
CONNECTED = "connected"
RECONNECTING = "reconnecting"
AUTH_FAILED = "auth_failed"

_ZH = {
    STOPPED: "OBS 桥已停止",
    CONNECTING: "正在连接 OBS…",
    CONNECTED: "OBS 已连接",
    RECONNECTING: "OBS 未连接，正在重试…",
    AUTH_FAILED: "OBS 密码错误，请检查设置",
}

FILM_START_GRACE = 3.0  # a film that has not started by then is given up
PROOF_DELAY = 0.3  # a graphic is drawn on the next frame: wait a little before the shot
PROOF_DELAY_FILM = 1.0


@dataclass(frozen=True)
class BridgeStatus:
    state: str = STOPPED
    message_zh: str = _ZH[STOPPED]
    detail: str = ""
    since: float = 0.0
    obs_version: str = ""
    browser_source: bool | None = None
    program_scene: str = ""
    film: str = ""
    synced_at: float = 0.0  # monotonic time of the last full re-sync after a (re)connect
    connects: int = 0

    @property
    def connected(self) -> bool:
        return self.state == CONNECTED


@dataclass(frozen=True)
class ObsEvent:
    type: str  # obs-websocket eventType
    data: dict[str, Any]
    ts: float  # receive time (epoch seconds), taken on the receive thread


@dataclass(frozen=True)
class Proof:
    event_id: int | None
    jpeg: bytes
    width: int
    height: int
    scene: str
    ts: float


@dataclass
class _Film:
    film_id: str
    reason: str
    started: float  # monotonic when asked
    playing: bool = False
    event_id: int | None = None


@dataclass(order=True)
class _Timer:
    due: float
    seq: int
    fn: Callable[[], None] = field(compare=False)


class ObsBridge:
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
        self._timers: list[_Timer] = []
        self._timer_seq = itertools.count()
        self._reset_obs_view()

    def _reset_obs_view(self) -> None:
        self._browser = False
        self._layout: L.Layout | None = None
        self._item_ids: dict[tuple[str, str], int] = {}
        self._item_of_id: dict[tuple[str, int], str] = {}
        self._enabled: dict[tuple[str, str], bool] = {}
        self._sent: dict[str, dict[str, Any]] = {}
        self._program = ""
        self._program_asked = ""
        self._preview = ""
        self._studio = False
        self._applied: dict[str, Any] | None = None  # the state last pushed to OBS
        self._on_air: dict[str, str] = {}  # graphic → item really on program now
        self._air_events: dict[str, int | None] = {}
        self._film: _Film | None = None

    def __repr__(self) -> str:
        return f"<ObsBridge {self.settings!r} {self._status.state}>"

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
        self._on_change_state(self.store.state)
        self._unsubscribe = self.store.subscribe(self._on_store_change, name="obs-bridge")
        self._thread = threading.Thread(target=self._run, name="obs-bridge", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
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
        self._set_status(STOPPED)

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
        """Run ``fn(client)`` on the worker; the future fails with ObsNotConnected while offline."""
        fut: Future[Any] = Future()
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
        return self.submit(lambda c: self._proof(c, None, A.PROOF))

    def play_film(self, film_id: str, *, reason: str = "break", timeout: float | None = None) -> None:
        """Play one film in the break scene now; program returns to the state's scene when it ends."""
        if film_id not in self.films:
            raise KeyError(f"unknown film {film_id!r}; known: {', '.join(sorted(self.films)) or 'none'}")
        self._wait(self.submit(lambda c: self._start_film(c, film_id, reason)), timeout, "play_film")

    def set_studio_mode(self, on: bool, timeout: float | None = None) -> None:
        def go(c: ObsClient) -> None:
            c.request("SetStudioModeEnabled", {"studioModeEnabled": bool(on)})
            self._studio = bool(on)
            self._sync(c)

        self._wait(self.submit(go), timeout, "SetStudioModeEnabled")

    def transition(self, timeout: float | None = None) -> None:
        """Studio mode: take the preview scene to program with the configured transition."""
        self._wait(
            self.submit(lambda c: c.request("TriggerStudioModeTransition")),
            timeout,
            "TriggerStudioModeTransition",
        )

    def panic(self) -> None:
        """Everything off program at once (dispatches ``bus.panic``; the worker cleans OBS up)."""
        self.store.dispatch("bus.panic", {}, source="obs")

    # -- inputs from other threads -------------------------------------------------------------
    def _on_store_change(self, change: Any) -> None:
        if change.type == "bus.panic":
            self._panic = True
        self._on_change_state(change.state)

    def _on_change_state(self, state: dict[str, Any]) -> None:
        with self._state_lock:
            self._latest = state
            if self._sync_queued:
                return
            self._sync_queued = True
        self._q.put(("sync", None))

    def _on_obs_event(self, name: str, data: dict[str, Any], ts: float) -> None:
        # the receive thread: never call OBS from here
        self._q.put(("event", ObsEvent(name, data, ts)))

    def _on_obs_close(self, reason: str) -> None:
        self._q.put(("closed", reason))

    # -- worker --------------------------------------------------------------------------------
    def _run(self) -> None:
        backoff = self.settings.backoff_initial
        first = True
        while not self._stopping.is_set():
            client = self._client
            if client is None or not client.connected:
                if client is not None:
                    self._lost(client.close_reason or "connection lost")
                self._set_status(CONNECTING if first else RECONNECTING)
                try:
                    self._connect()
                except ObsAuthError as exc:
                    self._set_status(AUTH_FAILED, str(exc))
                    self._idle(max(5.0, self.settings.backoff_max))
                    continue
                except ObsError as exc:
                    self._set_status(CONNECTING if first else RECONNECTING, str(exc))
                    self._idle(backoff)
                    backoff = min(backoff * 2, self.settings.backoff_max)
                    continue
                first = False
                backoff = self.settings.backoff_initial
                continue
            try:
                self._serve(client)
            except ObsError as exc:
                if client.connected:
                    log.warning("OBS request failed: %s", exc)
                    if isinstance(exc, ObsTimeout):  # frozen OBS: drop the link, reconnect
                        client.close(f"OBS 无响应：{exc}")
            except Exception:  # noqa: BLE001 - the worker must survive a bug in a handler
                log.exception("OBS bridge worker error")
        if self._client is not None:
            self._client.close("bridge stopped")

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
                fn, fut = arg
                if fut.set_running_or_notify_cancel():
                    fut.set_exception(
                        ObsNotConnected(self._status.detail or "OBS 未连接", message_zh=_ZH[RECONNECTING])
                    )
            elif kind == "sync":
                with self._state_lock:
                    self._sync_queued = False

    def _connect(self) -> None:
        client = ObsClient(self.settings, on_event=self._on_obs_event, on_close=self._on_obs_close)
        client.connect()
        self._client = client
        self._reset_obs_view()
        # drop anything queued for the old connection except calls
        try:
            version = client.request("GetVersion")
            self._provision(client)
            studio = client.request("GetStudioModeEnabled")
            self._studio = bool(studio.get("studioModeEnabled"))
            self._program = str(client.request("GetCurrentProgramScene").get("currentProgramSceneName", ""))
            self._program_asked = self._program
            self._sync(client, force=True)
        except ObsError:
            client.close("initial sync failed")
            raise
        self._record(time.time(), A.PROGRAM_SCENE, self._program, {"reason": "connected"})
        self._update_on_air(time.time())
        st = self._status
        self._set_status(
            CONNECTED,
            "",
            obs_version=str(version.get("obsVersion", "")),
            browser_source=self._browser,
            program_scene=self._program,
            synced_at=time.monotonic(),
            connects=st.connects + 1,
        )

    def _serve(self, client: ObsClient) -> None:
        timeout = self.settings.ping_interval
        if self._timers:
            timeout = max(0.0, min(timeout, self._timers[0].due - time.monotonic()))
        try:
            kind, arg = self._q.get(timeout=timeout)
        except queue.Empty:
            kind, arg = "idle", None
        self._run_timers()
        if kind == "sync":
            self._sync(client)
        elif kind == "event":
            self._handle_event(client, arg)
        elif kind == "call":
            fn, fut = arg
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(client))
                except BaseException as exc:  # noqa: BLE001 - handed to the caller
                    fut.set_exception(exc)
                    if isinstance(exc, ObsTimeout):
                        raise
        elif kind == "closed":
            pass  # the loop sees client.connected == False
        quiet = time.monotonic() - client.last_message_at
        if kind == "idle" or quiet > max(2.0, 4 * self.settings.ping_interval):
            client.request("GetVersion", timeout=self.settings.timeout)  # watchdog: raises on a frozen OBS

    def _run_timers(self) -> None:
        now = time.monotonic()
        while self._timers and self._timers[0].due <= now:
            t = heapq.heappop(self._timers)
            try:
                t.fn()
            except ObsError as exc:
                log.warning("OBS timer task failed: %s", exc)

    def _after(self, seconds: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, _Timer(time.monotonic() + seconds, next(self._timer_seq), fn))

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
        )

    def _provision(self, client: ObsClient) -> ProvisionReport:
        self._browser = has_browser_source(input_kinds(client))
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
        self._sent = {name: copy.deepcopy(spec.settings) for name, spec in lay.inputs.items()}
        listing = client.pipeline([("GetSceneItemList", {"sceneName": sc}) for sc in lay.scenes])
        self._enabled = {}
        for sc, out in zip(lay.scenes, listing, strict=True):
            if isinstance(out, ObsError):
                raise out
            for it in out.get("sceneItems", []):
                self._enabled[(sc, str(it["sourceName"]))] = bool(it["sceneItemEnabled"])
        return rep

    def _sync(self, client: ObsClient, *, force: bool = False) -> None:
        with self._state_lock:
            self._sync_queued = False
            state = self._latest if self._latest is not None else self.store.state
        panic, self._panic = self._panic, False
        prev = self._applied
        lay = self._build(state)
        if self._layout is None or set(lay.inputs) != set(self._layout.inputs):
            self._provision(client)
            lay = self._layout or lay
        self._layout = lay
        bus = state["graphics"]["program"]
        calls: list[tuple[str, dict[str, Any]]] = []
        hide: list[tuple[str, dict[str, Any]]] = []
        for name, spec in lay.inputs.items():  # texts and images follow the state
            if force or self._sent.get(name) != spec.settings:
                calls.append(
                    ("SetInputSettings", {"inputName": name, "inputSettings": spec.settings, "overlay": True})
                )
                self._sent[name] = copy.deepcopy(spec.settings)
        for scene, items in lay.scenes.items():  # graphics on/off = item visibility
            for item in items:
                if not item.graphic:
                    continue
                want = bool(bus.get(item.graphic, {}).get("on"))
                iid = self._item_ids.get((scene, item.source))
                if iid is not None and (force or self._enabled.get((scene, item.source)) != want):
                    (calls if want else hide).append(
                        (
                            "SetSceneItemEnabled",
                            {"sceneName": scene, "sceneItemId": iid, "sceneItemEnabled": want},
                        )
                    )
        # shown first, then the scene switch, then hidden: a graphic leaving with its scene is never
        # seen vanishing on air
        self._pipeline(client, calls)
        try:
            self._program_for_state(client, state, prev, bus, panic)
        finally:
            self._pipeline(client, hide)
        self._sync_preview(client, state)
        # visibility comes back as OBS events; what a graphic shows (the bumper's line, the lower
        # third's name) changes with the settings just sent and has no event of its own
        self._update_on_air(time.time())

    def _pipeline(self, client: ObsClient, calls: list[tuple[str, dict[str, Any]]]) -> None:
        for r in client.pipeline(calls, timeout=max(self.settings.timeout, 5.0)):
            if isinstance(r, ObsTimeout):
                raise r
            if isinstance(r, ObsError):
                log.warning("OBS sync: %s", r)

    def _program_for_state(
        self,
        client: ObsClient,
        state: dict[str, Any],
        prev: dict[str, Any] | None,
        bus: Mapping[str, Any],
        panic: bool,
    ) -> None:
        # panic stops everything; the board coming off rolls the 英雄榜冠名 film
        if panic and self._film is not None:
            self._stop_film(client, "panic")
        was_board = bool(prev and prev["graphics"]["program"]["leaderboard"]["on"])
        self._applied = state
        if not panic and was_board and not bus["leaderboard"]["on"] and self.leaderboard_film in self.films:
            self._start_film(client, self.leaderboard_film, "leaderboard")
            return
        want_scene = L.program_scene_for(bus)
        if self._film is not None:
            if prev is not None and L.program_scene_for(prev["graphics"]["program"]) == want_scene:
                return  # the film keeps program until it ends
            self._stop_film(client, "interrupted")
        self._set_program(client, want_scene)

    def _sync_preview(self, client: ObsClient, state: Mapping[str, Any]) -> None:
        if not self._studio:
            return
        want = L.program_scene_for(state["graphics"]["preview"])
        if want != self._preview:
            client.request("SetCurrentPreviewScene", {"sceneName": want})
            self._preview = want

    def _set_program(self, client: ObsClient, scene: str) -> None:
        if scene != self._program_asked:
            client.request("SetCurrentProgramScene", {"sceneName": scene})
            self._program_asked = scene

    # -- films ---------------------------------------------------------------------------------
    def _start_film(self, client: ObsClient, film_id: str, reason: str) -> None:
        if self._film is not None:
            self._stop_film(client, "replaced")
        lay = self._layout
        if lay is None:
            raise ObsNotConnected("not provisioned")
        name = L.film_input(film_id)
        calls = []
        for item in lay.scenes.get(L.SCENE_BREAK, []):
            if item.film:
                iid = self._item_ids[(L.SCENE_BREAK, item.source)]
                calls.append(
                    (
                        "SetSceneItemEnabled",
                        {
                            "sceneName": L.SCENE_BREAK,
                            "sceneItemId": iid,
                            "sceneItemEnabled": item.source == name,
                        },
                    )
                )
        for r in client.pipeline(calls):
            if isinstance(r, ObsError):
                raise r
        film = _Film(film_id, reason, time.monotonic())
        self._film = film
        if self._program == L.SCENE_BREAK:
            client.request(
                "TriggerMediaInputAction",
                {"inputName": name, "mediaAction": "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART"},
            )
        else:
            self._set_program(client, L.SCENE_BREAK)
        self._set_status(self._status.state, self._status.detail, film=film_id)

        def check_started() -> None:
            if self._film is film and not film.playing and self._client is not None:
                log.warning("film %s did not start within %.0fs: back to the show", film_id, FILM_START_GRACE)
                self._stop_film(self._client, "did_not_start")
                self._return_from_film(self._client)

        self._after(FILM_START_GRACE, check_started)

    def _stop_film(self, client: ObsClient, why: str) -> None:
        film, self._film = self._film, None
        if film is None:
            return
        try:
            client.request(
                "TriggerMediaInputAction",
                {
                    "inputName": L.film_input(film.film_id),
                    "mediaAction": "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP",
                },
            )
        except ObsRequestError as exc:
            log.warning("stopping film %s: %s", film.film_id, exc)
        if film.playing:
            self._record(
                time.time(), A.FILM_END, film.film_id, {"reason": film.reason, "stopped": why}, source="app"
            )
        self._set_status(self._status.state, self._status.detail, film="")

    def _return_from_film(self, client: ObsClient) -> None:
        state = self._applied or self._state()
        self._set_program(client, L.program_scene_for(state["graphics"]["program"]))

    # -- OBS events ----------------------------------------------------------------------------
    def _handle_event(self, client: ObsClient, ev: ObsEvent) -> None:
        t, d = ev.type, ev.data
        if t == "CurrentProgramSceneChanged":
            self._program = self._program_asked = str(d.get("sceneName", ""))
            self._record(ev.ts, A.PROGRAM_SCENE, self._program)
            self._update_on_air(ev.ts)
            self._set_status(self._status.state, self._status.detail, program_scene=self._program)
        elif t == "CurrentPreviewSceneChanged":
            self._preview = str(d.get("sceneName", ""))
        elif t == "StudioModeStateChanged":
            self._studio = bool(d.get("studioModeEnabled"))
        elif t == "SceneItemEnableStateChanged":
            scene, iid = str(d.get("sceneName", "")), int(d.get("sceneItemId", -1))
            src = self._item_of_id.get((scene, iid))
            if src is not None:
                self._enabled[(scene, src)] = bool(d.get("sceneItemEnabled"))
                self._update_on_air(ev.ts)
        elif t == "MediaInputPlaybackStarted":
            film = self._film
            if film is not None and d.get("inputName") == L.film_input(film.film_id) and not film.playing:
                film.playing = True
                film.event_id = self._record(
                    ev.ts,
                    A.FILM_START,
                    film.film_id,
                    {"reason": film.reason, "file": str(self.films.get(film.film_id, ""))},
                )
                if film.event_id is not None:
                    eid = film.event_id
                    self._after(PROOF_DELAY_FILM, lambda: self._auto_proof(eid))
        elif t == "MediaInputPlaybackEnded":
            film = self._film
            if film is not None and d.get("inputName") == L.film_input(film.film_id):
                self._film = None
                if film.playing:
                    self._record(ev.ts, A.FILM_END, film.film_id, {"reason": film.reason})
                self._set_status(self._status.state, self._status.detail, film="")
                self._return_from_film(client)
        elif t == "ExitStarted":
            client.close("OBS 正在退出")
        for fn in list(self._event_listeners):
            try:
                fn(ev)
            except Exception:  # noqa: BLE001
                log.exception("OBS event listener failed")

    def _update_on_air(self, ts: float) -> None:
        """Graphics the program scene really shows; record what changed at ``ts``."""
        lay = self._layout
        shown: set[str] = set()
        bus = (self._applied or self._state())["graphics"]["program"]
        if lay is not None and self._program in lay.scenes:
            if lay.browser:
                if self._enabled.get((self._program, L.INPUT_OVERLAY), False):
                    shown = L.graphics_on_scene(lay, self._program, bus)
            else:
                shown = {
                    i.graphic
                    for i in lay.scenes[self._program]
                    if i.graphic and self._enabled.get((self._program, i.source), False)
                }
        self._set_on_air({g: str(bus.get(g, {}).get("item", "")) for g in shown}, ts)

    def _set_on_air(self, now: Mapping[str, str], ts: float, reason: str = "") -> None:
        """Record the difference between what was on air and ``now`` (graphic → item). A graphic whose
        item changed (the next bumper line) goes off with the old item and on with the new one, so
        each sponsor's line is timed on its own."""
        detail = {"scene": self._program} | ({"reason": reason} if reason else {})
        before = self._on_air
        for g in sorted(before):
            if g not in now or now[g] != before[g]:
                self._record(ts, A.GRAPHIC_OFF, g, dict(detail, item=before[g]))
        for g in sorted(now):
            if g not in before or before[g] != now[g]:
                eid = self._record(ts, A.GRAPHIC_ON, g, dict(detail, item=now[g]))
                if g in L.SPONSOR_GRAPHICS and eid is not None:
                    self._after(PROOF_DELAY, functools.partial(self._auto_proof, eid))
        self._on_air = dict(now)

    def _lost(self, reason: str) -> None:
        """The link is gone: nothing of ours is on air any more; no stale flags stay behind."""
        ts = time.time()
        film = self._film
        if film is not None and film.playing:
            self._record(ts, A.FILM_END, film.film_id, {"reason": film.reason, "stopped": "obs_lost"})
        self._film = None
        self._set_on_air({}, ts, reason="obs_lost")
        if self._program:
            self._record(ts, A.PROGRAM_SCENE, "", {"reason": "obs_lost", "detail": reason})
        self._program = ""
        self._timers.clear()
        self._client = None
        self._set_status(RECONNECTING, reason, program_scene="", film="")

    # -- as-run and proof ----------------------------------------------------------------------
    def _record(
        self, ts: float, kind: str, subject: str, detail: dict[str, Any] | None = None, source: str = "obs"
    ) -> int | None:
        if self.airlog is None:
            return None
        try:
            return int(
                self.airlog.record(
                    A.AirEvent(
                        ts=ts,
                        kind=kind,
                        subject=subject,
                        source=source,
                        episode=self.episode,
                        detail=dict(detail or {}),
                    )
                )
            )
        except Exception:  # noqa: BLE001 - the as-run store must not stop the show
            log.exception("as-run record failed (%s %s)", kind, subject)
            return None

    def _auto_proof(self, event_id: int) -> None:
        if self._client is not None and self._client.connected:
            self._proof(self._client, event_id, "")

    def _proof(self, client: ObsClient, event_id: int | None, kind: str) -> Proof:
        scene = self._program or str(
            client.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        )
        jpeg = client.screenshot(scene, width=self.settings.proof_width, fmt="jpg", quality=80)
        from PIL import Image

        with Image.open(io.BytesIO(jpeg)) as im:
            w, h = im.size
        ts = time.time()
        if kind and event_id is None:
            event_id = self._record(ts, kind, scene, {"on_air": sorted(self._on_air)}, source="obs")
        if event_id is not None and self.airlog is not None:
            try:
                self.airlog.attach_proof(event_id, jpeg, w, h)
            except Exception:  # noqa: BLE001
                log.exception("as-run attach_proof failed")
        return Proof(event_id, jpeg, w, h, scene, ts)

    # -- status --------------------------------------------------------------------------------
    def _set_status(self, state: str, detail: str = "", **kw: Any) -> None:
        old = self._status
        new = replace(old, state=state, message_zh=_ZH[state], detail=detail, **kw)
        if state != old.state:
            new = replace(new, since=time.time())
        if state != CONNECTED:
            new = replace(new, synced_at=0.0 if state != old.state else new.synced_at)
        if new == old:
            return
        self._status = new
        if state != old.state:
            log.info("OBS bridge: %s %s", new.message_zh, detail)
        for fn in list(self._status_listeners):
            try:
                fn(new)
            except Exception:  # noqa: BLE001
                log.exception("OBS status listener failed")
