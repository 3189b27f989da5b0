"""The pages' state protocol, apart from the server that carries it (no aiohttp here).

Over ``/ws?bus=program&token=…`` (JSON text frames):

* server → page ``{"type": "snapshot", "seq": n, "state": {…}}`` once on connect (and again if the
  page fell behind), then ``{"type": "patch", "seq": n, "set": {section: value, …}}`` for every applied
  action, carrying the whole of each top-level section that changed (``meta`` always). Pages replace
  those sections. ``{"type": "hb"}`` every few seconds so a page can tell a dead link from a quiet show.
* page → server ``{"type": "ack", "seq": n}`` for every snapshot or patch it has applied, when it
  connected with ``ack=1`` (the pages' ``client.js`` does): the server then keeps at most
  ``ACK_WINDOW`` messages unacknowledged on the way to that page, and what changes meanwhile is
  coalesced into the next one — a page that is slow to read (a loaded machine, a busy browser) is sent
  the latest state when it is ready for it, not a backlog of stale ones queued in its socket. A page
  that stops acknowledging is sent its messages after ``ACK_WAIT`` seconds anyway.
* page → server ``{"type": "rendered", "seq": n}`` from inside the ``requestAnimationFrame`` that put
  state ``n`` on screen, when the page was opened with ``echo=1`` (tests and the latency benchmark) or
  runs inside OBS's browser source (``window.obsstudio`` exists: the page connects with ``obs=1`` and
  its echoes are the as-run log's evidence of what OBS painted, ``Rendered.inside_obs``).
* page → server ``{"type": "resync"}``: send me the whole state again.

:class:`Feed` holds what the pages may see and decides what each :class:`Page` is sent next. The
store's listener (any thread) only merges a change into the one pending hand-over (:meth:`Feed.offer`:
latest state, union of the changed sections); the server's loop takes it (:meth:`Feed.take`) and
applies it to every page (:meth:`Feed.apply`) — a burst of changes reaches the loop as one. Updates are
coalesced per page too: each page has the set of sections changed since its last message and is sent
one patch of their *current* values whenever its socket can take it (:meth:`Feed.next_frame`). A
message is serialised and encoded once, whatever the number of pages it goes to.

Pages receive only what they render: a section whose schema says ``"x-pages": false`` (the game's
record and the dealt hands) never leaves the process, not in a snapshot, a patch or ``/state.json``.

A page's messages are not trusted: anything that is not one of the messages above (bad JSON, nesting
deeper than :data:`MAX_DEPTH`, a state number that is not an integer) is ignored and counted as
refused, never an exception.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_PORT = 8610  # the overlay server's (here so that a command can name it without loading aiohttp)
ACK_WINDOW = 1  # messages on the way to a page that acknowledges (ack=1): the next one waits
ACK_WAIT = 3.0  # seconds a message waits for an acknowledgement at most (a page that stopped acking)
HEARTBEAT = b'{"type":"hb"}'
MAX_DEPTH = 32  # a page's message nested deeper than this is refused before it is parsed


@dataclass(frozen=True)
class Rendered:
    """A page's echo: state ``seq`` reached the screen (from inside requestAnimationFrame)."""

    seq: int
    bus: str
    client: int
    received: float  # time.perf_counter() when the echo reached the server
    page_arrived: float = 0.0  # page clock, seconds since the epoch: the state reached the page
    page_frame: float = 0.0  # page clock: the requestAnimationFrame callback that rendered it began
    page_sent: float = 0.0  # page clock: the echo was sent (end of that callback)
    inside_obs: bool = False  # the page runs in OBS's browser source (window.obsstudio)


class Page:
    """One page's place in the protocol: what it has not been sent yet (coalesced), woken by every
    change. (The server's WebSocket client is a :class:`Page` with its socket.)"""

    def __init__(self, cid: int, bus: str, echo: bool, peer: str, inside_obs: bool = False) -> None:
        self.inside_obs = inside_obs
        self.id = cid
        self.bus = bus
        self.echo = echo
        self.peer = peer
        self.pending: set[str] = set()  # sections changed since the last message sent
        self.snapshot = False  # the next message is the whole state
        self.hb = False  # a heartbeat is due
        self.wake = asyncio.Event()
        self.last_sent = 0.0
        self.sending_since = 0.0  # loop time a send began waiting for the socket (0: not waiting)
        self.acks = False  # the page acknowledges what it applied (ack=1): flow control
        self.unacked = 0  # snapshots and patches sent and not acknowledged yet

    @property
    def held(self) -> bool:
        """Waiting for the page's acknowledgement before anything more is sent."""
        return self.acks and self.unacked >= ACK_WINDOW


def _number(value: Any) -> float:
    """A finite number from a page's message, else 0.0 (never an exception: the page is not trusted)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    f = float(value)
    return f if f == f and abs(f) != float("inf") else 0.0


def nesting(text: str | bytes, limit: int) -> bool:
    """Whether JSON ``text`` nests brackets deeper than ``limit`` (counted outside strings, without
    parsing: the check costs one pass and no memory, so a hostile message never reaches the parser's
    recursion)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def private_sections(store: Any) -> frozenset[str]:
    """The sections a store's schema keeps from the pages (``"x-pages": false``)."""
    schema = getattr(store, "schema", None)
    props = getattr(schema, "schema", {}).get("properties", {}) if schema is not None else {}
    return frozenset(k for k, sub in props.items() if isinstance(sub, dict) and sub.get("x-pages") is False)


class Feed:
    """What the pages may see (private sections left out), as snapshots and patches, and the pages'
    messages back. ``updates="full"`` sends a snapshot for every change (a comparison baseline)."""

    def __init__(self, private: frozenset[str], stats: dict[str, int], updates: str = "sections") -> None:
        if updates not in ("sections", "full"):
            raise ValueError("updates must be 'sections' (patches of the changed sections) or 'full'")
        self.updates = updates
        self.private = private
        self.stats = stats
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.rendered_listeners: list[Callable[[Rendered], None]] = []
        self._snapshot_text = ""
        self._snapshot_bytes = b""
        self._section_text: dict[str, str] = {}  # serialised once per change of the section
        self._patch_bytes: dict[frozenset[str], bytes] = {}  # this seq's patches, encoded once each
        self._incoming: tuple[dict[str, Any], set[str] | None] | None = None  # merged, not yet applied
        self._incoming_lock = threading.Lock()

    # -- store → loop ----------------------------------------------------------------------------
    def offer(self, state: dict[str, Any], changed: frozenset[str] | None) -> bool:
        """Merge a new state into the pending hand-over (any thread; ``None`` = everything changed).
        True when the loop must be woken (once per hand-over)."""
        with self._incoming_lock:
            pending = self._incoming
            if pending is None:
                self._incoming = (state, None if changed is None else set(changed))
                return True
            before = pending[1]
            union = None if before is None or changed is None else before | changed
            self._incoming = (state, union)
            self.stats["merged"] += 1
            return False

    def take(self) -> tuple[dict[str, Any], frozenset[str] | None] | None:
        """The pending hand-over, if any (the loop's side of :meth:`offer`)."""
        with self._incoming_lock:
            pending, self._incoming = self._incoming, None
        if pending is None:
            return None
        state, changed = pending
        return state, None if changed is None else frozenset(changed)

    def apply(self, state: dict[str, Any], changed: frozenset[str] | None, pages: list[Page]) -> None:
        """Make ``state`` what the pages see, and mark on each page what it must be sent."""
        seq = int(state.get("meta", {}).get("seq", 0))
        if seq < self.seq or (seq == self.seq and changed is None):
            return
        public = {k: v for k, v in state.items() if k not in self.private} if self.private else state
        self.state = public
        self.seq = seq
        self._snapshot_text = ""
        self._snapshot_bytes = b""
        self._patch_bytes.clear()
        self.stats["changes"] += 1
        full = changed is None or self.updates == "full"
        if full:
            self._section_text.clear()
            sections: set[str] = set()
        else:
            assert changed is not None
            sections = {k for k in changed if k in public} | {"meta"}
            for k in sections:
                self._section_text.pop(k, None)
        for page in pages:
            if full:
                page.snapshot = True
            else:
                if page.pending or page.wake.is_set():
                    self.stats["coalesced"] += 1
                page.pending |= sections
                if page.held:  # its ack wakes the writer: no wake-up per change meanwhile
                    continue
            page.wake.set()

    # -- what goes on the wire -------------------------------------------------------------------
    def snapshot(self) -> str:
        if not self._snapshot_text:
            self._snapshot_text = json.dumps(
                {"type": "snapshot", "seq": self.seq, "state": self.state},
                ensure_ascii=False,
                separators=(",", ":"),
            )
        return self._snapshot_text

    def snapshot_frame(self) -> bytes:
        if not self._snapshot_bytes:
            self._snapshot_bytes = self.snapshot().encode("utf-8")
        return self._snapshot_bytes

    def patch_frame(self, sections: set[str]) -> bytes:
        """The patch of ``sections`` as it goes on the wire, built once per set of sections and state:
        the pages woken by the same changes share one serialisation and one encoding."""
        key = frozenset(sections)
        data = self._patch_bytes.get(key)
        if data is None:
            data = self._patch_bytes[key] = self.patch(sections).encode("utf-8")
        return data

    def patch(self, sections: set[str]) -> str:
        """One patch of the current value of ``sections`` (each serialised once per change)."""
        parts = []
        for k in sorted(sections | {"meta"}):
            if k not in self.state:
                continue
            text = self._section_text.get(k)
            if text is None:
                text = self._section_text[k] = json.dumps(
                    self.state[k], ensure_ascii=False, separators=(",", ":")
                )
            parts.append(f"{json.dumps(k)}:{text}")
        return f'{{"type":"patch","seq":{self.seq},"set":{{{",".join(parts)}}}}}'

    def next_frame(self, page: Page) -> bytes | None:
        """What ``page`` is sent now (a snapshot, one patch of what changed, a heartbeat) or ``None``
        (nothing due, or the page has not acknowledged what it was sent)."""
        if page.held:
            # the page has not taken what it was sent: its ack (or the heartbeat's sweep after
            # ACK_WAIT) wakes the writer again; changes meanwhile coalesce
            return None
        if page.snapshot:
            page.snapshot, page.hb = False, False
            page.pending.clear()
            self.stats["snapshots"] += 1
            page.unacked += 1
            return self.snapshot_frame()
        if page.pending:
            data = self.patch_frame(page.pending)
            page.pending = set()
            page.hb = False
            self.stats["patches"] += 1
            page.unacked += 1
            return data
        if page.hb:
            page.hb = False
            return HEARTBEAT
        return None

    # -- page → server ---------------------------------------------------------------------------
    def from_page(self, page: Page, data: str) -> None:
        """A page's message: an acknowledgement, a rendered echo, a resync request; anything else is
        ignored (counted as refused when it is not even a message)."""
        now = time.perf_counter()
        if nesting(data, MAX_DEPTH):  # never handed to the parser (its recursion: a traceback)
            self.stats["refused"] += 1
            return
        try:
            msg = json.loads(data)
        except (ValueError, RecursionError):
            return
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "ack":
            if page.unacked:
                page.unacked -= 1
            if page.pending or page.snapshot:
                page.wake.set()
        elif kind == "rendered" and page.echo:
            seq = msg.get("seq")
            if isinstance(seq, bool) or not isinstance(seq, int):
                self.stats["refused"] += 1  # "abc", 1e999, [1]: not a state number; ignored
                return
            arrived = _number(msg.get("arrived", 0)) / 1000.0
            frame = _number(msg.get("frame", 0)) / 1000.0
            sent = _number(msg.get("sent", 0)) / 1000.0
            event = Rendered(seq, page.bus, page.id, now, arrived, frame, sent, page.inside_obs)
            for fn in list(self.rendered_listeners):
                try:
                    fn(event)
                except Exception:
                    log.exception("rendered listener failed")
        elif kind == "resync":
            page.snapshot = True
            page.wake.set()
