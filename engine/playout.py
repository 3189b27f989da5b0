"""Random play (self-play, the demo season, play-outs): a random legal action found without
enumerating the legal ones — a random base among the feasible ones, fewest wild cards — and whole
games played out that way, recorded as move codes (:mod:`engine.actions`), never as objects.

The policy is part of what a seed means (the demo season and every seeded self-played record depend
on it): the draws from ``rng`` must stay in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .actions import PASS as K_PASS
from .actions import PLAY as K_PLAY
from .actions import REVOLT as K_REVOLT
from .actions import YIELD as K_YIELD
from .actions import move_code
from .cards import BIG, NRANKS, SMALL, TWO, Play
from .rules import window, yield_error
from .seats import BIT, IN_PLAY, OPP, ORDER, SEATS
from .state import BEAT, BURN, LEAD, PASS, REVOLT, YIELD, State
from .turns import apply, last_pass, play_cards


#: the seats that may burn seat p's 够级牌, in the order they are asked (G7.2: p's team first)
def _burn_order(p: int) -> tuple[int, ...]:
    """Seat p's team first, then the others, each in seat order from p (G7.2)."""
    return tuple([x for x in ORDER[p] if x % 2 == p % 2] + [x for x in ORDER[p] if x % 2 != p % 2])


_BURN_ORDER: Final[tuple[tuple[int, ...], ...]] = ((),) + tuple(_burn_order(p) for p in SEATS)
#: the action kind code of each mode (LEAD, BEAT, BURN, PASS, YIELD, REVOLT)
MODE_KIND: Final[tuple[int, ...]] = (K_PLAY, K_PLAY, K_PLAY, K_PASS, K_YIELD, K_REVOLT)
#: the ranks above a base that a beat may take as its base without wild cards as the base (below 2)
_ABOVE: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(range(tb + 1, TWO)) for tb in range(NRANKS))


def random_beat(h: list[int], top: Play, rng: random.Random) -> Play | None:
    """A random beat of ``top`` from counts ``h`` (fewest wild cards for the chosen base), or None."""
    return _beat(h, top, rng.random)


def _beat(h: list[int], top: Play, rnd: Callable[[], float]) -> Play | None:
    """A random beat of ``top`` from counts ``h`` (fewest wild cards for the chosen base), or None."""
    tb, n, tt, ts, tr = top
    if tr or tb == BIG:
        return None
    size = n + tt + ts + tr
    need = n if tb == SMALL else ts
    t, b, r = h[TWO], h[SMALL], h[BIG]
    if r < need:
        return None
    rest = size - need  # cards besides the 大王 the beat needs (G4.4)
    cands: list[int] = []
    if rest >= 1:
        # a base below 2 takes 2s and jokers as wild cards; a base of 2 jokers; a 小王 base 大王s
        wild = t + b + r - need
        low = rest - wild
        # (plain loops: a comprehension costs a function call in pure Python)
        if low <= 1:
            for x in _ABOVE[tb]:
                if h[x]:
                    cands.append(x)
        else:
            for x in _ABOVE[tb]:
                if h[x] >= low:
                    cands.append(x)
        if tb < TWO and t and wild >= rest:
            cands.append(TWO)
        if tb < SMALL and b and b + r - need >= rest:
            cands.append(SMALL)
    if r >= size:
        cands.append(BIG)
    if not cands:
        return None
    base = cands[int(rnd() * len(cands))]
    if base == BIG:
        return tuple.__new__(Play, (BIG, size, 0, 0, 0))
    k = h[base]
    if k > rest:
        k = rest
    rest -= k
    x = y = 0
    if base < TWO:
        x = t if t < rest else rest
        rest -= x
    if base < SMALL:
        y = b if b < rest else rest
        rest -= y
    return tuple.__new__(Play, (base, k, x, y, need + rest))


def random_choice(g: State, rng: random.Random) -> tuple[int, int, Play | None]:
    """A random legal action: (seat, mode, play or None). Needs the acting seats' hands known."""
    return _choose(g, rng.random)


def _choose(g: State, rnd: Callable[[], float]) -> tuple[int, int, Play | None]:
    if not g._started and g.preset.revolution and not g._revolt_asked:
        g._revolt_asked = True
        for s in SEATS:
            if not g._dealt_wild[s] and g._status[s] == IN_PLAY and rnd() < 0.5:
                return s, REVOLT, None
    s = g._queue[0]
    top = g._top
    if top is not None and g._gprot and g._burn_asked is not top and window(g):
        g._burn_asked = top
        burn = _random_burn(g, s, top, rnd)
        if burn is not None:
            return burn
    h = g._hands[s]
    if h is None:
        raise ValueError("random play needs known hands")
    if top is None:
        return s, LEAD, _lead(g, s, h, rnd)
    if g._tinfo.dead:
        return s, PASS, None
    if (
        OPP[s] == g._top_seat
        and not g._gprot
        and not g._luan
        and rnd() < 0.15
        and yield_error(g, s, s) is None
    ):
        return s, YIELD, None
    if rnd() < 0.3:
        return s, PASS, None
    q = _beat(h, top, rnd)
    if q is None:
        return s, PASS, None
    if g._bie and q.n + q.twos + q.smalls + q.bigs == g._count[s] and h[0]:
        return s, PASS, None
    return s, BEAT, q


def _random_burn(
    g: State, s: int, top: Play, rnd: Callable[[], float]
) -> tuple[int, int, Play | None] | None:
    """Now and then (8 % a seat) a seat that may burn the top 够级牌 does (G7.2: its player's team
    first, then playing order); ``s`` is the seat to act in turn."""
    p = g._top_seat
    o = OPP[p]
    pa = g._passed
    st = g._status
    for b in _BURN_ORDER[p]:
        if b != o and st[b] == IN_PLAY and not pa & BIT[b] and b != s and rnd() < 0.08:
            hb = g._hands[b]
            if hb is None:
                continue
            q = _beat(hb, top, rnd)
            if q is not None and (not g._bie or q.n + q.twos + q.smalls + q.bigs < g._count[b] or not hb[0]):
                return b, BURN, q
    return None


def _lead(g: State, s: int, h: list[int], rnd: Callable[[], float]) -> Play:
    bie = g._bie
    cnt = g._count[s]
    # a random rank held (not 3s under 憋3 while others are held): the k-th held from ``base``
    if bie and h[0]:
        if h[0] == cnt:
            return tuple.__new__(Play, (0, cnt, 0, 0, 0))
        base = 1
        k = int(rnd() * (NRANKS - 1 - h.count(0)))
    else:
        base = 0
        k = int(rnd() * (NRANKS - h.count(0)))
    while True:
        if h[base]:
            if not k:
                break
            k -= 1
        base += 1
    c = h[base]
    k = c if rnd() < 0.7 else 1 + int(rnd() * c)
    x = y = z = 0
    if s == g._burner and base < SMALL:
        if h[SMALL]:
            y = 1
        elif h[BIG]:
            z = 1
    elif base < TWO and h[TWO] and rnd() < 0.1:
        x = 1
    if base == SMALL:
        return tuple.__new__(Play, (SMALL, k, 0, 0, z))
    if base == TWO:
        return tuple.__new__(Play, (TWO, k, 0, y, z))
    return tuple.__new__(Play, (base, k, x, y, z))


def play_randomly(g: State, rng: random.Random, record: bool = True, max_moves: int = 100000) -> None:
    """Play random legal actions until the game is over (no undo information is kept)."""
    codes = g._codes
    rnd = rng.random
    k_pass = K_PASS << 3
    for _n in range(max_moves + 1):
        if g._over:
            break
        seat, mode, pl = _choose(g, rnd)
        if mode == PASS:  # turns.pass_turn, inlined (about half the decisions are passes)
            g._passed |= BIT[seat]
            q = g._queue[1:]
            g._queue = q
            if not q:
                last_pass(g)
            if record:
                codes.append(seat | k_pass)
        elif pl is not None:
            c = play_cards(g, seat, mode, pl, len(codes) + 1)
            if record:
                codes.append(seat | c << 5)
        else:
            apply(g, seat, mode, None)
            if record:
                codes.append(move_code(seat, MODE_KIND[mode], None))
    else:  # pragma: no cover - defensive
        raise RuntimeError("random play did not end")
    g._undo = []
