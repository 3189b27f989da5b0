"""One connection to obs-websocket v5, with the traps of the usual client libraries guarded.

The transport is websocket-client; the protocol (Hello → Identify with the password → requests and
events) follows obs-websocket's own protocol document, authentication included (two SHA-256 rounds
over password, salt and challenge); request names and their fields come from obs-websocket-py's public
request catalogue (``obswebsocket.requests``), so a misspelt request fails before it is sent. What
obs-websocket-py 1.0 does badly (``docs/obs.md``, "A real OBS, headless") is done here instead:

* ``connect`` opens the socket and runs Hello/Identify under ``connect_timeout`` (a frozen OBS cannot
  block it); nothing listening → :class:`ObsUnreachable`; a close frame 4009 → :class:`ObsAuthError`
  with OBS's code and comment; a port that never says Hello → :class:`ObsHandshakeTimeout`;
* the receive loop waits with ``select`` and never dies silently: when it ends, every waiting request
  fails at once with :class:`ObsConnectionLost` and ``on_close(reason, cause, since)`` is called;
* a keep-alive thread asks OBS ``GetVersion`` every ``ping_interval`` over a second, silent session of
  its own (obs-websocket answers one session's requests in order, so a screenshot or a cut that waits
  for OBS's busy render or UI thread would hold a ping on the same session; other sessions are served
  meanwhile) and declares OBS **frozen** when nothing at all has come back on either session for
  ``freeze_after`` seconds (SIGSTOP, a hung process): the link is closed with cause ``frozen``;
* ``since`` (of any close OBS did not announce: a crash, a freeze) is the last moment OBS was known
  alive — when the last heartbeat it answered was sent (:attr:`ObsClient.alive_since`), never when a
  message happened to be read, which a loaded machine can do after OBS died;
* :meth:`request` waits at most its timeout (:class:`ObsTimeout`) and raises :class:`ObsRequestError`
  with ``code``/``comment`` when OBS refuses; :meth:`request_timed` / :meth:`pipeline_timed` also
  return when OBS's answer arrived (the moment OBS confirmed a change, for the as-run log);
* events are stamped with their receive time on the receive thread and handed to ``on_event``, which
  must only queue them (the bridge's worker does the rest).

The password is used for the Identify hash only: never logged, never in ``repr``.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import websocket
from obswebsocket import requests as obs_requests

from broadcast.obs.errors import (
    ObsAuthError,
    ObsClosed,
    ObsConnectError,
    ObsConnectionLost,
    ObsError,
    ObsHandshakeTimeout,
    ObsNotConnected,
    ObsRequestError,
    ObsTimeout,
    ObsUnreachable,
)
from broadcast.obs.settings import ObsSettings
from broadcast.obs.watchdog import FreezeJudge, LocalProcess

log = logging.getLogger(__name__)

EventHandler = Callable[[str, dict[str, Any], float], None]  # (eventType, eventData, received_at)
CloseHandler = Callable[[str, str, float], None]  # (reason, cause, since: last moment OBS was alive)

CLOSE_AUTH_FAILED = 4009
RPC_VERSION = 1
EVENTS_ALL = 1023  # obs-websocket EventSubscription::All (no high-volume events)
BATCH_SERIAL_REALTIME = 0  # RequestBatchExecutionType: one request after the other, at once


def auth_string(password: str, salt: str, challenge: str) -> str:
    """obs-websocket v5 authentication (protocol document, "Creating an authentication string")."""
    secret = base64.b64encode(hashlib.sha256((password + salt).encode()).digest()).decode()
    return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()


def _abort(ws: websocket.WebSocket) -> None:
    ws.abort()  # type: ignore[no-untyped-call]  # websocket-client leaves abort() unannotated


def _open(ws: websocket.WebSocket, url: str, timeout: float) -> None:
    ws.connect(url, timeout=timeout, suppress_origin=True)  # type: ignore[no-untyped-call]


def build_request(request_type: str, data: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The request's name and fields through obs-websocket-py's catalogue (unknown names fail here)."""
    try:
        cls = getattr(obs_requests, request_type)
    except AttributeError:
        raise ObsRequestError(request_type, 204, "unknown request type") from None
    req = cls(**(data or {}))
    return str(req.name), dict(req.data())


class ObsClient:
    """A single connection. Thread-safe; create a new one to reconnect."""

    def __init__(
        self,
        settings: ObsSettings,
        *,
        on_event: EventHandler | None = None,
        on_close: CloseHandler | None = None,
        keepalive: bool = True,
    ) -> None:
        self.settings = settings
        self._keepalive_on = keepalive
        self._on_event = on_event
        self._on_close = on_close
        self._ws: websocket.WebSocket | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._waiting: dict[str, threading.Event] = {}
        self._answers: dict[str, tuple[dict[str, Any], float]] = {}
        self._alive = False
        self._closed = threading.Event()
        self._close_reason = ""
        self._close_cause = ""
        self._threads: list[threading.Thread] = []
        self.last_message_at = 0.0  # monotonic
        self.last_alive = 0.0  # wall clock of the last message from OBS (when it was read)
        self.heartbeat_at = 0.0  # wall clock when the last heartbeat OBS answered was sent
        self._last_ping = 0.0

    def __repr__(self) -> str:
        return f"<ObsClient {self.settings.host}:{self.settings.port} {'up' if self._alive else 'down'}>"

    # -- connection ----------------------------------------------------------------------------
    def connect(self) -> None:
        """Open and identify; raises ObsUnreachable / ObsAuthError / ObsHandshakeTimeout /
        ObsConnectError within ``connect_timeout``."""
        s = self.settings
        url = f"ws://{s.host}:{s.port}"
        ws = websocket.WebSocket(enable_multithread=True)
        where = f"{s.host}:{s.port}"
        try:
            _open(ws, url, s.connect_timeout)
        except ConnectionRefusedError:
            _abort(ws)
            raise ObsUnreachable(
                zh=f"{where} 没有程序在监听（OBS 未运行、未开 WebSocket 服务器或端口不对）",
                en=f"nothing is listening at {where} (OBS not running, websocket server off, or wrong port)",
            ) from None
        except (TimeoutError, websocket.WebSocketTimeoutException):
            _abort(ws)
            raise ObsHandshakeTimeout(
                zh=f"{where} 端口有响应但不握手（OBS 冻结或忙）",
                en=f"{where} accepted the connection but did not answer in {s.connect_timeout:.1f}s",
            ) from None
        except (OSError, websocket.WebSocketException) as exc:
            _abort(ws)
            raise ObsUnreachable(
                zh=f"无法连接 OBS（{where}）：{exc or type(exc).__name__}",
                en=f"cannot connect to OBS at {url}: {exc or type(exc).__name__}",
            ) from None
        try:
            self._identify(ws, EVENTS_ALL)
        except (TimeoutError, websocket.WebSocketTimeoutException):
            _abort(ws)
            raise ObsHandshakeTimeout(
                zh=f"{where} 端口有响应但不握手（OBS 冻结或不是 obs-websocket）",
                en=f"{where}: no obs-websocket Hello/Identify within {s.connect_timeout:.1f}s",
            ) from None
        except ObsError:
            _abort(ws)
            raise
        except (OSError, websocket.WebSocketException, ValueError, KeyError) as exc:
            _abort(ws)
            raise ObsConnectError(
                zh=f"OBS（{where}）握手中断",
                en=f"OBS at {where} broke off the handshake ({type(exc).__name__})",
            ) from None
        sock = ws.sock
        if sock is None:
            raise ObsConnectError(en="OBS closed the connection during the handshake")
        sock.settimeout(max(s.timeout, 1.0))  # sends never block for ever
        self._ws = ws
        self._alive = True
        self._touch()
        jobs = [(self._recv_loop, "obs-recv")] + (
            [(self._keepalive, "obs-keepalive")] if self._keepalive_on else []
        )
        for target, name in jobs:
            t = threading.Thread(target=target, name=name, daemon=True)
            self._threads.append(t)
            t.start()

    def _recv_json(self, ws: websocket.WebSocket) -> dict[str, Any]:
        opcode, frame = ws.recv_data_frame(True)
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            data = bytes(frame.data or b"")
            code = int.from_bytes(data[:2], "big") if len(data) >= 2 else 1005
            comment = data[2:].decode("utf-8", "replace")
            if code == CLOSE_AUTH_FAILED:
                raise ObsAuthError(code, comment)
            raise ObsClosed(code, comment)
        result: dict[str, Any] = json.loads(frame.data)
        return result

    def _identify(self, ws: websocket.WebSocket, events: int) -> None:
        hello = self._recv_json(ws)
        if hello.get("op") != 0:
            raise ObsConnectError(en=f"unexpected first message from OBS (op {hello.get('op')})")
        auth_info = hello["d"].get("authentication")
        ident: dict[str, Any] = {"rpcVersion": RPC_VERSION, "eventSubscriptions": events}
        if auth_info:
            if not self.settings.password:
                raise ObsAuthError(
                    CLOSE_AUTH_FAILED,
                    "OBS requires a password and none is set",
                    zh="OBS 要求密码，但没有设置（GOUJI_OBS_PASSWORD 或设置文件 password_env）",
                )
            ident["authentication"] = auth_string(
                self.settings.password, str(auth_info["salt"]), str(auth_info["challenge"])
            )
        ws.send(json.dumps({"op": 1, "d": ident}))
        answer = self._recv_json(ws)
        if answer.get("op") != 2 or answer["d"].get("negotiatedRpcVersion") != RPC_VERSION:
            raise ObsConnectError(en=f"OBS did not identify us (op {answer.get('op')})")

    @property
    def connected(self) -> bool:
        return self._alive

    @property
    def close_reason(self) -> str:
        return self._close_reason

    @property
    def close_cause(self) -> str:
        return self._close_cause

    def close(self, reason: str = "closed by the application", cause: str = "stopped") -> None:
        """Drop the link at once (no close handshake: a frozen OBS would make that wait)."""
        self._shutdown(reason, cause, notify=False, since=time.time())

    def _shutdown(self, reason: str, cause: str, *, notify: bool, since: float) -> None:
        with self._lock:
            was = self._alive
            self._alive = False
            if not self._close_reason:
                self._close_reason, self._close_cause = reason, cause
        self._closed.set()
        ws = self._ws
        if ws is not None:
            try:
                _abort(ws)
            except Exception:  # noqa: BLE001 - a socket already gone
                pass
        me = threading.current_thread()
        for t in self._threads:
            if t is not me and was:
                t.join(1.0)
        self._fail_waiting()
        if was and notify and self._on_close is not None:
            try:
                self._on_close(self._close_reason, self._close_cause, since)
            except Exception:  # noqa: BLE001
                log.exception("on_close handler failed")

    def _fail_waiting(self) -> None:
        with self._lock:
            waiting = list(self._waiting.values())
        for ev in waiting:
            ev.set()

    @property
    def alive_since(self) -> float:
        """The last moment OBS is known to have been alive: when the last heartbeat it answered was sent
        (it answered after that) — never the time a message was read, which a loaded machine can read
        after OBS died. Without a heartbeat session, the last message read."""
        return self.heartbeat_at or self.last_alive

    def _touch(self) -> None:
        self.last_message_at = time.monotonic()
        self.last_alive = time.time()

    def _open_probe(self) -> websocket.WebSocket | None:
        """The keep-alive's own session (no events); None when OBS will not give us a second one."""
        s = self.settings
        ws = websocket.WebSocket(enable_multithread=True)
        try:
            _open(ws, f"ws://{s.host}:{s.port}", s.connect_timeout)
            self._identify(ws, 0)
            if ws.sock is None:
                return None
            ws.sock.settimeout(max(s.timeout, 1.0))
            return ws
        except (OSError, websocket.WebSocketException, ObsError, ValueError, KeyError):
            _abort(ws)
            return None

    def _keepalive(self) -> None:
        """Ask OBS how it is every ``ping_interval`` on a session of our own; a link silent for
        ``freeze_after`` seconds is judged by :class:`~broadcast.obs.watchdog.FreezeJudge` (a stopped
        OBS process is frozen at once, a starved one that still works is given up to ``freeze_max``)."""
        s = self.settings
        step = min(0.05, s.ping_interval / 4)
        probe = self._open_probe()
        judge = FreezeJudge(s.freeze_after, s.freeze_max, LocalProcess.find(s.host, s.port))
        asked: dict[str, tuple[float, float]] = {}  # request id → (monotonic, wall clock) when asked
        last_ask = 0.0
        woke = time.monotonic()
        try:
            while not self._closed.wait(0 if probe is not None else step):
                now = time.monotonic()
                lag, woke = max(0.0, now - woke - step), now
                if probe is not None and probe.sock is not None:
                    if now - last_ask >= s.ping_interval:
                        last_ask = now
                        rid = f"alive{next(self._ids)}"
                        try:
                            sent = time.time()
                            probe.send(
                                json.dumps({"op": 6, "d": {"requestId": rid, "requestType": "GetVersion"}})
                            )
                            asked[rid] = (now, sent)
                        except (OSError, websocket.WebSocketException):
                            _abort(probe)
                            probe = None
                            continue
                    try:
                        wait = step
                        sock = cast(socket.socket, probe.sock)
                        while select.select([sock], [], [], wait)[0]:  # everything waiting
                            wait = 0.0
                            opcode, frame = probe.recv_data_frame(True)
                            if opcode == websocket.ABNF.OPCODE_CLOSE:
                                raise websocket.WebSocketConnectionClosedException("probe closed")
                            self._touch()
                            got = time.monotonic()
                            rid = str((json.loads(frame.data).get("d") or {}).get("requestId", ""))
                            if rid in asked:
                                mono, wall = asked.pop(rid)
                                judge.answered(got, got - mono)
                                # OBS answered after it was asked: alive at that moment at least
                                self.heartbeat_at = max(self.heartbeat_at, wall)
                    except (OSError, websocket.WebSocketException, ValueError):
                        _abort(probe)
                        probe = None
                        continue
                    for rid in [r for r, t in asked.items() if now - t[0] > s.freeze_max * 2]:
                        asked.pop(rid)
                elif now - self._last_ping >= s.ping_interval:  # no second session: ping frames
                    self._last_ping = now
                    ws = self._ws
                    try:
                        if ws is not None:
                            ws.ping(b"gouji")
                    except (OSError, websocket.WebSocketException):
                        pass
                quiet = time.monotonic() - self.last_message_at
                if self._alive and judge.frozen(quiet, time.monotonic(), lag=lag):
                    self._shutdown(
                        f"OBS 无响应 {quiet:.1f} 秒 / OBS silent for {quiet:.1f}s (frozen: {judge.reason})",
                        "frozen",
                        notify=True,
                        since=self.alive_since,
                    )
                    return
        finally:
            if probe is not None:
                _abort(probe)

    def _recv_loop(self) -> None:
        ws = self._ws
        assert ws is not None
        reason, cause = "connection closed by OBS", "lost"
        try:
            while self._alive:
                sock = ws.sock
                if sock is None:
                    break
                # websocket-client reads exactly one frame's bytes, so select() sees what is left
                ready, _, _ = select.select([sock], [], [], 0.1)
                if not ready:
                    continue
                try:
                    opcode, frame = ws.recv_data_frame(True)
                except websocket.WebSocketTimeoutException:
                    continue
                self._touch()
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    data = bytes(frame.data or b"")
                    code = int.from_bytes(data[:2], "big") if len(data) >= 2 else 1005
                    reason = f"OBS closed the connection ({code} {data[2:].decode('utf-8', 'replace')})"
                    break
                if opcode not in (websocket.ABNF.OPCODE_TEXT, websocket.ABNF.OPCODE_BINARY):
                    continue
                self._dispatch(frame.data)
        except (OSError, websocket.WebSocketException, ValueError) as exc:
            reason = f"connection lost ({type(exc).__name__}: {exc})"
        except Exception:  # noqa: BLE001 - never die silently
            log.exception("OBS receive loop failed")
            reason = "receive loop failed"
        if self._alive:  # OBS was last known alive at its last message (a crash: its last heartbeat)
            self._shutdown(reason, cause, notify=True, since=self.alive_since or time.time())

    def _dispatch(self, raw: bytes | str) -> None:
        msg = json.loads(raw)
        op, d = msg.get("op"), msg.get("d") or {}
        if op == 5:
            received = time.time()  # v5 events carry no timestamp: the receive time is the best
            if self._on_event is not None:
                try:
                    self._on_event(str(d.get("eventType", "")), dict(d.get("eventData") or {}), received)
                except Exception:  # noqa: BLE001 - a handler's bug must not kill the link
                    log.exception("OBS event handler failed")
        elif op in (7, 9):  # RequestResponse, RequestBatchResponse
            rid = str(d.get("requestId"))
            with self._lock:
                ev = self._waiting.get(rid)
                if ev is not None:
                    self._answers[rid] = (d, time.time())
            if ev is not None:
                ev.set()

    def _send(self, payload: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None or not self._alive:
            raise ObsNotConnected(en=f"not connected to OBS ({self._close_reason or 'never connected'})")
        try:
            ws.send(json.dumps(payload, ensure_ascii=False))
        except (OSError, websocket.WebSocketException) as exc:
            self._shutdown(f"send failed: {exc}", "lost", notify=True, since=self.alive_since or time.time())
            raise ObsConnectionLost(en=f"send failed ({exc})") from None

    # -- requests ------------------------------------------------------------------------------
    def request(
        self, request_type: str, data: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        """Send one request and return its ``responseData``; never waits longer than ``timeout``."""
        return self.request_timed(request_type, data, timeout=timeout)[0]

    def request_timed(
        self, request_type: str, data: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> tuple[dict[str, Any], float]:
        """As :meth:`request`, with the wall-clock time OBS's answer arrived."""
        out, at = self.pipeline_timed([(request_type, data or {})], timeout=timeout)
        result = out[0]
        if isinstance(result, ObsError):
            raise result
        return result, at

    def pipeline(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> list[dict[str, Any] | ObsError]:
        """Send every request at once — as one ``RequestBatch`` when there are several — and collect
        the answers.

        Returns, in order, each ``responseData`` or the :class:`ObsError` of that request (a failed
        one does not stop the others). Waits at most ``timeout`` overall.
        """
        return self.pipeline_timed(calls, timeout=timeout)[0]

    def pipeline_timed(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> tuple[list[dict[str, Any] | ObsError], float]:
        """As :meth:`pipeline`, with the wall-clock time the last answer arrived (0 for no calls)."""
        if not calls:
            return [], 0.0
        if len(calls) > 1:  # one message each way (OBS runs them in order, as fast as it can)
            return self.batch_timed(calls, timeout=timeout)
        if not self._alive:
            raise ObsNotConnected(en=f"not connected to OBS ({self._close_reason or 'never connected'})")
        timeout = self.settings.timeout if timeout is None else timeout
        built = [build_request(t, d) for t, d in calls]
        pending: list[tuple[str, str, threading.Event]] = []
        with self._lock:
            for rtype, _d in calls:
                rid = f"g{next(self._ids)}"
                ev = threading.Event()
                self._waiting[rid] = ev
                pending.append((rid, rtype, ev))
        out: list[dict[str, Any] | ObsError] = []
        last = 0.0
        try:
            for (rid, _rtype, _ev), (name, data) in zip(pending, built, strict=True):
                self._send({"op": 6, "d": {"requestId": rid, "requestType": name, "requestData": data}})
            deadline = time.monotonic() + timeout
            for rid, rtype, ev in pending:
                if not ev.wait(max(0.0, deadline - time.monotonic())):
                    raise ObsTimeout(rtype, timeout)
                with self._lock:
                    got = self._answers.pop(rid, None)
                if got is None:
                    raise ObsConnectionLost(
                        en=f"{rtype}: {self._close_reason or 'connection lost'}",
                        cause=self._close_cause or "lost",
                    )
                answer, at = got
                last = max(last, at)
                status = answer.get("requestStatus") or {}
                if status.get("result"):
                    out.append(answer.get("responseData") or {})
                else:
                    out.append(
                        ObsRequestError(rtype, int(status.get("code", 0)), str(status.get("comment", "")))
                    )
        finally:
            with self._lock:
                for rid, _r, _e in pending:
                    self._waiting.pop(rid, None)
                    self._answers.pop(rid, None)
        return out, last

    def batch_timed(
        self,
        calls: list[tuple[str, dict[str, Any]]],
        *,
        timeout: float | None = None,
        execution: int = BATCH_SERIAL_REALTIME,
        halt_on_failure: bool = False,
    ) -> tuple[list[dict[str, Any] | ObsError], float]:
        """Many requests in one message and one answer (obs-websocket 5's ``RequestBatch``, op 8).

        OBS runs them in order on one of its threads (``execution``: serial, as fast as it can; or one
        per rendered frame; or in parallel) and answers once with every result: one round trip and one
        message to parse instead of one per request. Returns each ``responseData`` or the
        :class:`ObsError` of that request, in order, and the wall-clock time the answer arrived.
        With ``halt_on_failure`` the requests after a failed one are not run (:class:`ObsRequestError`
        code 0 "not run")."""
        if not calls:
            return [], 0.0
        if not self._alive:
            raise ObsNotConnected(en=f"not connected to OBS ({self._close_reason or 'never connected'})")
        timeout = self.settings.timeout if timeout is None else timeout
        built = [build_request(t, d) for t, d in calls]
        rid = f"b{next(self._ids)}"
        ev = threading.Event()
        with self._lock:
            self._waiting[rid] = ev
        try:
            self._send(
                {
                    "op": 8,
                    "d": {
                        "requestId": rid,
                        "haltOnFailure": bool(halt_on_failure),
                        "executionType": int(execution),
                        "requests": [
                            {"requestType": name, "requestId": str(k), "requestData": data}
                            for k, (name, data) in enumerate(built)
                        ],
                    },
                }
            )
            if not ev.wait(timeout):
                raise ObsTimeout(f"RequestBatch[{len(calls)}: {calls[0][0]} …]", timeout)
            with self._lock:
                got = self._answers.pop(rid, None)
        finally:
            with self._lock:
                self._waiting.pop(rid, None)
                self._answers.pop(rid, None)
        if got is None:
            raise ObsConnectionLost(
                en=f"RequestBatch: {self._close_reason or 'connection lost'}",
                cause=self._close_cause or "lost",
            )
        answer, at = got
        by_id = {str(r.get("requestId")): r for r in answer.get("results") or []}
        out: list[dict[str, Any] | ObsError] = []
        for k, (rtype, _d) in enumerate(calls):
            r = by_id.get(str(k))
            if r is None:
                out.append(ObsRequestError(rtype, 0, "not run (an earlier request of the batch failed)"))
                continue
            status = r.get("requestStatus") or {}
            if status.get("result"):
                out.append(r.get("responseData") or {})
            else:
                out.append(ObsRequestError(rtype, int(status.get("code", 0)), str(status.get("comment", ""))))
        return out, at

    def post(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        """Send ``calls`` as one ``RequestBatch`` and do not wait: OBS runs them, its answer is dropped
        (for what only OBS's UI thread does, and nobody needs to wait for: saving its collection)."""
        if not calls:
            return
        built = [build_request(t, d) for t, d in calls]
        self._send(
            {
                "op": 8,
                "d": {
                    "requestId": f"p{next(self._ids)}",
                    "haltOnFailure": True,
                    "executionType": BATCH_SERIAL_REALTIME,
                    "requests": [
                        {"requestType": name, "requestId": str(k), "requestData": data}
                        for k, (name, data) in enumerate(built)
                    ],
                },
            }
        )

    def batch(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> list[dict[str, Any] | ObsError]:
        """As :meth:`batch_timed`, without the time."""
        return self.batch_timed(calls, timeout=timeout)[0]

    def screenshot(
        self,
        source: str,
        *,
        width: int = 640,
        fmt: str = "jpg",
        quality: int = 80,
        timeout: float | None = None,
    ) -> bytes:
        """``GetSourceScreenshot`` decoded to bytes (JPEG by default, ``width`` px wide)."""
        data: dict[str, Any] = {"sourceName": source, "imageFormat": fmt, "imageWidth": int(width)}
        if fmt in ("jpg", "jpeg"):
            data["imageCompressionQuality"] = int(quality)
        out = self.request("GetSourceScreenshot", data, timeout=timeout)
        uri = str(out.get("imageData", ""))
        return base64.b64decode(uri.split(",", 1)[1] if "," in uri else uri)


def probe(settings: ObsSettings) -> dict[str, Any]:
    """Connect once, return version facts, disconnect (used by ``obs status``)."""
    c = ObsClient(settings)
    c.connect()
    try:
        v = c.request("GetVersion")
        kinds = c.request("GetInputKindList").get("inputKinds", [])
        return {
            "obs": v.get("obsVersion"),
            "websocket": v.get("obsWebSocketVersion"),
            "platform": v.get("platformDescription"),
            "input_kinds": kinds,
        }
    finally:
        c.close()
