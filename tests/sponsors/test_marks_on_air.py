"""The operator's marks count only when what they mark went out: OBS seen and program showing the show —
a 口播, a studio shot or a draw's close-up keyed while a break's film is on program did not air
(docs/sponsorship.md: the host says the name ≥5 times; the table top on screen ≥5 times; each draw's
close-up)."""

from __future__ import annotations

from pathlib import Path

from broadcast.clock import ScriptClock, air_start
from broadcast.core.airlog import FILM_END, FILM_START, GRAPHIC_ON, OBS_UP, PROGRAM_SCENE, AirEvent
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.studio import open_store
from tests.sponsors.conftest import DEMO_YAML

EP = "第12期"
T0 = air_start("2012-05-11")


def test_marks_keyed_while_a_film_is_on_program_are_not_credited(tmp_path: Path) -> None:
    clock = ScriptClock(T0)
    db = tmp_path / "studio.sqlite"
    store = open_store(db, clock=clock)
    log = AsRunLog.open(db)
    rec = AsRunRecorder(store, log, clock=clock)
    p = load_placements(DEMO_YAML)
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": EP, "air_date": "2012-05-11"})

    def obs(t: float, kind: str, subject: str, **detail: object) -> None:
        rec.flush()
        log.record(AirEvent(T0 + t, kind, subject, "obs", detail=dict(detail)))

    def mark(t: float, action: str, payload: dict[str, object]) -> None:
        clock.now = T0 + t
        store.dispatch(action, payload)

    obs(0.0, OBS_UP, "29.0.2")
    obs(0.0, PROGRAM_SCENE, "够级·比赛")
    obs(0.0, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    mark(5.0, "sponsor.mention", {"sponsor": "xiaodangjia"})  # on air
    obs(10.0, FILM_START, "babao_15s", sponsor="babao")
    mark(15.0, "sponsor.mention", {"sponsor": "xiaodangjia"})  # the film is on program
    mark(16.0, "sponsor.shot", {"slot": "table"})
    obs(25.0, FILM_END, "babao_15s")
    mark(30.0, "sponsor.mention", {"sponsor": "xiaodangjia"})  # on air again
    mark(31.0, "sponsor.shot", {"slot": "table"})
    clock.now = T0 + 40.0
    rec.end_episode()
    rec.flush()
    x = compute(p, EP, log.events(EP), info=log.episode(EP), link_at_start=log.link_before(T0))
    rec.close()
    log.close()
    store.close()
    said = next(
        m for s in x.sponsors for m in s.metrics if s.sponsor == "xiaodangjia" and m.slot_key == "mentions"
    )
    assert said.delivered == 2 and "另有 1 次在插播片子期间" in said.note, said
    table = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "table")
    assert table.delivered == 1, table


def test_a_film_obs_played_on_after_program_was_cut_away_is_not_a_complete_airing(tmp_path: Path) -> None:
    """OBS plays a break's film to its end even when program is cut away from the break scene (by hand in
    OBS, a panic): only the seconds program showed it aired — the spot is not credited as aired whole."""
    log = AsRunLog.open(tmp_path / "studio.sqlite")
    log.begin_episode(EP, T0)

    def obs(t: float, kind: str, subject: str, **detail: object) -> None:
        log.record(AirEvent(T0 + t, kind, subject, "obs", EP, dict(detail)))

    obs(0.0, OBS_UP, "29.0.2")
    obs(0.0, PROGRAM_SCENE, "够级·比赛")
    for start, cut in ((10.0, 30.0), (40.0, 50.0)):  # the second: cut away 10 s into its 15
        obs(start, PROGRAM_SCENE, "够级·中插")
        obs(start, FILM_START, "babao_15s", sponsor="babao", scene="够级·中插")
        obs(cut if cut < start + 15 else start + 15, PROGRAM_SCENE, "够级·比赛")
        obs(start + 15.0, FILM_END, "babao_15s", scene="够级·中插")
    log.end_episode(T0 + 60.0)
    x = compute(load_placements(DEMO_YAML), EP, log.events(EP), info=log.episode(EP), link_at_start=None)
    log.close()
    spot = next(m for s in x.sponsors for m in s.metrics if s.sponsor == "babao" and "完整播出" in m.what)
    assert spot.delivered == 1 and "播 10.0 秒（不完整）" in spot.note, spot
    assert round(x.film_seconds, 1) == 25.0, x.film_seconds  # 15 + 10 seconds on program
