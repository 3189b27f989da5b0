"""The overlay's 英雄榜 is fed from the season database: the ``leaderboard.set`` action and a helper.

    push_leaderboard(store, sdb, season="第一季", top=10)   # computes rows, dispatches leaderboard.set

The reducer only copies a validated payload into ``state.leaderboard`` (deterministic, so journal
replay rebuilds the same board); the computing happens in :func:`leaderboard_payload`, outside.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from broadcast.core import ActionRefused, Actions, Change, Context, Fragment, Payload, ShowStore, State
from broadcast.errors import plural
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import Kind, compute

SCHEMA = Fragment(resources.files("broadcast.season").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action

MAX_ROWS = 50
_ROW_FIELDS: dict[str, type | tuple[type, ...]] = {
    "rank": int,
    "name": str,
    "team": str,
    "points": (int, float),
    "firsts": int,
    "lasts": int,
    "games": int,
    "tied": bool,
    "team_color": str,
}


@action("leaderboard.set")
def leaderboard_set(state: State, payload: Payload, ctx: Context) -> None:
    """The 英雄榜 shown on air: {title, season, sponsor?, kind?, spec?, as_of?, rows: [{rank, name, …}]}."""
    unknown = sorted(set(payload) - {"title", "season", "sponsor", "kind", "spec", "as_of", "rows"})
    if unknown:
        raise ActionRefused(
            "leaderboard",
            f"英雄榜没有字段 {', '.join(unknown)}",
            f"leaderboard has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    rows = payload.get("rows")
    if not isinstance(rows, list):
        raise ActionRefused("leaderboard", "英雄榜需要 rows 列表", "leaderboard.set needs a rows list")
    if len(rows) > MAX_ROWS:
        raise ActionRefused("leaderboard", f"英雄榜最多 {MAX_ROWS} 行", f"at most {MAX_ROWS} rows")
    kind = payload.get("kind", "players")
    if kind not in ("players", "teams"):
        raise ActionRefused(
            "leaderboard", f"英雄榜类型应为 players 或 teams：{kind!r}", f"unknown kind {kind!r}"
        )
    clean: list[dict[str, Any]] = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise ActionRefused("leaderboard", f"第{i}行不是对象", f"row {i} is not an object")
        bad = sorted(set(row) - set(_ROW_FIELDS))
        if bad:
            raise ActionRefused(
                "leaderboard",
                f"第{i}行没有字段 {', '.join(bad)}",
                f"row {i} has no {plural(len(bad), 'field')} {', '.join(bad)}",
            )
        out: dict[str, Any] = {
            "rank": i,
            "name": "",
            "team": "",
            "points": 0,
            "firsts": 0,
            "lasts": 0,
            "games": 0,
            "tied": False,
            "team_color": "",
        }
        for k, v in row.items():
            want = _ROW_FIELDS[k]
            if isinstance(v, bool) and want is not bool:
                raise ActionRefused(
                    "leaderboard", f"第{i}行 {k} 类型错误", f"row {i}: {k} has the wrong type"
                )
            if not isinstance(v, want):
                raise ActionRefused(
                    "leaderboard", f"第{i}行 {k} 类型错误", f"row {i}: {k} has the wrong type"
                )
            out[k] = v
        if not out["name"]:
            raise ActionRefused("leaderboard", f"第{i}行没有姓名", f"row {i} has no name")
        clean.append(out)
    lb = state["leaderboard"]
    for key in ("title", "season", "sponsor", "spec", "as_of"):
        if key in payload:
            lb[key] = str(payload[key])
    lb["kind"] = kind
    lb["rows"] = clean


def leaderboard_payload(
    sdb: SeasonDB,
    season: str | int | None = None,
    *,
    kind: Kind = "players",
    top: int = 10,
    spec: str | None = None,
    sponsor: str | None = None,
    as_of: str = "",
) -> dict[str, Any]:
    """The ``leaderboard.set`` payload for a season's current 英雄榜 (top ``top`` rows: read from the
    totals kept up to date, never a full ranking — :func:`~broadcast.season.rankings.compute` ``top``)."""
    s = sdb.season(season)
    ranking = compute(sdb.conn, int(s["id"]), kind, spec=spec, top=top)
    if not as_of:
        # the last episode whose games the board counts: a final match, or a game saved in a match
        # still under way (the board counts every saved game)
        last = sdb.last_episode(int(s["id"]), with_games=True)
        as_of = f"第{last}期后" if last else ""
    rows = [
        {
            "rank": r.rank,
            "name": r.name,
            "team": r.team if kind == "players" else r.sponsor,
            "points": r.points,
            "firsts": r.firsts,
            "lasts": r.lasts,
            "games": r.games,
            "tied": r.tied,
            "team_color": r.team_color,
        }
        for r in ranking.rows[:top]
    ]
    title = "够级英雄榜" if kind == "players" else "够级英雄榜 · 团体"
    return {
        "title": title,
        "season": f"{s['title']}" + (f" · {as_of}" if as_of else ""),
        "sponsor": s["sponsor"] if sponsor is None else sponsor,
        "kind": kind,
        "spec": ranking.spec,
        "as_of": as_of,
        "rows": rows,
    }


def push_leaderboard(
    store: ShowStore,
    sdb: SeasonDB,
    season: str | int | None = None,
    *,
    kind: Kind = "players",
    top: int = 10,
    spec: str | None = None,
    sponsor: str | None = None,
    source: str = "season",
) -> Change:
    """Compute the 英雄榜 from the database and dispatch ``leaderboard.set`` to the show store."""
    payload = leaderboard_payload(sdb, season, kind=kind, top=top, spec=spec, sponsor=sponsor)
    return store.dispatch("leaderboard.set", payload, source=source)
