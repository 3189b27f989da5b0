"""Cards, notation and plays (docs/rules.md G2, G3, G4, G6.1).

Internally a hand is a list of 15 rank counts indexed by :class:`Rank` (0 = 3 ... 12 = 2, 13 = 小王 ``B``,
14 = 大王 ``R``) and a play is a :class:`Play`: a 5-tuple ``(base, n, twos, smalls, bigs)``: ``n`` cards
of the base rank plus the wild cards attached to it (2s, 小王, 大王). Wild ranks at or below the base are
folded into ``n`` (a play of 2s has ``twos == 0``), so every play has one canonical form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Final, NamedTuple

from .english import count
from .errors import GoujiError
from .glossary import GLOSSARY


class Rank(IntEnum):
    """Card ranks in playing order, suits ignored (G2.2)."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO: Final = 12
    SMALL_JOKER = 13
    BIG_JOKER = 14

    @property
    def symbol(self) -> str:
        return SYMBOLS[self]

    @property
    def is_wild(self) -> bool:
        return self >= 12

    def __str__(self) -> str:
        return SYMBOLS[self]


SYMBOLS: Final = "3456789TJQKA2BR"
_RANKS: Final[tuple[Rank, ...]] = tuple(Rank)
_DESCENDING: Final = tuple(range(14, -1, -1))  # 大王 first
NRANKS: Final = 15
TWO = 12
SMALL: Final = 13
BIG: Final = 14
#: the jokers in English (the glossary's): refusals say them with count() ("1 small joker", "2 big jokers")
SMALL_EN: Final = GLOSSARY["小王"]
BIG_EN: Final = GLOSSARY["大王"]
#: cards of each rank in the 4-deck pack (G2.1)
TOTALS: Final[tuple[int, ...]] = (16,) * 13 + (4, 4)
TOTAL_CARDS: Final = 216
_SYM_INDEX = {c: i for i, c in enumerate(SYMBOLS)}
_SYM_INDEX.update({c.lower(): i for i, c in enumerate(SYMBOLS) if c.isalpha()})
ZH_NAMES: Final[tuple[str, ...]] = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "小王",
    "大王",
)


def n_cards(n: int) -> str:
    """English count of cards, singular or plural: ``1 card``, ``2 cards`` (Chinese needs no form)."""
    return f"{n} card" if n == 1 else f"{n} cards"


def quote(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters (a bad token may be a whole line)."""
    if len(text) > limit:
        q = repr(text[:limit])
        return q[:-1] + "…" + q[-1]
    return repr(text)


class CardError(GoujiError, ValueError):
    """A malformed card string: ``CardError(rule, zh, en, column=)``, ``column`` the 1-based position of the
    offending character. ``str()`` is the English message."""

    rule = "G2.4"

    def __init__(self, rule: str = "", zh: str = "", en: str = "", *, column: int = 0) -> None:
        self.column = column
        super().__init__(rule, zh, en)

    def text(self) -> str:
        return self.en


def parse_counts(text: str) -> list[int]:
    """Parse G2.4 notation (``T`` or ``10`` for ten, ``B`` 小王, ``R`` 大王) into 15 rank counts.

    Whitespace is ignored. Raises :class:`CardError` on anything else.
    """
    counts = [0] * NRANKS
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "1":
            if i + 1 < n and text[i + 1] == "0":
                counts[7] += 1
                i += 2
                continue
            raise CardError(
                "G2.4",
                f"第 {i + 1} 列的“1”不是牌（10 写作 T 或 10）",
                f"bad card '1' at column {i + 1} (write 10 as T or 10)",
                column=i + 1,
            )
        idx = _SYM_INDEX.get(ch)
        if idx is None:
            if ch.isspace():
                i += 1
                continue
            raise CardError(
                "G2.4",
                f"第 {i + 1} 列的 {ch!r} 不是牌（牌为 3–9 T J Q K A 2 B R）",
                f"bad card {ch!r} at column {i + 1} (cards are 3-9 T J Q K A 2 B R)",
                column=i + 1,
            )
        counts[idx] += 1
        i += 1
    for r in range(NRANKS):
        if counts[r] > TOTALS[r]:
            raise CardError(
                "G2.1",
                f"{SYMBOLS[r]} 有 {counts[r]} 张：四副牌只有 {TOTALS[r]} 张",
                f"{counts[r]} cards of rank {SYMBOLS[r]}: the pack has only {TOTALS[r]}",
            )
    return counts


def parse_cards(text: str) -> tuple[Rank, ...]:
    """Parse a card string into ranks, highest first (``"T10B"`` -> ``(B, T, T)``)."""
    counts = parse_counts(text)
    return counts_to_cards(counts)


def counts_to_cards(counts: Sequence[int]) -> tuple[Rank, ...]:
    out: list[Rank] = []
    for r in range(NRANKS - 1, -1, -1):
        if counts[r]:
            out += [_RANKS[r]] * counts[r]
    return tuple(out)


def cards_to_counts(cards: Iterable[int] | str) -> list[int]:
    if isinstance(cards, str):
        return parse_counts(cards)
    counts = [0] * NRANKS
    if isinstance(cards, (tuple, list)) and all(type(c) is Rank for c in cards):
        for c in cards:  # a dealt hand: Rank values are valid indices (the fast path of new_game)
            counts[c] += 1
        return counts
    for c in cards:
        r = int(c)
        if not 0 <= r < NRANKS:
            raise CardError("G2.1", f"没有这个点数：{r}", f"bad rank index {r}")
        counts[r] += 1
    return counts


def format_counts(counts: Sequence[int]) -> str:
    """Highest rank first, as a hand is usually shown: ``RB22AKK...``."""
    return "".join([SYMBOLS[r] * counts[r] for r in _DESCENDING if counts[r]])


def format_cards(cards: Iterable[int] | Play) -> str:
    """Write cards in G2.4 notation. A :class:`Play` is written base first (``QQQB``)."""
    if isinstance(cards, Play):
        return str(cards)
    return format_counts(cards_to_counts(cards))


class PlayError(GoujiError, ValueError):
    """Cards that do not form a play (G3): ``PlayError(rule, zh, en)``, ``rule`` the clause id.
    ``str()`` is the English message."""

    def text(self) -> str:
        return self.en


# G6.1 thresholds: base-rank cards (attached 2s counted as base) needed for 够级牌.
_GOUJI_MIN: Final[tuple[int, ...]] = (99,) * 7 + (5, 4, 3, 2, 2) + (99,) * 3  # T J Q K A


def gouji_thresholds(min_twos: int) -> tuple[int, ...]:
    t = list(_GOUJI_MIN)
    t[TWO] = min_twos
    return tuple(t)


class Play(NamedTuple):
    """One play: ``n`` cards of rank ``base`` with ``twos`` 2s, ``smalls`` 小王, ``bigs`` 大王 attached."""

    base: int
    n: int
    twos: int = 0
    smalls: int = 0
    bigs: int = 0

    @classmethod
    def parse(cls, text: str) -> Play:
        """Parse a play in G2.4 notation; raises :class:`CardError` or :class:`PlayError` (G3.2)."""
        return play_from_counts(parse_counts(text))

    @classmethod
    def from_cards(cls, cards: Iterable[int] | str) -> Play:
        return play_from_counts(cards_to_counts(cards))

    @property
    def size(self) -> int:
        """G3.5: all cards, wild cards included."""
        return self.n + self.twos + self.smalls + self.bigs

    @property
    def big_jokers(self) -> int:
        return self.n if self.base == BIG else self.bigs

    @property
    def small_jokers(self) -> int:
        return self.n if self.base == SMALL else self.smalls

    @property
    def has_joker(self) -> bool:
        return self.bigs > 0 or self.smalls > 0 or self.base >= SMALL

    @property
    def is_dead(self) -> bool:
        """G4.3: a play holding a 大王 cannot be beaten."""
        return self.bigs > 0 or self.base == BIG

    def counts(self) -> list[int]:
        c = [0] * NRANKS
        c[self.base] += self.n
        c[TWO] += self.twos
        c[SMALL] += self.smalls
        c[BIG] += self.bigs
        return c

    def cards(self) -> tuple[Rank, ...]:
        return counts_to_cards(self.counts())

    def is_gouji(self, min_twos: int = 1) -> bool:
        """G6.1."""
        if self.bigs or self.smalls or self.base >= SMALL:
            return True
        if self.base == TWO:
            return self.n >= min_twos
        return self.n + self.twos >= _GOUJI_MIN[self.base]

    def is_pure_gouji(self, min_twos: int = 1) -> bool:
        """G6.5: a 够级牌 with no joker and no 2 (a play of 2s is not pure)."""
        return (
            self.base < TWO
            and not self.twos
            and not self.smalls
            and not self.bigs
            and self.n >= _GOUJI_MIN[self.base]
        )

    def beats(self, other: Play) -> bool:
        return beat_error(self, other) is None

    def __str__(self) -> str:
        return SYMBOLS[self.base] * self.n + "2" * self.twos + "B" * self.smalls + "R" * self.bigs

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def zh(self) -> str:
        return "".join(
            [ZH_NAMES[self.base]] * self.n + ["2"] * self.twos + ["小王"] * self.smalls + ["大王"] * self.bigs
        )


def play_from_counts(counts: Sequence[int]) -> Play:
    """Canonical :class:`Play` of the given counts or :class:`PlayError` (G3.1, G3.2)."""
    base = -1
    for r in range(NRANKS):
        if counts[r]:
            base = r
            break
    if base < 0:
        raise PlayError("G3.1", "出牌至少一张", "a play needs at least one card")
    if base < TWO:
        for r in range(base + 1, TWO):
            if counts[r]:
                raise PlayError(
                    "G3.2",
                    f"不同点数牌不可混合发出（{ZH_NAMES[base]}与{ZH_NAMES[r]}），花、钱例外",
                    f"cannot mix ranks {SYMBOLS[base]} and {SYMBOLS[r]}: only 2s and jokers may be attached",
                )
        return Play(base, counts[base], counts[TWO], counts[SMALL], counts[BIG])
    if base == TWO:
        return Play(TWO, counts[TWO], 0, counts[SMALL], counts[BIG])
    if base == SMALL:
        return Play(SMALL, counts[SMALL], 0, 0, counts[BIG])
    return Play(BIG, counts[BIG], 0, 0, 0)


def beat_error(q: Play, p: Play) -> tuple[str, str, str] | None:
    """Why ``q`` does not beat ``p`` (G4), as ``(rule, english, chinese)``, or None when it does."""
    if p.bigs or p.base == BIG:
        return (
            "G4.3",
            f"{p} holds a big joker: it is dead and nothing beats it",
            f"{p}挂大王为死牌，无牌可灭，对头须扣牌",
        )
    qs = q.n + q.twos + q.smalls + q.bigs
    ps = p.n + p.twos + p.smalls + p.bigs
    if qs != ps:
        return (
            "G4.1",
            f"{q} has {n_cards(qs)} but {p} has {n_cards(ps)}: sizes must match",
            f"张数不同：{q}为{qs}张，{p}为{ps}张",
        )
    if q.base <= p.base:
        return ("G4.2", f"{q} does not rank above {p}", f"步步高：{q}须高于{p}")
    pb = p.n if p.base == SMALL else p.smalls
    if pb:
        qr = q.n if q.base == BIG else q.bigs
        if qr < pb:
            return (
                "G4.4",
                f"{p} carries {count(pb, SMALL_EN)}: a beat needs at least {count(pb, BIG_EN)}, {q} has {qr}",
                f"小花挂牌须由不少于{pb}张大花挂牌灭之，{q}只有{qr}张大王",
            )
    return None
