"""The qualifier board (海选榜): the players ranked by a configurable key, as the 英雄榜.

The key is written as the 英雄榜's (``broadcast.season.rankings``: ``field [asc|desc]`` terms, compared
in order; ``name`` and ``id`` only order rows that are equal on every other term, and such rows share
a rank, 并列), over the qualifier fields of :data:`FIELDS`. There is no ``h2h`` (a million games are
not kept seat by seat). The platform id is the last tie-breaker, so the order is the same whatever
order the records were imported in.

The database sorts (SQL ``ORDER BY`` over the totals), and rows stream out: the top 10 of half a
million players is read without loading them all; a tie group is held only while it is numbered.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from broadcast.season.rankings import ORDER_ONLY, Term, parse_spec, spec_text

from .store import QualifierDB

KIND = "qualifiers"
DEFAULT_SPEC = "points desc, firsts desc, lasts asc, name"

# field → (Chinese label, default direction, SQL over qualifiers_players)
_DEFS: dict[str, tuple[str, str, str]] = {
    "points": ("积分", "desc", "points"),
    "games": ("局数", "desc", "games"),
    "avg": ("场均", "desc", "CAST(points AS DOUBLE PRECISION) / games"),
    "firsts": ("头科", "desc", "place1"),
    "first_rate": ("头科率", "desc", "CAST(place1 AS DOUBLE PRECISION) / games"),
    "seconds": ("二科", "desc", "place2"),
    "thirds": ("三科", "desc", "place3"),
    "lasts": ("大落", "asc", "place6"),
    "quan_san": ("圈三", "asc", "quan_san"),
    "opened": ("开点", "desc", "opened"),
    "name": ("昵称", "asc", "name"),
    "id": ("平台编号", "asc", "platform_id"),  # PostgreSQL: in byte order (COLLATE "C"), as SQLite
}
FIELDS: dict[str, tuple[str, str]] = {k: (v[0], v[1]) for k, v in _DEFS.items()}


@dataclass(slots=True)
class BoardRow:
    rank: int
    tied: bool
    platform_id: str
    name: str
    games: int
    points: int
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    fifths: int
    lasts: int
    quan_san: int
    opened: int

    @property
    def avg(self) -> float:
        return round(self.points / self.games, 3) if self.games else 0.0

    @property
    def first_rate(self) -> float:
        """头科率: the share of the player's games in which they played out first."""
        return round(self.firsts / self.games, 4) if self.games else 0.0

    @property
    def rank_label(self) -> str:
        return f"并列{self.rank}" if self.tied else str(self.rank)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(avg=self.avg, first_rate=self.first_rate, rank_label=self.rank_label)
        return d


def terms_of(spec: str | None) -> list[Term]:
    """The ranking key (:class:`broadcast.season.rankings.SpecError` naming a bad term)."""
    return parse_spec(spec or DEFAULT_SPEC, KIND, FIELDS)


def spec_of(qdb: QualifierDB, spec: str | None = None) -> str:
    return spec_text(terms_of(spec or qdb.setting("ranking") or None))


def ranked(qdb: QualifierDB, spec: str | None = None, top: int | None = None) -> Iterator[BoardRow]:
    """The board in order: the first ``top`` rows (and any tied with the last of them), or every row."""
    terms = terms_of(spec or qdb.setting("ranking") or None)
    rank_terms = [t for t in terms if t.field not in ORDER_ONLY]
    order_terms = [t for t in terms if t.field in ORDER_ONLY]
    keys = [f"{_DEFS[t.field][2]} {'DESC' if t.desc else 'ASC'}" for t in rank_terms]
    last = 'platform_id COLLATE "C"' if qdb.conn.postgres else "platform_id"
    sql = (
        "SELECT platform_id, name, games, points, place1, place2, place3, place4, place5, place6, quan_san, "
        f"opened{''.join(f', {_DEFS[t.field][2]}' for t in rank_terms)} FROM qualifiers_players "
        f"WHERE games > 0 ORDER BY {', '.join([*keys, last])}"
    )
    width = len(rank_terms)
    group: list[BoardRow] = []
    group_key: tuple[Any, ...] | None = None
    done = 0
    for r in qdb.conn.execute(sql):
        key = tuple(r[12 : 12 + width])
        if group and key != group_key:
            yield from _numbered(group, done, order_terms)
            done += len(group)
            group = []
            if top is not None and done >= top:
                return
        group_key = key
        group.append(BoardRow(0, False, str(r[0]), str(r[1]), *(int(x) for x in r[2:12])))
    if group:
        yield from _numbered(group, done, order_terms)


def _numbered(group: list[BoardRow], before: int, order_terms: list[Term]) -> list[BoardRow]:
    for t in reversed(order_terms):  # stable multi-key sort, last key first
        if t.field == "name":
            group.sort(key=lambda r: r.name.encode("gb18030", errors="replace"), reverse=t.desc)
        else:
            group.sort(key=lambda r: r.platform_id, reverse=t.desc)
    for r in group:
        r.rank = before + 1
        r.tied = len(group) > 1
    return group


def describe(spec: str) -> str:
    """The ranking key in words (exports, graphic): 按积分、头科、大落（少者先）排名."""
    words = []
    for t in terms_of(spec):
        if t.field in ORDER_ONLY:
            continue
        label, default = FIELDS[t.field]
        if not t.desc:
            words.append(f"{label}（少者先）")
        else:
            words.append(label if default == "desc" else f"{label}（多者先）")
    return "按" + "、".join(words) + "排名"
