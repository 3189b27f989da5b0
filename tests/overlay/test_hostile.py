"""The overlay server against a client's bad input, over a raw socket (issue 23): no 500 for bad header
bytes or deeply nested JSON, the token in no log line (aiohttp's own logging of a malformed request
line included), a page that stops reading is closed, and ``GET /api/status`` answers on a read-only
server."""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore
from broadcast.overlay.protocol import MAX_DEPTH
from tests.overlay.test_server import _Feed, _StalledClient

TOKEN = "tok-hostile-5d1f"
ROOT = Path(__file__).resolve().parents[2]


def _raw(port: int, data: bytes, timeout: float = 10.0) -> tuple[int, bytes]:
    """Send ``data`` as it is and read the answer until the server closes: (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while True:
            try:
                chunk = s.recv(1 << 16)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            out += chunk
            if b"\r\n\r\n" in out:
                head, _, body = out.partition(b"\r\n\r\n")
                length = [ln for ln in head.split(b"\r\n") if ln.lower().startswith(b"content-length:")]
                if length and len(body) >= int(length[0].split(b":")[1]):
                    break
    status = int(out.split(b" ", 2)[1]) if out.startswith(b"HTTP/") else 0
    return status, out.partition(b"\r\n\r\n")[2]


def _request(port: int, line: str, headers: dict[str, bytes] | None = None, body: bytes = b"") -> bytes:
    head = f"{line}\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n".encode()
    for k, v in (headers or {}).items():
        head += k.encode() + b": " + v + b"\r\n"
    if body:
        head += f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\n".encode()
    return head + b"\r\n" + body


@pytest.fixture()
def guarded() -> Any:
    srv = OverlayServer(MemoryStore(demo_state()), port=0, token=TOKEN)
    srv.start()
    yield srv
    srv.stop()


def test_bad_header_bytes_are_refused_never_a_500(guarded: OverlayServer) -> None:
    port = guarded.port
    for name, value in (
        ("Authorization", b"Bearer \xff\xfe\x80"),
        ("Authorization", b"Bearer " + TOKEN.encode() + b"\xc3"),
        ("Cookie", b"overlay_token=\xff\xff"),
        ("Origin", b"http://\xe4\xb8\xad\xff"),
        ("Sec-Fetch-Site", b"cross-\xff"),
    ):
        for path in ("/state.json", "/api/status"):
            status, body = _raw(port, _request(port, f"GET {path} HTTP/1.1", {name: value}))
            assert status == 403, (name, value, path, status, body[:200])
    # a bad byte in the Host itself: refused naming it (escaped), not a 500
    data = (
        f"GET /state.json?token={TOKEN} HTTP/1.1\r\nConnection: close\r\n".encode()
        + b"Host: 127.0.\xff\r\n\r\n"
    )
    status, body = _raw(port, data)
    assert status in (400, 403), (status, body)


def test_deeply_nested_json_is_400_with_the_limit_and_a_big_body_413(guarded: OverlayServer) -> None:
    port = guarded.port
    auth = {"Authorization": f"Bearer {TOKEN}".encode()}
    for depth in (MAX_DEPTH + 1, 100_000):  # the red team's 400–600 KB of brackets
        deep = b"[" * depth + b"]" * depth
        status, body = _raw(port, _request(port, "POST /api/take HTTP/1.1", auth, deep))
        assert status == 400, status
        assert json.loads(body)["error"]["en"] == f"body nested deeper than {MAX_DEPTH} levels"
    nested = b'{"graphic": ' + b"[" * 20 + b"]" * 20 + b"}"  # deep, but within the limit: parsed
    status, body = _raw(port, _request(port, "POST /api/preview HTTP/1.1", auth, nested))
    assert status == 503 and json.loads(body)["error"]["en"] == "this server is read-only", body
    status, _ = _raw(port, _request(port, "POST /api/take HTTP/1.1", auth, b"\xff\xfe"))
    assert status == 400
    status, _ = _raw(port, _request(port, "POST /api/take HTTP/1.1", auth, b"[" * (3 << 20)))
    assert status == 413


def test_the_token_is_in_no_log_line_even_for_a_malformed_request_line(
    guarded: OverlayServer, caplog: pytest.LogCaptureFixture
) -> None:
    port = guarded.port
    caplog.set_level(logging.DEBUG)
    for line in (
        f"GET /ws?token={TOKEN} HTTP/1.1 junk",
        f"GET /overlay/program.html?token={TOKEN}\x00 HTTP/1.1",
        f"GET /state.json?token={TOKEN}&x=\x7f HTTP/1.1",
        f"BREW /state.json?token={TOKEN} HTCPCP/1.0",
        f"GET /overlay/{TOKEN}/program.html HTTP/1.1 junk",  # the token where no "token=" names it
    ):
        status, _ = _raw(port, _request(port, line, {"Authorization": f"Bearer {TOKEN}".encode()}))
        assert status in (400, 403, 404, 405, 501), (line, status)
    logged = "\n".join(f"{r.name} {r.levelname} {r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert "aiohttp.server" in logged  # the malformed lines were logged …
    assert TOKEN not in logged  # … without the token
    assert "token=***" in logged


def test_a_deeply_nested_websocket_message_is_ignored_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    feed = _Feed()
    caplog.set_level(logging.DEBUG)
    with OverlayServer(feed, port=0) as srv:  # type: ignore[arg-type]
        page = _StalledClient(srv.port)
        assert page.message()["type"] == "snapshot"
        refused = srv.stats["refused"]
        for payload in (b"[" * 60_000, b'{"type":"ack","x":' + b"[" * 40 + b"]" * 40 + b"}"):
            page.send(payload)
        feed.push(1, "after the hostile messages")
        msg = page.message()  # the page is still served
        assert msg["type"] == "patch" and msg["set"]["blob"]["text"] == "after the hostile messages"
        deadline = time.monotonic() + 30  # the server reads the page's messages on its own time
        while srv.stats["refused"] < refused + 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert srv.stats["refused"] == refused + 2
        # nothing logged while the server took them (what the loop says when it stops is not the point)
        ours = [r for r in caplog.records if r.name.startswith(("aiohttp", "broadcast"))]
        assert not [r for r in ours if r.exc_info or r.exc_text or r.levelno >= logging.ERROR]
        page.close()


def test_a_page_that_stops_reading_is_closed_and_its_socket_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    from broadcast.overlay import server as server_mod

    monkeypatch.setattr(server_mod, "SEND_TIMEOUT", 1.0)
    feed = _Feed()
    with OverlayServer(feed, port=0) as srv:  # type: ignore[arg-type]
        page = _StalledClient(srv.port)
        assert page.message()["type"] == "snapshot"
        text = "满" * (256 * 1024)
        n = 0
        deadline = time.monotonic() + 60
        while srv.stats["closed_slow"] == 0 and time.monotonic() < deadline:
            n += 1
            feed.push(n, text + str(n))  # the page reads nothing: its socket fills, the writer waits
            time.sleep(0.05)
        assert srv.stats["closed_slow"] == 1
        while srv.client_count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert srv.client_count == 0  # the server let go of it …
        page.sock.settimeout(10)
        with pytest.raises((ConnectionError, OSError)):  # … and the connection is cut, not left open
            while True:
                page.message()


def _journal_rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
    finally:
        conn.close()


def test_api_status_answers_on_a_read_only_server(tmp_path: Path) -> None:
    """``serve --demo`` (a design state) and ``serve --db`` (a follower of a database) have no store to
    show a state without a cue list or a sponsor roster: the status is still the status (it was a 500).
    An operation is 503 on both: the follower wrote it into the database it follows (200)."""
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    db = tmp_path / "studio.sqlite"
    from broadcast.studio import open_store

    open_store(db).close()
    before = _journal_rows(db)
    for how in (["--demo"], ["--db", str(db)]):
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "broadcast",
                "serve",
                *how,
                "--port",
                "0",
                "--token-file",
                str(token_file),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            port = 0
            assert proc.stdout is not None
            for line in proc.stdout:
                if "http://127.0.0.1:" in line:
                    port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
                    break
            assert port, how
            auth = {"Authorization": f"Bearer {TOKEN}".encode()}
            status, body = _raw(port, _request(port, "GET /api/status HTTP/1.1", auth))
            assert status == 200, (how, body[:300])
            assert {"seq", "preview", "program", "cues"} <= set(json.loads(body))
            op = _request(port, "POST /api/preview HTTP/1.1", auth, b'{"graphic": "scoreboard"}')
            status, body = _raw(port, op)
            assert status == 503 and "read-only" in json.loads(body)["error"]["en"], (how, body[:300])
        finally:
            proc.terminate()
            proc.wait(20)
    assert _journal_rows(db) == before  # nothing was written into the followed database


@pytest.mark.parametrize("port", ["99999", "-1", "port"])
def test_a_bad_port_is_one_line_and_exit_2(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    from broadcast.__main__ import main as cli

    for command in (["serve", "--demo"], ["run", "--headless", "--no-obs"]):
        with pytest.raises(SystemExit) as exc:
            cli([*command, f"--port={port}"])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "--port" in err and "internal error" not in err, err
