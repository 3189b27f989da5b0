"""The second renderer: every on-air graphic redrawn for OBS without a browser, one file per graphic.

Debian's OBS has no browser source, so the pages in ``overlays/`` cannot be shown in it; these modules
draw the same design (the same tokens, the same words, decided by the engine and projected into the
state) as ops — rectangles, words, logos — that ``raster.py`` renders into one picture per graphic,
shown by one OBS image source. Each ``paint(p, state)`` adds its graphic's ops bottom to top through a
:class:`~broadcast.obs.graphics.paint.Painter`; each module's ``FRAME`` is where its picture sits;
positions never follow the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from broadcast.obs.graphics import (
    bumper,
    commentary,
    corner_bug,
    credits,
    jipaiqi,
    jiugongge,
    leaderboard,
    lower_third,
    qualifiers,
    scoreboard,
    ticker,
    winprob,
)
from broadcast.obs.graphics.paint import Painter
from broadcast.obs.graphics.raster import Picture
from broadcast.obs.graphics.terms import state_terms

MODULES: dict[str, Any] = {
    "scoreboard": scoreboard,
    "corner_bug": corner_bug,
    "leaderboard": leaderboard,
    "qualifiers": qualifiers,
    "bumper": bumper,
    "jiugongge": jiugongge,
    "credits": credits,
    "ticker": ticker,
    "lower_third": lower_third,
    "commentary": commentary,
    "jipaiqi": jipaiqi,
    "winprob": winprob,
}
PAINTERS: dict[str, Callable[[Painter, Mapping[str, Any]], None]] = {g: m.paint for g, m in MODULES.items()}
FRAMES: dict[str, tuple[int, int, int, int]] = {g: tuple(m.FRAME) for g, m in MODULES.items()}


def paint_all(state: Mapping[str, Any], *, font: str, assets: Callable[[str], str]) -> dict[str, Picture]:
    """Every graphic's picture for ``state`` (graphic → :class:`Picture`: its ops inside its frame)."""
    out: dict[str, Picture] = {}
    terms = state_terms(state)
    for graphic, paint in PAINTERS.items():
        p = Painter(graphic, font, assets, terms)
        paint(p, state)
        out[graphic] = Picture(graphic, FRAMES[graphic], tuple(p.ops))
    return out
