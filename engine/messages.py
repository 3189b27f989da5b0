"""Why a seat may not act (docs/rules.md Appendix A): the clause that keeps it out, and who is to act and
why, in English and 中文. The English says the 够级 terms as the show's glossary does
(:data:`engine.glossary.GLOSSARY`: 对头 "opposite", 够级牌 "gouji play", 无头 "headless", 闷 "stuck with 3s",
烧牌 "burn", 诈烧 "failed burn", 革命 "revolution", 扣牌 "pass on a dead play"): no Chinese word inside it.
Functions over a :class:`~engine.state.State`; :mod:`engine.rules` calls them once it knows an action is
refused.
"""

from __future__ import annotations

from .cards import Play, beat_error
from .glossary import GLOSSARY
from .seats import BIT, FINISHED, IN_PLAY, MEN, OPP, REVOLT, SEATS, TITLE_EN, TITLES, ZHA
from .state import Refusal, State

# the glossary's words the messages say (the badges say the same)
MEN_EN = GLOSSARY["闷"]
ZHA_EN = GLOSSARY["诈烧"]
REVOLT_EN = GLOSSARY["革命"]
WUTOU_EN = GLOSSARY["无头"]


def gone(g: State, o: int) -> tuple[str, str]:
    """Why seat ``o`` is no longer in play, as the reason its 对头 is 无头 (G8): (en, zh)."""
    st = g._status[o]
    if st == MEN:
        return f"its opposite, seat {o}, is {MEN_EN}", f"其对头{o}号已闷"
    if st == ZHA:
        return f"its opposite, seat {o}, made a {ZHA_EN} and is out", f"其对头{o}号诈烧出局"
    if st == REVOLT:
        return f"its opposite, seat {o}, declared a {REVOLT_EN}", f"其对头{o}号革命"
    return f"its opposite, seat {o}, has played out", f"其对头{o}号已出完"


def to_act(g: State) -> tuple[str, str]:
    """Who is to act and why (en, zh), for refusals (Appendix A)."""
    p = g._queue[0] if g._queue else 0
    t = g._top_seat
    if not p:
        return "no one is to act", "无人可行动"
    if g._top is None:
        return f"seat {p} is to lead", f"应由{p}号发牌"
    if g._tinfo.dead:
        return (
            f"seat {p}, the opposite of seat {t}, is to pass on its dead play",
            f"应由{t}号的对头{p}号扣牌",
        )
    if g._luan:
        return f"seat {p} is next in turn", f"应由{p}号按顺序出牌"
    if g._yprot:
        return f"seat {p}, the yielder's opposite, is to answer", f"应由让牌人的对头{p}号上牌"
    if g._gprot:
        if p == OPP[t] and g._burner == t:
            return (
                f"seat {p}, the opposite of the burner (seat {t}), is to answer",
                f"应由烧牌人{t}号的对头{p}号应答",
            )
        if p == OPP[t]:
            return (
                f"seat {p}, the opposite of seat {t}, is to answer its gouji play",
                f"应由{t}号的对头{p}号应答够级牌",
            )
        en, zh = gone(g, OPP[p])
        o = OPP[t]
        if g._passed & BIT[o]:  # G6.4: a 无头 seat after the 对头 still acts
            return (
                f"seat {p} is to act, in turn after the opposite (seat {o}) passed: it is {WUTOU_EN} "
                f"because {en}",
                f"应由{p}号在对头{o}号过牌后按顺序行动：{p}号无头，因{zh}",
            )
        return (
            f"seat {p} is to act first, in turn: it is {WUTOU_EN} because {en}",
            f"应由{p}号按顺序先行动：{p}号无头，因{zh}",
        )
    return f"seat {p} is next in turn", f"应由{p}号按顺序出牌"


def out_error(g: State, seat: int) -> Refusal:
    """G10.1: the seat is no longer in play (played out, 闷, 诈烧, 革命, or dealt no cards)."""
    st = g._status[seat]
    if st == FINISHED and g._dealt_counts[seat] == 0:
        en, zh = (
            f"seat {seat} holds no cards (its hand is empty) and has no decision",
            f"{seat}号无牌，不参与",
        )
    elif st == FINISHED:
        i = g._finished.index(seat)
        title = TITLES[i] if i < len(TITLES) else ""
        title_en = TITLE_EN[i] if i < len(TITLE_EN) else ""
        en, zh = f"seat {seat} has played out ({title_en})", f"{seat}号已出完牌（{title}）"
    elif st == MEN:
        en, zh = f"seat {seat} is {MEN_EN} and out of the game", f"{seat}号已闷，出局"
    elif st == ZHA:
        en, zh = f"seat {seat} made a {ZHA_EN} and is out of the game", f"{seat}号诈烧，已出局"
    else:
        en, zh = f"seat {seat} declared a {REVOLT_EN} and sits the game out", f"{seat}号已革命，不参与本局"
    if g._over:
        return Refusal("G10.1", en, zh)
    act = to_act(g)
    return Refusal("G10.1", f"{en}; {act[0]}", f"{zh}；{act[1]}")


def lead_error(g: State, seat: int, pending: int, pl: Play) -> Refusal:
    """A play by ``seat`` when ``pending`` holds the lead: G5.1, or G7.1/G7.4 when it would have
    burned the 够级牌 that has just lived because its 对头 passed (G6.4)."""
    lived = g._lived
    if lived is not None:
        t, top, o, passed = lived
        if seat not in (t, o) and beat_error(pl, top) is None:
            if passed & BIT[seat]:
                return Refusal(
                    "G7.4",
                    f"seat {seat} passed on seat {t}'s {top} and may not burn it (a seat that passed never "
                    f"burns); seat {pending} is to lead",
                    f"{seat}号已对{t}号的{top}过牌，过牌不烧；应由{pending}号发牌",
                )
            also_en, also_zh = (
                (f" and so did every {WUTOU_EN} seat", "，无头者亦过") if _any_wutou(g, t) else ("", "")
            )
            return Refusal(
                "G7.1",
                f"a burn must come before the opposite acts: seat {o} passed on seat {t}'s {top}{also_en}, "
                f"so it lived (G6.4); seat {pending} is to lead",
                f"烧牌须在对头上牌之前：{t}号的{top}其对头{o}号已过牌{also_zh}，牌已活；应由{pending}号发牌",
            )
    return not_the_leader(g, seat, pending)


def _any_wutou(g: State, t: int) -> bool:
    """Whether a seat other than ``t`` and its 对头 is 无头 (G8) and holds cards."""
    st = g._status
    return any(st[s] == IN_PLAY and st[OPP[s]] != IN_PLAY for s in SEATS if s != t and s != OPP[t])


def not_the_leader(g: State, seat: int, pending: int) -> Refusal:
    """G5.1: the lead is ``pending``'s (saying why when a 够级牌 has just lived, G6.4)."""
    lived = g._lived
    if lived is not None and lived.seat == pending:
        t, top, o = lived.seat, lived.play, lived.duitou
        also_en, also_zh = (f" and every {WUTOU_EN} seat", "，无头者亦过") if _any_wutou(g, t) else ("", "")
        return Refusal(
            "G5.1",
            f"seat {t} holds the lead, not seat {seat}: its {top} lived when its opposite, seat "
            f"{o}{also_en}, passed (G6.4)",
            f"发牌权在{t}号，不在{seat}号：{t}号的{top}其对头{o}号已过牌{also_zh}，牌已活",
        )
    return Refusal(
        "G5.1",
        f"seat {pending} holds the lead, not seat {seat}",
        f"发牌权在{pending}号，不在{seat}号",
    )


def keep_out(g: State, seat: int, pending: int) -> Refusal:
    """Why ``seat`` (in play, not the one to act) has no decision now: Appendix A's clause."""
    top = g._top
    act_en, act_zh = to_act(g)
    if top is None:
        return not_the_leader(g, seat, pending)
    t = g._top_seat
    o = OPP[t]
    if seat == t:
        return Refusal(
            "G5.2", f"seat {seat} made the top play; {act_en}", f"{seat}号出的是台面上的牌；{act_zh}"
        )
    if g._tinfo.dead:
        return Refusal(
            "G4.3",
            f"seat {t}'s {top} holds a big joker: it is dead, only its opposite (seat {o}) acts, to pass; "
            f"seat {seat} has no decision",
            f"{t}号的{top}挂大王为死牌，唯有其对头{o}号扣牌，{seat}号无权出牌",
        )
    if g._luan:
        return Refusal(
            "G10.2",
            f"four-way play: plain counterclockwise order, it is not seat {seat}'s turn; {act_en}",
            f"四户乱缠按反时针顺序出牌，未轮到{seat}号；{act_zh}",
        )
    if g._yprot:
        return Refusal(
            "G5.5",
            f"only seat {o} (the yielder's opposite) may answer seat {t}'s play; seat {seat} has no decision",
            f"让牌人{t}号所出的牌唯有其对头{o}号可上，{seat}号无权出牌",
        )
    if g._passed & BIT[seat]:
        return Refusal(
            "G5.2",
            f"seat {seat} passed in this round and may not act again; {act_en}",
            f"{seat}号本轮已过牌，这一轮再无权出牌；{act_zh}",
        )
    if g._gprot:
        return _keep_out_of_gouji(g, seat, pending, act_en, act_zh)
    return Refusal("G5.2", f"it is not seat {seat}'s turn; {act_en}", f"未轮到{seat}号；{act_zh}")


def _keep_out_of_gouji(g: State, seat: int, pending: int, act_en: str, act_zh: str) -> Refusal:
    """:func:`keep_out` on a protected 够级牌 (G6.2), or a burn play (G7.3)."""
    top = g._top
    t = g._top_seat
    o = OPP[t]
    if seat == o or seat in g._queue:  # the 对头 or a 无头 seat, after the seat to act
        return Refusal(
            "G5.2",
            f"seat {seat} answers in turn, after seat {pending}; {act_en}",
            f"{seat}号须按顺序，在{pending}号之后上牌；{act_zh}",
        )
    more_en, more_zh = ("", "") if pending == o else (f"; {act_en}", f"；{act_zh}")
    if g._burner == t:
        return Refusal(
            "G7.3",
            f"seat {t} is burning: only its opposite, seat {o}, answers; seat {seat} has no "
            f"decision{more_en}",
            f"{t}号烧牌，唯有其对头{o}号可应答，{seat}号无权出牌{more_zh}",
        )
    return Refusal(
        "G6.2",
        f"only the opposite answers a gouji play: seat {o} answers seat {t}'s {top}; seat {seat} has no "
        f"decision{more_en}",
        f"够级牌唯有对头可上：{t}号的{top}由其对头{o}号应答，{seat}号无权出牌{more_zh}",
    )


def burn_refused(g: State, seat: int, top: Play, e: Refusal) -> Refusal:
    """An out-of-turn play that fails to beat the 够级牌 is named as a burn (G4.x)."""
    ts = g._top_seat
    return Refusal(
        e.rule,
        f"seat {seat}'s burn of seat {ts}'s {top} fails: {e.en}",
        f"{seat}号烧{ts}号的{top}不成立：{e.zh}",
    )
