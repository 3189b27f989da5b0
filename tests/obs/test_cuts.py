"""Program cuts against a real OBS Studio started headless: the transition the operator chose reaches
OBS (TAKE: the configured one, CUT and panic: OBS's Cut), a cut whose answer comes too late is still in
the as-run once OBS shows it (and only then), back-to-back items (bumpers, films, the 九宫格, the 英雄榜,
its film, the credits) follow each other with no frame of the game scene between them, each credited
once OBS has drawn it, and after a crash OBS comes back on the program it last showed (it saved it), so
the re-sync needs no cut."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broadcast.core import ShowStore
from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsError
from broadcast.obs.headless import COLLECTION, HeadlessObs
from broadcast.obs.proofs import EDGES_MIN, check_picture
from broadcast.sponsors.cuerunner import CueRunner
from broadcast.studio import open_store

from .conftest import MemoryAirLog, bridge_settings, restart_after_kill
from .test_live import wait_for

pytestmark = pytest.mark.obs
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path) -> ShowStore:
    return open_store(tmp_path / "studio.sqlite")


class Poller:
    """An independent look at OBS: its program scene every 20 ms on a session of its own, each change
    kept with the time it was first seen."""

    def __init__(self, obs: HeadlessObs) -> None:
        self.seen: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._client = ObsClient(bridge_settings(obs))
        self._client.connect()
        self._thread = threading.Thread(target=self._run, name="test-poller", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                scene = self._client.request("GetCurrentProgramScene")["currentProgramSceneName"]
            except ObsError:
                return
            if not self.seen or self.seen[-1][1] != scene:
                self.seen.append((time.time(), scene))
            self._stop.wait(0.02)

    def scenes(self) -> list[str]:
        return [s for _t, s in self.seen]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._client.close()


@pytest.fixture
def poller(obs_server: HeadlessObs) -> Iterator[Poller]:
    p = Poller(obs_server)
    yield p
    p.close()


def _program_rows(rec: MemoryAirLog, since: float) -> list[A.AirEvent]:
    """The program scenes the as-run credits from ``since`` (not the clean stop's closing row)."""
    return [e for e in rec.kinds(A.PROGRAM_SCENE) if e.ts >= since and e.subject]


def test_cut_and_panic_reach_obs_as_its_cut_take_as_the_configured_transition(
    obs_server: HeadlessObs, store: ShowStore, poller: Poller
) -> None:
    """bus.cut (the console's CUT) and panic switch OBS's program with OBS's Cut transition, bus.take
    with the one configured (Fade here): once OBS shows each new program scene (an independent poller;
    OBS's own program-scene events are not sent for every switch), OBS says which transition it used."""
    rec = MemoryAirLog()
    used: list[tuple[str, str]] = []
    settings = bridge_settings(obs_server, transition="Fade", transition_ms=200)
    with ObsBridge(store, settings, airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_GAME], 30, "the game scene on OBS")
        t0 = time.time()

        def switch(how: str, scene: str) -> None:
            store.dispatch(how, {})
            wait_for(lambda: poller.scenes()[-1:] == [scene], 30, f"{how} → {scene} on OBS")
            used.append((scene, str(bridge.request("GetCurrentSceneTransition")["transitionName"])))

        store.dispatch("graphic.set", {"bus": "preview", "graphic": "leaderboard", "on": True})
        switch("bus.take", L.SCENE_LEADERBOARD)
        store.dispatch("graphic.set", {"bus": "preview", "graphic": "leaderboard", "on": False})
        switch("bus.cut", L.SCENE_GAME)
        store.dispatch("graphic.set", {"bus": "preview", "graphic": "credits", "on": True})
        switch("bus.take", L.SCENE_CREDITS)
        switch("bus.panic", L.SCENE_GAME)
        assert bridge.flush(10)
    assert used == [
        (L.SCENE_LEADERBOARD, "Fade"),
        (L.SCENE_GAME, "Cut"),
        (L.SCENE_CREDITS, "Fade"),
        (L.SCENE_GAME, "Cut"),
    ]
    rows = [e.subject for e in _program_rows(rec, t0)]
    assert rows == [L.SCENE_LEADERBOARD, L.SCENE_GAME, L.SCENE_CREDITS, L.SCENE_GAME]


def test_a_cut_obs_answers_too_late_is_on_the_as_run_once_obs_shows_it(
    obs_server: HeadlessObs, store: ShowStore, poller: Poller, caplog: pytest.LogCaptureFixture
) -> None:
    """OBS answers a cut only once its UI has caught up; when that answer does not come in time the
    switch may still have happened. The bridge gives up waiting (here: at once, cut_timeout 1 µs) but
    keeps looking: the switch is in the as-run when OBS shows it — once, in time order — and the bridge
    does not cut again meanwhile (an independent poller sees each switch once)."""
    rec = MemoryAirLog()
    caplog.set_level(logging.WARNING, logger="broadcast.obs.bridge")
    with ObsBridge(store, bridge_settings(obs_server, cut_timeout=1e-6), airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        wait_for(lambda: bridge.status.program_scene == L.SCENE_GAME, 15, "the game scene on program")
        assert bridge.flush(10)
        t0 = time.time()
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": True})
        wait_for(lambda: _program_rows(rec, t0), 30, "the 英雄榜 scene in the as-run")
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_LEADERBOARD], 30, "the poller seeing the 英雄榜")
        t_off = time.time()
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": False})
        wait_for(lambda: len(_program_rows(rec, t0)) >= 2, 30, "the game scene in the as-run")
        assert bridge.flush(10)
        assert bridge.status.program_scene == L.SCENE_GAME
        assert bridge.request("GetCurrentProgramScene")["currentProgramSceneName"] == L.SCENE_GAME
        # the poller looks every 20 ms on a thread of its own: compare once it has looked since
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_GAME], 30, "the poller seeing the game scene")
    timed_out = [r.getMessage() for r in caplog.records if "SetCurrentProgramScene" in r.getMessage()]
    assert timed_out, "the cut's answer was expected too late (cut_timeout 1 µs)"
    rows = _program_rows(rec, t0)
    assert [e.subject for e in rows] == [L.SCENE_LEADERBOARD, L.SCENE_GAME]  # one row per switch
    assert t0 <= rows[0].ts <= t_off <= rows[1].ts and rows[1].source == "obs"
    assert poller.scenes()[-2:] == [L.SCENE_LEADERBOARD, L.SCENE_GAME]  # OBS did switch, both times
    board = [(e.kind, e.subject) for e in rec.events if e.subject == "leaderboard" and e.ts >= t0]
    assert board == [(A.GRAPHIC_ON, "leaderboard"), (A.GRAPHIC_OFF, "leaderboard")]


class ShootingAirLog(MemoryAirLog):
    """Shoots OBS's picture of a full-frame item's scene the moment the bridge credits it as on air."""

    def __init__(self, client: ObsClient) -> None:
        super().__init__()
        self.client, self.bridge = client, None
        self.shots: list[tuple[str, bytes, tuple[str, float, float]]] = []

    def record(self, event: A.AirEvent) -> int:
        if event.kind == A.GRAPHIC_ON and event.subject in ("jiugongge", "leaderboard", "credits"):
            if not self.client.connected:
                self.client.connect()
            jpeg = self.client.screenshot(str(event.detail["scene"]), width=960)
            pic = self.bridge.picture_of(event.subject) if self.bridge is not None else None
            assert pic is not None, event
            self.shots.append((event.subject, jpeg, pic))
        return super().record(event)


def _back_to_back(film_seconds: int) -> dict[str, Any]:
    """The rundown's items that follow each other with no studio between: the opening bumpers into two
    films, the prizes' 九宫格 after them; the 英雄榜, its 冠名 film, the credits after it."""
    films = {"kind": "film", "seconds": film_seconds, "follow": True, "action": "play"}
    return {
        "episode": "测试",
        "cues": [
            {"id": "bumper_title", "kind": "bumper", "graphic": "bumper", "item": "title", "seconds": 1},
            {
                "id": "bumper_special",
                "kind": "bumper",
                "graphic": "bumper",
                "item": "special",
                "seconds": 1,
                "follow": True,
            },
            {"id": "film_open", "film": "open", **films},
            {"id": "film_two", "film": "two", **films},
            {
                "id": "intro_prizes",
                "kind": "segment",
                "graphic": "jiugongge",
                "item": "intro",
                "follow": True,
            },
            {"id": "leaderboard", "kind": "leaderboard", "graphic": "leaderboard", "item": "rank"},
            {"id": "leaderboard_film", "film": "guanming", **{**films, "follow": False}},
            {"id": "credits", "kind": "credits", "graphic": "credits", "item": "end", "follow": True},
        ],
    }


def test_back_to_back_items_never_show_the_game_scene(
    obs_server: HeadlessObs, store: ShowStore, poller: Poller, film: Path
) -> None:
    """Bumpers into two films into the prizes' 九宫格, then the 英雄榜 into its 冠名 film into the
    credits: each film ends when OBS says so and what follows takes program straight from the break —
    the audit's independent witness (its own connection, every 50 ms) and a 20 ms poller never see the
    game scene between two items; each graphic is credited once OBS showed it drawn (OBS's picture of its
    scene at that moment shows it), and a proof picture (taken while OBS shows it, checked against its
    render) never fails to show it."""
    from broadcast.audit.obswatch import Intent, ProgramWatch, holes

    settings = bridge_settings(obs_server)
    rec = ShootingAirLog(ObsClient(settings))
    films = {"open": film, "two": film, "guanming": film}
    bridge = rec.bridge = ObsBridge(store, settings, airlog=rec, films=films, leaderboard_film="guanming")
    store.dispatch("cues.load", _back_to_back(2))
    watch, intent = ProgramWatch(settings), Intent(store)
    with bridge, CueRunner(store, bridge=bridge) as runner:
        assert bridge.wait_connected(120), bridge.status
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_GAME], 30, "the game scene on OBS")
        watch.start()
        t0 = time.time()
        store.dispatch("cues.go", {"expect": "bumper_title"})
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_JIUGONGGE], 60, "the 九宫格 after the films")
        store.dispatch("cues.go", {"expect": "leaderboard"})
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_LEADERBOARD], 30, "the 英雄榜")
        store.dispatch("cues.go", {"expect": "leaderboard_film"})
        wait_for(lambda: poller.scenes()[-1:] == [L.SCENE_CREDITS], 60, "the credits after the film")
        assert bridge.flush(10)
        watch.stop()
        intent.stop()
        assert not runner.errors
    polled = [s for t, s in poller.seen if t >= t0]
    assert polled == [
        L.SCENE_BUMPER,
        L.SCENE_BREAK,
        L.SCENE_JIUGONGGE,
        L.SCENE_LEADERBOARD,
        L.SCENE_BREAK,
        L.SCENE_CREDITS,
    ], poller.seen
    assert len(watch.looks) > 100 and [h.text() for h in holes(watch.looks, intent)] == []
    aired = [e.subject for e in rec.kinds(A.FILM_START) if e.ts >= t0]
    assert aired == ["open", "two", "guanming"], rec.events
    log = store.state["cues"]["log"]
    assert [log[c]["status"] for c in ("film_open", "film_two", "leaderboard_film")] == ["done"] * 3, log
    # each film's cue ended when OBS ended it (not on the clock) and the next item began in that action
    assert (
        log["film_two"]["go"] == log["film_open"]["end"]
        and log["credits"]["go"] == log["leaderboard_film"]["end"]
    )
    on = [(e.subject, e.ts) for e in rec.kinds(A.GRAPHIC_ON) if e.ts >= t0]
    assert {"bumper", "jiugongge", "leaderboard", "credits"} <= {g for g, _ts in on}, rec.events
    # credited once OBS's program showed it, never before: no credit ahead of the first look that saw
    # its scene by more than the witness's own step (a look every 50 ms)
    for graphic, scene in (("jiugongge", L.SCENE_JIUGONGGE), ("leaderboard", L.SCENE_LEADERBOARD)):
        credited = min(ts for g, ts in on if g == graphic)
        seen = min(t for t, s in watch.looks if s == scene)
        assert credited >= seen - 0.1 - 0.05, (graphic, credited, seen)
    # on air means drawn: OBS's picture of each full-frame item's scene, shot the moment the as-run
    # credited it, shows it — its colours (the proofs' check) and its drawing (its edges: the 九宫格 after
    # the films and the credits were credited while their scene was still the bare studio, whose colours
    # differ from theirs by only 27 and 14 of 255; the 英雄榜 with an older board beneath it, 0.57)
    assert {g for g, _jpeg, _pic in rec.shots} == {"jiugongge", "leaderboard", "credits"}
    shots = ROOT / "test-artifacts" / "audit" / "obs"
    shots.mkdir(parents=True, exist_ok=True)
    for graphic, jpeg, pic in rec.shots:
        (shots / f"credited-{graphic}.jpg").write_bytes(jpeg)  # what OBS drew when the as-run credited it
        check = check_picture(jpeg, pic[0], pic[1], pic[2], (settings.width, settings.height))
        assert check["ok"] and (check["edges"] or 0.0) >= EDGES_MIN, (graphic, check)  # drawing judged too
    # a proof picture never fails to show what it proves (one may find its short item gone: not_on_program)
    assert [e.detail for e in rec.kinds("proof_failed") if e.detail["reason"] != "not_on_program"] == []


def _saved(obs: HeadlessObs) -> tuple[str, dict[str, list[str]]]:
    """What OBS's saved scene collection says: its program scene and each scene's shown items."""
    path = obs.home / ".config" / "obs-studio" / "basic" / "scenes" / f"{COLLECTION}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # OBS writes it anew: read it again on the next look
        return "", {}
    shown = {
        s["name"]: [i["name"] for i in s["settings"].get("items", []) if i.get("visible")]
        for s in data.get("sources", [])
        if s.get("id") == "scene"
    }
    return str(data.get("current_program_scene", "")), shown


def test_after_a_crash_obs_comes_back_showing_the_show_and_the_resync_needs_no_cut(
    obs_to_kill: HeadlessObs, store: ShowStore
) -> None:
    """OBS saves its scene collection on a rename, not on a cut or a shown item: the bridge has it save
    after changes, so OBS killed mid-show restarts on the program and graphics it last showed, and the
    bridge's re-sync confirms them without a cut (OBS reports no program change); the as-run credits
    them only from that confirmation."""
    store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
    store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": True})
    board = set(L.buffer_inputs("leaderboard"))
    bug = set(L.buffer_inputs("corner_bug"))
    with ObsBridge(store, bridge_settings(obs_to_kill)) as bridge:
        assert bridge.wait_connected(120), bridge.status
        wait_for(lambda: bridge.status.program_scene == L.SCENE_LEADERBOARD, 30, "the 英雄榜 on program")

        def saved_the_show() -> bool:
            program, shown = _saved(obs_to_kill)
            here = set(shown.get(L.SCENE_LEADERBOARD, []))
            return program == L.SCENE_LEADERBOARD and bool(here & board) and bool(here & bug)

        wait_for(saved_the_show, 30, "OBS's saved collection showing the 英雄榜")
    # no save under way when OBS is killed (a kill in the middle of OBS writing its collection can lose
    # it: OBS then starts empty and the bridge provisions everything again — not what is tested here)
    path = obs_to_kill.home / ".config" / "obs-studio" / "basic" / "scenes" / f"{COLLECTION}.json"
    last = (path.stat().st_mtime, path.stat().st_size)
    while True:  # unchanged for a second (was: for a second after a first second)
        time.sleep(1.0)
        now = (path.stat().st_mtime, path.stat().st_size)
        if now == last:
            break
        last = now
    assert saved_the_show()
    obs_to_kill.kill()
    restart_after_kill(obs_to_kill)
    c = ObsClient(bridge_settings(obs_to_kill))
    c.connect()
    try:
        assert c.request("GetCurrentProgramScene")["currentProgramSceneName"] == L.SCENE_LEADERBOARD
        items = c.request("GetSceneItemList", {"sceneName": L.SCENE_LEADERBOARD})["sceneItems"]
        shown = {i["sourceName"] for i in items if i["sceneItemEnabled"]}
        assert shown & board and shown & bug, shown
    finally:
        c.close()
    rec = MemoryAirLog()
    cuts: list[str] = []
    again = ObsBridge(store, bridge_settings(obs_to_kill), airlog=rec)
    again.add_event_listener(
        lambda ev: cuts.append(str(ev.data["sceneName"])) if ev.type == "CurrentProgramSceneChanged" else None
    )
    with again:
        assert again.wait_connected(120), again.status
        assert again.flush(10)
        assert again.status.program_scene == L.SCENE_LEADERBOARD
    assert cuts == []  # OBS was on the right program already: no cut
    kinds = [(e.kind, e.subject) for e in rec.events]
    up = next(i for i, k in enumerate(kinds) if k[0] == A.OBS_UP)
    after = kinds[up + 1 :]
    assert (A.PROGRAM_SCENE, L.SCENE_LEADERBOARD) in after
    assert {(A.GRAPHIC_ON, "leaderboard"), (A.GRAPHIC_ON, "corner_bug")} <= set(after)
    assert not [k for k in kinds[:up] if k[0] in (A.GRAPHIC_ON, A.PROGRAM_SCENE) and k[1]]
