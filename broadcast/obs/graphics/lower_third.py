"""人名条: the native graphic ``lower_third`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("lower_third").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """人名条 bottom left: gold edge, name, second line."""
    lt = st.get("lower_third", {})
    x, y = 96, 800
    p.rect("人名条·影", "#000000", x + 4, y + 6, 880, 132, 70)
    p.rect("人名条·金边", GOLD, x, y, 10, 132)
    p.rect("人名条·底", "#23273a", x + 16, y, 864, 132, 235)
    p.text("人名条·姓名", str(lt.get("name", "")), 52, x + 44, y + 8, bold=True, fit=(820, 72))
    p.text("人名条·说明", str(lt.get("line2", "")), 28, x + 44, y + 82, color="#ffd75e", fit=(820, 44))
