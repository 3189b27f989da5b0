"""The one adapter from the show state to the rules engine.

``state.game`` (with ``state.table.rules``) describes an engine game: its preset, the seat that leads,
the hands (entered at the deal, a seeded deal, or only how many cards each seat holds) and the record of
its decisions as GJN move lines. The game component's reducers (through the store's live game,
:mod:`broadcast.game.live`), the console's mirror and the season's save all build their game here, so
one state is one game everywhere:

    game = replay(state)                      # the engine's game at the record's last decision
    game = new_game(state)                    # the same game before its first decision
    move = parse_move({"line": "3 TTTTT"})    # an operator's move line as the engine's Action

Each refuses what it cannot build with an ``ActionRefused`` naming the clause or the move.
"""

from __future__ import annotations

from typing import Any

import engine
from broadcast.core import ActionRefused, Payload, State


def setup_key(state: State) -> tuple[Any, ...]:
    """What :func:`new_game` builds the game from: two states with equal keys give the same game."""
    g = state["game"]
    return (state["table"]["rules"], g["leader"], g["seed"], tuple(g["hands"]), tuple(g["counts"]))


def new_game(state: State) -> engine.Game:
    """The game ``state.game`` describes, before its first decision."""
    g = state["game"]
    rules = state["table"]["rules"]
    leader = g["leader"]
    if leader is None:
        raise ActionRefused("game", "还没有开局（game.new）", "no game started (game.new)")
    try:
        if g["hands"]:
            hands = [h or None for h in g["hands"]]
            return engine.Game(rules, hands=hands, leader=leader)
        if g["seed"] is not None:
            return engine.Game(rules, hands=engine.deal(g["seed"]), leader=leader)
        counts = {i + 1: c for i, c in enumerate(g["counts"])} if g["counts"] else None
        return engine.Game(rules, leader=leader, counts=counts)
    except (engine.CardError, engine.PresetError, ValueError) as exc:
        raise ActionRefused("game", f"无法开局：{exc}", f"cannot set up the game: {exc}") from exc


def replay(state: State) -> engine.Game:
    """The game ``state.game`` describes, every decision of its record pushed again."""
    game = new_game(state)
    for i, line in enumerate(state["game"]["record"], start=1):
        try:
            game.push(engine.Action.parse(line))
        except (ValueError, engine.IllegalAction) as exc:
            raise ActionRefused(
                "game",
                f"牌谱第{i}步无法重放：{line}（{exc}）",
                f"move {i} of the record does not replay: {line} ({exc})",
            ) from exc
    return game


def parse_move(payload: Payload) -> engine.Action:
    """The decision a ``game.play`` payload names: {line: "3 TTTTT"} or {seat, cards | action}."""
    line = payload.get("line")
    if line is None:
        seat, what = payload.get("seat"), payload.get("cards", payload.get("action"))
        line = f"{seat} {what}"
    line = str(line).strip()
    try:
        return engine.Action.parse(line)
    except engine.PlayError as exc:
        raise ActionRefused(
            exc.rule, f"“{line}”不是一手牌：{exc.zh}", f"{line!r} is not a play: {exc.en}"
        ) from exc
    except engine.CardError as exc:
        raise ActionRefused(
            "G2.4",
            f"“{line}”里有看不懂的牌：{exc.zh}",
            f"bad cards in {line!r}: {exc.en}",
        ) from exc
    except ValueError as exc:
        raise ActionRefused(
            "GJN",
            f"出牌格式应为“座位 牌/pass/yield”，如 1 TTTTT：{line!r}",
            f"a move is '<seat> <cards|pass|yield>': {exc}",
        ) from exc
