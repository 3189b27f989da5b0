"""The audit's throwaway studio: a database with the demo season, the store, the overlay server and the
program page in headless Chromium (:func:`session`); the episode played through it on a scripted clock
(:func:`run_pages`), measured at every moment a viewer could see (:class:`Auditor`); the report
(:func:`finish`)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast.audit import probe as P
from broadcast.audit import report as R
from broadcast.audit.episode import Episode, Plan


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
        # asked every frame (SETTLED ends what runs, so the next frame answers), not every 50 ms
        self.page.wait_for_function(P.SETTLED, timeout=60000, polling="raf")
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


def run_pages(
    number: int,
    placements: Any,
    out: Path,
    *,
    seed: int = 16,
    shots: str = "findings",
    browser: Any = None,
    page: Any = None,
) -> list[R.MomentRecord]:
    """The episode on a scripted clock through the program page (on ``page``, a Playwright page of
    1920×1080 that may add styles, or in ``browser``, a Playwright browser, else in a headless Chromium of
    its own); the moments measured."""
    from broadcast.clock import ScriptClock
    from broadcast.sponsors.cuerunner import CueRunner

    clock = ScriptClock(time.time())
    with session(out, clock=clock, browser=browser, page=page) as s:
        runner = CueRunner(s.store, clock=clock, threaded=False)
        runner.start()
        s.stack.callback(runner.stop)

        def tick(seconds: float) -> None:
            clock.advance(seconds)
            runner.tick()

        plan = Plan(db=s.db, episode=number, placements=placements, seed=seed)
        auditor = Auditor(s.store, s.page, out, shots=shots, plan=plan, start=time.monotonic())
        Episode(s.store, plan, moment=auditor.moment, tick=tick, say=print).run()
        return auditor.moments


@dataclass
class Session:
    db: Path
    store: Any
    server: Any
    page: Any
    stack: ExitStack


@contextmanager
def session(out: Path, *, clock: Any = None, browser: Any = None, page: Any = None) -> Iterator[Session]:
    """A throwaway studio for the audit: a database with the demo season (in memory-backed /dev/shm
    where there is one: the journal's every fsync is free there, and the audit is about the pictures),
    the store, the overlay server and the program page in Chromium (on ``page``, else in a context of
    ``browser``, else of a Chromium of its own), drawn over the studio's colour as OBS shows it. ``out``
    is emptied of older screenshots."""
    from playwright.sync_api import sync_playwright

    from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS
    from broadcast.overlay.server import OverlayServer
    from broadcast.season.demo import ensure_demo_season
    from broadcast.studio import open_store

    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), *out.glob("*.jpg")]:
        old.unlink()
    shm = Path("/dev/shm")
    fast = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="gouji-audit-", dir=fast) as tmp, ExitStack() as stack:
        db = Path(tmp) / "audit.sqlite"
        ensure_demo_season(db)
        store = open_store(db, clock=clock) if clock is not None else open_store(db)
        stack.callback(store.close)
        server = OverlayServer(store, port=0)
        server.start()
        stack.callback(server.stop)
        if page is None and browser is None:
            pw = stack.enter_context(sync_playwright())
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
        if page is None:
            ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
            stack.callback(ctx.close)
            page = ctx.new_page()
        page.goto(server.url("program"))
        page.add_style_tag(content=f"html {{ background: {R.STUDIO}; }}")
        yield Session(db, store, server, page, stack)


def finish(out: Path, moments: list[R.MomentRecord], meta: dict[str, Any]) -> int:
    found = [f for m in moments for f in m.findings]
    extra = meta.get("game_scene_frames")
    j, h = R.write(out, moments, meta)
    print(
        f"播出检查 audit: {len(moments)} 个画面 moments, {len(found)} 个问题 findings"
        + (f", {extra} 帧意外的比赛画面 unintended game-scene frames" if extra is not None else "")
    )
    print(f"报告 report: {h} ({j})")
    return 1 if found or extra or meta.get("films_short") or meta.get("films_missing") else 0
