"""The on-air graphics server: serves ``overlays/`` and pushes the show state over WebSocket.

    server = OverlayServer(store, port=8610, token="s3cret")
    server.start()                       # own asyncio loop in a daemon thread; returns once listening
    print(server.url("program"))         # http://127.0.0.1:8610/overlay/program.html?bus=program&token=…
    server.stop()

Protocol (``/ws?bus=program&token=…``, JSON text frames):

* server → page ``{"type": "snapshot", "seq": n, "state": {…}}`` once on connect (and again if the
  page fell behind), then ``{"type": "patch", "seq": n, "set": {section: value, …}}`` for every applied
  action, carrying the whole of each top-level section that changed (``meta`` always). Pages replace
  those sections. ``{"type": "hb"}`` every few seconds so a page can tell a dead link from a quiet show.
* page → server ``{"type": "ack", "seq": n}`` for every snapshot or patch it has applied, when it
  connected with ``ack=1`` (the pages' ``client.js`` does): the server then keeps at most
  ``ACK_WINDOW`` messages unacknowledged on the way to that page, and what changes meanwhile is
  coalesced into the next one — a page that is slow to read (a loaded machine, a busy browser) is sent
  the latest state when it is ready for it, not a backlog of stale ones queued in its socket. A page
  that stops acknowledging is sent its messages after ``ACK_WAIT`` seconds anyway.
* page → server ``{"type": "rendered", "seq": n}`` from inside the ``requestAnimationFrame`` that put
  state ``n`` on screen, when the page was opened with ``echo=1`` (tests and the latency benchmark) or
  runs inside OBS's browser source (``window.obsstudio`` exists: the page connects with ``obs=1`` and
  its echoes are the as-run log's evidence of what OBS painted, ``Rendered.inside_obs``).

The store's listener runs on the dispatching thread; it only merges the change into the one pending
hand-over (latest state, union of the changed sections) and wakes the server's loop with
``call_soon_threadsafe`` if it is not woken already — a burst of changes reaches the loop as one.
Updates are coalesced per page too: each page has the set of sections changed since its last message,
and its writer sends one patch of their *current* values whenever its socket can take it — so a page
that is slow (or a burst of thousands of changes) gets fewer, newer patches, never a backlog, and every
page ends on the latest state. A message is serialised and encoded once, whatever the number of pages
it goes to (pages that were sent the same earlier messages share the same bytes), and a write to a
socket that can take it never waits. A page whose socket takes nothing for ``SEND_TIMEOUT`` seconds is
closed by the heartbeat's sweep (it reconnects when it wakes); there is no ping timeout that a busy
machine could trip.

Pages receive only what they render: a section whose schema says ``"x-pages": false`` (the game's
record and the dealt hands) never leaves the process, not in a snapshot, a patch or ``/state.json``.

The HTTP control API (``/api/…``, :mod:`broadcast.overlay.control`) is served beside the pages.

Security: binds 127.0.0.1 unless told otherwise; with a token, every request except ``/healthz`` must
carry it (query ``token=``, the ``overlay_token`` cookie the first page load sets, or
``Authorization: Bearer``); every request must name this server by an IP address or ``localhost``
(``Host``; a DNS name could be an attacker's pointed at this machine) and, when it carries an
``Origin``, come from this server's own origin, and cross-site fetches are refused — so a web page open
in a browser on the studio machine can neither read the state nor open the WebSocket; files are served
only from inside their roots (``..``, absolute paths, symlinks leading out and hidden files are
refused); a Content-Security-Policy forbids inline scripts.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import mimetypes
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urlencode

from aiohttp import WSCloseCode, WSMsgType, web

from broadcast import resources

log = logging.getLogger(__name__)

OVERLAY_ROOT = resources.overlays_dir()  # package data: the same in a checkout and an installed wheel
SPONSOR_ASSETS = resources.sponsor_assets_dir()
PRESETS = resources.presets_dir()  # the rule presets as shipped (/assets/presets/tv_match.yaml)
FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/noto"))
FONT_FILES = (
    "NotoSansCJK-Regular.ttc",
    "NotoSansCJK-Bold.ttc",
    "NotoSansCJK-Black.ttc",
    "NotoSansCJK-Medium.ttc",
)
BUSES = ("preview", "program")
DEFAULT_PORT = 8610
HEARTBEAT_S = 2.0  # a page that was sent nothing for this long is sent {"type": "hb"}
SEND_TIMEOUT = 60.0  # a page whose socket takes nothing for this long is closed (it reconnects)
COOKIE = "overlay_token"
ACK_WINDOW = 1  # messages on the way to a page that acknowledges (ack=1): the next one waits
ACK_WAIT = 3.0  # seconds a message waits for an acknowledgement at most (a page that stopped acking)
_HEARTBEAT = b'{"type":"hb"}'

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("font/collection", ".ttc")
mimetypes.add_type("font/otf", ".otf")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("text/yaml", ".yaml")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'"
)


class StateSource(Protocol):
    """What the server needs from the store (``broadcast.core.ShowStore`` is one)."""

    @property
    def state(self) -> dict[str, Any]: ...

    def subscribe(self, fn: Callable[[Any], None], name: str = "") -> Callable[[], None]: ...


@dataclass(frozen=True)
class Rendered:
    """A page's echo: state ``seq`` reached the screen (from inside requestAnimationFrame)."""

    seq: int
    bus: str
    client: int
    received: float  # time.perf_counter() when the echo reached the server
    page_arrived: float = 0.0  # page clock, seconds since the epoch: the state reached the page
    page_frame: float = 0.0  # page clock: the requestAnimationFrame callback that rendered it began
    page_sent: float = 0.0  # page clock: the echo was sent (end of that callback)
    inside_obs: bool = False  # the page runs in OBS's browser source (window.obsstudio)


class PathRefused(Exception):
    pass


def safe_join(root: Path, tail: str) -> Path:
    """``root/tail`` if it stays inside ``root`` (after resolving symlinks); else :class:`PathRefused`."""
    tail = unquote(tail)
    if "\x00" in tail or "\\" in tail:
        raise PathRefused(tail)
    parts = [p for p in tail.split("/") if p not in ("", ".")]
    if any(p == ".." or p.startswith(".") for p in parts) or tail.startswith("/"):
        raise PathRefused(tail)
    if any(p == "__pycache__" or p.endswith((".py", ".pyc")) for p in parts):
        raise PathRefused(tail)  # the served folders are Python packages (package data): not their code
    root_r = root.resolve()
    target = root_r.joinpath(*parts).resolve() if parts else root_r
    if target != root_r and not target.is_relative_to(root_r):
        raise PathRefused(tail)
    return target


class _Client:
    """One page: what it has not been sent yet (coalesced), woken by every change."""

    __slots__ = (
        "id",
        "ws",
        "bus",
        "echo",
        "task",
        "peer",
        "pending",
        "snapshot",
        "hb",
        "wake",
        "last_sent",
        "sending_since",
        "inside_obs",
        "acks",
        "unacked",
    )

    def __init__(
        self, cid: int, ws: web.WebSocketResponse, bus: str, echo: bool, peer: str, inside_obs: bool = False
    ) -> None:
        self.inside_obs = inside_obs
        self.id = cid
        self.ws = ws
        self.bus = bus
        self.echo = echo
        self.peer = peer
        self.pending: set[str] = set()  # sections changed since the last message sent
        self.snapshot = False  # the next message is the whole state
        self.hb = False  # a heartbeat is due
        self.wake = asyncio.Event()
        self.last_sent = 0.0
        self.sending_since = 0.0  # loop time a send began waiting for the socket (0: not waiting)
        self.acks = False  # the page acknowledges what it applied (ack=1): flow control
        self.unacked = 0  # snapshots and patches sent and not acknowledged yet

    @property
    def held(self) -> bool:
        """Waiting for the page's acknowledgement before anything more is sent."""
        return self.acks and self.unacked >= ACK_WINDOW
        self.task: asyncio.Task[None] | None = None


def _number(value: Any) -> float:
    """A finite number from a page's message, else 0.0 (never an exception: the page is not trusted)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    f = float(value)
    return f if f == f and abs(f) != float("inf") else 0.0


def private_sections(store: Any) -> frozenset[str]:
    """The sections a store's schema keeps from the pages (``"x-pages": false``)."""
    schema = getattr(store, "schema", None)
    props = getattr(schema, "schema", {}).get("properties", {}) if schema is not None else {}
    return frozenset(k for k, sub in props.items() if isinstance(sub, dict) and sub.get("x-pages") is False)


class OverlayServer:
    def __init__(
        self,
        store: StateSource,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        token: str | None = None,
        asset_roots: Mapping[str, str | Path] | None = None,
        overlay_root: str | Path = OVERLAY_ROOT,
        font_dirs: tuple[Path, ...] = FONT_DIRS,
        updates: str = "sections",
        control: bool = True,
    ) -> None:
        if updates not in ("sections", "full"):
            raise ValueError("updates must be 'sections' (patches of the changed sections) or 'full'")
        self.updates = updates
        self.store = store
        self.host = host
        self._want_port = int(port)
        self.port = int(port)
        self.token = token or None
        roots = {"sponsors": SPONSOR_ASSETS, "presets": PRESETS} if asset_roots is None else dict(asset_roots)
        self.asset_roots: dict[str, Path] = {k: Path(v) for k, v in roots.items()}
        self.overlay_root = Path(overlay_root)
        self.font_dirs = font_dirs
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._clients: dict[int, _Client] = {}
        self._next_id = 1
        self._state: dict[str, Any] = {}  # what the pages may see (private sections left out)
        self._seq = -1
        self._snapshot_text = ""
        self._snapshot_bytes = b""
        self._section_text: dict[str, str] = {}  # serialised once per change of the section
        self._patch_bytes: dict[frozenset[str], bytes] = {}  # this seq's patches, encoded once each
        self._incoming: tuple[dict[str, Any], set[str] | None] | None = None  # merged, not yet applied
        self._incoming_lock = threading.Lock()
        self.private = private_sections(store)
        self._unsubscribe: Callable[[], None] | None = None
        self._rendered_listeners: list[Callable[[Rendered], None]] = []
        self._hb_task: asyncio.Task[None] | None = None
        self.stats = {
            "changes": 0,
            "snapshots": 0,
            "patches": 0,
            "coalesced": 0,
            "merged": 0,
            "ack_waits": 0,
            "refused": 0,
            "closed_slow": 0,
        }
        self.control: Any = None
        if control:  # the HTTP control API (broadcast.overlay.control), behind the same checks
            from broadcast.overlay.control import ControlApi

            self.control = ControlApi(self)

    # -- public API ------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        if host in ("0.0.0.0", "[::]"):
            host = "127.0.0.1"
        return f"http://{host}:{self.port}"

    def url(self, page: str = "program", bus: str | None = None, **extra: str) -> str:
        """The address of an on-air page, for an OBS browser source (token included)."""
        if bus is None:
            bus = "preview" if page == "preview" else "program"
        if bus not in BUSES:
            raise ValueError(f"bus must be one of {BUSES}, not {bus!r}")
        query: dict[str, str] = {"bus": bus}
        if self.token:
            query["token"] = self.token
        query.update(extra)
        return f"{self.base_url}/overlay/{quote(page)}.html?{urlencode(query)}"

    @property
    def client_count(self) -> int:
        return len(self._clients)

    def clients(self) -> list[dict[str, Any]]:
        return [{"id": c.id, "bus": c.bus, "peer": c.peer} for c in list(self._clients.values())]

    def on_rendered(self, fn: Callable[[Rendered], None]) -> Callable[[], None]:
        """Call ``fn`` (on the server's thread) for every echo of a page opened with ``echo=1``."""
        self._rendered_listeners.append(fn)
        return lambda: self._rendered_listeners.remove(fn) if fn in self._rendered_listeners else None

    def start(self, timeout: float = 10.0) -> None:
        if self.running:
            return
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._startup())
            except BaseException as exc:  # bind failure etc.: report to start()
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shutdown())
                loop.close()

        self._thread = threading.Thread(target=run, name=f"overlay-server:{self._want_port}", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise RuntimeError("overlay server did not start in time")
        if failure:
            self._thread.join(timeout)
            self._thread = None
            exc = failure[0]
            if isinstance(exc, OSError):
                raise OSError(
                    exc.errno,
                    f"图形服务器无法监听 {self.host}:{self._want_port}：{exc.strerror}"
                    f" / cannot listen on {self.host}:{self._want_port}",
                ) from exc
            raise exc
        # subscribe only once the loop runs; take the current state after subscribing so nothing is lost
        self._unsubscribe = self.store.subscribe(self._listener, name="overlay-server")
        self._offer(self.store.state, None)

    def stop(self, timeout: float = 10.0) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self._thread = None
        self._loop = None
        if self.control is not None:
            self.control.close()

    def __enter__(self) -> OverlayServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- store → loop --------------------------------------------------------------------------
    def _listener(self, change: Any) -> None:
        self._offer(change.state, change.changed)

    def _offer(self, state: dict[str, Any], changed: frozenset[str] | None) -> None:
        """Hand a new state to the loop (any thread): merged into the pending one, if the loop has not
        taken that yet (``None`` = everything changed); the loop is woken once per hand-over."""
        with self._incoming_lock:
            pending = self._incoming
            if pending is None:
                self._incoming = (state, None if changed is None else set(changed))
                wake = True
            else:
                before = pending[1]
                union = None if before is None or changed is None else before | changed
                self._incoming = (state, union)
                self.stats["merged"] += 1
                wake = False
        if wake:
            self._loop_call(self._take_incoming)

    def _take_incoming(self) -> None:
        with self._incoming_lock:
            pending, self._incoming = self._incoming, None
        if pending is not None:
            state, changed = pending
            self._apply(state, None if changed is None else frozenset(changed))

    def _loop_call(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # loop closed between the check and the call (shutdown)
                pass

    def _apply(self, state: dict[str, Any], changed: frozenset[str] | None) -> None:
        seq = int(state.get("meta", {}).get("seq", 0))
        if seq < self._seq or (seq == self._seq and changed is None):
            return
        public = {k: v for k, v in state.items() if k not in self.private} if self.private else state
        self._state = public
        self._seq = seq
        self._snapshot_text = ""
        self._snapshot_bytes = b""
        self._patch_bytes.clear()
        self.stats["changes"] += 1
        full = changed is None or self.updates == "full"
        if full:
            self._section_text.clear()
            sections: set[str] = set()
        else:
            assert changed is not None
            sections = {k for k in changed if k in public} | {"meta"}
            for k in sections:
                self._section_text.pop(k, None)
        for client in list(self._clients.values()):
            if full:
                client.snapshot = True
            else:
                if client.pending or client.wake.is_set():
                    self.stats["coalesced"] += 1
                client.pending |= sections
                if client.held:  # its ack wakes the writer: no wake-up per change meanwhile
                    continue
            client.wake.set()

    def _snapshot(self) -> str:
        if not self._snapshot_text:
            self._snapshot_text = json.dumps(
                {"type": "snapshot", "seq": self._seq, "state": self._state},
                ensure_ascii=False,
                separators=(",", ":"),
            )
        return self._snapshot_text

    def _snapshot_frame(self) -> bytes:
        if not self._snapshot_bytes:
            self._snapshot_bytes = self._snapshot().encode("utf-8")
        return self._snapshot_bytes

    def _patch_frame(self, sections: set[str]) -> bytes:
        """The patch of ``sections`` as it goes on the wire, built once per set of sections and state:
        the pages woken by the same changes share one serialisation and one encoding."""
        key = frozenset(sections)
        data = self._patch_bytes.get(key)
        if data is None:
            data = self._patch_bytes[key] = self._patch(sections).encode("utf-8")
        return data

    def _patch(self, sections: set[str]) -> str:
        """One patch of the current value of ``sections`` (each serialised once per change)."""
        parts = []
        for k in sorted(sections | {"meta"}):
            if k not in self._state:
                continue
            text = self._section_text.get(k)
            if text is None:
                text = self._section_text[k] = json.dumps(
                    self._state[k], ensure_ascii=False, separators=(",", ":")
                )
            parts.append(f"{json.dumps(k)}:{text}")
        return f'{{"type":"patch","seq":{self._seq},"set":{{{",".join(parts)}}}}}'

    # -- aiohttp -------------------------------------------------------------------------------
    async def _startup(self) -> None:
        app = web.Application(middlewares=[self._security])
        app.router.add_get("/", self._root)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/state.json", self._state_json)
        app.router.add_get("/overlay", self._overlay_index)
        app.router.add_get("/overlay/", self._overlay_index)
        app.router.add_get("/overlay/{tail:.*}", self._overlay_file)
        app.router.add_get("/assets/{root}/{tail:.*}", self._asset_file)
        app.router.add_get("/fonts/{name}", self._font_file)
        if self.control is not None:
            self.control.add_routes(app)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._want_port, reuse_address=True)
        await site.start()
        self._runner = runner
        addresses = runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        self._hb_task = asyncio.get_running_loop().create_task(self._heartbeat())

    async def _shutdown(self) -> None:
        if self._hb_task:
            self._hb_task.cancel()
        for client in list(self._clients.values()):
            try:
                closing = client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                await asyncio.wait_for(closing, 0.5)
            except Exception:  # the page may already be gone
                pass
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _heartbeat(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(HEARTBEAT_S / 2)
            now = loop.time()
            for client in list(self._clients.values()):
                if client.sending_since and now - client.sending_since >= SEND_TIMEOUT:
                    # the page has read nothing for a minute (frozen or gone): close; it reconnects
                    self.stats["closed_slow"] += 1
                    client.sending_since = 0.0
                    if client.task is not None:
                        client.task.cancel()
                    loop.create_task(self._close_slow(client))
                elif client.held and now - client.last_sent >= ACK_WAIT:
                    self.stats["ack_waits"] += 1  # a page that stopped acknowledging: fed as before
                    client.unacked = 0
                    client.wake.set()
                elif now - client.last_sent >= HEARTBEAT_S and not client.wake.is_set():
                    client.hb = True
                    client.wake.set()

    async def _close_slow(self, client: _Client) -> None:
        try:
            await asyncio.wait_for(client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"page too slow"), 5)
        except Exception:  # already gone
            pass

    def host_ok(self, host: str) -> bool:
        """The Host header names this server: an IP address or ``localhost``, with the server's port
        (a DNS name could be an attacker's, pointed at this machine: DNS rebinding)."""
        name, _, port = host.rpartition(":")
        if not name:
            name, port = host, "80"
        if port != str(self.port):
            return False
        name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
        if name == "localhost":
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def foreign(self, request: web.Request) -> str:
        """Why a request does not come from this server's own pages (or OBS, or a local tool): a
        ``Host`` that is not this server, an ``Origin`` of another site, a cross-site fetch. ``""``
        when it is fine."""
        host = request.headers.get("Host")
        if host is not None and not self.host_ok(host):
            return f"主机名 {host} 不是本服务器，请用 IP 地址 / host {host} is not this server: use its IP"
        origin = request.headers.get("Origin")
        if origin is not None and (host is None or origin != f"http://{host}"):
            return f"不接受来自 {origin} 的页面的请求 / requests from pages of {origin} are refused"
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return f"不接受跨站请求（{site}）/ cross-site requests are refused"
        return ""

    def _token_ok(self, request: web.Request) -> bool:
        if not self.token:
            return True
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        auth = request.headers.get("Authorization", "")
        if not given and auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        return hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    @web.middleware
    async def _security(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        if request.path != "/healthz":
            foreign = self.foreign(request)
            if foreign:
                self.stats["refused"] += 1
                return web.Response(status=403, text=foreign + "\n")
        if request.path != "/healthz" and not self._token_ok(request):
            self.stats["refused"] += 1
            return web.Response(status=403, text="访问令牌无效 / bad or missing token\n")
        raw = request.raw_path.split("?", 1)[0]
        segments = [unquote(seg) for seg in raw.split("/")]
        if any(seg == ".." or "/" in seg or "\\" in seg for seg in segments):
            self.stats["refused"] += 1
            return web.Response(status=403, text="路径越界 / path outside the served folders\n")
        resp: web.StreamResponse = await handler(request)
        if not isinstance(resp, web.WebSocketResponse):
            resp.headers.setdefault("Content-Security-Policy", CSP)
            resp.headers.setdefault("X-Content-Type-Options", "nosniff")
            resp.headers.setdefault("Referrer-Policy", "no-referrer")
            if self.token and request.query.get("token") and not resp.prepared:
                resp.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict", path="/")
        return resp

    async def _root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/overlay/")

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "seq": self._seq, "clients": len(self._clients)})

    async def _state_json(self, request: web.Request) -> web.Response:
        return web.Response(
            text=self._snapshot() if self._state else "{}",
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    async def _overlay_index(self, request: web.Request) -> web.StreamResponse:
        return self._file(self.overlay_root, "index.html")

    async def _overlay_file(self, request: web.Request) -> web.StreamResponse:
        return self._file(self.overlay_root, request.match_info["tail"])

    async def _asset_file(self, request: web.Request) -> web.StreamResponse:
        root = self.asset_roots.get(request.match_info["root"])
        if root is None:
            raise web.HTTPNotFound(text="没有这个素材目录 / no such asset folder\n")
        return self._file(root, request.match_info["tail"], cache="public, max-age=60")

    async def _font_file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in FONT_FILES:
            raise web.HTTPNotFound()
        for d in self.font_dirs:
            if (d / name).is_file():
                return web.FileResponse(
                    d / name,
                    headers={"Cache-Control": "public, max-age=86400", "Content-Type": "font/collection"},
                )
        raise web.HTTPNotFound(text="字体未安装 (fonts-noto-cjk) / font not installed\n")

    def _file(self, root: Path, tail: str, cache: str = "no-cache") -> web.StreamResponse:
        try:
            path = safe_join(root, tail)
        except PathRefused:
            self.stats["refused"] += 1
            return web.Response(status=403, text="路径越界 / path outside the served folders\n")
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            raise web.HTTPNotFound(text="找不到文件 / not found\n")
        ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/json", "image/svg+xml"):
            ctype += "; charset=utf-8"
        return web.FileResponse(path, headers={"Cache-Control": cache, "Content-Type": ctype})

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        bus = request.query.get("bus", "program")
        if bus not in BUSES:
            return web.Response(status=400, text=f"bus 应为 preview 或 program，不是 {bus!r}\n")
        # no ping timeout (a loaded machine answers pongs late): a dead page is found by its socket
        ws = web.WebSocketResponse(compress=False, heartbeat=None, autoping=True, max_msg_size=64 * 1024)
        await ws.prepare(request)
        cid = self._next_id
        self._next_id += 1
        inside_obs = request.query.get("obs") == "1"
        client = _Client(
            cid, ws, bus, request.query.get("echo") == "1" or inside_obs, request.remote or "", inside_obs
        )
        client.acks = request.query.get("ack") == "1"
        self._clients[cid] = client
        if self._state:
            client.snapshot = True
            client.wake.set()
        client.task = asyncio.get_running_loop().create_task(self._writer(client))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                self._from_page(client, msg.data)
        finally:
            self._clients.pop(cid, None)
            client.task.cancel()
        return ws

    async def _writer(self, client: _Client) -> None:
        """Send the page what changed since its last message, as one patch of the current values,
        whenever its socket can take it (while a send waits, later changes are coalesced)."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                await client.wake.wait()
                client.wake.clear()
                if client.acks and client.unacked >= ACK_WINDOW:
                    # the page has not taken what it was sent: its ack (or the heartbeat's sweep
                    # after ACK_WAIT) wakes this writer again; changes meanwhile coalesce
                    continue
                if client.snapshot:
                    client.snapshot, client.hb = False, False
                    client.pending.clear()
                    data = self._snapshot_frame()
                    self.stats["snapshots"] += 1
                elif client.pending:
                    data = self._patch_frame(client.pending)
                    client.pending = set()
                    client.hb = False
                    self.stats["patches"] += 1
                elif client.hb:
                    client.hb = False
                    data = _HEARTBEAT
                else:
                    continue
                # returns at once unless the socket's buffer is full; then only this page waits (the
                # heartbeat's sweep closes it after SEND_TIMEOUT) and its later changes coalesce
                client.sending_since = loop.time()
                if data is not _HEARTBEAT:
                    client.unacked += 1
                await client.ws.send_frame(data, WSMsgType.TEXT)
                client.last_sent = loop.time()
                client.sending_since = 0.0
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass

    def _from_page(self, client: _Client, data: str) -> None:
        now = time.perf_counter()
        try:
            msg = json.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "ack":
            if client.unacked:
                client.unacked -= 1
            if client.pending or client.snapshot:
                client.wake.set()
        elif kind == "rendered" and client.echo:
            seq = msg.get("seq")
            if isinstance(seq, bool) or not isinstance(seq, int):
                self.stats["refused"] += 1  # "abc", 1e999, [1]: not a state number; ignored
                return
            arrived = _number(msg.get("arrived", 0)) / 1000.0
            frame = _number(msg.get("frame", 0)) / 1000.0
            sent = _number(msg.get("sent", 0)) / 1000.0
            event = Rendered(seq, client.bus, client.id, now, arrived, frame, sent, client.inside_obs)
            for fn in list(self._rendered_listeners):
                try:
                    fn(event)
                except Exception:
                    log.exception("rendered listener failed")
        elif kind == "resync":
            client.snapshot = True
            client.wake.set()
