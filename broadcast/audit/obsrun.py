"""``audit EPISODE --obs``: the episode in real time, on a real OBS too.

The same episode as the pages' audit, but on the wall clock: the OBS bridge puts it on OBS (the native
graphics where OBS has no browser source, the films from the placements, the 英雄榜冠名 film), the cue
runner ends the bumpers on their seconds and OBS ends the films, segments stay on air a moment as an
operator keeps them. The program page is measured at every change as without OBS, and an independent
poller (:mod:`.obswatch`, its own connection, every 50 ms) records what OBS's program showed, against
what the show meant: the game scene seen between two items when the show never meant it is a hole.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from broadcast.audit import report as R
from broadcast.audit.episode import Episode, Plan
from broadcast.audit.obswatch import Hole, Intent, ProgramWatch, holes
from broadcast.audit.studio import Auditor, session

HOLD = 1.5  # real seconds a segment stays on air (a game: a play every 50 ms)
REACT = 0.8  # seconds an operator takes to press GO once a film has ended
SHORT = 0.25  # seconds a film's airing may fall short of its length (OBS's start and end events)


def run_obs(
    number: int,
    placements: Any,
    out: Path,
    *,
    settings: Any,
    seed: int = 16,
    shots: str = "findings",
    browser: Any = None,
    say: Any = print,
) -> tuple[list[R.MomentRecord], list[Hole], dict[str, Any]]:
    """The episode on ``settings``' OBS: the moments measured on the page, the holes the poller saw,
    and what it saw (looks, scenes, as-run rows)."""
    from broadcast.obs.assets import AssetResolver, server_roots
    from broadcast.obs.bridge import ObsBridge
    from broadcast.sponsors.asrun import AsRunLog
    from broadcast.sponsors.cuerunner import CueRunner

    with session(out, browser=browser) as s:
        films = {fid: f.asset.path for fid, f in placements.films.items()}
        board = placements.one("leaderboard")
        board_film = board.film.id if board is not None and board.film is not None else None
        asrun = AsRunLog.open(s.db)
        s.stack.callback(asrun.close)
        bridge = ObsBridge(
            s.store,
            settings,
            airlog=asrun,
            overlay_urls={"program": s.server.url("program"), "preview": s.server.url("preview")},
            films=films,
            leaderboard_film=board_film,
            episode=f"第{number}期",
            assets=AssetResolver(server_roots(s.server), base=settings.assets_dir),
        )
        s.server.on_rendered(bridge.on_rendered)
        bridge.start()
        s.stack.callback(bridge.stop)
        if not bridge.wait_connected(max(60.0, settings.timeout * 6)):
            raise RuntimeError(f"OBS: {bridge.status.line}")
        watch = ProgramWatch(settings)
        watch.start()
        s.stack.callback(watch.stop)
        intent = Intent(s.store)
        s.stack.callback(intent.stop)
        runner = CueRunner(s.store, bridge=bridge)
        runner.start()
        s.stack.callback(runner.stop)

        def tick(seconds: float) -> None:
            time.sleep(seconds)

        plan = Plan(db=s.db, episode=number, placements=placements, seed=seed, hold=HOLD, react=REACT)
        auditor = Auditor(s.store, s.page, out, shots=shots, plan=plan, start=time.monotonic())
        Episode(s.store, plan, moment=auditor.moment, tick=tick, say=say).run()
        time.sleep(1.0)  # the last cut seen by the poller
        bridge.flush(5.0)
        watch.stop()
        found = holes(watch.looks, intent)
        short, airings = _films(s.db, {fid: float(f.seconds) for fid, f in placements.films.items()})
        seen = {
            "looks": len(watch.looks),
            "missed_looks": watch.errors,
            "scenes": sorted({scene for _t, scene in watch.looks}),
            "films_aired": _aired(s.db, "film_start"),
            "films_short": short,
            "films_missing": missing(s.store.state["cues"], _aired(s.db, "film_start")),
            "film_airings": airings,
            "graphics_aired": sorted(set(_aired(s.db, "graphic_on"))),
        }
        return auditor.moments, found, seen


def _films(db: Path, lengths: dict[str, float]) -> tuple[list[str], list[tuple[str, float]]]:
    """Films the as-run log shows cut short (aired ``SHORT`` seconds or more less than their length):
    a film whose end a timer decided, before OBS had played it out; and every airing (film, seconds)."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        sql = (
            "SELECT kind, subject, ts FROM asrun_events WHERE kind IN ('film_start', 'film_end') "
            "ORDER BY ts, id"
        )
        rows = conn.execute(sql).fetchall()
    finally:
        conn.close()
    out: list[str] = []
    started: dict[str, float] = {}
    airings: list[tuple[str, float]] = []
    for kind, fid, ts in rows:
        if kind == "film_start":
            started[fid] = float(ts)
        elif fid in started:
            aired = float(ts) - started.pop(fid)
            airings.append((str(fid), round(aired, 2)))
            if aired < lengths.get(fid, 0.0) - SHORT:
                out.append(f"{fid} {aired:.1f}/{lengths[fid]:.0f} s")
    return out, airings


def _aired(db: Path, kind: str) -> list[str]:
    """The subjects of the as-run log's rows of ``kind`` (what OBS confirmed), in order."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        sql = "SELECT subject FROM asrun_events WHERE kind=? ORDER BY ts, id"
        rows = conn.execute(sql, (kind,)).fetchall()
    finally:
        conn.close()
    return [str(r[0]) for r in rows]


def missing(cues: dict[str, Any], aired: list[str]) -> list[str]:
    """The film cues of the cue list whose film the as-run never shows starting (each airing counts
    once: a film booked twice must air twice), with the cue log's status and note."""
    left = list(aired)
    out: list[str] = []
    for cue in cues["list"]:
        if cue["kind"] != "film":
            continue
        if cue["film"] in left:
            left.remove(cue["film"])
            continue
        entry = cues["log"].get(cue["id"]) or {}
        said = " ".join(x for x in (str(entry.get("status", "not run")), str(entry.get("note", ""))) if x)
        out.append(f"{cue['id']} {cue['film']} ({said})")
    return out
