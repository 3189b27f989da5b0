"""The studio's wall clock: air dates and as-run times are Beijing time; a rehearsal's clock is set by
its script.

The zone is the IANA ``Asia/Shanghai`` from :mod:`zoneinfo` (the system's tz database, or the ``tzdata``
package where the system has none), not a hand-written UTC+8 offset.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

STUDIO_TZ = ZoneInfo("Asia/Shanghai")


def air_start(air_date: str, hhmm: str = "21:35") -> float:
    """The moment an episode of ``air_date`` (YYYY-MM-DD) goes on air, Beijing time, as epoch seconds."""
    day = datetime.strptime(f"{air_date} {hhmm}", "%Y-%m-%d %H:%M").replace(tzinfo=STUDIO_TZ)
    return day.timestamp()


class ScriptClock:
    """A settable clock for the store and the recorder (rehearsals, tests)."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
