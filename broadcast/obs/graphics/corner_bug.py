"""角标 (独家特约): the native graphic ``corner_bug`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("corner_bug").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """角标 (独家特约), top right: logo, “独家特约”, the sponsor's name, a gold edge."""
    special = st.get("sponsors", {}).get("special", {})
    name = str(special.get("name", ""))
    on = bool(name or special.get("logo"))
    x, y, bw, bh = 1452, 54, 366, 96  # wide enough for its longest name (the schema's maximum) at 26 px
    p.rect("角标·影", "#000000", x + 3, y + 5, bw + 3, bh + 3, 70 if on else 0)
    p.rect("角标·底", "#3c4260", x, y, bw, bh, 235 if on else 0)
    p.rect("角标·光", "#ffffff", x, y, bw, 2, 40 if on else 0)
    p.rect("角标·金边", GOLD, x + bw, y, 6, bh, 255 if on else 0)
    p.image("角标·标志", special.get("logo", ""), x + 12, y + 10, 76, 76)
    p.text("角标·标签", "独家特约" if name else "", 16, x + 100, y + 16, color=GOLD)
    p.text("角标·文字", name, 28, x + 100, y + 40, bold=True, fit=(254, 44), role="sponsor")
