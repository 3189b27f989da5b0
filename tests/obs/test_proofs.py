"""Proof pictures show what they prove (issue 22): a proof of a native graphic is taken only while OBS
shows it, and its box in the picture must match the graphic's render; a picture of the wrong scene is
refused and recorded as a failed proof, never as proof."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from broadcast.obs import layout as L
from broadcast.obs.graphics import raster as R
from broadcast.obs.onair import OnAirTracker
from broadcast.obs.proofs import ProofTaker, check_picture
from broadcast.obs.settings import ObsSettings
from broadcast.overlay.demo import demo_state

from .conftest import MemoryAirLog

CANVAS = (1920, 1080)


def _corner_bug(tmp_path: Path) -> tuple[Path, float, float]:
    """The demo's corner bug as the bridge renders it (file and its place on the canvas)."""
    st = demo_state()
    st["graphics"]["program"]["corner_bug"]["on"] = True
    lay = L.build_layout(st, browser=False)
    pic = lay.pictures["corner_bug"]
    (path,) = R.PictureStore(tmp_path / "pics").ensure([pic])
    x, y, _w, _h = pic.frame
    return Path(path), float(x), float(y)


def _program(picture: Path | None, x: float, y: float, background: tuple[int, int, int]) -> bytes:
    """What OBS's program screenshot would be (640 px JPEG): ``background`` with the picture on it."""
    frame = Image.new("RGB", CANVAS, background)
    if picture is not None:
        with Image.open(picture) as im:
            pic = im.convert("RGBA")
        frame.paste(pic, (round(x), round(y)), pic)
    frame = frame.resize((640, 360), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    frame.save(buf, "JPEG", quality=80)
    return buf.getvalue()


def _film_frame() -> bytes:
    frame = Image.effect_noise((640, 360), 60).convert("RGB")  # a film's frame: anything but the graphic
    buf = io.BytesIO()
    frame.save(buf, "JPEG", quality=80)
    return buf.getvalue()


def test_the_check_passes_the_graphic_on_air_and_fails_any_other_picture(tmp_path: Path) -> None:
    pic, x, y = _corner_bug(tmp_path)
    game = (16, 36, 29)  # the game scene's background (#10241d)
    ok = check_picture(_program(pic, x, y, game), pic, x, y, CANVAS)
    assert ok["ok"] and ok["mean_diff"] < 12, ok
    # on another background (a camera) it still matches where it is opaque
    assert check_picture(_program(pic, x, y, (200, 180, 160)), pic, x, y, CANVAS)["ok"]
    for name, shot in (
        ("the game scene without it", _program(None, x, y, game)),
        ("the break scene (black)", _program(None, x, y, (0, 0, 0))),
        ("a film frame", _film_frame()),
    ):
        bad = check_picture(shot, pic, x, y, CANVAS)
        assert not bad["ok"] and bad["mean_diff"] > 24, (name, bad)


class _Host:
    def __init__(self, tracker: OnAirTracker, picture: tuple[str, float, float], program: str) -> None:
        self.tracker = tracker
        self.program = program
        self.client: Any = None
        self._picture = picture
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def after(self, seconds: float, fn: Callable[[], None]) -> None:
        self.timers.append((seconds, fn))

    after_threadsafe = after

    def picture_of(self, graphic: str) -> tuple[str, float, float] | None:
        return self._picture if graphic == "corner_bug" else None


class _Client:
    connected = True

    def __init__(self, shot: bytes) -> None:
        self.shot = shot
        self.shots = 0

    def request(self, rtype: str, data: Any = None, **kw: Any) -> dict[str, Any]:
        return {"currentProgramSceneName": L.SCENE_GAME}

    def screenshot(self, scene: str, **kw: Any) -> bytes:
        self.shots += 1
        return self.shot


def test_a_proof_of_the_wrong_scene_is_refused_and_recorded_failed(tmp_path: Path) -> None:
    pic, x, y = _corner_bug(tmp_path)
    log = MemoryAirLog()
    tracker = OnAirTracker(
        lambda ts, kind, subject, detail, source: log.record_event(ts, kind, subject, detail)
    )
    tracker.up(100.0)
    tracker.observe(100.1, L.SCENE_GAME, {"corner_bug": "yiheyuan"})
    on_row = len(log.events)
    host = _Host(tracker, (str(pic), x, y), L.SCENE_GAME)
    taker = ProofTaker(host, ObsSettings(port=4455), log)  # type: ignore[arg-type]
    # OBS shows the film (program went to the break scene) while the bug is still believed on air
    client = _Client(_film_frame())
    host.client = client
    proof = taker.take(client, on_row, graphic="corner_bug", item="yiheyuan")  # type: ignore[arg-type]
    assert proof.failed == "does_not_show_graphic" and proof.check is not None and not proof.check["ok"]
    assert [e.kind for e in log.events[on_row:]] == ["proof_failed"] and not log.kinds("proof")
    assert log.events[-1].detail["reason"] == "does_not_show_graphic"
    assert len(host.timers) == 1  # looked at once more a second later
    # the right picture the second time: a proof
    client.shot = _program(pic, x, y, (16, 36, 29))
    host.timers.pop()[1]()
    assert len(log.kinds("proof")) == 1 and client.shots == 2 and not host.timers
    # the graphic already off program: no picture taken at all, a failed proof says why
    tracker.observe(101.0, L.SCENE_BREAK, {})
    again = taker.take(client, on_row, graphic="corner_bug", item="yiheyuan")  # type: ignore[arg-type]
    assert again.failed == "not_on_program" and client.shots == 2
    assert log.events[-1].kind == "proof_failed" and len(log.kinds("proof")) == 1
