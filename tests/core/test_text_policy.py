"""The one text policy at every entry (issue 23): invisible, default-ignorable and format characters are
refused naming the field and the character; a name or title must show something; look-alike names
(TR39's confusable skeleton after NFKC) are one name; episode titles have their maximum. Through the
store (the console's and the producer's dispatches), the season's model (its dialogs) and command line,
the roster import and the HTTP control API."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.core import ActionRefused
from broadcast.core.text import REPORT_TEXT_MAX, invisible, name_key, refusal, visible
from broadcast.season.importer import ImportError_, import_file
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.studio import open_store

# what the red team got through: each shows as nothing, or hides a difference
INVISIBLE = {
    "\ufe0f": "U+FE0F",  # a variation selector
    "\u034f": "U+034F",  # combining grapheme joiner
    "\u3164": "U+3164",  # Hangul filler: a team named only this airs blank
    "\u2800": "U+2800",  # braille pattern blank
    "\u202e": "U+202E",  # right-to-left override
    "\u200b": "U+200B",  # zero-width space
    "\u115f": "U+115F",  # Hangul choseong filler
    "\U000e0041": "U+E0041",  # a tag character
}
LOOK_ALIKES = [
    ("王建军", "\U0002f929建军"),  # a compatibility ideograph of 王
    ("王建军", "王 建 军"),
    ("Ivan", "Ιvаn"),  # Greek Iota, Cyrillic a
    ("O0", "00"),
    ("李一", "李ー"),  # the katakana prolonged sound mark
]


def test_the_policy_itself() -> None:
    for ch, code in INVISIBLE.items():
        assert invisible(f"王{ch}建军") == code
        zh, en = refusal("姓名 name", f"王{ch}", name=True) or ("", "")
        assert code in en and "姓名 name" in en and code in zh
    for blank in (" ", "\u3000", "\u0301", ""):
        assert not visible(blank)
    assert visible("王") and visible("A") and visible("1") and visible("!")
    assert refusal("队名", "  ", name=True) is not None and refusal("备注", "  ") is None
    for a, b in LOOK_ALIKES:
        assert name_key(a) == name_key(b), (a, b)
    for a, b in (("王建军", "王建國"), ("张伟", "张玮"), ("A队", "B队")):
        assert name_key(a) != name_key(b)


@pytest.mark.parametrize("ch", list(INVISIBLE))
def test_the_store_refuses_invisible_characters_naming_field_and_character(tmp_path: Path, ch: str) -> None:
    store = open_store(tmp_path / "s.sqlite")
    try:
        with pytest.raises(ActionRefused) as err:
            store.dispatch("match.update", {"names": {"1": f"王建{ch}军"}})
        assert INVISIBLE[ch] in err.value.en and "names.1" in err.value.en
        with pytest.raises(ActionRefused) as err:  # a team named only spaces airs as nothing
            store.dispatch("match.update", {"teams": {"odd": {"name": "   ", "color": "#c62828"}}})
        assert "no visible character" in err.value.en and "teams.odd.name" in err.value.en
        # look-alike seats in one match: one name
        with pytest.raises(ActionRefused) as err:
            store.dispatch("match.update", {"names": {"1": "Ivan", "4": "Ιvаn"}})
        assert "look the same" in err.value.en
    finally:
        store.close()


def test_the_season_model_and_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    sdb = SeasonDB.open(db)
    try:
        sid = sdb.create_season("第一季")
        for ch, code in INVISIBLE.items():
            with pytest.raises(SeasonError, match=code.replace("+", r"\+")):
                sdb.add_team(sid, f"新队{ch}")
        with pytest.raises(SeasonError, match="no visible character"):
            sdb.add_team(sid, "\u0301\u0301")  # combining marks alone: nothing to see
        tid = sdb.add_team(sid, "王者队")
        with pytest.raises(SeasonError, match="looks the same"):
            sdb.add_team(sid, "\U0002f929者队")  # a compatibility ideograph of 王
        sdb.add_player(sid, "王建军", team_id=tid)
        with pytest.raises(SeasonError, match="looks the same"):
            sdb.add_player(sid, "\U0002f929建军", team_id=tid)
        sdb.add_player(sid, "\U0002f929建军", team_id=None)  # another team's (here: none) namesake is allowed
    finally:
        sdb.close()
    # season episode --title: U+202E, a zero-width space and 500 characters were all stored
    for title, said in (
        ("决赛\u202e夜", "U+202E"),
        ("决赛\u200b夜", "U+200B"),
        ("长" * 500, f"at most {REPORT_TEXT_MAX['episode.title']} characters"),
        ("\u3164", "U+3164"),
    ):
        capsys.readouterr()
        assert cli(["season", "episode", "3", "--title", title, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
    assert cli(["season", "episode", "3", "--title", "决赛夜", "--db", str(db)]) == 0


def test_the_roster_import(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    sdb = SeasonDB.open(db)
    sid = sdb.create_season("第一季")
    sdb.close()
    for row, said in (
        ("王\ufe0f建军,新队", "U+FE0F"),
        ("\u3164,新队", "U+3164"),
        ("王建军,\u2800", "U+2800"),
        ("Ivan,新队\nΙvаn,新队", "duplicate player"),
    ):
        f = tmp_path / "r.csv"
        f.write_text("姓名,队伍\n" + row + "\n", encoding="utf-8")
        sdb = SeasonDB.open(db)
        try:
            with pytest.raises(ImportError_) as err:
                import_file(sdb, sid, f)
        finally:
            sdb.close()
        assert said in "\n".join(err.value.errors) and f"{f}:row " in err.value.errors[0], err.value.errors


def test_the_control_api(tmp_path: Path) -> None:
    from broadcast.overlay import OverlayServer

    store = open_store(tmp_path / "s.sqlite")
    srv = OverlayServer(store, port=0, token="t0k")
    srv.start()
    try:
        body = json.dumps({"contestant": "王建\u200b军", "cell": 5}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{srv.port}/api/draw",
            data=body,
            headers={"Authorization": "Bearer t0k", "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        answer = json.loads(err.value.read())
        assert err.value.code in (400, 409) and "U+200B" in json.dumps(answer, ensure_ascii=False), answer
    finally:
        srv.stop()
        store.close()


def test_a_csv_with_a_broken_quote_is_refused_naming_the_row(tmp_path: Path) -> None:
    """The red team's roster: an unterminated quote imported a player named “好人,新队F” with no team."""
    db = tmp_path / "s.sqlite"
    sdb = SeasonDB.open(db)
    sid = sdb.create_season("第一季")
    try:
        for text, row in (
            ('姓名,队伍\n王建军,新队A\n"好人,新队F\n', 3),  # a quote never closed
            ('姓名,队伍\n"王建军,新队A\n李四,新队B\n赵六",新队C\n', 2),  # closed lines later: one cell
        ):
            f = tmp_path / "broken.csv"
            f.write_text(text, encoding="utf-8")
            with pytest.raises(ImportError_) as err:
                import_file(sdb, sid, f)
            assert f"{f}:row {row}:" in err.value.errors[0] and "quote" in err.value.errors[0], (
                err.value.errors
            )
        assert sdb.conn.execute("SELECT COUNT(*) FROM season_players").fetchone()[0] == 0  # nothing imported
    finally:
        sdb.close()
