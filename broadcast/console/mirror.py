"""The console's own read-only copy of the engine's game, kept equal to ``state.game``. Pure: no Qt.

The store's live game belongs to the store's thread (its reducers push into it); the console never
touches it. It keeps a mirror built from the state it was sent (rules, leader, hands or seed or
counts, the record) and moves it along the record as changes arrive: one ``push`` per new decision,
``pop`` for an undo, a rebuild when the game itself changed. The mirror answers the console's
questions (the completion list, the record's tags, the 记牌器) with the engine's own answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from broadcast.console import words
from broadcast.core import ActionRefused
from broadcast.game.adapter import new_game, setup_key


@dataclass(frozen=True)
class MoveInfo:
    """One decision of the record as the console shows it."""

    number: int  # 1-based
    seat: int
    kind: str  # play / pass / yield / revolt
    line: str  # GJN: "3 TTTTT"
    words: str  # "五个10 够级"
    tags: tuple[str, ...] = field(default=())  # 烧牌, 开点, 出完 头科 …
    lead: bool = False  # the first play of a round


class GameMirror:
    """``update(state)`` after every change; ``game`` is then the engine's game at the same decision."""

    def __init__(self) -> None:
        self.game: Any = None
        self._key: tuple[Any, ...] | None = None
        self._leads: list[bool] = []
        # per move of the mirror, kept in step with its push/pop: the move's line, its action and its
        # words in each language asked for so far (so that a change costs what the new decisions cost,
        # not the whole record's text again)
        self._lines: list[str] = []
        self._actions: list[engine.Action] = []
        self._words: dict[str, list[str]] = {}
        self.error = ""

    def update(self, state: dict[str, Any]) -> bool:
        """Bring the mirror to ``state``; returns True if it changed."""
        key = setup_key(state)
        record: list[str] = list(state["game"]["record"])
        if key[1] is None:  # no game yet
            changed = self.game is not None
            self.game, self._key = None, key
            self._leads, self._lines, self._actions, self._words = [], [], [], {}
            return changed
        rebuilt = self.game is None or key != self._key
        if rebuilt:
            self.game = self._fresh(state)
            self._key = key
            self._leads, self._lines, self._actions, self._words = [], [], [], {}
            if self.game is None:
                return True
        have = self._lines
        if have == record:
            return rebuilt  # a new game with nothing played yet is a change too
        common = 0
        for mine, theirs in zip(have, record, strict=False):
            if mine != theirs:
                break
            common += 1
        while len(self._lines) > common:
            self.game.pop()
            self._leads.pop()
            self._lines.pop()
            self._actions.pop()
            for said in self._words.values():
                said.pop()
        for line in record[common:]:
            try:
                lead = self.game.last_play is None
                action: engine.Action = engine.Action.parse(line)
                self.game.push(action)
                self._leads.append(lead)
                self._lines.append(str(action))
                self._actions.append(action)
                for lang, said in self._words.items():
                    said.append(self._said(action, lang))
            except (ValueError, engine.IllegalAction) as exc:  # the store accepted it: a bug somewhere
                self.error = f"{line}: {exc}"
                break
        return True

    def _fresh(self, state: dict[str, Any]) -> Any:
        try:
            return new_game(state)
        except ActionRefused as exc:
            self.error = str(exc)
            return None

    def _said(self, action: engine.Action, lang: str) -> str:
        return words.decision_words(action, lang, self.game.preset.gouji_min_twos)

    # -- what the console shows ------------------------------------------------------------------
    def moves(self, lang: str = "zh") -> list[MoveInfo]:
        """The record as the console shows it, its words and events in ``lang`` ("zh" or "en")."""
        game = self.game
        if game is None:
            return []
        tags: dict[int, list[str]] = {}
        result_titles: dict[int, str] = {}
        if game.is_over():
            result_titles = {int(s): str(t) for s, t in game.result().titles.items()}
        for move, event, seat in game.events():
            word = words.event_words(event, int(seat), result_titles.get(int(seat)), lang)
            tags.setdefault(move, []).append(word)
        if lang not in self._words:
            self._words[lang] = [self._said(a, lang) for a in self._actions]
        out: list[MoveInfo] = []
        lines, said, leads = self._lines, self._words[lang], self._leads
        for i, a in enumerate(self._actions, start=1):
            out.append(
                MoveInfo(i, a.seat, a.kind, lines[i - 1], said[i - 1], tuple(tags.get(i, ())), leads[i - 1])
            )
        return out
