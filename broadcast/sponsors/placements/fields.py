"""The fields slots share, each read and checked once: the sponsor registry and references to it,
contract, price, minimums, on_air, film, bumper, and :func:`read_common` for the fields every slot has.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from broadcast.core.schema import text_limits_of
from broadcast.core.text import shown
from broadcast.show.actions import GRAPHICS
from broadcast.sponsors.placements.assets import read_asset
from broadcast.sponsors.placements.context import Build
from broadcast.sponsors.placements.english import describe, what_en
from broadcast.sponsors.placements.model import Asset, Bumper, Contract, Film, Price, Sponsor
from broadcast.sponsors.placements.ratecard import (
    BUMPER_SECONDS,
    DEFAULT_DRAWS,
    DEFAULT_GRAPHICS,
    DEFAULT_MINIMUMS,
    FILM_TOLERANCE,
    MINIMUM_KEYS,
    MINIMUM_KEYS_EN,
    PRICE_UNITS,
    PRICE_UNITS_EN,
)
from engine.yamlread import MappingNode, Node, as_bool

COMMON_OPTIONAL = ("logo", "minimums", "on_air", "notes")
# the on-air field a sponsor's short name fills (every branded slot, the 赞助播出, the credits …)
SPONSOR_NAME_FIELD = "sponsors.title.name"


@cache
def on_air_limits() -> dict[str, int]:
    """The maxima of the on-air texts a placements file feeds: ``maxLength`` in the sponsors' and the
    show's schema fragments (the one source the store refuses by, and the pages are sized for)."""
    out: dict[str, int] = {}
    for package in ("broadcast.sponsors", "broadcast.show"):
        fragment = json.loads(resources.files(package).joinpath("schema.json").read_text(encoding="utf-8"))
        out.update(text_limits_of(fragment))
    return out


def check_on_air(b: Build, node: Node, value: str, field: str, what: str) -> bool:
    """``value`` fits the on-air field ``field`` (its maximum in the schema); else an error at ``node``
    naming the field, and False."""
    limit = on_air_limits()[field]
    if len(value) <= limit:
        return True
    b.r.error(
        node,
        f"{what}“{shown(value)}”有 {len(value)} 个字，上屏最多 {limit} 个字（{field}）",
        f"缩短到 {limit} 个字以内（汉字、字母、数字、空格都算一个字）",
        en=(
            f"{what_en(what)} “{shown(value)}” has {len(value)} characters, at most {limit} fit on screen "
            f"({field})",
            f"shorten it to {limit} characters or fewer (a Chinese character, letter, digit or space is one)",
        ),
    )
    return False


def read_sponsors(b: Build, node: Node) -> None:
    """The ``sponsors:`` registry: ``id: {name, full_name?, logo?, contact?}``."""
    if not isinstance(node, MappingNode):
        b.r.error(
            node,
            f"sponsors 应为映射（编号: {{name, logo}}），这里是 {describe(node)}",
            "按 docs/sponsors.md 登记赞助企业",
            en=(
                f"sponsors should be a mapping (id: {{name, logo}}), found {describe(node, 'en')}",
                "register the sponsors as docs/sponsors.md shows",
            ),
        )
        return
    if not node.value:
        b.r.error(
            node,
            "sponsors 是空的",
            "至少登记一家赞助企业",
            en=("sponsors is empty", "register at least one sponsor"),
        )
    for knode, vnode in node.value:
        sid = b.r.ident(knode, "赞助商编号")
        if sid is None:
            continue
        if sid in b.sponsors or sid in b.sponsor_nodes:
            b.r.error(
                knode,
                f"赞助商编号 {sid!r} 登记了两次",
                "删掉重复的一项，或换一个编号",
                en=(
                    f"the sponsor id {sid!r} is registered twice",
                    "delete the repeated entry, or use another id",
                ),
            )
            continue
        b.sponsor_nodes[sid] = knode
        b.r.key_of[id(vnode)] = knode  # problems of a block entry point at its id, as for every field
        f = b.r.mapping(vnode, f"赞助商 {sid}", ("name",), ("full_name", "logo", "contact"))
        if f is None:
            continue
        name = b.r.text(f["name"], f"赞助商 {sid} 的 name") if "name" in f else None
        full = b.r.text(f["full_name"], f"赞助商 {sid} 的 full_name") if "full_name" in f else None
        if "contact" in f:
            b.r.text(f["contact"], f"赞助商 {sid} 的 contact", allow_empty=True)
        logo = read_asset(b, f["logo"], f"赞助商 {sid} 的 logo", "image") if "logo" in f else None
        if name is not None:  # the short name airs (the full name goes to the reports)
            check_on_air(b, f["name"], name, SPONSOR_NAME_FIELD, f"赞助商 {sid} 的 name")
            b.sponsors[sid] = Sponsor(sid, name, full or name, logo, knode.start_mark.line + 1)


def sponsor_ref(b: Build, node: Node, what: str) -> str | None:
    sid = b.r.text(node, f"{what} 的 sponsor")
    if sid is None:
        return None
    if sid not in b.sponsor_nodes:
        near = difflib.get_close_matches(sid, list(b.sponsor_nodes), n=1)
        hint = f"是不是 {near[0]!r}？" if near else ""
        hint_en = f"did you mean {near[0]!r}? " if near else ""
        b.r.error(
            node,
            f"{what} 的赞助商 {sid!r} 没有在 sponsors 里登记",
            f"{hint}先在 sponsors: 下登记它（name、logo）",
            en=(
                f"the sponsor {sid!r} of {what_en(what)} is not registered in sponsors",
                f"{hint_en}register it under sponsors: first (name, logo)",
            ),
        )
        return None
    return sid


def read_contract(b: Build, node: Node, what: str, *, need_signed: bool) -> Contract | None:
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
        b.r.error(
            f["end"],
            f"{what} 合同结束日期 {end} 早于开始日期 {start}",
            "检查合同日期",
            en=(f"{what_en(what)} contract ends {end}, before it starts {start}", "check the contract dates"),
        )
        return None
    if b.air_date is not None and not (start <= b.air_date <= end):
        b.r.error(
            node,
            f"{what} 的合同（{start} 至 {end}）不包含本期播出日期 {b.air_date}",
            "续签并更新合同日期，或把这个广告位从本期排期中删除",
            en=(
                f"the contract of {what_en(what)} ({start} to {end}) does not cover this episode's air date "
                f"{b.air_date}",
                "renew it and update the contract dates, or remove this slot from this episode's placements",
            ),
            topic="contract",
        )
    return Contract(signed, start, end, b.r.line(node))


def read_price(b: Build, node: Node, what: str, *, per: str | None = None) -> Price | None:
    f = b.r.mapping(node, f"{what} 的 price", ("yuan", "per"), ())
    if f is None:
        return None
    yuan = b.r.integer(f["yuan"], f"{what} 价格（元）", minimum=0) if "yuan" in f else None
    unit = b.r.text(f["per"], f"{what} 计价单位") if "per" in f else None
    if unit is not None and unit not in PRICE_UNITS:
        b.r.error(
            f["per"],
            f"{what} 计价单位 {unit!r} 不认识",
            f"写 {' / '.join(PRICE_UNITS)} 之一",
            en=(f"{what_en(what)}: unknown price unit {unit!r}", f"write one of {' / '.join(PRICE_UNITS)}"),
        )
        return None
    if per is not None and unit is not None and unit != per:
        b.r.error(
            f["per"],
            f"{what} 按{PRICE_UNITS[per]}计价，这里写的是 {unit}",
            f"写 per: {per}",
            en=(f"{what_en(what)} is priced per {PRICE_UNITS_EN[per]}, found {unit}", f"write per: {per}"),
        )
        return None
    if yuan is None or unit is None:
        return None
    return Price(yuan, unit)


def read_minimums(
    b: Build, node: Node | None, kind: str, what: str, *, has_bumper: bool, has_film: bool
) -> dict[str, float]:
    """The per-episode minimums: the package's (ratecard) raised by the file; lowering one warns."""
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
            b.r.error(
                vnode,
                f"{what} 的角标覆盖率 {value:g}% 超过 100%",
                "写 0–100 之间的百分数",
                en=(
                    f"the corner bug coverage of {what_en(what)} is {value:g}%, over 100%",
                    "write a percentage from 0 to 100",
                ),
            )
            continue
        promised = DEFAULT_MINIMUMS[kind].get(key)
        if promised is not None and value < promised:
            b.r.warn(
                vnode,
                f"{what} 的 {MINIMUM_KEYS[key]} 写了 {value:g}，低于招商方案承诺的 {promised:g}",
                "确认合同确实改过，否则按方案填写",
                en=(
                    f"{what_en(what)} {MINIMUM_KEYS_EN[key]} is {value:g}, below the {promised:g} the "
                    "sponsorship plan promises",
                    "make sure the contract changed it, otherwise write the plan's number",
                ),
            )
        mins[key] = float(value)
    return mins


def read_on_air(
    b: Build, node: Node | None, kind: str, what: str
) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """(graphics, scenes, draws) that put the slot on screen: the defaults unless ``on_air`` says."""
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
                b.r.error(
                    gnode,
                    f"{what} 的图形 {g!r} 不存在",
                    f"可用图形：{', '.join(GRAPHICS)}",
                    en=(f"{what_en(what)}: there is no graphic {g!r}", f"graphics: {', '.join(GRAPHICS)}"),
                )
            else:
                got.append(g)
        graphics = tuple(got)
    if "scenes" in f:
        scenes = tuple(s for s, _ in b.r.texts(f["scenes"], f"{what} 的 on_air.scenes"))
    if "draws" in f:
        flag = as_bool(f["draws"])
        if flag is None:
            b.r.error(
                f["draws"],
                f"{what} 的 on_air.draws 应为 true 或 false",
                "写 true 或 false",
                en=(f"{what_en(what)} on_air.draws should be true or false", "write true or false"),
            )
        else:
            draws = flag
    return graphics, scenes, draws


def read_film(
    b: Build, node: Node, what: str, sponsor: str | None, slot_key: str, seconds: int | None
) -> Film | None:
    """``film: {id, file, seconds}``: a unique id, a real video of the bought length."""
    f = b.r.mapping(node, f"{what} 的 film", ("id", "file", "seconds"), ())
    if f is None:
        return None
    fid = b.r.ident(f["id"], f"{what} 宣传片编号") if "id" in f else None
    declared = b.r.integer(f["seconds"], f"{what} 宣传片时长", minimum=1) if "seconds" in f else None
    asset = read_asset(b, f["file"], f"{what} 宣传片", "video") if "file" in f else None
    if fid is not None:
        if fid in b.film_nodes:
            first = b.film_nodes[fid].start_mark.line + 1
            b.r.error(
                f["id"],
                f"宣传片编号 {fid!r} 重复（第 {first} 行已用）",
                "每条片子用不同的编号",
                en=(
                    f"the film id {fid!r} is used twice (first on line {first})",
                    "give each film its own id",
                ),
            )
            fid = None
        else:
            b.film_nodes[fid] = f["id"]
    if declared is not None and seconds is not None and declared != seconds:
        b.r.error(
            f["seconds"],
            f"{what} 买的是 {seconds} 秒宣传片，这里写 {declared} 秒",
            f"换成 {seconds} 秒的片子并写 seconds: {seconds}",
            en=(
                f"{what_en(what)} bought a {seconds} s film, this says {declared} s",
                f"use a {seconds} s film and write seconds: {seconds}",
            ),
        )
        declared = None
    if asset is not None and declared is not None and abs(asset.seconds - declared) > FILM_TOLERANCE:
        b.r.error(
            f["file"],
            f"{what} 宣传片 {asset.rel} 实际长 {asset.seconds:.1f} 秒，不是 {declared} 秒",
            f"重新剪成 {declared} 秒，或改正 seconds",
            en=(
                f"{what_en(what)} film {asset.rel} is {asset.seconds:.1f} s long, not {declared} s",
                f"cut it to {declared} s, or correct seconds",
            ),
            topic="asset",
        )
        declared = None
    if fid is None or declared is None or asset is None or sponsor is None:
        return None
    return Film(fid, asset, declared, sponsor, slot_key, b.r.line(node))


def read_bumper(b: Build, node: Node, what: str, bumper_id: str, sponsor: str | None) -> Bumper | None:
    """``bumper: {text, seconds: 5}``: the 5 s 标版 whose text names the sponsor."""
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
            en=(
                f"{what_en(what)} bumper is {BUMPER_SECONDS} s by the sponsorship plan, this says {secs} s",
                f"write seconds: {BUMPER_SECONDS}",
            ),
        )
        return None
    if text is not None and sponsor is not None and sponsor in b.sponsors:
        name = b.sponsors[sponsor].name
        if name not in text:
            b.r.error(
                f["text"],
                f"{what} 标版文字没有出现企业名称“{name}”",
                f"标版要念出企业名称，例如 《够级大明星》栏目由“{name}”…播出",
                en=(
                    f"{what_en(what)} bumper text does not name the company “{name}”",
                    f"the bumper says the company's name, e.g. 'Gouji Stars' is brought to you by “{name}” …",
                ),
            )
            return None
    if (
        text is None
        or secs is None
        or not check_on_air(b, f["text"], text, "sponsors.bumpers[].text", f"{what} 标版文字")
    ):
        return None
    return Bumper(bumper_id, text, secs)


@dataclass(frozen=True)
class Common:
    """The fields every slot reads alike; None where the field is absent or wrong."""

    sponsor: str | None
    contract: Contract | None
    price: Price | None
    logo: Asset | None
    graphics: tuple[str, ...]
    scenes: tuple[str, ...]
    draws: bool
    notes: str

    def has(self, *names: str) -> bool:
        return all(getattr(self, n) is not None for n in names)


def read_common(
    b: Build,
    f: dict[str, Node],
    kind: str,
    what: str,
    *,
    need_signed: bool = False,
    price_per: str | None = None,
    logo_what: str = "",
) -> Common:
    sponsor = sponsor_ref(b, f["sponsor"], what) if "sponsor" in f else None
    contract = read_contract(b, f["contract"], what, need_signed=need_signed) if "contract" in f else None
    price = read_price(b, f["price"], what, per=price_per) if "price" in f else None
    logo = read_asset(b, f["logo"], logo_what or f"{what} 的 logo", "image") if "logo" in f else None
    graphics, scenes, draws = read_on_air(b, f.get("on_air"), kind, what)
    notes = b.r.text(f["notes"], f"{what} 的 notes", allow_empty=True) if "notes" in f else ""
    return Common(sponsor, contract, price, logo, graphics, scenes, draws, notes or "")
