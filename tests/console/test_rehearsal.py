"""A rehearsal from a record (比赛 ▸ 打开牌谱…): stepped through move by move with the keys of the key
table (the table is the engine's state at each move), continued from any move (checked by the engine,
journaled, the record's later moves dropped once the operator confirms), the record's [SeatN] names on
the seats; the show's database never written (docs/console.md, issue 19)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

import engine
from engine import gjn
from tests.console.conftest import selfplay, settle
from tests.console.process import SHOTS
from tests.console.test_open_record import _journal, _open_by_keys, _rehearsal, _show_db

CTRL = Qt.KeyboardModifier.ControlModifier
NAMES = {1: "郭大侠", 4: "Konstantin"}


def _record(tmp_path: Path, moves: int) -> tuple[Path, list[str]]:
    g = selfplay(11)
    tags = [("Event", "彩排")] + [(f"Seat{s}", n) for s, n in NAMES.items()]
    rec = gjn.from_game(g, tags)
    rec.moves = rec.moves[:moves]
    path = tmp_path / "position.gjn"
    path.write_text(gjn.write(rec), encoding="utf-8")
    return path, [str(m.action) for m in rec.moves]


def _engine_at(lines: list[str], k: int) -> Any:
    g = engine.new_game("tv_match", seed=11)
    for line in lines[:k]:
        g.push(engine.Action.parse(line))
    return g


def _key(qtbot: Any, r: Any, key: Qt.Key, k: int, mods: Any = Qt.KeyboardModifier.NoModifier) -> None:
    """A key in the rehearsal's entry line; waits until the table stands at move ``k``."""
    QTest.keyClick(r.panel.entry, key, mods)
    qtbot.waitUntil(lambda: len(r.console.state["game"]["record"]) == k, timeout=5000)
    settle(qtbot, r)


def _table_is_the_engines(r: Any, lines: list[str], k: int) -> None:
    """Every seat card's count (or title) and the record's selected row are the engine's state at k."""
    g = _engine_at(lines, k)
    titles = g.titles_so_far()
    for s in range(1, 7):
        shown = r.table.cards[s].count.text()
        assert shown == (shown if titles.get(s) else str(g.cards_left(s))), (k, s, shown)
        assert r.console.state["table"]["seats"][s - 1]["cards_left"] == g.cards_left(s)
    rows = r.panel.record.selectionModel().selectedRows()
    assert [i.row() for i in rows] == ([k - 1] if k else [])
    assert f"第{k}步 / 共" in r.panel.rehearsal_bar.text()


def test_step_through_a_record_then_continue_from_an_earlier_move(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    path, lines = _record(tmp_path, 30)
    show_before = _show_db(window)
    _open_by_keys(qtbot, window, path)
    r = _rehearsal(qtbot, window, lines)
    # the record's [SeatN] names are on the seats (the others keep the rehearsal's defaults)
    seats = r.console.state["table"]["seats"]
    assert seats[0]["name"] == "郭大侠" and seats[3]["name"] == "Konstantin"
    assert "郭大侠" in r.table.cards[1].name._full
    row = next(i for i, line in enumerate(lines) if line.startswith("1 "))
    assert r.panel.record_model.index(row, 1).data() == "1 郭大侠"
    # PgUp three times: the table is the engine's at move 27, the record's later moves stay in view
    for k in (29, 28, 27):
        _key(qtbot, r, Qt.Key.Key_PageUp, k)
    _table_is_the_engines(r, lines, 27)
    model = r.panel.record_model
    assert model.rowCount() == 30
    later = model.index(28, 2).data(Qt.ItemDataRole.ForegroundRole)
    assert later is not None and "牌谱中后面的一步" in model.index(28, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert r.console.state["game"]["redo"] == lines[27:][::-1]
    # to the start and the end, and back by one
    _key(qtbot, r, Qt.Key.Key_PageUp, 0, CTRL)
    _table_is_the_engines(r, lines, 0)
    _key(qtbot, r, Qt.Key.Key_PageDown, 30, CTRL)
    _table_is_the_engines(r, lines, 30)
    # a row selected in the record (Alt+Up), then Ctrl+G: the table goes to that move
    for _ in range(19):
        QTest.keyClick(r.panel.entry, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    _key(qtbot, r, Qt.Key.Key_G, 11, CTRL | Qt.KeyboardModifier.ShiftModifier)
    _table_is_the_engines(r, lines, 11)
    SHOTS.mkdir(parents=True, exist_ok=True)
    r.grab().save(str(SHOTS / "rehearsal-at-move-11.png"))
    # typing the record's own next move is a step forward: nothing is dropped, nothing asked
    seq = r.console.state["meta"]["seq"]
    QTest.keyClicks(r.panel.entry, lines[11])
    QTest.keyClick(r.panel.entry, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(r.console.state["game"]["record"]) == 12, timeout=5000)
    assert len(r.console.state["game"]["redo"]) == 18 and not isinstance(r.dialog, QMessageBox)
    assert _journal(r)[-1] == ("game.seek", {"move": 12})
    # an illegal play at move 12: refused with its clause, the record's later moves kept
    g = _engine_at(lines, 12)
    seq = r.console.state["meta"]["seq"]
    illegal, rule = _an_illegal_line(g)
    QTest.keyClicks(r.panel.entry, illegal)
    QTest.keyClick(r.panel.entry, Qt.Key.Key_Return)
    settle(qtbot, r)
    assert r.panel.verdict.text().startswith(f"✕ {rule}"), r.panel.verdict.text()
    assert r.console.state["meta"]["seq"] == seq and len(r.console.state["game"]["redo"]) == 18
    # another legal play: the operator is asked (default No); Esc keeps everything
    r.panel.entry.clear()
    other = next(str(a) for a in g.legal_plays() if str(a) != lines[12])
    QTest.keyClicks(r.panel.entry, other)
    QTest.keyClick(r.panel.entry, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: isinstance(r.dialog, QMessageBox) and r.dialog.isVisible())
    box: QMessageBox = r.dialog
    assert "18" in box.text() and "第13–30步" in box.text()
    QTest.keyClick(box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not box.isVisible())
    settle(qtbot, r)
    assert r.console.state["meta"]["seq"] == seq and len(r.console.state["game"]["redo"]) == 18
    # again, and Yes: journaled as a decision, the record's later moves gone from the rehearsal
    QTest.keyClick(r.panel.entry, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: isinstance(r.dialog, QMessageBox) and r.dialog.isVisible() and r.dialog is not box
    )
    yes = r.dialog.button(QMessageBox.StandardButton.Yes)
    yes.setFocus()
    QTest.keyClick(yes, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: r.console.state["game"]["record"] == [*lines[:12], other], timeout=5000)
    settle(qtbot, r)
    assert r.console.state["game"]["redo"] == [] and _journal(r)[-1] == ("game.play", {"line": other})
    assert r.panel.record_model.rowCount() == 13 and "第13步 / 共13步" in r.panel.rehearsal_bar.text()
    # the show's database was never written
    assert _show_db(window) == show_before
    r.close()


def _an_illegal_line(g: Any) -> tuple[str, str]:
    """A line the engine refuses at this point of ``g``, and the clause it names."""
    pending = g.pending_seat
    for seat in (pending, *(s for s in range(1, 7) if s != pending)):
        for act in ("RRRR", "3", "33", "pass"):
            line = f"{seat} {act}"
            try:
                g.copy().push(engine.Action.parse(line))
            except engine.IllegalAction as exc:
                return line, exc.rule
    raise AssertionError("no illegal line found")


def test_stepping_keys_say_they_are_for_a_rehearsal_in_the_show(window: Any, qtbot: Any) -> None:
    """PgUp in the show's window steps nothing (the show's table is on air): one line says where it works."""
    from tests.console.conftest import new_match, type_line

    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    seq = window.console.state["meta"]["seq"]
    QTest.keyClick(window.panel.entry, Qt.Key.Key_PageUp)
    settle(qtbot, window)
    assert window.console.state["meta"]["seq"] == seq and window.console.state["game"]["record"] == [
        "3 TTTTT"
    ]
    assert "彩排" in window.statusBar().currentMessage()
