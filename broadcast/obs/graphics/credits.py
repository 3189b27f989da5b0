"""片尾鸣谢: the native graphic ``credits`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast.obs.graphics.paint import GOLD, Painter
from broadcast.obs.spec import ALIGN_TOP, ALIGN_TOP_LEFT, ALIGN_TOP_RIGHT


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """片尾 credits card: roles right-aligned, names left-aligned, around the centre line."""
    credits = list(st.get("sponsors", {}).get("credits", []))
    show = st.get("show", {})
    p.panel("片尾·板", 460, 64, 1000, 940, fill="#0b0d16")
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
        fit=(920, 80),
    )
    p.rect("片尾·金线", GOLD, 560, 190, 800, 2)
    p.text(
        "片尾·职务",
        "\n".join(str(c.get("role", "")) for c in credits[:14]),
        34,
        930,
        220,
        color="#c0c6d8",
        align=ALIGN_TOP_RIGHT,
        fit=(380, 770),
    )
    p.text(
        "片尾·名单",
        "\n".join(str(c.get("name", "")) for c in credits[:14]),
        34,
        990,
        220,
        bold=True,
        align=ALIGN_TOP_LEFT,
        fit=(440, 770),
    )
