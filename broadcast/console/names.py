"""The names the on-air docks show for the show's graphics, studio placements and cue kinds, marked for
Qt's translation (context ``Names``) so that the English UI says them in English.

The Chinese source strings are the same words the rest of the studio uses (``broadcast.control``'s
``GRAPHIC_ZH``/``SHOT_ZH``, the rundown's ``KIND_ZH``; a test keeps them equal); a name not listed here
(a graphic a later part adds) is shown as the studio names it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from broadcast.qt.i18n import QT_TRANSLATE_NOOP

CTX = "Names"

GRAPHIC_NAMES = {
    "scoreboard": QT_TRANSLATE_NOOP("Names", "比分"),
    "leaderboard": QT_TRANSLATE_NOOP("Names", "英雄榜"),
    "qualifiers": QT_TRANSLATE_NOOP("Names", "海选榜"),
    "jiugongge": QT_TRANSLATE_NOOP("Names", "九宫格"),
    "corner_bug": QT_TRANSLATE_NOOP("Names", "角标"),
    "bumper": QT_TRANSLATE_NOOP("Names", "标版"),
    "ticker": QT_TRANSLATE_NOOP("Names", "字幕条"),
    "credits": QT_TRANSLATE_NOOP("Names", "片尾"),
    "commentary": QT_TRANSLATE_NOOP("Names", "解说区"),
    "lower_third": QT_TRANSLATE_NOOP("Names", "人名条"),
    "jipaiqi": QT_TRANSLATE_NOOP("Names", "记牌器"),
    "winprob": QT_TRANSLATE_NOOP("Names", "胜率"),
}
# where a studio placement is (the shot buttons say "桌面 3/5")
SHOT_PLACES = {
    "table": QT_TRANSLATE_NOOP("Names", "桌面"),
    "jiugongge_board": QT_TRANSLATE_NOOP("Names", "九宫格下方"),
    "prize_stand": QT_TRANSLATE_NOOP("Names", "奖品台"),
    "shirts": QT_TRANSLATE_NOOP("Names", "文化衫"),
    "commentary": QT_TRANSLATE_NOOP("Names", "解说区"),
}
CUE_KINDS = {
    "graphic": QT_TRANSLATE_NOOP("Names", "图形"),
    "bumper": QT_TRANSLATE_NOOP("Names", "标版"),
    "film": QT_TRANSLATE_NOOP("Names", "宣传片"),
    "segment": QT_TRANSLATE_NOOP("Names", "环节"),
    "draw": QT_TRANSLATE_NOOP("Names", "抽奖"),
    "leaderboard": QT_TRANSLATE_NOOP("Names", "英雄榜"),
    "credits": QT_TRANSLATE_NOOP("Names", "片尾"),
}


def graphic(g: str) -> tuple[str, str]:
    """A graphic's name as a (context, source) pair, for a translated {field}."""
    from broadcast.control import GRAPHIC_ZH

    return CTX, GRAPHIC_NAMES.get(g) or GRAPHIC_ZH.get(g, g)


def place(slot: str) -> tuple[str, str]:
    return CTX, SHOT_PLACES.get(slot, slot)


def kind(k: str) -> tuple[str, str]:
    return CTX, CUE_KINDS.get(k, k)


def say(pair: tuple[str, str]) -> str:
    """The name in the UI language."""
    return QCoreApplication.translate(*pair)
