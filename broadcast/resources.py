"""Where the files the studio ships live, found with ``importlib.resources`` (package data).

The on-air pages (``overlays/``), the sponsor assets with the demo placement set (``sponsor_assets/``),
the rule presets (``engine/presets/``), the state schema and the console's translation catalogs
(``broadcast/schema/``, ``broadcast/i18n/``) are package data: the same code finds them in a source
checkout, an editable install and a wheel installed anywhere, whatever the working directory.

    from broadcast import resources
    resources.overlays_dir()            # …/overlays   (served at /overlay/)
    resources.sponsor_assets_dir()      # …/sponsor_assets   (served at /assets/sponsors/)
    resources.demo_placements()         # …/sponsor_assets/demo/placements.yaml
    resources.presets_dir()             # …/engine/presets   (served at /assets/presets/)
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from broadcast.errors import GoujiError


class ResourceMissing(GoujiError, RuntimeError):
    """A shipped folder is not on disk (a zipped install): one line saying which and what to do."""

    rule = "resources"
    show_rule = False


def package_dir(package: str) -> Path:
    """The folder of an installed package, as a real path (the overlay server serves from it)."""
    root = resources.files(package)
    if not isinstance(root, Path) or not root.is_dir():
        raise ResourceMissing(
            "resources",
            "安装包里的文件不在磁盘上，请用 pip install 正常安装（不要压缩安装）",
            "the package's files are not on disk: install it with pip (not zipped)",
            where=package,
        )
    return root


def overlays_dir() -> Path:
    """The on-air pages (HTML, CSS, JS, demo SVG logos)."""
    return package_dir("overlays")


def sponsor_assets_dir() -> Path:
    """The sponsor assets folder the overlay server serves at ``/assets/sponsors/``."""
    return package_dir("sponsor_assets")


def demo_placements() -> Path:
    """The demo placement set (every slot used; logos and films beside it)."""
    return sponsor_assets_dir() / "demo" / "placements.yaml"


def presets_dir() -> Path:
    """The rule presets the engine ships (``tv_match.yaml``, ``dagang.yaml``)."""
    return package_dir("engine") / "presets"


def i18n_dir() -> Path:
    """The console's Qt translation catalogs (``*.qm``; may be empty before any is compiled)."""
    return package_dir("broadcast") / "i18n"
