"""The project's own files, next to its database: what the producer's workspace copies in and the overlay
server serves.

    data/studio.sqlite                               the project database (journal, season, as-run log)
    data/studio-assets/sponsors/placements.yaml      the producer's placements (a readable YAML file)
    data/studio-assets/sponsors/logos/ · films/      logos and brand films copied in by the producer
    data/studio-assets/photos/                       players' photos, served at /assets/photos/

A project without its own placements file airs the shipped demo set (``sponsor_assets/demo``).
"""

from __future__ import annotations

from pathlib import Path

from broadcast import resources

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
