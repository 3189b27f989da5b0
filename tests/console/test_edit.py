"""Undo, redo and corrections from the keyboard: each asks the operator's reason and is journaled."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

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
    # Ctrl+Z right after undoes that correction like any other: seat 4 again, with the reason, and what
    # it dropped is played again (nothing lost); a second Ctrl+Z does not undo the undo
    window.dialog = None
    QTest.keyClick(entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "ReasonDialog")
    assert any("上班座位 4号 → 3号" in x.text() for x in d.findChildren(QLabel))
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["leader"] == 4 and g["record"] == ["4 TTTTT"] and g["dropped"] == []
    assert _journal(window)[-1] == (
        "game.leader",
        {"leader": 4, "undo": True, "reason": "撤销更正：更正错了"},
    )
    assert g["history"][-1]["undo"] and window.panel.record_model.rowCount() == 1
    window.dialog = None
    QTest.keyClick(entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "ReasonDialog")
    assert d.windowTitle() == "撤销第1步"  # the last decision, not the undo of the correction
    QTest.keyClick(d.reason, Qt.Key.Key_Escape)


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
    with pytest.raises(ActionRefused) as refused:  # no 上班 correction to undo
        store.dispatch("game.leader", {"leader": 3, "reason": "更正错了", "undo": True})
    assert refused.value.rule == "G12.1" and store.state["game"]["leader"] == 2


def _act(window: Any, qtbot: Any, type_: str, payload: dict[str, Any]) -> None:
    done: list[Any] = []
    window.console.act(type_, payload, on_done=done.append, on_refused=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)


def test_a_hand_corrected_after_play_is_rechecked_refused_in_the_open_dialog_and_undone(
    window: Any, qtbot: Any
) -> None:
    """Issue 19: the hands are corrected like any other decision. Edit ▸ 更正手牌… (Ctrl+Alt+H) after play
    started asks the reason; the engine re-checks every move so far against the corrected hands — one
    that no longer stands (a card the player did not hold, G3.1) is named in the dialog, which stays open
    with the cursor on that seat's hand; a correction that keeps the record standing is journaled, and
    Ctrl+Z right after it undoes it (the hands as they were, re-checked, with the reason)."""
    from engine import deal, format_cards

    new_match(window, qtbot)
    hands = [format_cards(h) for h in deal(5)]
    _act(window, qtbot, "game.new", {"leader": 1, "hands": hands})
    low = hands[0][-1]  # seat 1's lowest card, played as the first decision
    type_line(qtbot, window, f"1 {low}")
    assert window.console.state["game"]["record"] == [f"1 {low}"]
    window.panel.entry.setFocus()
    QTest.keyClick(
        window.panel.entry,
        Qt.Key.Key_H,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
    )
    d = _dialog(qtbot, window, "HandsDialog")
    assert d.correcting and d.windowTitle() == "更正手牌" and d.reason is not None
    # seat 1 gives all its cards of that rank to seat 2 for seat 2's highest ones: move 1 is impossible
    n = hands[0].count(low)
    give = [c for c in hands[1] if c != low][:n]
    one = hands[0].replace(low, "") + "".join(give)
    two = hands[1]
    for c in give:
        two = two.replace(c, "", 1)
    two += low * n
    d.lines[1].setText(one)
    d.lines[2].setText(two)
    seq = window.console.state["meta"]["seq"]
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: d.buttons.isEnabled() and "第1步" in d.error.text())
    assert d.isVisible() and "G3.1" in d.error.text() and f"1 {low}" in d.error.text(), d.error.text()
    assert d.lines[1].hasFocus() and d.lines[1].text() == one  # nothing typed is lost
    assert window.console.state["meta"]["seq"] == seq and window.console.state["game"]["hands"] == hands
    # a correction that keeps move 1 standing: seats 3 and 4 swap a card neither has played
    d.lines[1].setText(hands[0])
    d.lines[2].setText(hands[1])
    a = hands[2][0]
    b = next(c for c in hands[3] if c != a)
    d.lines[3].setText(hands[2].replace(a, "", 1) + b)
    d.lines[4].setText(hands[3].replace(b, "", 1) + a)
    d.reason.setCurrentText("裁判核对手牌")
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["record"] == [f"1 {low}"] and g["hands"] != hands
    last = g["history"][-1]
    assert (last["kind"], last["line"], last["reason"], last["before"]) == (
        "hands",
        "3,4",
        "裁判核对手牌",
        hands,
    )
    assert _journal(window)[-1][0] == "game.hands"
    # Ctrl+Z right after it: the correction undone, with the reason
    window.dialog = None
    QTest.keyClick(window.panel.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "ReasonDialog")
    assert d.windowTitle() == "撤销更正"
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    settle(qtbot, window)
    g = window.console.state["game"]
    assert g["hands"] == hands and g["record"] == [f"1 {low}"]
    assert g["history"][-1]["new_line"] == "undo" and g["history"][-1]["reason"] == "撤销更正：更正错了"
    # the next Ctrl+Z takes back the last decision, not the undoing
    window.dialog = None
    QTest.keyClick(window.panel.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "ReasonDialog")
    assert d.windowTitle() == "撤销第1步"
    QTest.keyClick(d, Qt.Key.Key_Escape)


def test_the_setup_correction_keeps_its_dialog_open_on_a_refusal_and_is_undone_by_ctrl_z(
    window: Any, qtbot: Any
) -> None:
    """Edit ▸ 更正比赛设置… mid-game: two players swapped seats (their photos go with them); a refusal
    (two names that look alike on air) keeps the dialog open with what was typed; the preset cannot be
    changed once play started (the plays were judged by it); Ctrl+Z right after undoes the correction."""
    new_match(window, qtbot)
    _act(window, qtbot, "match.update", {"photos": ["a.png", "b.png", "", "", "", ""]})
    type_line(qtbot, window, "1")
    type_line(qtbot, window, "TTTTT")
    action = window.hotkeys.get("edit.setup").action
    assert action in window.menu("edit").actions()
    action.trigger()
    d = _dialog(qtbot, window, "SetupDialog")
    assert not d.rules.isEnabled()  # play has started: the preset stays
    names = [d.names[s].text() for s in range(1, 7)]
    d.names[1].setText(names[2])  # seat 1 given seat 3's name: two seats alike
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: d.buttons.isEnabled() and "[names]" in d.error.text())
    assert d.isVisible() and d.names[1].text() == names[2]
    d.names[1].setText(names[1])
    d.names[2].setText(names[0])
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    settle(qtbot, window)
    seats = window.console.state["table"]["seats"]
    assert [s["name"] for s in seats[:2]] == names[1::-1] and [s["photo"] for s in seats[:2]] == [
        "b.png",
        "a.png",
    ]
    last = window.console.state["game"]["history"][-1]
    assert last["kind"] == "setup" and last["reason"] == "座位录错" and last["before"][:2] == names[:2]
    window.dialog = None
    QTest.keyClick(window.panel.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    d = _dialog(qtbot, window, "ReasonDialog")
    QTest.keyClick(d.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible())
    settle(qtbot, window)
    seats = window.console.state["table"]["seats"]
    assert [s["name"] for s in seats[:2]] == names[:2] and [s["photo"] for s in seats[:2]] == [
        "a.png",
        "b.png",
    ]
    assert window.console.state["game"]["record"] == ["1 TTTTT"]


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_the_correction_dialogs_show_every_text_whole(window: Any, qtbot: Any, lang: str) -> None:
    """The clipped-text audit (tests/qtaudit.py) over the hands correction (with a refusal shown), the
    set-up correction and the undo of a correction, in both languages."""
    from broadcast.console import dialogs
    from broadcast.core import ActionRefused
    from engine import deal, format_cards
    from tests.qtaudit import audit

    window.set_language(lang)
    hands = [format_cards(h) for h in deal(5)]
    names = {s: n for s, n in enumerate(["张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰"], 1)}
    hand = dialogs.HandsDialog(window, names, hands, dict.fromkeys(range(1, 7), 36), correcting=True)
    setup = dialogs.SetupDialog(
        window, {"odd": "小当家联盟队", "even": "沂蒙山泉队"}, names, rules_open=False
    )
    undo = dialogs.ReasonDialog(
        window, "撤销更正", "撤销更正：1号 张立国→李春燕、2号 李春燕→张立国", ("更正错了",)
    )
    for d in (hand, setup, undo):
        qtbot.addWidget(d)
        d.show()
        qtbot.waitExposed(d)
    hand.refused(
        ActionRefused(
            "G3.1",
            "手牌与牌谱第12步（3 TTTTT）不符：3号手中没有TTTTT",
            "the hands contradict move 12 (3 TTTTT): seat 3 does not hold TTTTT",
        )
    )
    qtbot.wait(50)
    for d in (hand, setup, undo):
        found = audit(d)
        assert not found, f"{d.windowTitle()}:\n" + "\n".join(map(str, found))
    assert ("G3.1" in hand.error.text()) and (("12步" in hand.error.text()) == (lang == "zh_CN"))
