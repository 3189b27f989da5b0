"""How every text of the native OBS graphics fits its box: the pages' rule (overlays/js/fit.js), measured
with the font OBS draws with.

A text is drawn at its designed size and shrunk only as much as its box needs, never below its floor
(``tokens.fit_floor``: a fraction of the designed size from overlays/tokens.json, the higher one for paid
sponsor names); a text that still does not fit at its floor is cut and ends with “…”. The box is the
text item's ``fit`` (width, height); OBS's own bounds (``OBS_BOUNDS_MAX_ONLY``, set by the bridge) stay
as a last clip should a measure ever be off. Positions never follow the state: only size and text do.

Widths are measured with FreeType through Pillow on the face OBS uses (``text_ft2_source_v2`` is
FreeType too), found by fontconfig; without that font the CJK estimate of :func:`estimate` is used
(汉字 1 em, Latin 0.6 em). Every field's maximum length is declared once, in the schema (maxLength), and
the boxes are sized so that a text at its maximum fits at or above its floor (tests/obs/test_fit.py).
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from broadcast import tokens as T

ELLIPSIS = "…"
LINE_HEIGHT = 1.45  # a line of Noto Sans CJK is about 1.45 × its size tall (OBS's text source height)
BOLD_SLACK = 1.0  # measured with the bold face itself: no allowance needed

Role = Literal["text", "sponsor"]
How = Literal["base", "shrunk", "ellipsis"]


@dataclass(frozen=True)
class Fitted:
    text: str  # what is drawn (the input, or cut with … at the floor)
    size: int  # the font size (px) it is drawn at
    how: How  # base: at its designed size; shrunk: smaller, at or above its floor; ellipsis: cut at the floor
    floor: int  # the smallest size its role allows


def estimate(text: str, size: float) -> float:
    """A line's width without the font: 汉字 (and full-width forms) 1 em, anything else 0.6 em."""
    return sum(size if unicodedata.east_asian_width(ch) in "WF" else 0.6 * size for ch in text)


@cache
def _font_file(face: str, bold: bool) -> tuple[str, int] | None:
    if not shutil.which("fc-match"):
        return None
    try:
        out = subprocess.run(
            ["fc-match", "-f", "%{file}:%{index}", f"{face}:{'bold' if bold else 'regular'}"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    path, _, index = out.rpartition(":")
    return (path, int(index or 0)) if path else None


@cache
def _font(face: str, bold: bool, size: int) -> Any:
    found = _font_file(face, bold)
    if found is None:
        return None
    from PIL import ImageFont

    try:
        return ImageFont.truetype(found[0], size, index=found[1])
    except OSError:
        return None


def width(text: str, size: int, *, face: str = "", bold: bool = False) -> float:
    """The drawn width (px) of one line at ``size`` px in ``face`` (the native font by default)."""
    font = _font(face or T.native_font(), bold, int(size))
    if font is None:
        return estimate(text, size)
    return float(font.getlength(text)) * (BOLD_SLACK if bold else 1.0)


def _fits(lines: list[str], size: int, box: tuple[float, float], face: str, bold: bool) -> bool:
    if len(lines) * size * LINE_HEIGHT > box[1] + 0.5:
        return False
    return all(width(line, size, face=face, bold=bold) <= box[0] + 0.5 for line in lines)


def _cut(line: str, size: int, room: float, face: str, bold: bool, *, more: bool = False) -> str:
    """``line`` if it fits ``room`` px (and nothing follows it: ``more`` false), else its longest start
    that fits with “…”."""
    if not more and width(line, size, face=face, bold=bold) <= room + 0.5:
        return line
    chars = list(line)
    while chars and width("".join(chars).rstrip() + ELLIPSIS, size, face=face, bold=bold) > room + 0.5:
        chars.pop()
    return "".join(chars).rstrip() + ELLIPSIS


def _balanced(text: str, k: int) -> list[str]:
    """``text`` broken into ``k`` lines of about the same number of characters (between words when a line
    would otherwise break one: Latin), as CSS ``text-wrap: balance`` does for the pages."""
    if k <= 1 or len(text) < k:
        return [text]
    out: list[str] = []
    rest = text
    for left in range(k, 1, -1):
        cut = round(len(rest) / left)
        space = rest.rfind(" ", 1, cut + 1)
        if space > cut // 2 and " " in text:
            cut = space
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    out.append(rest)
    return [line for line in out if line]


def fit_text(
    text: str,
    size: int,
    box: tuple[float, float],
    *,
    role: Role = "text",
    bold: bool = False,
    lines: int = 1,
    face: str = "",
) -> Fitted:
    """``text`` designed at ``size`` px, fitted to ``box`` (width, height): at each size from the designed
    one down to the floor, on one line, else (``lines`` > 1) broken into up to ``lines`` balanced lines;
    at the floor, cut with …. A text with its own line breaks keeps them."""
    floor = max(1, int(-(-T.fit_floor(role, size) // 1)))  # whole px, never below the token's floor
    own = text.split("\n")
    if not text:
        return Fitted(text, size, "base", floor)
    for s in range(size, floor - 1, -1):  # the largest whole size that fits
        for k in range(1, (lines if len(own) == 1 else 1) + 1):
            broken = _balanced(text, k) if len(own) == 1 else own
            if _fits(broken, s, box, face, bold):
                return Fitted("\n".join(broken), s, "base" if s == size else "shrunk", floor)
    rows = max(1, min(lines if len(own) == 1 else len(own), int(box[1] // (floor * LINE_HEIGHT))))
    if len(own) == 1 and rows > 1:  # as many lines as the box holds, the last one ending with …
        per = max(1, len(text) // rows)
        own = [text[i * per : (i + 1) * per] for i in range(rows - 1)] + [text[(rows - 1) * per :]]
        kept = [_cut(line, floor, box[0], face, bold) for line in own[:-1]]
        kept.append(_cut(own[-1], floor, box[0], face, bold, more=False))
        if not kept[-1].endswith(ELLIPSIS):
            kept[-1] = _cut(own[-1], floor, box[0], face, bold, more=True)
        return Fitted("\n".join(kept), floor, "ellipsis", floor)
    shown = own[:rows]  # more lines than the box holds: the last one shown ends with …
    kept = [
        _cut(line, floor, box[0], face, bold, more=len(own) > rows and i == rows - 1)
        for i, line in enumerate(shown)
    ]
    return Fitted("\n".join(kept), floor, "ellipsis", floor)
