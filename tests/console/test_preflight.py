"""The console's pre-show check (issue 19): 节目流程 ▸ 开录前检查… by its key shows the lines green or red
with what to do, plain text, inside a 1366×768 screen, in both languages, with the keyboard alone; the
episode's first GO runs it — red lines ask, 仍然开始录制 journals ``cues.preflight`` and the as-run log
records it as the operator's event (never as aired), 取消 changes nothing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from broadcast import preflight as P
from broadcast.clock import ScriptClock, air_start
from broadcast.console import preflight as CP
from broadcast.sponsors.asrun import PREFLIGHT_OVERRIDE, AsRunLog
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.sponsors.report import KIND_ZH, describe
from broadcast.studio import open_store
from tests.console.conftest import NAMES, TEAMS, show_active
from tests.qtaudit import audit

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"
ARTIFACTS = ROOT / "test-artifacts" / "console"
EPISODE = "第1期"
RED = [
    P.Line(
        "assets",
        P.FAIL,
        "冠名 宣传片 文件不存在：films/gone_15s.mp4",
        "the title's film: no such file: films/gone_15s.mp4",
        "检查文件名（区分大小写）",
        "check the file name (case matters)",
        "/srv/show/sponsor_assets/placements.yaml:55",
    ),
    P.Line("disk", P.OK, "磁盘空间足够：剩余 50.0 GB", "disk space enough: 50.0 GB free", where="/srv/show"),
    P.Line(
        "seats", P.WARN, "这场比赛没有关联赛季", "this match is not linked to the season", "Ctrl+N", "Ctrl+N"
    ),
]


@pytest.fixture
def studio(tmp_path: Path, qtbot: Any) -> Iterator[SimpleNamespace]:
    from broadcast.console.app import build

    path = tmp_path / "studio.sqlite"
    clock = ScriptClock(air_start("2012-05-07"))
    store = open_store(path, clock=clock)
    p = load_placements(DEMO, air_date=date(2012, 5, 7))
    log = AsRunLog.open(path)
    rec = AsRunRecorder(store, log, clock=clock)
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": EPISODE, "air_date": "2012-05-07"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    w = build(
        store,
        QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat),
        lang="zh_CN",
        placements=p,
        monitors=False,
        preflight_gate=True,
    )
    qtbot.addWidget(w)
    w.resize(1366, 768)
    show_active(qtbot, w)
    calls: list[Mapping[str, Any]] = []
    answer: list[list[P.Line]] = [RED]

    def check(state: Mapping[str, Any]) -> list[P.Line]:
        calls.append(state)
        return answer[0]

    w.preflight.check = check
    ns = SimpleNamespace(window=w, store=store, log=log, rec=rec, calls=calls, answer=answer, path=path)
    yield ns
    w.console.bridge.close()
    rec.close()
    log.close()
    store.close()


def _settle(s: SimpleNamespace, qtbot: Any) -> None:
    s.window.console.bridge.drain()
    qtbot.wait(20)
    s.window.console.bridge.drain()


def _dialog(s: SimpleNamespace, qtbot: Any) -> CP.PreflightDialog:
    qtbot.waitUntil(
        lambda: isinstance(s.window.dialog, CP.PreflightDialog) and bool(s.window.dialog.lines), timeout=20000
    )
    d = s.window.dialog
    assert isinstance(d, CP.PreflightDialog)
    return d


def _texts(d: CP.PreflightDialog) -> list[str]:
    return [lab.text() for lab in d.body.findChildren(QLabel) if lab.objectName().startswith("preflight_")]


def test_the_menu_item_shows_the_lines_red_and_green_fitting_a_laptop(
    studio: SimpleNamespace, qtbot: Any
) -> None:
    s = studio
    QTest.keyClick(
        s.window.panel.entry,
        Qt.Key.Key_R,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    d = _dialog(s, qtbot)
    texts = _texts(d)
    assert (
        texts[0] == "冠名 宣传片 文件不存在：films/gone_15s.mp4——检查文件名（区分大小写）\nplacements.yaml:55"
    )
    marks = [lab for lab in d.body.findChildren(QLabel) if lab.objectName().startswith("preflightMark_")]
    assert [m.text() for m in marks] == ["✘", "✔", "!"]
    assert all(
        lab.textFormat() == Qt.TextFormat.PlainText
        for lab in d.body.findChildren(QLabel)
        if lab.objectName().startswith("preflight_")
    )
    assert d.summary.text() == "1 项未通过：按每一行说的处理后按 F5 重新检查"
    qtbot.wait(50)
    labels = [lab for lab in d.body.findChildren(QLabel) if lab.objectName().startswith("preflight")]
    assert len(labels) == 6 and all(
        lab.isVisible() and lab.height() >= lab.fontMetrics().height() for lab in labels
    )
    screen = QApplication.primaryScreen().availableGeometry()
    assert d.width() <= 1366 and d.height() <= min(768, screen.height())
    assert audit(d) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    d.grab().save(str(ARTIFACTS / "preflight-1366x768.png"))
    # F5 checks again (a fixed line goes green); Esc closes, the keys back on the entry line
    s.answer[0] = [P.Line("assets", P.OK, "节目流程的素材齐全", "the rundown's assets are all there")]
    QTest.keyClick(d, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: d.summary.text() == "全部通过：可以开始录制", timeout=5000)
    assert len(s.calls) == 2 and s.calls[-1]["show"]["episode"] == EPISODE
    QTest.keyClick(d, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not d.isVisible(), timeout=2000)


def test_the_dialog_in_english(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    s.window.set_language("en")
    try:
        s.window.preflight.open()
        d = _dialog(s, qtbot)
        qtbot.wait(50)
        assert (
            _texts(d)[0]
            == "the title's film: no such file: films/gone_15s.mp4 — check the file name (case matters)"
            "\nplacements.yaml:55"
        )
        assert d.windowTitle() == "Pre-show check" and d.summary.text().startswith("1 red:")
        assert {b.text() for b in d.buttons.buttons()} == {"Check again F5", "Close"}
        assert audit(d) == []
        d.grab().save(str(ARTIFACTS / "preflight-1366x768-en.png"))
        d.reject()
    finally:
        s.window.set_language("zh_CN")


def _go(s: SimpleNamespace, qtbot: Any) -> None:
    s.window.activateWindow()  # back on the console, as the operator's hand is: F9 is the window's key
    qtbot.waitUntil(s.window.isActiveWindow, timeout=5000)
    QTest.keyClick(s.window.panel.entry, Qt.Key.Key_F9)
    _settle(s, qtbot)


def _recorded_over_red(s: SimpleNamespace) -> list[Any]:
    """The first cue went, the confirmation holds the red lines, the as-run log has one operator's row."""
    cq = s.store.state["cues"]
    assert cq["log"]["corner_bug_on"]["status"] in ("running", "done")
    assert cq["preflight"]["red"] == [RED[0].text("zh_CN")] and cq["preflight"]["red_en"] == [
        RED[0].text("en")
    ]
    s.rec.flush(5.0)
    rows = [e for e in s.log.events(EPISODE) if e.kind == PREFLIGHT_OVERRIDE]
    assert len(rows) == 1 and rows[0].source == "operator"
    return rows


def test_declining_to_record_over_red_lines_changes_nothing(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    seq = s.store.seq
    _go(s, qtbot)
    d = _dialog(s, qtbot)
    assert d.confirm and d.go.text() == "仍然开始录制（1 项未通过）" and d.cancel.isDefault()
    assert d.focusWidget() is d.cancel or d.cancel.hasFocus()
    QTest.keyClick(d.focusWidget(), Qt.Key.Key_Return)  # Enter where the focus opens: 取消
    qtbot.waitUntil(lambda: not d.isVisible(), timeout=2000)
    _settle(s, qtbot)
    assert (
        s.store.seq == seq
        and s.store.state["cues"]["log"] == {}
        and s.store.state["cues"]["preflight"] is None
    )
    s.rec.flush(5.0)
    assert not [e for e in s.log.events(EPISODE) if e.kind == PREFLIGHT_OVERRIDE]


def test_recording_over_red_lines_asks_and_the_as_run_records_it(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    _go(s, qtbot)
    d = _dialog(s, qtbot)
    qtbot.wait(50)
    assert audit(d) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    d.grab().save(str(ARTIFACTS / "preflight-confirm-1366x768.png"))
    # the keyboard alone: Shift+Tab from 取消 to it, Enter (Enter did nothing on it: a button that was
    # not an auto-default one, the dialog's default 取消 not pressed either)
    QTest.keyClick(d.focusWidget(), Qt.Key.Key_Backtab)
    assert d.go.hasFocus(), d.focusWidget()
    QTest.keyClick(d.go, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(s.store.state["cues"]["log"]), timeout=5000)
    rows = _recorded_over_red(s)
    assert rows[0].subject == "preflight"
    assert rows[0].detail["red"] == [RED[0].text("zh_CN")]
    # an operator's event: nothing of it counts as aired for any sponsor
    p = load_placements(DEMO, air_date=date(2012, 5, 7))
    x = compute(p, EPISODE, s.log.events(EPISODE))
    evidence = {i for sp in x.sponsors for i in sp.evidence} | {
        i for sp in x.sponsors for m in sp.metrics for i in m.evidence
    }
    assert rows[0].id not in evidence
    # the report lists it as the operator's, with its lines; the chain holds it like any row
    assert describe(rows[0], p) == "开录时有 1 项开录前检查未通过：" + RED[0].text("zh_CN")
    assert KIND_ZH[PREFLIGHT_OVERRIDE] == "开录前检查未通过，导播确认开录"
    assert s.log.verify().ok
    # recording has started: the next GO is not asked again
    calls = len(s.calls)
    _go(s, qtbot)
    assert len(s.calls) == calls and not (
        isinstance(s.window.dialog, CP.PreflightDialog)
        and s.window.dialog is not d
        and s.window.dialog.isVisible()
    )


def test_all_green_goes_at_once(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    s.answer[0] = [P.Line("disk", P.OK, "磁盘空间足够", "disk space enough")]
    _go(s, qtbot)
    qtbot.waitUntil(lambda: bool(s.store.state["cues"]["log"]), timeout=5000)
    assert s.store.state["cues"]["preflight"] is None and len(s.calls) == 1


def _api(srv: Any, body: Any = None) -> tuple[int, Any]:
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(
        srv.base_url + "/api/go",
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer t0ken"},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:  # the first GO runs the check (films probed)
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


@pytest.fixture
def api(studio: SimpleNamespace) -> Iterator[Any]:
    """The HTTP control API (a Stream Deck's) on the console's store, gated as the console's ``main``
    gates it (``server.before_go`` = the console's pre-show check)."""
    from broadcast.overlay import OverlayServer

    srv = OverlayServer(studio.store, port=0, token="t0ken")
    srv.before_go = studio.window.preflight.api_gate
    srv.start()
    yield srv
    srv.stop()


def test_a_first_go_from_the_api_over_red_lines_is_refused_naming_them_then_confirmed(
    studio: SimpleNamespace, api: Any, qtbot: Any
) -> None:
    """A Stream Deck's GO starting the recording is checked as the console's: over red lines it is refused
    (nothing changes) with the lines and how to confirm; ``confirm: true`` records the confirmation (the
    as-run log's operator row) and GOes; the next GO is not checked again."""
    s = studio
    seq = s.store.seq
    code, answer = _api(api)
    assert code == 400 and answer["ok"] is False and answer["error"]["param"] == "confirm"
    assert RED[0].text("en") in answer["error"]["en"] and "confirm=true" in answer["error"]["en"]
    assert RED[0].text("zh_CN") in answer["error"]["zh"] and "1 项未通过" in answer["error"]["zh"]
    assert s.store.seq == seq and s.store.state["cues"]["log"] == {} and len(s.calls) == 1
    code, answer = _api(api, {"confirm": True})
    assert code == 200 and answer["ok"], answer
    rows = _recorded_over_red(s)
    assert rows[0].detail["red"] == [RED[0].text("zh_CN")]
    calls = len(s.calls)
    code, answer = _api(api)  # recording under way: the next GO is not checked
    assert code == 200 and answer["ok"] and len(s.calls) == calls
    # the console's own GO afterwards is not asked either
    _go(s, qtbot)
    assert len(s.calls) == calls


def test_a_first_go_from_the_api_goes_at_once_when_all_green(studio: SimpleNamespace, api: Any) -> None:
    s = studio
    s.answer[0] = [P.Line("disk", P.OK, "磁盘空间足够", "disk space enough")]
    code, answer = _api(api)
    assert code == 200 and answer["ok"], answer
    assert s.store.state["cues"]["log"] and s.store.state["cues"]["preflight"] is None and len(s.calls) == 1
