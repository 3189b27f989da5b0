"""kill -9 OBS five times during a show, next to an independent poller: nothing is credited after
each death (issue 22: the outage starts at OBS's last answer — the heartbeat's last reply — not when the
studio notices the dropped connection), the rows are in time order, the log verifies against its
signed head ledger. Figures go to ``test-artifacts/obs/kill_run/figures.txt``."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.headless import HeadlessObs
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import watched_spans
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.sponsors.verify import verify_log
from broadcast.studio import open_store

from .conftest import ROOT, bridge_settings, restart_after_kill
from .test_outage_run import DEMO, Poller

pytestmark = pytest.mark.obs

EP = "第10期"
KILLS = 5


def _until(what: Callable[[], bool], timeout: float, why: str) -> None:
    """Wait on the thing compared (never on time alone): a loaded machine only makes it later."""
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.02)


@pytest.mark.long
@pytest.mark.timeout(900)  # five OBS restarts on a shared, loaded machine
@pytest.mark.xdist_group("obs")  # one real OBS at a time
def test_kill_9_five_times_credits_nothing_after_each_death(obs_to_kill: HeadlessObs, tmp_path: Path) -> None:
    out_dir = ROOT / "test-artifacts" / "obs" / "kill_run"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    asrun = AsRunLog.open(db, anchored=True)
    recorder = AsRunRecorder(store, asrun)
    store.dispatch("sponsors.load", to_state(load_placements(DEMO)))
    store.dispatch("show.update", {"episode": EP, "air_date": "2012-05-08"})
    poller = Poller(obs_to_kill)
    bridge = ObsBridge(store, bridge_settings(obs_to_kill), airlog=asrun)
    kills: list[tuple[float, float]] = []  # (just before SIGKILL, OBS reaped)

    def on_air() -> bool:
        t = bridge.tracker
        return (
            bridge.status.connected
            and t.program == L.SCENE_GAME
            and {"corner_bug", "scoreboard"} <= set(t.on_air)
        )

    def heartbeat_since(t: float) -> Callable[[], bool]:
        return lambda: bridge.client is not None and bridge.client.connected and bridge.client.alive_since > t

    def seen(scene: str, after: float) -> Callable[[], bool]:
        return lambda: any(s.ts > after and s.program == scene for s in list(poller.samples))

    t_start = time.time()
    try:
        poller.thread.start()
        bridge.start()
        assert bridge.wait_connected(120), bridge.status
        store.dispatch("graphic.set", {"bus": "program", "graphic": "corner_bug", "on": True})
        store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard", "on": True})
        for k in range(KILLS):
            _until(on_air, 120, f"kill {k + 1}: the show on air again ({bridge.status})")
            # a cut to the 英雄榜 and back, seen by OBS's program and by the poller
            t_cut = time.time()
            store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": True})
            _until(lambda: bridge.tracker.program == L.SCENE_LEADERBOARD, 60, "the 英雄榜 on program")
            _until(seen(L.SCENE_LEADERBOARD, t_cut), 60, "the poller sees the 英雄榜")
            t_back = time.time()
            store.dispatch("graphic.set", {"bus": "program", "graphic": "leaderboard", "on": False})
            _until(on_air, 60, "back on the game")
            _until(seen(L.SCENE_GAME, t_back), 60, "the poller sees the game")
            # on air a moment: OBS answered a heartbeat sent since the game came back (not a fixed 0.5 s)
            _until(heartbeat_since(time.time()), 30, "a heartbeat answered on the game")
            before = time.time()
            obs_to_kill.kill()
            kills.append((before, time.time()))
            _until(lambda: not bridge.status.connected, 30, "the bridge notices the dead OBS")
            restart_after_kill(obs_to_kill)
        _until(on_air, 120, "on air after the last restart")
        bridge.flush(30)
    finally:
        bridge.stop()
        poller.stop.set()
        poller.thread.join(10)
        recorder.end_episode(time.time())
        recorder.flush()
        recorder.close()
        asrun.close()
        store.close()

    log = AsRunLog.open(db)
    rows = log.events(EP)
    by_id = sorted(log.events(EP), key=lambda e: e.id)
    assert all(a.ts <= b.ts for a, b in zip(by_id, by_id[1:], strict=False))  # rows in time order
    verdict = verify_log(log.connection, db)
    assert verdict.ok, verdict.lines()
    info = log.episode(EP)
    assert info is not None and info.started is not None and info.ended is not None
    watched, outages = watched_spans(rows, info.started, info.ended, log.link_before(info.started))
    log.close()
    lost = [o for o in outages if o.cause in ("lost", "frozen")]
    assert len(lost) >= KILLS, outages
    credited_after: list[float] = []  # seconds OBS was counted as seen after each death
    given_up: list[float] = []  # seconds before each death no longer counted (since the last answer)
    for before, _dead in kills:
        after = max((b - before for a, b in watched if a < before < b + 5.0), default=0.0)
        credited_after.append(max(0.0, after))
        out = next(o for o in lost if o.start - 5.0 <= before <= o.end)
        given_up.append(before - out.start)
        # the poller (its own connection) saw OBS until the kill, so the outage is OBS's, not the poller's
        assert any(before - 5.0 <= s.ts <= before for s in poller.samples)
    figures = (
        f"kill -9 ×{KILLS} during a show (independent poller every 50 ms, {len(poller.samples)} samples):\n"
        f"credited after each death: {', '.join(f'{c * 1000:.0f} ms' for c in credited_after)}\n"
        f"not credited before each death (death − OBS's last answer): "
        f"{', '.join(f'{g * 1000:.0f} ms' for g in given_up)}\n"
        f"rows: {len(rows)}, in time order; {verdict.lines()[1].strip()}\n"
        f"run {time.time() - t_start:.0f} s\n"
    )
    (out_dir / "figures.txt").write_text(figures, encoding="utf-8")
    print(figures)
    assert credited_after == [0.0] * KILLS, figures
    assert all(0.0 <= g < 5.0 for g in given_up), figures
    assert any(e.kind == A.OBS_DOWN and e.subject in ("lost", "frozen") for e in rows)
