"""``python -m broadcast preflight [--db F]``: the pre-show check from the command line.

    python -m broadcast preflight --db studio.sqlite [--placements F] [--air-date D] [--obs ws://HOST:PORT]
                                  [--obs-settings F] [--no-obs] [--json] [--lang en]

Prints each line of :mod:`broadcast.preflight` green ✔ or red ✘ with what to do (Chinese, or English with
``--lang en``); ``--json`` prints them as a JSON list. Exit 0 when every line is green (amber lines are
advice), 1 when any is red, 2 on bad input (a missing or damaged database, a bad date or address: one
line naming it). The database is opened read-only: the check changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any
from urllib.parse import urlsplit

from broadcast.core.db import add_db_argument, not_a_file
from broadcast.core.db import chosen as chosen_db


def register(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)
    parser.add_argument(
        "--placements",
        default=None,
        help="赞助排期 YAML（默认：项目自己的，没有则用演示排期）/ placements (default: the project's file, "
        "else the demo set)",
    )
    parser.add_argument(
        "--air-date", default=None, help="本期播出日期 YYYY-MM-DD（默认取节目状态）/ air date"
    )
    parser.add_argument("--obs", default=None, metavar="ws://HOST:PORT", help="OBS 地址 / OBS address")
    parser.add_argument("--obs-settings", default=None, help="OBS 设置文件 / OBS settings file (YAML)")
    parser.add_argument(
        "--no-obs", action="store_true", help="不连接 OBS（该行为红）/ do not connect (a red line)"
    )
    parser.add_argument("--json", action="store_true", help="以 JSON 输出 / print JSON")
    parser.add_argument("--lang", choices=("zh_CN", "en"), default="zh_CN", help="语言 / language")


def _fail(text: str) -> int:
    print(f"错误 error: {text}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    from datetime import date

    from broadcast import preflight as P
    from broadcast import project
    from broadcast.core.db import DatabaseError
    from broadcast.obs.settings import ObsSettings, SettingsError
    from broadcast.studio import open_store

    db = chosen_db(args.db, stream=sys.stderr)
    if not db.is_file():
        zh, en = not_a_file(db) or ("没有这个数据库文件", "no such database file")
        return _fail(f"{db}: {zh} / {en}")
    given: date | None = None
    if args.air_date:
        try:
            given = date.fromisoformat(args.air_date)
        except ValueError:
            return _fail(f"--air-date {args.air_date!r}: 应写成 YYYY-MM-DD / must be YYYY-MM-DD")
    try:
        settings = ObsSettings.load(args.obs_settings)
        if args.obs:
            u = urlsplit(args.obs)
            if u.scheme not in ("ws", "wss") or not u.hostname:
                return _fail(f"--obs {args.obs!r}: 应写成 ws://主机:端口 / must be ws://HOST:PORT")
            settings = settings.with_(host=u.hostname, port=u.port or settings.port)
    except (SettingsError, ValueError) as exc:
        return _fail(f"{args.obs_settings or args.obs}: {exc}")
    try:
        store = open_store(db, readonly=True)
    except DatabaseError as exc:
        return _fail(str(exc))
    try:
        state = store.state
    finally:
        store.close()
    placements = args.placements or str(project.default_placements(db))
    air = given or P.air_date_of(state) or P.season_air_date(db, state)
    lines = P.run(
        state,
        db=db,
        placements=placements,
        air_date=air,
        obs=None if args.no_obs else (lambda: _obs_lines(settings, state, placements, air)),
        proof_width=settings.proof_width,
    )
    if args.json:
        print(json.dumps([ln.to_json() for ln in lines], ensure_ascii=False, indent=1))
    else:
        for ln in lines:
            print(f"{P.MARK[ln.status]} {ln.text(args.lang)}")
        zh, en = P.summary(lines)
        print(en if args.lang == "en" else zh)
    return 1 if P.red(lines) else 0


def _obs_lines(settings: Any, state: dict[str, Any], placements: str, air: Any) -> list[Any]:
    """Connect, build the layout the bridge would provision (the films of the placements), compare."""
    from broadcast import preflight as P
    from broadcast.obs import layout as L
    from broadcast.obs.client import ObsClient
    from broadcast.obs.errors import ObsError
    from broadcast.obs.provision import has_browser_source, input_kinds
    from broadcast.sponsors.placements import PlacementError, load_placements

    films = settings.film_paths()
    try:
        p = load_placements(placements, air_date=air)
        films.update({fid: f.asset.path for fid, f in p.films.items()})
    except PlacementError:
        pass  # its lines say why; OBS is compared without the placements' films
    where = f"{settings.host}:{settings.port}"
    c = ObsClient(settings)
    try:
        c.connect()
    except ObsError as exc:
        return [P.obs_down(exc.zh, exc.en, where)]
    try:
        lay = L.build_layout(
            state,
            browser=has_browser_source(input_kinds(c)),
            font=settings.font,
            assets_dir=settings.assets_dir,
            films=films,
            width=settings.width,
            height=settings.height,
            camera_kind=settings.camera_kind,
            camera_settings=settings.camera_settings,
        )
        return P.check_obs(c, lay, where)
    except ObsError as exc:
        return [P.obs_down(exc.zh, exc.en, where)]
    finally:
        c.close()
