"""``python -m broadcast audit EPISODE [--obs]``: play a whole rehearsed episode through the program page
in headless Chromium (and, with ``--obs``, a real OBS) and report what a viewer would notice.

    python -m broadcast audit 第16期 --out test-artifacts/audit/after
    python -m broadcast audit 第16期 --obs --obs-settings obs.yaml

It builds a new database of its own (the demo season, whose 15 episodes are played) and plays episode
EPISODE in it: a rehearsal, never mixed with real air records. At every change a viewer could see it
waits until the program page has drawn it and its animations have ended, then measures every visible
graphic and text (``probe``): graphics drawn over each other or outside their zone, a text outside its
box or cut with …, a line broken inside a term, a label that disagrees with the state. With ``--obs`` an
independent poller of OBS (every 50 ms) counts the frames of the game scene shown between two items.
It writes ``report.json``, ``report.html`` and a screenshot of each finding to ``--out`` and exits 1 on
any finding (2 on bad input).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from broadcast.audit import probe as P
from broadcast.audit import report as R
from broadcast.audit.episode import Episode, Plan, episode_number


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("episode", help="期数，例如 第16期 / the episode, e.g. 第16期")
    parser.add_argument("--out", default="audit-report", help="报告目录 / where the report goes")
    parser.add_argument("--placements", default="", help="赞助排期 YAML（默认：演示排期）/ placements")
    parser.add_argument("--seed", type=int, default=16, help="自动对局的种子 / the games' seed")
    parser.add_argument("--shots", choices=("findings", "all"), default="findings", help="截图 / screenshots")


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    raise SystemExit(2)


class Auditor:
    """Measures the program page at each moment the episode hands it."""

    def __init__(self, store: Any, page: Any, out: Path, *, shots: str, plan: Plan, start: float) -> None:
        self.store, self.page, self.out, self.shots, self.plan = store, page, out, shots, plan
        self.start = start
        self.moments: list[R.MomentRecord] = []

    def moment(self, label: str) -> None:
        from broadcast.obs.graphics.terms import state_terms

        seq = int(self.store.seq)
        self.page.wait_for_function(
            "s => window.__rendered && window.__rendered.seq >= s", arg=seq, timeout=60000
        )
        self.page.wait_for_function(P.SETTLED, timeout=60000, polling=50)
        frame = self.page.evaluate(P.PROBE)
        state = self.store.state
        labels = dict(self.plan.labels)
        labels["game-no"] = f"第{state['table']['game_no']}局"
        findings = P.judge(frame, state_terms(state), labels)
        program = [g["id"] for g in frame["graphics"]]
        rec = R.MomentRecord(len(self.moments) + 1, label, seq, time.monotonic() - self.start, program)
        rec.findings = findings
        if findings or self.shots == "all":
            name = f"{rec.index:03d}-{'-'.join(sorted({f.kind for f in findings})) or 'ok'}.jpg"
            R.shot(self.page.screenshot(type="jpeg", quality=92), findings, self.out / name)
            rec.shot = name
        for f in findings:
            print(f"  ✗ #{rec.index} {label}: {f.text()}", flush=True)
        self.moments.append(rec)


def main(args: argparse.Namespace) -> int:

    from broadcast.resources import demo_placements
    from broadcast.sponsors.placements import PlacementError, load_placements

    try:
        number = episode_number(args.episode)
    except ValueError:
        fail(f"audit: 期数 {args.episode!r} 无效（例如 第16期）/ bad episode {args.episode!r} (e.g. 第16期)")
    placements_path = Path(args.placements) if args.placements else demo_placements()
    try:
        placements = load_placements(placements_path)
    except PlacementError as exc:
        fail(f"{placements_path}:0: {exc}")
    out = Path(args.out)
    moments = run_pages(number, placements, out, seed=args.seed, shots=args.shots)
    meta = {"episode": f"第{number}期", "placements": str(placements_path), "seed": args.seed, "obs": False}
    return finish(out, moments, meta)


def run_pages(
    number: int, placements: Any, out: Path, *, seed: int = 16, shots: str = "findings", browser: Any = None
) -> list[R.MomentRecord]:
    """The episode on a scripted clock through the program page (in ``browser``, a Playwright browser,
    else a headless Chromium of its own); the moments measured."""
    from contextlib import ExitStack

    from playwright.sync_api import sync_playwright

    from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS
    from broadcast.clock import ScriptClock
    from broadcast.overlay.server import OverlayServer
    from broadcast.season.demo import ensure_demo_season
    from broadcast.sponsors.cuerunner import CueRunner
    from broadcast.studio import open_store

    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), *out.glob("*.jpg")]:
        old.unlink()
    # a throwaway database: in memory-backed /dev/shm where there is one (the journal's every fsync is
    # free there; the audit is about the pictures, not the disk)
    shm = Path("/dev/shm")
    fast = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="gouji-audit-", dir=fast) as tmp, ExitStack() as stack:
        db = Path(tmp) / "audit.sqlite"
        ensure_demo_season(db)
        clock = ScriptClock(time.time())
        store = open_store(db, clock=clock)
        stack.callback(store.close)
        server = OverlayServer(store, port=0)
        server.start()
        stack.callback(server.stop)
        runner = CueRunner(store, clock=clock, threaded=False)
        runner.start()
        stack.callback(runner.stop)

        def tick(seconds: float) -> None:
            clock.advance(seconds)
            runner.tick()

        if browser is None:
            pw = stack.enter_context(sync_playwright())
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
        ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
        stack.callback(ctx.close)
        page = ctx.new_page()
        page.goto(server.url("program"))
        page.add_style_tag(content=f"html {{ background: {R.STUDIO}; }}")  # as OBS shows it
        plan = Plan(db=db, episode=number, placements=placements, seed=seed)
        auditor = Auditor(store, page, out, shots=shots, plan=plan, start=time.monotonic())
        Episode(store, plan, moment=auditor.moment, tick=tick, say=print).run()
        return auditor.moments


def finish(out: Path, moments: list[R.MomentRecord], meta: dict[str, Any]) -> int:
    found = [f for m in moments for f in m.findings]
    extra = meta.get("game_scene_frames")
    j, h = R.write(out, moments, meta)
    print(
        f"播出检查 audit: {len(moments)} 个画面 moments, {len(found)} 个问题 findings"
        + (f", {extra} 帧意外的比赛画面 unintended game-scene frames" if extra is not None else "")
    )
    print(f"报告 report: {h} ({j})")
    return 1 if found or extra else 0
