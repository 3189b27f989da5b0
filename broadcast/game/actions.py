"""The game actions: they drive the scoreboard from a live rules engine.

The operator enters each decision as a GJN move line; the engine (``engine.Game``) checks it and the
result is projected into ``state.table`` (what the pages show) and ``state.game`` (the record):

    store.dispatch("match.new", {"teams": {"odd": {"name": "小当家联盟队"}, "even": {"name": "沂蒙山泉队"}},
                                 "names": ["张三", "李四", "王五", "赵六", "钱七", "孙八"]})
    store.dispatch("game.new", {"leader": 3})                 # hands unknown: only counts are checked
    store.dispatch("game.new", {"seed": 7})                   # a seeded deal (rehearsal, tests)
    store.dispatch("game.play", {"line": "3 TTTTT"})          # refused with the clause id if illegal
    store.dispatch("game.undo")

An illegal move is refused with ``ActionRefused("G4.2", zh, en)`` from the engine's
``IllegalAction``: that is how the operator learns which rule the move broke. Nothing is journaled.

The engine's game is the store's live game (``live.py``, built from the state by ``adapter.py``); what
it decided is written into the state by ``projection.py``. The component's other actions are in
``record.py`` (undo, redo, corrections, hands) and ``match.py`` (forfeit, late, lots); ``component.py``
names them all.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import engine
from broadcast.core import ActionRefused, Actions, Context, Fragment, Payload, State
from broadcast.core.text import name_key
from broadcast.errors import count, plural
from broadcast.game.adapter import parse_move
from broadcast.game.live import forget, live_game, record_key
from broadcast.game.projection import project, totals
from engine.game import SEATS
from engine.words import PRESETS, TEAMS, entered_name, team_name

SCHEMA = Fragment(resources.files("broadcast.game").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action


def _seat_names(payload: Payload) -> dict[int, str] | None:
    names = payload.get("names")
    if names is None:
        return None
    if isinstance(names, dict):
        items = [(int(k), v) for k, v in names.items()]
    elif isinstance(names, list | tuple) and len(names) == 6:
        items = list(zip(SEATS, names, strict=True))
    else:
        raise ActionRefused(
            "names",
            "names 应为六个名字的列表或 {座位: 名字}",
            "names must be a list of six names or {seat: name}",
        )
    out: dict[int, str] = {}
    for seat, name in items:
        if seat not in SEATS:
            raise ActionRefused("G1.1", f"没有 {seat} 号座位", f"no seat {seat} (seats are 1..6)")
        out[seat] = str(name).strip()
    return out


def _no_look_alikes(seats: list[dict[str, Any]]) -> None:
    """Two seats may not carry names that look the same on air (compared after NFKC: 王建军 / 王建军)."""
    seen: dict[str, int] = {}
    for seat in seats:
        name = str(seat.get("name") or "")
        if not name:
            continue
        key = name_key(name)
        if key in seen:
            raise ActionRefused(
                "names",
                f"{seen[key]}号和{seat['seat']}号的名字在屏幕上看起来相同（{name}），请区分（如加上地名）",
                f"seats {seen[key]} and {seat['seat']} carry names that look the same on air ({name}): "
                "tell them apart",
            )
        seen[key] = int(seat["seat"])


def _seat_photos(payload: Payload) -> dict[int, str] | None:
    """``photos``: six file names (or {seat: name}) under the project's photo folder, served at
    ``/assets/photos/`` for the lower thirds; '' for none. A path is refused (a name only)."""
    photos = payload.get("photos")
    if photos is None:
        return None
    if isinstance(photos, dict):
        items = [(int(k), v) for k, v in photos.items()]
    elif isinstance(photos, list | tuple) and len(photos) == 6:
        items = list(zip(SEATS, photos, strict=True))
    else:
        raise ActionRefused(
            "photos",
            "photos 应为六个照片文件名的列表或 {座位: 文件名}",
            "photos must be a list of six photo file names or {seat: name}",
        )
    out: dict[int, str] = {}
    for seat, name in items:
        text = str(name or "").strip()
        if seat not in SEATS:
            raise ActionRefused("G1.1", f"没有 {seat} 号座位", f"no seat {seat} (seats are 1..6)")
        if "/" in text or "\\" in text or text in (".", ".."):
            raise ActionRefused(
                "photos",
                f"{seat} 号座位的照片应为照片文件夹里的文件名，不是路径：{text!r}",
                f"seat {seat}: a photo is a file name in the photo folder, not a path: {text!r}",
            )
        out[seat] = text
    return out


def _apply_match_fields(state: State, payload: Payload) -> None:
    table = state["table"]
    names = _seat_names(payload)
    photos = _seat_photos(payload)
    if names:
        for seat in table["seats"]:
            if seat["seat"] in names:
                name = entered_name(seat["seat"], names[seat["seat"]])
                if name != seat["name"] and photos is None:
                    seat["photo"] = ""  # another person on the seat: not the last one's photo
                seat["name"] = name
        _no_look_alikes(table["seats"])
    if photos:
        for seat in table["seats"]:
            if seat["seat"] in photos:
                seat["photo"] = photos[seat["seat"]]
    teams = payload.get("teams")
    if teams is not None:
        if not isinstance(teams, dict) or set(teams) - set(TEAMS):
            raise ActionRefused(
                "G1.2", "teams 只能有 odd（单号座位）和 even（双号座位）", "teams has only odd and even"
            )
        for team, fields in teams.items():
            if not isinstance(fields, dict) or set(fields) - {"name", "color"}:
                raise ActionRefused(
                    "teams",
                    f"队伍 {team} 只能设置 name 和 color",
                    f"team {team}: only name and color can be set",
                )
            if "name" in fields:
                name = str(fields["name"]).strip()
                table["teams"][team]["name"] = name
                table["teams"][team]["label"] = team_name(team, name)
            if "color" in fields:
                color = str(fields["color"])
                if not (
                    color.startswith("#")
                    and len(color) in (4, 7)
                    and all(c in "0123456789abcdefABCDEF" for c in color[1:])
                ):
                    raise ActionRefused(
                        "teams",
                        f"颜色应写成 #RRGGBB，不是 {color!r}",
                        f"colour must be #RRGGBB, not {color!r}",
                    )
                table["teams"][team]["color"] = color
    if "games_in_match" in payload:
        n = payload["games_in_match"]
        if not isinstance(n, int) or n < 1:
            raise ActionRefused("G11.2", "games_in_match 应为正整数", "games_in_match must be ≥ 1")
        table["games_in_match"] = n


@action("match.new")
def match_new(state: State, payload: Payload, ctx: Context) -> None:
    """A new match: {teams?: {odd|even: {name, color}}, names?: [6], photos?: [6], games_in_match?: 3,
    rules?}."""
    old = state["table"]
    table = SCHEMA.defaults("table")
    for seat, prev in zip(table["seats"], old["seats"], strict=True):
        seat["name"] = prev["name"]
        seat["photo"] = prev.get("photo", "")
    for team in TEAMS:
        for key in ("name", "label", "color"):
            table["teams"][team][key] = old["teams"][team][key]
    table["games_in_match"] = old["games_in_match"]
    rules = payload.get("rules", old["rules"])
    if rules not in PRESETS:
        raise ActionRefused("rules", f"没有这个规则预设：{rules!r}", f"unknown preset {rules!r}")
    table["rules"] = rules
    state["table"] = table
    state["game"] = SCHEMA.defaults("game")
    state["match"] = SCHEMA.defaults("match")
    forget(ctx)
    _apply_match_fields(state, {k: v for k, v in payload.items() if k != "rules"})


@action("match.update")
def match_update(state: State, payload: Payload, ctx: Context) -> None:
    """Team names/colours, seat names and photos, games in the match, the rules preset: {teams?, names?,
    photos?, games_in_match?, rules?, reason?, undo?}. With a reason it is a correction of the match's set-up
    (who sits where, the teams' names): the game's history keeps it with the set-up as it was
    (``before``: the six names, the two teams' names, the six photos, the games), as every correction, so
    that it can be undone. What would change a decided record is refused with the reason: the preset
    once the match's first decision is played (the engine judged the plays and the scores by it), fewer
    games than the match has reached (G11.2), and names or teams of a season match (the season's
    lineup holds them: saving a game checks the seats' names against it). A player's photo moves with
    the player to another seat."""
    allowed = {"teams", "names", "photos", "games_in_match", "rules", "reason", "undo"}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise ActionRefused(
            "match",
            f"match.update 没有字段 {', '.join(unknown)}",
            f"match.update has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    table, game = state["table"], state["game"]
    before, old_rules = _setup(table), str(table["rules"])
    reason = str(payload.get("reason", "")).strip()
    fields = {k: v for k, v in payload.items() if k not in ("reason", "rules", "undo")}
    names = _seat_names(fields)
    if names and "photos" not in fields:  # a player moved to another seat takes the photo along
        now = {int(x["seat"]): str(x["name"]) for x in table["seats"]}
        photo_of = {str(x["name"]): str(x.get("photo", "")) for x in table["seats"] if x["name"]}
        new = {seat: entered_name(seat, names[seat]) if seat in names else now[seat] for seat in SEATS}
        if any(new[seat] != now[seat] and new[seat] in photo_of for seat in SEATS):
            fields["photos"] = [photo_of.get(new[seat], "") for seat in SEATS]
    rules = payload.get("rules", table["rules"])
    if rules != table["rules"]:
        if rules not in PRESETS:
            raise ActionRefused("rules", f"没有这个规则预设：{rules!r}", f"unknown preset {rules!r}")
        if game["record"] or table["results"]:
            raise ActionRefused(
                "rules",
                f"规则预设（{table['rules']}）在比赛中不能更改：本场已按它判定出牌和计分（G11）；换预设请开新比赛",
                f"the preset ({table['rules']}) cannot change mid-match: the plays and scores so far were"
                " judged by it (G11); start a new match for another preset",
            )
    if "games_in_match" in fields:
        n = fields["games_in_match"]
        reached = int(table["game_no"]) if game["leader"] is not None else len(table["results"])
        if isinstance(n, int) and not isinstance(n, bool) and n < reached:
            raise ActionRefused(
                "G11.2",
                f"本场已打到第{reached}局，局数不能改成{n}",
                f"the match has reached game {reached}: it cannot be {count(n, 'game')}",
            )
    _apply_match_fields(state, fields)
    table["rules"] = rules
    after = _setup(table)
    link = state["match"]["season"]
    if link and (after[:8] != before[:8]):
        where = f"{link.get('season', '')} {link.get('episode', '')}".strip()
        raise ActionRefused(
            "season",
            f"这场比赛属于赛季（{where}）：选手和队伍由赛季的上场名单定，由赛季更正"
            "（season.lineup；控制台：编辑 ▸ 更正比赛设置（座位、队名）…）",
            f"this match belongs to the season ({where}): its players and teams are the season's lineup,"
            " corrected by the season (season.lineup; the console: Edit ▸ Correct the match set-up"
            " (seats, team names)…)",
        )
    if rules != old_rules:  # before the first decision: the game in play is the engine's under the new one
        forget(ctx)
        if game["leader"] is not None:
            project(state, live_game(state, ctx))
    if reason:
        if after == before and rules == old_rules:
            raise ActionRefused("setup", "比赛设置没有改动", "nothing in the set-up changed")
        seats = [
            f"{i}号 {a}→{b}" for i, (a, b) in enumerate(zip(before[:6], after[:6], strict=True), 1) if a != b
        ]
        teams = [
            f"{label} {a}→{b}"
            for label, a, b in (
                ("单号队", before[6], after[6]),
                ("双号队", before[7], after[7]),
                ("局数", before[14], after[14]),
                ("规则", old_rules, rules),
            )
            if a != b
        ]
        entry = {
            "seq": ctx.seq,
            "ts": ctx.ts,
            "kind": "setup",
            "move": len(game["record"]),
            "line": "、".join(seats + teams),
            "new_line": "undo" if payload.get("undo") else "",  # the undoing of the correction before
            "reason": reason,
            "before": before,
        }
        game["history"] = [*game["history"], entry]


def _setup(table: dict[str, Any]) -> list[str]:
    """The set-up a correction can change, as the history keeps it: six names, two teams, six photos,
    the games in the match."""
    seats = sorted(table["seats"], key=lambda x: x["seat"])
    return (
        [str(x["name"]) for x in seats]
        + [str(table["teams"][t]["name"]) for t in TEAMS]
        + [str(x.get("photo", "")) for x in seats]
        + [str(table["games_in_match"])]
    )


@action("match.penalty")
def match_penalty(state: State, payload: Payload, ctx: Context) -> None:
    """A referee penalty (G11.2): {team: odd|even, reason, points?: 2}."""
    team = payload.get("team")
    if team not in TEAMS:
        raise ActionRefused("G11.2", "罚分要指明队伍 odd 或 even", "penalty: team must be odd or even")
    points = payload.get("points", engine.load_preset(state["table"]["rules"]).penalty_points)
    if not isinstance(points, int) or points <= 0:
        raise ActionRefused("G11.2", "罚分应为正整数", "penalty points must be a positive integer")
    reason = str(payload.get("reason", ""))
    state["game"]["penalties"].append(
        {"team": team, "points": points, "reason": reason, "game_no": state["table"]["game_no"]}
    )
    totals(state)


@action("table.message")
def table_message(state: State, payload: Payload, ctx: Context) -> None:
    """The referee/operator line on the scoreboard: {text} ('' clears it)."""
    state["table"]["message"] = str(payload.get("text", "")).strip()


@action("game.new")
def game_new(state: State, payload: Payload, ctx: Context) -> None:
    """Start a game: {leader?, seed?, hands? [6 card strings, '' = unknown], counts?, game_no?, names?,
    rules?}.

    Without hands or seed the hands are unknown (the studio's case: only counts are checked). With a
    seed the deal is the engine's seeded deal and the leader defaults to its 上班 seat (G12.1)."""
    table = state["table"]
    allowed = {"leader", "seed", "hands", "counts", "game_no", "names", "rules", "teams"}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise ActionRefused(
            "game",
            f"game.new 没有字段 {', '.join(unknown)}",
            f"game.new has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    rules = payload.get("rules", table["rules"])
    if rules not in PRESETS:
        raise ActionRefused("rules", f"没有这个规则预设：{rules!r}", f"unknown preset {rules!r}")
    seed = payload.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise ActionRefused("game", "seed 应为整数", "seed must be an integer")
    hands = payload.get("hands") or []
    if hands and (not isinstance(hands, list) or len(hands) != 6):
        raise ActionRefused(
            "G2.1",
            "hands 应为六手牌（座位1–6，未知的写空串）",
            "hands must list six hands (seats 1..6, '' when unknown)",
        )
    hands = [str(h or "") for h in hands]
    counts = payload.get("counts") or []
    if counts and (
        not isinstance(counts, list)
        or len(counts) != 6
        or not all(isinstance(c, int) and 0 <= c <= 36 for c in counts)
    ):
        raise ActionRefused("G2.1", "counts 应为六个 0–36 的张数", "counts must be six numbers 0..36")
    leader = payload.get("leader")
    if leader is None:
        leader = engine.first_leader(seed) if seed is not None and not hands else None
    if leader not in SEATS:
        raise ActionRefused(
            "G12.1", "请输入先出牌的座位（上班，1–6）", "give the seat that leads first (1..6)"
        )
    if "game_no" in payload:
        game_no = payload["game_no"]
        if not isinstance(game_no, int) or game_no < 1:
            raise ActionRefused("game", "game_no 应为正整数", "game_no must be ≥ 1")
    elif table["phase"] == "idle":
        game_no = table["game_no"]
    else:
        game_no = table["game_no"] + 1
    _apply_match_fields(state, {k: payload[k] for k in ("names", "teams") if k in payload})
    table["rules"] = rules
    table["game_no"] = game_no
    table["deal"] = int(table.get("deal") or 0) + 1  # a re-deal under the same number is another deal
    table["message"] = ""
    table["results"] = [r for r in table["results"] if r["game_no"] != game_no]
    state["game"].update(
        {
            "record": [],
            "leader": leader,
            "seed": seed if not hands else None,
            "hands": hands,
            "counts": counts if not hands and seed is None else [],
            "redo": [],
            "history": [],
            "dropped": [],
        }
    )
    live = live_game(state, ctx)
    project(state, live)


@action("game.play")
def game_play(state: State, payload: Payload, ctx: Context) -> None:
    """One decision: {line: "1 TTTTT" | "4 pass" | "3 yield"} (or {seat, cards}); illegal → refused with
    the clause id and the engine's zh/en explanation."""
    move = parse_move(payload)
    live = live_game(state, ctx)
    game = live.game
    if game.is_over():
        raise ActionRefused("G10", "本局已结束，请开始下一局", "the game is over: start the next one")
    try:
        game.push(move)
    except engine.IllegalAction as exc:
        raise ActionRefused(exc.rule, exc.zh, exc.en) from exc
    state["game"]["record"] = state["game"]["record"] + [str(move)]
    state["game"]["redo"] = []  # a new decision: what was undone is not redone any more
    live.key = record_key(state)
    project(state, live)
