"""Proof pictures show what they prove (issue 22): a proof of a native graphic is taken only while OBS
shows it, and its box in the picture must match the graphic's render; a picture of the wrong scene is
refused and recorded as a failed proof, never as proof."""

from __future__ import annotations

import copy
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from broadcast.obs import layout as L
from broadcast.obs.graphics import raster as R
from broadcast.obs.onair import OnAirTracker
from broadcast.obs.proofs import CHECK_TOLERANCE, EDGES_MIN, ProofTaker, check_picture, edges_alike
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


def _full_frame(tmp_path: Path, graphic: str, st: dict[str, Any] | None = None) -> tuple[Path, float, float]:
    """A full-frame graphic as the bridge renders it (file and its place on the canvas)."""
    st = copy.deepcopy(st or demo_state())
    st["graphics"]["program"][graphic]["on"] = True
    pic = L.build_layout(st, browser=False).pictures[graphic]
    (path,) = R.PictureStore(tmp_path / "pics").ensure([pic])
    x, y, _w, _h = pic.frame
    return Path(path), float(x), float(y)


def test_a_dark_graphic_s_bare_scene_or_an_older_board_is_no_proof(
    tmp_path: Path, obs_artifacts: Path
) -> None:
    """Issue 22: the credits' bare, undrawn scene is close to them in colour (real OBS: 14 of 255) and
    passed a colour-only check; an older 英雄榜 in the new one's place too. The drawing (edges) tells."""
    studio = (16, 36, 29)
    credits, cx, cy = _full_frame(tmp_path, "credits")
    drawn = check_picture(_program(credits, cx, cy, studio), credits, cx, cy, CANVAS)
    assert drawn["ok"] and drawn["edges"] >= 0.85 and drawn["mean_diff"] < 8, drawn
    bare_shot = _program(None, cx, cy, studio)
    bare = check_picture(bare_shot, credits, cx, cy, CANVAS)
    assert bare["mean_diff"] <= CHECK_TOLERANCE, bare  # colour alone would call it proof …
    assert not bare["ok"] and bare["edges"] < 0.3 and bare["why"] == "drawing differs", bare  # … it is not
    assert round(edges_alike(bare_shot, credits, cx, cy, CANVAS) or 0.0, 2) == bare["edges"]

    st = demo_state()
    board, bx, by = _full_frame(tmp_path, "leaderboard", st)
    older = copy.deepcopy(st)
    older["leaderboard"]["rows"] = list(reversed(older["leaderboard"]["rows"]))  # last week's standings
    old_board, ox, oy = _full_frame(tmp_path, "leaderboard", older)
    assert old_board != board and (ox, oy) == (bx, by)
    assert check_picture(_program(board, bx, by, studio), board, bx, by, CANVAS)["ok"]
    stale = check_picture(_program(old_board, bx, by, studio), board, bx, by, CANVAS)
    assert stale["mean_diff"] <= CHECK_TOLERANCE, stale  # the same panels and colours …
    assert not stale["ok"] and stale["edges"] < EDGES_MIN, stale  # … other names and figures
    for name, shot in (
        ("credits-drawn", _program(credits, cx, cy, studio)),
        ("credits-bare", bare_shot),
        ("leaderboard-older", _program(old_board, bx, by, studio)),
    ):
        (obs_artifacts / f"proof-check-{name}.jpg").write_bytes(shot)  # the pictures judged, to look at


class _Host:
    def __init__(self, tracker: OnAirTracker, picture: tuple[str, float, float], program: str) -> None:
        self.tracker = tracker
        self.program = program
        self.episode = "第16期"
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


def test_the_as_run_keeps_both_scores_with_the_proof_chained_and_old_rows_still_read(tmp_path: Path) -> None:
    """Issue 22: a proof row carries its check (colour difference and edges), hashed into the chain like
    every field of the row; a row written before edges were measured still reads and verifies."""
    from broadcast.core.airlog import GRAPHIC_ON, AirEvent
    from broadcast.sponsors.asrun import AsRunLog
    from broadcast.sponsors.report import describe

    studio = (16, 36, 29)
    credits, cx, cy = _full_frame(tmp_path, "credits")
    drawn_shot, bare_shot = _program(credits, cx, cy, studio), _program(None, cx, cy, studio)
    drawn = check_picture(drawn_shot, credits, cx, cy, CANVAS)
    bare = check_picture(bare_shot, credits, cx, cy, CANVAS)
    db = tmp_path / "asrun.sqlite"
    log = AsRunLog.open(db)
    try:
        on = log.record(AirEvent(1000.0, GRAPHIC_ON, "credits", "obs", "第1期", {"item": "片尾"}))
        old = log.attach_proof(  # as written before this change: the colour alone
            on, drawn_shot, 640, 360, 1000.3, "片尾", check={"mean_diff": 2.4, "tolerance": 24.0, "ok": True}
        )
        failed = log.attach_proof(
            on, bare_shot, 640, 360, 1000.5, "片尾", failed="does_not_show_graphic", check=bare
        )
        good = log.attach_proof(on, drawn_shot, 640, 360, 1001.5, "片尾", check=drawn)
        assert log.verify().ok
        rows = {e.id: e for e in log.events("第1期")}
        assert (
            rows[good].kind == "proof" and rows[good].detail["check"]["edges"] == drawn["edges"] >= EDGES_MIN
        )
        assert rows[failed].kind == "proof_failed" and rows[failed].detail["check"]["edges"] == bare["edges"]
        assert "edges" not in rows[old].detail["check"]
        assert f"轮廓相关 {drawn['edges']}" in describe(rows[good], None)  # type: ignore[arg-type]
        assert f"轮廓相关 {bare['edges']}" in describe(rows[failed], None)  # type: ignore[arg-type]
        assert describe(rows[old], None).endswith("（核对：色差 2.4）")  # type: ignore[arg-type]
        assert set(log.proofs("第1期")) == {on}  # proofs of the graphic's row: the failed one is none
    finally:
        log.close()
    # the edges score is part of the chain: raising the bare scene's to a pass breaks it at that row
    import sqlite3

    conn = sqlite3.connect(db)
    with conn:
        detail = conn.execute("SELECT detail FROM asrun_events WHERE id=?", (failed,)).fetchone()[0]
        assert f'"edges":{bare["edges"]}' in detail
        conn.execute(
            "UPDATE asrun_events SET detail=? WHERE id=?",
            (detail.replace(f'"edges":{bare["edges"]}', '"edges":0.95'), failed),
        )
    conn.close()
    log = AsRunLog.open(db)
    try:
        check = log.verify()
        assert not check.ok and check.bad_id == failed, check
    finally:
        log.close()


def test_a_bumper_s_proof_is_asked_for_the_line_now_on_air(tmp_path: Path) -> None:
    """Each bumper line's proof is of that line: asked once the tracker knows it is on air (asked before,
    it was of the line before — none for the first — and found it gone: every bumper's proof failed
    "not_on_program", seen in a `run` on a real OBS)."""
    log = MemoryAirLog()
    asked: list[tuple[int, str, str]] = []
    host: Any = None

    def went_on(graphic: str, eid: int) -> None:
        taker.graphic_went_on(graphic, eid)

    tracker = OnAirTracker(
        lambda ts, kind, subject, detail, source: log.record_event(ts, kind, subject, detail),
        on_graphic_on=went_on,
    )
    host = _Host(tracker, ("", 0.0, 0.0), L.SCENE_BUMPER)
    taker = ProofTaker(host, ObsSettings(port=4455), log)  # type: ignore[arg-type]
    tracker.up(100.0)
    tracker.observe(100.1, L.SCENE_BUMPER, {"bumper": "title"})
    tracker.observe(105.1, L.SCENE_BUMPER, {"bumper": "special"})
    for _delay, fn in host.timers:
        asked.append((fn.args[0], fn.keywords["graphic"], fn.keywords["item"]))  # type: ignore[attr-defined]
    ons = [i + 1 for i, e in enumerate(log.events) if e.kind == "graphic_on"]
    assert asked == [(ons[0], "bumper", "title"), (ons[1], "bumper", "special")], asked
    # and each is still on when its proof is taken (the tracker says so): not refused as gone
    assert taker._still_on("bumper", "special", "")


def test_a_ticker_s_proof_from_a_real_obs_passes_and_another_line_does_not() -> None:
    """OBS's own program picture of the ticker (a `run` of the demo on OBS 29, 640 px JPEG) against the
    render the bridge sent it: the render is compared in OBS's geometry (placed on the canvas, the canvas
    scaled to the shot) — resized alone to the rounded box, a third of a pixel off, its small type
    correlated 0.72 and every ticker proof of that run failed "drawing differs" while the ticker aired."""
    data = Path(__file__).parent / "data"
    shot = (data / "ticker-program-real-obs.jpg").read_bytes()
    ok = check_picture(shot, data / "ticker-render.png", 96, 968, CANVAS)
    assert ok["ok"] and ok["edges"] >= EDGES_MIN + 0.05, ok
    other = check_picture(shot, data / "ticker-render-other-line.png", 96, 968, CANVAS)
    assert not other["ok"] and other["edges"] < 0.5, other
