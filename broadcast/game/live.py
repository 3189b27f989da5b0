"""The store's live engine game: built from the show state by the adapter and kept in ``ctx.runtime``.

Reducers move it along with their decisions (a push per play, a pop per undo) instead of replaying the
record every time; before each use it is compared with ``state.game`` and rebuilt (:func:`replay`)
whenever it does not match — after a restart (journal replay) or after a dispatch whose new state was
not kept. Reducers stay deterministic: a seeded deal is a pure function of the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from broadcast.core import Context, State
from broadcast.game.adapter import replay, setup_key

RUNTIME_KEY = "table.game"


def record_key(state: State) -> tuple[Any, ...]:
    """What the live game stands for: the game's set-up and every decision of its record."""
    return (*setup_key(state), tuple(state["game"]["record"]))


@dataclass
class LiveGame:
    """The runtime game and what it was built from (compared with the state before every use), with
    the record's lines of its moves so far (``actions[i]`` written as ``lines[i]``): a projection
    writes only the lines of the moves that are new since the last one (``projection.project``)."""

    key: tuple[Any, ...]
    game: engine.Game
    actions: list[engine.Action] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def record(self, moves: list[engine.Action]) -> list[str]:
        """``[str(a) for a in moves]``, written anew only past the longest prefix already written."""
        acts, lines = self.actions, self.lines
        n = len(acts)
        if not (n <= len(moves) and acts == moves[:n]):  # a move taken back or replaced: find where
            n = 0
            for old, new in zip(acts, moves, strict=False):
                if old is not new and old != new:
                    break
                n += 1
            del acts[n:], lines[n:]
        for a in moves[n:]:
            acts.append(a)
            lines.append(str(a))
        return list(lines)


def live_game(state: State, ctx: Context) -> LiveGame:
    """The runtime game matching ``state.game`` (rebuilt by replaying the record if needed)."""
    key = record_key(state)
    live = ctx.runtime.get(RUNTIME_KEY)
    if isinstance(live, LiveGame) and live.key == key:
        return live
    live = LiveGame(key, replay(state))
    ctx.runtime[RUNTIME_KEY] = live
    return live


def forget(ctx: Context) -> None:
    """Drop the live game (the next :func:`live_game` builds it from the state)."""
    ctx.runtime.pop(RUNTIME_KEY, None)
