"""The show's English glossary of the 够级 terms: one English word for one thing, on every surface.

A referee reading the console's refusal and the commentators reading the badges see the same word:
the engine's word tables (:mod:`engine.words`: badges, events, titles), the referee's messages
(:mod:`engine.messages`, :mod:`engine.rules`), the engine's command line, the console's and the
producer's English catalogs (``broadcast/i18n/*.ts``), the commentators' page and the docs
(``docs/rules.md`` "Glossary", ``docs/engine.md``) all say a term as this table does;
``tests/test_english_glossary.py`` fails when a surface says one differently. The Chinese is the
players' own word (the key); the English is how an English-speaking 够级 player or referee would say it,
never pinyin, never a Chinese word inside.

A leaf module (no imports): the compiled core (:mod:`engine.seats`, :mod:`engine.messages`) reads it
as well as :mod:`engine.words`, which re-exports it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["GLOSSARY", "TITLE_TERMS"]

#: the titles by the order of playing out (G10.1)
TITLE_TERMS: Final[tuple[str, ...]] = ("头科", "二科", "三科", "四科", "二落", "大落")

#: 够级 term (as players say it) → its one English word
GLOSSARY: Final[dict[str, str]] = {
    "小王": "small joker",  # G2.1 (also 小花, 小虎, 副虎)
    "大王": "big joker",  # G2.1 (also 大花, 大虎, 正虎)
    "对头": "opposite",  # G1.3: the opponent straight across
    "够级": "gouji",  # G6.1: a play big enough to be protected ("five 10s gouji")
    "够级牌": "gouji play",  # G6: a play that is 够级
    "开点": "opened",  # G6.5: a seat whose 够级牌 lived has opened
    "烧牌": "burn",  # G7
    "反烧": "counter-burn",  # G7.3
    "解烧": "burn broken",  # G7.3: the burner's 对头 answers
    "诈烧": "failed burn",  # G7.4: a burn play without a joker before the hand's end
    "无头": "headless",  # G8: a seat whose 对头 is out
    "憋3": "3s go out last",  # G9 (dagang): 3s go last, all together
    "闷": "stuck with 3s",  # G9.2
    "买3": "buy a 3",  # G9.3
    "让牌": "yield",  # G5.5
    "过": "pass",  # G5.2
    "扣牌": "pass on a dead play",  # G4.3
    "死牌": "dead play",  # G4.3
    "四户乱缠": "four-way play",  # G10.2
    "圈三": "shut out",  # G10.3
    "革命": "revolution",  # G10.5
    "铁三科": "iron third",  # G10.5: the 革命 seat's title
    "流局": "void",  # G10.5: two revolutions void the game
    "出完": "played out",  # G10.1
    "接风": "takes the lead",  # G5.4: the lead passes to the next seat
    **dict(zip(TITLE_TERMS, ("first", "second", "third", "fourth", "fifth", "last"), strict=True)),
}
