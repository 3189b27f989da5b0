"""The words the console shows for decisions and rule events, as players and the on-air pages say them.

The words of a play come from the engine (the same ``engine.words.play_label`` the scoreboard shows:
``五个10``); this module adds the console's tags (够级, 烧牌 …) and the names of the engine's events.
"""

from __future__ import annotations

from typing import Any

from engine.words import play_label

KIND_WORDS = {"pass": "过", "yield": "让牌", "revolt": "革命（铁三科）"}
KIND_WORDS_EN = {"pass": "pass", "yield": "yield", "revolt": "revolt"}

# engine events (Game.events()): what the record list and the table badges say
EVENT_WORDS = {
    "burn": "烧牌",
    "fan_shao": "反烧",
    "jie_shao": "解烧",
    "zha_shao": "诈烧",
    "men": "闷",
    "finish": "出完",
    "open": "开点",
    "four_way": "四户乱缠",
    "quan_san": "圈三",
    "jie_feng": "接风",
    "revolt": "革命",
}


def play_words(play: Any, gouji_min_twos: int = 1) -> str:
    """``五个10 够级`` for TTTTT; ``两个A带一个大王 够级`` …"""
    label = play_label(play.base, play.n, play.twos, play.smalls, play.bigs)
    return f"{label} 够级" if play.is_gouji(gouji_min_twos) else label
