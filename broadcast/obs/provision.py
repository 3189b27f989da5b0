"""Create or update the show's scenes and sources in OBS, idempotently (run twice, same result).

Only names the layout owns are touched: scenes and inputs are created when missing, inputs' settings
and items' placement are set to the layout's, duplicate items of ours are removed. Whatever else the
studio keeps in OBS is left alone. A name that exists with another kind of source is refused with a
clear message rather than deleted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from broadcast.obs import layout as L
from broadcast.obs.errors import ALREADY_EXISTS, OUTPUT_RUNNING, ObsError, ObsRequestError

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
    message_zh = "OBS 场景布置失败"


@dataclass
class ProvisionReport:
    browser: bool
    scenes_created: list[str] = field(default_factory=list)
    inputs_created: list[str] = field(default_factory=list)
    items_created: list[str] = field(default_factory=list)
    items_removed: list[str] = field(default_factory=list)
    inputs_updated: int = 0
    warnings: list[str] = field(default_factory=list)
    # (scene, source) -> sceneItemId, for the bridge's visibility sync
    item_ids: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.scenes_created or self.inputs_created or self.items_created or self.items_removed)

    def summary_zh(self) -> str:
        mode = "网页图形（browser source）" if self.browser else "OBS 自带源（无 browser source）"
        return (
            f"图形方式：{mode}；新建场景 {len(self.scenes_created)}，新建源 {len(self.inputs_created)}，"
            f"新建场景项 {len(self.items_created)}，移除重复项 {len(self.items_removed)}，"
            f"更新设置 {self.inputs_updated}"
        )


def input_kinds(obs: Requester) -> list[str]:
    return [str(k) for k in obs.request("GetInputKindList").get("inputKinds", [])]


def has_browser_source(kinds: list[str]) -> bool:
    return "browser_source" in kinds


def transform(spec: L.InputSpec | None, item: L.ItemSpec, scene: str) -> dict[str, Any]:
    """An input sits where the layout says in its home scene; elsewhere (nested scenes) at 0,0."""
    home = spec is not None and spec.scene == scene
    x, y, align = (spec.x, spec.y, spec.align) if spec is not None and home else (0.0, 0.0, L.ALIGN_TOP_LEFT)
    t: dict[str, Any] = {
        "positionX": float(x),
        "positionY": float(y),
        "alignment": int(align),
        "rotation": 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "cropTop": 0,
        "cropBottom": 0,
        "cropLeft": 0,
        "cropRight": 0,
    }
    bounds = item.bounds or (spec.bounds if spec is not None else None)
    if spec is not None and home and spec.fit and not bounds:
        # a text that may run long: shrunk to its box, never enlarged, anchored like the item
        t.update(
            boundsType="OBS_BOUNDS_MAX_ONLY",
            boundsWidth=float(spec.fit[0]),
            boundsHeight=float(spec.fit[1]),
            boundsAlignment=int(align),
        )
    elif bounds:
        t.update(
            boundsType="OBS_BOUNDS_SCALE_INNER",
            boundsWidth=float(bounds[0]),
            boundsHeight=float(bounds[1]),
            boundsAlignment=0,
        )
    else:
        t.update(boundsType="OBS_BOUNDS_NONE")
    return t


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
    """Bring OBS to the layout. Independent requests go out together (OBS runs them in parallel)."""
    rep = ProvisionReport(browser=lay.browser)
    _video(obs, rep, width, height, fps)
    scenes = {s["sceneName"] for s in obs.request("GetSceneList").get("scenes", [])}
    inputs = {i["inputName"]: i["inputKind"] for i in obs.request("GetInputList").get("inputs", [])}
    for name in lay.inputs:
        if name in scenes:
            raise ProvisionError(
                f"OBS has a scene named {name!r} where the show needs a source",
                message_zh=f"OBS 里已有同名场景“{name}”，与节目的源冲突：请改名后重试",
            )
    order = lay.scene_order()
    for scene in order:
        if scene in inputs:
            raise ProvisionError(
                f"OBS has a source named {scene!r} where the show needs a scene",
                message_zh=f"OBS 里已有同名源“{scene}”，与节目的场景冲突：请改名后重试",
            )
    for spec in lay.inputs.values():
        have = inputs.get(spec.name)
        if have is not None and have != spec.kind:
            raise ProvisionError(
                f"OBS source {spec.name!r} is a {have}, the show needs a {spec.kind}",
                message_zh=f"OBS 源“{spec.name}”类型是 {have}，节目需要 {spec.kind}：请删除或改名后重试",
            )
    missing = [s for s in order if s not in scenes]
    _check(
        obs.pipeline([("CreateScene", {"sceneName": s}) for s in missing], timeout=timeout),
        ok_codes=(ALREADY_EXISTS,),
    )
    rep.scenes_created.extend(missing)
    # inputs: create in their home scene, else bring their settings up to date
    calls: list[tuple[str, dict[str, Any]]] = []
    for spec in lay.inputs.values():
        if spec.name not in inputs:
            calls.append(
                (
                    "CreateInput",
                    {
                        "sceneName": spec.scene,
                        "inputName": spec.name,
                        "inputKind": spec.kind,
                        "inputSettings": spec.settings,
                        "sceneItemEnabled": True,
                    },
                )
            )
            rep.inputs_created.append(spec.name)
        else:
            calls.append(
                (
                    "SetInputSettings",
                    {"inputName": spec.name, "inputSettings": spec.settings, "overlay": True},
                )
            )
            rep.inputs_updated += 1
    # a new text source loads its font and renders its glyphs (20-50 ms each on this kind of machine):
    # in batches, each bounded by the timeout, so a first provisioning of every graphic never times out
    for k in range(0, len(calls), CREATE_BATCH):
        _check(obs.pipeline(calls[k : k + CREATE_BATCH], timeout=timeout))
    # items: one per (scene, source), in the layout's order, placed as the layout says
    lists = _check(obs.pipeline([("GetSceneItemList", {"sceneName": s}) for s in order], timeout=timeout))
    creates: list[tuple[str, L.ItemSpec]] = []
    calls = []
    for scene, listing in zip(order, lists, strict=True):
        by_source: dict[str, list[dict[str, Any]]] = {}
        for it in sorted(listing.get("sceneItems", []), key=lambda i: int(i.get("sceneItemIndex", 0))):
            by_source.setdefault(str(it["sourceName"]), []).append(it)
        for item in lay.scenes[scene]:
            found = by_source.get(item.source, [])
            if not found:
                creates.append((scene, item))
                continue
            rep.item_ids[(scene, item.source)] = int(found[0]["sceneItemId"])
            for extra in found[1:]:
                calls.append(
                    ("RemoveSceneItem", {"sceneName": scene, "sceneItemId": int(extra["sceneItemId"])})
                )
                rep.items_removed.append(f"{scene}/{item.source}")
    created = _check(
        obs.pipeline(
            [
                (
                    "CreateSceneItem",
                    {
                        "sceneName": sc,
                        "sourceName": it.source,
                        "sceneItemEnabled": not (it.graphic or it.film),
                    },
                )
                for sc, it in creates
            ],
            timeout=timeout,
        )
    )
    for (scene, item), out in zip(creates, created, strict=True):
        rep.item_ids[(scene, item.source)] = int(out["sceneItemId"])
        rep.items_created.append(f"{scene}/{item.source}")
    for scene in order:
        for item in lay.scenes[scene]:
            item_id = rep.item_ids[(scene, item.source)]
            calls.append(
                (
                    "SetSceneItemTransform",
                    {
                        "sceneName": scene,
                        "sceneItemId": item_id,
                        "sceneItemTransform": transform(lay.inputs.get(item.source), item, scene),
                    },
                )
            )
            if not (item.graphic or item.film):
                calls.append(
                    (
                        "SetSceneItemEnabled",
                        {"sceneName": scene, "sceneItemId": item_id, "sceneItemEnabled": True},
                    )
                )
    _check(obs.pipeline(calls, timeout=timeout))
    _order(
        obs, {scene: [rep.item_ids[(scene, i.source)] for i in lay.scenes[scene]] for scene in order}, timeout
    )
    _transition(obs, rep, transition, transition_ms)
    return rep


def _create_scene(obs: Requester, scene: str) -> None:
    try:
        obs.request("CreateScene", {"sceneName": scene})
    except ObsRequestError as exc:
        if exc.code != ALREADY_EXISTS:
            raise


def _order(obs: Requester, wanted: dict[str, list[int]], timeout: float) -> None:
    """Our items bottom→top in layout order (index 0 = bottom) in every scene; anything else stays
    above them. Items created together land in any order, and each SetSceneItemIndex costs OBS about a
    frame: the moves of one scene depend on each other, those of different scenes do not, so the k-th
    move of every scene goes out in one pipeline."""
    scenes = list(wanted)
    lists = _check(obs.pipeline([("GetSceneItemList", {"sceneName": s}) for s in scenes], timeout=timeout))
    moves: list[list[tuple[str, dict[str, Any]]]] = []
    for scene, listing in zip(scenes, lists, strict=True):
        current = listing.get("sceneItems", [])
        order = [int(i["sceneItemId"]) for i in sorted(current, key=lambda i: int(i["sceneItemIndex"]))]
        mine: list[tuple[str, dict[str, Any]]] = []
        for want, item_id in enumerate(wanted[scene]):
            if item_id in order and order.index(item_id) != want:
                mine.append(
                    (
                        "SetSceneItemIndex",
                        {"sceneName": scene, "sceneItemId": item_id, "sceneItemIndex": want},
                    )
                )
                order.remove(item_id)  # OBS moves the item: the others keep their order
                order.insert(want, item_id)
        moves.append(mine)
    for k in range(max((len(m) for m in moves), default=0)):
        _check(obs.pipeline([m[k] for m in moves if len(m) > k], timeout=timeout))


def _video(obs: Requester, rep: ProvisionReport, width: int, height: int, fps: int) -> None:
    want = {
        "baseWidth": width,
        "baseHeight": height,
        "outputWidth": width,
        "outputHeight": height,
        "fpsNumerator": fps,
        "fpsDenominator": 1,
    }
    have = obs.request("GetVideoSettings")
    if all(int(have.get(k, 0)) == v for k, v in want.items()):
        return
    try:
        obs.request("SetVideoSettings", want)
    except ObsRequestError as exc:
        if exc.code != OUTPUT_RUNNING:
            raise
        rep.warnings.append(f"画面设置未改（OBS 正在输出）：需要 {width}×{height} {fps}fps")


def _transition(obs: Requester, rep: ProvisionReport, name: str, ms: int) -> None:
    try:
        if obs.request("GetCurrentSceneTransition").get("transitionName") != name:
            obs.request("SetCurrentSceneTransition", {"transitionName": name})
        if name != "Cut":
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
