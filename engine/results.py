"""Titles and points (docs/rules.md G10, G11) of a :class:`~engine.state.State`: the titles decided so far,
the final ranking, and the :class:`~engine.state.GameResult`.
"""

from __future__ import annotations

from .seats import IN_PLAY, QUAN_SAN, SEATS, TITLES, VOID, team_of
from .state import GameResult, State


def _slots(g: State, top: list[int]) -> list[int]:
    """Seats by title (index 0 = 头科): a 革命 seat holds 四科 (G10.5), 诈烧 then 闷 seats fill from
    大落 up (G7.4, G9.2), and the seats of ``top`` from 头科 down; 0 where no one holds it yet."""
    slots = [0] * 6
    if g._revolt:
        slots[3] = g._revolt[0]
    i = 5
    for s in g._zha + g._men:
        while slots[i]:
            i -= 1
        slots[i] = s
    i = 0
    for s in top:
        while slots[i]:
            i += 1
        slots[i] = s
    return slots


def titles_so_far(g: State) -> dict[int, str]:
    """The titles already decided (G10): seats that played out take them from 头科 down, 诈烧 and 闷
    seats from 大落 up, a 革命 seat holds 四科 (G10.5); once the game is over, every seat's title."""
    if g._over:
        return dict(result(g).titles)
    slots = _slots(g, g._finished)
    return {s: TITLES[k] for k, s in enumerate(slots) if s}


def ranking(g: State) -> list[int]:
    """Seats from 头科 to 大落 once the game is over (G10)."""
    if not g._over or g._void:
        return []
    if g._quan_san:
        return list(g._quan_winners)
    return _slots(g, g._finished + [s for s in SEATS if g._status[s] == IN_PLAY])


def result(g: State) -> GameResult:
    """Titles and points (G10, G11). Raises ValueError while the game is still on."""
    if not g._over:
        raise ValueError("the game is not over")
    opened = list(g._opened)
    if g._void:
        return GameResult(
            [],
            {s: VOID for s in SEATS},
            {"odd": 0, "even": 0},
            False,
            opened,
            True,
            list(g._zha),
            list(g._men),
            list(g._revolt),
        )
    order = ranking(g)
    titles: dict[int, str] = {}
    pts = {"odd": 0, "even": 0}
    if g._quan_san:
        for i, s in enumerate(order):
            titles[s] = TITLES[i]
        for s in SEATS:
            if s not in titles:
                titles[s] = QUAN_SAN
        pts[team_of(order[0])] = g.preset.quan_san_points
    else:
        tp = g.preset.title_points
        for i, s in enumerate(order):
            titles[s] = TITLES[i]
            pts[team_of(s)] += tp[i]
        if g.preset.scoring == "dagang":
            diff = pts["odd"]
            pts = {"odd": max(diff, 0), "even": max(pts["even"], 0)}
    return GameResult(
        order,
        titles,
        pts,
        g._quan_san,
        opened,
        False,
        list(g._zha),
        list(g._men),
        list(g._revolt),
    )
