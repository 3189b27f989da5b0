"""``python -m broadcast import ROSTER.csv|xlsx [--season S] [--sheet NAME] [--dry-run]``: import rosters.

Photos named in the file are checked (real PNG/JPEG/WebP pictures) and copied into the project's photo
folder beside the database (``studio-assets/photos/``), which the overlay server serves at
``/assets/photos/`` for the lower thirds. All or nothing: every bad row is reported as
``file:row N: …`` and nothing of the file is imported (exit status 2). Headers: 姓名 (required), 队伍,
编号, 性别, 电话, 照片, 籍贯, 队伍冠名, 备注 (aliases in docs/season.md).
"""

from __future__ import annotations

import argparse

from broadcast.cli.tools import add_db, db_must_exist, run
from broadcast.project import roster_photos
from broadcast.season.importer import import_file
from broadcast.season.model import SeasonDB

TEAMS_SHOWN = 10  # the new teams named in the summary line (then how many in all)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="选手名单 CSV 或 XLSX / roster files (CSV or XLSX)")
    add_db(parser)
    parser.add_argument("--sheet", default=None, help="XLSX 工作表名（默认第一张）/ worksheet name")
    parser.add_argument("--dry-run", action="store_true", help="只检查不导入 / check only")


def main(args: argparse.Namespace) -> int:
    return run(_main, args)


def _main(args: argparse.Namespace) -> int:
    db_must_exist(args.season_db)
    with SeasonDB.open(args.season_db) as sdb:
        season = sdb.season(args.season)
        for f in args.files:
            rep = import_file(
                sdb,
                int(season["id"]),
                f,
                sheet=args.sheet,
                dry_run=args.dry_run,
                photos=roster_photos(args.db),
            )
            verb = "检查通过（未导入）checked, not imported" if args.dry_run else "已导入 imported"
            line = f"{f}: {verb} — 新增 {rep.added} 名, 更新 {rep.updated} 名选手 into {season['name']}"
            if rep.teams_created:
                shown = "、".join(rep.teams_created[:TEAMS_SHOWN])
                more = len(rep.teams_created) - TEAMS_SHOWN
                if more > 0:  # a 100,000-row roster may bring hundreds: the line stays a line
                    shown += f"…（共 {len(rep.teams_created)} 支 / {len(rep.teams_created)} in all）"
                line += f"; 新队伍 new teams: {shown}"
            print(line)
            if rep.ignored_columns:
                print(f"{f}: 未识别的列已忽略 ignored columns: {'、'.join(rep.ignored_columns)}")
    return 0
