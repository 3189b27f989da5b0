"""An independent witness of OBS's program: what it showed every 50 ms, against what the show meant.

:class:`ProgramWatch` has its own connection to OBS (not the bridge's) and asks
``GetCurrentProgramScene`` every :data:`POLL` seconds; :class:`Intent` records, from the store, when a
studio segment of the rundown ran (a game: a segment whose graphic is not full-frame). :func:`holes`
finds the frames of the game scene OBS showed between two items — a run of looks at the game scene
with something else before and after it — while no studio segment ran: the studio seen between a film
and the next, a bumper and a film, the opening films and the prizes' 九宫格, the 九宫格 and the 英雄榜,
the 英雄榜冠名 film and the credits. (Before the first item and after the last the game scene is the
show's own.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from broadcast.obs import layout as L

POLL = 0.05  # seconds between two looks (the poller: 50 ms)
LAG = 0.5  # seconds OBS may take to show a change the store made (a cut, on a loaded machine)


@dataclass(frozen=True)
class Hole:
    start: float
    end: float
    looks: int  # how many 50 ms looks saw it
    before: str
    after: str

    def text(self) -> str:
        return (
            f"{self.looks} 次看到比赛画面 game-scene looks ({self.end - self.start + POLL:.2f} s) "
            f"在 between {self.before} → {self.after}"
        )


class ProgramWatch:
    """Polls OBS's program scene on a connection of its own, on a thread of its own."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.looks: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors = 0

    def start(self) -> None:
        from broadcast.obs.client import ObsClient

        self._client = ObsClient(self.settings, keepalive=False)
        self._client.connect()
        self._thread = threading.Thread(target=self._run, name="audit-obs-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        nxt = time.monotonic()
        while not self._stop.is_set():
            try:
                r = self._client.request("GetCurrentProgramScene", timeout=2.0)
                self.looks.append((time.time(), str(r.get("currentProgramSceneName", ""))))
            except Exception:  # noqa: BLE001 - a missed look is counted, the watch goes on
                self.errors += 1
            nxt += POLL
            self._stop.wait(max(0.0, nxt - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        self._client.close("audit done")


class Intent:
    """When a studio segment of the rundown ran, from every change of the store."""

    def __init__(self, store: Any) -> None:
        self.changes: list[tuple[float, bool]] = [(time.time(), studio(store.state))]
        self._unsubscribe = store.subscribe(self._on, name="audit-intent")

    def _on(self, change: Any) -> None:
        now = studio(change.state)
        if now != self.changes[-1][1]:
            self.changes.append((time.time(), now))

    def stop(self) -> None:
        self._unsubscribe()

    def studio_during(self, t0: float, t1: float) -> bool:
        """Did a studio segment run at any moment in [t0, t1]?"""
        if any(on for t, on in self.changes if t0 <= t <= t1):
            return True
        before = [on for t, on in self.changes if t < t0]
        return bool(before and before[-1])


def studio(state: Mapping[str, Any]) -> bool:
    """Is a studio segment running: a cue of the rundown whose graphic is not a full-frame item (a
    game)?"""
    from broadcast.show.zones import full_frame

    cues = state.get("cues") or {}
    cur = cues.get("current")
    if not cur:
        return False
    cue = next((c for c in cues.get("list", []) if c.get("id") == cur.get("id")), None)
    return bool(cue and cue.get("kind") == "segment" and not full_frame(str(cue.get("graphic") or "")))


def holes(looks: Sequence[tuple[float, str]], intent: Intent) -> list[Hole]:
    """The runs of game-scene looks between two other scenes while the show did not mean the game
    scene (from :data:`LAG` before the run to its end)."""
    out: list[Hole] = []
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(looks):
        if looks[i][1] == L.SCENE_GAME:
            j = i
            while j + 1 < len(looks) and looks[j + 1][1] == L.SCENE_GAME:
                j += 1
            runs.append((i, j))
            i = j + 1
        else:
            i += 1
    for a, b in runs:
        if a == 0 or b == len(looks) - 1:
            continue  # before the first item or after the last: not between items
        t0, t1 = looks[a][0], looks[b][0]
        if intent.studio_during(t0 - LAG, t1):
            continue
        out.append(Hole(t0, t1, b - a + 1, looks[a - 1][1], looks[b + 1][1]))
    return out
