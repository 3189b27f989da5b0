"""The game of 够级 in progress (docs/rules.md G5-G12): :class:`Game`, the public face of the engine.

A ``Game`` is a :class:`~engine.state.State` with the API the studio uses (python-chess's shape:
``legal_plays``, ``push``/``pop``, ``copy``, ``result``). The work is done apart, by job:
:mod:`engine.rules` (legality), :mod:`engine.messages` (refusals), :mod:`engine.turns` (turn order and
the rules in motion), :mod:`engine.results` (titles, points), :mod:`engine.listing` (legal actions) and
:mod:`engine.playout` (random play). See docs/engine.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import playout, results, turns
from .actions import KINDS, NotAPlay, action_of, code_play, make, not_a_play
from .actions import PLAY as K_PLAY
from .actions import Action as Action
from .cards import (
    BIG,
    NRANKS,
    SMALL,
    TOTALS,
    TWO,
    Play,
    PlayError,
    Rank,
    cards_to_counts,
    counts_to_cards,
    format_counts,
    play_from_counts,
)
from .errors import IllegalAction
from .listing import LegalPlays, enumerate_beats, enumerate_leads, legal_codes, seat_actions
from .preset import Preset, load_preset
from .rules import classify, window
from .seats import (
    BIT,
    FINISHED,
    IN_PLAY,
    MEN,
    NEXT,
    OPP,
    ORDER,
    PREV,
    QUAN_SAN,
    REVOLT,
    SEATS,
    TITLE_EN,
    TITLES,
    VOID,
    ZHA,
    SeatStatus,
    team_of,
)
from .state import BURN, ILLEGAL, Event, GameResult, Purchase, State, TopPlay, supply_of

#: the preset a blank Game is made with (Game.copy fills it in)
_BLANK = Preset("<blank>")


class Game(State):
    """A game of 够级 in progress. See the module docstring and docs/engine.md.

    ``hands``: six hands (seat 1..6; a card string, an iterable of :class:`Rank`, or None for unknown),
    or a mapping seat -> hand. Unknown hands hold ``counts[seat]`` cards (36 by default); only counts
    and the pack are checked for them.
    """

    def __init__(
        self,
        preset: Preset | str = "tv_match",
        hands: Sequence[Any] | Mapping[int, Any] | None = None,
        leader: int = 1,
        counts: Mapping[int, int] | None = None,
        buy_threes: bool | None = None,
    ) -> None:
        if preset is _BLANK:  # copy(): the fields are set by _copy_state
            return
        self._set_up(preset, hands, leader, counts, buy_threes)
        turns.check_over(self)

    @classmethod
    def dealt(cls, preset: Preset, hands: list[list[int]], leader: int) -> Game:
        """A game of a whole deal: six hands of rank counts (index 0 = seat 1, 216 cards in all, as
        ``engine.deal`` deals them), taken as they are (not copied, not checked)."""
        g = Game(_BLANK)
        g._start(preset, [None, *hands], [0] * NRANKS, leader, None, None)
        turns.check_over(g)
        return g

    @classmethod
    def of_counts(
        cls,
        preset: Preset | str,
        hands: list[list[int] | None],
        leader: int,
        counts: Mapping[int, int] | None = None,
    ) -> Game:
        """A game from hands as rank counts (``hands[seat]`` for seat 1..6, index 0 unused; None for an
        unknown hand of ``counts[seat]`` cards), checked against the pack (G2.1), taken as they are (not
        copied). What :func:`engine.gjn.replay` sets up: the record's [Hand] tags are read once."""
        if isinstance(preset, str):
            preset = load_preset(preset)
        if leader not in SEATS:
            raise ValueError(f"leader must be a seat 1..6, got {leader!r}")
        g = Game(_BLANK)
        g._start(preset, hands, supply_of(hands), leader, counts, None)
        turns.check_over(g)
        return g

    # ------------------------------------------------------------------ public state
    @property
    def pending_seat(self) -> int | None:
        """The seat whose decision is pending, or None when the game is over."""
        if self._over or not self._queue:
            return None
        return self._queue[0]

    @property
    def last_play(self) -> TopPlay | None:
        """The top play of the current round and its seat, or None at a lead."""
        if self._top is None:
            return None
        return TopPlay(self._top_seat, self._top)

    @property
    def moves(self) -> list[Action]:
        return [action_of(c) for c in self._codes]

    @property
    def move_count(self) -> int:
        """``len(moves)``, without building them."""
        return len(self._codes)

    @property
    def move_codes(self) -> list[int]:
        """The moves as move codes (``engine.actions``; ``action_of`` turns one back into its Action)."""
        return list(self._codes)

    @property
    def burner(self) -> int | None:
        """The seat currently burning (G7), if any."""
        return self._burner or None

    @property
    def four_way(self) -> bool:
        """G10.2 四户乱缠 in force."""
        return self._luan

    def played_out(self) -> list[int]:
        """Seats that have played out, in order (头科 first; G10.1)."""
        return list(self._finished)

    @property
    def opened(self) -> list[int]:
        return list(self._opened)

    @property
    def purchased_threes(self) -> list[Purchase]:
        return list(self.purchases)

    def is_over(self) -> bool:
        return self._over

    def cards_left(self, seat: int) -> int:
        """Cards still held (an eliminated player's dead cards included)."""
        return self._count[seat]

    def hand(self, seat: int) -> tuple[Rank, ...] | None:
        """The seat's cards, highest first, or None when the hand is unknown."""
        h = self._hands[seat]
        return None if h is None else counts_to_cards(h)

    def hand_counts(self, seat: int) -> list[int] | None:
        h = self._hands[seat]
        return None if h is None else list(h)

    def dealt_hand_counts(self, seat: int) -> list[int] | None:
        """The hand as dealt (before 买3), as rank counts, or None when unknown."""
        h = self._dealt_hands[seat]
        return None if h is None else list(h)

    def dealt_count(self, seat: int) -> int:
        return self._dealt_counts[seat]

    def in_play(self, seat: int) -> bool:
        return self._status[seat] == IN_PLAY

    def status(self, seat: int) -> SeatStatus:
        """Where the seat stands: in play, or out and why (a ``str``: ``"men"`` …)."""
        return SeatStatus.of(self._status[seat])

    def is_wutou(self, seat: int) -> bool:
        """G8: the seat's 对头 is no longer in play."""
        return self._status[seat] == IN_PLAY and self._status[OPP[seat]] != IN_PLAY

    def report_counts(self) -> dict[int, int]:
        """G5.6 报牌: the counts of players in play holding ``report_max`` cards or fewer."""
        m = self.preset.report_max
        return {s: self._count[s] for s in SEATS if self._status[s] == IN_PLAY and self._count[s] <= m}

    def passed_this_round(self) -> frozenset[int]:
        """G5.2 过牌: the seats that passed on the current round's plays (none at a lead, none once over)."""
        if self._over or self._top is None:
            return frozenset()
        return frozenset(s for s in SEATS if self._passed & BIT[s])

    def jokers_and_twos_out(self) -> dict[str, int]:
        """For the 记牌器: 大王 (R), 小王 (B) and 2s not yet played."""
        p = self._played
        return {"R": TOTALS[BIG] - p[BIG], "B": TOTALS[SMALL] - p[SMALL], "2": TOTALS[TWO] - p[TWO]}

    def played_counts(self) -> list[int]:
        return list(self._played)

    def events(self) -> list[Event]:
        """Rule events so far (:class:`~engine.state.Event`: move number, event, seat); events are burn,
        fan_shao, jie_shao, zha_shao, men, finish, open, revolt, four_way, quan_san, jie_feng."""
        return list(self._events)

    def options(self, seat: int) -> frozenset[str]:
        """What ``seat`` may do now: a subset of play, pass, yield, burn, revolt."""
        out: set[str] = set()
        for a in seat_actions(self, seat):  # non-play kinds come first: stop at the first play
            if a.kind == "play":
                out.add("play" if seat == self.pending_seat else "burn")
                break
            out.add(a.kind)
        return frozenset(out)

    def burn_window_open(self) -> bool:
        return window(self)

    def burn_priority(self, seats: Iterable[int]) -> list[int]:
        """G7.2 联邦烧牌优先: order simultaneous burn claims: the team of the 够级牌's player first,
        then playing order from that player."""
        p = self._top_seat or (self.pending_seat or 1)
        order = ORDER[p]
        return sorted(set(seats), key=lambda s: ((s % 2) != (p % 2), order.index(s) if s in order else 9))

    def resolve_burns(self, claims: Iterable[Action]) -> Action | None:
        """Of simultaneous burn claims, the legal one with priority (G7.2), or None."""
        legal = [
            a for a in claims if a._kind == K_PLAY and classify(self, a._seat, K_PLAY, a._cards)[0] == BURN
        ]
        if not legal:
            return None
        order = self.burn_priority(a.seat for a in legal)
        return min(legal, key=lambda a: order.index(a.seat))

    # ------------------------------------------------------------------ legality
    def legal_plays(self) -> LegalPlays:
        """A lazy view of every legal :class:`Action` (the pending seat's and out-of-turn burns)."""
        return LegalPlays(self)

    def is_legal(self, action: Action) -> bool:
        return classify(self, action._seat, action._kind, action._cards)[0] != ILLEGAL

    def why_illegal(self, action: Action) -> IllegalAction | None:
        mode, e = classify(self, action._seat, action._kind, action._cards)
        if mode != ILLEGAL:
            return None
        assert e is not None
        return IllegalAction(e.rule, e.zh, e.en, action=action)

    # ------------------------------------------------------------------ push / pop
    def push(self, action: Action, undo: bool = True) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (with the clause id) otherwise.
        ``undo=False`` (replaying a record to check it) keeps nothing for :meth:`pop`."""
        pl = action._cards
        if pl is None and action._kind == K_PLAY:  # NotAPlay (G3.2): before any other check
            raise not_a_play(action, len(self._codes) + 1)
        self._push(action._seat, action._kind, pl, action, undo, action._code)

    def push_code(self, code: int, undo: bool = True) -> None:
        """:meth:`push` of a move code (``legal_codes()``, ``Action.code``), without an Action object.
        ``undo=False`` (play-outs, re-checking records) keeps nothing for :meth:`pop`."""
        c = code >> 5
        self._push(code & 7, code >> 3 & 3, code_play(c) if c else None, None, undo, code)

    def _push(
        self, seat: int, kind: int, pl: Play | None, action: Action | None, undo: bool, code: int
    ) -> None:
        mode, e = classify(self, seat, kind, pl)
        if mode == ILLEGAL:
            assert e is not None
            if action is None:
                action = make(seat, kind, pl)
            raise IllegalAction(e.rule, e.zh, e.en, action=action, move=len(self._codes) + 1)
        if undo:
            self._undo.append(self._snapshot())
        elif self._undo:
            self._undo = []  # pop() cannot go back past a move it has no snapshot of
        turns.apply(self, seat, mode, pl)
        self._codes.append(code)

    def legal_codes(self) -> list[int]:
        """Every legal action as a move code (the set and order of :meth:`legal_plays`): for search and
        play-outs, which need no Action objects (``push_code``)."""
        return legal_codes(self)

    def push_str(self, text: str) -> Action:
        a = Action.parse(text)
        self.push(a)
        return a

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self._undo:
            raise IndexError("pop from a game with no moves")
        self._restore(self._undo.pop())
        return action_of(self._codes.pop())

    def copy(self) -> Game:
        g = Game(_BLANK)
        self._copy_state(g)
        return g

    # ------------------------------------------------------------------ results
    def titles_so_far(self) -> dict[int, str]:
        """The titles already decided (G10): seats that played out take them from 头科 down, 诈烧 and 闷
        seats from 大落 up, a 革命 seat holds 四科 (G10.5); once the game is over, every seat's title.
        For a game under way (the referee's mid-game check, ``check --partial``)."""
        return results.titles_so_far(self)

    def ranking(self) -> list[int]:
        """Seats from 头科 to 大落 once the game is over (G10)."""
        return results.ranking(self)

    def result(self) -> GameResult:
        """Titles and points (G10, G11). Raises ValueError while the game is still on."""
        return results.result(self)

    # ------------------------------------------------------------------ random play
    def random_action(self, rng: random.Random) -> Action:
        """A random legal action, found without enumerating all of them (for self-play)."""
        seat, mode, pl = playout.random_choice(self, rng)
        return make(seat, playout.MODE_KIND[mode], pl)

    def play_randomly(self, rng: random.Random, record: bool = True, max_moves: int = 100000) -> None:
        """Play random legal actions until the game is over (no undo information is kept)."""
        playout.play_randomly(self, rng, record, max_moves)

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        return (
            f"<Game {self.preset.name} moves={len(self._codes)} pending={self.pending_seat} "
            f"counts={self._count[1:]}>"
        )

    def describe(self) -> str:
        lines = []
        for s in SEATS:
            h = self._hands[s]
            lines.append(
                f"seat {s} [{self.status(s)}] {self._count[s]:2d} "
                f"{format_counts(h) if h is not None else '?'}"
            )
        lines.append(f"top: {self.last_play}  pending: {self.pending_seat}")
        return "\n".join(lines)


def play_of(cards: str | Iterable[int]) -> Play:
    """Parse cards into a play; raises CardError or PlayError."""
    if isinstance(cards, str):
        return Play.parse(cards)
    return play_from_counts(cards_to_counts(cards))


__all__ = [
    "Action",
    "BIT",
    "FINISHED",
    "Game",
    "GameResult",
    "IN_PLAY",
    "KINDS",
    "LegalPlays",
    "MEN",
    "NEXT",
    "NotAPlay",
    "OPP",
    "ORDER",
    "PREV",
    "PlayError",
    "QUAN_SAN",
    "REVOLT",
    "SEATS",
    "SeatStatus",
    "TITLES",
    "TITLE_EN",
    "VOID",
    "ZHA",
    "enumerate_beats",
    "enumerate_leads",
    "play_of",
    "team_of",
]
