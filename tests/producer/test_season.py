"""The producer's season side: episodes whose air date a contract does not cover are flagged on them;
a roster file is previewed (rows and errors) before anything is written; the season's delivery shows
the shortfalls in red with what to add, and exports XLSX and PDF; the window opens from the console."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor

from broadcast.producer import season as season_work
from broadcast.qt import theme
from broadcast.season.model import SeasonDB
from broadcast.sponsors.placements import load_placements
from tests.producer.asrun import EPISODES, season_log
from tests.producer.conftest import DEMO, settle


def _demo(w: Any, qtbot: Any) -> Any:
    folder = w.ws.draft.path.parent
    shutil.copytree(DEMO, folder, dirs_exist_ok=True)
    w.reload_file()
    settle(qtbot, w)
    assert w.ws.valid is not None
    return w


def _season(db: Path, days: list[str]) -> int:
    sid = season_work.create_season(db, "第一季")
    for _ in days:
        season_work.add_episode(db, sid)
    for n, day in enumerate(days, start=1):
        season_work.update_episode(db, sid, n, day)
    return sid


def _wait(qtbot: Any, w: Any, ready: Any) -> None:
    qtbot.waitUntil(lambda: (w.ws.drain(), ready())[1], timeout=60000)


def _red(item: Any) -> bool:
    return bool(item.foreground().color() == QColor(theme.DANGER))


def test_an_episode_outside_a_contract_is_flagged_on_it(producer: Any, qtbot: Any) -> None:
    w = _demo(producer, qtbot)
    # May: every contract runs; June: the May-only ones (九宫格 cells, 展示台, …) have ended
    _season(w.ws.db, ["2012-05-07", "2012-06-04"])
    w.season.reload()
    _wait(qtbot, w, lambda: w.season.episodes.rowCount() == 2)
    may, june = (w.season.episodes.item(r, 2) for r in range(2))
    assert may.text() == "✓ 全部覆盖" and not _red(may)
    assert june.text().startswith("⚠ ") and _red(june) and _red(w.season.episodes.item(1, 1))
    p = load_placements(w.ws.draft.path)
    ended = [s for s in p.slots if s.contract is not None and str(s.contract.end) == "2012-05-31"]
    assert ended and all(f"合同 {s.contract.start} 至 2012-05-31" in june.text() for s in ended)
    # the producer moves the second episode back into May: the flag goes
    w.season.episodes.item(1, 1).setText("2012-05-28")
    _wait(qtbot, w, lambda: w.season.episodes.item(1, 2).text() == "✓ 全部覆盖")
    with SeasonDB.open(w.ws.db) as sdb:
        assert [e["air_date"] for e in sdb.episodes(sdb.season()["id"])] == ["2012-05-07", "2012-05-28"]


def test_a_roster_is_previewed_before_anything_is_written(producer: Any, qtbot: Any, tmp_path: Path) -> None:
    w = producer
    sid = _season(w.ws.db, ["2012-05-07"])
    w.season.reload()
    _wait(qtbot, w, lambda: w.season.sid == sid)
    bad = tmp_path / "名单-有错.csv"
    bad.write_text("姓名,队伍,性别\n张立国,小当家便利店联盟队,男\n,沂河源矿泉水队,女\n", encoding="utf-8")
    w.season.import_roster(bad)
    _wait(qtbot, w, lambda: getattr(w.season, "dialog", None) is not None)
    d = w.season.dialog
    assert d.rows.rowCount() == 2 and d.rows.item(0, 1).text() == "张立国"
    assert d.errors.count() >= 1 and "姓名为空" in d.errors.item(0).text()
    assert _red(d.rows.item(1, 0)) and not _red(d.rows.item(0, 0))
    assert not d.import_button.isEnabled() and "整份名单都不会导入" in d.summary.text()
    d.reject()
    with SeasonDB.open(w.ws.db) as sdb:
        assert sdb.players(sid) == [] and sdb.teams(sid) == []
    good = tmp_path / "名单.csv"
    good.write_text(
        "姓名,队伍,性别,编号\n张立国,小当家便利店联盟队,男,A01\n李春燕,沂河源矿泉水队,女,B01\n",
        encoding="utf-8",
    )
    # a photo that is no picture: found by the preview (the importer's dry run), the rows still shown
    fake = tmp_path / "photo.jpg"
    fake.write_text("not a picture", encoding="utf-8")
    bad_photo = tmp_path / "名单-照片.csv"
    bad_photo.write_text("姓名,队伍,照片\n张立国,小当家便利店联盟队,photo.jpg\n", encoding="utf-8")
    w.season.dialog = None
    w.season.import_roster(bad_photo)
    _wait(qtbot, w, lambda: w.season.dialog is not None)
    d = w.season.dialog
    assert d.rows.rowCount() == 1 and not d.import_button.isEnabled()
    assert "照片 photo.jpg 不能用" in d.errors.item(0).text() and _red(d.rows.item(0, 0))
    d.reject()
    w.season.dialog = None
    w.season.import_roster(good)
    _wait(qtbot, w, lambda: w.season.dialog is not None)
    d = w.season.dialog
    assert d.rows.rowCount() == 2 and d.import_button.isEnabled() and not d.errors.isVisible()
    assert "新增 2 名" in d.summary.text() and "小当家便利店联盟队" in d.summary.text()
    with SeasonDB.open(w.ws.db) as sdb:
        assert sdb.players(sid) == []  # still nothing written: only the preview
    d.import_button.click()
    _wait(qtbot, w, lambda: w.season.players.rowCount() == 2)
    assert {w.season.players.item(r, 2).text() for r in range(2)} == {"张立国", "李春燕"}


def test_the_season_delivery_shows_the_shortfalls_and_exports(
    producer: Any, qtbot: Any, tmp_path: Path
) -> None:
    w = _demo(producer, qtbot)
    _season(w.ws.db, [day for _e, day, _f in EPISODES] + ["2012-05-14", "2012-05-16"])
    season_log(w.ws.db, load_placements(w.ws.draft.path))
    w.tabs.setCurrentWidget(w.delivery)  # shown: read at once
    _wait(qtbot, w, lambda: w.delivery.result is not None)
    t = w.delivery.table
    rows = [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]
    red = [row for r, row in enumerate(rows) if _red(t.item(r, 0))]
    assert red, rows
    assert all(row[5] and row[6] for row in red)  # what is owed, and what to add in coming episodes
    assert any("小当家" in row[0] and "口播" in row[2] for row in red), red
    assert not any(_red(t.item(r, 0)) for r in range(t.rowCount()) if not rows[r][5])
    assert "已播 3 期，待播 2 期" in w.delivery.summary.text()
    out = tmp_path / "export"
    out.mkdir()
    w.delivery.export(out)
    _wait(qtbot, w, lambda: bool(w.delivery.files))
    kinds = {p.suffix for p in w.delivery.files}
    assert {".xlsx", ".pdf"} <= kinds
    for p in w.delivery.files:
        assert p.is_file() and p.stat().st_size > 1000
    from openpyxl import load_workbook

    xlsx = next(p for p in w.delivery.files if p.suffix == ".xlsx")
    cells = [str(c.value) for ws in load_workbook(xlsx) for row in ws.iter_rows() for c in row if c.value]
    assert any("小当家" in c for c in cells)
    assert next(p for p in w.delivery.files if p.suffix == ".pdf").read_bytes().startswith(b"%PDF")


def test_the_producer_opens_from_the_console_on_its_database(tmp_path: Path, qtbot: Any) -> None:
    from tests.console.conftest import console_window, open_store

    store = open_store(tmp_path / "studio.sqlite")
    cw = console_window(store, tmp_path, qtbot)
    try:
        titles = [a.text() for a in cw.menuBar().actions()]
        assert "制片(&P)" in titles
        action = cw.hotkeys.get("producer.open").action
        assert action.shortcut().toString() == "Ctrl+Shift+P"
        from broadcast.producer.app import open_from_console

        pw = open_from_console(cw, web=False)
        qtbot.waitExposed(pw)
        assert pw.isWindow() and pw.parent() is cw
        assert pw.ws.db.resolve() == (tmp_path / "studio.sqlite").resolve()
        assert pw.ws.draft.path == tmp_path / "studio-assets" / "sponsors" / "placements.yaml"
        assert open_from_console(cw, web=False) is pw  # a second time: the same window, in front
        pw.close()
        qtbot.waitUntil(lambda: pw.ws.closed, timeout=10000)
        again = open_from_console(cw, web=False)
        assert again is not pw and not again.ws.closed
        again.close()
    finally:
        cw.console.bridge.close()
        store.close()


def test_the_tabs_answer_ctrl_1_to_4(producer: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    w = producer
    for i in (3, 1, 2, 0):
        qtbot.keyClick(w, Qt.Key(Qt.Key.Key_1 + i), Qt.KeyboardModifier.ControlModifier)
        assert w.tabs.currentIndex() == i


def test_chinese_first_and_english_on_demand(producer: Any, qtbot: Any) -> None:
    w = _demo(producer, qtbot)
    tabs = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    assert tabs == ["赞助与合同", "广告位与预览", "选手与赛季", "赛季播出", "海选榜"]
    w.set_language("en")
    try:
        assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == [
            "Sponsors and contracts",
            "Slots and preview",
            "Roster and season",
            "Season delivery",
            "Qualifier board",
        ]
        assert w.view_menu.title() == "&View" and w.save_action.text() == "Save placements (Ctrl+S)"
        assert w.windowTitle().startswith("Producer's workspace")
        assert w.settings.value("language") == "en"
        w.open_slot(("title",))
        labels = {lab.text() for lab in w.slots.form.findChildren(type(w.delivery.summary))}
        assert {"Contract starts", "Contract ends", "Brand film"} <= labels, labels
        assert w.delivery.table.horizontalHeaderItem(6).text() == "To add in coming episodes"
        # the console's strings keep their own words beside the producer's catalog
        from PySide6.QtCore import QCoreApplication

        assert QCoreApplication.translate("MainWindow", "比赛(&M)") == "&Match"
    finally:
        w.set_language("zh_CN")
    assert w.tabs.tabText(0) == "赞助与合同"
