"""胜率（估算）: the native graphic ``winprob`` drawn with OBS's own sources (see ``paint.py``), the pages'
``overlays/js/graphics/winprob.js`` in the same design: the two teams' chances of winning this game as
the evaluator estimates them (``state.winprob.current``), a level game the bar's grey middle."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from broadcast import tokens as T
from broadcast.obs.graphics.paint import GOLD, INK_DIM, PLATE, TEAM_COLOR, Painter
from broadcast.obs.spec import ALIGN_LEFT, ALIGN_RIGHT, ALIGN_TOP

# where its picture sits on the canvas (x, y, width, height): its zone's box in the one table of zones
# (overlays/tokens.json); every op it draws lies inside
FRAME = T.zone("winprob").box
BAR_W = 588  # the bar between the two percentages


def pct(p: Any) -> str:
    """A probability as the pages write it (JavaScript's Math.round: halves up, never to even)."""
    return f"{math.floor(100 * max(0.0, min(1.0, float(p or 0))) + 0.5)}%"


def of_the_table(cur: Mapping[str, Any], table: Mapping[str, Any]) -> bool:
    """The estimate is of the position on the table (the pages' ``isOfTheTable``): the same game and deal
    (a re-deal under the same game number is another deal), as many decisions, the same last one — else
    a decision came since, or the cards were dealt again, and its figures are not shown."""
    return (
        cur.get("moves") == table.get("moves", 0)
        and (cur.get("line") or "") == (table.get("last_move") or "")
        and cur.get("game_no", table.get("game_no")) == table.get("game_no")
        and cur.get("deal", table.get("deal") or 0) == (table.get("deal") or 0)
    )


def foot_line(
    shown: Mapping[str, Any] | None, cur: Mapping[str, Any] | None, table: Mapping[str, Any]
) -> str:
    if not cur:
        return "等待估算"
    if shown is None:
        return f"第{int(table.get('moves') or 0)}步 估算中…"
    if shown.get("hands") == "over":
        return "本局结果"
    at = f"第{int(shown['moves'])}步后" if shown.get("moves") else "开局"
    return f"{at} · 平局 {pct(shown.get('level'))} · {int(shown.get('playouts', 0))}次推演估算"


def paint(p: Painter, st: Mapping[str, Any]) -> None:
    """胜率 top centre: team names, the title marked as an estimate, the percentages and the bar."""
    cur = st.get("winprob", {}).get("current")
    table = st.get("table", {})
    teams = table.get("teams", {})
    shown = cur if cur and of_the_table(cur, table) else None
    x, y, w, h = FRAME
    p.rect("胜率·影", "#000000", x + 3, y + 5, w - 3, h - 5, 70)
    p.rect("胜率·底", PLATE, x, y, w - 3, h - 5, 235)
    p.rect("胜率·金线", GOLD, x, y + h - 8, w - 3, 3)
    odd, even = teams.get("odd", {}), teams.get("even", {})
    p.text(
        "胜率·单号名",
        str(odd.get("label", "")),
        22,
        x + 16,
        y + 22,
        bold=True,
        align=ALIGN_LEFT,
        fit=(300, 30),
    )
    p.text("胜率·标题", "胜率（估算）", 20, x + (w - 3) // 2, y + 8, color=GOLD, bold=True, align=ALIGN_TOP)
    p.text(
        "胜率·双号名",
        str(even.get("label", "")),
        22,
        x + w - 19,
        y + 22,
        bold=True,
        align=ALIGN_RIGHT,
        fit=(300, 30),
    )
    o = float(cur["odd"]) if cur else 0.5
    e = float(cur["even"]) if cur else 0.5
    figure = pct(o) if shown else "…" if cur else "—"
    p.text("胜率·单号率", figure, 26, x + 16, y + 58, bold=True, align=ALIGN_LEFT, numeric=True)
    p.text(
        "胜率·双号率",
        pct(e) if shown else "…" if cur else "—",
        26,
        x + w - 19,
        y + 58,
        bold=True,
        align=ALIGN_RIGHT,
        numeric=True,
    )
    bx, by = x + 106, y + 49
    # every op at a fixed place (positions never follow the state): the even team's colour under the
    # level game's grey under the odd team's colour, each from the bar's left edge
    p.rect("胜率·槽", "#3a4060", bx, by, BAR_W, 18)
    ow = round(BAR_W * max(0.0, min(1.0, o)))
    lw = max(0, BAR_W - ow - round(BAR_W * max(0.0, min(1.0, e))))
    alpha = 255 if shown else 90 if cur else 0  # a decision since: dimmed until its own figures
    p.rect("胜率·双号条", str(even.get("color") or TEAM_COLOR["even"]), bx, by, BAR_W, 18, alpha)
    p.rect("胜率·平局条", "#8a90a8", bx, by, max(1, ow + lw), 18, alpha if ow + lw else 0)
    p.rect(
        "胜率·单号条", str(odd.get("color") or TEAM_COLOR["odd"]), bx, by, max(1, ow), 18, alpha if ow else 0
    )
    foot = foot_line(shown, cur, table)
    p.text("胜率·注", foot, 15, x + (w - 3) // 2, y + 69, color=INK_DIM, align=ALIGN_TOP, fit=(560, 22))
