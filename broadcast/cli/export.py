"""``python -m broadcast export …``: the 英雄榜, episode results and GJN records after the show.

    export leaderboard --out 英雄榜.xlsx [--kind players|teams] [--format csv|xlsx|json|png]
           [--top 10] [--spec SPEC] [--sponsor NAME --sponsor-logo PATH | --placements FILE]
    export results --episode 5 --out 第5期成绩.xlsx
    export records --episode 5 --out DIR/           # one .gjn per game + index.csv
    export all --episode 5 --out DIR/               # everything above for the episode
A progress bar goes to stderr on a terminal (--quiet turns it off).
"""

from __future__ import annotations

import argparse
from contextlib import closing
from pathlib import Path

from broadcast.cli.tools import add_db, check_logo, db_must_exist, run, sponsor_from_placements
from broadcast.season.backend import Rec
from broadcast.season.export import export_ranking, export_records, export_results, fmt_from
from broadcast.season.model import SeasonDB
from broadcast.season.rankings import Kind, Ranking, compute, stream_ranking
from broadcast.season.render import render_leaderboard


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", required=True, metavar="WHAT")
    for name, help_ in (
        ("leaderboard", "英雄榜 CSV/XLSX/JSON/PNG / the leaderboard"),
        ("results", "一期的比赛结果 CSV/XLSX/JSON / an episode's results"),
        ("records", "一期的全部牌谱 GJN / an episode's records"),
        ("all", "一期的全部导出 / everything of an episode"),
    ):
        p = sub.add_parser(name, help=help_)
        add_db(p)
        p.add_argument("--out", required=True, help="输出文件或目录 / output file or directory")
        p.add_argument("--quiet", action="store_true", help="不显示进度条 / no progress bar")
        if name in ("results", "records", "all"):
            p.add_argument("--episode", type=int, default=None, help="期数（默认整个赛季）/ episode number")
        if name in ("leaderboard", "results"):
            p.add_argument(
                "--format",
                choices=("csv", "xlsx", "json", "png"),
                default=None,
                help="默认按文件后缀 / default: from the file suffix",
            )
        if name in ("leaderboard", "all"):
            p.add_argument("--kind", choices=("players", "teams"), default="players")
            p.add_argument("--top", type=int, default=10, help="PNG 显示前几名（≤10）/ rows in the PNG")
            p.add_argument("--spec", default=None, help="排名规则 / ranking key")
            p.add_argument("--sponsor", default=None, help="英雄榜冠名企业 / the leaderboard's title sponsor")
            p.add_argument("--sponsor-logo", default=None, help="冠名企业标志 PNG / sponsor logo")
            p.add_argument(
                "--placements", default=None, help="从排期 YAML 读取英雄榜冠名 / sponsor from placements"
            )


def main(args: argparse.Namespace) -> int:
    return run(_main, args)


def _episode_id(sdb: SeasonDB, sid: int, number: int | None) -> int | None:
    return None if number is None else int(sdb.episode(sid, number)["id"])


def _png(sdb: SeasonDB, season: Rec, ranking: Ranking, out: Path, args: argparse.Namespace) -> Path:
    sponsor, logo = args.sponsor, args.sponsor_logo
    if args.placements:
        p_name, p_logo = sponsor_from_placements(args.placements)
        sponsor = sponsor or p_name
        logo = logo or p_logo or None
    if sponsor is None:
        sponsor = season["sponsor"]
        logo = logo or season["sponsor_logo"] or None
    if logo:
        check_logo(str(logo))
    last = sdb.last_episode(int(season["id"]))
    as_of = f"截至第{last}期" if last else "赛季开始前"
    what = "选手" if ranking.kind == "players" else "团体"
    footer = f"排名规则：{_spec_zh(ranking.spec, ranking.kind)}　·　并列者名次相同"
    return render_leaderboard(
        ranking,
        out,
        title="够级英雄榜" if ranking.kind == "players" else "够级英雄榜·团体",
        subtitle=f"{season['title']} · {what}排名 · {as_of}",
        sponsor=sponsor or "",
        sponsor_logo=logo,
        top=args.top,
        footer=footer,
    )


def _spec_zh(spec: str, kind: Kind) -> str:
    from broadcast.season.rankings import FIELDS

    parts = []
    for term in spec.split(","):
        words = term.split()
        if not words or words[0] in ("id",):
            continue
        label = FIELDS[kind][words[0]][0]
        if words[0] in ("h2h", "name"):
            parts.append(label)
        else:
            parts.append(label + ("多者先" if words[-1] == "desc" else "少者先"))
    return " → ".join(parts)


def _main(args: argparse.Namespace) -> int:
    db_must_exist(args.season_db)
    out = Path(args.out)
    with SeasonDB.open(args.season_db) as sdb:
        season = sdb.season(args.season)
        sid = int(season["id"])
        if args.what == "leaderboard":
            fmt = fmt_from(out, args.format)
            if fmt == "png":
                top = compute(sdb.conn, sid, args.kind, spec=args.spec, top=args.top)
                path = _png(sdb, season, top, out, args)
                count = len(top.rows[: args.top])
            else:
                with closing(stream_ranking(sdb.conn, sid, args.kind, spec=args.spec)) as stream:
                    path = export_ranking(stream, season, out, fmt, quiet=args.quiet)
                count = stream.count
            print(f"英雄榜已导出 exported: {path} ({count} 行 rows)")
        elif args.what == "results":
            fmt = fmt_from(out, args.format)
            if fmt == "png":
                fmt_from(Path("x"), "results-png")
            path = export_results(
                sdb, season, _episode_id(sdb, sid, args.episode), out, fmt, quiet=args.quiet
            )
            print(f"比赛结果已导出 exported: {path}")
        elif args.what == "records":
            files = export_records(sdb, season, _episode_id(sdb, sid, args.episode), out, quiet=args.quiet)
            print(f"牌谱已导出 exported: {len(files)} 局 records → {out}/ (index.csv)")
        elif args.what == "all":
            eid = _episode_id(sdb, sid, args.episode)
            tag = f"第{args.episode:02d}期" if args.episode else season["name"]
            out.mkdir(parents=True, exist_ok=True)
            done = []
            for kind in ("players", "teams"):
                spec = args.spec if kind == args.kind else None
                stem = f"英雄榜_{'选手' if kind == 'players' else '队伍'}_{tag}"
                for fmt in ("csv", "xlsx", "json"):
                    with closing(stream_ranking(sdb.conn, sid, kind, spec=spec)) as stream:
                        done.append(
                            export_ranking(stream, season, out / f"{stem}.{fmt}", fmt, quiet=args.quiet)
                        )
                top = compute(sdb.conn, sid, kind, spec=spec, top=args.top)
                done.append(_png(sdb, season, top, out / f"{stem}.png", args))
            for fmt in ("csv", "xlsx", "json"):
                done.append(
                    export_results(sdb, season, eid, out / f"比赛结果_{tag}.{fmt}", fmt, quiet=args.quiet)
                )
            recs = export_records(sdb, season, eid, out / f"牌谱_{tag}", quiet=args.quiet)
            for p in done:
                print(p)
            print(f"{out / f'牌谱_{tag}'}/ ({len(recs)} 局 records)")
    return 0
