"""Browser-source mode: the program page's echo from inside OBS is evidence of air, the app's intention
and a page outside OBS never are.

Debian's OBS has no browser source, so OBS is played here by a small obs-websocket 5 server (the unit
tests' FakeObs behind a real socket, with ``browser_source`` among its input kinds); the pages are the
real overlay pages in Debian's headless Chromium (Playwright, never a downloaded browser), one of them
with a fake ``window.obsstudio`` — what OBS's browser source gives a page — the other an ordinary
browser (an operator's monitor) echoing as tests and benchmarks ask it to (``echo=1``)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType, web

from broadcast.core import ShowStore
from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.errors import ObsRequestError
from broadcast.overlay import OverlayServer
from broadcast.studio import open_store

from .conftest import MemoryAirLog, bridge_settings
from .test_live import wait_for
from .test_unit import DEBIAN_KINDS, FakeObs

UNKNOWN_REQUEST = 204  # obs-websocket's RequestStatus::UnknownRequestType


class SocketObs(FakeObs):
    """FakeObs with a program scene, answering on a real obs-websocket 5 socket (no authentication)."""

    def __init__(self) -> None:
        super().__init__([*DEBIAN_KINDS, "browser_source"])
        self.program = "Scene"
        self.requests: list[str] = []
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._thread = threading.Thread(target=self._serve, name="fake-obs", daemon=True)
        self._ready = threading.Event()

    # -- what OBS does ------------------------------------------------------------------------
    def answer(self, t: str, d: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
        """responseData and the events it causes."""
        self.requests.append(t)
        if t == "GetVersion":
            return {"obsVersion": "29.0.2-fake", "obsWebSocketVersion": "5.1.0", "rpcVersion": 1}, []
        if t == "GetStudioModeEnabled":
            return {"studioModeEnabled": False}, []
        if t == "GetCurrentProgramScene":
            return {"currentProgramSceneName": self.program}, []
        if t == "SetCurrentProgramScene":
            if d["sceneName"] not in self.scenes:
                raise ObsRequestError(t, 600, "no scene")
            self.program = d["sceneName"]
            return {}, [("CurrentProgramSceneChanged", {"sceneName": self.program})]
        if t == "GetStats":
            return {"renderTotalFrames": 0}, []
        if t == "SetSceneItemEnabled":
            out = self.request(t, d)
            event = {k: d[k] for k in ("sceneName", "sceneItemId", "sceneItemEnabled")}
            return out, [("SceneItemEnableStateChanged", event)]
        return self.request(t, d), []

    def _status(self, t: str, d: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
        try:
            data, events = self.answer(t, d)
            return {"requestStatus": {"result": True, "code": 100}, "responseData": data}, events
        except ObsRequestError as exc:
            return {"requestStatus": {"result": False, "code": exc.code, "comment": exc.comment}}, []
        except (AssertionError, KeyError, StopIteration):  # not played by this fake
            return {"requestStatus": {"result": False, "code": UNKNOWN_REQUEST, "comment": t}}, []

    # -- the socket ---------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(protocols=("obswebsocket.json",))
        await ws.prepare(request)
        self._sockets.add(ws)
        await ws.send_json({"op": 0, "d": {"obsWebSocketVersion": "5.1.0", "rpcVersion": 1}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                m = json.loads(msg.data)
                op, d = m.get("op"), m.get("d") or {}
                events: list[tuple[str, dict[str, Any]]] = []
                if op == 1:
                    await ws.send_json({"op": 2, "d": {"negotiatedRpcVersion": 1}})
                elif op == 6:
                    status, events = self._status(d["requestType"], d.get("requestData") or {})
                    answer = {"requestType": d["requestType"], "requestId": d["requestId"], **status}
                    await ws.send_json({"op": 7, "d": answer})
                elif op == 8:
                    results = []
                    for r in d.get("requests", []):
                        status, ev = self._status(r["requestType"], r.get("requestData") or {})
                        events += ev
                        results.append(
                            {"requestType": r["requestType"], "requestId": r.get("requestId"), **status}
                        )
                    await ws.send_json({"op": 9, "d": {"requestId": d["requestId"], "results": results}})
                for name, data in events:
                    for other in list(self._sockets):
                        await other.send_json({"op": 5, "d": {"eventType": name, "eventData": data}})
        finally:
            self._sockets.discard(ws)
        return ws

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        app = web.Application()
        app.router.add_get("/", self._handle)
        self._runner = web.AppRunner(app)
        loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        loop.run_forever()
        loop.run_until_complete(self._runner.cleanup())
        loop.close()

    def start(self) -> None:
        self._thread.start()
        assert self._ready.wait(10)

    def close(self) -> None:
        loop = self._loop
        if loop is not None:

            async def shut() -> None:
                for ws in list(self._sockets):
                    await ws.close()

            asyncio.run_coroutine_threadsafe(shut(), loop).result(10)
            loop.call_soon_threadsafe(loop.stop)
        self._thread.join(10)


@pytest.fixture
def fake_obs() -> Iterator[SocketObs]:
    obs = SocketObs()
    obs.start()
    yield obs
    obs.close()


@pytest.fixture
def store(tmp_path: Path) -> ShowStore:
    return open_store(tmp_path / "studio.sqlite")


def _page(browser: Any, url: str, *, inside_obs: bool) -> Any:
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    if inside_obs:  # what OBS's browser source gives a page (obs-browser's window.obsstudio)
        ctx.add_init_script("window.obsstudio = { pluginVersion: '2.19.0', getCurrentScene() {} };")
    page = ctx.new_page()
    page.goto(url)
    return page


def _rendered(page: Any, seq: int) -> None:
    page.wait_for_function("s => window.__rendered && window.__rendered.seq >= s", arg=seq, timeout=30000)


def _corner_bug(rec: MemoryAirLog) -> list[tuple[str, str]]:
    return [(e.kind, e.source) for e in rec.events if e.subject == "corner_bug"]


def test_only_the_program_pages_echo_from_inside_obs_puts_graphics_on_air(
    fake_obs: SocketObs, store: ShowStore, browser: Any
) -> None:
    rec = MemoryAirLog()
    with OverlayServer(store, port=0) as server:
        bridge = ObsBridge(
            store,
            bridge_settings(fake_obs, password=""),  # type: ignore[arg-type]
            airlog=rec,
            overlay_urls={"program": server.url("program"), "preview": server.url("preview")},
        )
        server.on_rendered(bridge.on_rendered)
        with bridge:
            assert bridge.wait_connected(60), bridge.status
            assert bridge.status.browser_source and bridge.layout is not None and bridge.layout.browser
            assert fake_obs.program == L.SCENE_GAME
            # the show wants the corner bug; OBS shows the program page's scene; no page has painted it
            store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
            seq = store.seq
            assert bridge.flush(10)
            # an ordinary browser on the program page, echoing (echo=1): not inside OBS, not evidence
            outside = _page(browser, server.url("program", echo="1"), inside_obs=False)
            _rendered(outside, seq)
            assert outside.evaluate("() => typeof window.obsstudio") == "undefined"
            assert bridge.flush(10)
            assert _corner_bug(rec) == []
            # the page as OBS's browser source runs it: its echo of that state puts the corner bug on air
            inside = _page(browser, server.url("program"), inside_obs=True)
            _rendered(inside, seq)
            wait_for(lambda: _corner_bug(rec) == [(A.GRAPHIC_ON, "echo")], 20, "the echo's corner bug")
            # taken off: on air until the page inside OBS reports it painted the state without it
            t_off = time.time()
            store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": False})
            off_seq = store.seq
            _rendered(inside, off_seq)
            wait_for(lambda: len(_corner_bug(rec)) == 2, 20, "the corner bug off air")
            outside.context.close()
            inside.context.close()
    rows = [e for e in rec.events if e.subject == "corner_bug"]
    assert _corner_bug(rec) == [(A.GRAPHIC_ON, "echo"), (A.GRAPHIC_OFF, "echo")]
    assert rows[0].ts < t_off <= rows[1].ts


def test_an_echo_that_comes_before_the_bridge_is_told_of_its_state_is_kept_until_it_is() -> None:
    """The overlay server hears of a journaled state at its commit, before the fsync; the bridge's listener
    after it. A page inside OBS can echo that state first: the echo is kept and counted once the bridge
    remembers the state (it was dropped: the corner bug stayed 'on air' in the as-run log after it went
    off, until another change — test_only_the_program_pages_echo… failed so in a full run)."""
    from broadcast.obs.evidence import Evidence

    ev = Evidence(None)
    on = {"graphics": {"program": {"corner_bug": {"on": True, "item": "a"}}}}
    off: dict[str, Any] = {"graphics": {"program": {"corner_bug": {"on": False}}}}
    assert ev.remember(7, on) is None
    assert ev.painted(7, 1.0) and ev.echo_bus == {"corner_bug": "a"}
    assert not ev.painted(8, 2.5)  # echoed before the listener was told of #8
    assert ev.echo_bus == {"corner_bug": "a"}
    assert ev.remember(8, off) == 2.5  # handed back, with when the page painted it
    assert ev.painted(8, 2.5) and ev.echo_bus == {}
    assert ev.remember(9, on) is None  # given back once only
    assert not ev.painted(3, 4.0)  # an old state forgotten is not kept: nothing will remember it again
    assert ev.remember(3, on) is None
