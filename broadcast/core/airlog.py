"""The as-run feed's interface, agreed between the OBS bridge (which sees what is really on program),
the application (which records when OBS is not connected) and the sponsor module (which stores it in
SQLite and reports on it). Implementations live in ``broadcast.sponsors.asrun``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

# kinds of air events
PROGRAM_SCENE = "program_scene"  # subject: scene name now on program
GRAPHIC_ON = "graphic_on"  # subject: graphic id (scoreboard, corner_bug, bumper …); detail.item
GRAPHIC_OFF = "graphic_off"
FILM_START = "film_start"  # subject: film id (media input name); detail.sponsor
FILM_END = "film_end"
MENTION = "mention"  # 口播: subject sponsor id, marked by the operator
DRAW = "draw"  # 九宫格 draw: detail {contestant, cell, prize, sponsor}
PROOF = "proof"  # a proof-of-air screenshot taken on demand

KINDS = (PROGRAM_SCENE, GRAPHIC_ON, GRAPHIC_OFF, FILM_START, FILM_END, MENTION, DRAW, PROOF)


@dataclass(frozen=True)
class AirEvent:
    ts: float  # seconds since the epoch; from OBS's event when it is the source
    kind: str  # one of KINDS
    subject: str  # scene / graphic / film / sponsor id
    source: str = "app"  # "obs" (seen by OBS events), "app" (state change), "operator"
    episode: str = ""  # episode id the event belongs to ("" = current)
    detail: dict[str, Any] = field(default_factory=dict)


class AirLog(Protocol):
    def record(self, event: AirEvent) -> int:
        """Store one event; return its id."""

    def attach_proof(self, event_id: int, jpeg: bytes, width: int, height: int) -> None:
        """Store a proof-of-air screenshot (JPEG bytes) with an event."""
