"""Debian's Chromium, as every part of the project starts it (reports to PDF, page tests, benchmarks).

Never a downloaded browser: Playwright drives ``/usr/bin/chromium`` (or ``$GOUJI_CHROMIUM``). The
flags keep a headless Chromium off the network: without the background-networking ones it keeps
trying hosts this machine cannot reach.
"""

from __future__ import annotations

import os
import shutil

CHROMIUM = os.environ.get("GOUJI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--mute-audio",
]
