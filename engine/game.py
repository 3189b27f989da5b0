"""The game state: turns, rounds, 够级, burning, 无头, 憋3/闷, titles and scores (RULES.md G5-G12).

Design notes (see docs/engine.md): hands are lists of 15 rank counts, plays are :class:`Play`
5-tuples, and the turn structure is a *queue* of the seats still to act on the top play, rebuilt after
every play from the clause that governs it (G5.2, G6.2, G8, G10.2, G4.3). Out-of-turn burns (G7) are
checked against the open "burn window" (a protected 够级牌 whose 对头 has not acted yet).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    BIG,
    NRANKS,
    SMALL,
    TOTALS,
    TWO,
    CardError,
    Play,
    PlayError,
    Rank,
    beat_error,
    cards_to_counts,
    counts_to_cards,
    format_counts,
    gouji_thresholds,
    n_cards,
    parse_counts,
    play_from_counts,
    quote,
)
from .errors import IllegalAction
from .preset import Preset, load_preset

SEATS = (1, 2, 3, 4, 5, 6)
NEXT = (0, 2, 3, 4, 5, 6, 1)
PREV = (0, 6, 1, 2, 3, 4, 5)
OPP = (0, 4, 5, 6, 1, 2, 3)
ORDER: tuple[tuple[int, ...], ...] = ((),) + tuple(
    tuple((s + i - 1) % 6 + 1 for i in range(1, 6)) for s in SEATS
)
BIT = (0, 2, 4, 8, 16, 32, 64)
TITLES = ("头科", "二科", "三科", "四科", "二落", "大落")
TITLE_EN = ("first", "second", "third", "fourth", "fifth (二落)", "last (大落)")
QUAN_SAN = "圈三"
VOID = "流局"
KINDS = ("play", "pass", "yield", "revolt")
_KIND_WORDS = {
    "pass": "pass",
    "过": "pass",
    "过牌": "pass",
    "yield": "yield",
    "让": "yield",
    "让牌": "yield",
    "revolt": "revolt",
    "革命": "revolt",
    "铁三科": "revolt",
}

# seat status
IN_PLAY, FINISHED, ZHA, MEN, REVOLT = 0, 1, 2, 3, 4


def team_of(seat: int) -> str:
    """G1.2: odd seats against even seats."""
    return "odd" if seat % 2 else "even"


class Action:
    """A decision: ``play`` (cards), ``pass``, ``yield`` (让牌) or ``revolt`` (革命).

    A play by a seat other than the one pending, on a 够级牌, is a burn (G7); no separate kind.
    """

    __slots__ = ("seat", "kind", "cards")

    seat: int
    kind: str
    cards: Play | None

    def __init__(
        self, seat: int, kind: str = "play", cards: Play | str | Iterable[int] | None = None
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown action kind {kind!r} (expected one of {', '.join(KINDS)})")
        if not isinstance(seat, int) or not 1 <= seat <= 6:
            raise ValueError(f"seat must be 1..6, got {seat!r}")
        play: Play | None = None
        if kind == "play":
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
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", play)

    @classmethod
    def _make(cls, seat: int, kind: str, play: Play | None) -> Action:
        a = object.__new__(cls)
        object.__setattr__(a, "seat", seat)
        object.__setattr__(a, "kind", kind)
        object.__setattr__(a, "cards", play)
        return a

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Action is immutable")

    @classmethod
    def pass_(cls, seat: int) -> Action:
        return cls._make(seat, "pass", None)

    @classmethod
    def yield_(cls, seat: int) -> Action:
        return cls._make(seat, "yield", None)

    @classmethod
    def revolt(cls, seat: int) -> Action:
        return cls._make(seat, "revolt", None)

    @classmethod
    def play(cls, seat: int, cards: Play | str | Iterable[int]) -> Action:
        return cls(seat, "play", cards)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse a GJN move: ``"1 TTTTT"``, ``"4 pass"``, ``"3 yield"``. Raises ValueError/CardError."""
        parts = text.split()
        if len(parts) != 2:
            raise ValueError(f"a move is '<seat> <cards|pass|yield>', got {quote(text.strip())}")
        seat_s, act = parts
        if seat_s not in ("1", "2", "3", "4", "5", "6"):
            raise ValueError(f"seat must be 1..6, got {quote(seat_s)}")
        kind = _KIND_WORDS.get(act.lower() if act.isascii() else act)
        if kind is not None:
            return cls._make(int(seat_s), kind, None)
        return cls._make(int(seat_s), "play", Play.parse(act))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.seat == other.seat and self.kind == other.kind and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.seat, self.kind, self.cards))

    def __str__(self) -> str:
        return f"{self.seat} {self.cards if self.kind == 'play' else self.kind}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


class NotAPlay(Action):
    """A move whose cards are well-formed (G2.4) but do not form a play (G3.2: ``1 TTJ``).

    :func:`engine.gjn.parse` reads such a move line into a ``NotAPlay`` so that the record is an
    illegal move, not a malformed file: :meth:`Game.push` rejects it with :class:`IllegalAction`
    (rule ``error.rule``, ``"G3.2"``) before any other check. ``kind`` is ``"play"``, ``cards`` is
    None, ``text`` the cards as written, ``counts`` their 15 rank counts, ``error`` the
    :class:`PlayError`. ``Action.parse`` still raises ``PlayError`` for such cards.
    """

    __slots__ = ("text", "counts", "error")

    text: str
    counts: tuple[int, ...]
    error: PlayError

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
        for name, value in (
            ("seat", seat),
            ("kind", "play"),
            ("cards", None),
            ("text", text),
            ("counts", counts),
            ("error", error),
        ):
            object.__setattr__(self, name, value)

    def illegal(self) -> IllegalAction:
        """The :class:`IllegalAction` that pushing this move raises."""
        e, t = self.error, self.text
        return IllegalAction(e.rule, f"{t}不成一手牌：{e.zh}", f"{t} is not a play: {e.en}", action=self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NotAPlay):
            return self.seat == other.seat and self.counts == other.counts
        if isinstance(other, Action):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.seat, "not-a-play", self.counts))

    def __str__(self) -> str:
        return f"{self.seat} {self.text}"

    def __repr__(self) -> str:
        return f"NotAPlay({self.seat}, {self.text!r})"


@dataclass(frozen=True)
class GameResult:
    finish_order: list[int]
    titles: dict[int, str]
    team_points: dict[str, int]
    quan_san: bool
    opened: list[int]
    void: bool = False
    zha_shao: list[int] = field(default_factory=list)
    men: list[int] = field(default_factory=list)
    revolt: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "finish_order": list(self.finish_order),
            "titles": {str(s): t for s, t in sorted(self.titles.items())},
            "team_points": dict(self.team_points),
            "quan_san": self.quan_san,
            "opened": list(self.opened),
        }


_INFO: dict[tuple[int, ...], dict[tuple[int, ...], tuple[int, int, int, bool, bool, bool, bool]]] = {}


def _make_info(pl: tuple[int, ...], thr: tuple[int, ...]) -> tuple[int, int, int, bool, bool, bool, bool]:
    base, n, t, b, r = pl
    nr = n if base == BIG else r
    nb = n if base == SMALL else b
    joker = nr > 0 or nb > 0
    gouji = joker or n + t >= thr[base]
    pure = gouji and not joker and t == 0 and base < TWO
    return (n + t + b + r, nr, nb, gouji, pure, nr > 0, joker)


_WILDS: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}


def _wild_combos(t: int, b: int, r: int) -> list[tuple[int, int, int]]:
    key = (t, b, r)
    w = _WILDS.get(key)
    if w is None:
        w = [(x, y, z) for x in range(t + 1) for y in range(b + 1) for z in range(r + 1)]
        _WILDS[key] = w
    return w


def enumerate_leads(h: Sequence[int], bie_san: bool = False, cap: int = 999) -> list[Play]:
    """Every play a hand of counts ``h`` may lead (G3), at most ``cap`` cards each."""
    out: list[Play] = []
    t, b, r = h[TWO], h[SMALL], h[BIG]
    mk = tuple.__new__
    w = _wild_combos(t, b, r)
    start = 0
    if bie_san:
        start = 1
        c3 = h[0]
        if c3 and c3 <= cap and c3 == sum(h):
            out.append(mk(Play, (0, c3, 0, 0, 0)))
    if cap >= 36 + t + b + r:
        for base in range(start, TWO):
            c = h[base]
            if c:
                out += [mk(Play, (base, k, x, y, z)) for k in range(1, c + 1) for x, y, z in w]
    else:
        for base in range(start, TWO):
            c = h[base]
            if c:
                out += [
                    mk(Play, (base, k, x, y, z))
                    for k in range(1, c + 1)
                    for x, y, z in w
                    if k + x + y + z <= cap
                ]
    out += [
        mk(Play, (TWO, k, 0, y, z))
        for k in range(1, t + 1)
        for y in range(b + 1)
        for z in range(r + 1)
        if k + y + z <= cap
    ]
    out += [mk(Play, (SMALL, k, 0, 0, z)) for k in range(1, b + 1) for z in range(r + 1) if k + z <= cap]
    out += [mk(Play, (BIG, k, 0, 0, 0)) for k in range(1, min(r, cap) + 1)]
    return out


def enumerate_beats(h: Sequence[int], top: Play) -> list[Play]:
    """Every play from counts ``h`` that beats ``top`` (G4)."""
    out: list[Play] = []
    if top.bigs or top.base == BIG:
        return out
    size = top.n + top.twos + top.smalls + top.bigs
    need = top.n if top.base == SMALL else top.smalls
    t, b, r = h[TWO], h[SMALL], h[BIG]
    mk = tuple.__new__
    for base in range(top.base + 1, NRANKS):
        c = h[base]
        if not c:
            continue
        if base < TWO:
            for z in range(need, r + 1):
                for y in range(b + 1):
                    for x in range(t + 1):
                        k = size - x - y - z
                        if 1 <= k <= c:
                            out.append(mk(Play, (base, k, x, y, z)))
        elif base == TWO:
            for z in range(need, r + 1):
                for y in range(b + 1):
                    k = size - y - z
                    if 1 <= k <= c:
                        out.append(mk(Play, (base, k, 0, y, z)))
        elif base == SMALL:
            for z in range(need, r + 1):
                k = size - z
                if 1 <= k <= c:
                    out.append(mk(Play, (base, k, 0, 0, z)))
        elif c >= size >= need:
            out.append(mk(Play, (BIG, size, 0, 0, 0)))
    return out


def _random_beat(h: Sequence[int], top: Play, rng: random.Random) -> Play | None:
    """A random beat of ``top`` from counts ``h`` (fewest wild cards for the chosen base), or None."""
    if top.bigs or top.base == BIG:
        return None
    size = top.n + top.twos + top.smalls + top.bigs
    need = top.n if top.base == SMALL else top.smalls
    t, b, r = h[TWO], h[SMALL], h[BIG]
    if r < need:
        return None
    cands = []
    for base in range(top.base + 1, NRANKS):
        c = h[base]
        if not c:
            continue
        if base < TWO:
            wild = t + b + r - need
        elif base == TWO:
            wild = b + r - need
        elif base == SMALL:
            wild = r - need
        else:
            if c >= size:
                cands.append(base)
            continue
        if size - need >= 1 and c + wild >= size - need:
            cands.append(base)
    if not cands:
        return None
    base = cands[int(rng.random() * len(cands))]
    if base == BIG:
        return tuple.__new__(Play, (BIG, size, 0, 0, 0))
    z = need
    rest = size - need
    k = min(h[base], rest)
    rest -= k
    x = y = 0
    if base < TWO:
        x = min(t, rest)
        rest -= x
    if base < SMALL:
        y = min(b, rest)
        rest -= y
    z += rest
    return tuple.__new__(Play, (base, k, x, y, z))


def _err(rule: str, en: str, zh: str) -> tuple[str, str, str]:
    return (rule, en, zh)


class Game:
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
        if isinstance(preset, str):
            preset = load_preset(preset)
        self.preset = preset
        if leader not in SEATS:
            raise ValueError(f"leader must be a seat 1..6, got {leader!r}")
        self.leader = leader
        self._thr = gouji_thresholds(preset.gouji_min_twos)
        info = _INFO.get(self._thr)
        if info is None:
            info = _INFO[self._thr] = {}
        self._info = info
        self._bie = preset.bie_san
        hs: list[list[int] | None] = [None] * 7
        if hands is not None:
            items: Iterable[tuple[int, Any]]
            if isinstance(hands, Mapping):
                items = hands.items()
            else:
                if len(hands) != 6:
                    raise ValueError(f"hands: expected 6 hands (seats 1..6), got {len(hands)}")
                items = zip(SEATS, hands, strict=True)
            for s, h in items:
                if s not in SEATS:
                    raise ValueError(f"hands: bad seat {s!r}")
                if h is None:
                    continue
                hs[s] = cards_to_counts(h)
        total = [0] * NRANKS
        for s in SEATS:
            h = hs[s]
            if h is not None:
                for r in range(NRANKS):
                    total[r] += h[r]
        for r in range(NRANKS):
            if total[r] > TOTALS[r]:
                raise CardError(
                    "G2.1",
                    f"各家手牌共有 {total[r]} 张 {Rank(r).symbol}，四副牌只有 {TOTALS[r]} 张",
                    f"the hands hold {total[r]} cards of rank {Rank(r).symbol}; the pack has {TOTALS[r]}",
                )
        self._supply = [TOTALS[r] - total[r] for r in range(NRANKS)]  # for unknown hands
        self._hands = hs
        self._count = [0] * 7
        for s in SEATS:
            h = hs[s]
            if h is not None:
                self._count[s] = sum(h)
            else:
                self._count[s] = counts.get(s, 36) if counts is not None else 36
        self._dealt_hands = [None if h is None else list(h) for h in hs]
        self._dealt_counts = list(self._count)
        self._dealt_wild = [h is None or bool(h[TWO] or h[SMALL] or h[BIG]) for h in hs]
        self._dealt_wild[0] = True
        self.purchases: list[tuple[int, int, int]] = []
        if buy_threes is None:
            buy_threes = self._bie and all(hs[s] is not None and self._count[s] == 36 for s in SEATS)
        if buy_threes and self._bie:
            self._buy_threes()
        self._status = [IN_PLAY] * 7
        self._status[0] = FINISHED
        for s in SEATS:
            if self._count[s] == 0:
                self._status[s] = FINISHED
        self._finished: list[int] = [s for s in SEATS if self._count[s] == 0]
        self._zha: list[int] = []
        self._men: list[int] = []
        self._revolt: list[int] = []
        self._top: Play | None = None
        self._top_seat = 0
        self._tinfo: tuple[int, int, int, bool, bool, bool, bool] = (0, 0, 0, False, False, False, False)
        self._queue: list[int] = [leader] if self._status[leader] == IN_PLAY else [self._next_in_play(leader)]
        self._passed = 0
        self._burner = 0
        self._yielder = 0
        self._gprot = False
        self._yprot = False
        self._started = False
        self._opened: list[int] = []
        self._played = [0] * NRANKS
        self._over = False
        self._void = False
        self._quan_san = False
        self._quan_winners: list[int] = []
        self._luan = False
        #: (seat, play, its 对头, passes) of a 够级牌 that has just lived (G6.4), until the next action
        self._lived: tuple[int, Play, int, int] | None = None
        self._moves: list[Action] = []
        self._undo: list[tuple[Any, ...]] = []
        self._events: list[tuple[int, str, int]] = []  # (move index, event, seat)
        self._check_over()

    # ------------------------------------------------------------------ set-up helpers
    def _buy_threes(self) -> None:
        """G9.3 买3: a player dealt no 3 buys one from the 对头 (else the 对头's team) with a 2
        (else a 小王, else a 大王)."""
        hs = self._hands
        for s in SEATS:
            h = hs[s]
            assert h is not None
            if h[0]:
                continue
            pay = TWO if h[TWO] else SMALL if h[SMALL] else BIG if h[BIG] else -1
            if pay < 0:
                continue  # may declare 革命 (G10.5)
            o = OPP[s]
            sellers = [o, NEXT[NEXT[o]], PREV[PREV[o]]]
            seller = 0
            for x in sellers:
                hx = hs[x]
                assert hx is not None
                if hx[0] >= 2:
                    seller = x
                    break
            if not seller:
                for x in ORDER[s]:
                    hx = hs[x]
                    assert hx is not None
                    if hx[0] >= 2:
                        seller = x
                        break
            if not seller:
                continue
            hx = hs[seller]
            assert hx is not None
            h[pay] -= 1
            hx[pay] += 1
            hx[0] -= 1
            h[0] += 1
            self.purchases.append((s, seller, pay))

    # ------------------------------------------------------------------ public state
    @property
    def pending_seat(self) -> int | None:
        """The seat whose decision is pending, or None when the game is over."""
        if self._over or not self._queue:
            return None
        return self._queue[0]

    @property
    def last_play(self) -> tuple[int, Play] | None:
        """The top play of the current round and its seat, or None at a lead."""
        if self._top is None:
            return None
        return (self._top_seat, self._top)

    @property
    def moves(self) -> list[Action]:
        return list(self._moves)

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
    def purchased_threes(self) -> list[tuple[int, int, int]]:
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

    def status(self, seat: int) -> str:
        return ("in_play", "finished", "zha_shao", "men", "revolt")[self._status[seat]]

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

    def events(self) -> list[tuple[int, str, int]]:
        """Rule events so far: (move number, event, seat); events are burn, fan_shao, jie_shao, zha_shao,
        men, finish, open, revolt, four_way, quan_san, jie_feng."""
        return list(self._events)

    def options(self, seat: int) -> frozenset[str]:
        """What ``seat`` may do now: a subset of play, pass, yield, burn, revolt."""
        out: set[str] = set()
        for a in self._seat_actions(seat):  # non-play kinds come first: stop at the first play
            if a.kind == "play":
                out.add("play" if seat == self.pending_seat else "burn")
                break
            out.add(a.kind)
        return frozenset(out)

    def burn_window_open(self) -> bool:
        return self._window()

    def burn_priority(self, seats: Iterable[int]) -> list[int]:
        """G7.2 联邦烧牌优先: order simultaneous burn claims: the team of the 够级牌's player first,
        then playing order from that player."""
        p = self._top_seat or (self.pending_seat or 1)
        order = ORDER[p]
        return sorted(set(seats), key=lambda s: ((s % 2) != (p % 2), order.index(s) if s in order else 9))

    def resolve_burns(self, claims: Iterable[Action]) -> Action | None:
        """Of simultaneous burn claims, the legal one with priority (G7.2), or None."""
        legal = [
            a for a in claims if a.kind == "play" and self._classify(a.seat, a.kind, a.cards)[0] == "burn"
        ]
        if not legal:
            return None
        order = self.burn_priority(a.seat for a in legal)
        return min(legal, key=lambda a: order.index(a.seat))

    # ------------------------------------------------------------------ legality
    def _window(self) -> bool:
        return (
            self._gprot
            and not self._yprot
            and self._top is not None
            and not self._tinfo[5]
            and OPP[self._top_seat] in self._queue
        )

    def _info_of(self, pl: Play) -> tuple[int, int, int, bool, bool, bool, bool]:
        i = self._info.get(pl)
        if i is None:
            i = self._info[pl] = _make_info(pl, self._thr)
        return i

    def _classify(
        self, seat: int, kind: str, pl: Play | None
    ) -> tuple[str | None, tuple[str, str, str] | None]:
        """(mode, None) when legal, (None, (rule, en, zh)) when not."""
        if self._over:
            return None, _err("G10.4", "the game is over", "本局已结束")
        if self._status[seat] != IN_PLAY:
            return None, self._out_error(seat)
        pending = self._queue[0] if self._queue else 0
        if kind == "revolt":
            if not self.preset.revolution:
                return None, _err(
                    "G10.5",
                    f"革命 is not played under {self.preset.name}",
                    f"{self.preset.name}规则不实行革命",
                )
            if self._started:
                return None, _err(
                    "G10.5", "革命 must be declared before the first lead", "革命须在首次发牌前声明"
                )
            if self._dealt_wild[seat] and self._hands[seat] is not None:
                return None, _err(
                    "G10.5",
                    f"seat {seat} was dealt a joker or a 2 and may not declare 革命",
                    f"{seat}号有花或钱，不能革命",
                )
            return "revolt", None
        if kind == "pass":
            if seat != pending:
                return None, self._keep_out(seat, pending)
            if self._top is None:
                return None, _err(
                    "G5.1", f"seat {seat} holds the lead and must play", f"{seat}号有发牌权，须发牌"
                )
            return "pass", None
        if kind == "yield":
            if seat != pending:
                return None, self._keep_out(seat, pending)
            e = self._yield_error(seat, pending)
            return ("yield", None) if e is None else (None, e)
        # a play: whose turn, then possession, then 憋3, then beating
        if pl is None:  # a NotAPlay (push reports it with its own message)
            return None, _err("G3.2", "the cards do not form a play", "所出的牌不成一手牌")
        top = self._top
        if top is None:
            if seat != pending:
                return None, self._lead_error(seat, pending, pl)
            mode = "lead"
        elif seat == pending:
            mode = "beat"
        else:
            e = self._burn_error(seat, pending)
            if e is not None:
                return None, e
            mode = "burn"
        size = pl.n + pl.twos + pl.smalls + pl.bigs
        h = self._hands[seat]
        if h is not None:
            if (
                h[pl.base] < pl.n
                or h[TWO] < (pl.twos + (pl.n if pl.base == TWO else 0))
                or h[SMALL] < pl.smalls + (pl.n if pl.base == SMALL else 0)
                or h[BIG] < pl.bigs + (pl.n if pl.base == BIG else 0)
            ):
                return None, _err("G3.1", f"seat {seat} does not hold {pl}", f"{seat}号手中没有{pl}")
        else:
            if size > self._count[seat]:
                return None, _err(
                    "G3.1",
                    f"seat {seat} holds only {n_cards(self._count[seat])}, not {size}",
                    f"{seat}号只剩{self._count[seat]}张牌",
                )
            sup = self._supply
            for r, c in ((pl.base, pl.n), (TWO, pl.twos), (SMALL, pl.smalls), (BIG, pl.bigs)):
                if c > sup[r]:
                    return None, _err(
                        "G2.1",
                        f"no {Rank(r).symbol} left in the pack for {pl}",
                        f"四副牌中已无足够的{Rank(r).symbol}",
                    )
        if self._bie:
            if pl.base == 0:
                if pl.twos or pl.smalls or pl.bigs:
                    return None, _err(
                        "G3.6", f"{pl}: 3s take no wild cards under 憋3", f"{pl}：憋3时3不能贴钱挂花"
                    )
                if size != self._count[seat]:
                    return None, _err(
                        "G9.1",
                        "3s are never split: they are the last play, all together",
                        "憋3：3不能拆开出，须作为底牌一次出完",
                    )
            elif size == self._count[seat] and (h is None or h[0]):
                return None, _err("G9.1", "the last play must be all your 3s (憋3)", "憋3：底牌必须是3")
        if top is not None:
            e = beat_error(pl, top)
            if e is not None:
                if mode == "burn":  # say that the out-of-turn play was taken as a burn
                    ts = self._top_seat
                    e = (
                        e[0],
                        f"seat {seat}'s burn (烧牌) of seat {ts}'s {top} fails: {e[1]}",
                        f"{seat}号烧{ts}号的{top}不成立：{e[2]}",
                    )
                return None, e
        return mode, None

    def _burn_error(self, seat: int, pending: int) -> tuple[str, str, str] | None:
        """Why an out-of-turn play by ``seat`` cannot be a burn (G7), or None."""
        top = self._top
        assert top is not None
        t = self._top_seat
        if seat == t:
            act = self._to_act()
            return _err(
                "G5.2", f"seat {seat} cannot beat its own play; {act[0]}", f"{seat}号不能灭自己的牌；{act[1]}"
            )
        if self._tinfo[5]:  # a dead play: G4.3 in every mode (Appendix A)
            return self._keep_out(seat, pending)
        if self._luan:
            act = self._to_act()
            return _err(
                "G10.2",
                f"四户乱缠: plain counterclockwise order, no burning; {act[0]}",
                f"四户乱缠不烧牌，按顺序出牌；{act[1]}",
            )
        if self._yprot:
            return self._keep_out(seat, pending)
        if not self._tinfo[3]:
            return self._keep_out(seat, pending)
        if not self._gprot:
            (gone_en, gone_zh), act = self._gone(OPP[t]), self._to_act()
            return _err(
                "G8",
                f"seat {t} is 无头 because {gone_en}: its 够级牌 is beaten in turn order, not burned; "
                f"{act[0]}",
                f"{t}号无头（因{gone_zh}），其够级牌按顺序上，不能烧；{act[1]}",
            )
        if seat == OPP[t]:
            return self._keep_out(seat, pending)
        if self._passed & BIT[seat]:
            act = self._to_act()
            return _err(
                "G7.4",
                f"seat {seat} passed in this round and may not burn (过牌不烧); {act[0]}",
                f"{seat}号本轮已过牌，过牌不烧；{act[1]}",
            )
        if not self._window():  # pragma: no cover - the 对头's pass ends the round (G6.4)
            return _err("G7.1", "a burn must come before the 对头 acts", "烧牌须在对头上牌之前")
        return None

    # ---- why a seat may not act (Appendix A: the clause that keeps it out, and who is to act)
    def _gone(self, o: int) -> tuple[str, str]:
        """Why seat ``o`` is no longer in play, as the reason its 对头 is 无头 (G8): (en, zh)."""
        st = self._status[o]
        if st == MEN:
            return f"its 对头, seat {o}, is 闷 (stuck with 3s)", f"其对头{o}号已闷"
        if st == ZHA:
            return f"its 对头, seat {o}, failed a burn (诈烧) and is out", f"其对头{o}号诈烧出局"
        if st == REVOLT:
            return f"its 对头, seat {o}, declared 革命", f"其对头{o}号革命"
        return f"its 对头, seat {o}, has played out", f"其对头{o}号已出完"

    def _to_act(self) -> tuple[str, str]:
        """Who is to act and why (en, zh), for refusals (Appendix A)."""
        p = self._queue[0] if self._queue else 0
        t = self._top_seat
        if not p:
            return "no one is to act", "无人可行动"
        if self._top is None:
            return f"seat {p} is to lead", f"应由{p}号发牌"
        if self._tinfo[5]:
            return (
                f"seat {p}, the 对头 of seat {t}, is to 扣牌 (pass) on its dead play",
                f"应由{t}号的对头{p}号扣牌",
            )
        if self._luan:
            return f"seat {p} is next in turn", f"应由{p}号按顺序出牌"
        if self._yprot:
            return f"seat {p}, the yielder's 对头, is to answer", f"应由让牌人的对头{p}号上牌"
        if self._gprot:
            if p == OPP[t] and self._burner == t:
                return (
                    f"seat {p}, the 对头 of the burner (seat {t}), is to answer",
                    f"应由烧牌人{t}号的对头{p}号应答",
                )
            if p == OPP[t]:
                return (
                    f"seat {p}, the 对头 of seat {t}, is to answer its 够级牌",
                    f"应由{t}号的对头{p}号应答够级牌",
                )
            en, zh = self._gone(OPP[p])
            return (
                f"seat {p} is to act first, in turn: it is 无头 because {en}",
                f"应由{p}号按顺序先行动：{p}号无头，因{zh}",
            )
        return f"seat {p} is next in turn", f"应由{p}号按顺序出牌"

    def _out_error(self, seat: int) -> tuple[str, str, str]:
        """G10.1: the seat is no longer in play (played out, 闷, 诈烧, 革命, or dealt no cards)."""
        st = self._status[seat]
        if st == FINISHED and self._dealt_counts[seat] == 0:
            en, zh = (
                f"seat {seat} holds no cards (its hand is empty) and has no decision",
                f"{seat}号无牌，不参与",
            )
        elif st == FINISHED:
            i = self._finished.index(seat)
            title = TITLES[i] if i < len(TITLES) else ""
            en, zh = f"seat {seat} has played out ({title})", f"{seat}号已出完牌（{title}）"
        elif st == MEN:
            en, zh = f"seat {seat} is 闷 (stuck with 3s) and out of the game", f"{seat}号已闷，出局"
        elif st == ZHA:
            en, zh = f"seat {seat} failed a burn (诈烧) and is out of the game", f"{seat}号诈烧，已出局"
        else:
            en, zh = f"seat {seat} declared 革命 and sits the game out", f"{seat}号已革命，不参与本局"
        if self._over:
            return _err("G10.1", en, zh)
        act = self._to_act()
        return _err("G10.1", f"{en}; {act[0]}", f"{zh}；{act[1]}")

    def _lead_error(self, seat: int, pending: int, pl: Play) -> tuple[str, str, str]:
        """A play by ``seat`` when ``pending`` holds the lead: G5.1, or G7.1/G7.4 when it would have
        burned the 够级牌 that has just lived because its 对头 passed (G6.4)."""
        lived = self._lived
        if lived is not None:
            t, top, o, passed = lived
            if seat not in (t, o) and beat_error(pl, top) is None:
                if passed & BIT[seat]:
                    return _err(
                        "G7.4",
                        f"seat {seat} passed on seat {t}'s {top} and may not burn it (过牌不烧); "
                        f"seat {pending} is to lead",
                        f"{seat}号已对{t}号的{top}过牌，过牌不烧；应由{pending}号发牌",
                    )
                return _err(
                    "G7.1",
                    f"a burn must come before the 对头 acts: seat {o} passed on seat {t}'s {top}, so it "
                    f"lived (G6.4); seat {pending} is to lead",
                    f"烧牌须在对头上牌之前：{t}号的{top}其对头{o}号已过牌，牌已活；应由{pending}号发牌",
                )
        return self._not_the_leader(seat, pending)

    def _not_the_leader(self, seat: int, pending: int) -> tuple[str, str, str]:
        """G5.1: the lead is ``pending``'s (saying why when a 够级牌 has just lived, G6.4)."""
        lived = self._lived
        if lived is not None and lived[0] == pending:
            t, top, o = lived[0], lived[1], lived[2]
            return _err(
                "G5.1",
                f"seat {t} holds the lead, not seat {seat}: its {top} lived when its 对头, seat {o}, "
                "passed (G6.4)",
                f"发牌权在{t}号，不在{seat}号：{t}号的{top}其对头{o}号已过牌，牌已活",
            )
        return _err(
            "G5.1",
            f"seat {pending} holds the lead, not seat {seat}",
            f"发牌权在{pending}号，不在{seat}号",
        )

    def _keep_out(self, seat: int, pending: int) -> tuple[str, str, str]:
        """Why ``seat`` (in play, not the one to act) has no decision now: Appendix A's clause."""
        top = self._top
        act_en, act_zh = self._to_act()
        if top is None:
            return self._not_the_leader(seat, pending)
        t = self._top_seat
        o = OPP[t]
        if seat == t:
            return _err(
                "G5.2", f"seat {seat} made the top play; {act_en}", f"{seat}号出的是台面上的牌；{act_zh}"
            )
        if self._tinfo[5]:
            return _err(
                "G4.3",
                f"seat {t}'s {top} holds a 大王: it is dead, only its 对头 (seat {o}) acts, to 扣牌; "
                f"seat {seat} has no decision",
                f"{t}号的{top}挂大王为死牌，唯有其对头{o}号扣牌，{seat}号无权出牌",
            )
        if self._luan:
            return _err(
                "G10.2",
                f"四户乱缠: plain counterclockwise order, it is not seat {seat}'s turn; {act_en}",
                f"四户乱缠按反时针顺序出牌，未轮到{seat}号；{act_zh}",
            )
        if self._yprot:
            return _err(
                "G5.5",
                f"only seat {o} (the yielder's 对头) may answer seat {t}'s play; seat {seat} has no decision",
                f"让牌人{t}号所出的牌唯有其对头{o}号可上，{seat}号无权出牌",
            )
        if self._passed & BIT[seat]:
            return _err(
                "G5.2",
                f"seat {seat} passed in this round and may not act again; {act_en}",
                f"{seat}号本轮已过牌，这一轮再无权出牌；{act_zh}",
            )
        if self._gprot:
            if seat == o or seat in self._queue:  # the 对头 or a 无头 seat, after the seat to act
                return _err(
                    "G5.2",
                    f"seat {seat} answers in turn, after seat {pending}; {act_en}",
                    f"{seat}号须按顺序，在{pending}号之后上牌；{act_zh}",
                )
            more_en, more_zh = ("", "") if pending == o else (f"; {act_en}", f"；{act_zh}")
            if self._burner == t:
                return _err(
                    "G7.3",
                    f"seat {t} is burning (烧牌): only its 对头, seat {o}, answers; seat {seat} has no "
                    f"decision{more_en}",
                    f"{t}号烧牌，唯有其对头{o}号可应答，{seat}号无权出牌{more_zh}",
                )
            return _err(
                "G6.2",
                f"only the 对头 answers a 够级牌: seat {o} answers seat {t}'s {top}; seat {seat} has no "
                f"decision{more_en}",
                f"够级牌唯有对头可上：{t}号的{top}由其对头{o}号应答，{seat}号无权出牌{more_zh}",
            )
        return _err(
            "G5.2",
            f"it is not seat {seat}'s turn; {act_en}",
            f"未轮到{seat}号；{act_zh}",
        )

    def _yield_error(self, seat: int, pending: int) -> tuple[str, str, str] | None:
        if seat != pending:
            return _err("G5.5", f"it is not seat {seat}'s turn", f"未轮到{seat}号")
        if self._luan:
            return _err("G10.2", "四户乱缠: no yielding", "四户乱缠不让牌")
        top = self._top
        p = self._top_seat
        if top is None or OPP[seat] != p:
            return _err("G5.5", "a yield is only on a play of one's 对头", "只能对对头牌让牌")
        if self._gprot or self._yprot:
            return _err("G5.5", "no yield on a 够级牌", "够级牌不能让牌")
        if self._yielder == seat:
            return _err("G5.5", f"seat {seat} has already yielded on this play", f"{seat}号已让过牌")
        st = self._status
        pa = self._passed
        for x in (NEXT[p], NEXT[NEXT[p]]):
            if st[x] == IN_PLAY and not pa & BIT[x]:
                return _err(
                    "G5.5", "a yield needs the two players before to have passed", "上两家须已过牌方可让牌"
                )
        if not any(st[x] == IN_PLAY and not pa & BIT[x] for x in (NEXT[seat], NEXT[NEXT[seat]])):
            return _err("G5.5", "no one after seat to yield to", "下两家无人可上牌，不能让牌")
        return None

    def legal_plays(self) -> LegalPlays:
        """A lazy view of every legal :class:`Action` (the pending seat's and out-of-turn burns)."""
        return LegalPlays(self)

    def is_legal(self, action: Action) -> bool:
        return self._classify(action.seat, action.kind, action.cards)[0] is not None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        mode, e = self._classify(action.seat, action.kind, action.cards)
        if mode is not None:
            return None
        assert e is not None
        rule, en, zh = e
        return IllegalAction(rule, zh, en, action=action)

    def _avail(self, seat: int) -> tuple[list[int], int]:
        h = self._hands[seat]
        if h is not None:
            return h, 999
        return self._supply, self._count[seat]

    def _seat_actions(self, seat: int) -> Iterator[Action]:
        if self._over or self._status[seat] != IN_PLAY:
            return
        mk = Action._make
        if self.preset.revolution and not self._started and self._classify(seat, "revolt", None)[0]:
            yield mk(seat, "revolt", None)
        pending = self._queue[0] if self._queue else 0
        h, cap = self._avail(seat)
        top = self._top
        if seat == pending:
            if top is None:
                leads = enumerate_leads(h, self._bie, min(cap, self._count[seat]))
                if self._hands[seat] is not None:  # from the hand itself: every one is legal
                    for pl in leads:
                        yield mk(seat, "play", pl)
                    return
                for pl in leads:
                    if self._classify(seat, "play", pl)[0]:
                        yield mk(seat, "play", pl)
                return
            yield mk(seat, "pass", None)
            if self._yield_error(seat, pending) is None:
                yield mk(seat, "yield", None)
        elif (
            top is None
            or not self._window()
            or seat in (self._top_seat, OPP[self._top_seat])
            or self._passed & BIT[seat]
            or self._luan
        ):
            return
        assert top is not None
        known = self._hands[seat] is not None
        for pl in enumerate_beats(h, top):
            if known:  # the seat may act and the beats come from its hand
                yield mk(seat, "play", pl)
            elif (
                pl.n + pl.twos + pl.smalls + pl.bigs <= self._count[seat]
                and self._classify(seat, "play", pl)[0]
            ):
                yield mk(seat, "play", pl)

    # ------------------------------------------------------------------ push / pop
    def push(self, action: Action) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (with the clause id) otherwise."""
        if action.cards is None and action.kind == "play":  # NotAPlay (G3.2): before any other check
            raise _not_a_play(action, len(self._moves) + 1)
        mode, e = self._classify(action.seat, action.kind, action.cards)
        if mode is None:
            assert e is not None
            rule, en, zh = e
            raise IllegalAction(rule, zh, en, action=action, move=len(self._moves) + 1)
        self._undo.append(self._snapshot())
        self._apply(action.seat, mode, action.cards)
        self._moves.append(action)

    def push_str(self, text: str) -> Action:
        a = Action.parse(text)
        self.push(a)
        return a

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self._undo:
            raise IndexError("pop from a game with no moves")
        self._restore(self._undo.pop())
        return self._moves.pop()

    def copy(self) -> Game:
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._hands = [None if h is None else list(h) for h in self._hands]
        g._count = list(self._count)
        g._status = list(self._status)
        g._finished = list(self._finished)
        g._zha = list(self._zha)
        g._men = list(self._men)
        g._revolt = list(self._revolt)
        g._queue = list(self._queue)
        g._opened = list(self._opened)
        g._played = list(self._played)
        g._supply = list(self._supply)
        g._quan_winners = list(self._quan_winners)
        g._moves = list(self._moves)
        g._undo = list(self._undo)
        g._events = list(self._events)
        g._dealt_wild = list(self._dealt_wild)
        g.purchases = list(self.purchases)
        return g

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            [None if h is None else h[:] for h in self._hands],
            self._count[:],
            self._status[:],
            self._finished[:],
            self._zha[:],
            self._men[:],
            self._revolt[:],
            self._top,
            self._top_seat,
            self._tinfo,
            self._queue[:],
            self._passed,
            self._burner,
            self._yielder,
            self._gprot,
            self._yprot,
            self._started,
            self._opened[:],
            self._played[:],
            self._over,
            self._void,
            self._quan_san,
            self._quan_winners[:],
            self._luan,
            self._supply[:],
            len(self._events),
            self._lived,
        )

    def _restore(self, s: tuple[Any, ...]) -> None:
        (
            self._hands,
            self._count,
            self._status,
            self._finished,
            self._zha,
            self._men,
            self._revolt,
            self._top,
            self._top_seat,
            self._tinfo,
            self._queue,
            self._passed,
            self._burner,
            self._yielder,
            self._gprot,
            self._yprot,
            self._started,
            self._opened,
            self._played,
            self._over,
            self._void,
            self._quan_san,
            self._quan_winners,
            self._luan,
            self._supply,
            nev,
            self._lived,
        ) = s
        del self._events[nev:]

    # ------------------------------------------------------------------ the rules in motion
    def _next_in_play(self, s: int) -> int:
        st = self._status
        for x in ORDER[s]:
            if st[x] == IN_PLAY:
                return x
        return s

    def _apply(self, seat: int, mode: str, pl: Play | None) -> None:
        mv = len(self._moves) + 1
        self._lived = None
        if mode == "pass":
            self._passed |= BIT[seat]
            q = self._queue
            q.pop(0)
            if self._gprot and seat == OPP[self._top_seat] and not self._yprot and not self._tinfo[5]:
                # G6.4: the 对头 passed, the 够级牌 lives; 无头 seats after the 对头 get no turn on it
                assert self._top is not None
                self._lived = (self._top_seat, self._top, seat, self._passed)
                q.clear()
            if not q:
                self._end_round()
            return
        if mode == "yield":
            self._yielder = seat
            st = self._status
            pa = self._passed
            self._queue = [x for x in (NEXT[seat], NEXT[NEXT[seat]]) if st[x] == IN_PLAY and not pa & BIT[x]]
            self._queue.append(seat)
            return
        if mode == "revolt":
            self._status[seat] = REVOLT
            self._revolt.append(seat)
            self._events.append((mv, "revolt", seat))
            if len(self._revolt) >= 2:
                self._void = True
                self._over = True
                self._queue = []
                return
            if seat in self._queue:
                self._queue.remove(seat)
            if not self._queue:
                self._queue = [self._next_in_play(seat)]
            self._check_over()
            return
        assert pl is not None
        info = self._info.get(pl)
        if info is None:
            info = self._info[pl] = _make_info(pl, self._thr)
        size = info[0]
        burner = self._burner
        count = self._count
        # G7.4 诈烧: a burner's play without a joker that does not empty the hand is void.
        if seat == burner and not info[6] and size < count[seat]:
            self._burner = 0
            self._status[seat] = ZHA
            self._zha.append(seat)
            self._events.append((mv, "zha_shao", seat))
            self._started = True
            if self._check_over():
                return
            self._new_round(self._next_in_play(seat))
            return
        prev = self._top_seat if self._top is not None else 0
        h = self._hands[seat]
        base = pl.base
        if h is not None:
            h[base] -= pl.n
            if pl.twos:
                h[TWO] -= pl.twos
            if pl.smalls:
                h[SMALL] -= pl.smalls
            if pl.bigs:
                h[BIG] -= pl.bigs
        else:
            sup = self._supply
            sup[base] -= pl.n
            sup[TWO] -= pl.twos
            sup[SMALL] -= pl.smalls
            sup[BIG] -= pl.bigs
        played = self._played
        played[base] += pl.n
        if pl.twos:
            played[TWO] += pl.twos
        if pl.smalls:
            played[SMALL] += pl.smalls
        if pl.bigs:
            played[BIG] += pl.bigs
        count[seat] -= size
        self._started = True
        if mode == "burn":
            self._events.append((mv, "fan_shao" if burner and prev == burner else "burn", seat))
            self._burner = seat
        elif burner and prev == burner:
            if seat == OPP[burner]:
                self._events.append((mv, "jie_shao", seat))
                self._burner = 0
            else:
                self._events.append((mv, "fan_shao", seat))
                self._burner = seat
        yprot = self._yielder == seat and mode == "beat"
        self._yielder = 0
        self._top = pl
        self._top_seat = seat
        self._tinfo = info
        st = self._status
        if count[seat] == 0:
            st[seat] = FINISHED
            self._finished.append(seat)
            self._events.append((mv, "finish", seat))
            if self._burner == seat:
                self._burner = 0
        # G9.2 闷: the previous top player is left holding only 3s and was beaten.
        if self._bie and prev and st[prev] == IN_PLAY:
            hp = self._hands[prev]
            if hp is not None and hp[0] == count[prev]:
                st[prev] = MEN
                self._men.append(prev)
                self._events.append((mv, "men", prev))
                if self._burner == prev:
                    self._burner = 0
        if (count[seat] == 0 or st[prev] == MEN) and self._check_over():
            return
        if not self._luan and len(self._finished) + len(self._revolt) >= 2:
            self._luan = True
            self._burner = 0
            self._events.append((mv, "four_way", 0))
        self._make_queue(seat, info, yprot)
        if not self._queue:
            self._end_round()

    def _make_queue(self, p: int, info: tuple[int, int, int, bool, bool, bool, bool], yprot: bool) -> None:
        st = self._status
        opp = OPP[p]
        order = ORDER[p]
        self._yprot = False
        if info[5]:  # G4.3 dead: only the 对头's 扣牌
            self._gprot = True
            self._queue = [opp] if st[opp] == IN_PLAY else []
            return
        if self._luan:  # G10.2
            self._gprot = False
            self._queue = [s for s in order if st[s] == IN_PLAY]
            return
        pa = self._passed
        if st[opp] == IN_PLAY and (info[3] or yprot):
            self._gprot = info[3]
            self._yprot = yprot
            if yprot:  # G5.5: only the yielder's 对头 answers
                self._queue = [opp]
            else:  # G6.2 / G8
                self._queue = [
                    s
                    for s in order
                    if st[s] == IN_PLAY and (s == opp or (st[OPP[s]] != IN_PLAY and not pa & BIT[s]))
                ]
            return
        self._gprot = False
        q = [s for s in order if st[s] == IN_PLAY and not pa & BIT[s]]
        if st[opp] == IN_PLAY and pa & BIT[opp]:  # G5.2 除对头牌外
            q.append(opp)
        self._queue = q

    def _end_round(self) -> None:
        p = self._top_seat
        if self._tinfo[4] and not self._luan and len(self._finished) < 2 and p not in self._opened:
            self._opened.append(p)  # G6.5
            self._events.append((len(self._moves) + 1, "open", p))
        if self._status[p] == IN_PLAY:
            self._new_round(p)
        else:
            nxt = self._next_in_play(p)  # G5.4 接风
            self._events.append((len(self._moves) + 1, "jie_feng", nxt))
            self._new_round(nxt)

    def _new_round(self, leader: int) -> None:
        self._top = None
        self._top_seat = 0
        self._passed = 0
        self._yielder = 0
        self._gprot = False
        self._yprot = False
        if self._burner and self._status[self._burner] != IN_PLAY:
            self._burner = 0
        self._queue = [leader]

    def _check_over(self) -> bool:
        fin = self._finished
        mv = len(self._moves) + 1
        if len(fin) >= 3 and fin[0] % 2 == fin[1] % 2 == fin[2] % 2:
            self._quan_san = True
            self._quan_winners = fin[:3]
        elif (
            self.preset.revolution
            and len(self._revolt) == 1
            and len(fin) >= 2
            and fin[0] % 2 == fin[1] % 2 == self._revolt[0] % 2
        ):
            self._quan_san = True  # 大纲 第二十三条: the revolutionary counts as 三科
            self._quan_winners = [fin[0], fin[1], self._revolt[0]]
        if self._quan_san:
            self._over = True
            self._queue = []
            self._events.append((mv, "quan_san", self._quan_winners[0]))
            return True
        holders = [s for s in SEATS if self._status[s] == IN_PLAY]
        if len(holders) <= 1:
            self._over = True
            self._queue = []
            return True
        return False

    # ------------------------------------------------------------------ results
    def titles_so_far(self) -> dict[int, str]:
        """The titles already decided (G10): seats that played out take them from 头科 down, 诈烧 and 闷
        seats from 大落 up, a 革命 seat holds 四科 (G10.5); once the game is over, every seat's title.
        For a game under way (the referee's mid-game check, ``check --partial``)."""
        if self._over:
            return dict(self.result().titles)
        slots = [0] * 6
        if self._revolt:
            slots[3] = self._revolt[0]
        i = 5
        for s in self._zha + self._men:
            while slots[i]:
                i -= 1
            slots[i] = s
        i = 0
        for s in self._finished:
            while slots[i]:
                i += 1
            slots[i] = s
        return {s: TITLES[k] for k, s in enumerate(slots) if s}

    def ranking(self) -> list[int]:
        """Seats from 头科 to 大落 once the game is over (G10)."""
        if not self._over or self._void:
            return []
        if self._quan_san:
            return list(self._quan_winners)
        slots = [0] * 6
        if self._revolt:
            slots[3] = self._revolt[0]
        bottom = self._zha + self._men
        i = 5
        for s in bottom:
            while slots[i]:
                i -= 1
            slots[i] = s
        top = self._finished + [s for s in SEATS if self._status[s] == IN_PLAY]
        i = 0
        for s in top:
            while slots[i]:
                i += 1
            slots[i] = s
        return slots

    def result(self) -> GameResult:
        """Titles and points (G10, G11). Raises ValueError while the game is still on."""
        if not self._over:
            raise ValueError("the game is not over")
        opened = list(self._opened)
        if self._void:
            return GameResult(
                [],
                {s: VOID for s in SEATS},
                {"odd": 0, "even": 0},
                False,
                opened,
                True,
                list(self._zha),
                list(self._men),
                list(self._revolt),
            )
        order = self.ranking()
        titles: dict[int, str] = {}
        pts = {"odd": 0, "even": 0}
        if self._quan_san:
            for i, s in enumerate(order):
                titles[s] = TITLES[i]
            for s in SEATS:
                if s not in titles:
                    titles[s] = QUAN_SAN
            pts[team_of(order[0])] = self.preset.quan_san_points
        else:
            tp = self.preset.title_points
            for i, s in enumerate(order):
                titles[s] = TITLES[i]
                pts[team_of(s)] += tp[i]
            if self.preset.scoring == "dagang":
                diff = pts["odd"]
                pts = {"odd": max(diff, 0), "even": max(pts["even"], 0)}
        return GameResult(
            order,
            titles,
            pts,
            self._quan_san,
            opened,
            False,
            list(self._zha),
            list(self._men),
            list(self._revolt),
        )

    # ------------------------------------------------------------------ random play
    def random_action(self, rng: random.Random) -> Action:
        """A random legal action, found without enumerating all of them (for self-play)."""
        seat, mode, pl = self._random_choice(rng)
        return Action._make(seat, "play" if pl is not None else mode, pl)

    def _random_choice(self, rng: random.Random) -> tuple[int, str, Play | None]:
        rnd = rng.random
        if not self._started and self.preset.revolution and not self._revolt_asked:
            self._revolt_asked = True
            for s in SEATS:
                if not self._dealt_wild[s] and self._status[s] == IN_PLAY and rnd() < 0.5:
                    return s, "revolt", None
        s = self._queue[0]
        top = self._top
        if top is not None and self._window() and self._burn_asked is not top:
            self._burn_asked = top
            p = self._top_seat
            o = OPP[p]
            pa = self._passed
            st = self._status
            for b in sorted(ORDER[p], key=lambda x: (x % 2) != (p % 2)):
                if b != o and st[b] == IN_PLAY and not pa & BIT[b] and b != s and rnd() < 0.08:
                    hb = self._hands[b]
                    if hb is None:
                        continue
                    q = _random_beat(hb, top, rng)
                    if q is not None and (
                        not self._bie or q.n + q.twos + q.smalls + q.bigs < self._count[b] or not hb[0]
                    ):
                        return b, "burn", q
        h = self._hands[s]
        if h is None:
            raise ValueError("random play needs known hands")
        if top is None:
            return s, "lead", self._random_lead(s, h, rng)
        if self._tinfo[5]:
            return s, "pass", None
        if (
            top is not None
            and OPP[s] == self._top_seat
            and not self._gprot
            and not self._luan
            and rnd() < 0.15
            and self._yield_error(s, s) is None
        ):
            return s, "yield", None
        if rnd() < 0.3:
            return s, "pass", None
        q = _random_beat(h, top, rng)
        if q is None:
            return s, "pass", None
        if self._bie and q.n + q.twos + q.smalls + q.bigs == self._count[s] and h[0]:
            return s, "pass", None
        return s, "beat", q

    def _random_lead(self, s: int, h: list[int], rng: random.Random) -> Play:
        bie = self._bie
        cnt = self._count[s]
        if bie and h[0]:
            if h[0] == cnt:
                return tuple.__new__(Play, (0, cnt, 0, 0, 0))
            ranks = [r for r in range(1, NRANKS) if h[r]]
        else:
            ranks = [r for r in range(NRANKS) if h[r]]
        base = ranks[int(rng.random() * len(ranks))]
        c = h[base]
        k = c if rng.random() < 0.7 else 1 + int(rng.random() * c)
        x = y = z = 0
        if s == self._burner and base < SMALL:
            if h[SMALL]:
                y = 1
            elif h[BIG]:
                z = 1
        elif base < TWO and h[TWO] and rng.random() < 0.1:
            x = 1
        if base == SMALL:
            return tuple.__new__(Play, (SMALL, k, 0, 0, z))
        if base == TWO:
            return tuple.__new__(Play, (TWO, k, 0, y, z))
        return tuple.__new__(Play, (base, k, x, y, z))

    _revolt_asked = False
    _burn_asked: object = None

    def play_randomly(self, rng: random.Random, record: bool = True, max_moves: int = 100000) -> None:
        """Play random legal actions until the game is over (no undo information is kept)."""
        moves = self._moves
        mk = Action._make
        n = 0
        while not self._over:
            seat, mode, pl = self._random_choice(rng)
            self._apply(seat, mode, pl)
            if record:
                moves.append(mk(seat, "play" if pl is not None else mode, pl))
            n += 1
            if n > max_moves:  # pragma: no cover - defensive
                raise RuntimeError("random play did not end")
        self._undo = []

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        return (
            f"<Game {self.preset.name} moves={len(self._moves)} pending={self.pending_seat} "
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


class LegalPlays:
    """Lazy view of a game's legal actions: ``in`` checks one action, iteration enumerates."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        return self._game._classify(action.seat, action.kind, action.cards)[0] is not None

    def __iter__(self) -> Iterator[Action]:
        g = self._game
        if g._over:
            return
        pending = g.pending_seat
        if pending is not None:
            yield from g._seat_actions(pending)
        for s in SEATS:
            if s != pending:
                yield from g._seat_actions(s)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalPlays {', '.join(map(str, self))}>"


def _not_a_play(action: Action, move: int) -> IllegalAction:
    if isinstance(action, NotAPlay):
        e = action.illegal()
    else:  # pragma: no cover - Action's constructor refuses a play without cards
        e = IllegalAction("G3.2", "所出的牌不成一手牌", "the cards do not form a play", action=action)
    e.move = move
    return e


def play_of(cards: str | Iterable[int]) -> Play:
    """Parse cards into a play; raises CardError or PlayError."""
    if isinstance(cards, str):
        return Play.parse(cards)
    return play_from_counts(cards_to_counts(cards))


__all__ = ["Action", "Game", "GameResult", "LegalPlays", "NotAPlay", "PlayError", "team_of", "TITLES"]
