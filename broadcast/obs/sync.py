"""State → OBS as data: what OBS has (read back), what the layout wants, and the requests that turn
the one into the other. Pure functions, no OBS calls — provisioning and the bridge send what these
return, and the unit tests check them without an OBS.

* :func:`plan_settings` — the inputs whose settings OBS does not hold yet;
* :func:`plan_items` — the scene items to create, the duplicates to remove, the transforms that differ
  and the always-on items that are off, from OBS's ``GetSceneItemList`` answers;
* :func:`plan_order` — the ``SetSceneItemIndex`` moves, batched so that independent scenes go together;
* :func:`plan_sync` — one state change: settings to send, items to show (before the cut), the program
  scene, items to hide (after the cut), so nothing is ever seen vanishing on air.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from broadcast.obs import layout as L

Request = tuple[str, dict[str, Any]]
ItemKey = tuple[str, str]  # (scene, source)


@dataclass(frozen=True)
class SceneItem:
    """One item of a scene as OBS reports it."""

    id: int
    source: str
    enabled: bool
    index: int
    transform: Mapping[str, Any] = field(default_factory=dict)


def scene_items(listing: Mapping[str, Any]) -> list[SceneItem]:
    """``GetSceneItemList``'s answer, bottom → top."""
    items = [
        SceneItem(
            int(i["sceneItemId"]),
            str(i["sourceName"]),
            bool(i.get("sceneItemEnabled", True)),
            int(i.get("sceneItemIndex", 0)),
            dict(i.get("sceneItemTransform") or {}),
        )
        for i in listing.get("sceneItems", [])
    ]
    return sorted(items, key=lambda i: i.index)


def same(want: Any, have: Any) -> bool:
    """``have`` holds at least what ``want`` says (numbers to 1/100, nested objects key by key)."""
    if isinstance(want, Mapping):
        return isinstance(have, Mapping) and all(same(v, have.get(k)) for k, v in want.items())
    if isinstance(want, bool) or isinstance(have, bool):
        return bool(want) == bool(have) if isinstance(have, bool | int) else False
    if isinstance(want, int | float) and isinstance(have, int | float):
        return abs(float(want) - float(have)) <= 0.01
    return bool(want == have)


def transform(spec: L.InputSpec | None, item: L.ItemSpec, scene: str) -> dict[str, Any]:
    """An input sits where the layout says in its home scene and, for a native graphic, in every air
    scene that carries the graphic; elsewhere (a background shared by scenes) at 0,0."""
    home = spec is not None and (spec.scene == scene or bool(spec.graphic))
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


def plan_settings(lay: L.Layout, have: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Inputs whose settings in OBS (``have``: name → settings read back or last sent) differ."""
    return [
        (name, spec.settings) for name, spec in lay.inputs.items() if not same(spec.settings, have.get(name))
    ]


def settings_requests(changed: list[tuple[str, dict[str, Any]]]) -> list[Request]:
    return [("SetInputSettings", {"inputName": n, "inputSettings": s, "overlay": True}) for n, s in changed]


@dataclass
class ItemPlan:
    item_ids: dict[ItemKey, int] = field(default_factory=dict)  # what exists (created ones added later)
    enabled: dict[ItemKey, bool] = field(default_factory=dict)
    create: list[tuple[str, L.ItemSpec]] = field(default_factory=list)
    remove: list[tuple[str, int, str]] = field(default_factory=list)  # (scene, item id, source)
    transforms: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    base_show: list[tuple[str, int]] = field(default_factory=list)  # always-on items found off

    def requests(self) -> list[Request]:
        """Removals, transforms and always-on enables (independent of each other)."""
        out: list[Request] = [
            ("RemoveSceneItem", {"sceneName": sc, "sceneItemId": iid}) for sc, iid, _src in self.remove
        ]
        out += [
            ("SetSceneItemTransform", {"sceneName": sc, "sceneItemId": iid, "sceneItemTransform": t})
            for sc, iid, t in self.transforms
        ]
        out += [
            ("SetSceneItemEnabled", {"sceneName": sc, "sceneItemId": iid, "sceneItemEnabled": True})
            for sc, iid in self.base_show
        ]
        return out


def plan_items(lay: L.Layout, listings: Mapping[str, list[SceneItem]]) -> ItemPlan:
    """Compare the layout's scenes with OBS's items: one item per (scene, source) of ours, placed as
    the layout says; always-on items (backgrounds) enabled. Items OBS has that are not ours stay."""
    plan = ItemPlan()
    for scene in lay.scene_order():
        by_source: dict[str, list[SceneItem]] = {}
        for it in listings.get(scene, []):
            by_source.setdefault(it.source, []).append(it)
        for legacy in L.LEGACY_GRAPHIC_SCENES & set(by_source):  # nested graphics of an older layout
            plan.remove += [(scene, it.id, legacy) for it in by_source[legacy]]
        for item in lay.scenes[scene]:
            found = by_source.get(item.source, [])
            if not found:
                plan.create.append((scene, item))
                continue
            keep = found[0]
            plan.item_ids[(scene, item.source)] = keep.id
            plan.enabled[(scene, item.source)] = keep.enabled
            for extra in found[1:]:
                plan.remove.append((scene, extra.id, item.source))
            want = transform(lay.inputs.get(item.source), item, scene)
            if not same(want, keep.transform):
                plan.transforms.append((scene, keep.id, want))
            if not (item.graphic or item.film) and not keep.enabled:
                plan.base_show.append((scene, keep.id))
                plan.enabled[(scene, item.source)] = True
    return plan


def create_requests(create: list[tuple[str, L.ItemSpec]]) -> list[Request]:
    """New items: graphics and films start hidden (the sync shows them), the rest shown."""
    return [
        (
            "CreateSceneItem",
            {"sceneName": sc, "sourceName": it.source, "sceneItemEnabled": not (it.graphic or it.film)},
        )
        for sc, it in create
    ]


def created_transforms(lay: L.Layout, created: list[tuple[str, L.ItemSpec, int]]) -> list[Request]:
    return [
        (
            "SetSceneItemTransform",
            {
                "sceneName": sc,
                "sceneItemId": iid,
                "sceneItemTransform": transform(lay.inputs.get(it.source), it, sc),
            },
        )
        for sc, it, iid in created
    ]


def plan_order(current: Mapping[str, list[int]], wanted: Mapping[str, list[int]]) -> list[list[Request]]:
    """``SetSceneItemIndex`` moves that put our items bottom→top in layout order (index 0 = bottom);
    anything else in a scene stays above them. ``current``: each scene's item ids bottom→top. The moves
    of one scene depend on each other, those of different scenes do not: the k-th move of every scene
    goes in batch k."""
    per_scene: list[list[Request]] = []
    for scene, want_ids in wanted.items():
        order = list(current.get(scene, []))
        mine: list[Request] = []
        for want, item_id in enumerate(want_ids):
            if item_id in order and order.index(item_id) != want:
                mine.append(
                    (
                        "SetSceneItemIndex",
                        {"sceneName": scene, "sceneItemId": item_id, "sceneItemIndex": want},
                    )
                )
                order.remove(item_id)  # OBS moves the item: the others keep their order
                order.insert(want, item_id)
        per_scene.append(mine)
    return [
        [m[k] for m in per_scene if len(m) > k] for k in range(max((len(m) for m in per_scene), default=0))
    ]


@dataclass(frozen=True)
class SyncPlan:
    """One state change in OBS: shown first, then the cut, then hidden."""

    settings: tuple[tuple[str, dict[str, Any]], ...] = ()
    show: tuple[tuple[str, int], ...] = ()
    hide: tuple[tuple[str, int], ...] = ()
    program: str = ""  # the scene to cut to ("" = program stays)

    @property
    def empty(self) -> bool:
        return not (self.settings or self.show or self.hide or self.program)

    def first(self) -> list[Request]:
        return settings_requests(list(self.settings)) + [
            ("SetSceneItemEnabled", {"sceneName": sc, "sceneItemId": iid, "sceneItemEnabled": True})
            for sc, iid in self.show
        ]

    def cut(self) -> Request | None:
        return ("SetCurrentProgramScene", {"sceneName": self.program}) if self.program else None

    def last(self) -> list[Request]:
        return [
            ("SetSceneItemEnabled", {"sceneName": sc, "sceneItemId": iid, "sceneItemEnabled": False})
            for sc, iid in self.hide
        ]


def wanted_visible(lay: L.Layout, bus: Mapping[str, Any]) -> dict[ItemKey, bool]:
    """Every graphic item of every scene: shown when its graphic is on the bus."""
    return {
        (scene, item.source): bool(bus.get(item.graphic, {}).get("on"))
        for scene, items in lay.scenes.items()
        for item in items
        if item.graphic
    }


def plan_sync(
    lay: L.Layout,
    bus: Mapping[str, Any],
    *,
    sent: Mapping[str, Mapping[str, Any]],
    enabled: Mapping[ItemKey, bool],
    item_ids: Mapping[ItemKey, int],
    program: str,
    want_scene: str,
    force: bool = False,
) -> SyncPlan:
    """What to send for the show state's program ``bus``: the settings OBS does not hold (``sent``),
    the graphic items to show and hide (``enabled`` as OBS last confirmed), the cut to ``want_scene``
    when program (``program``, as OBS last confirmed) is elsewhere. ``force`` re-sends everything."""
    changed = [(n, s) for n, s in lay.inputs.items() if force or not same(s.settings, sent.get(n))]
    show: list[tuple[str, int]] = []
    hide: list[tuple[str, int]] = []
    for key, want in wanted_visible(lay, bus).items():
        iid = item_ids.get(key)
        if iid is None or (not force and enabled.get(key) == want):
            continue
        (show if want else hide).append((key[0], iid))
    return SyncPlan(
        tuple((n, s.settings) for n, s in changed),
        tuple(show),
        tuple(hide),
        want_scene if want_scene and (force or want_scene != program) else "",
    )
