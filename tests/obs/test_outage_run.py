"""A show with OBS outages (kill -9 and SIGSTOP) next to an independent poller of OBS.

The studio's own pieces on one SQLite file — store, as-run recorder, OBS bridge — drive a real OBS
through cuts between the game and the 英雄榜 and graphics on and off, while a second, independent
connection polls OBS every 50 ms for what program really shows. OBS is killed and restarted, then
frozen for a few seconds. What must hold: the as-run rows are in time order, one per change, each
change the poller saw outside the outages has its row (the time difference is measured and printed),
nothing is credited during the outages, which the report lists with their cause; the chain verifies.
The report's pages and the figures go to ``test-artifacts/obs/outage_run/``.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsError
from broadcast.obs.headless import HeadlessObs
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.sponsors.report import html_to_pdf, pdf_footer, write_reports
from broadcast.studio import default_state, open_store

from .conftest import ROOT, bridge_settings, restart_after_kill

pytestmark = pytest.mark.obs

EP = "第9期"
POLL = 0.05
# each outage falls on a settled show, not on a change OBS is still applying (its proof picture taken
# 0.3 s later), and late enough that the phase's changes are compared: the comparison leaves out what the
# poller saw within 1 s of an outage's start, which is when OBS was last seen (a little before the kill).
# A fixed 0.7 s left most of a phase's cuts inside that second once the bridge applied them faster.
SETTLE = 2.0
SCOREBOARD = {i.source for i in L.build_layout(default_state(), browser=False).graphics["scoreboard"]}
DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


@dataclass(frozen=True)
class Seen:
    ts: float  # wall clock when the poller's answer arrived
    program: str
    scoreboard: bool  # one of the scoreboard's items in the game scene is enabled


class Poller:
    """An independent observer: its own connection, GetCurrentProgramScene + GetSceneItemList every
    50 ms; it reconnects by itself after OBS comes back."""

    def __init__(self, obs: HeadlessObs) -> None:
        self.settings = bridge_settings(obs, timeout=1.0)
        self.samples: list[Seen] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="poller", daemon=True)

    def _run(self) -> None:
        client: ObsClient | None = None
        while not self.stop.is_set():
            try:
                if client is None or not client.connected:
                    client = ObsClient(self.settings)
                    client.connect()
                (prog, items), at = client.pipeline_timed(
                    [("GetCurrentProgramScene", {}), ("GetSceneItemList", {"sceneName": L.SCENE_GAME})]
                )
                if isinstance(prog, ObsError) or isinstance(items, ObsError):
                    raise ObsError(en="poll refused")
                shown = {i["sourceName"] for i in items.get("sceneItems", []) if i["sceneItemEnabled"]}
                board = bool(SCOREBOARD & shown)  # one of its two picture sources is shown
                self.samples.append(Seen(at, str(prog.get("currentProgramSceneName", "")), board))
            except ObsError:
                if client is not None:
                    client.close()
                client = None
            self.stop.wait(POLL)
        if client is not None:
            client.close()

    def changes(self) -> list[tuple[float, str, str]]:
        """(time first seen, what, value): program scene changes and scoreboard flips on program."""
        out: list[tuple[float, str, str]] = []
        prev: Seen | None = None
        for s in self.samples:
            if prev is not None and s.ts - prev.ts < 1.0:  # consecutive samples, no outage between
                if s.program != prev.program:
                    out.append((s.ts, "scene", s.program))
                elif s.program == L.SCENE_GAME and s.scoreboard != prev.scoreboard:
                    out.append((s.ts, "scoreboard", "on" if s.scoreboard else "off"))
            prev = s
        return out


@pytest.mark.long
@pytest.mark.timeout(600)  # a real OBS through outages on a shared, loaded machine
def test_outage_run_against_an_independent_poller(obs_to_kill: HeadlessObs, tmp_path: Path) -> None:
    out_dir = ROOT / "test-artifacts" / "obs" / "outage_run"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    db = tmp_path / "studio.sqlite"
    p = load_placements(DEMO)
    store = open_store(db)
    asrun = AsRunLog.open(db)
    recorder = AsRunRecorder(store, asrun)
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": EP, "air_date": "2012-05-07"})
    poller = Poller(obs_to_kill)
    bridge = ObsBridge(store, bridge_settings(obs_to_kill), airlog=asrun)
    marks: dict[str, float] = {}

    def shows(graphic: str, on: bool) -> Callable[[Seen], bool]:
        """What the poller sees on program once OBS shows the change (the corner bug it does not poll)."""
        if graphic == "leaderboard":
            return lambda s: s.program == (L.SCENE_LEADERBOARD if on else L.SCENE_GAME)
        if graphic == "scoreboard":
            return lambda s: s.program == L.SCENE_GAME and s.scoreboard == on
        return lambda s: True

    def take(graphic: str, on: bool, hold: float | None = None) -> None:
        """One change; while OBS is up, held until the poller sees OBS show it (so that each change is
        on program before the next, and seen); while OBS is down, held ``hold`` seconds."""
        asked = time.time()
        store.dispatch("graphic.set", {"bus": "program", "graphic": graphic, "on": on})
        if hold is not None:
            time.sleep(hold)
            return
        bridge.flush(30)
        seen, deadline = shows(graphic, on), time.monotonic() + 30
        while not any(s.ts > asked and seen(s) for s in poller.samples[-3:]) and time.monotonic() < deadline:
            time.sleep(0.01)

    def past(seconds: float) -> None:
        """Wait until the poller has answered ``seconds`` past now (OBS's own clock of what it shows)."""
        now, deadline = time.time(), time.monotonic() + 30
        while not any(s.ts > now + seconds for s in poller.samples[-3:]) and time.monotonic() < deadline:
            time.sleep(0.01)

    def past_the_outage() -> None:
        """Once the bridge is back, wait until the poller has answered for 1 s more: the comparison below
        leaves out what the poller saw within 1 s of an outage's end (the resync's own switches), so the
        cuts that follow must come after it to be matched."""
        past(1.0)

    def cuts(n: int) -> None:
        for k in range(n):
            take("leaderboard", True)
            take("leaderboard", False)
            if k % 2:
                take("scoreboard", False)
                take("scoreboard", True)

    t_start = time.time()
    try:
        poller.thread.start()
        bridge.start()
        assert bridge.wait_connected(120), bridge.status
        past_the_outage()  # the bridge's start counts as one (OBS not yet seen)
        take("corner_bug", True)
        take("scoreboard", True)
        cuts(2)  # each phase: two cuts to the 英雄榜 and back, one scoreboard flip (what is matched)
        past(SETTLE)  # the outage falls on a settled show, after the phase's cuts were seen
        marks["kill"] = time.time()
        obs_to_kill.kill()
        take("scoreboard", False, 0.3)  # changes while OBS is down …
        take("scoreboard", True, 0.3)
        restart_after_kill(obs_to_kill)
        t_port = time.monotonic()
        deadline = time.monotonic() + 120
        while (
            not (bridge.status.connected and bridge.status.synced_at > t_port) and time.monotonic() < deadline
        ):
            time.sleep(0.02)
        assert bridge.status.connected, bridge.status
        marks["resync"] = bridge.status.synced_at - t_port
        past_the_outage()
        cuts(2)
        past(SETTLE)  # the outage falls on a settled show, after the phase's cuts were seen
        marks["freeze"] = time.time()
        obs_to_kill.freeze()
        try:
            t0 = time.monotonic()
            while bridge.status.connected and time.monotonic() - t0 < 15:
                time.sleep(0.01)
            marks["noticed"] = time.monotonic() - t0
            time.sleep(max(0.0, 4.0 - (time.monotonic() - t0)))
        finally:
            obs_to_kill.thaw()
        assert bridge.wait_connected(120), bridge.status
        past_the_outage()
        cuts(2)
        bridge.flush(30)  # best effort: the last change reaches OBS before the clean stop
    finally:
        bridge.stop()  # a clean stop: what is on air is closed now
        poller.stop.set()
        poller.thread.join(10)
        recorder.end_episode(time.time())
        recorder.flush()
        recorder.close()
        store.close()
    assert not poller.thread.is_alive()

    rows = asrun.events(EP)
    obs_rows = sorted((e for e in rows if e.source == "obs"), key=lambda e: e.id)
    # rows in time order, one row per change
    assert all(a.ts <= b.ts for a, b in zip(obs_rows, obs_rows[1:], strict=False))
    scenes = [e.subject for e in obs_rows if e.kind == A.PROGRAM_SCENE]
    assert all(a != b for a, b in zip(scenes, scenes[1:], strict=False)), scenes
    # the two outages, their causes, nothing credited inside them
    downs = [e for e in obs_rows if e.kind == A.OBS_DOWN]
    ups = [e for e in obs_rows if e.kind == A.OBS_UP]
    assert downs[-1].subject == "stopped" and len(ups) == len(downs) - 1
    assert downs[0].subject == "provisioning" and downs[0].ts <= ups[0].ts  # not on air before OBS confirmed
    # each outage: from the moment OBS was last seen to the obs_up that ended it
    pairs = [(d, next(u for u in ups if u.ts >= d.ts)) for d in downs[:-1]]
    spans = [(float(d.detail["since"]), u.ts, d.subject) for d, u in pairs]
    assert any(c == "lost" and a - 3.0 <= marks["kill"] <= b for a, b, c in spans), (spans, marks)
    assert any(c == "frozen" and a - 1.0 <= marks["freeze"] <= b for a, b, c in spans), (spans, marks)
    for down, up in pairs:
        inside = [e for e in obs_rows if down.ts < e.ts < up.ts and e.kind in (A.GRAPHIC_ON, A.PROGRAM_SCENE)]
        assert inside == [], inside
    # every change the poller saw (outside the outages) has its row; measure the time difference
    outages = [(a, b) for a, b, _c in spans]
    diffs: list[float] = []
    missing: list[tuple[float, str, str]] = []
    for ts, what, value in poller.changes():
        if any(a - 1.0 <= ts <= b + 1.0 for a, b in outages):
            continue
        if what == "scene":
            cands = [e.ts for e in obs_rows if e.kind == A.PROGRAM_SCENE and e.subject == value]
        else:
            kind = A.GRAPHIC_ON if value == "on" else A.GRAPHIC_OFF
            cands = [e.ts for e in obs_rows if e.kind == kind and e.subject == "scoreboard"]
        best = min(cands, key=lambda c: abs(c - ts), default=None)
        if best is None or abs(best - ts) > 3.0:  # matched (its time difference is the measurement)
            missing.append(
                (round(ts - t_start, 3), what, value, None if best is None else round(best - ts, 3))
            )
        else:
            diffs.append(best - ts)
    scene_rows = [(round(e.ts - t_start, 3), e.subject) for e in obs_rows if e.kind == A.PROGRAM_SCENE]
    assert not missing, (
        missing,
        scene_rows,
        [(round(a - t_start, 2), round(b - t_start, 2)) for a, b in outages],
    )
    # each phase's cuts come after its outage: most changes are matched (the last before an outage may not)
    assert len(diffs) >= 9, (diffs, [(round(a - t_start, 2), round(b - t_start, 2)) for a, b in outages])
    absd = sorted(abs(d) for d in diffs)
    p95 = absd[max(0, int(round(0.95 * len(absd))) - 1)]
    # the report of this run
    log = AsRunLog.open(db)
    info = log.episode(EP)
    assert info is not None and info.ended is not None  # the episode's end time is recorded
    chain = log.verify()
    x = compute(
        p,
        EP,
        log.events(EP),
        info=info,
        link_at_start=log.link_before(info.started or 0.0),
        chain=chain,
    )
    # the report's files; of its PDFs only the whole report's (the sponsors' own, one per sponsor, are
    # tests/sponsors/test_asrun_report.py's: one more per sponsor printed by Chromium, never looked at here)
    files = write_reports(x, p, out_dir, proofs=log.proofs(EP), pdf=False)
    assert files.html is not None and files.xlsx is not None
    (pdf,) = html_to_pdf(
        [(files.html.read_text(encoding="utf-8"), files.html.with_suffix(".pdf"))], pdf_footer(x)
    )
    log.close()
    assert chain.ok, chain.summary_en
    assert {"lost", "frozen"} <= {o.cause for o in x.outages}
    assert not any("仍未下" in f for f in x.flags)  # every interval closed at the clean stop
    lost = next(o for o in x.outages if o.cause == "lost")
    frozen = next(
        o for o in x.outages if o.cause == "frozen" and o.start <= marks["freeze"] + 1.0 <= o.end + 1.0
    )
    assert lost.start == pytest.approx(marks["kill"], abs=3.0)
    assert frozen.start == pytest.approx(marks["freeze"], abs=1.0) and frozen.seconds >= 3.0
    cov = next(m for s in x.sponsors for m in s.metrics if "覆盖率" in m.what)
    assert cov.delivered < 100.0 and "OBS 中断" in cov.note  # the outages are not covered
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "2", str(pdf), str(out_dir / "report")],
            check=True,
            timeout=60,
        )
    figures = (
        f"as-run vs independent poller (every {POLL * 1000:.0f} ms): {len(diffs)} changes matched, "
        f"|Δt| median {statistics.median(absd) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {absd[-1] * 1000:.0f} ms "
        f"(as-run minus poller: median {statistics.median(diffs) * 1000:+.0f} ms)\n"
        f"outages: " + "; ".join(f"{o.cause} {o.seconds:.2f}s" for o in x.outages) + "\n"
        f"kill -9: OBS port open → re-synced and on air {marks['resync']:.3f}s\n"
        f"SIGSTOP: frozen OBS noticed after {marks['noticed']:.3f}s\n"
        f"chain: {chain.summary_en}; head {chain.head_hash}\n"
        f"corner bug coverage {cov.delivered}% ({cov.note})\n"
    )
    (out_dir / "figures.txt").write_text(figures, encoding="utf-8")
    print(figures)
