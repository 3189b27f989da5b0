"""A small dependency-free progress bar on stderr for long exports (off when not a TTY or quiet)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: bool | None = None,
        stream: TextIO | None = None,
        width: int = 30,
        interval: float = 0.1,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.total = max(int(total), 0)
        self.label = label
        self.width = width
        self.interval = interval
        self.done = 0
        self._last = 0.0
        self._t0 = time.monotonic()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= self.interval or self.done >= self.total:
            self._last = now
            self._draw()

    def line(self) -> str:
        total = self.total or 1
        frac = min(self.done / total, 1.0)
        filled = int(round(frac * self.width))
        bar = "█" * filled + "░" * (self.width - filled)
        secs = time.monotonic() - self._t0
        return f"{self.label} {bar} {frac * 100:5.1f}% {self.done}/{self.total} {secs:.1f}s"

    def _draw(self) -> None:
        self.stream.write("\r" + self.line())
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
