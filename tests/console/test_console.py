"""The console offscreen (pytest-qt): decisions typed into the entry line with QTest key clicks go
through the store; the record, the table and the refusals show what the engine decided."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.console.conftest import NAMES, new_match, settle, type_line

ROOT = Path(__file__).resolve().parents[2]


def _journal_count(store: Any) -> int:
    return int(store.journal.connection.execute("SELECT COUNT(*) FROM journal").fetchone()[0])


def _selfplay(seed: int) -> engine.Game:
    g = engine.new_game("tv_match", seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.push(g.random_action(rng))
    return g


def _typed(line: str, pending: int | None) -> str:
    """What an operator types for ``line``: the action alone for the pending seat, else the whole line."""
    seat, act = line.split(" ", 1)
    short = {"pass": "p", "yield": "y"}.get(act, act)
    return short if pending is not None and int(seat) == pending else line


@pytest.mark.timeout(600)  # a whole game typed key by key
def test_a_whole_typed_game_ends_with_the_engines_titles_and_points(
    window: Any, qtbot: Any, tmp_path: Path
) -> None:
    new_match(window, qtbot)
    played = _selfplay(11)
    type_line(qtbot, window, str(played.leader))  # 上班 seat (G12.1), then every decision
    for a in played.moves:
        game = window.console.game
        type_line(qtbot, window, _typed(str(a), game.pending_seat))
        assert window.panel.verdict.text() == "", f"{a}: {window.panel.verdict.text()}"
    settle(qtbot, window)
    state = window.console.state
    assert state["table"]["phase"] == "over"
    assert state["game"]["record"] == [str(a) for a in played.moves]
    # engine check of the same record, as the referee's tool prints it
    gjn = tmp_path / "game.gjn"
    gjn.write_text(
        f'[Rules "tv_match"]\n[Leader "{played.leader}"]\n' + "\n".join(state["game"]["record"]) + "\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "engine", "check", str(gjn), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    checked = json.loads(out.stdout)
    assert checked["ok"], checked
    titles = {str(s["seat"]): s["title"] for s in state["table"]["seats"]}
    assert titles == checked["titles"]
    assert {t: state["table"]["teams"][t]["points"] for t in ("odd", "even")} == checked["team_points"]
    assert window.panel.record_model.rowCount() == len(played.moves)
    assert window.table.cards[1].name.text().endswith(NAMES[0])


def test_an_illegal_play_shows_its_clause_and_journals_nothing(window: Any, qtbot: Any) -> None:
    new_match(window, qtbot)
    type_line(qtbot, window, "3")
    type_line(qtbot, window, "TTTTT")
    settle(qtbot, window)
    before = _journal_count(window.console.bridge.store)
    type_line(qtbot, window, "JJJJ")  # seat 6 (对头) must answer five cards with five (G4.1)
    settle(qtbot, window)
    assert _journal_count(window.console.bridge.store) == before
    assert window.console.state["game"]["record"] == ["3 TTTTT"]
    text = window.panel.verdict.text()
    assert "G4.1" in text and "张数" in text and "sizes must match" in text
    assert window.panel.entry.text() == "JJJJ"  # kept for correction
    # corrected: Backspace the refused text, type the legal beat
    window.panel.entry.clear()
    type_line(qtbot, window, "JJJJJ")
    settle(qtbot, window)
    assert window.console.state["game"]["record"] == ["3 TTTTT", "6 JJJJJ"]
    assert window.panel.verdict.text() == "" and window.panel.entry.text() == ""


def test_the_completion_list_is_picked_with_the_arrows(window: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    new_match(window, qtbot)
    type_line(qtbot, window, "3")
    type_line(qtbot, window, "TTTTT")
    entry = window.panel.entry
    QTest.keyClicks(entry, "J")
    first = window.panel.completion_model.suggestion(0)
    assert first is not None and first.line == "6 JJJJJ"
    QTest.keyClick(entry, Qt.Key.Key_Down)
    QTest.keyClick(entry, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.console.busy, timeout=5000)
    settle(qtbot, window)
    assert window.console.state["game"]["record"][-1] == "6 JJJJJ"
