"""``python -m broadcast serve``: the on-air pages only (for OBS source set-up, design and previews).

    python -m broadcast serve --demo                   # the demo show, every page filled
    python -m broadcast serve --db studio.sqlite       # follow a studio database (read-only)

With ``--db`` the server shows the state of the project database and follows it: when another process
(the studio console) appends actions to its journal, the state is rebuilt from the journal and pushed
to the pages (polled every ``--poll`` seconds). The console's own process serves its pages directly
with no polling; this command is for a second machine or a preview screen.
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
    parser.add_argument("--poll", type=float, default=0.25, help="--db 轮询间隔秒 / journal poll interval")


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
    """Keeps a MemoryStore equal to the state a project database's journal describes."""

    def __init__(self, path: Path, poll: float) -> None:
        from broadcast.overlay.memory import MemoryStore
        from broadcast.studio import open_store

        self.path = path
        self.poll = poll
        self._open = open_store
        store = open_store(path)
        self.seq = store.journal.last_seq()
        self.memory = MemoryStore(store.snapshot())
        self.errors = list(store.replay_errors)
        store.close()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-follower", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        from broadcast.core import db

        conn = db.connect(self.path)
        try:
            while not self._stop.wait(self.poll):
                row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()
                if int(row[0]) == self.seq:
                    continue
                store = self._open(self.path)
                try:
                    self.seq = store.journal.last_seq()
                    self.memory.replace(store.snapshot(), "journal.follow")
                finally:
                    store.close()
        finally:
            conn.close()


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
            fail(f"{path}:0: {exc}")
        except Exception as exc:  # a file that is not one of ours
            fail(f"{path}:0: 不是本项目的数据库 not a studio database ({exc})")
        assert follower is not None
        for msg in follower.errors:
            print(f"警告 warning: {msg}", file=sys.stderr)
        source = follower.memory
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
