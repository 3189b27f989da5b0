"""The state of a game of 够级, as the rules modules read and change it, and the named types they use.

:class:`State` holds every field of a game in progress; :class:`engine.game.Game` is a ``State`` with
the public API. The jobs are apart, each a module of functions over a ``State``:
:mod:`engine.rules` (is this action legal, and in which mode), :mod:`engine.messages` (why not, in
English and 中文), :mod:`engine.turns` (applying an action: turn order, rounds, titles as they fall),
:mod:`engine.results` (titles and points), :mod:`engine.listing` (every legal action) and
:mod:`engine.playout` (random play without enumerating).

Hands are lists of 15 rank counts; the turn structure is a queue of the seats still to act on the top
play (G5.2, G6.2, G8, G10.2, G4.3). Set-up (the hands, the pack, 买3) is done here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from .actions import play_code
from .cards import BIG, NRANKS, SMALL, TOTALS, TWO, CardError, Play, Rank, cards_to_counts, gouji_thresholds
from .gameresult import GameResult as GameResult
from .preset import Preset, load_preset
from .seats import BIT, FINISHED, IN_PLAY, NEXT, OPP, ORDER, PREV, SEATS

# how an action is applied (what rules.classify finds it to be)
ILLEGAL: Final = -1
LEAD: Final = 0
BEAT: Final = 1
BURN: Final = 2
PASS: Final = 3
YIELD: Final = 4
REVOLT: Final = 5


class PlayInfo:
    """What the rules need to know of a play, worked out once per play and preset (G4, G6).

    (A plain class with slots, not a NamedTuple: its fields are read at every play, and a slot is
    read faster than a tuple's named field, by the interpreter and by compiled code alike.)"""

    __slots__ = ("size", "bigs", "smalls", "gouji", "pure", "dead", "joker", "code")

    size: int  # G3.5: all cards, wild cards included
    bigs: int  # 大王 in it (as base or attached)
    smalls: int  # 小王 in it
    gouji: bool  # G6.1 够级牌
    pure: bool  # G6.5: a 够级牌 with no joker and no 2 (may open)
    dead: bool  # G4.3: holds a 大王
    joker: bool  # holds a joker (a burner's play must, G7.1)
    code: int  # the play's code (engine.actions.play_code), as a move code records it

    def __init__(
        self, size: int, bigs: int, smalls: int, gouji: bool, pure: bool, dead: bool, joker: bool, code: int
    ) -> None:
        self.size = size
        self.bigs = bigs
        self.smalls = smalls
        self.gouji = gouji
        self.pure = pure
        self.dead = dead
        self.joker = joker
        self.code = code

    def __repr__(self) -> str:
        return (
            f"PlayInfo(size={self.size}, bigs={self.bigs}, smalls={self.smalls}, gouji={self.gouji}, "
            f"pure={self.pure}, dead={self.dead}, joker={self.joker}, code={self.code})"
        )


def play_info(pl: Play, thr: tuple[int, ...]) -> PlayInfo:
    """The :class:`PlayInfo` of a play under the G6.1 thresholds ``thr``."""
    base, n, t, b, r = pl
    nr = n if base == BIG else r
    nb = n if base == SMALL else b
    joker = nr > 0 or nb > 0
    gouji = joker or n + t >= thr[base]
    pure = gouji and not joker and t == 0 and base < TWO
    return PlayInfo(n + t + b + r, nr, nb, gouji, pure, nr > 0, joker, play_code(pl))


NO_INFO: Final = PlayInfo(0, 0, 0, False, False, False, False, 0)

#: PlayInfo by play, one table per G6.1 threshold set (the presets differ in gouji_min_twos)
_INFO: dict[tuple[int, ...], dict[Play, PlayInfo]] = {}
#: the thresholds and their PlayInfo table by the preset's gouji_min_twos (set-up reads them once)
_TABLES: dict[int, tuple[tuple[int, ...], dict[Play, PlayInfo]]] = {}


class Refusal(NamedTuple):
    """Why an action is refused: the clause (``G5.2``) and the message in English and 中文."""

    rule: str
    en: str
    zh: str


class TopPlay(NamedTuple):
    """The top play of the round and the seat that made it (``Game.last_play``)."""

    seat: int
    play: Play


class Event(NamedTuple):
    """A rule event (``Game.events``): the move number it came with, its name and its seat.

    Names: burn, fan_shao, jie_shao, zha_shao, men, finish, open, revolt, four_way, quan_san, jie_feng.
    """

    move: int
    name: str
    seat: int


class Purchase(NamedTuple):
    """G9.3 买3: the buyer, the seller and the rank paid (2, 小王 or 大王)."""

    buyer: int
    seller: int
    paid: int


class Lived(NamedTuple):
    """A protected 够级牌 that has just lived (G6.4), until the next action: its seat, the play, its
    对头 and the seats that had passed on it (a bit set)."""

    seat: int
    play: Play
    duitou: int
    passed: int


class State:
    """Every field of a game in progress (see the module docstring). Built by :class:`Game`."""

    preset: Preset
    leader: int
    purchases: list[Purchase]
    _thr: tuple[int, ...]
    _info: dict[Play, PlayInfo]
    _bie: bool
    _hands: list[list[int] | None]
    _supply: list[int]
    _count: list[int]
    _dealt_hands: list[list[int] | None]
    _dealt_counts: list[int]
    _dealt_wild: list[bool]
    _status: list[int]
    _finished: list[int]
    _zha: list[int]
    _men: list[int]
    _revolt: list[int]
    _top: Play | None
    _top_seat: int
    _tinfo: PlayInfo
    _queue: tuple[int, ...]
    _inplay: int  # the seats still in play, as bits (seats.BIT)
    _passed: int
    _burner: int
    _yielder: int
    _gprot: bool
    _yprot: bool
    _started: bool
    _opened: list[int]
    _played: list[int]
    _over: bool
    _void: bool
    _quan_san: bool
    _quan_winners: list[int]
    _luan: bool
    _lived: Lived | None
    _codes: list[int]
    _undo: list[tuple[Any, ...]]
    _events: list[Event]
    _revolt_asked: bool
    _burn_asked: object

    def _set_up(
        self,
        preset: Preset | str,
        hands: Sequence[Any] | Mapping[int, Any] | None,
        leader: int,
        counts: Mapping[int, int] | None,
        buy_threes: bool | None,
    ) -> None:
        if isinstance(preset, str):
            preset = load_preset(preset)
        if leader not in SEATS:
            raise ValueError(f"leader must be a seat 1..6, got {leader!r}")
        hs = _hands_of(hands)
        self._start(preset, hs, supply_of(hs), leader, counts, buy_threes)

    def _start(
        self,
        preset: Preset,
        hs: list[list[int] | None],
        supply: list[int],
        leader: int,
        counts: Mapping[int, int] | None,
        buy_threes: bool | None,
    ) -> None:
        """Set up from checked hands (rank counts by seat, None unknown) and the pack they leave."""
        self.preset = preset
        self.leader = leader
        tables = _TABLES.get(preset.gouji_min_twos)
        if tables is None:
            thr = gouji_thresholds(preset.gouji_min_twos)
            tables = _TABLES[preset.gouji_min_twos] = (thr, _INFO.setdefault(thr, {}))
        self._thr, self._info = tables
        self._bie = preset.bie_san
        self._supply = supply
        self._hands = hs
        count = [0] * 7
        dealt_wild = [True] * 7
        for s in SEATS:
            h = hs[s]
            if h is not None:
                count[s] = sum(h)
                dealt_wild[s] = bool(h[TWO] or h[SMALL] or h[BIG])
            else:
                count[s] = counts.get(s, 36) if counts is not None else 36
        self._count = count
        self._dealt_hands = [None if h is None else h[:] for h in hs]
        self._dealt_counts = count[:]
        self._dealt_wild = dealt_wild
        self.purchases = []
        if buy_threes is None:
            buy_threes = self._bie and all(hs[s] is not None and count[s] == 36 for s in SEATS)
        if buy_threes and self._bie:
            self.purchases = buy_threes_of(hs)
        status = [IN_PLAY] * 7
        status[0] = FINISHED
        finished: list[int] = []
        inplay = 0
        for s in SEATS:
            if count[s] == 0:
                status[s] = FINISHED
                finished.append(s)
            else:
                inplay |= BIT[s]
        self._status = status
        self._finished = finished
        self._zha = []
        self._men = []
        self._revolt = []
        self._top = None
        self._top_seat = 0
        self._tinfo = NO_INFO
        self._inplay = inplay
        self._queue = (leader,) if self._status[leader] == IN_PLAY else (self._next_in_play(leader),)
        self._passed = 0
        self._burner = 0
        self._yielder = 0
        self._gprot = False
        self._yprot = False
        self._started = False
        self._opened = []
        self._played = [0] * NRANKS
        self._over = False
        self._void = False
        self._quan_san = False
        self._quan_winners = []
        self._luan = False
        self._lived = None
        self._codes = []
        self._undo = []
        self._events = []
        self._revolt_asked = False
        self._burn_asked = None

    def _next_in_play(self, s: int) -> int:
        """The next seat after ``s`` still holding cards (``s`` itself if none)."""
        st = self._status
        for x in ORDER[s]:
            if st[x] == IN_PLAY:
                return x
        return s

    def _info_of(self, pl: Play) -> PlayInfo:
        i = self._info.get(pl)
        if i is None:
            i = self._info[pl] = play_info(pl, self._thr)
        return i

    def _copy_state(self, g: State) -> None:
        """Make ``g`` (a new, empty object) an independent copy of this state."""
        g.preset = self.preset
        g.leader = self.leader
        g.purchases = list(self.purchases)
        g._thr = self._thr
        g._info = self._info
        g._bie = self._bie
        g._hands = [None if h is None else list(h) for h in self._hands]
        g._supply = list(self._supply)
        g._count = list(self._count)
        g._dealt_hands = self._dealt_hands  # never changed after set-up
        g._dealt_counts = self._dealt_counts
        g._dealt_wild = list(self._dealt_wild)
        g._status = list(self._status)
        g._finished = list(self._finished)
        g._zha = list(self._zha)
        g._men = list(self._men)
        g._revolt = list(self._revolt)
        g._top = self._top
        g._top_seat = self._top_seat
        g._tinfo = self._tinfo
        g._queue = self._queue
        g._inplay = self._inplay
        g._passed = self._passed
        g._burner = self._burner
        g._yielder = self._yielder
        g._gprot = self._gprot
        g._yprot = self._yprot
        g._started = self._started
        g._opened = list(self._opened)
        g._played = list(self._played)
        g._over = self._over
        g._void = self._void
        g._quan_san = self._quan_san
        g._quan_winners = list(self._quan_winners)
        g._luan = self._luan
        g._lived = self._lived
        g._codes = list(self._codes)
        g._undo = list(self._undo)
        g._events = list(self._events)
        g._revolt_asked = self._revolt_asked
        g._burn_asked = self._burn_asked

    def _snapshot(self) -> tuple[Any, ...]:
        """What :meth:`_restore` needs to undo the next action (push keeps one per move)."""
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
            self._queue,
            self._inplay,
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
            self._inplay,
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


def _hands_of(hands: Sequence[Any] | Mapping[int, Any] | None) -> list[list[int] | None]:
    """The six hands as rank counts (index = seat; None = unknown), checked against the pack (G2.1)."""
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
    return hs


def supply_of(hs: list[list[int] | None]) -> list[int]:
    """The cards of each rank the known hands leave in the pack (what unknown hands may hold, G2.1)."""
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
    return [TOTALS[r] - total[r] for r in range(NRANKS)]


def buy_threes_of(hs: list[list[int] | None]) -> list[Purchase]:
    """G9.3 买3, done on the hands in place: a player dealt no 3 buys one from the 对头 (else the 对头's
    team) with a 2 (else a 小王, else a 大王). The purchases made."""
    out: list[Purchase] = []
    for s in SEATS:
        h = hs[s]
        assert h is not None
        if h[0]:
            continue
        pay = TWO if h[TWO] else SMALL if h[SMALL] else BIG if h[BIG] else -1
        if pay < 0:
            continue  # may declare 革命 (G10.5)
        o = OPP[s]
        seller = 0
        for x in (o, NEXT[NEXT[o]], PREV[PREV[o]]):
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
        out.append(Purchase(s, seller, pay))
    return out
