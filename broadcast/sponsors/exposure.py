"""Promised vs delivered, per episode and per sponsor, from the placements and the as-run log.

Only evidence counts: rows that OBS confirmed (``source`` ``obs``) or that a page inside OBS reported
painting (``echo``); the application's intention never does. While OBS could not be seen — from an
``obs_down`` row (its ``since``: the last moment OBS was known alive) to the next ``obs_up`` — nothing is
credited, operator marks included: those spans are the episode's **outages**, listed with their length
and cause. An episode without any evidence credits nothing and says so. A rehearsal (``rehearsal=True``,
rows of ``source="rehearsal"`` from a scripted rundown) is computed as if it had aired and is labelled so.

Intervals come from on/off pairs (graphic_on/off per graphic+item, film_start/end per film, program
scenes until the next scene), cut to the times OBS was seen. Intervals of the same thing closer than
``MERGE_GAP`` count as one appearance, but only the seconds really on air count as seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from broadcast.core.airlog import (
    CAUSES,
    DRAW,
    EPISODE_END,
    EPISODE_START,
    EVIDENCE_SOURCES,
    FILM_END,
    FILM_START,
    GRAPHIC_OFF,
    GRAPHIC_ON,
    MENTION,
    MENTION_RETRACT,
    OBS_DOWN,
    OBS_UP,
    PROGRAM_SCENE,
    PROOF,
)
from broadcast.sponsors.actions import charity_share
from broadcast.sponsors.asrun import SHOT, Episode, Prize, StoredEvent
from broadcast.sponsors.chain import ChainCheck, Seal
from broadcast.sponsors.placements import Placements, Slot

TOLERANCE = 0.5  # s: a 5 s bumper on air 4.6 s counts; 3 s does not
MERGE_GAP = 1.0  # s: two intervals of the same thing this close are one appearance
FOLLOW_GAP = 10.0  # s: the 英雄榜 film must start within this after the 英雄榜 leaves
COVERAGE_SLACK = 2.0  # s: the corner bug may miss this much of the programme (switching)
MIN_OUTAGE = 0.05  # s: shorter gaps between OBS rows are not listed as outages

Span = tuple[float, float]


@dataclass(frozen=True)
class Interval:
    key: str
    start: float
    end: float
    sources: frozenset[str]
    start_event: int
    clipped: bool = False  # still on air at the episode's end: closed there
    events: tuple[int, ...] = ()  # every on-event merged into this interval (proofs hang on them)
    parts: tuple[Span, ...] = ()  # the spans really on air (a merge does not fill its gaps)

    @property
    def seconds(self) -> float:
        if not self.parts:
            return max(0.0, self.end - self.start)
        return _union(self.parts)


@dataclass(frozen=True)
class Outage:
    """A span of the episode in which OBS could not be seen: nothing in it is credited."""

    start: float
    end: float
    cause: str  # a key of broadcast.core.airlog.CAUSES
    detail: str = ""

    @property
    def seconds(self) -> float:
        return max(0.0, self.end - self.start)

    @property
    def cause_zh(self) -> str:
        return CAUSES.get(self.cause, (self.cause, self.cause))[0]

    @property
    def cause_en(self) -> str:
        return CAUSES.get(self.cause, (self.cause, self.cause))[1]


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
    outages: list[Outage] = field(default_factory=list)
    watched: list[Span] = field(default_factory=list)  # spans in which OBS was seen
    no_evidence: bool = False
    rehearsal: bool = False
    chain: ChainCheck | None = None
    seal: Seal | None = None  # the ledger check, the receipt and the key (the report command)

    @property
    def duration(self) -> float:
        return max(0.0, self.end - self.start)

    @property
    def outage_seconds(self) -> float:
        return sum(o.seconds for o in self.outages)

    @property
    def watched_seconds(self) -> float:
        return _union(self.watched)

    def sponsor(self, sid: str) -> SponsorExposure:
        return next(s for s in self.sponsors if s.sponsor == sid)


# ------------------------------------------------------------------------------------ intervals
def _union(spans: Iterable[Span]) -> float:
    total, cur_s, cur_e = 0.0, None, None
    for s, e in sorted(spans):
        if cur_e is None or s > cur_e:
            if cur_e is not None and cur_s is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None and cur_s is not None:
        total += cur_e - cur_s
    return total


def watched_spans(
    events: Iterable[StoredEvent], start: float, end: float, link_at_start: StoredEvent | None = None
) -> tuple[list[Span], list[Outage]]:
    """When OBS was seen (from ``obs_up`` to the next ``obs_down``'s ``since``) and the outages between,
    each with the cause of the ``obs_down`` that began it. ``link_at_start`` is the last link row before
    the episode began (OBS may have been seen already, or known to be down). A studio killed mid-show
    writes no ``obs_down``: its restart's ``provisioning`` row, while OBS is still seen, ends the watch at
    the last row of evidence before it (cause ``restarted``) — the dead studio saw nothing after."""
    ordered = sorted(events, key=lambda e: (e.ts, e.id))
    rows = [e for e in ordered if e.kind in (OBS_UP, OBS_DOWN)]
    watched: list[Span] = []
    downs: list[tuple[float, str, str]] = []  # (lost at, cause, detail)
    up_since: float | None = None
    if link_at_start is not None:
        if link_at_start.kind == OBS_UP:
            up_since = start
        else:
            downs.append((start, link_at_start.subject, str(link_at_start.detail.get("detail", ""))))
    for e in rows:
        if e.kind == OBS_UP:
            if up_since is None:
                up_since = max(start, e.ts)
            continue
        lost = min(float(e.detail.get("since", e.ts)), e.ts)
        why = e.subject
        if e.subject == "provisioning" and up_since is not None:
            # a bridge starting while the log still says OBS is seen: the studio before it was killed or
            # crashed (a clean stop writes "stopped"). OBS was seen last at the last row of evidence
            lost, why = last_evidence(ordered, e, up_since), "restarted"
        downs.append((max(start, lost), why, str(e.detail.get("detail", ""))))
        if up_since is not None:
            hi = min(end, max(up_since, lost))
            if hi > up_since:
                watched.append((up_since, hi))
            up_since = None
    if up_since is not None and end > up_since:
        watched.append((up_since, end))
    outages: list[Outage] = []
    t = start
    for a, b in [*watched, (end, end)]:
        if a - t >= MIN_OUTAGE:
            began = [d for d in downs if d[0] <= t + MIN_OUTAGE]
            during = [d for d in downs if t < d[0] < a]
            cause = began[-1] if began else (during[0] if during else (t, "not_started", ""))
            if not (
                cause[1] == "stopped" and a >= end
            ):  # the studio stopped at the show's end: not an outage
                outages.append(Outage(t, a, cause[1], cause[2]))
        t = max(t, b)
    return watched, outages


def last_evidence(ordered: list[StoredEvent], down: StoredEvent, since: float) -> float:
    """The time of the last evidence row (OBS's or a page's) before ``down``, not before ``since``: the last
    moment a studio that died without a word is known to have seen OBS."""
    last = since
    for e in ordered:
        if e.id == down.id or (e.ts, e.id) > (down.ts, down.id):
            break
        if e.source in EVIDENCE_SOURCES:
            last = max(last, e.ts)
    return last


def build_intervals(
    events: Iterable[StoredEvent],
    start: float,
    end: float,
    *,
    sources: frozenset[str] | set[str] = EVIDENCE_SOURCES,
    watched: list[Span] | None = None,
) -> tuple[dict[str, list[Interval]], list[str]]:
    """Pair on/off rows of the evidence ``sources`` into intervals per key ("graphic:<g>:<item>",
    "film:<id>", "scene:<name>"), cut to the ``watched`` spans (default: the whole episode)."""
    raw: dict[str, list[Interval]] = {}
    opened: dict[tuple[str, str], tuple[float, int]] = {}
    scene_of: dict[str, str] = {}
    film_scene: dict[int, str] = {}  # a film's start row → the scene it plays in (rows that name it)
    flags: list[str] = []

    def close(source: str, key: str, ts: float) -> None:
        got = opened.pop((source, key), None)
        if got is None:
            return
        s, eid = got
        raw.setdefault(key, []).append(Interval(key, s, ts, frozenset([source]), eid, events=(eid,)))

    def open_(source: str, key: str, ts: float, eid: int) -> None:
        if (source, key) not in opened:
            opened[(source, key)] = (ts, eid)

    for e in sorted(events, key=lambda e: (e.ts, e.id)):
        if e.source not in sources:
            continue
        if e.kind == GRAPHIC_ON:
            open_(e.source, f"graphic:{e.subject}:{e.detail.get('item', '')}", e.ts, e.id)
        elif e.kind == GRAPHIC_OFF:
            item = e.detail.get("item")
            if item is None:  # an off without item closes whatever that graphic showed
                prefix = f"graphic:{e.subject}:"
                for src, key in [k for k in opened if k[0] == e.source and k[1].startswith(prefix)]:
                    close(src, key, e.ts)
            else:
                close(e.source, f"graphic:{e.subject}:{item}", e.ts)
        elif e.kind == FILM_START:
            open_(e.source, f"film:{e.subject}", e.ts, e.id)
            film_scene[e.id] = str(e.detail.get("scene", ""))
        elif e.kind == FILM_END:
            close(e.source, f"film:{e.subject}", e.ts)
        elif e.kind == OBS_DOWN:
            # OBS not seen from here: nothing stays open (a studio killed mid-show wrote no offs; what its
            # restart finds on air is opened again from OBS's confirmation)
            for src, key in [k for k in opened if k[0] == e.source]:
                close(src, key, e.ts)
            scene_of.pop(e.source, None)
        elif e.kind == PROGRAM_SCENE:
            prev = scene_of.pop(e.source, None)
            if prev is not None:
                close(e.source, f"scene:{prev}", e.ts)
            if e.subject:  # "" = no scene known (OBS lost)
                scene_of[e.source] = e.subject
                open_(e.source, f"scene:{e.subject}", e.ts, e.id)
    for (source, key), (s, eid) in sorted(opened.items()):
        raw.setdefault(key, []).append(
            Interval(key, s, max(s, end), frozenset([source]), eid, clipped=True, events=(eid,))
        )
        if not key.startswith("scene:"):
            flags.append(f"{_key_zh(key)} 到节目结束仍未下（{source}），已按节目结束时间截断")
    for key in [k for k in raw if k.startswith("film:")]:
        raw[key] = _on_program(raw[key], raw, film_scene)
    windows = watched if watched is not None else [(start, end)]
    out: dict[str, list[Interval]] = {}
    for key, ivs in raw.items():
        cut: list[Interval] = []
        for iv in ivs:
            for a, b in windows:
                lo, hi = max(iv.start, a, start), min(iv.end, b, end)
                if hi > lo:
                    cut.append(
                        Interval(
                            iv.key, lo, hi, iv.sources, iv.start_event, iv.clipped and hi >= iv.end, iv.events
                        )
                    )
        out[key] = merge(cut)
    return out, flags


def _on_program(
    films: list[Interval], raw: dict[str, list[Interval]], scene_of: dict[int, str]
) -> list[Interval]:
    """A film is on air only while program shows the scene it plays in (its start row names it): OBS
    plays it to its end even when program was cut away (by hand, a panic) — those seconds did not air."""
    out: list[Interval] = []
    for iv in films:
        scene = scene_of.get(iv.start_event, "")
        if not scene:
            out.append(iv)
            continue
        for sc in raw.get(f"scene:{scene}", []):
            lo, hi = max(iv.start, sc.start), min(iv.end, sc.end)
            if hi > lo:
                out.append(
                    Interval(
                        iv.key, lo, hi, iv.sources, iv.start_event, iv.clipped and hi >= iv.end, iv.events
                    )
                )
    return out


def merge(intervals: Iterable[Interval], gap: float = MERGE_GAP) -> list[Interval]:
    """One appearance per run of intervals of one key no more than ``gap`` apart; their seconds are
    the union of what was really on air (a gap is never counted)."""
    out: list[Interval] = []
    for iv in sorted(intervals, key=lambda i: (i.start, i.end)):
        parts = iv.parts or ((iv.start, iv.end),)
        if out and iv.start - out[-1].end <= gap:
            cur = out[-1]
            out[-1] = Interval(
                cur.key,
                cur.start,
                max(cur.end, iv.end),
                cur.sources | iv.sources,
                cur.start_event,
                cur.clipped or iv.clipped,
                cur.events + iv.events,
                cur.parts + parts,
            )
            continue
        out.append(
            Interval(iv.key, iv.start, iv.end, iv.sources, iv.start_event, iv.clipped, iv.events, parts)
        )
    return out


def _spans(intervals: Iterable[Interval]) -> list[Span]:
    return [p for i in intervals for p in (i.parts or ((i.start, i.end),))]


def union_seconds(intervals: Iterable[Interval]) -> float:
    return _union(_spans(intervals))


def overlap_seconds(a: Iterable[Interval], b: Iterable[Interval]) -> float:
    sa, sb = _spans(a), _spans(b)
    return max(0.0, _union(sa) + _union(sb) - _union(sa + sb))


def inside(ts: float, spans: Iterable[Span]) -> bool:
    return any(a <= ts <= b for a, b in spans)


def during(ts: float, spans: Iterable[Span]) -> bool:
    """Strictly inside one of ``spans`` (a mark at a film's first or last instant is not during it)."""
    return any(a < ts < b for a, b in spans)


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
    link_at_start: StoredEvent | None = None,
    rehearsal: bool = False,
    chain: ChainCheck | None = None,
) -> EpisodeExposure:
    """The episode's exposure. ``link_at_start``: the last obs_up/obs_down row before the episode began
    (``AsRunLog.link_before``); ``rehearsal``: count the rows of a rehearsal (never proof of air)."""
    flags: list[str] = []
    start, end, unfinished = _bounds(events, info)
    if unfinished:
        flags.append("本期没有记录结束时间（程序未正常停止）：以最后一条播出记录为节目结束")
    # rows of this episode after its end (a studio started again on an episode it had ended, under the
    # same name): they are not credited, and the auditor is told there are some
    late = [
        e
        for e in events
        if e.source in EVIDENCE_SOURCES and e.kind in (GRAPHIC_ON, FILM_START) and e.ts > end
    ]
    if late:
        since = _clock(late[0].ts - start)
        flags.append(
            f"本期结束后另有 {len(late)} 次 OBS 确认的上屏/播片（{since} 起），不计入本期 / "
            f"{len(late)} airings OBS confirmed after this episode's end are not credited to it"
        )
    sources = set(EVIDENCE_SOURCES) | ({"rehearsal"} if rehearsal else set())
    if rehearsal:
        watched: list[Span] = [(start, end)]
        outages: list[Outage] = []
    else:
        watched, outages = watched_spans(events, start, end, link_at_start)
    evidence_rows = [e for e in events if e.source in sources and e.kind not in (OBS_UP, OBS_DOWN)]
    no_evidence = not watched or not evidence_rows
    ivs, more = build_intervals(events, start, end, sources=sources, watched=watched)
    flags.extend(more)
    if rehearsal:
        flags.insert(0, "演练数据：按节目流程的意图计算，不是播出证明")
    elif no_evidence:
        flags.insert(
            0,
            "本期没有任何播出证据（没有 OBS 确认的画面，也没有 OBS 内网页的回报）：不计任何播出 / "
            "no evidence of air in this episode: nothing is credited",
        )
    elif outages:
        total = sum(o.seconds for o in outages)
        flags.insert(0, f"OBS 中断 {len(outages)} 次共 {total:.1f} 秒：中断期间不计任何播出")
    films = [iv for k, v in ivs.items() if k.startswith("film:") for iv in v]
    film_seconds = union_seconds(films)
    # a 口播 the operator took back (keyed by mistake) never aired: it counts nowhere
    retracted = retracted_mentions(events)
    # operator marks count only while OBS was seen (during an outage nothing went out through it) and
    # program showed the show: while a break's film is on program the host's 口播, a studio shot or a draw's
    # close-up is not what went out
    rolling = _spans(films)
    marks = [
        e
        for e in events
        if e.kind in (MENTION, SHOT, DRAW)
        and inside(e.ts, watched)
        and not during(e.ts, rolling)
        and e.id not in retracted
    ]

    exposures: dict[str, SponsorExposure] = {}
    for sid, sp in p.sponsors.items():
        exposures[sid] = SponsorExposure(sid, sp.name, sp.full_name, p.slots_of(sid))
    slots = list(p.slots) + [c for c in p.credits() if c not in p.slots]
    lost = sum(o.seconds for o in outages)
    for slot in slots:
        exp = exposures[slot.sponsor]
        if slot not in exp.slots:
            exp.slots.append(slot)
        exp.metrics.extend(_slot_metrics(p, slot, ivs, marks, start, end, film_seconds, films, lost))
    for sid, exp in exposures.items():
        mentions = _mentions(p, sid, events, marks, retracted, start, rolling)
        if mentions is not None:
            exp.metrics.append(mentions)
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
        outages=outages,
        watched=watched,
        no_evidence=no_evidence and not rehearsal,
        rehearsal=rehearsal,
        chain=chain,
    )


def _bounds(events: list[StoredEvent], info: Episode | None) -> tuple[float, float, bool]:
    """The episode's start and end (its record, else its rows) and whether it has no recorded end."""
    starts = [e.ts for e in events if e.kind == EPISODE_START]
    ends = [e.ts for e in events if e.kind == EPISODE_END]
    if info is not None and info.started is not None:
        start = info.started
    elif starts:
        start = starts[0]
    elif events:
        start = events[0].ts
    else:
        start = 0.0
    unfinished = (info is None or info.ended is None) and not ends
    if info is not None and info.ended is not None:
        end = info.ended
    elif ends:
        end = ends[-1]
    else:
        end = max([e.ts for e in events] + [start])
    return start, end, unfinished


def _mentions(
    p: Placements,
    sid: str,
    events: list[StoredEvent],
    marks: list[StoredEvent],
    retracted: set[int],
    start: float,
    rolling: list[Span] | None = None,
) -> Metric | None:
    """The sponsor's 口播: owed by its slots, said while OBS was seen; missed and taken back noted."""
    owed = sum(int(s.minimums.get("mentions", 0)) for s in p.slots_of(sid))
    said = [e for e in marks if e.kind == MENTION and e.subject == sid]
    taken_back = [e for e in events if e.kind == MENTION and e.subject == sid and e.id in retracted]
    missed = [
        e
        for e in events
        if e.kind == MENTION and e.subject == sid and e not in said and e.id not in retracted
    ]
    if not (owed or said or missed or taken_back):
        return None
    note = _times(said, start)
    in_film = [e for e in missed if during(e.ts, rolling or [])]
    if in_film:
        note += ("；" if note else "") + f"另有 {len(in_film)} 次在插播片子期间（节目画面是片子），不计"
    if len(missed) > len(in_film):
        note += (
            "；" if note else ""
        ) + f"另有 {len(missed) - len(in_film)} 次在 OBS 中断期间或无播出证据，不计"
    if taken_back:
        note += (
            "；" if note else ""
        ) + f"另有 {len(taken_back)} 次按错已撤销（{_times(taken_back, start)}），不计"
    return Metric(
        sid,
        "mentions",
        "主持人口播",
        "口播企业名称",
        "次",
        float(owed) if owed else None,
        float(len(said)),
        note=note,
        evidence=(),
    )


def retracted_mentions(events: Iterable[StoredEvent]) -> set[int]:
    """The ids of the 口播 rows a later ``mention_retract`` row takes back (by the mention's journal
    seq; a mention row without one, by sponsor and time)."""
    events = list(events)
    out: set[int] = set()
    for r in events:
        if r.kind != MENTION_RETRACT:
            continue
        of_seq, of_ts = r.detail.get("of_seq"), r.detail.get("of_ts")
        for e in events:
            if e.kind != MENTION or e.subject != r.subject or e.id in out or e.ts > r.ts:
                continue
            seq = e.detail.get("seq")
            if (seq is not None and seq == of_seq) or (seq is None and of_ts is not None and e.ts == of_ts):
                out.add(e.id)
                break
    return out


def _graphics_of(slots: list[Slot]) -> set[str]:
    return {g for s in slots for g in s.graphics}


def _times(events: list[StoredEvent], start: float) -> str:
    return "、".join(_clock(e.ts - start) for e in events[:12]) + ("…" if len(events) > 12 else "")


def _clock(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    return f"{s // 60:02d}:{s % 60:02d}"


MetricSink = Callable[..., None]  # metric(what, unit, promised, delivered, note="", evidence=(), slack=0.0)


def _airings(slot: Slot, ivs: dict[str, list[Interval]], start: float, metric: MetricSink) -> None:
    """The slot's bumper and film airings (complete ones count), and a 英雄榜 film's following the board."""
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


def _coverage(
    promised: float | None,
    bug: float,
    program: float,
    shown: list[Interval],
    outage_seconds: float,
    metric: MetricSink,
) -> None:
    """The corner bug's coverage of programme time outside films (outage time is time it did not get)."""
    pct = 100.0 * bug / program if program > 0 else 0.0
    slack = 100.0 * COVERAGE_SLACK / program if program > 0 else 0.0
    metric(
        "右上角标覆盖率（不含插播广告）",
        "%",
        promised,
        round(pct, 1),
        f"角标在屏 {bug:.0f} 秒 / 节目 {program:.0f} 秒（缺 {max(0.0, program - bug):.0f} 秒"
        + (f"，其中 OBS 中断 {outage_seconds:.0f} 秒" if outage_seconds >= 0.5 else "")
        + f"；容差 {COVERAGE_SLACK:g} 秒）",
        [e for iv in shown for e in iv.events],
        slack=slack,
    )


def _slot_metrics(
    p: Placements,
    slot: Slot,
    ivs: dict[str, list[Interval]],
    events: list[StoredEvent],
    start: float,
    end: float,
    film_seconds: float,
    films: list[Interval],
    outage_seconds: float = 0.0,
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
    _airings(slot, ivs, start, metric)
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
        Interval("shown", i.start, i.end, i.sources, i.start_event, i.clipped, i.events, i.parts)
        for i in shown
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
    seconds = union_seconds(shown)
    if slot.kind == "special":
        program = max(0.0, (end - start) - film_seconds)
        _coverage(
            mins.get("coverage"),
            seconds - overlap_seconds(shown, films),
            program,
            shown,
            outage_seconds,
            metric,
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
