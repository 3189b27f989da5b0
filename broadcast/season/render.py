"""The 英雄榜 as a 1920×1080 PNG, ready to post: title, the 英雄榜冠名 sponsor, top rows, team colours."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from broadcast.core.files import atomic_path
from broadcast.errors import GoujiError
from broadcast.season.rankings import Ranking, Row

W, H = 1920, 1080
FONT_DIR = Path("/usr/share/fonts/opentype/noto")
GOLD = (246, 206, 110)
GOLD_DARK = (176, 128, 40)
CREAM = (255, 246, 224)
MEDALS = {
    1: ((255, 215, 90), (120, 72, 0)),
    2: ((220, 226, 234), (70, 78, 92)),
    3: ((226, 150, 86), (90, 40, 10)),
}
FALLBACK_TEAM_COLOURS = [
    "#d94841",
    "#2f7fd8",
    "#2e9e5b",
    "#e0a82e",
    "#8e5bd6",
    "#1aa3a3",
    "#e06a9a",
    "#7a8a99",
]


class RenderError(GoujiError):
    """The 英雄榜 picture cannot be drawn: ``RenderError("render", zh, en, where=file)``."""

    rule = "render"
    show_rule = False


@cache
def font(size: int, *, bold: bool = True, serif: bool = False) -> ImageFont.FreeTypeFont:
    """Noto CJK, Simplified Chinese face (found by name inside the .ttc collection)."""
    family = "Serif" if serif else "Sans"
    path = FONT_DIR / f"Noto{family}CJK-{'Bold' if bold else 'Regular'}.ttc"
    if not path.is_file():
        raise RenderError(
            "render", "缺少中文字体（apt install fonts-noto-cjk）/ CJK font missing", where=path
        )
    for index in range(10):
        try:
            f = ImageFont.truetype(str(path), size, index=index)
        except OSError:
            break
        if (f.getname()[0] or "").endswith(" SC"):
            return f
    return ImageFont.truetype(str(path), size, index=0)


def _hex(c: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    c = c.strip().lstrip("#")
    if len(c) == 6:
        try:
            return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
        except ValueError:
            pass
    return default


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, max_w: int, **kw: Any) -> ImageFont.FreeTypeFont:
    while size > 14:
        f = font(size, **kw)
        if draw.textlength(text, font=f) <= max_w:
            return f
        size -= 2
    return font(size, **kw)


def _background() -> Image.Image:
    img = Image.new("RGB", (W, H))
    top, bottom = (112, 14, 18), (26, 4, 6)
    px = ImageDraw.Draw(img)
    for y in range(H):
        t = y / (H - 1)
        px.line([(0, y), (W, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    # soft diagonal sheen
    sheen = Image.new("L", (W, H), 0)
    sd = ImageDraw.Draw(sheen)
    for i in range(-H, W, 90):
        sd.polygon([(i, 0), (i + 40, 0), (i + 40 + H, H), (i + H, H)], fill=10)
    img.paste(Image.new("RGB", (W, H), (255, 220, 150)), (0, 0), sheen)
    return img


def _centered(
    draw: ImageDraw.ImageDraw,
    cx: int,
    y: int,
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: tuple[int, ...],
    **kw: Any,
) -> None:
    draw.text((cx, y), text, font=f, fill=fill, anchor="mt", **kw)


def render_leaderboard(
    ranking: Ranking,
    path: str | Path,
    *,
    title: str = "够级英雄榜",
    subtitle: str = "",
    sponsor: str = "",
    sponsor_logo: str | Path | None = None,
    top: int = 10,
    footer: str = "",
) -> Path:
    """Draw the top ``top`` rows of ``ranking`` to ``path`` (PNG, 1920×1080)."""
    if not 1 <= top <= 10:
        raise RenderError("render", "图片最多显示前 10 名", "at most 10 rows fit the picture")
    img = _background().convert("RGBA")
    draw = ImageDraw.Draw(img)
    # frame
    draw.rectangle([24, 24, W - 25, H - 25], outline=GOLD_DARK, width=3)
    draw.rectangle([34, 34, W - 35, H - 35], outline=(GOLD_DARK[0], GOLD_DARK[1], GOLD_DARK[2], 120), width=1)
    # title
    tf = font(104, serif=True)
    _centered(draw, W // 2 + 4, 52, title, tf, (60, 10, 10))
    _centered(draw, W // 2, 46, title, tf, GOLD, stroke_width=2, stroke_fill=(90, 40, 0))
    y = 182
    if sponsor:
        sf = font(38)
        text = f"{sponsor} 冠名"
        tw = int(draw.textlength(text, font=sf))
        logo_img = None
        if sponsor_logo:
            lp = Path(sponsor_logo)
            if not lp.is_file():
                raise RenderError("render", "冠名商标志文件不存在", "sponsor logo not found", where=lp)
            try:
                logo_img = Image.open(lp).convert("RGBA")  # its pixels counted first: cli.tools.check_logo
            except Image.DecompressionBombError:
                raise RenderError(
                    "render", "标志图片像素过多", "the logo has too many pixels", where=lp
                ) from None
            except OSError as exc:
                raise RenderError("render", "无法读取标志图片", f"unreadable logo ({exc})", where=lp) from exc
            logo_img.thumbnail((160, 52))
        pad = 28
        inner = tw + (logo_img.width + 16 if logo_img else 0)
        x0 = W // 2 - inner // 2 - pad
        draw.rounded_rectangle(
            [x0, y, x0 + inner + 2 * pad, y + 64], radius=32, fill=GOLD, outline=(255, 240, 190), width=2
        )
        x = x0 + pad
        if logo_img is not None:
            img.alpha_composite(logo_img, (x, y + 32 - logo_img.height // 2))
            x += logo_img.width + 16
        draw.text((x, y + 32), text, font=sf, fill=(110, 16, 16), anchor="lm")
        y += 80
    if subtitle:
        _centered(draw, W // 2, y + 4, subtitle, font(30, bold=False), CREAM)
    # table
    if ranking.kind == "players":
        cols: list[tuple[str, int, int, Callable[[Row], str]]] = [
            ("名次", 150, 120, lambda r: ""),
            ("姓名", 330, 300, lambda r: r.name),
            ("队伍", 660, 520, lambda r: r.team),
            ("积分", 1260, 140, lambda r: str(r.points)),
            ("头科", 1430, 120, lambda r: str(r.firsts)),
            ("大落", 1580, 120, lambda r: str(r.lasts)),
            ("局数", 1730, 120, lambda r: str(r.games)),
        ]
    else:
        cols = [
            ("名次", 150, 120, lambda r: ""),
            ("队伍", 330, 560, lambda r: r.name),
            ("冠名", 920, 300, lambda r: r.sponsor),
            ("胜", 1260, 100, lambda r: str(r.wins)),
            ("负", 1380, 100, lambda r: str(r.losses)),
            ("净积分", 1530, 150, lambda r: str(r.points)),
            ("头科", 1730, 120, lambda r: str(r.firsts)),
        ]
    ty = 334
    row_h = 60
    left, right = 90, W - 90
    draw.rectangle([left, ty, right, ty + 48], fill=(150, 24, 24))
    hf = font(28)
    for name, x, w, _ in cols:
        if name in ("姓名", "队伍", "冠名"):
            draw.text((x, ty + 24), name, font=hf, fill=GOLD, anchor="lm")
        else:
            draw.text(
                (x + w // 2 - 60 if name == "名次" else x + w // 2, ty + 24),
                name,
                font=hf,
                fill=GOLD,
                anchor="mm",
            )
    rows = ranking.rows[:top]
    y0 = ty + 56
    nf = font(34)
    for i, r in enumerate(rows):
        ry = y0 + i * row_h
        band = (255, 255, 255, 22) if i % 2 == 0 else (0, 0, 0, 40)
        if r.rank <= 3:
            band = (255, 214, 120, 34)
        overlay = Image.new("RGBA", (right - left, row_h - 6), band)
        img.alpha_composite(overlay, (left, ry))
        # rank badge
        cx, cy = 150, ry + (row_h - 6) // 2
        fill, ink = MEDALS.get(r.rank, ((120, 20, 20), CREAM))
        draw.ellipse([cx - 25, cy - 25, cx + 25, cy + 25], fill=fill, outline=GOLD, width=2)
        draw.text((cx, cy), str(r.rank), font=font(28 if r.rank < 100 else 20), fill=ink, anchor="mm")
        if r.tied:
            draw.rounded_rectangle([cx + 36, cy - 16, cx + 100, cy + 16], radius=8, fill=(255, 236, 190))
            draw.text((cx + 68, cy), "并列", font=font(20), fill=(130, 20, 20), anchor="mm")
        team_rgb = _hex(
            r.team_color, _hex(FALLBACK_TEAM_COLOURS[zlib.crc32(r.team.encode()) % 8], (200, 60, 60))
        )
        for name, x, w, get in cols[1:]:
            text = get(r)
            if name in ("姓名", "队伍", "冠名"):
                if name == "队伍":
                    draw.rounded_rectangle([x - 22, cy - 20, x - 12, cy + 20], radius=4, fill=team_rgb)
                size = 34 if name != "冠名" else 28
                f = _fit(draw, text, size, w, bold=(name != "冠名"))
                draw.text(
                    (x, cy), text, font=f, fill=CREAM if name != "姓名" or r.rank > 3 else GOLD, anchor="lm"
                )
            else:
                draw.text(
                    (x + w // 2, cy),
                    text,
                    font=nf,
                    fill=GOLD if name in ("积分", "净积分", "胜") else CREAM,
                    anchor="mm",
                )
    if not rows:
        _centered(draw, W // 2, y0 + 200, "本赛季尚无比赛成绩", font(44), CREAM)
    if footer:
        draw.text(
            (W // 2, H - 52),
            footer,
            font=_fit(draw, footer, 24, W - 200, bold=False),
            fill=(230, 200, 160),
            anchor="mm",
        )
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as tmp:
        img.convert("RGB").save(tmp, format="PNG", optimize=True)
    return out
