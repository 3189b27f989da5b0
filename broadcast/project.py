"""The project's own files, next to its database: what the producer's workspace copies in and the overlay
server serves, and the copying in of players' photos (checked as pictures first).

    data/studio.sqlite                               the project database (journal, season, as-run log)
    data/studio-assets/sponsors/placements.yaml      the producer's placements (a readable YAML file)
    data/studio-assets/sponsors/logos/ · films/      logos and brand films copied in by the producer
    data/studio-assets/photos/                       players' photos, served at /assets/photos/

A project without its own placements file airs the shipped demo set (``sponsor_assets/demo``).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from broadcast import media, resources
from broadcast.errors import GoujiError

PLACEMENTS_NAME = "placements.yaml"


def assets_dir(db: str | Path) -> Path:
    """The folder beside the database that holds the project's files (``studio-assets/``)."""
    p = Path(db)
    return p.parent / f"{p.stem}-assets"


def sponsors_dir(db: str | Path) -> Path:
    """The producer's placements file, logos and films (served at ``/assets/sponsors/`` when aired)."""
    return assets_dir(db) / "sponsors"


def placements_file(db: str | Path) -> Path:
    return sponsors_dir(db) / PLACEMENTS_NAME


def photos_dir(db: str | Path) -> Path:
    """Players' photos (lower thirds), served at ``/assets/photos/``."""
    return assets_dir(db) / "photos"


def rehearsals_dir(db: str | Path) -> Path:
    """Rehearsal databases (a record opened in the console: ``rehearsals/<record>.sqlite``), beside the
    project's database and never it."""
    return assets_dir(db) / "rehearsals"


def new_rehearsal(db: str | Path, name: str) -> Path:
    """A database file for a new rehearsal named after ``name`` (a record's file name) that no file holds
    yet: ``rehearsals/referee.sqlite``, then ``referee-2.sqlite`` … (an earlier rehearsal is kept)."""
    folder = rehearsals_dir(db)
    folder.mkdir(parents=True, exist_ok=True)
    stem = safe_stem(Path(name).stem)
    n = 1
    while True:
        path = folder / f"{stem}{'' if n == 1 else f'-{n}'}.sqlite"
        if not path.exists():
            return path
        n += 1


def default_placements(db: str | Path) -> Path:
    """The placements a project airs when none is named: its own file if the producer saved one, else
    the shipped demo set."""
    own = placements_file(db)
    return own if own.is_file() else resources.demo_placements()


def asset_roots(db: str | Path | None = None, *, sponsors: str | Path | None = None) -> dict[str, Path]:
    """The overlay server's asset folders: ``/assets/sponsors/`` (``sponsors``: the folder the aired
    placements' paths are served from; the shipped ``sponsor_assets/`` by default), ``/assets/presets/``
    and, for a project database, ``/assets/photos/`` (its photo folder, which may not exist yet)."""
    roots = {
        "sponsors": Path(sponsors) if sponsors is not None else resources.sponsor_assets_dir(),
        "presets": resources.presets_dir(),
    }
    if db is not None:
        roots["photos"] = photos_dir(db)
    return roots


# -- files copied in ------------------------------------------------------------------------------------
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


# -- players' photos ------------------------------------------------------------------------------------
def check_photo(src: Path) -> None:
    """A photo must be a real PNG/JPEG/WebP picture (the same probe as a sponsor's logo)."""
    media.probe_image(Path(src))


def store_photo(db: str | Path, src: Path, *, hint: str = "") -> str:
    """Copy a player's photo into the project's photo folder (checked first); returns its name there,
    which is what the season stores and the lower third shows (``/assets/photos/<name>``)."""
    check_photo(src)
    dest, _copied = copy_in(Path(src), photos_dir(db), hint or Path(src).stem)
    return dest.name


def roster_photos(db: str | Path) -> Callable[[Path, bool], str]:
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
