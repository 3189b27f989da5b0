"""The console's only door to the store: its work runs on one worker thread, results come back by signal.

Widgets never call ``store.dispatch`` (a SQLite write) or any season/OBS work on the Qt thread. They
ask the bridge, which runs the call on its single "store" thread (so actions keep their order) and
answers by signal on the Qt thread:

* ``changed(Change)`` for every change of the show state, whoever made it (the console, the overlay
  API, a season save) — a store listener that only emits the signal (queued to the Qt thread);
* ``finished(ticket, Change)`` / ``refused(ticket, ActionRefused)`` for the console's own dispatches;
* ``returned(ticket, value)`` / ``failed(ticket, exception)`` for other work (:meth:`call`).

``changed`` for an action always arrives before its ``finished``: the listener runs inside dispatch.
Receivers on the Qt thread connect with ``Qt.QueuedConnection`` (:meth:`connect_queued`): the signals
are emitted on the store thread.

A database another program holds locked (a backup tool, a second window on the same file) never loses
work: a call refused because the file is locked is tried again, in order, until the file is free (SQLite
itself waits its busy timeout between tries); the calls behind it wait their turn. :attr:`waiting`
counts the calls not yet done and :meth:`busy_for` says for how long the database has kept the worker
waiting, so the window can say so.

The Qt thread's redraws hold Python's interpreter lock for milliseconds at a time, while the store
thread (after each SQLite or file call) and the overlay server's thread (woken for a page's patch) wait
for it. A process with a bridge lets a waiting thread in after :data:`SWITCH_INTERVAL_S` instead of
Python's 5 ms (``sys.setswitchinterval``; issue 25: a decision's way from the key to the page crossed
that wait several times). Qt's own C++ work (a list's relayout, a redraw) holds the lock throughout,
switch interval or not; so a decision the operator sends is given a head start
(``dispatch(head_start=…)``): the Qt thread waits — at most that long, a few milliseconds — until the
store has committed it, handed it to the pages (whose thread sends it while the journal syncs) and
synced it, and only then redraws.
"""

from __future__ import annotations

import itertools
import logging
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from broadcast.core import ActionRefused
from broadcast.errors import GoujiError

log = logging.getLogger(__name__)

SWITCH_INTERVAL_S = 0.0005  # the longest a thread waits for the interpreter while the Qt thread redraws


class StoreBridge(QObject):
    changed = Signal(object)  # Change
    finished = Signal(int, object)  # ticket, Change
    refused = Signal(int, object)  # ticket, ActionRefused
    returned = Signal(int, object)  # ticket, value
    failed = Signal(int, object)  # ticket, Exception

    def __init__(self, store: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        if sys.getswitchinterval() > SWITCH_INTERVAL_S:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._tickets = itertools.count(1)
        self._unsubscribe: Callable[[], None] | None = store.subscribe(self._on_change, name="console")
        self._taken = threading.Event()  # the store thread has journaled (or refused) what it was given
        self._store_thread = 0  # its ident (the listener tells its own actions from other threads')
        self._closed = False
        self._abandon = False
        self._count = threading.Lock()
        self.waiting = 0  # calls submitted and not yet done (the one running included)
        self._since: float | None = None  # when the call running now started
        self.locked_since: float | None = None  # the first refusal of the file as locked, while it lasts

    # -- from the store's thread ------------------------------------------------------------------
    def _on_change(self, change: Any) -> None:
        self.changed.emit(change)
        if threading.get_ident() == self._store_thread:  # synced, and the pages have had it meanwhile
            self._taken.set()

    # -- from the Qt thread --------------------------------------------------------------------------
    def ticket(self) -> int:
        """A fresh ticket, to register what to do with the answer before asking (see dispatch/call)."""
        return next(self._tickets)

    def dispatch(
        self,
        type_: str,
        payload: dict[str, Any] | None = None,
        *,
        source: str = "console",
        ticket: int | None = None,
        head_start: float = 0.0,
    ) -> int:
        """Dispatch on the store thread; the answer is ``finished`` or ``refused`` with the ticket.
        ``head_start`` (seconds): wait at most that long for the store to commit it (see above)."""
        ticket = self.ticket() if ticket is None else ticket
        if self._closed:
            return ticket
        self._taken.clear()
        fut = self._submit(self.store.dispatch, type_, dict(payload or {}), source=source)
        fut.add_done_callback(lambda f: self._dispatched(ticket, f))
        if head_start > 0:
            # the interpreter left to the store thread and the pages' until the action is on its way
            # to air and synced, or refused, or head_start has passed (a locked database, a slow disk)
            self._taken.wait(head_start)
        return ticket

    # -- patience with a locked file ------------------------------------------------------------------
    def _submit(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Future[Any]:
        with self._count:
            self.waiting += 1
        return self._executor.submit(self._patient, fn, *args, **kw)

    def _patient(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``fn`` on the store thread, tried again for as long as the file is locked (nothing queued
        behind it runs first, so the order of the operator's decisions is kept)."""
        from broadcast.core.db import StorageError

        self._since = time.monotonic()
        self._store_thread = threading.get_ident()
        try:
            while True:
                try:
                    value = fn(*args, **kw)
                except StorageError as exc:
                    if exc.kind != "locked" or self._closed and self._abandon:
                        raise
                    if self.locked_since is None:
                        self.locked_since = time.monotonic()
                        log.warning("database locked by another program: waiting (%s)", exc.path)
                    time.sleep(0.05)
                    continue
                self.locked_since = None
                return value
        finally:
            self._taken.set()  # done, refused or failed: nothing more to wait for
            self._since = None
            with self._count:
                self.waiting -= 1

    def busy_for(self) -> float:
        """Seconds the database has kept the store thread waiting (0 when it is not): the file locked
        by another program, or one call that has run for more than a second."""
        now = time.monotonic()
        if self.locked_since is not None:
            return now - self.locked_since
        since = self._since
        return now - since if since is not None and now - since > 1.0 else 0.0

    def _dispatched(self, ticket: int, fut: Future[Any]) -> None:
        exc = fut.exception()
        if exc is None:
            self.finished.emit(ticket, fut.result())
        elif isinstance(exc, ActionRefused):
            self.refused.emit(ticket, exc)
        elif isinstance(exc, GoujiError):  # a full or read-only disk: one line, the show goes on
            log.warning("dispatch refused: %s", exc)
            self.refused.emit(ticket, ActionRefused(exc.rule, exc.zh, exc.en))
        else:  # a bug: the action is not applied; say so, keep the show going
            log.error("dispatch failed: %s", exc, exc_info=exc)
            self.refused.emit(ticket, ActionRefused("error", f"操作失败：{exc}", f"failed: {exc}"))

    def call(self, fn: Callable[..., Any], *args: Any, ticket: int | None = None, **kw: Any) -> int:
        """Run ``fn(*args, **kw)`` on the store thread (season reads/writes, saving a game …); the
        answer is ``returned`` or ``failed`` with the ticket."""
        ticket = self.ticket() if ticket is None else ticket
        if self._closed:
            return ticket
        fut = self._submit(fn, *args, **kw)
        fut.add_done_callback(lambda f: self._called(ticket, f))
        return ticket

    def _called(self, ticket: int, fut: Future[Any]) -> None:
        exc = fut.exception()
        if exc is None:
            self.returned.emit(ticket, fut.result())
        else:
            if isinstance(exc, GoujiError):
                log.warning("store-thread call refused: %s", exc)
            elif not isinstance(exc, ActionRefused | ValueError):
                log.error("store-thread call failed: %s", exc, exc_info=exc)
            self.failed.emit(ticket, exc)

    def connect_queued(self, signal_name: str, slot: Callable[..., Any]) -> None:
        """Connect a Qt-thread slot to one of the bridge's signals, always queued to the receiver."""
        getattr(self, signal_name).connect(slot, Qt.ConnectionType.QueuedConnection)

    def drain(self, timeout: float = 10.0) -> None:
        """Wait until every call submitted so far has run (tests, shutdown)."""
        self._executor.submit(lambda: None).result(timeout)

    def close(self, *, abandon: bool = False) -> None:
        """Finish the queued work, then stop listening (idempotent). Work waiting for a locked file
        is finished too (nothing the operator typed is dropped) unless ``abandon``."""
        if self._closed:
            return
        self._abandon = abandon
        self._closed = True
        self._executor.shutdown(wait=True)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
