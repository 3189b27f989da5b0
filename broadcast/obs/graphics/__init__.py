"""The second renderer: every on-air graphic redrawn with OBS's own sources, one file per graphic.

Debian's OBS has no browser source, so the pages in ``overlays/`` cannot be shown in it; these modules
draw the same design (the same tokens, the same words, decided by the engine and projected into the
state) with text, colour and image sources. Each ``paint(p, state)`` adds its graphic's sources bottom
to top through a :class:`~broadcast.obs.graphics.paint.Painter`; positions never follow the state.
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
    scoreboard,
    ticker,
)
from broadcast.obs.graphics.paint import Painter
from broadcast.obs.spec import Layout

PAINTERS: dict[str, Callable[[Painter, Mapping[str, Any]], None]] = {
    "scoreboard": scoreboard.paint,
    "corner_bug": corner_bug.paint,
    "leaderboard": leaderboard.paint,
    "bumper": bumper.paint,
    "jiugongge": jiugongge.paint,
    "credits": credits.paint,
    "ticker": ticker.paint,
    "lower_third": lower_third.paint,
    "commentary": commentary.paint,
    "jipaiqi": jipaiqi.paint,
}


def paint_all(
    lay: Layout,
    state: Mapping[str, Any],
    *,
    font: str,
    assets: Callable[[str], str],
    home: Mapping[str, str],
) -> None:
    """Every graphic's sources into ``lay.inputs`` and ``lay.graphics`` (``home``: graphic → the air
    scene its inputs are created in)."""
    for graphic, paint in PAINTERS.items():
        paint(Painter(lay, graphic, font, assets, home[graphic]), state)
