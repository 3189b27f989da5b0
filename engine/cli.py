"""``python -m engine check|selfplay|demo|winprob``. Bad input: one line ``file:line: what``, exit 2."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import gjn, native, winprob_cli
from .deal import new_game
from .english import argparse_both, count
from .errors import GJNError
from .game import Game, GameResult
from .preset import PresetError
from .seats import SEATS, TITLE_EN, TITLES
from .words import EVENT_NAMES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: 错误 error: {argparse_both(message)}", file=sys.stderr)
        raise SystemExit(2)


def _fail(msg: str) -> NoReturn:
    print(msg, file=sys.stderr)
    raise SystemExit(2)


def _read(path: str) -> str:
    try:
        return gjn.read(path)
    except GJNError as e:
        _fail(str(e))


def format_result(r: GameResult) -> str:
    if r.void:
        return "void game / 流局 (G10.5: two or more revolutions / 两家以上革命)"
    lines = []
    for i, s in enumerate(r.finish_order):
        lines.append(f"  {TITLE_EN[i]} / {TITLES[i]}: seat {s} / {s}号")
    if r.quan_san:
        losers = [s for s in SEATS if r.titles.get(s) == "圈三"]
        lines.append(
            f"  shut out / 圈三: seats {', '.join(map(str, losers))} / {'、'.join(map(str, losers))}号"
        )
    lines.append(f"  points / 得分: odd {r.team_points['odd']}, even {r.team_points['even']}")
    lines.append(f"  opened / 开点: {', '.join(map(str, r.opened)) or '-'}")
    return "\n".join(lines)


def _events(g: Game) -> str:
    out = []
    for mv, ev, seat in g.events():
        if ev in ("finish", "jie_feng", "open"):
            continue
        zh, en = EVENT_NAMES.get(ev, (ev, ev))
        out.append(f"  move {mv}: {en} / {zh}" + (f" (seat {seat} / {seat}号)" if seat else ""))
    return "\n".join(out)


def cmd_check(args: argparse.Namespace) -> int:
    text = _read(args.file)
    try:
        rec = gjn.parse(text, args.file)
        obj = gjn.check_record(rec, partial=args.partial)
    except GJNError as ge:
        _fail(str(ge))
    if args.json:
        print(json.dumps(obj, ensure_ascii=False))
        return 0 if obj["ok"] else 1
    if not obj["ok"]:
        e = obj["error"]
        en, _, zh = str(e["message"]).partition(" / ")
        what = "INCOMPLETE / 未完" if str(e["message"]).startswith("the record ends") else "ILLEGAL / 违规"
        print(
            f"{args.file}: {what} at move {e['move']} (line {e['line']}), seat {e['seat']}, rule {e['rule']}"
        )
        print(f"  English: move {e['move']}, seat {e['seat']}, rule {e['rule']}: {en}")
        print(f"  中文: 第{e['move']}步（第{e['line']}行），{e['seat']}号，{e['rule']}：{zh}")
        return 1
    g = gjn.replay(rec)
    if args.partial and not g.is_over():
        print(format_standing(args.file, rec.rules, obj))
        return 0
    print(f"{args.file}: legal / 合规 ({rec.rules}, {count(len(rec.moves), 'move')})")
    print(format_result(g.result()))
    ev = _events(g)
    if ev:
        print(ev)
    return 0


_OPTION_ZH = {"play": "出牌", "pass": "过牌", "yield": "让牌", "revolt": "革命"}


def format_standing(path: str, rules: str, st: dict[str, Any]) -> str:
    """The referee's mid-game report of ``check --partial`` (a game still under way)."""
    seat = st["to_act"]
    opts = st["options"]
    opts_zh = "、".join(_OPTION_ZH[o] for o in opts)
    lines = [
        f"{path}: legal so far / 至今合规 ({rules}, {count(st['moves'], 'move')}, "
        "game under way / 对局进行中)",
        f"  to act / 应由: seat {seat} ({', '.join(opts)}) / {seat}号（{opts_zh}）",
    ]
    if st["burns"]:
        seats = ", ".join(map(str, st["burns"]))
        lines.append(f"  may burn / 可烧牌: seats {seats} / {'、'.join(map(str, st['burns']))}号")
    top = st["top"]
    if top:
        lines.append(f"  top play / 台面: seat {top['seat']} {top['play']} / {top['seat']}号 {top['play']}")
    titles = st["titles"]
    if titles:
        order = sorted(titles, key=lambda s: TITLES.index(titles[s]))
        en = ", ".join(f"{TITLE_EN[TITLES.index(titles[s])]} seat {s}" for s in order)
        zh = "，".join(f"{titles[s]}{s}号" for s in order)
        lines.append(f"  titles so far / 已定名次: {en} / {zh}")
    if st["wutou"]:
        seats = ", ".join(map(str, st["wutou"]))
        lines.append(f"  headless / 无头: seats {seats} / {'、'.join(map(str, st['wutou']))}号")
    if st["burner"]:
        lines.append(f"  burning / 烧牌中: seat {st['burner']}")
    if st["four_way"]:
        lines.append("  four-way play / 四户乱缠 (G10.2): plain turn order / 按顺序出牌")
    left = st["cards_left"]
    lines.append("  cards left / 余牌: " + "  ".join(f"{s}:{left[s]}" for s in sorted(left)))
    return "\n".join(lines)


def _game_seed(seed: str, i: int) -> str:
    return f"{seed}-{i}"


def play_game(rules: str, seed: str) -> Game:
    g = new_game(rules, seed=seed)  # its 上班 leader (G12.1) from the same shuffle
    g.play_randomly(random.Random(f"gouji-play:{seed}"))
    return g


def record_text(g: Game, seed: str, event: str, r: GameResult | None = None) -> str:
    text = gjn.write_game(g, [("Event", event), ("Seed", seed)])
    if r is None:
        r = g.result()
    tail = "; result: " + (", ".join(f"{r.titles[s]} {s}" for s in r.finish_order) or "流局")
    tail += f"; points odd {r.team_points['odd']} even {r.team_points['even']}\n"
    return text + tail


def _write(path: str, text: str) -> None:
    """Write a record whole or not at all: a full disk leaves no half record (and the file that was
    there before, if any) — the text goes to ``path.part``, which replaces ``path`` once written."""
    part = path + ".part"
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(fd, data) :]
        finally:
            os.close(fd)
        os.replace(part, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(part)
        _fail(f"{path}:0: 写不进牌谱 cannot write the record: {e.strerror}")


def cmd_selfplay(args: argparse.Namespace) -> int:
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _fail(f"{args.out}:0: 建不了文件夹 cannot create the folder: {e.strerror}")
    wins = {"odd": 0, "even": 0}
    for i in range(args.games):
        seed = _game_seed(str(args.seed), i)
        g = play_game(args.rules, seed)
        r = g.result()
        text = record_text(g, seed, f"selfplay {i + 1}", r)
        _write(f"{out}/game_{i + 1:04d}.gjn", text)
        if r.team_points["odd"] != r.team_points["even"]:
            wins[max(r.team_points, key=lambda k: r.team_points[k])] += 1
    print(
        f"已写 {args.games} 局 {args.rules} 牌谱到 {out}（单号队胜 {wins['odd']}，双号队胜 {wins['even']}）/ "
        f"wrote {count(args.games, f'{args.rules} record')} to {out} "
        f"(team wins: odd {wins['odd']}, even {wins['even']})"
    )
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    seed = str(args.seed)
    g = play_game(args.rules, seed)
    sys.stdout.write(record_text(g, seed, f"demo seed {seed}"))
    print()
    print(f"result ({args.rules}, {count(len(g.moves), 'move')}):")
    print(format_result(g.result()))
    ev = _events(g)
    if ev:
        print(ev)
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    data = native.info()
    print(json.dumps(data, ensure_ascii=False) if args.json else native.format_info(data))
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    if args.clean:
        return native.clean()
    return native.build(force=args.force)


def parser() -> argparse.ArgumentParser:
    """The command line's parser (its helps in Chinese and English: tests/test_english_cli.py)."""
    p = _Parser(prog="python -m engine", description="够级规则引擎 / the Gouji rules engine")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    c = sub.add_parser("check", help="复核一份 GJN 牌谱 / replay and check a GJN record")
    c.add_argument("file")
    c.add_argument(
        "--json", action="store_true", help="输出附录 A 的 JSON / print the Appendix A JSON object"
    )
    c.add_argument(
        "--partial",
        action="store_true",
        help=(
            "对局进行中：至今是否合规、该谁行动、已定的名次 / "
            "a game still under way: legal so far, whose decision it is, titles so far"
        ),
    )
    c.set_defaults(func=cmd_check)
    s = sub.add_parser("selfplay", help="写出随机自对弈牌谱 / write random self-play records")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", default="0")
    s.add_argument("--out", required=True)
    s.add_argument("--rules", choices=["tv_match", "dagang"], default="tv_match")
    s.set_defaults(func=cmd_selfplay)
    d = sub.add_parser(
        "demo",
        help=(
            "按种子发牌并打完一局，输出牌谱和结果 / deal a seeded game, play it out, print record and result"
        ),
    )
    d.add_argument("--seed", default="0")
    d.add_argument("--rules", choices=["tv_match", "dagang"], default="tv_match")
    d.set_defaults(func=cmd_demo)
    winprob_cli.add_parser(sub)
    i = sub.add_parser(
        "info",
        help=(
            "运行的是哪种内核：编译的（mypyc）还是纯 Python，为什么 / "
            "which engine core runs: compiled (mypyc) or pure Python, and why"
        ),
    )
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_info)
    b = sub.add_parser(
        "build",
        help="内核缺失或过期时用 mypyc 编译 / compile the engine core with mypyc if it is missing or stale",
    )
    b.add_argument(
        "--force", action="store_true", help="即使是最新的也重新编译 / rebuild even when up to date"
    )
    b.add_argument("--clean", action="store_true", help="删除编译的内核 / remove the compiled core")
    b.set_defaults(func=cmd_build)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if getattr(args, "games", 1) < 0:
        p.error("--games must be >= 0")
    try:
        rc: int = args.func(args)
    except PresetError as e:
        _fail(str(e))
    return rc


def run() -> None:
    try:
        code = main()
    except KeyboardInterrupt:  # pragma: no cover
        code = 130
    except BrokenPipeError:  # pragma: no cover
        code = 0
    raise SystemExit(code)
