"""The worker's timers: small jobs due at a monotonic time, run on the bridge's worker thread."""

from __future__ import annotations

import heapq
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from broadcast.obs.errors import ObsError

__all__ = ["Timers"]

log = logging.getLogger(__name__)


@dataclass(order=True)
class _Timer:
    due: float
    seq: int
    fn: Callable[[], None] = field(compare=False)


class Timers:
    def __init__(self) -> None:
        self._heap: list[_Timer] = []
        self._seq = itertools.count()

    def __bool__(self) -> bool:
        return bool(self._heap)

    def after(self, seconds: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._heap, _Timer(time.monotonic() + seconds, next(self._seq), fn))

    def clear(self) -> None:
        self._heap = []

    def wait(self, longest: float) -> float:
        """How long the worker may wait for work before the next timer is due."""
        if not self._heap:
            return longest
        return max(0.0, min(longest, self._heap[0].due - time.monotonic()))

    def run_due(self) -> None:
        now = time.monotonic()
        while self._heap and self._heap[0].due <= now:
            t = heapq.heappop(self._heap)
            try:
                t.fn()
            except ObsError as exc:
                log.warning("OBS timer task failed: %s", exc)
