"""The rules in motion (docs/rules.md G5-G10): applying a legal action to a :class:`~engine.state.State` —
cards leave the hand, the burn (G7) starts, passes or breaks, players play out, 闷 (G9.2), 诈烧
(G7.4), 四户乱缠 (G10.2), 圈三 (G10.3) — and who acts next: the queue of seats still to act on the
top play, built from the clause that governs it, and the end of the round.
"""

from __future__ import annotations

from .cards import BIG, SMALL, TWO, Play
from .seats import BIT, FINISHED, IN_PLAY, MEN, NEXT, OPP, QUEUES, QUEUES_OPP, REVOLT, SEATS, ZHA, opposites
from .state import BEAT, BURN, PASS, YIELD, Event, Lived, PlayInfo, State
from .state import REVOLT as M_REVOLT


def apply(g: State, seat: int, mode: int, pl: Play | None) -> None:
    """Apply an action :func:`engine.rules.classify` found legal (``mode``)."""
    mv = len(g._codes) + 1
    g._lived = None
    if mode == PASS:
        pass_turn(g, seat)
    elif mode == YIELD:
        g._yielder = seat
        st = g._status
        pa = g._passed
        g._queue = tuple(
            x for x in (NEXT[seat], NEXT[NEXT[seat]]) if st[x] == IN_PLAY and not pa & BIT[x]
        ) + (seat,)
    elif mode == M_REVOLT:
        _revolt(g, seat, mv)
    else:
        assert pl is not None
        play_cards(g, seat, mode, pl, mv)


def pass_turn(g: State, seat: int) -> None:
    """A pass (G5.2): the next seat acts, or the round ends (a 够级牌 lives, G6.4)."""
    g._passed |= BIT[seat]
    q = g._queue[1:]
    g._queue = q
    if not q:
        last_pass(g)


def last_pass(g: State) -> None:
    """The last seat to act on the top play passed (:func:`pass_turn`): the round ends, and a protected
    够级牌 lives (G6.4)."""
    t = g._top_seat
    if g._gprot and not g._yprot and not g._tinfo.dead and g._passed & BIT[OPP[t]]:
        # G6.4: the 对头 and every 无头 seat still holding cards passed: the 够级牌 lives
        assert g._top is not None
        g._lived = Lived(t, g._top, OPP[t], g._passed)
    end_round(g)


def _revolt(g: State, seat: int, mv: int) -> None:
    g._status[seat] = REVOLT
    g._inplay &= ~BIT[seat]
    g._revolt.append(seat)
    g._events.append(Event(mv, "revolt", seat))
    if len(g._revolt) >= 2:
        g._void = True
        g._over = True
        g._queue = ()
        return
    g._queue = tuple(x for x in g._queue if x != seat) or (g._next_in_play(seat),)
    check_over(g)


def play_cards(g: State, seat: int, mode: int, pl: Play, mv: int) -> int:
    """A lead, an in-turn beat or a burn (``mode``) of ``pl`` by ``seat``, as move ``mv``. Returns the
    play's code (:func:`engine.actions.play_code`: what a move code records)."""
    info = g._info.get(pl)
    if info is None:
        info = g._info_of(pl)
    burner = g._burner
    count = g._count
    size = info.size
    # G7.4 诈烧: a burner's play without a joker that does not empty the hand is void.
    if seat == burner and not info.joker and size < count[seat]:
        _zha_shao(g, seat, mv)
        return info.code
    prev = g._top_seat if g._top is not None else 0
    # the play's cards leave the hand (or, for an unknown hand, the pack), and count as played
    base, n, t, b, r = pl
    h = g._hands[seat]
    if h is None:
        h = g._supply
    played = g._played
    h[base] -= n
    played[base] += n
    if t:
        h[TWO] -= t
        played[TWO] += t
    if b:
        h[SMALL] -= b
        played[SMALL] += b
    if r:
        h[BIG] -= r
        played[BIG] += r
    left = count[seat] - size
    count[seat] = left
    g._started = True
    if mode == BURN:
        g._events.append(Event(mv, "fan_shao" if burner and prev == burner else "burn", seat))
        g._burner = seat
    elif burner and prev == burner:
        if seat == OPP[burner]:
            g._events.append(Event(mv, "jie_shao", seat))
            g._burner = 0
        else:
            g._events.append(Event(mv, "fan_shao", seat))
            g._burner = seat
    yprot = g._yielder == seat and mode == BEAT
    g._yielder = 0
    g._top = pl
    g._top_seat = seat
    g._tinfo = info
    st = g._status
    out = False
    if left == 0:
        out = True
        st[seat] = FINISHED
        g._inplay &= ~BIT[seat]
        g._finished.append(seat)
        g._events.append(Event(mv, "finish", seat))
        if g._burner == seat:
            g._burner = 0
    # G9.2 闷: the previous top player is left holding only 3s and was beaten.
    if g._bie and prev and st[prev] == IN_PLAY:
        hp = g._hands[prev]
        if hp is not None and hp[0] == count[prev]:
            out = True
            st[prev] = MEN
            g._inplay &= ~BIT[prev]
            g._men.append(prev)
            g._events.append(Event(mv, "men", prev))
            if g._burner == prev:
                g._burner = 0
    if out:
        if check_over(g):
            return info.code
        _four_way(g, mv)
    make_queue(g, seat, info, yprot)
    if not g._queue:
        end_round(g)
    return info.code


def _zha_shao(g: State, seat: int, mv: int) -> None:
    """G7.4 诈烧: the burner leaves at once (its play void), and the next seat in play leads."""
    g._burner = 0
    g._status[seat] = ZHA
    g._inplay &= ~BIT[seat]
    g._zha.append(seat)
    g._events.append(Event(mv, "zha_shao", seat))
    g._started = True
    if check_over(g):
        return
    new_round(g, g._next_in_play(seat))
    _four_way(g, mv)


def _four_way(g: State, mv: int) -> None:
    """G10.2 四户乱缠 begins once two players are out: played out, or ranked out without playing out
    (革命, 诈烧, 闷: docs/rules.md, settled 2026-12-01). It ends a burn."""
    if not g._luan and len(g._finished) + len(g._revolt) + len(g._zha) + len(g._men) >= 2:
        g._luan = True
        g._burner = 0
        g._events.append(Event(mv, "four_way", 0))


def make_queue(g: State, p: int, info: PlayInfo, yprot: bool) -> None:
    """The seats to act on seat ``p``'s play, in order, from the clause that governs it (a shared
    tuple of :data:`~engine.seats.QUEUES`: nothing is built per play)."""
    opp = OPP[p]
    m = g._inplay
    g._yprot = False
    if info.dead:  # G4.3 dead: only the 对头's 扣牌
        g._gprot = True
        g._queue = QUEUES[p][m & BIT[opp]]
        return
    if g._luan:  # G10.2
        g._gprot = False
        g._queue = QUEUES[p][m]
        return
    pa = g._passed
    if m & BIT[opp] and (info.gouji or yprot):
        g._gprot = info.gouji
        g._yprot = yprot
        if yprot:  # G5.5: only the yielder's 对头 answers
            g._queue = QUEUES[p][BIT[opp]]
        else:  # G6.2, G6.4, G8: the 对头 and each 无头 seat yet to pass, in turn (before or after it)
            g._queue = QUEUES[p][(m & ~opposites(m) & ~pa) | BIT[opp]]
        return
    g._gprot = False
    if m & pa & BIT[opp]:  # G5.2 除对头牌外
        g._queue = QUEUES_OPP[p][m & ~pa]
    else:
        g._queue = QUEUES[p][m & ~pa]


def end_round(g: State) -> None:
    """No one may still act on the top play (G5.3): it opens (G6.5) if it may, and its player leads,
    or the next seat holding cards (接风, G5.4)."""
    p = g._top_seat
    if g._tinfo.pure and not g._luan and len(g._finished) < 2 and p not in g._opened:
        g._opened.append(p)  # G6.5
        g._events.append(Event(len(g._codes) + 1, "open", p))
    if g._status[p] == IN_PLAY:
        new_round(g, p)
    else:
        nxt = g._next_in_play(p)  # G5.4 接风
        g._events.append(Event(len(g._codes) + 1, "jie_feng", nxt))
        new_round(g, nxt)


def new_round(g: State, leader: int) -> None:
    g._top = None
    g._top_seat = 0
    g._passed = 0
    g._yielder = 0
    g._gprot = False
    g._yprot = False
    if g._burner and g._status[g._burner] != IN_PLAY:
        g._burner = 0
    g._queue = (leader,)


def check_over(g: State) -> bool:
    """G10.3 圈三 (a 革命 player counts as 三科 with his mates first and second, G10.5), or G10.4: at
    most one player in play still holds cards."""
    fin = g._finished
    mv = len(g._codes) + 1
    if len(fin) >= 3 and fin[0] % 2 == fin[1] % 2 == fin[2] % 2:
        g._quan_san = True
        g._quan_winners = fin[:3]
    elif (
        g.preset.revolution
        and len(g._revolt) == 1
        and len(fin) >= 2
        and fin[0] % 2 == fin[1] % 2 == g._revolt[0] % 2
    ):
        g._quan_san = True  # 大纲 第二十三条: the revolutionary counts as 三科
        g._quan_winners = [fin[0], fin[1], g._revolt[0]]
    if g._quan_san:
        g._over = True
        g._queue = ()
        g._events.append(Event(mv, "quan_san", g._quan_winners[0]))
        return True
    holders = [s for s in SEATS if g._status[s] == IN_PLAY]
    if len(holders) <= 1:
        g._over = True
        g._queue = ()
        return True
    return False
