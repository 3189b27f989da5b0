"""Seeded shuffle and deal (G2.1), the first leader (G12), and fast random play-outs.

A seed means one deal for ever (the demo season, every seeded record): the pack is shuffled by
``random.Random(f"gouji-deal:{seed}")`` exactly as ``Random.shuffle`` would (the same calls to
``getrandbits`` in the same order, so the same permutation), without its per-card Python call; the
cards are dealt round-robin from seat 1.
"""

from __future__ import annotations

import random
from typing import Final

from .cards import NRANKS, TOTALS, Rank, counts_to_cards
from .game import Game, GameResult
from .preset import Preset, load_preset
from .seats import SEATS

#: the 216 cards as (rank, suit) pairs; jokers have suit 0 (4 decks x 4 suits x 13 ranks + 8 jokers)
PACK: Final[tuple[tuple[int, int], ...]] = tuple(
    (r, suit) for r in range(13) for suit in range(4) for _deck in range(4)
) + tuple((r, 0) for r in (13, 14) for _ in range(4))
N_CARDS: Final = 216
#: each card's rank, by position in PACK
_RANK: Final[tuple[int, ...]] = tuple(r for r, _s in PACK)
#: Random.shuffle's draw for position i: getrandbits(BITS[i]) until below i + 1
_BITS: Final[tuple[int, ...]] = tuple((i + 1).bit_length() for i in range(N_CARDS))
#: shuffle's steps in order: (position, bits of its draw), from the last position down to 1
_DRAWS: Final[tuple[tuple[int, int], ...]] = tuple((i, _BITS[i]) for i in range(N_CARDS - 1, 0, -1))


def _order(seed: int | str) -> list[int]:
    """The shuffled pack as positions in PACK: ``Random.shuffle``'s permutation for the seed."""
    getrandbits = random.Random(f"gouji-deal:{seed}").getrandbits
    x = list(range(N_CARDS))
    for i, k in _DRAWS:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


def _counts_of(order: list[int]) -> list[list[int]]:
    """The six hands' rank counts: card i of the order goes to seat i % 6 + 1."""
    rank = _RANK
    hands = []
    for s in range(6):
        h = [0] * NRANKS
        for c in order[s::6]:
            r = rank[c]
            h[r] = h[r] + 1
        hands.append(h)
    return hands


def deal_counts(seed: int | str) -> list[list[int]]:
    """Six hands as rank-count lists (index 0 = seat 1). Cards go round-robin from seat 1."""
    return _counts_of(_order(seed))


def deal(seed: int | str) -> tuple[tuple[Rank, ...], ...]:
    """A seeded shuffle and deal of the 216 cards: six hands (seats 1..6) of 36, highest card first."""
    return tuple(counts_to_cards(h) for h in deal_counts(seed))


def first_leader(seed: int | str) -> int:
    """G12.1 上班 for a seeded deal: the first seat, in dealing order, to hold two 3s of one suit.

    (If no one does, the seat with most 3s, the earliest such seat on ties.)
    """
    return _leader_of(_order(seed))


def _leader_of(order: list[int]) -> int:
    """G12.1 上班 of a shuffled pack: the first seat, in dealing order, dealt its second 3 of a suit."""
    cards = bytes(order)
    # the 16 3s are cards 0..15 of PACK (card c is of suit c // 4): where each lies in the deal
    at = sorted((cards.index(c), c >> 2) for c in range(16))
    seen = [0] * 24  # (seat - 1) * 4 + suit
    threes = [0] * 7
    for i, suit in at:
        seat = i % 6
        threes[seat + 1] += 1
        k = seat * 4 + suit
        seen[k] += 1
        if seen[k] == 2:
            return seat + 1
    return max(SEATS, key=lambda s: (threes[s], -s))


def new_game(preset: Preset | str = "tv_match", seed: int | str = 0, leader: int | None = None) -> Game:
    """A seeded deal with its 上班 leader (G12.1; the first game of `dagang` uses the same 亮3)."""
    if isinstance(preset, str):
        preset = load_preset(preset)
    order = _order(seed)  # one shuffle for the deal and its 上班 seat
    lead = _leader_of(order) if leader is None else leader
    return Game.dealt(preset, _counts_of(order), lead)


def random_playout(
    game: Game | Preset | str = "tv_match",
    seed: int | str | None = None,
    rng: random.Random | None = None,
    record: bool = True,
) -> GameResult:
    """Play a game out with random legal actions and return its result.

    Given a Game, plays it out in place (its undo history is dropped). Given a preset, deals a seeded
    game first (``seed``). ``rng`` defaults to ``random.Random(seed)``.
    """
    if rng is None:
        rng = random.Random(f"gouji-play:{seed}")
    if isinstance(game, Game):
        g = game
    else:
        g = new_game(game, seed if seed is not None else 0)
    g.play_randomly(rng, record=record)
    return g.result()


def check_conservation(g: Game) -> bool:
    """216 cards = cards played + cards held (known hands only)."""
    held = [0] * NRANKS
    for s in SEATS:
        h = g.hand_counts(s)
        if h is None:
            return True
        for r in range(NRANKS):
            held[r] += h[r]
    played = g.played_counts()
    return all(held[r] + played[r] == TOTALS[r] for r in range(NRANKS))
