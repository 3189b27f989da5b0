"""比赛 ▸ 打开牌谱… (Ctrl+O): a GJN record opens onto the table through the store; a bad one is one line
naming file:line and the clause and changes nothing; Esc changes nothing (docs/console.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QLineEdit, QMessageBox

from engine import gjn
from tests.console.conftest import new_match, selfplay, settle, type_line
from tests.console.process import SHOTS

CTRL = Qt.KeyboardModifier.ControlModifier


def _journal(window: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, e.payload) for e in window.console.bridge.store.journal.entries()]


def _record_file(tmp_path: Path, moves: int) -> tuple[Path, list[str]]:
    """The first ``moves`` decisions of a seeded game, hands known, as the referee's GJN file."""
    g = selfplay(11)
    rec = gjn.from_game(g, [("Event", "彩排")])
    rec.moves = rec.moves[:moves]
    path = tmp_path / "referee.gjn"
    path.write_text(gjn.write(rec), encoding="utf-8")
    return path, [str(m.action) for m in rec.moves]


def _open_by_keys(qtbot: Any, window: Any, path: Path | None) -> QFileDialog:
    """Ctrl+O from the entry line, then the file's path typed into the dialog and Enter (Esc if None)."""
    window.dialog = None
    QTest.keyClick(window.panel.entry, Qt.Key.Key_O, CTRL)
    qtbot.waitUntil(lambda: isinstance(window.dialog, QFileDialog) and window.dialog.isVisible())
    d: QFileDialog = window.dialog
    if path is None:
        QTest.keyClick(d, Qt.Key.Key_Escape)
    else:
        name = d.findChild(QLineEdit, "fileNameEdit")
        assert d.focusWidget() is name  # the file name takes the keys as soon as the dialog opens
        name.setText(str(path))  # (typed key by key, the dialog's path completion moves into each folder)
        QTest.keyClick(name, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    return d


def _question(qtbot: Any, window: Any) -> QMessageBox:
    qtbot.waitUntil(lambda: isinstance(window.dialog, QMessageBox) and window.dialog.isVisible())
    box: QMessageBox = window.dialog
    return box


def test_a_record_opens_over_unsaved_work_only_when_the_operator_says_so(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    path, lines = _record_file(tmp_path, 40)
    _open_by_keys(qtbot, window, path)
    box = _question(qtbot, window)
    assert "1" in box.text() and "referee.gjn" in box.text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    box.grab().save(str(SHOTS / "open-record-question.png"))
    yes = box.button(QMessageBox.StandardButton.Yes)
    yes.setFocus()
    QTest.keyClick(yes, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window.console.state["game"]["record"] == lines, timeout=10000)
    settle(qtbot, window)
    # the record view shows the record's moves, in order
    model = window.panel.record_model
    assert model.rowCount() == 40
    col = model.COLUMNS.index("move")
    shown = [model.index(r, col).data() for r in range(model.rowCount())]
    assert [s.split()[-1] for s in lines] == [str(x).split()[-1] for x in shown]
    # journaled as actions through the store: game.new with the dealt hands, then each move in order
    j = _journal(window)
    news = [i for i, (t, _p) in enumerate(j) if t == "game.new"]
    assert j[news[-1]][1]["leader"] == selfplay(11).leader
    assert len(j[news[-1]][1]["hands"]) == 6 and all(j[news[-1]][1]["hands"])
    assert [p["line"] for _t, p in j[news[-1] + 1 :]] == lines
    # play continues from the record's last move: the engine's seat to act is the entry's prompt
    g = gjn.replay(gjn.parse(path.read_text(encoding="utf-8")))
    assert window.console.mode().name == "play"
    assert window.console.state["table"]["game_no"] == 1  # it replaced game 1 (unfinished), not a game 2
    assert window.console.game.pending_seat == g.pending_seat
    assert "referee.gjn" in window.statusBar().currentMessage()
    window.grab().save(str(SHOTS / "open-record-opened.png"))


@pytest.mark.parametrize("damage", ["illegal", "too_big", "hands_and_counts"])
def test_a_damaged_record_is_one_line_with_file_line_and_clause_and_changes_nothing(
    window: Any, qtbot: Any, tmp_path: Path, damage: str
) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    path = tmp_path / "bad.gjn"
    if damage == "illegal":
        # move 2 (line 4): three cards on five (G4.1)
        path.write_text('[Rules "tv_match"]\n[Leader "3"]\n3 TTTTT\n6 JJJ\n', encoding="utf-8")
        want = f"{path}:4: [G4.1]"
    elif damage == "too_big":  # over the engine's size limit: refused from its size, unread
        path.write_bytes(b"[" * (gjn.MAX_BYTES + 1))
        want = f"{path}:0: [GJN]"
    else:  # legal for the engine, but game.new takes dealt hands or counts: refused before anything is sent
        text = gjn.write(gjn.from_game(selfplay(11))).splitlines()
        text = [t for t in text if not t.startswith("[Hand6")]
        text.insert(6, '[Count6 "30"]')  # after [Hand5], before [Leader]
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        want = f"{path}:7: [G2.1]"
    before = (_journal(window), window.console.state["game"]["record"])
    _open_by_keys(qtbot, window, path)
    settle(qtbot, window)
    msg = window.statusBar().currentMessage()
    assert msg.startswith(want), msg
    assert "\n" not in msg and "Traceback" not in msg
    assert (_journal(window), window.console.state["game"]["record"]) == before
    assert not isinstance(window.dialog, QMessageBox) or not window.dialog.isVisible()


def test_escape_in_the_file_dialog_or_the_question_changes_nothing(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    path, _lines = _record_file(tmp_path, 10)
    before = (_journal(window), window.console.state["game"]["record"])
    _open_by_keys(qtbot, window, None)
    settle(qtbot, window)
    assert (_journal(window), window.console.state["game"]["record"]) == before
    _open_by_keys(qtbot, window, path)
    box = _question(qtbot, window)
    QTest.keyClick(box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    settle(qtbot, window)
    assert (_journal(window), window.console.state["game"]["record"]) == before
    assert window.panel.entry.hasFocus()


def test_the_bad_record_line_is_in_the_ui_language(window: Any, qtbot: Any, tmp_path: Path) -> None:
    new_match(window, qtbot)
    type_line(qtbot, window, "3")
    path = tmp_path / "bad.gjn"
    path.write_text('[Rules "tv_match"]\n[Leader "3"]\n3 TTTTT\n6 JJJ\n', encoding="utf-8")
    window.set_language("en")
    try:
        _open_by_keys(qtbot, window, path)
        msg = window.statusBar().currentMessage()
        assert (
            msg
            == f"{path}:4: [G4.1] move 2 (seat 6): JJJ has 3 cards but TTTTT has 5 cards: sizes must match"
        )
    finally:
        window.set_language("zh_CN")
