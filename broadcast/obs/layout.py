"""What the show looks like in OBS: scenes, their sources, and the sources' content from the state.

Pure functions (no OBS calls): :func:`build_layout` turns the show state, the settings and what OBS
can do (browser source or not) into a :class:`Layout`; provisioning creates it, the bridge keeps the
sources' settings and the items' visibility equal to it.

Two ways to draw graphics:

* **browser** (OBS with ``browser_source``): every air scene but the break holds one browser source
  showing the overlay server's program page, which draws whatever graphic is on the program bus
  (the corner bug included); a 预览 scene holds the preview page. Full-screen graphics switch scenes.
* **native** (Debian's OBS has no browser source): each graphic is a small scene of OBS's own
  sources (``text_ft2_source_v2`` in Noto Sans CJK SC, ``image_source``, ``color_source_v3``), nested
  into the air scenes where it belongs; taking a graphic shows its item, the text follows the state.

Z order in an air scene is the order of its items (first = bottom).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast import tokens as T

# air scenes
SCENE_GAME = "够级·比赛"
SCENE_LEADERBOARD = "够级·英雄榜"
SCENE_JIUGONGGE = "够级·九宫格"
SCENE_CREDITS = "够级·片尾"
SCENE_BREAK = "够级·中插"
SCENE_BUMPER = "够级·垫片"
SCENE_PREVIEW = "够级·图形预览"  # browser mode only: the preview page, never on air
AIR_SCENES = (SCENE_GAME, SCENE_LEADERBOARD, SCENE_JIUGONGGE, SCENE_CREDITS, SCENE_BREAK, SCENE_BUMPER)

# full-screen graphics take the program to their own scene; first match wins
FULLSCREEN: tuple[tuple[str, str], ...] = (
    ("bumper", SCENE_BUMPER),
    ("credits", SCENE_CREDITS),
    ("leaderboard", SCENE_LEADERBOARD),
    ("jiugongge", SCENE_JIUGONGGE),
)

# native graphic scenes (nested into air scenes)
GFX_SCENE = {
    "scoreboard": "图形·比分",
    "corner_bug": "图形·角标",
    "leaderboard": "图形·英雄榜",
    "bumper": "图形·垫片",
    "jiugongge": "图形·九宫格",
    "credits": "图形·片尾",
    "ticker": "图形·字幕条",
    "lower_third": "图形·人名条",
    "commentary": "图形·解说",
    "jipaiqi": "图形·记牌器",
}
GFX_OF_SCENE = {v: k for k, v in GFX_SCENE.items()}

# which graphics each air scene carries, bottom to top. The 独家特约 corner bug is promised "for the
# whole broadcast": it is in every programme scene, and not over the break's spots nor over another
# sponsor's bumper or film (those are not the show).
SCENE_GRAPHICS: dict[str, tuple[str, ...]] = {
    SCENE_GAME: ("scoreboard", "jipaiqi", "lower_third", "commentary", "ticker", "corner_bug"),
    SCENE_LEADERBOARD: ("leaderboard", "corner_bug"),
    SCENE_JIUGONGGE: ("jiugongge", "lower_third", "corner_bug"),
    SCENE_CREDITS: ("credits", "corner_bug"),
    SCENE_BUMPER: ("bumper", "corner_bug"),  # the 角标 is on screen for the whole broadcast, breaks aside
    SCENE_BREAK: (),
}
CORNER_BUG_SCENES = tuple(s for s, g in SCENE_GRAPHICS.items() if "corner_bug" in g)

# graphics that carry a sponsor's promise: a proof-of-air screenshot is taken when they go on air
SPONSOR_GRAPHICS = frozenset(
    {"corner_bug", "leaderboard", "bumper", "credits", "ticker", "commentary", "jiugongge", "scoreboard"}
)

INPUT_BG_STUDIO = "背景·演播室"
INPUT_BG_BLACK = "背景·黑"
INPUT_CAMERA = "机位"
INPUT_OVERLAY = "图形·网页"
INPUT_OVERLAY_PREVIEW = "图形·网页预览"
FILM_PREFIX = "影片·"

TEXT = "text_ft2_source_v2"
IMAGE = "image_source"
COLOR = "color_source_v3"
MEDIA = "ffmpeg_source"
BROWSER = "browser_source"

# OBS item alignment: the point of the source that sits at the item's position
ALIGN_CENTER = 0
ALIGN_LEFT = 1  # left edge, vertically centred
ALIGN_RIGHT = 2  # right edge, vertically centred
ALIGN_TOP = 4  # top edge, horizontally centred
ALIGN_TOP_LEFT = 5
ALIGN_TOP_RIGHT = 6

# the 90 % title-safe area every native graphic is drawn in (left, top, right, bottom)
SAFE = T.safe_area()

STATUS_ZH = {"out": "已出完", "burning": "被烧", "wutou": "无头", "quan_san": "圈三", "sitting_out": "休息"}


@dataclass(frozen=True)
class InputSpec:
    name: str
    kind: str
    settings: dict[str, Any]
    scene: str  # the scene it is created in (and positioned in)
    x: float = 0.0
    y: float = 0.0
    align: int = ALIGN_TOP_LEFT
    bounds: tuple[int, int] | None = None  # scale-to-fit box (images, films)
    fit: tuple[int, int] | None = None  # texts: shrink (never grow) to stay inside this box


@dataclass(frozen=True)
class ItemSpec:
    source: str  # input or nested scene name
    graphic: str = ""  # the graphic it shows ("" = always shown)
    film: str = ""  # film id (break scene items)
    bounds: tuple[int, int] | None = None


@dataclass
class Layout:
    browser: bool
    scenes: dict[str, list[ItemSpec]] = field(default_factory=dict)  # scene -> items bottom→top
    inputs: dict[str, InputSpec] = field(default_factory=dict)
    films: dict[str, Path] = field(default_factory=dict)

    def scene_order(self) -> list[str]:
        """Nested graphic scenes first (they must exist before they are added as items)."""
        return sorted(self.scenes, key=lambda s: (s not in GFX_OF_SCENE, s))


def abgr(hex_rgb: str, alpha: int = 255) -> int:
    """OBS colours are 0xAABBGGRR."""
    h = hex_rgb.lstrip("#")
    if len(h) != 6:
        h = "000000"
    r, g, b = int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return (alpha << 24) | (b << 16) | (g << 8) | r


def text_settings(
    text: str, size: int, *, font: str, color: str = "#ffffff", bold: bool = False, shadow: bool = True
) -> dict[str, Any]:
    c = abgr(color)
    return {
        "text": text,
        "font": {
            "face": font,
            "size": int(size),
            "style": "Bold" if bold else "Regular",
            "flags": 1 if bold else 0,
        },
        "color1": c,
        "color2": c,
        "drop_shadow": shadow,
        "outline": False,
        "antialiasing": True,
    }


def color_settings(color: str, w: int, h: int, alpha: int = 255) -> dict[str, Any]:
    return {"color": abgr(color, alpha), "width": int(w), "height": int(h)}


def film_input(film_id: str) -> str:
    return FILM_PREFIX + film_id


def program_scene_for(bus: Mapping[str, Any]) -> str:
    """The air scene a graphics bus implies."""
    for g, scene in FULLSCREEN:
        if bus.get(g, {}).get("on"):
            return scene
    return SCENE_GAME


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
    _native_graphics(lay, state, font=font, assets=resolve, w=width, h=height)
    for scene, gfx in SCENE_GRAPHICS.items():
        if scene == SCENE_BREAK:
            continue
        lay.scenes[scene] = [*bg, *(ItemSpec(GFX_SCENE[g], graphic=g) for g in gfx)]
    return lay


# -- native graphics -------------------------------------------------------------------------------
# The HTML design (overlays/css) redrawn with OBS's own sources: rectangles of color_source_v3 for
# panels, borders, shadows, stripes, chips and highlight cells; text_ft2_source_v2 for every word;
# image_source for logos. Positions never depend on the state (the bridge only re-sends settings):
# what changes with the state is text, colour and alpha (alpha 0 hides a cell or a chip).

# the design tokens (overlays/tokens.json), the same the pages' CSS is generated from
GOLD = T.color("gold")
INK = T.color("ink")
WARN = T.color("warn")  # 报牌, as the pages' --warn
TEAM_COLOR = {"odd": T.color("odd"), "even": T.color("even")}  # a team without a colour of its own
INK_DIM = T.native("ink-dim")  # OBS's own sources draw opaque where the pages are translucent
DARK_INK = T.native("dark-ink")
PLATE = T.native("plate")  # panels
PLATE_2 = T.native("plate-2")  # seat cells
HEADER = T.native("header")
TEAM_LIGHT: dict[str, str] = dict(T.native("team-light"))
TEAM_BADGE: dict[str, str] = dict(T.native("team-badge"))
TITLE_BADGE: dict[str, str] = dict(T.native("title-badge"))
TAG_COLORS: dict[str, tuple[str, str]] = {k: (v[0], v[1]) for k, v in T.native("tag").items()}

# the six seats around the table, as the HTML scoreboard: 1 bottom, 2 right-low, 3 right-high,
# 4 top, 5 left-high, 6 left-low (对头 face each other: 1↔4, 2↔5, 3↔6); cell offsets in the table area
SEAT_CELL = (200, 72)
SEAT_POS = {1: (260, 238), 2: (504, 174), 3: (504, 64), 4: (260, 0), 5: (16, 64), 6: (16, 174)}
# the scoreboard panel (bottom right, above the ticker) and where its table area starts
SCOREBOARD = (1094, 428, 720, 520)
TABLE_TOP = 108
LEADERBOARD = (452, 96, 1016, 856)


def text_width(text: str, size: float) -> int:
    """An estimate of a line's width in Noto Sans CJK (CJK glyphs are square, Latin about half)."""
    import unicodedata

    return int(sum(size if unicodedata.east_asian_width(ch) in "WF" else 0.6 * size for ch in text))


class _Painter:
    """Adds one graphic's sources to its nested scene, bottom to top."""

    def __init__(self, lay: Layout, graphic: str, font: str, assets: Callable[[str], str]) -> None:
        self.lay, self.scene, self.font, self.assets = lay, GFX_SCENE[graphic], font, assets
        lay.scenes.setdefault(self.scene, [])

    def add(
        self,
        name: str,
        kind: str,
        settings: dict[str, Any],
        x: float,
        y: float,
        *,
        align: int = ALIGN_TOP_LEFT,
        bounds: tuple[int, int] | None = None,
        fit: tuple[int, int] | None = None,
    ) -> None:
        self.lay.inputs[name] = InputSpec(name, kind, settings, self.scene, x, y, align, bounds, fit)
        self.lay.scenes[self.scene].append(ItemSpec(name, bounds=bounds))

    def text(
        self,
        name: str,
        value: str,
        size: int,
        x: float,
        y: float,
        *,
        color: str = INK,
        color2: str | None = None,
        bold: bool = False,
        align: int = ALIGN_TOP_LEFT,
        shadow: bool = False,
        fit: tuple[int, int] | None = None,
        numeric: bool = False,
    ) -> None:
        settings = text_settings(value, size, font=self.font, color=color, bold=bold, shadow=shadow)
        if numeric:
            y -= round(size * 0.12)  # digits sit low in the CJK font's line box
        if color2:
            settings["color2"] = abgr(color2)
        self.add(name, TEXT, settings, x, y, align=align, fit=fit)

    def rect(self, name: str, c: str, x: float, y: float, w: int, h: int, alpha: int = 255) -> None:
        self.add(name, COLOR, color_settings(c, w, h, alpha), x, y)

    def image(self, name: str, ref: str, x: float, y: float, bw: int, bh: int) -> None:
        self.add(name, IMAGE, {"file": self.assets(ref), "unload": False}, x, y, bounds=(bw, bh))

    def panel(
        self,
        name: str,
        x: float,
        y: float,
        w: int,
        h: int,
        *,
        fill: str = PLATE,
        alpha: int = 255,
        border: str = GOLD,
        border_alpha: int = 255,
        shown: bool = True,
    ) -> None:
        """A broadcast panel: a soft drop shadow, a thin border, the fill."""
        on = 1 if shown else 0
        self.rect(f"{name}·影2", "#000000", x + 4, y + 8, w + 4, h + 4, 50 * on)
        self.rect(f"{name}·影1", "#000000", x + 2, y + 4, w + 2, h + 2, 80 * on)
        self.rect(f"{name}·边", border, x - 2, y - 2, w + 4, h + 4, border_alpha * on)
        self.rect(f"{name}·底", fill, x, y, w, h, alpha * on)

    def chip(
        self,
        name: str,
        label: str,
        x: float,
        y: float,
        h: int,
        size: int,
        fill: str,
        ink: str,
        *,
        bold: bool = True,
        min_w: int = 0,
        pad: int = 8,
    ) -> None:
        """A coloured tag with a word on it (hidden when the word is empty); left edge at x. Its width
        follows the word (a setting); the word's position does not (positions never follow the state)."""
        w = max(min_w, text_width(label, size) + 2 * pad)
        self.rect(f"{name}底", fill, x, y, w, h, 255 if label else 0)
        self.text(name, label, size, x + pad, y + h / 2, color=ink, bold=bold, align=ALIGN_LEFT)


def _native_graphics(
    lay: Layout, st: Mapping[str, Any], *, font: str, assets: Callable[[str], str], w: int, h: int
) -> None:
    for g in GFX_SCENE:
        lay.scenes.setdefault(GFX_SCENE[g], [])

    def painter(graphic: str) -> _Painter:
        return _Painter(lay, graphic, font, assets)

    _scoreboard(painter("scoreboard"), st)
    _corner_bug(painter("corner_bug"), st)
    _leaderboard(painter("leaderboard"), st)
    _bumper(painter("bumper"), st)
    _jiugongge(painter("jiugongge"), st)
    _credits(painter("credits"), st)
    _ticker(painter("ticker"), st)
    _lower_third(painter("lower_third"), st)
    _commentary(painter("commentary"), st)
    _jipaiqi(painter("jipaiqi"), st)


def _team_of(seat: Mapping[str, Any]) -> str:
    num = int(seat.get("seat", 1))
    team = str(seat.get("team") or ("odd" if num % 2 else "even"))
    return team if team in ("odd", "even") else "odd"


def _seat_tags(seat: Mapping[str, Any]) -> list[str]:
    status = str(seat.get("status", "playing"))
    tags = []
    if status == "burning":
        tags.append("烧牌")
    if status == "wutou":
        tags.append("无头")
    if seat.get("passed"):
        tags.append("过")
    if seat.get("opened"):
        tags.append("开点")
    if status in ("sitting_out",):
        tags.append(STATUS_ZH[status])
    return tags


def _scoreboard(p: _Painter, st: Mapping[str, Any]) -> None:
    """比分: panel bottom right — header (game N of M, teams, totals), finished games, the six seats
    around the table with the title sponsor at its centre, the last play and whose turn it is."""
    table, sponsors = st.get("table", {}), st.get("sponsors", {})
    teams = table.get("teams", {})
    odd, even = teams.get("odd", {}), teams.get("even", {})
    seats = list(table.get("seats", []))
    x0, y0, pw, ph = SCOREBOARD
    p.panel("比分·板", x0, y0, pw, ph, fill=PLATE)
    # header: 第N局 共M局 | odd team score : score even team
    p.rect("比分·表头", HEADER, x0, y0, pw, 68)
    p.rect("比分·表头线", GOLD, x0, y0 + 68, pw, 1, 110)
    p.text(
        "比分·局",
        f"第{table.get('game_no', 1)}局",
        28,
        x0 + 16,
        y0 + 2,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
    )
    p.text("比分·局数", f"共{table.get('games_in_match', 3)}局", 16, x0 + 18, y0 + 40, color=INK_DIM)
    mid = y0 + 35
    for side, team, bx in (("odd", odd, x0 + 116), ("even", even, x0 + 430)):
        colour = str(team.get("color") or TEAM_COLOR[side])
        name = str(team.get("label") or "")  # the name on air, as the game component decided it
        zh = "单" if side == "odd" else "双"
        p.rect(f"比分·{zh}队底", colour, bx, y0 + 12, 274, 46)
        p.rect(f"比分·{zh}队光", "#ffffff", bx, y0 + 12, 274, 2, 60)
        p.rect(f"比分·{zh}队暗", "#000000", bx + (150 if side == "odd" else 0), y0 + 14, 124, 44, 70)
        points = _num(team.get("points", 0))
        if side == "odd":
            p.text(f"比分·{zh}队名", name, 22, bx + 12, mid, bold=True, align=ALIGN_LEFT, fit=(150, 40))
            p.text(f"比分·{zh}队分", points, 34, bx + 262, mid, bold=True, align=ALIGN_RIGHT, numeric=True)
        else:
            p.text(f"比分·{zh}队分", points, 34, bx + 12, mid, bold=True, align=ALIGN_LEFT, numeric=True)
            p.text(f"比分·{zh}队名", name, 22, bx + 262, mid, bold=True, align=ALIGN_RIGHT, fit=(150, 40))
    p.text("比分·冒号", ":", 30, x0 + 408, mid - 2, color=GOLD, bold=True, align=ALIGN_CENTER)
    # finished games: 第1局 17:11 · 第2局 …
    results = [
        f"第{r.get('game_no', i + 1)}局 {_num(r.get('odd', 0))}:{_num(r.get('even', 0))}"
        for i, r in enumerate(table.get("results", []))
    ]
    line = "   ".join(results)
    p.rect("比分·战绩底", "#2a3150", x0 + 16, y0 + 78, text_width(line, 16) + 20, 24, 255 if line else 0)
    p.rect(
        "比分·战绩线", str(odd.get("color") or TEAM_COLOR["odd"]), x0 + 16, y0 + 78, 3, 24, 255 if line else 0
    )
    p.text("比分·战绩", line, 16, x0 + 28, y0 + 90, color="#d5d9e6", align=ALIGN_LEFT, fit=(680, 24))
    # the table: title sponsor at the centre, the seats around it
    tx, ty = x0, y0 + TABLE_TOP
    title = sponsors.get("title", {})
    p.rect("比分·桌边", GOLD, tx + 258, ty + 80, 204, 150, 200)
    p.rect("比分·桌面", "#0f3d2a", tx + 260, ty + 82, 200, 146)
    p.image("比分·冠名标", title.get("logo", ""), tx + 310, ty + 90, 100, 64)
    felt = str(title.get("name") or st.get("show", {}).get("title") or "")  # no sponsor: the show
    p.text("比分·冠名", felt, 20, tx + 360, ty + 178, bold=True, align=ALIGN_CENTER, fit=(188, 30))
    p.text(
        "比分·冠名字",
        "独家冠名" if title.get("name") else "",
        15,
        tx + 360,
        ty + 206,
        color=GOLD,
        align=ALIGN_CENTER,
    )
    turn = table.get("turn")
    cw, ch = SEAT_CELL
    for num in range(1, 7):
        s = next((x for x in seats if int(x.get("seat", 0)) == num), None) or (
            seats[num - 1] if num - 1 < len(seats) else {"seat": num}
        )
        team = _team_of({**s, "seat": num})
        colour = str((odd if team == "odd" else even).get("color") or "#ffffff")
        cx, cy = tx + SEAT_POS[num][0], ty + SEAT_POS[num][1]
        left = int(s.get("cards_left", 36))
        title_zh = str(s.get("title") or "")
        baopai = bool(s.get("baopai"))  # G5.6 as the engine reports it
        n = f"比分·{num}号位"
        p.rect(f"{n}·轮到", GOLD, cx - 3, cy - 3, cw + 6, ch + 6, 255 if turn == num else 0)
        p.rect(f"{n}·底", "#2b3050" if title_zh else PLATE_2, cx, cy, cw, ch)
        p.rect(f"{n}·报牌", "#8a4a0c", cx + 124, cy, cw - 124, ch, 255 if baopai else 0)
        p.rect(f"{n}色", colour, cx, cy, 8, ch)
        p.rect(f"{n}·号底", TEAM_BADGE[team], cx + 16, cy + 23, 26, 26)
        p.text(
            f"{n}·号",
            str(num),
            18,
            cx + 29,
            cy + 36,
            color="#1a1f35",
            bold=True,
            align=ALIGN_CENTER,
            numeric=True,
        )
        p.text(
            n,
            str(s.get("name") or f"{num}号位"),
            22,
            cx + 50,
            cy + 24,
            bold=True,
            align=ALIGN_LEFT,
            fit=(74, 34),
        )
        tag = " ".join(_seat_tags(s))
        first = _seat_tags(s)[0] if tag else "过"
        fill, ink = TAG_COLORS.get(first, ("#4a5070", INK))
        p.chip(f"{n}·标签", tag, cx + 50, cy + 44, 20, 13, fill, ink, pad=5)
        # cards left, large (orange at ≤ 10: 报牌), or the title won on a badge in the same place
        badge = TITLE_BADGE.get(title_zh, GOLD)
        p.rect(f"{n}·称号底", badge, cx + 124, cy + 17, 68, 38, 255 if title_zh else 0)
        p.rect(f"{n}·称号光", "#ffffff", cx + 124, cy + 17, 68, 2, 90 if title_zh else 0)
        if title_zh:
            p.text(
                f"{n}·张数",
                title_zh,
                24,
                cx + 180,
                cy + 38,
                bold=True,
                align=ALIGN_RIGHT,
                color=INK if title_zh == "圈三" else DARK_INK,
                numeric=True,
            )
        else:
            p.text(
                f"{n}·张数",
                str(left),
                36,
                cx + 180,
                cy + 39,
                color=WARN if baopai else INK,
                bold=True,
                align=ALIGN_RIGHT,
                numeric=True,
            )
        p.text(f"{n}·张", "" if title_zh else "张", 13, cx + 194, cy + 50, color=INK_DIM, align=ALIGN_RIGHT)
    # the last play and whose turn it is
    by = y0 + ph - 92
    p.rect("比分·出牌底", "#0a0d18", x0, by, pw, 92, 235)
    p.rect("比分·出牌线", GOLD, x0, by, pw, 1, 110)
    last = table.get("last_play") or {}
    lseat = int(last.get("seat") or 0)

    def who(num: int) -> tuple[str, str]:
        s = next((x for x in seats if int(x.get("seat", 0)) == num), {})
        return f"{num}号 {s.get('name') or ''}".strip(), TEAM_LIGHT[_team_of({**s, "seat": num})]

    l1 = by + 24
    p.chip("比分·上手", "上手" if lseat else "", x0 + 16, l1 - 13, 26, 15, GOLD, DARK_INK, pad=6)
    name1, c1 = who(lseat) if lseat else ("", INK)
    p.text("比分·出牌人", name1, 22, x0 + 70, l1, color=c1, bold=True, align=ALIGN_LEFT, fit=(156, 34))
    label = str(last.get("label") or last.get("cards") or "") if lseat else ""
    p.text(
        "比分·出牌",
        label,
        26,
        x0 + 236,
        l1,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        align=ALIGN_LEFT,
        fit=(370, 38),
    )
    tag, tag_fill = (
        ("够级", "#d7332a")
        if last.get("gouji")
        else (("烧牌", "#ff5a1f") if last.get("burn") else ("", "#d7332a"))
    )
    p.chip("比分·出牌标", tag if lseat else "", x0 + pw - 76, l1 - 13, 26, 15, tag_fill, INK, pad=15)
    l2 = by + 64
    turn_num = int(turn or 0)
    p.chip("比分·轮到", "轮到" if turn_num else "", x0 + 16, l2 - 13, 26, 15, GOLD, DARK_INK, pad=6)
    name2, c2 = who(turn_num) if turn_num else ("", INK)
    p.text("比分·轮到人", name2, 22, x0 + 70, l2, color=c2, bold=True, align=ALIGN_LEFT, fit=(200, 34))
    p.text(
        "比分·消息",
        str(table.get("message", "")),
        18,
        x0 + pw - 16,
        l2,
        color="#d5d9e6",
        align=ALIGN_RIGHT,
        fit=(420, 30),
    )


def _corner_bug(p: _Painter, st: Mapping[str, Any]) -> None:
    """角标 (独家特约), top right: logo, “独家特约”, the sponsor's name, a gold edge."""
    special = st.get("sponsors", {}).get("special", {})
    name = str(special.get("name", ""))
    on = bool(name or special.get("logo"))
    x, y, bw, bh = 1540, 54, 278, 96
    p.rect("角标·影", "#000000", x + 3, y + 5, bw + 3, bh + 3, 70 if on else 0)
    p.rect("角标·底", "#3c4260", x, y, bw, bh, 235 if on else 0)
    p.rect("角标·光", "#ffffff", x, y, bw, 2, 40 if on else 0)
    p.rect("角标·金边", GOLD, x + bw, y, 6, bh, 255 if on else 0)
    p.image("角标·标志", special.get("logo", ""), x + 12, y + 10, 76, 76)
    p.text("角标·标签", "独家特约" if name else "", 16, x + 100, y + 16, color=GOLD)
    p.text("角标·文字", name, 28, x + 100, y + 40, bold=True, fit=(168, 44))


def _leaderboard(p: _Painter, st: Mapping[str, Any]) -> None:
    """英雄榜, centred: the sponsor's logo and name before the title, the season, ten rows (rank on a
    gold/silver/bronze chip for the top three, 并列 for ties, name, team colour and team, 局数 头科 大落,
    points)."""
    board, sp = st.get("leaderboard", {}), st.get("sponsors", {}).get("leaderboard", {})
    sponsor = str(sp.get("name") or board.get("sponsor") or "")
    x0, y0, pw, ph = LEADERBOARD
    p.panel("英雄榜·板", x0, y0, pw, ph, fill="#2a1218")
    p.rect("英雄榜·表头", "#3a1620", x0, y0, pw, 160)
    lx, rx = x0 + 36, x0 + pw - 36
    p.image("英雄榜·冠名标", sp.get("logo", ""), lx, y0 + 30, 110, 110)
    p.text(
        "英雄榜·冠名", sponsor, 30, lx + 134, y0 + 26, color="#ffe08a", color2=GOLD, bold=True, fit=(560, 44)
    )
    p.text(
        "英雄榜·标题",
        str(board.get("title") or "够级英雄榜"),
        64,
        lx + 130,
        y0 + 62,
        bold=True,
        shadow=True,
        fit=(560, 84),
    )
    p.text(
        "英雄榜·期",
        str(board.get("season", "")),
        26,
        rx,
        y0 + 96,
        color="#d5d9e6",
        align=ALIGN_RIGHT,
        fit=(300, 40),
    )
    p.rect("英雄榜·金线", GOLD, lx, y0 + 158, rx - lx, 2)
    hy = y0 + 184
    rank_x, name_x, team_x, points_x = lx + 56, lx + 112, lx + 304, rx - 8
    stats = {"games": ("局数", lx + 570), "firsts": ("头科", lx + 662), "lasts": ("大落", lx + 754)}
    players = board.get("kind", "players") == "players"
    head = "#c9cede"
    p.text("英雄榜·列名次", "名次", 20, rank_x, hy, color=head, align=ALIGN_CENTER)
    p.text("英雄榜·列选手", "选手" if players else "队伍", 20, name_x, hy, color=head, align=ALIGN_LEFT)
    p.text("英雄榜·列队伍", "队伍" if players else "", 20, team_x, hy, color=head, align=ALIGN_LEFT)
    for label, sx in stats.values():
        p.text(f"英雄榜·列{label}", label, 20, sx, hy, color=head, align=ALIGN_CENTER)
    p.text("英雄榜·列积分", "积分", 20, points_x, hy, color=GOLD, align=ALIGN_RIGHT)
    rows = list(board.get("rows", []))[:10]
    medals = {1: ("#f5c542", DARK_INK), 2: ("#d9dde8", "#1a1f35"), 3: ("#d9915c", "#2a1400")}
    for i in range(10):
        r = rows[i] if i < len(rows) else None
        cy = hy + 22 + 62 * i + 31
        n = f"英雄榜·第{i + 1}行"
        rank = int(r.get("rank", i + 1)) if r else 0
        medal = medals.get(rank) if r else None
        tied = bool(r and r.get("tied"))
        p.rect(f"{n}·线", "#ffffff", lx, cy + 30, rx - lx, 1, 28 if r else 0)
        p.rect(
            f"{n}·名次底", medal[0] if medal else "#000000", rank_x - 46, cy - 20, 92, 40, 255 if medal else 0
        )
        p.rect(f"{n}·名次光", "#ffffff", rank_x - 46, cy - 20, 92, 2, 110 if medal else 0)
        p.text(
            f"{n}·名次",
            (f"{rank} 并列" if tied else str(rank)) if r else "",
            22 if tied else 28,
            rank_x,
            cy,
            color=medal[1] if medal else INK,
            bold=True,
            align=ALIGN_CENTER,
            numeric=True,
        )
        p.text(
            f"{n}·选手",
            str(r.get("name", "")) if r else "",
            28,
            name_x,
            cy,
            bold=True,
            align=ALIGN_LEFT,
            fit=(180, 42),
        )
        p.rect(
            f"{n}·队色",
            str((r or {}).get("team_color") or "#888888"),
            team_x,
            cy - 14,
            5,
            28,
            255 if r and r.get("team") else 0,
        )
        p.text(
            f"{n}·队伍",
            str(r.get("team", "")) if r else "",
            22,
            team_x + 14,
            cy,
            color="#d5d9e6",
            align=ALIGN_LEFT,
            fit=(190, 36),
        )
        for key, (label, sx) in stats.items():
            p.text(
                f"{n}·{label}",
                str(int(r.get(key, 0))) if r else "",
                24,
                sx,
                cy,
                align=ALIGN_CENTER,
                numeric=True,
            )
        p.text(
            f"{n}·积分",
            _num(r.get("points", 0)) if r else "",
            30,
            points_x,
            cy,
            color="#ffd75e",
            bold=True,
            align=ALIGN_RIGHT,
            numeric=True,
        )


def _bumper(p: _Painter, st: Mapping[str, Any]) -> None:
    """垫片: the chosen line (graphics.program.bumper.item = bumper id, else the first) on a red band
    across the picture, gold rules above and below, the sponsor's logo at its left."""
    sponsors = st.get("sponsors", {})
    bumpers = list(sponsors.get("bumpers", []))
    want = st.get("graphics", {}).get("program", {}).get("bumper", {}).get("item", "")
    bumper = next((b for b in bumpers if b.get("id") == want), bumpers[0] if bumpers else {})
    x, y, bw, bh = 210, 460, 1500, 160
    p.rect("垫片·影", "#000000", x + 6, y + 10, bw, bh, 70)
    for k, a in enumerate((70, 130, 190)):  # the band fades in at both ends
        p.rect(f"垫片·左{k}", "#a51c1c", x + 50 * k, y, 50, bh, a)
        p.rect(f"垫片·右{k}", "#a51c1c", x + bw - 50 * (k + 1), y, 50, bh, a)
    p.rect("垫片·底", "#a51c1c", x + 150, y, bw - 300, bh)
    p.rect("垫片·上线", GOLD, x, y - 3, bw, 3)
    p.rect("垫片·下线", GOLD, x, y + bh, bw, 3)
    p.image("垫片·标志", bumper.get("logo", ""), x + 120, y + 20, 120, 120)
    p.text(
        "垫片·文字",
        str(bumper.get("text", "")),
        46,
        x + bw / 2 + 70,
        y + bh / 2,
        bold=True,
        shadow=True,
        align=ALIGN_CENTER,
        fit=(1180, 120),
    )


def _jiugongge(p: _Painter, st: Mapping[str, Any]) -> None:
    """九宫格 3×3 with the drawn cell lit."""
    sponsors = st.get("sponsors", {})
    cells = list(st.get("jiugongge", {}).get("cells", []))
    draw = st.get("jiugongge", {}).get("draw") or {}
    board_sp = sponsors.get("jiugongge_board", {})
    p.panel("九宫格·板", 420, 64, 1080, 940, fill="#1d1030")
    p.text(
        "九宫格·标题",
        "奖品九宫格" + (f"  {draw.get('contestant')} 抽奖" if draw else ""),
        52,
        960,
        80,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        align=ALIGN_TOP,
        fit=(1000, 80),
    )
    for k in range(9):
        c = cells[k] if k < len(cells) else {}
        cx, cy = 505 + (k % 3) * 310, 170 + (k // 3) * 260
        lit = bool(draw) and int(draw.get("cell", -1)) == k
        p.rect(f"九宫格·边{k + 1}", GOLD, cx - 2, cy - 2, 294, 244, 255 if lit else 90)
        p.rect(f"九宫格·格{k + 1}", "#c8372d" if lit else "#2e2450", cx, cy, 290, 240)
        p.text(
            f"九宫格·字{k + 1}",
            f"{k + 1}\n{c.get('prize', '')}\n{c.get('sponsor', '')}".rstrip(),
            28,
            cx + 145,
            cy + 120,
            align=ALIGN_CENTER,
            fit=(270, 220),
        )
    p.text(
        "九宫格·广告",
        str(board_sp.get("name", "")),
        30,
        960,
        968,
        color="#d5d9e6",
        align=ALIGN_CENTER,
        fit=(1000, 44),
    )


def _credits(p: _Painter, st: Mapping[str, Any]) -> None:
    """片尾 credits card: roles right-aligned, names left-aligned, around the centre line."""
    credits = list(st.get("sponsors", {}).get("credits", []))
    show = st.get("show", {})
    p.panel("片尾·板", 460, 64, 1000, 940, fill="#0b0d16")
    p.text(
        "片尾·标题",
        f"《{show.get('title') or '够级大明星'}》  鸣谢",
        52,
        960,
        90,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        align=ALIGN_TOP,
        fit=(920, 80),
    )
    p.rect("片尾·金线", GOLD, 560, 190, 800, 2)
    p.text(
        "片尾·职务",
        "\n".join(str(c.get("role", "")) for c in credits[:14]),
        34,
        930,
        220,
        color="#c0c6d8",
        align=ALIGN_TOP_RIGHT,
        fit=(380, 770),
    )
    p.text(
        "片尾·名单",
        "\n".join(str(c.get("name", "")) for c in credits[:14]),
        34,
        990,
        220,
        bold=True,
        align=ALIGN_TOP_LEFT,
        fit=(440, 770),
    )


def _ticker(p: _Painter, st: Mapping[str, Any]) -> None:
    """字幕条 along the bottom of the safe area: the show's name in red, the sponsors' lines."""
    show = st.get("show", {})
    y, bh = 970, 56
    p.rect("字幕条·金线", GOLD, 96, y - 2, 1728, 2)
    p.rect("字幕条·底", "#1c2030", 96, y, 1728, bh, 240)
    p.rect("字幕条·栏目底", "#b3201b", 96, y, 248, bh)
    p.text(
        "字幕条·栏目",
        str(show.get("title") or "够级大明星"),
        28,
        220,
        y + bh / 2,
        bold=True,
        align=ALIGN_CENTER,
        fit=(230, 50),
    )
    p.text(
        "字幕条·文字",
        "   ◆   ".join(str(t) for t in st.get("sponsors", {}).get("ticker", [])),
        26,
        364,
        y + bh / 2,
        align=ALIGN_LEFT,
        fit=(1444, 50),
    )


def _lower_third(p: _Painter, st: Mapping[str, Any]) -> None:
    """人名条 bottom left: gold edge, name, second line."""
    lt = st.get("lower_third", {})
    x, y = 96, 800
    p.rect("人名条·影", "#000000", x + 4, y + 6, 880, 132, 70)
    p.rect("人名条·金边", GOLD, x, y, 10, 132)
    p.rect("人名条·底", "#23273a", x + 16, y, 864, 132, 235)
    p.text("人名条·姓名", str(lt.get("name", "")), 52, x + 44, y + 8, bold=True, fit=(820, 72))
    p.text("人名条·说明", str(lt.get("line2", "")), 28, x + 44, y + 82, color="#ffd75e", fit=(820, 44))


def _commentary(p: _Painter, st: Mapping[str, Any]) -> None:
    """解说 top left: the show's name plate and the commentary sponsor under it."""
    com, show = st.get("sponsors", {}).get("commentary", {}), st.get("show", {})
    x, y = 96, 54
    p.rect("解说·影", "#000000", x + 3, y + 5, 360, 112, 70)
    p.rect("解说·底", "#8e1a17", x, y, 360, 110, 240)
    p.rect("解说·金线", GOLD, x, y + 110, 360, 3)
    p.text(
        "解说·栏目",
        f"{show.get('title') or '够级大明星'}",
        42,
        x + 180,
        y + 10,
        color="#fff1c2",
        color2="#ffd75e",
        bold=True,
        align=ALIGN_TOP,
        fit=(330, 60),
    )
    sub = "  ·  ".join(str(v) for v in (show.get("subtitle"), show.get("round")) if v)
    p.text("解说·副题", sub, 17, x + 180, y + 74, color="#f3d7d0", align=ALIGN_TOP, fit=(330, 28))
    p.chip("解说·标签", "解说区" if com.get("name") else "", x + 12, y + 138, 24, 15, "#8e1a17", INK, pad=6)
    p.image("解说·标志", com.get("logo", ""), x + 90, y + 124, 52, 52)
    p.text(
        "解说·赞助",
        str(com.get("name", "")),
        24,
        x + 156,
        y + 150,
        bold=True,
        shadow=True,
        align=ALIGN_LEFT,
        fit=(300, 36),
    )


def _jipaiqi(p: _Painter, st: Mapping[str, Any]) -> None:
    """记牌器 under the corner bug: 大王, 小王 and 2 still out."""
    jp = st.get("table", {}).get("jipaiqi", {})
    x, y, bw, bh = 1564, 174, 254, 176
    p.rect("记牌器·影", "#000000", x + 3, y + 5, bw + 3, bh + 3, 70)
    p.rect("记牌器·金边", GOLD, x, y, 5, bh)
    p.rect("记牌器·底", "#23273a", x + 5, y, bw - 5, bh, 235)
    p.text("记牌器·标题", "记牌器", 24, x + 20, y + 10, color=GOLD, bold=True)
    p.text("记牌器·未出", "未出", 15, x + 100, y + 19, color=INK_DIM)
    for k, (key, label, full, colour) in enumerate(
        (("R", "大王", 4, "#ff6b5e"), ("B", "小王", 4, INK), ("2", "2", 16, "#ffb347"))
    ):
        cy = y + 68 + 38 * k
        left = int(jp.get(key, full))
        p.text(f"记牌器·{label}", label, 22, x + 20, cy, color=colour, bold=True, align=ALIGN_LEFT)
        p.rect(f"记牌器·{label}槽", "#3a4060", x + 80, cy - 4, 120, 8)
        bar = max(1, 120 * min(left, full) // full)
        p.rect(f"记牌器·{label}条", GOLD, x + 80, cy - 4, bar, 8, 255 if left else 0)
        p.text(
            f"记牌器·{label}数", str(left), 26, x + bw - 14, cy, bold=True, align=ALIGN_RIGHT, numeric=True
        )


def _num(v: Any) -> str:
    f = float(v)
    return str(int(f)) if f.is_integer() else f"{f:.1f}"
