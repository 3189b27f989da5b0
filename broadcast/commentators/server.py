"""The commentators' screen (解说区 monitor): a server of its own, apart from the on-air pages.

    server = CommentatorsServer(store, port=8620)      # a token of its own (made if not given)
    server.start()
    print(server.url())                                # http://127.0.0.1:8620/?token=…
    server.stop()

It shows what only the commentators may see — every hand as entered at the deal (:mod:`view`) — so it is
kept from the air by construction: its own port and its own token (never the on-air server's, which OBS
browser sources carry), always required; the on-air server has no route to any of it, and a request
naming a bus (``?bus=program``/``preview``: an OBS source pointed at it by mistake) is refused. The page
(``page/``) reads the view over a WebSocket (``/ws``) that is sent the whole view after every change of
the state (the latest only: a burst of decisions is one message), or from ``/view.json``. The same
host, origin and path checks as the on-air server (:mod:`broadcast.overlay.guard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import WSCloseCode, web

from broadcast.commentators.view import view
from broadcast.overlay import guard
from broadcast.overlay.server import serve_in_thread

log = logging.getLogger(__name__)

PAGE_ROOT = Path(str(resources.files("broadcast.commentators").joinpath("page")))
DEFAULT_PORT = 8620
NOT_A_SOURCE = (
    "解说区页面不能作节目或预监信号源 / the commentators' page is never a program or preview source"
)
COOKIE = "commentators_token"  # not the on-air pages' cookie (cookies do not tell ports apart)


class CommentatorsServer:
    def __init__(
        self, store: Any, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, token: str = ""
    ) -> None:
        self.store = store
        self.host = host
        self._want_port = int(port)
        self.port = int(port)
        self.token = token or secrets.token_urlsafe(18)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._clients: set[web.WebSocketResponse] = set()
        self._dirty: asyncio.Event | None = None
        self._unsubscribe: Any = None
        self._undo_redact: Any = None
        self.stats = {"refused": 0, "views": 0, "sent": 0}
        self.last_view: dict[str, Any] = {}
        self._push_task: asyncio.Task[None] | None = None

    # -- public --------------------------------------------------------------------------------
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/?{urlencode({'token': self.token})}"

    def start(self, timeout: float = 10.0) -> None:
        self._undo_redact = guard.redact_logs(self.token)
        self._thread = serve_in_thread(
            f"commentators:{self._want_port}",
            self._set_loop,
            self._startup,
            self._shutdown,
            timeout=timeout,
            late="the commentators' server did not start in time",
            cannot_listen=(
                f"解说区服务器无法监听 {self.host}:{self._want_port}",
                f"the commentators' server cannot listen on {self.host}:{self._want_port}",
            ),
        )
        self._unsubscribe = self.store.subscribe(self._listener, name="commentators")
        self._poke()

    def _set_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def stop(self, timeout: float = 10.0) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._undo_redact is not None:
            self._undo_redact()
            self._undo_redact = None
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            if loop.is_running():
                loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout)
        self._thread = None
        self._loop = None

    def __enter__(self) -> CommentatorsServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the store's side: only a wake-up (the view is built on the server's own thread) -----------
    def _listener(self, change: Any) -> None:
        self._poke()

    def _poke(self) -> None:
        loop, dirty = self._loop, self._dirty
        if loop is not None and dirty is not None and loop.is_running():
            loop.call_soon_threadsafe(dirty.set)

    # -- the server ---------------------------------------------------------------------------------
    async def _startup(self) -> None:
        self._dirty = asyncio.Event()
        app = web.Application(middlewares=[self._security])
        app.router.add_get("/", self._page)
        app.router.add_get("/view.json", self._view_json)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/page/{tail:.*}", self._file)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._want_port, reuse_address=True)
        await site.start()
        self._runner = runner
        if runner.addresses:
            self.port = int(runner.addresses[0][1])
        self._push_task = asyncio.get_running_loop().create_task(self._pusher())

    async def _shutdown(self) -> None:
        if self._push_task is not None:  # ended here, not left pending for the closed loop to destroy
            self._push_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._push_task
            self._push_task = None
        for ws in list(self._clients):
            try:
                await asyncio.wait_for(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping"), 0.5)
            except (TimeoutError, ConnectionError, RuntimeError):
                pass
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _security(self, request: web.Request, handler: guard.Handler) -> web.StreamResponse:
        why = guard.foreign(request, self.port)
        if not why and not self._token_ok(request):
            why = "访问令牌无效（解说区有自己的令牌）/ bad or missing token (the commentators' own)"
        if not why and ("bus" in request.query or "OBS" in request.headers.get("User-Agent", "")):
            why = NOT_A_SOURCE
        if not why and guard.climbs(request.raw_path):
            why = "路径越界 / path outside the served folder"
        if why:
            self.stats["refused"] += 1
            return web.Response(status=403, text=why + "\n")
        resp = await handler(request)
        if not isinstance(resp, web.WebSocketResponse):
            resp.headers.setdefault("Content-Security-Policy", guard.CSP)
            resp.headers.setdefault("X-Content-Type-Options", "nosniff")
            resp.headers.setdefault("Referrer-Policy", "no-referrer")
            resp.headers.setdefault("Cache-Control", "no-store")
            if request.query.get("token") and not resp.prepared:
                resp.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict", path="/")
        return resp

    def _token_ok(self, request: web.Request) -> bool:
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        auth = request.headers.get("Authorization", "")
        if not given and auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        return guard.same(given, self.token)

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return self._serve("index.html")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        return self._serve(request.match_info["tail"])

    def _serve(self, tail: str) -> web.StreamResponse:
        try:
            path = guard.safe_join(PAGE_ROOT, tail)
        except guard.PathRefused:
            return web.Response(status=403, text="路径越界 / path outside the served folder\n")
        if not path.is_file():
            raise web.HTTPNotFound(text="找不到文件 / not found\n")
        ctype = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}.get(
            path.suffix, "text/plain"
        )
        return web.FileResponse(path, headers={"Content-Type": ctype + "; charset=utf-8"})

    def _build(self) -> str:
        self.stats["views"] += 1
        try:
            self.last_view = view(self.store.state)
        except Exception:  # a view that cannot be built never takes the screen down
            log.exception("commentators: view not built")
        return json.dumps(self.last_view, ensure_ascii=False)

    async def _view_json(self, request: web.Request) -> web.Response:
        text = await asyncio.get_running_loop().run_in_executor(None, self._build)
        return web.Response(text=text, content_type="application/json")

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, heartbeat=None, max_msg_size=4096)
        await ws.prepare(request)
        self._clients.add(ws)
        try:
            text = await asyncio.get_running_loop().run_in_executor(None, self._build)
            await ws.send_str(text)
            async for _msg in ws:  # the page sends nothing we need; read until it closes
                pass
        finally:
            self._clients.discard(ws)
        return ws

    async def _pusher(self) -> None:
        """After every change: the view built once (off the loop) and sent to every page."""
        assert self._dirty is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            if not self._clients:
                continue
            text = await loop.run_in_executor(None, self._build)
            for ws in list(self._clients):
                try:
                    await ws.send_str(text)
                    self.stats["sent"] += 1
                except (ConnectionError, RuntimeError):
                    self._clients.discard(ws)
