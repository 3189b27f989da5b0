"""英雄榜: the native graphic ``leaderboard`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import DARK_INK, GOLD, INK, Painter, num
from broadcast.obs.spec import ALIGN_CENTER, ALIGN_LEFT, ALIGN_RIGHT

LEADERBOARD = (452, 162, 1016, 840)  # below the 角标 (on screen with it)


# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("leaderboard").box


# the columns: rank, name, team, the three counts (label, centre x), points — as x offsets from the
# panel's inner left edge (the points: from its inner right edge)
RANK_X, NAME_X, TEAM_X, POINTS_X = 56, 112, 330, -8
STATS = {"games": ("局数", 570), "firsts": ("头科", 662), "lasts": ("大落", 754)}
MEDALS = {1: ("#f5c542", DARK_INK), 2: ("#d9dde8", "#1a1f35"), 3: ("#d9915c", "#2a1400")}


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """英雄榜, centred: the sponsor's logo and name before the title, the season, ten rows (rank on a
    gold/silver/bronze chip for the top three, 并列 for ties, name, team colour and team, 局数 头科 大落,
    points)."""
    board = st.get("leaderboard", {})
    x0, y0, pw, ph = LEADERBOARD
    p.panel("英雄榜·板", x0, y0, pw, ph, fill="#2a1218")
    _head(p, board, st.get("sponsors", {}).get("leaderboard", {}))
    hy = y0 + 184
    _columns(p, board, hy)
    rows = list(board.get("rows", []))[:10]
    for i in range(10):
        _row(p, i, rows[i] if i < len(rows) else None, hy + 22 + 62 * i + 31)


def _head(p: Painter, board: Mapping[str, Any], sp: Mapping[str, Any]) -> None:
    """The 冠名's logo and paid name before the title, the season line on the right."""
    x0, y0, pw, _ph = LEADERBOARD
    sponsor = str(sp.get("name") or board.get("sponsor") or "")
    p.rect("英雄榜·表头", "#3a1620", x0, y0, pw, 160)
    lx, rx = x0 + 36, x0 + pw - 36
    p.image("英雄榜·冠名标", sp.get("logo", ""), lx, y0 + 30, 110, 110)
    p.text(
        "英雄榜·冠名",
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
        "英雄榜·标题",
        str(board.get("title") or "够级英雄榜"),
        64,
        lx + 130,
        y0 + 62,
        bold=True,
        shadow=True,
        fit=(480, 84),  # left of the season's box
    )
    season = str(board.get("season", ""))
    p.text("英雄榜·期", season, 26, rx, y0 + 96, color="#d5d9e6", align=ALIGN_RIGHT, fit=(300, 64), lines=2)
    p.rect("英雄榜·金线", GOLD, lx, y0 + 158, rx - lx, 2)


def _columns(p: Painter, board: Mapping[str, Any], hy: int) -> None:
    x0, _y0, pw, _ph = LEADERBOARD
    lx, rx = x0 + 36, x0 + pw - 36
    players = board.get("kind", "players") == "players"
    head = "#c9cede"
    p.text("英雄榜·列名次", "名次", 20, lx + RANK_X, hy, color=head, align=ALIGN_CENTER)
    p.text("英雄榜·列选手", "选手" if players else "队伍", 20, lx + NAME_X, hy, color=head, align=ALIGN_LEFT)
    p.text("英雄榜·列队伍", "队伍" if players else "", 20, lx + TEAM_X, hy, color=head, align=ALIGN_LEFT)
    for label, sx in STATS.values():
        p.text(f"英雄榜·列{label}", label, 20, lx + sx, hy, color=head, align=ALIGN_CENTER)
    p.text("英雄榜·列积分", "积分", 20, rx + POINTS_X, hy, color=GOLD, align=ALIGN_RIGHT)


def _row(p: Painter, i: int, r: Mapping[str, Any] | None, cy: int) -> None:
    """Row ``i`` (0-based) centred at ``cy``: hidden (alpha 0, empty words) when there is no row."""
    x0, _y0, pw, _ph = LEADERBOARD
    lx, rx = x0 + 36, x0 + pw - 36
    rank_x, name_x, team_x = lx + RANK_X, lx + NAME_X, lx + TEAM_X
    n = f"英雄榜·第{i + 1}行"
    rank = int(r.get("rank", i + 1)) if r else 0
    medal = MEDALS.get(rank) if r else None
    tied = bool(r and r.get("tied"))
    p.rect(f"{n}·线", "#ffffff", lx, cy + 30, rx - lx, 1, 28 if r else 0)
    p.rect(f"{n}·名次底", medal[0] if medal else "#000000", rank_x - 46, cy - 20, 92, 40, 255 if medal else 0)
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
    name = str(r.get("name", "")) if r else ""
    p.text(f"{n}·选手", name, 28, name_x, cy, bold=True, align=ALIGN_LEFT, fit=(210, 42))
    colour = str((r or {}).get("team_color") or "#888888")
    p.rect(f"{n}·队色", colour, team_x, cy - 14, 5, 28, 255 if r and r.get("team") else 0)
    team = str(r.get("team", "")) if r else ""
    p.text(f"{n}·队伍", team, 22, team_x + 14, cy, color="#d5d9e6", align=ALIGN_LEFT, fit=(186, 36))
    for key, (label, sx) in STATS.items():
        count = str(int(r.get(key, 0))) if r else ""
        p.text(f"{n}·{label}", count, 24, lx + sx, cy, align=ALIGN_CENTER, numeric=True)
    points = num(r.get("points", 0)) if r else ""
    p.text(f"{n}·积分", points, 30, rx - 8, cy, color="#ffd75e", bold=True, align=ALIGN_RIGHT, numeric=True)
