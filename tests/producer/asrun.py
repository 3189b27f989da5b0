"""A season's as-run log written as OBS would have confirmed it: two full episodes and one short one
(the 冠名 film cut, only three 口播 and an OBS outage), for the season-delivery view and export."""

from __future__ import annotations

from pathlib import Path

from broadcast.core.airlog import (
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    OBS_DOWN,
    OBS_UP,
    PROGRAM_SCENE,
    AirEvent,
)
from broadcast.sponsors.asrun import SHOT, AsRunLog
from broadcast.sponsors.placements import Placements

T0 = 1_336_395_300.0  # 2012-05-07 21:35 Beijing time
EPISODES = (("第1期", "2012-05-07", True), ("第2期", "2012-05-09", True), ("第3期", "2012-05-11", False))


def air(log: AsRunLog, p: Placements, episode: str, air_date: str, t0: float, *, full: bool) -> None:
    """One episode: every bumper, the breaks' films, the corner bug and scoreboard throughout, 口播,
    studio shots, 英雄榜 and its film, the credits. ``full=False``: the 冠名 film is cut after 6 s, two
    口播 short, and OBS is lost for 20 s mid-show."""

    def obs(t: float, kind: str, subject: str, **detail: object) -> None:
        log.record(AirEvent(t0 + t, kind, subject, "obs", episode, dict(detail)))

    log.begin_episode(episode, t0, air_date=air_date)
    obs(0, OBS_UP, "29.0.2")
    obs(0.1, GRAPHIC_ON, "corner_bug", item="")
    t = 1.0
    for s in p.bumpers_in_order():
        assert s.bumper is not None
        obs(t, GRAPHIC_ON, "bumper", item=s.bumper.id)
        obs(t + 5, GRAPHIC_OFF, "bumper", item=s.bumper.id)
        t += 5.2
    for brk in p.rundown.breaks:
        t += 60  # a segment of the show between two breaks
        for fid in brk.items:
            f = p.films[fid]
            length = 6 if (not full and f.slot == "title") else f.seconds
            obs(t, FILM_START, fid, sponsor=f.sponsor)
            obs(t + length, FILM_END, fid)
            t += f.seconds + 0.5
    obs(t, GRAPHIC_ON, "scoreboard", item="game 1")
    for i in range(5 if full else 3):
        log.record(AirEvent(t0 + t + 10 + i * 10, MENTION, "xiaodangjia", "operator", episode))
    log.record(AirEvent(t0 + t + 70, MENTION, "xiaodangjia", "operator", episode))  # 奖品展示台
    for i in range(5):
        obs(t + 100 + i * 20, PROGRAM_SCENE, "桌面俯拍")
        obs(t + 110 + i * 20, PROGRAM_SCENE, "全景")
    for i in range(4):
        log.record(AirEvent(t0 + t + 210 + i * 5, SHOT, "jiugongge_board", "operator", episode))
    if not full:
        obs(t + 240, OBS_DOWN, "lost", since=t0 + t + 240)
        obs(t + 260, OBS_UP, "29.0.2")
    obs(t + 300, GRAPHIC_ON, "commentary", item="")
    obs(t + 320, GRAPHIC_OFF, "commentary", item="")
    obs(t + 330, GRAPHIC_OFF, "scoreboard", item="game 1")
    obs(t + 331, GRAPHIC_ON, "leaderboard", item="")
    obs(t + 351, GRAPHIC_OFF, "leaderboard", item="")
    lb = p.one("leaderboard")
    assert lb is not None and lb.film is not None
    obs(t + 352, FILM_START, lb.film.id, sponsor=lb.sponsor)
    obs(t + 367, FILM_END, lb.film.id)
    obs(t + 370, GRAPHIC_ON, "credits", item="")
    obs(t + 390, GRAPHIC_OFF, "credits", item="")
    obs(t + 391, GRAPHIC_OFF, "corner_bug", item="")
    log.end_episode(t0 + t + 392, episode)


def season_log(db: Path, p: Placements) -> None:
    log = AsRunLog.open(db)
    try:
        for n, (episode, day, full) in enumerate(EPISODES):
            air(log, p, episode, day, T0 + n * 2 * 86400, full=full)
    finally:
        log.close()
