"""垫片: the native graphic ``bumper`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter
from broadcast.obs.spec import ALIGN_CENTER

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("bumper").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """垫片: the chosen line (graphics.program.bumper.item = bumper id, else the first) on a red band
    across the picture, gold rules above and below, the sponsor's logo at its left."""
    sponsors = st.get("sponsors", {})
    bumpers = list(sponsors.get("bumpers", []))
    want = st.get("graphics", {}).get("program", {}).get("bumper", {}).get("item", "")
    bumper = next((b for b in bumpers if b.get("id") == want), bumpers[0] if bumpers else {})
    x, y, bw, bh = 210, 650, 1500, 160
    p.rect("垫片·影", "#000000", x + 6, y + 10, bw, bh, 70)
    for k, a in enumerate((70, 130, 190)):  # the band fades in at both ends
        p.rect(f"垫片·左{k}", "#a51c1c", x + 50 * k, y, 50, bh, a)
        p.rect(f"垫片·右{k}", "#a51c1c", x + bw - 50 * (k + 1), y, 50, bh, a)
    p.rect("垫片·底", "#a51c1c", x + 150, y, bw - 300, bh)
    p.rect("垫片·上线", GOLD, x, y - 3, bw, 3)
    p.rect("垫片·下线", GOLD, x, y + bh, bw, 3)
    p.image("垫片·标志", bumper.get("logo", ""), x + 120, y + 20, 120, 120)
    p.text(
        "垫片·文字",
        str(bumper.get("text", "")),
        46,
        x + bw / 2 + 70,
        y + bh / 2,
        bold=True,
        shadow=True,
        align=ALIGN_CENTER,
        fit=(1180, 130),
        lines=2,  # the paid sentence, as on the pages: shrunk first, then two balanced lines
        role="sponsor",
    )
