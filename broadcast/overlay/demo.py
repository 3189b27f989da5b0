"""A complete, schema-valid demo show state: every graphic has something real to show.

Used by ``python -m broadcast serve --demo``, by the rehearsal (for the sections it does not drive
itself) and by the overlay tests. The sponsors are fictional; the logos are the SVGs in
``overlays/assets/demo/`` (served at ``/overlay/assets/demo/``).
"""

from __future__ import annotations

from typing import Any

from broadcast import studio

DEMO_LOGO = "/overlay/assets/demo/{}.svg"

NAMES = ("张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰")


def _logo(key: str) -> str:
    return DEMO_LOGO.format(key)


def demo_sponsors() -> dict[str, Any]:
    title = {"name": "小当家便利店", "logo": _logo("xdj")}
    special = {"name": "沂蒙山泉", "logo": _logo("ymss")}
    supporters = [
        {"name": "琅琊茶业", "logo": _logo("lycy")},
        {"name": "蒙山食品", "logo": _logo("msfood")},
        {"name": "临沂商城物流", "logo": _logo("lysc")},
    ]
    return {
        "title": title,
        "special": special,
        "leaderboard": {"name": "金沂蒙酒业", "logo": _logo("jymjy")},
        "qualifiers": {"name": "临沂商城物流", "logo": _logo("lysc")},
        "commentary": {"name": "沂河电器", "logo": _logo("yhdq")},
        "table": {"name": "小当家便利店", "logo": _logo("xdj")},
        "jiugongge_board": {"name": "蒙山食品", "logo": _logo("msfood")},
        "supporters": supporters,
        "bumpers": [
            {
                "id": "title",
                "text": "《够级大明星》栏目由“小当家便利店”独家冠名播出",
                "logo": _logo("xdj"),
                "seconds": 5,
            },
            {"id": "special", "text": "本节目由“沂蒙山泉”独家特约播出", "logo": _logo("ymss"), "seconds": 5},
        ]
        + [
            {
                "id": f"support{i + 1}",
                "text": f"本节目由“{s['name']}”赞助播出",
                "logo": s["logo"],
                "seconds": 5,
            }
            for i, s in enumerate(supporters)
        ],
        "ticker": [
            "小当家便利店 · 您身边的好当家，全市两百家门店欢迎光临",
            "《够级大明星》网络海选火热报名中，每周一、三、五、日 21:35 临沂电视台公共频道播出",
            "沂蒙山泉 · 好水喝出健康来",
        ],
        "credits": [
            {"role": "独家冠名", "name": title["name"], "logo": title["logo"]},
            {"role": "独家特约", "name": special["name"], "logo": special["logo"]},
        ]
        + [{"role": "赞助播出", "name": s["name"], "logo": s["logo"]} for s in supporters]
        + [{"role": "礼品提供", "name": "本节目礼品由“蒙山食品”独家提供", "logo": _logo("msfood")}],
    }


def demo_jiugongge() -> dict[str, Any]:
    prizes = [
        ("电动自行车", "小当家便利店", "xdj", "出行好帮手"),
        ("山泉水一年", "沂蒙山泉", "ymss", "好水喝出健康"),
        ("明前绿茶礼盒", "琅琊茶业", "lycy", "一杯清香"),
        ("煎饼礼包", "蒙山食品", "msfood", "山里的好味道"),
        ("500元购物卡", "临沂商城物流", "lysc", "买遍全国"),
        ("白酒礼盒", "金沂蒙酒业", "jymjy", "沂蒙老味道"),
        ("电饭煲", "沂河电器", "yhdq", "米饭香喷喷"),
        ("再来一次", "小当家便利店", "xdj", "好运连连"),
        ("1000元现金", "小当家便利店", "xdj", "冠名商大奖"),
    ]
    return {
        "cells": [{"prize": p, "sponsor": s, "logo": _logo(k), "slogan": sl} for p, s, k, sl in prizes],
        "draw": None,
    }


def demo_qualifiers() -> dict[str, Any]:
    """A qualifier board (海选榜) as ``qualifiers push`` sends it."""
    rows = [
        ("沂蒙够级王", "QL1002331", 96, 412, 0.281),
        ("临沂老K", "QL1000137", 88, 398, 0.273),
        ("罗庄一把刀", "QL1007102", 91, 377, 0.242),
        ("兰山烧牌手", "QL1002884", 79, 377, 0.253),
        ("河东小诸葛", "QL1000883", 85, 361, 0.212),
        ("费县闷三家", "QL1001881", 72, 344, 0.236),
        ("平邑开点王", "QL1009006", 80, 339, 0.2),
        ("郯城圈三侠", "QL1004410", 77, 331, 0.195),
        ("沂南大落哥", "QL1003305", 69, 320, 0.217),
        ("莒南五科", "QL1005517", 74, 318, 0.189),
    ]
    out = []
    rank = 0
    for i, (name, pid, games, points, rate) in enumerate(rows):
        if i == 0 or points != rows[i - 1][3]:
            rank = i + 1
        tied = sum(1 for r in rows if r[3] == points) > 1
        out.append(
            {
                "rank": rank,
                "tied": tied,
                "name": name,
                "platform_id": pid,
                "games": games,
                "points": points,
                "first_rate": rate,
            }
        )
    return {
        "title": "2012春季网络海选",
        "sponsor": "",
        "summary": "1,000,000局 · 98,765位选手",
        "spec": "按积分、头科、大落（少者先）排名",
        "rows": out,
    }


def demo_leaderboard() -> dict[str, Any]:
    rows = [
        ("王建军", "小当家联盟队", 86, 9, 1, 18),
        ("李春燕", "沂蒙山泉队", 81, 8, 2, 18),
        ("张立国", "小当家联盟队", 77, 7, 2, 18),
        ("孙玉梅", "兰山区代表队", 77, 5, 3, 15),
        ("赵海峰", "沂蒙山泉队", 66, 5, 4, 18),
        ("周德福", "河东区代表队", 61, 4, 3, 15),
        ("刘晓东", "罗庄区代表队", 57, 3, 5, 15),
        ("陈桂兰", "沂蒙山泉队", 52, 3, 6, 18),
        ("吴国强", "兰山区代表队", 44, 2, 6, 12),
        ("郑秀英", "河东区代表队", 38, 1, 7, 12),
    ]
    colors = {
        "小当家联盟队": "#c8372d",
        "沂蒙山泉队": "#1f5fbf",
        "兰山区代表队": "#2e7d32",
        "河东区代表队": "#6a1b9a",
        "罗庄区代表队": "#ef6c00",
    }
    out = []
    for i, (n, t, p, f, la, g) in enumerate(rows):
        tied = any(o[2] == p for j, o in enumerate(rows) if j != i)
        rank = 1 + sum(1 for o in rows if o[2] > p)
        out.append(
            {
                "rank": rank,
                "name": n,
                "team": t,
                "points": p,
                "firsts": f,
                "lasts": la,
                "games": g,
                "tied": tied,
                "team_color": colors[t],
            }
        )
    return {
        "title": "够级英雄榜",
        "season": "第一季 · 第12期",
        "sponsor": "金沂蒙酒业",
        "kind": "players",
        "rows": out,
    }


def demo_table() -> dict[str, Any]:
    """A game in progress: game 2 of 3, seat 1 just played five 10s, its 对头 (seat 4) to answer."""
    cards = (7, 12, 0, 21, 9, 16)
    titles = (None, None, "头科", None, None, None)
    seats = []
    for i, name in enumerate(NAMES):
        seat = i + 1
        seats.append(
            {
                "seat": seat,
                "name": name,
                "team": "odd" if seat % 2 else "even",
                "photo": "",
                "cards_left": cards[i],
                "title": titles[i],
                "status": "out" if titles[i] else ("wutou" if seat == 6 else "playing"),
                "opened": seat in (1, 3),
                "passed": False,
                "baopai": seat in (1, 5),  # G5.6: in play with ≤ 10 cards, as the engine reports them
            }
        )
    return {
        "rules": "tv_match",
        "phase": "playing",
        "game_no": 2,
        "games_in_match": 3,
        "teams": {
            "odd": {"name": "小当家联盟队", "label": "小当家联盟队", "color": "#c8372d", "points": 17},
            "even": {"name": "沂蒙山泉队", "label": "沂蒙山泉队", "color": "#1f5fbf", "points": 11},
        },
        "seats": seats,
        "turn": 4,
        "moves": 46,
        "last_move": "3 pass",
        "last_play": {"seat": 1, "cards": "TTTTT", "label": "五个10", "gouji": True, "burn": False},
        "quan_san": False,
        "jipaiqi": {"R": 1, "B": 2, "2": 5},
        "message": "",
        "results": [{"game_no": 1, "odd": 17, "even": 11, "quan_san": False}],
    }


def demo_winprob() -> dict[str, Any]:
    """The 胜率 after a 烧牌 (section ``winprob``, what the pages receive: the figures and their move)."""
    current = {
        "moves": 46,
        "game_no": 2,
        "line": "3 pass",
        "odd": 0.62,
        "even": 0.33,
        "level": 0.05,
        "odd_ci": [0.59, 0.65],
        "even_ci": [0.30, 0.36],
        "points_odd": 12.4,
        "points_even": 9.6,
        "playouts": 1000,
        "hands": "known",
        "seconds": 0.41,
    }
    return {"on": True, "current": current}


def demo_state(
    *,
    on: tuple[str, ...] = ("scoreboard", "corner_bug", "ticker", "jipaiqi", "commentary"),
    bus: str = "program",
) -> dict[str, Any]:
    """The default state filled with the demo show; graphics in ``on`` are on air on ``bus``."""
    st = studio.default_state()
    st["show"].update(
        {
            "title": "够级大明星",
            "subtitle": "棋牌大明星（第一季）",
            "episode": "第12期",
            "round": "擂台赛 第二轮",
            "air_date": "2011-06-12",
        }
    )
    st["sponsors"] = demo_sponsors()
    st["jiugongge"] = demo_jiugongge()
    st["leaderboard"] = demo_leaderboard()
    st["qualifiers"] = demo_qualifiers()
    st["table"] = demo_table()
    st["winprob"] = demo_winprob()
    st["lower_third"] = {"name": "王建军", "line2": "小当家联盟队 · 英雄榜第一名", "photo": ""}
    st["charity"]["total_yuan"] = 12800
    for g in on:
        st["graphics"][bus][g]["on"] = True
    studio.validate(st)
    return st
