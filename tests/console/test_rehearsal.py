"""A rehearsal from a record (比赛 ▸ 打开牌谱…): stepped through move by move with the keys of the key
table (the table is the engine's state at each move), continued from any move (checked by the engine,
journaled, the record's later moves dropped once the operator confirms), the record's [SeatN] names on
the seats; the show's database never written (docs/console.md, issue 19)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget, QMessageBox

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
    assert f"第{k}步 / 共" in r.panel.rehearsal_bar.toolTip()


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
    # the later moves are dimmed and in italics, unlike any move the table has passed (a pass is muted too)
    fg, font = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole
    assert model.index(28, 2).data(font).italic() and not (model.index(26, 2).data(font) or QFont()).italic()
    done = {
        model.index(i, c).data(fg).color().name()
        for i in range(27)
        for c in (0, 2)
        if model.index(i, c).data(fg)
    }
    assert model.index(28, 0).data(fg).color().name() not in done
    assert "牌谱中后面的一步" in model.index(28, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert r.console.state["game"]["redo"] == lines[27:][::-1]
    # PgUp twice before the first step comes back (a held key): the second goes on from the first — 25,
    # not a second step to 26
    QTest.keyClick(r.panel.entry, Qt.Key.Key_PageUp)
    QTest.keyClick(r.panel.entry, Qt.Key.Key_PageUp)
    qtbot.waitUntil(lambda: len(r.console.state["game"]["record"]) == 25 and r.seeking is None, timeout=5000)
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
    assert r.panel.record_model.rowCount() == 13 and "第13步 / 共13步" in r.panel.rehearsal_bar.toolTip()
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


def test_a_record_opened_in_a_season_match_never_writes_the_season_database(
    demo_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The show's match belongs to the season: the record still opens (into the rehearsal), and the
    project's database — the season's tables with it — is the same row for row; the rehearsal's match
    belongs to no season, so nothing typed in it can be saved there."""
    w = demo_window
    QTest.keyClick(w.panel.entry, Qt.Key.Key_N, CTRL)
    qtbot.waitUntil(
        lambda: type(w.dialog).__name__ == "NewMatchDialog" and w.dialog.isVisible(), timeout=10000
    )
    QTest.keyClick(w.dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: w.console.state["match"]["season"] is not None, timeout=10000)
    settle(qtbot, w)
    before = _show_db(w)
    path, lines = _record(tmp_path, 12)
    _open_by_keys(qtbot, w, path)
    r = _rehearsal(qtbot, w, lines)
    assert not r.console.state["match"]["season"]
    _key(qtbot, r, Qt.Key.Key_PageUp, 11)
    assert _show_db(w) == before
    rehearsal_db = Path(r.console.bridge.store.journal.path)
    assert rehearsal_db.parent == tmp_path / "demo-assets" / "rehearsals"
    assert [t for t, _p in _journal(r)] == ["match.new", "game.new", *["game.play"] * 12, "game.seek"]
    r.close()


def test_a_test_position_with_partial_hands_steps_and_continues(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """Only seats 1 and 4's hands known (a referee's test position): the others are unknown (counts only),
    and stepping and continuing work as with a whole deal."""
    g = selfplay(11)
    text = [
        t
        for t in gjn.write(gjn.from_game(g)).splitlines()
        if not t.startswith(("[Hand2", "[Hand3", "[Hand5", "[Hand6"))
    ]
    rec = gjn.parse("\n".join(text) + "\n")
    rec.moves = rec.moves[:20]
    path = tmp_path / "test-position.gjn"
    path.write_text(gjn.write(rec), encoding="utf-8")
    lines = [str(m.action) for m in rec.moves]
    _open_by_keys(qtbot, window, path)
    r = _rehearsal(qtbot, window, lines)
    hands = r.console.state["game"]["hands"]
    assert bool(hands[0]) and bool(hands[3]) and hands[1] == hands[2] == hands[4] == hands[5] == ""
    _key(qtbot, r, Qt.Key.Key_PageUp, 19)
    _key(qtbot, r, Qt.Key.Key_PageDown, 20)
    assert r.console.state["game"]["record"] == lines and r.panel.record_model.rowCount() == 20
    # Ctrl+O in the rehearsal: another rehearsal of the show's project, beside the first
    _open_by_keys(qtbot, r, path)
    qtbot.waitUntil(lambda: len(window.rehearsals) == 2, timeout=10000)
    dbs = [Path(w.console.bridge.store.journal.path) for w in window.rehearsals]
    assert [d.name for d in dbs] == ["test-position.sqlite", "test-position-2.sqlite"]
    assert dbs[0].parent == dbs[1].parent == tmp_path / "studio-assets" / "rehearsals"
    for w in list(window.rehearsals):
        w.close()


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_no_text_of_a_rehearsal_is_clipped_at_1366x768(
    window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The rehearsal's window on a laptop screen, a 240-move record stepped back one (three-digit move
    numbers, the later row greyed, the bar above the record), in each language: no text cut or covered."""
    import broadcast.console.layout as layout_module
    from broadcast.console import rehearsal as rehearsal_
    from tests.qtaudit import audit

    monkeypatch.setattr(layout_module, "screen_area", lambda _w: QRect(0, 0, 1366, 768))
    g = engine.new_game("tv_match", seed=313)
    engine.random_playout(g, seed=313)
    rec = gjn.from_game(g, [("Seat3", "欧阳娜娜"), ("Seat6", "Wilhelmina")])
    rec.moves = rec.moves[:240]
    path = tmp_path / "long.gjn"
    path.write_text(gjn.write(rec), encoding="utf-8")
    lines = [str(m.action) for m in rec.moves]
    window.set_language(lang)
    try:
        r = rehearsal_.open_record(window, str(path))
        qtbot.waitUntil(lambda: r.console.state["game"]["record"] == lines, timeout=30000)
        r.setGeometry(0, 0, 1366, 768)
        _key(qtbot, r, Qt.Key.Key_PageUp, 239)
        qtbot.waitUntil(r.layout_.settled, timeout=5000)  # laid out for the laptop screen
        settle(qtbot, r)
        bar = r.panel.rehearsal_bar.toolTip()  # the bar's one line, and all it says in its tooltip
        if lang == "en":
            assert bar.startswith("Rehearsal long.gjn: move 239 of 240 · PgUp/PgDown step"), bar
            assert f"rehearsal database {tmp_path}" in bar and "the show's database is untouched" in bar
            assert r.windowTitle().startswith("Rehearsal long.gjn")
        else:
            assert bar.startswith("彩排 long.gjn：第239步 / 共240步 · PgUp/PgDown 逐步"), bar
            assert f"彩排数据库 {tmp_path}" in bar and "节目数据库未动" in bar
        # the record keeps at least five rows in view on the laptop screen (as the show's window)
        view = r.panel.record
        assert view.viewport().height() >= 5 * view.rowHeight(0), (
            view.viewport().height(),
            view.rowHeight(0),
        )
        found = audit(r)
        assert not found, "\n".join(map(str, found))
        SHOTS.mkdir(parents=True, exist_ok=True)
        r.grab().save(str(SHOTS / f"rehearsal-1366x768-{lang}.png"))
        # the language switched in the show's window reaches the rehearsal's too
        window.set_language("en" if lang == "zh_CN" else "zh_CN")
        other = "Rehearsal long.gjn" if lang == "zh_CN" else "彩排 long.gjn"
        assert r.panel.rehearsal_bar.toolTip().startswith(other) and r.windowTitle().startswith(other)
        r.close()
    finally:
        window.set_language("zh_CN")


def test_the_rehearsal_window_gives_the_on_air_docks_room_to_the_table_and_the_record(
    window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rehearsal has no studio: the cue list, GO, the graphics and the sponsor events would act only on
    the rehearsal's own database, and at 1366×768 they took half the window (the record kept 5 rows).
    In a rehearsal they are not there — not shown, not in the View menu, their menus and keys gone, not
    brought back by View → Reset layout — and the record shows many more rows. The show's window keeps
    them all."""
    import broadcast.console.layout as layout_module
    from broadcast.console import rehearsal as rehearsal_

    monkeypatch.setattr(layout_module, "screen_area", lambda _w: QRect(0, 0, 1366, 768))
    path, lines = _record(tmp_path, 120)
    r = rehearsal_.open_record(window, str(path))
    qtbot.waitUntil(lambda: r.console.state["game"]["record"] == lines, timeout=30000)
    r.setGeometry(0, 0, 1366, 768)
    qtbot.waitUntil(r.layout_.settled, timeout=5000)
    settle(qtbot, r)
    onair = [d for d in r.findChildren(QDockWidget) if d.objectName() != "dock_table"]
    assert onair, "the rehearsal's window was built with the on-air docks (then taken out)"
    assert not [d.objectName() for d in onair if d.isVisible()]
    # nor are the air chain's indicators in its status bar (OBS off, recording not started …: noise there)
    status = r.onair.status
    assert [w.objectName() for w in status.onair_labels()] == [
        "statusObs",
        "statusPages",
        "statusAsrun",
        "statusRecording",
    ]
    assert not [w.objectName() for w in status.onair_labels() if w.isVisible()]
    assert status.wall.isVisible() and r.journal_label.isVisible()  # the clock and the journal stay
    view_menu = [a.text() for a in r.menu("view").actions()]
    assert not [t for t in view_menu if "CUES" in t.upper() or "GRAPHICS" in t.upper() or "节目流程" in t]
    menus = [a.text() for a in r.menuBar().actions() if a.isVisible()]
    assert not [t for t in menus if t.startswith(("节目流程", "图形", "赞助"))], menus
    assert not r.hotkeys.get("cues.go").action.isEnabled()
    before = r.console.state["meta"]["seq"]
    QTest.keyClick(r, Qt.Key.Key_F9)  # GO: nothing in a rehearsal
    settle(qtbot, r)  # whatever the key sent to the store has run and its answer is delivered
    assert r.console.state["meta"]["seq"] == before
    view = r.panel.record
    rows = view.viewport().height() // view.rowHeight(0)
    assert rows >= 12, rows  # was 5 with the on-air docks
    r.reset_layout()
    qtbot.waitUntil(r.layout_.settled, timeout=5000)
    assert not [d.objectName() for d in onair if d.isVisible()]
    assert view.viewport().height() // view.rowHeight(0) >= 12
    SHOTS.mkdir(parents=True, exist_ok=True)
    r.grab().save(str(SHOTS / "rehearsal-no-onair-1366x768.png"))
    r.close()
    # the show's window still has them
    assert window.dock("cues").isVisibleTo(window) and window.hotkeys.get("cues.go").action.isEnabled()
    assert all(w.isVisibleTo(window) for w in window.onair.status.onair_labels())
