"""The show's words for what the engine decides: ranks, titles, teams, seats, plays, presets.

The engine is the only place that knows a rule; these are the names it gives to what it decides, so
the application (``broadcast.game``), the on-air pages and the native OBS graphics say the same thing.
They render these words from the show state; none of them keeps its own copy.

Each table is in Chinese (the show's language, as players say it) and in English (the operator's
console in English, the commentators' page, the command line): :func:`play_words`, :func:`event_word`,
:func:`seat_word`, :func:`kind_word`, :func:`title_word` and :func:`preset_name` take the language
("zh" or "en").
"""

from __future__ import annotations

from .cards import ZH_NAMES, Play
from .gjn import PRESETS
from .glossary import GLOSSARY
from .seats import QUAN_SAN, TITLE_EN, TITLES, VOID

__all__ = [
    "EVENT_NAMES",
    "GLOSSARY",
    "KIND_NAMES",
    "PRESETS",
    "PRESET_NAMES_EN",
    "PRESET_NAMES_ZH",
    "QUAN_SAN",
    "RANK_ZH",
    "SEAT_WORDS",
    "STATUS_NAMES",
    "TEAMS",
    "TEAM_NAMES_EN",
    "TEAM_NAMES_ZH",
    "TITLE_NAMES_EN",
    "TITLES",
    "VOID",
    "cn_count",
    "entered_name",
    "event_word",
    "gouji_word",
    "kind_word",
    "label_of",
    "label_of_en",
    "play_label",
    "play_label_en",
    "play_words",
    "preset_name",
    "seat_name",
    "seat_word",
    "team_name",
    "title_word",
]

RANK_ZH: tuple[str, ...] = ZH_NAMES  # 3 … A, 2, 小王, 大王 (G2.1)
TEAMS = ("odd", "even")  # G1.2: odd seats {1,3,5} against even seats {2,4,6}
TEAM_NAMES_ZH = {"odd": "单号队", "even": "双号队"}  # a team without a name, on air (G1.2)
PRESET_NAMES_ZH = {"tv_match": "比赛规则", "dagang": "够级大纲"}
# the same words in English (never a Chinese word inside: the English screens are English throughout)
RANK_EN: tuple[str, ...] = (*ZH_NAMES[:13], GLOSSARY["小王"], GLOSSARY["大王"])
TEAM_NAMES_EN = {"odd": "Odd seats", "even": "Even seats"}
PRESET_NAMES_EN = {"tv_match": "match rules", "dagang": "Gouji outline rules"}
_TITLE_WORDS_EN = (*TITLE_EN, GLOSSARY["圈三"], GLOSSARY["流局"])  # 圈三: shut out of every title (G10.3)
TITLE_NAMES_EN = dict(zip((*TITLES, QUAN_SAN, VOID), _TITLE_WORDS_EN, strict=True))
_EN_COUNTS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
).split()


def _term(zh: str) -> tuple[str, str]:
    """A 够级 term and its one English word (:data:`engine.glossary.GLOSSARY`)."""
    return zh, GLOSSARY[zh]


# what the engine's events are called (Game.events()): (Chinese, English), the English the glossary's
EVENT_NAMES: dict[str, tuple[str, str]] = {
    "burn": _term("烧牌"),
    "fan_shao": _term("反烧"),
    "jie_shao": _term("解烧"),
    "zha_shao": _term("诈烧"),
    "men": _term("闷"),
    "finish": _term("出完"),
    "open": _term("开点"),
    "revolt": _term("革命"),
    "four_way": _term("四户乱缠"),
    "quan_san": _term("圈三"),
    "jie_feng": _term("接风"),
}
# where a seat stands at the table beyond its events (G7, G8): (Chinese, English)
SEAT_WORDS: dict[str, tuple[str, str]] = {
    "wutou": _term("无头"),
    "burning": ("烧牌中", "burning"),
}
# a seat's status as the engine keeps it (Game.status(): SeatStatus): (Chinese, English)
STATUS_NAMES: dict[str, tuple[str, str]] = {
    "in_play": ("在打", "in play"),
    "finished": ("已出完", GLOSSARY["出完"]),
    "zha_shao": _term("诈烧"),
    "men": _term("闷"),
    "revolt": _term("革命"),
}
# a decision that is not a play: (Chinese, English)
KIND_NAMES: dict[str, tuple[str, str]] = {
    "pass": _term("过"),
    "yield": _term("让牌"),
    "revolt": ("革命（铁三科）", f"{GLOSSARY['革命']} ({GLOSSARY['铁三科']})"),
}

_CN_DIGITS = "零一二三四五六七八九"


def team_name(team: str, name: str = "") -> str:
    """A team's name on air: its own name, else 单号队 / 双号队 (G1.2)."""
    return name.strip() or TEAM_NAMES_ZH[team]


def entered_name(seat: int, name: str = "") -> str:
    """The name a seat holds as entered, '' for none. The placeholder ``3号位`` that older matches stored
    for an empty seat counts as none, so no language shows it as if it were a name."""
    text = name.strip()
    return "" if text == f"{seat}号位" else text


def seat_name(seat: int, name: str = "", lang: str = "zh") -> str:
    """A player's name as shown: their name, else the seat in ``lang`` (``3号位`` / ``Seat 3``)."""
    return entered_name(seat, name) or (f"Seat {seat}" if lang == "en" else f"{seat}号位")


def cn_count(n: int) -> str:
    """Chinese numeral for a count of cards: 1 一, 2 两, 10 十, 12 十二, 20 二十."""
    if n == 2:
        return "两"
    if n < 10:
        return _CN_DIGITS[n]
    tens, ones = divmod(n, 10)
    head = "" if tens == 1 else _CN_DIGITS[tens]
    return head + "十" + (_CN_DIGITS[ones] if ones else "")


def play_label(base: int, n: int, twos: int = 0, smalls: int = 0, bigs: int = 0) -> str:
    """The on-air words for a play: ``五个10``, ``三个Q带两个2``, ``两个A带一个大王``, ``两个小王``."""
    label = f"{cn_count(n)}个{RANK_ZH[base]}"
    for count, name in ((twos, "2"), (smalls, "小王"), (bigs, "大王")):
        if count:
            label += f"带{cn_count(count)}个{name}"
    return label


def label_of(play: Play) -> str:
    """The on-air words for a :class:`Play` (``TTTTT`` → ``五个10``)."""
    return play_label(play.base, play.n, play.twos, play.smalls, play.bigs)


def _en_count(n: int, rank: str) -> str:
    word = _EN_COUNTS[n] if n < len(_EN_COUNTS) else str(n)
    return f"{word} {rank}" if n == 1 else f"{word} {rank}s"


def play_label_en(base: int, n: int, twos: int = 0, smalls: int = 0, bigs: int = 0) -> str:
    """:func:`play_label` in English: ``five 10s``, ``three Qs with two 2s``, ``two small jokers``."""
    label = _en_count(n, RANK_EN[base])
    for count, name in ((twos, "2"), (smalls, RANK_EN[-2]), (bigs, RANK_EN[-1])):
        if count:
            label += f" with {_en_count(count, name)}"
    return label


def label_of_en(play: Play) -> str:
    """:func:`label_of` in English (``TTTTT`` → ``five 10s``)."""
    return play_label_en(play.base, play.n, play.twos, play.smalls, play.bigs)


def play_words(play: Play, lang: str = "zh", gouji_min_twos: int = 1) -> str:
    """A play as the show says it, in ``lang``, with 够级 when it is one (G6.1): ``五个10 够级`` /
    ``five 10s gouji``."""
    label = label_of_en(play) if lang == "en" else label_of(play)
    return f"{label} {gouji_word(lang)}" if play.is_gouji(gouji_min_twos) else label


def gouji_word(lang: str = "zh") -> str:
    """够级 (a 够级牌, G6.1) in ``lang``."""
    return GLOSSARY["够级"] if lang == "en" else "够级"


def _said(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    zh, en = table.get(key, (key, key))
    return en if lang == "en" else zh


def event_word(event: str, lang: str = "zh") -> str:
    """An engine event's name (``烧牌`` / ``burn``); an unknown event as it is."""
    return _said(EVENT_NAMES, event, lang)


def seat_word(status: str, lang: str = "zh") -> str:
    """A seat's standing at the table (``无头`` / ``headless``, ``烧牌中`` / ``burning``)."""
    return _said(SEAT_WORDS, status, lang)


def kind_word(kind: str, lang: str = "zh") -> str:
    """A decision that is not a play (``过`` / ``pass``); a play's kind as it is."""
    return _said(KIND_NAMES, kind, lang)


def title_word(title: str, lang: str = "zh") -> str:
    """A title (头科 … 大落, 圈三, 流局) in ``lang``."""
    return TITLE_NAMES_EN.get(title, title) if lang == "en" else title


def preset_name(preset: str, lang: str = "zh") -> str:
    """A rule preset's name (比赛规则 / match rules); an unknown one as it is."""
    return (PRESET_NAMES_EN if lang == "en" else PRESET_NAMES_ZH).get(preset, preset)
