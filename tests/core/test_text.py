"""On-air text is text (issue 13): bidi overrides (U+202E airs 王建军 as 军建王) and zero-width characters
(look-alike names) are refused at every input, naming the field; names are compared after NFKC, so a
full-width/half-width look-alike is a duplicate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast.core import ActionRefused
from broadcast.core.text import find_invisible, invisible, name_key
from broadcast.season.importer import ImportError_, import_file
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.studio import open_store

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
ZWSP = "\u200b"  # ZERO WIDTH SPACE
SIX = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]


def test_invisible_characters_are_found_and_named() -> None:
    assert invisible("王建军") is None and invisible("第一行\n第二行") is None
    for ch, code in (
        (RLO, "U+202E"),
        (ZWSP, "U+200B"),
        ("\u2066", "U+2066"),
        ("\ufeff", "U+FEFF"),
        ("\x07", "U+0007"),
    ):
        assert invisible(f"王建{ch}军") == code
    assert find_invisible({"teams": {"odd": {"name": "甲队"}}, "names": ["a", "b", f"c{ZWSP}"]}) == (
        "names[2]",
        "U+200B",
    )
    assert name_key("Ｌｉ Ｌｅｉ") == name_key("li lei") == name_key("LiLei")
    assert name_key("王建军") != name_key("王建国")


@pytest.mark.parametrize(
    "type_, payload, field",
    [
        ("show.update", {"title": f"够级{RLO}英雄"}, "title"),
        ("lower_third.set", {"name": f"王建{ZWSP}军", "line2": "沂河源队"}, "name"),
        ("match.new", {"names": ["张三", "李四", f"{RLO}王建军", "赵六", "钱七", "孙八"]}, "names[2]"),
        ("table.message", {"text": "本场胜者\u2067小当家"}, "text"),
    ],
)
def test_an_action_with_an_invisible_character_is_refused_naming_the_field(
    tmp_path: Path, type_: str, payload: dict, field: str
) -> None:
    store = open_store(tmp_path / "studio.sqlite")
    before, seq = store.snapshot(), store.journal.last_seq()
    with pytest.raises(ActionRefused) as err:
        store.dispatch(type_, payload)
    assert err.value.rule == "text"
    assert field in err.value.message and field in err.value.message_en and "U+" in err.value.message
    assert store.state == before and store.journal.last_seq() == seq  # nothing changed, nothing journaled
    store.close()


def test_look_alike_names_at_one_table_are_refused(tmp_path: Path) -> None:
    store = open_store(tmp_path / "studio.sqlite")
    with pytest.raises(ActionRefused) as err:
        store.dispatch("match.new", {"names": ["Ｌｉ Ｌｅｉ", "张三", "Li Lei", "赵六", "钱七", "孙八"]})
    assert err.value.rule == "names" and "1" in err.value.message and "3" in err.value.message
    store.dispatch("match.new", {"names": ["李雷", "张三", "韩梅梅", "赵六", "钱七", "孙八"]})
    with pytest.raises(ActionRefused):  # a later change of one seat is checked against the others
        store.dispatch("match.new", {"names": {"4": "张 三"}})
    store.close()


def test_a_roster_with_an_invisible_character_or_a_look_alike_imports_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    with SeasonDB.open(db) as sdb:
        sid = sdb.create_season("第二季")
        sdb.add_player(sid, "Han Meimei", team_id=sdb.add_team(sid, "甲队"))
        bad = tmp_path / "名单.csv"
        bad.write_text(f"姓名,队伍\n王建军,甲队\n王建{RLO}国,甲队\n", encoding="utf-8")
        with pytest.raises(ImportError_) as err:
            import_file(sdb, sid, bad)
        assert any(f"{bad}:row 3" in e and "姓名" in e and "U+202E" in e for e in err.value.errors)
        twins = tmp_path / "twins.csv"
        twins.write_text("姓名,队伍\nＬｉ Ｌｅｉ,乙队\nLi Lei,乙队\n", encoding="utf-8")
        with pytest.raises(ImportError_) as err2:
            import_file(sdb, sid, twins)
        assert any(f"{twins}:row 3" in e and "duplicate player" in e for e in err2.value.errors)
        again = tmp_path / "again.csv"  # a look-alike of a player already in the season
        again.write_text("姓名,队伍\nＨａｎ Ｍｅｉｍｅｉ,甲队\n", encoding="utf-8")
        with pytest.raises(ImportError_) as err3:
            import_file(sdb, sid, again)
        assert any("looks the same as a player already in the season" in e for e in err3.value.errors)
        names = [r["name"] for r in sdb.players(sid)]
        assert names == ["Han Meimei"]  # nothing of the three files was imported
        with pytest.raises(SeasonError) as err4:
            sdb.add_player(sid, f"王{ZWSP}建军")
        assert "姓名" in str(err4.value) and "U+200B" in str(err4.value)


def _limit(field: str) -> int:
    from broadcast.studio import state_schema

    return state_schema().text_limits()[field]


@pytest.mark.parametrize(
    "type_, payload_of, field",
    [
        ("show.update", lambda s: {"title": s}, "show.title"),
        ("lower_third.set", lambda s: {"name": s, "line2": "沂河源队"}, "lower_third.name"),
        ("lower_third.set", lambda s: {"name": "王建军", "line2": s}, "lower_third.line2"),
        ("match.new", lambda s: {"names": [*SIX[:2], s, *SIX[3:]]}, "table.seats[2].name"),
        ("table.message", lambda s: {"text": s}, "table.message"),
    ],
)
def test_a_text_longer_than_its_field_s_maximum_is_refused_naming_the_field(
    tmp_path: Path, type_: str, payload_of: Any, field: str
) -> None:
    """Every on-air text field has a maximum (maxLength in its schema fragment): at the maximum the action
    is journaled, one character more is refused with the field and the maximum named, nothing changed."""
    limit = _limit(field.replace("[2]", "[]"))
    store = open_store(tmp_path / "studio.sqlite")
    if type_ == "table.message":
        store.dispatch("match.new", {"names": SIX})
    store.dispatch(type_, payload_of("够" * limit))  # exactly at the maximum: accepted
    before, seq = store.snapshot(), store.journal.last_seq()
    too_long = "够" * limit + "级"
    with pytest.raises(ActionRefused) as err:
        store.dispatch(type_, payload_of(too_long))
    e = err.value
    assert e.rule == "text.length"
    assert field in e.zh and field in e.en, e.text()
    assert f"最多 {limit} 个字" in e.zh and f"有 {limit + 1} 个字" in e.zh
    assert f"at most {limit} characters" in e.en and f"has {limit + 1}" in e.en
    assert store.state == before and store.journal.last_seq() == seq  # nothing changed, nothing journaled
    store.close()


def test_a_season_name_longer_than_it_may_be_on_air_is_refused_at_input(tmp_path: Path) -> None:
    """Names entered into the season (by hand, by the producer's roster tab, by a roster file) are held to
    the 英雄榜's maxima in the season's schema fragment (leaderboard.rows[].name / .team), naming it."""
    db = tmp_path / "s.sqlite"
    with SeasonDB.open(db) as sdb:
        with pytest.raises(SeasonError) as err0:  # the 英雄榜's season line: the title, then “ · 第N期后”
            sdb.create_season("第二季", title="《够级大明星》第二季春季联赛总决赛")
        assert "leaderboard.season" in err0.value.zh and "最多 14 个字" in err0.value.zh
        sid = sdb.create_season("第二季", title="《够级大明星》第二季")
        with pytest.raises(SeasonError):
            sdb.update_season(sid, sponsor="临沂鲁信汽车城有限公司")  # leaderboard.sponsor: 10
        tid = sdb.add_team(sid, "沂河源队")
        with pytest.raises(SeasonError) as err:
            sdb.add_player(sid, "欧阳" + "建" * 9, team_id=tid)  # 11 characters
        assert "leaderboard.rows[].name" in err.value.zh and "最多 10 个字" in err.value.zh
        pid = sdb.add_player(sid, "欧阳" + "建" * 8, team_id=tid)  # 10: accepted
        with pytest.raises(SeasonError):
            sdb.update_player(pid, name="欧阳" + "建" * 9)
        with pytest.raises(SeasonError) as err2:
            sdb.add_team(sid, "临沂市兰山区够级协会代表队")
        assert "leaderboard.rows[].team" in err2.value.zh
        roster = tmp_path / "名单.csv"
        roster.write_text("姓名,队伍\n王建军,沂河源队\n诸葛" + "亮" * 9 + ",沂河源队\n", encoding="utf-8")
        with pytest.raises(ImportError_) as err3:
            import_file(sdb, sid, roster)
        assert any(f"{roster}:row 3" in e and "leaderboard.rows[].name" in e for e in err3.value.errors)
        assert [r["name"] for r in sdb.players(sid)] == ["欧阳" + "建" * 8]  # nothing of the file imported
