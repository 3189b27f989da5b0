"""The listing of ``legal_plays()`` is exactly the set of actions ``in`` accepts (and ``push`` takes),
checked exhaustively on small hands with jokers and 2s in both presets (G3, G4, G6.2, G7).

The console's completion list is ``legal_plays()``; the referee's check is ``in``/``push``: if they ever
disagree, the operator is offered a play the engine then refuses (or never offered a legal one). The
random-position property test rarely reaches the 小王 rule (G4.4), so these positions are built to:
every top play that carries a 小王 (or is one), against every small hand of 9, A, 2, 小王 and 大王.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from engine import Action, Game, IllegalAction, Play, PlayError
from engine.cards import TOTALS, beat_error, parse_counts, play_from_counts
from engine.game import enumerate_beats

from .helpers import sub_multisets

#: top plays led by seat 1: with a 小王 attached or made of 小王s (G4.4), plain (G4.5), dead (G4.3)
TOPS = ["8B", "8BB", "88B", "82B", "B", "BB", "2B", "22B", "8", "88", "82", "KK", "22", "8R", "BR"]
#: the answering hands: every multiset of up to four cards of these ranks (jokers within the pack)
ALPHABET = "9A2BR"


def _hands(max_cards: int) -> list[str]:
    out = []
    for n in range(1, max_cards + 1):
        for combo in combinations_with_replacement(ALPHABET, n):
            out.append("".join(combo))
    return out


HANDS = _hands(4)


def _fits(*hands: str) -> bool:
    """The hands together fit in the pack (G2.1: 4 小王, 4 大王, 16 of each other rank)."""
    cards = "".join(hands)
    return all(cards.count(sym) <= TOTALS[r] for r, sym in enumerate("3456789TJQKA2BR"))


def _plays_of(counts: list[int]) -> list[Play]:
    """Every play a hand of these counts could make: each sub-multiset that is a play (G3)."""
    out = []
    for c in sub_multisets(counts):
        try:
            out.append(play_from_counts(c))
        except PlayError:
            pass
    return out


def _accepted(g: Game) -> set[Action]:
    """Every action of every seat that ``in`` accepts, by brute force over the seats' hands."""
    out = set()
    view = g.legal_plays()
    for s in range(1, 7):
        for kind in ("pass", "yield", "revolt"):
            a = Action(s, kind)
            if a in view:
                out.add(a)
        h = g.hand_counts(s)
        assert h is not None
        for pl in _plays_of(h):
            a = Action(s, "play", pl)
            if a in view:
                out.add(a)
    return out


def _assert_listing_is_what_in_accepts(g: Game) -> None:
    listed = list(g.legal_plays())
    assert len(listed) == len(set(listed)), "an action is listed twice"
    accepted = _accepted(g)
    assert set(listed) == accepted, (
        f"listed, refused: {sorted(map(str, set(listed) - accepted))}; "
        f"accepted, not listed: {sorted(map(str, accepted - set(listed)))}"
    )
    for a in listed:  # and push agrees with in: every listed action is taken, with no exception
        c = g.copy()
        c.push(a)


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
@pytest.mark.parametrize("top", TOPS)
def test_G4_legal_plays_listing_equals_what_in_accepts_answering_seat(rules: str, top: str) -> None:
    """Seat 4 (the 对头 of seat 1, or next in turn) answers ``top`` from every small hand."""
    checked = 0
    for hand in HANDS:
        if not _fits(top, hand):
            continue
        g = Game(rules, hands={1: top + "4", 2: "55", 3: "66", 4: hand, 5: "77", 6: "JJ"}, leader=1)
        g.push(Action.parse(f"1 {top}"))
        if g.pending_seat != 4:  # a plain play: seats 2 and 3 pass first
            g.push(Action.pass_(2))
            g.push(Action.pass_(3))
        assert g.pending_seat == 4
        _assert_listing_is_what_in_accepts(g)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("rules", ["tv_match", "dagang"])
@pytest.mark.parametrize("top", [t for t in TOPS if Play.parse(t).is_gouji()])
def test_G7_legal_plays_listing_equals_what_in_accepts_burning_seat(rules: str, top: str) -> None:
    """Seat 2 may burn the 够级牌 ``top`` (G7.1) from every small hand, while seat 4 is to answer."""
    checked = 0
    for hand in HANDS:
        if not _fits(top, hand):
            continue
        g = Game(rules, hands={1: top + "4", 2: hand, 3: "66", 4: "55", 5: "77", 6: "JJ"}, leader=1)
        g.push(Action.parse(f"1 {top}"))
        assert g.pending_seat == 4
        _assert_listing_is_what_in_accepts(g)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("top", TOPS)
def test_G4_enumerate_beats_is_every_play_that_beats(top: str) -> None:
    """The generator under the listing, against the rule itself (``beat_error``, G4.1-G4.4)."""
    p = Play.parse(top)
    for hand in _hands(5):
        if not _fits(hand):
            continue
        h = parse_counts(hand)
        beats = enumerate_beats(h, p)
        assert len(beats) == len(set(beats))
        want = {q for q in _plays_of(h) if beat_error(q, p) is None}
        assert set(beats) == want, (hand, sorted(map(str, set(beats) ^ want)))


def test_G4_4_the_beats_the_mutation_check_found_are_refused_and_not_listed() -> None:
    """Issue 16's surviving mutant listed ``2 TB`` and ``4 JJ`` over ``9B``: a 小王 needs a 大王."""
    g = Game("tv_match", hands={1: "9B4", 2: "TB", 3: "66", 4: "JJ", 5: "77", 6: "88"}, leader=1)
    g.push(Action.parse("1 9B"))
    listed = set(g.legal_plays())
    for move in ("2 TB", "4 JJ"):
        a = Action.parse(move)
        assert a not in listed and a not in g.legal_plays()
        with pytest.raises(IllegalAction) as ei:
            g.copy().push(a)
        assert ei.value.rule == "G4.4"
