"""The words of an OBS layout: source kinds, item alignments, and what an input, an item and a whole
layout are. Plain data, shared by the scene layout (``layout.py``), the native graphics
(``graphics/``), provisioning and the state → OBS comparison."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TEXT = "text_ft2_source_v2"
IMAGE = "image_source"
COLOR = "color_source_v3"
MEDIA = "ffmpeg_source"
BROWSER = "browser_source"

# OBS item alignment: the point of the source that sits at the item's position
ALIGN_CENTER = 0
ALIGN_LEFT = 1  # left edge, vertically centred
ALIGN_RIGHT = 2  # right edge, vertically centred
ALIGN_TOP = 4  # top edge, horizontally centred
ALIGN_TOP_LEFT = 5
ALIGN_TOP_RIGHT = 6


@dataclass(frozen=True)
class InputSpec:
    name: str
    kind: str
    settings: dict[str, Any]
    scene: str  # the scene it is created in
    x: float = 0.0
    y: float = 0.0
    align: int = ALIGN_TOP_LEFT
    bounds: tuple[int, int] | None = None  # scale-to-fit box (images, films)
    fit: tuple[int, int] | None = None  # texts: shrink (never grow) to stay inside this box
    graphic: str = ""  # the native graphic it belongs to ("" = backgrounds, films, pages)


@dataclass(frozen=True)
class ItemSpec:
    source: str  # input name
    graphic: str = ""  # the graphic it shows ("" = always shown)
    film: str = ""  # film id (break scene items)
    bounds: tuple[int, int] | None = None


@dataclass
class Layout:
    browser: bool
    scenes: dict[str, list[ItemSpec]] = field(default_factory=dict)  # scene -> items bottom→top
    inputs: dict[str, InputSpec] = field(default_factory=dict)
    films: dict[str, Path] = field(default_factory=dict)
    graphics: dict[str, list[ItemSpec]] = field(default_factory=dict)  # graphic -> its items bottom→top
    pictures: dict[str, Any] = field(default_factory=dict)  # native: graphic -> its raster.Picture

    def scene_order(self) -> list[str]:
        return sorted(self.scenes)
