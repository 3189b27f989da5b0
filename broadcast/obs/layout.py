"""What the show looks like in OBS: scenes, their sources, and the sources' content from the state.

Pure functions (no OBS calls): :func:`build_layout` turns the show state, the settings and what OBS
can do (browser source or not) into a :class:`Layout`; provisioning creates it, the bridge keeps the
sources' settings and the items' visibility equal to it.

Two ways to draw graphics:

* **browser** (OBS with ``browser_source``): every air scene but the break holds one browser source
  showing the overlay server's program page, which draws whatever graphic is on the program bus
  (the corner bug included); a 预览 scene holds the preview page. Full-screen graphics switch scenes.
* **native** (Debian's OBS has no browser source): each graphic is one picture (``graphics/``, one
  file per graphic, rendered by ``graphics/raster.py``) shown by an ``image_source`` sitting directly
  in every air scene that carries the graphic, at the graphic's fixed frame. Two image sources per
  graphic, shown one at a time: a new picture is loaded into the hidden one, which is then shown before
  the other is hidden (OBS's image source drops its old picture before it has decoded the new one, so
  re-loading the one on air could blank it for a frame). An air scene holds a handful of items: OBS's
  frames stay cheap under a software renderer, its UI rebuilds a short source list on a cut, and a
  re-sync reads back a couple of dozen sources. (Not nested scenes: OBS renders a nested scene through
  a full-canvas texture every frame, ~0.1 s per graphic and frame with a software renderer; not one
  OBS source per word and rectangle either: ~160 items in the game scene made every cut wait seconds
  for OBS's UI.)

Z order in an air scene is the order of its items (first = bottom).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics import paint_all
from broadcast.obs.graphics.paint import SAFE, color_settings
from broadcast.obs.spec import (
    ALIGN_CENTER,
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGN_TOP,
    ALIGN_TOP_LEFT,
    ALIGN_TOP_RIGHT,
    BROWSER,
    COLOR,
    IMAGE,
    MEDIA,
    TEXT,
    InputSpec,
    ItemSpec,
    Layout,
)

__all__ = [
    "ALIGN_CENTER",
    "ALIGN_LEFT",
    "ALIGN_RIGHT",
    "ALIGN_TOP",
    "ALIGN_TOP_LEFT",
    "ALIGN_TOP_RIGHT",
    "BROWSER",
    "COLOR",
    "IMAGE",
    "MEDIA",
    "SAFE",
    "TEXT",
    "InputSpec",
    "ItemSpec",
    "Layout",
    "build_layout",
    "program_scene_for",
]

# air scenes
SCENE_GAME = "够级·比赛"
SCENE_LEADERBOARD = "够级·英雄榜"
SCENE_QUALIFIERS = "够级·海选榜"
SCENE_JIUGONGGE = "够级·九宫格"
SCENE_CREDITS = "够级·片尾"
SCENE_BREAK = "够级·中插"
SCENE_BUMPER = "够级·垫片"
SCENE_PREVIEW = "够级·图形预览"  # browser mode only: the preview page, never on air
# an empty scene, never on air: renaming it (and back) is how the bridge makes OBS save its scene
# collection (OBS saves on a rename, not on a cut, a transform, a shown item or new settings), so that
# after a crash OBS comes back showing the show as it last was — no cut, no re-sent transforms
SCENE_SAVE = "够级·存档"
SCENE_SAVE_ASIDE = SCENE_SAVE + "·"  # its name for the moment between the two renames
AIR_SCENES = (
    SCENE_GAME,
    SCENE_LEADERBOARD,
    SCENE_QUALIFIERS,
    SCENE_JIUGONGGE,
    SCENE_CREDITS,
    SCENE_BREAK,
    SCENE_BUMPER,
)

# full-screen graphics take the program to their own scene; first match wins
FULLSCREEN: tuple[tuple[str, str], ...] = (
    ("bumper", SCENE_BUMPER),
    ("credits", SCENE_CREDITS),
    ("leaderboard", SCENE_LEADERBOARD),
    ("qualifiers", SCENE_QUALIFIERS),
    ("jiugongge", SCENE_JIUGONGGE),
)

# the native graphics (one file each in graphics/)
GRAPHICS = (
    "scoreboard",
    "corner_bug",
    "leaderboard",
    "qualifiers",
    "bumper",
    "jiugongge",
    "credits",
    "ticker",
    "lower_third",
    "commentary",
    "jipaiqi",
    "winprob",
)
# each graphic's name in OBS: its two picture sources are "<name>·画面1" and "<name>·画面2"
GRAPHIC_ZH = {
    "scoreboard": "比分",
    "corner_bug": "角标",
    "leaderboard": "英雄榜",
    "qualifiers": "海选榜",
    "bumper": "垫片",
    "jiugongge": "九宫格",
    "credits": "片尾",
    "ticker": "字幕条",
    "lower_third": "人名条",
    "commentary": "解说",
    "jipaiqi": "记牌器",
    "winprob": "胜率",
}
BUFFERS = ("画面1", "画面2")
# nested graphic scenes of an older layout: their items are removed from our air scenes
LEGACY_GRAPHIC_SCENES = frozenset(f"图形·{n}" for n in GRAPHIC_ZH.values())
# one OBS source per word and rectangle (an older layout): "<name>·…" inputs that are not ours any more
LEGACY_PREFIXES = tuple(f"{n}·" for n in GRAPHIC_ZH.values())


# which graphics each air scene carries, bottom to top: the table of zones and layers
# (overlays/tokens.json, the one the store and the pages follow). The game scene carries every graphic
# but the full-frame items; a full-frame item's scene carries it and what it does not clear — the
# 独家特约 corner bug, promised "for the whole broadcast" (not over the break's spots: those are not the
# show).
def _scene_graphics() -> dict[str, tuple[str, ...]]:
    table = T.zones()
    out = {SCENE_GAME: tuple(g for g, z in table.items() if not z.full)}
    home = dict(FULLSCREEN)
    for g in ("leaderboard", "qualifiers", "jiugongge", "credits", "bumper"):
        kept = (o for o, z in table.items() if o == g or (not z.full and o not in table[g].clears))
        out[home[g]] = tuple(kept)
    out[SCENE_BREAK] = ()
    return out


SCENE_GRAPHICS: dict[str, tuple[str, ...]] = _scene_graphics()
CORNER_BUG_SCENES = tuple(s for s, g in SCENE_GRAPHICS.items() if "corner_bug" in g)
# where a graphic's inputs are created: the first air scene that carries it
HOME_SCENE = {g: next(s for s, gs in SCENE_GRAPHICS.items() if g in gs) for g in GRAPHICS}

# graphics that carry a sponsor's promise: a proof-of-air screenshot is taken when they go on air
SPONSOR_GRAPHICS = frozenset(
    {
        "corner_bug",
        "leaderboard",
        "qualifiers",
        "bumper",
        "credits",
        "ticker",
        "commentary",
        "jiugongge",
        "scoreboard",
    }
)

INPUT_BG_STUDIO = "背景·演播室"
INPUT_BG_BLACK = "背景·黑"
INPUT_CAMERA = "机位"
INPUT_OVERLAY = "图形·网页"
INPUT_OVERLAY_PREVIEW = "图形·网页预览"
FILM_PREFIX = "影片·"


def film_input(film_id: str) -> str:
    return FILM_PREFIX + film_id


def buffer_inputs(graphic: str) -> tuple[str, str]:
    """The graphic's two picture sources (bottom, top)."""
    zh = GRAPHIC_ZH[graphic]
    return (f"{zh}·{BUFFERS[0]}", f"{zh}·{BUFFERS[1]}")


def is_legacy_input(name: str, lay: Layout) -> bool:
    """An input of an older native layout (one source per word): not in ``lay``, in our namespace."""
    return name not in lay.inputs and name.startswith(LEGACY_PREFIXES)


def program_scene_for(bus: Mapping[str, Any]) -> str:
    """The air scene a graphics bus implies."""
    for g, scene in FULLSCREEN:
        if bus.get(g, {}).get("on"):
            return scene
    return SCENE_GAME


def graphic_items(layout: Layout, scene: str) -> dict[str, list[ItemSpec]]:
    """The items of each native graphic in ``scene`` (graphic → its items)."""
    out: dict[str, list[ItemSpec]] = {}
    for item in layout.scenes.get(scene, []):
        if item.graphic:
            out.setdefault(item.graphic, []).append(item)
    return out


def graphics_on_scene(layout: Layout, scene: str, bus: Mapping[str, Any]) -> set[str]:
    """Graphics the given scene would show for this bus (what the as-run calls on air)."""
    if layout.browser:
        if scene == SCENE_BREAK or scene not in layout.scenes:
            return set()
        return {g for g, v in bus.items() if v.get("on")}
    return {i.graphic for i in layout.scenes.get(scene, []) if i.graphic and bus.get(i.graphic, {}).get("on")}


def resolve_asset(ref: str, assets_dir: str | Path) -> str:
    """A logo/photo reference from the state (a web path of the overlay server, or a file) as a local
    file OBS can open ("" when there is none); see :mod:`broadcast.obs.assets`."""
    from broadcast.obs.assets import AssetResolver

    return AssetResolver(base=assets_dir)(ref)


def build_layout(
    state: Mapping[str, Any],
    *,
    browser: bool,
    font: str = T.native_font(),
    assets_dir: str | Path = ".",
    overlay_urls: Mapping[str, str] | None = None,
    films: Mapping[str, Path] | None = None,
    width: int = T.canvas()[0],
    height: int = T.canvas()[1],
    camera_kind: str = "",
    camera_settings: Mapping[str, Any] | None = None,
    resolve: Callable[[str], str] | None = None,
) -> Layout:
    """``resolve`` turns the state's logo references into files (default: the overlay server's roots,
    then ``assets_dir`` for relative paths)."""
    if resolve is None:
        from broadcast.obs.assets import AssetResolver

        resolve = AssetResolver(base=assets_dir)
    lay = Layout(browser=browser, films=dict(films or {}))
    bg: list[ItemSpec] = [ItemSpec(INPUT_BG_STUDIO)]
    lay.inputs[INPUT_BG_STUDIO] = InputSpec(
        INPUT_BG_STUDIO, COLOR, color_settings("#10241d", width, height), SCENE_GAME
    )
    if camera_kind:
        lay.inputs[INPUT_CAMERA] = InputSpec(
            INPUT_CAMERA, camera_kind, dict(camera_settings or {}), SCENE_GAME, bounds=(width, height)
        )
        bg.append(ItemSpec(INPUT_CAMERA, bounds=(width, height)))
    lay.inputs[INPUT_BG_BLACK] = InputSpec(
        INPUT_BG_BLACK, COLOR, color_settings("#000000", width, height), SCENE_BREAK
    )
    lay.scenes[SCENE_BREAK] = [ItemSpec(INPUT_BG_BLACK)]
    lay.scenes[SCENE_SAVE] = []
    for fid, path in sorted(lay.films.items()):
        name = film_input(fid)
        lay.inputs[name] = InputSpec(
            name,
            MEDIA,
            {
                "local_file": str(path),
                "is_local_file": True,
                "looping": False,
                "restart_on_activate": True,
                "close_when_inactive": True,
                "clear_on_media_end": True,
                "hw_decode": False,
            },
            SCENE_BREAK,
            bounds=(width, height),
        )
        lay.scenes[SCENE_BREAK].append(ItemSpec(name, film=fid, bounds=(width, height)))
    urls = dict(overlay_urls or {})
    if browser:
        lay.inputs[INPUT_OVERLAY] = InputSpec(
            INPUT_OVERLAY,
            BROWSER,
            {
                "url": urls.get("program", ""),
                "width": width,
                "height": height,
                "fps_custom": False,
                "reroute_audio": False,
                "shutdown": False,
                "restart_when_active": False,
            },
            SCENE_GAME,
        )
        lay.inputs[INPUT_OVERLAY_PREVIEW] = InputSpec(
            INPUT_OVERLAY_PREVIEW,
            BROWSER,
            {"url": urls.get("preview", ""), "width": width, "height": height},
            SCENE_PREVIEW,
        )
        lay.scenes[SCENE_PREVIEW] = [ItemSpec(INPUT_BG_STUDIO), ItemSpec(INPUT_OVERLAY_PREVIEW)]
        for scene in AIR_SCENES:
            if scene != SCENE_BREAK:
                lay.scenes[scene] = [*bg, ItemSpec(INPUT_OVERLAY)]
        return lay
    lay.pictures = dict(paint_all(state, font=font, assets=resolve))
    for graphic, pic in lay.pictures.items():
        x, y, _w, _h = pic.frame
        for name in buffer_inputs(graphic):
            lay.inputs[name] = InputSpec(
                name, IMAGE, {"unload": False}, HOME_SCENE[graphic], x, y, ALIGN_TOP_LEFT, graphic=graphic
            )
        lay.graphics[graphic] = [ItemSpec(name, graphic=graphic) for name in buffer_inputs(graphic)]
    for scene, gfx in SCENE_GRAPHICS.items():
        if scene == SCENE_BREAK:
            continue
        lay.scenes[scene] = [*bg, *(item for g in gfx for item in lay.graphics[g])]
    return lay
