"""Sponsor logos and films, and the demo placement set, shipped as package data.

Nothing here is imported for its code: the folder is a package only so that ``importlib.resources``
finds it in a source checkout and in an installed wheel alike (``broadcast.resources``); the overlay
server serves it at ``/assets/sponsors/``. See README.md in this folder.
"""
