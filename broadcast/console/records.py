"""File ▸ 打开牌谱…: a GJN record read and checked by the engine, as the actions that set it on the table.

Pure (no Qt): :func:`load` reads the file with the engine's reader (``engine.gjn.read``: unreadable,
not UTF-8 or over ``engine.gjn.MAX_BYTES`` is refused unread), parses it and replays every move in the
engine. A record may stop mid-game (one saved earlier, the referee's) but no move may break a rule. What
it returns is what the console dispatches through the store — ``game.new`` then one ``game.play`` per
move — so the opened game is journaled like one typed in. A bad file raises :class:`RecordError`: one
line ``file:line: …`` naming the clause, in both languages; nothing is dispatched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import gjn
from engine.errors import GJNError, GoujiError, IllegalAction


class RecordError(GoujiError):
    """A record the console will not open: ``where`` is ``file:line``, ``rule`` the clause (or GJN)."""

    show_rule = True


@dataclass(frozen=True)
class Opened:
    """A checked record: the ``game.new`` payload, the moves as GJN lines, whether the game is over."""

    path: str
    new: dict[str, Any]
    lines: list[str]
    over: bool


def load(path: str | Path) -> Opened:
    """Read, parse and replay ``path`` in the engine; :class:`RecordError` when it cannot be opened."""
    name = str(path)
    try:
        rec = gjn.parse(gjn.read(path), name)
        game = gjn.replay(rec, undo=False)
    except IllegalAction as e:
        where = f"{name}:{e.line}"
        raise RecordError(
            e.rule,
            f"第{e.move}步（{e.seat}号）：{e.zh}",
            f"move {e.move} (seat {e.seat}): {e.en}",
            where=where,
        ) from None
    except GJNError as e:
        raise RecordError(
            "GJN", f"牌谱格式有误：{e.zh}", f"not a valid record: {e.en}", where=e.where
        ) from None
    hands = rec.hands()
    counts = rec.counts()
    new: dict[str, Any] = {"leader": rec.leader, "rules": rec.rules}
    mixed = sorted(s for s, c in counts.items() if s not in hands and c != 36)
    if hands and mixed:  # game.new takes dealt hands or counts, not both: refused before anything is sent
        line = rec.tag_lines.get(f"Count{mixed[0]}", 1)
        raise RecordError(
            "G2.1",
            f"牌谱既有手牌又有{mixed[0]}号的张数（Count）：导播台只能二者取一（全是手牌，或全是张数）",
            f"the record gives dealt hands and a count for seat {mixed[0]}: the console takes one or the "
            "other (all hands, or all counts)",
            where=f"{name}:{line}",
        )
    if hands:
        new["hands"] = [hands.get(s, "") for s in range(1, 7)]
    elif counts:
        new["counts"] = [counts.get(s, 36) for s in range(1, 7)]
    return Opened(name, new, [str(a) for a in rec.actions()], game.is_over())
