"""Sponsor placements: the YAML format, its validation (file:line on every error) and the typed model.

    placements = load_placements("sponsor_assets/demo/placements.yaml", air_date=date(2012, 5, 7))

The file is composed with ``yaml.compose`` so every node keeps its line; each error names
``file:line:column`` and says how to fix it. Loading is all-or-nothing: either a complete
:class:`Placements` comes back or :class:`PlacementError` lists every problem found. The format is
documented in ``docs/sponsors.md`` and ``sponsor_assets/README.md``.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from broadcast.show.actions import GRAPHICS
from broadcast.sponsors import media

FORMAT = "gouji-placements/1"
ASSETS_URL = "/assets/sponsors/"
SPONSOR_ASSETS_DIR = Path(__file__).resolve().parents[2] / "sponsor_assets"

# slot kinds, in the order the package lists them, with their Chinese names
KIND_LABELS: dict[str, str] = {
    "title": "冠名",
    "special": "独家特约播出",
    "supporter": "赞助播出",
    "spot": "中插广告",
    "cell": "奖品九宫格",
    "jiugongge_board": "九宫格下方广告位",
    "prize_stand": "奖品展示台",
    "table": "桌面广告位",
    "leaderboard": "够级英雄榜冠名",
    "commentary": "解说区电脑背面",
    "shirts": "选手文化衫",
    "ticker": "底线流字",
    "credits": "片尾鸣谢",
}
EXCLUSIVE = (
    "title",
    "special",
    "jiugongge_board",
    "prize_stand",
    "table",
    "leaderboard",
    "commentary",
    "shirts",
)
MAX_SUPPORTERS = 3
SPOT_LENGTHS = (5, 10, 15, 20, 30)
SPOT_LIST_PRICE = {5: 1000, 10: 1700, 15: 2500, 20: 3200, 30: 4400}
FILM_LENGTH = {"title": 15, "special": 15, "supporter": 10, "leaderboard": 15}
BUMPER_SECONDS = 5
FILM_TOLERANCE = 0.5  # seconds between the declared and the real length of a film

MINIMUM_KEYS: dict[str, str] = {
    "mentions": "主持人口播次数",
    "appearances": "出镜次数",
    "seconds": "在屏秒数",
    "bumper": "5 秒标版播出次数",
    "film": "宣传片播出次数",
    "coverage": "角标覆盖节目时长百分比",
    "draws": "九宫格被抽中次数",
}
# what SPONSORSHIP.md promises per episode when the file says nothing
DEFAULT_MINIMUMS: dict[str, dict[str, float]] = {
    "title": {"mentions": 5, "bumper": 1, "film": 1},
    "special": {"bumper": 1, "film": 1, "coverage": 100},
    "supporter": {"bumper": 1, "film": 1},
    "spot": {"film": 1},
    "cell": {},
    "jiugongge_board": {"appearances": 4},
    "prize_stand": {"mentions": 1},
    "table": {"appearances": 5},
    "leaderboard": {"appearances": 1, "film": 1},
    "commentary": {},
    "shirts": {},
    "ticker": {},
    "credits": {"appearances": 1},
}
# which program graphics put a slot on screen when the file says nothing (see docs/sponsors.md)
DEFAULT_GRAPHICS: dict[str, tuple[str, ...]] = {
    "title": ("scoreboard",),  # name + logo at the centre of the game platform
    "special": ("corner_bug",),  # 右上角标 for the whole broadcast
    "leaderboard": ("leaderboard",),
    "commentary": ("commentary",),
    "ticker": ("ticker",),
    "credits": ("credits",),
}
DEFAULT_DRAWS = ("jiugongge_board",)  # each 九宫格 draw close-up shows the board under the grid
PRICE_UNITS = {"year": "年", "month": "月", "episode": "期", "airing": "次"}


# ------------------------------------------------------------------------------------------- model
@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    column: int
    message: str
    fix: str
    level: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        tag = "错误" if self.level == "error" else "警告"
        fix = f"；{self.fix}" if self.fix else ""
        return f"{self.file}:{self.line}:{self.column}: {tag}: {self.message}{fix}"


class PlacementError(Exception):
    """The placements file cannot be used; ``issues`` holds every error (and warning) found."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        errors = [i for i in issues if i.level == "error"]
        super().__init__("\n".join(str(i) for i in errors) or "invalid placements")

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

    # -- the show state's sponsor sections ---------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """The ``sponsors.load`` payload: the data itself (journal replay never reads the file)."""

        def url(a: Asset | None) -> str:
            return a.url if a is not None else ""

        def brand(kind: str) -> dict[str, str]:
            s = self.one(kind)
            if s is None:
                return {"name": "", "logo": ""}
            return {"name": self.sponsor_name(s.sponsor), "logo": url(self.logo_of(s))}

        sponsors: dict[str, Any] = {
            k: brand(k)
            for k in (
                "title",
                "special",
                "leaderboard",
                "commentary",
                "table",
                "jiugongge_board",
                "prize_stand",
                "shirts",
            )
        }
        sponsors["supporters"] = [
            {"name": self.sponsor_name(s.sponsor), "logo": url(self.logo_of(s))} for s in self.supporters
        ]
        sponsors["bumpers"] = [
            {
                "id": s.bumper.id,
                "text": s.bumper.text,
                "logo": url(self.logo_of(s)),
                "seconds": s.bumper.seconds,
            }
            for s in self.bumpers_in_order()
            if s.bumper is not None
        ]
        ticker = self.one("ticker")
        sponsors["ticker"] = list(ticker.lines) if ticker else []
        sponsors["credits"] = [
            {"role": s.role, "name": self.sponsor_name(s.sponsor), "logo": url(self.logo_of(s))}
            for s in self.credits()
        ]
        sponsors["films"] = [
            {
                "id": f.id,
                "sponsor": f.sponsor,
                "name": self.sponsor_name(f.sponsor),
                "url": f.asset.url,
                "seconds": f.seconds,
                "slot": f.slot,
            }
            for f in self.films.values()
        ]
        mentions_min: dict[str, int] = {}
        for s in self.slots:
            mentions_min[s.sponsor] = mentions_min.get(s.sponsor, 0) + int(s.minimums.get("mentions", 0))
        sponsors["roster"] = [
            {"id": sp.id, "name": sp.name, "logo": url(sp.logo), "mentions_min": mentions_min.get(sp.id, 0)}
            for sp in self.sponsors.values()
        ]
        cells = [
            {
                "prize": c.prize,
                "sponsor": self.sponsor_name(c.sponsor),
                "sponsor_id": c.sponsor,
                "slogan": c.slogan,
                "logo": url(self.logo_of(c)),
            }
            for c in self.cells
        ]
        return {
            "sponsors": sponsors,
            "cells": cells,
            "source": {
                "file": str(Path(self.file).resolve()),
                "digest": self.digest,
                "air_date": self.air_date.isoformat() if self.air_date else "",
            },
        }

    def credits(self) -> list[Slot]:
        """The end-credit lines: 冠名, 独家特约, 赞助播出 (signing order), then the file's own lines."""
        out: list[Slot] = []
        for s in self.bumpers_in_order():
            role = {"title": "独家冠名播出", "special": "独家特约播出", "supporter": "赞助播出"}[s.kind]
            out.append(
                Slot(
                    key=f"credits:{s.key}",
                    kind="credits",
                    sponsor=s.sponsor,
                    contract=None,
                    price=None,
                    logo=s.logo,
                    minimums=dict(DEFAULT_MINIMUMS["credits"]),
                    graphics=("credits",),
                    role=role,
                    line=s.line,
                )
            )
        out.extend(self.of_kind("credits"))
        return out


# ----------------------------------------------------------------------------------------- reader
_TAG = "tag:yaml.org,2002:"


class _Reader:
    """Typed access to composed YAML nodes; every problem becomes an :class:`Issue` with the node's line."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.issues: list[Issue] = []
        self.key_of: dict[int, Node] = {}  # id(value node) → its key node

    def error(self, node: Node | None, message: str, fix: str = "", level: str = "error") -> None:
        if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and id(node) in self.key_of:
            node = self.key_of[id(node)]  # a block collection: point at its key, not its first item
        line = node.start_mark.line + 1 if node is not None else 1
        col = node.start_mark.column + 1 if node is not None else 1
        self.issues.append(Issue(self.file, line, col, message, fix, level))

    def warn(self, node: Node | None, message: str, fix: str = "") -> None:
        self.error(node, message, fix, level="warning")

    def line(self, node: Node) -> int:
        """The line a value belongs to: its key's line for block collections."""
        if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and id(node) in self.key_of:
            node = self.key_of[id(node)]
        return int(node.start_mark.line) + 1

    def mapping(
        self, node: Node, what: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> dict[str, Node] | None:
        if not isinstance(node, MappingNode):
            self.error(
                node,
                f"{what} 应为映射（key: value），这里是 {_describe(node)}",
                "按 docs/sponsors.md 的格式写成 key: value 的形式",
            )
            return None
        out: dict[str, Node] = {}
        allowed = required + optional
        for knode, vnode in node.value:
            key = knode.value if isinstance(knode, ScalarNode) else None
            if not isinstance(key, str):
                self.error(knode, f"{what} 的键应为文字", "把键写成普通文字")
                continue
            if key in out:
                self.error(knode, f"{what} 中 {key!r} 出现了两次", f"删除重复的 {key}，只保留一个")
                continue
            if key not in allowed:
                near = difflib.get_close_matches(key, allowed, n=1)
                hint = f"是不是 {near[0]!r}？" if near else ""
                self.error(knode, f"{what} 没有字段 {key!r}", f"{hint}可用字段：{', '.join(allowed)}")
                continue
            out[key] = vnode
            self.key_of[id(vnode)] = knode
        for key in required:
            if key not in out:
                self.error(node, f"{what} 缺少必填字段 {key!r}", f"加上 {key}: …")
        return out

    def seq(self, node: Node, what: str) -> list[Node] | None:
        if not isinstance(node, SequenceNode):
            self.error(
                node, f"{what} 应为列表（每项以 - 开头），这里是 {_describe(node)}", "写成 - 开头的列表"
            )
            return None
        return list(node.value)

    def text(self, node: Node, what: str, *, allow_empty: bool = False) -> str | None:
        if not isinstance(node, ScalarNode) or node.tag in (_TAG + "null", _TAG + "bool"):
            self.error(node, f"{what} 应为文字，这里是 {_describe(node)}", "写成文字（必要时加引号）")
            return None
        value = str(node.value).strip()
        if not value and not allow_empty:
            self.error(node, f"{what} 不能为空", "填写内容")
            return None
        return value

    def ident(self, node: Node, what: str) -> str | None:
        value = self.text(node, what)
        if value is not None and not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", value):
            self.error(
                node,
                f"{what} {value!r} 不是合法的编号",
                "编号只用小写英文字母、数字、下划线和减号（如 xiaodangjia、spot_douchi_15）",
            )
            return None
        return value

    def integer(
        self, node: Node, what: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        if not isinstance(node, ScalarNode) or node.tag != _TAG + "int":
            self.error(node, f"{what} 应为整数，这里是 {_describe(node)}", "写一个不带引号的整数")
            return None
        value = int(str(node.value).replace("_", ""), 0)
        if minimum is not None and value < minimum:
            self.error(node, f"{what} 为 {value}，不能小于 {minimum}", f"改为 ≥ {minimum} 的数")
            return None
        if maximum is not None and value > maximum:
            self.error(node, f"{what} 为 {value}，不能大于 {maximum}", f"改为 ≤ {maximum} 的数")
            return None
        return value

    def number(self, node: Node, what: str, *, minimum: float = 0.0) -> float | None:
        if not isinstance(node, ScalarNode) or node.tag not in (_TAG + "int", _TAG + "float"):
            self.error(node, f"{what} 应为数字，这里是 {_describe(node)}", "写一个不带引号的数字")
            return None
        try:
            value = float(str(node.value).replace("_", ""))
        except ValueError:
            self.error(node, f"{what} {node.value!r} 不是数字", "写一个数字")
            return None
        if value < minimum:
            self.error(node, f"{what} 为 {value:g}，不能小于 {minimum:g}", f"改为 ≥ {minimum:g} 的数")
            return None
        return value

    def day(self, node: Node, what: str) -> date | None:
        moment = self.moment(node, what)
        return moment.date() if moment is not None else None

    def moment(self, node: Node, what: str) -> datetime | None:
        raw = str(node.value).strip() if isinstance(node, ScalarNode) else None
        if raw is not None:
            for fmt in ("%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"):
                try:
                    return datetime.strptime(raw, fmt)
                except ValueError:
                    pass
        self.error(
            node,
            f"{what} 应为日期 YYYY-MM-DD（签约时间可写 YYYY-MM-DD HH:MM），这里是 {_describe(node)}",
            "例如 2012-04-01",
        )
        return None

    def texts(self, node: Node, what: str) -> list[tuple[str, Node]]:
        items = self.seq(node, what)
        out: list[tuple[str, Node]] = []
        for i, item in enumerate(items or []):
            value = self.text(item, f"{what}第{i + 1}项")
            if value is not None:
                out.append((value, item))
        return out


def _describe(node: Node | None) -> str:
    if isinstance(node, MappingNode):
        return "映射"
    if isinstance(node, SequenceNode):
        return "列表"
    if isinstance(node, ScalarNode):
        if node.tag == _TAG + "null" or node.value == "":
            return "空值"
        return repr(str(node.value))
    return "空"


# ----------------------------------------------------------------------------------------- loader
COMMON_OPTIONAL = ("logo", "minimums", "on_air", "notes")


@dataclass
class _Build:
    r: _Reader
    base: Path  # the file's folder: asset paths are relative to it
    root: Path  # the served folder (/assets/sponsors/ = root)
    air_date: date | None
    sponsors: dict[str, Sponsor] = field(default_factory=dict)
    sponsor_nodes: dict[str, Node] = field(default_factory=dict)
    slots: list[Slot] = field(default_factory=list)
    film_nodes: dict[str, Node] = field(default_factory=dict)
    break_nodes: list[Node] = field(default_factory=list)


def load_placements(
    path: str | Path, *, air_date: date | None = None, assets_root: str | Path | None = None
) -> Placements:
    """Read, validate and return the placements; raise :class:`PlacementError` listing every problem."""
    p = Path(path)
    shown = str(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise PlacementError(
            [Issue(shown, 1, 1, f"无法读取文件（{exc.strerror or exc}）", "检查路径是否正确")]
        ) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise PlacementError([Issue(shown, line, 1, "文件不是 UTF-8 编码", "用 UTF-8 保存文件")]) from exc
    return parse_placements(
        text,
        shown,
        base=p.resolve().parent,
        air_date=air_date,
        assets_root=assets_root,
        digest=hashlib.sha256(raw).hexdigest()[:16],
    )


def parse_placements(
    text: str,
    filename: str,
    *,
    base: Path,
    air_date: date | None = None,
    assets_root: str | Path | None = None,
    digest: str = "",
) -> Placements:
    r = _Reader(filename)
    try:
        root_node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise PlacementError(
            [
                Issue(
                    filename,
                    line,
                    col,
                    f"YAML 语法错误：{exc.problem or exc}",
                    "检查缩进、冒号后的空格和引号是否成对",
                )
            ]
        ) from exc
    except yaml.YAMLError as exc:
        raise PlacementError([Issue(filename, 1, 1, f"YAML 错误：{exc}", "检查文件格式")]) from exc
    if root_node is None:
        raise PlacementError([Issue(filename, 1, 1, "文件是空的", "按 docs/sponsors.md 写排期")])
    root = _served_root(base, assets_root)
    b = _Build(r, base, root, air_date)
    top = r.mapping(
        root_node,
        "排期文件",
        ("format", "sponsors", "title"),
        (
            "show",
            "season",
            "special",
            "supporters",
            "spots",
            "jiugongge",
            "jiugongge_board",
            "prize_stand",
            "table",
            "leaderboard",
            "commentary",
            "shirts",
            "ticker",
            "credits",
            "rundown",
        ),
    )
    if top is None:
        raise PlacementError(r.issues)
    fmt = r.text(top["format"], "format") if "format" in top else None
    if "format" in top and fmt is not None and fmt != FORMAT:
        r.error(top["format"], f"不认识的格式版本 {fmt!r}", f"写 format: {FORMAT}")
    show = r.text(top["show"], "show") if "show" in top else "够级大明星"
    season = r.text(top["season"], "season") if "season" in top else ""
    if "sponsors" in top:
        _sponsors(b, top["sponsors"])
    if "title" in top:
        if isinstance(top["title"], SequenceNode):
            r.error(
                top["title"],
                "冠名只能有一家，这里是列表",
                "title 写成一个映射（sponsor: …），其他企业改为独家特约或赞助播出",
            )
        else:
            _broadcast_slot(b, top["title"], "title", "title")
    if "special" in top:
        if isinstance(top["special"], SequenceNode):
            r.error(top["special"], "独家特约播出只能有一家，这里是列表", "special 写成一个映射")
        else:
            _broadcast_slot(b, top["special"], "special", "special")
    if "supporters" in top:
        _supporters(b, top["supporters"])
    if "spots" in top:
        _spots(b, top["spots"])
    if "jiugongge" in top:
        _jiugongge(b, top["jiugongge"])
    for kind in ("jiugongge_board", "prize_stand", "table", "leaderboard", "commentary", "shirts"):
        if kind in top:
            if isinstance(top[kind], SequenceNode):
                r.error(top[kind], f"{KIND_LABELS[kind]}是独家广告位，只能有一家", f"{kind} 写成一个映射")
            else:
                _plain_slot(b, top[kind], kind)
    if "ticker" in top:
        _ticker(b, top["ticker"])
    if "credits" in top:
        _credits(b, top["credits"])
    rundown = _rundown(b, top["rundown"]) if "rundown" in top else RundownConfig()
    _cross_rules(b, rundown)
    errors = [i for i in r.issues if i.level == "error"]
    if errors:
        raise PlacementError(sorted(r.issues, key=lambda i: (i.line, i.column)))
    return Placements(
        file=filename,
        digest=digest,
        show=show or "够级大明星",
        season=season or "",
        sponsors=dict(b.sponsors),
        slots=tuple(b.slots),
        rundown=rundown,
        air_date=air_date,
        warnings=tuple(sorted(r.issues, key=lambda i: (i.line, i.column))),
    )


def _served_root(base: Path, assets_root: str | Path | None) -> Path:
    if assets_root is not None:
        return Path(assets_root).resolve()
    try:
        base.relative_to(SPONSOR_ASSETS_DIR)
        return SPONSOR_ASSETS_DIR
    except ValueError:
        return base


def _asset(b: _Build, node: Node, what: str, kind: str) -> Asset | None:
    rel = b.r.text(node, what)
    if rel is None:
        return None
    if Path(rel).is_absolute() or rel.startswith("~"):
        b.r.error(node, f"{what} {rel!r} 是绝对路径", "写成相对于排期文件所在文件夹的路径（如 logos/x.png）")
        return None
    path = (b.base / rel).resolve()
    try:
        served = path.relative_to(b.root)
    except ValueError:
        b.r.error(
            node,
            f"{what} {rel!r} 在素材文件夹 {b.root} 之外，图形服务器无法提供",
            "把文件放进 sponsor_assets/ 里并改写路径",
        )
        return None
    if not path.is_file():
        b.r.error(
            node,
            f"{what} 文件不存在：{rel}",
            "检查文件名（区分大小写），或先运行 python sponsor_assets/make_demo_assets.py 生成演示素材",
        )
        return None
    url = ASSETS_URL + served.as_posix()
    try:
        if kind == "image":
            info = media.probe_image(path)
            return Asset(rel, path, url, "image", width=info.width, height=info.height)
        vinfo = media.probe_video(path)
        return Asset(rel, path, url, "video", seconds=vinfo.seconds)
    except media.MediaError as exc:
        want = "PNG/JPEG/WebP 图片" if kind == "image" else "MP4（H.264）视频"
        b.r.error(node, f"{what} {rel} {exc}", f"换成真正的{want}")
        return None
    except OSError as exc:
        b.r.error(node, f"{what} {rel} 无法读取（{exc}）", "检查文件权限")
        return None


def _sponsors(b: _Build, node: Node) -> None:
    if not isinstance(node, MappingNode):
        b.r.error(
            node,
            f"sponsors 应为映射（编号: {{name, logo}}），这里是 {_describe(node)}",
            "按 docs/sponsors.md 登记赞助企业",
        )
        return
    if not node.value:
        b.r.error(node, "sponsors 是空的", "至少登记一家赞助企业")
    for knode, vnode in node.value:
        sid = b.r.ident(knode, "赞助商编号")
        if sid is None:
            continue
        if sid in b.sponsors or sid in b.sponsor_nodes:
            b.r.error(knode, f"赞助商编号 {sid!r} 登记了两次", "删掉重复的一项，或换一个编号")
            continue
        b.sponsor_nodes[sid] = knode
        f = b.r.mapping(vnode, f"赞助商 {sid}", ("name",), ("full_name", "logo", "contact"))
        if f is None:
            continue
        name = b.r.text(f["name"], f"赞助商 {sid} 的 name")
        full = b.r.text(f["full_name"], f"赞助商 {sid} 的 full_name") if "full_name" in f else None
        if "contact" in f:
            b.r.text(f["contact"], f"赞助商 {sid} 的 contact", allow_empty=True)
        logo = _asset(b, f["logo"], f"赞助商 {sid} 的 logo", "image") if "logo" in f else None
        if name is not None:
            b.sponsors[sid] = Sponsor(sid, name, full or name, logo, knode.start_mark.line + 1)


def _sponsor_ref(b: _Build, node: Node, what: str) -> str | None:
    sid = b.r.text(node, f"{what} 的 sponsor")
    if sid is None:
        return None
    if sid not in b.sponsor_nodes:
        near = difflib.get_close_matches(sid, list(b.sponsor_nodes), n=1)
        hint = f"是不是 {near[0]!r}？" if near else ""
        b.r.error(
            node,
            f"{what} 的赞助商 {sid!r} 没有在 sponsors 里登记",
            f"{hint}先在 sponsors: 下登记它（name、logo）",
        )
        return None
    return sid


def _contract(b: _Build, node: Node, what: str, *, need_signed: bool) -> Contract | None:
    f = b.r.mapping(
        node,
        f"{what} 的 contract",
        ("start", "end") + (("signed",) if need_signed else ()),
        () if need_signed else ("signed",),
    )
    if f is None:
        return None
    start = b.r.day(f["start"], f"{what} 合同开始日期") if "start" in f else None
    end = b.r.day(f["end"], f"{what} 合同结束日期") if "end" in f else None
    signed = b.r.moment(f["signed"], f"{what} 签约日期") if "signed" in f else None
    if start is None or end is None:
        return None
    if end < start:
        b.r.error(f["end"], f"{what} 合同结束日期 {end} 早于开始日期 {start}", "检查合同日期")
        return None
    if b.air_date is not None and not (start <= b.air_date <= end):
        b.r.error(
            node,
            f"{what} 的合同（{start} 至 {end}）不包含本期播出日期 {b.air_date}",
            "续签并更新合同日期，或把这个广告位从本期排期中删除",
        )
    return Contract(signed, start, end, b.r.line(node))


def _price(b: _Build, node: Node, what: str, *, per: str | None = None) -> Price | None:
    f = b.r.mapping(node, f"{what} 的 price", ("yuan", "per"), ())
    if f is None:
        return None
    yuan = b.r.integer(f["yuan"], f"{what} 价格（元）", minimum=0) if "yuan" in f else None
    unit = b.r.text(f["per"], f"{what} 计价单位") if "per" in f else None
    if unit is not None and unit not in PRICE_UNITS:
        b.r.error(f["per"], f"{what} 计价单位 {unit!r} 不认识", f"写 {' / '.join(PRICE_UNITS)} 之一")
        return None
    if per is not None and unit is not None and unit != per:
        b.r.error(f["per"], f"{what} 按{PRICE_UNITS[per]}计价，这里写的是 {unit}", f"写 per: {per}")
        return None
    if yuan is None or unit is None:
        return None
    return Price(yuan, unit)


def _minimums(
    b: _Build, node: Node | None, kind: str, what: str, *, has_bumper: bool, has_film: bool
) -> dict[str, float]:
    mins = dict(DEFAULT_MINIMUMS[kind])
    if node is None:
        return mins
    allowed = tuple(
        k
        for k in MINIMUM_KEYS
        if (k != "bumper" or has_bumper)
        and (k != "film" or has_film)
        and (k != "coverage" or kind == "special")
        and (k != "draws" or kind == "cell")
    )
    f = b.r.mapping(node, f"{what} 的 minimums", (), allowed)
    for key, vnode in (f or {}).items():
        value = (
            b.r.number(vnode, f"{what} 的 {key}")
            if key == "coverage"
            else b.r.integer(vnode, f"{what} 的 {key}", minimum=0)
        )
        if value is None:
            continue
        if key == "coverage" and value > 100:
            b.r.error(vnode, f"{what} 的角标覆盖率 {value:g}% 超过 100%", "写 0–100 之间的百分数")
            continue
        promised = DEFAULT_MINIMUMS[kind].get(key)
        if promised is not None and value < promised:
            b.r.warn(
                vnode,
                f"{what} 的 {MINIMUM_KEYS[key]} 写了 {value:g}，低于招商方案承诺的 {promised:g}",
                "确认合同确实改过，否则按方案填写",
            )
        mins[key] = float(value)
    return mins


def _on_air(
    b: _Build, node: Node | None, kind: str, what: str
) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    graphics = DEFAULT_GRAPHICS.get(kind, ())
    draws = kind in DEFAULT_DRAWS
    scenes: tuple[str, ...] = ()
    if node is None:
        return graphics, scenes, draws
    f = b.r.mapping(node, f"{what} 的 on_air", (), ("graphics", "scenes", "draws"))
    if f is None:
        return graphics, scenes, draws
    if "graphics" in f:
        got = []
        for g, gnode in b.r.texts(f["graphics"], f"{what} 的 on_air.graphics"):
            if g not in GRAPHICS:
                b.r.error(gnode, f"{what} 的图形 {g!r} 不存在", f"可用图形：{', '.join(GRAPHICS)}")
            else:
                got.append(g)
        graphics = tuple(got)
    if "scenes" in f:
        scenes = tuple(s for s, _ in b.r.texts(f["scenes"], f"{what} 的 on_air.scenes"))
    if "draws" in f:
        dnode = f["draws"]
        if not isinstance(dnode, ScalarNode) or dnode.tag != _TAG + "bool":
            b.r.error(dnode, f"{what} 的 on_air.draws 应为 true 或 false", "写 true 或 false")
        else:
            draws = str(dnode.value).lower() in ("true", "yes", "on")
    return graphics, scenes, draws


def _film(
    b: _Build, node: Node, what: str, sponsor: str | None, slot_key: str, seconds: int | None
) -> Film | None:
    f = b.r.mapping(node, f"{what} 的 film", ("id", "file", "seconds"), ())
    if f is None:
        return None
    fid = b.r.ident(f["id"], f"{what} 宣传片编号") if "id" in f else None
    declared = b.r.integer(f["seconds"], f"{what} 宣传片时长", minimum=1) if "seconds" in f else None
    asset = _asset(b, f["file"], f"{what} 宣传片", "video") if "file" in f else None
    if fid is not None:
        if fid in b.film_nodes:
            first = b.film_nodes[fid].start_mark.line + 1
            b.r.error(f["id"], f"宣传片编号 {fid!r} 重复（第 {first} 行已用）", "每条片子用不同的编号")
            fid = None
        else:
            b.film_nodes[fid] = f["id"]
    if declared is not None and seconds is not None and declared != seconds:
        b.r.error(
            f["seconds"],
            f"{what} 买的是 {seconds} 秒宣传片，这里写 {declared} 秒",
            f"换成 {seconds} 秒的片子并写 seconds: {seconds}",
        )
        declared = None
    if asset is not None and declared is not None and abs(asset.seconds - declared) > FILM_TOLERANCE:
        b.r.error(
            f["file"],
            f"{what} 宣传片 {asset.rel} 实际长 {asset.seconds:.1f} 秒，不是 {declared} 秒",
            f"重新剪成 {declared} 秒，或改正 seconds",
        )
        declared = None
    if fid is None or declared is None or asset is None or sponsor is None:
        return None
    return Film(fid, asset, declared, sponsor, slot_key, b.r.line(node))


def _bumper(b: _Build, node: Node, what: str, bumper_id: str, sponsor: str | None) -> Bumper | None:
    f = b.r.mapping(node, f"{what} 的 bumper", ("text",), ("seconds",))
    if f is None:
        return None
    text = b.r.text(f["text"], f"{what} 标版文字") if "text" in f else None
    secs = b.r.integer(f["seconds"], f"{what} 标版时长", minimum=1) if "seconds" in f else BUMPER_SECONDS
    if secs is not None and secs != BUMPER_SECONDS:
        b.r.error(
            f["seconds"],
            f"{what} 标版按招商方案是 {BUMPER_SECONDS} 秒，这里写 {secs} 秒",
            f"写 seconds: {BUMPER_SECONDS}",
        )
        return None
    if text is not None and sponsor is not None and sponsor in b.sponsors:
        name = b.sponsors[sponsor].name
        if name not in text:
            b.r.error(
                f["text"],
                f"{what} 标版文字没有出现企业名称“{name}”",
                f"标版要念出企业名称，例如 《够级大明星》栏目由“{name}”…播出",
            )
            return None
    if text is None or secs is None:
        return None
    return Bumper(bumper_id, text, secs)


def _common(
    b: _Build,
    f: dict[str, Node],
    kind: str,
    what: str,
    *,
    need_signed: bool = False,
    price_per: str | None = None,
) -> dict[str, Any]:
    sponsor = _sponsor_ref(b, f["sponsor"], what) if "sponsor" in f else None
    contract = _contract(b, f["contract"], what, need_signed=need_signed) if "contract" in f else None
    price = _price(b, f["price"], what, per=price_per) if "price" in f else None
    logo = _asset(b, f["logo"], f"{what} 的 logo", "image") if "logo" in f else None
    graphics, scenes, draws = _on_air(b, f.get("on_air"), kind, what)
    notes = b.r.text(f["notes"], f"{what} 的 notes", allow_empty=True) if "notes" in f else ""
    return {
        "sponsor": sponsor,
        "contract": contract,
        "price": price,
        "logo": logo,
        "graphics": graphics,
        "scenes": scenes,
        "draws": draws,
        "notes": notes or "",
    }


_SHARED_SLOT_FIELDS = ("sponsor", "contract", "price", "logo", "graphics", "scenes", "draws", "notes")


def _slot(c: dict[str, Any], **own: Any) -> Slot:
    """A slot from the fields every slot reads alike (:func:`_common`) and its own ``own`` fields."""
    shared = {k: c[k] for k in _SHARED_SLOT_FIELDS}
    return Slot(**(shared | own))


def _ok(c: dict[str, Any], *need: str) -> bool:
    return all(c.get(k) is not None for k in need)


def _broadcast_slot(
    b: _Build, node: Node, kind: str, key: str, index: int = 0, what: str = "", need_signed: bool = False
) -> None:
    what = what or KIND_LABELS[kind]
    f = b.r.mapping(node, what, ("sponsor", "contract", "price", "bumper", "film"), COMMON_OPTIONAL)
    if f is None:
        return
    c = _common(b, f, kind, what, need_signed=need_signed)
    bumper_id = key.replace(":", "_")
    bumper = _bumper(b, f["bumper"], what, bumper_id, c["sponsor"]) if "bumper" in f else None
    film = _film(b, f["film"], what, c["sponsor"], key, FILM_LENGTH[kind]) if "film" in f else None
    mins = _minimums(b, f.get("minimums"), kind, what, has_bumper=True, has_film=True)
    if _ok(c, "sponsor", "contract", "price") and bumper is not None and film is not None:
        b.slots.append(
            _slot(
                c,
                key=key,
                kind=kind,
                minimums=mins,
                bumper=bumper,
                film=film,
                index=index,
                line=b.r.line(node),
            )
        )
    else:
        _mark_incomplete(b)


def _mark_incomplete(b: _Build) -> None:
    # every failure above already produced an error; nothing half-loaded is ever returned
    if not any(i.level == "error" for i in b.r.issues):
        b.r.error(None, "排期不完整", "按错误提示补全")


def _supporters(b: _Build, node: Node) -> None:
    items = b.r.seq(node, "supporters（赞助播出）")
    if items is None:
        return
    if len(items) > MAX_SUPPORTERS:
        b.r.error(
            items[MAX_SUPPORTERS],
            f"赞助播出最多 {MAX_SUPPORTERS} 家，这里有 {len(items)} 家",
            "多出的企业改买中插广告或九宫格，或等待名额",
        )
    for i, item in enumerate(items, start=1):
        _broadcast_slot(
            b, item, "supporter", f"supporter:{i}", index=i, what=f"赞助播出第{i}家", need_signed=True
        )


def _spots(b: _Build, node: Node) -> None:
    for i, item in enumerate(b.r.seq(node, "spots（中插广告）") or [], start=1):
        what = f"中插广告第{i}条"
        f = b.r.mapping(item, what, ("sponsor", "contract", "price", "seconds", "film"), COMMON_OPTIONAL)
        if f is None:
            continue
        seconds = b.r.integer(f["seconds"], f"{what} 时长") if "seconds" in f else None
        if seconds is not None and seconds not in SPOT_LENGTHS:
            b.r.error(
                f["seconds"],
                f"{what} 时长 {seconds} 秒不在可售规格内",
                f"中插只卖 {'/'.join(map(str, SPOT_LENGTHS))} 秒",
            )
            seconds = None
        c = _common(b, f, "spot", what, price_per="airing")
        film = _film(b, f["film"], what, c["sponsor"], "", seconds) if "film" in f and seconds else None
        mins = _minimums(b, f.get("minimums"), "spot", what, has_bumper=False, has_film=True)
        if _ok(c, "sponsor", "contract", "price") and film is not None:
            film = Film(film.id, film.asset, film.seconds, film.sponsor, f"spot:{film.id}", film.line)
            if c["price"].yuan < SPOT_LIST_PRICE[film.seconds]:
                b.r.warn(
                    f["price"],
                    f"{what} 价格 {c['price'].yuan} 元/次低于刊例价 {SPOT_LIST_PRICE[film.seconds]} 元/次",
                    "确认折扣已获批准",
                )
            b.slots.append(
                _slot(
                    c,
                    key=f"spot:{film.id}",
                    kind="spot",
                    minimums=mins,
                    film=film,
                    index=i,
                    line=item.start_mark.line + 1,
                )
            )
        else:
            _mark_incomplete(b)


def _jiugongge(b: _Build, node: Node) -> None:
    f = b.r.mapping(node, "jiugongge（奖品九宫格）", ("cells",), ())
    if f is None or "cells" not in f:
        return
    cells = b.r.seq(f["cells"], "九宫格 cells")
    if cells is None:
        return
    if len(cells) != 9:
        b.r.error(
            f["cells"],
            f"九宫格必须正好 9 格，这里有 {len(cells)} 格",
            "补足或删减到 9 格（每格：prize、sponsor、slogan、logo）",
        )
    for i, item in enumerate(cells[:9]):
        what = f"九宫格第{i + 1}格"
        g = b.r.mapping(
            item,
            what,
            ("prize", "sponsor", "slogan", "logo", "contract", "price"),
            ("minimums", "on_air", "notes"),
        )
        if g is None:
            continue
        prize = b.r.text(g["prize"], f"{what} 奖品") if "prize" in g else None
        slogan = b.r.text(g["slogan"], f"{what} 广告语") if "slogan" in g else None
        c = _common(b, g, "cell", what)
        mins = _minimums(b, g.get("minimums"), "cell", what, has_bumper=False, has_film=False)
        if _ok(c, "sponsor", "contract", "price", "logo") and prize and slogan:
            b.slots.append(
                _slot(
                    c,
                    key=f"cell:{i}",
                    kind="cell",
                    minimums=mins,
                    draws=True,
                    index=i,
                    prize=prize,
                    slogan=slogan,
                    line=item.start_mark.line + 1,
                )
            )
        else:
            _mark_incomplete(b)


def _plain_slot(b: _Build, node: Node, kind: str) -> None:
    what = KIND_LABELS[kind]
    has_film = kind == "leaderboard"
    f = b.r.mapping(
        node, what, ("sponsor", "contract", "price") + (("film",) if has_film else ()), COMMON_OPTIONAL
    )
    if f is None:
        return
    c = _common(b, f, kind, what)
    film = (
        _film(b, f["film"], what, c["sponsor"], kind, FILM_LENGTH[kind]) if has_film and "film" in f else None
    )
    mins = _minimums(b, f.get("minimums"), kind, what, has_bumper=False, has_film=has_film)
    if _ok(c, "sponsor", "contract", "price") and (film is not None or not has_film):
        b.slots.append(
            _slot(
                c,
                key=kind,
                kind=kind,
                minimums=mins,
                film=film,
                line=b.r.line(node),
            )
        )
    else:
        _mark_incomplete(b)


def _ticker(b: _Build, node: Node) -> None:
    what = KIND_LABELS["ticker"]
    f = b.r.mapping(node, what, ("sponsor", "lines"), ("contract", "price") + COMMON_OPTIONAL)
    if f is None:
        return
    c = _common(b, f, "ticker", what)
    lines = b.r.texts(f["lines"], "底线流字 lines") if "lines" in f else []
    if "lines" in f and not lines:
        b.r.error(f["lines"], "底线流字没有内容", "至少写一行")
    sponsor = c["sponsor"]
    if sponsor is not None and sponsor in b.sponsors:
        name = b.sponsors[sponsor].name
        for text, lnode in lines:
            if name not in text:
                b.r.error(
                    lnode, f"流字“{text}”没有带企业名称“{name}”", "按招商方案，所有宣传流字均带冠名企业名称"
                )
    mins = _minimums(b, f.get("minimums"), "ticker", what, has_bumper=False, has_film=False)
    if sponsor is not None and lines:
        b.slots.append(
            _slot(
                c,
                key="ticker",
                kind="ticker",
                sponsor=sponsor,
                minimums=mins,
                lines=tuple(t for t, _ in lines),
                line=b.r.line(node),
                draws=False,
            )
        )
    else:
        _mark_incomplete(b)


def _credits(b: _Build, node: Node) -> None:
    f = b.r.mapping(node, "credits（片尾鸣谢）", ("lines",), ())
    if f is None or "lines" not in f:
        return
    for i, item in enumerate(b.r.seq(f["lines"], "片尾鸣谢 lines") or [], start=1):
        what = f"片尾鸣谢第{i}行"
        g = b.r.mapping(item, what, ("role", "sponsor"), ("logo",))
        if g is None:
            continue
        role = b.r.text(g["role"], f"{what} role") if "role" in g else None
        sponsor = _sponsor_ref(b, g["sponsor"], what) if "sponsor" in g else None
        logo = _asset(b, g["logo"], f"{what} logo", "image") if "logo" in g else None
        if role and sponsor:
            b.slots.append(
                Slot(
                    key=f"credits:{i}",
                    kind="credits",
                    sponsor=sponsor,
                    contract=None,
                    price=None,
                    logo=logo,
                    minimums=dict(DEFAULT_MINIMUMS["credits"]),
                    graphics=("credits",),
                    role=role,
                    index=i,
                    line=item.start_mark.line + 1,
                )
            )
        else:
            _mark_incomplete(b)


_ANCHOR = re.compile(r"^(opening|intro|draws|game (\d+))$")


def _rundown(b: _Build, node: Node) -> RundownConfig:
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
        m = _ANCHOR.match(after)
        if m is None or (m.group(2) and games and not 1 <= int(m.group(2)) <= games):
            b.r.error(
                g["after"],
                f"{what} 的位置 {after!r} 不存在",
                f"写 opening、intro、game 1…game {games or 3} 或 draws"
                "（英雄榜之后紧接英雄榜冠名片，不能插播）",
            )
            continue
        ids = b.r.texts(g["items"], f"{what} items")
        if not ids:
            b.r.error(g["items"], f"{what} 没有内容", "列出要播的片子编号，或删掉这个时段")
        breaks.append(Break(after, tuple(x for x, _ in ids), item.start_mark.line + 1))
        b.break_nodes.append(g["items"])
    return RundownConfig(games or 3, contestants or 6, tuple(breaks))


def _cross_rules(b: _Build, rundown: RundownConfig) -> None:
    r = b.r
    # one broadcast-rights package per sponsor (冠名 / 独家特约 / 赞助播出 are competing exclusives)
    seen: dict[str, Slot] = {}
    for s in b.slots:
        if s.kind in ("title", "special", "supporter"):
            if s.sponsor in seen:
                other = seen[s.sponsor]
                issue_node = _line_node(s.line)
                r.error(
                    issue_node,
                    f"{b.sponsors[s.sponsor].name} 同时是{other.label}（第 {other.line} 行）和{s.label}",
                    "一家企业只买一种播出权益：删除其中一项",
                )
            else:
                seen[s.sponsor] = s
    # 赞助播出 aired in the order the contracts were signed
    sups = sorted((s for s in b.slots if s.kind == "supporter"), key=lambda s: s.index)
    for prev, cur in zip(sups, sups[1:], strict=False):
        ps = prev.contract.signed if prev.contract else None
        cs = cur.contract.signed if cur.contract else None
        if ps is None or cs is None:
            continue
        if cs < ps:
            r.error(
                _line_node(cur.contract.line if cur.contract else cur.line),
                f"赞助播出须按签约先后播出：{b.sponsors[cur.sponsor].name}（{_fmt(cs)} 签约）比"
                f"{b.sponsors[prev.sponsor].name}（{_fmt(ps)} 签约）先签约，却排在后面",
                f"把 {b.sponsors[cur.sponsor].name} 移到第 {prev.index} 家之前",
            )
        elif cs == ps:
            r.error(
                _line_node(cur.contract.line if cur.contract else cur.line),
                f"{b.sponsors[cur.sponsor].name} 与 {b.sponsors[prev.sponsor].name} "
                f"签约时间相同（{_fmt(cs)}），"
                "无法确定播出顺序",
                "写上签约时刻，如 signed: 2012-03-05 10:30",
            )
    if sum(1 for s in b.slots if s.kind == "cell") == 9:
        prizes: dict[str, Slot] = {}
        for c in (s for s in b.slots if s.kind == "cell"):
            if c.prize in prizes:
                r.warn(
                    _line_node(c.line),
                    f"九宫格第{c.index + 1}格与第{prizes[c.prize].index + 1}格奖品相同：{c.prize}",
                    "确认是否有意为之",
                )
            prizes[c.prize] = c
    # films named in breaks exist; spots air as often as bought; every bought film is placed
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
                r.error(
                    node, f"插播的片子 {fid!r} 不在排期里", f"{hint}已登记的片子：{', '.join(films) or '无'}"
                )
                continue
            owner = films[fid]
            if owner.kind == "leaderboard":
                r.error(
                    node,
                    f"{fid} 是英雄榜冠名片，只能紧接英雄榜播出（节目流程会自动安排）",
                    "从插播时段里删掉它",
                )
                continue
            placed[fid] = placed.get(fid, 0) + 1
    for fid, s in films.items():
        if s.kind == "leaderboard":
            continue
        want = int(s.minimums.get("film", 0))
        got = placed.get(fid, 0)
        if got < want:
            r.error(
                _line_node(s.film.line if s.film else s.line),
                f"{s.label}（{b.sponsors[s.sponsor].name}）的片子 {fid} 每期应播 {want} 次，"
                f"节目流程只排了 {got} 次",
                "在 rundown.breaks 里加上它（如 after: game 1, items: [" + fid + "]）",
            )
    if b.air_date is None:
        r.warn(None, "没有给出播出日期，未检查合同是否覆盖本期", "加 --air-date YYYY-MM-DD 检查合同有效期")
    if not any(s.kind == "title" for s in b.slots) and not any(i.level == "error" for i in r.issues):
        r.error(None, "缺少冠名", "加上 title: …")


def _fmt(moment: datetime) -> str:
    if moment.hour or moment.minute:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d")


class _LineMark:
    def __init__(self, line: int) -> None:
        self.line = line - 1
        self.column = 0


class _LineNode(Node):
    def __init__(self, line: int) -> None:
        mark = _LineMark(line)
        super().__init__("", "", mark, mark)  # type: ignore[arg-type]


def _line_node(line: int) -> Node:
    return _LineNode(line)


def iter_assets(p: Placements) -> Iterator[tuple[str, Asset]]:
    """Every asset the placements use: (what, asset)."""
    for sp in p.sponsors.values():
        if sp.logo:
            yield f"{sp.name} logo", sp.logo
    for s in p.slots:
        if s.logo:
            yield f"{s.label} logo", s.logo
        if s.film:
            yield f"{s.label} 宣传片 {s.film.id}", s.film.asset


def parse_air_date(text: str, fail: Callable[[str], None] | None = None) -> date | None:
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        if fail:
            fail(f"播出日期 {text!r} 应写成 YYYY-MM-DD")
        return None
