"""What the referee hears (issue 14): the clause that keeps a seat out and who is to act (Appendix A),
the readings docs/rules.md settles (G6.4, G6.5, G8, G10.5, G11.1, Appendix A's dead play under 四户乱缠),
GJN line ends, and the mid-game check (``check --partial``)."""

from __future__ import annotations

import pytest

from engine import Action, Game, gjn, random_playout
from engine.deal import new_game

from .helpers import game, illegal, legal, play

# ---------------------------------------------------------------- Appendix A: the clause keeping a seat out


def test_appendix_A_G6_2_a_seat_skipped_on_a_gouji_play_is_told_the_duitou_answers() -> None:
    g = game({1: "TTTTT4", 2: "55", 3: "66", 4: "JJJJJ9", 5: "77", 6: "88"})
    play(g, "1 TTTTT")
    for seat in (2, 3, 5, 6):  # none of them passed: G6.2, not G5.2 ("not your turn")
        e = illegal(g, f"{seat} pass", "G6.2")
        assert "only the opposite answers a gouji play" in e.en and "seat 4 answers seat 1's TTTTT" in e.en
        assert "够级牌唯有对头可上" in e.zh and "由其对头4号应答" in e.zh
        illegal(g, f"{seat} yield", "G6.2")


def test_appendix_A_G7_3_during_a_burn_only_the_burners_duitou_answers() -> None:
    g = game({1: "TTTTT4", 2: "JJJJJB8", 3: "66", 4: "QQQQQ9", 5: "KKKKK7", 6: "88"})
    play(g, "1 TTTTT", "2 JJJJJ")  # seat 2 burns
    assert g.burner == 2 and g.pending_seat == 5
    e = illegal(g, "3 pass", "G7.3")
    assert "seat 2 is burning" in e.en and "seat 5" in e.en and "2号烧牌" in e.zh and "5号" in e.zh
    illegal(g, "6 pass", "G7.3")
    illegal(g, "4 pass", "G7.3")
    legal(g, "4 QQQQQ")  # a beat of the burn by another seat is 反烧 (G7.3), not refused
    assert g.burner == 4


def test_appendix_A_G4_3_on_a_dead_play_only_the_duitou_has_a_decision() -> None:
    g = game({1: "5R4", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"})
    play(g, "1 5R")
    assert g.pending_seat == 4
    for seat in (2, 3, 5, 6):
        e = illegal(g, f"{seat} pass", "G4.3")
        assert "dead" in e.en and "seat 4" in e.en and "扣牌" in e.zh
        illegal(g, f"{seat} 6R" if seat == 2 else f"{seat} {seat + 3}{seat + 3}", "G4.3")
    illegal(g, "4 8R" if False else "4 88", "G4.3")  # the 对头 itself may only 扣牌
    legal(g, "4 pass")
    assert g.last_play is None and g.pending_seat == 1


def test_appendix_A_G7_1_a_burn_after_the_duitou_passed_is_not_a_lead_error() -> None:
    g = game({1: "TTTTT4", 2: "JJJJJ8", 3: "66", 4: "QQQQQ9", 5: "77", 6: "88"})
    play(g, "1 TTTTT", "4 pass")  # the TTTTT lives (G6.4): seat 1 leads
    assert g.last_play is None and g.pending_seat == 1
    e = illegal(g, "2 JJJJJ", "G7.1")
    assert "seat 4 passed on seat 1's TTTTT" in e.en and "seat 1 is to lead" in e.en
    assert "烧牌须在对头上牌之前" in e.zh
    illegal(g, "2 88" if False else "2 8", "G5.1")  # not a beat of the TTTTT: the lead is seat 1's
    illegal(g, "3 pass", "G5.1")
    legal(g, "1 4")
    illegal(g, "3 66", "G5.2")  # the next action closes that window: an ordinary turn question again


def test_appendix_A_G7_4_a_seat_that_passed_on_the_gouji_play_may_not_burn_it() -> None:
    # seat 3 played out: seat 6 is 无头 and acts before the 对头 (2) on seat 5's QQQ
    g = game({1: "66", 2: "KKK7", 3: "5", 4: "88", 5: "QQQ98", 6: "AAA4"}, leader=3)
    play(g, "3 5", "4 pass", "5 9", "6 pass", "1 pass", "2 pass", "5 QQQ", "6 pass")
    e = illegal(g, "6 AAA", "G7.4")
    assert "a seat that passed never burns" in e.en and "seat 2" in e.en and "过牌不烧" in e.zh


def test_appendix_A_G5_2_a_seat_that_passed_in_the_round() -> None:
    g = game({1: "5", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"})
    play(g, "1 5", "2 pass")
    e = illegal(g, "2 pass", "G5.2")
    assert "seat 2 passed in this round" in e.en and "seat 3 is next in turn" in e.en
    assert "2号本轮已过牌" in e.zh and "应由3号" in e.zh
    e = illegal(g, "4 8", "G5.2")
    assert "not seat 4's turn" in e.en and "seat 3" in e.en


def test_appendix_A_G5_1_the_lead_is_someone_elses() -> None:
    g = game({1: "5", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"})
    e = illegal(g, "3 pass", "G5.1")
    assert "seat 1 holds the lead" in e.en and "发牌权在1号" in e.zh
    illegal(g, "3 77", "G5.1")
    illegal(g, "1 pass", "G5.1")


def test_appendix_A_G10_2_four_way_out_of_turn_names_the_seat_to_act() -> None:
    g = game({1: "5", 2: "6", 3: "TTTTT9", 4: "8A", 5: "JJJJJ", 6: "4Q"})
    play(g, "1 5", "2 6", "3 pass", "4 pass", "5 pass", "6 pass", "3 TTTTT")
    e = illegal(g, "6 pass", "G10.2")
    assert "seat 4 is next in turn" in e.en and "四户乱缠" in e.zh


def test_G8_the_message_says_why_a_seat_is_wutou_here_its_duitou_is_men() -> None:
    # dagang: seat 1 is 闷 (G9.2), so seat 4 is 无头 (G8) and acts first on seat 3's QQQ, before the 对头 6
    g = game({1: "KK33", 2: "55", 3: "TQQQ7", 4: "AA99", 5: "66", 6: "88"}, rules="dagang")
    play(g, "1 KK", "4 AA")
    assert g.status(1) == "men" and g.is_wutou(4)
    play(g, "5 pass", "6 pass", "2 pass", "3 pass", "4 9", "5 pass", "6 pass", "2 pass", "3 T", "4 pass")
    play(g, "6 pass", "3 QQQ")
    assert g.pending_seat == 4
    e = illegal(g, "5 pass", "G6.2")
    assert "seat 4 is to act first, in turn: it is headless because its opposite, seat 1, is stuck" in e.en
    assert "4号无头，因其对头1号已闷" in e.zh
    e = illegal(g, "6 pass", "G5.2")  # the 对头 answers after the 无头 seat before it
    assert "after seat 4" in e.en and "stuck with 3s" in e.en


def test_G10_1_an_empty_hand_is_not_told_it_has_played_out() -> None:
    rec = '[Rules "tv_match"]\n[Hand1 ""] [Hand2 "5"] [Hand3 "6"] [Hand4 "7"] [Hand5 "8"] [Hand6 "9"]\n'
    out = gjn.check(rec + '[Leader "2"]\n1 5\n')
    err = out["error"]
    assert (err["move"], err["line"], err["seat"], err["rule"]) == (1, 4, 1, "G10.1")
    assert "played out" not in err["message"] and "holds no cards" in err["message"]
    assert "seat 2 is to lead" in err["message"] and "1号无牌" in err["message"]


def test_G10_1_a_played_out_seat_is_told_its_title() -> None:
    g = game({1: "5", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"})
    play(g, "1 5")
    e = illegal(g, "1 pass", "G10.1")
    assert "seat 1 has played out (first)" in e.en and "1号已出完牌（头科）" in e.zh


def test_G7_burn_that_fails_to_beat_says_it_was_taken_as_a_burn() -> None:
    g = game({1: "TTTTT4", 2: "JJJJ8", 3: "66", 4: "QQQQQ9", 5: "77", 6: "88"})
    play(g, "1 TTTTT")
    e = illegal(g, "2 JJJJ", "G4.1")
    assert e.en.startswith("seat 2's burn of seat 1's TTTTT fails:")
    assert "2号烧1号的TTTTT不成立" in e.zh


# ---------------------------------------------------------------- readings docs/rules.md settles


def _wutou_4_seat_5_leads(**hands: str) -> Game:
    """Seat 1 plays out first (头科), so seat 4 is 无头 (G8); then seat 5 wins a round and leads."""
    h = {1: "5", 2: "67", 3: "8", 4: "", 5: "9", 6: "4"}
    h.update({int(k[1:]): v for k, v in hands.items()})
    g = game(h)
    play(g, "1 5", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass")  # 接风: seat 2 leads
    play(g, "2 6", "3 pass", "4 pass", "5 9", "6 pass", "2 pass")
    assert g.is_wutou(4) and g.pending_seat == 5 and g.last_play is None
    return g


def test_G6_4_G8_a_wutou_seat_after_the_duitou_acts_in_its_turn_on_a_protected_gouji() -> None:
    # docs/rules.md G6.4/G8 (settled 2026-12-01): seat 1 out, seat 4 无头; seat 5's AA, its 对头 seat 2
    # passes, and seat 4 (after seat 2 in turn order) may still pass or beat
    g = _wutou_4_seat_5_leads(s2="67", s3="8", s4="228", s5="9AA4", s6="422")
    play(g, "5 AA")
    assert g.pending_seat == 2  # the 对头 first: seat 6 and seat 3 are skipped (G6.2)
    play(g, "2 pass")
    top = g.last_play
    assert g.pending_seat == 4 and top is not None and top.seat == 5 and str(top.play) == "AA"
    assert g.options(4) == {"pass", "play"}
    e = illegal(g, "6 22", "G7.1")  # a burn now comes after the 对头 acted: too late
    assert "seat 2 has passed on seat 5's AA" in e.en and "其对头2号已过牌" in e.zh
    assert "seat 4 is to act, in turn after the opposite (seat 2) passed: it is headless" in e.en
    assert "应由4号在对头2号过牌后按顺序行动" in e.zh
    illegal(g, "5 4", "G5.2")  # the AA has not lived yet: seat 5 may not lead
    beat = g.copy()
    legal(g, "4 pass")  # every seat that may act on it has passed: the AA lives, seat 5 leads
    assert g.last_play is None and g.pending_seat == 5 and g.opened == [5]
    e = illegal(g, "6 22", "G7.1")
    assert "and so did every headless seat" in e.en and "无头者亦过" in e.zh
    legal(beat, "4 22")  # or beats it, in turn: not a burn
    assert beat.burner is None and beat.events()[-1].name != "burn"
    assert beat.pending_seat == 5  # 无头: its 22 is answered in plain order (seat 2 passed: G5.2)
    assert beat.passed_this_round() == {2}


def test_G6_4_a_wutou_seat_before_the_duitou_still_acts_first() -> None:
    g = game({1: "5", 2: "KK4", 3: "66", 4: "AA9", 5: "77", 6: "88"})
    play(g, "1 5", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass", "2 KK")  # seat 4 无头, before 5
    assert g.pending_seat == 4
    illegal(g, "5 pass", "G5.2")
    play(g, "4 pass", "5 pass")
    assert g.last_play is None and g.pending_seat == 2  # both passed: the KK lives


def test_G8_wutou_after_men_zha_shao_or_revolution() -> None:
    # 闷 (G9.2): seat 1 is stuck with 3s, so seat 4 is 无头: its 够级牌 AA is not protected
    g = game({1: "KK33", 2: "55", 3: "66", 4: "AA99", 5: "22", 6: "77"}, rules="dagang")
    play(g, "1 KK", "4 AA")
    assert g.status(1) == "men" and g.is_wutou(4) and g.pending_seat == 5
    legal(g, "5 22")  # in turn, no burn
    assert g.burner is None
    # 诈烧 (G7.4): seat 2 burns and fails, so seat 5 is 无头 and acts in turn on a protected 够级牌
    g = game({1: "TTTTT4", 2: "JJJJJB89", 3: "QQQ6", 4: "AAAAA9", 5: "KKK7", 6: "88"})
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass", "2 8")
    assert g.status(2) == "zha_shao" and g.is_wutou(5) and g.pending_seat == 3
    play(g, "3 QQQ")  # protected: the 对头 (6) answers, and the 无头 seat 5 before it acts first
    assert g.pending_seat == 5
    legal(g, "5 KKK")
    # 革命 (G10.5): seat 1 sits out, so seat 4 is 无头 (其对头的够级对象不复存在)
    g = game({1: "KK", 2: "55", 3: "66", 4: "AA9", 5: "22", 6: "77"}, leader=4, rules="dagang")
    play(g, "1 revolt")
    assert g.is_wutou(4)
    play(g, "4 AA")
    assert g.pending_seat == 5  # AA is not protected
    legal(g, "5 22")


@pytest.mark.parametrize("burner", [3, 6])
def test_G8_G7_3_a_wutou_seats_in_turn_beat_of_a_burn_play_is_fan_shao(burner: int) -> None:
    # docs/rules.md G8 (settled 2026-12-01): seat 4 is 无头 and beats the burner's play in its own turn:
    # before the burner's 对头 (burner 3, 对头 6) or after it (burner 6, 对头 3)
    g = _wutou_4_seat_5_leads(s2="67", s3="JJJJJ8", s4="QQQQQ8", s5="9TTTTT4", s6="JJJJJ8")
    play(g, "5 TTTTT", f"{burner} JJJJJ")
    assert g.burner == burner and g.events()[-1].name == "burn"
    if burner == 6:
        assert g.pending_seat == 3  # the burner's 对头 answers first
        play(g, "3 pass")
    assert g.pending_seat == 4
    legal(g, "4 QQQQQ")  # an in-turn beat by a non-对头: 反烧, seat 4 takes the burn over
    assert g.events()[-1] == (g.events()[-1].move, "fan_shao", 4)
    assert g.burner == 4


def test_G10_2_a_player_out_without_playing_out_counts_toward_the_two() -> None:
    # docs/rules.md G10.2 (settled 2026-12-01): 革命, 诈烧 and 闷 players count toward the two out
    g = game({1: "KK33", 2: "55", 3: "66", 4: "AA", 5: "77", 6: "88"}, rules="dagang")
    play(g, "1 KK")
    assert not g.four_way
    play(g, "4 AA")  # seat 1 闷, seat 4 头科: two out
    assert g.status(1) == "men" and g.four_way and g.events()[-1].name == "four_way"
    g = game({1: "TTTTT4", 2: "JJJJJB8", 3: "66", 4: "99", 5: "77", 6: "QQ"})
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass", "2 8")  # 诈烧: one out, no 四户乱缠 yet
    assert g.status(2) == "zha_shao" and not g.four_way and g.pending_seat == 3
    play(g, "3 66")  # seat 3 头科: two out
    assert g.four_way and g.pending_seat == 4
    g = game({1: "5", 2: "KK", 3: "66", 4: "99", 5: "77", 6: "QQ"}, rules="dagang")
    play(g, "2 revolt")
    assert not g.four_way
    play(g, "1 5")  # 革命 and 头科: two out
    assert g.four_way


def test_G10_5_revolutionary_is_third_when_the_mates_take_first_and_second_the_others_quan_san() -> None:
    g = game({1: "KK", 2: "K", 3: "5", 4: "A", 5: "6", 6: "2"}, leader=3, rules="dagang")
    play(g, "1 revolt", "3 5", "4 pass", "5 6")
    r = g.result()
    assert r.quan_san and r.finish_order == [3, 5, 1]
    assert r.titles == {1: "三科", 3: "头科", 5: "二科", 2: "圈三", 4: "圈三", 6: "圈三"}
    assert r.team_points == {"odd": 12, "even": 0}  # G11.3: 串三户 scores 12


def test_G10_3_a_revolutionary_of_the_quan_san_team_is_quan_san_not_fourth() -> None:
    # docs/rules.md G10.3 (settled 2026-12-01): seat 2 declares 革命 (四科 while the game runs), then the
    # odd seats take 头科, 二科 and 三科: the even team is 圈三, seat 2 included
    g = game({1: "5", 2: "KK", 3: "6", 4: "4", 5: "7", 6: "8"}, rules="dagang")
    play(g, "2 revolt", "1 5")
    assert g.titles_so_far() == {1: "头科", 2: "四科"}
    play(g, "3 6", "4 pass", "5 7")
    r = g.result()
    assert r.quan_san and r.finish_order == [1, 3, 5] and r.revolt == [2]
    assert r.titles == {1: "头科", 3: "二科", 5: "三科", 2: "圈三", 4: "圈三", 6: "圈三"}
    assert r.team_points == {"odd": 12, "even": 0}  # G11.3: 串三户 scores 12


@pytest.mark.parametrize(
    ("hand", "lead"),
    [("KK28", "K2"), ("228", "22"), ("2228", "222"), ("9B8", "9B"), ("BB8", "BB"), ("AAR8", "AAR")]
    + [("2B8", "2B")],
)
def test_G6_5_a_play_holding_any_2_or_joker_never_opens(hand: str, lead: str) -> None:
    g = game({1: hand, 2: "55", 3: "66", 4: "77", 5: "99", 6: "TT"})
    play(g, f"1 {lead}", "4 pass")  # 够级牌 (G6.1) that lives, or a dead play 扣牌'd
    assert g.last_play is None and g.pending_seat == 1
    assert g.opened == []
    g = game({1: "KK8", 2: "55", 3: "66", 4: "77", 5: "99", 6: "TT"})
    play(g, "1 KK", "4 pass")  # the pure one does
    assert g.opened == [1]


def test_appendix_A_dead_play_under_four_way_only_the_duitou_has_a_line() -> None:
    g = game({1: "5", 2: "6", 3: "9R8", 4: "77", 5: "JJ", 6: "QQ"})
    play(g, "1 5", "2 6", "3 pass", "4 pass", "5 pass", "6 pass")
    assert g.four_way and g.pending_seat == 3  # 接风
    play(g, "3 9R")
    assert g.pending_seat == 6
    illegal(g, "4 pass", "G4.3")  # not G10.2: a dead play keeps everyone but the 对头 out
    illegal(g, "5 JJ", "G4.3")
    legal(g, "6 pass")
    assert g.last_play is None and g.pending_seat == 3
    # and with the 对头 out, the round ends at once
    g = game({1: "5", 2: "6", 3: "9R8", 4: "77", 5: "JJ", 6: ""})
    play(g, "1 5", "2 6", "3 pass", "4 pass", "5 pass", "3 9R")
    assert g.four_way
    assert g.last_play is None and g.pending_seat == 3


def test_G11_1_a_tv_match_game_is_22_points_or_32_to_0() -> None:
    seen = set()
    for seed in range(40):
        r = random_playout(new_game("tv_match", seed=seed), seed=seed)
        total = r.team_points["odd"] + r.team_points["even"]
        assert total == (32 if r.quan_san else 22) == 7 + 5 + 4 + 3 + 2 + 1 + (10 if r.quan_san else 0)
        seen.add(r.quan_san)
    assert False in seen


# ---------------------------------------------------------------- GJN: lines, tokens, line numbers


@pytest.mark.parametrize("ch", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_appendix_A_only_LF_ends_a_line(ch: str) -> None:
    text = (
        f'[Rules "tv_match"] ; a comment with {ch} in it\n'
        f'[Event "第12期{ch}第2局"]\n'
        '[Leader "1"]\n'
        f"1 TTTTT ; only the 对头{ch}answers\n"
        "4 JJJJJ\n"
        "1 pass\n"
        "4 3Z\n"
    )
    with pytest.raises(gjn.GJNError) as ei:
        gjn.parse(text, "r.gjn")
    assert ei.value.line == 7  # not shifted by the characters above
    rec = gjn.parse(text.replace("4 3Z\n", "4 33\n"))
    assert [m.line for m in rec.moves] == [4, 5, 6, 7]
    assert rec.tag("Event") == f"第12期{ch}第2局"


def test_appendix_A_CRLF_and_lone_CR_are_read_as_LF() -> None:
    text = '[Leader "1"]\r\n1 TTTTT\r4 JJJJJ\r\n1 pass\n4 3Z\r'
    with pytest.raises(gjn.GJNError) as ei:
        gjn.parse(text)
    assert ei.value.line == 5


def test_appendix_A_a_bad_token_is_quoted_at_most_40_characters() -> None:
    long = "X" * 500
    texts = [f'[Leader "1"]\n1 {long} extra\n', f'[Leader "{long}"]\n', f'[Rules "{long}"]\n']
    texts += [f'[Leader "1"]\n{long} pass\n', f'[Leader "1"]\n[Count1 "{long}"]\n']
    for text in texts:
        with pytest.raises(gjn.GJNError) as ei:
            gjn.parse(text)
        assert "X" * 41 not in str(ei.value) and "X" * 38 + "…" in str(ei.value), str(ei.value)
        assert len(str(ei.value)) < 160


def test_a_bad_operator_entry_is_quoted_at_most_40_characters() -> None:
    with pytest.raises(ValueError) as ei:
        Action.parse("1 " + "X" * 300 + " extra")
    assert "X" * 38 + "…" in str(ei.value) and "X" * 39 not in str(ei.value)


def test_appendix_A_a_record_without_moves_names_a_real_line() -> None:
    out = gjn.check('; a header only\n[Rules "tv_match"]\n[Leader "2"]\n\n')
    err = out["error"]
    assert err["rule"] == "G10.4" and err["move"] == 1 and err["line"] == 3 and err["seat"] == 2
    assert "未完" in err["message"] and "seat 2 is to act" in err["message"]


def test_appendix_A_a_tag_that_only_looks_like_a_hand_is_an_ordinary_tag() -> None:
    rec = gjn.parse('[Handp "not cards"] [Hand1 "5"]\n[Leader "1"]\n1 5\n')
    assert rec.tag("Handp") == "not cards" and rec.hands() == {1: "5"}


def test_appendix_A_the_hand_tag_that_overfills_the_pack_is_named() -> None:
    text = '[Rules "tv_match"]\n[Hand1 "RRR"]\n[Hand2 "5"]\n[Hand3 "RR"]\n[Leader "1"]\n'
    with pytest.raises(gjn.GJNError) as ei:
        gjn.parse(text)
    assert ei.value.line == 4 and "5 cards of rank R" in ei.value.message


# ---------------------------------------------------------------- check --partial


def test_partial_check_of_a_game_under_way() -> None:
    text = (
        '[Rules "tv_match"]\n'
        '[Hand1 "TTTTT4"] [Hand2 "JJJJJB8"] [Hand3 "5"] [Hand4 "QQQQQ9"] [Hand5 "KKKKK7"] [Hand6 "66"]\n'
        '[Leader "3"]\n'
        "3 5\n4 pass\n5 pass\n6 pass\n1 pass\n2 pass\n"  # seat 3 头科; seat 6 is 无头; seat 4 leads
        "4 QQQQQ\n"
    )
    st = gjn.check(text, partial=True)
    assert st["ok"] is True and st["over"] is False and st["moves"] == 7
    # seat 6 is 无头 (its 对头 3 played out) and acts before seat 1, the 对头 of 4; seat 5 may burn
    assert st["to_act"] == 6 and st["wutou"] == [6] and st["options"] == ["pass"]
    assert st["burns"] == [5] and st["top"] == {"seat": 4, "play": "QQQQQ"}
    assert st["titles"] == {"3": "头科"} and st["finish_order"] == [3]
    assert st["cards_left"] == {"1": 6, "2": 7, "3": 0, "4": 1, "5": 6, "6": 2}
    assert not gjn.check(text)["ok"]  # without --partial the same record is 未完 (G10.4)
    bad = gjn.check(text + "2 pass\n", partial=True)
    assert bad["ok"] is False and bad["error"]["rule"] == "G6.2" and bad["error"]["move"] == 8
    st = gjn.check(text + "6 pass\n1 pass\n", partial=True)  # the QQQQQ lives (G6.4)
    assert st["to_act"] == 4 and st["top"] is None and st["options"] == ["play"]


def test_partial_check_of_a_finished_game_gives_the_result_too() -> None:
    g = new_game("dagang", seed=3)
    random_playout(g, seed=3)
    text = gjn.write(gjn.from_game(g))
    st = gjn.check(text, partial=True)
    full = gjn.check(text)
    assert st["over"] is True and st["to_act"] is None and st["options"] == []
    for key in ("finish_order", "titles", "team_points", "quan_san", "opened"):
        assert st[key] == full[key]


def test_titles_so_far_bottom_titles_and_revolution() -> None:
    g = game({1: "TTTTT", 2: "JJJJJB8", 3: "66", 4: "99", 5: "77", 6: "55"})
    play(g, "1 TTTTT", "2 JJJJJ")
    assert g.titles_so_far() == {1: "头科"}
    play(g, "4 pass", "5 pass", "2 8")  # 诈烧: 大落 already
    assert g.titles_so_far() == {1: "头科", 2: "大落"}
    g = Game("dagang", hands={1: "KK", 2: "55", 3: "66", 4: "77", 5: "88", 6: "99"}, leader=2)
    play(g, "1 revolt")
    assert g.titles_so_far() == {1: "四科"}
