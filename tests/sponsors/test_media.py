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


def test_a_film_s_probe_is_kept_across_processes_until_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``run``/``preflight`` probed the same demo films again: their probes are kept in a cache file
    keyed by the file's path, size, mtime, ctime and inode and by the ffprobe. A kept probe answers a new
    process without ffprobe; any change to the file — even rewritten with its old mtime put back — is
    probed again; a bad film is never kept; a damaged or oversized cache file is ignored and rewritten."""
    calls = tmp_path / "calls"
    counting = tmp_path / "ffprobe"
    counting.write_text(f'#!/bin/sh\necho x >> "{calls}"\nexec ffprobe "$@"\n', encoding="utf-8")
    counting.chmod(0o755)
    cache = tmp_path / "cache" / "probes.json"
    monkeypatch.setenv("GOUJI_FFPROBE", str(counting))
    monkeypatch.setenv(media.PROBE_CACHE_ENV, str(cache))
    film = tmp_path / "film.mp4"
    film.write_bytes((DEMO / "films" / "babao_15s.mp4").read_bytes())

    def probe_in_a_new_process(path: Path = film) -> tuple[media.VideoInfo, int]:
        """(the probe, how many times ffprobe ran for it) as a process that just started sees it."""
        monkeypatch.setattr(media, "_probed", {})
        monkeypatch.setattr(media, "_kept", None)
        before = len(calls.read_text().splitlines()) if calls.exists() else 0
        info = media.probe_video(path)
        return info, len(calls.read_text().splitlines()) - before

    first, ran = probe_in_a_new_process()
    assert ran == 1 and abs(first.seconds - 15.0) < 0.1 and cache.is_file()
    assert probe_in_a_new_process() == (first, 0)  # kept: no ffprobe
    # replaced by another film, its mtime put back: probed again, the new length
    st = film.stat()
    film.write_bytes((DEMO / "films" / "jiaxin_5s.mp4").read_bytes())
    os.utime(film, ns=(st.st_atime_ns, st.st_mtime_ns))
    five, ran = probe_in_a_new_process()
    assert ran == 1 and abs(five.seconds - 5.0) < 0.1
    assert probe_in_a_new_process() == (five, 0)
    # the same bytes written again, size and mtime as before: its ctime says it changed, probed again
    st = film.stat()
    film.write_bytes(film.read_bytes())
    os.utime(film, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert probe_in_a_new_process() == (five, 1)
    # another ffprobe (here: none) is never answered by the probes of this one
    monkeypatch.setenv("GOUJI_FFPROBE", str(tmp_path / "no-ffprobe"))
    with pytest.raises(media.ProbeUnavailable):
        probe_in_a_new_process()
    monkeypatch.setenv("GOUJI_FFPROBE", str(counting))
    # a bad film is never kept: each new process probes it and says why again
    bad = tmp_path / "bad.mp4"
    bad.write_bytes((DEMO / "films" / "babao_15s.mp4").read_bytes()[:5000])
    before = calls.read_text().count("x")
    for _ in range(2):
        with pytest.raises(media.MediaError, match="ffprobe"):
            probe_in_a_new_process(bad)
    assert calls.read_text().count("x") == before + 2
    assert "bad.mp4" not in cache.read_text(encoding="utf-8")
    # a damaged, a foreign and an oversized cache file are ignored; the film is probed again and the
    # file written anew
    for junk in (
        b'{"format": "gouji-probes/1", "probes": {',
        b"[1, 2]",
        b" " * (media.PROBE_CACHE_MAX_BYTES + 1),
    ):
        cache.write_bytes(junk)
        assert media._read_kept(cache) == {}
    assert probe_in_a_new_process() == (five, 1)
    assert probe_in_a_new_process() == (five, 0)
    # nothing kept at all with the cache turned off
    cache.unlink()
    monkeypatch.setenv(media.PROBE_CACHE_ENV, "0")
    assert probe_in_a_new_process() == (five, 1)
    assert not cache.exists() and list(cache.parent.iterdir()) == []
