"""On-air graphics: the overlay server (pages + WebSocket state push) and its helpers."""

from broadcast.overlay.server import OverlayServer, Rendered

__all__ = ["OverlayServer", "Rendered"]
