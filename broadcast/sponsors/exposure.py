"""Promised vs delivered, per episode and per sponsor, from the placements and the as-run log.

Intervals come from on/off pairs (graphic_on/off per graphic+item, film_start/end per film, program
scenes until the next scene of the same source). The same key seen by two sources (the app before
OBS connected, OBS after) is merged, so nothing is counted twice; an interval still open when the
episode ends is closed there and flagged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from broadcast.core.airlog import (
    DRAW,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    PROGRAM_SCENE,
    PROOF,
)
from broadcast.sponsors.actions import charity_share
from broadcast.sponsors.asrun import SHOT, Episode, Prize, StoredEvent
from broadcast.sponsors.placements import Placements, Slot

TOLERANCE = 0.5  # s: a 5 s bumper on air 4.6 s counts; 3 s does not
MERGE_GAP = 1.0  # s: two intervals of the same thing this close are one appearance
HANDOVER_GAP = 10.0  # s: app → OBS hand-over gap that still counts as one appearance
FOLLOW_GAP = 10.0  # s: the 英雄榜 film must start within this after the 英雄榜 leaves
COVERAGE_SLACK = 2.0  # s: the corner bug may miss this much of the programme (switching)


@dataclass(frozen=True)
class Interval:
    key: str
    start: float
    end: float
    sources: frozenset[str]
    start_event: int
    clipped: bool = False  # still on air at the episode's end: closed there
    handover: bool = False  # ended by the app → OBS hand-over
    events: tuple[int, ...] = ()  # every on-event merged into this interval (proofs hang on them)

    @property
    def seconds(self) -> float:
        return max(0.0, self.end - self.start)


@dataclass(frozen=True)
class Metric:
    sponsor: str
    slot_key: str
    slot_label: str
    what: str
    unit: str
    promised: float | None
    delivered: float
    note: str = ""
    evidence: tuple[int, ...] = ()
    slack: float = 0.0  # measurement tolerance in the metric's unit

    @property
    def shortfall(self) -> bool:
        return self.promised is not None and self.delivered + self.slack + 1e-9 < self.promised

    @property
    def status(self) -> str:
        if self.promised is None:
            return "—"
        return "未达标" if self.shortfall else "达标"


@dataclass
class SponsorExposure:
    sponsor: str
    name: str
    full_name: str
    slots: list[Slot]
    metrics: list[Metric] = field(default_factory=list)
    evidence: list[int] = field(default_factory=list)

    @property
    def shortfalls(self) -> list[Metric]:
        return [m for m in self.metrics if m.shortfall]


@dataclass
class EpisodeExposure:
    episode: str
    air_date: str
    start: float
    end: float
    unfinished: bool
    film_seconds: float
    sponsors: list[SponsorExposure]
    draws: list[StoredEvent]
    prizes: list[Prize]
    prize_total: float
    charity: float
    season_prize_total: float
    season_charity: float
    flags: list[str]
    events: list[StoredEvent]

    @property
    def duration(self) -> float:
        return max(0.0, self.end - self.start)

    def sponsor(self, sid: str) -> SponsorExposure:
        return next(s for s in self.sponsors if s.sponsor == sid)


# ------------------------------------------------------------------------------------ intervals
def build_intervals(
    events: Iterable[StoredEvent], start: float, end: float
) -> tuple[dict[str, list[Interval]], list[str]]:
    """Pair on/off events into intervals per key ("graphic:<g>:<item>", "film:<id>", "scene:<name>")."""
    raw: dict[str, list[Interval]] = {}
    opened: dict[tuple[str, str], tuple[float, int]] = {}
    scene_of: dict[str, str] = {}
    flags: list[str] = []

    def close(source: str, key: str, ts: float, handover: bool = False) -> None:
        got = opened.pop((source, key), None)
        if got is None:
            return
        s, eid = got
        raw.setdefault(key, []).append(
            Interval(key, s, ts, frozenset([source]), eid, handover=handover, events=(eid,))
        )

    def open_(source: str, key: str, ts: float, eid: int) -> None:
        if (source, key) not in opened:
            opened[(source, key)] = (ts, eid)

    for e in sorted(events, key=lambda e: (e.ts, e.id)):
        if e.kind == GRAPHIC_ON:
            open_(e.source, f"graphic:{e.subject}:{e.detail.get('item', '')}", e.ts, e.id)
        elif e.kind == GRAPHIC_OFF:
            item = e.detail.get("item")
            if item is None:  # an off without item closes whatever that graphic showed
                prefix = f"graphic:{e.subject}:"
                for src, key in [k for k in opened if k[0] == e.source and k[1].startswith(prefix)]:
                    close(src, key, e.ts)
            else:
                close(e.source, f"graphic:{e.subject}:{item}", e.ts, handover=bool(e.detail.get("handover")))
        elif e.kind == FILM_START:
            open_(e.source, f"film:{e.subject}", e.ts, e.id)
        elif e.kind == FILM_END:
            close(e.source, f"film:{e.subject}", e.ts)
        elif e.kind == PROGRAM_SCENE:
            prev = scene_of.get(e.source)
            if prev is not None:
                close(e.source, f"scene:{prev}", e.ts)
            scene_of[e.source] = e.subject
            open_(e.source, f"scene:{e.subject}", e.ts, e.id)
    for (source, key), (s, eid) in sorted(opened.items()):
        raw.setdefault(key, []).append(
            Interval(key, s, max(s, end), frozenset([source]), eid, clipped=True, events=(eid,))
        )
        if not key.startswith("scene:"):
            flags.append(f"{_key_zh(key)} 到节目结束仍未下（{source}），已按节目结束时间截断")
    out: dict[str, list[Interval]] = {}
    for key, ivs in raw.items():
        clipped = [
            Interval(
                iv.key,
                max(iv.start, start),
                min(iv.end, end),
                iv.sources,
                iv.start_event,
                iv.clipped,
                iv.handover,
                iv.events,
            )
            for iv in ivs
            if iv.end > start and iv.start < end
        ]
        out[key] = merge(clipped)
    return out, flags


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Union of intervals of one key: overlapping, touching (≤ MERGE_GAP) or hand-over gaps join."""
    out: list[Interval] = []
    for iv in sorted(intervals, key=lambda i: (i.start, i.end)):
        if out:
            cur = out[-1]
            gap = iv.start - cur.end
            if gap <= MERGE_GAP or (cur.handover and gap <= HANDOVER_GAP):
                out[-1] = Interval(
                    cur.key,
                    cur.start,
                    max(cur.end, iv.end),
                    cur.sources | iv.sources,
                    cur.start_event,
                    cur.clipped or iv.clipped,
                    iv.handover if iv.end >= cur.end else cur.handover,
                    cur.events + iv.events,
                )
                continue
        out.append(iv)
    return out


def union_seconds(intervals: Iterable[Interval]) -> float:
    total = 0.0
    for iv in merge(Interval("", i.start, i.end, i.sources, i.start_event) for i in intervals):
        total += iv.seconds
    return total


def overlap_seconds(a: Iterable[Interval], b: Iterable[Interval]) -> float:
    ma = merge(Interval("", i.start, i.end, i.sources, 0) for i in a)
    mb = merge(Interval("", i.start, i.end, i.sources, 0) for i in b)
    total = 0.0
    for x in ma:
        for y in mb:
            lo, hi = max(x.start, y.start), min(x.end, y.end)
            if hi > lo:
                total += hi - lo
    return total


def _key_zh(key: str) -> str:
    kind, _, rest = key.partition(":")
    if kind == "graphic":
        g, _, item = rest.partition(":")
        return f"图形 {g}{'（' + item + '）' if item else ''}"
    if kind == "film":
        return f"宣传片 {rest}"
    return f"场景 {rest}"


# --------------------------------------------------------------------------------------- compute
def compute(
    p: Placements,
    episode: str,
    events: list[StoredEvent],
    *,
    info: Episode | None = None,
    prizes: list[Prize] | None = None,
    season_prizes: list[Prize] | None = None,
    air_date: str = "",
) -> EpisodeExposure:
    flags: list[str] = []
    if info is not None and info.started is not None:
        start = info.started
    elif events:
        start = events[0].ts
    else:
        start = 0.0
    unfinished = info is None or info.ended is None
    if info is not None and info.ended is not None:
        end = info.ended
    else:
        end = max([e.ts for e in events] + [start])
        flags.append("本期没有记录结束时间：以最后一条播出记录为节目结束")
    ivs, more = build_intervals(events, start, end)
    flags.extend(more)
    films = [iv for k, v in ivs.items() if k.startswith("film:") for iv in v]
    film_seconds = union_seconds(films)
    sources = sorted({e.source for e in events if e.kind in (GRAPHIC_ON, GRAPHIC_OFF, FILM_START, FILM_END)})
    if "obs" in sources and "app" in sources:
        flags.append("本期播出记录同时来自 OBS 与应用（中途连接/断开 OBS）：同一内容已合并计算，不重复计时")

    exposures: dict[str, SponsorExposure] = {}
    for sid, sp in p.sponsors.items():
        exposures[sid] = SponsorExposure(sid, sp.name, sp.full_name, p.slots_of(sid))
    slots = list(p.slots) + [c for c in p.credits() if c not in p.slots]
    for slot in slots:
        exp = exposures[slot.sponsor]
        if slot not in exp.slots:
            exp.slots.append(slot)
        exp.metrics.extend(_slot_metrics(p, slot, ivs, events, start, end, film_seconds, films))
    for sid, exp in exposures.items():
        owed = sum(int(s.minimums.get("mentions", 0)) for s in p.slots_of(sid))
        said = [e for e in events if e.kind == MENTION and e.subject == sid]
        if owed or said:
            exp.metrics.append(
                Metric(
                    sid,
                    "mentions",
                    "主持人口播",
                    "口播企业名称",
                    "次",
                    float(owed) if owed else None,
                    float(len(said)),
                    note=_times(said, start),
                    evidence=(),
                )
            )
        keys = {m for met in exp.metrics for m in met.evidence}
        proofs_about = [
            e.id
            for e in events
            if e.kind == PROOF and (e.detail.get("sponsor") == sid or e.subject in _graphics_of(exp.slots))
        ]
        exp.evidence = sorted(keys | set(proofs_about))
    draws = [e for e in events if e.kind == DRAW]
    prizes = prizes or []
    season = season_prizes if season_prizes is not None else prizes
    prize_total = round(sum(pr.yuan for pr in prizes), 2)
    season_total = round(sum(pr.yuan for pr in season), 2)
    ordered = [exposures[sid] for sid in p.sponsors if exposures[sid].slots or exposures[sid].metrics]
    return EpisodeExposure(
        episode=episode,
        air_date=air_date or (info.air_date if info else ""),
        start=start,
        end=end,
        unfinished=unfinished,
        film_seconds=film_seconds,
        sponsors=ordered,
        draws=draws,
        prizes=prizes,
        prize_total=prize_total,
        charity=charity_share(prize_total),
        season_prize_total=season_total,
        season_charity=charity_share(season_total),
        flags=flags,
        events=events,
    )


def _graphics_of(slots: list[Slot]) -> set[str]:
    return {g for s in slots for g in s.graphics}


def _times(events: list[StoredEvent], start: float) -> str:
    return "、".join(_clock(e.ts - start) for e in events[:12]) + ("…" if len(events) > 12 else "")


def _clock(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    return f"{s // 60:02d}:{s % 60:02d}"


def _slot_metrics(
    p: Placements,
    slot: Slot,
    ivs: dict[str, list[Interval]],
    events: list[StoredEvent],
    start: float,
    end: float,
    film_seconds: float,
    films: list[Interval],
) -> list[Metric]:
    out: list[Metric] = []
    label = slot.label if slot.kind != "credits" else f"片尾鸣谢（{slot.role}）"

    def metric(
        what: str,
        unit: str,
        promised: float | None,
        delivered: float,
        note: str = "",
        evidence: Iterable[int] = (),
        slack: float = 0.0,
    ) -> None:
        out.append(
            Metric(
                slot.sponsor, slot.key, label, what, unit, promised, delivered, note, tuple(evidence), slack
            )
        )

    mins = slot.minimums
    if slot.bumper is not None:
        aired = ivs.get(f"graphic:bumper:{slot.bumper.id}", [])
        full = [iv for iv in aired if iv.seconds >= slot.bumper.seconds - TOLERANCE]
        note = _airings_note(aired, slot.bumper.seconds, start)
        metric(
            f"{slot.bumper.seconds}秒标版（完整播出）",
            "次",
            mins.get("bumper"),
            len(full),
            note,
            [e for iv in aired for e in iv.events],
        )
    if slot.film is not None:
        aired = ivs.get(f"film:{slot.film.id}", [])
        full = [iv for iv in aired if iv.seconds >= slot.film.seconds - TOLERANCE]
        what = "中插广告（完整播出）" if slot.kind == "spot" else f"{slot.film.seconds}秒宣传片（完整播出）"
        metric(
            what,
            "次",
            mins.get("film"),
            len(full),
            _airings_note(aired, slot.film.seconds, start),
            [e for iv in aired for e in iv.events],
        )
        if slot.kind == "leaderboard":
            boards = [iv for k, v in ivs.items() if k.startswith("graphic:leaderboard:") for iv in v]
            following = [
                f
                for f in full
                if any(0 <= f.start - b.end <= FOLLOW_GAP or b.start <= f.start <= b.end for b in boards)
            ]
            metric(
                "宣传片紧接英雄榜播出",
                "次",
                mins.get("film"),
                len(following),
                f"英雄榜下屏后 {FOLLOW_GAP:g} 秒内开始播出才计",
                [e for iv in following for e in iv.events],
            )
    if slot.kind == "cell":
        mine = [e for e in events if e.kind == DRAW and e.detail.get("cell") == slot.index]
        note = "；".join(f"{e.detail.get('contestant', '')} 抽中 {e.detail.get('prize', '')}" for e in mine)
        metric(f"九宫格抽中（{slot.prize}）", "次", mins.get("draws"), len(mine), note, [e.id for e in mine])
        return out
    # on screen: program graphics, program scenes, operator shots, 九宫格 draw close-ups
    shown: list[Interval] = []
    for g in slot.graphics:
        shown += [iv for k, v in ivs.items() if k.startswith(f"graphic:{g}:") for iv in v]
    for scene in slot.scenes:
        shown += ivs.get(f"scene:{scene}", [])
    shown = merge(
        Interval("shown", i.start, i.end, i.sources, i.start_event, i.clipped, False, i.events) for i in shown
    )
    instants = [
        e for e in events if (e.kind == SHOT and e.subject == slot.key) or (slot.draws and e.kind == DRAW)
    ]
    extra = [e for e in instants if not any(iv.start <= e.ts <= iv.end for iv in shown)]
    measurable = bool(
        slot.graphics or slot.scenes or slot.draws or extra or "appearances" in mins or "seconds" in mins
    )
    if not measurable:
        return out
    seconds = sum(iv.seconds for iv in shown)
    if slot.kind == "special":
        program = max(0.0, (end - start) - film_seconds)
        bug = seconds - overlap_seconds(shown, films)
        pct = 100.0 * bug / program if program > 0 else 0.0
        slack = 100.0 * COVERAGE_SLACK / program if program > 0 else 0.0
        metric(
            "右上角标覆盖率（不含插播广告）",
            "%",
            mins.get("coverage"),
            round(pct, 1),
            f"角标在屏 {bug:.0f} 秒 / 节目 {program:.0f} 秒（缺 {max(0.0, program - bug):.0f} 秒；"
            f"容差 {COVERAGE_SLACK:g} 秒）",
            [e for iv in shown for e in iv.events],
            slack=slack,
        )
        return out
    what = {"credits": "片尾鸣谢出现"}.get(slot.kind, "上屏/出镜次数")
    how = []
    if shown:
        how.append(f"画面 {len(shown)} 次共 {seconds:.0f} 秒")
    if extra:
        how.append(f"运营标记/抽奖特写 {len(extra)} 次")
    if slot.kind == "title":
        what = "游戏平台正中名称及LOGO 上屏"
    metric(
        what,
        "次",
        mins.get("appearances"),
        float(len(shown) + len(extra)),
        "；".join(how),
        [e for iv in shown for e in iv.events] + [e.id for e in extra],
    )
    if "seconds" in mins:
        metric("在屏时长", "秒", mins.get("seconds"), round(seconds, 1), "", ())
    return out


def _airings_note(aired: list[Interval], seconds: int, start: float) -> str:
    if not aired:
        return "未播出"
    parts = []
    for iv in aired:
        mark = "" if iv.seconds >= seconds - TOLERANCE else "（不完整）"
        clipped = "（至结束未下）" if iv.clipped else ""
        parts.append(f"{_clock(iv.start - start)} 播 {iv.seconds:.1f} 秒{mark}{clipped}")
    return "；".join(parts)
