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
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from broadcast.core import ActionRefused

log = logging.getLogger(__name__)


class StoreBridge(QObject):
    changed = Signal(object)  # Change
    finished = Signal(int, object)  # ticket, Change
    refused = Signal(int, object)  # ticket, ActionRefused
    returned = Signal(int, object)  # ticket, value
    failed = Signal(int, object)  # ticket, Exception

    def __init__(self, store: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._tickets = itertools.count(1)
        self._unsubscribe: Callable[[], None] | None = store.subscribe(self._on_change, name="console")
        self._closed = False

    # -- from the store's thread ------------------------------------------------------------------
    def _on_change(self, change: Any) -> None:
        self.changed.emit(change)

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
    ) -> int:
        """Dispatch on the store thread; the answer is ``finished`` or ``refused`` with the ticket."""
        ticket = self.ticket() if ticket is None else ticket
        if self._closed:
            return ticket
        fut = self._executor.submit(self.store.dispatch, type_, dict(payload or {}), source=source)
        fut.add_done_callback(lambda f: self._dispatched(ticket, f))
        return ticket

    def _dispatched(self, ticket: int, fut: Future[Any]) -> None:
        exc = fut.exception()
        if exc is None:
            self.finished.emit(ticket, fut.result())
        elif isinstance(exc, ActionRefused):
            self.refused.emit(ticket, exc)
        else:  # a bug or a broken disk: the action is not applied; say so, keep the show going
            log.error("dispatch failed: %s", exc, exc_info=exc)
            self.refused.emit(ticket, ActionRefused("error", f"操作失败：{exc}", f"failed: {exc}"))

    def call(self, fn: Callable[..., Any], *args: Any, ticket: int | None = None, **kw: Any) -> int:
        """Run ``fn(*args, **kw)`` on the store thread (season reads/writes, saving a game …); the
        answer is ``returned`` or ``failed`` with the ticket."""
        ticket = self.ticket() if ticket is None else ticket
        if self._closed:
            return ticket
        fut = self._executor.submit(fn, *args, **kw)
        fut.add_done_callback(lambda f: self._called(ticket, f))
        return ticket

    def _called(self, ticket: int, fut: Future[Any]) -> None:
        exc = fut.exception()
        if exc is None:
            self.returned.emit(ticket, fut.result())
        else:
            if not isinstance(exc, ActionRefused | ValueError):
                log.error("store-thread call failed: %s", exc, exc_info=exc)
            self.failed.emit(ticket, exc)

    def connect_queued(self, signal_name: str, slot: Callable[..., Any]) -> None:
        """Connect a Qt-thread slot to one of the bridge's signals, always queued to the receiver."""
        getattr(self, signal_name).connect(slot, Qt.ConnectionType.QueuedConnection)

    def drain(self, timeout: float = 10.0) -> None:
        """Wait until every call submitted so far has run (tests, shutdown)."""
        self._executor.submit(lambda: None).result(timeout)

    def close(self) -> None:
        """Finish the queued work, then stop listening (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._executor.shutdown(wait=True)
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
