"""Where a window would open: the one answer every command asks (no Qt imported: ``run --headless``
must not load it).

A window opens on an X or Wayland display (a screen someone looks at), or — for tests and automation —
on a Qt platform that needs no display at all (``QT_QPA_PLATFORM=offscreen``, ``minimal``, ``vnc``).
"""

from __future__ import annotations

import os

OFFSCREEN = "offscreen"
_NO_SCREEN_PLATFORMS = ("offscreen", "minimal", "vnc")


def display() -> str | None:
    """The display a Qt window would open on: :data:`OFFSCREEN` when ``QT_QPA_PLATFORM`` names a
    platform without a screen (Qt obeys it even where ``DISPLAY`` is set), else the Wayland or X
    display's name; None when there is neither."""
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(_NO_SCREEN_PLATFORMS):
        return OFFSCREEN
    return os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY") or None


def has_display() -> bool:
    """A window can be opened here (on a screen, or offscreen for tests and automation)."""
    return display() is not None
