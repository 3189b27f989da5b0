"""The entry line read as GJN (pure) and the completion list from the engine's legal plays."""

from __future__ import annotations

import pytest

import engine
from broadcast.console.completion import Completer
from broadcast.console.entry import read


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("3 TTTTT", "3 TTTTT"),
        ("TTTTT", "6 TTTTT"),
        ("10 10 10 10 10", "6 TTTTT"),
        ("tttTT", "6 TTTTT"),
        ("ＴＴＴＴＴ", "6 TTTTT"),
        ("p", "6 pass"),
        ("过", "6 pass"),
        ("4 pass", "4 pass"),
        ("2 yield", "2 yield"),
        ("让", "6 yield"),
        ("3号 过", "3 pass"),
        ("qqq小王", "6 QQQB"),
        ("3 3", "3 3"),
        ("33", "6 33"),
    ],
)
def test_entry_reads_gjn_and_the_operators_short_forms(text: str, line: str) -> None:
    assert read(text).line(pending=6) == line


@pytest.mark.parametrize("text", ["", "5 ", "pa", "tx"])
def test_incomplete_or_unreadable_entries_make_no_line(text: str) -> None:
    assert read(text).line(pending=6) is None


def test_suggestions_are_legal_plays_of_the_pending_seat_cheapest_beat_first() -> None:
    g = engine.Game("tv_match", leader=3)
    g.push(engine.Action.parse("3 TTTTT"))  # 够级牌: only the 对头 (6) answers (G6.2)
    c = Completer(g)
    got = c.suggest(read(""))
    assert got[0].line == "6 pass"
    assert all(engine.Action.parse(s.line) in g.legal_plays() for s in got)
    js = c.suggest(read("J"))
    assert js[0].line == "6 JJJJJ" and js[0].words == "五个J 够级"
    # a seat typed: that seat's out-of-turn plays, marked as burns (G7)
    burns = c.suggest(read("5 Q"))
    assert burns and all(s.seat == 5 and s.burn for s in burns)


def test_plain_beats_come_before_beats_that_spend_a_2_or_a_joker() -> None:
    """Players keep their 2s and jokers (the wild cards that fill a play): on a top play the list offers
    the pass, then every beat without a wild card from the lowest rank up, and only then those that spend
    one — never a 42 or a 4小王 between 44 and 66."""
    hands = ["33K", "4466992B", "5", "7", "8", "T"]
    g = engine.Game("tv_match", hands=dict(enumerate(hands, start=1)), leader=1)
    g.push(engine.Action.parse("1 33"))
    got = [s.line for s in Completer(g).suggest(read(""), 20)]
    assert got[:4] == ["2 pass", "2 44", "2 66", "2 99"]
    wild = [i for i, line in enumerate(got) if any(ch in line.split()[1] for ch in "2BR") and i > 0]
    assert wild and min(wild) == 4, got  # 42 4小王 62 6小王 92 9小王 2小王 after the plain pairs


def test_verdict_names_the_clause_of_an_illegal_typed_play() -> None:
    g = engine.Game("tv_match", leader=3)
    g.push(engine.Action.parse("3 TTTTT"))
    v = Completer(g).verdict(read("JJJJ"))
    assert v is not None and v.rule == "G4.1"
    v2 = Completer(g).verdict(read("6 TTTTT"))
    assert v2 is not None and v2.rule == "G4.2" and "步步高" in v2.zh
    assert Completer(g).verdict(read("4 JJJJJ")) is None  # a burn by a non-对头 seat is legal (G7.1)


def test_unknown_hand_leads_are_generated_from_the_typed_cards_and_checked_by_the_engine() -> None:
    g = engine.Game("tv_match", leader=1)
    got = Completer(g).suggest(read("TT"))
    assert got[0].line == "1 TT"
    assert all("TT" in s.cards and engine.Action.parse(s.line) in g.legal_plays() for s in got)
    assert Completer(g).suggest(read("JQ")) == []  # two ordinary ranks never form a play (G3.2)


def test_a_line_typed_where_no_decision_is_taken_is_refused_in_both_languages() -> None:
    """The refusal's English line says what Enter does now (it printed `未接受 refused [match]: ` with
    nothing after it): every mode that takes no decision has its English, with no Chinese in it."""
    import re

    from broadcast.console.controller import Mode, mode_refusal

    for name in ("save", "finish", "lots", "none"):
        v = mode_refusal(Mode(name, "第1局结束：回车存入赛季（Ctrl+S）"))
        assert v.rule == "match" and v.zh == "第1局结束：回车存入赛季（Ctrl+S）"
        assert v.en and not re.search(r"[\u4e00-\u9fff]", v.en), (name, v.en)
    assert "Ctrl+S" in mode_refusal(Mode("save", "")).en and "lots" in mode_refusal(Mode("lots", "")).en
