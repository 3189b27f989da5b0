"""Run an episode's rundown through the application on a scripted clock: a rehearsal that leaves a
rehearsal as-run log (``source="rehearsal"``: what the rundown intended, never proof of air) in the
project database. Used by ``python -m broadcast sponsors rehearse``; ``python -m broadcast report …
--rehearsal`` reads it back into a report stamped 演练 on every page, to try the report's arithmetic.

``faults=True`` plays a realistic bad night: the host names the title sponsor only four times,
the table top is shot three times and the second 八宝豆豉 spot is cut after 9 s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from broadcast.clock import ScriptClock
from broadcast.core.store import ShowStore
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.placements import Placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.sponsors.rundown import build_rundown

CONTESTANTS = ("王建国", "李秀英", "张大山", "刘桂兰", "陈志强", "赵玉梅")


@dataclass
class Script:
    game_seconds: int = 540
    intro_seconds: int = 60
    draw_seconds: int = 25
    leaderboard_seconds: int = 20
    credits_seconds: int = 20
    title_mentions_per_game: int = 2
    table_shots_per_game: int = 2
    prizes: tuple[tuple[str, int], ...] = (("王建国", 800), ("李秀英", 500), ("张大山", 300))
    cut_spot: dict[tuple[str, int], float] = field(default_factory=dict)  # (film id, nth airing) → seconds


def rehearse(
    store: ShowStore,
    log: AsRunLog,
    p: Placements,
    clock: ScriptClock,
    *,
    episode: str,
    air_date: str,
    faults: bool = False,
    script: Script | None = None,
) -> None:
    """Play one episode into ``store`` (opened on ``clock``, set to the air start) and its as-run ``log``
    as rehearsal rows."""
    sc = script or Script()
    if faults:
        sc.title_mentions_per_game = 1
        sc.table_shots_per_game = 1
        sc.cut_spot[("babao_15s", 2)] = 9.0
    rec = AsRunRecorder(store, log, clock=clock, rehearsal=True)
    try:
        run_script(
            store,
            rec,
            p,
            clock,
            episode=episode,
            air_date=air_date,
            script=sc,
            extra_mentions=1 if faults else 0,
            extra_shots=0 if faults else 0,
        )
    finally:
        rec.flush()
        rec.close()


def run_script(
    store: ShowStore,
    rec: AsRunRecorder,
    p: Placements,
    clock: ScriptClock,
    *,
    episode: str,
    air_date: str,
    script: Script,
    extra_mentions: int = 0,
    extra_shots: int = 0,
) -> None:
    sc = script
    d = store.dispatch
    d("sponsors.load", to_state(p))
    d("sponsors.episode_reset", {})
    d("show.update", {"episode": episode, "air_date": air_date})
    title = p.one("title")
    stand = p.one("prize_stand")
    seen: dict[str, int] = {}

    def show(graphic: str, on: bool, item: str = "") -> None:
        payload: dict[str, object] = {"bus": "program", "graphic": graphic, "on": on}
        if item:
            payload["item"] = item
        d("graphic.set", payload)

    def play(film_id: str, seconds: int, sponsor: str) -> None:
        seen[film_id] = seen.get(film_id, 0) + 1
        rec.film_started(film_id, sponsor=sponsor)
        clock.advance(sc.cut_spot.get((film_id, seen[film_id]), seconds))
        rec.film_ended(film_id)

    contestants = list(CONTESTANTS[: p.rundown.contestants]) + [
        f"选手{i}" for i in range(len(CONTESTANTS) + 1, p.rundown.contestants + 1)
    ]
    draw_no = 0
    game_no = 0
    for cue in build_rundown(p, episode=episode, contestants=contestants).cues:
        if cue.kind == "graphic":
            show(cue.graphic, cue.action == "on", cue.item)
        elif cue.kind == "bumper":
            show("bumper", True, cue.item)
            clock.advance(cue.seconds or 5)
            show("bumper", False)
        elif cue.kind == "film":
            play(cue.film, cue.seconds or 0, cue.sponsor)
        elif cue.id == "intro_prizes":
            show("jiugongge", True, "intro")
            for cell in p.cells:
                clock.advance(sc.intro_seconds / 9)
                if stand is not None and cell.index == 4:
                    d("sponsor.mention", {"sponsor": stand.sponsor})
            show("jiugongge", False)
        elif cue.id.startswith("game_"):
            game_no += 1
            show("scoreboard", True, cue.item)
            n = sc.title_mentions_per_game + (extra_mentions if game_no == 1 else 0)
            shots = sc.table_shots_per_game + (extra_shots if game_no == 1 else 0)
            steps = n + shots + 1
            for i in range(steps - 1):
                clock.advance(sc.game_seconds / steps)
                if i < n and title is not None:
                    d("sponsor.mention", {"sponsor": title.sponsor})
                elif p.one("table") is not None:
                    d("sponsor.shot", {"slot": "table"})
            clock.advance(sc.game_seconds / steps)
            show("scoreboard", False)
            if game_no == p.rundown.games:
                for who, yuan in sc.prizes:
                    d("charity.update", {"prize": {"contestant": who, "yuan": yuan, "note": "擂台奖金"}})
        elif cue.kind == "draw":
            show("jiugongge", True, cue.item)
            clock.advance(5)
            d("jiugongge.draw", {"contestant": cue.item, "cell": (draw_no * 4) % 9})
            draw_no += 1
            clock.advance(sc.draw_seconds - 5)
            d("jiugongge.clear", {})
            show("jiugongge", False)
        elif cue.kind == "leaderboard":
            show("leaderboard", True, cue.item)
            clock.advance(sc.leaderboard_seconds)
            show("leaderboard", False)
        elif cue.kind == "credits":
            show("credits", True, cue.item)
            clock.advance(sc.credits_seconds)
            show("credits", False)
    clock.advance(1)
    rec.end_episode()
