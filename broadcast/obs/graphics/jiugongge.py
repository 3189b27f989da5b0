"""九宫格: the native graphic ``jiugongge`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter
from broadcast.obs.spec import ALIGN_CENTER, ALIGN_TOP

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("jiugongge").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """九宫格 3×3 with the drawn cell lit."""
    sponsors = st.get("sponsors", {})
    cells = list(st.get("jiugongge", {}).get("cells", []))
    draw = st.get("jiugongge", {}).get("draw") or {}
    board_sp = sponsors.get("jiugongge_board", {})
    p.panel("九宫格·板", 480, 64, 960, 940, fill="#1d1030")  # clear of the 角标 (on screen with it)
    p.text(
        "九宫格·标题",
        "奖品九宫格" + (f"  {draw.get('contestant')} 抽奖" if draw else ""),
        52,
        960,
        80,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        align=ALIGN_TOP,
        fit=(920, 80),
    )
    for k in range(9):
        c = cells[k] if k < len(cells) else {}
        cx, cy = 505 + (k % 3) * 310, 170 + (k // 3) * 260
        lit = bool(draw) and int(draw.get("cell", -1)) == k
        p.rect(f"九宫格·边{k + 1}", GOLD, cx - 2, cy - 2, 294, 244, 255 if lit else 90)
        p.rect(f"九宫格·格{k + 1}", "#c8372d" if lit else "#2e2450", cx, cy, 290, 240)
        # the cell's number in its corner, the prize (up to two lines), the prize sponsor's paid name
        p.text(f"九宫格·号{k + 1}", str(k + 1), 26, cx + 12, cy + 6, color=GOLD, bold=True)
        p.text(
            f"九宫格·字{k + 1}",
            str(c.get("prize", "")),
            30,
            cx + 145,
            cy + 108,
            bold=True,
            align=ALIGN_CENTER,
            fit=(270, 100),
            lines=2,
        )
        p.text(
            f"九宫格·赞助{k + 1}",
            str(c.get("sponsor", "")),
            24,
            cx + 145,
            cy + 198,
            align=ALIGN_CENTER,
            fit=(270, 40),
            role="sponsor",
        )
    p.text(
        "九宫格·广告",
        str(board_sp.get("name", "")),
        30,
        960,
        968,
        color="#d5d9e6",
        align=ALIGN_CENTER,
        fit=(920, 44),
        role="sponsor",
    )
