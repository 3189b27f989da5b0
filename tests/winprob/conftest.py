"""The on-air pages' Chromium page fixture (a 1920×1080 context of the session's browser), shared."""

from tests.overlay.conftest import page as page

__all__ = ["page"]
