"""The console's on-air side (part 2): docks added to the main window beside the table and the entry.

    window = MainWindow(console, settings)
    docks.install(window, studio=studio, runner=runner)   # before window.restore_layout()

* Graphics (:mod:`.graphics`): preview/program of every graphic, select → preview, TAKE, CUT, clear
  one, panic; each with its key.
* Monitors (:mod:`.monitors`): the on-air pages in Qt WebEngine and OBS's program output.
* Cue list (:mod:`.cues`): the episode's rundown, GO on one key.
* Sponsor events (:mod:`.sponsors`): 口播, shots, the 九宫格 draw, lower thirds.
* Status bar (:mod:`.status`): OBS, pages, as-run, wall clock, recording time.
* 胜率 (:mod:`.winprob`): both teams' estimated chance of winning over the game, beside the cue list.

Every operation goes through :mod:`broadcast.control` (the same table as the HTTP control API) and
``store.dispatch`` on the console's store thread. ``studio`` (a :class:`broadcast.runtime.Studio`, or
None in tests) gives the overlay server's URLs, the OBS bridge, the as-run recorder and the
placements; the cue list is loaded from the placements' rundown when the state holds none for the
episode (a restart keeps the journaled progress).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broadcast.console.docks import cues as cue_dock
from broadcast.console.docks import graphics, sponsors, status
from broadcast.console.docks import winprob as winprob_dock
from broadcast.console.docks.onair import OnAir
from engine.words import entered_name


@dataclass
class OnAirDocks:
    onair: OnAir
    graphics: graphics.GraphicsPanel
    cues: cue_dock.CuePanel
    sponsors: sponsors.SponsorPanel
    status: status.StatusWidgets
    monitors: Any = None
    winprob: winprob_dock.WinprobChart | None = None


def cue_list_payload(state: dict[str, Any], placements: Any) -> dict[str, Any] | None:
    """The ``cues.load`` payload for this episode from the placements, or None when the state already
    holds the same cue list (same episode, same cues and labels in both languages)."""
    from broadcast.sponsors.cues import cue_list
    from broadcast.sponsors.rundown import build_rundown

    if placements is None:
        return None
    episode = str(state["show"]["episode"])
    # the names entered (an older database's placeholder "N号位" is no name: 选手N stands in for it)
    seats = state["table"]["seats"]
    names = [n for s in seats if (n := entered_name(int(s["seat"]), str(s.get("name") or "")))]
    want = placements.rundown.contestants
    contestants = (
        names[:want] + [f"选手{i}" for i in range(len(names[:want]) + 1, want + 1)] if names else None
    )
    payload = cue_list(build_rundown(placements, episode=episode, contestants=contestants))
    cq = state["cues"]
    if cq["episode"] == episode and [(c["id"], c["label"], c.get("label_en")) for c in cq["list"]] == [
        (c["id"], c["label"], c["label_en"]) for c in payload["cues"]
    ]:  # (a cue list loaded before the English words came is loaded again, its progress kept)
        return None
    return payload


def install(
    window: Any,
    studio: Any = None,
    *,
    runner: Any = None,
    monitors: bool = True,
    placements: Any = None,
) -> OnAirDocks:
    """Add the on-air docks, their keys and the status bar to ``window`` (before restore_layout)."""
    console = window.console
    onair = OnAir(console, window, window.hotkeys)
    placements = placements if placements is not None else getattr(studio, "placements", None)
    bridge = getattr(studio, "bridge", None)
    mon = None
    if monitors:
        from broadcast.console.docks import monitors as monitor_dock

        server = getattr(studio, "server", None)
        urls = {b: server.url(b) for b in ("preview", "program")} if server is not None else None
        mon = monitor_dock.register(window, urls, bridge)
    g = graphics.register(window, onair)
    s = sponsors.register(window, onair, placements)
    c = cue_dock.register(window, onair)
    wp = winprob_dock.register(window)
    st = status.install(window, studio)
    # a language switch (View menu) redraws the docks' words
    window.on_retranslate(lambda: g.refresh(force=True))
    window.on_retranslate(lambda: s.refresh(force=True))
    window.on_retranslate(c.retranslate)
    window.on_retranslate(st.refresh)
    from broadcast.console import preflight

    preflight.install(window, preflight.studio_check(studio, placements, console.bridge.store))
    payload = cue_list_payload(console.state, placements)
    if payload is not None:
        console.act("cues.load", payload)
    window._onair_runner = runner
    return OnAirDocks(onair, g, c, s, st, mon, wp)
