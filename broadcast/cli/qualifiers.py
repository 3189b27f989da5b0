"""``python -m broadcast qualifiers …``: the online qualifiers (网络海选), docs/qualifiers.md.

qualifiers import SOURCE… [--db FILE] [--scheduler tcp://HOST:8786] [--workers N] [--rules tv_match]
qualifiers board [--top N] [--json] [--spec "points desc, firsts desc, lasts asc, name"]
qualifiers refusals [--limit N] [--csv FILE]
qualifiers invite --top N [--season S] [--rename ID=姓名 …]
qualifiers export --out 海选榜.xlsx|csv [--top N]
qualifiers set [--spec S] [--title T]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broadcast.core.db import DatabaseError, add_db_argument, describe, not_a_file
from broadcast.core.db import chosen as chosen_db
from broadcast.core.files import WriteFailed, atomic_path, describe_os_error
from broadcast.qualifiers import board as board_mod
from broadcast.qualifiers.check import Refused
from broadcast.qualifiers.export import export_board
from broadcast.qualifiers.invite import invite
from broadcast.qualifiers.records import SourceError
from broadcast.qualifiers.run import BATCH, CHECKPOINT_SECONDS, Bar, Importer, Summary, dask_client
from broadcast.qualifiers.store import QualifierDB, QualifierError
from broadcast.season.backend import add_season_db_argument, is_url, season_target
from broadcast.season.export import ExportError
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.rankings import SpecError

USER_ERRORS = (QualifierError, SourceError, SeasonError, SpecError, ExportError, DatabaseError, WriteFailed)
RULES = ("tv_match", "dagang")
_JSONL_AT = re.compile(r":\d+$")


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="SUBCOMMAND")

    p = sub.add_parser("import", help="导入海选记录并用规则引擎复核 / import and re-check qualifier records")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="GJN 文件、目录、zip/tar、JSON lines")
    p.add_argument("--scheduler", help="Dask 调度器 / a running cluster's scheduler, tcp://HOST:8786")
    p.add_argument(
        "--workers", type=int, default=2, help="本机 LocalCluster 的进程数 / local worker processes (2)"
    )
    p.add_argument(
        "--shared-files",
        action="store_true",
        help="集群的工作进程以同一路径读到来源文件，各自读取自己那一段 / the cluster's workers see the "
        "sources at the same paths and read their shards themselves (always so without --scheduler)",
    )
    p.add_argument("--rules", choices=RULES, help="计分规则（首次导入时确定，默认 tv_match）/ the preset")
    p.add_argument("--batch", type=int, default=BATCH, help=f"每个任务的记录数 / records per task ({BATCH})")
    p.add_argument(
        "--checkpoint",
        type=float,
        default=CHECKPOINT_SECONDS,
        help=f"每隔几秒提交一次（0 = 每批）/ seconds between commits ({CHECKPOINT_SECONDS:g}; 0: each batch)",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="进度条 / bar")
    p.set_defaults(handler=_import)

    p = sub.add_parser("board", help="海选榜 / print the qualifier board")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--spec", help=f"排名规则 / ranking key (default: {board_mod.DEFAULT_SPEC})")
    p.add_argument(
        "--json",
        action="store_true",
        help="输出 JSON：名次、昵称、局数、积分 … / JSON: rows with rank, name, games, points …",
    )
    p.set_defaults(handler=_board)

    p = sub.add_parser("refusals", help="被拒绝的记录及原因 / the refused records and why")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--csv", help="全部写入 CSV 文件 / write them all to a CSV file")
    p.set_defaults(handler=_refusals)

    p = sub.add_parser("invite", help="把前 N 名加入赛季选手 / invite the top N into the season")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--top", type=int, required=True)
    p.add_argument("--season", help="赛季名称或编号（默认最新）/ season (default: the latest)")
    p.add_argument("--spec", help="排名规则 / ranking key")
    p.add_argument(
        "--rename", action="append", default=[], metavar="ID=姓名", help="上节目用的姓名 / on-air name"
    )
    p.set_defaults(handler=_invite)

    p = sub.add_parser("export", help="导出海选榜 CSV/XLSX / export the board")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--out", required=True)
    p.add_argument("--top", type=int)
    p.add_argument("--spec")
    p.set_defaults(handler=_export)

    p = sub.add_parser(
        "push", help="把海选榜送上节目状态（图形 qualifiers）/ put the board into the show state"
    )
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--top", type=int, default=10, help="上屏行数（最多 10）/ rows on air (at most 10)")
    p.add_argument("--spec", help="排名规则 / ranking key")
    p.set_defaults(handler=_push)

    p = sub.add_parser("set", help="海选榜设置 / the board's settings")
    add_db_argument(p)
    add_season_db_argument(p)
    p.add_argument("--spec", help="排名规则 / ranking key")
    p.add_argument("--title", help="海选名称 / the qualifiers' title")
    p.set_defaults(handler=_set)


def fail(lines: list[str] | str) -> int:
    for line in [lines] if isinstance(lines, str) else lines:
        print(line, file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    args.db = str(chosen_db(args.db))
    args.target = season_target(args.season_db, args.db)  # where the qualifier tables live
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except USER_ERRORS as e:
        return fail(f"错误 error: {e}")
    except BrokenPipeError:  # the reader went away (| head)
        return 0
    except OSError as e:
        return fail(f"错误 error: {describe_os_error(e.filename or '', e)}")
    except sqlite3.Error as e:
        return fail(f"错误 error: {describe(e, args.db)}")


def _open(args: argparse.Namespace, *, must_exist: bool = True) -> QualifierDB:
    if must_exist and not is_url(args.target) and not Path(args.target).is_file():
        raise QualifierError(
            "db",
            *(
                not_a_file(args.target)
                or (
                    "数据库文件不存在：先用 qualifiers import 导入海选记录",
                    "no such database: import qualifier records first (qualifiers import)",
                )
            ),
            where=args.target,
        )
    return QualifierDB.open(args.target)


def refusal_line(r: Any) -> str:
    where, rule, zh, en, move, line, seat = (
        (r.where, r.rule, r.zh, r.en, r.move, r.line, r.seat) if isinstance(r, Refused) else tuple(r)
    )
    at = str(where)
    if line:  # a GJN file's line; inside a JSON line, the record's own line
        at = f"{at}（牌谱第{line}行 record line {line}）" if _JSONL_AT.search(at) else f"{at}:{line}"
    parts = []
    if move:
        parts.append(f"第{move}步 move {move}")
    if seat:
        parts.append(f"{seat}号 seat {seat}")
    head = f"{', '.join(parts)}: " if parts else ""
    body = zh if zh == en else f"{zh} / {en}"
    return f"{at}: {head}[{rule}] {body}"


def _import(args: argparse.Namespace) -> int:
    if args.workers < 1:
        return fail("错误 error: --workers 至少为 1 / --workers must be at least 1")
    if args.batch < 1:
        return fail("错误 error: --batch 至少为 1 / --batch must be at least 1")
    paths = [Path(s) for s in args.sources]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        return fail([f"{m}: 错误 error: 找不到这个文件或目录 / no such file or folder" for m in missing])
    with _open(args, must_exist=False) as qdb:
        qdb.import_lock()
        rules = qdb.setting("rules")
        if rules and args.rules and args.rules != rules:
            raise QualifierError(
                "rules",
                f"这个数据库的海选按 {rules} 计分，不能再导入 {args.rules} 的牌局",
                f"the qualifiers in this database score {rules}: cannot import {args.rules} games",
                where=qdb.path,
            )
        if not rules:
            rules = args.rules or "tv_match"
            qdb.set_setting("rules", rules)
        with dask_client(args.scheduler, args.workers) as client:
            imp = Importer(
                qdb,
                client,
                rules=rules,
                batch=args.batch,
                checkpoint=args.checkpoint,
                shared_files=not args.scheduler or args.shared_files,
            )
            if args.progress is not None:
                imp.make_bar = lambda meter: Bar(meter, enabled=bool(args.progress))
            try:
                s = imp.run(paths)
            except KeyboardInterrupt:
                done = imp.summary
                print(
                    f"已中断 interrupted: 已保存 kept {done.counted:,} 计入 counted, {done.refused:,} 拒绝 "
                    "refused；再运行同一命令从这里继续 / run the same command again to go on from here",
                    file=sys.stderr,
                )
                return 130
        _summary(s, qdb)
    for e in s.errors:
        print(f"错误 error: {e}", file=sys.stderr)
    return 2 if s.errors else 0


def _summary(s: Summary, qdb: QualifierDB) -> None:
    print(
        f"读取 read {s.read:,} 条记录 records: 计入 counted {s.counted:,}, 拒绝 refused {s.refused:,}, "
        f"已导入过 already imported {s.skipped:,}"
    )
    print(f"用时 {s.seconds:.1f} s, {s.rate:,.0f} 条/秒 records/s, {s.workers} 个工作进程 workers")
    counts = qdb.refusal_counts()
    if counts:
        print(
            "拒绝原因（全部导入）refusals by rule (all imports): "
            + ", ".join(f"{r} {n:,}" for r, n in counts)
        )
    for r in s.refused_rows:
        print("  " + refusal_line(r))
    if s.refused > len(s.refused_rows):
        print(
            f"  … 另有 {s.refused - len(s.refused_rows):,} 条 more: python -m broadcast qualifiers refusals"
        )
    t = qdb.totals()
    print(f"海选榜 board: {t['players']:,} 位选手 players, {t['records']:,} 局 games counted")


def _board(args: argparse.Namespace) -> int:
    with _open(args) as qdb:
        spec = board_mod.spec_of(qdb, args.spec)
        rows = list(board_mod.ranked(qdb, spec, max(args.top, 0)))[: max(args.top, 0)]
        if args.json:
            print(json.dumps([r.as_dict() for r in rows], ensure_ascii=False))
            return 0
        t = qdb.totals()
        title = qdb.setting("title") or "网络海选"
        print(
            f"{title} 海选榜 · {t['players']:,} 位选手 players · {t['records']:,} 局 games · 排名规则 {spec}"
        )
        head = ("名次", "昵称 name", "平台编号 id", "局数", "积分", "头科", "头科率", "圈三")
        print("{:<6}{:<18}{:<18}{:>6}{:>8}{:>6}{:>8}{:>6}".format(*head))
        for r in rows:
            print(
                f"{r.rank_label:<6}{r.name:<18}{r.platform_id:<18}{r.games:>6}{r.points:>8}{r.firsts:>6}"
                f"{r.first_rate * 100:>7.1f}%{r.quan_san:>6}"
            )
    return 0


def _refusals(args: argparse.Namespace) -> int:
    with _open(args) as qdb:
        if args.csv:
            n = 0
            with atomic_path(args.csv) as tmp, tmp.open("w", encoding="utf-8-sig", newline="") as f:
                w = csv.writer(f)
                w.writerow(["文件 file", "规则 rule", "步 move", "行 line", "座位 seat", "中文", "English"])
                for where, rule, zh, en, move, line, seat in qdb.refusals():
                    w.writerow([where, rule, move or "", line or "", seat or "", zh, en])
                    n += 1
            print(f"{n:,} 条拒绝记录写入 refusals written to {args.csv}")
            return 0
        counts = qdb.refusal_counts()
        total = sum(n for _, n in counts)
        print(f"拒绝 refused {total:,}: " + (", ".join(f"{r} {n:,}" for r, n in counts) or "—"))
        for row in qdb.refusals(max(args.limit, 0)):
            print("  " + refusal_line(row))
    return 0


def _invite(args: argparse.Namespace) -> int:
    renames: dict[str, str] = {}
    for item in args.rename:
        pid, sep, name = item.partition("=")
        if not sep or not pid.strip() or not name.strip():
            return fail(f"错误 error: --rename 应写成 平台编号=姓名 / --rename takes ID=NAME, got {item!r}")
        renames[pid.strip()] = name.strip()
    with _open(args) as qdb, SeasonDB.open(args.target) as sdb:
        if not sdb.seasons():
            raise QualifierError(
                "invite",
                "数据库里还没有赛季：先用 season create 建立赛季",
                "no season in the database yet: create one with season create",
                where=qdb.path,
            )
        done = invite(qdb, sdb, args.top, season=args.season, spec=args.spec, renames=renames)
    print(
        f"赛季 season {done.season}: 新加入 invited {len(done.added)} 位选手 players, "
        f"已在赛季 already {len(done.already)}"
    )
    for r in done.added:
        print(f"  + {r.rank_label:<6}{r.name}（{r.platform_id}，{r.points} 分 points，{r.games} 局 games）")
    for r in done.already:
        print(f"  = {r.rank_label:<6}{r.name}（{r.platform_id}）已在赛季 already in the season")
    if done.tied_out:
        ids = ", ".join(r.platform_id for r in done.tied_out)
        print(f"注意 note: 与第 {args.top} 名并列而未邀请 tied with the last invited, not invited: {ids}")
    print("下一步 next: 在制片工作台组队 / form the teams in the producer's workspace")
    return 0


def _export(args: argparse.Namespace) -> int:
    with _open(args) as qdb:
        n = export_board(qdb, Path(args.out), spec=args.spec, top=args.top)
    print(f"海选榜 {n:,} 行写入 rows written to {args.out}")
    return 0


def _push(args: argparse.Namespace) -> int:
    from broadcast.qualifiers.actions import board_payload
    from broadcast.studio import open_store

    if not 1 <= args.top <= 10:
        return fail("错误 error: --top 应为 1–10（上屏最多 10 行）/ --top must be 1–10 (ten rows on air)")
    with _open(args) as qdb:
        payload = board_payload(qdb, top=args.top, spec=args.spec)
    with open_store(args.db) as store:
        change = store.dispatch("qualifiers.set", payload)
    print(
        f"海选榜已送出 qualifiers.set #{change.seq}: {len(payload['rows'])} 行 rows "
        "（图形 graphic: qualifiers）"
    )
    return 0


def _set(args: argparse.Namespace) -> int:
    with _open(args, must_exist=False) as qdb:
        if args.spec is not None:
            qdb.set_setting("ranking", board_mod.spec_of(qdb, args.spec))
        if args.title is not None:
            qdb.set_setting("title", args.title.strip())
        print(f"排名规则 ranking: {board_mod.spec_of(qdb)}; 名称 title: {qdb.setting('title') or '网络海选'}")
    return 0
