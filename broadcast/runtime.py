"""The studio running around one project database (:class:`Studio`): the same for ``run`` (headless or
with the console) and ``console``.

It opens (or creates) the project database and replays its journal (crash recovery), builds the demo
season there the first time (第一季, engine-played matches), loads the sponsor placements, feeds the 英雄榜
from the season, serves the on-air pages, records the as-run log, and connects to OBS in the background —
without OBS it says so and keeps retrying, and the show goes on (the as-run log is then kept from the
application's own state). A write the disk refuses at start (full, read-only) is said in one line and
tried again in the background while the pages serve the last state.
"""

from __future__ import annotations

import argparse
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

from broadcast import resources
from broadcast.core.db import add_db_argument
from broadcast.core.db import resolve as resolve_db
from broadcast.overlay.cli import add_server_arguments, fail, print_urls, resolve_token
from broadcast.season.backend import add_season_db_argument

DEMO_PLACEMENTS = resources.demo_placements()
RETRY_S = 2.0  # a write the disk refused is tried again this often
# a break's film ends when OBS says it ended; the show goes on at the latest this long past its length
# (a film OBS started late on a loaded machine, or never: the bridge gives that up within START_LIMIT)
FILM_SLACK_S = 15.0
# a quick run (``--quick``, tests) shows each film this long after OBS started it, then stops it: it aired
# (its start, its proof picture at 1 s, its end are in the as-run) without waiting its whole length
QUICK_FILM_S = 2.0


def add_studio_arguments(parser: argparse.ArgumentParser) -> None:
    """What the studio around the show needs (``run`` and ``console`` both take these)."""
    add_db_argument(parser)
    add_season_db_argument(parser)
    add_server_arguments(parser)
    parser.add_argument(
        "--placements",
        default=None,
        help="赞助排期 YAML（默认：项目自己的 studio-assets/sponsors/placements.yaml，没有则用演示排期）/ "
        "placements (default: the project's own file, else the demo set)",
    )
    parser.add_argument("--air-date", default=None, help="本期播出日期 YYYY-MM-DD（检查合同）/ air date")
    parser.add_argument("--no-obs", action="store_true", help="不连接 OBS / do not connect to OBS")
    parser.add_argument("--obs-settings", default=None, help="OBS 设置文件 / OBS settings file (YAML)")
    parser.add_argument(
        "--commentators-port",
        type=int,
        default=8620,
        metavar="P",
        help="解说区页面的端口（0：任一空闲端口，-1：不开）/ the commentators' page port (0: any, -1: none)",
    )
    parser.add_argument(
        "--winprob-workers",
        type=int,
        default=2,
        metavar="N",
        help="胜率推演的进程数（0：不推演）/ win-probability processes, run after each decision (0: none)",
    )
    parser.add_argument(
        "--wait-obs",
        type=float,
        default=3.0,
        metavar="S",
        help="开演前最多等 OBS 上线的秒数 / seconds to wait for OBS on air before the show starts (3)",
    )


STUDIO_ARGUMENTS = (
    "db",
    "season_db",
    "host",
    "port",
    "token",
    "token_file",
    "placements",
    "air_date",
    "no_obs",
    "obs_settings",
    "wait_obs",
    "commentators_port",
    "winprob_workers",
)


def _until(r: Any, done: threading.Event, seconds: float) -> bool:
    """Wait for ``done`` at most ``seconds``; the rehearsal's stop ends the wait (``Stopped``)."""
    end = time.monotonic() + seconds
    while not done.is_set():
        left = end - time.monotonic()
        if left <= 0:
            return False
        r.wait(0)  # raises Stopped when the run stops
        done.wait(min(0.1, left))
    return True


def say(text: str) -> None:
    """One line of the studio's log on stdout (at once: tests and operators read it as it comes)."""
    print(text, flush=True)


class Studio:
    """Everything the studio runs, wired to one store. ``start()`` / ``stop()``."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.db_path = resolve_db(getattr(args, "db", None)).resolve()
        self.store: Any = None
        self.server: Any = None
        self.bridge: Any = None
        self.recorder: Any = None
        self.asrun: Any = None
        self.placements: Any = None
        self.live: Any = None  # the 胜率's evaluator and the commentators' page
        self.season_link: Any = None
        self._pending: list[tuple[str, Any]] = []
        self._retry_lock = threading.Lock()
        self._retry_thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._last_status: tuple[str, str] = ("", "")
        self.recovered = 0  # actions the journal held before this start (what a restart brought back)

    def start(self) -> None:
        from broadcast.core.db import DatabaseError
        from broadcast.studio import open_store

        fresh = not self.db_path.exists()
        try:
            self.store = open_store(self.db_path)
        except DatabaseError as exc:
            fail(str(exc))
        self.recovered = 0 if fresh else int(self.store.seq)
        if fresh:
            say(f"新建项目数据库 new project database: {self.db_path}")
        else:
            say(
                f"项目数据库 database: {self.db_path}（日志恢复到 #{self.store.seq} / journal replayed to "
                f"#{self.store.seq}）"
            )
        for msg in self.store.replay_errors:
            say(f"警告 warning: {msg}")
        conn = self.store.journal.connection
        if getattr(conn, "readonly", False):
            why = getattr(conn, "reason", "") or f"{self.db_path}: 文件只读 / the file is read-only"
            say(
                f"{why} — 只读打开：图形照常服务最后的状态，写入会被拒绝并重试 / opened read-only: the pages "
                "serve its last state; writes are refused and retried"
            )
        self._write("赞助排期 placements", self._sponsors)
        self._write("演示赛季 demo season", self._season)
        self._asrun()
        self._serve()
        self._winprob()
        self._obs()

    # -- writes the disk may refuse ---------------------------------------------------------------
    def _write(self, what: str, fn: Any) -> None:
        """Run a start-up write; if the disk refuses it (full, read-only, I/O error), say so in one line
        and try it again every few seconds in the background while the studio serves the last state."""
        from broadcast.core.db import StorageError

        try:
            fn()
        except StorageError as exc:
            say(
                f"写入失败 write refused ({what}): {exc} — 图形照常服务最后的状态，每 {RETRY_S:g} 秒重试 / "
                f"the pages serve the last state; retrying every {RETRY_S:g} s"
            )
            with self._retry_lock:
                self._pending.append((what, fn))
                if self._retry_thread is None:
                    self._retry_thread = threading.Thread(target=self._retry, name="run-retry", daemon=True)
                    self._retry_thread.start()

    def _retry(self) -> None:
        from broadcast.core.db import StorageError

        while not self._stopping.wait(RETRY_S):
            with self._retry_lock:
                if not self._pending:
                    self._retry_thread = None
                    return
                what, fn = self._pending[0]
            try:
                fn()
            except StorageError:
                continue
            except Exception as exc:  # noqa: BLE001 - one line, never a traceback in the studio
                say(f"警告 warning: {what}: {exc}")
            else:
                say(f"写入恢复 written now: {what}")
            with self._retry_lock:
                self._pending.pop(0)

    # -- parts ---------------------------------------------------------------------------------
    def _season(self) -> None:
        from broadcast.season.push import start_studio_link

        self.season_link = start_studio_link(
            self.store,
            getattr(self.args, "season_db", None),
            self.db_path,
            say=say,
            sponsor=self._leaderboard_sponsor(),
        )

    def _leaderboard_sponsor(self) -> str | None:
        name = self.store.state["sponsors"]["leaderboard"]["name"]
        return str(name) if name else None

    def _sponsors(self) -> None:
        from broadcast import project
        from broadcast.sponsors.placements import PlacementError, load_placements, to_state

        if self.args.placements is None:
            self.args.placements = str(project.default_placements(self.db_path))
        if not self.args.placements:
            return
        try:
            air = date.fromisoformat(self.args.air_date) if self.args.air_date else None
        except ValueError:
            fail(f"run: --air-date {self.args.air_date!r} 不是日期 is not a date (YYYY-MM-DD)")
        try:
            self.placements = load_placements(self.args.placements, air_date=air)
        except PlacementError as exc:
            say(f"赞助排期有错，未加载 placements NOT loaded:\n{exc}")
            return
        from broadcast.core import ActionRefused

        try:
            self.store.dispatch("sponsors.load", to_state(self.placements), source="run")
        except ActionRefused as exc:  # e.g. an invisible control character in a sponsor's text
            say(f"赞助排期有错，未加载 placements NOT loaded: {exc} / {exc.message_en}")
            self.placements = None
            return
        title = self.store.state["sponsors"]["title"]["name"]
        n = len(self.placements.slots)
        say(f"赞助排期 placements: {self.args.placements}（冠名 {title}，{n} 个广告位）")

    def _asrun(self) -> None:
        from broadcast.core.db import StorageError
        from broadcast.core.signing import SigningError
        from broadcast.sponsors.asrun import AsRunLog
        from broadcast.sponsors.recorder import AsRunRecorder

        try:  # anchored: signed heads in the ledger beside the database, a receipt per episode
            self.asrun = AsRunLog.open(self.db_path, anchored=True)
        except (StorageError, SigningError) as exc:
            say(f"播出记录无法打开，本次不记录 as-run log unavailable this time: {exc}")
            return
        if self.asrun.anchor is not None:
            say(f"演播室公钥 studio key: {self.asrun.anchor.ledger.key.public.fingerprint}")
        self.recorder = AsRunRecorder(self.store, self.asrun)

    def _serve(self) -> None:
        from broadcast import project
        from broadcast.overlay.server import OverlayServer

        sponsors = None
        if self.placements is not None:  # its logos and films are served from its own folder
            from broadcast.sponsors.placements.assets import served_root

            sponsors = served_root(Path(self.placements.file).resolve().parent, None)
        self.server = OverlayServer(
            self.store,
            host=self.args.host,
            port=self.args.port,
            token=getattr(self.args, "resolved_token", None) or resolve_token(self.args),
            asset_roots=project.asset_roots(self.db_path, sponsors=sponsors),
        )
        try:
            self.server.start()
        except OSError as exc:
            fail(f"run: {exc.strerror or exc} (use --port N, or --port 0 for any free port)")
        print_urls(self.server)

    def _winprob(self) -> None:
        from broadcast.commentators.run import LiveWinprob

        self.live = LiveWinprob.start(
            self.store,
            self.db_path,
            host=self.args.host,
            port=int(getattr(self.args, "commentators_port", -1)),
            workers=max(0, min(8, int(getattr(self.args, "winprob_workers", 0)))),
            say=say,
        )

    def _obs(self) -> None:
        if self.args.no_obs:
            say("OBS：未启用（--no-obs），图形照常服务 / OBS disabled, graphics still served")
            return
        from broadcast.obs.assets import AssetResolver, server_roots
        from broadcast.obs.bridge import ObsBridge
        from broadcast.obs.errors import ObsError
        from broadcast.obs.settings import ObsSettings

        try:
            settings = ObsSettings.load(self.args.obs_settings)
        except (ObsError, ValueError) as exc:
            say(f"OBS 设置有错，不连接 OBS settings invalid, not connecting: {exc}")
            return
        films: dict[str, Path] = {}
        board_film = None
        if self.placements is not None:
            films = {fid: f.asset.path for fid, f in self.placements.films.items()}
            board = self.placements.one("leaderboard")
            if board is not None and board.film is not None:
                board_film = board.film.id
        self.bridge = ObsBridge(
            self.store,
            settings,
            airlog=self.asrun,
            overlay_urls={"program": self.server.url("program"), "preview": self.server.url("preview")},
            films=films,
            leaderboard_film=board_film,
            episode=self.store.state["show"]["episode"],
            assets=AssetResolver(server_roots(self.server), base=settings.assets_dir),
        )
        self.bridge.add_status_listener(self._obs_status)
        self.server.on_rendered(self.bridge.on_rendered)  # a program page inside OBS: evidence too
        self.bridge.start()
        say(f"OBS：连接 {settings.host}:{settings.port} …（在后台，不影响图形 / in the background）")
        if not self.bridge.wait_connected(max(0.0, float(getattr(self.args, "wait_obs", 3.0)))):
            say(
                f"OBS 未连接 / OBS not connected: {self.bridge.status.line}\n"
                "  图形照常服务，后台继续重试；OBS 没有确认的画面不计入播出记录 / the pages are served, "
                "retrying in the background; nothing counts as aired until OBS confirms it"
            )

    def _obs_status(self, status: Any) -> None:
        """Every change of the bridge's state or reason, once, with the real reason (never the
        password): wrong password, nothing listening, frozen, provisioning …"""
        key = (status.state, status.reason)
        if key == self._last_status:
            return
        self._last_status = key
        say(f"OBS：{status.line}")

    def shown(self, graphic: str, item: str) -> bool:
        """Does OBS show ``graphic`` with ``item`` on program now (as its answers told the bridge)?"""
        bridge = self.bridge
        return bridge is not None and bridge.tracker.on_air_since(graphic, item) is not None

    def attach_breaks(self, r: Any) -> None:
        """Let a rehearsal run the rundown's 中插 breaks: the 冠名/特约 films after the opening
        bumpers and the spots between games, played through OBS as one reel: each film starts the moment
        the one before ended — when OBS said it ended (not on the clock), or, in a quick run,
        ``QUICK_FILM_S`` after OBS started it — with no frame of the show between two films of a break.
        Without OBS no film can air: the rehearsal says so and goes on (and the sponsor report shows them
        as not delivered)."""
        if self.placements is None:
            return
        from broadcast.sponsors.rundown import build_rundown

        cues = build_rundown(self.placements, episode=self.store.state["show"]["episode"]).cues
        breaks: dict[str, list[Any]] = {}
        segment = "opening"
        for cue in cues:
            if cue.kind == "segment" and cue.id.startswith("game_"):
                segment = cue.id
            elif cue.kind == "film" and cue.id.startswith("break_"):
                breaks.setdefault(segment, []).append(cue)

        def run_break(segment: str) -> None:
            films = breaks.get(segment, [])
            if not films:
                return
            if self.bridge is None or not self.bridge.status.connected:
                for cue in films:
                    say(f"中插 {cue.label}：OBS 未连接，片子无法播出 / OBS not connected, film not aired")
                return
            say(f"中插 break: {'、'.join(cue.label for cue in films)}")
            try:  # one reel: each film straight after the one before, never the show between them
                reel = self.bridge.play_films(
                    [cue.film for cue in films], reason="break", hold=QUICK_FILM_S if r.quick else None
                )
            except Exception as exc:  # noqa: BLE001 - the show goes on; the as-run shows it
                say(f"警告 warning: 中插未能播出 the break did not air: {exc}")
                return
            budget = sum(float(cue.seconds or 0) + FILM_SLACK_S for cue in films)
            if not _until(r, reel.done, budget):
                say("警告 warning: OBS 没有报告中插片子结束 / OBS never reported the break's films ended")
            for film_id, why in reel.failed:
                say(f"警告 warning: {film_id} 未能播出 not aired: {why}")
            if reel.cut:
                say(f"警告 warning: 中插被中断 the break was cut short ({reel.cut})")

        r.after_opening = lambda: run_break("opening")
        r.after_game = lambda n: run_break(f"game_{n}")

    def stop(self) -> None:
        """A clean stop: the last change reaches OBS and OBS's answers the as-run log, what was on
        air is closed now, the episode's end time is recorded."""
        self._stopping.set()
        with self._retry_lock:
            pending = [what for what, _fn in self._pending]
        if pending:
            say(f"未写入 not written (the disk refused it until the end): {'、'.join(pending)}")
        if self.bridge is not None:
            self.bridge.flush(2.0)
            self.bridge.stop()
        if self.live is not None:
            self.live.stop()
        if self.server is not None:
            self.server.stop()
        if self.recorder is not None:
            self.recorder.end_episode(time.time())
            try:
                self.recorder.flush(5.0)
            except TimeoutError:
                say("警告 warning: 播出记录未写完 / the as-run log did not catch up")
            self.recorder.close()
        if self.asrun is not None:
            self.asrun.close()  # its last head into the ledger
        if self.season_link is not None:
            self.season_link.stop()
        if self.store is not None:
            self.store.close()
