"""The ``rundown:`` section: the episode's shape (games, contestants) and its commercial breaks.

Only the section is read here; whether the films named in the breaks exist and air as often as bought
is a cross-rule (:mod:`broadcast.sponsors.placements.rules`), and the cue list built from it is
:mod:`broadcast.sponsors.rundown`.
"""

from __future__ import annotations

import re

from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.english import what_en
from broadcast.sponsors.placements.model import Break, RundownConfig
from engine.yamlread import Node

ANCHOR = re.compile(r"^(opening|intro|draws|game (\d+))$")


def read_rundown(b: Build, node: Node) -> RundownConfig:
    f = b.r.mapping(node, "rundown（节目流程）", (), ("games", "contestants", "breaks"))
    if f is None:
        return RundownConfig()
    games = b.r.integer(f["games"], "rundown.games（每期局数）", minimum=1, maximum=9) if "games" in f else 3
    contestants = (
        b.r.integer(f["contestants"], "rundown.contestants（每期选手人数）", minimum=1, maximum=36)
        if "contestants" in f
        else 6
    )
    breaks: list[Break] = []
    items = (b.r.seq(f["breaks"], "rundown.breaks") if "breaks" in f else None) or []
    for i, item in enumerate(items, start=1):
        what = f"第{i}个插播时段"
        g = b.r.mapping(item, what, ("after", "items"), ())
        if g is None or "after" not in g or "items" not in g:
            continue
        after = b.r.text(g["after"], f"{what} after")
        if after is None:
            continue
        m = ANCHOR.match(after)
        if m is None or (m.group(2) and games and not 1 <= int(m.group(2)) <= games):
            b.r.error(
                g["after"],
                f"{what} 的位置 {after!r} 不存在",
                f"写 opening、intro、game 1…game {games or 3} 或 draws"
                "（英雄榜之后紧接英雄榜冠名片，不能插播）",
                en=(
                    f"{what_en(what)}: there is no place {after!r}",
                    f"write opening, intro, game 1…game {games or 3} or draws"
                    " (the leaderboard is followed by its title sponsor's film, no break there)",
                ),
            )
            continue
        ids = b.r.texts(g["items"], f"{what} items")
        if not ids:
            b.r.error(
                g["items"],
                f"{what} 没有内容",
                "列出要播的片子编号，或删掉这个时段",
                en=(f"{what_en(what)} is empty", "list the ids of the films to air, or delete this break"),
            )
        breaks.append(Break(after, tuple(x for x, _ in ids), item.start_mark.line + 1))
        b.break_nodes.append(g["items"])
    return RundownConfig(games or 3, contestants or 6, tuple(breaks))
