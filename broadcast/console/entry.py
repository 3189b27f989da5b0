"""What the operator typed in the entry line, read as (part of) a GJN move line. Pure: no Qt, no rules.

The entry accepts what an operator beside the referee would type:

* a whole GJN line: ``3 TTTTT``, ``4 pass``, ``2 yield`` (``3号 过`` too);
* the action alone, for the seat whose decision it is: ``TTTTT``, ``10 10 10 10 10``, ``p``, ``过``,
  ``让``; lower case and full-width characters are read as their plain forms, ``10`` as ``T``,
  ``小王``/``小`` as ``B`` and ``大王``/``大`` as ``R`` (G2.4);
* a seat and a space start a line for that seat: a burn or any other out-of-turn play names its seat.

Whether the decision is legal is the engine's business (:mod:`broadcast.console.completion` asks it);
this module only turns the operator's forms into G2.4 notation and lets ``engine.cards`` read the cards
(their symbols, counts and the pack's limits are the engine's). A leading digit 1–6 followed by a space
is always the seat, as in GJN (``3 3`` is seat 3 playing a 3; the pending seat's ``33`` is typed
without a space).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.cards import NRANKS, SYMBOLS, CardError, parse_counts

# whole words for a decision that is not a play (the first of each is the GJN word)
WORDS = {
    "pass": ("pass", "p", "过", "过牌", "guo", "不要"),
    "yield": ("yield", "y", "让", "让牌", "rang"),
    "revolt": ("revolt", "革命"),
}
_WORD_OF = {w: kind for kind, words in WORDS.items() for w in words}
_SEAT = re.compile(r"^([1-6])(?:号|號)?(?:\s+|(?<=号)|(?<=號)|:|：)\s*(.*)$", re.S)
_CHINESE_CARDS = (("小王", "B"), ("大王", "R"), ("小", "B"), ("大", "R"), ("王", ""))
_CASE = {"t": "T", "j": "J", "q": "Q", "k": "K", "a": "A", "b": "B", "r": "R"}


@dataclass(frozen=True)
class Entry:
    """The entry line read: an explicit seat (or None: the seat whose decision it is), and either a word
    (``pass``/``yield``/``revolt``, possibly typed in part) or cards as 15 rank counts."""

    text: str
    seat: int | None = None
    word: str | None = None
    word_complete: bool = False
    counts: tuple[int, ...] = (0,) * NRANKS
    bad: str = ""  # the first character that is neither a card nor part of a word
    problem: tuple[str, str, str] | None = None  # the engine's refusal of the cards (rule, zh, en): G2.1

    @property
    def has_cards(self) -> bool:
        return any(self.counts)

    @property
    def empty(self) -> bool:
        return self.seat is None and self.word is None and not self.has_cards and not self.bad

    @property
    def cards(self) -> str:
        """The typed cards in GJN order (base rank first, then 2s and jokers): ``TTTTT``, ``QQQB``."""
        return "".join(SYMBOLS[r] * self.counts[r] for r in range(NRANKS))

    @property
    def complete(self) -> bool:
        """A whole decision was typed (a word, or cards); whether it is legal is the engine's call."""
        return (
            not self.bad
            and self.problem is None
            and ((self.word is not None and self.word_complete) or self.has_cards)
        )

    def line(self, pending: int | None) -> str | None:
        """The GJN move line this entry stands for (the pending seat when none was typed)."""
        seat = self.seat if self.seat is not None else pending
        if seat is None or not self.complete:
            return None
        return f"{seat} {self.word if self.word is not None else self.cards}"


def normalise(text: str) -> str:
    """Full-width to plain (NFKC), leading blanks dropped (a trailing one after a seat means the seat)."""
    return unicodedata.normalize("NFKC", text).lstrip()


def read(text: str) -> Entry:
    """Read the entry line (see the module doc). Never raises."""
    raw = text
    text = normalise(text)
    seat: int | None = None
    m = _SEAT.match(text)
    if m:
        seat = int(m.group(1))
        text = m.group(2)
    text = text.strip()
    if not text:
        return Entry(raw, seat)
    low = text.lower() if text.isascii() else text
    kind = _WORD_OF.get(low)
    if kind is not None:
        return Entry(raw, seat, word=kind, word_complete=True)
    for full in WORDS:  # a word being typed: "pa", "yie", "rev" (a lone "r" is the 大王)
        if len(low) >= 2 and full.startswith(low):
            return Entry(raw, seat, word=full, word_complete=False)
    for zh, sym in _CHINESE_CARDS:
        text = text.replace(zh, sym)
    cards = ""
    for ch in text:  # the operator's forms to G2.4: 10 and upper case stay as the engine reads them
        if ch.isspace() or ch in ",，、":
            continue
        sym = _CASE.get(ch, ch)
        if sym not in SYMBOLS and sym not in "10":
            return Entry(raw, seat, bad=ch)
        cards += sym
    try:
        counts = parse_counts(cards)
    except CardError as exc:
        if exc.column:  # a "1" that is not part of "10"
            return Entry(raw, seat, bad=cards[exc.column - 1])
        return Entry(raw, seat, problem=(exc.rule, exc.zh, exc.en))
    return Entry(raw, seat, counts=tuple(counts))


def contains(big: tuple[int, ...], small: tuple[int, ...]) -> bool:
    """Every card of ``small`` is in ``big`` (multisets of rank counts)."""
    return all(b >= s for b, s in zip(big, small, strict=True))
