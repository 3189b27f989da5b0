"""``python -m engine winprob FILE [--json] [--playouts N] [--workers N]``: the 胜率 of a (partial)
GJN record — each team's probability of scoring more points than the other (a level game counts for
neither), each team's expected points, each seat's expected title and points, every figure with its
95 % interval. Bad input: one line ``file:line: what``, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, NoReturn

from . import gjn
from .english import count
from .errors import GJNError, IllegalAction
from .game import Game
from .preset import PresetError
from .seats import SEATS
from .winprob import WinprobError, evaluate, finished
from .words import team_name

MAX_PLAYOUTS = 1_000_000


def _fail(msg: str) -> NoReturn:
    print(msg, file=sys.stderr)
    raise SystemExit(2)


def read_record(path: str) -> gjn.Record:
    """The record of ``path`` (read by the engine's record reader, with its size limit), or one line and
    exit 2."""
    try:
        return gjn.parse(gjn.read(path), path)
    except GJNError as e:
        _fail(str(e))


def position(path: str, rec: gjn.Record) -> Game:
    """The record replayed, or one line naming the move's line and clause, and exit 2."""
    try:
        return gjn.replay(rec)
    except GJNError as e:
        _fail(str(e))
    except IllegalAction as e:
        _fail(f"{path}:{e.line}: move {e.move}, seat {e.seat}, {e.rule}: {e.en} / {e.zh}")
    except (PresetError, ValueError) as e:
        _fail(f"{path}:1: {e}")


def _pct(p: float) -> str:
    return f"{100 * p:5.1f} %"


def format_estimate(path: str, rules: str, est: dict[str, Any]) -> str:
    """The estimate for a person: 中文 and English on each line."""
    hands = {
        "known": "known hands / 手牌已知",
        "sampled": "hands sampled / 手牌抽样",
        "over": "game over / 已结束",
    }
    lines = [
        f"{path}: 胜率 estimate / win probability ({rules}, "
        f"{count(est['playouts'], 'play-out')} / {est['playouts']} 次推演, "
        f"{hands[est['hands']]}, {est['seconds']:.2f} s)"
    ]
    ci = est.get("ci")
    for team in ("odd", "even"):
        w = est["win"][team]
        p = est["points"][team]
        if ci:
            lo, hi = ci["win"][team]
            plo, phi = ci["points"][team]
            lines.append(
                f"  {team_name(team)} {team:4}  {_pct(w)} ({100 * lo:.1f}–{100 * hi:.1f})   "
                f"points / 得分 {p:.1f} ({plo:.1f}–{phi:.1f})"
            )
        else:
            lines.append(f"  {team_name(team)} {team:4}  {_pct(w)}   points / 得分 {p:.0f}")
    lines.append(f"  level / 平局      {_pct(est['level'])}")
    for s in SEATS:
        st = est["seats"][str(s)]
        if ci:
            lo, hi = ci["seats"][str(s)]["points"]
            lines.append(
                f"  seat {s} / {s}号: most likely / 最可能 {st['title']}, place / 名次 {st['place']:.2f}, "
                f"points / 得分 {st['points']:.2f} ({lo:.2f}–{hi:.2f})"
            )
        else:
            lines.append(f"  seat {s} / {s}号: {st['title']}")
    return "\n".join(lines)


def cmd_winprob(args: argparse.Namespace) -> int:
    if not 1 <= args.playouts <= MAX_PLAYOUTS:
        _fail(f"{args.file}:0: --playouts must be 1..{MAX_PLAYOUTS}, got {args.playouts}")
    if not 1 <= args.workers <= 64:
        _fail(f"{args.file}:0: --workers must be 1..64, got {args.workers}")
    t0 = time.perf_counter()
    rec = read_record(args.file)
    g = position(args.file, rec)
    try:
        if g.is_over():
            est = finished(g, time.perf_counter() - t0)
        elif args.workers == 1:
            est = evaluate(g, args.playouts)
        else:
            from .winprob_pool import Pool

            with Pool(args.workers) as pool:
                got = pool.evaluate(g, args.playouts)
            assert got is not None
            est = got
    except WinprobError as e:
        _fail(f"{args.file}:{rec.last_line}: {e}")
    if args.json:
        print(json.dumps(est, ensure_ascii=False))
    else:
        print(format_estimate(args.file, rec.rules, est))
    return 0


def add_parser(sub: Any) -> None:
    """The ``winprob`` sub-command (engine/cli.py's table)."""
    w = sub.add_parser(
        "winprob",
        help=(
            "按推演估算两队的胜率（可为未完的牌谱）/ "
            "each team's probability of winning a (partial) record, by play-outs"
        ),
    )
    w.add_argument("file")
    w.add_argument(
        "--json", action="store_true", help="以一个 JSON 对象输出估算 / print the estimate as one JSON object"
    )
    w.add_argument(
        "--playouts", type=int, default=1000, help="推演次数（默认 1000）/ play-outs (default 1000)"
    )
    w.add_argument(
        "--workers",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="工作进程数（默认 2，单核时 1）/ worker processes (default: 2, or 1 on a single core)",
    )
    w.set_defaults(func=cmd_winprob)


__all__ = ["add_parser", "cmd_winprob", "format_estimate"]
