"""Smoke tests: the public API the team codes against."""

from __future__ import annotations

from engine import Action, Game, deal, gjn, load_preset, random_playout


def test_G2_1_deal_216_cards_36_each() -> None:
    hands = deal(seed=42)
    assert len(hands) == 6
    assert all(len(h) == 36 for h in hands)
    assert deal(seed=42) == hands
    assert deal(seed=43) != hands


def test_G10_selfplay_both_presets_record_roundtrip() -> None:
    for rules in ("tv_match", "dagang"):
        g = Game(load_preset(rules), hands=deal(seed=7), leader=1)
        random_playout(g, seed=7)
        assert g.is_over()
        rec = gjn.from_game(g)
        text = gjn.write(rec)
        out = gjn.check(text)
        assert out["ok"] is True, out
        assert out["finish_order"] == g.result().finish_order


def test_G5_1_push_pop() -> None:
    g = Game("tv_match", hands=deal(seed=1), leader=3)
    assert g.pending_seat == 3
    a = next(iter(g.legal_plays()))
    g.push(a)
    assert g.pop() == a
    assert g.pending_seat == 3
    assert Action.pass_(3) not in g.legal_plays()
