"""The on-air pages' Chromium page fixture (``page``, a 1920×1080 page of the session's browser) is
tests/conftest.py's."""
