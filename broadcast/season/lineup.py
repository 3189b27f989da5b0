"""Correcting a season match's lineup at the table, mid-match: the season's correction first
(:meth:`~broadcast.season.corrections.Corrections.correct_lineup`: the games already in the season
corrected with it, the 英雄榜's totals counted again), then the journaled ``season.lineup`` that puts the
corrected names, photos and teams on the table, with the operator's reason, in the game's history like
every correction (so that Ctrl+Z can undo it: the same correction back, with its own reason).

    correct_lineup(store, db, lineup={1: pid, …}, reason="座位录错")             # from game 1: all of it
    correct_lineup(store, db, lineup={…}, reason="选手换人（裁判允许）", from_game=3)  # a substitution

Refused (one clear line, the rule first) before anything is written: a match not linked to a season or
already final, a game of the match still on its way to the season (its record names the old lineup: it
goes first), a name longer than the scoreboard's field; the season's refusals are the season's (G1.1,
G1.2, …). A crash between the season's write and the journaled action is completed by doing the same
correction again: the season knows it by its ``uid`` and does not correct twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Payload, ShowStore, State
from broadcast.game.actions import _apply_match_fields, _setup
from broadcast.season.actions import push_leaderboard
from broadcast.season.model import LineupCorrected, SeasonDB, SeasonError
from broadcast.season.push import link_of

ACTIONS = Actions()
action = ACTIONS.action


@action("season.lineup")
def season_lineup(state: State, payload: Payload, ctx: Context) -> None:
    """The season corrected the match's lineup: {match_id, names: [6], photos: [6], teams: {odd, even:
    {name, color?}}, team_ids: {odd, even}, before: [odd, even, six player ids], from_game, games: [the
    season games it corrected], reason, undo?} — the table follows, the history keeps it."""
    link = state["match"]["season"]
    if not link or link.get("match_id") != payload.get("match_id"):
        raise ActionRefused(
            "season", "这场比赛不是要更正的赛季比赛", "the match on the table is not that season match"
        )
    reason = str(payload.get("reason", "")).strip()
    if not reason:
        raise ActionRefused("season", "请写明更正的原因", "give the correction's reason")
    ids = payload.get("team_ids") or {}
    before_ids = payload.get("before")
    if (
        sorted(ids) != ["even", "odd"]
        or not all(isinstance(v, int) for v in ids.values())
        or not isinstance(before_ids, list)
        or len(before_ids) != 8
        or not all(isinstance(v, int) for v in before_ids)
    ):
        raise ActionRefused(
            "season",
            "season.lineup 需要 team_ids {odd, even} 和 before（两队、六位选手的编号）",
            "season.lineup needs team_ids {odd, even} and before (two teams', six players' ids)",
        )
    table, game = state["table"], state["game"]
    before = _setup(table)
    _apply_match_fields(
        state, {k: payload[k] for k in ("names", "photos", "teams") if k in payload}
    )  # the names checked as any set-up's (on-air text, no look-alikes)
    link["team_ids"] = {"odd": int(ids["odd"]), "even": int(ids["even"])}
    after = _setup(table)
    changes = [
        f"{i}号 {a}→{b}" for i, (a, b) in enumerate(zip(before[:6], after[:6], strict=True), 1) if a != b
    ]
    sides = (("单号队", before[6], after[6]), ("双号队", before[7], after[7]))
    changes += [f"{t} {a}→{b}" for t, a, b in sides if a != b]
    games = [int(g) for g in payload.get("games", []) if isinstance(g, int)]
    from_game = int(payload.get("from_game", 1))
    scope = f"自第{from_game}局起" + (
        f"（赛季已存的第{'、'.join(map(str, games))}局一并更正）" if games else ""
    )
    game["history"] = [
        *game["history"],
        {
            "seq": ctx.seq,
            "ts": ctx.ts,
            "kind": "setup",
            "move": len(game["record"]),
            "line": "、".join(changes) + f" {scope}",
            "new_line": "undo" if payload.get("undo") else "",
            "reason": reason,
            "before": before,
            "lineup": [int(v) for v in before_ids],
            "from_game": from_game,
        },
    ]


def lineup_choices(db_path: str | Path, match_id: int) -> dict[str, Any]:
    """What the lineup correction offers for season match ``match_id``: its two teams (``odd``/``even``:
    id, name, players [{id, name}]), its lineup {seat: player id} and how many of its games the season
    holds."""
    with SeasonDB.open(db_path) as sdb:
        try:
            m = sdb.match(match_id)
        except SeasonError as exc:
            raise ActionRefused(exc.rule or "season", exc.zh, exc.en) from exc
        teams = {int(t["id"]): t for t in sdb.teams(int(m["season_id"]))}
        out: dict[str, Any] = {
            "lineup": {s: int(r["id"]) for s, r in sdb.lineup(match_id).items()},
            "games": len(sdb.games(match_id)),
        }
        for side, tid in (("odd", int(m["team_a"])), ("even", int(m["team_b"]))):
            players = [
                {"id": int(p["id"]), "name": str(p["name"])} for p in sdb.players(int(m["season_id"]), tid)
            ]
            out[side] = {"id": tid, "name": str(teams[tid]["name"]), "players": players}
    return out


def players_on_air(sdb: SeasonDB, lineup: dict[int, int]) -> tuple[list[str], list[str]]:
    """The six players' names and the photos the pages may show (a file copied into the project, served
    at /assets/photos/; a path the importer kept as given is not served, so it is not put on air)."""
    rows = {
        s: sdb.conn.execute("SELECT name, photo FROM season_players WHERE id=?", (p,)).fetchone()
        for s, p in lineup.items()
    }
    names = [str(rows[s][0]) for s in range(1, 7)]
    photos = [str(rows[s][1] or "") for s in range(1, 7)]
    return names, ["" if "/" in ph or "\\" in ph else ph for ph in photos]


def correct_lineup(
    store: ShowStore,
    db_path: str | Path,
    *,
    lineup: dict[int, int],
    reason: str,
    odd: int | None = None,
    even: int | None = None,
    from_game: int = 1,
    undo: bool = False,
    top: int = 10,
) -> LineupCorrected:
    """Correct the lineup of the season match on the table (see the module's doc); returns what the
    season holds."""
    state = store.state
    link = state["match"]["season"]
    if not link:
        raise ActionRefused("season", "这场比赛没有关联赛季", "this match is not linked to a season")
    mid = int(link["match_id"])
    waiting = [p["uid"] for p in state["season_push"]["pending"] if int(p["match_id"]) == mid]
    if waiting:
        raise ActionRefused(
            "season",
            f"{'、'.join(waiting)} 还在存入赛季（牌谱里是原来的名单）：存入后再更正",
            f"{', '.join(waiting)} is still on its way to the season (its record names the lineup as it"
            " was): correct once it is in",
        )
    lineup = {int(s): int(p) for s, p in lineup.items()}
    wanted = [str(s) for s in (odd, even)] + [str(lineup.get(s)) for s in range(1, 7)]
    uid = f"m{mid}/g{state['table']['game_no']}/h{len(state['game']['history'])}/{'-'.join(wanted)}"
    with SeasonDB.open(db_path) as sdb:
        try:
            names = players_on_air(sdb, lineup) if sorted(lineup) == [1, 2, 3, 4, 5, 6] else None
            for seat, name in enumerate(names[0] if names else [], start=1):
                long = store.schema.too_long(
                    "table.seats[].name", name, shown=f"table.seats[{seat - 1}].name"
                )
                if long is not None:
                    raise ActionRefused(long.rule, long.zh, long.en)
            done = sdb.correct_lineup(mid, lineup, reason, odd=odd, even=even, from_game=from_game, uid=uid)
        except SeasonError as exc:
            raise ActionRefused(exc.rule or "season", exc.zh, exc.en) from exc
        assert names is not None  # a lineup the season took has seats 1–6
        teams = {int(t["id"]): t for t in sdb.teams(int(link["season_id"]))}
        sides: dict[str, Any] = {}
        for side, tid in (("odd", done.after[0]), ("even", done.after[1])):
            sides[side] = {"name": str(teams[tid]["name"])}
            if teams[tid]["color"]:
                sides[side]["color"] = str(teams[tid]["color"])
        store.dispatch(
            "season.lineup",
            {
                "match_id": mid,
                "names": names[0],
                "photos": names[1],
                "teams": sides,
                "team_ids": {"odd": done.after[0], "even": done.after[1]},
                "before": list(done.before),
                "from_game": from_game,
                "games": list(done.games),
                "reason": reason,
                "undo": undo,
            },
            source="season",
        )
        if done.games and link_of(store) is None:  # a running link follows the season's revision itself
            sponsor = store.state["sponsors"]["leaderboard"]["name"] if "sponsors" in store.state else ""
            push_leaderboard(store, sdb, int(link["season_id"]), top=top, sponsor=sponsor or None)
    return done


__all__ = ["correct_lineup", "lineup_choices", "players_on_air"]
