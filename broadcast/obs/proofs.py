"""Proof of air: a picture of OBS's program, a chained as-run row of its own.

A sponsor graphic going to air (or a film starting) asks for a proof a moment later (the graphic is
drawn on the next frame); at most one automatic proof per graphic and item every ``PROOF_EVERY``
seconds, because a screenshot makes OBS render the scene once more, which a busy software renderer
pays for in seconds. :meth:`ProofTaker.take` shoots program on the worker's connection and hands the
JPEG to the as-run log (:meth:`~broadcast.sponsors.asrun.AsRunLog.attach_proof`).
"""

from __future__ import annotations

import functools
import io
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.client import ObsClient
from broadcast.obs.onair import UP, OnAirTracker
from broadcast.obs.settings import ObsSettings

__all__ = ["PROOF_DELAY", "PROOF_DELAY_FILM", "PROOF_EVERY", "Proof", "ProofHost", "ProofTaker"]

log = logging.getLogger(__name__)

PROOF_DELAY = 0.3  # a graphic is drawn on the next frame: wait a little before the shot
PROOF_DELAY_FILM = 1.0
PROOF_EVERY = 30.0  # seconds between automatic proofs of the same graphic and item


@dataclass(frozen=True)
class Proof:
    event_id: int | None  # the proof's own as-run row
    jpeg: bytes
    width: int
    height: int
    scene: str
    ts: float


class ProofHost(Protocol):
    """What the proof taker needs from the bridge's worker."""

    @property
    def program(self) -> str: ...

    @property
    def tracker(self) -> OnAirTracker: ...

    @property
    def client(self) -> ObsClient | None: ...

    def after(self, seconds: float, fn: Callable[[], None]) -> None: ...


class ProofTaker:
    def __init__(self, host: ProofHost, settings: ObsSettings, airlog: A.AirLog | None) -> None:
        self.host = host
        self.settings = settings
        self.airlog = airlog
        self._proofs_at: dict[tuple[str, str], float] = {}

    def graphic_went_on(self, graphic: str, event_id: int) -> None:
        """A graphic went to air as row ``event_id``: a sponsor graphic gets its proof shortly."""
        item = self.host.tracker.on_air.get(graphic, "")
        now = time.monotonic()
        if graphic in L.SPONSOR_GRAPHICS and now - self._proofs_at.get((graphic, item), -1e9) >= PROOF_EVERY:
            self._proofs_at[(graphic, item)] = now
            self.host.after(PROOF_DELAY, functools.partial(self.auto, event_id))

    def later(self, event_id: int, delay: float) -> None:
        self.host.after(delay, lambda: self.auto(event_id))

    def auto(self, event_id: int) -> None:
        client = self.host.client
        if client is not None and client.connected and self.host.tracker.link == UP:
            self.take(client, event_id)

    def take(self, client: ObsClient, event_id: int | None) -> Proof:
        """Shoot program now; the picture becomes a proof row (of ``event_id``, or on demand)."""
        scene = self.host.program or str(
            client.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
        )
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
        ts = time.time()
        proof_id: int | None = None
        if self.airlog is not None:
            try:
                proof_id = int(self.airlog.attach_proof(event_id, jpeg, w, h, ts))
            except Exception:  # noqa: BLE001
                log.exception("as-run attach_proof failed")
        return Proof(proof_id, jpeg, w, h, scene, ts)
