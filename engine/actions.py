"""Decisions (docs/rules.md G5, G7, G10.5 and Appendix A's move lines): :class:`Action`, :class:`NotAPlay`,
and the compact move codes the engine keeps its records in.

A move code is one ``int``: the seat (3 bits), the kind (2 bits) and, for a play, the play's code
(:func:`play_code`: base, count and attached 2s, 小王 and 大王). Self-play and play-outs record codes,
never objects; :func:`action_of` turns a code back into its (shared, immutable) :class:`Action`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import Play, PlayError, parse_counts, play_from_counts, quote
from .errors import IllegalAction

# the kinds of decision, as Action.kind says them and as the engine codes them
KINDS: Final[tuple[str, ...]] = ("play", "pass", "yield", "revolt")
PLAY: Final = 0
PASS: Final = 1
YIELD: Final = 2
REVOLT: Final = 3
KIND_CODE: Final[dict[str, int]] = {"play": PLAY, "pass": PASS, "yield": YIELD, "revolt": REVOLT}
#: the words a move line may use for each kind (Appendix A; the Chinese aliases too)
KIND_WORDS: Final[dict[str, int]] = {
    "pass": PASS,
    "过": PASS,
    "过牌": PASS,
    "yield": YIELD,
    "让": YIELD,
    "让牌": YIELD,
    "revolt": REVOLT,
    "革命": REVOLT,
    "铁三科": REVOLT,
}
_SEAT_WORDS: Final[tuple[str, ...]] = ("1", "2", "3", "4", "5", "6")


def play_code(pl: Play) -> int:
    """A play as one ``int``: base (4 bits), n (6), twos (5), smalls (3), bigs (3)."""
    return pl[0] | pl[1] << 4 | pl[2] << 10 | pl[3] << 15 | pl[4] << 18


def code_play(c: int) -> Play:
    """The :class:`Play` of a :func:`play_code`."""
    return tuple.__new__(Play, (c & 15, c >> 4 & 63, c >> 10 & 31, c >> 15 & 7, c >> 18 & 7))


def move_code(seat: int, kind: int, pl: Play | None) -> int:
    """A move as one ``int`` (see the module docstring)."""
    if pl is None:
        return seat | kind << 3
    return seat | kind << 3 | play_code(pl) << 5


class Action:
    """A decision: ``play`` (cards), ``pass``, ``yield`` (让牌) or ``revolt`` (革命). Immutable.

    A play by a seat other than the one pending, on a 够级牌, is a burn (G7); no separate kind.
    """

    _seat: int
    _kind: int
    _cards: Play | None
    #: the move code (:func:`move_code`), made once: Game.push records it as it is
    _code: int

    def __init__(
        self, seat: int, kind: str | int = "play", cards: Play | str | Iterable[int] | None = None
    ) -> None:
        if isinstance(kind, int):  # make(): parts already checked (kind a code, cards a Play or None)
            self._seat = seat
            self._kind = kind
            self._cards = cards if isinstance(cards, Play) else None
            self._code = move_code(seat, kind, self._cards)
            return
        k = KIND_CODE.get(kind, -1) if isinstance(kind, str) else -1
        if k < 0:
            raise ValueError(f"unknown action kind {kind!r} (expected one of {', '.join(KINDS)})")
        if not isinstance(seat, int) or not 1 <= seat <= 6:
            raise ValueError(f"seat must be 1..6, got {seat!r}")
        play: Play | None = None
        if k == PLAY:
            if cards is None:
                raise ValueError("a play needs cards")
            if isinstance(cards, Play):
                play = cards
            elif isinstance(cards, str):
                play = Play.parse(cards)
            else:
                play = Play.from_cards(cards)
        elif cards is not None:
            raise ValueError(f"a {kind} carries no cards")
        self._seat = seat
        self._kind = k
        self._cards = play
        self._code = move_code(seat, k, play)

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def kind(self) -> str:
        """``play``, ``pass``, ``yield`` or ``revolt``."""
        return KINDS[self._kind]

    @property
    def cards(self) -> Play | None:
        """The play (None for the other kinds, and for a :class:`NotAPlay`)."""
        return self._cards

    @property
    def code(self) -> int:
        """The move code (:func:`move_code`)."""
        return self._code

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return make(seat, PASS, None)

    @classmethod
    def yield_(cls, seat: int) -> Action:
        return make(seat, YIELD, None)

    @classmethod
    def revolt(cls, seat: int) -> Action:
        return make(seat, REVOLT, None)

    @classmethod
    def play(cls, seat: int, cards: Play | str | Iterable[int]) -> Action:
        return Action(seat, "play", cards)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse a GJN move: ``"1 TTTTT"``, ``"4 pass"``, ``"3 yield"``. Raises ValueError/CardError."""
        parts = text.split()
        if len(parts) != 2:
            raise ValueError(f"a move is '<seat> <cards|pass|yield>', got {quote(text.strip())}")
        seat_s, act = parts
        if seat_s not in _SEAT_WORDS:
            raise ValueError(f"seat must be 1..6, got {quote(seat_s)}")
        kind = KIND_WORDS.get(act.lower() if act.isascii() else act, -1)
        if kind >= 0:
            return make(int(seat_s), kind, None)
        return make(int(seat_s), PLAY, Play.parse(act))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NotAPlay):
            return False
        if not isinstance(other, Action):
            return NotImplemented
        return self._seat == other._seat and self._kind == other._kind and self._cards == other._cards

    def __hash__(self) -> int:
        return hash((self._seat, KINDS[self._kind], self._cards))

    def __str__(self) -> str:
        return f"{self._seat} {self._cards if self._kind == PLAY else KINDS[self._kind]}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def make(seat: int, kind: int, pl: Play | None) -> Action:
    """An :class:`Action` from checked parts (kind a code: ``PLAY`` …), without the constructor's checks."""
    return Action(seat, kind, pl)


#: the Action of each move code seen, shared (Actions are immutable); cleared past _ACTIONS_MAX
_ACTIONS: dict[int, Action] = {}
_ACTIONS_MAX: Final = 50000


def action_of(code: int) -> Action:
    """The :class:`Action` of a move code."""
    a = _ACTIONS.get(code)
    if a is None:
        if len(_ACTIONS) > _ACTIONS_MAX:
            _ACTIONS.clear()
        c = code >> 5
        a = _ACTIONS[code] = make(code & 7, code >> 3 & 3, code_play(c) if c else None)
    return a


class NotAPlay(Action):
    """A move whose cards are well-formed (G2.4) but do not form a play (G3.2: ``1 TTJ``).

    :func:`engine.gjn.parse` reads such a move line into a ``NotAPlay`` so that the record is an
    illegal move, not a malformed file: :meth:`Game.push` rejects it with :class:`IllegalAction`
    (rule ``error.rule``, ``"G3.2"``) before any other check. ``kind`` is ``"play"``, ``cards`` is
    None, ``text`` the cards as written, ``counts`` their 15 rank counts, ``error`` the
    :class:`PlayError`. ``Action.parse`` still raises ``PlayError`` for such cards.
    """

    _text: str
    _counts: tuple[int, ...]
    _error: PlayError

    def __init__(self, seat: int, text: str) -> None:
        if not isinstance(seat, int) or not 1 <= seat <= 6:
            raise ValueError(f"seat must be 1..6, got {seat!r}")
        counts = tuple(parse_counts(text))  # CardError: not card symbols at all
        try:
            play_from_counts(counts)
        except PlayError as e:
            error = e
        else:
            raise ValueError(f"{text!r} is a play")
        self._seat = seat
        self._kind = PLAY
        self._cards = None
        self._code = seat | PLAY << 3
        self._text = text
        self._counts = counts
        self._error = error

    @property
    def text(self) -> str:
        return self._text

    @property
    def counts(self) -> tuple[int, ...]:
        return self._counts

    @property
    def error(self) -> PlayError:
        return self._error

    def illegal(self) -> IllegalAction:
        """The :class:`IllegalAction` that pushing this move raises."""
        e, t = self._error, self._text
        return IllegalAction(e.rule, f"{t}不成一手牌：{e.zh}", f"{t} is not a play: {e.en}", action=self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NotAPlay):
            return self._seat == other._seat and self._counts == other._counts
        if isinstance(other, Action):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._seat, "not-a-play", self._counts))

    def __str__(self) -> str:
        return f"{self._seat} {self._text}"

    def __repr__(self) -> str:
        return f"NotAPlay({self._seat}, {self._text!r})"


def not_a_play(action: Action, move: int) -> IllegalAction:
    """G3.2: the refusal of a move whose cards do not form a play, at move number ``move``."""
    if isinstance(action, NotAPlay):
        e = action.illegal()
    else:  # pragma: no cover - Action's constructor refuses a play without cards
        e = IllegalAction("G3.2", "所出的牌不成一手牌", "the cards do not form a play", action=action)
    e.move = move
    return e
