"""Fixtures for the on-air pages: the session's headless Debian Chromium (``browser`` and its 1920×1080
``page``, in tests/conftest.py: Playwright, never a downloaded browser), an overlay server per test on a
free port, screenshots saved under test-artifacts/overlays/."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "overlays"
# the 90 % title-safe rectangle of 1920×1080
SAFE = (96, 54, 1824, 1026)


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture
def demo_store() -> MemoryStore:
    return MemoryStore(demo_state())


@pytest.fixture
def server(demo_store: MemoryStore) -> Iterator[OverlayServer]:
    srv = OverlayServer(demo_store, port=0)
    srv.start()
    yield srv
    srv.stop()


def run_async(coro: Any) -> Any:
    """asyncio.run in a thread of its own (Playwright's sync API keeps a loop on the main thread)."""
    import asyncio
    import threading

    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the test's thread
            out["error"] = exc

    t = threading.Thread(target=target, name="run_async", daemon=True)  # never holds up the exit
    t.start()
    t.join(60)
    if t.is_alive():
        raise AssertionError("the WebSocket exchange did not finish in 60 s")
    if "error" in out:
        raise out["error"]
    return out.get("value")


def wait_rendered(page: Any, seq: int, timeout: float = 20000) -> None:
    """Until the page has put state ``seq`` on screen; ``timeout`` (ms) is a guard against a page that
    never gets there, generous enough for a loaded 2-core machine, not a speed requirement."""
    page.wait_for_function("s => window.__rendered && window.__rendered.seq >= s", arg=seq, timeout=timeout)


def open_page(page: Any, url: str, seq: int = 0) -> None:
    page.goto(url)
    wait_rendered(page, seq)


# Brings the page to the frame a viewer sees once its graphics have come in, without waiting for them in
# real time: the entrances and transitions (a few seconds at most: the 0.35 s in-transition, rows coming
# in one after another, the 九宫格's flip) are taken to their end, the endless or long ones (the ticker's
# crawl, the credits' roll, the pulse) are held at ``t`` ms, as if ``t`` ms had passed; again until no
# animation runs (a class added on the next frame starts one: two frames are waited first, each round).
SETTLE = """async t => {
  const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  for (let round = 0; round < 10; round++) {
    await frames();
    // those held as they started (``HOLD``) are moved to ``t`` like the running ones
    document.getAnimations().forEach(a => { if (a.__held) a.currentTime = t; });
    const running = document.getAnimations().filter(a => a.playState === 'running');
    if (!running.length) return round;
    const done = [];
    for (const a of running) {
      const end = a.effect ? a.effect.getComputedTiming().endTime : 0;
      if (end === Infinity || end > 3000) { a.pause(); a.currentTime = t; } else { done.push(a); }
    }
    done.forEach(a => { try { a.finish(); } catch (e) { /* over meanwhile */ } });
    await Promise.all(done.map(a => a.finished.catch(() => null)));
  }
  throw new Error('animations still start after 10 rounds');
}"""


def settle(page: Any, settle_ms: int = 700) -> None:
    """The page as a viewer sees it ``settle_ms`` after its last change (see ``SETTLE``)."""
    page.evaluate(SETTLE, settle_ms)


def transparent_png(page: Any) -> bytes:
    """The page's viewport as a transparent PNG: the pixels ``page.screenshot(omit_background=True)``
    takes, encoded by Chromium for speed (``Page.captureScreenshot``'s ``optimizeForSpeed``: the same
    pixels, a larger file, in a third of the time a default PNG of 1920×1080 takes in software)."""
    raw = getattr(page, "_page", page)  # a TestPage's Playwright page
    raw.evaluate("document.fonts.ready.then(() => true)")  # as Playwright's own screenshot waits for
    cdp = raw.context.new_cdp_session(raw)
    try:
        cdp.send("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
        try:
            shot = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        finally:
            cdp.send("Emulation.setDefaultBackgroundColorOverride", {})
    finally:
        cdp.detach()
    return base64.b64decode(shot["data"])


def screenshot(page: Any, path: Path, settle_ms: int = 700) -> Image.Image:
    """A transparent full-page PNG of the page ``settle_ms`` after its last change (its in-transitions
    over), saved as an artifact, returned as RGBA."""
    settle(page, settle_ms)
    png = transparent_png(page)
    path.write_bytes(png)
    return Image.open(io.BytesIO(png)).convert("RGBA")


Box = tuple[int, int, int, int]


def opaque_bbox(img: Image.Image, box: Box | None = None) -> Box | None:
    """Bounding box of the non-transparent pixels (in ``box``, image coordinates), or None."""
    alpha = img.getchannel("A")
    if box is not None:
        alpha = alpha.crop(box)
    bb = alpha.point(lambda a: 255 if a > 8 else 0).getbbox()
    if bb is None or box is None:
        return bb
    return (bb[0] + box[0], bb[1] + box[1], bb[2] + box[0], bb[3] + box[1])


def opaque_fraction(img: Image.Image, box: tuple[int, int, int, int]) -> float:
    alpha = img.getchannel("A").crop(box)
    hist = alpha.point(lambda a: 255 if a > 8 else 0).histogram()
    total = box_area(box)
    return hist[255] / total if total else 0.0


def element_box(page: Any, selector: str) -> Box:
    """An element's border box in page pixels."""
    r = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom].map(Math.round); }",
    )
    return (max(r[0], 0), max(r[1], 0), min(r[2], 1920), min(r[3], 1080))


def box_area(box: tuple[int, int, int, int]) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def assert_outside_safe_is_transparent(img: Image.Image) -> None:
    w, h = img.size
    x0, y0, x1, y1 = SAFE
    for band in ((0, 0, w, y0), (0, y1, w, h), (0, y0, x0, y1), (x1, y0, w, y1)):
        assert opaque_bbox(img, band) is None, f"pixels drawn outside the title-safe area in {band}"
