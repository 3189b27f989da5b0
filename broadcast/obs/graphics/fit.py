"""How every text of the native OBS graphics fits its box: the pages' rule (overlays/js/fit.js).

A text is drawn at its designed size and shrunk only as much as its box needs, never below its floor
(``tokens.fit_floor``: a fraction of the designed size from overlays/tokens.json, the higher one for paid
sponsor names): on one line first. Only a text that does not fit on one line at its floor is broken — on
up to ``lines`` balanced lines, only between terms (a name or a score is never split: :mod:`terms`), at
the largest size at or above the floor that fits; a text that fits nowhere is cut at the floor and ends
with “…”. The box is the text's ``fit`` (width, height). Every size is measured by the renderer that
draws the graphic's picture (:func:`~broadcast.obs.graphics.raster.text_extent`: FreeType through
Pillow, the face OBS's own text source uses, lines and drop shadow included), so what fits here is what
airs. Positions never follow the state: only the words and their size do.

Every field's maximum length is declared once, in the schema (maxLength), and the boxes are sized so
that a text at its maximum fits whole at or above its floor (tests/obs/test_fit.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from broadcast import tokens as T
from broadcast.obs.graphics.raster import text_extent
from broadcast.obs.graphics.terms import HAN, INSIDE, PUNCT, SPACE, pieces
from broadcast.obs.graphics.terms import lines as split_lines

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
    terms: Iterable[str] = (),
) -> Fitted:
    """``text`` designed at ``size`` px, fitted to ``box`` (width, height): on one line at the largest
    whole size from the designed one down to the floor; else (``lines`` > 1) on 2 … ``lines`` balanced
    lines broken between terms (``terms``: the names that are one term each, :func:`terms.state_terms`)
    at the largest size that fits; at the floor, cut with …. A text with line breaks of its own keeps
    them."""
    ink = _Ink(face or T.native_font(), bold, shadow)
    floor = min(size, max(1, int(-(-T.fit_floor(role, size) // 1))))  # whole px, never below the token
    if not text:
        return Fitted(text, size, "base", floor)
    sizes = range(size, floor - 1, -1)
    for s in sizes:  # shrink first: the largest whole size at which it fits on one line
        if ink.fits(text, s, box):
            return Fitted(text, s, "base" if s == size else "shrunk", floor)
    own = text.split("\n")
    if len(own) == 1 and lines > 1:  # then break between terms, at the best kind of place that fits
        terms = tuple(terms)
        kinds = [SPACE, PUNCT, HAN]
        if len(pieces(text, terms, HAN)) == 1:
            kinds.append(INSIDE)  # one name and nothing else: between its characters, the last resort
        for kind in kinds:
            for s in sizes:
                for k in range(2, lines + 1):
                    rows = _broken(text, k, s, ink, terms, kind)
                    if rows is not None and ink.fits("\n".join(rows), s, box):
                        return Fitted("\n".join(rows), s, "base" if s == size else "shrunk", floor)
    return _cut(text, own, floor, box, ink, lines, tuple(terms))


def _broken(
    text: str, k: int, size: int, ink: _Ink, terms: tuple[str, ...], kind: int = HAN
) -> list[str] | None:
    def width(row: str) -> float:
        return float(text_extent(row, size, face=ink.face, bold=ink.bold, shadow=ink.shadow)[0])

    return split_lines(text, k, width, terms, kind)


def _cut(
    text: str,
    own: list[str],
    floor: int,
    box: tuple[float, float],
    ink: _Ink,
    lines: int,
    terms: tuple[str, ...],
) -> Fitted:
    """At the floor: as many lines as the box holds (broken between terms), the last one shown ending
    with …."""
    if len(own) == 1 and lines > 1:
        own = _broken(text, lines, floor, ink, terms, INSIDE) or [text]
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
