"""The placements as typed values: sponsors, contracts, prices, assets, films, bumpers, slots, breaks.

Everything here is frozen and already checked; :class:`Placements` answers the look-ups the rundown,
the exposure report and the show state need. :class:`Issue` and :class:`PlacementError` are how a file's
problems are reported (``file:line:column: 错误: what；how to fix``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from broadcast.errors import GoujiError, count
from broadcast.sponsors.placements.ratecard import (
    CREDIT_ROLES,
    DEFAULT_MINIMUMS,
    KIND_LABELS,
    KIND_LABELS_EN,
    PRICE_UNITS,
)


@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    column: int
    message: str
    fix: str
    level: str = "error"  # "error" or "warning"
    message_en: str = ""  # the same facts in English (the producer's English UI); "" = not translated
    fix_en: str = ""
    topic: str = ""  # what it is about, for the pre-show check's lines: "asset", "contract" or "" (the rest)

    def __str__(self) -> str:
        tag = "错误" if self.level == "error" else "警告"
        fix = f"；{self.fix}" if self.fix else ""
        return f"{self.file}:{self.line}:{self.column}: {tag}: {self.message}{fix}"

    def message_in(self, lang: str = "zh_CN") -> str:
        """The message alone in ``lang`` ("en": English where given, else the Chinese)."""
        return self.message_en or self.message if lang == "en" else self.message

    def text(self, lang: str = "zh_CN") -> str:
        """The message and its fix in ``lang`` ("en": English, falling back to the Chinese where no
        English was given; anything else: Chinese, as ``str()`` shows it, without the location)."""
        if lang == "en" and self.message_en:
            fix_en = self.fix_en or self.fix
            return self.message_en + (f"; {fix_en}" if fix_en else "")
        return self.message + (f"；{self.fix}" if self.fix else "")

    def located(self, lang: str = "zh_CN") -> str:
        """``file:line:column: tag: message；fix`` in ``lang`` (Chinese: exactly ``str()``)."""
        if lang != "en":
            return str(self)
        tag = "error" if self.level == "error" else "warning"
        return f"{self.file}:{self.line}:{self.column}: {tag}: {self.text('en')}"


class PlacementError(GoujiError):
    """The placements file cannot be used; ``issues`` holds every error (and warning) found, each
    ``file:line:col: 错误: …``; ``str()`` lists the errors, one a line."""

    rule = "placements"
    show_rule = False

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        errors = [i for i in issues if i.level == "error"]
        zh = "\n".join(str(i) for i in errors) or "赞助排期无效"
        en_lines = "\n".join(i.located("en") for i in errors)  # English lines, not the Chinese again
        en = (
            f"invalid placements: {count(len(errors), 'error')}\n{en_lines}"
            if errors
            else "invalid placements"
        )
        super().__init__("placements", zh, en)

    def text(self) -> str:
        return self.zh

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.level == "error"]


@dataclass(frozen=True)
class Asset:
    rel: str  # path as written in the file (relative to the file's folder)
    path: Path  # absolute path
    url: str  # where the overlay server serves it (/assets/sponsors/…)
    kind: str  # "image" or "video"
    width: int = 0
    height: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Sponsor:
    id: str
    name: str
    full_name: str
    logo: Asset | None
    line: int


@dataclass(frozen=True)
class Contract:
    signed: datetime | None
    start: date
    end: date
    line: int

    def covers(self, day: date) -> bool:
        return self.start <= day <= self.end


@dataclass(frozen=True)
class Price:
    yuan: int
    per: str  # year | month | episode | airing

    def label(self) -> str:
        return f"{self.yuan:,} 元/{PRICE_UNITS[self.per]}"


@dataclass(frozen=True)
class Bumper:
    id: str
    text: str
    seconds: int


@dataclass(frozen=True)
class Film:
    id: str
    asset: Asset
    seconds: int
    sponsor: str
    slot: str  # key of the slot that owns it
    line: int


@dataclass(frozen=True)
class Slot:
    key: str  # unique: title, special, supporter:1, spot:<id>, cell:3, table …
    kind: str  # one of KIND_LABELS
    sponsor: str  # sponsor id
    contract: Contract | None
    price: Price | None
    logo: Asset | None
    minimums: dict[str, float]
    graphics: tuple[str, ...] = ()
    scenes: tuple[str, ...] = ()
    draws: bool = False  # each 九宫格 draw counts as an appearance
    bumper: Bumper | None = None
    film: Film | None = None
    index: int = 0  # supporters: signing order 1..3; cells 0..8
    prize: str = ""
    slogan: str = ""
    lines: tuple[str, ...] = ()  # ticker lines
    role: str = ""  # credits role
    notes: str = ""
    line: int = 0
    # where the slot is written in the file: ("title",), ("supporters", 0), ("jiugongge", "cells", 4);
    # () for the credit lines derived from other slots. An editor writes a changed slot back there.
    path: tuple[str | int, ...] = ()

    @property
    def label(self) -> str:
        base = KIND_LABELS[self.kind]
        if self.kind == "supporter":
            return f"{base}（第{self.index}家）"
        if self.kind == "cell":
            return f"{base} 第{self.index + 1}格"
        if self.kind == "spot":
            return f"{base} {self.film.seconds if self.film else ''}秒（{self.key.split(':', 1)[1]}）"
        return base

    @property
    def label_en(self) -> str:
        """:attr:`label` in English."""
        base = KIND_LABELS_EN[self.kind]
        if self.kind == "supporter":
            return f"{base} no. {self.index}"
        if self.kind == "cell":
            return f"{base} cell {self.index + 1}"
        if self.kind == "spot":
            return f"{base} {self.film.seconds if self.film else ''} s ({self.key.split(':', 1)[1]})"
        return base


@dataclass(frozen=True)
class Break:
    after: str  # "opening", "intro", "game N", "draws"
    items: tuple[str, ...]  # film ids (spots are referred to by their id = their film's id)
    line: int


@dataclass(frozen=True)
class RundownConfig:
    games: int = 3
    contestants: int = 6
    breaks: tuple[Break, ...] = ()


@dataclass(frozen=True)
class Placements:
    file: str
    digest: str
    show: str
    season: str
    sponsors: dict[str, Sponsor]
    slots: tuple[Slot, ...]
    rundown: RundownConfig
    air_date: date | None = None
    warnings: tuple[Issue, ...] = ()

    # -- look-ups ----------------------------------------------------------------------------
    def of_kind(self, kind: str) -> list[Slot]:
        return [s for s in self.slots if s.kind == kind]

    def one(self, kind: str) -> Slot | None:
        found = self.of_kind(kind)
        return found[0] if found else None

    @property
    def supporters(self) -> list[Slot]:
        return sorted(self.of_kind("supporter"), key=lambda s: s.index)

    @property
    def cells(self) -> list[Slot]:
        return sorted(self.of_kind("cell"), key=lambda s: s.index)

    @property
    def films(self) -> dict[str, Film]:
        return {s.film.id: s.film for s in self.slots if s.film is not None}

    def slots_of(self, sponsor: str) -> list[Slot]:
        return [s for s in self.slots if s.sponsor == sponsor]

    def sponsor_name(self, sponsor: str) -> str:
        sp = self.sponsors.get(sponsor)
        return sp.name if sp else sponsor

    def logo_of(self, slot: Slot) -> Asset | None:
        if slot.logo is not None:
            return slot.logo
        sp = self.sponsors.get(slot.sponsor)
        return sp.logo if sp else None

    def bumpers_in_order(self) -> list[Slot]:
        """The 5 s opening bumpers: 冠名, 独家特约, then 赞助播出 in signing order."""
        out = [s for s in (self.one("title"), self.one("special")) if s is not None]
        return out + self.supporters

    def credits(self) -> list[Slot]:
        """The end-credit lines: 冠名, 独家特约, 赞助播出 (signing order), then the file's own lines."""
        out = [
            Slot(
                key=f"credits:{s.key}",
                kind="credits",
                sponsor=s.sponsor,
                contract=None,
                price=None,
                logo=s.logo,
                minimums=dict(DEFAULT_MINIMUMS["credits"]),
                graphics=("credits",),
                role=CREDIT_ROLES[s.kind],
                line=s.line,
            )
            for s in self.bumpers_in_order()
        ]
        return out + self.of_kind("credits")
