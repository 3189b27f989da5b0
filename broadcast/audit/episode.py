"""A whole rehearsed episode, played as the operator plays it, through the store.

The episode is a match of the season (two of its teams, their players in the seats) in a new episode
(``第16期`` of the demo season, whose 15 episodes are already played). The sponsors' placements give the
rundown, loaded as the cue list, and the episode walks it GO by GO: the corner bug, the opening bumpers
and the films that follow them, the 九宫格's introduction, the ticker, each game (the teams' lower
thirds TAKEn and CUT, the 记牌器 TAKEn, the title sponsor's 口播 marked, every play to the end banner,
the game saved to the season — which puts the 英雄榜 up to date), the breaks between games, the match
result, the 九宫格 draws, the 英雄榜 and its film, the credits, the ticker and the corner bug off; then the
season's match is made final.
Timed cues end as the cue runner ends them — on a scripted clock for the pages alone, in real time with
a real OBS.

Every change a viewer could see (program, the banner, a draw, the board while it is on) is handed to
``moment(label)``, which measures it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core.store import Change
from broadcast.sponsors.cues import TIMED, cue_list
from broadcast.sponsors.placements import Placements, to_state
from broadcast.sponsors.rundown import build_rundown

log = logging.getLogger(__name__)

Moment = Callable[[str], None]


@dataclass
class Plan:
    db: Path
    episode: int
    placements: Placements
    seed: int = 16
    hold: float = 0.0  # real seconds a segment stays on air (0: the scripted clock's own)
    react: float = 0.0  # seconds the operator takes to GO the cue after a film or bumper ran out
    labels: dict[str, str] = field(default_factory=dict)  # filled as it goes: a text's class → its label


def episode_number(text: str) -> int:
    """``第16期`` or ``16`` → 16 (ValueError otherwise)."""
    digits = text.strip().removeprefix("第").removesuffix("期")
    if not digits.isdigit() or not 0 < int(digits) < 1000:
        raise ValueError(text)
    return int(digits)


def _program(state: Mapping[str, Any]) -> dict[str, str]:
    return {g: str(e["item"]) for g, e in state["graphics"]["program"].items() if e["on"]}


def visible_change(change: Change) -> bool:
    """Would a viewer see this change: program, the scoreboard's banner, a draw, the board on air."""
    before, after = change.previous, change.state
    if "graphics" in change.changed and _program(before) != _program(after):
        return True
    if "table" in change.changed and before["table"]["message"] != after["table"]["message"]:
        return True
    if "jiugongge" in change.changed and before["jiugongge"].get("draw") != after["jiugongge"].get("draw"):
        return True
    on = _program(after)
    return ("leaderboard" in change.changed and "leaderboard" in on) or (
        "lower_third" in change.changed and "lower_third" in on
    )


class Episode:
    """Plays :class:`Plan` through ``store``; ``tick(seconds)`` lets ``seconds`` of air time pass (the
    scripted clock advanced and the cue runner ticked, or real time waited)."""

    def __init__(
        self,
        store: Any,
        plan: Plan,
        *,
        moment: Moment,
        tick: Callable[[float], None],
        say: Callable[[str], None] = lambda _s: None,
    ) -> None:
        self.store = store
        self.plan = plan
        self.moment = moment
        self.tick = tick
        self.say = say
        self.seen = 0  # the last seq measured
        self._pending: tuple[int, str] | None = None
        self._lock = threading.Lock()
        self.match_id = 0
        self.contestants: list[str] = []
        self.draws = 0

    # -- the store ------------------------------------------------------------------------------
    def _listen(self, change: Change) -> None:
        if not change.replayed and visible_change(change):
            with self._lock:
                self._pending = (change.seq, change.type)

    def settle(self, label: str = "") -> None:
        """Measure what changed on air since the last measure (once, at its newest state)."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None and pending[0] > self.seen:
            self.seen = pending[0]
            self.moment(label or pending[1])

    def do(self, type_: str, payload: Mapping[str, Any] | None = None, label: str = "") -> Change:
        change: Change = self.store.dispatch(type_, dict(payload or {}), source="audit")
        self.settle(label or type_)
        return change

    # -- the episode ------------------------------------------------------------------------------
    def run(self) -> None:
        from broadcast.season.live import finish_match

        unsubscribe = self.store.subscribe(self._listen, name="audit")
        try:
            self.setup()
            self.walk()
            if self.store.state["match"]["result"]["winner"] is not None:
                finish_match(self.store, self.plan.db)  # the record made final once the show is over
        finally:
            unsubscribe()

    def setup(self) -> None:
        from broadcast.season.live import start_match
        from broadcast.season.model import SeasonDB

        p = self.plan.placements
        self.do("sponsors.load", to_state(p))
        self.do("sponsors.episode_reset", {})
        with SeasonDB.open(self.plan.db) as sdb:
            season = sdb.season(None)
            teams = list(sdb.teams(int(season["id"])))
            pick = sorted(teams, key=lambda t: (t["name"] != "小当家便利店联盟队", t["id"]))[:2]
            lineup: dict[int, int] = {}
            for side, team in enumerate(pick):
                players = list(sdb.players(int(season["id"]), int(team["id"])))[:3]
                for k, pl in enumerate(players):
                    lineup[1 + side + 2 * k] = int(pl["id"])
        self.match_id = start_match(
            self.store,
            self.plan.db,
            season=int(season["id"]),
            episode=self.plan.episode,
            odd=int(pick[0]["id"]),
            even=int(pick[1]["id"]),
            lineup=lineup,
            label="第一轮",
        )
        self.settle("比赛设置 match set up")
        self.contestants = [s["name"] for s in self.store.state["table"]["seats"]][: p.rundown.contestants]
        rundown = build_rundown(p, episode=f"第{self.plan.episode}期", contestants=self.contestants)
        self.do("cues.load", {**cue_list(rundown), "restart": True})
        self._label_board()
        self.presentation()

    def presentation(self) -> None:
        """Before the rundown the host presents the match: the scoreboard and the host's lower third set
        on preview and TAKEn (they are on program when the opening bumpers are GO'd)."""
        host = self.store.state["show"]["host"] or "主持人"
        self.do("lower_third.set", {"name": host, "line2": "《够级大明星》主持人 · 现场直播"})
        for g in ("scoreboard", "lower_third"):
            self.do("graphic.set", {"bus": "preview", "graphic": g, "on": True})
        self.do("bus.take", {}, label="TAKE 比分牌 + 主持人人名条")
        self._hold(3.0)

    def _label_board(self) -> None:
        """What the 英雄榜's season line must say: the last episode whose games the board counts."""
        import sqlite3

        conn = sqlite3.connect(self.plan.db)
        try:
            row = conn.execute(
                "SELECT MAX(e.number) FROM season_matches m JOIN season_episodes e ON e.id=m.episode_id "
                "WHERE m.status='final' OR EXISTS (SELECT 1 FROM season_games g WHERE g.match_id=m.id)"
            ).fetchone()
        finally:
            conn.close()
        if row and row[0]:
            self.plan.labels["lb-season"] = f"第{row[0]}期后"

    def walk(self) -> None:
        """GO by GO to the end of the cue list; a timed cue runs until the runner ends it."""
        while True:
            cq = self.store.state["cues"]
            cur = cq["current"]
            if cur is not None and self._cue(cur["id"])["kind"] in TIMED:
                self._until_ends(cur["id"])
                now = self.store.state["cues"]["current"]
                if now is None:
                    self.tick(self.plan.react)  # nothing follows by itself: the operator sees it end, GO
                elif self._cue(now["id"])["kind"] not in TIMED:
                    self._after_go(self._cue(now["id"]))  # started by itself, after the film (the credits)
                continue
            if cq["next"] >= len(cq["list"]):
                break
            cue = cq["list"][cq["next"]]
            self.say(f"GO {cue['label']}")
            self.do("cues.go", {"expect": cue["id"]}, label=f"GO {cue['label']}")
            self._after_go(cue)

    def _cue(self, cid: str) -> dict[str, Any]:
        return next(c for c in self.store.state["cues"]["list"] if c["id"] == cid)

    def _until_ends(self, cid: str) -> None:
        cue = self._cue(cid)
        deadline = time.monotonic() + float(cue["seconds"] or 0) + 30.0
        while time.monotonic() < deadline:
            cur = self.store.state["cues"]["current"]
            if cur is None or cur["id"] != cid:
                break
            self.tick(0.1 if self.plan.hold else 0.5)  # in real time: see the end within 0.1 s
            self.settle()
        else:
            raise RuntimeError(f"cue {cid} did not end")
        self.settle()

    def _hold(self, seconds: float) -> None:
        self.tick(self.plan.hold or seconds)
        self.settle()

    def _after_go(self, cue: Mapping[str, Any]) -> None:
        cid = str(cue["id"])
        if cid.startswith("game_"):
            self.game(int(cid.split("_")[1]))
        elif cue["kind"] == "draw":
            self.draw(str(cue["item"]))
        elif cue["kind"] in ("segment", "leaderboard", "credits"):
            self._hold(4.0)
            if cue["kind"] == "leaderboard":
                self._label_board()
                self.moment("英雄榜 the board, its label checked")

    # -- a game -----------------------------------------------------------------------------------
    def game(self, n: int) -> None:
        """Game ``n`` to its end banner, saved to the season; the last one decides the match (an extra
        game and lots when G11.2 asks for them), whose result goes on the banner."""
        if n == 1:
            self.introduce_teams()
        self.play_one(n)
        last = n == self.plan.placements.rundown.games
        result = self.store.state["match"]["result"]
        if last and result["needs_extra_game"]:
            self.say("加赛 extra game (G11.2)")
            self.play_one(n + 1)
            result = self.store.state["match"]["result"]
        if last and result["needs_lots"]:
            self.say("抽签 lots (G11.2)")
            self.do("match.lots", {"seed": self.plan.seed})
        if last:
            self.result()

    def introduce_teams(self) -> None:
        """The teams' lower thirds, set on preview and TAKEn, then CUT off; the 记牌器 TAKEn."""
        table = self.store.state["table"]
        for team in ("odd", "even"):
            names = "、".join(s["name"] for s in table["seats"] if s["team"] == team)
            self.do("lower_third.set", {"name": table["teams"][team]["name"], "line2": names})
            self.do("graphic.set", {"bus": "preview", "graphic": "lower_third", "on": True})
            self.do("bus.take", {}, label=f"TAKE 人名条 {table['teams'][team]['name']}")
            self._hold(3.0)
            self.do("graphic.set", {"bus": "preview", "graphic": "lower_third", "on": False})
            self.do("bus.cut", {}, label="CUT 人名条下")
        self.do("graphic.set", {"bus": "preview", "graphic": "jipaiqi", "on": True})
        self.do("bus.take", {}, label="TAKE 记牌器")

    def play_one(self, n: int) -> None:
        """A self-played game dealt and played move by move (the title sponsor's 口播 marked twice), to
        its end banner, then saved to the season (which brings the 英雄榜 up to date)."""
        from broadcast.rehearsal import selfplay_records
        from broadcast.season.live import save_game

        rec = selfplay_records(self.plan.seed, self.store.state["table"]["rules"], games=n)[-1]
        self.do("game.new", {"leader": rec.leader, "rules": rec.rules, "hands": rec.hands})
        title = self.plan.placements.one("title")
        mentions = {len(rec.moves) // 3, 2 * len(rec.moves) // 3}
        for k, line in enumerate(rec.moves):
            self.store.dispatch("game.play", {"line": line}, source="audit")
            if k in mentions and title is not None:
                self.store.dispatch("sponsor.mention", {"sponsor": title.sponsor}, source="audit")
            if self.plan.hold:
                self.tick(0.05)
        self.settle(f"第{n}局结束 the end banner")
        save_game(self.store, self.plan.db)
        self._label_board()
        self._hold(3.0)

    def result(self) -> None:
        """The match result on the scoreboard's banner, as the operator types it."""
        t = self.store.state["table"]
        winner = self.store.state["match"]["result"]["winner"]
        name = t["teams"][winner]["name"] if winner else ""
        odd, even = t["teams"]["odd"]["points"], t["teams"]["even"]["points"]
        text = f"本场胜者：{name}　{odd} : {even}" if name else f"总分相同　{odd} : {even}"
        self.do("table.message", {"text": text}, label="比赛结果 the match result")
        self._hold(3.0)

    def draw(self, contestant: str) -> None:
        """The contestant's draw: a cell of the 九宫格 turned over (a different one each time)."""
        cells = self.store.state["jiugongge"].get("cells") or []
        if len(cells) != 9:
            return
        self._hold(2.0)
        cell = (self.draws * 4 + self.plan.seed) % 9
        self.draws += 1
        self.do("jiugongge.draw", {"contestant": contestant, "cell": cell}, label=f"九宫格 {contestant}")
        self._hold(4.0)
