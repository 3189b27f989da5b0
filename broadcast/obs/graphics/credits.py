"""片尾鸣谢: the native graphic ``credits`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, Painter
from broadcast.obs.graphics.raster import text_extent
from broadcast.obs.spec import ALIGN_TOP, ALIGN_TOP_LEFT, ALIGN_TOP_RIGHT

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("credits").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """片尾 credits card: roles right-aligned, names left-aligned, around the centre line."""
    credits = list(st.get("sponsors", {}).get("credits", []))
    show = st.get("show", {})
    p.panel("片尾·板", 480, 64, 960, 940, fill="#0b0d16")  # clear of the 角标 (on screen with it)
    p.text(
        "片尾·标题",
        f"《{show.get('title') or '够级大明星'}》  鸣谢",
        52,
        960,
        90,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        align=ALIGN_TOP,
        fit=(900, 80),
    )
    p.rect("片尾·金线", GOLD, 560, 190, 800, 2)
    roles, names, size = credits_table(credits)
    # one table: both columns in one font size, one line per row, neither ever shrunk by OBS (the size is
    # chosen so the widest role and name fit their boxes), so row k of one column is row k of the other
    p.text("片尾·职务", "\n".join(roles), size, 930, 220, color="#c0c6d8", align=ALIGN_TOP_RIGHT)
    p.text("片尾·名单", "\n".join(names), size, 990, 220, bold=True, align=ALIGN_TOP_LEFT)


ROLE_BOX = (380, 770)  # right-aligned at x 930
NAME_BOX = (440, 770)  # left-aligned at x 990
LINE_HEIGHT = 1.5  # a line of Noto Sans CJK is about 1.45 × its size tall
MAX_SIZE, MIN_SIZE = 34, 12


def credits_table(credits: list[Any]) -> tuple[list[str], list[str], int]:
    """The roles and names column by column, row for row, and the one font size both use: the largest
    (up to 34) at which every row fits its box in width and all rows fit in height."""
    roles = [str(c.get("role", "")) for c in credits]
    names = [str(c.get("name", "")) for c in credits]
    rows = max(1, len(roles))
    size = min(MAX_SIZE, int(ROLE_BOX[1] / (rows * LINE_HEIGHT)))
    # measured with the native font at 100 px (widths scale with the size)
    face = T.native_font()
    widest_role = max((text_extent(r, 100, face=face)[0] / 100 for r in roles), default=0.0)
    widest_name = max((text_extent(n, 100, face=face, bold=True)[0] / 100 for n in names), default=0.0)
    if widest_role:
        size = min(size, int(ROLE_BOX[0] / widest_role))
    if widest_name:
        size = min(size, int(NAME_BOX[0] / widest_name))
    return roles, names, max(MIN_SIZE, size)
