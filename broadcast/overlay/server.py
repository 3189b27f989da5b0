"""The on-air graphics server: serves ``overlays/`` and pushes the show state over WebSocket.

    server = OverlayServer(store, port=8610, token="s3cret")
    server.start()                       # own asyncio loop in a daemon thread; returns once listening
    print(server.url("program"))         # http://127.0.0.1:8610/overlay/program.html?bus=program&token=…
    server.stop()

This module is the routes, the server's life cycle and the WebSocket transport. What goes over the
socket — snapshot, patches, heartbeats, acknowledgements, echoes — and what each page is sent next is
the protocol (:mod:`broadcast.overlay.protocol`); who may ask and which files may be served is the
guard (:mod:`broadcast.overlay.guard`). The HTTP control API (``/api/…``,
:mod:`broadcast.overlay.control`) is served beside the pages.

The store's listener runs on the dispatching thread; it only merges the change into the feed's one
pending hand-over and wakes the server's loop with ``call_soon_threadsafe`` if it is not woken
already. Each page has a writer task that sends what the feed says is due whenever its socket can take
it: a write to a socket that can take it never waits, and a page whose socket takes nothing for
``SEND_TIMEOUT`` seconds is closed by the heartbeat's sweep (it reconnects when it wakes); there is no
ping timeout that a busy machine could trip.

Security: binds 127.0.0.1 unless told otherwise; the token, ``Host``/``Origin`` and path checks of
:mod:`broadcast.overlay.guard` run before every route.
"""

from __future__ import annotations

import asyncio
import logging
import mimetypes
import threading
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, urlencode

from aiohttp import WSCloseCode, WSMsgType, web

from broadcast import resources
from broadcast.overlay import guard
from broadcast.overlay.guard import PathRefused, safe_join
from broadcast.overlay.protocol import (
    ACK_WAIT,
    ACK_WINDOW,
    DEFAULT_PORT,
    Feed,
    Page,
    Rendered,
    private_sections,
)

__all__ = ["ACK_WINDOW", "DEFAULT_PORT", "OverlayServer", "PathRefused", "Rendered", "safe_join"]

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
HEARTBEAT_S = 2.0  # a page that was sent nothing for this long is sent {"type": "hb"}
SEND_TIMEOUT = 60.0  # a page whose socket takes nothing for this long is closed (it reconnects)

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("font/collection", ".ttc")
mimetypes.add_type("font/otf", ".otf")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("text/yaml", ".yaml")


class StateSource(Protocol):
    """What the server needs from the store (``broadcast.core.ShowStore`` is one)."""

    @property
    def state(self) -> dict[str, Any]: ...

    def subscribe(
        self, fn: Callable[[Any], None], name: str = "", *, early: bool = False
    ) -> Callable[[], None]: ...


class _Client(Page):
    """One page on a WebSocket: its place in the protocol, its socket and its writer task."""

    def __init__(
        self, cid: int, ws: web.WebSocketResponse, bus: str, echo: bool, peer: str, inside_obs: bool = False
    ) -> None:
        super().__init__(cid, bus, echo, peer, inside_obs)
        self.ws = ws
        self.task: asyncio.Task[None] | None = None
        self.transport: asyncio.Transport | None = None  # aborted when a close cannot be sent


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
        read_only: bool = False,
    ) -> None:
        self.store = store
        self.read_only = read_only  # only shows a state another process writes (serve --db): no operation
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
        self._unsubscribe: Callable[[], None] | None = None
        self._undo_redact: Callable[[], None] | None = None
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
        self.feed = Feed(private_sections(store), self.stats, updates)  # the protocol (what pages get)
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

    def on_rendered(self, fn: Callable[[Rendered], None]) -> Callable[[], None]:
        """Call ``fn`` (on the server's thread) for every echo of a page opened with ``echo=1``."""
        listeners = self.feed.rendered_listeners
        listeners.append(fn)
        return lambda: listeners.remove(fn) if fn in listeners else None

    def start(self, timeout: float = 10.0) -> None:
        if self.running:
            return
        if self._undo_redact is None:
            self._undo_redact = guard.redact_logs(self.token)  # no log line carries the token
        self._thread = serve_in_thread(
            f"overlay-server:{self._want_port}",
            self._set_loop,
            self._startup,
            self._shutdown,
            timeout=timeout,
            late="overlay server did not start in time",
            cannot_listen=(
                f"图形服务器无法监听 {self.host}:{self._want_port}",
                f"cannot listen on {self.host}:{self._want_port}",
            ),
        )
        # subscribe only once the loop runs; take the current state after subscribing so nothing is lost.
        # early: the pages are handed an action as soon as the journal has committed it, while the disk
        # syncs it (broadcast.core.store: the on-air path does not wait for the fsync)
        self._unsubscribe = self.store.subscribe(self._listener, name="overlay-server", early=True)
        self._offer(self.store.state, None)

    def _set_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def stop(self, timeout: float = 10.0) -> None:
        if self._undo_redact is not None:
            self._undo_redact()
            self._undo_redact = None
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
        """Hand a new state to the loop (any thread), merged into the pending one if the loop has not
        taken that yet; the loop is woken once per hand-over."""
        if self.feed.offer(state, changed):
            self._loop_call(self._take_incoming)

    def _take_incoming(self) -> None:
        pending = self.feed.take()
        if pending is not None:
            self.feed.apply(pending[0], pending[1], list(self._clients.values()))

    def _loop_call(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:  # loop closed between the check and the call (shutdown)
                pass

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
        """Close a page that reads nothing. Its socket is full, so the closing handshake cannot be
        sent either: the connection is cut at once (the page reconnects when it wakes)."""
        if client.transport is not None:
            client.transport.abort()
        try:
            await asyncio.wait_for(client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"page too slow"), 1)
        except Exception:  # already gone
            pass

    def host_ok(self, host: str) -> bool:
        """The Host header names this server (:func:`guard.host_ok`)."""
        return guard.host_ok(host, self.port)

    def foreign(self, request: web.Request) -> str:
        """Why a request does not come from this server's own pages (:func:`guard.foreign`)."""
        return guard.foreign(request, self.port)

    @web.middleware
    async def _security(self, request: web.Request, handler: guard.Handler) -> web.StreamResponse:
        if request.path != "/healthz":
            foreign = self.foreign(request)
            if foreign:
                self.stats["refused"] += 1
                return web.Response(status=403, text=foreign + "\n")
        if request.path != "/healthz" and not guard.token_ok(request, self.token):
            self.stats["refused"] += 1
            return web.Response(status=403, text="访问令牌无效 / bad or missing token\n")
        if guard.climbs(request.raw_path):
            self.stats["refused"] += 1
            return web.Response(status=403, text="路径越界 / path outside the served folders\n")
        resp = await handler(request)
        guard.secure_headers(request, resp, self.token)
        return resp

    async def _root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/overlay/")

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "seq": self.feed.seq, "clients": len(self._clients)})

    async def _state_json(self, request: web.Request) -> web.Response:
        return web.Response(
            text=self.feed.snapshot() if self.feed.state else "{}",
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
        client.transport = request.transport if isinstance(request.transport, asyncio.Transport) else None
        self._clients[cid] = client
        if self.feed.state:
            client.snapshot = True
            client.wake.set()
        client.task = asyncio.get_running_loop().create_task(self._writer(client))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                self.feed.from_page(client, msg.data)
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
                data = self.feed.next_frame(client)
                if data is None:
                    continue
                # returns at once unless the socket's buffer is full; then only this page waits (the
                # heartbeat's sweep closes it after SEND_TIMEOUT) and its later changes coalesce
                client.sending_since = loop.time()
                await client.ws.send_frame(data, WSMsgType.TEXT)
                client.last_sent = loop.time()
                client.sending_since = 0.0
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass


def serve_in_thread(
    name: str,
    set_loop: Callable[[asyncio.AbstractEventLoop], None],
    startup: Callable[[], Awaitable[None]],
    shutdown: Callable[[], Awaitable[None]],
    *,
    timeout: float,
    late: str,
    cannot_listen: tuple[str, str],
) -> threading.Thread:
    """An aiohttp server's own event loop on a daemon thread (the overlay server's and the commentators'):
    ``startup`` runs on it first — a failure there (a taken port) is raised here, an ``OSError`` as one
    line in both languages (``cannot_listen``: its Chinese and English heads) — then the loop runs until
    stopped, and ``shutdown`` runs at its end. ``set_loop`` is given the loop before ``startup``."""
    ready = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        set_loop(loop)
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(startup())
        except BaseException as exc:  # bind failure etc.: reported to the caller
            failure.append(exc)
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(shutdown())
            loop.close()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    if not ready.wait(timeout):
        raise RuntimeError(late)
    if failure:
        thread.join(timeout)
        exc = failure[0]
        if isinstance(exc, OSError):
            zh, en = cannot_listen
            raise OSError(exc.errno, f"{zh}：{exc.strerror} / {en}") from exc
        raise exc
    return thread
