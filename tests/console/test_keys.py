"""The one key table (broadcast/console/keys.py): every operation bound by id from it, rebindable by the
operator (kept in the settings, clashes refused with a message, the keys dialog usable with the keyboard
alone), and docs/console.md's key tables held to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from broadcast.console import keys
from tests.console.conftest import NAMES, TEAMS, show_active

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "console.md"


def _console(tmp_path: Path, qtbot: Any, ini: Path) -> Any:
    """The whole console (every dock but the monitors) over a store with the demo placements."""
    from broadcast.console.app import build
    from broadcast.sponsors.placements import load_placements, to_state
    from broadcast.studio import open_store

    store = open_store(tmp_path / f"studio-{ini.stem}.sqlite")
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    w = build(
        store, QSettings(str(ini), QSettings.Format.IniFormat), lang="zh_CN", placements=p, monitors=False
    )
    w._test_store = store
    qtbot.addWidget(w)
    w.resize(1600, 900)
    show_active(qtbot, w)
    qtbot.waitUntil(lambda: w.onair.cues.next_view() is not None, timeout=10000)  # the rundown is loaded
    return w


def _close(w: Any) -> None:
    w.console.bridge.close()
    w._test_store.close()


@pytest.fixture
def console(tmp_path: Path, qtbot: Any) -> Iterator[Any]:
    w = _console(tmp_path, qtbot, tmp_path / "console.ini")
    yield w
    _close(w)


def test_every_operation_of_the_window_comes_from_the_table_and_no_two_share_a_key(console: Any) -> None:
    bound = {h.id for h in console.hotkeys.all()}
    assert bound == set(keys.BY_ID)  # every row of the table is bound, and nothing else
    assert len(keys.BY_ID) == len(keys.ACTIONS)  # ids are unique
    seen: dict[str, str] = {}
    for a in keys.ACTIONS:
        for k in a.keys:
            assert QKeySequence(k).count() == 1, (a.id, k)
            assert k not in seen, f"{k}: {a.id} and {seen[k]}"
            seen[k] = a.id
        assert console.hotkeys.clash(a.id, a.keys) == "", a.id  # every default passes the rules
    for h in console.hotkeys.all():
        assert [s.toString() for s in h.action.shortcuts()] == ([] if h.entry_empty else list(h.keys))


def test_a_rebound_key_reaches_the_action_the_button_the_help_sheet_and_the_next_start(
    tmp_path: Path, qtbot: Any
) -> None:
    ini = tmp_path / "console.ini"
    w = _console(tmp_path, qtbot, ini)
    try:
        assert w.hotkeys.rebind("graphics.take", ("F10",)) == ""
        take = w.hotkeys.get("graphics.take")
        assert [s.toString() for s in take.action.shortcuts()] == ["F10"]
        assert w.onair.graphics.take_button.text().endswith("F10")
        assert any(r[0] == "F10" and "TAKE" in r[1] for r in w.show_help().rows())
        # the entry line now gives F10 up to the window (and keeps F12, which is nobody's now)
        assert w.hotkeys.rebind("cues.go", ("Ctrl+G",)) == ""
        assert "Ctrl+G" in w.onair.cues.go_button.text()
    finally:
        _close(w)
    assert QSettings(str(ini), QSettings.Format.IniFormat).value("keys/graphics.take") == "F10"
    again = _console(tmp_path, qtbot, ini)
    try:
        assert again.hotkeys.keys("graphics.take") == ("F10",)
        assert again.hotkeys.keys("cues.go") == ("Ctrl+G",)
        assert again.onair.graphics.take_button.text().endswith("F10")
        assert again.hotkeys.reset("graphics.take") == ""  # back to the default: the setting goes
        assert again.settings.value("keys/graphics.take") is None
        assert again.hotkeys.keys("graphics.take") == ("F12",)
    finally:
        _close(again)


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("Ctrl+Z", "撤销上一步"),  # another operation's key: refused, naming it
        ("A", "会打进输入行"),  # a plain letter would be typed into the entry line
        ("Shift+Q", "会打进输入行"),
        ("Return", "留给输入行"),  # the entry's own keys
        ("Tab", "留给输入行"),
        ("Up", "留给输入行"),
    ],
)
def test_a_key_that_clashes_is_refused_with_the_reason_and_nothing_changes(
    console: Any, key: str, why: str
) -> None:
    before = console.hotkeys.keys("graphics.take")
    message = console.hotkeys.rebind("graphics.take", (key,))
    assert why in message, message
    assert console.hotkeys.keys("graphics.take") == before
    assert console.settings.value("keys/graphics.take") is None


def test_the_entry_line_follows_a_rebinding(console: Any, qtbot: Any) -> None:
    from PySide6.QtGui import QKeyEvent

    def event(key: Qt.Key, mods: Qt.KeyboardModifier) -> QKeyEvent:
        return QKeyEvent(QKeyEvent.Type.KeyPress, key, mods)

    ctrl = Qt.KeyboardModifier.ControlModifier
    assert console.hotkeys.owns(event(Qt.Key.Key_Z, ctrl))
    assert console.hotkeys.rebind("edit.undo", ("Ctrl+U",)) == ""
    assert not console.hotkeys.owns(event(Qt.Key.Key_Z, ctrl))
    assert console.hotkeys.owns(event(Qt.Key.Key_U, ctrl))
    assert console.hotkeys.rebind("cues.go_space", ("F10",)) == ""  # the GO while the entry is empty
    assert console.hotkeys.entry_empty_key(event(Qt.Key.Key_F10, Qt.KeyboardModifier.NoModifier)) is not None
    assert console.hotkeys.entry_empty_key(event(Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier)) is None


def test_the_keys_dialog_works_with_the_keyboard_alone(console: Any, qtbot: Any) -> None:
    console.hotkeys.get("view.keys").action.trigger()
    d = console.dialog
    assert d.objectName() == "keysDialog"
    qtbot.waitUntil(d.isVisible)
    row = d.ids.index("graphics.cut")
    d.table.setFocus()
    d.table.setCurrentCell(row, 1)
    QTest.keyClick(d.table, Qt.Key.Key_Return)  # Enter on a row waits for the new key
    assert d.capture_box.isEnabled() and d.focusWidget() is d.capture_box
    QTest.keyClick(d.capture_box, Qt.Key.Key_F12)  # TAKE's: refused, naming TAKE
    qtbot.waitUntil(lambda: "TAKE" in d.message.text())
    assert console.hotkeys.keys("graphics.cut") == ("F11",)
    assert d.focusWidget() is d.table
    QTest.keyClick(d.table, Qt.Key.Key_Return)
    QTest.keyClick(d.capture_box, Qt.Key.Key_Escape)  # Esc cancels, nothing changes
    assert not d.capture_box.isEnabled() and console.hotkeys.keys("graphics.cut") == ("F11",)
    QTest.keyClick(d.table, Qt.Key.Key_Return)
    QTest.keyClick(d.capture_box, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: console.hotkeys.keys("graphics.cut") == ("Ctrl+K",))
    assert d.table.item(row, 2).text() == QKeySequence("Ctrl+K").toString(
        QKeySequence.SequenceFormat.NativeText
    )
    QTest.keyClick(d, Qt.Key.Key_Escape)  # Esc closes the dialog when it is not waiting for a key
    qtbot.waitUntil(lambda: not d.isVisible())


def _doc_block(lang: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- keys {lang} -->\n(.*?)<!-- /keys -->", text, re.S)
    assert m, f"docs/console.md: no <!-- keys {lang} --> … <!-- /keys --> block"
    return m.group(1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_docs_console_md_lists_every_key_of_the_table(lang: str, qapp: Any) -> None:
    from broadcast.qt import i18n

    i18n.install("zh_CN" if lang == "zh" else "en")
    try:
        want = keys.markdown("zh_CN" if lang == "zh" else "en")
    finally:
        i18n.install("zh_CN")
    assert _doc_block(lang) == want, (
        f"docs/console.md's {lang} key table differs from broadcast/console/keys.py; print it with "
        f"`python -m broadcast.console.keys --markdown {lang}`"
    )


def test_every_key_docs_console_md_names_elsewhere_is_a_key_of_the_table() -> None:
    """The sections that explain keys (graphics, cue list, sponsor events) name only the table's keys."""
    text = DOC.read_text(encoding="utf-8")
    defaults = {k for a in keys.ACTIONS for k in a.keys}
    named = set(re.findall(r"\b((?:Ctrl\+|Alt\+|Shift\+)+(?:F\d+|Esc|\d|[A-Z]\b|Up|Down))", text))
    named |= set(re.findall(r"(?<![+\w])(F(?:[1-9]|1[0-2]))\b", text))
    unknown = sorted(k for k in named if k not in defaults)
    assert not unknown, f"docs/console.md names keys the table does not have: {unknown}"
