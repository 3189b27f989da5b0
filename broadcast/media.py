"""Probe media files: is a sponsor's logo or a player's photo really an image, is a film really a video,
and how long does it run.

Images are opened and verified with Pillow. Films are probed with ``ffprobe`` (FFmpeg, Debian package
``ffmpeg``, installed by ``scripts/setup.sh``): the container must be ISO base media (MP4/MOV, what OBS's
media source and the browser both play) with a video track, and its duration is what ffprobe reads.
A missing ffprobe is :class:`ProbeUnavailable` (one line saying what to install); a damaged or foreign
file is :class:`MediaError` saying what ffprobe found instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, UnidentifiedImageError

from broadcast.errors import GoujiError

IMAGE_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
# a logo or a photo: at most 64 megapixels (8000×8000: a 48 Mpx phone photo fits; 256 MB decoded). A 436 KB
# PNG can claim 60000×60000 (Pillow's DecompressionBombError: an internal error in sponsors check, export)
IMAGE_MAX_PIXELS = 64_000_000
VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v")
ISO_MEDIA = "mov"  # ffprobe's demuxer for MP4/MOV/M4V reports format_name "mov,mp4,m4a,3gp,3g2,mj2"
PROBE_TIMEOUT = 30.0
PROBE_WORKERS = 4  # ffprobe's start-up (loading FFmpeg's libraries) dominates: overlap a few


class MediaError(GoujiError):
    """The file is not what it claims to be: ``MediaError("media", zh, en)`` says what it is instead."""

    rule = "media"
    show_rule = False


@dataclass(frozen=True)
class ImageInfo:
    format: str
    width: int
    height: int


@dataclass(frozen=True)
class VideoInfo:
    brand: str
    seconds: float
    has_video: bool


# (path, size, mtime_ns) → what Pillow said: a logo is verified once per process until it changes (the
# producer's workspace checks the whole file at every keystroke)
_images: dict[tuple[str, int, int], ImageInfo | MediaError] = {}


def probe_image(path: Path) -> ImageInfo:
    return _once(_images, path, _probe_image)


def _probe_image(path: Path) -> ImageInfo:
    try:
        with warnings.catch_warnings():  # over Pillow's warning size (89 Mpx): refused below, in one line
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                fmt = str(im.format or "")
                size = im.size
                if size[0] * size[1] > IMAGE_MAX_PIXELS:
                    raise too_many_pixels(f"{size[0]}×{size[1]}")
                im.verify()
    except Image.DecompressionBombError as exc:  # so many pixels Pillow refuses to open it
        found = re.search(r"\((\d+) pixels\)", str(exc))
        raise too_many_pixels(f"{int(found.group(1)):,}" if found else "") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise MediaError(
            "media",
            f"不是可用的图片（{exc.__class__.__name__}）",
            f"not a usable image ({exc.__class__.__name__})",
        ) from exc
    if fmt not in IMAGE_FORMATS:
        raise MediaError(
            "media",
            f"图片格式 {fmt or '未知'} 不支持（应为 PNG、JPEG 或 WebP）",
            f"image format {fmt or 'unknown'} not supported (PNG, JPEG or WebP)",
        )
    return ImageInfo(fmt, int(size[0]), int(size[1]))


def too_many_pixels(size: str) -> MediaError:
    """A picture over :data:`IMAGE_MAX_PIXELS` (``size``: "W×H", or the count of pixels, or unknown)."""
    what = f"（{size} 像素）" if size else ""
    return MediaError(
        "media",
        f"图片太大{what}，标志或照片最多 {IMAGE_MAX_PIXELS // 10_000:,} 万像素（如 8000×8000）",
        f"the picture is too large{f' ({size} pixels)' if size else ''}: a logo or a photo is at most "
        f"{IMAGE_MAX_PIXELS:,} pixels (e.g. 8000×8000)",
    )


class ProbeUnavailable(MediaError):
    """ffprobe is not installed (or cannot run): films cannot be checked on this machine."""


def ffprobe_command() -> str:
    """The ffprobe to run (``GOUJI_FFPROBE`` overrides, e.g. for a build of FFmpeg elsewhere)."""
    return os.environ.get("GOUJI_FFPROBE", "ffprobe")


def _ffprobe(path: Path) -> dict[str, Any]:
    cmd = [
        ffprobe_command(),
        "-v",
        "error",
        "-print_format",
        "json",
        "-show_entries",
        "format=format_name,duration:format_tags=major_brand:stream=codec_type:stream_disposition=attached_pic",
        str(path),
    ]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=PROBE_TIMEOUT, check=False)
    except (FileNotFoundError, PermissionError) as exc:
        raise ProbeUnavailable(
            "media",
            f"需要 ffprobe 才能检查宣传片（{cmd[0]}: {exc.strerror}）",
            f"ffprobe is needed to check films ({cmd[0]}: {exc.strerror})",
        ) from None
    except subprocess.TimeoutExpired:
        raise MediaError(
            "media",
            f"ffprobe {PROBE_TIMEOUT:g} 秒内没有读完，文件可能已损坏",
            f"ffprobe did not finish in {PROBE_TIMEOUT:g} s: the file may be damaged",
        ) from None
    if done.returncode != 0:
        raise MediaError(
            "media",
            f"已损坏或不是视频（ffprobe：{_reason(done.stderr, path)}）",
            f"damaged or not a video (ffprobe: {_reason(done.stderr, path)})",
        )
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        raise MediaError(
            "media",
            "ffprobe 的输出无法读取，文件可能已损坏",
            "ffprobe's answer cannot be read: the file may be damaged",
        ) from None
    return data if isinstance(data, dict) else {}


def _reason(stderr: str, path: Path) -> str:
    """ffprobe's most specific complaint, without its ``[demuxer @ 0x…]`` prefix or the file name."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("[") and "] " in ln:
            return ln.split("] ", 1)[1]
    last = lines[-1] if lines else "unknown error"
    return last.removeprefix(f"{path}: ")


# (path, size, mtime_ns) → what ffprobe said: a file is probed once per process until it changes
_probed: dict[tuple[str, int, int], VideoInfo | MediaError] = {}
_probed_lock = threading.Lock()


def probe_video(path: Path) -> VideoInfo:
    """Container, video track and duration of a film; :class:`MediaError` if it is not a usable one."""
    return _once(_probed, path, _probe_video_kept)


# The films' probes are kept across processes too (every ``run``, ``preflight`` and ``sponsors check``
# probed the same eight demo films again: ~1.2 s of CPU and ~2 s at start-up): a JSON file in the user's
# cache, one entry per film that probed good, keyed by everything that changes when the file does (its
# resolved path, size, mtime, ctime — which no one can set back — and inode) and by the ffprobe that read
# it. A changed, moved or replaced file misses and is probed again; a bad film is never kept (it is
# probed again, and its error said again). The file is a cache only: written whole beside itself and
# renamed over (never half-written), read with a size limit, and ignored if it is anything but what this
# module writes. ``GOUJI_PROBE_CACHE`` names the file (``0``: keep nothing).
PROBE_CACHE_ENV = "GOUJI_PROBE_CACHE"
PROBE_CACHE_FORMAT = "gouji-probes/1"
PROBE_CACHE_MAX_BYTES = 1 << 20
PROBE_CACHE_MAX_ENTRIES = 2000
_kept: dict[str, VideoInfo] | None = None  # the file's entries, read once per process
_kept_new: dict[str, VideoInfo] = {}  # probed by this process, not yet written
_kept_lock = threading.Lock()
_batch = 0  # prefetch_videos writes once, after all its probes


def probe_cache_path() -> Path | None:
    """The file the films' probes are kept in: ``$GOUJI_PROBE_CACHE`` (``0``: none) or
    ``~/.cache/gouji-studio/probes.json``."""
    named = os.environ.get(PROBE_CACHE_ENV, "")
    if named == "0":
        return None
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base, "gouji-studio", "probes.json")


def _kept_key(path: Path) -> str | None:
    try:
        st = path.stat()
        resolved = str(path.resolve())
    except OSError:
        return None
    return json.dumps(
        [resolved, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, ffprobe_command()],
        ensure_ascii=False,
    )


def _read_kept(file: Path) -> dict[str, VideoInfo]:
    """The kept probes, or nothing if the file is missing, too big or not this module's."""
    try:
        with file.open("rb") as f:
            raw = f.read(PROBE_CACHE_MAX_BYTES + 1)
    except OSError:
        return {}
    if len(raw) > PROBE_CACHE_MAX_BYTES:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != PROBE_CACHE_FORMAT:
        return {}
    entries = data.get("probes")
    out: dict[str, VideoInfo] = {}
    for key, v in entries.items() if isinstance(entries, dict) else ():
        if not isinstance(v, dict):
            continue
        brand, seconds = v.get("brand"), v.get("seconds")
        if (
            isinstance(brand, str)
            and len(brand) <= 64
            and isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)
            and 0 < seconds < 1e7
        ):
            out[key] = VideoInfo(brand, float(seconds), True)
    return out


def _write_kept() -> None:
    """This process's new probes into the file, merged with what other processes wrote meanwhile
    (the newest last; the oldest dropped past the limit); a cache that cannot be written is no error."""
    file = probe_cache_path()
    with _kept_lock:
        new = dict(_kept_new)
        _kept_new.clear()
    if file is None or not new:
        return
    merged = _read_kept(file)
    for key in new:
        merged.pop(key, None)
    merged.update(new)
    keep = list(merged.items())[-PROBE_CACHE_MAX_ENTRIES:]
    body = {
        "format": PROBE_CACHE_FORMAT,
        "probes": {k: {"brand": v.brand, "seconds": v.seconds} for k, v in keep},
    }
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{file.name}.", dir=file.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(body, f, ensure_ascii=False)
            os.replace(tmp, file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        pass


def _probe_video_kept(path: Path) -> VideoInfo:
    """:func:`_probe_video`, answered from the kept probes when this very file was probed before."""
    key = _kept_key(path) if path.suffix.lower() in VIDEO_SUFFIXES else None
    file = probe_cache_path() if key is not None else None
    if key is None or file is None:
        return _probe_video(path)
    kept = _kept_probes(file)
    with _kept_lock:
        known = kept.get(key)
    if known is not None:
        return known
    info = _probe_video(path)
    with _kept_lock:
        kept[key] = info
        _kept_new[key] = info
        later = _batch > 0
    if not later:
        _write_kept()
    return info


_Info = TypeVar("_Info")


def _once_key(path: Path) -> tuple[str, int, int] | None:
    try:
        st = path.stat()
        return (str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError:
        return None


def _known(path: Path) -> bool:
    """Whether :func:`probe_video` answers ``path`` without ffprobe (this process or the cache file
    has its probe)."""
    key = _once_key(path)
    with _probed_lock:
        if key is not None and key in _probed:
            return True
    kept_key = _kept_key(path)
    file = probe_cache_path()
    if kept_key is None or file is None:
        return False
    kept = _kept_probes(file)
    with _kept_lock:
        return kept_key in kept


def _kept_probes(file: Path) -> dict[str, VideoInfo]:
    """The kept probes, read from ``file`` once per process."""
    global _kept
    with _kept_lock:
        if _kept is None:
            _kept = _read_kept(file)
        return _kept


def _once(
    cache: dict[tuple[str, int, int], _Info | MediaError], path: Path, probe: Callable[[Path], _Info]
) -> _Info:
    """``probe(path)`` once per process for each (path, size, mtime): its answer, or the MediaError it
    raised, kept until the file changes; an unreadable file is handed to the probe (it reports it) and a
    missing tool (ProbeUnavailable) is never kept."""
    key = _once_key(path)
    if key is None:
        return probe(path)
    with _probed_lock:
        known = cache.get(key)
    if known is None:
        try:
            known = probe(path)
        except ProbeUnavailable:
            raise
        except MediaError as exc:
            known = exc
        with _probed_lock:
            cache[key] = known
    if isinstance(known, MediaError):
        raise known
    return known


def prefetch_videos(paths: Iterable[Path]) -> None:
    """Probe several films at once (before a placements file is read film by film); errors are kept
    for :func:`probe_video` to report, and a missing ffprobe is reported there too."""
    todo = sorted({p for p in paths if p.suffix.lower() in VIDEO_SUFFIXES and p.is_file()})
    todo = [p for p in todo if not _known(p)]  # no threads for films probed already
    if len(todo) < 2:
        return

    def one(p: Path) -> None:
        try:
            probe_video(p)
        except MediaError:
            pass

    global _batch
    with _kept_lock:
        _batch += 1
    try:
        with ThreadPoolExecutor(max_workers=min(PROBE_WORKERS, len(todo))) as pool:
            list(pool.map(one, todo))
    finally:
        with _kept_lock:
            _batch -= 1
        _write_kept()


def _probe_video(path: Path) -> VideoInfo:
    if path.suffix.lower() not in VIDEO_SUFFIXES:
        raise MediaError(
            "media",
            f"扩展名 {path.suffix or '(无)'} 不是 MP4/MOV 视频",
            f"the suffix {path.suffix or '(none)'} is not an MP4/MOV video",
        )
    data = _ffprobe(path)
    fmt = data.get("format") or {}
    names = str(fmt.get("format_name", "")).split(",")
    if ISO_MEDIA not in names:
        raise MediaError(
            "media",
            f"不是 MP4/MOV 视频（ffprobe 识别为 {','.join(names) or '未知格式'}）",
            f"not an MP4/MOV video (ffprobe sees {','.join(names) or 'an unknown format'})",
        )
    streams = data.get("streams") or []
    has_video = any(
        s.get("codec_type") == "video" and not (s.get("disposition") or {}).get("attached_pic")
        for s in streams
    )
    if not has_video:
        raise MediaError("media", "MP4 里没有视频轨", "the MP4 has no video track")
    try:
        seconds = float(fmt["duration"])
    except (KeyError, TypeError, ValueError):
        raise MediaError(
            "media",
            "MP4 无法得知时长（文件可能不完整）",
            "the MP4's length is unknown (the file may be incomplete)",
        ) from None
    brand = str((fmt.get("tags") or {}).get("major_brand", "")).strip()
    return VideoInfo(brand, seconds, has_video)
