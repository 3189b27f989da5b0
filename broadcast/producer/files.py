"""Files the producer brings into the project: logos and brand films (into the placements' folder, then
checked by the placements checker at the field they fill) and players' photos (into the photo folder).

    picked = place_logo(draft, ("sponsors", "xiaodangjia", "logo"), Path("~/桌面/xdj.png"))
    picked = place_film(draft, ("title", "film"), Path("冠名15秒.mp4"), seconds=15, film_id="xdj_15s")
    name = store_photo(db, Path("张三.jpg"), hint="0001")      # → "0001.jpg", served at /assets/photos/

A file is copied first (the checker reads files inside the served folder only), then the draft is
checked; an error at the field it fills (not a PNG/JPEG/WebP, not an MP4 with video, a film of the wrong
length for its slot …) refuses it: the field gets its old value back, the copy is removed and
:class:`AssetRefused` carries the checker's own messages. The same file picked twice is copied once.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast import project
from broadcast.errors import GoujiError
from broadcast.producer.draft import Check, Path_, PlacementsDraft
from broadcast.sponsors import media
from broadcast.sponsors.placements import Issue

LOGOS = "logos"
FILMS = "films"
THUMBS = ".thumbs"  # film poster frames (hidden: the overlay server never serves them)


class AssetMissing(GoujiError, FileNotFoundError):
    """The picked file is not there (moved, or a folder): ``AssetMissing(where=path)``."""

    rule = "asset"
    zh = "文件不存在"
    en = "no such file"
    show_rule = False


class PhotoRefused(GoujiError, ValueError):
    """A roster row's photo is not a picture the lower thirds can show (the importer's photo hook
    refuses with a ValueError, so this is one)."""

    rule = "photo"
    show_rule = False

    def __init__(self, zh: str, en: str) -> None:
        super().__init__("photo", zh, en)


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


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def safe_stem(text: str) -> str:
    """A file name part from a sponsor id, a player's name or a file's own name."""
    stem = re.sub(r"[^\w\-]+", "_", text, flags=re.UNICODE).strip("._") or "file"
    return stem[:60]


def copy_in(src: Path, folder: Path, stem: str) -> tuple[Path, bool]:
    """Copy ``src`` into ``folder`` as ``stem`` + its suffix (``-2``, ``-3`` … when taken by another
    file); the same content already there is reused. Returns (path, copied now)."""
    src = Path(src).expanduser()
    if not src.is_file():
        raise AssetMissing(where=src)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = src.suffix.lower()
    want = _digest(src)
    n = 1
    while True:
        name = f"{safe_stem(stem)}{'' if n == 1 else f'-{n}'}{suffix}"
        dest = folder / name
        if not dest.exists():
            tmp = dest.with_name(dest.name + ".part")
            shutil.copyfile(src, tmp)
            tmp.replace(dest)
            return dest, True
        if dest.is_file() and _digest(dest) == want:
            return dest, False
        n += 1


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


# -- players' photos ------------------------------------------------------------------------------------
def check_photo(src: Path) -> None:
    """A photo must be a real PNG/JPEG/WebP picture (the same probe as a sponsor's logo)."""
    media.probe_image(Path(src))


def store_photo(db: str | Path, src: Path, *, hint: str = "") -> str:
    """Copy a player's photo into the project's photo folder (checked first); returns its name there,
    which is what the season stores and the lower third shows (``/assets/photos/<name>``)."""
    check_photo(src)
    dest, _copied = copy_in(Path(src), project.photos_dir(db), hint or Path(src).stem)
    return dest.name


def roster_photos(db: str | Path) -> Any:
    """The importer's photo hook for a project: check every photo, copy it in unless it is a dry run."""

    def photo(src: Path, dry_run: bool) -> str:
        try:
            check_photo(src)
        except media.MediaError as exc:
            raise PhotoRefused(
                f"照片 {src.name} 不能用：{exc.zh}", f"the photo {src.name} is not a usable picture: {exc.en}"
            ) from None
        if dry_run:
            return src.name
        return store_photo(db, src)

    return photo
