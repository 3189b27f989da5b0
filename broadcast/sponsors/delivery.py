"""The season's delivery per sponsor: promised vs delivered across every episode aired so far, and what
to add in the coming episodes to make each contract whole.

    d = season_delivery(placements, AsRunLog.open(db), upcoming=[("第6期", "2012-05-18"), …])
    write_delivery(d, placements, Path("out/season"))        # XLSX + HTML + PDF, shortfalls in red

Each aired episode is measured by :func:`broadcast.sponsors.exposure.compute` — the episode report's
own code: only what OBS was seen to air counts (an episode without evidence credits nothing; a
rehearsal is never counted). A slot is owed in an episode only when its contract covers that episode's
air date (``Contract.covers``). Counted items (bumpers, films, 口播, shots) that fell short are owed in
the coming episodes the contract still covers; a percentage (the corner bug's coverage) cannot be aired
again and is listed as a shortfall to settle with the sponsor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from broadcast.core.files import atomic_path
from broadcast.sponsors.asrun import AsRunLog, Episode, StoredEvent
from broadcast.sponsors.chain import ChainCheck
from broadcast.sponsors.exposure import EpisodeExposure, Metric, compute
from broadcast.sponsors.placements import PlacementError, Placements, Slot, parse_placements


@dataclass(frozen=True)
class Aired:
    """One episode of the as-run log, as the season view shows it."""

    episode: str
    air_date: str
    no_evidence: bool
    rehearsal: bool
    outage_seconds: float
    flags: tuple[str, ...]


@dataclass(frozen=True)
class Cell:
    """One item in one episode: promised (None: not owed that episode) and delivered."""

    episode: str
    promised: float | None
    delivered: float
    covered: bool  # the contract covered the episode's air date
    short: bool = False  # the episode report's verdict (Metric.shortfall, its tolerance included)


@dataclass
class Line:
    """One promised item of one slot (or a sponsor's 口播) across the season."""

    sponsor: str
    slot_key: str
    slot_label: str
    what: str
    unit: str
    cells: list[Cell] = field(default_factory=list)
    todo: str = ""
    upcoming: tuple[str, ...] = ()  # coming episodes the contract covers

    @property
    def promised(self) -> float:
        return sum(c.promised for c in self.cells if c.promised is not None)

    @property
    def delivered(self) -> float:
        return sum(c.delivered for c in self.cells if c.promised is not None)

    @property
    def owed_episodes(self) -> int:
        return sum(1 for c in self.cells if c.promised is not None)

    @property
    def percent(self) -> bool:
        return self.unit == "%"

    @property
    def owed(self) -> float:
        """What is missing: items (counts), or for a percentage the episodes that fell short (each
        judged as its episode report judged it, tolerance included)."""
        if self.percent:
            return float(sum(1 for c in self.cells if c.short))
        if not any(c.short for c in self.cells):
            return 0.0
        return max(0.0, self.promised - self.delivered)

    @property
    def short(self) -> bool:
        return self.owed > 1e-9

    @property
    def shown_promised(self) -> float:
        return self.promised / self.owed_episodes if self.percent and self.owed_episodes else self.promised

    @property
    def shown_delivered(self) -> float:
        if self.percent:
            owed = [c for c in self.cells if c.promised is not None]
            return round(sum(c.delivered for c in owed) / len(owed), 1) if owed else 0.0
        return self.delivered


@dataclass
class SponsorDelivery:
    sponsor: str
    name: str
    full_name: str
    slots: list[Slot]
    lines: list[Line]

    @property
    def shortfalls(self) -> list[Line]:
        return [ln for ln in self.lines if ln.short]


@dataclass
class SeasonDelivery:
    show: str
    season: str
    aired: list[Aired]
    upcoming: list[tuple[str, str]]  # (episode, air date) not aired yet
    sponsors: list[SponsorDelivery]

    @property
    def shortfalls(self) -> int:
        return sum(len(s.shortfalls) for s in self.sponsors)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _covers(slot: Slot | None, day: date | None) -> bool:
    if slot is None or slot.contract is None or day is None:
        return True
    return slot.contract.covers(day)


def episode_exposures(p: Placements, log: AsRunLog) -> list[EpisodeExposure]:
    """Every episode of the as-run log measured as its episode report measures it, oldest first: by the
    placements it aired with when the file has changed since (their text kept in its record)."""
    out = []
    aired: dict[str, Placements | None] = {}
    for info in sorted(log.episodes(), key=lambda e: (e.started or 0.0, e.episode)):
        q = _as_aired(p, info.placements or {}, aired)
        x = measure_episode(q, log, info.episode, log.events(info.episode), info, air_date=info.air_date)
        if q is not p:
            x.flags.insert(0, f"本期按播出时的排期（{q.digest}）计算，排期文件之后改过 / measured as aired")
        out.append(x)
    return out


def measure_episode(
    p: Placements,
    log: AsRunLog,
    episode: str,
    events: list[StoredEvent],
    info: Episode | None,
    *,
    air_date: str,
    rehearsal: bool = False,
    chain: ChainCheck | None = None,
) -> EpisodeExposure:
    """One episode measured from its as-run log (its prizes, the season's, the link to OBS when it began):
    the one way the episode's report (``report``) and the season's delivery measure it."""
    started = info.started if info is not None and info.started is not None else 0.0
    return compute(
        p,
        episode,
        events,
        info=info,
        prizes=log.prizes(episode),
        season_prizes=log.prizes(),
        air_date=air_date,
        link_at_start=log.link_before(started),
        rehearsal=rehearsal,
        chain=chain,
    )


def _as_aired(p: Placements, stored: dict[str, object], cache: dict[str, Placements | None]) -> Placements:
    """The placements an episode aired with, when they are not ``p`` and its record kept their text."""
    digest, text = str(stored.get("digest", "")), stored.get("text")
    if not digest or digest == p.digest or not isinstance(text, str):
        return p
    if digest not in cache:
        file = str(stored.get("file") or p.file)
        try:
            cache[digest] = parse_placements(text, file, base=Path(file).resolve().parent, digest=digest)
        except PlacementError:  # (never: it was valid when it aired) measured by the file as it is now
            cache[digest] = None
    return cache[digest] or p


def season_delivery(
    p: Placements, log: AsRunLog, *, upcoming: list[tuple[str, str]] | None = None
) -> SeasonDelivery:
    """Promised vs delivered per sponsor over every aired episode; ``upcoming``: the season's episodes
    not aired yet, (name, air date), where what is missing can still be made good."""
    xs = episode_exposures(p, log)
    return season_delivery_of(p, xs, upcoming=upcoming)


def season_delivery_of(
    p: Placements, xs: list[EpisodeExposure], *, upcoming: list[tuple[str, str]] | None = None
) -> SeasonDelivery:
    aired_names = {x.episode for x in xs}
    coming = [(name, day) for name, day in (upcoming or []) if name not in aired_names]
    slots = {s.key: s for s in list(p.slots) + list(p.credits())}
    lines: dict[tuple[str, str, str], Line] = {}
    order: list[tuple[str, str, str]] = []
    for x in xs:
        day = _day(x.air_date)
        for s in x.sponsors:
            for m in s.metrics:
                key = (m.sponsor, m.slot_key, m.what)
                if key not in lines:
                    lines[key] = Line(m.sponsor, m.slot_key, m.slot_label, m.what, m.unit)
                    order.append(key)
                lines[key].cells.append(_cell(p, slots, x, m, day))
    for line in lines.values():
        slot = slots.get(line.slot_key)
        line.upcoming = tuple(
            name
            for name, d in coming
            if (slot is None and _any_covers(p, line.sponsor, _day(d))) or _covers(slot, _day(d))
        )
        line.todo = _todo(line)
    sponsors = []
    for sid, sp in p.sponsors.items():
        mine = [lines[k] for k in order if k[0] == sid]
        if mine or p.slots_of(sid):
            sponsors.append(SponsorDelivery(sid, sp.name, sp.full_name, p.slots_of(sid), mine))
    aired = [
        Aired(
            x.episode,
            x.air_date,
            x.no_evidence,
            x.rehearsal,
            round(x.outage_seconds, 1),
            tuple(x.flags),
        )
        for x in xs
    ]
    return SeasonDelivery(p.show, p.season, aired, coming, sponsors)


def _any_covers(p: Placements, sponsor: str, day: date | None) -> bool:
    return any(_covers(s, day) for s in p.slots_of(sponsor) if s.minimums.get("mentions"))


def _cell(p: Placements, slots: dict[str, Slot], x: EpisodeExposure, m: Metric, day: date | None) -> Cell:
    if m.slot_key == "mentions":  # 口播 are owed per sponsor: the slots whose contract covers the day
        owed = sum(int(s.minimums.get("mentions", 0)) for s in p.slots_of(m.sponsor) if _covers(s, day))
        covered = owed > 0 or m.promised is None
        promised = float(owed) if m.promised is not None and owed else None
        short = promised is not None and m.delivered + m.slack + 1e-9 < promised
        return Cell(x.episode, promised, m.delivered, covered, short)
    covered = _covers(slots.get(m.slot_key), day)
    return Cell(x.episode, m.promised if covered else None, m.delivered, covered, covered and m.shortfall)


def _todo(line: Line) -> str:
    """What to add in the coming episodes (Chinese; the producer's words)."""
    if not line.short:
        return ""
    if line.percent:
        return f"{int(line.owed)} 期未达标，已播出的时长无法补回：后续各期确保全程在屏，并与赞助商协商补偿"
    owed = int(math.ceil(line.owed - 1e-9))
    if not line.upcoming:
        return f"欠 {owed} {line.unit}，合同期内已没有待播的节目：与赞助商协商补偿或延长合同"
    n = len(line.upcoming)
    per = int(math.ceil(owed / n))
    use = line.upcoming[: int(math.ceil(owed / per))]
    where = "、".join(use) + ("各" if len(use) > 1 else "")
    if line.slot_key == "mentions":
        how = f"多口播 {per} 次（主持人念企业名称）"
    elif "标版" in line.what:
        how = f"多播 {per} 次标版"
    elif "宣传片" in line.what or "中插" in line.what:
        how = f"在插播时段（rundown.breaks）多排 {per} 次"
    else:
        how = f"多给 {per} 次镜头"
    return f"补 {owed} {line.unit}：{where}{how}"


# ----------------------------------------------------------------------------------------------- export
def write_delivery(d: SeasonDelivery, p: Placements, out_dir: Path, *, pdf: bool = True) -> list[Path]:
    """``赞助商季度播出_<season>.xlsx`` / ``.html`` / ``.pdf`` (the episode report's machinery: openpyxl,
    the Jinja2 templates, headless Chromium); each file written whole or not at all."""
    from broadcast.sponsors.report import html_to_pdf, render_template, safe_name

    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"赞助商季度播出_{safe_name(d.season or d.show)}"
    paths = [write_delivery_xlsx(d, out_dir / f"{stem}.xlsx")]
    text = render_template("season.html.j2", delivery_context(d, p))
    html_path = out_dir / f"{stem}.html"
    with atomic_path(html_path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    paths.append(html_path)
    if pdf:
        pdf_path = out_dir / f"{stem}.pdf"
        with atomic_path(pdf_path) as tmp:
            html_to_pdf([(text, tmp)])
        paths.append(pdf_path)
    return paths


def fmt(value: float) -> str:
    return f"{value:g}" if abs(value - round(value)) > 1e-9 else str(int(round(value)))


def write_delivery_xlsx(d: SeasonDelivery, path: Path) -> Path:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    from broadcast.sponsors.report import RED_FILL, RED_FONT, _head, _widths

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "季度汇总"
    ws.append([f"《{d.show}》{d.season} 赞助商季度播出（截至 {d.aired[-1].episode if d.aired else '—'}）"])
    ws["A1"].font = Font(size=14, bold=True)
    ws.append(["已播期数", len(d.aired), "待播期数", len(d.upcoming), "未达标项目", d.shortfalls])
    ws.append([])
    head = ("赞助商", "广告位", "项目", "累计承诺", "累计实际", "单位", "欠", "结果", "后续补足")
    ws.append(head)
    _head(ws, ws.max_row)
    for s in d.sponsors:
        for ln in s.lines:
            if ln.owed_episodes == 0:
                continue
            ws.append(
                [
                    s.name,
                    ln.slot_label,
                    ln.what,
                    fmt(ln.shown_promised),
                    fmt(ln.shown_delivered),
                    ln.unit,
                    fmt(ln.owed) + (" 期" if ln.percent else ""),
                    "未达标" if ln.short else "达标",
                    ln.todo,
                ]
            )
            if ln.short:
                for cell in ws[ws.max_row]:
                    cell.fill = RED_FILL
                    cell.font = RED_FONT
    _widths(ws, [14, 24, 26, 10, 10, 6, 8, 8, 70])
    ws.freeze_panes = "A5"
    per = wb.create_sheet("每期明细")
    per.append(["赞助商", "广告位", "项目", "单位"] + [a.episode for a in d.aired])
    _head(per, 1)
    for s in d.sponsors:
        for ln in s.lines:
            cells = {c.episode: c for c in ln.cells}
            row: list[object] = [s.name, ln.slot_label, ln.what, ln.unit]
            for a in d.aired:
                c = cells.get(a.episode)
                if c is None:
                    row.append("")
                elif c.promised is None:
                    row.append(f"{fmt(c.delivered)}（{'合同未覆盖' if not c.covered else '不计'}）")
                else:
                    row.append(f"{fmt(c.delivered)}/{fmt(c.promised)}")
            per.append(row)
            for a, cell in zip(d.aired, per[per.max_row][4:], strict=False):
                c = cells.get(a.episode)
                if c is not None and c.short:
                    cell.fill = RED_FILL
                    cell.font = RED_FONT
    _widths(per, [14, 24, 26, 6] + [11] * len(d.aired))
    eps = wb.create_sheet("各期")
    eps.append(["期数", "播出日期", "播出证据", "OBS 中断（秒）", "提示"])
    _head(eps, 1)
    for a in d.aired:
        evidence = "演练（不计）" if a.rehearsal else ("无（不计任何播出）" if a.no_evidence else "有")
        eps.append([a.episode, a.air_date, evidence, a.outage_seconds, "；".join(a.flags)])
    for name, day in d.upcoming:
        eps.append([name, day, "待播", "", ""])
    _widths(eps, [10, 12, 18, 14, 80])
    with atomic_path(path) as tmp:
        wb.save(tmp)
    return path


def delivery_context(d: SeasonDelivery, p: Placements) -> dict[str, object]:
    from importlib.resources import files

    from broadcast.sponsors.report import _logo_uri

    return {
        "title": f"《{d.show}》{d.season} 赞助商季度播出",
        "css": (files("broadcast.sponsors") / "templates" / "report.css").read_text(encoding="utf-8"),
        "aired": d.aired,
        "upcoming": d.upcoming,
        "shortfalls": d.shortfalls,
        "through": d.aired[-1].episode if d.aired else "—",
        "sponsors": [
            {
                "name": s.name,
                "full_name": s.full_name,
                "logo": _logo_uri(p.sponsors[s.sponsor].logo if s.sponsor in p.sponsors else None),
                "short": len(s.shortfalls),
                "lines": [
                    {
                        "slot": ln.slot_label,
                        "what": ln.what,
                        "promised": fmt(ln.shown_promised),
                        "delivered": fmt(ln.shown_delivered),
                        "unit": ln.unit,
                        "owed": fmt(ln.owed) + (" 期" if ln.percent else ""),
                        "short": ln.short,
                        "todo": ln.todo,
                        "cells": [
                            {
                                "episode": c.episode,
                                "text": (
                                    f"{fmt(c.delivered)}/{fmt(c.promised)}"
                                    if c.promised is not None
                                    else ("合同未覆盖" if not c.covered else "—")
                                ),
                                "short": c.short,
                            }
                            for c in ln.cells
                        ],
                    }
                    for ln in s.lines
                    if ln.owed_episodes
                ],
            }
            for s in d.sponsors
        ],
    }
