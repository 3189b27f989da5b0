"""The completion list under the entry line: the engine's legal decisions that match what was typed,
best guesses first. Pure: no Qt.

Every suggestion is an action the engine's ``Game.legal_plays()`` holds (``action in legal_plays``);
nothing here knows a rule. What this module adds is the operator's view: which seat the text is for
(the pending seat unless one was typed), which legal actions contain the typed cards (as multisets:
``JJ2`` finds ``JJJ22``), and an order that puts the likely decision first:

* the exact typed decision first when it is legal (Enter records what was typed, never a guess);
* on a top play: a pass first while nothing is typed, then the cheapest beats (fewest wild cards,
  lowest rank), since players keep their 2s and jokers;
* on a lead from a known hand: all cards of a rank without wild cards first (the usual lead), lowest
  rank first;
* on a lead from an unknown hand (counts only, a live table) the engine cannot list every lead cheaply
  (tens of thousands); the typed cards are extended by a few cards at a time and each candidate is
  asked of ``legal_plays`` (``in``), nearest first.

:meth:`Completer.verdict` is the engine's live verdict on a complete entry (the clause it breaks, in
Chinese and English) for the line under the entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

import engine
from broadcast.console import words
from broadcast.console.entry import Entry, contains
from engine.cards import BIG, NRANKS, SMALL, TOTALS, TWO, PlayError, play_from_counts

LIMIT = 8
MAX_EXTRA = 4  # cards added to the typed ones when guessing a lead from an unknown hand


@dataclass(frozen=True)
class Suggestion:
    line: str  # the GJN move line: "3 TTTTT"
    seat: int
    kind: str  # play / pass / yield / revolt
    cards: str  # "" unless a play
    words: str  # the on-air words: "五个10 够级", "过", "让牌"
    burn: bool = False  # an out-of-turn play on a 够级牌 (G7)


@dataclass(frozen=True)
class Verdict:
    """The engine's refusal of a typed decision (None from :meth:`Completer.verdict` when legal)."""

    rule: str
    zh: str
    en: str


class Completer:
    """Suggestions for one position of one game (build a new one after every decision)."""

    def __init__(self, game: Any, lang: str = "zh") -> None:
        self.game = game
        self.lang = lang  # the words' language: "zh" or "en"
        self._by_seat: dict[int, list[Any]] = {}
        self._legal = game.legal_plays()

    # -- the engine's verdict -------------------------------------------------------------------
    def action_of(self, entry: Entry) -> Any | None:
        """The engine's Action for a complete entry; raises ``engine.PlayError``/``CardError``/ValueError
        for cards that do not form a play."""
        line = entry.line(self.game.pending_seat)
        if line is None:
            return None
        return engine.Action.parse(line)

    def verdict(self, entry: Entry) -> Verdict | None:
        """Why the engine refuses the typed decision, or None (legal, or not a whole decision yet)."""
        if entry.problem is not None:
            return Verdict(*entry.problem)
        if not entry.complete:
            return None
        if self.game.is_over():
            return Verdict("G10", "本局已结束", "the game is over")
        try:
            action = self.action_of(entry)
        except engine.PlayError as exc:
            return Verdict(
                exc.rule, f"{entry.cards}不成一手牌：{exc.zh}", f"{entry.cards} is not a play: {exc.en}"
            )
        except (engine.CardError, ValueError) as exc:
            return Verdict("G2.4", f"看不懂的牌：{exc}", f"bad cards: {exc}")
        if action is None:
            return None
        err = self.game.why_illegal(action)
        if err is None:
            return None
        return Verdict(err.rule, err.zh, err.en)

    # -- suggestions ----------------------------------------------------------------------------
    def suggest(self, entry: Entry, limit: int = LIMIT) -> list[Suggestion]:
        game = self.game
        if game.is_over() or entry.bad:
            return []
        pending = game.pending_seat
        seat = entry.seat if entry.seat is not None else pending
        if seat is None:
            return []
        out: list[Any] = []
        if entry.word is not None:
            a = _word_action(seat, entry.word)
            return [self._suggestion(a)] if a in self._legal else []
        top = game.last_play
        if not entry.has_cards:
            if seat == pending and top is not None:
                out.extend(
                    a for a in (engine.Action.pass_(seat), engine.Action.yield_(seat)) if a in self._legal
                )
            revolt = engine.Action.revolt(seat)
            if game.preset.revolution and revolt in self._legal:
                out.append(revolt)
        typed = entry.counts
        plays = self._plays(seat, typed, limit)
        exact = [a for a in plays if _counts(a) == typed]
        rest = [a for a in plays if _counts(a) != typed]
        rest.sort(key=self._rank_key(seat))
        out.extend(exact)
        out.extend(rest)
        return [self._suggestion(a) for a in out[:limit]]

    def count(self, entry: Entry) -> int:
        """How many legal plays match (for "… and N more"); generated leads count what was checked."""
        seat = entry.seat if entry.seat is not None else self.game.pending_seat
        if seat is None or entry.word is not None or entry.bad:
            return 0
        return len(self._plays(seat, entry.counts, 10_000))

    def _plays(self, seat: int, typed: tuple[int, ...], limit: int) -> list[Any]:
        game = self.game
        pending = game.pending_seat
        if game.last_play is None:
            if seat != pending:
                return []  # nobody but the leader plays on a lead
            if game.hand(seat) is None:
                return list(self._generated_leads(seat, typed, max(limit, LIMIT) * 2))
        actions = self._seat_actions(seat)
        return [a for a in actions if a.kind == "play" and contains(_counts(a), typed)]

    def _seat_actions(self, seat: int) -> list[Any]:
        got = self._by_seat.get(seat)
        if got is not None:
            return got
        pending = self.game.pending_seat
        out: list[Any] = []
        for a in self._legal:  # the pending seat's actions come first, then out-of-turn ones
            if a.seat == seat:
                out.append(a)
            elif seat == pending and a.seat != pending:
                break
        self._by_seat[seat] = out
        return out

    def _generated_leads(self, seat: int, typed: tuple[int, ...], want: int) -> Iterator[Any]:
        """Leads containing the typed cards for a seat whose hand is unknown: the typed cards plus
        k = 0 … 4 more cards of the base rank or wild cards, nearest first, each asked of the engine."""
        ranks = [r for r in range(NRANKS) if typed[r]]
        if not ranks:
            return
        ordinary = [r for r in ranks if r < TWO]
        if len(ordinary) > 1:
            return  # two ordinary ranks never form a play (G3.2): nothing to suggest
        base = ordinary[0] if ordinary else ranks[0]
        addable = [base] + [r for r in (TWO, SMALL, BIG) if r > base]
        left = self.game.cards_left(seat) - sum(typed)
        found = 0
        for k in range(0, min(left, MAX_EXTRA) + 1):
            for extra in combinations_with_replacement(addable, k):
                counts = list(typed)
                for r in extra:
                    counts[r] += 1
                play = _play_of(counts)
                if play is None:
                    continue
                a = engine.Action.play(seat, play)
                if a in self._legal:
                    yield a
                    found += 1
                    if found >= want:
                        return

    def _rank_key(self, seat: int) -> Any:
        game = self.game
        top = game.last_play
        hand = game.hand_counts(seat) if top is None else None

        def key(a: Any) -> tuple[int, ...]:
            p = a.cards
            wild = p.twos + p.smalls + p.bigs
            if hand is not None:  # a lead from a known hand: a whole rank, no wild cards, low first
                whole = 0 if p.n == hand[p.base] else 1
                return (wild, whole, p.base, -p.n)
            if top is not None:  # a beat: the cheapest first
                return (wild, p.base, p.n, 0)
            return (0, 0, 0, 0)  # generated leads keep their nearest-first order

        return key

    def _suggestion(self, a: Any) -> Suggestion:
        game = self.game
        burn = a.kind == "play" and a.seat != game.pending_seat
        w = words.decision_words(a, self.lang, game.preset.gouji_min_twos)
        if burn:
            w += " " + words.burn_word(self.lang)
        return Suggestion(str(a), a.seat, a.kind, str(a.cards) if a.cards else "", w, burn)


def _play_of(counts: list[int]) -> Any | None:
    """The play of these rank counts (None if they are not one within the pack, G2.1/G3)."""
    if any(c > most for c, most in zip(counts, TOTALS, strict=True)):
        return None
    try:
        return play_from_counts(counts)
    except PlayError:
        return None


def _word_action(seat: int, word: str) -> Any:
    return {"pass": engine.Action.pass_, "yield": engine.Action.yield_, "revolt": engine.Action.revolt}[word](
        seat
    )


def _counts(a: Any) -> tuple[int, ...]:
    return tuple(a.cards.counts()) if a.cards is not None else (0,) * NRANKS


__all__ = ["Completer", "Suggestion", "Verdict"]
