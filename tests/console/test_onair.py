"""The console's on-air side offscreen (pytest-qt): TAKE/CUT/panic and every graphic by its key while the
entry line has focus; GO through a whole episode's rundown on a scripted clock; 口播 and shots keyed
into the exposure report; the 九宫格 draw refusing a drawn cell; lower thirds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from broadcast.clock import ScriptClock, air_start
from broadcast.console.hotkeys import native
from broadcast.console.keys import BY_ID
from broadcast.core import airlog as A
from broadcast.core.airlog import AirEvent
from broadcast.core.store import ActionRefused
from broadcast.show.actions import GRAPHICS
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.cuerunner import CueRunner
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.studio import open_store
from tests.console.conftest import NAMES, TEAMS, show_active

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"
EPISODE = "第1期"
F = Qt.Key
NONE, SHIFT, CTRL, ALT = (
    Qt.KeyboardModifier.NoModifier,
    Qt.KeyboardModifier.ShiftModifier,
    Qt.KeyboardModifier.ControlModifier,
    Qt.KeyboardModifier.AltModifier,
)


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
    store.dispatch("show.update", {"episode": EPISODE, "air_date": "2012-05-07", "host": "李主持"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    films: list[str] = []
    runner = CueRunner(store, clock=clock, threaded=False, player=lambda f, s: films.append(f))
    runner.start()
    w = build(
        store,
        QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat),
        lang="zh_CN",
        placements=p,
        runner=runner,
        monitors=False,
    )
    qtbot.addWidget(w)
    w.resize(1920, 1080)
    show_active(qtbot, w)
    ns = SimpleNamespace(
        window=w, store=store, clock=clock, runner=runner, log=log, rec=rec, p=p, films=films
    )
    settle(ns, qtbot)
    yield ns
    runner.stop()
    w.console.bridge.close()
    rec.close()
    log.close()
    store.close()


def settle(s: SimpleNamespace, qtbot: Any) -> None:
    s.window.console.bridge.drain()
    qtbot.wait(20)
    s.window.console.bridge.drain()
    qtbot.wait(5)


def key(s: SimpleNamespace, qtbot: Any, k: Qt.Key, mods: Qt.KeyboardModifier = NONE) -> None:
    """A key pressed while the entry line has focus (where the operator's hands are)."""
    QTest.keyClick(s.window.panel.entry, k, mods)
    settle(s, qtbot)


def bus(s: SimpleNamespace, name: str) -> dict[str, str]:
    return {g: e["item"] for g, e in s.store.state["graphics"][name].items() if e["on"]}


def test_take_cut_clear_and_panic_by_key_with_the_entry_focused(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    entry = s.window.panel.entry
    entry.setFocus()
    QTest.keyClicks(entry, "3 TT")  # half a decision typed: the keys must not disturb it
    key(s, qtbot, F.Key_F2)  # 比分 to preview
    key(s, qtbot, F.Key_F7)  # 角标 to preview
    assert bus(s, "preview").keys() == {"scoreboard", "corner_bug"} and bus(s, "program") == {}
    tiles = s.window.onair.graphics.tiles
    assert tiles["scoreboard"].take_will == "on" and tiles["corner_bug"].take_will == "on"
    key(s, qtbot, F.Key_F12)  # TAKE
    assert bus(s, "program").keys() == {"scoreboard", "corner_bug"}
    assert s.store.state["graphics"]["transition"] == "mix"
    assert not any(t.take_will for t in tiles.values())
    key(s, qtbot, F.Key_F5)  # 人名条 to preview, then CUT
    key(s, qtbot, F.Key_F11)
    assert "lower_third" in bus(s, "program") and s.store.state["graphics"]["transition"] == "cut"
    key(s, qtbot, F.Key_F2, SHIFT)  # clear the scoreboard: off program and preview
    assert "scoreboard" not in bus(s, "program") and "scoreboard" not in bus(s, "preview")
    key(s, qtbot, F.Key_F2, CTRL)  # 标版 (a Ctrl key) to preview
    assert "bumper" in bus(s, "preview")
    key(s, qtbot, F.Key_Escape, SHIFT)  # panic
    assert bus(s, "program") == {}
    assert not any(t.pgm for t in tiles.values())  # no stale on-air flag on any tile
    assert entry.text() == "3 TT" and entry.hasFocus()
    types = [
        r[0]
        for r in s.store.journal.connection.execute(
            "SELECT type FROM journal WHERE source='console' ORDER BY seq"
        ).fetchall()
    ]
    assert types[-8:] == [
        "graphic.set",
        "graphic.set",
        "bus.take",
        "graphic.set",
        "bus.cut",
        "graphic.clear",
        "graphic.set",
        "bus.panic",
    ]


def test_every_operation_shows_its_key_on_its_button_and_in_the_help_sheet(
    studio: SimpleNamespace, qtbot: Any
) -> None:
    w = studio.window
    g = w.onair.graphics
    assert g.take_button.text().endswith("F12") and g.cut_button.text().endswith("F11")
    assert native("Shift+Esc") in g.panic_button.text()
    assert set(g.tiles) == set(GRAPHICS)  # every graphic of the show state has a tile and a key
    for name, tile in g.tiles.items():
        # the key table's key; a graphic added later (the qualifier board) has a spare key
        assert tile.key and tile.key == BY_ID[f"graphics.preview.{name}"].keys[0]
    assert len({t.key for t in g.tiles.values()}) == len(g.tiles)
    cues = w.onair.cues
    assert "F9" in cues.go_button.text() and "Shift+F9" in cues.skip_button.text()
    sp = w.onair.sponsors
    assert "Ctrl+1" in sp.mention_buttons["xiaodangjia"].text()
    assert "Ctrl+Alt+1" in sp.shot_buttons["table"].text()
    assert "Alt+3" in sp.lower_buttons[3].text() and NAMES[2] in sp.lower_buttons[3].text()
    sheet = w.show_help()
    rows = sheet.rows()
    keys_on_sheet = {r[0] for r in rows}
    for h in w.hotkeys.all():
        if h.keys and h.id.startswith(("graphics.", "cues.", "sponsors.")):
            assert any(native(k) in ks for ks in keys_on_sheet for k in h.keys), h.id
    assert any("TAKE" in r[1] and r[0] == "F12" for r in rows)
    sheet.close()


@pytest.mark.timeout(300)  # a whole episode GO by GO on the console: ~4 s of CPU, more on a loaded machine
def test_go_through_a_whole_episode_on_a_scripted_clock(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    panel = s.window.onair.cues
    cues = s.store.state["cues"]["list"]
    assert [c["id"] for c in cues][:2] == ["corner_bug_on", "bumper_title"]
    assert s.window.panel.entry.text() == ""
    seen_bumpers: list[str] = []
    countdowns: list[str] = []
    gos = 0
    timed = None  # the timed cue running at the last step
    while True:
        cq = s.store.state["cues"]
        if cq["current"] is not None and cq["current"]["ends"] is not None:  # a timed cue runs out:
            # one second into it (its countdown read), then at its end (the seconds between would show
            # the same countdown, one less: ~120 steps of this test, each a redraw of the console)
            first = cq["current"]["id"] != timed
            timed = cq["current"]["id"]
            s.clock.advance(1.0 if first else float(cq["current"]["ends"]) - s.clock())
            panel.refresh()
            running = next(v for v in panel.model.views if v.status == "running")
            countdowns.append(panel.model._text(running, "length"))
            s.runner.tick()
            settle(s, qtbot)
            b = s.store.state["graphics"]["program"]["bumper"]
            if b["on"] and (not seen_bumpers or seen_bumpers[-1] != b["item"]):
                seen_bumpers.append(b["item"])
            continue
        if cq["next"] >= len(cq["list"]):
            break
        # the highlighted row is the state's next cue
        nxt = panel.next_view()
        assert nxt is not None and nxt.index == cq["next"]
        s.clock.advance(20 if nxt.cue["kind"] in ("segment", "draw") else 1)
        # GO: Space while the entry is empty, F9 otherwise (alternating, both are the operator's keys)
        key(s, qtbot, F.Key_Space if gos % 2 == 0 else F.Key_F9)
        gos += 1
        if nxt.cue["kind"] == "bumper" and nxt.cue["item"] not in seen_bumpers:
            seen_bumpers.append(nxt.cue["item"])
    log = s.store.state["cues"]["log"]
    statuses = {c["id"]: log[c["id"]]["status"] for c in cues}
    assert set(statuses.values()) == {"done"}, statuses
    # bumpers in the contract order, each started by the one before it
    assert seen_bumpers == [c["item"] for c in cues if c["kind"] == "bumper"]
    assert gos < len(cues)  # the opening's follow-on cues needed no key
    assert any(t.startswith("剩") for t in countdowns)
    # the 英雄榜 is followed by its 冠名 film, one GO later
    ids = [c["id"] for c in cues]
    assert ids.index("leaderboard_film") == ids.index("leaderboard") + 1
    assert log["leaderboard_film"]["go"] == log["leaderboard"]["end"]
    assert "luxin_15s" in s.films
    assert bus(s, "program") == {} and s.store.state["cues"]["current"] is None
    assert not panel.go_button.isEnabled()


def test_mentions_and_shots_keyed_are_the_reports_figures(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    # the report credits operator marks only while OBS is seen: the rows a connected bridge writes
    # (obs_up, the program scene) stand in for it here; tests/obs/test_console_asrun.py has the real one
    s.log.record(AirEvent(s.clock(), A.OBS_UP, "29.0.2", "obs", EPISODE, {"obs_version": "29.0.2"}))
    s.log.record(AirEvent(s.clock(), A.PROGRAM_SCENE, "够级·比赛", "obs", EPISODE))
    sp = s.window.onair.sponsors
    roster = sp._roster_ids
    assert roster[0] == "xiaodangjia"  # the sponsor owed most mentions gets Ctrl+1
    owed = {r["id"]: r["mentions_min"] for r in s.store.state["sponsors"]["roster"]}
    for _ in range(owed["xiaodangjia"] - 2):  # two short
        s.clock.advance(30)
        key(s, qtbot, F.Key_1, CTRL)
    n2 = roster.index("langya") + 1  # a sponsor owed no mention: counted, never short
    s.clock.advance(30)
    key(s, qtbot, getattr(F, f"Key_{n2}"), CTRL)
    for _ in range(3):  # the table top: 3 of 5
        s.clock.advance(30)
        key(s, qtbot, F.Key_1, CTRL | ALT)
    for _ in range(4):  # the board under the 九宫格: 4 of 4
        s.clock.advance(30)
        key(s, qtbot, F.Key_2, CTRL | ALT)
    assert f"{owed['xiaodangjia'] - 2}/{owed['xiaodangjia']}" in sp.mention_buttons["xiaodangjia"].text()
    assert "3/5" in sp.shot_buttons["table"].text() and "4/4" in sp.shot_buttons["jiugongge_board"].text()
    s.clock.advance(30)
    s.rec.end_episode()
    s.rec.flush()
    x = compute(s.p, EPISODE, s.log.events(EPISODE), info=s.log.episode(EPISODE))
    short = {(m.sponsor, m.slot_key): (m.delivered, m.promised) for sx in x.sponsors for m in sx.shortfalls}
    mentions = {sx.sponsor: m for sx in x.sponsors for m in sx.metrics if m.slot_key == "mentions"}
    assert mentions["xiaodangjia"].delivered == owed["xiaodangjia"] - 2 and mentions["xiaodangjia"].shortfall
    assert mentions["langya"].delivered == 1 and not mentions["langya"].shortfall
    table = next(m for sx in x.sponsors for m in sx.metrics if m.slot_key == "table")
    board = next(m for sx in x.sponsors for m in sx.metrics if m.slot_key == "jiugongge_board")
    assert (table.delivered, table.promised, table.shortfall) == (3, 5, True)
    assert (board.delivered, board.promised, board.shortfall) == (4, 4, False)
    assert (table.sponsor, "table") in short and (board.sponsor, "jiugongge_board") not in short


def test_the_draw_reveals_on_air_logs_the_prize_and_refuses_a_drawn_cell(
    studio: SimpleNamespace, qtbot: Any
) -> None:
    s = studio
    sp = s.window.onair.sponsors
    sp.contestant.setCurrentText(NAMES[0])
    qtbot.mouseClick(sp.cell_buttons[4], Qt.MouseButton.LeftButton)
    settle(s, qtbot)
    jg = s.store.state["jiugongge"]
    assert jg["draw"] == {"id": 1, "contestant": NAMES[0], "cell": 4}
    assert s.store.state["graphics"]["program"]["jiugongge"]["on"]  # the reveal is on air
    assert "✕" in sp.cell_buttons[4].text() and NAMES[0] in sp.cell_buttons[4].text()
    assert sp.contestant.currentText() == NAMES[1]  # the next contestant is ready
    seq = s.store.seq
    qtbot.mouseClick(sp.cell_buttons[4], Qt.MouseButton.LeftButton)  # the same cell again
    settle(s, qtbot)
    assert s.store.seq == seq and len(s.store.state["jiugongge"]["draws"]) == 1
    assert sp.draw_message.isVisible() and f"已被 {NAMES[0]} 抽走" in sp.draw_message.text()
    # the message names the cell as the board shows it (1–9), in English as in Chinese (issue 19)
    with pytest.raises(ActionRefused) as refused:
        s.store.dispatch("jiugongge.draw", {"contestant": NAMES[2], "cell": 4})
    assert "第 5 格" in refused.value.zh and "cell 5" in refused.value.en, refused.value.en
    with pytest.raises(ActionRefused) as refused:
        s.store.dispatch("jiugongge.draw", {"contestant": NAMES[0], "cell": 7})
    assert "第 5 格" in refused.value.zh and "cell 5" in refused.value.en, refused.value.en
    qtbot.mouseClick(sp.cell_buttons[0], Qt.MouseButton.LeftButton)
    settle(s, qtbot)
    assert [d["cell"] for d in s.store.state["jiugongge"]["draws"]] == [4, 0]
    assert not sp.draw_message.isVisible()
    s.rec.flush()
    draws = [e for e in s.log.events(EPISODE) if e.kind == "draw"]
    assert [(e.detail["contestant"], e.detail["prize"]) for e in draws] == [
        (NAMES[0], s.store.state["jiugongge"]["cells"][4]["prize"]),
        (NAMES[1], s.store.state["jiugongge"]["cells"][0]["prize"]),
    ]


def test_lower_thirds_for_a_seat_and_the_host_go_to_preview(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    key(s, qtbot, F.Key_3, ALT)
    lt = s.store.state["lower_third"]
    assert lt["name"] == NAMES[2] and TEAMS["odd"]["name"] in lt["line2"]
    assert "lower_third" in bus(s, "preview") and "lower_third" not in bus(s, "program")
    key(s, qtbot, F.Key_0, ALT)
    assert s.store.state["lower_third"]["name"] == "李主持"
    key(s, qtbot, F.Key_F12)
    assert "lower_third" in bus(s, "program")
    s.window.onair.sponsors.set_host("王小丫")  # the 赞助 menu's 主持人姓名… sets it
    settle(s, qtbot)
    assert "王小丫" in s.window.onair.sponsors.host_button.text()
    s.window.onair.sponsors.set_host("王" * 13)  # longer than show.host's maximum (12): refused, named
    qtbot.waitUntil(lambda: "show.host" in s.window.onair.sponsors.draw_message.text(), timeout=10000)
    assert "最多 12 个字" in s.window.onair.sponsors.draw_message.text()
    assert s.store.state["show"]["host"] == "王小丫"
    key(s, qtbot, F.Key_0, ALT)
    assert s.store.state["lower_third"]["name"] == "王小丫"


def test_a_mistaken_mention_is_taken_back_and_the_report_counts_only_what_aired(
    studio: SimpleNamespace, qtbot: Any, tmp_path: Path
) -> None:
    """Ctrl+0 takes back the episode's last 口播 (a right-click on a sponsor's button, that sponsor's
    last): the count drops, the journal keeps both actions, the as-run log shows the retraction with its
    time and the mention it takes back, and the exposure report does not count it."""
    from openpyxl import load_workbook
    from PySide6.QtCore import QPoint

    from broadcast.sponsors.report import KIND_ZH, beijing, describe, write_xlsx

    s = studio
    s.log.record(AirEvent(s.clock(), A.OBS_UP, "29.0.2", "obs", EPISODE, {"obs_version": "29.0.2"}))
    s.log.record(AirEvent(s.clock(), A.PROGRAM_SCENE, "够级·比赛", "obs", EPISODE))
    sp = s.window.onair.sponsors
    assert not sp.retract_button.isEnabled()  # nothing keyed yet
    n_langya = sp._roster_ids.index("langya") + 1
    times = []
    for k in (F.Key_1, F.Key_1, F.Key_1, getattr(F, f"Key_{n_langya}")):
        s.clock.advance(30)
        times.append(s.clock())
        key(s, qtbot, k, CTRL)
    mentions = s.store.state["sponsors"]["mentions"]
    assert (mentions["xiaodangjia"], mentions["langya"]) == (3, 1)
    assert "琅琊煎饼坊" in sp.retract_button.text() and "Ctrl+0" in sp.retract_button.text()
    s.clock.advance(5)
    first_retract = s.clock()
    key(s, qtbot, F.Key_0, CTRL)  # the langya press was a mistake: the last one goes
    mentions = s.store.state["sponsors"]["mentions"]
    assert (mentions["xiaodangjia"], mentions["langya"]) == (3, 0)
    assert "琅琊煎饼坊" in s.window.statusBar().currentMessage()
    # right-click on 小当家's button: its last 口播 (the third) goes too
    s.clock.advance(5)
    button = sp.mention_buttons["xiaodangjia"]
    sp._mention_menu(button, "xiaodangjia", QPoint(2, 2))
    sp.menu.actions()[0].trigger()
    settle(s, qtbot)
    sp.menu.close()
    assert s.store.state["sponsors"]["mentions"]["xiaodangjia"] == 2
    kinds = [t for (t,) in s.store.journal.connection.execute("SELECT type FROM journal ORDER BY seq")]
    assert kinds.count("sponsor.mention") == 4 and kinds.count("sponsor.mention_retract") == 2
    s.clock.advance(30)
    s.rec.end_episode()
    s.rec.flush()
    events = s.log.events(EPISODE)
    retracts = [e for e in events if e.kind == A.MENTION_RETRACT]
    assert [(e.subject, e.ts, e.detail["of_ts"]) for e in retracts] == [
        ("langya", first_retract, times[3]),
        ("xiaodangjia", first_retract + 5, times[2]),
    ]
    x = compute(s.p, EPISODE, events, info=s.log.episode(EPISODE))
    said = {sx.sponsor: m for sx in x.sponsors for m in sx.metrics if m.slot_key == "mentions"}
    assert said["xiaodangjia"].delivered == 2  # three keyed, one taken back
    assert said["langya"].delivered == 0 and "按错已撤销" in said["langya"].note
    # the as-run log in the report: the retraction with its time and the mention it takes back
    row = describe(retracts[0], s.p)
    assert KIND_ZH[A.MENTION_RETRACT].startswith("撤销口播") and beijing(times[3]) in row and "琅琊" in row
    book = load_workbook(write_xlsx(x, s.p, tmp_path / "report.xlsx"))
    lines = [[str(c or "") for c in r] for r in book["播出记录"].iter_rows(values_only=True)]
    shown = [r for r in lines if r[2].startswith("撤销口播")]
    assert (
        len(shown) == 2
        and shown[0][0].startswith(beijing(first_retract))
        and beijing(times[3]) in shown[0][3]
    )


def test_taking_back_a_mention_when_there_is_none_is_refused(studio: SimpleNamespace, qtbot: Any) -> None:
    s = studio
    before = s.store.seq
    key(s, qtbot, F.Key_0, CTRL)
    assert s.store.seq == before  # nothing journaled
    assert "本期没有可撤销的口播" in s.window.statusBar().currentMessage()
    s.store.dispatch("sponsor.mention", {"sponsor": "langya"})
    s.store.dispatch("sponsors.episode_reset", {})  # a new episode: last episode's 口播 cannot be taken back
    with pytest.raises(Exception) as err:
        s.store.dispatch("sponsor.mention_retract", {})
    assert getattr(err.value, "rule", "") == "sponsor.retract"


def test_an_old_databases_seat_placeholder_is_no_contestant_in_the_rundown_or_the_draw(
    studio: SimpleNamespace, qtbot: Any
) -> None:
    """Issue 19: older databases stored "N号位" as an unnamed seat's name. The rundown's contestants
    (the 九宫格 draw cues) and the draw's contestant list read it as no name (engine.words.entered_name),
    as the rest of the console does: a stand-in 选手N in the rundown, nobody in the draw's list."""
    import copy

    from broadcast.console.docks import cue_list_payload

    s = studio
    st = copy.deepcopy(s.store.state)
    old = [NAMES[0], "2号位", NAMES[2], "4号位", "5号位", "6号位"]
    for seat, name in zip(st["table"]["seats"], old, strict=True):
        seat["name"] = name
    st["cues"]["episode"] = ""  # a new rundown is due
    payload = cue_list_payload(st, s.p)
    assert payload is not None
    drawn = [c["item"] for c in payload["cues"] if c["kind"] == "draw"]
    want = s.p.rundown.contestants
    assert drawn == [NAMES[0], NAMES[2], *[f"选手{i}" for i in range(3, want + 1)]][:want], drawn
    st["cues"]["list"] = payload["cues"]
    sp = s.window.onair.sponsors
    sp._refresh_draw(st)
    listed = [sp.contestant.itemText(i) for i in range(sp.contestant.count())]
    assert NAMES[0] in listed and NAMES[2] in listed, listed
    assert not [n for n in listed if "号位" in n], listed


def test_the_cue_list_comes_back_where_it_was_after_a_restart_once_the_episode_was_named(
    tmp_path: Path,
) -> None:
    """The README's first start: the console opens on a new project (no episode yet) and loads the
    rundown; the operator sets up 第16期's match and GOes three cues; the console is started again (a
    crash, the laptop restarted). The cue list is where it was — next cue 4, the three logged — not back
    at cue 1, where the next GO would air the opening corner bug and bumpers a second time."""
    from broadcast.console.docks import cue_list_payload

    path = tmp_path / "studio.sqlite"
    p = load_placements(DEMO, air_date=date(2012, 5, 7))
    store = open_store(path)
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("cues.load", cue_list_payload(store.state, p))  # as the console's first start does
    store.dispatch("show.update", {"episode": "第16期"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    for _ in range(3):
        store.dispatch("cues.go", {})
    ran = sorted(store.state["cues"]["log"])
    store.close()
    store = open_store(path)  # started again: the console loads the episode's cue list again
    try:
        payload = cue_list_payload(store.state, p)
        if payload is not None:
            store.dispatch("cues.load", payload)
        cq = store.state["cues"]
        assert (cq["next"], sorted(cq["log"])) == (3, ran), (cq["next"], sorted(cq["log"]))
        assert cq["episode"] == "第16期"
        assert NAMES[0] in " ".join(c["label"] for c in cq["list"])  # the draw names the seated players
    finally:
        store.close()
