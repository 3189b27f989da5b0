"""``python -m broadcast COMMAND …``: the studio's command line.

Each command lives in its own module, imported only when chosen; a module provides
``register(parser)`` to declare its arguments and ``main(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("broadcast.app", "演播室：演示赛季、图形、OBS（未运行也可）/ the studio, demo season"),
    "console": ("broadcast.console.app", "导播台：键盘录入现场比赛 / the operator console (PySide6)"),
    "rehearse": ("broadcast.rehearsal", "彩排：重放演示比赛到图形 / replay a demo match on the graphics"),
    "serve": ("broadcast.overlay.cli", "只启动图形服务器 / serve the on-air pages only"),
    "obs": ("broadcast.obs.cli", "OBS：连接、布置场景、截图 / OBS bridge: provision, status, proof"),
    "sponsors": ("broadcast.sponsors.cli", "赞助商排期：检查、节目流程 / sponsor placements: check, rundown"),
    "report": ("broadcast.sponsors.report_cli", "赞助商播出报告 / sponsor exposure report for an episode"),
    "season": ("broadcast.season.cli", "赛季、比赛、英雄榜 / seasons, matches, the 英雄榜"),
    "import": ("broadcast.season.import_cli", "导入选手名单 CSV/XLSX / import rosters"),
    "export": ("broadcast.season.export_cli", "导出英雄榜、成绩、牌谱 / export rankings, results, records"),
}


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
    parser = argparse.ArgumentParser(prog=f"python -m broadcast {name}", description=COMMANDS[name][1])
    module.register(parser)
    args = parser.parse_args(argv[1:])
    try:
        return int(module.main(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
