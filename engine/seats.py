"""The table (docs/rules.md G1): seats, their order, their 对头, teams, a seat's status and the titles (G10).

Seats are numbered 1..6 counterclockwise; the tables below are indexed by seat (index 0 unused), so the
rules code reads them without arithmetic. A seat's status is a :class:`SeatStatus` for callers; the
engine keeps it as the small ``int`` codes beside it (``IN_PLAY`` …), which compiled code compares
directly.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from .glossary import GLOSSARY, TITLE_TERMS

SEATS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)
#: the next seat counterclockwise, the previous one, the 对头 (G1.2: the seat opposite)
NEXT: Final[tuple[int, ...]] = (0, 2, 3, 4, 5, 6, 1)
PREV: Final[tuple[int, ...]] = (0, 6, 1, 2, 3, 4, 5)
OPP: Final[tuple[int, ...]] = (0, 4, 5, 6, 1, 2, 3)
#: the five other seats in playing order after a seat (G5.2)
ORDER: Final[tuple[tuple[int, ...], ...]] = ((),) + tuple(
    tuple((s + i - 1) % 6 + 1 for i in range(1, 6)) for s in SEATS
)
#: a seat's bit in a set of seats kept as an int (who passed this round)
BIT: Final[tuple[int, ...]] = (0, 2, 4, 8, 16, 32, 64)


def opposites(mask: int) -> int:
    """The 对头 of each seat of a set of seats (G1.3)."""
    return (mask & 0b0001110) << 3 | (mask & 0b1110000) >> 3


#: QUEUES[p][mask]: the seats of ``mask`` in playing order after seat p (p itself left out), the turn
#: order on p's play; QUEUES_OPP[p][mask]: the same with p's 对头 last (G5.2: 除对头牌外)
QUEUES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = ((),) + tuple(
    tuple(tuple(s for s in ORDER[p] if m & BIT[s]) for m in range(128)) for p in SEATS
)
QUEUES_OPP: Final[tuple[tuple[tuple[int, ...], ...], ...]] = ((),) + tuple(
    tuple(tuple(s for s in ORDER[p] if m & BIT[s] and s != OPP[p]) + (OPP[p],) for m in range(128))
    for p in SEATS
)

TITLES: Final[tuple[str, ...]] = TITLE_TERMS
#: the titles in English, the glossary's (the English screens are English throughout: no Chinese word inside)
TITLE_EN: Final[tuple[str, ...]] = tuple(GLOSSARY[t] for t in TITLE_TERMS)
QUAN_SAN: Final = "圈三"
VOID: Final = "流局"

# a seat's status as the engine keeps it (index into SeatStatus.ALL)
IN_PLAY: Final = 0
FINISHED: Final = 1  # played out (G10.1), or dealt no cards
ZHA: Final = 2  # 诈烧 (G7.4)
MEN: Final = 3  # 闷 (G9.2)
REVOLT: Final = 4  # 革命 (G10.5)


class SeatStatus(StrEnum):
    """Where a seat stands (``Game.status``): still holding cards, or out and why. A ``str``, so it
    compares equal to its value (``game.status(1) == "men"``) and is written as it in JSON."""

    IN_PLAY = "in_play"
    FINISHED = "finished"
    ZHA_SHAO = "zha_shao"
    MEN = "men"
    REVOLT = "revolt"

    @classmethod
    def of(cls, code: int) -> SeatStatus:
        """The status of the engine's ``int`` code (``IN_PLAY`` … ``REVOLT``)."""
        return _STATUSES[code]


_STATUSES: Final[tuple[SeatStatus, ...]] = (
    SeatStatus.IN_PLAY,
    SeatStatus.FINISHED,
    SeatStatus.ZHA_SHAO,
    SeatStatus.MEN,
    SeatStatus.REVOLT,
)


def team_of(seat: int) -> str:
    """G1.2: odd seats against even seats."""
    return "odd" if seat % 2 else "even"
