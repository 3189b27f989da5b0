"""Undo, redo and corrections from the keyboard: each asks the operator's reason and is journaled."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.console.conftest import new_match, settle, type_line


def _journal(window: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, e.payload) for e in window.console.bridge.store.journal.entries()]


def _dialog(qtbot: Any, window: Any, cls: str) -> Any:
    qtbot.waitUntil(
        lambda: (
            window.dialog is not None and type(window.dialog).__name__ == cls and window.dialog.isVisible()
        )
    )
    return window.dialog


def test_undo_and_redo_from_the_keys_ask_the_reason_and_journal_it(window: Any, qtbot: Any) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT", "JJJJJ"):
        type_line(qtbot, window, text)
    entry = window.panel.entry
    QTest.keyClick(entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # works with the entry focused
    d = _dialog(qtbot, window, "ReasonDialog")
    assert d.value() == "录入错误"
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    settle(qtbot, window)
    assert window.console.state["game"]["record"] == ["3 TTTTT"]
    assert _journal(window)[-1] == ("game.undo", {"reason": "录入错误"})
    assert window.panel.record_model.rowCount() == 1
    window.dialog = None
    QTest.keyClick(
        entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    d = _dialog(qtbot, window, "ReasonDialog")
    d.reason.setCurrentText("撤销错了，裁判确认")
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    settle(qtbot, window)
    assert window.console.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ"]
    assert _journal(window)[-1] == ("game.redo", {"reason": "撤销错了，裁判确认"})
    assert entry.hasFocus() or window.panel.entry.text() == ""


def test_a_correction_from_the_record_shows_the_first_decision_that_no_longer_stands(
    window: Any, qtbot: Any
) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT", "JJJJJ", "QQQQQ", "p"):
        type_line(qtbot, window, text)
    assert window.console.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ", "3 QQQQQ", "6 pass"]
    entry = window.panel.entry
    for _ in range(4):  # Alt+Up from the entry line walks up the record to the first decision
        QTest.keyClick(entry, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert window.selected_move() == 1
    QTest.keyClick(entry, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "CorrectionDialog")
    assert d.line.text() == "3 TTTTT"
    d.line.setText("")
    QTest.keyClicks(d.line, "3 TTTT")
    assert d.error.text() == ""  # four 10s are a legal lead
    QTest.keyClick(d.line, Qt.Key.Key_Return)
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["record"] == ["3 TTTT"]
    assert [x["line"] for x in g["dropped"]] == ["6 JJJJJ", "3 QQQQQ", "6 pass"]
    assert _journal(window)[-1] == ("game.correct", {"move": 1, "line": "3 TTTT", "reason": "录入错误"})
    banner = window.panel.banner
    assert banner.isVisible() and "6 JJJJJ" in banner.text() and g["dropped"][0]["rule"] in banner.text()
    assert window.panel.record_model.rowCount() == 1


def test_a_correction_the_engine_refuses_changes_nothing(window: Any, qtbot: Any) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT", "JJJJJ"):
        type_line(qtbot, window, text)
    n = len(_journal(window))
    QTest.keyClick(window.panel.entry, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)  # the last decision
    d = _dialog(qtbot, window, "CorrectionDialog")
    d.line.setText("6 JJJJ")
    assert "G4.1" in d.error.text()
    QTest.keyClick(d.line, Qt.Key.Key_Return)
    assert d.isVisible() and "G4.1" in d.error.text()  # not accepted: the clause stays in the dialog
    d.reject()
    settle(qtbot, window)
    assert len(_journal(window)) == n


def test_a_wrong_shangban_seat_is_corrected_with_the_reason_and_the_record_rechecked(store: Any) -> None:
    """Issue 19: a slip on the 上班 seat (G12.1) was permanent. ``game.leader`` corrects it with the
    operator's reason; the engine plays the record again from the new first leader and what no longer
    stands leaves it for re-keying; the history keeps the correction."""
    store.dispatch("match.new", {"teams": {}, "names": {}})
    store.dispatch("game.new", {"leader": 3})
    store.dispatch("game.leader", {"leader": 4, "reason": "录入错误"})
    g = store.state["game"]
    assert g["leader"] == 4 and g["record"] == [] and g["dropped"] == []
    assert g["history"][-1]["kind"] == "leader" and g["history"][-1]["line"] == "3"
    assert g["history"][-1]["new_line"] == "4" and g["history"][-1]["reason"] == "录入错误"
    store.dispatch("game.play", {"line": "4 TTTTT"})
    store.dispatch("game.leader", {"leader": 3, "reason": "裁判改判"})  # seat 4 no longer leads
    g = store.state["game"]
    assert g["leader"] == 3 and g["record"] == []
    assert [d["line"] for d in g["dropped"]] == ["4 TTTTT"] and g["dropped"][0]["rule"]
    assert store.state["table"]["turn"] == 3


def test_a_wrong_shangban_seat_is_corrected_with_ctrl_z_and_from_the_edit_menu(
    window: Any, qtbot: Any
) -> None:
    """Issue 19: a slip on the 上班 seat (G12.1) was permanent. Ctrl+Z before the first play, or
    Edit ▸ 更正上班座位… at any time, corrects it with the reason; the engine re-checks the record from the
    new first leader and what no longer stands leaves it for re-keying."""
    new_match(window, qtbot)
    type_line(qtbot, window, "3")  # the operator meant seat 4
    assert window.console.state["game"]["leader"] == 3
    entry = window.panel.entry
    QTest.keyClick(entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "LeaderDialog")
    assert d.seat.currentData() == 4  # the next seat is offered: the usual slip is one seat off
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["leader"] == 4 and g["record"] == []
    assert _journal(window)[-1] == ("game.leader", {"leader": 4, "reason": "录入错误"})
    assert g["history"][-1]["kind"] == "leader" and g["history"][-1]["new_line"] == "4"
    window.dialog = None
    type_line(qtbot, window, "TTTTT")
    assert window.console.state["game"]["record"] == ["4 TTTTT"]
    # later, from the Edit menu: back to seat 3 — the first decision (seat 4 leading) no longer stands
    action = window.hotkeys.get("edit.leader").action
    assert action in window.menu("edit").actions() and action.shortcut().toString() == "Ctrl+Shift+E"
    action.trigger()
    d = _dialog(qtbot, window, "LeaderDialog")
    d.seat.setCurrentIndex(2)
    d.reason.setCurrentText("裁判改判")
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["leader"] == 3 and g["record"] == []
    assert [x["line"] for x in g["dropped"]] == ["4 TTTTT"] and g["dropped"][0]["rule"]
    assert window.panel.record_model.rowCount() == 0


def test_a_leader_correction_without_a_reason_or_to_the_same_seat_is_refused(store: Any) -> None:
    from broadcast.core.store import ActionRefused

    store.dispatch("match.new", {"teams": {}, "names": {}})
    store.dispatch("game.new", {"leader": 2})
    for payload, rule in (
        ({"leader": 3}, "reason"),
        ({"leader": 2, "reason": "录入错误"}, "G12.1"),
        ({"leader": 7, "reason": "录入错误"}, "G12.1"),
    ):
        with pytest.raises(ActionRefused) as refused:
            store.dispatch("game.leader", payload)
        assert refused.value.rule == rule and refused.value.zh and refused.value.en
    assert store.state["game"]["leader"] == 2
