"""One connection to obs-websocket v5, on obs-websocket-py, with the library's traps guarded.

obs-websocket-py 1.0 (see ``shared/OBS_HEADLESS.md``) drops OBS's status code and comment, blocks for
ever in ``connect()`` against a frozen OBS, hangs a request for the whole timeout when OBS dies while
it is in flight (its receive thread dies silently), and runs event callbacks on its receive thread
(calling OBS from there deadlocks). :class:`ObsClient` keeps the library's request/event classes,
authentication and bookkeeping, and replaces the parts with those traps:

* ``connect`` opens the socket and runs Hello/Identify under ``connect_timeout``; a close frame from
  OBS (4009 wrong password) becomes :class:`ObsAuthError` with OBS's code and comment;
* the receive loop waits with ``select`` and never dies silently: when it ends, every waiting request
  fails at once with :class:`ObsConnectionLost` and ``on_close`` is called;
* :meth:`request` waits at most its timeout (:class:`ObsTimeout`) and raises
  :class:`ObsRequestError` with ``code``/``comment`` when OBS refuses;
* events are stamped with their receive time on the receive thread and handed to ``on_event``, which
  must only queue them (the bridge's worker does the rest).
"""

from __future__ import annotations

import base64
import json
import logging
import select
import threading
import time
from collections.abc import Callable
from typing import Any

import websocket
from obswebsocket import obsws
from obswebsocket import requests as obs_requests

from broadcast.obs.errors import (
    ObsAuthError,
    ObsClosed,
    ObsConnectError,
    ObsConnectionLost,
    ObsError,
    ObsNotConnected,
    ObsRequestError,
    ObsTimeout,
)
from broadcast.obs.settings import ObsSettings

log = logging.getLogger(__name__)

EventHandler = Callable[[str, dict[str, Any], float], None]  # (eventType, eventData, received_at)
CloseHandler = Callable[[str], None]

CLOSE_AUTH_FAILED = 4009


class _Ws(obsws):  # type: ignore[misc]
    """obsws with a bounded handshake (the library's connect has no timeout)."""

    def __init__(self, settings: ObsSettings) -> None:
        super().__init__(
            settings.host, settings.port, settings.password, legacy=False, timeout=settings.timeout
        )
        self.connect_timeout = settings.connect_timeout

    def __repr__(self) -> str:  # the library keeps the password in an attribute: never show it
        return f"<obsws {self.host}:{self.port}>"

    def connect(self) -> None:
        url = f"ws://{self.host}:{self.port}"
        self.ws = websocket.WebSocket(enable_multithread=True)
        try:
            self.ws.connect(url, timeout=self.connect_timeout, suppress_origin=True)
            self._identify()
        except ObsConnectError:
            self.ws.abort()
            raise
        except (OSError, websocket.WebSocketException) as exc:
            self.ws.abort()
            raise ObsConnectError(
                f"cannot connect to OBS at {url}: {exc or type(exc).__name__}",
                message_zh=f"无法连接 OBS（{self.host}:{self.port}）",
            ) from None

    def _recv_json(self) -> dict[str, Any]:
        opcode, frame = self.ws.recv_data_frame(True)
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            data = bytes(frame.data or b"")
            code = int.from_bytes(data[:2], "big") if len(data) >= 2 else 1005
            comment = data[2:].decode("utf-8", "replace")
            if code == CLOSE_AUTH_FAILED:
                raise ObsAuthError(code, comment)
            raise ObsClosed(code, comment)
        result: dict[str, Any] = json.loads(frame.data)
        return result

    def _identify(self) -> None:
        hello = self._recv_json()
        if hello.get("op") != 0:
            raise ObsConnectError(f"unexpected first message from OBS (op {hello.get('op')})")
        self.server_version = hello["d"].get("obsWebSocketVersion")
        auth_info = hello["d"].get("authentication")
        auth = self._build_auth_string(auth_info["salt"], auth_info["challenge"]) if auth_info else ""
        if auth_info and not self.password:
            raise ObsAuthError(CLOSE_AUTH_FAILED, "OBS requires a password and none is set")
        self.ws.send(
            json.dumps({"op": 1, "d": {"rpcVersion": 1, "authentication": auth, "eventSubscriptions": 1023}})
        )
        ident = self._recv_json()
        if ident.get("op") != 2 or ident["d"].get("negotiatedRpcVersion") != 1:
            raise ObsConnectError(f"OBS did not identify us (op {ident.get('op')})")


class ObsClient:
    """A single connection. Thread-safe; create a new one to reconnect."""

    def __init__(
        self,
        settings: ObsSettings,
        *,
        on_event: EventHandler | None = None,
        on_close: CloseHandler | None = None,
    ) -> None:
        self.settings = settings
        self._on_event = on_event
        self._on_close = on_close
        self._ws = _Ws(settings)
        self._lock = threading.Lock()
        self._ids = 0
        self._waiting: dict[str, threading.Event] = {}
        self._answers: dict[str, dict[str, Any]] = {}
        self._alive = False
        self._close_reason = ""
        self._thread: threading.Thread | None = None
        self.server_version = ""
        self.last_message_at = 0.0

    def __repr__(self) -> str:
        return f"<ObsClient {self.settings.host}:{self.settings.port} {'up' if self._alive else 'down'}>"

    # -- connection ----------------------------------------------------------------------------
    def connect(self) -> None:
        """Open and identify; raises ObsAuthError / ObsConnectError within ``connect_timeout``."""
        self._ws.connect()
        self.server_version = str(self._ws.server_version or "")
        sock = self._ws.ws.sock
        if sock is None:
            raise ObsConnectError("OBS closed the connection during the handshake")
        sock.settimeout(max(self.settings.timeout, 1.0))  # sends never block for ever
        self._alive = True
        self.last_message_at = time.monotonic()
        self._thread = threading.Thread(target=self._recv_loop, name="obs-recv", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> bool:
        return self._alive

    @property
    def close_reason(self) -> str:
        return self._close_reason

    def close(self, reason: str = "closed by the application") -> None:
        """Drop the link at once (no close handshake: a frozen OBS would make that wait)."""
        self._close_reason = self._close_reason or reason
        was = self._alive
        self._alive = False
        try:
            self._ws.ws.abort()
        except Exception:  # noqa: BLE001 - a socket already gone
            pass
        if was and self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(1.0)
        self._fail_waiting()

    def _fail_waiting(self) -> None:
        with self._lock:
            waiting = list(self._waiting.values())
        for ev in waiting:
            ev.set()

    def _recv_loop(self) -> None:
        ws = self._ws.ws
        reason = "connection closed by OBS"
        try:
            while self._alive:
                sock = ws.sock
                if sock is None:
                    break
                # websocket-client reads exactly one frame's bytes, so select() sees what is left
                ready, _, _ = select.select([sock], [], [], 0.25)
                if not ready:
                    continue
                try:
                    opcode, frame = ws.recv_data_frame(True)
                except websocket.WebSocketTimeoutException:
                    continue
                self.last_message_at = time.monotonic()
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    data = bytes(frame.data or b"")
                    code = int.from_bytes(data[:2], "big") if len(data) >= 2 else 1005
                    reason = f"OBS closed the connection ({code} {data[2:].decode('utf-8', 'replace')})"
                    break
                if opcode not in (websocket.ABNF.OPCODE_TEXT, websocket.ABNF.OPCODE_BINARY):
                    continue
                self._dispatch(frame.data)
        except (OSError, websocket.WebSocketException, ValueError) as exc:
            if self._alive:
                reason = f"connection lost ({type(exc).__name__}: {exc})"
        except Exception:  # noqa: BLE001 - never die silently
            log.exception("OBS receive loop failed")
            reason = "receive loop failed"
        finally:
            was = self._alive
            self._alive = False
            self._close_reason = self._close_reason or reason
            self._fail_waiting()
            try:
                ws.abort()
            except Exception:  # noqa: BLE001
                pass
            if was and self._on_close is not None:
                try:
                    self._on_close(self._close_reason)
                except Exception:  # noqa: BLE001
                    log.exception("on_close handler failed")

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
        elif op == 7:
            rid = str(d.get("requestId"))
            with self._lock:
                ev = self._waiting.get(rid)
                if ev is not None:
                    self._answers[rid] = d
            if ev is not None:
                ev.set()

    # -- requests ------------------------------------------------------------------------------
    def request(
        self, request_type: str, data: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        """Send one request and return its ``responseData``; never waits longer than ``timeout``."""
        if not self._alive:
            raise ObsNotConnected(f"not connected to OBS ({self._close_reason or 'never connected'})")
        # the library's request class validates nothing but gives us its name/data conventions
        req = getattr(obs_requests, request_type)(**(data or {}))
        timeout = self.settings.timeout if timeout is None else timeout
        ev = threading.Event()
        with self._lock:
            self._ids += 1
            rid = f"g{self._ids}"
            self._waiting[rid] = ev
        try:
            payload = {"op": 6, "d": {"requestId": rid, "requestType": req.name, "requestData": req.data()}}
            try:
                self._ws.ws.send(json.dumps(payload, ensure_ascii=False))
            except (OSError, websocket.WebSocketException) as exc:
                self.close(f"send failed: {exc}")
                raise ObsConnectionLost(f"{request_type}: send failed ({exc})") from None
            if not ev.wait(timeout):
                raise ObsTimeout(request_type, timeout)
        finally:
            with self._lock:
                self._waiting.pop(rid, None)
                answer = self._answers.pop(rid, None)
        if answer is None:
            raise ObsConnectionLost(f"{request_type}: {self._close_reason or 'connection lost'}")
        status = answer.get("requestStatus") or {}
        if not status.get("result"):
            raise ObsRequestError(request_type, int(status.get("code", 0)), str(status.get("comment", "")))
        out: dict[str, Any] = answer.get("responseData") or {}
        return out

    def pipeline(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> list[dict[str, Any] | ObsError]:
        """Send every request at once, then collect the answers (OBS runs them on its thread pool).

        Returns, in order, each ``responseData`` or the :class:`ObsError` of that request. Only use
        for requests that do not depend on each other. Waits at most ``timeout`` overall.
        """
        if not calls:
            return []
        if not self._alive:
            raise ObsNotConnected(f"not connected to OBS ({self._close_reason or 'never connected'})")
        timeout = self.settings.timeout if timeout is None else timeout
        pending: list[tuple[str, str, threading.Event]] = []
        with self._lock:
            for rtype, _data in calls:
                self._ids += 1
                rid = f"g{self._ids}"
                ev = threading.Event()
                self._waiting[rid] = ev
                pending.append((rid, rtype, ev))
        out: list[dict[str, Any] | ObsError] = []
        try:
            for (rid, rtype, _ev), (_t, data) in zip(pending, calls, strict=True):
                req = getattr(obs_requests, rtype)(**data)
                msg = {"op": 6, "d": {"requestId": rid, "requestType": req.name, "requestData": req.data()}}
                try:
                    self._ws.ws.send(json.dumps(msg, ensure_ascii=False))
                except (OSError, websocket.WebSocketException) as exc:
                    self.close(f"send failed: {exc}")
                    raise ObsConnectionLost(f"{rtype}: send failed ({exc})") from None
            deadline = time.monotonic() + timeout
            for rid, rtype, ev in pending:
                if not ev.wait(max(0.0, deadline - time.monotonic())):
                    raise ObsTimeout(rtype, timeout)
                with self._lock:
                    answer = self._answers.pop(rid, None)
                if answer is None:
                    raise ObsConnectionLost(f"{rtype}: {self._close_reason or 'connection lost'}")
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
        return out

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
