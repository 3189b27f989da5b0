"""The cut's watcher: when OBS really switched program, as an independent poller of OBS would see it.

OBS switches program at once, then may spend seconds in its UI (the scene's source list) before its
event and its answer to ``SetCurrentProgramScene`` go out. :class:`ProgramWatch` polls
``GetCurrentProgramScene`` on a quiet session of its own while a cut is under way and keeps the time
OBS first reported the new scene.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsError

__all__ = ["ProgramWatch"]


class ProgramWatch:
    """Polls ``GetCurrentProgramScene`` on a session of its own while a cut is under way, and keeps the
    time OBS first reported the new scene (what an independent poller of OBS sees). When the cut's
    answer does not come in time, :meth:`detach` lets it go on watching and report the switch later
    (OBS does switch, and its UI answers seconds later on a busy machine)."""

    POLL = 0.02
    DETACHED_FOR = 120.0  # seconds a detached watch keeps looking

    def __init__(self, watcher: ObsClient | None, scene: str) -> None:
        self.scene = scene
        self.seen = 0.0
        self._done = threading.Event()
        self._watcher = watcher
        self._report: Callable[[str, float], None] | None = None
        self._over = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        if watcher is not None and watcher.connected:
            self._thread = threading.Thread(target=self._run, name="obs-program-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self._watcher is not None
        deadline = time.monotonic() + self.DETACHED_FOR
        seen = 0.0
        while time.monotonic() < deadline and not seen:
            try:
                out, at = self._watcher.request_timed("GetCurrentProgramScene", timeout=2.0)
            except ObsError:
                break
            if out.get("currentProgramSceneName") == self.scene:
                seen = at
            elif self._done.wait(self.POLL):
                break
        with self._lock:
            self.seen, self._over = seen, True
            report = self._report
        if report is not None:
            report(self.scene, seen)  # 0.0: never seen (the worker may cut again)

    def detach(self, report: Callable[[str, float], None]) -> None:
        """Keep watching after the worker gave up waiting; ``report(scene, when)`` once OBS shows it
        (``when`` 0.0: it never did)."""
        with self._lock:
            over = self._over or self._thread is None
            if not over:
                self._report = report
        if over:
            report(self.scene, self.seen)

    def result(self) -> float:
        """Stop watching (one more look is allowed after the cut's answer) and say when it was seen."""
        if self._thread is not None:  # never holds the worker long: a watcher still asking is let go
            self._thread.join(0.1)
            self._done.set()
            self._thread.join(0.1)
        return self.seen
