"""A heuristic 够级 player, better than random (the play-outs of :mod:`engine.winprob`).

Every choice is one of the seat's legal actions by construction: plays are built from the seat's own
rank counts by the G3/G4 construction the random player uses (:mod:`engine.playout`: a base above the
top play's, the same size, at least as many 大王 as it holds 小王), out-of-turn plays only while the
burn window is open (G7.1) and only by a seat that may burn, yields only where
:func:`engine.rules.yield_error` allows them; ``tests/engine/test_policy.py`` checks every choice of
thousands of seeded games against :func:`engine.rules.classify`.

The player is honest: it looks at its own hand and what every player sees (the top play, cards left,
报牌, who passed, the cards played), never at another hand. What it does (version 2):

* **beats with the lowest play that beats** (fewest wild cards; a card's worth is its rank, a 2, a
  小王 and a 大王 worth more), and passes when the only beats cost it jokers it keeps;
* **passes on a teammate's play** (unless the beat empties its hand);
* **keeps its 够级牌 for its 对头**: a 小王 or 大王 is spent on a play of its 对头, to finish, or on a
  player about to finish (报牌 at five cards or fewer), never on the other two opponents' plain plays;
* **burns when the burn can finish** (G7): after the beat, every play but the last can carry a joker;
* **plays its 3s last in dagang** (G9): the last play before the 3s carries its jokers (a 大王 makes
  it dead, G4.3), so it is not beaten and the seat is not 闷; it keeps a joker for that play;
* **yields where it pays** (G5.5): on its 对头's play when its own beat would not be a 够级牌 (the
  teammate two seats on acts first, and a beat after the yield is answered by the 对头 only);
* a lead that keeps the lead: the lowest group with a 大王 (dead, G4.3) while the 大王s suffice to
  carry all but the last group;
* **革命** (dagang) with a hand dealt no 2 and no joker, when no one has declared yet.

A little chance (``Policy.vary``) varies the lead and holds back a beat now and then, so play-outs
from one position do not all run the same way. ``Policy(1)`` is the first version (lowest beat,
pass on a teammate, lowest lead; no burns, yields or plans), kept to measure against.
"""

from __future__ import annotations

import random
from typing import Final

from .actions import move_code
from .cards import BIG, SMALL, TWO, Play
from .playout import MODE_KIND, random_beat, random_choice
from .rules import window, yield_error
from .seats import BIT, IN_PLAY, OPP, ORDER, SEATS
from .state import BEAT, BURN, LEAD, PASS, REVOLT, YIELD, State
from .turns import apply

#: a card's worth when spending it (ranks 3 … A by rank; a 2, 小王 and 大王 weigh more)
WORTH: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 20, 26)
#: a player at this many cards or fewer is about to finish: spend what it takes to stop it
PRESS: Final = 5
VERSION: Final = 2


class Policy:
    """The heuristic player's switches; ``Policy()`` is the current version, ``Policy(1)`` the first."""

    version: int
    keep_jokers: bool  # jokers only on the 对头, to finish, or on a player about to finish
    burns: bool  # burn when the burn can finish
    yields: bool  # 让牌 where it pays
    bie_plan: bool  # dagang: the play before the 3s carries the jokers; keep one for it
    dead_lead: bool  # lead with a 大王 while they carry all but the last group
    revolts: bool  # 革命 with a hand dealt no 2 and no joker
    vary: float  # chance of a second-best lead or of holding back a beat
    thrift: int  # dagang: a beat of a rank this high or higher, on a play 4 ranks or more below, only
    # on the 对头 or to stop a player about to finish (0: never held back)
    press: int  # a player with this many cards or fewer is about to finish

    def __init__(self, version: int = VERSION, vary: float = 0.08) -> None:
        if version not in (1, 2):
            raise ValueError(f"policy version must be 1 or 2, got {version!r}")
        self.version = version
        full = version >= 2
        self.keep_jokers = full
        self.burns = full
        self.yields = full
        self.bie_plan = full
        self.dead_lead = full
        self.revolts = full
        self.vary = vary
        self.thrift = 8 if full else 0
        self.press = PRESS

    def __repr__(self) -> str:
        return f"Policy({self.version}, vary={self.vary})"


def groups(h: list[int], bie: bool) -> int:
    """How many plays the hand's ordinary ranks need (one per rank; 3s under 憋3 included)."""
    n = 0
    for r in range(TWO):
        if h[r]:
            n += 1
    return n


def whole_hand(h: list[int], bie: bool) -> Play | None:
    """The whole hand as one play, when it is one (G3.2: one ordinary rank plus wild cards; under 憋3
    the 3s alone, G9.1)."""
    t, b, r = h[TWO], h[SMALL], h[BIG]
    base = -1
    for x in range(TWO):
        if h[x]:
            if base >= 0:
                return None
            base = x
    if base == 0 and bie:
        if t or b or r:
            return None
        return Play(0, h[0], 0, 0, 0)
    if base >= 0:
        return Play(base, h[base], t, b, r)
    if t:
        return Play(TWO, t, 0, b, r)
    if b:
        return Play(SMALL, b, 0, 0, r)
    if r:
        return Play(BIG, r, 0, 0, 0)
    return None


def worth(pl: Play) -> int:
    """What a play spends: the worth of its cards."""
    return WORTH[pl[0]] * pl[1] + WORTH[TWO] * pl[2] + WORTH[SMALL] * pl[3] + WORTH[BIG] * pl[4]


def cheapest_beat(h: list[int], top: Play, jokers: bool, bie: bool) -> Play | None:
    """The lowest play from counts ``h`` that beats ``top`` (G4): for each base above the top's, the
    form with fewest wild cards (2s first, then 小王, then 大王); the one that spends least. Without
    ``jokers``, only beats that need no 小王 or 大王."""
    tb, tn, tt, ts, tr = top
    if tr or tb == BIG:
        return None  # G4.3: dead
    size = tn + tt + ts + tr
    need = tn if tb == SMALL else ts  # G4.4: as many 大王 as the top holds 小王
    t, b, r = h[TWO], h[SMALL], h[BIG]
    if r < need or (need and not jokers):
        return None
    if not jokers:
        b = 0
        r = 0
    rest = size - need
    best: Play | None = None
    best_cost = 1 << 30
    if rest >= 1:
        for base in range(tb + 1, TWO):
            c = h[base]
            if not c or (bie and base == 0):
                continue
            k = c if c < rest else rest
            rem = rest - k
            x = t if t < rem else rem
            rem -= x
            y = b if b < rem else rem
            rem -= y
            z = r - need if r - need < rem else rem
            rem -= z
            if rem:
                continue
            cost = WORTH[base] * k + WORTH[TWO] * x + WORTH[SMALL] * y + WORTH[BIG] * z
            if k < c:
                cost += 2  # a group broken
            if cost < best_cost:
                best_cost = cost
                best = Play(base, k, x, y, need + z)
            if x == 0 and y == 0 and z == 0:
                break  # higher bases spend more
        if tb < TWO and t:
            k = t if t < rest else rest
            rem = rest - k
            y = b if b < rem else rem
            rem -= y
            z = r - need if r - need < rem else rem
            rem -= z
            if not rem:
                cost = WORTH[TWO] * k + WORTH[SMALL] * y + WORTH[BIG] * z
                if cost < best_cost:
                    best_cost = cost
                    best = Play(TWO, k, 0, y, need + z)
        if tb < SMALL and b:
            k = b if b < rest else rest
            rem = rest - k
            z = r - need if r - need < rem else rem
            rem -= z
            if not rem:
                cost = WORTH[SMALL] * k + WORTH[BIG] * z
                if cost < best_cost:
                    best_cost = cost
                    best = Play(SMALL, k, 0, 0, need + z)
    if best is None and r >= size:
        best = Play(BIG, size, 0, 0, 0)
    return best


def is_gouji(g: State, pl: Play) -> bool:
    """G6.1, by the game's thresholds."""
    return g._info_of(pl).gouji


def _jokers(pl: Play) -> int:
    base = pl[0]
    return pl[3] + pl[4] + (pl[1] if base >= SMALL else 0)


def _after(h: list[int], pl: Play) -> list[int]:
    """The counts ``h`` without the cards of ``pl``."""
    a = list(h)
    a[pl[0]] -= pl[1]
    a[TWO] -= pl[2]
    a[SMALL] -= pl[3]
    a[BIG] -= pl[4]
    return a


def can_finish_burning(h: list[int], bie: bool) -> bool:
    """After a burn: can every play but the last carry a joker (G7.1)? Under 憋3 the 3s are the last
    play and every other group needs a joker."""
    n = groups(h, bie)
    if n == 0:
        return True  # wild cards only: one play
    jokers = h[SMALL] + h[BIG]
    if bie and h[0]:
        return n - 1 <= jokers
    return n - 1 <= jokers


def choose(g: State, rng: random.Random, pol: Policy, ask_burns: bool = True) -> tuple[int, int, Play | None]:
    """The policy's action: (seat, mode, play or None), a legal action of ``g``. ``ask_burns``: offer
    the seats that may burn the top play their chance first (once per top play). Needs the hands of
    the seats that act known."""
    if not g._started and g.preset.revolution and not g._revolt:
        r = revolter(g, pol)
        if r:
            return r, REVOLT, None
    s = g._queue[0]
    top = g._top
    if top is not None and ask_burns and window(g):
        for b in may_burn(g):
            q = burn_of(g, b, top, pol)
            if q is not None:
                return b, BURN, q
    return decide(g, s, rng, pol)


def decide(g: State, s: int, rng: random.Random, pol: Policy) -> tuple[int, int, Play | None]:
    """The pending seat ``s``'s action: a lead, or on a top play a beat, a yield or a pass."""
    h = g._hands[s]
    if h is None:
        raise ValueError(f"the policy needs seat {s}'s hand")
    top = g._top
    if top is None:
        return s, LEAD, lead(g, s, h, rng, pol)
    return _respond(g, s, h, top, rng, pol)


def revolter(g: State, pol: Policy) -> int:
    """The first seat (in seat order) dealt no 2 and no joker that declares 革命 (G10.5), or 0."""
    if not pol.revolts:
        return 0
    for s in SEATS:
        if not g._dealt_wild[s] and g._status[s] == IN_PLAY and g._hands[s] is not None:
            return s
    return 0


def may_burn(g: State) -> list[int]:
    """The seats that may burn the top play now (G7.1: not its player, not its 对头, not a seat that
    passed, not the seat whose turn it is), in G7.2 order: the player's team first, then playing order.
    Call it while the burn window is open (:func:`engine.rules.window`)."""
    p = g._top_seat
    o = OPP[p]
    s = g._queue[0]
    pa = g._passed
    st = g._status
    first: list[int] = []
    then: list[int] = []
    for b in ORDER[p]:
        if b == o or b == s or st[b] != IN_PLAY or pa & BIT[b]:
            continue
        if (b % 2) == (p % 2):
            first.append(b)
        else:
            then.append(b)
    return first + then


def burn_of(g: State, b: int, top: Play, pol: Policy) -> Play | None:
    """Seat ``b``'s burn of the top play, when it pays: the top is an opponent's (it never burns a
    teammate), and after the beat it can finish with a joker in every play but the last (G7.1)."""
    if not pol.burns or (b % 2) == (g._top_seat % 2):
        return None
    hb = g._hands[b]
    if hb is None:
        return None
    bie = g._bie
    q = cheapest_beat(hb, top, True, bie)
    if q is None:
        return None
    size = q[1] + q[2] + q[3] + q[4]
    if bie and size == g._count[b] and hb[0]:
        return None  # G9.1: a play that empties the hand must be the 3s
    if can_finish_burning(_after(hb, q), bie):
        return q
    return None


def _respond(
    g: State, s: int, h: list[int], top: Play, rng: random.Random, pol: Policy
) -> tuple[int, int, Play | None]:
    """The pending seat on a top play: beat, yield or pass."""
    if g._tinfo.dead:
        return s, PASS, None  # G4.3: 扣牌
    p = g._top_seat
    bie = g._bie
    left = g._count[s]
    mate = (p % 2) == (s % 2)
    burner = g._burner == s
    whole = whole_hand(h, bie)
    if whole is not None and _beats_exactly(whole, top):
        return s, BEAT, whole  # the beat empties the hand
    if mate:
        return s, PASS, None
    opp = OPP[s] == p
    press = g._count[p] <= pol.press
    jokers = not pol.keep_jokers or opp or press
    q = cheapest_beat(h, top, jokers, bie)
    if pol.yields and opp and not g._luan and (q is None or not is_gouji(g, q)):
        if yield_error(g, s, s) is None:
            return s, YIELD, None
    if q is None:
        return s, PASS, None
    size = q[1] + q[2] + q[3] + q[4]
    if bie and size == left and h[0]:
        return s, PASS, None  # G9.1
    if burner and not _jokers(q) and size < left:
        return s, PASS, None  # a burner's beat without a joker would be 诈烧 (G7.4)
    if pol.bie_plan and bie and h[0]:
        rest = _after(h, q)
        if groups(rest, bie) == 1 and rest[SMALL] + rest[BIG] == 0 and not press:
            # only the 3s and no joker would be left for the play before them: keep the joker
            if _jokers(q):
                return s, PASS, None
    if pol.thrift and bie and not press and not opp and q[0] >= pol.thrift and top[0] + 3 < q[0]:
        return s, PASS, None
    if not press and not opp and pol.vary > 0.0 and rng.random() < pol.vary:
        return s, PASS, None  # held back
    if pol.keep_jokers and not press and not opp and q[2] and q[0] < TWO and g._count[s] > 8:
        if rng.random() < 0.5:
            return s, PASS, None  # a 2 spent on the other opponents only now and then
    return s, BEAT, q


def _beats_exactly(q: Play, top: Play) -> bool:
    """Does ``q`` beat ``top`` (G4.1-G4.4)?"""
    tb, tn, tt, ts, tr = top
    if tr or tb == BIG:
        return False
    if q[1] + q[2] + q[3] + q[4] != tn + tt + ts + tr or q[0] <= tb:
        return False
    need = tn if tb == SMALL else ts
    have = q[1] if q[0] == BIG else q[4]
    return have >= need


def lead(g: State, s: int, h: list[int], rng: random.Random, pol: Policy) -> Play:
    """The policy's lead from hand ``h`` (a legal lead of seat ``s``)."""
    bie = g._bie
    whole = whole_hand(h, bie)
    if whole is not None:
        return whole  # finish
    b, r = h[SMALL], h[BIG]
    lo = -1
    second = -1
    start = 1 if bie else 0
    for x in range(start, TWO):
        if h[x]:
            if lo < 0:
                lo = x
            elif second < 0:
                second = x
                break
    if lo < 0:
        # no ordinary rank but the 3s under 憋3 (and wild cards): lead the wild cards together
        if h[TWO]:
            return Play(TWO, h[TWO], 0, b, r)
        if b:
            return Play(SMALL, b, 0, 0, r)
        return Play(BIG, r, 0, 0, 0)
    n = groups(h, bie)
    if bie and h[0] and pol.bie_plan and n == 2:
        # one group before the 3s: with every wild card, so it is not beaten (闷, G9.2)
        return Play(lo, h[lo], h[TWO], b, r)
    if g._burner == s:
        # a burner leads with a joker (G7.1); a 大王 keeps the lead (dead, G4.3)
        if r and (r >= n - 1 or not b):
            return Play(lo, h[lo], 0, 0, 1)
        if b:
            return Play(lo, h[lo], 0, 1, 0)
        return Play(lo, h[lo], 0, 0, 0)  # nothing to burn with: 诈烧 whatever it plays
    if pol.dead_lead and r and n - 1 <= r and not (bie and h[0] and r <= 1):
        return Play(lo, h[lo], 0, 0, 1)  # dead: its 对头 passes and it leads again
    base = lo
    if second >= 0 and pol.vary > 0.0 and rng.random() < pol.vary:
        base = second
    return Play(base, h[base], 0, 0, 0)


def play_out(g: State, rng: random.Random, pol: Policy, record: bool = False, max_moves: int = 5000) -> None:
    """Play the game out with the policy (no undo information; the moves recorded as move codes when
    ``record``). Needs known hands."""
    asked: object = None
    n = 0
    while not g._over:
        top = g._top
        ask = top is not None and top is not asked
        if ask:
            asked = top
        seat, mode, pl = choose(g, rng, pol, ask)
        apply(g, seat, mode, pl)
        if record:
            g._codes.append(move_code(seat, MODE_KIND[mode], pl))
        n += 1
        if n > max_moves:  # pragma: no cover - defensive
            raise RuntimeError("the policy's play-out did not end")


def _random_burn_of(g: State, b: int, top: Play, rng: random.Random) -> Play | None:
    """The random player's burn (as :mod:`engine.playout`'s: now and then, 8 % a seat)."""
    if rng.random() >= 0.08:
        return None
    hb = g._hands[b]
    if hb is None:
        return None
    q = random_beat(hb, top, rng)
    if q is None:
        return None
    if g._bie and q[1] + q[2] + q[3] + q[4] == g._count[b] and hb[0]:
        return None
    return q


def play_table(
    g: State, rng: random.Random, players: list[Policy | None], record: bool = False, max_moves: int = 5000
) -> None:
    """Play the game out with a player per seat (``players[seat]``; None = the random player of
    :mod:`engine.playout`): a table of different players (the strength benchmark, the tests). The
    moves are recorded as move codes when ``record``."""
    if not g._started and g.preset.revolution and not g._revolt_asked:
        g._revolt_asked = True
        for s in SEATS:
            pol = players[s]
            if g._dealt_wild[s] or g._status[s] != IN_PLAY or g._hands[s] is None:
                continue
            if (pol is None and rng.random() < 0.5) or (pol is not None and pol.revolts and not g._revolt):
                apply(g, s, REVOLT, None)
                if record:
                    g._codes.append(move_code(s, MODE_KIND[REVOLT], None))
                if g._over:
                    return
    asked: object = None
    n = 0
    while not g._over:
        top = g._top
        seat = 0
        mode = PASS
        pl: Play | None = None
        if top is not None and top is not asked:
            asked = top
            if window(g):
                for b in may_burn(g):
                    pb = players[b]
                    q = _random_burn_of(g, b, top, rng) if pb is None else burn_of(g, b, top, pb)
                    if q is not None:
                        seat, mode, pl = b, BURN, q
                        break
        if not seat:
            s = g._queue[0]
            ps = players[s]
            if ps is None:
                g._burn_asked = top
                seat, mode, pl = random_choice(g, rng)
            else:
                seat, mode, pl = decide(g, s, rng, ps)
        apply(g, seat, mode, pl)
        if record:
            g._codes.append(move_code(seat, MODE_KIND[mode], pl))
        n += 1
        if n > max_moves:  # pragma: no cover - defensive
            raise RuntimeError("the play-out did not end")
