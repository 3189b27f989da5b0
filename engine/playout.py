"""Random play (self-play, the demo season, play-outs): a random legal action found without
enumerating the legal ones — a random base among the feasible ones, fewest wild cards — and whole
games played out that way, recorded as move codes (:mod:`engine.actions`), never as objects.

The policy is part of what a seed means (the demo season and every seeded self-played record depend
on it): the draws from ``rng`` must stay in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
from .turns import apply

#: the action kind code of each mode (LEAD, BEAT, BURN, PASS, YIELD, REVOLT)
MODE_KIND: Final = (K_PLAY, K_PLAY, K_PLAY, K_PASS, K_YIELD, K_REVOLT)


def random_beat(h: Sequence[int], top: Play, rng: random.Random) -> Play | None:
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


def random_choice(g: State, rng: random.Random) -> tuple[int, int, Play | None]:
    """A random legal action: (seat, mode, play or None). Needs the acting seats' hands known."""
    rnd = rng.random
    if not g._started and g.preset.revolution and not g._revolt_asked:
        g._revolt_asked = True
        for s in SEATS:
            if not g._dealt_wild[s] and g._status[s] == IN_PLAY and rnd() < 0.5:
                return s, REVOLT, None
    s = g._queue[0]
    top = g._top
    if top is not None and window(g) and g._burn_asked is not top:
        g._burn_asked = top
        burn = _random_burn(g, s, top, rng)
        if burn is not None:
            return burn
    h = g._hands[s]
    if h is None:
        raise ValueError("random play needs known hands")
    if top is None:
        return s, LEAD, random_lead(g, s, h, rng)
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
    q = random_beat(h, top, rng)
    if q is None:
        return s, PASS, None
    if g._bie and q.n + q.twos + q.smalls + q.bigs == g._count[s] and h[0]:
        return s, PASS, None
    return s, BEAT, q


def _random_burn(g: State, s: int, top: Play, rng: random.Random) -> tuple[int, int, Play | None] | None:
    """Now and then (8 % a seat) a seat that may burn the top 够级牌 does (G7.2: its player's team
    first, then playing order); ``s`` is the seat to act in turn."""
    p = g._top_seat
    o = OPP[p]
    pa = g._passed
    st = g._status
    for b in sorted(ORDER[p], key=lambda x: (x % 2) != (p % 2)):
        if b != o and st[b] == IN_PLAY and not pa & BIT[b] and b != s and rng.random() < 0.08:
            hb = g._hands[b]
            if hb is None:
                continue
            q = random_beat(hb, top, rng)
            if q is not None and (not g._bie or q.n + q.twos + q.smalls + q.bigs < g._count[b] or not hb[0]):
                return b, BURN, q
    return None


def random_lead(g: State, s: int, h: list[int], rng: random.Random) -> Play:
    """A random lead from hand ``h``: a rank, most often all of it; a burner attaches a joker."""
    bie = g._bie
    cnt = g._count[s]
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
    if s == g._burner and base < SMALL:
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


def play_randomly(g: State, rng: random.Random, record: bool = True, max_moves: int = 100000) -> None:
    """Play random legal actions until the game is over (no undo information is kept)."""
    codes = g._codes
    n = 0
    while not g._over:
        seat, mode, pl = random_choice(g, rng)
        apply(g, seat, mode, pl)
        if record:
            codes.append(move_code(seat, MODE_KIND[mode], pl))
        n += 1
        if n > max_moves:  # pragma: no cover - defensive
            raise RuntimeError("random play did not end")
    g._undo = []
