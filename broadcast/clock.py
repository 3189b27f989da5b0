"""The studio's wall clock: air dates and as-run times are Beijing time.

The zone is the IANA ``Asia/Shanghai`` from :mod:`zoneinfo` (the system's tz database, or the ``tzdata``
package where the system has none), not a hand-written UTC+8 offset.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

STUDIO_TZ = ZoneInfo("Asia/Shanghai")
