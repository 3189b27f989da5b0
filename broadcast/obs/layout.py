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

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# air scenes
SCENE_GAME = "够级·比赛"
SCENE_LEADERBOARD = "够级·英雄榜"
SCENE_JIUGONGGE = "够级·九宫格"
SCENE_CREDITS = "够级·片尾"
SCENE_BREAK = "够级·中插"
SCENE_BUMPER = "够级·垫片"
SCENE_PREVIEW = "够级·图形预览"     # browser mode only: the preview page, never on air
AIR_SCENES = (SCENE_GAME, SCENE_LEADERBOARD, SCENE_JIUGONGGE, SCENE_CREDITS, SCENE_BREAK, SCENE_BUMPER)

# full-screen graphics take the program to their own scene; first match wins
FULLSCREEN: tuple[tuple[str, str], ...] = (
    ("bumper", SCENE_BUMPER), ("credits", SCENE_CREDITS), ("leaderboard", SCENE_LEADERBOARD),
    ("jiugongge", SCENE_JIUGONGGE))

# native graphic scenes (nested into air scenes)
GFX_SCENE = {
    "scoreboard": "图形·比分", "corner_bug": "图形·角标", "leaderboard": "图形·英雄榜",
    "bumper": "图形·垫片", "jiugongge": "图形·九宫格", "credits": "图形·片尾", "ticker": "图形·字幕条",
    "lower_third": "图形·人名条", "commentary": "图形·解说", "jipaiqi": "图形·记牌器",
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
    SCENE_BUMPER: ("bumper",),
    SCENE_BREAK: (),
}
CORNER_BUG_SCENES = tuple(s for s, g in SCENE_GRAPHICS.items() if "corner_bug" in g)

# graphics that carry a sponsor's promise: a proof-of-air screenshot is taken when they go on air
SPONSOR_GRAPHICS = frozenset({"corner_bug", "leaderboard", "bumper", "credits", "ticker", "commentary",
                              "jiugongge", "scoreboard"})

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

ALIGN_CENTER = 0
ALIGN_TOP_LEFT = 5

STATUS_ZH = {"out": "已出完", "burning": "被烧", "wutou": "无头", "quan_san": "圈三", "sitting_out": "休息"}


@dataclass(frozen=True)
class InputSpec:
    name: str
    kind: str
    settings: dict[str, Any]
    scene: str                       # the scene it is created in (and positioned in)
    x: float = 0.0
    y: float = 0.0
    align: int = ALIGN_TOP_LEFT
    bounds: tuple[int, int] | None = None   # scale-to-fit box (images, films)


@dataclass(frozen=True)
class ItemSpec:
    source: str                      # input or nested scene name
    graphic: str = ""                # the graphic it shows ("" = always shown)
    film: str = ""                   # film id (break scene items)
    bounds: tuple[int, int] | None = None


@dataclass
class Layout:
    browser: bool
    scenes: dict[str, list[ItemSpec]] = field(default_factory=dict)   # scene -> items bottom→top
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


def text_settings(text: str, size: int, *, font: str, color: str = "#ffffff", bold: bool = False,
                  shadow: bool = True) -> dict[str, Any]:
    c = abgr(color)
    return {"text": text, "font": {"face": font, "size": int(size), "style": "Bold" if bold else "Regular",
                                   "flags": 1 if bold else 0},
            "color1": c, "color2": c, "drop_shadow": shadow, "outline": False, "antialiasing": True}


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
    """A logo/photo reference from the state as a local file OBS can open ("" when there is none)."""
    if not ref or "://" in ref:
        return ""
    p = Path(ref)
    if not p.is_absolute():
        p = Path(assets_dir) / p
    return str(p.resolve()) if p.is_file() else ""


def build_layout(state: Mapping[str, Any], *, browser: bool, font: str = "Noto Sans CJK SC",
                 assets_dir: str | Path = ".", overlay_urls: Mapping[str, str] | None = None,
                 films: Mapping[str, Path] | None = None, width: int = 1920, height: int = 1080,
                 camera_kind: str = "", camera_settings: Mapping[str, Any] | None = None) -> Layout:
    lay = Layout(browser=browser, films=dict(films or {}))
    bg: list[ItemSpec] = [ItemSpec(INPUT_BG_STUDIO)]
    lay.inputs[INPUT_BG_STUDIO] = InputSpec(INPUT_BG_STUDIO, COLOR, color_settings("#10241d", width, height),
                                            SCENE_GAME)
    if camera_kind:
        lay.inputs[INPUT_CAMERA] = InputSpec(INPUT_CAMERA, camera_kind, dict(camera_settings or {}),
                                             SCENE_GAME, bounds=(width, height))
        bg.append(ItemSpec(INPUT_CAMERA, bounds=(width, height)))
    lay.inputs[INPUT_BG_BLACK] = InputSpec(INPUT_BG_BLACK, COLOR, color_settings("#000000", width, height),
                                           SCENE_BREAK)
    lay.scenes[SCENE_BREAK] = [ItemSpec(INPUT_BG_BLACK)]
    for fid, path in sorted(lay.films.items()):
        name = film_input(fid)
        lay.inputs[name] = InputSpec(name, MEDIA, {
            "local_file": str(path), "is_local_file": True, "looping": False, "restart_on_activate": True,
            "close_when_inactive": True, "clear_on_media_end": True, "hw_decode": False},
            SCENE_BREAK, bounds=(width, height))
        lay.scenes[SCENE_BREAK].append(ItemSpec(name, film=fid, bounds=(width, height)))
    urls = dict(overlay_urls or {})
    if browser:
        lay.inputs[INPUT_OVERLAY] = InputSpec(INPUT_OVERLAY, BROWSER, {
            "url": urls.get("program", ""), "width": width, "height": height, "fps_custom": False,
            "reroute_audio": False, "shutdown": False, "restart_when_active": False}, SCENE_GAME)
        lay.inputs[INPUT_OVERLAY_PREVIEW] = InputSpec(INPUT_OVERLAY_PREVIEW, BROWSER, {
            "url": urls.get("preview", ""), "width": width, "height": height}, SCENE_PREVIEW)
        lay.scenes[SCENE_PREVIEW] = [ItemSpec(INPUT_BG_STUDIO), ItemSpec(INPUT_OVERLAY_PREVIEW)]
        for scene in AIR_SCENES:
            if scene != SCENE_BREAK:
                lay.scenes[scene] = [*bg, ItemSpec(INPUT_OVERLAY)]
        return lay
    _native_graphics(lay, state, font=font, assets=assets_dir, w=width, h=height)
    for scene, gfx in SCENE_GRAPHICS.items():
        if scene == SCENE_BREAK:
            continue
        lay.scenes[scene] = [*bg, *(ItemSpec(GFX_SCENE[g], graphic=g) for g in gfx)]
    return lay


# -- native graphics -------------------------------------------------------------------------------
def _native_graphics(lay: Layout, st: Mapping[str, Any], *, font: str, assets: str | Path,
                     w: int, h: int) -> None:
    def add(graphic: str, name: str, kind: str, settings: dict[str, Any], x: float, y: float, *,
            align: int = ALIGN_TOP_LEFT, bounds: tuple[int, int] | None = None) -> None:
        scene = GFX_SCENE[graphic]
        lay.inputs[name] = InputSpec(name, kind, settings, scene, x, y, align, bounds)
        lay.scenes.setdefault(scene, []).append(ItemSpec(name, bounds=bounds))

    def text(graphic: str, name: str, value: str, size: int, x: float, y: float, *, color: str = "#ffffff",
             bold: bool = False, align: int = ALIGN_TOP_LEFT) -> None:
        add(graphic, name, TEXT, text_settings(value, size, font=font, color=color, bold=bold), x, y,
            align=align)

    def image(graphic: str, name: str, ref: str, x: float, y: float, bw: int, bh: int) -> None:
        add(graphic, name, IMAGE, {"file": resolve_asset(ref, assets), "unload": False}, x, y,
            bounds=(bw, bh))

    def color(graphic: str, name: str, c: str, x: float, y: float, cw: int, ch: int,
              alpha: int = 255) -> None:
        add(graphic, name, COLOR, color_settings(c, cw, ch, alpha), x, y)

    for g in GFX_SCENE:
        lay.scenes.setdefault(GFX_SCENE[g], [])
    table, sponsors, show = st.get("table", {}), st.get("sponsors", {}), st.get("show", {})
    teams = table.get("teams", {})
    graphics = st.get("graphics", {}).get("program", {})

    # 比分 scoreboard: bottom band, team score line, six seats, last play, title sponsor at the centre
    top = h - 250
    color("scoreboard", "比分·底板", "#0b0f1a", 0, top, w, 190, 225)
    odd, even = teams.get("odd", {}), teams.get("even", {})
    score = (f"{odd.get('name') or '单数队'}  {odd.get('points', 0)} : {even.get('points', 0)}  "
             f"{even.get('name') or '双数队'}    "
             f"第 {table.get('game_no', 1)}/{table.get('games_in_match', 3)} 局")
    text("scoreboard", "比分·队分", score, 34, 40, top + 10, bold=True)
    title = sponsors.get("title", {})
    text("scoreboard", "比分·冠名", f"{title.get('name')} 独家冠名" if title.get("name") else "", 28,
         w / 2, top + 28, color="#ffd75e", align=ALIGN_CENTER)
    image("scoreboard", "比分·冠名标", title.get("logo", ""), w - 250, top + 8, 210, 50)
    last = table.get("last_play") or {}
    seats = table.get("seats", [])
    for i in range(6):
        s = seats[i] if i < len(seats) else {"seat": i + 1}
        num = int(s.get("seat", i + 1))
        mark = "▶ " if table.get("turn") == num else ""
        state_line = s.get("title") or STATUS_ZH.get(str(s.get("status", "playing")), "")
        cards = f"剩 {s.get('cards_left', 36)} 张"
        line2 = f"{cards}  {state_line}" if state_line and state_line != "已出完" else (state_line or cards)
        team_color = (odd if s.get("team", "odd" if num % 2 else "even") == "odd" else even).get("color",
                                                                                             "#ffffff")
        color("scoreboard", f"比分·{num}号位色", team_color, 30 + i * 315, top + 70, 8, 100)
        text("scoreboard", f"比分·{num}号位", f"{mark}{s.get('name') or f'{num}号位'}\n{line2}", 30,
             48 + i * 315, top + 68)
    if last.get("seat"):
        who = next((x.get("name") for x in seats if x.get("seat") == last.get("seat")), "") or \
            f"{last.get('seat')}号位"
        tag = "  够级!" if last.get("gouji") else ("  烧!" if last.get("burn") else "")
        play = f"{who}：{last.get('label') or last.get('cards', '')}{tag}"
    else:
        play = table.get("message", "")
    text("scoreboard", "比分·出牌", play, 28, w - 720, top + 14, color="#9fe3ff")

    # 角标 corner bug (独家特约, top right)
    special = sponsors.get("special", {})
    image("corner_bug", "角标·标志", special.get("logo", ""), w - 330, 36, 290, 110)
    text("corner_bug", "角标·文字", f"{special.get('name')} 特约播出" if special.get("name") else "", 26,
         w - 185, 170, color="#ffffff", align=ALIGN_CENTER)

    # 英雄榜 full screen
    board, lb_sp = st.get("leaderboard", {}), sponsors.get("leaderboard", {})
    color("leaderboard", "英雄榜·底", "#3a0d0d", 0, 0, w, h)
    heading = f"{board.get('title') or '够级英雄榜'}  {board.get('season', '')}".strip()
    text("leaderboard", "英雄榜·标题", heading, 72, w / 2, 90, color="#ffd75e", bold=True, align=ALIGN_CENTER)
    text("leaderboard", "英雄榜·冠名", f"{lb_sp.get('name')} 冠名" if lb_sp.get("name") else "", 36,
         w / 2, 175, align=ALIGN_CENTER)
    image("leaderboard", "英雄榜·冠名标", lb_sp.get("logo", ""), w - 380, 50, 320, 140)
    rows = list(board.get("rows", []))[:10]
    cols = (("英雄榜·名次", 220, lambda r: f"{r.get('rank', 0)}"),
            ("英雄榜·选手", 360, lambda r: str(r.get("name", ""))),
            ("英雄榜·队伍", 860, lambda r: str(r.get("team", ""))),
            ("英雄榜·积分", 1300, lambda r: _num(r.get("points", 0)) + " 分"),
            ("英雄榜·头科", 1560, lambda r: f"头科 {r.get('firsts', 0)}"))
    for name, x, fmt in cols:
        text("leaderboard", name, "\n".join(fmt(r) for r in rows), 44, x, 260)

    # 垫片 bumper: the chosen line (graphics.program.bumper.item = bumper id), else the first
    bumpers = list(sponsors.get("bumpers", []))
    want = graphics.get("bumper", {}).get("item", "")
    bumper = next((b for b in bumpers if b.get("id") == want), bumpers[0] if bumpers else {})
    color("bumper", "垫片·底", "#101010", 0, 0, w, h)
    image("bumper", "垫片·标志", bumper.get("logo", ""), w / 2 - 400, 220, 800, 400)
    text("bumper", "垫片·文字", str(bumper.get("text", "")), 60, w / 2, 760, bold=True, align=ALIGN_CENTER)

    # 九宫格 3×3 with the drawn cell lit
    cells = list(st.get("jiugongge", {}).get("cells", []))
    draw = st.get("jiugongge", {}).get("draw") or {}
    board_sp = sponsors.get("jiugongge_board", {})
    color("jiugongge", "九宫格·底", "#1d1030", 0, 0, w, h)
    text("jiugongge", "九宫格·标题", "奖品九宫格" + (f"  {draw.get('contestant')} 抽奖" if draw else ""), 56,
         w / 2, 70, color="#ffd75e", bold=True, align=ALIGN_CENTER)
    for k in range(9):
        c = cells[k] if k < len(cells) else {}
        cx, cy = 510 + (k % 3) * 310, 170 + (k // 3) * 260
        lit = bool(draw) and int(draw.get("cell", -1)) == k
        color("jiugongge", f"九宫格·格{k + 1}", "#c8372d" if lit else "#2e2450", cx, cy, 290, 240)
        text("jiugongge", f"九宫格·字{k + 1}",
             f"{k + 1}\n{c.get('prize', '')}\n{c.get('sponsor', '')}".rstrip(), 28, cx + 145, cy + 120,
             align=ALIGN_CENTER)
    text("jiugongge", "九宫格·广告", board_sp.get("name", ""), 32, w / 2, h - 60, align=ALIGN_CENTER)

    # 片尾 credits
    credits = list(sponsors.get("credits", []))
    color("credits", "片尾·底", "#000000", 0, 0, w, h)
    text("credits", "片尾·标题", f"《{show.get('title') or '够级大明星'}》  鸣谢", 56, w / 2, 110, bold=True,
         align=ALIGN_CENTER)
    text("credits", "片尾·职务", "\n".join(str(c.get("role", "")) for c in credits[:14]), 38, w / 2 - 40, 230,
         color="#c0c0c0", align=ALIGN_TOP_LEFT)
    text("credits", "片尾·名单", "\n".join(str(c.get("name", "")) for c in credits[:14]), 38, w / 2 + 40,
         230, align=ALIGN_TOP_LEFT)

    # 字幕条 ticker (bottom line)
    color("ticker", "字幕条·底", "#c8372d", 0, h - 56, w, 56, 235)
    text("ticker", "字幕条·文字", "   ·   ".join(str(t) for t in sponsors.get("ticker", [])), 30, 30, h - 52)

    # 人名条 lower third
    lt = st.get("lower_third", {})
    color("lower_third", "人名条·底", "#0b0f1a", 80, h - 420, 760, 120, 230)
    text("lower_third", "人名条·姓名", str(lt.get("name", "")), 44, 110, h - 412, bold=True)
    text("lower_third", "人名条·说明", str(lt.get("line2", "")), 28, 110, h - 350, color="#ffd75e")

    # 解说 commentary: the sponsor under the show logo (top left)
    com = sponsors.get("commentary", {})
    text("commentary", "解说·栏目", f"《{show.get('title') or '够级大明星'}》", 40, 40, 30, bold=True)
    image("commentary", "解说·标志", com.get("logo", ""), 40, 90, 260, 90)
    text("commentary", "解说·赞助", com.get("name", ""), 26, 40, 186)

    # 记牌器 jipaiqi: jokers and twos still out
    jp = table.get("jipaiqi", {})
    color("jipaiqi", "记牌器·底", "#0b0f1a", w - 260, 520, 220, 160, 220)
    text("jipaiqi", "记牌器·文字",
         f"记牌器\n大王 {jp.get('R', 4)}  小王 {jp.get('B', 4)}\n二 {jp.get('2', 16)}", 28, w - 240, 530)


def _num(v: Any) -> str:
    f = float(v)
    return str(int(f)) if f.is_integer() else f"{f:.1f}"
