"""The program scene: what OBS last confirmed on program, and cutting it.

A cut is timed as OBS switched — the cut's watcher session (:mod:`broadcast.obs.cutwatch`), OBS's
event, else its answer; when OBS's answer does not come in time the switch is still recorded once OBS
shows it (reported later through ``late``). OBS sends its program-scene event at the end of the
transition: the event of an earlier cut can arrive after a later cut was seen, and must not be taken
for a new switch, so an event that disagrees with what we know is checked against OBS's state first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from broadcast.obs import sync as S
from broadcast.obs.client import ObsClient
from broadcast.obs.cutwatch import ProgramWatch
from broadcast.obs.errors import ObsError, ObsTimeout
from broadcast.obs.settings import ObsSettings

__all__ = ["ProgramCuts"]

log = logging.getLogger(__name__)

When = Callable[[tuple[str, str], float, float], float]  # evidence.when(key, sent, answered)


class ProgramCuts:
    def __init__(self, settings: ObsSettings, when: When, on_seen: Callable[[str, float], None]) -> None:
        self.settings = settings
        self._when = when
        self._on_seen = on_seen
        self.reset()

    def reset(self, program: str = "") -> None:
        """A new connection: program is what OBS says it shows."""
        self.program = program  # as OBS last confirmed
        self.program_at = 0.0
        self.left = ""  # the scene program showed before (still seen while a transition leaves it)
        self.asked = program
        self.pending = ""  # a cut OBS has not answered in time: its switch is reported later
        self.transition = ""  # OBS's current scene transition

    def cut(
        self,
        client: ObsClient,
        watcher: ObsClient | None,
        scene: str,
        *,
        transition: str = "",
        late: Callable[[str, float], None],
    ) -> None:
        """Cut program to ``scene`` with OBS's ``transition`` (Cut for CUT and panic, the configured one
        for TAKE). ``late(scene, when)`` is called once OBS shows a cut it did not answer in time
        (``when`` 0.0: it never did)."""
        if scene == self.asked and scene == self.program:
            return
        calls: list[S.Request] = []
        if transition and transition != self.transition:
            calls.append(("SetCurrentSceneTransition", {"transitionName": transition}))
            if transition != "Cut":
                calls.append(
                    (
                        "SetCurrentSceneTransitionDuration",
                        {"transitionDuration": int(self.settings.transition_ms)},
                    )
                )
        calls.append(("SetCurrentProgramScene", {"sceneName": scene}))
        sent = time.time()
        watch = ProgramWatch(watcher, scene)
        self.pending = scene
        try:
            # OBS answers a cut only once its UI has caught up (seconds on a busy machine): a long
            # wait is not a fault here, the freeze watchdog tells a frozen OBS apart
            results, at = client.pipeline_timed(calls, timeout=self.settings.cut_timeout)
        except ObsTimeout:
            # OBS may still switch: the watcher (or OBS's event) reports it when it does
            watch.detach(late)
            raise
        except ObsError:
            seen = watch.result()
            self.pending = ""
            if seen:  # OBS did switch (the watcher saw it) before the link went: that aired
                self.seen(scene, seen)
            raise
        seen = watch.result()
        self.pending = ""
        for (rtype, data), r in zip(calls, results, strict=True):
            if isinstance(r, ObsError):
                if rtype == "SetCurrentProgramScene":
                    raise r
                log.warning("OBS transition %s: %s", data, r)
            elif rtype == "SetCurrentSceneTransition":
                self.transition = str(data["transitionName"])
        # OBS switches program at once, then may spend seconds in its UI (the scene's source list)
        # before its event and its answer go out: the watcher saw the switch as any poller would
        at = min(self._when(("scene", scene), sent, at), seen or at)
        self.asked = scene
        self.seen(scene, at, force=True)

    def now(self, client: ObsClient) -> str:
        """What OBS's program shows now ("" when OBS does not answer)."""
        try:
            out = client.request("GetCurrentProgramScene")
        except ObsError as exc:
            log.warning("OBS program scene not confirmed: %s", exc)
            return ""
        return str(out.get("currentProgramSceneName", ""))

    def seen(self, scene: str, ts: float, *, force: bool = False) -> None:
        """OBS showed ``scene`` on program from ``ts`` (its answer, its event, or the watcher)."""
        if scene == self.pending:
            self.pending = ""
        if scene == self.program and not force:
            return
        if not force and ts < self.program_at:
            return  # older than what OBS confirmed since
        if scene != self.program:
            self.left = self.program
        self.program = self.asked = scene
        self.program_at = ts
        self._on_seen(scene, ts)

    def unseen(self, scene: str, now: float) -> bool:
        """Is ``scene`` out of sight — neither on program, nor being cut to, nor still fading out?"""
        fading = scene == self.left and now - self.program_at < self.settings.transition_ms / 1000 + 1.0
        return scene not in (self.program, self.pending) and not fading

    def scene_event(self, client: ObsClient, scene: str, ts: float) -> None:
        """OBS's ``CurrentProgramSceneChanged``: counts only when OBS still shows it."""
        if scene != self.program and ts >= self.program_at and self.now(client) == scene:
            # a cut made elsewhere, or ours that OBS answered too late: OBS shows it now
            self.asked = scene
            self.seen(scene, ts)

    @staticmethod
    def leave_studio_mode(client: ObsClient) -> None:
        """The bridge switches program itself; in studio mode OBS would put a private copy of the scene
        on program (its "duplicate scene" default), which our show/hide of items never reaches: the
        as-run would say what program does not show. Studio mode is switched off, and said."""
        log.warning("OBS 工作室模式已关闭：节目由本软件切换 / OBS studio mode off: the bridge cuts program")
        client.request("SetStudioModeEnabled", {"studioModeEnabled": False})
