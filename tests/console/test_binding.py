"""The Qt binding itself must not leak references to None: PySide6 6.12.0 dropped one on every call of a
method returning nothing (setText, polish …), so a console running through a recording day died with
"Fatal Python error: deallocating None" after a few thousand keystrokes. pyproject.toml excludes it."""

from __future__ import annotations

import sys
from typing import Any


def test_void_calls_keep_none_alive(qtbot: Any) -> None:
    from PySide6.QtWidgets import QLineEdit

    w = QLineEdit()
    qtbot.addWidget(w)
    style = w.style()
    before = sys.getrefcount(None)
    for i in range(2000):
        w.setText(str(i))
        style.unpolish(w)
        style.polish(w)
    assert sys.getrefcount(None) >= before - 50  # a leak would be 6000
