"""Films are probed with ffprobe (FFmpeg) instead of a hand-written MP4 parser: real length and video
track, a damaged file named with what ffprobe found, and one clear line when ffprobe is missing."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast import media
from broadcast.sponsors.placements import PlacementError, load_placements
from tests.sponsors.conftest import AIR_DATE, DEMO, ROOT, line_of

Variant = Callable[..., tuple[Path, str]]


def test_a_demo_film_is_probed_by_ffprobe() -> None:
    info = media.probe_video(DEMO / "films" / "babao_15s.mp4")
    assert abs(info.seconds - 15.0) < 0.1 and info.has_video and info.brand == "isom"


@pytest.mark.parametrize(
    "make,words",
    [
        (lambda d: (d / "films" / "babao_15s.mp4").read_bytes()[:5000], ("已损坏", "ffprobe")),  # cut short
        (lambda d: b"\x00\x00\x00\x18ftypisom" + b"\x00" * 64, ("已损坏", "ffprobe")),  # header only
        (lambda d: (d / "logos" / "babao.png").read_bytes(), ("不是 MP4/MOV 视频", "png")),  # a still
    ],
    ids=["truncated", "header-only", "png-named-mp4"],
)
def test_a_damaged_or_foreign_film_is_an_error_at_its_line(
    variant: Variant, demo_dir: Path, make: Callable[[Path], bytes], words: tuple[str, ...]
) -> None:
    data = make(demo_dir)
    bad = demo_dir / "films" / f"bad-{hashlib.sha256(data).hexdigest()[:12]}.mp4"  # a name of its own
    bad.write_bytes(data)
    with pytest.raises(media.MediaError) as ei:
        media.probe_video(bad)
    assert all(w in str(ei.value) for w in words), str(ei.value)
    path, text = variant(("file: films/jiaxin_5s.mp4", f"file: films/{bad.name}"))
    with pytest.raises(PlacementError) as pe:
        load_placements(path, air_date=AIR_DATE)
    line = line_of(text, f"films/{bad.name}")
    hits = [str(i) for i in pe.value.errors if str(i).startswith(f"{path}:{line}:")]
    assert hits and all(w in hits[0] for w in words), [str(i) for i in pe.value.errors]


def test_missing_ffprobe_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = dict(os.environ, GOUJI_FFPROBE=str(tmp_path / "no-ffprobe"))
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", str(DEMO / "placements.yaml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and "ffprobe" in lines[0] and "apt-get install ffmpeg" in lines[0], r.stderr
    assert "排期未加载" in lines[1]
