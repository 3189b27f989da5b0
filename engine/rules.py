"""Is an action legal, and how does it apply (docs/rules.md G3-G10)? Functions over a
:class:`~engine.state.State`: :func:`classify` gives the mode (lead, in-turn beat, burn, pass, yield,
革命) or the :class:`~engine.state.Refusal` with the clause it breaks (the messages come from
:mod:`engine.messages`).
"""

from __future__ import annotations

from .actions import PASS as K_PASS
from .actions import REVOLT as K_REVOLT
from .actions import YIELD as K_YIELD
from .cards import BIG, SMALL, TWO, Play, Rank, beat_error, n_cards
from .messages import REVOLT_EN, WUTOU_EN, burn_refused, gone, keep_out, lead_error, out_error, to_act
from .seats import BIT, IN_PLAY, NEXT, OPP
from .state import BEAT, BURN, ILLEGAL, LEAD, PASS, REVOLT, YIELD, Refusal, State


def window(g: State) -> bool:
    """The burn window (G7.1): a protected 够级牌 whose 对头 is still to act."""
    return (
        g._gprot
        and not g._yprot
        and g._top is not None
        and not g._tinfo.dead
        and OPP[g._top_seat] in g._queue
    )


def classify(g: State, seat: int, kind: int, pl: Play | None) -> tuple[int, Refusal | None]:
    """(mode, None) when the action is legal, (``ILLEGAL``, refusal) when not. ``kind`` is an action
    kind code (``engine.actions.PLAY`` …)."""
    if g._over:
        return ILLEGAL, Refusal("G10.4", "the game is over", "本局已结束")
    if g._status[seat] != IN_PLAY:
        return ILLEGAL, out_error(g, seat)
    pending = g._queue[0] if g._queue else 0
    if kind == K_REVOLT:
        e = revolt_error(g, seat)
        return (REVOLT, None) if e is None else (ILLEGAL, e)
    if kind == K_PASS:
        if seat != pending:
            return ILLEGAL, keep_out(g, seat, pending)
        if g._top is None:
            return ILLEGAL, Refusal(
                "G5.1", f"seat {seat} holds the lead and must play", f"{seat}号有发牌权，须发牌"
            )
        return PASS, None
    if kind == K_YIELD:
        if seat != pending:
            return ILLEGAL, keep_out(g, seat, pending)
        e = yield_error(g, seat, pending)
        return (YIELD, None) if e is None else (ILLEGAL, e)
    # a play: whose turn, then possession, then 憋3, then beating
    if pl is None:  # a NotAPlay (push reports it with its own message)
        return ILLEGAL, Refusal("G3.2", "the cards do not form a play", "所出的牌不成一手牌")
    top = g._top
    if top is None:
        if seat != pending:
            return ILLEGAL, lead_error(g, seat, pending, pl)
        mode = LEAD
    elif seat == pending:
        mode = BEAT
    else:
        e = burn_error(g, seat, pending)
        if e is not None:
            return ILLEGAL, e
        mode = BURN
    e = possession_error(g, seat, pl)
    if e is None and g._bie:
        e = bie_san_error(g, seat, pl)
    if e is None and top is not None:
        b = beat_error(pl, top)
        if b is not None:
            e = Refusal(*b)
            if mode == BURN:  # say that the out-of-turn play was taken as a burn
                e = burn_refused(g, seat, top, e)
    return (ILLEGAL, e) if e is not None else (mode, None)


def revolt_error(g: State, seat: int) -> Refusal | None:
    """G10.5: 革命 only where the preset plays it, before the first lead, by a seat dealt no 2 and no
    joker."""
    if not g.preset.revolution:
        return Refusal(
            "G10.5",
            f"a {REVOLT_EN} is not played under {g.preset.name}",
            f"{g.preset.name}规则不实行革命",
        )
    if g._started:
        return Refusal(
            "G10.5", f"a {REVOLT_EN} must be declared before the first lead", "革命须在首次发牌前声明"
        )
    if g._dealt_wild[seat] and g._hands[seat] is not None:
        return Refusal(
            "G10.5",
            f"seat {seat} was dealt a joker or a 2 and may not declare a {REVOLT_EN}",
            f"{seat}号有花或钱，不能革命",
        )
    return None


def possession_error(g: State, seat: int, pl: Play) -> Refusal | None:
    """G3.1: the seat holds the cards (a known hand), or holds as many and the pack has them (G2.1)."""
    h = g._hands[seat]
    if h is not None:
        if (
            h[pl.base] < pl.n
            or h[TWO] < (pl.twos + (pl.n if pl.base == TWO else 0))
            or h[SMALL] < pl.smalls + (pl.n if pl.base == SMALL else 0)
            or h[BIG] < pl.bigs + (pl.n if pl.base == BIG else 0)
        ):
            return Refusal("G3.1", f"seat {seat} does not hold {pl}", f"{seat}号手中没有{pl}")
        return None
    size = pl.n + pl.twos + pl.smalls + pl.bigs
    if size > g._count[seat]:
        return Refusal(
            "G3.1",
            f"seat {seat} holds only {n_cards(g._count[seat])}, not {size}",
            f"{seat}号只剩{g._count[seat]}张牌",
        )
    sup = g._supply
    for r, c in ((pl.base, pl.n), (TWO, pl.twos), (SMALL, pl.smalls), (BIG, pl.bigs)):
        if c > sup[r]:
            return Refusal(
                "G2.1",
                f"no {Rank(r).symbol} left in the pack for {pl}",
                f"四副牌中已无足够的{Rank(r).symbol}",
            )
    return None


def bie_san_error(g: State, seat: int, pl: Play) -> Refusal | None:
    """G9.1 / G3.6 (憋3): 3s take no wild cards, go out all together as the last play, and a play
    that empties a hand holding 3s must be the 3s."""
    size = pl.n + pl.twos + pl.smalls + pl.bigs
    h = g._hands[seat]
    left = g._count[seat]
    if pl.base == 0:
        if pl.twos or pl.smalls or pl.bigs:
            return Refusal(
                "G3.6", f"{pl}: 3s take no wild cards (3s go out last)", f"{pl}：憋3时3不能贴钱挂花"
            )
        if size == left:
            return None
        if h is not None and h[0] > pl.n:
            return Refusal(
                "G9.1",
                f"3s are never split (3s go out last): seat {seat} holds {h[0]} 3s and plays {pl.n}",
                f"憋3：3不能拆开出，{seat}号有{h[0]}张3，只出了{pl.n}张",
            )
        if h is not None:
            return Refusal(
                "G9.1",
                f"the 3s must be the last play (3s go out last): seat {seat} still holds "
                f"{n_cards(left - size)} besides its 3s",
                f"憋3：3须作为底牌最后出，{seat}号除3以外还有{left - size}张牌",
            )
        return Refusal(
            "G9.1",
            f"3s go out last, all together: seat {seat} holds {n_cards(left)}, not {size}",
            f"憋3：3须作为底牌一次出完，{seat}号还有{left}张牌，不是{size}张",
        )
    if size == left and h is None:
        return Refusal("G9.1", "the last play must be all your 3s (3s go out last)", "憋3：底牌必须是3")
    if size == left and h is not None and h[0]:
        return Refusal(
            "G9.1",
            f"the last play must be all your 3s (3s go out last): seat {seat} still holds {h[0]} 3s",
            f"憋3：底牌必须是3，{seat}号手中还有{h[0]}张3",
        )
    return None


def burn_error(g: State, seat: int, pending: int) -> Refusal | None:
    """Why an out-of-turn play by ``seat`` cannot be a burn (G7), or None."""
    top = g._top
    assert top is not None
    t = g._top_seat
    if seat == t:
        act = to_act(g)
        return Refusal(
            "G5.2", f"seat {seat} cannot beat its own play; {act[0]}", f"{seat}号不能灭自己的牌；{act[1]}"
        )
    if g._tinfo.dead:  # a dead play: G4.3 in every mode (Appendix A)
        return keep_out(g, seat, pending)
    if g._luan:
        act = to_act(g)
        return Refusal(
            "G10.2",
            f"four-way play: plain counterclockwise order, no burning; {act[0]}",
            f"四户乱缠不烧牌，按顺序出牌；{act[1]}",
        )
    if g._yprot or not g._tinfo.gouji:
        return keep_out(g, seat, pending)
    if not g._gprot:
        (gone_en, gone_zh), act = gone(g, OPP[t]), to_act(g)
        return Refusal(
            "G8",
            f"seat {t} is {WUTOU_EN} because {gone_en}: its gouji play is beaten in turn order, not burned; "
            f"{act[0]}",
            f"{t}号无头（因{gone_zh}），其够级牌按顺序上，不能烧；{act[1]}",
        )
    if seat == OPP[t]:
        return keep_out(g, seat, pending)
    if g._passed & BIT[seat]:
        act = to_act(g)
        return Refusal(
            "G7.4",
            f"seat {seat} passed in this round and may not burn (a seat that passed never burns); {act[0]}",
            f"{seat}号本轮已过牌，过牌不烧；{act[1]}",
        )
    if not window(g):  # the 对头 passed; a 无头 seat after it still acts (G6.4)
        act = to_act(g)
        return Refusal(
            "G7.1",
            f"a burn must come before the opposite acts: seat {OPP[t]} has passed on seat {t}'s {top}; "
            f"{act[0]}",
            f"烧牌须在对头上牌之前：{t}号的{top}其对头{OPP[t]}号已过牌；{act[1]}",
        )
    return None


def yield_error(g: State, seat: int, pending: int) -> Refusal | None:
    """G5.5 让牌: on a non-够级 play of one's 对头, the two seats before having passed, one of the next
    two still able to act; once per play."""
    if seat != pending:
        return Refusal("G5.5", f"it is not seat {seat}'s turn", f"未轮到{seat}号")
    if g._luan:
        return Refusal("G10.2", "four-way play: no yielding", "四户乱缠不让牌")
    top = g._top
    p = g._top_seat
    if top is None or OPP[seat] != p:
        return Refusal("G5.5", "a yield is only on a play of one's opposite", "只能对对头牌让牌")
    if g._gprot or g._yprot:
        return Refusal("G5.5", "no yield on a gouji play", "够级牌不能让牌")
    if g._yielder == seat:
        return Refusal("G5.5", f"seat {seat} has already yielded on this play", f"{seat}号已让过牌")
    st = g._status
    pa = g._passed
    for x in (NEXT[p], NEXT[NEXT[p]]):
        if st[x] == IN_PLAY and not pa & BIT[x]:
            return Refusal(
                "G5.5", "a yield needs the two players before to have passed", "上两家须已过牌方可让牌"
            )
    if not any(st[x] == IN_PLAY and not pa & BIT[x] for x in (NEXT[seat], NEXT[NEXT[seat]])):
        return Refusal("G5.5", "no one after seat to yield to", "下两家无人可上牌，不能让牌")
    return None
