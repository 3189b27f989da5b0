"""Files the producer brings into the project: logos and brand films (into the placements' folder, then
checked by the placements checker at the field they fill; players' photos: ``broadcast.project``).

    picked = place_logo(draft, ("sponsors", "xiaodangjia", "logo"), Path("~/桌面/xdj.png"))
    picked = place_film(draft, ("title", "film"), Path("冠名15秒.mp4"), seconds=15, film_id="xdj_15s")

A file is copied first (the checker reads files inside the served folder only), then the draft is
checked; an error at the field it fills (not a PNG/JPEG/WebP, not an MP4 with video, a film of the wrong
length for its slot …) refuses it: the field gets its old value back, the copy is removed and
:class:`AssetRefused` carries the checker's own messages. The same file picked twice is copied once.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast import media
from broadcast.errors import GoujiError
from broadcast.producer.draft import Check, Path_, PlacementsDraft
from broadcast.project import copy_in
from broadcast.sponsors.placements import Issue

LOGOS = "logos"
FILMS = "films"
THUMBS = ".thumbs"  # film poster frames (hidden: the overlay server never serves them)


class AssetRefused(GoujiError):
    """A picked file would not air; ``issues`` are the checker's lines about the field (``str()`` lists
    them, one a line)."""

    rule = "asset"
    show_rule = False

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        zh = "\n".join(i.text() for i in issues) or "文件无法播出"
        en = "\n".join(i.text("en") for i in issues) or zh
        super().__init__("asset", zh, f"the file would not air:\n{en}")

    def text(self) -> str:
        return self.zh


@dataclass(frozen=True)
class Picked:
    rel: str  # as written in the placements (relative to its folder)
    path: Path
    check: Check


def refusals(check: Check, fields: list[Path_]) -> list[Issue]:
    """The checker's errors about the fields a picked file fills (other problems do not refuse it)."""
    return [i for p in fields for i in check.at(p) if i.level == "error"]


@dataclass(frozen=True)
class Staged:
    """A file copied into the project, and what to write at the field for it (not written yet)."""

    dest: Path
    copied: bool
    field: Path_
    value: Any
    checked: tuple[Path_, ...]  # the fields whose issues refuse it

    def undo(self) -> None:
        if self.copied:
            self.dest.unlink(missing_ok=True)


def stage_logo(draft: PlacementsDraft, field: Path_, src: Path, *, stem: str = "") -> Staged:
    """Copy a logo into ``logos/`` beside the placements (the worker's part of picking it)."""
    dest, copied = copy_in(src, draft.path.parent / LOGOS, stem or Path(src).stem)
    return Staged(dest, copied, field, f"{LOGOS}/{dest.name}", (field,))


def stage_film(
    draft: PlacementsDraft, field: Path_, src: Path, *, seconds: int, film_id: str, stem: str = ""
) -> Staged:
    """Copy a brand film into ``films/``; the field gets ``{id, file, seconds}`` (``seconds``: what the
    slot sells, which the checker compares with the film's real length)."""
    dest, copied = copy_in(src, draft.path.parent / FILMS, stem or film_id)
    value = {"id": film_id, "file": f"{FILMS}/{dest.name}", "seconds": seconds}
    return Staged(dest, copied, field, value, ((*field, "file"), (*field, "seconds")))


def keep(draft: PlacementsDraft, staged: Staged) -> Check:
    """Write the staged file at its field and check; refused (:class:`AssetRefused`, field and copy as
    before) when the checker finds fault with that field."""
    old = draft.get(staged.field)
    draft.set(staged.field, staged.value)
    check = draft.check()
    bad = refusals(check, list(staged.checked))
    if bad:
        draft.set(staged.field, old)
        staged.undo()
        raise AssetRefused(bad)
    return check


def place_logo(draft: PlacementsDraft, field: Path_, src: Path, *, stem: str = "") -> Picked:
    """Copy a logo in and write it at ``field`` if the checker accepts it there (one thread)."""
    staged = stage_logo(draft, field, src, stem=stem)
    check = keep(draft, staged)
    return Picked(str(staged.value), staged.dest, check)


def place_film(
    draft: PlacementsDraft, field: Path_, src: Path, *, seconds: int, film_id: str, stem: str = ""
) -> Picked:
    """Copy a film in and write it at ``field`` if the checker accepts it (one thread)."""
    staged = stage_film(draft, field, src, seconds=seconds, film_id=film_id, stem=stem)
    check = keep(draft, staged)
    return Picked(str(staged.value["file"]), staged.dest, check)


def film_seconds(path: Path) -> float:
    """The film's real length as ffprobe reads it (the checker's probe, cached per file)."""
    return media.probe_video(path).seconds


def poster(film: Path, width: int = 320) -> Path:
    """A frame of the film (at one second, or its first) as a PNG beside it in ``.thumbs/`` (made once
    per film version); FFmpeg does the decoding."""
    st = film.stat()
    out = film.parent.parent / THUMBS / f"{film.stem}-{st.st_size}-{int(st.st_mtime)}.png"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part.png")
    for at in ("1", "0"):
        done = subprocess.run(
            [
                media.ffprobe_command().replace("ffprobe", "ffmpeg"),
                "-v",
                "error",
                "-y",
                "-ss",
                at,
                "-i",
                str(film),
                "-frames:v",
                "1",
                "-vf",
                f"scale={width}:-2",
                str(tmp),
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
        if done.returncode == 0 and tmp.is_file() and tmp.stat().st_size:
            tmp.replace(out)
            return out
    tmp.unlink(missing_ok=True)
    raise media.MediaError("无法取出画面（ffmpeg）/ no frame could be read")
