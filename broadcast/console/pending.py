"""Decisions the operator has entered that the store has not journaled yet. Pure: no Qt.

The console sends each decision to the store at once and goes on: the next one can be typed while the
first is on its way — a few milliseconds normally, as long as it takes when another program holds the
database. Until the store has journaled them, the decisions wait here in order, and the console shows
the game as it will be once they are written (:func:`view_state`: the record with them, greyed), checks
the next decision against that, and lets undo take the last one back like any other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Pending:
    """One operation on its way: ``kind`` "leader" (the 上班 seat, ``game.new``), "play" (a decision,
    ``game.play``) or "undo" (``game.undo``); ``line`` the GJN line of a play or the leader's seat."""

    ticket: int
    kind: str
    type: str
    payload: dict[str, Any] = field(hash=False)
    line: str = ""
    label: str = ""

    def matches(self, change: Any) -> bool:
        """``change`` (from the store) is this operation journaled."""
        return bool(
            change.source == "console" and change.type == self.type and change.payload == self.payload
        )


def view_state(state: dict[str, Any], pending: list[Pending]) -> dict[str, Any]:
    """``state`` with the pending operations applied to its game's leader and record (the rest of the
    state is the store's: the table shows what is journaled)."""
    if not pending:
        return state
    game = dict(state["game"])
    record = list(game["record"])
    for p in pending:
        if p.kind == "leader":  # a new game: its own leader, nothing played, hands not entered yet
            game.update(leader=int(p.line), seed=None, hands=[], counts=[])
            record = []
        elif p.kind == "play":
            record.append(p.line)
        elif p.kind == "undo" and record:
            record.pop()
    game["record"] = record
    return {**state, "game": game}


def pending_from(journaled: list[str], shown: list[str]) -> int:
    """The first row of ``shown`` (the record with the pending operations) that is not journaled yet."""
    n = 0
    for a, b in zip(journaled, shown, strict=False):
        if a != b:
            break
        n += 1
    return n
