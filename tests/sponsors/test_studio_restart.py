"""A studio killed mid-show (kill -9: no clean stop, no ``obs_down``) and started again: nothing is credited
between the last row of evidence its bridge wrote and the new bridge's confirmation (the outage is listed,
cause ``restarted``), and what was on air when it died is not credited on past the restart."""

from __future__ import annotations

from pathlib import Path

from broadcast.core.airlog import (
    GRAPHIC_OFF,
    GRAPHIC_ON,
    OBS_DOWN,
    OBS_UP,
    PROGRAM_SCENE,
    AirEvent,
)
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements
from tests.sponsors.conftest import DEMO_YAML

EP = "第11期"
T0 = 1_336_400_000.0


def test_a_studio_killed_mid_show_credits_nothing_it_did_not_see(tmp_path: Path) -> None:
    log = AsRunLog.open(tmp_path / "studio.sqlite")

    def obs(t: float, kind: str, subject: str, **detail: object) -> None:
        log.record(AirEvent(T0 + t, kind, subject, "obs", EP, dict(detail)))

    log.begin_episode(EP, T0)
    obs(0.0, OBS_DOWN, "provisioning", since=T0)
    obs(1.0, OBS_UP, "29.0.2")
    obs(1.0, PROGRAM_SCENE, "够级·比赛")
    obs(1.0, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    obs(10.0, PROGRAM_SCENE, "够级·垫片")
    obs(10.0, GRAPHIC_ON, "bumper", item="special")
    # kill -9 at 12 s: no row. The studio is started again; its bridge confirms OBS at 42 s, where OBS
    # still shows the game scene's corner bug (the bumper ended while nobody looked)
    obs(40.0, OBS_DOWN, "provisioning", since=T0 + 40.0)
    obs(42.0, OBS_UP, "29.0.2")
    obs(42.0, PROGRAM_SCENE, "够级·比赛")
    obs(42.0, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    obs(60.0, GRAPHIC_OFF, "corner_bug", item="yiheyuan")
    obs(60.0, OBS_DOWN, "stopped", since=T0 + 60.0)
    log.end_episode(T0 + 60.0)
    info = log.episode(EP)
    x = compute(load_placements(DEMO_YAML), EP, log.events(EP), info=info, link_at_start=log.link_before(T0))
    log.close()
    assert [(o.start - T0, o.end - T0, o.cause) for o in x.outages] == [
        (0.0, 1.0, "provisioning"),
        (10.0, 42.0, "restarted"),
    ], x.outages
    assert x.outages[1].cause_en.startswith("the studio restarted")
    cov = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
    assert "角标在屏 27 秒" in cov.note, cov.note  # 1–10 s and 42–60 s: not the 30 s nobody saw
    bumper = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "标版" in m.what)
    assert bumper.delivered == 0, bumper  # seen going on at the last row, then never again: not aired whole


def test_airings_after_an_episode_s_end_are_not_credited_and_the_report_says_there_are_some(
    tmp_path: Path,
) -> None:
    """A studio started again on an episode it had ended cleanly, under the same name (a second `run` on
    one database): what OBS then confirms lies past the episode's end — not credited, and said."""
    log = AsRunLog.open(tmp_path / "studio.sqlite")

    def obs(t: float, kind: str, subject: str, **detail: object) -> None:
        log.record(AirEvent(T0 + t, kind, subject, "obs", EP, dict(detail)))

    log.begin_episode(EP, T0)
    obs(0.0, OBS_UP, "29.0.2")
    obs(0.0, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    obs(30.0, GRAPHIC_OFF, "corner_bug", item="yiheyuan")
    obs(30.0, OBS_DOWN, "stopped", since=T0 + 30.0)
    log.end_episode(T0 + 30.0)
    obs(100.0, OBS_DOWN, "provisioning", since=T0 + 100.0)
    obs(101.0, OBS_UP, "29.0.2")
    obs(101.0, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    obs(101.0, GRAPHIC_ON, "bumper", item="title")
    info = log.episode(EP)
    x = compute(load_placements(DEMO_YAML), EP, log.events(EP), info=info, link_at_start=None)
    log.close()
    assert "本期结束后另有 2 次 OBS 确认的上屏/播片（01:41 起），不计入本期" in "；".join(x.flags), x.flags
    cov = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
    assert "角标在屏 30 秒" in cov.note, cov.note
