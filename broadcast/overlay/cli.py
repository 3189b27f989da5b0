"""``python -m broadcast serve``: the on-air pages only (for OBS source set-up, design and previews).

    python -m broadcast serve --demo                   # the demo show, every page filled
    python -m broadcast serve --db studio.sqlite       # follow a studio database (read-only)

With ``--db`` the server shows the state of the project database and follows it: when another process
(the studio console) appends actions to its journal, the new actions are applied and pushed to the
pages (the journal is polled every ``--poll`` seconds, 20 ms by default). The console's own process
serves its pages directly with no polling; this command is for a second machine or a preview screen.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from broadcast.show.actions import GRAPHICS

DEMO_ON = ("scoreboard", "corner_bug", "ticker", "jipaiqi", "commentary")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="项目数据库文件 / project database to follow (read-only)")
    parser.add_argument("--demo", action="store_true", help="演示数据 / serve the built-in demo show")
    parser.add_argument(
        "--on",
        default=",".join(DEMO_ON),
        help=f"--demo 时节目总线上打开的图形 / graphics on program with --demo "
        f"(comma-separated; any of {', '.join(GRAPHICS)}; 'all')",
    )
    add_server_arguments(parser)
    parser.add_argument("--poll", type=float, default=0.02, help="--db 轮询间隔秒 / journal poll interval")


def add_server_arguments(parser: argparse.ArgumentParser, port: int | None = None) -> None:
    from broadcast.overlay.server import DEFAULT_PORT

    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="监听地址，默认只本机 / listen address (default 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT if port is None else port,
        help="端口，0 = 任选空闲端口 / port (0 = any free port)",
    )
    parser.add_argument("--token", default=None, help="访问令牌 / access token required by every page")
    parser.add_argument("--token-file", default=None, help="从文件读取访问令牌 / read the token from a file")


def resolve_token(args: argparse.Namespace) -> str | None:
    """The token from --token or --token-file; a bad file is a one-line error (SystemExit 2)."""
    if args.token_file:
        try:
            token = Path(args.token_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            fail(f"{args.token_file}:0: 读不到令牌文件 cannot read the token file: {exc.strerror}")
        if not token:
            fail(
                f"{args.token_file}:1: 令牌文件是空的 the token file is empty: "
                "put the token on its first line"
            )
        return token
    return str(args.token) if args.token else None


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    raise SystemExit(2)


def print_urls(server: Any, out: Any = sys.stdout) -> None:
    print("OBS 浏览器源（1920×1080，透明）/ add as OBS browser sources (1920×1080, transparent):", file=out)
    print(f"  节目 program : {server.url('program')}", file=out)
    print(f"  预览 preview : {server.url('preview')}", file=out)
    print(f"  单个图形 single graphics: {server.base_url}/overlay/", file=out)
    out.flush()


def wait_for_interrupt(stop: threading.Event) -> None:
    """Block until Ctrl-C / SIGTERM (or ``stop`` is set)."""

    def handler(signum: int, frame: object) -> None:
        stop.set()

    old_term = signal.signal(signal.SIGTERM, handler)
    try:
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        stop.set()
    finally:
        signal.signal(signal.SIGTERM, old_term)


class JournalFollower:
    """Keeps a store of a project database equal to what its journal says while another process (the
    studio) appends to it: every ``poll`` seconds it applies only the actions appended since (the
    store's :meth:`~broadcast.core.ShowStore.catch_up`), so a change reaches the pages within about
    one poll, at any journal length, and a cut or replaced journal is loaded anew, never left behind."""

    def __init__(self, path: Path, poll: float) -> None:
        from broadcast.studio import open_store

        self.path = path
        self.poll = max(0.005, poll)
        self.store = open_store(path)
        self.errors = list(self.store.replay_errors)
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-follower", daemon=True)

    @property
    def seq(self) -> int:
        return self.store.seq

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.store.close()

    def _run(self) -> None:
        from broadcast.core.db import DatabaseError

        while not self._stop.wait(self.poll):
            try:
                self.store.catch_up()
            except DatabaseError as exc:  # the file went away or broke: say so once, keep serving
                msg = str(exc)
                if not self.failures or self.failures[-1] != msg:
                    self.failures.append(msg)
                    print(f"警告 warning: {msg}", file=sys.stderr, flush=True)


def main(args: argparse.Namespace) -> int:
    from broadcast.core.db import DatabaseError
    from broadcast.overlay.demo import demo_state
    from broadcast.overlay.memory import MemoryStore
    from broadcast.overlay.server import OverlayServer

    token = resolve_token(args)
    if args.demo == bool(args.db):
        fail("serve: 请选择 --demo 或 --db FILE 之一 / choose one of --demo or --db FILE")
    follower: JournalFollower | None = None
    source: Any
    if args.demo:
        wanted = [g.strip() for g in args.on.split(",") if g.strip()]
        on = tuple(GRAPHICS) if args.on == "all" else tuple(wanted)
        bad = [g for g in on if g not in GRAPHICS]
        if bad:
            fail(
                f"serve: --on 里没有这个图形 unknown graphic(s): {', '.join(bad)} "
                f"(choose from {', '.join(GRAPHICS)})"
            )
        source = MemoryStore(demo_state(on=on))
    else:
        path = Path(args.db)
        if not path.is_file():
            fail(f"{path}:0: 数据库文件不存在 no such database file (give the studio's .sqlite file)")
        try:
            follower = JournalFollower(path, args.poll)
        except DatabaseError as exc:
            fail(str(exc))
        assert follower is not None
        for msg in follower.errors:
            print(f"警告 warning: {msg}", file=sys.stderr)
        source = follower.store
    server = OverlayServer(source, host=args.host, port=args.port, token=token)
    try:
        server.start()
    except OSError as exc:
        fail(f"serve: {exc.strerror or exc} (use --port N, or --port 0 for any free port)")
    if follower:
        follower.start()
    print_urls(server)
    print("按 Ctrl-C 停止 / Ctrl-C to stop", flush=True)
    stop = threading.Event()
    try:
        wait_for_interrupt(stop)
    finally:
        if follower:
            follower.stop()
        server.stop()
    print("图形服务器已停止 / overlay server stopped")
    return 0
