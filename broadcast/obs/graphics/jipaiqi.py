"""记牌器: the native graphic ``jipaiqi`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, INK, INK_DIM, Painter
from broadcast.obs.spec import ALIGN_LEFT, ALIGN_RIGHT

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("jipaiqi").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """记牌器 under the corner bug: 大王, 小王 and 2 still out."""
    jp = st.get("table", {}).get("jipaiqi", {})
    x, y, bw, bh = 1564, 174, 254, 176
    p.rect("记牌器·影", "#000000", x + 3, y + 5, bw + 3, bh + 3, 70)
    p.rect("记牌器·金边", GOLD, x, y, 5, bh)
    p.rect("记牌器·底", "#23273a", x + 5, y, bw - 5, bh, 235)
    p.text("记牌器·标题", "记牌器", 24, x + 20, y + 10, color=GOLD, bold=True)
    p.text("记牌器·未出", "未出", 15, x + 100, y + 19, color=INK_DIM)
    for k, (key, label, full, colour) in enumerate(
        (("R", "大王", 4, "#ff6b5e"), ("B", "小王", 4, INK), ("2", "2", 16, "#ffb347"))
    ):
        cy = y + 68 + 38 * k
        left = int(jp.get(key, full))
        p.text(f"记牌器·{label}", label, 22, x + 20, cy, color=colour, bold=True, align=ALIGN_LEFT)
        p.rect(f"记牌器·{label}槽", "#3a4060", x + 80, cy - 4, 120, 8)
        bar = max(1, 120 * min(left, full) // full)
        p.rect(f"记牌器·{label}条", GOLD, x + 80, cy - 4, bar, 8, 255 if left else 0)
        p.text(
            f"记牌器·{label}数", str(left), 26, x + bw - 14, cy, bold=True, align=ALIGN_RIGHT, numeric=True
        )
