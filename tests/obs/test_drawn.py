"""On air means drawn, and no hole between items — against an OBS that behaves as OBS does: a source's
new settings are loaded by its video thread at the next frame, not when the request is answered; a film
ends when OBS says it ended."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from broadcast.obs import layout as L
from broadcast.obs.settings import ObsSettings
from broadcast.overlay.demo import demo_state
from tests.obs.test_unit import DEBIAN_KINDS, FakeObs


class DeferringObs(FakeObs):
    """OBS's video loop, a third of a frame per ``GetStats`` look: the tick (a picture sent since the last
    one is loaded), the render, the sleep that counts the frame — and, in a lagging OBS (``lag`` > 1),
    the frames it missed too, as rendered and as skipped. A picture request lands just after a tick (the
    worst case): the count can then move with no tick after it. Showing a source whose picture is not
    loaded yet would put an empty picture on program (``shown_undrawn``)."""

    def __init__(self, lag: int = 1) -> None:
        super().__init__(list(DEBIAN_KINDS))
        self.lag = lag
        self.total = self.skipped = self.frames = 0  # counted, counted as missed, rendered
        self.phase = 0  # next: 0 tick, 1 render, 2 sleep
        self.pending: set[str] = set()  # sources whose new picture the next tick loads
        self.sent: list[str] = []
        self.shown_undrawn: list[str] = []
        self.program = "Scene"

    def advance(self) -> None:
        if self.phase == 0:
            self.pending.clear()
        elif self.phase == 2:
            self.total, self.skipped = self.total + self.lag, self.skipped + self.lag - 1
            self.frames += 1
        self.phase = (self.phase + 1) % 3

    def request(
        self, t: str, d: dict[str, Any] | None = None, *, timeout: float | None = None
    ) -> dict[str, Any]:
        d = d or {}
        if t == "GetStats":
            self.advance()
            return {"renderTotalFrames": self.total, "renderSkippedFrames": self.skipped}
        if t == "SetInputSettings" and "file" in d.get("inputSettings", {}):
            self.pending.add(d["inputName"])  # answered now, loaded at the next tick
            self.phase = 1
            self.sent.append(d["inputName"])
        if t == "SetSceneItemEnabled" and d["sceneItemEnabled"]:
            item = next(i for i in self.scenes[d["sceneName"]] if i["sceneItemId"] == d["sceneItemId"])
            if not self.drawn(item["sourceName"]):
                self.shown_undrawn.append(item["sourceName"])
        if t == "SetCurrentProgramScene":
            self.program = d["sceneName"]
            return {}
        if t == "GetCurrentProgramScene":
            return {"currentProgramSceneName": self.program}
        return super().request(t, d, timeout=timeout)

    def drawn(self, source: str) -> bool:
        return source not in self.pending

    def pipeline_timed(self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float | None = None) -> Any:
        return self.pipeline(calls, timeout=timeout), time.time()


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of rendered graphics for the module's bridges (the same states draw the same files)."""
    return tmp_path_factory.mktemp("pics")


def _bridge(tmp_path: Path, pictures: Path) -> Any:
    from broadcast.obs.bridge import ObsBridge
    from broadcast.studio import open_store

    from .conftest import MemoryAirLog

    store = open_store(tmp_path / "s.sqlite")
    return ObsBridge(store, ObsSettings(port=4455, pictures_dir=str(pictures)), airlog=MemoryAirLog())


def test_a_native_picture_is_shown_only_once_obs_has_loaded_it(tmp_path: Path, pictures: Path) -> None:
    """Every picture the bridge shows — a graphic's update, a cut to a full-frame item's scene — was
    loaded by OBS's video thread first: the as-run's on-air moment is OBS's show of a drawn picture —
    also when OBS lags and counts 3 frames for each it renders: the bridge counts only those it rendered
    (on a loaded machine the 九宫格 after the films was credited while OBS's picture of it was bare)."""
    bridge = _bridge(tmp_path, pictures)
    obs = DeferringObs(lag=3)
    bridge._provision(obs)  # type: ignore[arg-type]
    state = demo_state(on=("scoreboard", "corner_bug"))
    for step in (
        state,
        demo_state(on=("jiugongge", "corner_bug")),
        demo_state(on=("leaderboard", "corner_bug")),
    ):
        bridge._on_change_state(step)
        bridge._sync(obs)  # type: ignore[arg-type]
    assert obs.sent, "no picture was sent"
    assert obs.shown_undrawn == []
    assert obs.program == L.SCENE_LEADERBOARD
