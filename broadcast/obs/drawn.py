"""On air means drawn: a native graphic's new picture is shown only once OBS has loaded it.

OBS defers a video source's new settings to its video thread: ``SetInputSettings`` is answered at once,
and the image source loads its new file at the next frame OBS renders. A picture source shown (or a scene
cut to) before that frame shows nothing — the 九宫格 credited as on air that showed only the corner bug.
So the bridge sends a graphic's new picture into its hidden source, waits here until OBS has rendered
:data:`FRAMES` more frames (``GetStats``' ``renderTotalFrames``: its video thread has run the deferred
updates), and only then shows it and cuts to its scene; the as-run log credits the graphic from OBS's
event for that show (:mod:`broadcast.obs.evidence`), so a graphic counts as on air from the moment
program shows it drawn, never from the request.

OBS's frame counter is not a count of the frames it rendered: a lagging OBS renders once and counts the
frames it missed too (``renderTotalFrames`` jumps, ``renderSkippedFrames`` with it), so a count of 2 more
frames could pass without one tick after the request. :func:`wait_loaded` counts the frames OBS actually
rendered (total − skipped).
"""

from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger(__name__)

FRAMES = 2  # frames OBS renders after the settings before they are surely loaded (one full tick after)
POLL = 0.01  # seconds between two looks at OBS's frame count


def rendered_frames(client: Any, timeout: float) -> int:
    """How many frames OBS's video thread has rendered so far: its count less the frames it counted as
    missed (a lagging OBS renders once and counts every frame interval that passed)."""
    stats = client.request("GetStats", timeout=timeout)
    return int(stats.get("renderTotalFrames", 0)) - int(stats.get("renderSkippedFrames", 0))


def wait_loaded(client: Any, *, timeout: float, frames: int = FRAMES) -> bool:
    """Wait until OBS has rendered ``frames`` frames after now (what was sent before is loaded). False
    when OBS did not within ``timeout`` seconds (a frozen OBS: the watchdog deals with it; the show
    goes on)."""
    deadline = time.monotonic() + timeout
    start = rendered_frames(client, timeout)
    while True:
        if rendered_frames(client, timeout) >= start + frames:
            return True
        if time.monotonic() >= deadline:
            log.warning("OBS rendered fewer than %d frames in %.1f s: a picture may be late", frames, timeout)
            return False
        time.sleep(POLL)
