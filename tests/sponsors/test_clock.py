"""Air times are Beijing time from the IANA zone Asia/Shanghai (zoneinfo), not a hand-written offset."""

from __future__ import annotations

from datetime import UTC, datetime

from broadcast.clock import STUDIO_TZ, air_start
from broadcast.sponsors.report import beijing


def test_the_studio_zone_is_asia_shanghai() -> None:
    assert str(STUDIO_TZ) == "Asia/Shanghai"
    assert datetime(2012, 5, 7, 21, 35, tzinfo=STUDIO_TZ).utcoffset().total_seconds() == 8 * 3600  # type: ignore[union-attr]


def test_air_start_and_report_times_are_beijing_time() -> None:
    t0 = air_start("2012-05-07")  # 21:35 in Linyi is 13:35 UTC
    assert t0 == datetime(2012, 5, 7, 13, 35, tzinfo=UTC).timestamp()
    assert beijing(t0) == "21:35:00" and beijing(t0, "%Y-%m-%d") == "2012-05-07"
    assert beijing(datetime(2012, 5, 7, 16, 30, tzinfo=UTC).timestamp(), "%m-%d %H:%M") == "05-08 00:30"
