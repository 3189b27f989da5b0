"""Qt's own translation mechanism: Chinese source strings by default, the English catalog complete for
every string of the code (pyside6-lupdate finds nothing untranslated), switchable at run time."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.console.conftest import NAMES, TEAMS, new_match, type_line

ROOT = Path(__file__).resolve().parents[2]


def test_the_english_catalog_translates_every_string_of_the_code() -> None:
    r = subprocess.run(
        [sys.executable, "scripts/i18n.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_chinese_by_default_and_english_on_demand(window: Any, qtbot: Any) -> None:
    new_match(window, qtbot)
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:4] == ["比赛(&M)", "编辑(&E)", "视图(&V)", "帮助(&H)"]
    assert "上班座位" in window.panel.prompt.text()
    window.set_language("en")
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:4] == ["&Match", "&Edit", "&View", "&Help"]
    assert "first leader's seat" in window.panel.prompt.text()
    assert window.dock("table").windowTitle() == "TABLE"
    assert window.hotkeys.get("edit.undo").action.text() == "Undo the last move (with the reason)"
    assert window.settings.value("language") == "en"
    window.set_language("zh_CN")
    assert window.menuBar().actions()[0].text() == "比赛(&M)" and "上班座位" in window.panel.prompt.text()


def test_the_dialogs_own_buttons_speak_the_ui_language(window: Any, qtbot: Any) -> None:
    """Qt's own words (a dialog's OK, Cancel, Close) in the UI language: the Chinese console's dialogs
    said "OK" / "Cancel" / "Close" (issue 19: never mixed), and follow a switch at run time."""
    from PySide6.QtWidgets import QDialogButtonBox

    window.edit_keys()
    qtbot.waitUntil(lambda: window.dialog is not None and window.dialog.isVisible())
    box = window.dialog.findChild(QDialogButtonBox)
    assert [b.text() for b in box.buttons()] == ["关闭"]
    window.dialog.reject()
    window.set_language("en")
    window.edit_keys()
    qtbot.waitUntil(lambda: window.dialog is not None and window.dialog.isVisible())
    assert [b.text() for b in window.dialog.findChild(QDialogButtonBox).buttons()] == ["Close"]
    window.dialog.reject()
    window.set_language("zh_CN")


HAN = re.compile(r"[\u4e00-\u9fff]")
LANGUAGE_ITEMS = {"中文界面 Chinese UI", "English UI 英文界面"}  # each names its language in both


@pytest.fixture
def onair_window(tmp_path: Path, qtbot: Any) -> Iterator[Any]:
    """The whole console (table, entry and the on-air docks) on the demo placements, English UI."""
    from PySide6.QtCore import QSettings

    from broadcast.console.app import build
    from broadcast.sponsors.placements import load_placements, to_state
    from broadcast.studio import open_store

    store = open_store(tmp_path / "studio.sqlite")
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07", "host": "李主持"})
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    settings = QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat)
    w = build(store, settings, lang="en", placements=p, monitors=False)
    qtbot.addWidget(w)
    w.resize(1920, 1080)
    w.show()
    qtbot.waitExposed(w)
    w.console.bridge.drain()
    qtbot.wait(20)
    yield w
    w.console.bridge.close()
    store.close()


def _chrome(w: Any) -> list[str]:
    """Every word of the window's own (not the show's data): menus, dock titles, the docks' buttons,
    group boxes and tooltips, the cue list's columns and kinds, the F1 sheet's operations and groups."""
    from PySide6.QtWidgets import QGroupBox

    docks = w.onair
    out = [m.text() for m in w.menuBar().actions()]
    for m in w.menuBar().actions():
        out += [a.text() for a in m.menu().actions() if a.text() not in LANGUAGE_ITEMS]
    out += [w.dock(k).windowTitle() for k in ("table", "graphics", "sponsors", "cues", "winprob")]
    g = docks.graphics
    out += [g.take_button.text(), g.cut_button.text(), g.panic_button.text(), g.legend.text()]
    out += [t.toolTip() for t in g.tiles.values()]
    s = docks.sponsors
    out += [b.title() for b in s.findChildren(QGroupBox)]
    out += [b.text() for b in s.shot_buttons.values()] + [s.reveal_clear.text(), s.contestant_label.text()]
    model = docks.cues.model
    out += [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]
    out += [model.data(model.index(r, 3)) for r in range(model.rowCount())]  # the kind column
    sheet = w.show_help()
    out += [text for _keys, op, group in sheet.rows() for text in (op, group) if op not in LANGUAGE_ITEMS]
    sheet.close()
    return out


def test_the_on_air_docks_and_every_hotkey_speak_english_in_the_english_ui(onair_window: Any) -> None:
    w = onair_window
    chinese = [t for t in _chrome(w) if HAN.search(t)]
    assert not chinese, chinese
    # pictures for a person to look at (offscreen grabs): the window and the F1 sheet in English
    shots = ROOT / "test-artifacts" / "console"
    shots.mkdir(parents=True, exist_ok=True)
    assert w.grab().save(str(shots / "console-en-1920x1080.png"))
    sheet = w.show_help()
    sheet.resize(900, 1000)
    assert sheet.grab().save(str(shots / "console-help-en.png"))
    sheet.close()
    labels = {h.id: h.label() for h in w.hotkeys.all()}
    assert labels["graphics.take"] == "TAKE: preview to program"
    assert labels["graphics.preview.scoreboard"] == "Scoreboard: to preview / off preview"
    assert labels["sponsors.mention.3"] == "Mention +1: sponsor 3 on the panel"
    assert labels["sponsors.lower_third.2"] == "Lower third: the player in seat 2 (to preview)"
    assert w.hotkeys.get("graphics.take").action.text() == "TAKE: preview to program"
    # and back: Chinese everywhere again, switched at run time
    w.set_language("zh_CN")
    assert w.hotkeys.get("graphics.preview.scoreboard").action.text() == "比分：放到预览 / 撤下预览"
    assert w.onair.graphics.take_button.text().startswith("TAKE 上节目")
    assert w.dock("sponsors").windowTitle() == "赞助 SPONSOR EVENTS"
    help_groups = {group for _k, _op, group in w.show_help().rows()}
    assert {"图形 Graphics", "赞助 Sponsors", "节目流程 Cue list"} <= help_groups
    w.set_language("en")
    assert w.onair.graphics.take_button.text().startswith("TAKE to program")


def test_the_docks_names_are_the_studios_words() -> None:
    """The translated names of the docks (context Names) are the same Chinese words the rest of the
    studio uses for the graphics, studio placements and cue kinds."""
    from broadcast.console import names
    from broadcast.control import GRAPHIC_ZH, SHOT_ZH
    from broadcast.show.actions import GRAPHICS
    from broadcast.sponsors.rundown import KIND_ZH

    assert names.GRAPHIC_NAMES == GRAPHIC_ZH and set(GRAPHICS) <= set(names.GRAPHIC_NAMES)
    assert names.CUE_KINDS == KIND_ZH
    assert {k: v + "镜头" for k, v in names.SHOT_PLACES.items()} == SHOT_ZH


def test_the_monitors_captions_follow_a_language_switched_at_run_time(
    store: Any, tmp_path: Path, qtbot: Any
) -> None:
    """The Monitors dock (here with no graphics server and OBS off: its captions and notes, no page
    views) speaks the language chosen in View ▸ language at once, and back."""
    from PySide6.QtCore import QSettings

    from broadcast.console.app import build

    settings = QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat)
    w = build(store, settings, lang="zh_CN", monitors=True)
    qtbot.addWidget(w)
    try:
        panel = w.onair.monitors
        assert panel is not None and panel.note is not None and not panel.pages
        assert panel.obs.caption.text() == "OBS 节目输出（每秒一张）"
        assert panel.note.text() == "图形服务器未运行：没有页面可看"
        assert panel.obs.picture.text() == "OBS 未启用（--no-obs）"
        w.set_language("en")
        assert panel.obs.caption.text() == "OBS program output (one a second)"
        assert panel.note.text() == "Graphics server not running: no page to show"
        assert panel.obs.picture.text() == "OBS disabled (--no-obs)"
        w.set_language("zh_CN")
        assert panel.obs.caption.text() == "OBS 节目输出（每秒一张）"
        assert panel.note.text() == "图形服务器未运行：没有页面可看"
    finally:
        w.console.bridge.close()


def _seat_card_texts(w: Any) -> list[str]:
    """Every text a seat card shows or tips: its labels' words (the name's whole text) and tooltips."""
    from PySide6.QtWidgets import QLabel

    out: list[str] = []
    for card in w.table.cards.values():
        for label in card.findChildren(QLabel):
            # an eliding label shows its whole text cut to its width ("王…" while the cards still lay
            # out): its whole text is what is checked, the cut one is only ever a part of it
            full = getattr(label, "_full", None)
            out += [label.text() if full is None else full, label.toolTip()]
        out.append(card.toolTip())
    return [t for t in out if t]


# a seat said twice: its number beside its own stand-in name ("3 Seat 3", "Seat 3 Seat 3", "3号 3号位")
DOUBLED = re.compile(r"(\d)\s+Seat\s+\1\b|Seat\s+(\d)\s+Seat\s+\2\b|(\d)号?\s*\3号位")


def _seat_texts(w: Any) -> list[str]:
    """What names a seat: the seat cards, the prompt, the table's turn line, the record's seat column
    and its tooltips, with the non-breaking spaces read as spaces."""
    m = w.panel.record_model
    record = [
        str(m.index(r, c).data(role) or "")
        for r in range(m.rowCount())
        for c in (1, 4)
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
    ]
    texts = [*_seat_card_texts(w), w.panel.prompt.text(), *w.table.top.lines, *record]
    return [t.replace("\xa0", " ") for t in texts if t]


def test_an_english_console_shows_no_chinese_and_no_doubled_seat_on_the_table(
    window: Any, qtbot: Any
) -> None:
    """Issue 19, "English complete, never mixed": seats without a name showed the placeholder ``4号位``
    the match stored as the name. An unnamed seat now holds '' and each display says the seat in its
    own language: "Seat 4" in the English console, 4号位 in the Chinese one. Only the show data the
    operator typed (the names) may be Chinese. And the seat is said once: an unnamed seat's card, the
    prompt, the turn line and the record read "Seat 4" / "Seat 4 to act" / 4号位 / 轮到 4号位, never
    "4 Seat 4" / "Seat 4 Seat 4 to act"; named "1 张立国" / "Seat 1 张立国 to act" / 轮到 1号 张立国."""
    typed = ["张立国", "", "王建军", "", "", "陈桂兰"]
    new_match(window, qtbot, names=typed)
    assert [s["name"] for s in window.console.state["table"]["seats"]] == typed  # no placeholder stored
    window.set_language("en")
    try:
        qtbot.waitUntil(lambda: window.table.cards[2].name._full == "Seat 2", timeout=5000)
        texts = _seat_card_texts(window)
        mixed = [t for t in texts if HAN.search(_without(t, [n for n in typed if n]))]
        assert not mixed, mixed
        assert [window.table.cards[s].name._full for s in (1, 4)] == ["1  张立国", "Seat 4"]
        # an older database stored the placeholder itself as the name: shown as the seat, in English too
        seat = {**window.console.state["table"]["seats"][3], "name": "4号位"}
        window.table.cards[4].show_seat(seat, "#1f5fbf", False, 10, [], "en")
        assert window.table.cards[4].name._full == "Seat 4"
        type_line(qtbot, window, "1")  # 上班: seat 1, named
        prompt = lambda: window.panel.prompt.text().replace("\xa0", " ")  # noqa: E731
        assert prompt() == "Seat 1 张立国 to act"
        type_line(qtbot, window, "44")  # seat 1 plays; seat 2 (no name) to act
        assert prompt() == "Seat 2 to act"
        assert window.table.top.lines[1].replace("\xa0", " ") == "Seat 2 to act"
        type_line(qtbot, window, "55")
        assert [window.panel.record_model.index(r, 1).data() for r in (0, 1)] == ["1 张立国", "Seat 2"]
        seen = _seat_texts(window)
        assert "Seat 3 王建军 to act" in seen
        assert not [t for t in seen if DOUBLED.search(t)], seen
    finally:
        window.set_language("zh_CN")
    qtbot.waitUntil(lambda: window.table.cards[2].name._full == "2号位", timeout=5000)
    assert window.panel.prompt.text() == "轮到 3号 王建军"
    assert [window.panel.record_model.index(r, 1).data() for r in (0, 1)] == ["1 张立国", "2号位"]
    seen = _seat_texts(window)
    assert not [t for t in seen if DOUBLED.search(t)], seen
    # the set-up correction starts from the names as typed: an unnamed seat's box stays empty
    assert window.console.entered_names() == dict(enumerate(typed, start=1))
    # the on-air lower third of an unnamed seat says the seat once (its team under it), a named one both
    from broadcast.control import lower_third_for

    assert lower_third_for(window.console.state, 2) == ("2号位", TEAMS["even"]["name"])
    assert lower_third_for(window.console.state, 1) == ("张立国", f"{TEAMS['odd']['name']} · 1号位")


def _without(text: str, names: list[str]) -> str:
    for n in names:
        text = text.replace(n, "")
    return text


def test_an_english_consoles_correction_dialogs_and_penalties_offer_their_reasons_in_english(
    window: Any, qtbot: Any
) -> None:
    """Issue 19: every correction's reason box offered Chinese presets (录入错误, 座位录错 …) in the
    English UI too, and so did the penalty's and the forfeit's (大声喧哗 …). They are translated now (the
    "Reasons" context of the catalog); the reason
    journaled is the one picked, in the UI language. Every correction dialog opened from the window, as
    the operator opens it; only the show data (names, teams, the record's cards) may be Chinese, and
    that is not in a preset list."""
    new_match(window, qtbot)
    for text in ("3", "TTTTT", "JJJJJ"):
        type_line(qtbot, window, text)
    window.set_language("en")
    seen: dict[str, list[str]] = {}

    def presets(name: str, open_it: Any) -> None:
        window.dialog = None
        open_it()
        qtbot.waitUntil(lambda: window.dialog is not None and window.dialog.isVisible(), timeout=5000)
        box = window.dialog.reason
        seen[name] = [box.itemText(i) for i in range(box.count())]
        window.dialog.reject()

    try:
        presets("undo", window.undo)
        presets("correct", lambda: window.correct("correct"))
        presets("insert", lambda: window.correct("insert"))
        presets("delete", lambda: window.correct("delete"))
        presets("leader", window.correct_leader)
        presets("setup", window.correct_setup)
        presets("hands", window.enter_hands)  # play has started: a correction of the hands
        presets("penalty", window.penalty)  # and a referee's penalty or a forfeit (G11.2), the same way
        presets("forfeit", window.forfeit)
        presets(
            "undo correction",
            lambda: window.undo_correction({"kind": "hands", "before": [""] * 6, "line": "1"}),
        )
        done: list[Any] = []
        window.console.act("game.undo", {"reason": "Keying error"}, on_done=done.append)
        qtbot.waitUntil(lambda: bool(done), timeout=5000)
        presets("redo", window.redo)
    finally:
        window.set_language("zh_CN")
    assert len(seen) == 11 and all(seen.values()), seen
    mixed = {k: v for k, v in seen.items() if any(HAN.search(t) for t in v)}
    assert not mixed, mixed
    assert seen["undo"][0] == "Keying error" and seen["setup"][0] == "Seat keyed wrong"
    assert seen["penalty"][0] == "Talking loudly" and seen["forfeit"][0] == "Forfeit"
    assert _journal_reason(window) == "Keying error"  # journaled as picked, in the UI language
    window.undo()  # and the Chinese UI keeps its Chinese presets
    qtbot.waitUntil(lambda: window.dialog is not None and window.dialog.isVisible(), timeout=5000)
    assert window.dialog.reason.itemText(0) == "录入错误"
    window.dialog.reject()


def _journal_reason(w: Any) -> str:
    return str(list(w.console.bridge.store.journal.entries())[-1].payload.get("reason", ""))
