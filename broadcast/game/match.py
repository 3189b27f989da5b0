"""The match around the games (G11.2), decided by the engine's match rules (``engine.match.Match``):

    store.dispatch("match.penalty", {"team": "even", "reason": "偷看牌"})     # −2 (actions.py)
    store.dispatch("match.late", {"seat": 4, "minutes": 6, "reason": "堵车"})  # > 5 minutes: forfeit
    store.dispatch("match.forfeit", {"team": "odd", "reason": "弃权"})
    store.dispatch("match.lots", {"seed": 90210})     # after a tied extra game: lots, seed recorded

``state.match.result`` is the engine's decision after every change (totals with penalties, whether an
extra game or lots are needed, the winner and how it was decided); nothing here re-implements a rule.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Payload, State
from engine import load_preset
from engine.game import SEATS, GameResult
from engine.match import Match
from engine.words import TEAMS

ACTIONS = Actions()
action = ACTIONS.action


def _match(state: State, seed: int = 0) -> Match:
    preset = load_preset(state["table"]["rules"])
    m = Match(preset, seed=seed)
    penalties = sorted(state["game"]["penalties"], key=lambda p: int(p.get("game_no", 1)))

    def penalise(before: int | None) -> None:  # penalties given before game ``before`` began
        while penalties and (before is None or int(penalties[0].get("game_no", 1)) < before):
            p = penalties.pop(0)
            for _ in range(max(1, int(p["points"]) // preset.penalty_points)):
                m.add_penalty(p["team"])

    for r in sorted(state["table"]["results"], key=lambda r: r["game_no"]):
        penalise(int(r["game_no"]))
        if m.is_over:  # a game after the match was decided does not count
            break
        m.add_game(
            GameResult(
                finish_order=[1],
                titles={},
                team_points={"odd": int(r["odd"]), "even": int(r["even"])},
                quan_san=bool(r.get("quan_san")),
                opened=[],
            )
        )
    penalise(None)
    forfeit = state["match"]["forfeit"]
    if forfeit:
        m.forfeit(forfeit["team"])
    return m


def decide(state: State) -> None:
    """Project the engine's match decision into ``state.match.result`` (called after every change of
    results, penalties, forfeit or lots, and after every decision of a game). It is a function of the
    rules, the results, the penalties, the forfeit and the lots alone: computed once per distinct set
    of them (a decision in the middle of a game changes none of them)."""
    key = json.dumps(
        [
            state["table"]["rules"],
            state["table"]["results"],
            state["game"]["penalties"],
            state["match"]["forfeit"],
            state["match"]["lots"],
        ],
        ensure_ascii=False,
        sort_keys=True,
    )
    state["match"]["result"] = dict(_decision(key))


@lru_cache(maxsize=256)
def _decision(key: str) -> dict[str, Any]:
    """The engine's match decision for ``decide``'s key (read-only: callers copy it)."""
    rules, results, penalties, forfeit, lots = json.loads(key)
    state: State = {
        "table": {"rules": rules, "results": results},
        "game": {"penalties": penalties},
        "match": {"forfeit": forfeit, "lots": lots},
    }
    m = _match(state, seed=lots["seed"] if lots else 0)
    totals = m.totals
    tie_after_extra = (
        m.forfeited is None and m.games_played >= m.preset.match_games + 1 and totals["odd"] == totals["even"]
    )
    if tie_after_extra and lots is None:
        winner, by = None, ""
    else:
        winner, by = m.winner, m.decided_by or ""
    return {
        "odd": int(totals["odd"]),
        "even": int(totals["even"]),
        "games": m.games_played,
        "winner": winner,
        "decided_by": by,
        "needs_extra_game": bool(m.needs_extra_game),
        "needs_lots": bool(tie_after_extra and lots is None),
    }


def _decided(state: State) -> None:
    if state["match"]["result"]["winner"] is not None:
        raise ActionRefused("G11.2", "本场比赛已决出胜负", "the match is already decided")


@action("match.forfeit")
def match_forfeit(state: State, payload: Payload, ctx: Context) -> None:
    """A team forfeits (弃权, G11.2): {team: odd|even, reason}; the other team wins the match."""
    team = payload.get("team")
    if team not in TEAMS:
        raise ActionRefused("G11.2", "弃权要指明队伍 odd 或 even", "forfeit: team must be odd or even")
    reason = str(payload.get("reason", "")).strip()
    if not reason:
        raise ActionRefused("reason", "请写明弃权原因", "give the reason of the forfeit")
    _decided(state)
    state["match"]["forfeit"] = {"team": team, "reason": reason, "seat": payload.get("seat")}
    decide(state)


@action("match.late")
def match_late(state: State, payload: Payload, ctx: Context) -> None:
    """A player late to the table: {seat, minutes, reason?}. More than 5 minutes late forfeits the
    match for the player's team (G11.2: 迟到超过5分钟按弃权处理)."""
    seat = payload.get("seat")
    if seat not in SEATS:
        raise ActionRefused("G1.1", f"没有 {seat} 号座位", f"no seat {seat}")
    minutes = payload.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or minutes < 0:
        raise ActionRefused("G11.2", "迟到分钟数应为非负数", "minutes late must be a number ≥ 0")
    reason = str(payload.get("reason", "")).strip()
    state["match"]["late"] = [
        *state["match"]["late"],
        {"seat": seat, "minutes": minutes, "reason": reason, "game_no": state["table"]["game_no"]},
    ]
    if minutes > 5 and state["match"]["forfeit"] is None and state["match"]["result"]["winner"] is None:
        team = "odd" if seat % 2 else "even"
        who = f"{seat}号 {state['table']['seats'][seat - 1]['name']}".strip()
        state["match"]["forfeit"] = {
            "team": team,
            "reason": f"{who} 迟到{minutes:g}分钟（超过5分钟，G11.2）" + (f"：{reason}" if reason else ""),
            "seat": seat,
        }
    decide(state)


@action("match.lots")
def match_lots(state: State, payload: Payload, ctx: Context) -> None:
    """Draw lots after a tied extra game (G11.2): {seed} (recorded; the engine draws with it)."""
    seed = payload.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ActionRefused(
            "G11.2", "抽签需要一个整数种子（会被记录）", "lots need an integer seed (it is recorded)"
        )
    if not state["match"]["result"]["needs_lots"]:
        raise ActionRefused(
            "G11.2",
            "只有加赛后总分仍相同才抽签",
            "lots are drawn only when the totals still tie after the extra game",
        )
    winner = _match(state, seed=seed).drawn_lots
    state["match"]["lots"] = {"seed": seed, "winner": winner}
    decide(state)
