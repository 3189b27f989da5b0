"""A season match's lineup corrected mid-match from the console (编辑 ▸ 更正比赛设置… on a season match),
with the keyboard alone: the season re-checks it (a player in two seats stays open with G1.1), the game
the season holds moves to who played it, the table's names follow, Ctrl+Z undoes it with a reason."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPainter
from PySide6.QtTest import QTest

from broadcast.season.model import SeasonDB
from tests.qtaudit import audit

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


def _wait_dialog(qtbot: Any, window: Any, cls: str) -> Any:
    qtbot.waitUntil(
        lambda: (
            window.dialog is not None and type(window.dialog).__name__ == cls and window.dialog.isVisible()
        ),
        timeout=10000,
    )
    return window.dialog


def _season_match(window: Any, qtbot: Any, db: Path) -> tuple[int, dict[int, int]]:
    """A season match started with seats 1 and 3 keyed the wrong way round, its game 1 in the season;
    returns the match and the right lineup."""
    from broadcast.season.live import season_choices

    season = season_choices(db)["seasons"][0]
    a, b = season["teams"][0], season["teams"][1]
    right = {
        s: t["players"][i]["id"] for t, seats in ((a, (1, 3, 5)), (b, (2, 4, 6))) for i, s in enumerate(seats)
    }
    wrong = {**right, 1: right[3], 3: right[1]}
    done: list[Any] = []
    payload = {"season": season["name"], "odd": a["id"], "even": b["id"], "lineup": wrong}
    window.console.start_match({**payload, "episode": max(season["episodes"]) + 1}, on_done=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    mid = int(done[0])
    store = window.console.bridge.store
    names = {s["seat"]: s["name"] for s in store.state["table"]["seats"]}
    from tests.season.conftest import selfplay

    with SeasonDB.open(db) as sdb:
        gid = sdb.record_game(mid, selfplay("console-lineup", names)[0])
    window.console.act("season.game_saved", {"game_no": 1, "game_id": gid})
    window.console.bridge.drain()
    qtbot.waitUntil(lambda: bool(window.console.state["match"]["season"]["saved"]))
    return mid, right


def _shot(window: Any, dialog: Any, name: str) -> None:
    """The window at 1366×768 with the dialog where it opens (over its middle)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pix = window.grab()
    over = dialog.grab()
    p = QPainter(pix)
    p.drawPixmap(QPoint((pix.width() - over.width()) // 2, (pix.height() - over.height()) // 2), over)
    p.end()
    pix.save(str(ARTIFACTS / name))


def _refused_twice_in_one_seat(qtbot: Any, window: Any, right: dict[int, int], shot: str) -> Any:
    """Open the correction, give seat 3's player seat 1 too (keys only): the season refuses (G1.1), the
    dialog stays open with what was chosen, every text whole; the screenshot."""
    window.dialog = None
    window.hotkeys.get("edit.setup").action.trigger()
    d = _wait_dialog(qtbot, window, "LineupDialog")
    assert not d.swap.isEnabled()  # game 1 is in the season, counted for the sides
    assert d.from_game.maximum() == 2 and d.from_game.value() == 1
    assert d.seats[1].hasFocus()
    QTest.keyClick(d.seats[1], Qt.Key.Key_Up)  # the odd team's first player: seat 3's too
    QTest.keyClick(d.seats[1], Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: d.buttons.isEnabled() and "[G1.1]" in d.error.text(), timeout=10000)
    assert d.isVisible() and int(d.seats[1].currentData()) == right[1]  # nothing chosen is lost
    qtbot.wait(20)
    assert audit(d) == []
    _shot(window, d, shot)
    return d


def test_a_season_matchs_lineup_is_corrected_from_the_keyboard_and_undone_by_ctrl_z(
    demo_window: Any, qtbot: Any
) -> None:
    window = demo_window
    window.resize(1366, 768)
    db = Path(window.console.db_path)
    mid, right = _season_match(window, qtbot, db)
    wrong_names = [s["name"] for s in window.console.state["table"]["seats"]]
    d = _refused_twice_in_one_seat(qtbot, window, right, "lineup-correction-zh-1366x768.png")
    assert "同一选手不能坐两个座位" in d.error.text()
    for _ in range(2):
        QTest.keyClick(d.focusWidget(), Qt.Key.Key_Tab)
    assert d.seats[3].hasFocus()
    QTest.keyClick(d.seats[3], Qt.Key.Key_Down)
    QTest.keyClick(d.seats[3], Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not d.isVisible(), timeout=10000)
    window.console.bridge.drain()
    qtbot.waitUntil(lambda: window.console.state["game"]["history"] != [])
    names = [s["name"] for s in window.console.state["table"]["seats"]]
    assert names == [wrong_names[2], wrong_names[1], wrong_names[0], *wrong_names[3:]]
    with SeasonDB.open(db) as sdb:
        assert {s: int(r["id"]) for s, r in sdb.lineup(mid).items()} == right
        seat1 = sdb.conn.execute(
            "SELECT s.player_id FROM season_game_seats s JOIN season_games g ON g.id=s.game_id "
            "WHERE g.match_id=? AND s.seat=1",
            (mid,),
        ).fetchone()[0]
        assert int(seat1) == right[1]  # game 1 credited to who played it
    window.dialog = None
    QTest.keyClick(window.panel.entry, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    u = _wait_dialog(qtbot, window, "ReasonDialog")
    QTest.keyClick(u.reason, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not u.isVisible(), timeout=10000)
    window.console.bridge.drain()
    qtbot.waitUntil(lambda: [s["name"] for s in window.console.state["table"]["seats"]] == wrong_names)
    last = window.console.state["game"]["history"][-1]
    assert last["new_line"] == "undo" and last["reason"] == "撤销更正：更正错了"
    # the English console: the same dialog in English, the season's refusal in English
    window.set_language("en")
    d = _refused_twice_in_one_seat(qtbot, window, right, "lineup-correction-en-1366x768.png")
    texts = [d.windowTitle(), d.error.text(), d.swap.text(), d.from_game.text(), d.reason.currentText()]
    texts += [d.labels[s].text().split("(")[0] for s in range(1, 7)]  # the team's name is show data
    assert not [t for t in texts if re.search(r"[\u4e00-\u9fff]", t)], texts
    QTest.keyClick(d.seats[1], Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not d.isVisible())
    window.set_language("zh_CN")  # the program's language is the next test's too
