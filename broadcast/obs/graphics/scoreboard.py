"""比分: the native graphic ``scoreboard`` drawn with OBS's own sources (see ``paint.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from broadcast import tokens as T
from broadcast.obs.graphics.paint import (
    DARK_INK,
    GOLD,
    HEADER,
    INK,
    INK_DIM,
    PLATE,
    PLATE_2,
    STATUS_ZH,
    TAG_COLORS,
    TEAM_BADGE,
    TEAM_COLOR,
    TEAM_LIGHT,
    TITLE_BADGE,
    WARN,
    Painter,
    team_of,
    text_width,
)
from broadcast.obs.graphics.paint import (
    num as fmt_num,
)
from broadcast.obs.spec import ALIGN_CENTER, ALIGN_LEFT, ALIGN_RIGHT

# the six seats around the table, as the HTML scoreboard: 1 bottom, 2 right-low, 3 right-high,
# 4 top, 5 left-high, 6 left-low (对头 face each other: 1↔4, 2↔5, 3↔6); cell offsets in the table area
SEAT_CELL = (218, 72)
SEAT_POS = {1: (251, 238), 2: (486, 174), 3: (486, 64), 4: (251, 0), 5: (16, 64), 6: (16, 174)}
# where the seat's name may go (width, height: two balanced lines at its maximum, as on the pages)
SEAT_NAME_BOX = (90, 48)
# the scoreboard panel (bottom right, above the ticker) and where its table area starts
SCOREBOARD = (1094, 428, 720, 520)
TABLE_TOP = 108


def seat_tags(seat: Mapping[str, Any]) -> list[str]:
    status = str(seat.get("status", "playing"))
    tags = []
    if status == "burning":
        tags.append("烧牌")
    if status == "wutou":
        tags.append("无头")
    if seat.get("passed"):
        tags.append("过")
    if seat.get("opened"):
        tags.append("开点")
    if status in ("sitting_out",):
        tags.append(STATUS_ZH[status])
    return tags


# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("scoreboard").box


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """比分: panel bottom right — header (game N of M, teams, totals), finished games, the six seats
    around the table with the title sponsor at its centre, the last play and whose turn it is."""
    table = st.get("table", {})
    x0, y0, pw, ph = SCOREBOARD
    p.panel("比分·板", x0, y0, pw, ph, fill=PLATE)
    _header(p, table)
    _results(p, table)
    _centre(p, st)
    seats = list(table.get("seats", []))
    for num in range(1, 7):
        s = next((x for x in seats if int(x.get("seat", 0)) == num), None) or (
            seats[num - 1] if num - 1 < len(seats) else {"seat": num}
        )
        _seat(p, table, num, s)
    _foot(p, table)


def _header(p: Painter, table: Mapping[str, Any]) -> None:
    """第N局 共M局 | odd team score : score even team."""
    x0, y0, pw, _ph = SCOREBOARD
    teams = table.get("teams", {})
    p.rect("比分·表头", HEADER, x0, y0, pw, 68)
    p.rect("比分·表头线", GOLD, x0, y0 + 68, pw, 1, 110)
    p.text(
        "比分·局",
        f"第{table.get('game_no', 1)}局",
        28,
        x0 + 16,
        y0 + 2,
        color="#ffe08a",
        color2=GOLD,
        bold=True,
    )
    p.text("比分·局数", f"共{table.get('games_in_match', 3)}局", 16, x0 + 18, y0 + 40, color=INK_DIM)
    mid = y0 + 35
    for side, bx in (("odd", x0 + 108), ("even", x0 + 428)):
        team = teams.get(side, {})
        colour = str(team.get("color") or TEAM_COLOR[side])
        name = str(team.get("label") or "")  # the name on air, as the game component decided it
        zh = "单" if side == "odd" else "双"
        p.rect(f"比分·{zh}队底", colour, bx, y0 + 12, 284, 46)
        p.rect(f"比分·{zh}队光", "#ffffff", bx, y0 + 12, 284, 2, 60)
        p.rect(f"比分·{zh}队暗", "#000000", bx + (180 if side == "odd" else 0), y0 + 14, 104, 44, 70)
        points = fmt_num(team.get("points", 0))
        if side == "odd":
            p.text(f"比分·{zh}队名", name, 22, bx + 10, mid, bold=True, align=ALIGN_LEFT, fit=(164, 40))
            p.text(f"比分·{zh}队分", points, 34, bx + 274, mid, bold=True, align=ALIGN_RIGHT, numeric=True)
        else:
            p.text(f"比分·{zh}队分", points, 34, bx + 10, mid, bold=True, align=ALIGN_LEFT, numeric=True)
            p.text(f"比分·{zh}队名", name, 22, bx + 274, mid, bold=True, align=ALIGN_RIGHT, fit=(164, 40))
    p.text("比分·冒号", ":", 30, x0 + 410, mid - 2, color=GOLD, bold=True, align=ALIGN_CENTER)


def _results(p: Painter, table: Mapping[str, Any]) -> None:
    """The finished games: 第1局 17:11 · 第2局 …"""
    x0, y0, _pw, _ph = SCOREBOARD
    odd = table.get("teams", {}).get("odd", {})
    results = [
        f"第{r.get('game_no', i + 1)}局 {fmt_num(r.get('odd', 0))}:{fmt_num(r.get('even', 0))}"
        for i, r in enumerate(table.get("results", []))
    ]
    line = "   ".join(results)
    p.rect("比分·战绩底", "#2a3150", x0 + 16, y0 + 78, text_width(line, 16) + 20, 24, 255 if line else 0)
    p.rect(
        "比分·战绩线", str(odd.get("color") or TEAM_COLOR["odd"]), x0 + 16, y0 + 78, 3, 24, 255 if line else 0
    )
    p.text("比分·战绩", line, 16, x0 + 28, y0 + 90, color="#d5d9e6", align=ALIGN_LEFT, fit=(680, 24))


def _centre(p: Painter, st: Mapping[str, Any]) -> None:
    """The table's centre: the title sponsor's logo and paid name (no sponsor: the show's title)."""
    x0, y0, _pw, _ph = SCOREBOARD
    tx, ty = x0, y0 + TABLE_TOP
    title = st.get("sponsors", {}).get("title", {})
    p.rect("比分·桌边", GOLD, tx + 258, ty + 80, 204, 150, 200)
    p.rect("比分·桌面", "#0f3d2a", tx + 260, ty + 82, 200, 146)
    p.image("比分·冠名标", title.get("logo", ""), tx + 310, ty + 90, 100, 64)
    felt = str(title.get("name") or st.get("show", {}).get("title") or "")  # no sponsor: the show
    # the 冠名's paid name keeps its higher floor
    paid: Literal["text", "sponsor"] = "sponsor" if title.get("name") else "text"
    p.text("比分·冠名", felt, 20, tx + 360, ty + 178, bold=True, align=ALIGN_CENTER, fit=(188, 30), role=paid)
    p.text(
        "比分·冠名字",
        "独家冠名" if title.get("name") else "",
        15,
        tx + 360,
        ty + 206,
        color=GOLD,
        align=ALIGN_CENTER,
    )


def _seat(p: Painter, table: Mapping[str, Any], num: int, s: Mapping[str, Any]) -> None:
    """One seat around the table: team stripe, number, name, tags, cards left (or the title won)."""
    x0, y0, _pw, _ph = SCOREBOARD
    tx, ty = x0, y0 + TABLE_TOP
    teams = table.get("teams", {})
    team = team_of({**s, "seat": num})
    colour = str(teams.get(team, {}).get("color") or "#ffffff")
    cw, ch = SEAT_CELL
    cx, cy = tx + SEAT_POS[num][0], ty + SEAT_POS[num][1]
    title_zh = str(s.get("title") or "")
    baopai = bool(s.get("baopai"))  # G5.6 as the engine reports it
    n = f"比分·{num}号位"
    p.rect(f"{n}·轮到", GOLD, cx - 3, cy - 3, cw + 6, ch + 6, 255 if table.get("turn") == num else 0)
    p.rect(f"{n}·底", "#2b3050" if title_zh else PLATE_2, cx, cy, cw, ch)
    p.rect(f"{n}·报牌", "#8a4a0c", cx + 142, cy, cw - 142, ch, 255 if baopai else 0)
    p.rect(f"{n}色", colour, cx, cy, 8, ch)
    p.rect(f"{n}·号底", TEAM_BADGE[team], cx + 16, cy + 23, 26, 26)
    p.text(
        f"{n}·号",
        str(num),
        18,
        cx + 29,
        cy + 36,
        color="#1a1f35",
        bold=True,
        align=ALIGN_CENTER,
        numeric=True,
    )
    name = str(s.get("name") or f"{num}号位")
    p.text(n, name, 22, cx + 50, cy + 25, bold=True, align=ALIGN_LEFT, fit=SEAT_NAME_BOX, lines=2)
    tag = " ".join(seat_tags(s))
    first = seat_tags(s)[0] if tag else "过"
    fill, ink = TAG_COLORS.get(first, ("#4a5070", INK))
    p.chip(f"{n}·标签", tag, cx + 50, cy + 50, 20, 13, fill, ink, pad=5)
    # cards left, large (orange at ≤ 10: 报牌), or the title won on a badge in the same place
    badge = TITLE_BADGE.get(title_zh, GOLD)
    p.rect(f"{n}·称号底", badge, cx + 142, cy + 17, 68, 38, 255 if title_zh else 0)
    p.rect(f"{n}·称号光", "#ffffff", cx + 142, cy + 17, 68, 2, 90 if title_zh else 0)
    if title_zh:
        ink2 = INK if title_zh == "圈三" else DARK_INK
        p.text(
            f"{n}·张数",
            title_zh,
            24,
            cx + 198,
            cy + 38,
            bold=True,
            align=ALIGN_RIGHT,
            color=ink2,
            numeric=True,
        )
    else:
        left = str(int(s.get("cards_left", 36)))
        ink2 = WARN if baopai else INK
        p.text(
            f"{n}·张数", left, 36, cx + 198, cy + 39, color=ink2, bold=True, align=ALIGN_RIGHT, numeric=True
        )
    p.text(f"{n}·张", "" if title_zh else "张", 13, cx + 212, cy + 50, color=INK_DIM, align=ALIGN_RIGHT)


def _foot(p: Painter, table: Mapping[str, Any]) -> None:
    """The last play and whose turn it is — or the referee / result line in their place (as on the
    pages: the last play and the turn are not drawn under it; positions stay, only the texts change)."""
    x0, y0, pw, ph = SCOREBOARD
    seats = list(table.get("seats", []))
    by = y0 + ph - 92
    p.rect("比分·出牌底", "#0a0d18", x0, by, pw, 92, 235)
    p.rect("比分·出牌线", GOLD, x0, by, pw, 1, 110)
    message = str(table.get("message", ""))
    last = (table.get("last_play") or {}) if not message else {}
    lseat = int(last.get("seat") or 0)

    def who(num: int) -> tuple[str, str]:
        s: dict[str, Any] = next((x for x in seats if int(x.get("seat", 0)) == num), {})
        return f"{num}号 {s.get('name') or ''}".strip(), TEAM_LIGHT[team_of({**s, "seat": num})]

    l1 = by + 24
    p.chip("比分·上手", "上手" if lseat else "", x0 + 16, l1 - 13, 26, 15, GOLD, DARK_INK, pad=6)
    name1, c1 = who(lseat) if lseat else ("", INK)
    p.text("比分·出牌人", name1, 22, x0 + 70, l1, color=c1, bold=True, align=ALIGN_LEFT, fit=(190, 34))
    label = str(last.get("label") or last.get("cards") or "") if lseat else ""
    gold = "#ffe08a"
    p.text(
        "比分·出牌",
        label,
        26,
        x0 + 266,
        l1,
        color=gold,
        color2=GOLD,
        bold=True,
        align=ALIGN_LEFT,
        fit=(370, 38),
    )
    tag, tag_fill = (
        ("够级", "#d7332a")
        if last.get("gouji")
        else (("烧牌", "#ff5a1f") if last.get("burn") else ("", "#d7332a"))
    )
    p.chip("比分·出牌标", tag if lseat else "", x0 + pw - 76, l1 - 13, 26, 15, tag_fill, INK, pad=15)
    l2 = by + 64
    turn_num = int(table.get("turn") or 0) if not message else 0
    p.chip("比分·轮到", "轮到" if turn_num else "", x0 + 16, l2 - 13, 26, 15, GOLD, DARK_INK, pad=6)
    name2, c2 = who(turn_num) if turn_num else ("", INK)
    p.text("比分·轮到人", name2, 22, x0 + 70, l2, color=c2, bold=True, align=ALIGN_LEFT, fit=(200, 34))
    box = (pw - 32, 84)
    p.text(
        "比分·消息",
        message,
        22,
        x0 + pw / 2,
        by + 46,
        color=gold,
        bold=True,
        align=ALIGN_CENTER,
        fit=box,
        lines=2,
    )
