"""Every slot section of the file as one table of :class:`SlotSpec`, read by one builder.

A spec says where a slot is written (its section, one mapping or a list, the list's limits), which
fields it takes, which of them must be there, what it sells besides the common fields (a bumper, a film
of a fixed or chosen length) and its own fields (a cell's prize and slogan, the ticker's lines, a credit
line's role). :func:`read_section` reads a section by its spec; adding a slot kind is adding a row.
The producer's workspace builds its forms from the same table (fields, labels, counts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.english import what_en
from broadcast.sponsors.placements.fields import (
    COMMON_OPTIONAL,
    Common,
    check_on_air,
    read_bumper,
    read_common,
    read_film,
    read_minimums,
)
from broadcast.sponsors.placements.model import Slot
from broadcast.sponsors.placements.ratecard import (
    FILM_LENGTH,
    JIUGONGGE_CELLS,
    KIND_LABELS,
    KIND_LABELS_EN,
    MAX_SUPPORTERS,
    SPOT_LENGTHS,
    SPOT_LIST_PRICE,
)
from engine.yamlread import Node, SequenceNode

# a slot's own fields: (build, fields, what, common) → Slot fields, or None when one is missing/wrong
OwnFields = Callable[[Build, dict[str, Node], str, Common], dict[str, Any] | None]
BROADCAST_FIELDS = ("sponsor", "contract", "price", "bumper", "film")  # 冠名 / 特约 / 赞助播出
PAID = ("sponsor", "contract", "price")


@dataclass(frozen=True)
class SlotSpec:
    section: str  # the top-level key of the file
    kind: str  # the slot kind (ratecard.KIND_LABELS)
    required: tuple[str, ...]  # fields of one slot that must be written
    optional: tuple[str, ...] = COMMON_OPTIONAL
    # -- where: one mapping (the default), a list (``many``), or a list under ``inside`` of a mapping
    many: bool = False
    inside: str = ""
    outer_what: str = ""  # how messages name the mapping holding the list
    list_what: str = ""  # how messages name the list
    item_what: str = ""  # how messages name one item; {n} is its 1-based place
    first_index: int = 1  # Slot.index of the first item (cells count from 0)
    at_most: int = 0  # more is an error at the first extra item (all are still checked)
    exactly: int = 0  # another count is an error at the list (the first ``exactly`` are checked)
    count_error: tuple[str, str] = ("", "")  # (message, fix); {count} is the count found
    single_error: tuple[str, str] | None = None  # (message, fix) when a list is written for one slot
    count_error_en: tuple[str, str] = ("", "")  # the same two in English
    single_error_en: tuple[str, str] = ("", "")
    section_required: bool = False  # the file must have this section
    key: str = ""  # slot key: {i} the index, {film} the film id; default the kind
    # -- what it sells besides the common fields
    bumper: bool = False
    film: bool = False  # its length is FILM_LENGTH[kind], or what ``film_seconds`` reads
    film_seconds: Callable[[Build, dict[str, Node], str], int | None] | None = None
    need_signed: bool = False  # contract.signed required (赞助播出 air in signing order)
    price_per: str | None = None  # the only price unit allowed
    needs: tuple[str, ...] = PAID  # common fields without which the slot cannot air
    own: OwnFields | None = None
    check: Callable[[Build, dict[str, Node], str, Slot], None] | None = None  # after the slot is built
    fixed: dict[str, Any] = field(default_factory=dict)  # Slot fields the file cannot change
    logo_what: str = "{what} 的 logo"

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]


# -- the slots' own fields ---------------------------------------------------------------------------
def _spot_seconds(b: Build, f: dict[str, Node], what: str) -> int | None:
    seconds = b.r.integer(f["seconds"], f"{what} 时长") if "seconds" in f else None
    if seconds is not None and seconds not in SPOT_LENGTHS:
        b.r.error(
            f["seconds"],
            f"{what} 时长 {seconds} 秒不在可售规格内",
            f"中插只卖 {'/'.join(map(str, SPOT_LENGTHS))} 秒",
            en=(
                f"{what_en(what)}: {seconds} s is not a length on sale",
                f"mid-show spots are sold at {'/'.join(map(str, SPOT_LENGTHS))} s",
            ),
        )
        return None
    return seconds


def _spot_list_price(b: Build, f: dict[str, Node], what: str, slot: Slot) -> None:
    assert slot.price is not None and slot.film is not None
    if slot.price.yuan < SPOT_LIST_PRICE[slot.film.seconds]:
        b.r.warn(
            f["price"],
            f"{what} 价格 {slot.price.yuan} 元/次低于刊例价 {SPOT_LIST_PRICE[slot.film.seconds]} 元/次",
            "确认折扣已获批准",
            en=(
                f"{what_en(what)} price {slot.price.yuan} yuan per airing is below the list price "
                f"{SPOT_LIST_PRICE[slot.film.seconds]} yuan per airing",
                "make sure the discount was approved",
            ),
        )


def _cell(b: Build, f: dict[str, Node], what: str, c: Common) -> dict[str, Any] | None:
    prize = b.r.text(f["prize"], f"{what} 奖品") if "prize" in f else None
    slogan = b.r.text(f["slogan"], f"{what} 广告语") if "slogan" in f else None
    if prize and not check_on_air(b, f["prize"], prize, "jiugongge.cells[].prize", f"{what} 奖品"):
        prize = None
    if slogan and not check_on_air(b, f["slogan"], slogan, "jiugongge.cells[].slogan", f"{what} 广告语"):
        slogan = None
    return {"prize": prize, "slogan": slogan} if prize and slogan else None


def _ticker(b: Build, f: dict[str, Node], what: str, c: Common) -> dict[str, Any] | None:
    lines = b.r.texts(f["lines"], "底线流字 lines") if "lines" in f else []
    if "lines" in f and not lines:
        b.r.error(
            f["lines"],
            "底线流字没有内容",
            "至少写一行",
            en=("the ticker is empty", "write at least one line"),
        )
    for text, lnode in lines:
        check_on_air(b, lnode, text, "sponsors.ticker[]", "底线流字")
    if c.sponsor is not None and c.sponsor in b.sponsors:
        name = b.sponsors[c.sponsor].name
        for text, lnode in lines:
            if name not in text:
                b.r.error(
                    lnode,
                    f"流字“{text}”没有带企业名称“{name}”",
                    "按招商方案，所有宣传流字均带冠名企业名称",
                    en=(
                        f"the ticker line “{text}” does not name the company “{name}”",
                        "by the sponsorship plan every ticker line names the title sponsor",
                    ),
                )
    return {"lines": tuple(t for t, _ in lines)} if lines else None


def _credit(b: Build, f: dict[str, Node], what: str, c: Common) -> dict[str, Any] | None:
    role = b.r.text(f["role"], f"{what} role") if "role" in f else None
    if role and not check_on_air(b, f["role"], role, "sponsors.credits[].role", f"{what} role"):
        role = None
    return {"role": role} if role else None


def _exclusive(kind: str, film: bool = False) -> SlotSpec:
    """A studio placement sold to one sponsor (九宫格下方, 展示台, 桌面, 英雄榜冠名, 解说区, 文化衫)."""
    return SlotSpec(
        kind,
        kind,
        PAID + (("film",) if film else ()),
        film=film,
        single_error=(f"{KIND_LABELS[kind]}是独家广告位，只能有一家", f"{kind} 写成一个映射"),
        single_error_en=(
            f"the {KIND_LABELS_EN[kind]} is an exclusive slot: one sponsor only",
            f"write {kind} as one mapping",
        ),
    )


SLOT_SPECS: tuple[SlotSpec, ...] = (
    SlotSpec(
        "title",
        "title",
        BROADCAST_FIELDS,
        bumper=True,
        film=True,
        section_required=True,
        single_error=(
            "冠名只能有一家，这里是列表",
            "title 写成一个映射（sponsor: …），其他企业改为独家特约或赞助播出",
        ),
        single_error_en=(
            "there is one title sponsor only, this is a list",
            "write title as one mapping (sponsor: …); the other companies can be the exclusive special "
            "sponsor or sponsored by",
        ),
    ),
    SlotSpec(
        "special",
        "special",
        BROADCAST_FIELDS,
        bumper=True,
        film=True,
        single_error=("独家特约播出只能有一家，这里是列表", "special 写成一个映射"),
        single_error_en=(
            "there is one exclusive sponsor only, this is a list",
            "write special as one mapping",
        ),
    ),
    SlotSpec(
        "supporters",
        "supporter",
        BROADCAST_FIELDS,
        many=True,
        list_what="supporters（赞助播出）",
        item_what="赞助播出第{n}家",
        key="supporter:{i}",
        at_most=MAX_SUPPORTERS,
        count_error=(
            f"赞助播出最多 {MAX_SUPPORTERS} 家，这里有 {{count}} 家",
            "多出的企业改买中插广告或九宫格，或等待名额",
        ),
        count_error_en=(
            f"at most {MAX_SUPPORTERS} sponsored-by slots, this has {{count}}",
            "the extra companies can buy mid-show spots or prize grid cells, or wait for a place",
        ),
        bumper=True,
        film=True,
        need_signed=True,
    ),
    SlotSpec(
        "spots",
        "spot",
        PAID + ("seconds", "film"),
        many=True,
        list_what="spots（中插广告）",
        item_what="中插广告第{n}条",
        key="spot:{film}",
        film=True,
        film_seconds=_spot_seconds,
        price_per="airing",
        check=_spot_list_price,
    ),
    SlotSpec(
        "jiugongge",
        "cell",
        ("prize", "sponsor", "slogan", "logo", "contract", "price"),
        ("minimums", "on_air", "notes"),
        inside="cells",
        outer_what="jiugongge（奖品九宫格）",
        list_what="九宫格 cells",
        item_what="九宫格第{n}格",
        first_index=0,
        exactly=JIUGONGGE_CELLS,
        count_error=(
            f"九宫格必须正好 {JIUGONGGE_CELLS} 格，这里有 {{count}} 格",
            f"补足或删减到 {JIUGONGGE_CELLS} 格（每格：prize、sponsor、slogan、logo）",
        ),
        count_error_en=(
            f"the prize grid has exactly {JIUGONGGE_CELLS} cells, this has {{count}}",
            f"add or remove cells to make {JIUGONGGE_CELLS} (each: prize, sponsor, slogan, logo)",
        ),
        key="cell:{i}",
        needs=PAID + ("logo",),
        own=_cell,
        fixed={"draws": True},
    ),
    _exclusive("jiugongge_board"),
    _exclusive("prize_stand"),
    _exclusive("table"),
    _exclusive("leaderboard", film=True),
    _exclusive("commentary"),
    _exclusive("shirts"),
    _exclusive("qualifiers"),
    SlotSpec(
        "ticker",
        "ticker",
        ("sponsor", "lines"),
        ("contract", "price") + COMMON_OPTIONAL,
        needs=("sponsor",),
        own=_ticker,
        fixed={"draws": False},
    ),
    SlotSpec(
        "credits",
        "credits",
        ("role", "sponsor"),
        ("logo",),
        inside="lines",
        outer_what="credits（片尾鸣谢）",
        list_what="片尾鸣谢 lines",
        item_what="片尾鸣谢第{n}行",
        key="credits:{i}",
        needs=("sponsor",),
        own=_credit,
        logo_what="{what} logo",
    ),
)
SPEC_OF: dict[str, SlotSpec] = {s.section: s for s in SLOT_SPECS}


# -- the one builder ---------------------------------------------------------------------------------
def read_section(b: Build, spec: SlotSpec, node: Node) -> None:
    """Read one section of the file (one slot or a list of them) into ``b.slots``."""
    if not spec.many and not spec.inside:
        if spec.single_error is not None and isinstance(node, SequenceNode):
            b.r.error(node, *spec.single_error, en=spec.single_error_en)
            return
        build_slot(b, spec, node, 0, spec.label, (spec.section,))
        return
    path: tuple[str | int, ...] = (spec.section,)
    if spec.inside:
        f = b.r.mapping(node, spec.outer_what, (spec.inside,), ())
        if f is None or spec.inside not in f:
            return
        node = f[spec.inside]
        path += (spec.inside,)
    items = b.r.seq(node, spec.list_what)
    if items is None:
        return
    message, fix = spec.count_error
    en = (spec.count_error_en[0].format(count=len(items)), spec.count_error_en[1])
    if spec.at_most and len(items) > spec.at_most:
        b.r.error(items[spec.at_most], message.format(count=len(items)), fix, en=en)
    if spec.exactly and len(items) != spec.exactly:
        b.r.error(node, message.format(count=len(items)), fix, en=en)
        items = items[: spec.exactly]
    for pos, item in enumerate(items):
        build_slot(b, spec, item, pos + spec.first_index, spec.item_what.format(n=pos + 1), path + (pos,))


def build_slot(
    b: Build, spec: SlotSpec, node: Node, index: int, what: str, path: tuple[str | int, ...]
) -> None:
    """One slot from its mapping; every problem is an issue, and nothing half-read is kept."""
    f = b.r.mapping(node, what, spec.required, spec.optional)
    if f is None:
        return
    seconds = spec.film_seconds(b, f, what) if spec.film_seconds else FILM_LENGTH.get(spec.kind)
    c = read_common(
        b,
        f,
        spec.kind,
        what,
        need_signed=spec.need_signed,
        price_per=spec.price_per,
        logo_what=spec.logo_what.format(what=what),
    )
    own = spec.own(b, f, what, c) if spec.own else {}
    key = (spec.key or spec.kind).format(i=index, film="{film}")
    film_key = "" if "{film}" in key else key
    bumper = read_bumper(b, f["bumper"], what, key.replace(":", "_"), c.sponsor) if "bumper" in f else None
    film = read_film(b, f["film"], what, c.sponsor, film_key, seconds) if "film" in f and seconds else None
    mins = read_minimums(b, f.get("minimums"), spec.kind, what, has_bumper=spec.bumper, has_film=spec.film)
    complete = (
        c.has(*spec.needs)
        and own is not None
        and (bumper is not None or not spec.bumper)
        and (film is not None or not spec.film)
    )
    if not complete:
        b.incomplete()
        return
    assert c.sponsor is not None and own is not None
    if film is not None and not film_key:
        key = key.format(film=film.id)
        film = dataclasses.replace(film, slot=key)
    fields: dict[str, Any] = {
        "key": key,
        "kind": spec.kind,
        "sponsor": c.sponsor,
        "contract": c.contract,
        "price": c.price,
        "logo": c.logo,
        "minimums": mins,
        "graphics": c.graphics,
        "scenes": c.scenes,
        "draws": c.draws,
        "bumper": bumper,
        "film": film,
        "index": index,
        "notes": c.notes,
        "line": b.r.line(node),
        "path": path,
    }
    slot = Slot(**(fields | own | spec.fixed))
    if spec.check is not None:
        spec.check(b, f, what, slot)
    b.slots.append(slot)
