"""Qt's own translation mechanism: Chinese source strings by default, the English catalog complete for
every string of the code (pyside6-lupdate finds nothing untranslated), switchable at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.console.conftest import new_match

ROOT = Path(__file__).resolve().parents[2]


def test_the_english_catalog_translates_every_string_of_the_code() -> None:
    r = subprocess.run(
        [sys.executable, "scripts/i18n.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_chinese_by_default_and_english_on_demand(window: Any, qtbot: Any) -> None:
    new_match(window, qtbot)
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:4] == ["比赛(&M)", "编辑(&E)", "视图(&V)", "帮助(&H)"]
    assert "上班座位" in window.panel.prompt.text()
    window.set_language("en")
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:4] == ["&Match", "&Edit", "&View", "&Help"]
    assert "first leader's seat" in window.panel.prompt.text()
    assert window.dock("table").windowTitle() == "TABLE"
    assert window.hotkeys.get("edit.undo").action.text() == "Undo the last move (with the reason)"
    assert window.settings.value("language") == "en"
    window.set_language("zh_CN")
    assert window.menuBar().actions()[0].text() == "比赛(&M)" and "上班座位" in window.panel.prompt.text()
