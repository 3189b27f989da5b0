"""A realistic demo season, every game played by the engine's seeded self-play.

``build_demo_season(db_path, seed)``: 《够级大明星》第一季 with eight teams of four (team names carry
sponsors' names, e.g. 小当家便利店联盟队), 15 episodes aired Mon/Wed/Fri/Sun from 2012-05-07, one match
per episode (three games, six contestants): eight 积分赛 matches (each team plays twice), then the
knockout 第一轮 (4 matches, seeded 1–8, 4–5, 2–7, 3–6 by the team 英雄榜), 第二轮 (2) and 第三轮 (the
final). Referee penalties, one forfeit (迟到超过5分钟), one match tied after three games (加赛) and one
still tied after the extra game (抽签 with a recorded seed), and every contestant's 九宫格 draw.

Each game is a seeded deal played out by ``engine``'s random self-play and stored as its GJN record
(re-checked by the engine on the way in). For the two matches that show the tie rules, the deciding
game's deal is chosen among seeded candidates (``…-try-N``) until the totals tie: the record is still
a complete, legal game.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from broadcast.season.backend import shown
from broadcast.season.model import SeasonDB, SeasonError, round_name
from broadcast.season.scoring import check_record
from engine import first_leader, gjn, new_game

SEASON_NAME = "第一季"
SEASON_TITLE = "《够级大明星》第一季"
LEADERBOARD_SPONSOR = "鲁信汽车城"

TEAMS: list[tuple[str, str, str]] = [  # name, sponsor, colour
    ("小当家便利店联盟队", "小当家", "#e63b2e"),
    ("沂河源矿泉水队", "沂河源矿泉水", "#1e88e5"),
    ("顺和家电队", "顺和家电", "#f4a300"),
    ("金沂蒙酒业队", "金沂蒙酒业", "#8e24aa"),
    ("兰山够级协会队", "", "#2e7d32"),
    ("河东老哥们队", "", "#00897b"),
    ("罗庄棋牌社队", "", "#6d4c41"),
    ("琅琊煎饼坊队", "琅琊煎饼坊", "#d81b60"),
]
SURNAMES = (
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
)
GIVEN = [
    "建国",
    "志强",
    "秀英",
    "桂兰",
    "海涛",
    "立新",
    "春梅",
    "玉珍",
    "国庆",
    "卫东",
    "红霞",
    "明亮",
    "德胜",
    "淑芬",
    "永刚",
    "晓东",
    "振华",
    "丽娟",
    "福来",
    "长青",
    "金凤",
    "宝山",
    "凤英",
    "庆丰",
    "家兴",
    "雪梅",
    "大勇",
    "文静",
    "广田",
    "小军",
    "瑞芳",
    "东升",
]
TOWNS = [
    "兰山区",
    "河东区",
    "罗庄区",
    "郯城县",
    "沂南县",
    "费县",
    "平邑县",
    "莒南县",
    "沂水县",
    "蒙阴县",
    "临沭县",
]
PRIZES: list[tuple[str, str, float]] = [  # the demo 九宫格 (cell 1–9): prize, sponsor, value (元)
    ("粮油礼包", "小当家", 200),
    ("沂河源矿泉水一箱", "沂河源矿泉水", 60),
    ("电热水壶", "顺和家电", 150),
    ("金沂蒙珍藏酒两瓶", "金沂蒙酒业", 380),
    ("煎饼礼盒", "琅琊煎饼坊", 80),
    ("豆豉礼盒", "八宝豆豉", 90),
    ("云雾茶一斤", "蒙山云雾茶", 260),
    ("日用品大礼包", "小当家", 180),
    ("汽车保养券", "鲁信汽车城", 500),
]
PENALTY_REASONS = ["大声喧哗", "偷看牌", "发暗语", "发肢体暗号"]


@dataclass
class DemoSummary:
    db_path: str  # as a person may see it (a URL without its password)
    season_id: int
    episodes: int
    matches: int
    games: int
    players: int
    teams: int


def _int_seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:4], "big")


def _air_dates(start: date, n: int) -> list[date]:
    out: list[date] = []
    d = start
    while len(out) < n:
        if d.weekday() in (0, 2, 4, 6):  # 首播 Mon/Wed/Fri/Sun 21:35
            out.append(d)
        d += timedelta(days=1)
    return out


def _selfplay_record(seed: str, names: dict[int, str], event: str, air: date) -> tuple[str, int, int]:
    g = new_game("tv_match", seed=seed, leader=first_leader(seed))
    g.play_randomly(random.Random(f"gouji-play:{seed}"))
    tags = [("Event", event), ("Date", air.isoformat()), ("Seed", seed)]
    tags += [(f"Seat{s}", names[s]) for s in range(1, 7)]
    text = gjn.write(gjn.from_game(g, tags))
    r = g.result()
    return text, r.team_points["odd"], r.team_points["even"]


EPISODES = 15  # 8 积分赛 + 4 + 2 + 1 knockout matches, one per episode


def demo_status(sdb: SeasonDB) -> str:
    """``"absent"``, ``"complete"``, ``"incomplete"`` or ``"other"`` (a season of the same name that
    the demo did not make: never touched): the demo season in this database.

    Since the build is one transaction a season can only be incomplete when an older build of this
    software was stopped half-way (it committed match by match)."""
    row = sdb.conn.execute(
        "SELECT id, title, sponsor FROM season_seasons WHERE name=?", (SEASON_NAME,)
    ).fetchone()
    if row is None:
        return "absent"
    if (row["title"], row["sponsor"]) != (SEASON_TITLE, LEADERBOARD_SPONSOR):
        return "other"
    finals = sdb.conn.execute(
        "SELECT COUNT(*) FROM season_matches WHERE season_id=? AND status='final'", (row["id"],)
    ).fetchone()[0]
    return "complete" if int(finals) >= EPISODES else "incomplete"


def ensure_demo_season(db_path: str | Path, seed: int | str = 2012) -> tuple[str, DemoSummary | None]:
    """The demo season, whole, in ``db_path``: built if absent, rebuilt if an interrupted older build
    left it half-made (a demo season holds nothing entered by hand). Returns what was done
    (``"present"``, ``"built"`` or ``"rebuilt"``) and the summary of a build."""
    with SeasonDB.open(db_path) as sdb:
        status = demo_status(sdb)
    if status in ("complete", "other"):
        return "present", None
    summary = build_demo_season(db_path, seed, replace_incomplete=status == "incomplete")
    return ("rebuilt" if status == "incomplete" else "built"), summary


def build_demo_season(
    db_path: str | Path, seed: int | str = 2012, *, replace_incomplete: bool = False
) -> DemoSummary:
    """Build the demo season into ``db_path`` (refused if that database already holds 第一季).

    All or nothing: the whole season is written in one transaction, so a kill at any moment leaves
    either no demo season or a complete one (and the next ``run`` builds it). With
    ``replace_incomplete`` a half-made demo season (left by an older build) is removed in the same
    transaction first."""
    with SeasonDB.open(db_path) as sdb, sdb.transaction():
        status = demo_status(sdb)
        if status == "incomplete" and replace_incomplete:
            sdb.conn.execute("DELETE FROM season_seasons WHERE name=?", (SEASON_NAME,))
        elif status != "absent":
            raise SeasonError(
                "season",
                f"已有“{SEASON_NAME}”",
                f"the demo season “{SEASON_NAME}” is already in this database",
                where=shown(db_path),
            )
        return _build(sdb, db_path, seed)


def _build(sdb: SeasonDB, db_path: str | Path, seed: int | str) -> DemoSummary:
    rng = random.Random(f"demo-season:{seed}")
    sid = sdb.create_season(SEASON_NAME, title=SEASON_TITLE, sponsor=LEADERBOARD_SPONSOR)
    # teams and rosters
    team_ids: list[int] = []
    roster: dict[int, list[int]] = {}
    used: set[str] = set()
    for name, sponsor, colour in TEAMS:
        tid = sdb.add_team(sid, name, sponsor=sponsor, color=colour)
        team_ids.append(tid)
        roster[tid] = []
        for k in range(4):
            while True:
                pname = rng.choice(SURNAMES) + rng.choice(GIVEN)
                if pname not in used:
                    used.add(pname)
                    break
            code = f"S1-{len(team_ids):02d}{k + 1}"
            pid = sdb.add_player(
                sid,
                pname,
                team_id=tid,
                code=code,
                gender="女"
                if pname[1:]
                in (
                    "秀英",
                    "桂兰",
                    "春梅",
                    "玉珍",
                    "红霞",
                    "淑芬",
                    "丽娟",
                    "金凤",
                    "凤英",
                    "雪梅",
                    "文静",
                    "瑞芳",
                )
                else "男",
                phone=f"1{rng.choice('3589')}{rng.randrange(10**9):09d}",
                hometown=rng.choice(TOWNS),
            )
            roster[tid].append(pid)
    names = {int(p["id"]): p["name"] for p in sdb.players(sid)}
    # schedule: 8 积分赛 matches (each team twice), then the knockout
    group = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7)]
    dates = _air_dates(date(2012, 5, 7), 15)
    episode_no = 0
    played_lineup: dict[int, int] = dict.fromkeys(team_ids, 0)
    games_total = 0
    special = {3: "forfeit", 9: "extra", 12: "lots"}  # episode → what it shows

    def lineup_of(tid: int) -> list[int]:
        k = played_lineup[tid]
        played_lineup[tid] += 1
        r = roster[tid]
        return [r[(k + i) % 4] for i in range(3)]  # three of four, rotating

    def play_match(ta: int, tb: int, round_: int, label: str) -> int:
        nonlocal episode_no, games_total
        episode_no += 1
        air = dates[episode_no - 1]
        eid = sdb.add_episode(
            sid, episode_no, air_date=air.isoformat(), title=f"第{episode_no}期 {round_name(round_)}"
        )
        la, lb = lineup_of(ta), lineup_of(tb)
        lineup = {1: la[0], 3: la[1], 5: la[2], 2: lb[0], 4: lb[1], 6: lb[2]}
        seat_names = {s: names[p] for s, p in lineup.items()}
        mid = sdb.create_match(sid, ta, tb, lineup, episode_id=eid, round_=round_, label=label)
        # every contestant draws once from the 九宫格 (distinct cells)
        for pid, cell in zip(lineup.values(), rng.sample(range(1, 10), 6), strict=True):
            prize, sponsor, value = PRIZES[cell - 1]
            sdb.add_prize(sid, pid, cell, prize, sponsor=sponsor, value_yuan=value, episode_id=eid)
        kind = special.get(episode_no)
        if kind == "forfeit":
            sdb.record_forfeit(mid, tb, "选手迟到超过5分钟，按弃权处理")
            return mid
        totals = [0, 0]
        for gno in range(1, 4):
            want_tie = kind in ("extra", "lots") and gno == 3
            # a tie after game 3 must stay possible: a team's three titles sum to 6..15 (G11.1)
            keep_close = kind in ("extra", "lots") and gno == 2
            for attempt in range(400):
                gseed = f"{seed}-E{episode_no}-G{gno}" + (f"-try-{attempt}" if attempt else "")
                text, a, b = _selfplay_record(
                    gseed, seat_names, f"够级大明星 第{episode_no}期 第{gno}局", air
                )
                if keep_close and abs(totals[0] + a - totals[1] - b) > 8:
                    continue
                if not want_tie or totals[0] + a == totals[1] + b:
                    break
            sdb.record_game(mid, text, filename=f"E{episode_no:02d}-G{gno}.gjn")
            totals[0] += a
            totals[1] += b
            games_total += 1
            if gno == 2 and rng.random() < 0.3 and kind is None:
                team = rng.choice((ta, tb))
                sdb.add_penalty(mid, team, rng.choice(PENALTY_REASONS), game_number=gno)
        result = sdb.finish_match(mid)
        if result.needs_extra_game:
            for attempt in range(400):
                gseed = f"{seed}-E{episode_no}-G4" + (f"-try-{attempt}" if attempt else "")
                text, a, b = _selfplay_record(gseed, seat_names, f"够级大明星 第{episode_no}期 加赛", air)
                if (kind == "lots") == (a == b):
                    break
            sdb.record_game(mid, text, filename=f"E{episode_no:02d}-G4.gjn")
            games_total += 1
            result = sdb.finish_match(mid, lots_seed=_int_seed(seed, "lots", episode_no) % 1_000_000)
        return mid

    for i, (a, b) in enumerate(group):
        play_match(team_ids[a], team_ids[b], 0, f"积分赛第{i + 1}场")
    from broadcast.season.rankings import compute

    seeded = [r.id for r in compute(sdb.conn, sid, "teams").rows]
    bracket = [
        (seeded[0], seeded[7]),
        (seeded[3], seeded[4]),
        (seeded[1], seeded[6]),
        (seeded[2], seeded[5]),
    ]
    for rnd in (1, 2, 3):
        winners = []
        for k, (a, b) in enumerate(bracket):
            label = "决赛" if rnd == 3 else f"{round_name(rnd)}第{k + 1}场"
            mid = play_match(a, b, rnd, label)
            winners.append(int(sdb.match(mid)["winner"]))
        bracket = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
    return DemoSummary(
        shown(db_path), sid, episode_no, len(sdb.matches(sid)), games_total, len(names), len(team_ids)
    )


def verify_records(sdb: SeasonDB, season_id: int) -> int:
    """Re-check every stored record with the engine; returns how many were checked (raises on a bad one)."""
    n = 0
    for gid, text in sdb.conn.execute(
        "SELECT g.id, g.gjn FROM season_games g JOIN season_matches m ON m.id=g.match_id WHERE m.season_id=?",
        (season_id,),
    ):
        check_record(text, f"game#{gid}")
        n += 1
    return n
