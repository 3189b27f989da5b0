"""Create or update the show's scenes and sources in OBS, idempotently (run twice, same result).

Only names the layout owns are touched: scenes and inputs are created when missing, inputs' settings
and items' placement are set to the layout's where OBS holds something else (read back first: the
sources OBS kept in its saved collection are re-used, not re-created or re-sent), duplicate items of
ours and the sources of an older layout of ours are removed. Whatever else the studio keeps in OBS is
left alone. A name that exists with another kind of source is refused with a clear message rather than
deleted. The comparisons are pure functions
in :mod:`broadcast.obs.sync`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from broadcast.obs import layout as L
from broadcast.obs import sync as S
from broadcast.obs.errors import ALREADY_EXISTS, NOT_FOUND, OUTPUT_RUNNING, ObsError, ObsRequestError

log = logging.getLogger(__name__)

CREATE_BATCH = 40


class Requester(Protocol):
    def request(
        self, request_type: str, data: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]: ...

    def pipeline(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None
    ) -> list[dict[str, Any] | ObsError]: ...


class ProvisionError(ObsError):
    rule = "obs.provision"
    zh = "OBS 场景布置失败"


@dataclass
class ProvisionReport:
    browser: bool
    scenes_created: list[str] = field(default_factory=list)
    inputs_created: list[str] = field(default_factory=list)
    items_created: list[str] = field(default_factory=list)
    items_removed: list[str] = field(default_factory=list)
    inputs_removed: list[str] = field(default_factory=list)  # an older layout's sources
    inputs_updated: int = 0
    transforms_set: int = 0
    warnings: list[str] = field(default_factory=list)
    # (scene, source) -> sceneItemId and whether OBS shows it, for the bridge's visibility sync
    item_ids: dict[tuple[str, str], int] = field(default_factory=dict)
    enabled: dict[tuple[str, str], bool] = field(default_factory=dict)
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # what OBS now holds, per input
    transition: str = ""  # OBS's current scene transition afterwards

    @property
    def changed(self) -> bool:
        return bool(
            self.scenes_created
            or self.inputs_created
            or self.items_created
            or self.items_removed
            or self.inputs_removed
        )

    def summary_zh(self) -> str:
        mode = "网页图形（browser source）" if self.browser else "OBS 自带源（无 browser source）"
        return (
            f"图形方式：{mode}；新建场景 {len(self.scenes_created)}，新建源 {len(self.inputs_created)}，"
            f"新建场景项 {len(self.items_created)}，移除重复项 {len(self.items_removed)}，"
            f"移除旧版源 {len(self.inputs_removed)}，"
            f"更新设置 {self.inputs_updated}，调整位置 {self.transforms_set}"
        )


def input_kinds(obs: Requester) -> list[str]:
    return [str(k) for k in obs.request("GetInputKindList").get("inputKinds", [])]


def has_browser_source(kinds: list[str]) -> bool:
    return "browser_source" in kinds


def _check(results: list[dict[str, Any] | ObsError], ok_codes: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for r in results:
        if isinstance(r, ObsRequestError) and r.code in ok_codes:
            out.append({})
        elif isinstance(r, ObsError):
            raise r
        else:
            out.append(r)
    return out


def _refuse_clashes(lay: L.Layout, order: list[str], scenes: set[str], inputs: dict[str, str]) -> None:
    """A scene where the show needs a source (or the other way round), or a source of another kind."""
    for name in lay.inputs:
        if name in scenes:
            raise ProvisionError(
                zh=f"OBS 里已有同名场景“{name}”，与节目的源冲突：请改名后重试",
                en=f"OBS has a scene named {name!r} where the show needs a source",
            )
    for scene in order:
        if scene in inputs:
            raise ProvisionError(
                zh=f"OBS 里已有同名源“{scene}”，与节目的场景冲突：请改名后重试",
                en=f"OBS has a source named {scene!r} where the show needs a scene",
            )
    for spec in lay.inputs.values():
        have_kind = inputs.get(spec.name)
        if have_kind is not None and have_kind != spec.kind:
            raise ProvisionError(
                zh=f"OBS 源“{spec.name}”类型是 {have_kind}，节目需要 {spec.kind}：请删除或改名后重试",
                en=f"OBS source {spec.name!r} is a {have_kind}, the show needs a {spec.kind}",
            )


def _place_items(
    obs: Requester,
    lay: L.Layout,
    rep: ProvisionReport,
    listings: dict[str, list[S.SceneItem]],
    order: list[str],
    have: dict[str, dict[str, Any]],
    changed: list[tuple[str, dict[str, Any]]],
    timeout: float,
) -> None:
    """Every scene's items created, removed, transformed and put in the layout's order."""
    plan = S.plan_items(lay, listings)
    created = _check(obs.pipeline(S.create_requests(plan.create), timeout=timeout))
    new = [(sc, it, int(out["sceneItemId"])) for (sc, it), out in zip(plan.create, created, strict=True)]
    for sc, it, iid in new:
        plan.item_ids[(sc, it.source)] = iid
        plan.enabled[(sc, it.source)] = not (it.graphic or it.film)
        rep.items_created.append(f"{sc}/{it.source}")
    for sc, _iid, src in plan.remove:
        rep.items_removed.append(f"{sc}/{src}")
    _check(
        obs.pipeline(plan.requests() + S.created_transforms(lay, new), timeout=timeout), ok_codes=(NOT_FOUND,)
    )
    rep.transforms_set = len(plan.transforms) + len(new)
    rep.item_ids = dict(plan.item_ids)
    rep.enabled = dict(plan.enabled)
    # what OBS holds now: what it had, with what was set on top (SetInputSettings overlays)
    rep.settings = {n: dict(have.get(n, {})) for n in lay.inputs}
    for n, spec in lay.inputs.items():
        if n in rep.inputs_created or any(n == c for c, _s in changed):
            rep.settings[n] = {**rep.settings[n], **spec.settings}
    # items created together land in any order (OBS runs the requests in parallel): list again
    moved = sorted({sc for sc, _it, _i in new} | {sc for sc, _i, _s in plan.remove})
    for sc, r in zip(
        moved, _check(obs.pipeline([("GetSceneItemList", {"sceneName": s}) for s in moved])), strict=True
    ):
        listings[sc] = S.scene_items(r)
    current = {s: [i.id for i in listings[s]] for s in order}
    wanted = {s: [plan.item_ids[(s, i.source)] for i in lay.scenes[s]] for s in order}
    for batch in S.plan_order(current, wanted):
        _check(obs.pipeline(batch, timeout=timeout))


def provision(
    obs: Requester,
    lay: L.Layout,
    *,
    width: int = 1920,
    height: int = 1080,
    fps: int = 25,
    transition: str = "Cut",
    transition_ms: int = 300,
    timeout: float = 10.0,
) -> ProvisionReport:
    """Bring OBS to the layout, sending only what differs from what OBS already holds.

    After a crash OBS reloads the sources it saved, so a re-sync is one read-back — video settings,
    scenes, inputs, the transition, every input's settings and every scene's items, in one batch (one
    round trip) — and then only the few changes that differ; a fresh OBS gets everything created."""
    rep = ProvisionReport(browser=lay.browser)
    order = lay.scene_order()
    names = list(lay.inputs)
    reads = obs.pipeline(
        [
            ("GetVideoSettings", {}),
            ("GetSceneList", {}),
            ("GetInputList", {}),
            ("GetCurrentSceneTransition", {}),
        ]
        + [("GetInputSettings", {"inputName": n}) for n in names]
        + [("GetSceneItemList", {"sceneName": s}) for s in order],
        timeout=timeout,
    )
    video, scene_list, input_list, trans = _check(reads[:4])
    scenes = {s["sceneName"] for s in scene_list.get("scenes", [])}
    inputs = {i["inputName"]: i["inputKind"] for i in input_list.get("inputs", [])}
    _refuse_clashes(lay, order, scenes, inputs)
    # what OBS holds: the settings of the inputs it kept and every scene's items (read in the batch)
    have: dict[str, dict[str, Any]] = {}
    for n, r in zip(names, reads[4 : 4 + len(names)], strict=True):
        if n in inputs:
            have[n] = dict(_check([r])[0].get("inputSettings") or {})
    listings: dict[str, list[S.SceneItem]] = {s: [] for s in order}
    for s, r in zip(order, reads[4 + len(names) :], strict=True):
        if s in scenes:
            listings[s] = S.scene_items(_check([r])[0])
    _video(obs, rep, video, width, height, fps)
    missing = [s for s in order if s not in scenes]
    _check(
        obs.pipeline([("CreateScene", {"sceneName": s}) for s in missing], timeout=timeout),
        ok_codes=(ALREADY_EXISTS,),
    )
    rep.scenes_created.extend(missing)
    if L.SCENE_SAVE_ASIDE in scenes:  # OBS went down between the two renames of a save: the spare goes
        _check(
            obs.pipeline([("RemoveScene", {"sceneName": L.SCENE_SAVE_ASIDE})], timeout=timeout),
            ok_codes=(NOT_FOUND,),
        )
    # the sources of an older layout (one per word and rectangle) go; their items go with them
    legacy = sorted(n for n in inputs if L.is_legacy_input(n, lay))
    _check(
        obs.pipeline([("RemoveInput", {"inputName": n}) for n in legacy], timeout=timeout),
        ok_codes=(NOT_FOUND,),
    )
    rep.inputs_removed.extend(legacy)
    creates: list[tuple[str, dict[str, Any]]] = []
    for spec in lay.inputs.values():
        if spec.name not in inputs:
            creates.append(
                (
                    "CreateInput",
                    {
                        "sceneName": spec.scene,
                        "inputName": spec.name,
                        "inputKind": spec.kind,
                        "inputSettings": spec.settings,
                        "sceneItemEnabled": not spec.graphic,  # a graphic's items wait for the sync
                    },
                )
            )
            rep.inputs_created.append(spec.name)
    changed = S.plan_settings(lay, {**have, **{n: lay.inputs[n].settings for n in rep.inputs_created}})
    rep.inputs_updated = len(changed)
    calls = creates + S.settings_requests(changed)
    for k in range(0, len(calls), CREATE_BATCH):
        _check(obs.pipeline(calls[k : k + CREATE_BATCH], timeout=timeout))
    if creates or legacy:  # CreateInput put each new input in its home scene: list those scenes again
        again = sorted({lay.inputs[n].scene for n in rep.inputs_created} | ({*order} if legacy else set()))
        for s, r in zip(
            again, _check(obs.pipeline([("GetSceneItemList", {"sceneName": s}) for s in again])), strict=True
        ):
            listings[s] = S.scene_items(r)
    _place_items(obs, lay, rep, listings, order, have, changed, timeout)
    _transition(obs, rep, trans, transition, transition_ms)
    return rep


def _video(
    obs: Requester, rep: ProvisionReport, have: dict[str, Any], width: int, height: int, fps: int
) -> None:
    want = {
        "baseWidth": width,
        "baseHeight": height,
        "outputWidth": width,
        "outputHeight": height,
        "fpsNumerator": fps,
        "fpsDenominator": 1,
    }
    if all(int(have.get(k, 0)) == v for k, v in want.items()):
        return
    try:
        obs.request("SetVideoSettings", want)
    except ObsRequestError as exc:
        if exc.code != OUTPUT_RUNNING:
            raise
        rep.warnings.append(f"画面设置未改（OBS 正在输出）：需要 {width}×{height} {fps}fps")


def _transition(obs: Requester, rep: ProvisionReport, have: dict[str, Any], name: str, ms: int) -> None:
    rep.transition = str(have.get("transitionName") or "")
    try:
        if have.get("transitionName") != name:
            obs.request("SetCurrentSceneTransition", {"transitionName": name})
            rep.transition = name
        if name != "Cut" and int(have.get("transitionDuration") or 0) != int(ms):
            obs.request("SetCurrentSceneTransitionDuration", {"transitionDuration": int(ms)})
    except ObsRequestError as exc:
        rep.warnings.append(f"转场 {name} 未设置：{exc.code} {exc.comment}")


def snapshot(obs: Requester) -> dict[str, Any]:
    """Scenes, their items (name, enabled, transform essentials) and inputs: to compare two runs."""
    out: dict[str, Any] = {"scenes": {}, "inputs": {}}
    for s in obs.request("GetSceneList").get("scenes", []):
        name = s["sceneName"]
        items = obs.request("GetSceneItemList", {"sceneName": name}).get("sceneItems", [])
        out["scenes"][name] = [
            (
                i["sourceName"],
                i["sceneItemIndex"],
                i["sceneItemEnabled"],
                round(float(i["sceneItemTransform"]["positionX"]), 1),
                round(float(i["sceneItemTransform"]["positionY"]), 1),
            )
            for i in sorted(items, key=lambda i: int(i["sceneItemIndex"]))
        ]
    for i in obs.request("GetInputList").get("inputs", []):
        settings = obs.request("GetInputSettings", {"inputName": i["inputName"]}).get("inputSettings", {})
        out["inputs"][i["inputName"]] = (i["inputKind"], settings)
    return out
