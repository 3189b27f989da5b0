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
import ipaddress
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from broadcast.errors import plural
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


def port_number(text: str) -> int:
    """``--port``: 0 (any free port) to 65535; anything else is argparse's one line and exit 2."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"端口应为整数，不是 {text!r} / a port is a number, not {text!r}"
        ) from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"端口 {value} 不在 0–65535 之间（0 = 任选空闲端口）/ "
            f"port {value} is not within 0–65535 (0: any free port)"
        )
    return value


def add_server_arguments(parser: argparse.ArgumentParser, port: int | None = None) -> None:
    from broadcast.overlay.protocol import DEFAULT_PORT

    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="监听地址，默认只本机 / listen address (default 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT if port is None else port,
        help="端口，0 = 任选空闲端口 / port (0 = any free port)",
    )
    parser.add_argument("--token", default=None, help=argparse.SUPPRESS)  # refused: it shows in ps
    parser.add_argument(
        "--token-file",
        default=None,
        help=f"从文件读取访问令牌（或环境变量 {TOKEN_ENV}）/ the access token's file (or {TOKEN_ENV})",
    )


TOKEN_ENV = "GOUJI_OVERLAY_TOKEN"
LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")
TOKEN_FILE_LIMIT = 4096  # a token is one line; a file over this is the wrong file


def resolve_token(args: argparse.Namespace) -> str | None:
    """The access token, from ``--token-file`` or the environment (``GOUJI_OVERLAY_TOKEN``) — never
    from the command line, where every user of the machine sees it in ``ps``. A server listening
    beyond this machine (``--host`` not loopback) must have one. Bad input: one line, SystemExit 2."""
    if getattr(args, "token", None):
        fail(
            f"--token：令牌写在命令行上别人用 ps 就能看到，请用 --token-file 文件或环境变量 {TOKEN_ENV} / "
            f"a token on the command line shows in ps: use --token-file FILE or {TOKEN_ENV}"
        )
    token: str | None = None
    if args.token_file:
        token = _token_from(args.token_file)
    else:
        token = os.environ.get(TOKEN_ENV, "").strip() or None
    host = str(getattr(args, "host", "127.0.0.1"))
    if not token and not _loopback(host):
        fail(
            f"--host {host}：图形服务器将对网络开放，必须设访问令牌（--token-file 或 {TOKEN_ENV}）/ "
            f"--host {host} opens the pages to the network: a token is required (--token-file or {TOKEN_ENV})"
        )
    return token


def _token_from(path: str) -> str:
    """The token in ``path``: one line of visible characters, the file at most :data:`TOKEN_FILE_LIMIT`
    bytes (read no further: ``/dev/zero`` or a wrong file of gigabytes is refused, not read into memory).
    A space, a line break or a control character inside it is refused naming its line: such a token
    cannot be typed into an OBS browser source's address and would never match."""
    from broadcast.core.files import read_at_most

    try:
        raw = read_at_most(path, TOKEN_FILE_LIMIT)
        text = raw.decode("utf-8")
    except OSError as exc:
        fail(f"{path}:0: 读不到令牌文件 cannot read the token file: {exc.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}:1: 令牌文件不是 UTF-8 文本 / the token file is not UTF-8 text")
    if len(raw) > TOKEN_FILE_LIMIT:
        fail(
            f"{path}:0: 令牌文件太大（超过 {TOKEN_FILE_LIMIT} 字节），令牌只有一行 / the token file is over "
            f"{TOKEN_FILE_LIMIT:,} bytes: a token is one line"
        )
    token = text.strip()
    if not token:
        fail(f"{path}:1: 令牌文件是空的 the token file is empty: put the token on its first line")
    bad = next((i for i, c in enumerate(token) if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        line = text[: text.index(token) + bad].count("\n") + 1
        fail(
            f"{path}:{line}: 令牌里有空白、换行或控制字符 U+{ord(token[bad]):04X}，令牌应是一行可见字符 / "
            f"the token holds a space, a line break or a control character (U+{ord(token[bad]):04X}): "
            "a token is one line of visible characters"
        )
    return token


def _loopback(host: str) -> bool:
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def masked(url: str, token: str | None) -> str:
    """The address with its token hidden (the token is never printed in full)."""
    if not token:
        return url
    shown = token[:2] + "…" if len(token) >= 12 else "…"
    return url.replace(f"token={quote(token)}", f"token={shown}")


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    raise SystemExit(2)


def print_urls(server: Any, out: Any = sys.stdout) -> None:
    token = getattr(server, "token", None)
    print("OBS 浏览器源（1920×1080，透明）/ add as OBS browser sources (1920×1080, transparent):", file=out)
    print(f"  节目 program : {masked(server.url('program'), token)}", file=out)
    print(f"  预览 preview : {masked(server.url('preview'), token)}", file=out)
    print(f"  单个图形 single graphics: {server.base_url}/overlay/", file=out)
    if token:
        print(
            "  地址里的 token=… 请换成你的访问令牌（不在屏幕上显示）/ put your access token for token=… "
            "(it is not shown)",
            file=out,
        )
    out.flush()


def wait_for_interrupt(stop: threading.Event) -> None:
    """Block until Ctrl-C / SIGTERM (or ``stop`` is set)."""

    def handler(_signum: int, _frame: object) -> None:
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
        self.store = open_store(path, readonly=True)  # the studio writes it; a follower never does
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
    from broadcast.core.db import DatabaseError, not_a_file
    from broadcast.overlay.demo import demo_state
    from broadcast.overlay.memory import MemoryStore

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
                f"serve: --on 里没有这个图形 unknown {plural(len(bad), 'graphic')}: {', '.join(bad)} "
                f"(choose from {', '.join(GRAPHICS)})"
            )
        source = MemoryStore(demo_state(on=on))
    else:
        path = Path(args.db)
        if not path.is_file():
            zh, en = not_a_file(path) or ("数据库文件不存在", "no such database file")
            fail(f"{path}:0: {zh} {en} (give the studio's .sqlite file)")
        try:
            follower = JournalFollower(path, args.poll)
        except DatabaseError as exc:
            fail(str(exc))
        assert follower is not None
        for msg in follower.errors:
            print(f"警告 warning: {msg}", file=sys.stderr)
        source = follower.store
    from broadcast import project
    from broadcast.overlay.server import OverlayServer  # (aiohttp) once the input is known to be good

    # a project database's own files: its players' photos at /assets/photos/ (lower thirds)
    roots = project.asset_roots(Path(args.db)) if args.db else None
    server = OverlayServer(
        source, host=args.host, port=args.port, token=token, asset_roots=roots, read_only=follower is not None
    )
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
