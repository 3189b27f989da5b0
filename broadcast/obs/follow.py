"""No hole between items: a film's cue ends when OBS says the film ended, and what follows it is rolled
from there.

The cue list's timed cues follow each other (``follow``: the opening bumpers into the opening films,
the films of a break one after the other, the credits after the 英雄榜冠名 film). A bumper is a graphic
and ends on its seconds; a film ends when OBS's ``MediaInputPlaybackEnded`` says so — the bridge then
ends its cue here (:func:`end_film_cue`), in the same moment starting the cue that follows, and takes
program straight from the break to it (the next film restarted in the break scene, or the scene of the
full-frame item that follows), so no frame of the game scene is shown between two items. The cue
runner leaves a film a bridge plays to OBS (``CueRunner``'s ``FILM_GRACE``), ending it on its clock
only when OBS never reported its end.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from broadcast.core import ActionRefused

log = logging.getLogger(__name__)


def running_film_cue(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The running cue when it is a film cue, else None."""
    cues = state.get("cues") or {}
    cur = cues.get("current")
    if not cur:
        return None
    cue = next((c for c in cues.get("list", []) if c.get("id") == cur.get("id")), None)
    if cue is None or cue.get("kind") != "film":
        return None
    return dict(cue)


def end_film_cue(store: Any, film_id: str, failed: str = "") -> dict[str, Any] | None:
    """OBS ended ``film_id`` (or never started it: ``failed`` says why): end the running cue that plays
    it (``cues.end``, as OBS's evidence; the cue marked to follow it starts in the same action). The new
    state, or None when no cue of that film was running (a film played outside the cue list, or a cue
    already ended)."""
    cue = running_film_cue(store.state)
    if cue is None or cue.get("film") != film_id:
        return None
    payload = {"id": cue["id"], **({"status": "failed", "note": failed} if failed else {})}
    try:
        change = store.dispatch("cues.end", payload, source="obs")
    except ActionRefused as exc:  # ended meanwhile (the operator GO'd on): nothing to do
        log.info("film %s: its cue was no longer running: %s", film_id, exc)
        return None
    except Exception:  # noqa: BLE001 - a full disk: the cue runner ends it later; the show goes on
        log.exception("film %s: ending its cue failed", film_id)
        return None
    state: dict[str, Any] = change.state
    return state


def next_picture(state: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """While a film cue runs, the native graphic the cue marked to follow it puts on (the prizes' 九宫格
    after the opening films, the credits after the 英雄榜冠名 film) and the program bus with it on:
    ``(graphic, bus)``, for the bridge to load its picture before the film ends. None when no graphic
    follows the running film."""
    cue = running_film_cue(state)
    cues = state.get("cues") or {}
    items = list(cues.get("list", []))
    if cue is None:
        return None
    at = next(i for i, c in enumerate(items) if c.get("id") == cue["id"])
    nxt = items[at + 1] if at + 1 < len(items) else None
    if nxt is None or not nxt.get("follow") or not nxt.get("graphic") or nxt.get("action") == "off":
        return None
    graphic = str(nxt["graphic"])
    program = state["graphics"]["program"]
    if graphic not in program:
        return None
    bus = {**program, graphic: {**program[graphic], "on": True, "item": str(nxt.get("item") or "")}}
    return graphic, bus
