"""The qualifier board on air: the ``qualifiers.set`` action (section ``qualifiers``, ``schema.json``).

The reducer copies a payload the schema then validates (texts at their on-air maxima, at most ten
rows), so a journal replay rebuilds the same board; the rows are computed outside, from the qualifier
tables (:func:`board_payload`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Fragment, Payload, State
from broadcast.errors import plural

from .board import describe, ranked, spec_of
from .store import QualifierDB

SCHEMA = Fragment(resources.files("broadcast.qualifiers").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action

ON_AIR_ROWS = 10
NAME_MAX = 12
ID_MAX = 12
_FIELDS = ("title", "sponsor", "summary", "spec", "rows")


@action("qualifiers.set")
def qualifiers_set(state: State, payload: Payload, ctx: Context) -> None:
    """The board shown on air: {title?, sponsor?, summary?, spec?, rows: [{rank, tied, name, platform_id,
    games, points, first_rate}]}."""
    unknown = sorted(set(payload) - set(_FIELDS))
    if unknown:
        raise ActionRefused(
            "qualifiers",
            f"海选榜没有字段 {', '.join(unknown)}",
            f"the qualifier board has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    if not isinstance(payload.get("rows"), list):
        raise ActionRefused("qualifiers", "海选榜需要 rows 列表", "qualifiers.set needs a rows list")
    section = SCHEMA.defaults("qualifiers")
    section.update({k: payload[k] for k in _FIELDS if k in payload})
    section["rows"] = [dict(r) if isinstance(r, dict) else r for r in payload["rows"]]
    state["qualifiers"] = section


def on_air_name(name: str) -> str:
    """A nickname as the board airs it: at most :data:`NAME_MAX` characters, a longer one cut with “…”."""
    return _cut(name, NAME_MAX)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_payload(qdb: QualifierDB, *, top: int = ON_AIR_ROWS, spec: str | None = None) -> dict[str, Any]:
    """The ``qualifiers.set`` payload of the board's first ``top`` (≤ 10) rows."""
    used = spec_of(qdb, spec)
    rows = [r for r in ranked(qdb, used, top)][: min(top, ON_AIR_ROWS)]
    t = qdb.totals()
    summary = f"{t['records']:,}局 · {t['players']:,}位选手"
    if len(summary) > 22:  # a board of tens of millions: in 万
        summary = f"{t['records'] / 10_000:,.0f}万局 · {t['players'] / 10_000:,.1f}万位选手"
    return {
        "title": qdb.setting("title") or "网络海选",
        "summary": summary,
        "spec": _cut(describe(used), 30),
        "rows": [
            {
                "rank": r.rank,
                "tied": r.tied,
                "name": on_air_name(r.name),
                "platform_id": _cut(r.platform_id, ID_MAX),
                "games": r.games,
                "points": r.points,
                "first_rate": r.first_rate,
            }
            for r in rows
        ],
    }
