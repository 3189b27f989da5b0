"""字幕条: the native graphic ``ticker`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter
from broadcast.obs.spec import ALIGN_CENTER, ALIGN_LEFT

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("ticker").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """字幕条 along the bottom of the safe area: the show's name in red, the sponsors' lines."""
    show = st.get("show", {})
    y, bh = 970, 56
    p.rect("字幕条·金线", GOLD, 96, y - 2, 1728, 2)
    p.rect("字幕条·底", "#1c2030", 96, y, 1728, bh, 240)
    p.rect("字幕条·栏目底", "#b3201b", 96, y, 248, bh)
    p.text(
        "字幕条·栏目",
        str(show.get("title") or "够级大明星"),
        28,
        220,
        y + bh / 2,
        bold=True,
        align=ALIGN_CENTER,
        fit=(230, 50),
    )
    p.text(
        "字幕条·文字",
        "   ◆   ".join(str(t) for t in st.get("sponsors", {}).get("ticker", [])),
        26,
        364,
        y + bh / 2,
        align=ALIGN_LEFT,
        fit=(1444, 50),
    )
