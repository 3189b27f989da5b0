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
from broadcast.game.adapter import replay
from broadcast.season.actions import push_leaderboard
from broadcast.season.model import ODD_SEATS, SeasonDB, SeasonError, round_name
from engine import gjn

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
) -> int:
    """Create the season match (team ``odd`` on seats 1, 3, 5; ``even`` on 2, 4, 6) and set the table up
    for it (names, teams, colours, rules); returns the season match id."""
    with SeasonDB.open(db_path) as sdb:
        try:
            s = sdb.season(season)
            sid = int(s["id"])
            _check_texts(store, sdb, sid, episode, odd, even, lineup, label or round_name(round_))
            try:
                ep = sdb.episode(sid, episode)
                eid = int(ep["id"])
            except SeasonError:
                eid = sdb.add_episode(sid, episode, air_date=air_date)
            mid = sdb.create_match(sid, odd, even, lineup, episode_id=eid, round_=round_, label=label)
        except SeasonError as exc:
            raise _refused(exc) from exc
        teams = {int(t["id"]): t for t in sdb.teams(sid)}
        rows = {
            seat: sdb.conn.execute("SELECT name, photo FROM season_players WHERE id=?", (pid,)).fetchone()
            for seat, pid in lineup.items()
        }
    players = {seat: row[0] for seat, row in rows.items()}
    # a photo copied into the project (a file name) is served at /assets/photos/ for the lower third;
    # a path the importer kept as it was given is not served, so it is not put on air
    photos = {seat: str(row[1] or "") for seat, row in rows.items()}
    photos = {seat: ("" if "/" in ph or "\\" in ph else ph) for seat, ph in photos.items()}
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
            "names": [players[i] for i in range(1, 7)],
            "photos": [photos[i] for i in range(1, 7)],
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


def game_record(state: State) -> str:
    """The GJN text of the game on the table (names, rules, leader, hands or counts, every decision)."""
    table = state["table"]
    game = replay(state)
    link = state["match"]["season"] or {}
    event = " ".join(x for x in (state["show"]["title"], link.get("episode", ""), link.get("label", "")) if x)
    tags = [("Event", f"{event} 第{table['game_no']}局".strip())]
    tags += [(f"Seat{s['seat']}", s["name"]) for s in table["seats"]]
    return str(gjn.write(gjn.from_game(game, tags)))


def _sync_penalties(sdb: SeasonDB, state: State, mid: int) -> int:
    """Add the table's penalties the season match does not have yet; returns how many it has."""
    link = state["match"]["season"]
    have = len(sdb.penalties(mid))
    for p in state["game"]["penalties"][have:]:
        team_id = link["team_ids"][p["team"]]
        try:
            sdb.add_penalty(mid, team_id, p["reason"] or "违背够级规则", game_number=int(p.get("game_no", 1)))
        except SeasonError as exc:
            raise _refused(exc) from exc
    return len(sdb.penalties(mid))


def save_game(store: ShowStore, db_path: str | Path, *, top: int = 10) -> int:
    """Save the finished game on the table to its season match (the engine re-checks the record) and
    update the 英雄榜; returns the season game id. Idempotent (see the module doc)."""
    state = store.state
    link = state["match"]["season"]
    if not link:
        raise ActionRefused(
            "season", "这场比赛没有关联赛季（比赛 → 新比赛）", "this match is not linked to a season"
        )
    if state["table"]["phase"] != "over":
        raise ActionRefused("G10.4", "本局还没有结束，不能存入赛季", "the game is not over yet")
    game_no = int(state["table"]["game_no"])
    done = next((s for s in link["saved"] if s["game_no"] == game_no), None)
    if done is not None:
        return int(done["game_id"])
    text = game_record(state)
    mid = int(link["match_id"])
    with SeasonDB.open(db_path) as sdb:
        row = sdb.conn.execute(
            "SELECT id FROM season_games WHERE match_id=? AND gjn=?", (mid, text)
        ).fetchone()
        try:
            penalties = _sync_penalties(sdb, state, mid)
            gid = int(row[0]) if row else sdb.record_game(mid, text, filename=f"第{game_no}局.gjn")
        except SeasonError as exc:
            raise _refused(exc) from exc
        store.dispatch(
            "season.game_saved", {"game_no": game_no, "game_id": gid, "penalties": penalties}, source="season"
        )
        sponsor = state["sponsors"]["leaderboard"]["name"] if "sponsors" in state else ""
        push_leaderboard(store, sdb, int(link["season_id"]), top=top, sponsor=sponsor or None)
    return gid


def finish_match(store: ShowStore, db_path: str | Path) -> dict[str, Any]:
    """Make the season match final as the engine decided it (points, extra game, lots with the seed
    recorded at the table, forfeit); returns the season's result."""
    state = store.state
    link = state["match"]["season"]
    if not link:
        raise ActionRefused("season", "这场比赛没有关联赛季", "this match is not linked to a season")
    result = state["match"]["result"]
    if result["winner"] is None:
        raise ActionRefused("G11.2", "比赛还没有决出胜负", "the match is not decided yet")
    mid = int(link["match_id"])
    with SeasonDB.open(db_path) as sdb:
        m = sdb.match(mid)
        if m["status"] != "final":
            try:
                penalties = _sync_penalties(sdb, state, mid)
                forfeit = state["match"]["forfeit"]
                if forfeit:
                    res = sdb.record_forfeit(mid, link["team_ids"][forfeit["team"]], forfeit["reason"])
                else:
                    lots = state["match"]["lots"]
                    res = sdb.finish_match(mid, lots_seed=lots["seed"] if lots else None)
            except SeasonError as exc:
                raise _refused(exc) from exc
            if res.needs_extra_game:
                raise ActionRefused(
                    "G11.2", "赛季记录显示还需要加赛", "the season says an extra game is needed"
                )
        else:
            penalties = len(sdb.penalties(mid))
        m = sdb.match(mid)
        store.dispatch("season.match_final", {"penalties": penalties}, source="season")
        sponsor = state["sponsors"]["leaderboard"]["name"] if "sponsors" in state else ""
        push_leaderboard(store, sdb, int(link["season_id"]), sponsor=sponsor or None)
        winner_side = "odd" if m["winner"] == link["team_ids"]["odd"] else "even"
        return {
            "match_id": mid,
            "score_a": m["score_a"],
            "score_b": m["score_b"],
            "winner": winner_side,
            "decided_by": m["decided_by"],
        }


__all__ = ["ODD_SEATS", "finish_match", "game_record", "save_game", "season_choices", "start_match"]
