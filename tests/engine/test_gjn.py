"""GJN records (Appendix A): parse errors name the line; write -> parse -> replay round-trips."""

from __future__ import annotations

import random

import pytest

from engine import Action, Game, GJNError, IllegalAction, NotAPlay, PlayError, deal, gjn, random_playout


def test_appendix_A_parse_tags_comments_and_moves() -> None:
    text = '[Rules "tv_match"] [Leader "2"] ; a comment\n[Seat1 "张;三"]\n2 TTTTT ; five tens\n5 pass\n'
    rec = gjn.parse(text)
    assert rec.rules == "tv_match" and rec.leader == 2 and rec.names() == {1: "张;三"}
    assert [str(m) for m in rec.moves] == ["2 TTTTT", "5 pass"]
    assert rec.moves[0].line == 3


@pytest.mark.parametrize(
    "text,line,fragment",
    [
        ('[Leader "1"]\n1 TTX\n', 2, "bad cards"),
        ('[Leader "1"]\n1 3Z\n', 2, "bad cards"),
        ('[Leader "1"]\n1 TTJ\n2 3Z\n', 3, "bad cards"),
        ('[Leader "1"]\n1 TTJ\n0 TT\n', 3, "seat must be 1..6"),
        ('[Leader "1"]\n1 TTJ\n2 T T\n', 3, "a move is"),
        ('[Leader "1"]\n1 TTJ\n[Event "x"]\n', 3, "before the moves"),
        ('[Leader "1"]\n7 TT\n', 2, "seat must be 1..6"),
        ('[Leader "1"]\n1 TT TT\n', 2, "a move is"),
        ('[Rules "tv-match"]\n', 1, "unknown rules"),
        ('[Leader "9"]\n', 1, "seat 1..6"),
        ('[Hand1 "TTZ"]\n', 1, "Hand1"),
        ('[Hand7 "TT"]\n', 1, "seats are 1..6"),
        ('[Leader "1"\n', 1, "malformed tag"),
        ('[Leader "1"]\n1 TT\n[Event "x"]\n', 3, "before the moves"),
        ('[Leader "1"] [Leader "2"]\n', 1, "duplicate"),
        ('[Hand1 "RRR"] [Hand2 "RR"]\n', 1, "pack has 4"),
    ],
)
def test_appendix_A_malformed_records_name_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(GJNError) as ei:
        gjn.parse(text, "x.gjn")
    assert ei.value.line == line
    assert fragment in str(ei.value)
    assert str(ei.value).startswith(f"x.gjn:{line}: ")


def test_G3_2_mixed_ranks_in_a_record_are_an_illegal_move_not_a_format_error() -> None:
    text = '[Leader "1"]\n1 TTTTT\n4 pass\n\n1 TTJ ; two ordinary ranks\n2 pass\n'
    rec = gjn.parse(text, "m.gjn")  # no GJNError: every card is a G2.4 symbol
    bad = rec.moves[2]
    assert isinstance(bad.action, NotAPlay) and (bad.seat, bad.line, str(bad)) == (1, 5, "1 TTJ")
    assert bad.action.kind == "play" and bad.action.cards is None and bad.action.error.rule == "G3.2"
    assert gjn.write(rec).splitlines()[-2:] == ["1 TTJ", "2 pass"]  # written back as read
    assert gjn.parse(gjn.write(rec)) == rec
    with pytest.raises(IllegalAction) as ei:
        gjn.replay(rec)
    e = ei.value
    assert (e.move, e.line, e.seat, e.rule) == (3, 5, 1, "G3.2")
    assert "TTJ is not a play" in e.en and "不同点数牌不可混合发出" in e.zh
    out = gjn.check(text, "m.gjn")
    assert out == {
        "ok": False,
        "error": {"move": 3, "line": 5, "seat": 1, "rule": "G3.2", "message": e.message},
    }


def test_G3_2_comes_before_turn_and_possession() -> None:
    # seat 3 is not to act and holds no J: the cards are still reported first (as the operator's
    # game.play does, since Action.parse refuses them)
    text = '[Leader "1"] [Hand3 "TT"]\n3 TTJ\n'
    assert gjn.check(text)["error"]["rule"] == "G3.2"
    g = Game("tv_match", leader=1)
    with pytest.raises(IllegalAction) as ei:
        g.push(NotAPlay(3, "9T"))
    assert ei.value.rule == "G3.2" and ei.value.seat == 3 and ei.value.move == 1 and g.moves == []
    assert NotAPlay(3, "9T") not in g.legal_plays()
    assert NotAPlay(3, "9T") == NotAPlay(3, "T9") != Action.parse("3 TT")
    with pytest.raises(PlayError):
        Action.parse("3 9T")  # the operator's path (broadcast/game/actions.py) is unchanged
    with pytest.raises(ValueError):
        NotAPlay(3, "TT")  # a play is not a NotAPlay


def test_G12_missing_leader_is_a_format_error() -> None:
    with pytest.raises(GJNError) as ei:
        gjn.check("1 TT\n", "r.gjn")
    assert "Leader" in str(ei.value)


def test_appendix_A_replay_error_carries_move_line_seat() -> None:
    rec = gjn.parse('[Leader "1"]\n1 TTTTT\n\n4 TTTTT\n')
    with pytest.raises(IllegalAction) as ei:
        gjn.replay(rec)
    e = ei.value
    assert (e.move, e.line, e.seat, e.rule) == (2, 4, 4, "G4.2")


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_appendix_A_write_parse_replay_roundtrip(rules: str, seed: int) -> None:
    g = Game(rules, hands=deal(seed), leader=seed)
    random_playout(g, seed=seed)
    rec = gjn.from_game(g, [("Event", "t")])
    text = gjn.write(rec)
    rec2 = gjn.parse(text)
    assert rec2 == rec
    assert gjn.write(rec2) == text
    g2 = gjn.replay(rec2)
    assert g2.result() == g.result()
    for s in range(1, 7):
        assert g2.hand(s) == g.hand(s)


def test_appendix_A_unknown_hands_count_only() -> None:
    out = gjn.check('[Leader "1"]\n1 TTTTT\n4 JJJJJ\n1 pass\n4 33\n5 pass\n')
    assert out["ok"] is False and out["error"]["rule"] == "G10.4" and out["error"]["move"] == 6


def test_G2_1_unknown_hands_cannot_exceed_the_pack() -> None:
    text = '[Leader "1"]\n1 RRRR\n4 pass\n1 R\n'
    out = gjn.check(text)
    assert out["ok"] is False and out["error"]["rule"] == "G2.1" and out["error"]["move"] == 3


def test_appendix_A_unknown_hands_legal_plays_are_lazy_and_legal() -> None:
    from itertools import islice

    g = gjn.replay(gjn.parse('[Leader "1"]\n1 TTTTT\n'))
    assert g.pending_seat == 4 and g.hand(4) is None
    first = list(islice(g.legal_plays(), 50))
    assert first[0] == Action.pass_(4) and all(a in g.legal_plays() for a in first)
    assert {a.seat for a in first} == {4}  # the pending seat's actions come first
    assert all(a.cards is not None and a.cards.size == 5 for a in first[1:])
    listed = list(g.legal_plays())
    seats = [a.seat for a in listed]
    # then the burns of the four seats that may burn (G7.1): not the player, not its 对头 after its turn
    assert seats == sorted(seats, key=lambda s: s != 4) and set(seats) == {2, 3, 4, 5, 6}
    burns = [a for a in listed if a.seat != 4]
    assert burns and all(a.kind == "play" and a.cards is not None and a.cards.size == 5 for a in burns)
    assert all(g.why_illegal(a) is None for a in burns[::40])


def _tags_by_regex(text: str) -> list[tuple[str, str]]:
    """Appendix A's tag grammar read with the regular expression alone (what the parser's fast path for
    the usual one-tag line must agree with)."""
    return [
        (m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"))
        for m in gjn._TAG.finditer(text)  # noqa: SLF001
    ]


@pytest.mark.parametrize(
    "line",
    [
        '[Event "第7期 海选"]',
        '[ Event  "x"]',
        '[Event\t"x"]',
        '[Event "a \\"quoted\\" name"]',
        '[Event "back\\\\slash"]',
        '[Event ""]',
        '[Event "x"] [Site "y"]',
        '[Event "x" ]',
        '[Seat1 "张;三"]',
        '[Event "x"]  ; a comment',
    ],
)
def test_appendix_A_every_tag_line_reads_as_the_grammar_says(line: str) -> None:
    rec = gjn.parse(line + '\n[Leader "1"]\n')
    want = _tags_by_regex(line.split(" ; ")[0] if " ; " in line else line)
    assert rec.tags == [*want, ("Leader", "1")]


@pytest.mark.parametrize(
    "line",
    ['[Event x"]', '[1Event "x"]', '[Ev-ent "x"]', '[Event"x"]', '["x"]', '[Event "x"]]', '[É "x"]'],
)
def test_appendix_A_a_line_the_grammar_refuses_is_a_malformed_tag(line: str) -> None:
    with pytest.raises(GJNError, match="malformed tag") as ei:
        gjn.parse(line + "\n", "t.gjn")
    assert ei.value.line == 1


def test_line_endings_comments_and_blank_lines_do_not_change_a_record() -> None:
    g = Game("tv_match", hands=deal("endings"), leader=1)
    g.play_randomly(random.Random(5))
    text = gjn.write(gjn.from_game(g))
    rec = gjn.parse(text)
    variants = [
        text.replace("\n", "\r\n"),
        text.replace("\n", "\r"),
        "\ufeff" + text,
        text.replace("\n", "  ; c\n"),
        text.replace("\n", "\n\n"),
        "\n".join(" " + line + "\t" for line in text.split("\n")),
    ]
    for v in variants:
        other = gjn.parse(v)
        assert other == rec and gjn.check(v) == gjn.check(text)
    # the line numbers are those of the text read
    doubled = gjn.parse(text.replace("\n", "\n\n"))
    assert [m.line for m in doubled.moves] == [2 * m.line - 1 for m in rec.moves]


def test_a_record_s_moves_may_be_changed_before_it_is_replayed() -> None:
    text = '[Hand1 "TTTTT"] [Hand4 "AAAAA"] [Count2 "3"] [Count3 "3"] [Count5 "3"] [Count6 "3"]\n'
    text += '[Leader "1"]\n1 TTTTT\n4 AAAAA\n'
    rec = gjn.parse(text)
    assert gjn.check_record(rec)["ok"] is False  # seat 1 played out, seat 4 beats: not over yet
    rec.moves = rec.moves[:1]
    g = gjn.replay(rec)
    assert g.move_count == 1 and g.pending_seat == 4
    rec.moves.append(gjn.Move(4, Action.parse("4 pass"), 9))
    assert [str(a) for a in rec.actions()] == ["1 TTTTT", "4 pass"]
    assert gjn.write(rec).splitlines()[-1] == "4 pass"
    # a [Hand] tag changed after parsing is the hand replayed (not the one parsed)
    rec.set_tag("Hand1", "TTTT3")
    with pytest.raises(IllegalAction) as ei:
        gjn.replay(rec)
    assert ei.value.move == 1 and ei.value.rule.startswith("G")
