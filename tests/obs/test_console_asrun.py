"""A console-run episode against the real OBS (the fixture's): the operator GOes a short rundown with F9
while the entry line has focus — corner bug, two bumpers running on by themselves, a break film, a game,
the 英雄榜 and its 冠名 film, the credits — and the as-run log says exactly what OBS reported."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge, ObsEvent
from broadcast.obs.headless import HeadlessObs
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.cuerunner import CueRunner
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.studio import open_store

from .conftest import bridge_settings

pytestmark = [pytest.mark.obs, pytest.mark.timeout(240)]

ROOT = Path(__file__).resolve().parents[2]
EPISODE = "第9期"
SWITCH_S = 1.0  # OBS's answer to the switch back to the show, after it reported a film's end
WAIT = 45.0  # seconds to wait for OBS to do something (a loaded machine's software-rendered OBS is slow)

# a short episode (2 s bumpers and films: the real ones are 5–15 s)
CUES: list[dict[str, Any]] = [
    {
        "id": "corner_bug_on",
        "kind": "graphic",
        "label": "角标上",
        "graphic": "corner_bug",
        "item": "yiheyuan",
    },
    {
        "id": "bumper_title",
        "kind": "bumper",
        "label": "冠名标版",
        "seconds": 2,
        "graphic": "bumper",
        "item": "title",
    },
    {
        "id": "bumper_special",
        "kind": "bumper",
        "label": "特约标版",
        "seconds": 2,
        "graphic": "bumper",
        "item": "special",
        "follow": True,
    },
    {
        "id": "break_1",
        "kind": "film",
        "label": "中插",
        "seconds": 2,
        "film": "spot",
        "action": "play",
        "follow": True,
    },
    {"id": "game_1", "kind": "segment", "label": "第1局", "graphic": "scoreboard", "item": "game 1"},
    {"id": "leaderboard", "kind": "leaderboard", "label": "英雄榜", "graphic": "leaderboard", "item": "rank"},
    {
        "id": "leaderboard_film",
        "kind": "film",
        "label": "冠名片",
        "seconds": 2,
        "film": "guanming",
        "action": "play",
    },
    {"id": "credits", "kind": "credits", "label": "片尾", "graphic": "credits", "item": "end"},
    {"id": "corner_bug_off", "kind": "graphic", "label": "角标下", "graphic": "corner_bug", "action": "off"},
]


def wait_for(
    cond: Callable[[], bool], timeout: float, what: str, qtbot: Any, said: Callable[[], str] = str
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        qtbot.wait(30)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} {said()}".rstrip())


@pytest.mark.long
def test_a_console_run_episodes_as_run_is_what_obs_reported(
    obs_server: HeadlessObs, tmp_path: Path, film: Path, qtbot: Any
) -> None:
    from broadcast.console.app import build

    path = tmp_path / "studio.sqlite"
    store = open_store(path)
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    store.dispatch("sponsors.load", to_state(p))
    log = AsRunLog.open(path)
    rec = AsRunRecorder(store, log)
    store.dispatch("show.update", {"episode": EPISODE, "air_date": "2012-05-07"})
    store.dispatch("cues.load", {"episode": EPISODE, "cues": CUES})
    reported: list[ObsEvent] = []
    lock = threading.Lock()

    def on_event(ev: ObsEvent) -> None:
        if ev.type in ("CurrentProgramSceneChanged", "MediaInputPlaybackStarted", "MediaInputPlaybackEnded"):
            with lock:
                reported.append(ev)

    bridge = ObsBridge(
        store,
        bridge_settings(obs_server, timeout=20.0),  # a loaded machine's OBS can take seconds
        airlog=log,
        films={"spot": film, "guanming": film},
        leaderboard_film="guanming",
        episode=EPISODE,
    )
    bridge.add_event_listener(on_event)
    runner = CueRunner(store, bridge=bridge, film_timeout=20.0)
    window = None
    try:
        bridge.start()
        assert bridge.wait_connected(60), bridge.status
        with lock:
            reported.clear()
        # what OBS shows from the start (its event for the first cut may have come before the clear)
        first_scene = bridge.request("GetCurrentProgramScene")["currentProgramSceneName"]
        runner.start()
        window = build(
            store,
            QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat),
            lang="zh_CN",
            studio=SimpleNamespace(server=None, bridge=bridge, recorder=rec, placements=None),
            runner=runner,
            monitors=True,  # no pages without a server: the OBS program picture only
        )
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)  # the keys are the window's shortcuts
        entry = window.panel.entry
        entry.setFocus()
        cq = lambda: store.state["cues"]  # noqa: E731

        def where() -> str:
            """What the cue list shows next and what the store, the console's copy and the runner say."""
            shown = window.onair.cues.next_view()
            mirror = window.console.state
            return (
                f"(the cue list shows next {shown.cue['id'] if shown else None!r}; the store: next"
                f" {cq()['next']}, running {cq()['current']}, action #{store.seq}; the console's copy:"
                f" next {mirror['cues']['next']}, action #{mirror['meta']['seq']}; OBS program"
                f" {bridge.status.program_scene!r}; runner errors {runner.errors})"
            )

        def go(expect: str) -> None:
            wait_for(lambda: window.onair.cues.next_view() is not None, WAIT, "a next cue", qtbot, where)
            wait_for(
                lambda: window.onair.cues.next_view().cue["id"] == expect,
                WAIT,
                f"{expect} next",
                qtbot,
                where,
            )
            QTest.keyClick(entry, Qt.Key.Key_F9)
            wait_for(lambda: expect in cq()["log"], WAIT, f"{expect} GO'd", qtbot)

        def last_reported_scene() -> str:
            with lock:
                scenes = [e.data["sceneName"] for e in reported if e.type == "CurrentProgramSceneChanged"]
            return scenes[-1] if scenes else ""

        def reported_by_obs(scene: str) -> None:
            """On program until OBS's own event for the cut has come (it can come a frame or more after
            OBS's answer): the next cut is not sent before OBS said this one."""
            wait_for(lambda: last_reported_scene() == scene, WAIT, f"OBS's event for {scene}", qtbot)

        go("corner_bug_on")
        go("bumper_title")  # the special bumper and the break film follow by themselves
        wait_for(
            lambda: cq()["next"] == 4 and cq()["current"] is None, WAIT, "the opening run through", qtbot
        )
        go("game_1")
        wait_for(lambda: bridge.status.program_scene == L.SCENE_GAME, WAIT, "the game on program", qtbot)
        # the host names the title sponsor twice; the table top is on camera once
        for k, mods in (
            (Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier),
            (Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier),
            (Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier),
        ):
            QTest.keyClick(entry, k, mods)
        wait_for(lambda: store.state["sponsors"]["shots"].get("table") == 1, WAIT, "the marks", qtbot)
        go("leaderboard")
        wait_for(lambda: bridge.status.program_scene == L.SCENE_LEADERBOARD, WAIT, "the 英雄榜", qtbot)
        reported_by_obs(L.SCENE_LEADERBOARD)
        go("leaderboard_film")  # the board comes off: OBS rolls its 冠名 film
        wait_for(lambda: cq()["current"] is None, WAIT, "the 冠名 film run out", qtbot)
        go("credits")
        wait_for(lambda: bridge.status.program_scene == L.SCENE_CREDITS, WAIT, "the credits", qtbot)
        reported_by_obs(L.SCENE_CREDITS)
        go("corner_bug_off")
        wait_for(lambda: bridge.status.program_scene == L.SCENE_GAME, WAIT, "back to the game scene", qtbot)
        reported_by_obs(L.SCENE_GAME)
        assert bridge.flush(5.0)
        assert window.onair.monitors.obs.received >= 1  # OBS's program picture reached the console
        rec.end_episode()
        rec.flush()
    finally:
        runner.stop()
        if window is not None:
            window.console.bridge.close()
        bridge.stop()
        rec.close()

    log_rows = log.events(EPISODE)
    cue_log = store.state["cues"]["log"]
    assert {cue_log[c["id"]]["status"] for c in CUES} == {"done"}, cue_log
    with lock:
        events = list(reported)
    # films: the as-run has exactly the airings OBS reported
    films = {L.film_input(f): f for f in ("spot", "guanming")}
    obs_films = [
        ("start" if e.type.endswith("Started") else "end", films[e.data["inputName"]], e.ts)
        for e in events
        if e.type.startswith("MediaInputPlayback") and e.data.get("inputName") in films
    ]
    asrun_films = [
        ("start" if r.kind == A.FILM_START else "end", r.subject, r.ts)
        for r in log_rows
        if r.kind in (A.FILM_START, A.FILM_END)
    ]
    assert [(k, f) for k, f, _ in asrun_films] == [
        ("start", "spot"),
        ("end", "spot"),
        ("start", "guanming"),
        ("end", "guanming"),
    ], (asrun_films, obs_films)
    # each airing lies inside a playback OBS reported for that film (OBS's own times): the as-run never
    # claims a second of a film OBS did not report playing. (OBS also reports a blink of the other
    # film input of the break scene when the scene goes live: never on air, rightly not in the as-run.)
    playing: dict[str, float] = {}
    played: list[tuple[str, float, float]] = []
    for kind, fid, ts in obs_films:
        if kind == "start":
            playing[fid] = ts
        elif fid in playing:
            played.append((fid, playing.pop(fid), ts))
    for n, fid in enumerate(("spot", "guanming")):
        a0, a1 = asrun_films[2 * n][2], asrun_films[2 * n + 1][2]
        # (the airing ends when OBS confirms program has left the break scene, just after it reported
        # the film's end: SWITCH_S covers that answer)
        inside = [f == fid and o0 <= a0 and a1 <= o1 + SWITCH_S for f, o0, o1 in played]
        assert a0 < a1 and any(inside), (fid, a0, a1, played)
    assert all(r.source == "obs" for r in log_rows if r.kind in (A.FILM_START, A.FILM_END))
    # program scenes: the as-run's switches are the ones OBS reported, in the same order
    obs_scenes = [first_scene] + [
        e.data["sceneName"] for e in events if e.type == "CurrentProgramSceneChanged"
    ]
    # (from OBS's first confirmation on: a cut is timed when OBS switched — seen by the bridge's watcher
    # session — which can be seconds before OBS's own event goes out on a busy machine)
    up = next(r.id for r in log_rows if r.kind == A.OBS_UP)
    asrun_scenes = [
        r.subject
        for r in log_rows
        if r.kind == A.PROGRAM_SCENE and r.source == "obs" and r.subject and r.id > up
    ]
    assert _dedupe(asrun_scenes) == _dedupe(obs_scenes), (asrun_scenes, obs_scenes)
    assert {L.SCENE_BUMPER, L.SCENE_BREAK, L.SCENE_LEADERBOARD, L.SCENE_CREDITS} <= set(obs_scenes)
    # graphics the console's cues put on air, as OBS showed them (with the item: each bumper on its own)
    shown = [
        (r.subject, r.detail.get("item")) for r in log_rows if r.kind == A.GRAPHIC_ON and r.source == "obs"
    ]
    for want in (
        ("corner_bug", "yiheyuan"),
        ("bumper", "title"),
        ("bumper", "special"),
        ("scoreboard", "game 1"),
        ("leaderboard", "rank"),
        ("credits", "end"),
    ):
        assert want in shown, (want, shown)
    assert not [r for r in log_rows if r.source == "app" and r.kind in (A.GRAPHIC_ON, A.FILM_START)]
    # the operator's marks, made while OBS was seen, are the report's figures
    x = compute(p, EPISODE, log_rows, info=log.episode(EPISODE))
    metrics = {(m.sponsor, m.slot_key): m for sx in x.sponsors for m in sx.metrics}
    said = metrics[("xiaodangjia", "mentions")]
    assert (said.delivered, said.shortfall) == (2, True)
    table = next(m for (_sid, key), m in metrics.items() if key == "table")
    assert table.delivered == 1 and table.shortfall


def _dedupe(scenes: list[str]) -> list[str]:
    out: list[str] = []
    for sc in scenes:
        if not out or out[-1] != sc:
            out.append(sc)
    return out
