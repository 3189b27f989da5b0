"""A native graphic as one picture: its drawing ops rendered into a PNG that one OBS image source shows.

Each graphic's ``paint`` describes what it draws as ops (rectangles, words, logos — positions, sizes,
colours, alignment, the box a long text is shrunk into), after the HTML design and the design tokens.
Here they become one transparent picture the size of the graphic's fixed frame, drawn with FreeType
(Pillow) in Noto Sans CJK, the font OBS's own text source would use. OBS then holds one source per
graphic instead of one per word and rectangle: its frames stay cheap under a software renderer, a cut's
source list stays short (OBS's UI rebuilds it on every cut, seconds for hundreds of items), and a
re-sync after a crash reads back a couple of dozen sources, not hundreds.

:class:`Picture` is a value (its :attr:`~Picture.digest` names its content: the ops, the frame, the
logos' files and this renderer's version); :class:`PictureStore` writes each picture once, as
``<graphic>-<digest>.png`` in its folder, atomically (OBS never reads half a file), so the same state
always gives the same file and provisioning can compare file names.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from broadcast.errors import GoujiError
from broadcast.obs.spec import COLOR, IMAGE, TEXT, InputSpec

log = logging.getLogger(__name__)

RENDERER = "raster/1"  # part of every digest: a change of how pictures are drawn gives new files
ALIGN_LEFT_BIT, ALIGN_RIGHT_BIT, ALIGN_TOP_BIT, ALIGN_BOTTOM_BIT = 1, 2, 4, 8
SHADOW_ALPHA = 200
KEEP_FILES = 400  # pictures kept in a store's folder (the newest); older ones are removed

Box = tuple[int, int, int, int]  # x, y, width, height


@dataclass(frozen=True)
class Picture:
    """One graphic's drawing: ``ops`` bottom to top, on the canvas, clipped to ``frame``."""

    graphic: str
    frame: Box
    ops: tuple[InputSpec, ...]

    @functools.cached_property
    def digest(self) -> str:
        h = hashlib.sha256(RENDERER.encode())
        h.update(json.dumps([self.graphic, self.frame], ensure_ascii=False).encode())
        for op in self.ops:
            h.update(
                json.dumps(
                    [op.name, op.kind, op.settings, op.x, op.y, op.align, op.bounds, op.fit],
                    sort_keys=True,
                    ensure_ascii=False,
                    default=str,
                ).encode()
            )
            if op.kind == IMAGE and op.settings.get("file"):
                try:  # a logo replaced under the same name is a new picture
                    st = os.stat(op.settings["file"])
                    h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
                except OSError:
                    h.update(b"missing")
        return h.hexdigest()[:24]

    def op(self, name: str) -> InputSpec:
        """The op called ``name`` (tests and tools read what a picture says)."""
        for o in self.ops:
            if o.name == name:
                return o
        raise KeyError(name)

    def texts(self) -> dict[str, str]:
        return {o.name: str(o.settings.get("text", "")) for o in self.ops if o.kind == TEXT}


# -- fonts -----------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def font_file(face: str, bold: bool) -> tuple[str, int]:
    """The font file and face index fontconfig gives for ``face`` (as OBS's text source finds it)."""
    if shutil.which("fc-match") is None:
        raise GoujiError(
            "obs.font",
            "找不到 fc-match（fontconfig）：apt-get install fontconfig fonts-noto-cjk",
            "fc-match (fontconfig) is missing: apt-get install fontconfig fonts-noto-cjk",
        )
    pattern = f"{face}:bold" if bold else f"{face}:regular"
    out = subprocess.run(
        ["fc-match", "-f", "%{file}\t%{index}", pattern],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    path, _, index = out.partition("\t")
    return path, int(index or 0)


@functools.lru_cache(maxsize=256)
def _font(face: str, bold: bool, size: int) -> ImageFont.FreeTypeFont:
    path, index = font_file(face, bold)
    return ImageFont.truetype(path, max(4, size), index=index)


def _font_of(settings: dict[str, Any], scale: float = 1.0) -> tuple[str, bool, int]:
    """The face, boldness and pixel size a text source's settings (scaled) draw with."""
    f = settings.get("font") or {}
    size = max(4, int(round(int(f.get("size", 32)) * scale)))
    bold = bool(int(f.get("flags", 0)) & 1) or str(f.get("style", "")).lower() == "bold"
    return str(f.get("face") or "Noto Sans CJK SC"), bold, size


@functools.lru_cache(maxsize=32768)
def _line_width(face: str, bold: bool, size: int, line: str) -> int:
    """One line's drawn width in whole pixels. Kept: fitting a text to its box measures the same lines
    at the same sizes again and again (each way to break it, each size tried), and every change of the
    show draws its graphics again with mostly the same texts — FreeType's measuring was most of it."""
    return math.ceil(_font(face, bold, size).getlength(line))


# -- geometry --------------------------------------------------------------------------------------
def anchored(x: float, y: float, w: float, h: float, align: int) -> tuple[float, float]:
    """Top-left of a ``w``×``h`` box whose ``align`` point (OBS's item alignment) sits at x, y."""
    left = x if align & ALIGN_LEFT_BIT else (x - w if align & ALIGN_RIGHT_BIT else x - w / 2)
    top = y if align & ALIGN_TOP_BIT else (y - h if align & ALIGN_BOTTOM_BIT else y - h / 2)
    return left, top


def rgba(abgr: int) -> tuple[int, int, int, int]:
    """OBS's 0xAABBGGRR as (r, g, b, a)."""
    v = int(abgr) & 0xFFFFFFFF
    return v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF


@dataclass(frozen=True)
class _Text:
    lines: tuple[str, ...]
    font: ImageFont.FreeTypeFont
    line_h: int
    width: int
    height: int
    shadow: int


def _measure(settings: dict[str, Any], scale: float = 1.0) -> _Text:
    face, bold, size = _font_of(settings, scale)
    font = _font(face, bold, size)
    ascent, descent = font.getmetrics()
    lines = tuple(str(settings.get("text", "")).split("\n"))
    width = max((_line_width(face, bold, size, line) for line in lines), default=0)
    shadow = max(2, round(size / 14)) if settings.get("drop_shadow") else 0
    return _Text(
        lines, font, ascent + descent, width + shadow, (ascent + descent) * len(lines) + shadow, shadow
    )


def text_extent(
    text: str, size: int, *, face: str, bold: bool = False, shadow: bool = False
) -> tuple[int, int]:
    """The box (width, height) a picture draws ``text`` in at ``size`` px: its lines (split at ``\\n``)
    and its drop shadow included, measured exactly as :func:`render` draws it (the fitting rule,
    :mod:`~broadcast.obs.graphics.fit`, asks this)."""
    font = {
        "face": face,
        "size": int(size),
        "style": "Bold" if bold else "Regular",
        "flags": 1 if bold else 0,
    }
    t = _measure({"text": text, "font": font, "drop_shadow": shadow})
    return t.width, t.height


def _fitted(op: InputSpec) -> _Text:
    """The text at its size, or smaller until it fits its box (never larger), like OBS's max-only bounds."""
    t = _measure(op.settings)
    if not op.fit or not t.width or not t.height:
        return t
    scale = min(1.0, op.fit[0] / t.width, op.fit[1] / t.height)
    while scale < 1.0:
        t = _measure(op.settings, scale)
        if t.width <= op.fit[0] and t.height <= op.fit[1]:
            break
        scale *= 0.97
    return t


def op_box(op: InputSpec) -> Box | None:
    """Where ``op`` draws on the canvas (None: it draws nothing)."""
    if op.kind == COLOR:
        w, h = int(op.settings.get("width", 0)), int(op.settings.get("height", 0))
        if not w or not h or rgba(int(op.settings.get("color", 0)))[3] == 0:
            return None
    elif op.kind == TEXT:
        if not str(op.settings.get("text", "")):
            return None
        t = _fitted(op)
        w, h = t.width, t.height
    elif op.kind == IMAGE:
        if not op.settings.get("file") or not op.bounds:
            return None
        w, h = op.bounds
    else:
        return None
    left, top = anchored(op.x, op.y, w, h, op.align)
    return (int(math.floor(left)), int(math.floor(top)), int(w), int(h))


def union(boxes: Iterable[Box | None]) -> Box | None:
    got = [b for b in boxes if b is not None]
    if not got:
        return None
    x0, y0 = min(b[0] for b in got), min(b[1] for b in got)
    x1, y1 = max(b[0] + b[2] for b in got), max(b[1] + b[3] for b in got)
    return (x0, y0, x1 - x0, y1 - y0)


# -- drawing ---------------------------------------------------------------------------------------
def _paste(canvas: Image.Image, tile: Image.Image, left: int, top: int) -> None:
    """Alpha-composite ``tile`` with its top-left at (left, top) of ``canvas``, clipped to it."""
    cw, ch = canvas.size
    sx, sy = max(0, -left), max(0, -top)
    dx, dy = max(0, left), max(0, top)
    w, h = min(tile.width - sx, cw - dx), min(tile.height - sy, ch - dy)
    if w <= 0 or h <= 0:
        return
    canvas.alpha_composite(tile, dest=(dx, dy), source=(sx, sy, sx + w, sy + h))


def _draw_text(canvas: Image.Image, op: InputSpec, ox: int, oy: int) -> None:
    t = _fitted(op)
    if not t.width:
        return
    w, h = t.width - t.shadow, t.height - t.shadow
    left, top = anchored(op.x, op.y, t.width, t.height, op.align)
    x0, y0 = int(left) - ox, int(top) - oy
    top_c = rgba(int(op.settings.get("color1", 0xFFFFFFFF)))
    bottom_c = rgba(int(op.settings.get("color2", op.settings.get("color1", 0xFFFFFFFF))))

    def lines(d: ImageDraw.ImageDraw, dx: int, dy: int, fill: Any) -> None:
        for k, line in enumerate(t.lines):  # each line aligned in the box as the box is on its point
            lw = t.font.getlength(line)
            lx = (
                0.0 if op.align & ALIGN_LEFT_BIT else (w - lw if op.align & ALIGN_RIGHT_BIT else (w - lw) / 2)
            )
            d.text((dx + lx, dy + k * t.line_h), line, font=t.font, fill=fill, anchor="la")

    draw = ImageDraw.Draw(canvas)
    if t.shadow:
        lines(draw, x0 + t.shadow, y0 + t.shadow, (0, 0, 0, SHADOW_ALPHA))
    if top_c == bottom_c:
        lines(draw, x0, y0, top_c)
        return
    # OBS's text gradient: color1 at the top, color2 at the bottom, through the words' mask
    mask = Image.new("L", (w, h), 0)
    lines(ImageDraw.Draw(mask), 0, 0, 255)
    column = Image.new("RGBA", (1, h))
    for yy in range(h):
        f = yy / max(1, h - 1)
        column.putpixel((0, yy), tuple(round(a + (b - a) * f) for a, b in zip(top_c, bottom_c, strict=True)))
    canvas.paste(column.resize((w, h)), (x0, y0), mask)


@functools.lru_cache(maxsize=64)
def _logo(path: str, mtime_ns: int, box: tuple[int, int]) -> Image.Image | None:
    try:
        with Image.open(path) as im:
            im.load()
            src = im.convert("RGBA")
    except (OSError, ValueError, Image.DecompressionBombError):  # a bomb PNG: an empty box, never a crash
        log.warning("logo %s cannot be read as a picture: left empty", path)
        return None
    scale = min(box[0] / src.width, box[1] / src.height)  # OBS's "scale to inner bounds"
    size = (max(1, round(src.width * scale)), max(1, round(src.height * scale)))
    return src.resize(size, Image.Resampling.LANCZOS)


def _draw_image(canvas: Image.Image, op: InputSpec, ox: int, oy: int) -> None:
    path = str(op.settings.get("file") or "")
    if not path or not op.bounds:
        return
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        return
    img = _logo(path, mtime, (int(op.bounds[0]), int(op.bounds[1])))
    if img is None:
        return
    left, top = anchored(op.x, op.y, op.bounds[0], op.bounds[1], op.align)
    _paste(
        canvas,
        img,
        int(left + (op.bounds[0] - img.width) / 2) - ox,
        int(top + (op.bounds[1] - img.height) / 2) - oy,
    )


def render(picture: Picture) -> Image.Image:
    """The picture as a transparent RGBA image the size of its frame."""
    fx, fy, fw, fh = picture.frame
    canvas = Image.new("RGBA", (fw, fh), (0, 0, 0, 0))
    for op in picture.ops:
        if op.kind == COLOR:
            box = op_box(op)
            if box is not None:
                r, g, b, a = rgba(int(op.settings["color"]))
                where = (box[0] - fx, box[1] - fy, box[0] - fx + box[2], box[1] - fy + box[3])
                if a == 255:
                    canvas.paste((r, g, b, 255), where)
                else:  # blended over what is under it
                    canvas.paste((r, g, b, 255), where, Image.new("L", box[2:], a))
        elif op.kind == TEXT:
            if str(op.settings.get("text", "")):
                _draw_text(canvas, op, fx, fy)
        elif op.kind == IMAGE:
            _draw_image(canvas, op, fx, fy)
    return canvas


class PictureStore:
    """A folder of rendered pictures, one file per content (``<graphic>-<digest>.png``)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._written = 0
        self._used: dict[Path, int] = {}  # file → when last asked for (a count): the newest are kept
        self._uses = 0

    def path(self, picture: Picture) -> Path:
        return self.folder / f"{picture.graphic}-{picture.digest}.png"

    def ensure(self, pictures: Sequence[Picture]) -> list[Path]:
        """Each picture's file, rendered now where it is missing."""
        out = []
        for pic in pictures:
            target = self.path(pic)
            # in use again: noted here, never by touching the file — OBS reloads a shown picture whose
            # file changed time, and its picture of a scene taken meanwhile shows the source empty
            with self._lock:
                self._uses += 1
                self._used[target] = self._uses
            if not target.exists():
                self._write(pic, target)
            out.append(target)
        return out

    def _write(self, pic: Picture, target: Path) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        image = render(pic)
        fd, tmp = tempfile.mkstemp(prefix=f".{pic.graphic}-", suffix=".png", dir=self.folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                image.save(fh, "PNG", compress_level=1)
            os.replace(tmp, target)  # OBS never reads half a picture
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        with self._lock:
            self._written += 1
            prune = self._written % 50 == 0
        if prune:
            self.prune()

    def prune(self, keep: int = KEEP_FILES) -> None:
        """Remove all but the ``keep`` pictures used last (a picture OBS still shows is among them): those
        asked for since this store was opened by when, then the others by their files' times."""
        with self._lock:
            used = dict(self._used)
        try:
            files = sorted(
                self.folder.glob("*.png"), key=lambda p: (used.get(p, 0), p.stat().st_mtime_ns), reverse=True
            )
        except OSError:
            return
        for old in files[keep:]:
            old.unlink(missing_ok=True)
            with self._lock:
                self._used.pop(old, None)


def default_folder() -> Path:
    """Where the bridge keeps its pictures unless the settings say (``pictures_dir``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gouji" / "obs-pictures"
