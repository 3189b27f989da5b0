"""海选榜: the native graphic ``qualifiers`` drawn with OBS's own sources (see ``paint.py``), the page
graphic's design (overlays/js/graphics/qualifiers.js) in the 英雄榜's frame."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import DARK_INK, GOLD, INK, Painter
from broadcast.obs.spec import ALIGN_CENTER, ALIGN_LEFT, ALIGN_RIGHT

BOARD = (452, 162, 1016, 840)  # below the 角标 (on screen with it), as the 英雄榜

# where its picture sits on the canvas: its zone's box in the one table of zones (overlays/tokens.json)
FRAME = T.zone("qualifiers").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """海选榜: the 海选冠名 sponsor's logo and name before the title, the summary (games, players), ten rows
    (rank on a gold/silver/bronze chip for the top three, 并列 for ties, nickname, platform id, 局数,
    头科率, points) and the ranking key in words."""
    board, sp = st.get("qualifiers", {}), st.get("sponsors", {}).get("qualifiers", {})
    sponsor = str(sp.get("name") or board.get("sponsor") or "")
    x0, y0, pw, ph = BOARD
    p.panel("海选榜·板", x0, y0, pw, ph, fill="#0f2230")
    p.rect("海选榜·表头", "#143247", x0, y0, pw, 160)
    lx, rx = x0 + 36, x0 + pw - 36
    p.image("海选榜·冠名标", str(sp.get("logo") or ""), lx, y0 + 30, 110, 110)  # empty: no 海选冠名
    p.text(
        "海选榜·冠名",
        sponsor,
        30,
        lx + 134,
        y0 + 26,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
        fit=(480, 44),
        role="sponsor",
    )
    p.text(
        "海选榜·标题",
        str(board.get("title") or "网络海选"),
        56,
        lx + 130,
        y0 + 62,
        bold=True,
        shadow=True,
        fit=(480, 84),
    )
    p.text(
        "海选榜·概况",
        str(board.get("summary", "")),
        24,
        rx,
        y0 + 96,
        color="#d5d9e6",
        align=ALIGN_RIGHT,
        fit=(290, 64),
        lines=2,
    )
    p.rect("海选榜·金线", GOLD, lx, y0 + 158, rx - lx, 2)
    hy = y0 + 184
    rank_x, name_x, pid_x, points_x = lx + 56, lx + 112, lx + 372, rx - 8
    games_x, rate_x = lx + 640, lx + 750
    head = "#c9cede"
    p.text("海选榜·列名次", "名次", 20, rank_x, hy, color=head, align=ALIGN_CENTER)
    p.text("海选榜·列选手", "选手", 20, name_x, hy, color=head, align=ALIGN_LEFT)
    p.text("海选榜·列编号", "平台编号", 20, pid_x, hy, color=head, align=ALIGN_LEFT)
    p.text("海选榜·列局数", "局数", 20, games_x, hy, color=head, align=ALIGN_CENTER)
    p.text("海选榜·列头科率", "头科率", 20, rate_x, hy, color=head, align=ALIGN_CENTER)
    p.text("海选榜·列积分", "积分", 20, points_x, hy, color=GOLD, align=ALIGN_RIGHT)
    rows = list(board.get("rows", []))[:10]
    medals = {1: ("#f5c542", DARK_INK), 2: ("#d9dde8", "#1a1f35"), 3: ("#d9915c", "#2a1400")}
    for i in range(10):
        r = rows[i] if i < len(rows) else None
        cy = hy + 22 + 60 * i + 30
        n = f"海选榜·第{i + 1}行"
        rank = int(r.get("rank", i + 1)) if r else 0
        medal = medals.get(rank) if r else None
        tied = bool(r and r.get("tied"))
        p.rect(f"{n}·线", "#ffffff", lx, cy + 29, rx - lx, 1, 28 if r else 0)
        p.rect(
            f"{n}·名次底", medal[0] if medal else "#000000", rank_x - 46, cy - 20, 92, 40, 255 if medal else 0
        )
        p.rect(f"{n}·名次光", "#ffffff", rank_x - 46, cy - 20, 92, 2, 110 if medal else 0)
        p.text(
            f"{n}·名次",
            (f"{rank} 并列" if tied else str(rank)) if r else "",
            22 if tied else 28,
            rank_x,
            cy,
            color=medal[1] if medal else INK,
            bold=True,
            align=ALIGN_CENTER,
            numeric=True,
        )
        p.text(
            f"{n}·选手",
            str(r.get("name", "")) if r else "",
            28,
            name_x,
            cy,
            bold=True,
            align=ALIGN_LEFT,
            fit=(250, 42),
        )
        p.text(
            f"{n}·编号",
            str(r.get("platform_id", "")) if r else "",
            20,
            pid_x,
            cy,
            color="#d5d9e6",
            align=ALIGN_LEFT,
            fit=(200, 32),
        )
        p.text(
            f"{n}·局数",
            str(int(r.get("games", 0))) if r else "",
            24,
            games_x,
            cy,
            align=ALIGN_CENTER,
            numeric=True,
        )
        rate = f"{float(r.get('first_rate', 0)) * 100:.1f}%" if r else ""
        p.text(f"{n}·头科率", rate, 24, rate_x, cy, align=ALIGN_CENTER, numeric=True)
        p.text(
            f"{n}·积分",
            str(int(r.get("points", 0))) if r else "",
            30,
            points_x,
            cy,
            color="#ffd75e",
            bold=True,
            align=ALIGN_RIGHT,
            numeric=True,
        )
    p.text(
        "海选榜·规则",
        str(board.get("spec", "")),
        18,
        rx,
        y0 + ph - 22,
        color="#aab1c8",
        align=ALIGN_RIGHT,
        fit=(rx - lx, 30),
    )
