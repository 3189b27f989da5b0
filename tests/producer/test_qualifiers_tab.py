"""The producer's 海选榜 tab as the producer sees it: the board's first N with their totals, every text
inside its cell at the longest nickname the qualifiers accept, the on-air ten rows visible without
scrolling, in Chinese and in English; the first N invited into the season (a name too long for the
season refused, naming the player, then renamed in the name column), and an invited player put into a
team from the board (the Season tab shows it)."""

from __future__ import annotations

import re
from array import array
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QMessageBox, QStyle, QStyleOptionComboBox, QTableWidget

from broadcast.qualifiers.check import PLAYER_NAME_MAX, STATS, Checked
from broadcast.qualifiers.store import QualifierDB
from broadcast.season.model import SeasonDB
from tests.producer.conftest import settle

HAN = re.compile(r"[\u4e00-\u9fff]")
ART = Path(__file__).resolve().parents[2] / "test-artifacts" / "producer"
LONGEST = "够" * PLAYER_NAME_MAX  # the longest nickname the qualifiers take, all wide characters
PLAYERS = 30


def _fill(db: Path) -> None:
    """30 qualifier players (the 1st with the longest nickname; the 3rd's name too long for a season)
    and a season with two teams, in the project's database as ``qualifiers import`` leaves them."""
    with QualifierDB.open(db) as qdb:
        imp = qdb.start_import(["test"])
        batches = []
        for i in range(PLAYERS):
            name = LONGEST if i == 0 else ("十一个字的网名超过上限" if i == 2 else f"选手{i + 1:02d}")
            stats = dict.fromkeys(STATS, 0) | {"games": 20, "points": 200 - 3 * i, "place1": 10 - i // 3}
            pid = f"QL{100000 + i:06d}-2012-SPRING"  # a long platform id (20 characters)
            batches.append(
                Checked(counted=[pid.encode()], ids=[pid], names=[name], stats=array("q", stats.values()))
            )
        qdb.commit(imp, batches)
        qdb.set_setting("title", "2012春季网络海选")
    with SeasonDB.open(db) as sdb:
        sid = sdb.create_season("2012春季")
        sdb.add_team(sid, "红队")
        sdb.add_team(sid, "蓝队")


def _shown(w: Any, qtbot: Any) -> Any:
    QTest.keyClick(w, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)  # the fifth tab, from the keyboard
    assert w.tabs.currentWidget() is w.qualifiers
    w.qualifiers.refresh()
    settle(qtbot, w)
    return w.qualifiers


def _cut_choices(box: QComboBox) -> list[str]:
    """The choices of ``box`` wider than the field that shows the chosen one (drawn cut short)."""
    opt = QStyleOptionComboBox()
    box.initStyleOption(opt)
    field = box.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    fm = box.fontMetrics()
    texts = [box.itemText(i) for i in range(box.count())]
    return [
        f"{t!r}: {fm.horizontalAdvance(t)} px in {field.width()}"
        for t in texts
        if fm.horizontalAdvance(t) > field.width()
    ]


def _overflows(table: QTableWidget) -> list[str]:
    """Every header or cell whose text (or chooser) is wider than its column, and the columns the
    table cannot show without scrolling sideways."""
    out = []
    # the view draws a cell's text inside (focus frame margin + 1) on each side, and elides what is wider
    pad = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    fm = table.fontMetrics()
    hfm = table.horizontalHeader().fontMetrics()
    for c in range(table.columnCount()):
        width = table.columnWidth(c)
        head = table.horizontalHeaderItem(c).text()
        if hfm.horizontalAdvance(head) + pad > width:
            out.append(f"header {head!r}: {hfm.horizontalAdvance(head)} px in {width}")
        for r in range(table.rowCount()):
            box = table.cellWidget(r, c)
            if isinstance(box, QComboBox):
                out += [f"row {r}: {cut}" for cut in _cut_choices(box)]
                continue
            it = table.item(r, c)
            if it is not None and fm.horizontalAdvance(it.text()) + pad > width:
                out.append(f"row {r} {it.text()!r}: {fm.horizontalAdvance(it.text())} px in {width}")
    if table.horizontalScrollBar().maximum() > 0:
        out.append(f"the table scrolls sideways by {table.horizontalScrollBar().maximum()} px")
    return out


def _look(w: Any, tab: Any) -> None:
    """What the producer sees: the summary and the button whole, every cell whole, ten rows visible."""
    t = tab.table
    assert _overflows(t) == []
    for label in (tab.summary, tab.note):  # word-wrapped: every line shown
        assert label.heightForWidth(label.width()) <= label.height(), label.text()
    assert _cut_choices(tab.seasons) == []
    b = tab.invite_button
    assert b.fontMetrics().horizontalAdvance(b.text()) < b.width(), b.text()
    assert t.rowCount() >= 10
    bottom = t.rowViewportPosition(9) + t.rowHeight(9)
    assert 0 <= t.rowViewportPosition(0) and bottom <= t.viewport().height(), "the on-air ten do not all show"
    assert w.width() <= 1600 and w.height() <= 960


@pytest.mark.long
def test_the_board_fits_and_the_first_n_go_into_the_season_and_its_teams(
    producer: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = producer
    _fill(w.ws.db)
    tab = _shown(w, qtbot)
    t = tab.table
    assert "2012春季网络海选：30 名选手，计入 30 局，拒绝 0 局" in tab.summary.text()
    assert "按积分、头科、大落（少者先）排名" in tab.summary.text()
    assert t.rowCount() == 24 and tab.top.value() == 24
    assert [t.item(r, 1).text() for r in (0, 1)] == [LONGEST, "选手02"]
    assert t.item(0, 0).text() == "1" and t.item(0, 4).text() == "200" and t.item(0, 7).text() == "50.0%"
    assert t.item(0, 10).text() == "未邀请"
    assert tab.invite_button.text() == "邀请前 24 名进入赛季…"
    _look(w, tab)
    ART.mkdir(parents=True, exist_ok=True)
    w.grab().save(str(ART / "qualifiers.png"))

    # the first 24 into the season: refused whole, naming the players whose names a season cannot take
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warned.append(text))
    tab.invite()
    settle(qtbot, w)
    assert (
        len(warned) == 1
        and "第1名 QL100000-2012-SPRING" in warned[0]
        and "第3名 QL100002-2012-SPRING" in warned[0]
    )
    assert "赛季选手姓名最多 10 个字" in warned[0]
    with SeasonDB.open(w.ws.db) as sdb:
        assert sdb.players(int(sdb.season()["id"])) == []  # all or nothing
    # renamed in the name column (as a producer types), then invited
    for row, name in ((0, "够级大王"), (2, "十一")):
        t.item(row, 1).setText(name)
    tab.invite()
    settle(qtbot, w)
    with SeasonDB.open(w.ws.db) as sdb:
        sid = int(sdb.season()["id"])
        players = {str(p["code"]): p for p in sdb.players(sid)}
    assert len(players) == 24 and players["QL100000-2012-SPRING"]["name"] == "够级大王"
    assert players["QL100002-2012-SPRING"]["name"] == "十一"
    assert "网络海选第1名（200分，20局）" == players["QL100000-2012-SPRING"]["note"]

    # an invited player into a team, from the board
    box = t.cellWidget(0, 10)
    assert isinstance(box, QComboBox) and box.currentText() == "（未分队）"
    box.setCurrentIndex(box.findText("蓝队"))
    settle(qtbot, w)
    with SeasonDB.open(w.ws.db) as sdb:
        team = {int(x["id"]): str(x["name"]) for x in sdb.teams(sid)}
        p = next(p for p in sdb.players(sid) if p["code"] == "QL100000-2012-SPRING")
        assert team[int(p["team_id"])] == "蓝队"
    assert t.cellWidget(0, 10).currentText() == "蓝队"
    season_players = w.season.players
    rows = {
        season_players.item(r, 2).text(): season_players.item(r, 3).text()
        for r in range(season_players.rowCount())
    }
    assert rows["够级大王"] == "蓝队"  # the Season tab read the season again
    _look(w, tab)
    w.grab().save(str(ART / "qualifiers-invited.png"))

    w.set_language("en")
    try:
        tab = _shown(w, qtbot)
        t = tab.table
        heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
        assert not any(HAN.search(h) for h in heads), heads
        assert heads[:3] == ["Rank", "Nickname", "Platform ID"]
        summary = tab.summary.text().replace("2012春季网络海选", "")
        assert not HAN.search(summary) and "30 players" in summary, summary
        assert t.cellWidget(0, 10).currentText() == "蓝队"  # a team's name is data, not UI
        assert t.cellWidget(1, 10).currentText() == "(no team)"  # the UI's own word, in English
        _look(w, tab)
        w.grab().save(str(ART / "qualifiers-en.png"))
    finally:
        w.set_language("zh_CN")
