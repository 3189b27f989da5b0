"""The overlay server over plain HTTP and WebSocket: protocol, tokens, path traversal, headers."""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import socket
import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

import aiohttp
import pytest

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.guard import PathRefused, safe_join
from broadcast.overlay.memory import MemoryStore
from broadcast.overlay.protocol import private_sections
from tests.overlay.conftest import run_async

TOKEN = "tok-123"


def _get(srv: OverlayServer, raw_path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    """A request with the path sent exactly as given (no client-side normalisation of '..')."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=20)
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
        first = await ws.receive_json(timeout=20)
        out.append(first)
        if after is not None:
            await asyncio.get_running_loop().run_in_executor(None, after)
        while len(out) < n:
            msg = await ws.receive_json(timeout=20)
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
    final = before["meta"]["seq"] + 2

    async def until_final() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        url = f"ws://127.0.0.1:{server.port}/ws?bus=program"
        async with aiohttp.ClientSession() as s, s.ws_connect(url) as ws:
            out.append(await ws.receive_json(timeout=5))
            await asyncio.get_running_loop().run_in_executor(None, change)
            while out[-1]["seq"] < final:
                msg = await ws.receive_json(timeout=5)
                if msg["type"] != "hb":
                    out.append(msg)
        return out

    snap, *patches = run_async(until_final())
    private = private_sections(demo_store)  # the game, the 胜率 history: they stay in the process
    assert {"game", "winprob_history"} <= private
    on_pages = {k: v for k, v in before.items() if k not in private}
    assert snap["type"] == "snapshot" and snap["state"] == on_pages and snap["seq"] == before["meta"]["seq"]
    # one patch per change, or fewer when the second change came before the first was sent (coalesced):
    # always whole sections, never a section that did not change, in order, ending on the latest state
    assert 1 <= len(patches) <= 2 and all(p["type"] == "patch" for p in patches)
    assert [p["seq"] for p in patches] == sorted({p["seq"] for p in patches}) and patches[-1]["seq"] == final
    sent = {k: v for p in patches for k, v in p["set"].items()}
    assert all("meta" in p["set"] for p in patches)
    assert set(sent) == {"meta", "table", "lower_third"}
    assert sent["table"]["turn"] == 5 and sent["lower_third"]["name"] == "新"
    if len(patches) == 2:
        assert set(patches[0]["set"]) == {"meta", "table"} and set(patches[1]["set"]) == {
            "meta",
            "lower_third",
        }


def test_ws_refuses_a_bad_bus(server: OverlayServer) -> None:
    status, body, _ = _get(server, "/ws?bus=air")
    assert status == 400


@pytest.mark.parametrize(
    "path",
    [
        "/overlay/../pyproject.toml",
        "/overlay/../broadcast/game/actions.py",
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
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
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
                        return str((await w.receive_json(timeout=20))["type"])
                except aiohttp.WSServerHandshakeError as exc:
                    return f"refused {exc.status}"

        assert run_async(ws("bad")) == "refused 403"
        assert run_async(ws(TOKEN)) == "snapshot"
        assert srv.stats["refused"] >= 6


async def _ws_first(port: int, headers: dict[str, str] | None = None, query: str = "") -> str:
    """The first message's type on /ws, or ``refused <status>`` if the handshake is refused."""
    async with aiohttp.ClientSession() as s:
        try:
            async with s.ws_connect(f"ws://127.0.0.1:{port}/ws?bus=program{query}", headers=headers) as w:
                return str((await w.receive_json(timeout=20))["type"])
        except aiohttp.WSServerHandshakeError as exc:
            return f"refused {exc.status}"


@pytest.mark.parametrize(
    "credential, good, bad",
    [
        ("cookie", {"Cookie": f"overlay_token={TOKEN}"}, {"Cookie": "overlay_token=tok-124"}),
        ("bearer", {"Authorization": f"Bearer {TOKEN}"}, {"Authorization": "Bearer tok-124"}),
    ],
)
def test_a_wrong_cookie_or_bearer_token_is_refused_on_http_and_websocket(
    credential: str, good: dict[str, str], bad: dict[str, str]
) -> None:
    """Each way of carrying the token is checked against it: a wrong cookie or a wrong bearer token
    is refused like a wrong query token, on every route and on the WebSocket; the right one opens."""
    with OverlayServer(MemoryStore(demo_state()), port=0, token=TOKEN) as srv:
        for path in ("/state.json", "/overlay/program.html?bus=program", "/overlay/js/page.js"):
            status, body, _ = _get(srv, path, bad)
            assert status == 403 and b"token" in body, (credential, path, status)
            status, body, _ = _get(srv, path, good)
            assert status == 200, (credential, path, status)
        refused = srv.stats["refused"]
        assert run_async(_ws_first(srv.port, bad)) == "refused 403"
        assert srv.stats["refused"] == refused + 1
        assert run_async(_ws_first(srv.port, good)) == "snapshot"
        # a wrong token in the query is not rescued by a right cookie or bearer
        assert run_async(_ws_first(srv.port, good, "&token=tok-124")) == "refused 403"


def test_the_middleware_refuses_dot_dot_without_safe_join(
    server: OverlayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defence in depth: the server's own check refuses a path that climbs with ``..`` (plain or
    %-encoded) before any route runs, so even with safe_join reduced to a plain join nothing outside
    the served folders is reached."""
    from broadcast.overlay import server as server_mod

    monkeypatch.setattr(server_mod, "safe_join", lambda root, tail: Path(root) / unquote(tail))
    for path in (
        "/overlay/../pyproject.toml",
        "/overlay/%2e%2e/pyproject.toml",
        "/overlay/..%2fpyproject.toml",
    ):
        status, body, _ = _get(server, path)
        assert status == 403 and b"[build-system]" not in body, (path, status)
    status, body, _ = _get(server, "/overlay/js/page.js")  # a plain path still reaches the file
    assert status == 200


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


class _Feed:
    """A bare state source (no schema, no copies) so that a test can push large changes quickly."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"meta": {"seq": 0}, "blob": {"n": 0, "text": ""}}
        self._subs: list[Any] = []

    def subscribe(self, fn: Any, name: str = "", *, early: bool = False) -> Any:
        self._subs.append(fn)
        return lambda: self._subs.remove(fn) if fn in self._subs else None

    def push(self, n: int, text: str) -> None:
        self.state = {"meta": {"seq": n}, "blob": {"n": n, "text": text}}
        change = SimpleNamespace(state=self.state, changed=frozenset({"blob"}))
        for fn in list(self._subs):
            fn(change)


class _StalledClient:
    """A WebSocket client on a raw socket with a small, fixed receive buffer: while the test does not
    call :meth:`message` it reads nothing, so the server's side fills up as a frozen browser's would."""

    RCVBUF = 32 * 1024

    def __init__(self, port: int) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.RCVBUF)
        self.sock.settimeout(30)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws?bus=program HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def _take(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += self._recv()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self) -> dict[str, Any]:
        """The next text message (answering pings on the way)."""
        while True:
            b0, b1 = self._take(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._take(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._take(8))[0]
            data = self._take(length)
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping: a masked pong with the same data
                mask = os.urandom(4)
                masked = bytes(c ^ mask[i % 4] for i, c in enumerate(data))
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + mask + masked)
            elif opcode == 0x8:
                raise ConnectionError("the server closed the WebSocket")
            elif opcode == 0x1:
                msg: dict[str, Any] = json.loads(data)
                return msg

    def send(self, data: bytes) -> None:
        """One masked text frame, as a browser sends it."""
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (
            bytes([0x80 | n])
            if n < 126
            else bytes([0x80 | 126]) + struct.pack("!H", n)
            if n < 1 << 16
            else bytes([0x80 | 127]) + struct.pack("!Q", n)
        )
        masked = bytes(c ^ mask[i % 4] for i, c in enumerate(data))
        self.sock.sendall(head + mask + masked)

    def close(self) -> None:
        self.sock.close()


def test_a_page_far_behind_is_held_to_a_bounded_backlog_then_sent_the_latest_state() -> None:
    """A frozen page is never fed a backlog: what changed while its socket was full is coalesced into
    one patch of the latest values, sent when it reads again (issue 13: coalesce patches per client)."""
    size = 256 * 1024
    # what the two sockets can hold while the page reads nothing: the server's send buffer at its
    # largest, our fixed receive buffer (the kernel doubles it) and the frames partly in flight
    wmem_max = int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    in_sockets = -(-(wmem_max + 2 * _StalledClient.RCVBUF) // size) + 2
    bound = 1 + in_sockets + 1  # the first snapshot, the sockets, one coalesced patch with the latest
    n = 4 * bound
    feed = _Feed()
    with OverlayServer(feed, port=0) as srv:  # type: ignore[arg-type]
        client = _StalledClient(srv.port)
        try:
            first = client.message()
            assert first["type"] == "snapshot" and first["seq"] == 0
            for i in range(1, n + 1):
                feed.push(i, f"{i:08d}" + "x" * size)
            received = [first]
            while True:
                msg = client.message()
                if msg["type"] == "hb":
                    continue
                received.append(msg)
                blob = msg["state"]["blob"] if msg["type"] == "snapshot" else msg["set"]["blob"]
                if blob["n"] == n:
                    break
        finally:
            client.close()
    count = len(received)
    assert count <= bound < n, f"{count} messages for {n} changes (bound {bound})"
    seqs = [m["seq"] for m in received]
    assert seqs == sorted(seqs), "updates out of order"
    assert received[-1]["seq"] == n and received[-1]["set"]["blob"]["text"].startswith(f"{n:08d}")
    assert srv.stats["coalesced"] + srv.stats["merged"] >= 1  # per page, or before the pages (the hand-over)


def test_a_stalled_page_holds_back_no_other_page_and_pages_share_one_serialisation() -> None:
    """Fan-out (issue 13): a page whose socket is full waits alone — the other pages get every change
    meanwhile — and a patch is serialised once for all the pages it goes to, not once per page."""
    size = 256 * 1024
    feed = _Feed()
    pages = 12
    with OverlayServer(feed, port=0) as srv:  # type: ignore[arg-type]
        built: list[frozenset[str]] = []
        patch = srv.feed.patch

        def counting(sections: set[str]) -> str:
            built.append(frozenset(sections))
            return patch(sections)

        srv.feed.patch = counting  # type: ignore[method-assign]
        stalled = _StalledClient(srv.port)
        try:
            assert stalled.message()["type"] == "snapshot"

            async def readers() -> list[list[bytes]]:
                async with aiohttp.ClientSession() as session:
                    url = f"ws://127.0.0.1:{srv.port}/ws"
                    sockets = [await session.ws_connect(url) for _ in range(pages)]
                    for ws in sockets:
                        assert json.loads((await ws.receive(timeout=20)).data)["type"] == "snapshot"
                    got: list[list[bytes]] = [[] for _ in sockets]
                    loop = asyncio.get_running_loop()
                    n = 0
                    # enough large changes to fill the stalled page's socket many times over
                    for step in range(1, 25):
                        n = step
                        await loop.run_in_executor(None, feed.push, n, f"{n:08d}" + "y" * size)
                        for i, ws in enumerate(sockets):
                            while True:
                                msg = await ws.receive(timeout=20)
                                data = json.loads(msg.data)
                                if data["type"] == "hb":
                                    continue
                                got[i].append(msg.data.encode())
                                if data["seq"] == n:
                                    break
                    for ws in sockets:
                        await ws.close()
                    return got

            got = run_async(readers())
            # every reading page saw every change, in order, while the stalled one read nothing
            for msgs in got:
                assert [json.loads(m)["seq"] for m in msgs][-24:] == list(range(1, 25))
                assert json.loads(msgs[-1])["set"]["blob"]["text"].startswith("00000024")
            # the same patch went to every page as the same bytes, built once per change
            for step in range(24):
                assert len({msgs[step] for msgs in got}) == 1
            assert len(built) <= 24 + 2  # once per change (+ the stalled page's coalesced ones)
            assert stalled.sock.fileno() != -1
        finally:
            stalled.close()


def test_a_page_that_acknowledges_is_never_sent_more_than_the_window_ahead() -> None:
    """Flow control (issue 13): a page connected with ack=1 (the pages' client.js) has at most
    ACK_WINDOW messages on the way; what changes meanwhile is coalesced, and its acknowledgement brings
    the latest state at once — not the stale states a socket's buffer would have queued."""
    from broadcast.overlay.protocol import ACK_WINDOW

    feed = _Feed()
    with OverlayServer(feed, port=0) as srv:  # type: ignore[arg-type]

        async def page() -> tuple[list[int], list[int], dict[str, Any]]:
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(f"ws://127.0.0.1:{srv.port}/ws?ack=1")
                first = json.loads((await ws.receive(timeout=20)).data)
                assert first["type"] == "snapshot"
                loop = asyncio.get_running_loop()
                for n in range(1, 31):
                    await loop.run_in_executor(None, feed.push, n, f"change {n}")
                before: list[int] = [first["seq"]]  # what came without an acknowledgement
                while True:
                    try:
                        msg = json.loads((await ws.receive(timeout=0.3)).data)
                    except TimeoutError:
                        break
                    if msg["type"] != "hb":
                        before.append(msg["seq"])
                after: list[int] = []
                last: dict[str, Any] = {}
                while not after or after[-1] < 30:
                    await ws.send_str(json.dumps({"type": "ack", "seq": before[-1]}))
                    last = json.loads((await ws.receive(timeout=20)).data)
                    if last["type"] != "hb":
                        after.append(last["seq"])
                await ws.close()
                return before, after, last

        before, after, last = run_async(page())
    assert len(before) <= ACK_WINDOW < 30
    assert after[-1] == 30 and len(after) <= 2  # the latest state, coalesced: not the 28 others
    assert last["set"]["blob"]["text"] == "change 30"


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
