"""Every row OBS confirms belongs to the episode it aired in (docs/sponsors.md, "Episodes").

The bridge's rows carry their episode: the one it was started for, then the show's as the operator moves
on — never the log's "current" one, which the recorder may not have begun yet. At a change of episode
what OBS shows is closed in the episode it aired in and carried into the next at that moment, so each
episode's report credits its own seconds: nothing of one in the other, nothing on air across the change
missing from the second, no pre-show row lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.evidence import Evidence
from broadcast.obs.headless import HeadlessObs
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import EpisodeExposure, compute
from broadcast.sponsors.placements import Placements, load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.sponsors.report import describe
from broadcast.studio import open_store

from .conftest import ROOT, bridge_settings

DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


def _report(p: Placements, log: AsRunLog, episode: str) -> EpisodeExposure:
    info = log.episode(episode)
    return compute(
        p,
        episode,
        log.events(episode),
        info=info,
        link_at_start=log.link_before(info.started if info and info.started is not None else 0.0),
    )


def _bug(x: EpisodeExposure) -> float:
    """The 独家特约 corner bug's seconds on air in the episode (its coverage metric's numerator)."""
    cov = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
    return float(cov.note.split("角标在屏 ")[1].split(" 秒")[0])


def test_rows_before_the_episode_begins_and_across_a_change_go_to_the_episode_they_aired_in(
    tmp_path: Path,
) -> None:
    p = load_placements(DEMO)
    log = AsRunLog.open(tmp_path / "asrun.sqlite")
    ev = Evidence(log)
    ev.episode = "第16期"  # the bridge was started for it; the recorder begins it only later
    ev.tracker.up(100.0)
    ev.tracker.observe(100.5, L.SCENE_GAME, {"corner_bug": "yiheyuan"})
    log.begin_episode("第16期", 101.0)
    ev.tracker.observe(102.0, L.SCENE_GAME, {"corner_bug": "yiheyuan", "scoreboard": "game 1"})
    # the show moves on at 110: OBS still shows both; the recorder ends 16 and begins 17 at that moment
    ev.switch_episode("第17期", 110.0)
    log.end_episode(110.0)
    log.begin_episode("第17期", 110.0)
    ev.tracker.observe(115.0, L.SCENE_GAME, {"corner_bug": "yiheyuan"})
    ev.tracker.down(120.0, "stopped")
    log.end_episode(120.0)
    assert log.events("") == []  # no row of OBS's in no episode
    e16, e17 = log.events("第16期"), log.events("第17期")
    assert [(e.kind, e.subject) for e in e16 if e.kind in (A.OBS_UP, A.GRAPHIC_ON)] == [
        (A.OBS_UP, ""),
        (A.GRAPHIC_ON, "corner_bug"),
        (A.GRAPHIC_ON, "scoreboard"),
    ]
    offs = [(e.subject, e.ts, e.detail.get("reason")) for e in e16 if e.kind == A.GRAPHIC_OFF]
    assert offs == [("corner_bug", 110.0, "episode_end"), ("scoreboard", 110.0, "episode_end")]
    carried = [(e.kind, e.subject, e.ts) for e in e17 if e.detail.get("carried") == "第16期"]
    assert carried == [
        (A.PROGRAM_SCENE, L.SCENE_GAME, 110.0),
        (A.GRAPHIC_ON, "corner_bug", 110.0),
        (A.GRAPHIC_ON, "scoreboard", 110.0),
    ]
    # the workbook's 播出记录 sheet says which rows are the boundary's, not new airings
    shown = {describe(e, p) for e in (*e16, *e17) if e.kind == A.GRAPHIC_ON and e.subject == "scoreboard"}
    assert shown == {"scoreboard：game 1", "scoreboard：game 1（自第16期接续在播）"}, shown
    assert describe(next(e for e in e16 if e.kind == A.GRAPHIC_OFF), p).endswith(
        "（本期结束时仍在播，下期接续）"
    )
    # each episode credits what it aired: the bug from 16's start (it was up before) to the change, then
    # in 17 from the change to the stop; the scoreboard once in each
    x16, x17 = _report(p, log, "第16期"), _report(p, log, "第17期")
    assert (_bug(x16), _bug(x17)) == (9.0, 10.0)
    assert not x16.no_evidence and not x17.no_evidence and not x16.outages and not x17.outages
    assert log.verify().ok
    # a film rolling across the change: closed in the episode before, carried into the next
    ev.episode = "第18期"
    ev.tracker.up(130.0)
    log.begin_episode("第18期", 130.0)
    ev.tracker.film_started(131.0, "spot", {"sponsor": "luxin"})
    ev.switch_episode("第19期", 135.0)
    ev.tracker.film_ended(140.0, "spot", {})
    film = [(e.kind, e.episode, e.ts) for e in (*log.events("第18期"), *log.events("第19期"))]
    assert [f for f in film if f[0] in (A.FILM_START, A.FILM_END)] == [
        (A.FILM_START, "第18期", 131.0),
        (A.FILM_END, "第18期", 135.0),
        (A.FILM_START, "第19期", 135.0),
        (A.FILM_END, "第19期", 140.0),
    ]
    log.close()


def _until(what: Callable[[], bool], timeout: float, why: Callable[[], str]) -> None:
    """Wait on the thing compared (the as-run rows OBS's answers wrote), never on time alone."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, why()
        time.sleep(0.02)


@pytest.mark.obs
@pytest.mark.timeout(180)
def test_a_real_obs_s_rows_belong_to_the_episode_they_aired_in(
    obs_server: HeadlessObs, tmp_path: Path
) -> None:
    """The console's order: OBS shows the corner bug before the operator names the episode, then the show
    moves from 第20期 to 第21期 with the bug and the scoreboard up; every row is where it aired."""
    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    log = AsRunLog.open(db)
    recorder = AsRunRecorder(store, log)
    p = load_placements(DEMO)
    store.dispatch("sponsors.load", to_state(p))
    bridge = ObsBridge(store, bridge_settings(obs_server), airlog=log)
    bridge.start()
    try:
        assert bridge.wait_connected(60.0), bridge.status.line

        def rows(episode: str, kind: str, subject: str) -> list[A.AirEvent | object]:
            return [e for e in log.events(episode) if e.kind == kind and e.subject == subject]

        def graphic(name: str, on: bool, item: str = "") -> None:
            payload = {"bus": "program", "graphic": name, "on": on, **({"item": item} if item else {})}
            store.dispatch("graphic.set", payload)

        graphic("corner_bug", True, "yiheyuan")
        _until(lambda: rows("", A.GRAPHIC_ON, "corner_bug"), 45.0, lambda: str(log.events("")))
        store.dispatch("show.update", {"episode": "第20期", "air_date": "2012-05-09"})
        _until(lambda: rows("第20期", A.GRAPHIC_ON, "corner_bug"), 45.0, lambda: str(log.events("第20期")))
        graphic("scoreboard", True, "game 1")
        _until(lambda: rows("第20期", A.GRAPHIC_ON, "scoreboard"), 45.0, lambda: str(log.events("第20期")))
        store.dispatch("show.update", {"episode": "第21期"})
        _until(lambda: len(rows("第21期", A.GRAPHIC_ON, "scoreboard")) == 1, 45.0, lambda: bridge.episode)
        graphic("scoreboard", False)
        _until(lambda: rows("第21期", A.GRAPHIC_OFF, "scoreboard"), 45.0, lambda: str(log.events("第21期")))
        assert bridge.flush(20.0)
    finally:
        bridge.stop()
        recorder.end_episode()
        recorder.flush()
        recorder.close()
    assert bridge.episode == "第21期"
    # the pre-show rows stay where they were written (no episode was known: OBS was seen, the bug went up)
    pre = [(e.kind, e.subject) for e in log.events("")]
    assert pre[:2] == [(A.OBS_DOWN, "provisioning"), (A.OBS_UP, pre[1][1])], pre
    assert (A.GRAPHIC_ON, "corner_bug") in pre, pre
    # and 20 opens with the bug OBS showed, carried from no episode at the moment 20 began
    first = [(e.kind, e.subject, e.detail.get("carried")) for e in log.events("第20期") if e.source == "obs"]
    assert first[:2] == [(A.PROGRAM_SCENE, L.SCENE_GAME, ""), (A.GRAPHIC_ON, "corner_bug", "")], first
    info20, info21 = log.episode("第20期"), log.episode("第21期")
    assert info20 is not None and info21 is not None and info20.ended is not None
    for name, info in (("第20期", info20), ("第21期", info21)):
        evidence = [e for e in log.events(name) if e.source == "obs"]
        assert evidence and all(e.ts >= (info.started or 0.0) for e in evidence), (name, evidence)
    carried21 = {e.subject for e in log.events("第21期") if e.detail.get("carried") == "第20期"}
    assert {"corner_bug", "scoreboard"} <= carried21, carried21
    x20, x21 = _report(p, log, "第20期"), _report(p, log, "第21期")
    assert not x20.outages and not x21.outages, (x20.outages, x21.outages)
    # the bug was up for the whole of 20 and of 21 (to the stop), the scoreboard aired in both
    for x in (x20, x21):
        cov = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
        assert cov.delivered + cov.slack >= 99.0, cov
    assert log.verify().ok
    log.close()
    store.close()


@pytest.mark.obs
@pytest.mark.timeout(180)
def test_a_corner_bug_hidden_in_obs_by_hand_is_credited_only_while_obs_showed_it(
    obs_server: HeadlessObs, tmp_path: Path
) -> None:
    """The show state still has the corner bug on, but someone unticks its source in OBS: the as-run
    closes it at OBS's own event and the report credits only the seconds OBS showed it (the state's
    intention is never air)."""
    from broadcast.obs.client import ObsClient

    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    log = AsRunLog.open(db)
    p = load_placements(DEMO)
    store.dispatch("sponsors.load", to_state(p))
    log.begin_episode("第22期", time.time())
    bridge = ObsBridge(store, bridge_settings(obs_server), airlog=log, episode="第22期")
    hand = ObsClient(bridge_settings(obs_server))
    bridge.start()
    try:
        assert bridge.wait_connected(60.0), bridge.status.line
        store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True, "item": ""})

        def bug(kind: str) -> list[object]:
            return [e for e in log.events("第22期") if e.kind == kind and e.subject == "corner_bug"]

        _until(lambda: bool(bug(A.GRAPHIC_ON)), 45.0, lambda: str(log.events("第22期")))
        scene = bridge.program
        shown = [s for (sc, s), on in bridge._enabled.items() if sc == scene and on and s.startswith("角标")]
        assert len(shown) == 1, shown
        hand.connect()
        hand.request(
            "SetSceneItemEnabled",
            {
                "sceneName": scene,
                "sceneItemId": bridge.item_ids[(scene, shown[0])],
                "sceneItemEnabled": False,
            },
        )
        _until(lambda: bool(bug(A.GRAPHIC_OFF)), 45.0, lambda: str(log.events("第22期")))
        assert store.state["graphics"]["program"]["corner_bug"]["on"]  # the state still wants it
        off = bug(A.GRAPHIC_OFF)[0]
        assert bridge.flush(20.0)
    finally:
        hand.close()
        bridge.stop()
    log.end_episode(time.time())
    on = bug(A.GRAPHIC_ON)[0]
    assert on.source == off.source == "obs"  # type: ignore[attr-defined]
    x = _report(p, log, "第22期")
    cov = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
    seen = off.ts - on.ts  # type: ignore[attr-defined]
    assert f"角标在屏 {seen:.0f} 秒" in cov.note, (cov.note, seen)
    log.close()
    store.close()
