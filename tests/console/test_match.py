"""A whole match run from the console: a new match from the season (teams and seats picked in the
dialog), three games played (each one's last decisions keyed in), each saved to the season with Enter,
the extra game or the lots if the totals tie (G11.2), the match made final; the season's totals and the
英雄榜 on air follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from broadcast.season.model import SeasonDB
from tests.console.conftest import selfplay, settle, type_line, typed

TYPED = 12  # each game's last decisions typed key by key (a whole typed game: test_console.py)


def play_game(qtbot: Any, w: Any, game: Any) -> None:
    """A game as the operator brings it to its end: the 上班 seat typed, the decisions up to the last
    ``TYPED`` put into the store through the console as the entry line sends them (every one taken), the
    last ``TYPED`` typed key by key, each taken without a word under the entry line. (Three whole games
    typed key by key cost ~20 s of CPU, almost all of it repainting the window after every decision: the
    match's flow is what this test is about.)"""
    type_line(qtbot, w, str(game.leader))
    head, tail = game.moves[:-TYPED], game.moves[-TYPED:]
    taken: list[Any] = []
    refused: list[Any] = []
    for a in head:
        w.console.act("game.play", {"line": str(a)}, on_done=taken.append, on_refused=refused.append)
    qtbot.waitUntil(lambda: len(taken) + len(refused) == len(head), timeout=60000)
    assert not refused, refused
    settle(qtbot, w)
    for a in tail:
        type_line(qtbot, w, typed(str(a), w.console.game.pending_seat))
        assert w.panel.verdict.text() == "", f"{a}: {w.panel.verdict.text()}"


@pytest.mark.long
@pytest.mark.timeout(900)  # on a shared 2-core machine
def test_a_three_game_match_is_saved_to_the_season_and_the_leaderboard_follows(
    demo_window: Any, qtbot: Any
) -> None:
    w = demo_window
    db = Path(w.console.db_path)
    entry = w.panel.entry
    QTest.keyClick(entry, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(
        lambda: type(w.dialog).__name__ == "NewMatchDialog" and w.dialog.isVisible(), timeout=10000
    )
    d = w.dialog
    lineup = d.lineup()
    d.label.setText("第一届够级大明星表演赛")  # longer than show.round's maximum (8): refused at the field
    QTest.keyClick(d, Qt.Key.Key_Return)
    assert d.isVisible() and "show.round" in d.error.text() and "最多 8 个字" in d.error.text()
    d.label.setText("")
    QTest.keyClick(d, Qt.Key.Key_Return)  # the defaults: the season's first two teams, players in order
    qtbot.waitUntil(lambda: w.console.state["match"]["season"] is not None, timeout=10000)
    link = w.console.state["match"]["season"]
    with SeasonDB.open(db) as sdb:
        before = {
            p: sdb.conn.execute("SELECT games FROM season_player_totals WHERE player_id=?", (p,)).fetchone()[
                0
            ]
            for p in lineup.values()
        }
        names = {s: r["name"] for s, r in sdb.lineup(link["match_id"]).items()}
    assert [s["name"] for s in w.console.state["table"]["seats"]] == [names[i] for i in range(1, 7)]
    boards = 0
    seeds = iter(range(101, 120))
    while w.console.mode().name != "none":
        mode = w.console.mode().name
        if mode == "leader":
            play_game(qtbot, w, selfplay(next(seeds)))
        else:  # save / lots / finish: Enter on the empty entry line
            seq = w.console.state["leaderboard"]
            n = w.console.state["table"]["game_no"]
            type_line(qtbot, w, "")
            settle(qtbot, w)
            boards += w.console.state["leaderboard"] is not seq
            if mode == "save":  # the operator is told, on the table's side, which game of which episode
                text = w.panel.banner.text()
                assert w.panel.banner.isVisible(), "a save said nothing"
                assert "已存入赛季：第" in text and f"期 第{n}局" in text, text
        assert w.panel.verdict.text() == "", w.panel.verdict.text()
    settle(qtbot, w)
    state = w.console.state
    saved = state["match"]["season"]["saved"]
    assert len(saved) >= 3 and state["match"]["season"]["final"]
    with SeasonDB.open(db) as sdb:
        m = sdb.match(link["match_id"])
        assert m["status"] == "final" and len(sdb.games(link["match_id"])) == len(saved)
        winner = "odd" if m["winner"] == link["team_ids"]["odd"] else "even"
        assert winner == state["match"]["result"]["winner"]
        after = {
            p: sdb.conn.execute("SELECT games FROM season_player_totals WHERE player_id=?", (p,)).fetchone()[
                0
            ]
            for p in lineup.values()
        }
    assert all(after[p] == before[p] + len(saved) for p in lineup.values())
    assert boards == len(saved) + 1  # the 英雄榜 pushed after every save and the final
    assert "比赛已结束" in w.panel.prompt.text()
    # Ctrl+Z, Ctrl+Shift+Z and Ctrl+E on the saved last game: refused at once under the entry line with
    # the clause, no dialog asking a reason for a change that cannot be made
    seq = w.console.bridge.store.seq
    for key, mods in (
        (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier),
        (Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier),
    ):
        w.panel.verdict.setText("")
        QTest.keyClick(entry, key, mods)
        qtbot.waitUntil(lambda: "已存入赛季" in w.panel.verdict.text())
        assert w.dialog is None or not w.dialog.isVisible(), type(w.dialog).__name__
        assert "season" in w.panel.verdict.text()
    assert w.console.bridge.store.seq == seq


def test_the_new_match_dialog_shows_the_seasons_title_and_the_teams_whole(
    demo_window: Any, qtbot: Any
) -> None:
    """Ctrl+N on the demo season: the season's title 《够级大明星》第一季 and each team's name read whole in
    their boxes (the style's padding is not in a combo box's size hint: the last character was cut)."""
    from tests.qtaudit import audit

    w = demo_window
    QTest.keyClick(w.panel.entry, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(
        lambda: type(w.dialog).__name__ == "NewMatchDialog" and w.dialog.isVisible(), timeout=10000
    )
    d = w.dialog
    try:
        assert "第一季" in d.season.currentText()
        found = audit(d)
        assert not found, "\n".join(map(str, found))
    finally:
        d.reject()
