"""State → OBS as data: what OBS has (read back), what the layout wants, and the requests that turn
the one into the other. Pure functions, no OBS calls — provisioning and the bridge send what these
return, and the unit tests check them without an OBS.

* :func:`plan_settings` — the inputs whose settings OBS does not hold yet;
* :func:`plan_items` — the scene items to create, the duplicates to remove, the transforms that differ
  and the always-on items that are off, from OBS's ``GetSceneItemList`` answers;
* :func:`plan_order` — the ``SetSceneItemIndex`` moves, batched so that independent scenes go together;
* :func:`plan_sync` — one state change: settings to send (a graphic's new picture into its hidden
  source), items to show (before the cut), the program scene, items to hide (after the cut), so
  nothing is ever seen vanishing or blanking on air.
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
        for legacy in sorted(by_source):  # nested graphics, or one source per word, of an older layout
            if legacy in L.LEGACY_GRAPHIC_SCENES or L.is_legacy_input(legacy, lay):
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
    """One state change in OBS: settings (new pictures into hidden sources) and shown items first,
    then the cut, then hidden items."""

    settings: tuple[tuple[str, dict[str, Any]], ...] = ()
    show: tuple[tuple[str, int], ...] = ()
    hide: tuple[tuple[str, int], ...] = ()
    program: str = ""  # the scene to cut to ("" = program stays)
    front: tuple[tuple[str, str], ...] = ()  # graphic → the picture source that shows it after this

    @property
    def empty(self) -> bool:
        return not (self.settings or self.show or self.hide or self.program)

    def first(self) -> list[Request]:
        return self.loads() + self.shows()

    def loads(self) -> list[Request]:
        """The settings (a graphic's new picture into its hidden source): OBS loads them at its next
        frame, before they are shown (:mod:`broadcast.obs.drawn`)."""
        return settings_requests(list(self.settings))

    def shows(self) -> list[Request]:
        return [
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


def graphic_scenes(lay: L.Layout, graphic: str) -> list[str]:
    return [sc for sc, items in lay.scenes.items() if any(i.graphic == graphic for i in items)]


def choose_front(
    names: list[str], held: Mapping[str, str], shown: set[str], want_file: str, front: str | None
) -> tuple[str, str | None]:
    """Which of a graphic's picture sources shows ``want_file`` next, and which one must load it first
    (None: it holds it already). The one on air is never re-loaded (it would blank for a frame): the
    new picture goes into the hidden one, which is then shown before the other is hidden."""
    if front not in names:  # after a (re)connect: the one OBS shows, else the one holding the picture
        on = [n for n in names if n in shown]
        front = on[-1] if on else next((n for n in names if held.get(n) == want_file), names[0])
    if not want_file or held.get(front) == want_file:
        return front, None
    other = next(n for n in names if n != front)
    if held.get(other) == want_file:
        return other, None
    if front in shown:
        return other, other
    return front, front


def plan_sync(
    lay: L.Layout,
    bus: Mapping[str, Any],
    *,
    sent: Mapping[str, Mapping[str, Any]],
    enabled: Mapping[ItemKey, bool],
    item_ids: Mapping[ItemKey, int],
    program: str,
    want_scene: str,
    files: Mapping[str, str] | None = None,
    front: Mapping[str, str] | None = None,
) -> SyncPlan:
    """What to send for the show state's program ``bus``: the settings OBS does not hold (``sent``: what
    OBS holds per input), for each native graphic its picture file (``files``: graphic → file) in the
    source that will show it (``front``: graphic → the source showing it now), the items to show and hide
    (``enabled`` as OBS last confirmed), and the cut to ``want_scene`` when program (``program``, as OBS
    last confirmed) is elsewhere."""
    files, front = files or {}, front or {}
    settings: dict[str, dict[str, Any]] = {
        n: dict(s.settings) for n, s in lay.inputs.items() if not same(s.settings, sent.get(n))
    }
    held = {n: str((sent.get(n) or {}).get("file", "")) for n in lay.inputs}
    fronts: dict[str, str] = {}
    visible: dict[ItemKey, bool] = {}
    for graphic, items in lay.graphics.items():
        names = [i.source for i in items]
        scenes = graphic_scenes(lay, graphic)
        shown = {n for n in names for sc in scenes if enabled.get((sc, n))}
        f, load = choose_front(names, held, shown, files.get(graphic, ""), front.get(graphic))
        if load is not None:
            settings[load] = {**settings.get(load, {}), "file": files[graphic]}
        fronts[graphic] = f
        on = bool(bus.get(graphic, {}).get("on"))
        for sc in scenes:
            for n in names:
                visible[(sc, n)] = on and n == f
    show: list[tuple[str, int]] = []
    hide: list[tuple[str, int]] = []
    for key, want in visible.items():
        iid = item_ids.get(key)
        if iid is None or enabled.get(key) == want:
            continue
        (show if want else hide).append((key[0], iid))
    return SyncPlan(
        tuple(settings.items()),
        tuple(show),
        tuple(hide),
        want_scene if want_scene and want_scene != program else "",
        tuple(fronts.items()),
    )
