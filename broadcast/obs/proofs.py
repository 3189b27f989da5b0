"""Proof of air: a picture of OBS's program, a chained as-run row of its own.

A sponsor graphic going to air (or a film starting) asks for a proof a moment later (the graphic is
drawn on the next frame); at most one automatic proof per graphic and item every ``PROOF_EVERY``
seconds, because a screenshot makes OBS render the scene once more, which a busy software renderer
pays for in seconds. :meth:`ProofTaker.take` shoots program on the worker's connection and hands the
JPEG to the as-run log (:meth:`~broadcast.sponsors.asrun.AsRunLog.attach_proof`).

A proof shows what it proves: it is taken only while OBS shows the graphic (or film), and a native
graphic's box in the picture must match its render where the render is opaque, by its colours and by
its drawing (its edges: :func:`check_picture` — a dark graphic's bare, undrawn scene is close in
colour); a picture that does not (another scene, a film frame, a picture OBS had not drawn yet, an
older picture showing through) is recorded as a failed proof (``proof_failed``, with the measurements:
``mean_diff`` and ``edges``), never as proof, and is taken once more a second later while the graphic
stays on.
"""

from __future__ import annotations

import functools
import io
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.client import ObsClient
from broadcast.obs.onair import UP, OnAirTracker
from broadcast.obs.settings import ObsSettings

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "EDGES_MIN",
    "PROOF_DELAY",
    "PROOF_DELAY_FILM",
    "PROOF_EVERY",
    "Proof",
    "ProofHost",
    "ProofTaker",
    "check_picture",
    "edges_alike",
]

log = logging.getLogger(__name__)

PROOF_DELAY = 0.3  # a graphic is drawn on the next frame: wait a little before the shot
PROOF_DELAY_FILM = 1.0
PROOF_EVERY = 30.0  # seconds between automatic proofs of the same graphic and item
PROOF_RETRY = 1.0  # a picture that did not show the graphic is taken again this much later …
PROOF_ATTEMPTS = 2  # … this many times in all
CHECK_TOLERANCE = 24.0  # mean |difference| (0–255) of the opaque pixels of a graphic's box that still match
CHECK_MIN_PIXELS = 20
# the drawing must be there too (an undrawn dark graphic's bare scene is close in colour): the correlation
# of edges, on real OBS pictures: drawn 0.87–0.96, the bare scene 0.1–0.3, an older board beneath 0.57
EDGES_MIN = 0.75
EDGE_MARGIN = 5  # px of the picture's own outline left out of the edges (what is beneath shows through there)
EDGE_MIN_PIXELS = 64  # fewer opaque pixels inside the outline: the colours alone are checked

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Proof:
    event_id: int | None  # the proof's own as-run row
    jpeg: bytes
    width: int
    height: int
    scene: str
    ts: float
    failed: str = ""  # why it does not prove what it was taken for ("" = it does)
    check: dict[str, Any] | None = None  # the picture check's measurements


@dataclass(frozen=True)
class _Shot:
    event_id: int | None
    jpeg: bytes
    width: int
    height: int
    ts: float
    scene: str
    graphic: str = ""
    item: str = ""
    attempt: int = 1


class ProofHost(Protocol):
    """What the proof taker needs from the bridge's worker."""

    @property
    def program(self) -> str: ...

    @property
    def tracker(self) -> OnAirTracker: ...

    @property
    def episode(self) -> str:
        """The episode the rows OBS confirms now belong to (an on-demand proof's)."""
        ...

    @property
    def client(self) -> ObsClient | None: ...

    def after(self, seconds: float, fn: Callable[[], None]) -> None: ...

    def after_threadsafe(self, seconds: float, fn: Callable[[], None]) -> None:
        """``after`` from another thread (the worker runs ``fn``)."""
        ...

    def picture_of(self, graphic: str) -> tuple[str, float, float] | None:
        """The picture file program shows for a native graphic and its top-left corner on the canvas
        (None: not known, e.g. a page in browser-source mode)."""
        ...


def _box(shot: tuple[int, int], pic: tuple[int, int], x: float, y: float, canvas: tuple[int, int]) -> Box:
    """The picture's box in the shot (the shot is the canvas scaled to its width)."""
    scale = shot[0] / canvas[0]
    return (
        round(x * scale),
        round(y * scale),
        min(shot[0], round((x + pic[0]) * scale)),
        min(shot[1], round((y + pic[1]) * scale)),
    )


def _expected(
    pic: Image.Image, size: tuple[int, int], x: float, y: float, canvas: tuple[int, int], box: Box
) -> Image.Image:
    """The render as the shot shows it in ``box``: placed on the canvas at ``x``, ``y`` and the canvas
    scaled to the shot (bilinear, as OBS scales its screenshot) — the same sub-pixel geometry as OBS's
    picture, not the picture alone resized to the rounded box (a third of a pixel off in a 640 px shot: a
    ticker's small type then correlated 0.72 with its own airing on a real OBS)."""
    from PIL import Image

    frame = Image.new("RGBA", canvas, (0, 0, 0, 0))
    frame.paste(pic, (round(x), round(y)))
    return frame.resize(size, Image.Resampling.BILINEAR).crop(box)


def _edges(shot: Image.Image, expected: Image.Image) -> float | None:
    """The correlation of the edges of ``expected`` (the render, RGBA, resized to the box) and of
    ``shot`` (the box cut from the shot) where the render is opaque, its own outline left out. None: the
    render has nothing to correlate (too small or flat); 0.0: the shot's box is flat (nothing drawn)."""
    from PIL import ImageChops, ImageFilter, ImageStat

    if expected.width < 2 * EDGE_MARGIN + 8 or expected.height < 2 * EDGE_MARGIN + 8:
        return None
    mask = expected.getchannel("A").point(lambda a: 255 if a >= 200 else 0)
    mask = mask.filter(ImageFilter.MinFilter(2 * EDGE_MARGIN + 1))
    if ImageStat.Stat(mask).sum[0] / 255 < EDGE_MIN_PIXELS:
        return None
    a = expected.convert("L").filter(ImageFilter.FIND_EDGES)
    b = shot.convert("L").filter(ImageFilter.FIND_EDGES)
    sa, sb = ImageStat.Stat(a, mask), ImageStat.Stat(b, mask)
    if sa.stddev[0] < 1.0:  # a flat render: its colours are all there is to check
        return None
    if sb.stddev[0] < 1.0:  # a flat box in the shot: nothing drawn there
        return 0.0
    ab = ImageStat.Stat(ImageChops.multiply(a, b), mask).mean[0] * 255.0
    return float((ab - sa.mean[0] * sb.mean[0]) / (sa.stddev[0] * sb.stddev[0]))


def edges_alike(
    jpeg: bytes, picture: str | Path, x: float, y: float, canvas: tuple[int, int]
) -> float | None:
    """How alike the drawing of ``picture`` (placed at ``x``, ``y`` on the canvas) and the shot are in
    the picture's box: the correlation of their edges where the picture is opaque (about 0.9: the same
    drawing; about 0.1–0.3: the bare background; about 0.6: an older picture beneath; None: the picture
    has no drawing to compare — too small or flat)."""
    from PIL import Image

    with Image.open(io.BytesIO(jpeg)) as im:
        shot = im.convert("RGB")
    with Image.open(picture) as im:
        pic = im.convert("RGBA")
    box = _box(shot.size, pic.size, x, y, canvas)
    w, h = box[2] - box[0], box[3] - box[1]
    if w < 4 or h < 4:
        return None
    return _edges(shot.crop(box), _expected(pic, shot.size, x, y, canvas, box))


def check_picture(
    jpeg: bytes, picture: str | Path, x: float, y: float, canvas: tuple[int, int]
) -> dict[str, Any]:
    """Does the shot show the picture at its place? Its box in the shot is compared with the expected
    render where the picture is opaque, by colour (JPEG and scaling leave small differences; another
    scene or a film frame leaves large ones) and by drawing (:func:`edges_alike`: an undrawn dark
    graphic's bare scene, or an older picture showing through, can be close in colour but has not its
    edges). Both must agree. Returns the measurements (``mean_diff``, ``edges``) and ``ok``."""
    from PIL import Image, ImageChops, ImageStat

    with Image.open(io.BytesIO(jpeg)) as im:
        shot = im.convert("RGB")
    with Image.open(picture) as im:
        pic = im.convert("RGBA")
    box = _box(shot.size, pic.size, x, y, canvas)
    out: dict[str, Any] = {"box": list(box), "tolerance": CHECK_TOLERANCE, "edges_min": EDGES_MIN}
    w, h = box[2] - box[0], box[3] - box[1]
    if w < 4 or h < 4:
        return {**out, "ok": False, "why": "box outside the picture"}
    expected = _expected(pic, shot.size, x, y, canvas, box)
    # where the render is (nearly) opaque the shot must show it whatever is beneath (a panel at 80 %
    # opacity lets a fifth of the background through: well inside the tolerance)
    mask = expected.getchannel("A").point(lambda a: 255 if a >= 200 else 0)
    n = ImageStat.Stat(mask).sum[0] / 255
    if n < CHECK_MIN_PIXELS:  # a thin or translucent graphic: every clearly drawn pixel
        mask = expected.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
        n = ImageStat.Stat(mask).sum[0] / 255
    if n < CHECK_MIN_PIXELS:
        return {**out, "ok": False, "why": "nothing opaque to compare", "pixels": int(n)}
    crop = shot.crop(box)
    diff = ImageChops.difference(expected.convert("RGB"), crop)
    mean = sum(ImageStat.Stat(diff, mask).mean) / 3
    edges = _edges(crop, expected)
    out |= {
        "pixels": int(n),
        "mean_diff": round(mean, 1),
        "edges": None if edges is None else round(edges, 2),
    }
    if mean > CHECK_TOLERANCE:
        return {**out, "ok": False, "why": "colours differ"}
    if edges is not None and edges < EDGES_MIN:
        return {**out, "ok": False, "why": "drawing differs"}
    return {**out, "ok": True}


class ProofTaker:
    def __init__(
        self, host: ProofHost, settings: ObsSettings, airlog: A.AirLog | None, *, background: bool = False
    ) -> None:
        """``background``: pictures are checked and recorded on a thread of their own (the bridge's
        worker only takes them)."""
        self.host = host
        self.settings = settings
        self.airlog = airlog
        self._proofs_at: dict[tuple[str, str], float] = {}
        self._checks: queue.Queue[tuple[_Shot, tuple[str, float, float]] | None] | None = (
            queue.Queue() if background else None
        )
        self._checker: threading.Thread | None = None

    def graphic_went_on(self, graphic: str, event_id: int) -> None:
        """A graphic went to air as row ``event_id``: a sponsor graphic gets its proof shortly."""
        item = self.host.tracker.on_air.get(graphic, "")
        now = time.monotonic()
        if graphic in L.SPONSOR_GRAPHICS and now - self._proofs_at.get((graphic, item), -1e9) >= PROOF_EVERY:
            self._proofs_at[(graphic, item)] = now
            self.host.after(PROOF_DELAY, functools.partial(self.auto, event_id, graphic=graphic, item=item))

    def later(self, event_id: int, delay: float) -> None:
        """A film went to air as row ``event_id``: its proof in ``delay`` seconds, while it plays."""
        film = self.host.tracker.film
        self.host.after(delay, functools.partial(self.auto, event_id, film=film[0] if film else ""))

    def auto(
        self, event_id: int, *, graphic: str = "", item: str = "", film: str = "", attempt: int = 1
    ) -> None:
        client = self.host.client
        if client is not None and client.connected and self.host.tracker.link == UP:
            self.take(client, event_id, graphic=graphic, item=item, film=film, attempt=attempt)

    def _still_on(self, graphic: str, item: str, film: str) -> bool:
        t = self.host.tracker
        if graphic:
            return graphic in t.on_air and t.on_air[graphic] == item
        if film:
            return t.film is not None and t.film[0] == film
        return True

    def take(
        self,
        client: ObsClient,
        event_id: int | None,
        *,
        graphic: str = "",
        item: str = "",
        film: str = "",
        attempt: int = 1,
    ) -> Proof:
        """Shoot program now; the picture becomes a proof row (of ``event_id``, or on demand). A proof
        of a graphic (or film) is taken only while OBS shows it, and its picture is checked to show it
        (:func:`check_picture`); one that does not is a ``proof_failed`` row, never proof."""
        scene = self.host.program or str(
            client.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        )
        if not self._still_on(graphic, item, film):
            return self._refused(event_id, scene, "not_on_program")
        sent = time.time()
        jpeg = client.screenshot(
            scene,
            width=self.settings.proof_width,
            fmt="jpg",
            quality=80,
            timeout=max(self.settings.timeout, 10.0),
        )
        from PIL import Image

        with Image.open(io.BytesIO(jpeg)) as im:
            w, h = im.size
        # the picture shows program at some moment between the request and the answer: the request's
        # time, never before a row already written (rows are in time order)
        t = self.host.tracker
        ts = t.last_ts = max(sent, t.last_ts)
        shot = _Shot(event_id, jpeg, w, h, ts, scene, graphic, item, attempt)
        if not self._still_on(graphic, item, film) or self.host.program != scene:
            return self._record(shot, "left_program_during_shot", None)
        pic = self.host.picture_of(graphic) if graphic else None
        if pic is None:
            return self._record(shot, "", None)
        if self._checks is not None:  # the check (tens of ms) off the worker, which must go on syncing
            self._start_checker()
            self._checks.put((shot, pic))
            return Proof(None, jpeg, w, h, scene, ts)
        return self._checked(shot, pic)

    def _checked(self, shot: _Shot, pic: tuple[str, float, float]) -> Proof:
        check = check_picture(shot.jpeg, pic[0], pic[1], pic[2], (self.settings.width, self.settings.height))
        failed = "" if check["ok"] else "does_not_show_graphic"
        proof = self._record(shot, failed, check)
        if failed and shot.attempt < PROOF_ATTEMPTS and shot.event_id is not None:
            # drawn late (a picture OBS had not loaded yet): one more look while it is on air
            self.host.after_threadsafe(
                PROOF_RETRY,
                functools.partial(
                    self.auto, shot.event_id, graphic=shot.graphic, item=shot.item, attempt=shot.attempt + 1
                ),
            )
        return proof

    def _start_checker(self) -> None:
        if self._checker is None or not self._checker.is_alive():
            self._checker = threading.Thread(target=self._check_loop, name="obs-proof-check", daemon=True)
            self._checker.start()

    def _check_loop(self) -> None:
        assert self._checks is not None
        while True:
            job = self._checks.get()
            if job is None:
                return
            try:
                self._checked(*job)
            except Exception:  # noqa: BLE001 - a bad picture must not end the checks
                log.exception("proof check failed")

    def close(self) -> None:
        """Finish the checks under way (the bridge stops)."""
        checker, self._checker = self._checker, None
        if checker is not None and self._checks is not None:
            self._checks.put(None)
            checker.join(10.0)

    def _refused(self, event_id: int | None, scene: str, why: str) -> Proof:
        return self._record(_Shot(event_id, b"", 0, 0, time.time(), scene), why, None)

    def _record(self, shot: _Shot, failed: str, check: dict[str, Any] | None) -> Proof:
        event_id, jpeg, w, h, ts, scene = (
            shot.event_id,
            shot.jpeg,
            shot.width,
            shot.height,
            shot.ts,
            shot.scene,
        )
        proof_id: int | None = None
        if failed:
            log.warning("proof of row %s failed: %s %s", event_id, failed, check or "")
        if self.airlog is not None:
            try:
                proof_id = int(
                    self.airlog.attach_proof(
                        event_id, jpeg, w, h, ts, scene, failed=failed, check=check, episode=self.host.episode
                    )
                )
            except Exception:  # noqa: BLE001
                log.exception("as-run attach_proof failed")
        return Proof(proof_id, jpeg, w, h, scene, ts, failed=failed, check=check)
