"""On-air graphics: the overlay server (pages + WebSocket state push) and its helpers.

``OverlayServer`` and ``Rendered`` are imported on first use: a command that needs only a helper of
this package (``companion``, the guard) does not pay for aiohttp and the server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from broadcast.overlay.server import OverlayServer, Rendered

__all__ = ["OverlayServer", "Rendered"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from broadcast.overlay import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
