"""Every legal action of a position (the console's completion list, the referee's ``check --partial``,
the brute-force tests): the plays a hand may lead (G3) or beat a play with (G4), and each seat's
actions, the pending seat's first. :class:`LegalPlays` is the lazy view ``Game.legal_plays()`` gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import PASS as K_PASS
from .actions import PLAY as K_PLAY
from .actions import REVOLT as K_REVOLT
from .actions import YIELD as K_YIELD
from .actions import Action, make, move_code
from .cards import BIG, NRANKS, SMALL, TWO, Play
from .rules import classify, window, yield_error
from .seats import BIT, IN_PLAY, OPP, SEATS
from .state import ILLEGAL, State

_WILDS: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}


def _wild_combos(t: int, b: int, r: int) -> list[tuple[int, int, int]]:
    key = (t, b, r)
    w = _WILDS.get(key)
    if w is None:
        w = [(x, y, z) for x in range(t + 1) for y in range(b + 1) for z in range(r + 1)]
        _WILDS[key] = w
    return w


def enumerate_leads(counts: Sequence[int], bie_san: bool = False, cap: int = 999) -> list[Play]:
    """Every play a hand of counts ``h`` may lead (G3), at most ``cap`` cards each."""
    h = counts if isinstance(counts, list) else list(counts)
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


def enumerate_beats(counts: Sequence[int], top: Play) -> list[Play]:
    """Every play from counts ``h`` that beats ``top`` (G4)."""
    h = counts if isinstance(counts, list) else list(counts)
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


def _avail(g: State, seat: int) -> tuple[list[int], int]:
    h = g._hands[seat]
    if h is not None:
        return h, 999
    return g._supply, g._count[seat]


def seat_actions(g: State, seat: int) -> Iterator[Action]:
    """Every legal action of ``seat``: 革命, then pass and yield, then plays (leads, beats or burns)."""
    for kind, pl in _seat_moves(g, seat):
        yield make(seat, kind, pl)


def legal_codes(g: State) -> list[int]:
    """Every legal action as a move code (``engine.actions``): the pending seat's, then each other
    seat's burns — the actions :class:`LegalPlays` lists, in the same order."""
    if g._over:
        return []
    pending = g._queue[0] if g._queue else 0
    out = [move_code(pending, kind, pl) for kind, pl in _seat_moves(g, pending)] if pending else []
    for s in SEATS:
        if s != pending:
            out += [move_code(s, kind, pl) for kind, pl in _seat_moves(g, s)]
    return out


def _seat_moves(g: State, seat: int) -> Iterator[tuple[int, Play | None]]:
    """:func:`seat_actions` as (kind code, play or None)."""
    if g._over or g._status[seat] != IN_PLAY:
        return
    if g.preset.revolution and not g._started and classify(g, seat, K_REVOLT, None)[0] != ILLEGAL:
        yield K_REVOLT, None
    pending = g._queue[0] if g._queue else 0
    h, cap = _avail(g, seat)
    top = g._top
    if seat == pending:
        if top is None:
            leads = enumerate_leads(h, g._bie, min(cap, g._count[seat]))
            known = g._hands[seat] is not None  # from the hand itself: every one is legal
            for pl in leads:
                if known or classify(g, seat, K_PLAY, pl)[0] != ILLEGAL:
                    yield K_PLAY, pl
            return
        yield K_PASS, None
        if yield_error(g, seat, pending) is None:
            yield K_YIELD, None
    elif (
        top is None
        or not window(g)
        or seat in (g._top_seat, OPP[g._top_seat])
        or g._passed & BIT[seat]
        or g._luan
    ):
        return
    assert top is not None
    known = g._hands[seat] is not None
    for pl in enumerate_beats(h, top):
        if known:  # the seat may act and the beats come from its hand
            yield K_PLAY, pl
        elif (
            pl.n + pl.twos + pl.smalls + pl.bigs <= g._count[seat]
            and classify(g, seat, K_PLAY, pl)[0] != ILLEGAL
        ):
            yield K_PLAY, pl


class LegalPlays:
    """Lazy view of a game's legal actions: ``in`` checks one action, iteration enumerates. Over the
    game's :class:`~engine.state.State` (a :class:`~engine.game.Game` is one), so that this module, which
    ``engine.game`` imports, needs nothing from it."""

    _game: State

    def __init__(self, game: State) -> None:
        self._game = game

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        return classify(self._game, action._seat, action._kind, action._cards)[0] != ILLEGAL

    def __iter__(self) -> Iterator[Action]:
        g = self._game
        if g._over:
            return
        pending = g._queue[0] if g._queue else None
        if pending is not None:
            yield from seat_actions(g, pending)
        for s in SEATS:
            if s != pending:
                yield from seat_actions(g, s)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalPlays {', '.join(map(str, self))}>"
