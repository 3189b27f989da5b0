"""``python -m broadcast COMMAND …``: the studio's command line.

Each command lives in its own module, imported only when chosen; a module provides
``register(parser)`` to declare its arguments and ``main(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import NoReturn

COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("broadcast.app", "演播室：演示赛季、图形、OBS（未运行也可）/ the studio, demo season"),
    "console": ("broadcast.console.app", "导播台：键盘录入现场比赛 / the operator console (PySide6)"),
    "producer": (
        "broadcast.producer.app",
        "制片工作台：赞助、合同、广告位预览、选手、赛季播出 / the producer's workspace (PySide6)",
    ),
    "rehearse": ("broadcast.rehearsal", "彩排：重放演示比赛到图形 / replay a demo match on the graphics"),
    "audit": ("broadcast.audit.cli", "播出检查：彩排一期节目并检查画面 / audit a rehearsed episode on air"),
    "serve": ("broadcast.overlay.cli", "只启动图形服务器 / serve the on-air pages only"),
    "obs": ("broadcast.obs.cli", "OBS：连接、布置场景、截图 / OBS bridge: provision, status, proof"),
    "companion": (
        "broadcast.overlay.companion_cli",
        "Stream Deck 按钮页（Bitfocus Companion）/ a Companion page for the control API",
    ),
    "sponsors": ("broadcast.cli.sponsors", "赞助商排期：检查、节目流程 / sponsor placements: check, rundown"),
    "report": ("broadcast.cli.report", "赞助商播出报告 / sponsor exposure report for an episode"),
    "season": ("broadcast.cli.season", "赛季、比赛、英雄榜 / seasons, matches, the leaderboard"),
    "qualifiers": (
        "broadcast.cli.qualifiers",
        "网络海选：导入并复核记录（Dask）、海选榜、邀请 / online qualifiers: import, board, invite",
    ),
    "import": ("broadcast.cli.roster_import", "导入选手名单 CSV/XLSX / import rosters"),
    "export": ("broadcast.cli.export", "导出英雄榜、成绩、牌谱 / export rankings, results, records"),
    "verify-receipt": (
        "broadcast.cli.receipt",
        "第三方核对本期回执（只需公钥）/ check an episode's receipt with the studio's public key",
    ),
    "studio-key": (
        "broadcast.cli.key",
        "演播室签名公钥及指纹 / the studio's public key and fingerprint",
    ),
    "preflight": (
        "broadcast.cli.preflight",
        "开录前检查：OBS、素材、合同、比赛设置、磁盘 / pre-show check: OBS, assets, contracts, set-up, disk",
    ),
    "verify-journal": (
        "broadcast.cli.journal",
        "完整核对操作日志（校验链、检查点、重放）/ full check of the journal: hashes, checkpoints, replay",
    ),
}


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments are one line on stderr and exit status 2 (argparse prints the usage block too).

    Sub-command parsers (``season match`` …) are of the same class, so they answer the same way.
    """

    def error(self, message: str) -> NoReturn:
        from engine.english import argparse_both  # only when refusing: the engine is not every command's

        self.exit(2, f"{self.prog}: 错误 error: {argparse_both(message)}（用法见 --help / see --help）\n")


def _usage() -> str:
    lines = ["用法 usage: python -m broadcast COMMAND [options]", "", "commands:"]
    for name, (_mod, help_) in COMMANDS.items():
        lines.append(f"  {name:<10} {help_}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0 if argv else 2
    name = argv[0]
    if name not in COMMANDS:
        print(f"未知命令 unknown command: {name}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    parser = OneLineParser(prog=f"python -m broadcast {name}", description=COMMANDS[name][1])
    module.register(parser)
    args = parser.parse_args(argv[1:])
    try:
        return int(module.main(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - never a traceback for a person: one line, exit 2
        return _one_line(name, args, exc)


def _one_line(command: str, args: argparse.Namespace, exc: Exception) -> int:
    """The last net under every command: the disk and the database files get one line naming the file
    and what to do (exit 2); anything else is a fault of this software: one line, the details in a
    file for the developers (exit 1)."""
    import sqlite3

    from broadcast.core.db import DatabaseError, describe
    from broadcast.core.files import WriteFailed, describe_os_error

    if isinstance(exc, DatabaseError | WriteFailed):
        print(f"错误 error: {exc}", file=sys.stderr)
        return 2
    if isinstance(exc, sqlite3.Error):
        print(f"错误 error: {describe(exc, getattr(args, 'db', None) or 'database')}", file=sys.stderr)
        return 2
    if isinstance(exc, OSError):
        print(f"错误 error: {describe_os_error(exc.filename or command, exc)}", file=sys.stderr)
        return 2
    import tempfile
    import traceback

    report = Path(tempfile.gettempdir()) / f"gouji-{command}-error-{os.getpid()}.txt"
    try:
        report.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        where = f"详情 details: {report}"
    except OSError:
        where = "详情无法写入 details could not be written"
    print(
        f"内部错误 internal error in {command}: {type(exc).__name__}: {exc} — {where}",
        file=sys.stderr,
    )
    return 1


def _exit(rc: int) -> NoReturn:
    """Leave the process once the command has returned. Its garbage is collected now (a window's and its
    settings' destructors run, as before); what is still reachable then (the modules, their classes and
    functions) is frozen out of the interpreter's last collections at exit, which walk every such object
    again and again only to free memory the system takes back anyway (a console's close after SIGTERM:
    1.0–2.2 s → 0.6 s under load 11). Everything else still runs: ``atexit`` handlers, the flush of
    stdout/stderr, each module's objects released."""
    import gc

    gc.collect()
    gc.freeze()
    sys.exit(rc)


if __name__ == "__main__":
    _exit(main())
