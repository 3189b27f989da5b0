"""On-air tracking: what the as-run log says is on air, kept equal to what OBS confirmed.

The bridge feeds :class:`OnAirTracker` with what OBS confirmed — its answers to our own requests (the
moment OBS applied a change), its events (changes made elsewhere), its read-back after a reconnect,
and in browser-source mode the program page's own report from inside OBS that it painted a state —
and the tracker writes one as-run row per change, in time order:

* ``obs_up`` once OBS is confirmed again after a (re)connect; nothing counts as on air before it, so
  start-up graphics are timed from when OBS shows them;
* ``program_scene`` when the program scene changes (never twice for one cut), ``graphic_on/off`` per
  graphic and item (the bumper's line: each sponsor's line is its own pair), ``film_start/end``;
* ``obs_down`` (subject = cause: lost, frozen, stopped …; ``since`` = the last moment OBS was known
  alive) when OBS can no longer be seen: everything on air is closed at that moment — nothing is
  credited while OBS is unreachable or frozen; after the reconnect an item counts again only once
  OBS confirms it.

No OBS calls and no clock of its own: every method takes the time the evidence arrived.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from broadcast.core import airlog as A

Record = Callable[[float, str, str, dict[str, Any], str], "int | None"]  # ts, kind, subject, detail, source

UNKNOWN, UP, DOWN = "unknown", "up", "down"


class OnAirTracker:
    def __init__(self, record: Record, *, on_graphic_on: Callable[[str, int], None] | None = None) -> None:
        self._record = record
        self._on_graphic_on = on_graphic_on
        self.link = UNKNOWN
        self.program = ""  # the program scene last recorded
        self.on_air: dict[str, str] = {}  # graphic → item last recorded on air
        self.since: dict[str, tuple[str, float]] = {}  # graphic → (item, when OBS showed it)
        self.source: dict[str, str] = {}  # graphic → the evidence that put it on air (obs, echo)
        self.film: tuple[str, dict[str, Any]] | None = None  # the film on air and its detail
        self.last_ts = 0.0

    def _rec(
        self, ts: float, kind: str, subject: str, detail: dict[str, Any], source: str = "obs"
    ) -> int | None:
        ts = max(ts, self.last_ts)  # rows never go back in time
        self.last_ts = ts
        return self._record(ts, kind, subject, detail, source)

    # -- the link ------------------------------------------------------------------------------
    def up(self, ts: float, detail: Mapping[str, Any] | None = None) -> None:
        """OBS confirmed what it shows (after provisioning and the first sync): evidence counts."""
        if self.link != UP:
            self.link = UP
            self._rec(ts, A.OBS_UP, str((detail or {}).get("obs_version", "")), dict(detail or {}))

    def down(self, ts: float, cause: str, *, since: float | None = None, detail: str = "") -> None:
        """OBS cannot be seen from ``since`` (default ``ts``): close everything, one ``obs_down`` row per
        outage. ``ts`` is when the bridge noticed; the report credits nothing after ``since``."""
        since = ts if since is None else min(since, ts)
        if self.link == DOWN:
            return
        was_up = self.link == UP
        self.link = DOWN
        if was_up:
            reason = "stopped" if cause == "stopped" else "obs_lost"
            self._close_all(ts, reason)
        self._rec(ts, A.OBS_DOWN, cause, {"since": since, "detail": detail})

    def _close_all(self, ts: float, reason: str) -> None:
        if self.film is not None:
            film_id, detail = self.film
            self.film = None
            self._rec(ts, A.FILM_END, film_id, {**detail, "stopped": reason})
        for g in sorted(self.on_air):
            self._rec(
                ts, A.GRAPHIC_OFF, g, {"item": self.on_air[g], "reason": reason}, self.source.get(g, "obs")
            )
        self.on_air, self.source, self.since = {}, {}, {}
        if self.program:
            self._rec(ts, A.PROGRAM_SCENE, "", {"reason": reason})
            self.program = ""

    def split(self, ts: float, switch: Callable[[], None], carried: str) -> None:
        """An episode boundary at ``ts``: everything on air is closed (``reason`` ``episode_end``) in the
        episode ``carried`` (none when it is "": rows of no known episode went to the log's current one,
        which is the next one by now), then ``switch()`` makes the rows go to the next episode, where the
        same things are opened again at ``ts`` with ``detail.carried``: no new airing, no proof asked for,
        and ``on_air_since`` keeps when OBS first showed each one."""
        if self.link != UP:
            switch()
            return
        film, program = self.film, self.program
        shown, sources, since = dict(self.on_air), dict(self.source), dict(self.since)
        if carried:
            self._close_all(ts, "episode_end")
        switch()
        if program:
            self.program = program
            self._rec(ts, A.PROGRAM_SCENE, program, {"carried": carried})
        for g in sorted(shown):
            src = sources.get(g, "obs")
            self._rec(ts, A.GRAPHIC_ON, g, {"scene": program, "item": shown[g], "carried": carried}, src)
        self.on_air, self.source, self.since = shown, sources, since
        if film is not None:
            film_id, detail = film
            self.film = (film_id, dict(detail))
            self._rec(ts, A.FILM_START, film_id, {**detail, "carried": carried})

    # -- what OBS shows --------------------------------------------------------------------------
    def observe(self, ts: float, program: str, shown: Mapping[str, str], *, source: str = "obs") -> None:
        """OBS confirmed at ``ts`` that ``program`` is on program showing ``shown`` (graphic → item).
        Ignored while OBS is not seen (``up`` comes first)."""
        if self.link != UP:
            return
        if program != self.program:
            self.program = program
            self._rec(ts, A.PROGRAM_SCENE, program, {})
        before = self.on_air
        for g in sorted(before):
            if g not in shown or shown[g] != before[g]:
                self._rec(
                    ts, A.GRAPHIC_OFF, g, {"scene": program, "item": before[g]}, self.source.get(g, source)
                )
                self.source.pop(g, None)
        went_on: list[tuple[str, int]] = []
        for g in sorted(shown):
            if g not in before or before[g] != shown[g]:
                eid = self._rec(ts, A.GRAPHIC_ON, g, {"scene": program, "item": shown[g]}, source)
                self.source[g] = source
                self.since[g] = (shown[g], ts)
                if eid is not None:
                    went_on.append((g, eid))
        self.on_air = dict(shown)
        self.since = {g: v for g, v in self.since.items() if g in shown}
        # told once what is on air is known: a proof is asked for the item now on (a bumper's line), not
        # the one before it (whose proof would find it gone: "not_on_program", never proof)
        for g, eid in went_on:
            if self._on_graphic_on is not None:
                self._on_graphic_on(g, eid)

    def on_air_since(self, graphic: str, item: str) -> float | None:
        """When OBS showed ``graphic`` with ``item`` on program, if it shows it now (any thread)."""
        got = self.since.get(graphic)
        return got[1] if got is not None and got[0] == item else None

    def film_started(self, ts: float, film_id: str, detail: Mapping[str, Any]) -> int | None:
        if self.link != UP or (self.film is not None and self.film[0] == film_id):
            return None
        if self.film is not None:
            self.film_ended(ts, self.film[0], {"stopped": "replaced"})
        self.film = (film_id, dict(detail))
        return self._rec(ts, A.FILM_START, film_id, dict(detail))

    def film_ended(self, ts: float, film_id: str, extra: Mapping[str, Any] | None = None) -> None:
        if self.film is None or self.film[0] != film_id:
            return
        _id, detail = self.film
        self.film = None
        self._rec(ts, A.FILM_END, film_id, {**detail, **dict(extra or {})})
