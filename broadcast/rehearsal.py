"""``python -m broadcast rehearse``: replay a demo match through the on-air graphics at a watchable pace.

    python -m broadcast rehearse                       # a 3-game demo match from the engine's self-play
    python -m broadcast rehearse --pace 0.3 --seed 9   # faster, another deal
    python -m broadcast rehearse --games g1.gjn g2.gjn g3.gjn   # real records instead

Everything goes through the store as the studio would do it (sponsors.load, match.new, game.new,
game.play …, graphic.set on preview then bus.take), so the rehearsal exercises the same journal,
reducers and pages as a recording. The program/preview URLs to add as OBS browser sources are printed
first. The match: the 5 s opening bumpers, the corner bug and the commentary slot, a lower third per
team, then each game play by play (scoreboard + 记牌器), the 九宫格 draw for the match's best player,
and the end credits. Ctrl-C stops cleanly at any point.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast import resources
from broadcast.errors import GoujiError
from broadcast.game.live import RUNTIME_KEY
from broadcast.overlay.cli import add_server_arguments, fail, print_urls, resolve_token, wait_for_interrupt
from engine.words import seat_name

DEMO_PLACEMENTS = resources.demo_placements()
TEAMS = {"odd": {"name": "小当家联盟队"}, "even": {"name": "沂河源代表队"}}
NAMES = ["张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰"]


STORAGE_RETRY_S = 2.0  # a refused journal write is tried again this often


class Stopped(Exception):
    pass


class RecordError(GoujiError):
    """A record that will not open: ``where`` is ``file:line``, ``rule`` the clause (or GJN)."""

    show_rule = True  # str(): "file:line: [G4.1] 中文 / English"


@dataclass
class GameRecord:
    """One game of a record, checked by the engine: its set-up, the [SeatN] names and the moves."""

    label: str
    hands: list[str]
    counts: list[int]
    leader: int
    rules: str
    names: dict[int, str]
    moves: list[str]
    path: str = ""
    over: bool = True

    def new_payload(self) -> dict[str, Any]:
        """The ``game.new`` that sets this game on the table (dealt hands, or counts, or neither)."""
        payload: dict[str, Any] = {"leader": self.leader, "rules": self.rules}
        if self.hands:
            payload["hands"] = list(self.hands)
        elif self.counts:
            payload["counts"] = list(self.counts)
        return payload


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="项目数据库（默认临时文件）/ project database (default: temporary)")
    parser.add_argument("--pace", type=float, default=0.8, help="每手牌的秒数 / seconds per play (0.8)")
    parser.add_argument("--seed", type=int, default=2011, help="演示比赛的随机种子 / demo match seed")
    parser.add_argument(
        "--games", nargs="+", metavar="GJN", help="用这些牌谱代替自动对局 / replay these GJN records"
    )
    parser.add_argument("--rules", choices=("tv_match", "dagang"), default="tv_match")
    parser.add_argument(
        "--placements",
        default=str(DEMO_PLACEMENTS),
        help="赞助排期 YAML / sponsor placements file (default: the demo set)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="缩短片头片尾 / short bumpers and credits (tests)"
    )
    parser.add_argument(
        "--exit-when-done",
        action="store_true",
        help="演完即退出（默认继续提供图形直到 Ctrl-C）/ exit after the match",
    )
    add_server_arguments(parser)


# ------------------------------------------------------------------------------- the match data
def selfplay_records(seed: int, rules: str, games: int = 3) -> list[GameRecord]:
    """A match from the engine: each game dealt and played out, written as GJN and read back."""
    from engine import first_leader, gjn, new_game

    out = []
    for i in range(games):
        game_seed = seed * 10 + i
        g = new_game(rules, seed=game_seed, leader=first_leader(game_seed))
        g.play_randomly(random.Random(f"rehearsal:{game_seed}"))
        text = gjn.write(gjn.from_game(g, [("Event", f"彩排 第{i + 1}局"), ("Seed", str(game_seed))]))
        rec = _record(gjn.parse(text, f"selfplay-{game_seed}.gjn"), f"第{i + 1}局（种子 {game_seed}）")
        out.append(rec)
    return out


def _record(rec: Any, label: str, *, over: bool = True) -> GameRecord:
    from engine import GJNError

    hands = rec.hands()
    counts = rec.counts()
    if rec.leader is None:
        raise GJNError('missing [Leader "seat"] (G12: who leads first)', 1, rec.filename)
    return GameRecord(
        label=label,
        hands=[hands.get(s, "") for s in range(1, 7)] if hands else [],
        counts=[counts.get(s, 36) for s in range(1, 7)] if counts and not hands else [],
        leader=rec.leader,
        rules=rec.rules,
        names=rec.names(),
        moves=[str(m.action) for m in rec.moves],
        path=rec.filename or "",
        over=over,
    )


def read_record(path: str | Path, *, finished: bool = False) -> GameRecord:
    """A GJN file read by the engine's reader (``engine.gjn.read``: unreadable, not UTF-8 or over
    ``engine.gjn.MAX_BYTES`` is refused unread), parsed and replayed move by move in the engine. It may
    stop mid-game (a referee's record, a test position with partial hands) unless ``finished``; no move
    may break a rule. :class:`RecordError` — one line ``file:line: [clause] why``, both languages —
    when it cannot be opened (the ``GJNError`` of a malformed file is its ``__cause__``)."""
    from engine import gjn
    from engine.errors import GJNError, IllegalAction

    name = str(path)
    try:
        rec = gjn.parse(gjn.read(path), name)
        game = gjn.replay(rec, undo=False)
        out = _record(rec, Path(name).name, over=game.is_over())
    except IllegalAction as e:
        raise RecordError(
            e.rule,
            f"第{e.move}步（{e.seat}号）：{e.zh}",
            f"move {e.move} (seat {e.seat}): {e.en}",
            where=f"{name}:{e.line}",
        ) from None
    except GJNError as e:
        raise RecordError("GJN", f"牌谱格式有误：{e.zh}", f"not a valid record: {e.en}", where=e.where) from e
    counts = rec.counts()
    mixed = sorted(s for s, c in counts.items() if s not in rec.hands() and c != 36)
    if out.hands and mixed:  # game.new takes dealt hands or counts, not both: refused before anything is sent
        raise RecordError(
            "G2.1",
            f"牌谱既有手牌又有{mixed[0]}号的张数（Count）：导播台只能二者取一（全是手牌，或全是张数）",
            f"the record gives dealt hands and a count for seat {mixed[0]}: the console takes one or the "
            "other (all hands, or all counts)",
            where=f"{name}:{rec.tag_lines.get(f'Count{mixed[0]}', 1)}",
        )
    if finished and not out.over:
        stop = gjn.check_record(rec)["error"]
        raise RecordError(
            "G10.4",
            f"牌谱在本局结束前中止（未完）：应由{stop['seat']}号行动（第{stop['move']}步）",
            f"the record ends before the game is over (unfinished): seat {stop['seat']} is to act "
            f"(move {stop['move']})",
            where=f"{name}:{stop['line']}",
        )
    return out


def file_records(paths: list[str]) -> list[GameRecord]:
    """Whole games from GJN files, checked before anything is shown: a bad file is one line
    ``file:line: what`` (a malformed one in the engine's own words)."""
    from engine import GJNError

    out = []
    for p in paths:
        try:
            out.append(read_record(p, finished=True))
        except RecordError as exc:
            fail(str(exc.__cause__) if isinstance(exc.__cause__, GJNError) else str(exc))
    return out


# ------------------------------------------------------------------------------- the run
class Rehearsal:
    def __init__(
        self, store: Any, pace: float, quick: bool, stop: threading.Event, say: Callable[[str], None]
    ) -> None:
        self.store = store
        self.pace = max(0.0, pace)
        self.quick = quick
        self.stop = stop
        self.say = say
        # the break after the opening bumpers and after game N (the rundown's 中插); set by the studio
        # when it can play films (through OBS); ``after_game(n)`` runs between game n and game n+1
        self.after_opening: Callable[[], None] | None = None
        self.after_game: Callable[[int], None] | None = None
        # the least a quick run holds a paid graphic (a bumper): with OBS (``run --quick``) long enough for
        # OBS to draw it on a loaded machine (0.2 s was not always), or it would rightly not count as
        # aired; ``rehearse`` has no OBS (its pages are the whole show) and sets 0: held like the rest
        self.paid_hold = 1.0
        # set by the studio while OBS is connected: has OBS shown ``graphic`` with ``item`` on program? A
        # paid graphic's hold then starts when OBS showed it (a loaded OBS can take longer than the hold)
        self.shown: Callable[[str, str], bool] | None = None

    def wait(self, seconds: float) -> None:
        if self.stop.wait(max(0.0, seconds)):
            raise Stopped

    def until_shown(self, graphic: str, item: str, seconds: float) -> None:
        """Wait until OBS has shown ``graphic`` with ``item`` (looked at every 50 ms), at most ``seconds``;
        at once without OBS."""
        end = time.monotonic() + seconds
        while self.shown is not None and not self.shown(graphic, item) and time.monotonic() < end:
            self.wait(0.05)

    def hold(self, seconds: float) -> float:
        return min(seconds, 0.2) if self.quick else seconds

    def do(self, type_: str, payload: dict[str, Any] | None = None) -> Any:
        """Dispatch one action. When the disk refuses the journal write (full, read-only, I/O error)
        the action is not applied: the pages keep the last state, the operator is told once in one
        line, and the same action is tried again every few seconds until the disk takes it."""
        from broadcast.core.db import StorageError

        failing = False
        while True:
            try:
                change = self.store.dispatch(type_, payload or {}, source="rehearsal")
            except StorageError as exc:
                if not failing:
                    self.say(
                        f"写入失败 write refused: {exc} — 图形保持最后的状态，"
                        f"每 {STORAGE_RETRY_S:g} 秒重试 / the pages keep the last state; "
                        f"retrying every {STORAGE_RETRY_S:g} s"
                    )
                    failing = True
                self.wait(STORAGE_RETRY_S)
                continue
            if failing:
                self.say(f"写入恢复 writes work again: #{change.seq} {type_}")
            return change

    def on(self, graphic: str, on: bool = True, item: str | None = None, bus: str = "both") -> None:
        """A graphic on/off. ``both`` (a direct cut) sets preview too, so preview keeps mirroring
        program and the next TAKE carries the corner bug, the ticker … over instead of dropping them."""
        for b in ("preview", "program") if bus == "both" else (bus,):
            payload: dict[str, Any] = {"bus": b, "graphic": graphic, "on": on}
            if item is not None:
                payload["item"] = item
            self.do("graphic.set", payload)

    def has(self, type_: str) -> bool:
        return type_ in self.store.actions

    # -- segments ------------------------------------------------------------------------------
    def setup(self, placements: str, records: list[GameRecord]) -> None:
        self.do("show.update", {"episode": "彩排", "round": "演示赛", "subtitle": "棋牌大明星（第一季）"})
        if placements and self.has("sponsors.load"):
            try:
                from broadcast.sponsors.placements import load_placements, to_state

                self.do("sponsors.load", to_state(load_placements(placements)))
                self.say(f"赞助排期 sponsors: {placements}")
            except Exception as exc:  # the rehearsal goes on without sponsor graphics
                self.say(f"警告 warning: 赞助排期未加载 placements not loaded: {exc}")
        names = list(NAMES)
        for s, n in records[0].names.items():
            names[s - 1] = n
        self.do(
            "match.new",
            {
                "teams": TEAMS,
                "names": names,
                "games_in_match": max(3, len(records)),
                "rules": records[0].rules,
            },
        )

    def opening(self) -> None:
        # the 独家特约 corner bug goes up first and stays for the whole broadcast (the rundown's first cue)
        self.on("corner_bug")
        bumpers = self.store.state["sponsors"].get("bumpers", [])
        for b in bumpers:
            self.say(f"片头 bumper: {b['text']}")
            self.on("bumper", True, b["id"])
            # a bumper is a sponsor's paid graphic: a quick run holds it at least ``paid_hold`` from when
            # OBS showed it
            seconds = float(b.get("seconds", 5))
            self.until_shown("bumper", str(b["id"]), seconds)
            self.wait(min(seconds, max(self.hold(seconds), self.paid_hold)))
        self.on("bumper", False)
        for g in ("commentary", "ticker"):
            self.on(g)
        for team in ("odd", "even"):
            seats = [s for s in self.store.state["table"]["seats"] if s["team"] == team]
            name = self.store.state["table"]["teams"][team]["name"]
            self.do(
                "lower_third.set",
                {"name": name, "line2": "、".join(seat_name(s["seat"], s["name"]) for s in seats)},
            )
            self.on("lower_third")
            self.wait(self.hold(4.0))
            self.on("lower_third", False)
            self.wait(self.hold(0.6))
        self.on("commentary", False)

    def game(self, rec: GameRecord) -> Any:
        """Play one record through the store; returns the engine's result of the game."""
        self.do("game.new", rec.new_payload())
        table = self.store.state["table"]
        self.say(f"—— 第{table['game_no']}局 {rec.label}：{rec.leader}号上班，{len(rec.moves)} 步")
        # the scoreboard is set up on preview and taken to air, as the operator does
        for g in ("scoreboard", "jipaiqi"):
            self.on(g, bus="preview")
        self.do("bus.take")
        for line in rec.moves:
            self.do("game.play", {"line": line})
            lp = self.store.state["table"]["last_play"]
            passing = line.split()[1] in ("pass", "yield")
            if not passing and lp:
                tags = (" 够级" if lp["gouji"] else "") + (" 烧牌" if lp["burn"] else "")
                self.say(f"  {line:<14} {lp['label']}{tags}")
            self.wait(self.pace * (0.4 if passing else 1.0))
        t = self.store.state["table"]
        titles = "，".join(f"{s['seat']}号{s['title']}" for s in t["seats"] if s["title"])
        self.say(f"  {t['message']}（{titles}）")
        self.wait(self.hold(4.0))
        return self.store.runtime[RUNTIME_KEY].game.result()

    def play_match(
        self, records: list[GameRecord], seed: int, rules: str = "tv_match", extra_games: bool = True
    ) -> Any:
        """The games, the extra game(s) G11.2 asks for on a tie (self-play), then the finale.
        Returns the engine's ``Match``."""
        from engine.match import Match

        match = Match(rules, seed=seed)
        for n, rec in enumerate(records, start=1):
            match.add_game(self.game(rec))
            if self.after_game is not None and n < len(records):
                self.after_game(n)
        extra = 0
        while match.needs_game and extra_games and extra < 2:
            extra += 1
            self.say(f"总分相同 {match.totals['odd']}:{match.totals['even']}，加赛一局（G11.2）")
            rec = selfplay_records(seed, rules, games=len(records) + extra)[-1]
            rec.label = f"加赛（{rec.label}）"
            match.add_game(self.game(rec))
        self.finale(match)
        return match

    def finale(self, match: Any = None) -> None:
        """Match result, 九宫格 draw, 英雄榜, credits. ``match``: the engine's Match (winner, how it was
        decided); without it the table's totals decide."""
        t = self.store.state["table"]
        odd, even = t["teams"]["odd"], t["teams"]["even"]
        if match is not None:
            how = {
                "points": "",
                "extra_game": "（加赛决出）",
                "lots": "（总分相同，抽签决出）",
                "forfeit": "（对方弃权）",
            }.get(match.decided_by or "", "")
            side = match.winner
        else:
            how = ""
            diff = odd["points"] - even["points"]
            side = "odd" if diff > 0 else "even" if diff < 0 else None
        winner = t["teams"][side]["name"] if side else ""
        text = f"本场胜者：{winner}{how}" if winner else "总分相同（G11.2：加赛一局）"
        self.do("table.message", {"text": f"{text}　{odd['points']} : {even['points']}"})
        self.say(f"== 比赛结束 {odd['name']} {odd['points']} : {even['points']} {even['name']}")
        self.wait(self.hold(4.0))
        cells = self.store.state["jiugongge"].get("cells") or []
        if len(cells) == 9 and self.has("jiugongge.draw"):
            best = next((s for s in t["seats"] if s["title"] == "头科"), t["seats"][0])
            cell = random.Random(f"draw:{best['name']}").randrange(9)
            self.on("jiugongge")
            self.wait(self.hold(3.0))
            try:
                self.do("jiugongge.draw", {"contestant": best["name"], "cell": cell})
                prize = cells[cell]
                self.say(f"九宫格 draw: {best['name']} → {prize.get('prize')}（{prize.get('sponsor')}）")
            except Exception as exc:
                self.say(f"警告 warning: 九宫格未抽奖 no draw: {exc}")
            self.wait(self.hold(6.0))
            if not self.store.state["leaderboard"].get("rows"):
                self.on("jiugongge", False)
            # else the 英雄榜 replaces the 九宫格 on its layer in one change (broadcast.show.zones): taken
            # off first, program showed the game scene, its scoreboard and ticker, for a moment between them
        if self.store.state["leaderboard"].get("rows"):
            self.on("leaderboard")
            self.wait(self.hold(8.0))
            self.on("leaderboard", False)
            # the 英雄榜冠名's film airs right after the board (the OBS bridge rolls it as the board
            # comes off); nothing else goes on until it has run
            film = next(
                (f for f in self.store.state["sponsors"].get("films", []) if f.get("slot") == "leaderboard"),
                None,
            )
            if film is not None:
                self.say(f"英雄榜冠名宣传片 leaderboard film: {film['name']} {film['seconds']} 秒")
                self.wait(self.hold(float(film["seconds"]) + 1.0))
        for g in ("scoreboard", "jipaiqi", "ticker"):
            self.on(g, False)
        self.on("credits")
        self.say("片尾鸣谢 credits")
        self.wait(self.hold(20.0))
        self.on("credits", False)


def main(args: argparse.Namespace) -> int:
    from broadcast.core.db import DatabaseError
    from broadcast.studio import open_store

    token = resolve_token(args)
    if args.pace < 0:
        fail("rehearse: --pace 不能为负 must not be negative")
    records = file_records(args.games) if args.games else selfplay_records(args.seed, args.rules)
    from broadcast.overlay.server import OverlayServer  # (aiohttp) once the input is known to be good

    tmp: tempfile.TemporaryDirectory[str] | None = None
    if args.db:
        db_path = Path(args.db)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="gouji-rehearsal-")
        db_path = Path(tmp.name) / "rehearsal.sqlite"
    try:
        store = open_store(db_path)
    except DatabaseError as exc:
        fail(f"{db_path}:0: {exc}")
    server = OverlayServer(store, host=args.host, port=args.port, token=token)
    try:
        server.start()
    except OSError as exc:
        store.close()
        fail(f"rehearse: {exc.strerror or exc} (use --port N, or --port 0 for any free port)")
    print_urls(server)
    print("开始彩排，按 Ctrl-C 停止 / rehearsal starting, Ctrl-C to stop", flush=True)
    stop = threading.Event()

    def say(text: str) -> None:
        print(text, flush=True)

    r = Rehearsal(store, args.pace, args.quick, stop, say)
    r.paid_hold = 0.0  # no OBS to wait for
    try:
        try:
            r.wait(r.hold(2.0))  # time to point OBS at the pages
            r.setup(args.placements, records)
            r.opening()
            r.play_match(records, args.seed, args.rules, extra_games=not args.games)
            say("彩排完成 / rehearsal done")
            if not args.exit_when_done:
                say("图形服务继续运行，按 Ctrl-C 停止 / still serving the pages, Ctrl-C to stop")
                wait_for_interrupt(stop)
        except (Stopped, KeyboardInterrupt):
            say("已停止 / stopped")
    finally:
        server.stop()
        store.close()
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":  # pragma: no cover
    from broadcast.__main__ import main as cli

    sys.exit(cli(["rehearse", *sys.argv[1:]]))
