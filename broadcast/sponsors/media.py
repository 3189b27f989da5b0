"""Probe sponsor assets: is a logo really an image, is a film really a video, and how long does it run.

Images are opened and verified with Pillow. Films must be ISO base media files (MP4/MOV, what OBS's
media source and the browser both play); their duration is read from the ``mvhd`` box and the presence
of a video track from the ``hdlr`` boxes, so no external tool is needed at check time.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

IMAGE_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v")


class MediaError(Exception):
    """The file is not what it claims to be; the message says what it is instead (Chinese)."""


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


def probe_image(path: Path) -> ImageInfo:
    try:
        with Image.open(path) as im:
            fmt = str(im.format or "")
            size = im.size
            im.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise MediaError(f"不是可用的图片（{exc.__class__.__name__}）") from exc
    if fmt not in IMAGE_FORMATS:
        raise MediaError(f"图片格式 {fmt or '未知'} 不支持（应为 PNG、JPEG 或 WebP）")
    return ImageInfo(fmt, int(size[0]), int(size[1]))


def _boxes(data: bytes, start: int, end: int) -> list[tuple[bytes, int, int]]:
    """(type, payload_start, payload_end) of the boxes in data[start:end]."""
    out: list[tuple[bytes, int, int]] = []
    pos = start
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos : pos + 8])
        header = 8
        if size == 1:
            if pos + 16 > end:
                break
            size = struct.unpack(">Q", data[pos + 8 : pos + 16])[0]
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise MediaError("MP4 文件结构损坏（box 长度越界）")
        out.append((kind, pos + header, pos + size))
        pos += size
    return out


def probe_video(path: Path) -> VideoInfo:
    if path.suffix.lower() not in VIDEO_SUFFIXES:
        raise MediaError(f"扩展名 {path.suffix or '(无)'} 不是 MP4/MOV 视频")
    data = path.read_bytes()
    if len(data) < 16 or data[4:8] != b"ftyp":
        raise MediaError("不是 MP4/MOV 视频（文件头没有 ftyp）")
    top = _boxes(data, 0, len(data))
    brand = data[8:12].decode("latin-1").strip()
    moov = next(((s, e) for k, s, e in top if k == b"moov"), None)
    if moov is None:
        raise MediaError("MP4 缺少 moov（文件不完整，可能没有录完或没有 faststart）")
    seconds = -1.0
    has_video = False
    for kind, s, e in _boxes(data, *moov):
        if kind == b"mvhd":
            version = data[s]
            if version == 1:
                timescale, duration = struct.unpack(">IQ", data[s + 20 : s + 32])
            else:
                timescale, duration = struct.unpack(">II", data[s + 12 : s + 20])
            if timescale == 0:
                raise MediaError("MP4 的 timescale 为 0")
            seconds = duration / timescale
        elif kind == b"trak":
            for k2, s2, e2 in _boxes(data, s, e):
                if k2 == b"mdia":
                    for k3, s3, _e3 in _boxes(data, s2, e2):
                        if k3 == b"hdlr" and data[s3 + 8 : s3 + 12] == b"vide":
                            has_video = True
    if seconds < 0:
        raise MediaError("MP4 缺少 mvhd（无法得知时长）")
    if not has_video:
        raise MediaError("MP4 里没有视频轨")
    return VideoInfo(brand, seconds, has_video)
