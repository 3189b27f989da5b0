"""``python -m broadcast obs status|provision|proof|launch``: the OBS bridge from the command line.

python -m broadcast obs launch --port 4455 --password-env GOUJI_OBS_PASSWORD   # a headless OBS
python -m broadcast obs status    --port 4455 --password-env GOUJI_OBS_PASSWORD
python -m broadcast obs provision --port 4455 --password-env GOUJI_OBS_PASSWORD [--db studio.sqlite]
python -m broadcast obs proof --out program.jpg --port 4455 --password-env GOUJI_OBS_PASSWORD
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from broadcast.obs.errors import ObsError
from broadcast.obs.settings import ObsSettings, SettingsError


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="obs_cmd", required=True, metavar="status|provision|proof|launch")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--settings", help="设置文件（YAML/JSON，obs: 一节）/ settings file (YAML/JSON, section obs:)"
        )
        p.add_argument(
            "--host",
            help=(
                "OBS 主机（默认 127.0.0.1 或 $GOUJI_OBS_HOST）/ "
                "OBS host (default 127.0.0.1 or $GOUJI_OBS_HOST)"
            ),
        )
        p.add_argument(
            "--port",
            type=int,
            help=(
                "obs-websocket 端口（默认 4455 或 $GOUJI_OBS_PORT）/ "
                "obs-websocket port (default 4455 or $GOUJI_OBS_PORT)"
            ),
        )
        p.add_argument(
            "--password-env",
            metavar="VAR",
            help=(
                "存放密码的环境变量（密码从不写在命令行上）/ "
                "environment variable holding the password (never on the command line)"
            ),
        )
        p.add_argument(
            "--timeout",
            type=float,
            help="每个请求最多等待的秒数（默认 2）/ seconds any request may wait (default 2)",
        )

    p = sub.add_parser("status", help="连接 OBS 并报告版本、图形方式、场景 / connect and report")
    common(p)
    p = sub.add_parser("provision", help="布置节目场景与源（可重复运行）/ create or update the show's scenes")
    common(p)
    p.add_argument(
        "--db",
        help=(
            "演播室数据库：文字取自它的节目状态（默认：默认值）/ "
            "studio database: use its show state for the texts (default: defaults)"
        ),
    )
    p.add_argument(
        "--overlay-url",
        default="",
        help="图形节目页地址（OBS 浏览器源）/ overlay program page URL (browser-source OBS)",
    )
    p.add_argument("--preview-url", default="", help="图形预览页地址 / overlay preview page URL")
    p = sub.add_parser("proof", help="节目画面截图（JPEG 640 像素）/ program screenshot")
    common(p)
    p.add_argument("--out", required=True, help="要写入的 JPEG 文件 / JPEG file to write")
    p.add_argument("--width", type=int, default=640)
    p = sub.add_parser("launch", help="启动一个无界面的 OBS（Xvfb）供演示 / start a headless OBS")
    p.add_argument("--port", type=int, default=4455)
    p.add_argument(
        "--password-env",
        metavar="VAR",
        help="要求的密码所在的环境变量 / variable holding the password to require",
    )
    p.add_argument("--fps", type=int, default=25, choices=(25, 50))
    p.add_argument(
        "--home",
        help=(
            "OBS 的配置放在这个文件夹（默认：临时文件夹）/ "
            "keep OBS's configuration in this folder (default: a temporary one)"
        ),
    )


def _settings(args: argparse.Namespace) -> ObsSettings:
    s = ObsSettings.load(args.settings)
    kw: dict[str, Any] = {}
    if args.host:
        kw["host"] = args.host
    if args.port:
        kw["port"] = args.port
    if args.timeout:
        kw["timeout"] = args.timeout
    if args.password_env:
        if args.password_env not in os.environ:
            raise SettingsError(
                "obs.settings",
                f"--password-env {args.password_env}：这个环境变量没有设置",
                f"--password-env {args.password_env}: that variable is not set",
            )
        kw["password"] = os.environ[args.password_env]
    return s.with_(**kw) if kw else s


def main(args: argparse.Namespace) -> int:
    try:
        if args.obs_cmd == "launch":
            return _launch(args)
        settings = _settings(args)
        if args.obs_cmd == "status":
            return _status(settings)
        if args.obs_cmd == "provision":
            return _provision(settings, args)
        if args.obs_cmd == "proof":
            return _proof(settings, Path(args.out), args.width)
    except SettingsError as exc:
        print(f"设置错误 settings error: {exc}", file=sys.stderr)
        return 2
    except ObsError as exc:  # OBS not there, or dropped mid-command: one line, exit 2 like all bad input
        print(f"{exc.message_zh}：{exc}", file=sys.stderr)
        return 2
    return 2


def _status(settings: ObsSettings) -> int:
    from broadcast.obs import layout as L
    from broadcast.obs.client import ObsClient
    from broadcast.obs.provision import has_browser_source

    c = ObsClient(settings)
    c.connect()
    try:
        v = c.request("GetVersion")
        kinds = c.request("GetInputKindList").get("inputKinds", [])
        scenes = [s["sceneName"] for s in c.request("GetSceneList").get("scenes", [])]
        program = c.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        video = c.request("GetVideoSettings")
    finally:
        c.close()
    mode = "网页图形 browser source" if has_browser_source(kinds) else "OBS 自带源（无 browser source）"
    missing = [s for s in L.AIR_SCENES if s not in scenes]
    print(
        f"OBS 已连接 connected: {settings.host}:{settings.port}  OBS {v.get('obsVersion')}  "
        f"obs-websocket {v.get('obsWebSocketVersion')}"
    )
    print(
        f"画面 video: {video.get('baseWidth')}×{video.get('baseHeight')} "
        f"{video.get('fpsNumerator')}/{video.get('fpsDenominator')} fps"
    )
    print(f"图形方式 graphics: {mode}")
    print(f"节目 program: {program}")
    scenes_line = "齐全 all present"
    if missing:
        scenes_line = "缺少 missing " + "、".join(missing) + "（运行 obs provision）"
    print("节目场景 show scenes: " + scenes_line)
    return 0


def _provision(settings: ObsSettings, args: argparse.Namespace) -> int:
    from broadcast.obs import layout as L
    from broadcast.obs.client import ObsClient
    from broadcast.obs.provision import has_browser_source, input_kinds, provision

    if args.db:
        from broadcast.studio import open_store

        with open_store(args.db) as store:
            state = store.state
    else:
        from broadcast.studio import default_state

        state = default_state()
    c = ObsClient(settings)
    c.connect()
    try:
        browser = has_browser_source(input_kinds(c))
        lay = L.build_layout(
            state,
            browser=browser,
            font=settings.font,
            assets_dir=settings.assets_dir,
            overlay_urls={"program": args.overlay_url, "preview": args.preview_url},
            films=settings.film_paths(),
            width=settings.width,
            height=settings.height,
            camera_kind=settings.camera_kind,
            camera_settings=settings.camera_settings,
        )
        t0 = time.monotonic()
        rep = provision(
            c,
            lay,
            width=settings.width,
            height=settings.height,
            fps=settings.fps,
            transition=settings.transition,
            transition_ms=settings.transition_ms,
        )
        c.request("SetCurrentProgramScene", {"sceneName": L.SCENE_GAME})
    finally:
        c.close()
    print(f"已布置 provisioned in {time.monotonic() - t0:.2f}s — {rep.summary_zh()}")
    for w in rep.warnings:
        print(f"注意 warning: {w}")
    return 0


def _proof(settings: ObsSettings, out: Path, width: int) -> int:
    from broadcast.obs.client import ObsClient

    c = ObsClient(settings)
    c.connect()
    try:
        scene = c.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        jpeg = c.screenshot(str(scene), width=width, fmt="jpg", quality=85)
    finally:
        c.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(jpeg)
    print(f"节目画面 program ({scene}) → {out} ({len(jpeg)} bytes)")
    return 0


def _launch(args: argparse.Namespace) -> int:
    from broadcast.obs.headless import HeadlessError, HeadlessObs

    password = ""
    if args.password_env:
        if args.password_env not in os.environ:
            print(
                f"--password-env {args.password_env}: 没有这个环境变量 / that variable is not set",
                file=sys.stderr,
            )
            return 2
        password = os.environ[args.password_env]
    obs = HeadlessObs(Path(args.home) if args.home else None, port=args.port, password=password, fps=args.fps)
    try:
        took = obs.start()
    except HeadlessError as exc:
        print(f"无法启动 OBS / OBS cannot start: {exc}", file=sys.stderr)
        obs.close()
        return 1
    print(
        f"OBS 已启动（无界面）: ws://127.0.0.1:{obs.port}  display {obs.display}  pid {obs.pid}  "
        f"({took:.2f}s)；Ctrl-C 停止",
        flush=True,
    )
    stop = False

    def _sig(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _sig)
    try:
        while not stop and obs.running():
            time.sleep(0.3)
    except KeyboardInterrupt:
        pass
    finally:
        obs.close()
    print("OBS 已停止 stopped")
    return 0
