"""On air means drawn, and no hole between items — against an OBS that behaves as OBS does: a source's
new settings are loaded by its video thread at the next frame, not when the request is answered; a film
ends when OBS says it ended."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from broadcast.obs import layout as L
from broadcast.obs.settings import ObsSettings
from broadcast.overlay.demo import demo_state
from tests.obs.test_unit import DEBIAN_KINDS, FakeObs


class DeferringObs(FakeObs):
    """A picture sent to an image source is loaded at the next frame OBS renders (one per ``GetStats``
    here); showing a source whose picture is not loaded yet would put an empty picture on program."""

    def __init__(self) -> None:
        super().__init__(list(DEBIAN_KINDS))
        self.frames = 0
        self.loading: dict[str, int] = {}  # source → the frame its new picture is loaded at
        self.shown_undrawn: list[str] = []
        self.program = "Scene"

    def request(
        self, t: str, d: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        d = d or {}
        if t == "GetStats":
            self.frames += 1
            return {"renderTotalFrames": self.frames}
        if t == "SetInputSettings" and "file" in d.get("inputSettings", {}):
            self.loading[d["inputName"]] = self.frames + 2  # answered now, loaded at the next tick
        if t == "SetSceneItemEnabled" and d["sceneItemEnabled"]:
            item = next(i for i in self.scenes[d["sceneName"]] if i["sceneItemId"] == d["sceneItemId"])
            if self.loading.get(item["sourceName"], 0) > self.frames:
                self.shown_undrawn.append(item["sourceName"])
        if t == "SetCurrentProgramScene":
            self.program = d["sceneName"]
            return {}
        if t == "GetCurrentProgramScene":
            return {"currentProgramSceneName": self.program}
        return super().request(t, d, timeout=timeout)

    def pipeline_timed(self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None) -> Any:
        return self.pipeline(calls, timeout=timeout), time.time()


def test_a_native_picture_is_shown_only_once_obs_has_loaded_it(tmp_path: Path) -> None:
    """Every picture the bridge shows — a graphic's update, a cut to a full-frame item's scene — was
    loaded by OBS's video thread first: the as-run's on-air moment is OBS's show of a drawn picture."""
    from broadcast.obs.bridge import ObsBridge
    from broadcast.studio import open_store

    from .conftest import MemoryAirLog

    store = open_store(tmp_path / "s.sqlite")
    bridge = ObsBridge(
        store, ObsSettings(port=4455, pictures_dir=str(tmp_path / "pics")), airlog=MemoryAirLog()
    )
    obs = DeferringObs()
    bridge._provision(obs)  # type: ignore[arg-type]
    state = demo_state(on=("scoreboard", "corner_bug"))
    for step in (
        state,
        demo_state(on=("jiugongge", "corner_bug")),
        demo_state(on=("leaderboard", "corner_bug")),
    ):
        bridge._on_change_state(step)
        bridge._sync(obs)  # type: ignore[arg-type]
    assert obs.loading, "no picture was sent"
    assert obs.shown_undrawn == []
    assert obs.program == L.SCENE_LEADERBOARD
