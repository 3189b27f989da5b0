"""``python -m broadcast sponsors …``: check a placements file, print its rundown, load it, rehearse.

    python -m broadcast sponsors check sponsor_assets/demo/placements.yaml --air-date 2012-05-07
    python -m broadcast sponsors rundown sponsor_assets/demo/placements.yaml --episode 第1期 [--json] \
        [--lang en]
    python -m broadcast sponsors load sponsor_assets/demo/placements.yaml --db studio.sqlite
    python -m broadcast sponsors rehearse sponsor_assets/demo/placements.yaml --db demo.sqlite \
        --episode 第1期 --air-date 2012-05-07 [--faults]

Bad input: every error on its own line as file:line:column, exit status 2, nothing loaded.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from broadcast.core.db import add_db_argument
from broadcast.core.db import chosen as chosen_db
from broadcast.errors import count
from broadcast.sponsors.placements import (
    KIND_LABELS,
    PlacementError,
    Placements,
    iter_assets,
    load_placements,
    parse_air_date,
    to_state,
)
from broadcast.sponsors.rundown import _pad


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="检查排期文件 / validate a placements file")
    c.add_argument("file")
    c.add_argument(
        "--air-date",
        help="本期播出日期 YYYY-MM-DD：检查合同是否覆盖 / air date: are the contracts in force on it",
    )
    r = sub.add_parser("rundown", help="打印节目流程 / print the episode rundown")
    r.add_argument("file")
    r.add_argument("--episode", default="")
    r.add_argument("--air-date")
    r.add_argument(
        "--contestants",
        help="选手名单，逗号分隔（默认 选手1…）/ the contestants, comma-separated (default: numbered)",
    )
    r.add_argument(
        "--json",
        action="store_true",
        help="输出 JSON（给导播台和 OBS 桥）/ print JSON (for the console and the OBS bridge)",
    )
    r.add_argument(
        "--lang", choices=("zh_CN", "en"), default="zh_CN", help="表格的语言 / the table's language"
    )
    ld = sub.add_parser("load", help="把排期加载进演播室数据库 / load into the studio state")
    ld.add_argument("file")
    add_db_argument(ld)
    ld.add_argument("--air-date")
    rh = sub.add_parser(
        "rehearse", help="按节目流程彩排一期，写入播出记录 / rehearse an episode into the as-run log"
    )
    rh.add_argument("file")
    rh.add_argument("--db", required=True, help="新的数据库文件（彩排不写进正式记录）/ a new database file")
    rh.add_argument("--episode", required=True)
    rh.add_argument("--air-date", required=True)
    rh.add_argument(
        "--faults",
        action="store_true",
        help="演示未达标：口播不足、桌面出镜不足、中插被切 / "
        "show shortfalls: too few mentions, too few table shots, a break cut",
    )


def _load(file: str, air_date: str | None) -> Placements | None:
    day: date | None = None
    if air_date:
        day = parse_air_date(air_date)
        if day is None:
            print(
                f"--air-date {air_date!r}: 日期应写成 YYYY-MM-DD（如 2012-05-07）/ "
                "a date is written YYYY-MM-DD (e.g. 2012-05-07)",
                file=sys.stderr,
            )
            return None
    try:
        return load_placements(file, air_date=day)
    except PlacementError as exc:
        for issue in exc.issues:
            print(str(issue), file=sys.stderr)
        n = len(exc.errors)
        print(f"{file}: {n} 处错误，排期未加载 / {count(n, 'error')}, nothing loaded", file=sys.stderr)
        return None


def main(args: argparse.Namespace) -> int:
    p = _load(args.file, getattr(args, "air_date", None))
    if p is None:
        return 2
    if args.cmd == "check":
        return _check(p)
    if args.cmd == "rundown":
        from broadcast.sponsors.rundown import build_rundown, format_table, to_json_text

        names = [n.strip() for n in args.contestants.split(",")] if args.contestants else None
        rd = build_rundown(p, episode=args.episode, contestants=names)
        print(to_json_text(rd) if args.json else format_table(rd, lang="en" if args.lang == "en" else "zh"))
        return 0
    if args.cmd == "load":
        from broadcast.studio import open_store

        args.db = str(chosen_db(args.db))
        with open_store(args.db) as store:
            change = store.dispatch("sponsors.load", to_state(p), source="sponsors-cli")
        print(
            f"已加载到 {args.db}（操作 #{change.seq}）：{len(p.sponsors)} 家赞助商，"
            f"九宫格 {len(p.cells)} 格 / "
            f"loaded: {count(len(p.sponsors), 'sponsor')}, {count(len(p.cells), 'prize-grid cell')}"
        )
        return 0
    if args.cmd == "rehearse":
        from broadcast.clock import ScriptClock, air_start
        from broadcast.sponsors.asrun import AsRunLog
        from broadcast.sponsors.simulate import rehearse
        from broadcast.studio import open_store

        if Path(args.db).exists():
            print(
                f"{args.db}: 文件已存在；彩排请用新的数据库文件（避免与正式记录混在一起）/ "
                "the file exists: a rehearsal takes a new database file (kept apart from the show's records)",
                file=sys.stderr,
            )
            return 2
        clock = ScriptClock(air_start(args.air_date))
        with open_store(args.db, clock=clock) as store:
            log = AsRunLog.open(args.db)
            try:
                rehearse(
                    store, log, p, clock, episode=args.episode, air_date=args.air_date, faults=args.faults
                )
            finally:
                log.close()
        print(
            f"彩排完成：{args.episode} 的播出记录已写入 {args.db}\n"
            f"生成报告：python -m broadcast report {args.episode} --db {args.db}"
        )
        return 0
    return 2


def _check(p: Placements) -> int:
    for w in p.warnings:
        print(str(w))
    kinds: dict[str, int] = {}
    for s in p.slots:
        kinds[s.kind] = kinds.get(s.kind, 0) + 1
    assets = list(iter_assets(p))
    images = {a.path for _, a in assets if a.kind == "image"}
    films = {a.path for _, a in assets if a.kind == "video"}
    print(
        f"✓ {p.file}：排期有效 / placements OK"
        + (f"（合同均覆盖 {p.air_date}）" if p.air_date else "（未检查合同日期：加 --air-date）")
    )
    print(
        f"  赞助商 {len(p.sponsors)} 家；广告位 {len(p.slots)} 个；"
        f"logo {len(images)} 个、宣传片 {len(films)} 条已核对"
    )
    for kind, label in KIND_LABELS.items():
        slots = p.of_kind(kind)
        if not slots:
            continue
        who = "、".join(dict.fromkeys(p.sponsor_name(s.sponsor) for s in slots))
        print(f"  {_pad(label, 18)} {len(slots):>2}  {who}")
    sup = p.supporters
    if sup:
        order = " → ".join(
            f"{p.sponsor_name(s.sponsor)}（{s.contract.signed:%Y-%m-%d}）"
            for s in sup
            if s.contract and s.contract.signed
        )
        print(f"  赞助播出顺序（按签约）/ sponsors in contract order: {order}")
    return 0
