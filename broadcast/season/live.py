"""The live match's door to the season: start a season match at the table, save each finished game to
it (the record re-checked by the engine), then the match; the 英雄榜 follows.

The season tables are not the show state: they are written here, on the store's thread (the console
calls these through its bridge), and each write is followed by a journaled action that records it in
``state.match.season`` (``season.link``, ``season.game_saved``, ``season.match_final``). Every write
is idempotent — a game already in the season (same match, same record) is not stored twice, missing
penalties are added, a final match is not finished again — so pressing "save" again after a crash
between the write and its action completes the save instead of doubling it.

    start_match(store, db, season="第一季", episode=16, odd=team_a, even=team_b, lineup={1: pid, …})
    save_game(store, db)        # the game on the table, once it is over
    finish_match(store, db)     # once state.match.result has a winner (or lots/forfeit decided it)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Payload, ShowStore, State
from broadcast.season.actions import push_leaderboard
from broadcast.season.lineup import players_on_air
from broadcast.season.model import ODD_SEATS, SeasonDB, SeasonError, round_name
from broadcast.season.push import finished_work, game_record, link_of, push_pending, queue_final, queue_game

ACTIONS = Actions()
action = ACTIONS.action


def _refused(exc: SeasonError) -> ActionRefused:
    return ActionRefused(exc.rule or "season", exc.zh, exc.en)


# ----------------------------------------------------------------------------------- actions
@action("season.link")
def season_link(state: State, payload: Payload, ctx: Context) -> None:
    """The match on the table is season match ``match_id``: {season_id, season, match_id, episode,
    label, team_ids: {odd, even}}."""
    for key in ("season_id", "match_id"):
        if not isinstance(payload.get(key), int):
            raise ActionRefused("season", f"season.link 需要 {key}", f"season.link needs {key}")
    ids = payload.get("team_ids") or {}
    state["match"]["season"] = {
        "season_id": payload["season_id"],
        "season": str(payload.get("season", "")),
        "match_id": payload["match_id"],
        "episode": str(payload.get("episode", "")),
        "label": str(payload.get("label", "")),
        "team_ids": {k: int(v) for k, v in ids.items() if k in ("odd", "even")},
        "saved": [],
        "penalties_saved": 0,
        "final": False,
    }


@action("season.game_saved")
def season_game_saved(state: State, payload: Payload, ctx: Context) -> None:
    """Game ``game_no`` of the match is in the season as game ``game_id``: {game_no, game_id, penalties}."""
    link = state["match"]["season"]
    if not link:
        raise ActionRefused("season", "这场比赛没有关联赛季", "this match is not linked to a season")
    game_no, game_id = payload.get("game_no"), payload.get("game_id")
    if not isinstance(game_no, int) or not isinstance(game_id, int):
        raise ActionRefused(
            "season", "season.game_saved 需要 game_no 和 game_id", "needs game_no and game_id"
        )
    saved = [s for s in link["saved"] if s["game_no"] != game_no]
    link["saved"] = sorted([*saved, {"game_no": game_no, "game_id": game_id}], key=lambda s: s["game_no"])
    link["penalties_saved"] = int(payload.get("penalties", link["penalties_saved"]))


@action("season.match_final")
def season_match_final(state: State, payload: Payload, ctx: Context) -> None:
    """The season match is final (decided and stored): {penalties}."""
    link = state["match"]["season"]
    if not link:
        raise ActionRefused("season", "这场比赛没有关联赛季", "this match is not linked to a season")
    link["final"] = True
    link["penalties_saved"] = int(payload.get("penalties", link["penalties_saved"]))


# ----------------------------------------------------------------------------------- services
def season_choices(db_path: str | Path) -> dict[str, Any]:
    """What the new-match dialog offers: seasons with their teams, players and episodes."""
    out: dict[str, Any] = {"seasons": []}
    with SeasonDB.open(db_path) as sdb:
        for s in sdb.seasons():
            sid = int(s["id"])
            teams = [
                {
                    "id": int(t["id"]),
                    "name": str(t["name"]),
                    "color": str(t["color"] or ""),
                    "players": [
                        {"id": int(p["id"]), "name": str(p["name"])} for p in sdb.players(sid, int(t["id"]))
                    ],
                }
                for t in sdb.teams(sid)
            ]
            episodes = [int(e["number"]) for e in sdb.episodes(sid)]
            out["seasons"].append(
                {
                    "id": sid,
                    "name": str(s["name"]),
                    "title": str(s["title"]),
                    "rules": str(s["rules"]),
                    "teams": teams,
                    "episodes": episodes,
                }
            )
    return out


def _check_texts(
    store: ShowStore,
    sdb: SeasonDB,
    sid: int,
    episode: int,
    odd: int,
    even: int,
    lineup: dict[int, int],
    label: str,
) -> None:
    """The match's on-air texts (players' and teams' names, the episode and the round) against their
    fields' maxima in the schema, before anything is written: a name too long for the scoreboard is
    refused naming the field, and no season match is created for a table that cannot be set."""
    teams = {int(t["id"]): str(t["name"]) for t in sdb.teams(sid)}
    texts: list[tuple[str, str, str]] = [("show.episode", f"第{episode}期", ""), ("show.round", label, "")]
    for side, tid in (("odd", odd), ("even", even)):
        if tid in teams:  # an unknown team is refused by create_match
            texts.append((f"table.teams.{side}.name", teams[tid], ""))
    for seat, pid in sorted(lineup.items()):
        row = sdb.conn.execute("SELECT name FROM season_players WHERE id=?", (pid,)).fetchone()
        if row is not None:
            texts.append(("table.seats[].name", str(row[0]), f"table.seats[{int(seat) - 1}].name"))
    for field, value, shown in texts:
        long = store.schema.too_long(field, value, shown=shown)
        if long is not None:
            raise ActionRefused(long.rule, long.zh, long.en)


def _episode_id(sdb: SeasonDB, sid: int, episode: int, air_date: str) -> int:
    """The episode, made if it is not there yet. Two tables starting the first match of an episode at
    once both find it missing: the one whose insert comes second takes the one the other made."""
    try:
        return int(sdb.episode(sid, episode)["id"])
    except SeasonError:
        pass
    try:
        return sdb.add_episode(sid, episode, air_date=air_date)
    except SeasonError as exc:
        try:
            return int(sdb.episode(sid, episode)["id"])
        except SeasonError:
            raise exc from None


def start_match(
    store: ShowStore,
    db_path: str | Path,
    *,
    season: str | int,
    episode: int,
    odd: int,
    even: int,
    lineup: dict[int, int],
    round_: int = 0,
    label: str = "",
    air_date: str = "",
    uid: str | None = None,
) -> int:
    """Create the season match (team ``odd`` on seats 1, 3, 5; ``even`` on 2, 4, 6) and set the table up
    for it (names, teams, colours, rules); returns the season match id."""
    with SeasonDB.open(db_path) as sdb:
        try:
            s = sdb.season(season)
            sid = int(s["id"])
            _check_texts(store, sdb, sid, episode, odd, even, lineup, label or round_name(round_))
            eid = _episode_id(sdb, sid, episode, air_date)
            mid = sdb.create_match(
                sid, odd, even, lineup, episode_id=eid, round_=round_, label=label, uid=uid
            )
        except SeasonError as exc:
            raise _refused(exc) from exc
        teams = {int(t["id"]): t for t in sdb.teams(sid)}
        names, photos = players_on_air(sdb, lineup)
    team_fields: dict[str, dict[str, str]] = {}
    for side, tid in (("odd", odd), ("even", even)):
        t = teams[tid]
        team_fields[side] = {"name": str(t["name"])}
        if t["color"]:
            team_fields[side]["color"] = str(t["color"])
    label = label or round_name(round_)
    store.dispatch(
        "match.new",
        {
            "teams": team_fields,
            "names": names,
            "photos": photos,
            "rules": str(s["rules"]),
        },
        source="season",
    )
    store.dispatch("show.update", {"episode": f"第{episode}期", "round": label}, source="season")
    store.dispatch(
        "season.link",
        {
            "season_id": sid,
            "season": str(s["name"]),
            "match_id": mid,
            "episode": f"第{episode}期",
            "label": label,
            "team_ids": {"odd": odd, "even": even},
        },
        source="season",
    )
    return mid


def save_game(store: ShowStore, db_path: str | Path, *, top: int = 10, wait: float = 5.0) -> int:
    """Save the finished game on the table to its season match (the engine re-checks the record) and
    update the 英雄榜; returns the season game id. Journaled at the table first, then pushed once
    (:mod:`broadcast.season.push`): with the studio's running link the push is its thread's (waited
    for ``wait`` seconds), without one it is pushed here to ``db_path``."""
    uid = queue_game(store)
    _push_now(store, db_path, uid, wait, top)
    link = store.state["match"]["season"]
    game_no = int(store.state["table"]["game_no"])
    done = next((s for s in link["saved"] if s["game_no"] == game_no), None) if link else None
    if done is None:
        raise ActionRefused("season", "赛季没有确认这一局", "the season did not acknowledge the game")
    return int(done["game_id"])


def finish_match(store: ShowStore, db_path: str | Path, *, wait: float = 5.0) -> dict[str, Any]:
    """Make the season match final as the engine decided it (points, extra game, lots with the seed
    recorded at the table, forfeit); returns the season's result."""
    for work in finished_work(store.state):  # a game not saved yet goes first
        if work == "game":
            _push_now(store, db_path, queue_game(store), wait, 10)
    uid = queue_final(store)
    _push_now(store, db_path, uid, wait, 10)
    link = store.state["match"]["season"]
    with SeasonDB.open(_target(store, db_path)) as sdb:
        m = sdb.match(int(link["match_id"]))
    winner_side = "odd" if m["winner"] == link["team_ids"]["odd"] else "even"
    return {
        "match_id": int(link["match_id"]),
        "score_a": m["score_a"],
        "score_b": m["score_b"],
        "winner": winner_side,
        "decided_by": m["decided_by"],
    }


def _target(store: ShowStore, db_path: str | Path) -> str:
    link = link_of(store)
    return link.target if link is not None else str(db_path)


def _push_now(store: ShowStore, db_path: str | Path, uid: str, wait: float, top: int) -> None:
    """Push ``uid`` now (through the studio's link if it runs); a refusal or a season that stays
    unreachable is one clear message (the item stays journaled and goes when the season is back)."""
    link = link_of(store)
    if link is not None:
        if not link.wait_pushed(uid, wait):
            raise ActionRefused(
                "season",
                "已记在本机；赛季数据库暂时连不上，恢复后自动存入",
                "kept at this table; the season database is unreachable: it goes in once it is back",
            )
    else:
        with SeasonDB.open(db_path) as sdb:
            push_pending(store, sdb)
            if not _refused_now(store, uid):
                link_state = store.state["match"]["season"]
                sponsor = store.state["sponsors"]["leaderboard"]["name"] if "sponsors" in store.state else ""
                push_leaderboard(store, sdb, int(link_state["season_id"]), top=top, sponsor=sponsor or None)
    refused = _refused_now(store, uid)
    if refused:
        raise ActionRefused(refused["rule"] or "season", refused["zh"], refused["en"])


def _refused_now(store: ShowStore, uid: str) -> dict[str, str] | None:
    refused = store.state["season_push"]["refused"]
    return dict(refused) if refused and refused.get("uid") == uid else None


__all__ = ["ODD_SEATS", "finish_match", "game_record", "save_game", "season_choices", "start_match"]
