"""``python -m broadcast season …``: seasons, episodes, teams, matches, games and the 英雄榜.

season demo --db studio.sqlite [--seed 2012]
season create NAME [--title T] [--rules tv_match] [--sponsor S] [--ranking-players SPEC]
season list | show | verify
season episode NUMBER --air-date 2012-05-07 [--title T]
season team NAME [--sponsor S] [--color #c8372d]
season match --episode N --round 1 --team-a A --team-b B --a 张三,李四,王五 --b 赵六,孙七,周八
season game MATCH FILE.gjn [FILE.gjn …]
season penalty MATCH --team A --reason 大声喧哗 [--game 2]
season forfeit MATCH --team B [--reason …]
season finish MATCH [--lots-seed N|auto]
season prize --episode N --player 张三 --cell 5 --prize 煎饼礼盒 [--sponsor S] [--value 80]
season leaderboard [--kind players|teams] [--top 20] [--spec "points desc, firsts desc, …"] [--json]
season push [--kind players] [--top 10]        # feed the overlay: dispatch leaderboard.set
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import sys
from pathlib import Path

from broadcast.cli import season_table
from broadcast.cli.tools import add_db, check_logo, db_must_exist, run
from broadcast.errors import count
from broadcast.season.backend import shown
from broadcast.season.model import SeasonDB, SeasonError, round_name
from broadcast.season.rankings import DEFAULT_SPECS, compute, rank_label

# what a sub-command opens before its handler runs
NO_DB = "no-db"  # nothing (demo builds its own file)
NEW_DB = "new-db"  # the database, created if absent (create)
DB = "db"  # an existing database (list)
SEASON = "season"  # an existing database and its --season (default: the latest)


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="SUBCOMMAND")

    p = sub.add_parser("demo", help="建立演示赛季（引擎自对弈）/ build the demo season")
    add_db(p, season=False)
    p.add_argument("--seed", default="2012", help="随机种子 / seed (default 2012)")
    p.set_defaults(handler=_demo, scope=NO_DB)

    p = sub.add_parser("create", help="新建赛季 / create a season")
    add_db(p, season=False)
    p.add_argument("name")
    p.add_argument("--title", default="")
    p.add_argument("--rules", default="tv_match", choices=("tv_match", "dagang"))
    p.add_argument("--sponsor", default="", help="英雄榜冠名 / the leaderboard's title sponsor")
    p.add_argument(
        "--ranking-players",
        default="",
        help=(
            f"选手排名规则（默认 {DEFAULT_SPECS['players']}）/ "
            f"how players rank (default: {DEFAULT_SPECS['players']})"
        ),
    )
    p.add_argument(
        "--ranking-teams",
        default="",
        help=(
            f"队伍排名规则（默认 {DEFAULT_SPECS['teams']}）/ "
            f"how teams rank (default: {DEFAULT_SPECS['teams']})"
        ),
    )
    p.set_defaults(handler=_create, scope=NEW_DB)

    p = sub.add_parser("set", help="修改赛季设置 / change season settings")
    add_db(p)
    p.add_argument("--title")
    p.add_argument("--sponsor")
    p.add_argument("--sponsor-logo")
    p.add_argument("--ranking-players")
    p.add_argument("--ranking-teams")
    p.set_defaults(handler=_set, scope=SEASON)

    p = sub.add_parser("list", help="列出赛季 / list seasons")
    add_db(p, season=False)
    p.set_defaults(handler=_list, scope=DB)

    p = sub.add_parser("show", help="赛季概况 / season overview")
    add_db(p)
    p.set_defaults(handler=_show, scope=SEASON)

    p = sub.add_parser("verify", help="用引擎复核全部牌谱与累计表 / re-check records and totals")
    add_db(p)
    p.set_defaults(handler=_verify, scope=SEASON)

    p = sub.add_parser("episode", help="添加一期节目 / add an episode")
    add_db(p)
    p.add_argument("number", type=int)
    p.add_argument("--air-date", default="")
    p.add_argument("--title", default="")
    p.set_defaults(handler=_episode, scope=SEASON)

    p = sub.add_parser("team", help="添加队伍 / add a team")
    add_db(p)
    p.add_argument("name")
    p.add_argument("--sponsor", default="")
    p.add_argument("--color", default="")
    p.set_defaults(handler=_team_add, scope=SEASON)

    p = sub.add_parser("match", help="安排一场比赛 / schedule a match")
    add_db(p)
    p.add_argument("--episode", type=int, required=True)
    p.add_argument(
        "--round",
        type=int,
        default=0,
        help="0 = 积分赛，1..3 = 第一轮…第三轮 / 0 = league stage, 1..3 = round 1…3",
    )
    p.add_argument("--label", default="")
    p.add_argument("--team-a", required=True, help="A队（单号位 1、3、5）/ team A (odd seats 1, 3, 5)")
    p.add_argument("--team-b", required=True, help="B队（双号位 2、4、6）/ team B (even seats 2, 4, 6)")
    p.add_argument("--a", required=True, help="A队上场选手，按座位 1,3,5 / names for seats 1,3,5")
    p.add_argument("--b", required=True, help="B队上场选手，按座位 2,4,6 / names for seats 2,4,6")
    p.set_defaults(handler=_match, scope=SEASON)

    p = sub.add_parser("game", help="录入一局牌谱（GJN，引擎复核）/ record games from GJN files")
    add_db(p)
    p.add_argument("match", type=int)
    p.add_argument("files", nargs="+")
    p.set_defaults(handler=_game, scope=SEASON)

    p = sub.add_parser("penalty", help="裁判罚分（每次 −2）/ referee penalty")
    add_db(p)
    p.add_argument("match", type=int)
    p.add_argument("--team", required=True)
    p.add_argument("--reason", required=True)
    p.add_argument("--game", type=int)
    p.set_defaults(handler=_penalty, scope=SEASON)

    p = sub.add_parser("forfeit", help="弃权 / forfeit")
    add_db(p)
    p.add_argument("match", type=int)
    p.add_argument("--team", required=True)
    p.add_argument("--reason", default="迟到超过5分钟")
    p.set_defaults(handler=_forfeit, scope=SEASON)

    p = sub.add_parser("finish", help="结束比赛（加赛、抽签）/ decide a match")
    add_db(p)
    p.add_argument("match", type=int)
    p.add_argument("--lots-seed", help="抽签种子（整数或 auto，记录在案）/ lots seed, recorded")
    p.set_defaults(handler=_finish, scope=SEASON)

    p = sub.add_parser("prize", help="记录九宫格奖品 / record a prize-grid prize")
    add_db(p)
    p.add_argument("--episode", type=int, required=True)
    p.add_argument("--player", required=True)
    p.add_argument("--cell", type=int, required=True)
    p.add_argument("--prize", required=True)
    p.add_argument("--sponsor", default="")
    p.add_argument("--value", type=float, default=0.0)
    p.set_defaults(handler=_prize, scope=SEASON)

    p = sub.add_parser("leaderboard", help="显示英雄榜 / print the leaderboard")
    add_db(p)
    p.add_argument("--kind", choices=("players", "teams"), default="players")
    p.add_argument("--top", type=int, default=20)
    p.add_argument(
        "--spec", default=None, help="排名规则 / ranking key, e.g. 'points desc, firsts desc, h2h, name'"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_leaderboard, scope=SEASON)

    p = sub.add_parser("push", help="把英雄榜送到节目状态（图形）/ feed the overlay's leaderboard")
    add_db(p)
    p.add_argument("--kind", choices=("players", "teams"), default="players")
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--sponsor", default=None)
    p.set_defaults(handler=_push, scope=SEASON)

    p = sub.add_parser(
        "table", help="一张牌桌自动对局，推送到赛季 / a self-played table pushing to the season"
    )
    add_db(p)
    season_table.register(p)
    p.set_defaults(handler=season_table.main, scope=NO_DB)


def main(args: argparse.Namespace) -> int:
    return run(_dispatch, args)


def _dispatch(args: argparse.Namespace) -> int:
    """Open what the sub-command needs (scope) and run its handler; bad input raises a user error."""
    if args.scope == NO_DB:
        return int(args.handler(args))
    if args.scope != NEW_DB:
        db_must_exist(args.season_db)
    with SeasonDB.open(args.season_db) as sdb:
        if args.scope in (NEW_DB, DB):
            return int(args.handler(args, sdb))
        season = sdb.season(args.season)
        return int(args.handler(args, sdb, season))


def _team(sdb: SeasonDB, sid: int, name: str) -> int:
    tid = sdb.team_id(sid, name)
    if tid is None:
        raise SeasonError("team", f"没有这支队伍：{name}", f"no such team: {name}")
    return tid


def _player(sdb: SeasonDB, sid: int, name: str, team_id: int | None = None) -> int:
    rows = [r for r in sdb.find_players(sid, name) if team_id is None or r["team_id"] == team_id]
    if not rows:
        rows = [
            r
            for r in sdb.conn.execute(
                "SELECT * FROM season_players WHERE season_id=? AND code=?", (sid, name)
            ).fetchall()
        ]
    if not rows:
        raise SeasonError("player", f"没有这位选手：{name}", f"no such player: {name}")
    if len(rows) > 1:
        raise SeasonError(
            "player",
            f"有 {len(rows)} 位选手叫 {name}，请用选手编号",
            f"several players named {name}: use the player code",
        )
    return int(rows[0]["id"])


Season = sqlite3.Row  # a row of season_seasons (name, title, rules, sponsor …)


def _demo(args: argparse.Namespace) -> int:
    from broadcast.season.demo import build_demo_season

    summary = build_demo_season(args.season_db, args.seed)
    print(
        f"演示赛季已建立 demo season built: {shown(args.season_db)} — {summary.teams} 队 teams, "
        f"{summary.players} 名选手 players, "
        f"{summary.episodes} 期 episodes, {summary.matches} 场 matches, {summary.games} 局 games"
    )
    return 0


def _create(args: argparse.Namespace, sdb: SeasonDB) -> int:
    sid = sdb.create_season(
        args.name,
        title=args.title,
        rules=args.rules,
        sponsor=args.sponsor,
        ranking_players=args.ranking_players,
        ranking_teams=args.ranking_teams,
    )
    print(f"赛季已建立 season created: #{sid} {args.name}")
    return 0


def _list(args: argparse.Namespace, sdb: SeasonDB) -> int:
    seasons = sdb.seasons()
    if not seasons:  # said, not an empty screen: the producer may be looking at the wrong database
        print(
            f"{shown(args.season_db)}: 还没有赛季（python -m broadcast season create 名称，或 season demo）/ "
            "no season yet (python -m broadcast season create NAME, or season demo)"
        )
    for s in seasons:
        n = sdb.conn.execute("SELECT COUNT(*) FROM season_matches WHERE season_id=?", (s["id"],)).fetchone()
        print(
            f"#{s['id']} {s['name']}  {s['title']}  规则 rules {s['rules']}  "
            f"冠名 sponsor {s['sponsor'] or '—'}  "
            f"{n[0]} 场比赛 / {count(n[0], 'match', 'matches')}"
        )
    return 0


def _set(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    fields = {
        k: v
        for k, v in (
            ("title", args.title),
            ("sponsor", args.sponsor),
            ("sponsor_logo", args.sponsor_logo),
            ("ranking_players", args.ranking_players),
            ("ranking_teams", args.ranking_teams),
        )
        if v is not None
    }
    if args.sponsor_logo:
        check_logo(args.sponsor_logo)
    sdb.update_season(int(season["id"]), **fields)
    print(f"已更新 updated: {', '.join(fields) or '(nothing)'}")
    return 0


def _show(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    _print_overview(sdb, int(season["id"]))
    return 0


def _verify(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    from broadcast.season.demo import verify_records

    sid = int(season["id"])
    n = verify_records(sdb, sid)
    diffs = _compare_totals(sdb, sid)
    if diffs:
        print("\n".join(diffs), file=sys.stderr)
        return 1
    print(f"{n} 局牌谱经引擎复核无误，累计表与明细一致 / {count(n, 'record')} re-checked, totals consistent")
    return 0


def _episode(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    eid = sdb.add_episode(int(season["id"]), args.number, air_date=args.air_date, title=args.title)
    print(f"第{args.number}期已添加 episode added (#{eid})")
    return 0


def _team_add(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    tid = sdb.add_team(int(season["id"]), args.name, sponsor=args.sponsor, color=args.color)
    print(f"队伍已添加 team added: #{tid} {args.name}")
    return 0


def _match(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    sid = int(season["id"])
    ta, tb = _team(sdb, sid, args.team_a), _team(sdb, sid, args.team_b)
    a = [x.strip() for x in args.a.replace("，", ",").split(",") if x.strip()]
    b = [x.strip() for x in args.b.replace("，", ",").split(",") if x.strip()]
    if len(a) != 3 or len(b) != 3:
        raise SeasonError("G1.1", "每队上场三人", "three players per team (--a X,Y,Z --b U,V,W)")
    lineup = {
        1: _player(sdb, sid, a[0], ta),
        3: _player(sdb, sid, a[1], ta),
        5: _player(sdb, sid, a[2], ta),
        2: _player(sdb, sid, b[0], tb),
        4: _player(sdb, sid, b[1], tb),
        6: _player(sdb, sid, b[2], tb),
    }
    ep = sdb.episode(sid, args.episode)
    mid = sdb.create_match(
        sid,
        ta,
        tb,
        lineup,
        episode_id=int(ep["id"]),
        round_=args.round,
        label=args.label or round_name(args.round),
    )
    print(f"比赛已安排 match scheduled: #{mid}")
    return 0


def _game(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    from engine import GJNError, gjn

    for f in args.files:
        path = Path(f)
        try:
            text = gjn.read(path)  # the engine's reader: unreadable, not UTF-8 or over 1 MiB, unread
        except GJNError as e:
            raise SeasonError("GJN", e.zh, e.en, where=f"{f}:{e.line}") from None
        gid = sdb.record_game(args.match, text, filename=str(path))
        g = sdb.conn.execute(
            "SELECT number, points_a, points_b FROM season_games WHERE id=?", (gid,)
        ).fetchone()
        print(f"{f}: 第{g[0]}局 已录入 recorded — A {g[1]} : B {g[2]}")
    return 0


def _penalty(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    m = sdb.match(args.match)
    tid = _team(sdb, int(m["season_id"]), args.team)
    sdb.add_penalty(args.match, tid, args.reason, game_number=args.game)
    print(f"{args.team} 罚 2 分 penalised: {args.reason}")
    return 0


def _forfeit(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    m = sdb.match(args.match)
    r = sdb.record_forfeit(args.match, _team(sdb, int(m["season_id"]), args.team), args.reason)
    print(f"{args.team} 弃权 forfeits; 胜方 winner: {_team_name(sdb, r.winner)}")
    return 0


def _finish(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    seed = None
    if args.lots_seed is not None:
        if args.lots_seed == "auto":
            seed = secrets.randbelow(1_000_000_000)
        elif args.lots_seed.lstrip("-").isdigit():
            seed = int(args.lots_seed)
        else:
            raise SeasonError(
                "G11.2",
                f"--lots-seed 应为整数或 auto：{args.lots_seed!r}",
                f"--lots-seed must be a whole number or auto: {args.lots_seed!r}",
            )
    r = sdb.finish_match(args.match, lots_seed=seed)
    if r.needs_extra_game:
        print(f"三局打平 {r.score_a}:{r.score_b}，需要加赛一局 / tied: record one more game (G11.2)")
        return 0
    how = {
        "points": "比分",
        "extra_game": "加赛",
        "lots": f"抽签（种子 {r.lots_seed}）",
        "forfeit": "弃权",
    }
    print(
        f"比赛结束 final: {r.score_a}:{r.score_b}，胜方 winner {_team_name(sdb, r.winner)}"
        f"（{how.get(r.decided_by, r.decided_by)}）"
    )
    return 0


def _prize(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    sid = int(season["id"])
    ep = sdb.episode(sid, args.episode)
    pid = _player(sdb, sid, args.player)
    sdb.add_prize(
        sid,
        pid,
        args.cell,
        args.prize,
        sponsor=args.sponsor,
        value_yuan=args.value,
        episode_id=int(ep["id"]),
    )
    print(f"{args.player} 抽中第{args.cell}格：{args.prize} / drew cell {args.cell}: {args.prize}")
    return 0


def _leaderboard(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    ranking = compute(sdb.conn, int(season["id"]), args.kind, spec=args.spec, top=args.top)
    if args.json:
        print(
            json.dumps(
                {
                    "season": season["name"],
                    "kind": args.kind,
                    "spec": ranking.spec,
                    "rows": [r.as_dict() for r in ranking.rows[: args.top]],
                },
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    _print_ranking(season, ranking, args.top)
    return 0


def _push(args: argparse.Namespace, sdb: SeasonDB, season: Season) -> int:
    from broadcast.season.actions import push_leaderboard
    from broadcast.studio import open_store

    with open_store(args.db) as store:
        change = push_leaderboard(
            store, sdb, int(season["id"]), kind=args.kind, top=args.top, sponsor=args.sponsor
        )
    print(f"英雄榜已送出 leaderboard.set #{change.seq}: {len(change.state['leaderboard']['rows'])} 行 rows")
    return 0


def _team_name(sdb: SeasonDB, tid: int | None) -> str:
    if tid is None:
        return "—"
    row = sdb.conn.execute("SELECT name FROM season_teams WHERE id=?", (tid,)).fetchone()
    return str(row[0]) if row else f"#{tid}"


def _pad(text: str, width: int) -> str:
    w = sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)
    return text + " " * max(width - w, 0)


def _print_ranking(season: object, ranking: object, top: int) -> None:
    from broadcast.season.rankings import Ranking

    assert isinstance(ranking, Ranking)
    title = season["title"] if hasattr(season, "keys") else ""  # type: ignore[index]
    kind = "选手 players" if ranking.kind == "players" else "队伍 teams"
    print(f"{title} 英雄榜 leaderboard（{kind}）  排名规则 ranked by: {ranking.spec}")
    if ranking.kind == "players":
        print(_pad("名次", 8) + _pad("姓名", 10) + _pad("队伍", 22) + "积分  头科  大落  局数  相互")
        for r in ranking.rows[:top]:
            print(
                _pad(rank_label(r), 8)
                + _pad(r.name, 10)
                + _pad(r.team, 22)
                + f"{r.points:>4}  {r.firsts:>4}  {r.lasts:>4}  {r.games:>4}  {r.h2h:>4}"
            )
    else:
        print(_pad("名次", 8) + _pad("队伍", 22) + "胜  负  净积分  罚分  头科  大落")
        for r in ranking.rows[:top]:
            print(
                _pad(rank_label(r), 8)
                + _pad(r.name, 22)
                + f"{r.wins:>2}  {r.losses:>2}  {r.points:>6}  {r.penalties:>4}  {r.firsts:>4}  {r.lasts:>4}"
            )


def _print_overview(sdb: SeasonDB, sid: int) -> None:
    s = sdb.season(sid)
    sponsor = s["sponsor"] or "—"
    print(f"{s['title']}（{s['name']}）规则 rules {s['rules']}  英雄榜冠名 leaderboard sponsor {sponsor}")
    for t in sdb.teams(sid):
        names = "、".join(p["name"] for p in sdb.players(sid, int(t["id"])))
        print(f"  队伍 team {t['name']}{'（' + t['sponsor'] + '）' if t['sponsor'] else ''}: {names}")
    for e in sdb.episodes(sid):
        for m in sdb.matches(sid, int(e["id"])):
            res = f"{m['score_a']}:{m['score_b']}" if m["status"] == "final" else m["status"]
            print(
                f"  第{e['number']}期 {e['air_date']} {round_name(int(m['round']))} #{m['id']} "
                f"{_team_name(sdb, m['team_a'])} vs {_team_name(sdb, m['team_b'])}  {res}"
                f"{'  胜 ' + _team_name(sdb, m['winner']) if m['winner'] else ''}"
            )


def _compare_totals(sdb: SeasonDB, sid: int) -> list[str]:
    out = []
    for kind in ("players", "teams"):
        mat = {r.id: r.as_dict() for r in compute(sdb.conn, sid, kind, active_only=False).rows}
        full = {
            r.id: r.as_dict()
            for r in compute(
                sdb.conn,
                sid,
                kind,
                materialised=False,
                active_only=False,
            ).rows
        }
        for k, v in mat.items():
            if v != full.get(k):
                out.append(f"累计表与明细不一致 totals differ ({kind} #{k}): {v} != {full.get(k)}")
    return out
