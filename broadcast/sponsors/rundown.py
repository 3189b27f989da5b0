"""The episode rundown: the cue list the operator (and later the console and the OBS bridge) runs.

Derived from the placements, in the order the package sells (docs/sponsorship.md):

    角标上 → 冠名标版 5 s → 独家特约标版 5 s → 赞助播出标版 5 s each (signing order)
    → [breaks after "opening"] → 奖品介绍 → [after "intro"] → 第 1…N 局 (each followed by its breaks)
    → 九宫格抽奖, one per contestant → [after "draws"] → 英雄榜 → 英雄榜冠名 15 s film → 片尾鸣谢 → 角标下
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass

from broadcast.errors import count
from broadcast.sponsors.placements import Placements, Slot
from broadcast.sponsors.placements.ratecard import CREDIT_ROLES, KIND_LABELS_EN

KIND_ZH = {
    "graphic": "图形",
    "bumper": "标版",
    "film": "宣传片",
    "segment": "环节",
    "draw": "抽奖",
    "leaderboard": "英雄榜",
    "credits": "片尾",
}
KIND_EN = {  # as the console's cue list says them in English (broadcast/i18n/console_en.ts, "Names")
    "graphic": "Graphic",
    "bumper": "Bumper",
    "film": "Film",
    "segment": "Segment",
    "draw": "Draw",
    "leaderboard": "Leaderboard",
    "credits": "Credits",
}


@dataclass(frozen=True)
class Cue:
    id: str  # stable id within the rundown (bumper_title, game_2, draw_3, break_game_1_2 …)
    kind: str  # graphic | bumper | film | segment | draw | leaderboard | credits
    label: str  # what the operator reads (Chinese)
    seconds: int | None  # fixed length, or None when it runs as long as it takes
    graphic: str = ""  # program graphic this cue puts on (or takes off, see action)
    item: str = ""  # the graphic's item (bumper id …)
    action: str = "on"  # on | off | play
    film: str = ""  # film id (kind film)
    film_url: str = ""
    sponsor: str = ""  # sponsor id the cue is owed to
    sponsor_name: str = ""
    notes: str = ""
    # the same generated words in English (the console shows them in its English UI); what the producer
    # typed (sponsor names, a bumper's text, ad lines, prizes) stays inside them as typed
    label_en: str = ""
    notes_en: str = ""

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Rundown:
    episode: str
    air_date: str
    cues: tuple[Cue, ...]

    @property
    def fixed_seconds(self) -> int:
        return sum(c.seconds or 0 for c in self.cues)

    def to_json(self) -> dict[str, object]:
        return {
            "episode": self.episode,
            "air_date": self.air_date,
            "fixed_seconds": self.fixed_seconds,
            "cues": [c.to_json() for c in self.cues],
        }


def build_rundown(p: Placements, *, episode: str = "", contestants: list[str] | None = None) -> Rundown:
    """The episode's cues in the package's order (the module's doc), each segment built by its own
    step; ``contestants`` name the 九宫格 draws (else 选手1 … N)."""
    b = _Builder(p)
    b.opening()
    b.add_breaks("opening")
    b.intro()
    b.add_breaks("intro")
    b.games()
    b.draws(contestants or [f"选手{i}" for i in range(1, p.rundown.contestants + 1)])
    b.add_breaks("draws")
    b.finale()
    return Rundown(episode, p.air_date.isoformat() if p.air_date else "", tuple(b.cues))


def _stand_in_en(who: str) -> str:
    """A contestant's name in English: the stand-in 选手N (no name entered yet) is "Player N"; a name
    entered stays as entered."""
    m = re.fullmatch(r"选手(\d+)", who)
    return f"Player {m.group(1)}" if m else who


class _Builder:
    """Collects the cues, segment by segment."""

    def __init__(self, p: Placements) -> None:
        self.p = p
        self.cues: list[Cue] = []
        self.name = p.sponsor_name
        self.breaks: dict[str, list[str]] = {}
        for brk in p.rundown.breaks:
            self.breaks.setdefault(brk.after, []).extend(brk.items)

    def add_breaks(self, anchor: str) -> None:
        """The 中插 films the rundown puts after ``anchor`` (opening, intro, game N, draws)."""
        p, name = self.p, self.name
        for n, fid in enumerate(self.breaks.get(anchor, ()), start=1):
            f = p.films[fid]
            owner = next(s for s in p.slots if s.film is not None and s.film.id == fid)
            what = "中插广告" if owner.kind == "spot" else f"{owner.label}宣传片"
            what_en = "mid-show spot" if owner.kind == "spot" else f"{owner.label_en} film"
            self.cues.append(
                Cue(
                    id=f"break_{anchor.replace(' ', '_')}_{n}",
                    kind="film",
                    label=f"插播 {what}：{name(f.sponsor)} {f.seconds}秒",
                    seconds=f.seconds,
                    action="play",
                    film=fid,
                    film_url=f.asset.url,
                    sponsor=f.sponsor,
                    sponsor_name=name(f.sponsor),
                    notes=f"片子 {f.asset.rel}",
                    label_en=f"Break: {what_en}: {name(f.sponsor)} {f.seconds} s",
                    notes_en=f"film {f.asset.rel}",
                )
            )

    def opening(self) -> None:
        """The 独家特约 corner bug up, then the bumpers in the package's order."""
        p, name = self.p, self.name
        special = p.one("special")
        if special is not None:
            self.cues.append(
                Cue(
                    id="corner_bug_on",
                    kind="graphic",
                    label=f"右上角标上屏：{name(special.sponsor)}",
                    seconds=None,
                    graphic="corner_bug",
                    item=special.sponsor,
                    sponsor=special.sponsor,
                    sponsor_name=name(special.sponsor),
                    notes="独家特约角标全程在屏（插播广告时段除外）",
                    label_en=f"Corner bug (top right) on: {name(special.sponsor)}",
                    notes_en="the exclusive sponsor's corner bug stays on (not during breaks)",
                )
            )
        for s in p.bumpers_in_order():
            assert s.bumper is not None
            self.cues.append(
                Cue(
                    id=f"bumper_{s.bumper.id}",
                    kind="bumper",
                    label=f"{s.label}标版：{s.bumper.text}",
                    seconds=s.bumper.seconds,
                    graphic="bumper",
                    item=s.bumper.id,
                    sponsor=s.sponsor,
                    sponsor_name=name(s.sponsor),
                    notes="5 秒后下",
                    label_en=f"{s.label_en} bumper: {s.bumper.text}",
                    notes_en="off after 5 s",
                )
            )

    def intro(self) -> None:
        """The host introduces the 九宫格's prizes (and the prize stand's sponsor)."""
        p, name = self.p, self.name
        stand = p.one("prize_stand")
        intro_notes = "主持人口播介绍九宫格奖品、广告语：" + "；".join(
            f"{c.index + 1}.{c.prize}（{name(c.sponsor)}）" for c in p.cells
        )
        intro_en = "the host presents the prize grid's prizes and slogans: " + "; ".join(
            f"{c.index + 1}. {c.prize} ({name(c.sponsor)})" for c in p.cells
        )
        if stand is not None:
            intro_notes += f"。奖品展示台：{name(stand.sponsor)}（够级宝贝展示，记口播）"
            intro_en += f". Prize stand: {name(stand.sponsor)} (shown by the Gouji hostess, mark the mention)"
        self.cues.append(
            Cue(
                id="intro_prizes",
                kind="segment",
                label="奖品九宫格介绍",
                seconds=None,
                graphic="jiugongge",
                item="intro",
                notes=intro_notes,
                label_en="Prize grid introduction",
                notes_en=intro_en,
            )
        )

    def games(self) -> None:
        """The ticker up with the first game, then each game followed by its breaks."""
        p, name = self.p, self.name
        title, table, ticker = p.one("title"), p.one("table"), p.one("ticker")
        match_notes, match_en = [], []
        if title is not None:
            need = int(title.minimums.get("mentions", 0))
            match_notes.append(f"冠名“{name(title.sponsor)}”口播全期 ≥{need} 次（每次请标记）")
            match_en.append(
                f"title sponsor “{name(title.sponsor)}” mentioned ≥{count(need, 'time')} a show (mark each)"
            )
        if table is not None:
            need = int(table.minimums.get("appearances", 0))
            match_notes.append(f"桌面广告（{name(table.sponsor)}）全期出镜 ≥{need} 次")
            match_en.append(f"table ad ({name(table.sponsor)}) seen ≥{count(need, 'time')} a show")
        for g in range(1, p.rundown.games + 1):
            if g == 1 and ticker is not None:
                self.cues.append(
                    Cue(
                        id="ticker_on",
                        kind="graphic",
                        label="底线流字上屏",
                        seconds=None,
                        graphic="ticker",
                        item="ticker",
                        sponsor=ticker.sponsor,
                        sponsor_name=name(ticker.sponsor),
                        notes=" / ".join(ticker.lines),
                        label_en="Ticker on",
                        notes_en=" / ".join(ticker.lines),
                    )
                )
            self.cues.append(
                Cue(
                    id=f"game_{g}",
                    kind="segment",
                    label=f"比赛 第{g}局",
                    seconds=None,
                    graphic="scoreboard",
                    item=f"game {g}",
                    sponsor=title.sponsor if title else "",
                    sponsor_name=name(title.sponsor) if title else "",
                    notes="；".join(match_notes) if g == 1 else "",
                    label_en=f"Match, game {g}",
                    notes_en="; ".join(match_en) if g == 1 else "",
                )
            )
            self.add_breaks(f"game {g}")

    def draws(self, players: list[str]) -> None:
        """One 九宫格 draw per contestant."""
        p, name = self.p, self.name
        board = p.one("jiugongge_board")
        for i, who in enumerate(players, start=1):
            notes = "特写九宫格；主持人口播奖品与格子背面的赞助商"
            notes_en = "close-up of the prize grid; the host names the prize and the sponsor behind the cell"
            if board is not None and i == 1:
                need = int(board.minimums.get("appearances", 0))
                notes += f"；九宫格下方广告（{name(board.sponsor)}）全期出镜 ≥{need} 次"
                notes_en += (
                    f"; board under the grid ({name(board.sponsor)}) seen ≥{count(need, 'time')} a show"
                )
            self.cues.append(
                Cue(
                    id=f"draw_{i}",
                    kind="draw",
                    label=f"九宫格抽奖：{who}",
                    seconds=None,
                    graphic="jiugongge",
                    item=who,
                    notes=notes,
                    label_en=f"Prize grid draw: {_stand_in_en(who)}",
                    notes_en=notes_en,
                )
            )

    def finale(self) -> None:
        """The 英雄榜 and its 冠名 film, the credits, the ticker and the corner bug off."""
        p, name = self.p, self.name
        lb = p.one("leaderboard")
        lb_name = f"（{name(lb.sponsor)}冠名）" if lb is not None else ""
        lb_en = f" (title sponsor {name(lb.sponsor)})" if lb is not None else ""
        self.cues.append(
            Cue(
                id="leaderboard",
                kind="leaderboard",
                label=f"够级英雄榜{lb_name}",
                seconds=None,
                graphic="leaderboard",
                item="rank",
                sponsor=lb.sponsor if lb else "",
                sponsor_name=name(lb.sponsor) if lb else "",
                notes="榜前带冠名企业名称",
                label_en=f"Gouji leaderboard{lb_en}",
                notes_en="the title sponsor's name heads the board",
            )
        )
        if lb is not None and lb.film is not None:
            self.cues.append(
                Cue(
                    id="leaderboard_film",
                    kind="film",
                    label=f"英雄榜冠名宣传片：{name(lb.sponsor)} {lb.film.seconds}秒",
                    seconds=lb.film.seconds,
                    action="play",
                    film=lb.film.id,
                    film_url=lb.film.asset.url,
                    sponsor=lb.sponsor,
                    sponsor_name=name(lb.sponsor),
                    notes="紧接英雄榜播出",
                    label_en=f"Leaderboard title sponsor's film: {name(lb.sponsor)} {lb.film.seconds} s",
                    notes_en="right after the leaderboard",
                )
            )
        credit_names = "、".join(dict.fromkeys(f"{c.role}：{name(c.sponsor)}" for c in p.credits()))
        roles_en = {zh: KIND_LABELS_EN[kind] for kind, zh in CREDIT_ROLES.items()}  # typed roles stay
        credits_en = ", ".join(
            dict.fromkeys(f"{roles_en.get(c.role, c.role)}: {name(c.sponsor)}" for c in p.credits())
        )
        self.cues.append(
            Cue(
                id="credits",
                kind="credits",
                label="片尾鸣谢",
                seconds=None,
                graphic="credits",
                item="end",
                notes=credit_names,
                label_en="End credits",
                notes_en=credits_en,
            )
        )
        if p.one("ticker") is not None:
            self.cues.append(
                Cue(
                    id="ticker_off",
                    kind="graphic",
                    label="底线流字下屏",
                    seconds=None,
                    graphic="ticker",
                    action="off",
                    label_en="Ticker off",
                )
            )
        special = p.one("special")
        if special is not None:
            self.cues.append(
                Cue(
                    id="corner_bug_off",
                    kind="graphic",
                    label="右上角标下屏",
                    label_en="Corner bug (top right) off",
                    seconds=None,
                    graphic="corner_bug",
                    action="off",
                    sponsor=special.sponsor,
                    sponsor_name=name(special.sponsor),
                )
            )


# ------------------------------------------------------------------------------------------ table
def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _clip(text: str, width: int) -> str:
    out = ""
    for ch in text:
        if _width(out + ch) > width - 1:
            return out + "…"
        out += ch
    return out


def format_table(r: Rundown, *, notes_width: int = 60, lang: str = "zh") -> str:
    """The rundown as a text table in ``lang`` ("zh" or "en"): the generated words (labels, notes,
    kinds) in that language; what the producer typed (no English) as typed."""
    en = lang == "en"
    head = f"{'Rundown' if en else '节目流程 rundown'}  {r.episode or ''}  {r.air_date or ''}".rstrip()
    if en:
        rows = [("#", "Start", "Length", "Kind", "Cue", "Sponsor", "Notes")]
    else:
        rows = [("#", "开始", "时长", "类别", "内容", "赞助商", "说明")]
    t = 0
    open_ended = False
    for n, c in enumerate(r.cues, start=1):
        start = f"{'≥' if open_ended else ''}{t // 60:02d}:{t % 60:02d}"
        length = (f"{c.seconds} s" if en else f"{c.seconds}秒") if c.seconds else "—"
        rows.append(
            (
                str(n),
                start,
                length,
                (KIND_EN if en else KIND_ZH)[c.kind],
                (c.label_en or c.label) if en else c.label,
                c.sponsor_name,
                _clip((c.notes_en or c.notes) if en else c.notes, notes_width),
            )
        )
        t += c.seconds or 0
        open_ended = open_ended or (c.seconds is None and c.kind != "graphic")
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [head, ""]
    for i, row in enumerate(rows):
        lines.append("  ".join(_pad(cell, widths[j]) for j, cell in enumerate(row)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    if en:
        lines.append(
            f"Fixed-length items total {r.fixed_seconds} s (bumpers and films); "
            '"—" marks an item as long as it takes.'
        )
    else:
        lines.append(f"定长部分合计 {r.fixed_seconds} 秒（标版与宣传片）；“—”为按实际时长的环节。")
    return "\n".join(lines)


def to_json_text(r: Rundown) -> str:
    return json.dumps(r.to_json(), ensure_ascii=False, indent=2)


def slot_for_film(p: Placements, film_id: str) -> Slot | None:
    return next((s for s in p.slots if s.film is not None and s.film.id == film_id), None)
