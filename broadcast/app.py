"""``python -m broadcast run``: the studio on one project database.

    python -m broadcast run                      # the operator console (when there is a display)
    python -m broadcast run --headless           # no window: the studio, rehearsing a demo match
    python -m broadcast run --headless --db show.sqlite --pace 0.5
    python -m broadcast run --headless --no-rehearsal   # serve and stay on air, nothing played

With a screen (``DISPLAY``/``WAYLAND_DISPLAY``; :func:`broadcast.qt.display.display`) and without
``--headless`` it opens the operator console (``python -m broadcast console``) on the same database,
which starts the same studio around it. Without one it says so in one line and runs headless.

The studio is :class:`broadcast.runtime.Studio` (the same for both). Headless, it then rehearses a demo
match play by play through the graphics at a watchable pace.
"""

from __future__ import annotations

import argparse
import sys
import threading

from broadcast.overlay.cli import fail, resolve_token, wait_for_interrupt
from broadcast.qt.display import OFFSCREEN, display
from broadcast.runtime import STUDIO_ARGUMENTS, Studio, add_studio_arguments, say


def register(parser: argparse.ArgumentParser) -> None:
    add_studio_arguments(parser)
    parser.add_argument(
        "--headless",
        action="store_true",
        help="不开导播台窗口，只运行演播室 / no console window: the studio only",
    )
    parser.add_argument("--seed", type=int, default=2011, help="演示比赛种子 / demo match seed")
    parser.add_argument("--pace", type=float, default=0.8, help="每手牌秒数 / seconds per play")
    parser.add_argument(
        "--quick", action="store_true", help="缩短片头片尾与中插片 / short bumpers and break films (tests)"
    )
    parser.add_argument("--no-rehearsal", action="store_true", help="不彩排，只上图形 / serve only")
    parser.add_argument("--exit-when-done", action="store_true", help="彩排结束即退出 / exit after it")


def open_console(args: argparse.Namespace) -> int:
    """``run`` with a display: the operator console on the same database and studio options."""
    from broadcast.console import app as console_app

    parser = argparse.ArgumentParser()
    console_app.register(parser)
    cargs = parser.parse_args([])
    for key in STUDIO_ARGUMENTS:
        setattr(cargs, key, getattr(args, key))
    return int(console_app.main(cargs))


def main(args: argparse.Namespace) -> int:
    from broadcast.rehearsal import Rehearsal, Stopped, selfplay_records

    if not args.headless:
        shown = display()
        if shown is not None and shown != OFFSCREEN:
            return open_console(args)
        why = "QT_QPA_PLATFORM=offscreen" if shown == OFFSCREEN else "未设置 DISPLAY / DISPLAY is not set"
        say(f"没有图形显示（{why}），改为运行无界面演播室 / no display: running the headless studio")
    if args.pace < 0:
        fail("run: --pace 不能为负 must not be negative")
    args.resolved_token = resolve_token(args)  # before anything is opened: a bad token is one line
    studio = Studio(args)
    stop = threading.Event()
    try:
        studio.start()
        if not args.no_rehearsal:
            say("开始彩排演示比赛，按 Ctrl-C 停止 / rehearsing a demo match, Ctrl-C to stop")
            r = Rehearsal(studio.store, args.pace, args.quick, stop, say)
            if studio.bridge is None or not studio.bridge.status.connected:
                r.paid_hold = 0.0  # a quick run's bumpers wait for no OBS to draw them (as ``rehearse``)
            else:
                r.shown = studio.shown  # a paid graphic is held from when OBS showed it
            studio.attach_breaks(r)
            try:
                records = selfplay_records(args.seed, "tv_match")
                r.setup("", records)
                r.opening()
                if r.after_opening is not None:
                    r.after_opening()
                r.play_match(records, seed=args.seed)
                say("彩排完成 / rehearsal done")
            except Stopped:
                pass
        if not args.exit_when_done:
            say("演播室运行中，按 Ctrl-C 停止 / the studio is on, Ctrl-C to stop")
            wait_for_interrupt(stop)
    except KeyboardInterrupt:
        say("已停止 / stopped")
    finally:
        studio.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    from broadcast.__main__ import main as cli

    sys.exit(cli(["run", *sys.argv[1:]]))
