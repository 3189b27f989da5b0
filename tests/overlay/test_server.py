"""The overlay server over plain HTTP and WebSocket: protocol, tokens, path traversal, headers."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore
from broadcast.overlay.server import PathRefused, safe_join
from tests.overlay.conftest import run_async

TOKEN = "tok-123"


def _get(srv: OverlayServer, raw_path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    """A request with the path sent exactly as given (no client-side normalisation of '..')."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.putrequest("GET", raw_path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read(), resp.headers
    finally:
        conn.close()


async def _ws_messages(url: str, n: int, after: Any = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as s, s.ws_connect(url) as ws:
        first = await ws.receive_json(timeout=5)
        out.append(first)
        if after is not None:
            await asyncio.get_running_loop().run_in_executor(None, after)
        while len(out) < n:
            msg = await ws.receive_json(timeout=5)
            if msg["type"] != "hb":
                out.append(msg)
    return out


def test_snapshot_on_connect_then_patches_of_changed_sections(
    server: OverlayServer, demo_store: MemoryStore
) -> None:
    def change() -> None:
        demo_store.edit(lambda st: st["table"].update(turn=5))
        demo_store.edit(lambda st: st["lower_third"].update(name="新"))

    before = demo_store.snapshot()
    msgs = run_async(_ws_messages(f"ws://127.0.0.1:{server.port}/ws?bus=program", 3, change))
    snap, p1, p2 = msgs
    assert snap["type"] == "snapshot" and snap["state"] == before and snap["seq"] == before["meta"]["seq"]
    assert p1["type"] == "patch" and set(p1["set"]) == {"meta", "table"} and p1["set"]["table"]["turn"] == 5
    assert p2["seq"] == p1["seq"] + 1 and set(p2["set"]) == {"meta", "lower_third"}
    assert p2["set"]["lower_third"]["name"] == "新"


def test_ws_refuses_a_bad_bus(server: OverlayServer) -> None:
    status, body, _ = _get(server, "/ws?bus=air")
    assert status == 400


@pytest.mark.parametrize(
    "path",
    [
        "/overlay/../pyproject.toml",
        "/overlay/../broadcast/table.py",
        "/overlay/%2e%2e/pyproject.toml",
        "/overlay/..%2fpyproject.toml",
        "/overlay/%2e%2e%2fpyproject.toml",
        "/overlay/js/../../pyproject.toml",
        "/assets/sponsors/../pyproject.toml",
        "/assets/sponsors/..%2f..%2fpyproject.toml",
        "/assets/sponsors/%2e%2e/%2e%2e/etc/passwd",
        "/overlay//etc/passwd",
        "/overlay/.git/config",
        "/fonts/../../../etc/passwd",
    ],
)
def test_paths_outside_the_asset_roots_are_refused(server: OverlayServer, path: str) -> None:
    status, body, _ = _get(server, path)
    assert status in (403, 404), (path, status)
    assert b"[build-system]" not in body and b"root:" not in body and b"def " not in body


def test_safe_join(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "a.txt").write_text("a")
    (tmp_path / "secret.txt").write_text("s")
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    assert safe_join(root, "sub/a.txt") == (root / "sub" / "a.txt").resolve()
    for bad in (
        "../secret.txt",
        "sub/../../secret.txt",
        "/etc/passwd",
        "%2e%2e/secret.txt",
        "link.txt",
        ".hidden",
        "sub\\..\\..\\secret.txt",
        "a\x00b",
    ):
        with pytest.raises(PathRefused):
            safe_join(root, bad)


def test_pages_assets_and_fonts_are_served_with_headers(server: OverlayServer) -> None:
    status, body, headers = _get(server, "/overlay/program.html?bus=program")
    assert status == 200 and b'data-graphics="all"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, body, headers = _get(server, "/overlay/js/page.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    status, body, _ = _get(server, "/overlay/assets/demo/xdj.svg")
    assert status == 200 and body.startswith(b"<svg")
    status, body, _ = _get(server, "/assets/sponsors/demo/placements.yaml")
    assert status == 200
    status, _, _ = _get(server, "/assets/nope/x.png")
    assert status == 404
    status, body, _ = _get(server, "/healthz")
    assert status == 200 and json.loads(body)["ok"] is True
    if Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc").exists():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("HEAD", "/fonts/NotoSansCJK-Regular.ttc")
        resp = conn.getresponse()
        assert resp.status == 200 and int(resp.headers["Content-Length"]) > 1_000_000
        conn.close()


def test_token_over_http_and_websocket() -> None:
    store = MemoryStore(demo_state())
    with OverlayServer(store, port=0, token=TOKEN) as srv:
        assert f"token={TOKEN}" in srv.url("program")
        for path in (
            "/overlay/program.html",
            "/overlay/js/page.js",
            "/state.json",
            "/assets/sponsors/x",
            f"/overlay/program.html?token={TOKEN}x",
            "/ws?bus=program&token=nope",
        ):
            status, body, _ = _get(srv, path)
            assert status == 403, path
            assert b"token" in body
        status, body, headers = _get(srv, f"/overlay/program.html?token={TOKEN}")
        assert status == 200
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        # the cookie set by the page lets its scripts and assets load without the query
        status, _, _ = _get(srv, "/overlay/js/page.js", {"Cookie": cookie.split(";")[0]})
        assert status == 200
        status, _, _ = _get(srv, "/state.json", {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200
        # /healthz is open (for monitoring), and tells nothing of the state
        status, body, _ = _get(srv, "/healthz")
        assert status == 200 and b"sponsors" not in body

        async def ws(token: str) -> str:
            async with aiohttp.ClientSession() as s:
                try:
                    async with s.ws_connect(f"ws://127.0.0.1:{srv.port}/ws?bus=program&token={token}") as w:
                        return str((await w.receive_json(timeout=5))["type"])
                except aiohttp.WSServerHandshakeError as exc:
                    return f"refused {exc.status}"

        assert run_async(ws("bad")) == "refused 403"
        assert run_async(ws(TOKEN)) == "snapshot"
        assert srv.stats["refused"] >= 6


def test_binds_loopback_by_default_and_port_zero_picks_a_free_port() -> None:
    store = MemoryStore()
    a, b = OverlayServer(store, port=0), OverlayServer(store, port=0)
    assert a.host == "127.0.0.1"
    with a, b:
        assert a.port != 0 and b.port != 0 and a.port != b.port
        assert a.url("preview").endswith("/overlay/preview.html?bus=preview")
        assert a.url("scoreboard", "preview").endswith("/overlay/scoreboard.html?bus=preview")
        with pytest.raises(OSError):
            OverlayServer(store, port=a.port, host="127.0.0.1").start()


def test_a_page_far_behind_gets_a_fresh_snapshot(server: OverlayServer, demo_store: MemoryStore) -> None:
    """A stalled client is never fed an unbounded backlog: it gets one snapshot with the latest state."""
    from broadcast.overlay import server as server_mod

    async def run() -> dict[str, Any]:
        async with aiohttp.ClientSession() as s, s.ws_connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
            await ws.receive_json(timeout=5)
            # stop reading and flood; then read until the latest state arrives
            n = server_mod.CLIENT_QUEUE * 3

            def flood() -> None:
                for i in range(n):
                    demo_store.edit(lambda st, i=i: st["table"].update(message=f"m{i}"))

            await asyncio.get_running_loop().run_in_executor(None, flood)
            last: dict[str, Any] = {}
            while True:
                msg = await ws.receive_json(timeout=5)
                if msg["type"] == "snapshot":
                    last = msg["state"]["table"]
                elif msg["type"] == "patch" and "table" in msg["set"]:
                    last = msg["set"]["table"]
                if last.get("message") == f"m{n - 1}":
                    return last

    assert run_async(run())["message"].startswith("m")


def test_no_html_insertion_in_the_page_scripts() -> None:
    """On-air text is text: the page code never parses strings as HTML."""
    js = Path(__file__).resolve().parents[2] / "overlays" / "js"
    for f in js.rglob("*.js"):
        src = f.read_text(encoding="utf-8")
        for bad in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert bad not in src, f"{f.name} uses {bad}"
