"""The on-air design tokens (colours, fonts, sizes) from ``overlays/tokens.json``, the one file both
the pages and the native OBS graphics read.

    from broadcast import tokens
    tokens.color("gold")              # '#f5c542'
    tokens.native("plate")            # an opaque colour OBS's own sources draw where a page is translucent
    tokens.fit_floor("sponsor", 27)   # 22.95: how far a paid name designed at 27 px may shrink to fit
    tokens.zone("scoreboard")         # Zone(box=(1092, 426, 732, 534), anchor='bottom right', layer=10 …)
    tokens.css()                      # the pages' custom properties and zones (overlays/css/tokens.css)

``python -m broadcast.tokens`` writes ``overlays/css/tokens.css`` from the JSON file; ``--check`` says
whether it is up to date (exit 1 if not). A test holds that the CSS file and the tokens agree.

The zones (``zones`` in the JSON file) are the one table of where each graphic sits and which layer it
is on: the store decides from them what may share program (:mod:`broadcast.show.zones`), the pages are
placed by them (the rules at the end of tokens.css), and each native OBS graphic's picture frame is its
zone's box.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

OVERLAYS = Path(str(resources.files("overlays")))  # package data: a checkout or an installed wheel
TOKENS_FILE = OVERLAYS / "tokens.json"
CSS_FILE = OVERLAYS / "css" / "tokens.css"


@cache
def tokens() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TOKENS_FILE.read_text(encoding="utf-8"))
    return data


def color(name: str) -> str:
    """A page colour (``#rrggbb`` or ``#rrggbbaa``)."""
    return str(tokens()["color"][name])


def native(name: str) -> Any:
    """A native-graphics token: an opaque colour, or a mapping of them (``team-light`` …)."""
    return tokens()["native"][name]


def native_font() -> str:
    return str(tokens()["font"]["native"])


def fit_floor(role: str, size: float) -> float:
    """The smallest size (px) a text of ``role`` (``sponsor``: a paid name; ``text``: anything else)
    designed at ``size`` may be shrunk to so that it fits its box: a fraction of ``size``, never below the
    minimum (and never above ``size``)."""
    fit = tokens()["fit"]
    return min(float(size), max(float(fit["min"]), float(fit["floor"][role]) * float(size)))


def canvas() -> tuple[int, int]:
    """The picture's size (width, height): the pages' and the OBS canvas."""
    c = tokens()["canvas"]
    return int(c["width"]), int(c["height"])


def safe_area() -> tuple[int, int, int, int]:
    """The title-safe area as (left, top, right, bottom) on the canvas."""
    s = tokens()["safe"]
    return (int(s["left"]), int(s["top"]), int(s["left"] + s["width"]), int(s["top"] + s["height"]))


Box = tuple[int, int, int, int]  # x, y, width, height on the 1920×1080 canvas
ANCHORS = ("fill", "top left", "top right", "bottom left", "bottom right")


@dataclass(frozen=True)
class Zone:
    """One graphic's place in the table: its box, the corner a page places it by, its layer (a number,
    bottom to top), and — for a full-frame item — the graphics it clears while on program and those it
    brings back when it ends."""

    graphic: str
    box: Box
    anchor: str
    layer_name: str
    layer: int
    clears: tuple[str, ...] = ()
    restores: tuple[str, ...] = ()

    @property
    def full(self) -> bool:
        return bool(self.clears)

    @property
    def edges(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom)."""
        x, y, w, h = self.box
        return x, y, x + w, y + h


@cache
def zones() -> dict[str, Zone]:
    """Every graphic's zone, in layer order (bottom to top); checked once: boxes inside the title-safe
    area, known anchors and layers, clears/restores naming graphics of the table."""
    z = tokens()["zones"]
    layers: dict[str, int] = {str(k): int(v) for k, v in z["layers"].items()}
    out: list[Zone] = []
    for g, spec in z["graphics"].items():
        box = tuple(int(v) for v in spec["box"])
        if len(box) != 4 or spec["anchor"] not in ANCHORS or spec["layer"] not in layers:
            raise ValueError(f"{TOKENS_FILE}: zones.graphics.{g}: box, anchor or layer invalid")
        zone = Zone(
            g,
            (box[0], box[1], box[2], box[3]),
            str(spec["anchor"]),
            str(spec["layer"]),
            layers[spec["layer"]],
            tuple(spec.get("clears", ())),
            tuple(spec.get("restores", ())),
        )
        left, top, right, bottom = safe_area()
        x0, y0, x1, y1 = zone.edges
        if x0 < left or y0 < top or x1 > right or y1 > bottom:
            raise ValueError(f"{TOKENS_FILE}: zones.graphics.{g}: box {zone.box} leaves the title-safe area")
        out.append(zone)
    names = {zone.graphic for zone in out}
    for zone in out:
        unknown = set(zone.clears) - names or set(zone.restores) - set(zone.clears)
        if unknown:
            where = f"{TOKENS_FILE}: zones.graphics.{zone.graphic}"
            raise ValueError(f"{where}: clears/restores {sorted(unknown)}")
    out.sort(key=lambda zone: (zone.layer, list(z["graphics"]).index(zone.graphic)))
    return {zone.graphic: zone for zone in out}


def zone(graphic: str) -> Zone:
    return zones()[graphic]


def _zone_css(zone: Zone) -> str:
    """The page rule that places a graphic by its zone (inside the title-safe stage)."""
    left, top, right, bottom = safe_area()
    x0, y0, x1, y1 = zone.edges
    x, y, w, h = zone.box
    if zone.anchor == "fill":
        place = [f"left: {x0 - left}px", f"top: {y0 - top}px", f"width: {w}px", f"height: {h}px"]
    else:
        vert, horiz = zone.anchor.split()
        place = [
            f"{vert}: {(y0 - top) if vert == 'top' else (bottom - y1)}px",
            f"{horiz}: {(x0 - left) if horiz == 'left' else (right - x1)}px",
            f"max-width: {w}px",
            f"max-height: {h}px",
        ]
    return f'[data-graphic="{zone.graphic}"] {{ {"; ".join(place)}; z-index: {zone.layer}; }}'


def rgb_alpha(value: str) -> tuple[str, int]:
    """``#rrggbbaa`` → (``#rrggbb``, alpha 0–255); ``#rrggbb`` is opaque."""
    h = value.lstrip("#")
    if len(h) == 8:
        return "#" + h[:6], int(h[6:], 16)
    return "#" + h[:6], 255


def _css_color(value: str) -> str:
    rgb, alpha = rgb_alpha(value)
    if alpha == 255:
        return rgb
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {round(alpha / 255, 2):g})"


def _font_stack(names: list[str]) -> str:
    return ", ".join(n if n in ("sans-serif", "serif", "monospace") else f'"{n}"' for n in names)


def css() -> str:
    """The pages' custom properties, generated from the tokens."""
    t = tokens()
    lines = [
        "/* Generated from overlays/tokens.json by `python -m broadcast.tokens`: do not edit by hand. */",
        ":root {",
        f"  --font: {_font_stack(t['font']['family'])};",
    ]
    lines += [f"  --{k}: {_css_color(v)};" for k, v in t["color"].items()]
    lines.append(f"  --shadow: {t['shadow']};")
    lines += [f"  --{k}: {v};" for k, v in t["motion"].items()]
    lines += [f"  --canvas-{k}: {v}px;" for k, v in t["canvas"].items()]
    lines += [f"  --safe-{k}: {v}px;" for k, v in t["safe"].items()]
    lines += [f"  --fit-floor-{k}: {v};" for k, v in t["fit"]["floor"].items()]
    lines.append(f"  --fit-min: {t['fit']['min']}px;")
    lines.append("}")
    lines.append("")
    lines.append("/* zones: where each graphic sits (its box in the 1920×1080 frame) and its layer */")
    lines += [_zone_css(z) for z in zones().values()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    want = css()
    have = CSS_FILE.read_text(encoding="utf-8") if CSS_FILE.exists() else ""
    if "--check" in args:
        if have != want:
            print(f"{CSS_FILE}: 与 tokens.json 不一致，请运行 python -m broadcast.tokens / out of date")
            return 1
        print(f"{CSS_FILE}: 与 tokens.json 一致 / up to date")
        return 0
    CSS_FILE.write_text(want, encoding="utf-8")
    print(f"已写入 written: {CSS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
