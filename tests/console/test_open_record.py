"""比赛 ▸ 打开牌谱… (Ctrl+O): a GJN record opens into a rehearsal database and window of its own (never the
show's); a bad one is one line naming file:line and the clause and changes nothing; Esc changes nothing
(docs/console.md). Stepping and continuing in the rehearsal: tests/console/test_rehearsal.py."""

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


def _rehearsal(qtbot: Any, window: Any, lines: list[str]) -> Any:
    """The rehearsal window the record opened into, once the whole record is on its table."""
    qtbot.waitUntil(lambda: len(window.rehearsals) == 1, timeout=10000)
    r = window.rehearsals[0]
    qtbot.waitUntil(lambda: r.console.state["game"]["record"] == lines, timeout=20000)
    settle(qtbot, r)
    return r


def _show_db(window: Any) -> tuple[int, list[str]]:
    """The show's journal length and its database's whole content (every row of every table), read by a
    connection of its own (the file's bytes move when SQLite checkpoints its WAL, the content does not)."""
    import sqlite3

    path = Path(window.console.bridge.store.journal.path)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return len(_journal(window)), list(conn.iterdump())
    finally:
        conn.close()


def test_a_record_opens_into_a_rehearsal_window_and_the_show_is_not_touched(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """Unsaved work on the show's table stays as it is (no question, nothing replaced): the record goes
    into a rehearsal database of its own beside the project, in a window of its own."""
    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    settle(qtbot, window)
    show_before = (_show_db(window), window.console.state["game"]["record"])
    path, lines = _record_file(tmp_path, 40)
    _open_by_keys(qtbot, window, path)
    r = _rehearsal(qtbot, window, lines)
    assert not isinstance(window.dialog, QMessageBox)  # nothing to ask: the show's game stays
    assert (_show_db(window), window.console.state["game"]["record"]) == show_before
    db = Path(r.console.bridge.store.journal.path)
    assert db == tmp_path / "studio-assets" / "rehearsals" / "referee.sqlite"
    # the record's moves, in order, in the rehearsal's record view
    model = r.panel.record_model
    assert model.rowCount() == 40
    col = model.COLUMNS.index("move")
    shown = [model.index(i, col).data() for i in range(model.rowCount())]
    assert [s.split()[-1] for s in lines] == [str(x).split()[-1] for x in shown]
    # journaled in the rehearsal's database: match.new, game.new with the dealt hands, each move in order
    j = _journal(r)
    assert [t for t, _p in j[:2]] == ["match.new", "game.new"]
    assert j[1][1]["leader"] == selfplay(11).leader and len(j[1][1]["hands"]) == 6 and all(j[1][1]["hands"])
    assert [p["line"] for _t, p in j[2:]] == lines
    # play continues from the record's last move: the engine's seat to act is the entry's prompt
    g = gjn.replay(gjn.parse(path.read_text(encoding="utf-8")))
    assert r.console.mode().name == "play" and r.console.game.pending_seat == g.pending_seat
    assert r.windowTitle().startswith("彩排 referee.gjn")
    assert "referee.sqlite" in window.statusBar().currentMessage()
    assert r.panel.rehearsal_bar.isVisible() and "第40步 / 共40步" in r.panel.rehearsal_bar.toolTip()
    # a second opening of the same record is a second rehearsal: the first one is kept
    r.close()
    qtbot.waitUntil(lambda: not window.rehearsals)
    _open_by_keys(qtbot, window, path)
    r2 = _rehearsal(qtbot, window, lines)
    assert Path(r2.console.bridge.store.journal.path).name == "referee-2.sqlite" and db.exists()
    SHOTS.mkdir(parents=True, exist_ok=True)
    r2.grab().save(str(SHOTS / "open-record-opened.png"))
    r2.close()


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
    assert not window.rehearsals and not (tmp_path / "studio-assets" / "rehearsals").exists()


def test_escape_in_the_file_dialog_changes_nothing(window: Any, qtbot: Any, tmp_path: Path) -> None:
    new_match(window, qtbot)
    for text in ("3", "TTTTT"):
        type_line(qtbot, window, text)
    before = (_journal(window), window.console.state["game"]["record"])
    _open_by_keys(qtbot, window, None)
    settle(qtbot, window)
    assert (_journal(window), window.console.state["game"]["record"]) == before
    assert not window.rehearsals and window.panel.entry.hasFocus()


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


def test_console_record_refuses_a_bad_record_in_one_line_before_anything_starts(tmp_path: Path) -> None:
    """``python -m broadcast console --record FILE`` (the menu's rehearsal from the command line): a bad
    record is one line ``file:line: [clause] why`` on stderr, exit 2, no database created."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    bad = tmp_path / "bad.gjn"
    bad.write_text('[Rules "tv_match"]\n[Leader "3"]\n3 TTTTT\n6 JJJ\n', encoding="utf-8")
    db = tmp_path / "studio.sqlite"
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "console", "--db", str(db), "--record", str(bad), "--no-obs"],
        cwd=root,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"{bad}:4: [G4.1] "), lines
    assert "Traceback" not in r.stderr and not db.exists()


def test_console_record_opens_the_rehearsal_beside_the_project(tmp_path: Path) -> None:
    """``console --record FILE``: the console on the project, the record journaled into its rehearsal
    database beside it, the project's database holding no game of it; SIGTERM closes both cleanly."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    path, lines = _record_file(tmp_path, 25)
    db = tmp_path / "studio.sqlite"
    rehearsal = tmp_path / "studio-assets" / "rehearsals" / "referee.sqlite"
    args = ["--no-obs", "--port", "0", "--commentators-port", "-1", "--winprob-workers", "0", "--no-monitors"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "broadcast", "console", "--db", str(db), "--record", str(path), *args]
        + ["--settings", str(tmp_path / "console.ini")],
        cwd=root,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )

    def journaled() -> list[str]:
        if not rehearsal.exists():
            return []
        conn = sqlite3.connect(f"file:{rehearsal}?mode=ro", uri=True, timeout=5)
        try:
            return [r[0] for r in conn.execute("SELECT type FROM journal ORDER BY seq")]
        except sqlite3.OperationalError:  # created, its tables not yet
            return []
        finally:
            conn.close()

    try:
        import time

        deadline = time.monotonic() + 120
        while len(journaled()) < 2 + len(lines) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert journaled() == ["match.new", "game.new", *["game.play"] * len(lines)]
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0 and "Traceback" not in out, out[-2000:]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert not conn.execute("SELECT count(*) FROM journal WHERE type LIKE 'game.%'").fetchone()[0]
    finally:
        conn.close()
