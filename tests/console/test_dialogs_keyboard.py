"""Every dialog of the console can be used with the keyboard alone (issue 19), as an operator with both
hands on the keys uses it: opened by its key, the keys are in the dialog at once (on a field, not on
the window behind), Tab reaches every field and button once round (no field only a mouse reaches, no
field that keeps Tab for itself), and Esc closes it with nothing changed.

One window (the demo season's database, a game under way) opens every dialog in turn."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QKeySequenceEdit,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QTextEdit,
    QWidget,
)

from tests.console.conftest import NAMES, TEAMS, selfplay, type_line, typed

# every operation of the key table that opens a dialog (the window's dialog attribute holds it)
DIALOGS = (
    "edit.undo",
    "edit.correct",
    "edit.insert",
    "edit.delete",
    "edit.history",
    "edit.leader",
    "edit.setup",
    "edit.hands",
    "match.hands",
    "match.penalty",
    "match.late",
    "match.forfeit",
    "view.keys",
    "cues.preflight",
    "match.new",
)
INPUTS = (
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractButton,
    QAbstractItemView,
    QPlainTextEdit,
    QTextEdit,
)
INPUTS_WITH_INNER = (QComboBox, QAbstractSpinBox, QKeySequenceEdit)  # focus goes to their own line edit


def _owner(widget: QWidget | None, dialog: QWidget) -> QWidget | None:
    """The field a focused widget belongs to (a combo box's or spin box's inner line edit is the box)."""
    w = widget
    while w is not None and w is not dialog:
        parent = w.parentWidget()
        if isinstance(parent, INPUTS_WITH_INNER):
            return parent
        if isinstance(w, (*INPUTS, QKeySequenceEdit)):
            return w
        w = parent
    return None


def _fields(dialog: QWidget) -> list[QWidget]:
    """What a person can see and use in the dialog: every shown, enabled field and button."""
    out: list[QWidget] = []
    for w in dialog.findChildren(QWidget):
        if not isinstance(w, (*INPUTS, QKeySequenceEdit)) or not w.isVisibleTo(dialog) or not w.isEnabled():
            continue
        if _owner(w.parentWidget(), dialog) is not None:  # a part of a field (a box's line edit, arrows)
            continue
        if w.window() is not dialog:  # a popup's list
            continue
        out.append(w)
    return out


def _name(w: QWidget) -> str:
    text = w.text() if isinstance(w, (QAbstractButton, QLineEdit)) else ""
    return f"{type(w).__name__}({w.objectName() or text or w.accessibleName()})"


def _walk(dialog: QWidget) -> tuple[QWidget | None, list[str]]:
    """Tab once round the dialog from where the keys are when it opens: the field it starts on, and
    what a person could not reach with Tab (or where Tab stayed)."""
    start = _owner(QApplication.focusWidget(), dialog)
    fields = _fields(dialog)
    reached: set[int] = set()
    stuck: list[str] = []
    for _ in range(2 * len(fields) + 2):
        focus = QApplication.focusWidget()
        owner = _owner(focus, dialog)
        if owner is not None:
            reached.add(id(owner))
        assert focus is not None and focus.window() is dialog, f"Tab left the dialog for {focus!r}"
        QTest.keyClick(focus, Qt.Key.Key_Tab)
        if QApplication.focusWidget() is focus and len(fields) > 1:
            stuck.append(f"Tab stays in {_name(owner or focus)}")
            break
    radios: set[int] = set()  # an exclusive group of radio buttons is one stop; arrows choose within
    for w in fields:
        if isinstance(w, QRadioButton) and w.autoExclusive() and id(w) in reached:
            radios |= {id(x) for x in fields if isinstance(x, QRadioButton) and x.parent() is w.parent()}
    missed = [f"Tab never reaches {_name(w)}" for w in fields if id(w) not in reached | radios]
    return start, stuck + missed


@pytest.mark.long  # fourteen dialogs opened and walked in one window: ~60 s on a loaded machine
def test_every_dialog_works_with_the_keyboard_alone(demo_window: Any, qtbot: Any) -> None:
    window = demo_window
    done: list[Any] = []
    window.console.act("match.new", {"teams": TEAMS, "names": NAMES}, on_done=done.append)
    qtbot.waitUntil(lambda: bool(done))
    game = selfplay(11)
    type_line(qtbot, window, str(game.leader))
    for a in game.moves[:6]:
        type_line(qtbot, window, typed(str(a), window.console.game.pending_seat))
    window.panel.record.selectRow(2)  # the corrections act on the selected decision
    findings: list[str] = []
    for op in DIALOGS:
        keys = window.hotkeys.get(op).keys
        assert keys, f"{op} has no key: a person with the keyboard alone cannot open it"
        before, seq = window.dialog, window.console.state["meta"]["seq"]
        window.panel.entry.setFocus()
        QTest.keySequence(window.panel.entry, QKeySequence(keys[0]))
        qtbot.waitUntil(
            lambda b=before: (
                window.dialog is not None and window.dialog is not b and window.dialog.isVisible()
            )
        )
        dialog = window.dialog
        qtbot.waitUntil(lambda d=dialog: QApplication.activeWindow() is d)  # it has the keys
        start, problems = _walk(dialog)
        title = dialog.windowTitle()
        if start is None:
            findings.append(f"{op} ({title}): the keys are not on a field when it opens")
        findings += [f"{op} ({title}): {p}" for p in problems]
        QTest.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda d=dialog: not d.isVisible())
        if dialog.result() != 0:
            findings.append(f"{op} ({title}): Esc did not cancel")
        window.console.bridge.drain()
        if window.console.state["meta"]["seq"] != seq:
            findings.append(f"{op} ({title}): Esc changed the show")
        qtbot.waitUntil(lambda: QApplication.focusWidget() is window.panel.entry)  # back to typing
    assert not findings, "\n".join(findings)
