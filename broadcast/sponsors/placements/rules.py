"""The rules across slots (docs/sponsorship.md), checked once every section has been read.

One broadcast-rights package per sponsor; 赞助播出 air in signing order (a tie needs the time); no two
九宫格 cells with the same prize (a warning); every film named in a break exists and is not the 英雄榜
film; every bought film is placed as often as its minimum; a 冠名 exists; an air date was given.
"""

from __future__ import annotations

import difflib
from datetime import datetime

from broadcast.errors import count
from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.model import RundownConfig, Slot
from engine.yamlread import SequenceNode

BROADCAST_RIGHTS = ("title", "special", "supporter")  # competing exclusives: a sponsor buys one


def check_cross_rules(b: Build, rundown: RundownConfig) -> None:
    _one_package_per_sponsor(b)
    _supporters_in_signing_order(b)
    _distinct_prizes(b)
    _films_placed(b, rundown)
    if b.air_date is None:
        b.r.warn(
            None,
            "没有给出播出日期，未检查合同是否覆盖本期",
            "加 --air-date YYYY-MM-DD 检查合同有效期",
            en=(
                "no air date given: the contracts were not checked against this episode",
                "add --air-date YYYY-MM-DD to check the contract dates",
            ),
        )
    if not any(s.kind == "title" for s in b.slots) and not b.r.has_errors():
        b.r.error(None, "缺少冠名", "加上 title: …", en=("the title sponsor is missing", "add title: …"))


def _one_package_per_sponsor(b: Build) -> None:
    seen: dict[str, Slot] = {}
    for s in b.slots:
        if s.kind not in BROADCAST_RIGHTS:
            continue
        if s.sponsor in seen:
            other = seen[s.sponsor]
            b.r.error_at(
                s.line,
                f"{b.name_of(s.sponsor)} 同时是{other.label}（第 {other.line} 行）和{s.label}",
                "一家企业只买一种播出权益：删除其中一项",
                en=(
                    f"{b.name_of(s.sponsor)} is both {other.label_en} (line {other.line}) and {s.label_en}",
                    "a company buys one broadcast-rights package only: delete one of them",
                ),
            )
        else:
            seen[s.sponsor] = s


def _supporters_in_signing_order(b: Build) -> None:
    sups = sorted((s for s in b.slots if s.kind == "supporter"), key=lambda s: s.index)
    for prev, cur in zip(sups, sups[1:], strict=False):
        ps = prev.contract.signed if prev.contract else None
        cs = cur.contract.signed if cur.contract else None
        if ps is None or cs is None:
            continue
        line = cur.contract.line if cur.contract else cur.line
        if cs < ps:
            b.r.error_at(
                line,
                f"赞助播出须按签约先后播出：{b.name_of(cur.sponsor)}（{_fmt(cs)} 签约）比"
                f"{b.name_of(prev.sponsor)}（{_fmt(ps)} 签约）先签约，却排在后面",
                f"把 {b.name_of(cur.sponsor)} 移到第 {prev.index} 家之前",
                en=(
                    "the sponsored-by slots air in signing order: "
                    f"{b.name_of(cur.sponsor)} (signed {_fmt(cs)}) signed before "
                    f"{b.name_of(prev.sponsor)} (signed {_fmt(ps)}) but comes after it",
                    f"move {b.name_of(cur.sponsor)} before no. {prev.index}",
                ),
            )
        elif cs == ps:
            b.r.error_at(
                line,
                f"{b.name_of(cur.sponsor)} 与 {b.name_of(prev.sponsor)} "
                f"签约时间相同（{_fmt(cs)}），"
                "无法确定播出顺序",
                "写上签约时刻，如 signed: 2012-03-05 10:30",
                en=(
                    f"{b.name_of(cur.sponsor)} and {b.name_of(prev.sponsor)} signed at the same time "
                    f"({_fmt(cs)}): their airing order cannot be told",
                    "write the signing time too, e.g. signed: 2012-03-05 10:30",
                ),
            )


def _distinct_prizes(b: Build) -> None:
    cells = [s for s in b.slots if s.kind == "cell"]
    if len(cells) != 9:
        return
    prizes: dict[str, Slot] = {}
    for c in cells:
        if c.prize in prizes:
            b.r.error_at(
                c.line,
                f"九宫格第{c.index + 1}格与第{prizes[c.prize].index + 1}格奖品相同：{c.prize}",
                "确认是否有意为之",
                level="warning",
                en=(
                    f"prize grid cells {c.index + 1} and {prizes[c.prize].index + 1} "
                    f"have the same prize: {c.prize}",
                    "make sure this is meant",
                ),
            )
        prizes[c.prize] = c


def _films_placed(b: Build, rundown: RundownConfig) -> None:
    """Films named in breaks exist; spots air as often as bought; every bought film is placed."""
    films = {s.film.id: s for s in b.slots if s.film is not None}
    placed: dict[str, int] = {}
    for i, brk in enumerate(rundown.breaks, start=1):
        items_node = b.break_nodes[i - 1] if i <= len(b.break_nodes) else None
        nodes = list(items_node.value) if isinstance(items_node, SequenceNode) else []
        for j, fid in enumerate(brk.items):
            node = nodes[j] if j < len(nodes) else None
            if fid not in films:
                near = difflib.get_close_matches(fid, list(films), n=1)
                hint = f"是不是 {near[0]!r}？" if near else ""
                hint_en = f"did you mean {near[0]!r}? " if near else ""
                b.r.error(
                    node,
                    f"插播的片子 {fid!r} 不在排期里",
                    f"{hint}已登记的片子：{', '.join(films) or '无'}",
                    en=(
                        f"the film {fid!r} in a break is not in the placements",
                        f"{hint_en}films registered: {', '.join(films) or 'none'}",
                    ),
                )
                continue
            if films[fid].kind == "leaderboard":
                b.r.error(
                    node,
                    f"{fid} 是英雄榜冠名片，只能紧接英雄榜播出（节目流程会自动安排）",
                    "从插播时段里删掉它",
                    en=(
                        f"{fid} is the leaderboard title sponsor's film: it airs right after the leaderboard "
                        "only (the rundown places it)",
                        "delete it from the break",
                    ),
                )
                continue
            placed[fid] = placed.get(fid, 0) + 1
    for fid, s in films.items():
        if s.kind == "leaderboard":
            continue
        want = int(s.minimums.get("film", 0))
        got = placed.get(fid, 0)
        if got < want:
            b.r.error_at(
                s.film.line if s.film else s.line,
                f"{s.label}（{b.name_of(s.sponsor)}）的片子 {fid} 每期应播 {want} 次，"
                f"节目流程只排了 {got} 次",
                "在 rundown.breaks 里加上它（如 after: game 1, items: [" + fid + "]）",
                en=(
                    f"the film {fid} of {s.label_en} ({b.name_of(s.sponsor)}) should air "
                    f"{count(want, 'time')} an episode, the rundown places it {count(got, 'time')}",
                    "add it to rundown.breaks (e.g. after: game 1, items: [" + fid + "])",
                ),
            )


def _fmt(moment: datetime) -> str:
    if moment.hour or moment.minute:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d")
