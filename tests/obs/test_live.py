"""The bridge against a real OBS Studio started headless (see conftest.py and docs/obs.md)."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from broadcast.core import Component, Context, ShowStore
from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import AUTH_FAILED, BridgeStatus, ObsBridge, ObsEvent
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsAuthError, ObsConnectError, ObsError
from broadcast.obs.graphics import paint as P
from broadcast.obs.graphics import scoreboard as SB
from broadcast.obs.headless import HeadlessObs, free_port
from broadcast.obs.provision import provision, snapshot
from broadcast.studio import open_store

from .conftest import PASSWORD, MemoryAirLog, bridge_settings, restart_after_kill

pytestmark = pytest.mark.obs

TEST_ACTIONS = Component("obs_test")  # the test's own actions, composed with the studio's


@TEST_ACTIONS.action("obs_test.table")
def _test_table(state: dict[str, Any], payload: dict[str, Any], ctx: Context) -> None:
    """Test-only: set seats' name/cards_left/title (the engine's actions do this in the studio)."""
    for seat, fields in payload.get("seats", {}).items():
        state["table"]["seats"][int(seat) - 1].update(fields)
    if "special" in payload:
        state["sponsors"]["special"]["name"] = payload["special"]


ROOT = Path(__file__).resolve().parents[2]
_DEMO_LOGOS = {
    "xdj": "xiaodangjia",
    "ymss": "yiheyuan",
    "jymjy": "jinyimeng",
    "yhdq": "luxin",
    "lycy": "langya",
    "msfood": "mengshan",
    "lysc": "shunhe",
}


def _local_logos(value: Any) -> Any:
    """The demo state's logos are the overlay server's SVGs; OBS gets the PNGs in sponsor_assets/."""
    if isinstance(value, dict):
        return {k: _local_logos(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_local_logos(v) for v in value]
    if isinstance(value, str) and value.startswith("/overlay/assets/demo/"):
        key = value.rsplit("/", 1)[1].split(".")[0]
        return str(ROOT / "sponsor_assets" / "demo" / "logos" / f"{_DEMO_LOGOS.get(key, 'babao')}.png")
    return value


@TEST_ACTIONS.action("obs_test.demo")
def _test_demo(state: dict[str, Any], payload: dict[str, Any], ctx: Context) -> None:
    """Test-only: the overlay demo show (every graphic has something real to show)."""
    from broadcast.overlay.demo import demo_state

    demo = _local_logos(demo_state())
    for key in ("table", "sponsors", "leaderboard", "lower_third", "show", "jiugongge", "winprob"):
        state[key] = demo[key]


@TEST_ACTIONS.action("obs_test.state")
def _test_state(state: dict[str, Any], payload: dict[str, Any], ctx: Context) -> None:
    """Test-only: whole sections as given (validated by the store like any action)."""
    for key, value in payload.items():
        state[key] = value


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def wait_frames(c: ObsClient, n: int = 3) -> None:
    start = c.request("GetStats")["renderTotalFrames"]
    wait_for(lambda: c.request("GetStats")["renderTotalFrames"] >= start + n, 30, "frames")


@pytest.fixture
def store(tmp_path: Path) -> ShowStore:
    return open_store(tmp_path / "studio.sqlite", extra=[TEST_ACTIONS])


@pytest.fixture
def client(obs_server: HeadlessObs) -> Iterator[ObsClient]:
    c = ObsClient(bridge_settings(obs_server))
    c.connect()
    yield c
    c.close()


def lay_of(bridge: ObsBridge) -> L.Layout:
    lay = bridge.layout
    assert lay is not None
    return lay


def shown_picture(c: ObsClient | ObsBridge, graphic: str, scene: str = L.SCENE_GAME) -> str:
    """The picture file OBS shows for a native graphic in ``scene`` ("" when it shows none): the top
    one of its picture sources that is enabled."""
    items = c.request("GetSceneItemList", {"sceneName": scene})["sceneItems"]
    on = [i for i in items if i["sourceName"] in L.buffer_inputs(graphic) and i["sceneItemEnabled"]]
    if not on:
        return ""
    top = max(on, key=lambda i: int(i["sceneItemIndex"]))["sourceName"]
    return str(c.request("GetInputSettings", {"inputName": top})["inputSettings"].get("file", ""))


def shot(c: ObsClient, scene: str, width: int = 1920) -> Image.Image:
    data = c.screenshot(scene, width=width, fmt="png", timeout=20)  # a 1080p PNG is slow on a busy machine
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_provision_twice_same_scenes_and_corner_bug(client: ObsClient, store: ShowStore) -> None:
    lay = L.build_layout(store.state, browser=False)
    provision(client, lay)
    first = snapshot(client)
    rep = provision(client, lay)
    assert not rep.changed
    assert snapshot(client) == first
    for scene in L.AIR_SCENES:
        assert scene in first["scenes"]
    for scene, items in first["scenes"].items():
        names = [i[0] for i in items]
        bug = [i.source for i in lay.graphics["corner_bug"]]
        if scene in L.CORNER_BUG_SCENES:
            assert names[-len(bug) :] == bug, f"{scene}: the bug must be on top, whole, once"
            assert all(names.count(b) == 1 for b in bug), scene
        elif scene in L.AIR_SCENES:
            assert not set(bug) & set(names), scene
        if scene in lay.scenes:  # exactly the layout's items, in the layout's order
            assert names[: len(lay.scenes[scene])] == [i.source for i in lay.scenes[scene]], scene
    video = client.request("GetVideoSettings")
    assert (video["baseWidth"], video["baseHeight"], video["fpsNumerator"]) == (1920, 1080, 25)


def test_scoreboard_update_shows_on_program(
    obs_server: HeadlessObs, client: ObsClient, store: ShowStore, obs_artifacts: Path
) -> None:
    rec = MemoryAirLog()
    with ObsBridge(store, bridge_settings(obs_server), airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard", "on": True})
        store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
        wait_for(
            lambda: {e.subject for e in rec.kinds(A.GRAPHIC_ON)} >= {"scoreboard", "corner_bug"},
            15,
            "scoreboard and corner bug on air (OBS events)",
        )
        wait_frames(client)
        before = shot(client, L.SCENE_GAME)
        before.save(obs_artifacts / "scoreboard_before.png")
        seat1_new = {"name": "王大锤", "cards_left": 7, "title": "头科"}
        was = shown_picture(client, "scoreboard")
        store.dispatch("obs_test.table", {"seats": {"1": seat1_new}, "special": "小当家"})
        wait_for(
            lambda: shown_picture(client, "scoreboard") not in ("", was), 15, "the new picture on program"
        )
        assert lay_of(bridge).pictures["scoreboard"].op("比分·1号位").settings["text"] == "王大锤"
        wait_frames(client)
        after = shot(client, L.SCENE_GAME)
        after.save(obs_artifacts / "scoreboard_after.png")
        x0, y0 = SB.SCOREBOARD[0] + SB.SEAT_POS[1][0], SB.SCOREBOARD[1] + SB.TABLE_TOP + SB.SEAT_POS[1][1]
        seat1 = (x0, y0, x0 + SB.SEAT_CELL[0], y0 + SB.SEAT_CELL[1])  # seat 1's cell, bottom of the table
        assert (L.SAFE[0], L.SAFE[1]) <= (x0, y0) and (seat1[2], seat1[3]) <= (L.SAFE[2], L.SAFE[3])
        elsewhere = (700, 200, 1200, 600)  # empty studio area
        diff = ImageChops.difference(before.crop(seat1), after.crop(seat1))
        assert max(ImageStat.Stat(diff).extrema[i][1] for i in range(3)) > 100, "seat 1 did not change"
        assert ImageChops.difference(before.crop(elsewhere), after.crop(elsewhere)).getbbox() is None
        # sponsor slots on air get a proof screenshot with their as-run entry
        wait_for(lambda: len(rec.proofs) >= 2, 10, "automatic proofs")
        jpeg, w, h = next(iter(rec.proofs.values()))
        assert (w, h) == (640, 360) and jpeg[:2] == b"\xff\xd8"
        proof = bridge.proof_of_air()
        assert proof.scene == L.SCENE_GAME and (proof.width, proof.height) == (640, 360)
        assert rec.events[proof.event_id - 1].kind == A.PROOF  # type: ignore[operator]
        (obs_artifacts / "proof_of_air.jpg").write_bytes(proof.jpeg)


def test_film_sequence_after_the_leaderboard(obs_server: HeadlessObs, store: ShowStore, film: Path) -> None:
    rec = MemoryAirLog()
    seen: list[tuple[str, str]] = []

    def on_event(ev: ObsEvent) -> None:
        if ev.type == "CurrentProgramSceneChanged":
            seen.append((ev.type, ev.data["sceneName"]))
        elif ev.type.startswith("MediaInputPlayback") and ev.data["inputName"] == L.film_input("guanming"):
            # (the session's OBS may hold other tests' films in its break scene: OBS reports a blink of
            # each when the scene goes live, never on air)
            seen.append((ev.type, ev.data["inputName"]))

    bridge = ObsBridge(
        store, bridge_settings(obs_server), airlog=rec, films={"guanming": film}, leaderboard_film="guanming"
    )
    bridge.add_event_listener(on_event)
    with bridge:
        assert bridge.wait_connected(120)
        wait_for(lambda: bridge.status.program_scene == L.SCENE_GAME, 10, "game scene")
        seen.clear()
        t0 = time.time()
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": True})
        wait_for(lambda: ("CurrentProgramSceneChanged", L.SCENE_LEADERBOARD) in seen, 10, "英雄榜 on program")
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": False})
        wait_for(lambda: seen[-1:] == [("CurrentProgramSceneChanged", L.SCENE_GAME)], 24, "back to the game")
    film_input = L.film_input("guanming")
    # what OBS reported of the bridge's start (the game scene put back on program, whatever the shared
    # OBS showed before) may arrive after the status said so: the sequence starts with the 英雄榜
    seen = seen[seen.index(("CurrentProgramSceneChanged", L.SCENE_LEADERBOARD)) :]
    # OBS may report one switch twice (its scene-changed signal at the cut and again as the transition
    # stops, on a busy machine): the switches are the changes; the as-run holds each switch once
    seen = [e for n, e in enumerate(seen) if n == 0 or e != seen[n - 1]]
    rows = [e.subject for e in rec.kinds(A.PROGRAM_SCENE) if e.ts >= t0 and e.subject]
    assert rows == [L.SCENE_LEADERBOARD, L.SCENE_BREAK, L.SCENE_GAME], rows
    # OBS sends its scene-changed events from its UI thread and the film's from its media thread: on a
    # busy machine the break's switch can be reported before the film starts, while it plays or after it
    # ended. What holds: the switches in order, the film started and ended once, between the 英雄榜's
    # switch and the game's (the as-run above, from OBS's answers, has the break between them)
    switches = [e for e in seen if e[0] == "CurrentProgramSceneChanged"]
    assert switches == [
        ("CurrentProgramSceneChanged", L.SCENE_LEADERBOARD),
        ("CurrentProgramSceneChanged", L.SCENE_BREAK),
        ("CurrentProgramSceneChanged", L.SCENE_GAME),
    ], seen
    assert [e for e in seen if e[0] != "CurrentProgramSceneChanged"] == [
        ("MediaInputPlaybackStarted", film_input),
        ("MediaInputPlaybackEnded", film_input),
    ], seen
    assert seen[0] == switches[0] and seen[-1] == switches[-1], seen
    start, end = rec.kinds(A.FILM_START), rec.kinds(A.FILM_END)
    assert [e.subject for e in start] == ["guanming"] and [e.subject for e in end] == ["guanming"]
    assert start[0].source == "obs" and 1.5 < end[0].ts - start[0].ts < 3.5  # a 2 s film
    board_off = [e for e in rec.kinds(A.GRAPHIC_OFF) if e.subject == "leaderboard"]
    assert board_off and board_off[0].ts <= start[0].ts + 0.5


def test_panic_clears_program_and_leaves_no_stale_flags(
    obs_server: HeadlessObs, store: ShowStore, film: Path
) -> None:
    rec = MemoryAirLog()
    with ObsBridge(
        store, bridge_settings(obs_server), airlog=rec, films={"guanming": film}, leaderboard_film="guanming"
    ) as bridge:
        assert bridge.wait_connected(120)
        for g in ("scoreboard", "corner_bug", "leaderboard"):
            store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
        wait_for(lambda: bridge.status.program_scene == L.SCENE_LEADERBOARD, 10, "英雄榜")
        bridge.panic()
        wait_for(lambda: bridge.status.program_scene == L.SCENE_GAME, 10, "clean game scene")
        time.sleep(0.5)
        assert bridge.status.film == "", "panic must not roll the sponsor film"
        assert not rec.kinds(A.FILM_START)
        assert not any(v["on"] for v in store.state["graphics"]["program"].values())
        items = bridge.request("GetSceneItemList", {"sceneName": L.SCENE_GAME})["sceneItems"]
        shown = {i["sourceName"] for i in items if i["sceneItemEnabled"]}
        graphic_items = {
            i.source for items in L.graphic_items(lay_of(bridge), L.SCENE_GAME).values() for i in items
        }
        assert graphic_items and shown & graphic_items == set()
        on: set[str] = set()
        for e in rec.events:
            if e.kind == A.GRAPHIC_ON:
                on.add(e.subject)
            elif e.kind == A.GRAPHIC_OFF:
                on.discard(e.subject)
        assert on == set(), f"as-run still has {on} on air"


def test_the_operator_sees_the_real_reason(obs_server: HeadlessObs, store: ShowStore) -> None:
    """Wrong password, no password, nothing listening: each its own reason in the status object."""
    with pytest.raises(ObsAuthError) as err:
        ObsClient(bridge_settings(obs_server, password="wrong")).connect()
    assert err.value.code == 4009 and "Authentication failed" in err.value.comment
    assert "密码错误" in err.value.message_zh
    seen: list[BridgeStatus] = []
    with ObsBridge(store, bridge_settings(obs_server, password="wrong-pw-xyz")) as bridge:
        bridge.add_status_listener(seen.append)
        wait_for(lambda: bridge.status.state == AUTH_FAILED, 10, "auth_failed status")
        assert bridge.status.reason == "auth_failed" and "密码错误" in bridge.status.message_zh
        assert "refused the password" in bridge.status.message_en
        assert "wrong-pw-xyz" not in repr(bridge) and all("wrong-pw-xyz" not in st.line for st in seen)
    with ObsBridge(store, bridge_settings(obs_server, password="")) as bridge:
        wait_for(lambda: bridge.status.reason == "no_password", 10, "no_password status")
        assert "没有设置" in bridge.status.message_zh
    # the password is never on OBS's command line (ps) nor in its log: OBS reads it from global.ini
    assert obs_server.pid is not None
    cmdline = Path(f"/proc/{obs_server.pid}/cmdline").read_bytes().decode("utf-8", "replace")
    assert "obs" in cmdline and PASSWORD not in cmdline
    assert PASSWORD not in obs_server.log_path.read_text(encoding="utf-8", errors="replace")
    # OBS's own settings that hold the password (OBS rewrites global.ini itself) are its user's alone
    cfg = obs_server.home / ".config" / "obs-studio"
    holding = [f for f in cfg.rglob("*") if f.is_file() and PASSWORD in f.read_text(errors="replace")]
    assert holding and all(f.stat().st_mode & 0o077 == 0 for f in holding), [
        (str(f), oct(f.stat().st_mode)) for f in holding
    ]
    assert cfg.stat().st_mode & 0o077 == 0
    closed = free_port()
    with ObsBridge(store, bridge_settings(obs_server, port=closed)) as bridge:
        wait_for(lambda: bridge.status.reason == "unreachable", 10, "unreachable status")
        assert "没有程序在监听" in bridge.status.message_zh and str(closed) in bridge.status.detail


def _caller(bridge: ObsBridge, waits: list[float], stop: threading.Event) -> None:
    while not stop.is_set():
        t0 = time.monotonic()
        try:
            bridge.request("GetVersion")
        except ObsError:
            time.sleep(0.02)
        waits.append(time.monotonic() - t0)


def _on_air(events: list[A.AirEvent]) -> set[str]:
    on: set[str] = set()
    for e in events:
        if e.kind == A.GRAPHIC_ON:
            on.add(e.subject)
        elif e.kind == A.GRAPHIC_OFF:
            on.discard(e.subject)
    return on


def test_kill_and_restart_counts_nothing_while_down_and_resyncs(
    obs_to_kill: HeadlessObs, store: ShowStore, obs_artifacts: Path
) -> None:
    """OBS SIGKILLed with requests in flight: no caller hangs, the as-run closes everything at the loss
    (an outage, cause "lost"), nothing is on air until OBS confirms it again after the restart, and a
    change made while OBS was down is on air after the re-sync. The re-sync time is printed."""
    settings = bridge_settings(obs_to_kill)
    rec = MemoryAirLog()
    waits: list[float] = []
    stop = threading.Event()
    callers: list[threading.Thread] = []
    try:
        with ObsBridge(store, settings, airlog=rec) as bridge:
            assert bridge.wait_connected(120), bridge.status
            store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard", "on": True})
            store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
            wait_for(lambda: _on_air(rec.events) >= {"scoreboard", "corner_bug"}, 15, "graphics on")
            callers = [
                threading.Thread(target=_caller, args=(bridge, waits, stop), daemon=True) for _ in range(2)
            ]
            for t in callers:
                t.start()
            time.sleep(0.3)  # requests are in flight when OBS dies
            t_kill = time.time()
            obs_to_kill.kill()
            wait_for(lambda: not bridge.status.connected, 10, "loss detected")
            assert bridge.status.reason in ("lost", "unreachable"), bridge.status
            store.dispatch("obs_test.table", {"seats": {"2": {"name": "断线期间改名"}}})  # while OBS is down
            n_down = len(rec.events)
            restart_after_kill(obs_to_kill)  # returns when OBS's port is open
            port_open = time.monotonic()
            wait_for(
                lambda: bridge.status.connected and bridge.status.synced_at > port_open,
                30,
                "bridge back and re-synced",
            )
            took = bridge.status.synced_at - port_open
            resync = bridge.status.resync_seconds
            stop.set()
            # each graphic shows one of its picture sources again, the picture of the state changed while
            # OBS was down
            pic = lay_of(bridge).pictures["scoreboard"]
            assert (
                pic.op("比分·2号位").settings["text"].replace("\n", "").startswith("断线期间改名")
            )  # names take two lines
            assert Path(shown_picture(bridge, "scoreboard")).name == bridge.pictures.path(pic).name
            assert shown_picture(bridge, "corner_bug")
            assert bridge.request("GetCurrentProgramScene")["currentProgramSceneName"] == L.SCENE_GAME
    finally:
        stop.set()
        for t in callers:
            t.join(10)
    assert not any(t.is_alive() for t in callers)
    kinds = [(e.kind, e.subject) for e in rec.events]
    down = kinds.index((A.OBS_DOWN, "lost"))
    up = [i for i, k in enumerate(kinds) if k[0] == A.OBS_UP]
    assert len(up) == 2 and up[0] < down < up[1]
    # everything closed at the loss, nothing on air between the loss and OBS's confirmation
    offs = [e for e in rec.events[:down] if e.kind == A.GRAPHIC_OFF and e.detail.get("reason") == "obs_lost"]
    assert {e.subject for e in offs} == {"scoreboard", "corner_bug"}
    assert all(abs(e.ts - t_kill) < 5 for e in offs)
    assert not [e for e in rec.events[down : up[1]] if e.kind in (A.GRAPHIC_ON, A.PROGRAM_SCENE)]
    back = [e for e in rec.events[up[1] :] if e.kind == A.GRAPHIC_ON]
    assert {e.subject for e in back} >= {"scoreboard", "corner_bug"}
    assert all(e.ts >= rec.events[up[1]].ts for e in back) and n_down <= up[1]
    assert max(waits) <= settings.timeout + 5.0, f"a caller waited {max(waits):.2f}s"  # never a hang
    line = (
        f"kill -9 → restart: OBS port open → re-synced and on air {took:.3f}s "
        f"(bridge socket open → confirmed {resync:.3f}s); "
        f"longest caller wait during the outage {max(waits):.3f}s "
        f"(timeout {settings.timeout}s, {len(waits)} calls)"
    )
    (obs_artifacts / "reconnect.txt").write_text(line + "\n", encoding="utf-8")
    print(line)


def test_frozen_obs_is_an_outage_from_its_last_answer(obs_to_kill: HeadlessObs, store: ShowStore) -> None:
    """SIGSTOP: calls fail within their timeout, the watchdog notices, the as-run records an outage
    "frozen" from the last moment OBS answered; after SIGCONT the bridge re-syncs and OBS's
    confirmation puts the graphics back. The detection time is printed."""
    settings = bridge_settings(obs_to_kill, freeze_after=1.0)
    rec = MemoryAirLog()
    with ObsBridge(store, settings, airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
        wait_for(lambda: "corner_bug" in _on_air(rec.events), 15, "corner bug on")
        t_freeze = time.time()
        obs_to_kill.freeze()
        try:
            t0 = time.monotonic()
            wait_for(lambda: not bridge.status.connected, 15, "frozen OBS noticed by the watchdog")
            noticed = time.monotonic() - t0
            assert bridge.status.reason == "frozen", bridge.status
            t0 = time.monotonic()
            with pytest.raises(ObsError):
                bridge.request("GetVersion")
            failed_in = time.monotonic() - t0
            t0 = time.monotonic()
            with pytest.raises(ObsConnectError):
                ObsClient(settings).connect()
            assert time.monotonic() - t0 <= settings.connect_timeout + 5.0
        finally:
            obs_to_kill.thaw()
        assert bridge.wait_connected(120), bridge.status
        wait_for(lambda: "corner_bug" in _on_air(rec.events), 15, "corner bug confirmed again")
    down = next(e for e in rec.events if e.kind == A.OBS_DOWN and e.subject == "frozen")
    assert t_freeze - settings.ping_interval - 0.5 <= down.detail["since"] <= t_freeze + 0.5
    off = next(e for e in rec.events if e.kind == A.GRAPHIC_OFF and e.detail.get("reason") == "obs_lost")
    assert off.subject == "corner_bug" and off.ts <= down.ts
    print(
        f"SIGSTOP → frozen OBS noticed after {noticed:.3f}s (freeze_after {settings.freeze_after}s, "
        f"ping every {settings.ping_interval}s); a call meanwhile failed in {failed_in:.3f}s; "
        f"outage starts at OBS's last answer, {t_freeze - down.detail['since']:.3f}s before the SIGSTOP"
    )


def test_each_bumper_line_is_timed_on_its_own(obs_server: HeadlessObs, store: ShowStore) -> None:
    """The opening bumpers are one graphic whose line changes (冠名 → 独家特约 → 赞助播出): the as-run
    must give each sponsor's line its own on/off pair, or one sponsor is credited with all of them."""
    rec = MemoryAirLog()
    with ObsBridge(store, bridge_settings(obs_server), airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        store.dispatch("graphic.set", {"bus": "program", "graphic": "bumper", "on": True, "item": "title"})
        wait_for(lambda: any(e.subject == "bumper" for e in rec.kinds(A.GRAPHIC_ON)), 15, "bumper on air")
        store.dispatch("graphic.set", {"bus": "program", "graphic": "bumper", "on": True, "item": "special"})
        wait_for(
            lambda: len([e for e in rec.kinds(A.GRAPHIC_ON) if e.subject == "bumper"]) >= 2,
            15,
            "the second line on air",
        )
        store.dispatch("graphic.set", {"bus": "program", "graphic": "bumper", "on": False})
        # flush(): the change has reached OBS and OBS's events the as-run log — no waiting needed
        assert bridge.flush(5)
    bumper = [(e.kind, e.detail.get("item")) for e in rec.events if e.subject == "bumper"]
    assert bumper == [
        (A.GRAPHIC_ON, "title"),
        (A.GRAPHIC_OFF, "title"),
        (A.GRAPHIC_ON, "special"),
        (A.GRAPHIC_OFF, "special"),
    ]


def test_native_graphics_on_program_look_like_the_design(
    obs_server: HeadlessObs, client: ObsClient, store: ShowStore, obs_artifacts: Path
) -> None:
    """The demo show through OBS's own sources: the game scene (scoreboard, corner bug, 记牌器, 胜率,
    lower third, commentary, ticker), the 英雄榜 and a bumper, each a screenshot in test-artifacts/obs/;
    nothing is drawn outside the title-safe area (the studio background shows there untouched)."""
    rec = MemoryAirLog()
    with ObsBridge(store, bridge_settings(obs_server), airlog=rec) as bridge:
        assert bridge.wait_connected(120), bridge.status
        store.dispatch("obs_test.demo", {})
        game = ("scoreboard", "corner_bug", "jipaiqi", "winprob", "lower_third", "commentary", "ticker")
        for g in game:
            store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
        assert bridge.flush(30)  # a guard against a bridge that never catches up (loaded machine)
        wait_for(
            lambda: {e.subject for e in rec.kinds(A.GRAPHIC_ON)} >= set(game), 15, "game graphics on air"
        )
        # state-driven colours reached OBS's picture: seat 1 has 7 cards (报牌), seat 4 has the turn
        pic = lay_of(bridge).pictures["scoreboard"]
        count = pic.op("比分·1号位·张数").settings
        assert count["text"] == "7" and count["color1"] == P.abgr(P.WARN)
        assert int(pic.op("比分·4号位·轮到").settings["color"]) >> 24 == 255
        assert Path(shown_picture(client, "scoreboard")).name == bridge.pictures.path(pic).name
        wait_frames(client)
        shots = {"scoreboard_demo": shot(client, L.SCENE_GAME)}
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": True})
        wait_for(lambda: bridge.status.program_scene == L.SCENE_LEADERBOARD, 10, "英雄榜 on program")
        wait_frames(client)
        shots["leaderboard"] = shot(client, L.SCENE_LEADERBOARD)
        store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": False})
        store.dispatch("graphic.set", {"bus": "program", "graphic": "bumper", "on": True, "item": "title"})
        wait_for(lambda: bridge.status.program_scene == L.SCENE_BUMPER, 10, "bumper on program")
        wait_frames(client)
        shots["bumper"] = shot(client, L.SCENE_BUMPER)
    studio = Image.new("RGB", (1920, 1080), "#10241d")
    x0, y0, x1, y1 = L.SAFE
    for name, img in shots.items():
        img.save(obs_artifacts / f"{name}.png")
        inside = ImageChops.difference(img.crop((x0, y0, x1, y1)), studio.crop((x0, y0, x1, y1)))
        assert inside.getbbox() is not None, f"{name}: nothing drawn"
        for box in ((0, 0, 1920, y0), (0, y1, 1920, 1080), (0, 0, x0, 1080), (x1, 0, 1920, 1080)):
            diff = ImageChops.difference(img.crop(box), studio.crop(box))
            assert max(hi for _lo, hi in ImageStat.Stat(diff).extrema) <= 2, f"{name}: drawn outside {box}"


@pytest.mark.long  # every graphic at its maxima rendered by OBS and shot: ~25 s of CPU
@pytest.mark.timeout(600)  # 119 s with two busy loops beside five sessions' tests (load 19): not a hang
def test_native_graphics_with_every_text_at_its_maximum_on_a_real_obs(
    obs_server: HeadlessObs, client: ObsClient, store: ShowStore
) -> None:
    """Issue 13: every on-air text field at its schema maximum (tests/textfit.py) through a real OBS:
    OBS shows this state's pictures, in which no text was cut (tests/obs/test_fit.py holds that each is
    whole inside its box at or above its floor), and nothing is drawn outside the title-safe area.
    Screenshots: test-artifacts/overlays/fit/obs_*.png."""
    from tests.textfit import max_state

    out = ROOT / "test-artifacts" / "overlays" / "fit"
    out.mkdir(parents=True, exist_ok=True)
    game = ("scoreboard", "corner_bug", "jipaiqi", "winprob", "lower_third", "commentary", "ticker")
    full = {"leaderboard": L.SCENE_LEADERBOARD, "jiugongge": L.SCENE_JIUGONGGE, "bumper": L.SCENE_BUMPER}
    studio = Image.new("RGB", (1920, 1080), "#10241d")
    x0, y0, x1, y1 = L.SAFE
    shots: dict[str, Image.Image] = {}
    with ObsBridge(store, bridge_settings(obs_server), airlog=MemoryAirLog()) as bridge:  # one for both
        assert bridge.wait_connected(120), bridge.status
        for variant in ("message", "quiet"):
            st = _local_logos(max_state("cjk"))
            if variant == "quiet":
                st["table"]["message"] = ""  # the last play and whose turn, at their maxima
            sections = ("table", "sponsors", "leaderboard", "lower_third", "show", "jiugongge", "winprob")
            store.dispatch("obs_test.state", {k: st[k] for k in sections})
            for g in game:
                store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
            assert bridge.flush(60)  # every graphic drawn at its maxima first: 7-10 s of it at load 20
            pictures = lay_of(bridge).pictures
            for g in game:  # OBS shows the pictures of this state
                want = bridge.pictures.path(pictures[g]).name
                wait_for(lambda g=g, want=want: Path(shown_picture(client, g)).name == want, 30, f"{g} shown")  # type: ignore[misc]
            for g, pic in pictures.items():
                cut = [f"{n} “{t}”" for n, t in pic.texts().items() if "…" in t and n != "字幕条·文字"]
                assert not cut, f"{variant}: {g}: cut at its maximum: {cut}"
            wait_frames(client)
            shots[f"game_{variant}"] = shot(client, L.SCENE_GAME)
            if variant == "quiet":
                continue
            for g, scene in full.items():
                store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": True})
                wait_for(lambda scene=scene: bridge.status.program_scene == scene, 20, f"{g} on program")  # type: ignore[misc]
                wait_frames(client)
                shots[g] = shot(client, scene)
                store.dispatch("graphic.set", {"bus": "program", "graphic": g, "on": False})
    for name, img in shots.items():
        img.save(out / f"obs_{name}.png")
        inside = ImageChops.difference(img.crop((x0, y0, x1, y1)), studio.crop((x0, y0, x1, y1)))
        assert inside.getbbox() is not None, f"{name}: nothing drawn"
        for box in ((0, 0, 1920, y0), (0, y1, 1920, 1080), (0, 0, x0, 1080), (x1, 0, 1920, 1080)):
            diff = ImageChops.difference(img.crop(box), studio.crop(box))
            assert max(hi for _lo, hi in ImageStat.Stat(diff).extrema) <= 2, f"{name}: drawn outside {box}"
