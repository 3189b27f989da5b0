"""OBS bridge pieces that need no OBS: settings, layout, provisioning against a fake OBS."""

from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import Any

import pytest

from broadcast.obs import layout as L
from broadcast.obs.errors import ALREADY_EXISTS, NOT_FOUND, ObsError, ObsRequestError
from broadcast.obs.graphics import paint as P
from broadcast.obs.provision import ProvisionError, has_browser_source, provision
from broadcast.obs.settings import ObsSettings, SettingsError
from broadcast.studio import default_state

DEBIAN_KINDS = [
    "image_source",
    "color_source_v3",
    "slideshow",
    "xshm_input",
    "v4l2_input",
    "ffmpeg_source",
    "text_ft2_source_v2",
]


class FakeObs:
    """Just enough of obs-websocket v5 (scenes, inputs, items) to exercise provisioning."""

    def __init__(self, kinds: list[str]) -> None:
        self.kinds = kinds
        self.scenes: dict[str, list[dict[str, Any]]] = {"Scene": []}
        self.inputs: dict[str, tuple[str, dict[str, Any]]] = {}
        self.next_id = 1
        self.calls: list[str] = []
        self.transition = "Fade"

    def request(
        self, t: str, d: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        d = d or {}
        self.calls.append(t)
        if t == "GetInputKindList":
            return {"inputKinds": list(self.kinds)}
        if t == "GetVideoSettings":
            return {
                "baseWidth": 1920,
                "baseHeight": 1080,
                "outputWidth": 1920,
                "outputHeight": 1080,
                "fpsNumerator": 30,
                "fpsDenominator": 1,
            }
        if t in ("SetVideoSettings", "SetCurrentSceneTransitionDuration"):
            return {}
        if t == "GetCurrentSceneTransition":
            return {"transitionName": self.transition}
        if t == "SetCurrentSceneTransition":
            self.transition = d["transitionName"]
            return {}
        if t == "GetInputSettings":
            if d["inputName"] not in self.inputs:
                raise ObsRequestError(t, NOT_FOUND, "no input")
            return {"inputSettings": copy.deepcopy(self.inputs[d["inputName"]][1])}
        if t == "GetSceneList":
            return {"scenes": [{"sceneName": s} for s in self.scenes]}
        if t == "GetInputList":
            return {"inputs": [{"inputName": n, "inputKind": k} for n, (k, _s) in self.inputs.items()]}
        if t == "CreateScene":
            if d["sceneName"] in self.scenes or d["sceneName"] in self.inputs:
                raise ObsRequestError(t, ALREADY_EXISTS, "exists")
            self.scenes[d["sceneName"]] = []
            return {}
        if t == "CreateInput":
            self.inputs[d["inputName"]] = (d["inputKind"], dict(d["inputSettings"]))
            return {"sceneItemId": self._add(d["sceneName"], d["inputName"], True)}
        if t == "RemoveScene":
            if d["sceneName"] not in self.scenes:
                raise ObsRequestError(t, NOT_FOUND, "no scene")
            del self.scenes[d["sceneName"]]
            return {}
        if t == "RemoveInput":
            if d["inputName"] not in self.inputs:
                raise ObsRequestError(t, NOT_FOUND, "no input")
            del self.inputs[d["inputName"]]
            for scene in self.scenes:
                self.scenes[scene] = [i for i in self.scenes[scene] if i["sourceName"] != d["inputName"]]
                self._reindex(scene)
            return {}
        if t == "SetInputSettings":
            if d["inputName"] not in self.inputs:
                raise ObsRequestError(t, NOT_FOUND, "no input")
            kind, s = self.inputs[d["inputName"]]
            self.inputs[d["inputName"]] = (kind, {**s, **d["inputSettings"]})
            return {}
        if t == "GetSceneItemList":
            if d["sceneName"] not in self.scenes:
                raise ObsRequestError(t, NOT_FOUND, "no scene")
            return {"sceneItems": [dict(i) for i in self.scenes[d["sceneName"]]]}
        if t == "CreateSceneItem":
            enabled = d.get("sceneItemEnabled", True)
            return {"sceneItemId": self._add(d["sceneName"], d["sourceName"], enabled)}
        if t == "RemoveSceneItem":
            self.scenes[d["sceneName"]] = [
                i for i in self.scenes[d["sceneName"]] if i["sceneItemId"] != d["sceneItemId"]
            ]
            self._reindex(d["sceneName"])
            return {}
        if t in ("SetSceneItemTransform", "SetSceneItemEnabled"):
            item = next(i for i in self.scenes[d["sceneName"]] if i["sceneItemId"] == d["sceneItemId"])
            if t == "SetSceneItemEnabled":
                item["sceneItemEnabled"] = d["sceneItemEnabled"]
            else:
                item["sceneItemTransform"] = dict(d["sceneItemTransform"])
            return {}
        if t == "SetSceneItemIndex":
            items = self.scenes[d["sceneName"]]
            item = next(i for i in items if i["sceneItemId"] == d["sceneItemId"])
            items.remove(item)
            items.insert(d["sceneItemIndex"], item)
            self._reindex(d["sceneName"])
            return {}
        raise AssertionError(f"FakeObs: unexpected request {t}")

    def pipeline(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> list[dict[str, Any] | ObsError]:
        out: list[dict[str, Any] | ObsError] = []
        for t, d in calls:
            try:
                out.append(self.request(t, d))
            except ObsError as exc:
                out.append(exc)
        return out

    def _add(self, scene: str, source: str, enabled: bool) -> int:
        iid = self.next_id
        self.next_id += 1
        self.scenes[scene].append(
            {
                "sceneItemId": iid,
                "sourceName": source,
                "sceneItemEnabled": enabled,
                "sceneItemIndex": len(self.scenes[scene]),
            }
        )
        return iid

    def _reindex(self, scene: str) -> None:
        for n, i in enumerate(self.scenes[scene]):
            i["sceneItemIndex"] = n


def _state_with_names() -> dict[str, Any]:
    st = default_state()
    st["table"]["seats"][0]["name"] = "<b>王五</b>"  # markup within a name's 10 characters
    st["sponsors"]["special"]["name"] = "小当家"
    return st


# -- settings -----------------------------------------------------------------------------------
def test_password_never_in_repr_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    s = ObsSettings(password="hunter2-secret")
    caplog.set_level(logging.DEBUG)
    logging.getLogger("t").info("settings %s %r", s, s)
    assert "hunter2-secret" not in repr(s) and "hunter2-secret" not in str(s)
    assert "***" in repr(s)
    assert "hunter2-secret" not in caplog.text


def test_settings_from_file_and_environment(tmp_path: Path) -> None:
    f = tmp_path / "studio.yaml"
    f.write_text(
        "obs:\n  host: 10.0.0.9\n  port: 4456\n  password_env: MY_PW\n  fps: 50\n"
        "  films: {lb: films/lb.mp4}\n  leaderboard_film: lb\n",
        encoding="utf-8",
    )
    s = ObsSettings.load(f, env={"MY_PW": "pw1", "GOUJI_OBS_HOST": "127.0.0.1"})
    assert (s.host, s.port, s.password, s.fps, s.leaderboard_film) == ("127.0.0.1", 4456, "pw1", 50, "lb")
    assert s.film_paths()["lb"] == (tmp_path / "films" / "lb.mp4").resolve()
    env = {"GOUJI_OBS_PORT": "4999", "GOUJI_OBS_PASSWORD": "x"}
    s2 = ObsSettings.load(None, env=env)
    assert (s2.port, s2.password) == (4999, "x")


def test_bad_settings_name_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("obs:\n  host: a\n  port: [1,\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"bad.yaml:\d+: invalid YAML"):
        ObsSettings.load(f, env={})
    f.write_text("obs:\n  hots: a\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="unknown OBS setting.*hots"):
        ObsSettings.load(f, env={})
    with pytest.raises(SettingsError, match="25 or 50"):
        ObsSettings(fps=30)
    with pytest.raises(SettingsError, match="GOUJI_OBS_PORT"):
        ObsSettings.load(None, env={"GOUJI_OBS_PORT": "many"})


# -- layout -------------------------------------------------------------------------------------
def _op(lay: L.Layout, name: str) -> L.InputSpec:
    """A drawing op of one of the layout's pictures, by name."""
    for pic in lay.pictures.values():
        if name in {o.name for o in pic.ops}:
            return pic.op(name)
    raise KeyError(name)


def test_native_layout_texts_are_text_and_follow_state() -> None:
    lay = L.build_layout(_state_with_names(), browser=False)
    assert all(spec.kind != L.BROWSER for spec in lay.inputs.values())
    seat1 = _op(lay, "比分·1号位")
    assert seat1.kind == L.TEXT and seat1.settings["text"].replace("\n", "") == "<b>王五</b>"  # on two lines
    assert seat1.settings["font"]["face"] == "Noto Sans CJK SC"
    assert _op(lay, "角标·文字").settings["text"] == "小当家"
    assert _op(lay, "角标·标签").settings["text"] == "独家特约"
    st = _state_with_names()
    st["table"]["seats"][2].update(cards_left=0, title="头科", status="out")
    st["table"]["seats"][4].update(cards_left=9, baopai=True)  # as the engine reports it (G5.6)
    st["table"]["turn"] = 4
    lay2 = L.build_layout(st, browser=False)

    def alpha(name: str) -> int:
        return int(_op(lay2, name).settings["color"]) >> 24

    # the title replaces the count, on its badge
    assert _op(lay2, "比分·3号位·张数").settings["text"] == "头科"
    assert alpha("比分·3号位·称号底") == 255 and alpha("比分·1号位·称号底") == 0
    # whose turn: the gold frame of seat 4 only
    assert [alpha(f"比分·{n}号位·轮到") for n in range(1, 7)] == [0, 0, 0, 255, 0, 0]
    # seat 4 has no name (''): the turn line says the seat alone, its cell shows the seat in the show's
    # language — never an empty hole on air
    assert _op(lay2, "比分·轮到人").settings["text"] == "4号"
    assert _op(lay2, "比分·4号位").settings["text"].replace("\n", "") == "4号位"
    # 报牌 at ≤ 10: the cell lights up and the number turns orange (ABGR)
    assert [alpha(f"比分·{n}号位·报牌") for n in range(1, 7)] == [0, 0, 0, 0, 255, 0]
    five = _op(lay2, "比分·5号位·张数").settings
    assert five["text"] == "9" and five["color1"] == five["color2"] == P.abgr(P.WARN)
    assert _op(lay2, "比分·1号位·张数").settings["color1"] == P.abgr("#ffffff")
    # team colours: stripes per seat, team bars in the header
    assert _op(lay2, "比分·2号位色").settings["color"] == P.abgr("#1f5fbf")
    assert _op(lay2, "比分·单队底").settings["color"] == P.abgr("#c8372d")
    # a new state is a new picture of the scoreboard only where the scoreboard changed
    assert lay2.pictures["scoreboard"].digest != lay.pictures["scoreboard"].digest
    assert lay2.pictures["leaderboard"].digest == lay.pictures["leaderboard"].digest


def test_native_graphics_are_one_picture_source_pair_each() -> None:
    """Each graphic is two image sources in OBS (shown one at a time), at its frame: an air scene holds
    a handful of items, not one per word and rectangle."""
    lay = L.build_layout(default_state(), browser=False)
    for g, items in lay.graphics.items():
        assert [i.source for i in items] == list(L.buffer_inputs(g))
        for name in L.buffer_inputs(g):
            spec = lay.inputs[name]
            assert spec.kind == L.IMAGE and spec.graphic == g
            assert (spec.x, spec.y, spec.align) == (*lay.pictures[g].frame[:2], L.ALIGN_TOP_LEFT)
    assert len(lay.scenes[L.SCENE_GAME]) == 1 + 2 * len(L.SCENE_GRAPHICS[L.SCENE_GAME])
    assert max(len(items) for items in lay.scenes.values()) <= 16


def test_native_positions_never_follow_the_state_and_stay_title_safe() -> None:
    """Where a source sits, and where each op is drawn, must not depend on the state; every graphic is
    drawn inside its frame, and every frame inside the 90 % title-safe area."""
    import copy

    from broadcast.obs.graphics import raster as R
    from broadcast.overlay.demo import demo_state

    long = copy.deepcopy(demo_state())
    for seat in long["table"]["seats"]:
        seat.update(name="欧阳长长长长长长名字", title="圈三", baopai=True)
    long["lower_third"].update(name="很长很长的名字" * 6, line2="很长的说明" * 10)
    long["table"]["message"] = "一条很长很长很长很长很长很长很长很长很长很长的消息" * 3
    layouts = [L.build_layout(st, browser=False) for st in (demo_state(), default_state(), long)]
    busy, empty = layouts[0], layouts[1]
    assert set(busy.inputs) == set(empty.inputs)
    for name, a in busy.inputs.items():
        b = empty.inputs[name]
        assert (a.scene, a.x, a.y, a.align, a.bounds, a.fit) == (b.scene, b.x, b.y, b.align, b.bounds, b.fit)
    for g, pic in busy.pictures.items():
        other = empty.pictures[g]
        assert [(o.name, o.x, o.y, o.align, o.bounds, o.fit) for o in pic.ops] == [
            (o.name, o.x, o.y, o.align, o.bounds, o.fit) for o in other.ops
        ], g
    x0, y0, x1, y1 = L.SAFE
    for lay in layouts:
        for g, pic in lay.pictures.items():
            fx, fy, fw, fh = pic.frame
            assert x0 <= fx and y0 <= fy and fx + fw <= x1 and fy + fh <= y1, g
            for op in pic.ops:
                box = R.op_box(op)
                if box is None:
                    continue
                bx, by, bw, bh = box
                assert fx <= bx and fy <= by and bx + bw <= fx + fw and by + bh <= fy + fh, (g, op.name, box)


def test_corner_bug_where_the_contract_wants_it() -> None:
    lay = L.build_layout(default_state(), browser=False)
    with_bug = {s for s, items in lay.scenes.items() if any(i.graphic == "corner_bug" for i in items)}
    # docs/sponsorship.md: the 独家特约 corner bug is on screen for the whole broadcast (the opening bumpers
    # included); only the 中插 break, which is the advertisers' time, goes without it
    assert with_bug == {
        L.SCENE_GAME,
        L.SCENE_LEADERBOARD,
        L.SCENE_QUALIFIERS,
        L.SCENE_JIUGONGGE,
        L.SCENE_CREDITS,
        L.SCENE_BUMPER,
    }
    assert L.SCENE_BREAK not in with_bug


def test_program_scene_for_bus() -> None:
    bus = default_state()["graphics"]["program"]
    assert L.program_scene_for(bus) == L.SCENE_GAME
    bus["leaderboard"]["on"] = True
    assert L.program_scene_for(bus) == L.SCENE_LEADERBOARD
    bus["bumper"]["on"] = True
    assert L.program_scene_for(bus) == L.SCENE_BUMPER


# -- provisioning against a fake OBS ------------------------------------------------------------
def test_browser_branch_with_faked_kind_list(tmp_path: Path) -> None:
    obs = FakeObs([*DEBIAN_KINDS, "browser_source"])
    assert has_browser_source(obs.kinds)
    urls = {
        "program": "http://127.0.0.1:8765/overlay/program.html?token=t",
        "preview": "http://127.0.0.1:8765/overlay/preview.html?token=t",
    }
    lay = L.build_layout(default_state(), browser=True, overlay_urls=urls, films={"lb": tmp_path / "lb.mp4"})
    rep = provision(obs, lay)
    assert rep.browser
    assert obs.inputs[L.INPUT_OVERLAY] == ("browser_source", obs.inputs[L.INPUT_OVERLAY][1])
    assert obs.inputs[L.INPUT_OVERLAY][1]["url"] == urls["program"]
    assert obs.inputs[L.INPUT_OVERLAY_PREVIEW][1]["url"] == urls["preview"]
    assert not any(k == L.TEXT for k, _ in obs.inputs.values())  # no fallback sources
    for scene in (L.SCENE_GAME, L.SCENE_LEADERBOARD, L.SCENE_CREDITS, L.SCENE_BUMPER):
        assert [i["sourceName"] for i in obs.scenes[scene]] == [L.INPUT_BG_STUDIO, L.INPUT_OVERLAY]
    assert [i["sourceName"] for i in obs.scenes[L.SCENE_BREAK]] == [L.INPUT_BG_BLACK, "影片·lb"]


def test_native_provisioning_is_idempotent() -> None:
    obs = FakeObs(DEBIAN_KINDS)
    lay = L.build_layout(default_state(), browser=False)
    first = provision(obs, lay)
    assert first.changed and not first.browser
    snap = copy.deepcopy((obs.scenes, obs.inputs))
    second = provision(obs, lay)
    assert not second.changed
    assert (obs.scenes, obs.inputs) == snap
    # a duplicate item (e.g. added by hand) is removed; the order is restored
    seat1 = L.graphic_items(lay, L.SCENE_GAME)["scoreboard"][0].source
    obs._add(L.SCENE_GAME, seat1, True)
    third = provision(obs, lay)
    assert third.items_removed == [f"{L.SCENE_GAME}/{seat1}"]
    assert [i["sourceName"] for i in obs.scenes[L.SCENE_GAME]] == [i.source for i in lay.scenes[L.SCENE_GAME]]


def test_conflicting_names_are_refused_not_deleted() -> None:
    obs = FakeObs(DEBIAN_KINDS)
    obs.inputs["比分·画面1"] = ("text_ft2_source_v2", {})
    with pytest.raises(ProvisionError) as err:
        provision(obs, L.build_layout(default_state(), browser=False))
    assert "比分·画面1" in err.value.message_zh
    assert obs.inputs["比分·画面1"][0] == "text_ft2_source_v2"


def test_an_older_layouts_sources_go_and_the_studios_own_stay() -> None:
    """OBS kept the sources of the layout before (one per word and rectangle, "比分·1号位" …) in its
    saved collection: provisioning removes them (and so their items); a source of the studio's own in
    one of our scenes stays."""
    obs = FakeObs(DEBIAN_KINDS)
    obs.scenes[L.SCENE_GAME] = []
    for name, kind in (("比分·1号位", "text_ft2_source_v2"), ("角标·底", "color_source_v3")):
        obs.inputs[name] = (kind, {})
        obs._add(L.SCENE_GAME, name, True)
    obs.inputs["台标"] = ("image_source", {})
    obs._add(L.SCENE_GAME, "台标", True)
    lay = L.build_layout(default_state(), browser=False)
    rep = provision(obs, lay)
    assert sorted(rep.inputs_removed) == ["比分·1号位", "角标·底"]
    assert "比分·1号位" not in obs.inputs and "台标" in obs.inputs
    names = [i["sourceName"] for i in obs.scenes[L.SCENE_GAME]]
    assert "台标" in names and not {"比分·1号位", "角标·底"} & set(names)
    assert names[: len(lay.scenes[L.SCENE_GAME])] == [i.source for i in lay.scenes[L.SCENE_GAME]]
    assert not provision(obs, lay).changed


# -- a cut's watcher --------------------------------------------------------------------------------
class _Watcher:
    """A watcher session that answers GetCurrentProgramScene with each scene of ``answers`` in turn
    (the last one for ever)."""

    connected = True

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.asked = 0

    def request_timed(
        self, rtype: str, data: Any = None, *, timeout: float = 0.0
    ) -> tuple[dict[str, Any], float]:
        assert rtype == "GetCurrentProgramScene"
        scene = self.answers[min(self.asked, len(self.answers) - 1)]
        self.asked += 1
        return {"currentProgramSceneName": scene}, 1000.0 + self.asked


def test_a_cut_given_up_on_is_reported_when_obs_shows_it_and_never_when_it_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from broadcast.obs.cutwatch import ProgramWatch as _ProgramWatch

    got: list[tuple[str, float]] = []
    done = threading.Event()

    def report(scene: str, ts: float) -> None:
        got.append((scene, ts))
        done.set()

    # OBS shows the new scene at its fourth answer: reported with that answer's time
    watch = _ProgramWatch(_Watcher(["A", "A", "A", "B"]), "B")  # type: ignore[arg-type]
    watch.detach(report)
    assert done.wait(10) and got == [("B", 1004.0)]
    # OBS never shows it: reported as never seen (0.0) once the watch gives up — nothing is claimed
    monkeypatch.setattr(_ProgramWatch, "DETACHED_FOR", 0.2)
    got.clear()
    done.clear()
    never = _ProgramWatch(_Watcher(["A"]), "B")  # type: ignore[arg-type]
    never.detach(report)
    assert done.wait(10) and got == [("B", 0.0)]


def test_a_batch_on_a_closed_link_says_not_connected_in_both_languages() -> None:
    from broadcast.obs.client import ObsClient
    from broadcast.obs.errors import ObsNotConnected

    c = ObsClient(ObsSettings(port=4455))
    with pytest.raises(ObsNotConnected) as err:
        c.pipeline([("GetVersion", {}), ("GetStats", {})])
    assert err.value.rule == "obs.not_connected" and err.value.zh == "OBS 未连接"
    assert "not connected to OBS" in err.value.en


def test_a_save_cut_short_leaves_no_spare_scene() -> None:
    """OBS went down between the two renames that make it save: the spare name goes, the 存档 scene is
    there again, and nothing else changes."""
    obs = FakeObs(DEBIAN_KINDS)
    lay = L.build_layout(default_state(), browser=False)
    provision(obs, lay)
    obs.scenes[L.SCENE_SAVE_ASIDE] = obs.scenes.pop(L.SCENE_SAVE)
    rep = provision(obs, lay)
    assert L.SCENE_SAVE in obs.scenes and L.SCENE_SAVE_ASIDE not in obs.scenes
    assert rep.scenes_created == [L.SCENE_SAVE] and not rep.inputs_created and not rep.items_created
    assert not provision(obs, lay).changed


def test_a_program_event_that_disagrees_with_obs_is_checked_before_it_counts(tmp_path: Path) -> None:
    """OBS sends its program-scene event at the end of a transition: the event of an earlier cut can
    arrive after a later cut was seen. It counts only if OBS still shows that scene when asked."""
    from broadcast.obs.bridge import ObsBridge, ObsEvent
    from broadcast.studio import open_store

    class Client:
        def __init__(self, shows: str) -> None:
            self.shows = shows

        def request(self, rtype: str, data: Any = None, **kw: Any) -> dict[str, Any]:
            assert rtype == "GetCurrentProgramScene"
            return {"currentProgramSceneName": self.shows}

    from .conftest import MemoryAirLog

    rec = MemoryAirLog()
    settings = ObsSettings(port=4455, pictures_dir=str(tmp_path))
    bridge = ObsBridge(open_store(tmp_path / "s.sqlite"), settings, airlog=rec)
    bridge.tracker.up(100.0)
    bridge.cuts.program, bridge.cuts.program_at = L.SCENE_LEADERBOARD, 101.0
    late = ObsEvent("CurrentProgramSceneChanged", {"sceneName": L.SCENE_GAME}, 101.5)
    bridge._handle_event(Client(L.SCENE_LEADERBOARD), late)  # type: ignore[arg-type]
    assert bridge.cuts.program == L.SCENE_LEADERBOARD and not rec.kinds("program_scene")
    elsewhere = ObsEvent("CurrentProgramSceneChanged", {"sceneName": L.SCENE_GAME}, 102.0)
    bridge._handle_event(Client(L.SCENE_GAME), elsewhere)  # type: ignore[arg-type]
    assert bridge.cuts.program == L.SCENE_GAME
    assert [(e.subject, e.ts) for e in rec.kinds("program_scene")] == [(L.SCENE_GAME, 102.0)]


class _FilmHost:
    """What :class:`FilmPlayer` needs of the bridge's worker, recorded; timers run when the test says."""

    def __init__(self, films: list[str]) -> None:
        from types import SimpleNamespace

        self.layout = SimpleNamespace(
            scenes={L.SCENE_BREAK: [SimpleNamespace(film=True, source=L.film_input(f)) for f in films]}
        )
        self.item_ids = {(L.SCENE_BREAK, L.film_input(f)): n for n, f in enumerate(films, 1)}
        self.program = L.SCENE_GAME
        self.timers: list[tuple[float, Any]] = []
        self.log: list[tuple[str, str, str]] = []
        self.tracker = self

    def set_program(self, client: Any, scene: str) -> None:
        self.program = scene

    def after(self, seconds: float, fn: Any) -> None:
        self.timers.append((seconds, fn))

    def film_changed(self, film_id: str) -> None:
        pass

    def film_done(self, client: Any, film_id: str, failed: str = "") -> None:
        self.log.append(("done", film_id, failed))
        self.program = L.SCENE_GAME

    def proof_later(self, event_id: int, delay: float) -> None:
        self.log.append(("proof", str(event_id), f"{delay:g}"))

    def film_started(self, ts: float, film_id: str, detail: Any) -> int:
        self.log.append(("start", film_id, ""))
        return 7

    def film_ended(self, ts: float, film_id: str, extra: Any = None) -> None:
        self.log.append(("end", film_id, str((extra or {}).get("stopped", ""))))


class _FilmClient:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    def pipeline(self, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        return [{} for _ in calls]

    def request(self, t: str, d: dict[str, Any]) -> dict[str, Any]:
        self.asked.append((t, str(d.get("mediaAction", ""))))
        return {}


def test_a_film_is_done_when_obs_ends_it_or_its_hold_runs_out_and_says_how() -> None:
    """``FilmPlayer.start`` hands back the playing: ``done`` is set when OBS reports its end (``obs``),
    when a hold runs out after OBS started it (stopped, the as-run's end says ``held``, program goes back
    as after an end), when another film replaces it or OBS goes away — never before."""
    from broadcast.obs.films import PROOF_AFTER, FilmPlayer

    host, client = _FilmHost(["a", "b"]), _FilmClient()
    player = FilmPlayer(host, {"a": Path("a.mp4"), "b": Path("b.mp4")})
    a = player.start(client, "a", "break")
    assert host.program == L.SCENE_BREAK and not a.done.is_set()
    player.on_event(client, "MediaInputPlaybackStarted", {"inputName": L.film_input("a")}, 1.0)
    assert not a.done.is_set() and len(host.timers) == 1  # only the start check: no hold
    player.on_event(client, "MediaInputPlaybackEnded", {"inputName": L.film_input("b")}, 2.0)
    assert not a.done.is_set()  # another input's end is not this film's
    player.on_event(client, "MediaInputPlaybackEnded", {"inputName": L.film_input("a")}, 3.0)
    assert a.done.is_set() and a.ended == "obs" and host.log[-2:] == [("end", "a", ""), ("done", "a", "")]
    # held: stopped QUICK seconds after OBS started it, not before
    host.timers.clear()
    b = player.start(client, "b", "break", hold=2.0)
    assert [s for s, _fn in host.timers] == [3.0]  # the start check; the hold waits for OBS's start
    player.on_event(client, "MediaInputPlaybackStarted", {"inputName": L.film_input("b")}, 4.0)
    assert ("proof", "7", f"{PROOF_AFTER:g}") in host.log and PROOF_AFTER < 2.0
    hold = [fn for s, fn in host.timers if s == 2.0]
    assert len(hold) == 1 and not b.done.is_set()
    hold[0]()
    assert b.done.is_set() and b.ended == "held" and player.current is None
    assert host.log[-2:] == [("end", "b", "held"), ("done", "b", "")] and host.program == L.SCENE_GAME
    assert client.asked[-1] == ("TriggerMediaInputAction", "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP")
    hold[0]()  # a late timer of a film already gone does nothing
    assert host.log[-1] == ("done", "b", "")
    # replaced by the next film, or OBS went away: done too
    c = player.start(client, "a", "break", hold=2.0)
    d = player.start(client, "b", "break")
    assert c.done.is_set() and c.ended == "replaced" and not d.done.is_set()
    player.forget()
    assert d.done.is_set() and d.ended == "lost"


def test_a_break_s_films_roll_back_to_back_and_program_goes_back_only_after_the_last() -> None:
    """``FilmPlayer.roll``: the next film of a break starts the moment the one before ends (OBS's end, a
    hold run out, or a film that never started) with program still in the break scene — no frame of the
    show between two films — and the reel is done after the last; a film that cannot air is listed and
    the next one rolls; another film, a panic or OBS going away cuts the reel short (done, ``cut``)."""
    from broadcast.obs.films import FilmPlayer

    class Host(_FilmHost):  # the bridge's film_done: the reel's next film, else back to the state's scene
        def film_done(self, client: Any, film_id: str, failed: str = "") -> None:
            self.log.append(("done", film_id, failed))
            if not player.advance(client, film_id, failed):
                self.program = L.SCENE_GAME

    host, client = Host(["a", "b", "c"]), _FilmClient()
    player = FilmPlayer(host, {f: Path(f"{f}.mp4") for f in "abc"})
    scenes: list[str] = []
    set_program = host.set_program
    host.set_program = lambda c, scene: (scenes.append(scene), set_program(c, scene))  # type: ignore[method-assign]
    reel = player.roll(client, ["a", "nope", "b", "c"], "break", hold=2.0)
    assert [f.film_id for f in reel.films] == ["a"] and reel.failed == [] and not reel.done.is_set()
    player.on_event(client, "MediaInputPlaybackStarted", {"inputName": L.film_input("a")}, 1.0)
    player.on_event(client, "MediaInputPlaybackEnded", {"inputName": L.film_input("a")}, 2.0)  # OBS's end
    assert [f.film_id for f in reel.films] == ["a", "b"] and host.program == L.SCENE_BREAK
    assert [f for f, _why in reel.failed] == ["nope"]  # it cannot air: listed, and the next one rolled
    assert client.asked[-1] == ("TriggerMediaInputAction", "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART")
    player.on_event(client, "MediaInputPlaybackStarted", {"inputName": L.film_input("b")}, 3.0)
    held = [fn for s, fn in host.timers if s == 2.0]  # a's hold (a ended first: it does nothing), b's
    held[0]()
    assert [f.film_id for f in reel.films] == ["a", "b"] and not reel.films[1].done.is_set()
    held[1]()  # b's hold ran out: c rolls, still in the break scene
    assert [f.film_id for f in reel.films] == ["a", "b", "c"] and reel.films[1].ended == "held"
    assert host.program == L.SCENE_BREAK and not reel.done.is_set()
    [check_c] = [fn for s, fn in host.timers if s == 3.0][-1:]
    player.on_event(client, "MediaInputPlaybackEnded", {"inputName": L.film_input("c")}, 4.0)
    assert reel.done.is_set() and not reel.cut and host.program == L.SCENE_GAME
    assert scenes == [L.SCENE_BREAK]  # one cut to the break for the three; back to the show after the last
    check_c()  # a late start check of a film already gone does nothing
    assert host.log[-1] == ("done", "c", "")
    # cut short: another film replaces the reel's, a panic, OBS going away
    for cut in ("replaced", "panic", "lost"):
        reel = player.roll(client, ["a", "b"], "break")
        if cut == "replaced":
            player.start(client, "c", "cue")
        elif cut == "panic":
            player.stop(client, "panic")
        else:
            player.forget()
        assert reel.done.is_set() and reel.cut == cut and [f.film_id for f in reel.films] == ["a"]
        assert reel.films[0].done.is_set() and player.reel is None
