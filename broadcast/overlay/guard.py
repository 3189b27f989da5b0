"""The overlay server's guard: who may ask, and which files may be served.

With a token, every request except ``/healthz`` must carry it (query ``token=``, the ``overlay_token``
cookie the first page load sets, or ``Authorization: Bearer``); every request must name the server by
an IP address or ``localhost`` (``Host``; a DNS name could be an attacker's pointed at this machine) and,
when it carries an ``Origin``, come from the server's own origin, and cross-site fetches are refused —
so a web page open in a browser on the studio machine can neither read the state nor open the
WebSocket; files are served only from inside their roots (``..``, absolute paths, symlinks leading out
and hidden files are refused); a Content-Security-Policy forbids inline scripts.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import unquote

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

COOKIE = "overlay_token"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'"
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


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


def host_ok(host: str, port: int) -> bool:
    """The Host header names this server: an IP address or ``localhost``, with the server's port
    (a DNS name could be an attacker's, pointed at this machine: DNS rebinding)."""
    name, _, given = host.rpartition(":")
    if not name:
        name, given = host, "80"
    if given != str(port):
        return False
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def printable(text: str, limit: int = 80) -> str:
    """A header's value fit to quote in an answer or a log line: bytes that were not UTF-8 (surrogates
    here) and control characters as ``\\xNN``/``\\uNNNN``, at most ``limit`` characters."""
    out = "".join(
        ch if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF else repr(ch)[1:-1] for ch in text
    )
    return out if len(out) <= limit else out[: limit - 1] + "…"


def foreign(request: web.Request, port: int) -> str:
    """Why a request does not come from this server's own pages (or OBS, or a local tool): a ``Host``
    that is not this server, an ``Origin`` of another site, a cross-site fetch. ``""`` when it is
    fine."""
    host = request.headers.get("Host")
    if host is not None and not host_ok(host, port):
        host = printable(host)
        return f"主机名 {host} 不是本服务器，请用 IP 地址 / host {host} is not this server: use its IP"
    origin = request.headers.get("Origin")
    if origin is not None and (host is None or origin != f"http://{host}"):
        origin = printable(origin)
        return f"不接受来自 {origin} 的页面的请求 / requests from pages of {origin} are refused"
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return f"不接受跨站请求（{printable(site)}）/ cross-site requests are refused"
    return ""


def token_ok(request: web.Request, token: str | None) -> bool:
    """The request carries ``token`` (query, cookie or bearer header); always true without one."""
    if not token:
        return True
    given = request.query.get("token") or request.cookies.get(COOKIE) or ""
    auth = request.headers.get("Authorization", "")
    if not given and auth.lower().startswith("bearer "):
        given = auth[7:].strip()
    return same(given, token)


def same(given: str, token: str) -> bool:
    """``given`` is ``token`` (in constant time). A header's bytes that are not UTF-8 reach here as
    surrogates: they are compared as the bytes they were, never an exception (a 500)."""
    return hmac.compare_digest(
        given.encode("utf-8", "surrogateescape"), token.encode("utf-8", "surrogateescape")
    )


def climbs(raw_path: str) -> bool:
    """The raw path has a ``..`` segment, or a ``/`` or ``\\`` hidden in a %-encoded segment."""
    raw = raw_path.split("?", 1)[0]
    segments = [unquote(seg) for seg in raw.split("/")]
    return any(seg == ".." or "/" in seg or "\\" in seg for seg in segments)


def secure_headers(request: web.Request, resp: web.StreamResponse, token: str | None) -> None:
    """The headers every answer but a WebSocket carries (and the token cookie on a page load)."""
    if isinstance(resp, web.WebSocketResponse):
        return
    resp.headers.setdefault("Content-Security-Policy", CSP)
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    if token and request.query.get("token") and not resp.prepared:
        resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")


_TOKEN_IN_TEXT = re.compile(r"(token=|[Bb]earer\s+|overlay_token=)[^\s&;'\"\\]+")
# aiohttp's own loggers: a malformed request line is logged with the raw line (and its token)
AIOHTTP_LOGGERS = ("aiohttp.server", "aiohttp.access", "aiohttp.web", "aiohttp.internal", "aiohttp.websocket")


class Redact(logging.Filter):
    """Takes the server's token out of every record of a logger, its exception's text included (the
    record keeps its level and logger; the token and any ``token=…``/``Bearer …`` value read ``***``)."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def redact(self, text: str) -> str:
        if self.token:
            text = text.replace(self.token, "***")
        return _TOKEN_IN_TEXT.sub(lambda m: m.group(1) + "***", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        trace = None
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            if isinstance(exc, HttpProcessingError):  # a client's malformed request: one line, no trace
                message += f" ({type(exc).__name__}: {' '.join(str(exc).split())})"
            else:  # a fault of the server: its traceback kept, without the token
                trace = "".join(traceback.format_exception(exc)).rstrip()
            record.exc_info = None
        record.msg, record.args = self.redact(message), ()
        record.exc_text = self.redact(trace) if trace else None
        return True


def redact_logs(token: str | None) -> Callable[[], None]:
    """Put a :class:`Redact` on aiohttp's loggers for as long as the server runs; returns its undo."""
    flt = Redact(token)
    loggers = [logging.getLogger(name) for name in AIOHTTP_LOGGERS]
    for lg in loggers:
        lg.addFilter(flt)

    def undo() -> None:
        for lg in loggers:
            lg.removeFilter(flt)

    return undo
