"""The 胜率 actions: ``winprob.estimate`` (the evaluator's figures for the record's current position) and
``winprob.on`` (the operator switches the evaluator on or off).

An estimate names the game and the position it is of (``game``: a digest of the set-up; ``position``:
a digest of the set-up and every decision, :func:`position_key`); one of another position than the
record's current one — a decision came, or was taken back, while it ran — is refused, so the figures
on air are always of the position on the table. The history keeps one point a decision: a new game
starts a new history, and a point of a decision taken back goes with it.

Two sections: ``winprob`` (``on`` and ``current``: the figures and the move they belong to, all the
graphic needs) goes to the pages; ``winprob_history`` (the game's digest and the history) does not (its
schema says ``"x-pages": false``): the console and the commentators' screen read it from the store.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Fragment, Payload, State, peek
from broadcast.game.adapter import setup_key

SCHEMA = Fragment(resources.files("broadcast.winprob").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action

_ESTIMATE = (
    "moves",
    "odd",
    "even",
    "level",
    "odd_ci",
    "even_ci",
    "points_odd",
    "points_even",
    "playouts",
    "hands",
    "seconds",
    "seats",
)


def game_key(state: State) -> str:
    """The game an estimate is of: a digest of its set-up (rules, leader, seed, hands, counts)."""
    return _digest(setup_key(state))


def position_key(state: State) -> str:
    """The position an estimate is of: the set-up and every decision of the record."""
    return _digest((setup_key(state), state["game"]["record"]))


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, default=list).encode()).hexdigest()[:32]


@action("winprob.estimate")
def estimate(state: State, payload: Payload, ctx: Context) -> None:
    """{position, estimate: {moves, odd, even, level, …}, line, seat, tags}: the figures of the record's
    current position (refused when the position has moved on)."""
    # read, never copied (issue 25: an estimate's dispatch holds the interpreter a typed decision's way to
    # the pages needs; copying the record and the history it does not change took most of its time): the
    # history's points are shared with the state before, the new history list and point are its own
    seen = {k: peek(state, k) for k in ("game", "table", "winprob", "winprob_history")}
    if payload.get("position") != position_key(seen):
        raise ActionRefused(
            "winprob",
            "胜率已过时：牌局已有新的一步",
            "the win-probability estimate is stale: the game has moved on",
        )
    est = payload.get("estimate")
    if not isinstance(est, dict):
        raise ActionRefused("winprob", "winprob.estimate 需要 estimate", "winprob.estimate needs an estimate")
    section = dict(seen["winprob"])
    kept = dict(seen["winprob_history"])
    game = game_key(seen)
    record = seen["game"]["record"]
    moves = len(record)
    current = {k: est[k] for k in _ESTIMATE if k in est}
    table = seen["table"]
    current.update(moves=moves, game_no=int(table["game_no"]), line=str(record[-1]) if moves else "")
    current["deal"] = int(table.get("deal") or 0)
    history = [h for h in kept["history"] if h["moves"] < moves] if kept["game"] == game else []
    point: dict[str, Any] = {"moves": moves, "odd": current["odd"], "even": current["even"]}
    if moves:
        point["line"] = current["line"]
        point["seat"] = int(payload.get("seat", 0))
        point["tags"] = list(payload.get("tags", []))
    history.append(point)
    section.update(current=current)
    kept.update(game=game, history=history[-2000:])
    state["winprob"] = section
    state["winprob_history"] = kept


@action("winprob.on")
def switch(state: State, payload: Payload, ctx: Context) -> None:
    """{on: bool}: the evaluator runs after every decision, or not (the figures stay as they were)."""
    on = payload.get("on")
    if not isinstance(on, bool):
        raise ActionRefused("winprob", "winprob.on 需要 on: true/false", "winprob.on needs on: true/false")
    state["winprob"] = dict(state["winprob"], on=on)
