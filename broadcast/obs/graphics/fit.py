"""How every text of the native OBS graphics fits its box: the pages' rule (overlays/js/fit.js).

A text is drawn at its designed size (on up to ``lines`` balanced lines) and shrunk only as much as its
box needs, never below its floor (``tokens.fit_floor``: a fraction of the designed size from
overlays/tokens.json, the higher one for paid sponsor names); a text that still does not fit at its
floor is cut and ends with “…”. The box is the text's ``fit`` (width, height). Every size is measured
by the renderer that draws the graphic's picture (:func:`~broadcast.obs.graphics.raster.text_extent`:
FreeType through Pillow, the face OBS's own text source uses, lines and drop shadow included), so what
fits here is what airs. Positions never follow the state: only the words and their size do.

Every field's maximum length is declared once, in the schema (maxLength), and the boxes are sized so
that a text at its maximum fits whole at or above its floor (tests/obs/test_fit.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from broadcast import tokens as T
from broadcast.obs.graphics.raster import text_extent

ELLIPSIS = "…"

Role = Literal["text", "sponsor"]
How = Literal["base", "shrunk", "ellipsis"]


@dataclass(frozen=True)
class Fitted:
    text: str  # what is drawn: the input (broken into lines), or cut with … at the floor
    size: int  # the font size (px) it is drawn at
    how: How  # base: at its designed size; shrunk: smaller, at or above its floor; ellipsis: cut at the floor
    floor: int  # the smallest size its role allows


@dataclass(frozen=True)
class _Ink:
    face: str
    bold: bool
    shadow: bool

    def fits(self, text: str, size: int, box: tuple[float, float]) -> bool:
        w, h = text_extent(text, size, face=self.face, bold=self.bold, shadow=self.shadow)
        return w <= box[0] and h <= box[1]

    def cut(self, line: str, size: int, box: tuple[float, float], *, more: bool = False) -> str:
        """``line`` if it fits (and nothing follows it), else its longest start that fits with “…”."""
        if not more and self.fits(line, size, box):
            return line
        chars = list(line)
        while chars and not self.fits("".join(chars).rstrip() + ELLIPSIS, size, box):
            chars.pop()
        return "".join(chars).rstrip() + ELLIPSIS


def balanced(text: str, k: int) -> list[str]:
    """``text`` broken into ``k`` lines of about the same number of characters, between words where a
    line would otherwise break one (Latin), as CSS ``text-wrap: balance`` does for the pages."""
    if k <= 1 or len(text) < k:
        return [text]
    out: list[str] = []
    rest = text
    for left in range(k, 1, -1):
        cut = round(len(rest) / left)
        space = rest.rfind(" ", 1, cut + 1)
        if space > cut // 2:
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
    shadow: bool = False,
    lines: int = 1,
    face: str = "",
) -> Fitted:
    """``text`` designed at ``size`` px, fitted to ``box`` (width, height): at each whole size from the
    designed one down to the floor, on one line, else (``lines`` > 1) on up to ``lines`` balanced lines;
    at the floor, cut with …. A text with line breaks of its own keeps them."""
    ink = _Ink(face or T.native_font(), bold, shadow)
    floor = min(size, max(1, int(-(-T.fit_floor(role, size) // 1))))  # whole px, never below the token
    own = text.split("\n")
    if not text:
        return Fitted(text, size, "base", floor)
    for s in range(size, floor - 1, -1):  # the largest whole size that fits
        for k in range(1, (lines if len(own) == 1 else 1) + 1):
            candidate = "\n".join(balanced(text, k) if len(own) == 1 else own)
            if ink.fits(candidate, s, box):
                return Fitted(candidate, s, "base" if s == size else "shrunk", floor)
    # at the floor: as many lines as the box holds, the last one shown ending with …
    if len(own) == 1:
        own = balanced(text, lines)
    rows = len(own)
    while rows > 1 and not ink.fits("\n".join(["国"] * rows), floor, box):
        rows -= 1
    shown = own[:rows]
    if len(own) > rows:  # what does not fit on the last row shown goes with it, to be cut
        shown[-1] = (
            "".join([shown[-1], *own[rows:]]) if " " not in text else " ".join([shown[-1], *own[rows:]])
        )
    kept = [ink.cut(line, floor, (box[0], box[1])) for line in shown]
    if not any(line.endswith(ELLIPSIS) for line in kept):  # fits line by line but not as a whole
        kept[-1] = ink.cut(kept[-1], floor, (box[0], box[1]), more=True)
    return Fitted("\n".join(kept), floor, "ellipsis", floor)
