"""Sponsor actions: load placements into the show state, 九宫格 draws, 口播 marks, studio shots, charity.

Every payload carries the data itself (never a path), so replaying the journal is deterministic.

    store.dispatch("sponsors.load", to_state(placements))
    store.dispatch("jiugongge.draw", {"contestant": "王大爷", "cell": 4})     # cell 0…8
    store.dispatch("sponsor.mention", {"sponsor": "xiaodangjia"})          # 口播, marked by the operator
    store.dispatch("sponsor.mention_retract", {"reason": "按错"})          # the last 口播 was a mistake
    store.dispatch("sponsor.shot", {"slot": "table"})                      # 桌面广告 on screen
    store.dispatch("charity.update", {"prize": {"contestant": "王大爷", "yuan": 500}})
"""

from __future__ import annotations

import copy
from importlib import resources
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Fragment, Payload, State
from broadcast.errors import plural

SCHEMA = Fragment(resources.files("broadcast.sponsors").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action

SHOT_SLOTS = {
    "table": "桌面广告位",
    "jiugongge_board": "九宫格下方广告位",
    "prize_stand": "奖品展示台",
    "shirts": "选手文化衫",
    "commentary": "解说区",
}


@action("sponsors.load")
def sponsors_load(state: State, payload: Payload, ctx: Context) -> None:
    """Install placements: {sponsors: {…state section…}, cells: [9 cells], source: {file, digest, …}}."""
    sponsors = payload.get("sponsors")
    cells = payload.get("cells")
    if not isinstance(sponsors, dict) or not isinstance(cells, list):
        raise ActionRefused(
            "sponsors.load",
            "排期数据不完整（缺少 sponsors 或 cells）",
            "placements payload needs sponsors and cells",
        )
    if cells and len(cells) != 9:
        raise ActionRefused(
            "sponsors.load",
            f"九宫格必须正好 9 格，这里有 {len(cells)} 格",
            f"jiugongge needs 9 cells, got {len(cells)}",
        )
    allowed = set(SCHEMA.defaults("sponsors")) - {"mentions", "mention_marks", "shots", "source"}
    unknown = sorted(set(sponsors) - allowed)
    if unknown:
        raise ActionRefused(
            "sponsors.load",
            f"排期数据有未知字段：{', '.join(unknown)}",
            f"unknown sponsor {plural(len(unknown), 'field')}: {', '.join(unknown)}",
        )
    old = state["sponsors"]
    ids = {str(r.get("id", "")) for r in sponsors.get("roster", []) if isinstance(r, dict)}
    fresh: dict[str, Any] = SCHEMA.defaults("sponsors")
    fresh.update(copy.deepcopy(sponsors))
    fresh["source"] = dict(payload.get("source") or {})
    # counters of this episode survive a reload for the sponsors / slots that are still there
    fresh["mentions"] = {k: v for k, v in old.get("mentions", {}).items() if k in ids}
    fresh["mention_marks"] = [m for m in old.get("mention_marks", []) if m["sponsor"] in ids]
    fresh["shots"] = {
        k: v for k, v in old.get("shots", {}).items() if k in SHOT_SLOTS and fresh.get(k, {}).get("name")
    }
    state["sponsors"] = fresh
    jg = state["jiugongge"]
    if jg.get("cells") != cells:
        jg["cells"] = copy.deepcopy(cells)
        jg["draws"] = []
        jg["draw"] = None


@action("sponsors.episode_reset")
def sponsors_episode_reset(state: State, payload: Payload, ctx: Context) -> None:
    """A new episode: clear the 口播 and shot counters and the 九宫格 draws (placements stay loaded)."""
    state["sponsors"]["mentions"] = {}
    state["sponsors"]["mention_marks"] = []
    state["sponsors"]["shots"] = {}
    state["jiugongge"]["draws"] = []
    state["jiugongge"]["draw"] = None


@action("jiugongge.draw")
def jiugongge_draw(state: State, payload: Payload, ctx: Context) -> None:
    """A contestant draws a 九宫格 cell: {contestant, cell (0…8)}. Each contestant and each cell once."""
    jg = state["jiugongge"]
    cells = jg.get("cells") or []
    if len(cells) != 9:
        raise ActionRefused("jiugongge", "九宫格还没有奖品（先加载赞助排期）", "no jiugongge cells loaded")
    contestant = str(payload.get("contestant", "")).strip()
    if not contestant:
        raise ActionRefused("jiugongge", "请填写抽奖选手", "contestant missing")
    cell = payload.get("cell")
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 8:
        raise ActionRefused(
            "jiugongge", f"格子编号 {cell!r} 无效（应为 0–8，对应第 1–9 格）", f"cell {cell!r} not in 0..8"
        )
    for d in jg.get("draws", []):
        if d["contestant"] == contestant:
            raise ActionRefused(
                "jiugongge.once",
                f"{contestant} 本期已经抽过奖（第 {d['cell'] + 1} 格）",
                f"{contestant} already drew this episode (cell {d['cell'] + 1})",
            )
        if d["cell"] == cell:
            raise ActionRefused(
                "jiugongge.cell",
                f"第 {cell + 1} 格已被 {d['contestant']} 抽走",
                f"cell {cell + 1} already drawn by {d['contestant']}",
            )
    draw = {"id": len(jg.get("draws", [])) + 1, "contestant": contestant, "cell": cell}
    jg.setdefault("draws", []).append(draw)
    jg["draw"] = dict(draw)


@action("jiugongge.clear")
def jiugongge_clear(state: State, payload: Payload, ctx: Context) -> None:
    """Hide the current reveal (the draw stays in this episode's list)."""
    state["jiugongge"]["draw"] = None


@action("sponsor.mention")
def sponsor_mention(state: State, payload: Payload, ctx: Context) -> None:
    """口播: the host named a sponsor, marked by the operator: {sponsor: id}."""
    sid = str(payload.get("sponsor", ""))
    roster = {r["id"]: r for r in state["sponsors"].get("roster", [])}
    if sid not in roster:
        raise ActionRefused("sponsor", f"没有这个赞助商：{sid!r}", f"unknown sponsor {sid!r}")
    counts = state["sponsors"].setdefault("mentions", {})
    counts[sid] = int(counts.get(sid, 0)) + 1
    state["sponsors"].setdefault("mention_marks", []).append({"seq": ctx.seq, "sponsor": sid, "ts": ctx.ts})


@action("sponsor.mention_retract")
def sponsor_mention_retract(state: State, payload: Payload, ctx: Context) -> None:
    """Take back a 口播 keyed by mistake: the episode's last one ({sponsor: id} for that sponsor's last),
    with the operator's reason. Its count drops; the journal keeps both actions, and the as-run log
    records the retraction (with the mark it takes back), so reports count only what aired."""
    sid = str(payload.get("sponsor") or "")
    marks = state["sponsors"].setdefault("mention_marks", [])
    index = next((i for i in range(len(marks) - 1, -1, -1) if not sid or marks[i]["sponsor"] == sid), None)
    if index is None:
        who = f"（{sid}）" if sid else ""
        raise ActionRefused(
            "sponsor.retract",
            f"本期没有可撤销的口播{who}",
            f"no sponsor mention to take back in this episode{' for ' + sid if sid else ''}",
        )
    mark = marks.pop(index)
    counts = state["sponsors"].setdefault("mentions", {})
    counts[mark["sponsor"]] = max(0, int(counts.get(mark["sponsor"], 0)) - 1)


@action("sponsor.shot")
def sponsor_shot(state: State, payload: Payload, ctx: Context) -> None:
    """A studio placement was on screen (marked by the operator): {slot: table | jiugongge_board …}."""
    slot = str(payload.get("slot", ""))
    if slot not in SHOT_SLOTS:
        raise ActionRefused(
            "sponsor.shot",
            f"没有这个现场广告位：{slot!r}（可用：{'、'.join(SHOT_SLOTS)}）",
            f"unknown studio slot {slot!r}",
        )
    if not state["sponsors"].get(slot, {}).get("name"):
        raise ActionRefused("sponsor.shot", f"{SHOT_SLOTS[slot]}本期没有赞助商", f"no sponsor holds {slot}")
    counts = state["sponsors"].setdefault("shots", {})
    counts[slot] = int(counts.get(slot, 0)) + 1


@action("charity.update")
def charity_update(state: State, payload: Payload, ctx: Context) -> None:
    """爱心基金: {prize: {contestant, yuan, note?}} adds prize money won; {share_percent}, {label},
    {prize_total_yuan} (a correction) also allowed. total_yuan = prize money × share."""
    ch = state["charity"]
    unknown = sorted(set(payload) - {"prize", "share_percent", "label", "prize_total_yuan"})
    if unknown:
        raise ActionRefused(
            "charity",
            f"爱心基金没有字段 {', '.join(unknown)}",
            f"charity has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    if "prize_total_yuan" in payload:
        ch["prize_total_yuan"] = _money(payload["prize_total_yuan"], "奖金总额")
    if "prize" in payload:
        prize = payload["prize"]
        if not isinstance(prize, dict) or not str(prize.get("contestant", "")).strip():
            raise ActionRefused(
                "charity", "奖金记录需要 contestant 和 yuan", "prize needs contestant and yuan"
            )
        won = _money(prize.get("yuan"), "奖金")
        ch["prize_total_yuan"] = round(float(ch.get("prize_total_yuan", 0)) + won, 2)
        ch["prizes"] = int(ch.get("prizes", 0)) + 1
    if "share_percent" in payload:
        share = payload["share_percent"]
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 100:
            raise ActionRefused(
                "charity", f"捐赠比例 {share!r} 应在 0–100 之间", f"share {share!r} not in 0..100"
            )
        ch["share_percent"] = share
    if "label" in payload:
        ch["label"] = str(payload["label"])
    ch["total_yuan"] = charity_share(float(ch.get("prize_total_yuan", 0)), float(ch.get("share_percent", 10)))


def charity_share(prize_total_yuan: float, share_percent: float = 10.0) -> float:
    """The fund's share of prize money, in yuan, rounded to the fen."""
    return round(prize_total_yuan * share_percent / 100.0 + 1e-9, 2)


def _money(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ActionRefused(
            "charity", f"{what} {value!r} 应为不小于 0 的金额（元）", f"{what}: bad amount {value!r}"
        )
    return round(float(value), 2)
