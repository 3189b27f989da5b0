"""The bridge's evidence: what OBS confirmed it shows, and when — the only thing the as-run log is told.

Evidence is only what OBS confirmed: the answer to our request that changed something (the time it
arrived), OBS's own events for changes made elsewhere (ignored when older than our last confirmation
of the same thing), and in browser-source mode the program page's report, from inside OBS, that it
painted a state. The show state's intention alone is never recorded as air.

:class:`Evidence` keeps the times OBS's events gave (noted on the connection's receive thread), the
program bus of recent states (for the pages' echoes, by journal seq), and turns what the worker knows
OBS shows into graphic → item for the :class:`~broadcast.obs.onair.OnAirTracker`, which writes the
as-run rows through :meth:`Evidence.record`.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs.onair import OnAirTracker

__all__ = ["ECHO_MEMORY", "Evidence", "bus_items"]

log = logging.getLogger(__name__)

ECHO_MEMORY = 512  # states remembered for the pages' echoes (by journal seq)


def bus_items(state: Mapping[str, Any]) -> dict[str, str]:
    """The program bus as graphic → item, for the graphics that are on."""
    return {g: str(v.get("item", "")) for g, v in state["graphics"]["program"].items() if v.get("on")}


class Evidence:
    """What OBS confirmed, turned into as-run rows (one per change, through the tracker)."""

    def __init__(
        self, airlog: A.AirLog | None, *, on_graphic_on: Callable[[str, int], None] | None = None
    ) -> None:
        self.airlog = airlog
        # the episode the rows belong to: the one the bridge was started for, then the show's as it changes
        # ("" only when none is known: the log's current episode then)
        self.episode = ""
        self.tracker = OnAirTracker(self.record, on_graphic_on=on_graphic_on)
        self._seen: dict[tuple[Any, ...], float] = {}  # what OBS's events said, when (receive thread)
        self._bus_by_seq: OrderedDict[int, dict[str, str]] = OrderedDict()
        # echoes of a state the pages had before the store's listener told the bridge (the overlay server
        # is told at the commit, before the fsync; the bridge after it): kept until ``remember``
        self._early: OrderedDict[int, float] = OrderedDict()
        self._lock = threading.Lock()
        self.echo_bus: dict[str, str] = {}  # browser mode: what the page inside OBS last painted

    # -- OBS's events (the receive thread: only notes) -------------------------------------------
    def note_event(self, name: str, data: Mapping[str, Any], ts: float) -> None:
        """What OBS says it did is noted at once, so a change confirmed by our request's (later) answer
        is timed by OBS's (earlier) event."""
        if name == "CurrentProgramSceneChanged":
            self._seen[("scene", str(data.get("sceneName", "")))] = ts
        elif name == "SceneItemEnableStateChanged":
            key = ("item", str(data.get("sceneName", "")), int(data.get("sceneItemId", -1)))
            self._seen[(*key, bool(data.get("sceneItemEnabled")))] = ts

    def when(self, key: tuple[Any, ...], sent: float, answered: float) -> float:
        """When OBS made a change we asked for at ``sent``: its event if it came, else its answer."""
        seen = self._seen.get(key, 0.0)
        return seen if sent <= seen <= answered else answered

    # -- the pages' echoes (browser-source mode) -------------------------------------------------
    def remember(self, seq: int, state: Mapping[str, Any]) -> float | None:
        """The program bus of the state journaled as ``seq`` (the store's thread). Returns when the page
        inside OBS echoed it, if its echo came first (to be handed to :meth:`painted` again)."""
        with self._lock:
            self._bus_by_seq[seq] = bus_items(state)
            while len(self._bus_by_seq) > ECHO_MEMORY:
                self._bus_by_seq.popitem(last=False)
            return self._early.pop(seq, None)

    def painted(self, seq: int, ts: float = 0.0) -> bool:
        """The page inside OBS painted state ``seq`` (at ``ts``): its bus is what program shows. False when
        the state is unknown; a state newer than any remembered is kept, and :meth:`remember` gives it
        back (the page can echo a state before the bridge's listener has seen it)."""
        with self._lock:
            bus = self._bus_by_seq.get(seq)
            if bus is None:
                if not self._bus_by_seq or seq > next(reversed(self._bus_by_seq)):
                    self._early[seq] = ts
                    while len(self._early) > ECHO_MEMORY:
                        self._early.popitem(last=False)
                return False
        self.echo_bus = dict(bus)
        return True

    # -- the episode the rows belong to ------------------------------------------------------------
    def switch_episode(self, episode: str, ts: float) -> None:
        """The show moved on to ``episode`` at ``ts``: what OBS shows is closed in the episode it aired in
        and carried into the new one at that moment (rows ``detail.carried`` = the episode before), so each
        episode's rows account for its own air from its first second — never an item of one episode in
        the other's, never one on air across the change missing from the second."""
        if not episode or episode == self.episode:
            return
        before = self.episode

        def switch() -> None:
            self.episode = episode

        self.tracker.split(ts, switch, before)

    # -- what program shows ----------------------------------------------------------------------
    def observe(
        self,
        ts: float,
        layout: L.Layout | None,
        program: str,
        enabled: Mapping[tuple[str, str], bool],
        holds: Mapping[str, str],
    ) -> None:
        """Tell the tracker what OBS confirmed is on program now (graphic → item)."""
        shown: dict[str, str] = {}
        if layout is not None and program in layout.scenes:
            if layout.browser:
                if program != L.SCENE_BREAK and enabled.get((program, L.INPUT_OVERLAY), False):
                    shown = dict(self.echo_bus)
            else:
                # a graphic is on air while OBS shows one of its picture sources (the top one, when it
                # shows both for a moment while a new picture takes over): as the item it holds
                for g, items in L.graphic_items(layout, program).items():
                    on = [i.source for i in items if enabled.get((program, i.source), False)]
                    if on:
                        shown[g] = holds.get(on[-1], "")
        source = "echo" if layout is not None and layout.browser else "obs"
        self.tracker.observe(ts, program, shown, source=source)

    def record(
        self, ts: float, kind: str, subject: str, detail: dict[str, Any], source: str = "obs"
    ) -> int | None:
        """One as-run row (None without a log, or when the log refused it: the show goes on)."""
        if self.airlog is None:
            return None
        try:
            return int(
                self.airlog.record(
                    A.AirEvent(
                        ts=ts, kind=kind, subject=subject, source=source, episode=self.episode, detail=detail
                    )
                )
            )
        except Exception:  # noqa: BLE001 - the as-run store must not stop the show
            log.exception("as-run record failed (%s %s)", kind, subject)
            return None
