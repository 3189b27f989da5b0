"""What every native graphic is drawn with: the design tokens, the drawing ops' settings, and the
:class:`Painter` that collects a graphic's ops (bottom to top).

The HTML design (overlays/css) is redrawn as ops described the way OBS's own sources are set:
rectangles (``color_source_v3`` settings) for panels, borders, shadows, stripes, chips and highlight
cells; words (``text_ft2_source_v2`` settings: Noto Sans CJK, size, colours, shadow) for every word;
logos (``image_source`` files, scaled into their box). ``raster.py`` renders them into the graphic's
one picture. Positions never depend on the state: what changes with the state is text, colour and alpha
(alpha 0 hides a cell or a chip).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.fit import Fitted, Role, fit_text
from broadcast.obs.spec import ALIGN_LEFT, ALIGN_TOP_LEFT, COLOR, IMAGE, TEXT, InputSpec

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

# the 90 % title-safe area every native graphic is drawn in (left, top, right, bottom)
SAFE = T.safe_area()

STATUS_ZH = {"out": "已出完", "burning": "被烧", "wutou": "无头", "quan_san": "圈三", "sitting_out": "休息"}


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


def color_settings(color: str, w: float, h: float, alpha: int = 255) -> dict[str, Any]:
    return {"color": abgr(color, alpha), "width": int(w), "height": int(h)}


def text_width(text: str, size: float) -> float:
    """An estimate of a line's width in Noto Sans CJK (CJK glyphs are square, Latin about half)."""
    import unicodedata

    return sum(size if unicodedata.east_asian_width(ch) in "WF" else 0.6 * size for ch in text)


class Painter:
    """Collects one graphic's drawing ops, bottom to top (rectangles, words, logos: each as the OBS
    source settings that describe it), which :mod:`~broadcast.obs.graphics.raster` renders into the
    graphic's one picture."""

    def __init__(
        self, graphic: str, font: str, assets: Callable[[str], str], terms: tuple[str, ...] = ()
    ) -> None:
        self.graphic, self.font, self.assets = graphic, font, assets
        self.terms = terms  # the state's names: each one term, never broken onto two lines (terms.py)
        self.ops: list[InputSpec] = []
        self.fitted: dict[str, Fitted] = {}  # every text with a box: how it was fitted (fit.py)

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
        self.ops.append(InputSpec(name, kind, settings, "", x, y, align, bounds, fit, self.graphic))

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
        role: Role = "text",
        lines: int = 1,
    ) -> None:
        """A text source; with ``fit`` (its box: width, height) the text is fitted by the pages' rule
        (shrunk to its floor on one line, then on up to ``lines`` balanced lines broken between terms,
        then cut with …:
        :func:`~broadcast.obs.graphics.fit.fit_text`); ``role`` ``sponsor`` for a paid name (the higher
        floor)."""
        drawn = size
        if fit is not None:
            fitted = fit_text(
                value,
                size,
                fit,
                role=role,
                bold=bold,
                shadow=shadow,
                lines=lines,
                face=self.font,
                terms=self.terms,
            )
            self.fitted[name] = fitted
            value, drawn = fitted.text, fitted.size
        settings = text_settings(value, drawn, font=self.font, color=color, bold=bold, shadow=shadow)
        if numeric:
            y -= round(size * 0.12)  # digits sit low in the CJK font's line box (the designed size: fixed)
        if color2:
            settings["color2"] = abgr(color2)
        self.add(name, TEXT, settings, x, y, align=align, fit=fit)

    def rect(self, name: str, c: str, x: float, y: float, w: float, h: float, alpha: int = 255) -> None:
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


def team_of(seat: Mapping[str, Any]) -> str:
    num = int(seat.get("seat", 1))
    team = str(seat.get("team") or ("odd" if num % 2 else "even"))
    return team if team in ("odd", "even") else "odd"


def num(v: Any) -> str:
    f = float(v)
    return str(int(f)) if f.is_integer() else f"{f:.1f}"
