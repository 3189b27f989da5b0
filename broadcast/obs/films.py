"""Sponsor films through OBS: one media source per film in the break scene (够级·中插).

Playing a film shows only its item in the break scene and takes program there (or restarts it when
program is already there); OBS's ``MediaInputPlaybackStarted`` puts it on air in the as-run log,
``MediaInputPlaybackEnded`` takes it off and hands the moment to the host (:meth:`FilmHost.film_done`):
the film's cue ends then — OBS's event, not a timer — and what follows it (the next film, the credits)
takes program straight from the break, else program goes back to the show. A film that has not started
within ``START_GRACE`` seconds is given up (its cue failed, with the reason) — unless OBS, asked, does
not say it cannot play it: a loaded OBS gets up to ``START_LIMIT``. Taking the 英雄榜 off rolls the
英雄榜冠名 film; a film cue the state starts (:func:`cue_film`) rolls its film. A break's films are one
:class:`Reel` (:meth:`FilmPlayer.roll`): each next film starts the moment the one before ends, in the
break scene, so program never goes back to the show between two films of one break.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from broadcast.obs import layout as L
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsError, ObsNotConnected, ObsRequestError
from broadcast.obs.onair import OnAirTracker

log = logging.getLogger(__name__)

START_GRACE = 3.0  # a film that has not started by then is given up, unless OBS is still opening it
START_LIMIT = 12.0  # ... and one OBS is still opening by then (a starved machine) is given up all the same
PROOF_AFTER = 1.0  # a film's proof picture is taken this long after OBS started it (a hold lasts longer)
DID_NOT_START = "片子未能播出：OBS 没有开始播放 / the film could not air: OBS did not start it"
# what OBS says of a film that cannot play: given up at once (anything else may still start, or has)
BROKEN = ("OBS_MEDIA_STATE_ERROR",)


def cue_film(state: Mapping[str, Any], films: Mapping[str, Any]) -> tuple[tuple[str, float] | None, str]:
    """The film the state's running film cue names (``cues.current`` of kind film, action play, a film
    the bridge has), keyed by the cue and when it started: ``(key, film id)``, else ``(None, "")``. The
    bridge rolls it itself on that change of state, so nothing else (the game scene after a bumper)
    reaches program before the film."""
    cues = state.get("cues") or {}
    cur = cues.get("current") or None
    if not cur:
        return None, ""
    cue = next((c for c in cues.get("list", []) if c.get("id") == cur.get("id")), None)
    if cue is None or cue.get("kind") != "film" or cue.get("action", "play") not in ("play", "on", ""):
        return None, ""
    film = str(cue.get("film") or "")
    if film not in films:
        return None, ""
    return (str(cur["id"]), float(cur.get("started") or 0.0)), film


def check_known(film_ids: list[str], films: Mapping[str, Any]) -> None:
    """``KeyError`` naming the first of ``film_ids`` that ``films`` does not have, and those it has."""
    for film_id in film_ids:
        if film_id not in films:
            raise KeyError(f"unknown film {film_id!r}; known: {', '.join(sorted(films)) or 'none'}")


@dataclass
class Film:
    """One playing of a film. ``done`` is set (any thread may wait on it) when it is no longer playing,
    ``ended`` saying how: ``"obs"`` (OBS's ``MediaInputPlaybackEnded``), ``"held"`` (a ``hold`` ran out),
    ``"did_not_start"``, ``"replaced"``, ``"panic"``, ``"interrupted"``, ``"lost"`` (OBS went away)."""

    film_id: str
    reason: str
    asked: float  # monotonic when asked
    playing: bool = False
    event_id: int | None = None
    hold: float | None = None  # stopped this long after OBS started it (a quick rehearsal), else its end
    ended: str = ""
    done: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)

    def finish(self, how: str) -> None:
        self.ended = self.ended or how
        self.done.set()


@dataclass
class Reel:
    """A break's films rolled back to back (:meth:`FilmPlayer.roll`). ``films`` holds each
    :class:`Film` as it starts; ``failed`` each film that did not air and why; ``done`` is set when the
    last has ended (program then goes back to the state's scene) or the reel was cut short
    (``cut`` says how: another film replaced it, a panic, OBS went away)."""

    pending: list[str]
    reason: str
    hold: float | None = None
    films: list[Film] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    cut: str = ""
    done: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)


class FilmHost(Protocol):
    """What the player needs from the bridge's worker."""

    @property
    def layout(self) -> L.Layout | None: ...

    @property
    def item_ids(self) -> Mapping[tuple[str, str], int]: ...

    @property
    def program(self) -> str: ...

    @property
    def tracker(self) -> OnAirTracker: ...

    def set_program(self, client: ObsClient, scene: str) -> None: ...

    def after(self, seconds: float, fn: Callable[[], None]) -> None: ...

    def film_changed(self, film_id: str) -> None: ...

    def film_done(self, client: ObsClient, film_id: str, failed: str = "") -> None: ...

    def proof_later(self, event_id: int, delay: float) -> None: ...


class FilmPlayer:
    def __init__(self, host: FilmHost, films: Mapping[str, Path]) -> None:
        self.host = host
        self.films = dict(films)
        self.current: Film | None = None
        self.reel: Reel | None = None

    def roll(self, client: ObsClient, film_ids: list[str], reason: str, hold: float | None = None) -> Reel:
        """Roll ``film_ids`` back to back in the break scene (each as :meth:`start` would, ``hold`` for
        each): the host's :meth:`FilmHost.film_done` calls :meth:`advance`, which starts the next film at
        once — program stays in the break scene between them — and after the last one lets program go."""
        self._cut_reel("replaced")
        if self.current is not None:
            self.stop(client, "replaced")
        reel = Reel(list(film_ids), reason, hold)
        self.reel = reel
        self.advance(client, "", "")
        return reel

    def advance(self, client: ObsClient, film_id: str, failed: str) -> bool:
        """A film ended (``failed``: why it did not air): the reel's next film is started — True — or the
        reel is over (its ``done`` set) or there is none — False: program goes where the state says."""
        reel = self.reel
        if reel is None:
            return False
        if failed and film_id:
            reel.failed.append((film_id, failed))
        while reel.pending:
            fid = reel.pending.pop(0)
            try:
                reel.films.append(self._start(client, fid, reel.reason, reel.hold))
            except (ObsError, KeyError) as exc:  # this one cannot air; the next one may
                reel.failed.append((fid, str(exc)))
                continue
            return True
        self.reel = None
        reel.done.set()
        return False

    def _cut_reel(self, how: str) -> None:
        reel, self.reel = self.reel, None
        if reel is not None:
            reel.cut = how
            reel.done.set()

    def start(self, client: ObsClient, film_id: str, reason: str, hold: float | None = None) -> Film:
        """Roll ``film_id`` in the break scene; with ``hold``, stop it that many seconds after OBS reports
        it playing (its end in the as-run says ``stopped: held``), else it ends when OBS says it ended.
        A reel rolling then is cut short (the film it was playing is replaced)."""
        self._cut_reel("replaced")
        return self._start(client, film_id, reason, hold)

    def _start(self, client: ObsClient, film_id: str, reason: str, hold: float | None) -> Film:
        check_known([film_id], self.films)
        if self.current is not None:
            self.stop(client, "replaced")
        lay = self.host.layout
        if lay is None:
            raise ObsNotConnected(en="not provisioned")
        name = L.film_input(film_id)
        calls = [
            (
                "SetSceneItemEnabled",
                {
                    "sceneName": L.SCENE_BREAK,
                    "sceneItemId": self.host.item_ids[(L.SCENE_BREAK, item.source)],
                    "sceneItemEnabled": item.source == name,
                },
            )
            for item in lay.scenes.get(L.SCENE_BREAK, [])
            if item.film
        ]
        for r in client.pipeline(calls):
            if isinstance(r, ObsError):
                raise r
        film = Film(film_id, reason, time.monotonic(), hold=hold)
        self.current = film
        if self.host.program == L.SCENE_BREAK:
            client.request(
                "TriggerMediaInputAction",
                {"inputName": name, "mediaAction": "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_RESTART"},
            )
        else:
            self.host.set_program(client, L.SCENE_BREAK)
        self.host.film_changed(film_id)

        def check_started() -> None:
            if self.current is not film or film.playing:
                return
            waited = time.monotonic() - film.asked
            if waited < START_LIMIT and not self._broken(client, name):
                self.host.after(START_GRACE / 3, check_started)  # OBS is on it: its start event will come
                return
            log.warning("film %s did not start within %.0fs: back to the show", film_id, waited)
            self.stop(client, "did_not_start")
            self.host.film_done(client, film_id, f"{DID_NOT_START} ({waited:.0f} s)")

        self.host.after(START_GRACE, check_started)
        return film

    @staticmethod
    def _broken(client: ObsClient, name: str) -> bool:
        """Does OBS say the film input ``name`` cannot play? Else it is still opening it (a loaded machine
        can take longer than ``START_GRACE``, the cut to the break may not be shown yet) or it has started
        (its event still in the worker's queue: a due timer runs first) — giving up then would show the
        studio for nothing."""
        try:
            status = client.request("GetMediaInputStatus", {"inputName": name})
        except ObsRequestError:
            return True
        return str(status.get("mediaState", "")) in BROKEN

    def stop(self, client: ObsClient, why: str) -> None:
        if why not in ("held", "did_not_start"):  # those end a film as its end does: the reel goes on
            self._cut_reel(why)
        film, self.current = self.current, None
        if film is None:
            return
        film.finish(why)
        log.warning("film %s stopped (%s)%s", film.film_id, why, "" if film.playing else " before it started")
        try:
            client.request(
                "TriggerMediaInputAction",
                {
                    "inputName": L.film_input(film.film_id),
                    "mediaAction": "OBS_WEBSOCKET_MEDIA_INPUT_ACTION_STOP",
                },
            )
        except ObsRequestError as exc:
            log.warning("stopping film %s: %s", film.film_id, exc)
        if film.playing:
            self.host.tracker.film_ended(time.time(), film.film_id, {"stopped": why})
        self.host.film_changed("")

    def _held(self, client: ObsClient, film: Film) -> None:
        """A held film's time on program is up: stopped, and what follows takes program as after its end."""
        if self.current is not film:
            return
        self.stop(client, "held")
        self.host.film_done(client, film.film_id)

    def forget(self) -> None:
        """OBS went away: the tracker closed the film; nothing to stop."""
        self._cut_reel("lost")
        film, self.current = self.current, None
        if film is not None:
            film.finish("lost")

    # -- OBS events ----------------------------------------------------------------------------
    def on_event(self, client: ObsClient, name: str, data: Mapping[str, Any], ts: float) -> None:
        film = self.current
        if film is None or data.get("inputName") != L.film_input(film.film_id):
            return
        if name == "MediaInputPlaybackStarted" and not film.playing:
            film.playing = True
            # the scene it plays in: it is on air only while program shows that scene (exposure.py)
            detail = {
                "reason": film.reason,
                "file": str(self.films.get(film.film_id, "")),
                "scene": L.SCENE_BREAK,
            }
            film.event_id = self.host.tracker.film_started(ts, film.film_id, detail)
            if film.event_id is not None:
                self.host.proof_later(film.event_id, PROOF_AFTER)
            if film.hold is not None:
                self.host.after(film.hold, lambda: self._held(client, film))
        elif name == "MediaInputPlaybackEnded":
            self.current = None
            film.finish("obs")
            if film.playing:
                self.host.tracker.film_ended(ts, film.film_id)
            self.host.film_changed("")
            self.host.film_done(client, film.film_id)
