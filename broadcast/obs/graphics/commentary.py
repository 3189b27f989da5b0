"""解说: the native graphic ``commentary`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, INK, Painter
from broadcast.obs.spec import ALIGN_LEFT, ALIGN_TOP

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("commentary").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """解说 top left: the show's name plate and the commentary sponsor under it."""
    com, show = st.get("sponsors", {}).get("commentary", {}), st.get("show", {})
    x, y = 96, 54
    p.rect("解说·影", "#000000", x + 3, y + 5, 360, 112, 70)
    p.rect("解说·底", "#8e1a17", x, y, 360, 110, 240)
    p.rect("解说·金线", GOLD, x, y + 110, 360, 3)
    p.text(
        "解说·栏目",
        f"{show.get('title') or '够级大明星'}",
        42,
        x + 180,
        y + 10,
        color="#fff1c2",
        color2="#ffd75e",
        bold=True,
        align=ALIGN_TOP,
        fit=(330, 60),
    )
    sub = "  ·  ".join(str(v) for v in (show.get("subtitle"), show.get("round")) if v)
    p.text("解说·副题", sub, 17, x + 180, y + 74, color="#f3d7d0", align=ALIGN_TOP, fit=(330, 28))
    p.chip("解说·标签", "解说区" if com.get("name") else "", x + 12, y + 138, 24, 15, "#8e1a17", INK, pad=6)
    p.image("解说·标志", com.get("logo", ""), x + 90, y + 124, 52, 52)
    p.text(
        "解说·赞助",
        str(com.get("name", "")),
        24,
        x + 156,
        y + 150,
        bold=True,
        shadow=True,
        align=ALIGN_LEFT,
        fit=(300, 36),
        role="sponsor",
    )
