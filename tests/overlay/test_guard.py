"""What the overlay server lets out, and to whom (issue 13): pages receive only what they render (the dealt
hands never leave the process), a page of another origin in a real browser on the studio machine can
neither read the state nor open the WebSocket, a DNS name pointed at this machine is refused, a page's
malformed echo is ignored, and many pages under a burst of changes all end on the latest state."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp

from broadcast.overlay import OverlayServer, Rendered
from broadcast.overlay.protocol import private_sections
from broadcast.rehearsal import selfplay_records
from broadcast.studio import open_store
from tests.overlay.conftest import run_async


def _status(srv: OverlayServer, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    try:
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_the_dealt_hands_never_leave_the_process(tmp_path: Path) -> None:
    store = open_store(tmp_path / "studio.sqlite")
    rec = selfplay_records(2011, "tv_match")[0]
    assert rec.hands and all(rec.hands)
    texts: list[str] = []

    async def watch(port: int) -> None:
        async with aiohttp.ClientSession() as s, s.ws_connect(f"ws://127.0.0.1:{port}/ws?bus=program") as ws:
            texts.append((await ws.receive(timeout=10)).data)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(
                None, lambda: store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
            )
            for line in rec.moves[:12]:
                await loop.run_in_executor(
                    None, lambda line=line: store.dispatch("game.play", {"line": line})
                )
            while True:
                msg = json.loads((await ws.receive(timeout=10)).data)
                if msg["type"] != "hb":
                    texts.append(json.dumps(msg, ensure_ascii=False))
                if msg.get("seq") == store.seq:
                    break

    with OverlayServer(store, port=0) as srv:
        run_async(watch(srv.port))
        status, body = _status(srv, "/state.json", {})
    assert status == 200
    texts.append(body.decode("utf-8"))
    assert store.state["game"]["hands"] == rec.hands  # the engine has them …
    snapshot = json.loads(texts[0])
    assert snapshot["type"] == "snapshot" and "game" not in snapshot["state"]
    assert "table" in snapshot["state"]  # … the pages get the table: counts, 记牌器, last play
    for text in texts:
        msg = json.loads(text)
        sections = msg.get("state") or msg.get("set") or {}
        assert "game" not in sections
        for hand in rec.hands:
            assert hand not in text
    last = json.loads(texts[-2])
    assert "jipaiqi" in json.dumps(last, ensure_ascii=False) or "table" in last.get("set", {})
    store.close()


class _ForeignSite(BaseHTTPRequestHandler):
    """A web page of another origin (another port on the same machine, as any site would be)."""

    page = b""

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args: Any) -> None:
        pass


def test_a_page_of_another_origin_in_chromium_cannot_read_the_state(browser: Any, demo_store: Any) -> None:
    with OverlayServer(demo_store, port=0) as srv:
        target = f"127.0.0.1:{srv.port}"
        _ForeignSite.page = f"""<!doctype html><meta charset="utf-8"><body><script>
window.result = {{ws: 'pending', fetch: 'pending', messages: 0}};
const ws = new WebSocket('ws://{target}/ws?bus=program');
ws.onmessage = (e) => {{ window.result.messages += 1; window.result.ws = 'read:' + e.data.slice(0, 40); }};
ws.onclose = () => {{ if (window.result.ws === 'pending') window.result.ws = 'closed'; }};
ws.onerror = () => {{ if (window.result.ws === 'pending') window.result.ws = 'error'; }};
fetch('http://{target}/state.json').then(r => r.text()).then(
  t => {{ window.result.fetch = 'read:' + t.slice(0, 40); }},
  e => {{ window.result.fetch = 'refused'; }});
</script></body>""".encode()
        site = ThreadingHTTPServer(("127.0.0.1", 0), _ForeignSite)
        thread = threading.Thread(target=site.serve_forever, daemon=True)
        thread.start()
        try:
            ctx = browser.new_context()
            page = ctx.new_page()
            refused_before = srv.stats["refused"]
            page.goto(f"http://127.0.0.1:{site.server_address[1]}/evil.html")
            page.wait_for_function("window.result.ws !== 'pending' && window.result.fetch !== 'pending'")
            result = page.evaluate("window.result")
            ctx.close()
        finally:
            site.shutdown()
        assert result["messages"] == 0 and not result["ws"].startswith("read:"), result
        assert result["fetch"] == "refused", result
        assert srv.stats["refused"] >= refused_before + 1  # the server itself said no (not only CORS)


def test_a_dns_name_or_a_foreign_origin_is_refused_and_the_own_origin_served(demo_store: Any) -> None:
    with OverlayServer(demo_store, port=0) as srv:
        own = f"127.0.0.1:{srv.port}"
        ok, _ = _status(srv, "/state.json", {"Host": own, "Origin": f"http://{own}"})
        assert ok == 200
        assert _status(srv, "/state.json", {"Host": f"localhost:{srv.port}"})[0] == 200
        for headers in (
            {"Host": f"rebind.example.com:{srv.port}"},  # DNS rebinding: a name pointed at 127.0.0.1
            {"Host": own, "Origin": "http://evil.example"},
            {"Host": own, "Origin": "null"},
            {"Host": own, "Sec-Fetch-Site": "cross-site"},
            {"Host": f"127.0.0.1:{srv.port + 1}"},
        ):
            status, body = _status(srv, "/overlay/program.html", headers)
            assert status == 403, headers
            assert "refused" in body.decode() or "not this server" in body.decode()


def test_a_malformed_echo_is_ignored_and_the_page_stays_connected(demo_store: Any) -> None:
    got: list[Rendered] = []

    async def talk(port: int) -> str:
        async with (
            aiohttp.ClientSession() as s,
            s.ws_connect(f"ws://127.0.0.1:{port}/ws?bus=program&echo=1") as ws,
        ):
            await ws.receive(timeout=10)  # the snapshot
            for bad in ('"abc"', "1e999", "[1]", "true", "null", "-1e400"):
                await ws.send_str(f'{{"type":"rendered","seq":{bad},"arrived":[1],"frame":"x"}}')
            await ws.send_str('{"type":"rendered","seq":7,"arrived":1e999,"frame":12.5,"sent":"?"}')
            await ws.send_str('{"type":"resync"}')
            msg = json.loads((await ws.receive(timeout=10)).data)
            return str(msg["type"])

    with OverlayServer(demo_store, port=0) as srv:
        srv.on_rendered(got.append)
        refused = srv.stats["refused"]
        assert run_async(talk(srv.port)) == "snapshot"  # still served after the bad messages
        assert srv.stats["refused"] == refused + 6
    assert [(r.seq, r.page_arrived, r.page_frame, r.page_sent) for r in got] == [(7, 0.0, 0.0125, 0.0)]


def test_many_pages_under_a_burst_of_changes_all_end_on_the_latest_state(tmp_path: Path) -> None:
    store = open_store(tmp_path / "studio.sqlite", validate=False)
    pages, changes = 40, 600
    final: dict[int, dict[str, Any]] = {}
    counts: dict[int, int] = {}

    async def page(i: int, port: int, done: asyncio.Event, ready: list[asyncio.Event]) -> None:
        state: dict[str, Any] = {}
        n = 0
        async with aiohttp.ClientSession() as s, s.ws_connect(f"ws://127.0.0.1:{port}/ws?bus=program") as ws:
            while True:
                msg = json.loads((await ws.receive(timeout=30)).data)
                if msg["type"] == "snapshot":
                    state = msg["state"]
                    ready[i].set()
                elif msg["type"] == "patch":
                    state.update(msg["set"])
                n += 1
                if done.is_set() and state.get("meta", {}).get("seq") == store.seq:
                    break
        final[i], counts[i] = state, n

    async def run(port: int) -> None:
        done = asyncio.Event()
        ready = [asyncio.Event() for _ in range(pages)]
        tasks = [asyncio.create_task(page(i, port, done, ready)) for i in range(pages)]
        # every page connected and shown the state (the bound: a guard, like the pages' own receive)
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 30)
        loop = asyncio.get_running_loop()

        def burst() -> None:
            for k in range(changes):
                store.dispatch("show.update", {"round": f"第{k}手"})
                store.dispatch("graphic.set", {"bus": "program", "graphic": "ticker", "on": k % 2 == 0})

        await loop.run_in_executor(None, burst)
        done.set()
        store.dispatch("show.update", {"episode": "第15期"})  # wakes every page once more
        await asyncio.gather(*tasks)

    with OverlayServer(store, port=0) as srv:
        run_async(run(srv.port))
        stats = dict(srv.stats)
    private = private_sections(store)  # the game, the 胜率 history: never sent to pages
    assert {"game", "winprob_history"} <= private
    want = {k: v for k, v in store.state.items() if k not in private}
    assert len(final) == pages and all(st == want for st in final.values())  # none dropped, all current
    assert sum(counts.values()) < pages * (2 * changes + 1)  # coalesced, not one message per change
    assert stats["coalesced"] + stats["merged"] > 0 and stats["closed_slow"] == 0
    store.close()
