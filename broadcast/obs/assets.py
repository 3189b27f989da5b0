"""Logos, photos and films named in the show state, as files OBS can open.

The state holds what the pages load: web paths of the overlay server (``/assets/sponsors/demo/logos/
x.png``, ``/overlay/assets/demo/xdj.svg``), sometimes the server's full URL, or a path relative to the
settings file. OBS's ``image_source`` takes a file only, so :class:`AssetResolver` maps each web path
back to the file the server serves for it (the same roots, the same refusal of ``..`` and of anything
outside a root). A reference it cannot resolve gives "" and a warning naming it (once), so the operator
learns that a logo is missing instead of airing an empty box silently.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

log = logging.getLogger(__name__)


def default_roots() -> dict[str, Path]:
    """The overlay server's default roots (the shipped folders): web path prefix → served folder."""
    from broadcast import resources

    return {"/assets/sponsors/": resources.sponsor_assets_dir(), "/overlay/": resources.overlays_dir()}


def server_roots(server: Any) -> dict[str, Path]:
    """The roots of a running :class:`~broadcast.overlay.server.OverlayServer`."""
    roots = {f"/assets/{k}/": Path(v) for k, v in getattr(server, "asset_roots", {}).items()}
    roots["/overlay/"] = Path(server.overlay_root)
    return roots


class AssetResolver:
    def __init__(self, roots: Mapping[str, Path] | None = None, base: str | Path = ".") -> None:
        self.roots = {p: Path(r).resolve() for p, r in (default_roots() if roots is None else roots).items()}
        self.base = Path(base)
        self._warned: set[str] = set()

    def __call__(self, ref: str) -> str:
        """The file for ``ref`` ("" when there is none)."""
        if not ref:
            return ""
        parts = urlsplit(ref)
        path = unquote(parts.path) if parts.scheme in ("http", "https") else ref
        for prefix, root in sorted(self.roots.items(), key=lambda kv: -len(kv[0])):
            if path.startswith(prefix):
                found = self._inside(root, path[len(prefix) :])
                if found:
                    return found
        if not parts.scheme and not ref.startswith("/"):
            p = (self.base / ref).resolve()
            if p.is_file():
                return str(p)
        elif not parts.scheme and Path(ref).is_file():
            return str(Path(ref).resolve())
        if ref not in self._warned:
            self._warned.add(ref)
            log.warning("asset %r: no such file for OBS (logo or picture left empty)", ref)
        return ""

    @staticmethod
    def _inside(root: Path, tail: str) -> str:
        pieces = [p for p in tail.split("/") if p not in ("", ".")]
        if not pieces or any(p == ".." or p.startswith(".") or "\\" in p or "\x00" in p for p in pieces):
            return ""
        target = root.joinpath(*pieces).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            return ""
        return str(target)
