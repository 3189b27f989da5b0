"""One or more tests per clause of docs/rules.md (the clause id is in each test's name)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Action, CardError, Game, Play, PlayError, Rank, deal, format_cards, parse_cards
from engine.cards import TOTALS, beat_error
from engine.game import NEXT, OPP, team_of

from .helpers import game, illegal, legal, play

# ---------------------------------------------------------------- G1 table


def test_G1_1_order_and_G1_3_opposites() -> None:
    assert [NEXT[s] for s in range(1, 7)] == [2, 3, 4, 5, 6, 1]
    assert [OPP[s] for s in range(1, 7)] == [4, 5, 6, 1, 2, 3]


def test_G1_2_teams_alternate() -> None:
    assert [team_of(s) for s in range(1, 7)] == ["odd", "even"] * 3


# ---------------------------------------------------------------- G2 cards


def test_G2_1_pack_is_216_cards() -> None:
    assert sum(TOTALS) == 216 and TOTALS[Rank.TWO] == 16 and TOTALS[Rank.BIG_JOKER] == 4
    hands = deal(seed="x")
    counts = [0] * 15
    for h in hands:
        for c in h:
            counts[c] += 1
    assert counts == list(TOTALS)


def test_G2_2_rank_order() -> None:
    assert Rank.BIG_JOKER > Rank.SMALL_JOKER > Rank.TWO > Rank.ACE > Rank.KING > Rank.THREE


def test_G2_4_notation_ten_as_T_or_10() -> None:
    assert parse_cards("10T") == (Rank.TEN, Rank.TEN)
    assert format_cards(parse_cards("3RB210")) == "RB2T3"
    assert str(Play.parse("QBQQ")) == "QQQB"
    with pytest.raises(CardError):
        parse_cards("TTX")
    with pytest.raises(CardError):
        parse_cards("1")
    with pytest.raises(CardError):
        parse_cards("RRRRR")  # only 4 大王 in the pack


# ---------------------------------------------------------------- G3 plays


def test_G3_2_ranks_may_not_mix() -> None:
    with pytest.raises(PlayError) as ei:
        Play.parse("TTJ")
    assert ei.value.rule == "G3.2"


def test_G3_3_G3_4_wild_cards_attach_to_a_base() -> None:
    p = Play.parse("JJ22")
    assert p.base == Rank.JACK and p.size == 4 and p.twos == 2
    assert Play.parse("QQQB").base == Rank.QUEEN


def test_G3_1_G3_5_a_play_is_from_the_hand_and_size_counts_wilds() -> None:
    g = game({1: "TT2B", 2: "JJJJ", 3: "5", 4: "6", 5: "7", 6: "8"})
    illegal(g, "1 TTT", "G3.1")
    legal(g, "1 TT2B")
    assert g.last_play == (1, Play.parse("TT2B")) and Play.parse("TT2B").size == 4


def test_G3_6_threes_are_ordinary_in_tv_match() -> None:
    g = game({1: "333B", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"})
    legal(g, "1 33B")


def test_G3_7_wild_only_plays() -> None:
    assert Play.parse("222").base == Rank.TWO
    br = Play.parse("BR")
    assert br.base == Rank.SMALL_JOKER and br.bigs == 1 and br.is_dead
    assert Play.parse("22B").base == Rank.TWO


# ---------------------------------------------------------------- G4 beating


def test_G4_1_same_size() -> None:
    assert beat_error(Play.parse("JJJ"), Play.parse("TT"))[0] == "G4.1"  # type: ignore[index]


def test_G4_1_message_counts_one_card_in_the_singular() -> None:
    """G4.1's English says "1 card" and "2 cards"; the Chinese is unchanged (张 has no plural)."""
    rule, en, zh = beat_error(Play.parse("JJ"), Play.parse("T"))  # type: ignore[misc]
    assert rule == "G4.1"
    assert en == "JJ has 2 cards but T has 1 card: sizes must match", en
    assert zh == "张数不同：JJ为2张，T为1张"
    rule, en, _zh = beat_error(Play.parse("J"), Play.parse("TT"))  # type: ignore[misc]
    assert en == "J has 1 card but TT has 2 cards: sizes must match", en


def test_G4_2_base_must_be_higher() -> None:
    assert beat_error(Play.parse("TT"), Play.parse("TT"))[0] == "G4.2"  # type: ignore[index]
    assert Play.parse("J2").beats(Play.parse("TT"))
    assert not Play.parse("T2").beats(Play.parse("TT"))


def test_G4_3_dead_play_cannot_be_beaten() -> None:
    assert beat_error(Play.parse("RR"), Play.parse("3R"))[0] == "G4.3"  # type: ignore[index]
    g = game({1: "5R9", 2: "6R", 3: "7", 4: "8R", 5: "9", 6: "T"})
    play(g, "1 5R")
    assert g.pending_seat == 4  # only the 对头 扣牌
    illegal(g, "4 8R", "G4.3")
    illegal(g, "2 6R", "G4.3")
    play(g, "4 pass")
    assert g.last_play is None and g.pending_seat == 1


def test_G4_4_small_joker_needs_as_many_big_jokers() -> None:
    p = Play.parse("9B")
    assert beat_error(Play.parse("TB"), p)[0] == "G4.4"  # type: ignore[index]
    assert beat_error(Play.parse("TT"), p)[0] == "G4.4"  # type: ignore[index]
    assert Play.parse("TR").beats(p)
    assert not Play.parse("9R").beats(p)  # G4.2 still holds
    assert beat_error(Play.parse("QQR"), Play.parse("JBB"))[0] == "G4.4"  # type: ignore[index]
    assert Play.parse("RR").beats(Play.parse("BB"))


def test_G4_5_plain_beats_may_carry_wilds_or_not() -> None:
    assert Play.parse("QQ").beats(Play.parse("JJ"))
    assert Play.parse("Q2").beats(Play.parse("JJ"))
    assert Play.parse("QB").beats(Play.parse("JJ"))


# ---------------------------------------------------------------- G5 turns


def test_G5_1_leader_must_play_and_only_the_leader() -> None:
    g = game({1: "5", 2: "6", 3: "7", 4: "8", 5: "9", 6: "T"}, leader=3)
    assert g.pending_seat == 3
    illegal(g, "3 pass", "G5.1")
    illegal(g, "1 5", "G5.1")
    legal(g, "3 7")


def test_G5_2_passed_player_is_out_of_the_round_except_for_the_opposite() -> None:
    g = game({1: "59Q", 2: "6K", 3: "7K", 4: "8K", 5: "TK", 6: "JK"})
    play(g, "1 5", "2 pass", "3 pass", "4 pass", "5 T", "6 pass", "1 pass")
    # seat 2 passed, but the T is its 对头's: once everyone else passed it may answer
    assert g.pending_seat == 2
    illegal(g, "3 J", "G5.2")
    legal(g, "2 K")
    assert g.pending_seat == 5
    illegal(g, "5 K", "G4.2")
    play(g, "5 pass")
    assert g.last_play is None and g.pending_seat == 2  # G5.3


def test_G5_3_round_winner_leads() -> None:
    g = game({1: "55", 2: "6K", 3: "7K", 4: "8K", 5: "TK", 6: "JK"})
    play(g, "1 5", "2 6", "3 pass", "4 pass", "5 pass", "6 pass", "1 pass")
    assert g.last_play is None and g.pending_seat == 2


def test_G5_4_jie_feng_next_holder_leads() -> None:
    g = game({1: "5", 2: "66", 3: "44", 4: "44", 5: "66", 6: "77"})
    play(g, "1 5")
    assert g.status(1) == "finished"
    play(g, "2 pass", "3 pass", "4 pass", "5 pass", "6 pass")
    assert g.last_play is None and g.pending_seat == 2


def test_G5_5_yield_lets_the_next_two_act_first() -> None:
    g = game({1: "5KK", 2: "3K", 3: "3K", 4: "8K", 5: "9K", 6: "TK"})
    play(g, "1 5")
    illegal(g, "2 yield", "G5.5")  # not on its 对头's play
    play(g, "2 pass", "3 pass")
    assert "yield" in g.options(4)
    legal(g, "4 yield")
    assert g.pending_seat == 5
    play(g, "5 pass", "6 pass")
    assert g.pending_seat == 4
    illegal(g, "4 yield", "G5.5")
    legal(g, "4 8")
    # only the yielder's 对头 may answer
    assert g.pending_seat == 1
    illegal(g, "5 9", "G5.5")
    play(g, "1 pass")
    assert g.last_play is None and g.pending_seat == 4


def test_G5_5_yield_needs_the_two_before_to_have_passed() -> None:
    g = game({1: "5KK", 2: "6K", 3: "3K", 4: "8K", 5: "9K", 6: "TK"})
    play(g, "1 5", "2 6", "3 pass")
    illegal(g, "4 yield", "G5.5")


def test_G5_6_report_counts_at_ten_or_fewer() -> None:
    g = Game("tv_match", hands=deal(seed=3), leader=1)
    assert g.report_counts() == {}
    g2 = game({1: "5555555555", 2: "66666666666", 3: "7", 4: "8", 5: "9", 6: "T"})
    assert g2.report_counts() == {1: 10, 3: 1, 4: 1, 5: 1, 6: 1}


# ---------------------------------------------------------------- G6 够级


@pytest.mark.parametrize("cards", ["TTTTT", "JJJJ", "QQQ", "KK", "AA", "2", "9B", "TTT22", "BR"])
def test_G6_1_gouji_plays(cards: str) -> None:
    assert Play.parse(cards).is_gouji()


@pytest.mark.parametrize("cards", ["TTTT", "JJJ", "K", "99922", "A"])
def test_G6_1_not_gouji(cards: str) -> None:
    assert not Play.parse(cards).is_gouji()


def test_G6_1_toggle_two_twos() -> None:
    assert not Play.parse("2").is_gouji(min_twos=2) and Play.parse("22").is_gouji(min_twos=2)


def test_G6_2_only_the_opposite_answers_others_are_skipped() -> None:
    g = game({1: "TTTTT4", 2: "5", 3: "6", 4: "JJJJJ9", 5: "7", 6: "8"})
    play(g, "1 TTTTT")
    assert g.pending_seat == 4
    e = illegal(g, "2 pass", "G6.2")  # Appendix A: the clause that keeps seat 2 out, and who is to act
    assert "seat 4" in e.en and "opposite" in e.en and "4号" in e.zh
    assert g.options(2) == frozenset()


def test_G6_3_G6_4_duel_then_the_last_gouji_lives() -> None:
    g = game({1: "TTTTTAAAAA4", 2: "5", 3: "6", 4: "JJJJJ9", 5: "7", 6: "8"})
    play(g, "1 TTTTT", "4 JJJJJ")
    assert g.pending_seat == 1
    play(g, "1 AAAAA")
    assert g.pending_seat == 4
    play(g, "4 pass")
    assert g.last_play is None and g.pending_seat == 1
    assert g.opened == [1]


def test_G6_5_opening_needs_a_pure_gouji() -> None:
    g = game({1: "TTTT24", 2: "5", 3: "6", 4: "JJJJJ9", 5: "7", 6: "8"})
    play(g, "1 TTTT2", "4 pass")
    assert g.pending_seat == 1 and g.opened == []
    g = game({1: "TTTTT4", 2: "5", 3: "6", 4: "JJJJJ9", 5: "7", 6: "8"})
    play(g, "1 TTTTT", "4 JJJJJ", "1 pass")
    assert g.opened == [4]


# ---------------------------------------------------------------- G7 burning


def _burn_game() -> Game:
    return game({1: "TTTTT4", 2: "JJJJJB8", 3: "6", 4: "QQQQQ9", 5: "KKKKK7", 6: "8"})


def test_G7_1_burn_beats_out_of_turn_then_leads_with_jokers() -> None:
    g = _burn_game()
    play(g, "1 TTTTT")
    assert g.pending_seat == 4 and "burn" in g.options(2)
    legal(g, "2 JJJJJ")
    assert g.burner == 2 and g.pending_seat == 5
    play(g, "5 pass")
    assert g.pending_seat == 2 and g.last_play is None
    legal(g, "2 8B")
    assert g.status(2) == "finished" and g.burner is None


def test_G7_2_team_of_the_gouji_player_burns_first() -> None:
    g = _burn_game()
    play(g, "1 TTTTT")
    assert g.burn_priority([2, 5, 6, 3]) == [3, 5, 2, 6]
    claims = [Action.parse("5 KKKKK"), Action.parse("2 JJJJJ")]
    assert g.resolve_burns(claims) == Action.parse("5 KKKKK")


def test_G7_3_jie_shao_by_the_burners_opposite() -> None:
    g = _burn_game()
    play(g, "1 TTTTT", "2 JJJJJ")
    legal(g, "5 KKKKK")
    assert g.burner is None
    assert [e[1] for e in g.events()][-1] == "jie_shao"


def test_G7_3_fan_shao_takes_the_burn_over() -> None:
    g = _burn_game()
    play(g, "1 TTTTT", "2 JJJJJ")
    legal(g, "4 QQQQQ")
    assert g.burner == 4 and g.pending_seat == 1


def test_G7_4_zha_shao_burn_without_joker_is_void_and_last() -> None:
    g = _burn_game()
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass")
    legal(g, "2 8")  # a burn play without a joker before the end
    assert g.status(2) == "zha_shao" and g.cards_left(2) == 2
    assert g.last_play is None and g.pending_seat == 3
    assert g.jokers_and_twos_out()["B"] == 4
    # play the rest out: seat 2 is 大落 whatever happens
    play(g, "3 6")
    while not g.is_over():
        g.push(next(iter(g.legal_plays())))
    r = g.result()
    assert r.titles[2] == "大落" and r.finish_order[-1] == 2


def test_G7_4_passed_player_may_not_burn() -> None:
    g = game({1: "555559", 2: "JJJJJ", 3: "TTTTT8", 4: "QQQQQ", 5: "7", 6: "AAAAA"})
    play(g, "1 55555", "2 pass", "3 TTTTT")
    assert g.pending_seat == 6
    illegal(g, "2 JJJJJ", "G7.4")
    legal(g, "4 QQQQQ")  # 4 has not passed: a burn


def test_G7_4_a_teammate_may_be_burned() -> None:
    g = game({1: "TTTTT4", 2: "5", 3: "JJJJJ9", 4: "9", 5: "7", 6: "8"})
    play(g, "1 TTTTT")
    legal(g, "3 JJJJJ")
    assert g.burner == 3 and g.pending_seat == 6


def test_G7_1_no_burn_after_the_opposite_acted() -> None:
    g = game({1: "TTTTT4", 2: "KKKKK", 3: "6", 4: "JJJJJ9", 5: "7", 6: "8"})
    play(g, "1 TTTTT", "4 JJJJJ")
    # the window reopens on 4's JJJJJ (a new 够级牌): 2 may burn it
    legal(g, "2 KKKKK")


# ---------------------------------------------------------------- G8 无头


def test_G8_wutou_beats_in_turn_and_is_beaten_in_turn() -> None:
    g = game({1: "5", 2: "TTTTT66", 3: "77", 4: "JJJJJ88", 5: "QQQQQ99", 6: "KKKKKAA"})
    play(g, "1 5", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass")
    assert g.is_wutou(4) and g.pending_seat == 2
    play(g, "2 TTTTT")
    assert g.pending_seat == 4  # 无头 4 acts in turn, before 2's 对头 5
    legal(g, "4 JJJJJ")
    assert g.burner is None and g.pending_seat == 5  # 4's plays are not protected
    play(g, "5 pass")
    legal(g, "6 KKKKK")


# ---------------------------------------------------------------- G9 憋3 (dagang)


def test_G9_1_threes_are_the_last_play_all_together() -> None:
    g = game({1: "333KKB", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"}, rules="dagang")
    illegal(g, "1 33", "G9.1")
    illegal(g, "1 3", "G9.1")
    legal(g, "1 KKB")


def test_G9_1_the_message_names_the_fault_split_3s_or_3s_not_last() -> None:
    g = game({1: "333KKB", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"}, rules="dagang")
    e = illegal(g, "1 33", "G9.1")  # split: seat 1 holds three 3s
    assert "never split" in e.en and "holds 3 3s and plays 2" in e.en
    assert "不能拆开" in e.zh and "有3张3，只出了2张" in e.zh
    e = illegal(g, "1 333", "G9.1")  # all the 3s, but other cards are left: not the last play
    assert "must be the last play" in e.en and "still holds 3 cards besides its 3s" in e.en
    assert "never split" not in e.en
    assert "须作为底牌最后出" in e.zh and "除3以外还有3张牌" in e.zh and "拆开" not in e.zh
    g = Game("dagang", hands={1: None, 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"}, counts={1: 5})
    e = illegal(g, "1 333", "G9.1")  # an unknown hand: only the count is known
    assert "holds 5 cards, not 3" in e.en and "还有5张牌，不是3张" in e.zh
    e = illegal(g, "1 KKKKK", "G9.1")  # emptying an unknown hand: it must be the 3s
    assert "the last play must be all your 3s" in e.en


def test_G3_6_threes_take_no_wilds_under_bie_san() -> None:
    g = game({1: "333B", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"}, rules="dagang")
    illegal(g, "1 333B", "G3.6")
    g = game({1: "3332", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"}, rules="dagang")
    illegal(g, "1 3332", "G3.6")
    g = game({1: "333B", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8"})  # tv_match: an ordinary rank
    legal(g, "1 333B")


def test_G9_2_men_stuck_with_threes_is_ranked_last() -> None:
    g = game({1: "KK33", 2: "5", 3: "6", 4: "AA9", 5: "7", 6: "8"}, rules="dagang")
    play(g, "1 KK", "4 AA")
    assert g.status(1) == "men"
    while not g.is_over():
        g.push(next(iter(g.legal_plays())))
    r = g.result()
    assert r.titles[1] == "大落" and r.men == [1]


def test_G9_2_zha_shao_ranks_below_men() -> None:
    g = game({1: "KK33", 2: "6", 3: "JJJJJB8", 4: "AA98", 5: "TTTTTQ9", 6: "7"}, rules="dagang")
    play(g, "1 KK", "4 AA")
    assert g.status(1) == "men"
    play(g, "5 pass", "6 pass", "2 pass", "3 pass", "4 9", "5 Q", "6 pass", "2 pass", "3 pass", "4 pass")
    assert g.pending_seat == 5 and not g.four_way  # one out (闷): no 四户乱缠 yet
    play(g, "5 TTTTT", "3 JJJJJ", "4 pass", "6 pass", "3 8")
    assert g.status(3) == "zha_shao" and g.pending_seat == 4
    assert g.four_way  # 闷 and 诈烧: two out (G10.2)
    play(g, "4 8", "5 9", "6 pass", "2 pass", "6 7")
    r = g.result()
    assert r.finish_order == [4, 5, 6, 2, 1, 3]
    assert r.titles[3] == "大落" and r.titles[1] == "二落" and r.titles[2] == "四科"


def test_G9_3_buy_a_three_from_the_opposite() -> None:
    hands = [list(h) for h in deal(seed=11)]
    # move seat 1's 3s to seat 4 in exchange for seat 4's non-3, non-wild cards
    threes = [c for c in hands[0] if c == Rank.THREE]
    swap = [c for c in hands[3] if Rank.THREE < c < Rank.TWO][: len(threes)]
    hands[0] = [c for c in hands[0] if c != Rank.THREE] + swap
    for c in swap:
        hands[3].remove(c)
    hands[3] += threes
    assert Rank.TWO in hands[0] or Rank.SMALL_JOKER in hands[0] or Rank.BIG_JOKER in hands[0]
    g = Game("dagang", hands=hands, leader=1)
    assert g.purchases and g.purchases[0][:2] == (1, 4)
    h1 = g.hand_counts(1)
    assert h1 is not None and h1[Rank.THREE] == 1
    assert sum(g.hand_counts(4) or []) == 36


# ---------------------------------------------------------------- G10 titles


def test_G10_1_G10_4_titles_in_order_last_holder_is_da_luo() -> None:
    g = game({1: "5", 2: "6", 3: "7", 4: "8", 5: "9", 6: "TT"})
    play(g, "1 5", "2 6", "3 7", "4 8", "5 9")
    assert g.is_over() and g.pending_seat is None
    r = g.result()
    assert r.finish_order == [1, 2, 3, 4, 5, 6]
    assert [r.titles[s] for s in range(1, 7)] == ["头科", "二科", "三科", "四科", "二落", "大落"]
    assert r.team_points == {"odd": 7 + 4 + 2, "even": 5 + 3 + 1}  # G11.1
    illegal(g, "6 TT", "G10.4")


def test_G10_2_four_way_passed_players_play_again() -> None:
    g = game({1: "5", 2: "6", 3: "79", 4: "8A", 5: "3J", 6: "4Q"})
    play(g, "1 5", "2 6")
    assert g.four_way
    play(g, "3 7", "4 pass", "5 J", "6 pass", "3 pass")
    legal(g, "4 A")  # passed earlier in this round, plays again under 四户乱缠


def test_G10_2_no_burning_in_four_way() -> None:
    g = game({1: "5", 2: "6", 3: "TTTTT9", 4: "8A", 5: "JJJJJ", 6: "4Q"})
    play(g, "1 5", "2 6", "3 pass", "4 pass", "5 pass", "6 pass", "3 TTTTT")
    assert g.pending_seat == 4
    illegal(g, "5 JJJJJ", "G10.2")


def test_G10_3_quan_san_ends_the_game() -> None:
    g = game({1: "5", 2: "K", 3: "6", 4: "A", 5: "7", 6: "2"})
    play(g, "1 5", "2 pass", "3 6", "4 pass", "5 7")
    assert g.is_over()
    r = g.result()
    assert r.quan_san and r.finish_order == [1, 3, 5]
    assert r.titles[2] == r.titles[4] == r.titles[6] == "圈三"
    assert r.team_points == {"odd": 32, "even": 0}  # G11.1 串三户


def test_G10_4_zha_shao_takes_da_luo_last_holder_er_luo() -> None:
    g = game({1: "TTTTT", 2: "JJJJJB8", 3: "6", 4: "9", 5: "7", 6: "5"})
    play(g, "1 TTTTT", "2 JJJJJ")
    assert g.status(1) == "finished"
    assert g.pending_seat == 4  # 无头 4 acts in turn before the burner's 对头
    play(g, "4 pass", "5 pass", "2 8")
    assert g.status(2) == "zha_shao"
    while not g.is_over():
        g.push(next(iter(g.legal_plays())))
    r = g.result()
    assert r.titles[2] == "大落" and r.finish_order[-2] not in (1, 2)
    assert r.titles[r.finish_order[-2]] == "二落"


def test_G10_5_revolution_sits_out_ranked_fourth() -> None:
    g = game({1: "KK", 2: "5", 3: "6", 4: "7", 5: "8", 6: "9"}, rules="dagang")
    assert "revolt" in g.options(1)
    legal(g, "1 revolt")
    assert g.status(1) == "revolt" and g.pending_seat == 2 and g.is_wutou(4)
    play(g, "2 5", "3 6", "4 7", "5 8")
    r = g.result()
    assert r.finish_order == [2, 3, 4, 1, 5, 6]
    assert r.titles[1] == "四科" and r.titles[6] == "大落"


def test_G10_5_revolution_needs_no_joker_and_no_two() -> None:
    g = game({1: "KK", 2: "B5", 3: "26", 4: "R7", 5: "28", 6: "B9"}, rules="dagang")
    illegal(g, "2 revolt", "G10.5")
    illegal(g, "3 revolt", "G10.5")


def test_G10_5_revolutionary_counts_third_when_mates_take_first_two() -> None:
    g = game({1: "KK", 2: "K", 3: "5", 4: "A", 5: "6", 6: "2"}, leader=3, rules="dagang")
    play(g, "1 revolt", "3 5", "4 pass", "5 6")
    r = g.result()
    assert r.quan_san and r.finish_order == [3, 5, 1] and r.team_points == {"odd": 12, "even": 0}


def test_G10_5_two_revolutions_void_the_game() -> None:
    g = game({1: "KK", 2: "55", 3: "26", 4: "R7", 5: "28", 6: "B9"}, rules="dagang")
    play(g, "1 revolt", "2 revolt")
    assert g.is_over() and g.result().void


def test_G10_5_no_revolution_in_tv_match_or_after_the_first_lead() -> None:
    g = game({1: "KK", 2: "55", 3: "26", 4: "R7", 5: "28", 6: "B9"})
    illegal(g, "2 revolt", "G10.5")
    g = game({1: "KK", 2: "55", 3: "26", 4: "R7", 5: "28", 6: "B9"}, rules="dagang")
    play(g, "1 KK")
    illegal(g, "2 revolt", "G10.5")


# ---------------------------------------------------------------- G11 scoring


def test_G11_3_dagang_scores_net_positive_side_only() -> None:
    g = game({1: "5", 2: "6", 3: "7", 4: "8", 5: "9", 6: "TT"}, rules="dagang")
    play(g, "1 5", "2 6", "3 7", "4 8", "5 9")
    # odd: 4 + 0 - 2 = 2, even: 2 + 0 - 4 = -2
    assert g.result().team_points == {"odd": 2, "even": 0}


def test_G11_3_dagang_quan_san_scores_12() -> None:
    g = game({1: "5", 2: "K", 3: "6", 4: "A", 5: "7", 6: "2"}, rules="dagang")
    play(g, "1 5", "2 pass", "3 6", "4 pass", "5 7")
    assert g.result().team_points == {"odd": 12, "even": 0}


# ---------------------------------------------------------------- G12 first leader


def test_G12_1_leader_is_given_and_first_leader_is_seeded() -> None:
    from engine import first_leader

    assert first_leader(5) == first_leader(5)
    assert {first_leader(s) for s in range(40)} <= {1, 2, 3, 4, 5, 6}
    assert len({first_leader(s) for s in range(40)}) > 1
    g = Game("tv_match", hands=deal(5), leader=first_leader(5))
    assert g.pending_seat == first_leader(5)


# ---------------------------------------------------------------- more edge cases


def test_G7_1_last_burn_play_may_be_without_joker() -> None:
    g = game({1: "TTTTT4", 2: "JJJJJ8", 3: "6", 4: "9", 5: "7", 6: "8"})
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass", "2 8")  # the burn's last play: no joker needed, no 诈烧
    assert g.status(2) == "finished" and g.burner is None and not g.is_over()
    assert g.titles_so_far() == {2: "头科"} and [e for e in g.events() if e[1] == "zha_shao"] == []


def test_G7_2_options_show_burns_to_the_other_seats() -> None:
    g = _burn_game()
    play(g, "1 TTTTT")
    assert g.options(4) == {"pass", "play"}
    assert g.options(2) == {"burn"} and g.options(5) == {"burn"}
    assert g.options(3) == frozenset() and g.options(1) == frozenset()


def test_G4_3_dead_play_with_the_opposite_out_ends_the_round_at_once() -> None:
    g = game({1: "", 2: "66", 3: "77", 4: "8R9", 5: "99", 6: "TT"}, leader=4)
    assert g.status(1) == "finished" and g.is_wutou(4)
    play(g, "4 8R")
    assert g.last_play is None and g.pending_seat == 4  # no 对头 to 扣牌: 4 leads again


def test_G9_3_buy_from_the_opposites_team_when_the_opposite_has_one_three() -> None:
    hands = [list(h) for h in deal(seed=21)]
    # seat 1: no 3; seat 4: exactly one 3; the rest go to seat 6 (a teammate of 4)
    for src, dst, keep in ((0, 5, 0), (3, 5, 1)):
        threes = [c for c in hands[src] if c == Rank.THREE]
        move = threes[keep:]
        swap = [c for c in hands[dst] if Rank.THREE < c < Rank.TWO][: len(move)]
        for c in move:
            hands[src].remove(c)
            hands[dst].append(c)
        for c in swap:
            hands[dst].remove(c)
            hands[src].append(c)
    g = Game("dagang", hands=hands, leader=1)
    buyer, seller, _paid = g.purchases[0]
    assert buyer == 1 and seller in (2, 6)
    assert g.dealt_hand_counts(1) != g.hand_counts(1)


_MEMBERSHIP = """
import engine.listing
from engine import Action, Game, Play, deal

def boom(*args: object) -> None:
    raise AssertionError("enumerated")

for name in ("seat_actions", "enumerate_leads", "enumerate_beats"):
    setattr(engine.listing, name, boom)
g = Game("tv_match", hands=deal(seed=4), leader=1)
assert Action.pass_(1) not in g.legal_plays()
lead = Play.from_cards([g.hand(1)[0]])
assert Action(1, "play", lead) in g.legal_plays()
print("ok")
"""


def test_G5_membership_does_not_enumerate() -> None:
    # on the pure-Python modules, whose functions can be patched (the compiled core is built from the
    # same source, and tests/engine/test_native.py holds the two builds to the same records)
    env = dict(os.environ, GOUJI_PURE_PYTHON="1", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    r = subprocess.run(
        [sys.executable, "-c", _MEMBERSHIP], env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr


def test_G8_wutou_gouji_is_not_protected() -> None:
    g = game({1: "5", 2: "66", 3: "77", 4: "KK9", 5: "AA", 6: "22"})
    play(g, "1 5", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass", "2 66", "3 77", "4 KK")
    assert g.pending_seat == 5  # in turn: 4 is 无头, its 够级牌 is open to everyone
    play(g, "5 pass")
    legal(g, "6 22")
