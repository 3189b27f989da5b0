"""Seeded shuffle and deal (G2.1), the first leader (G12), and fast random play-outs."""

from __future__ import annotations

import random

from .cards import NRANKS, TOTALS, Rank, counts_to_cards
from .game import Game, GameResult
from .preset import Preset, load_preset
from .seats import SEATS

#: the 216 cards as (rank, suit) pairs; jokers have suit 0 (4 decks x 4 suits x 13 ranks + 8 jokers)
PACK: tuple[tuple[int, int], ...] = tuple(
    (r, suit) for r in range(13) for suit in range(4) for _deck in range(4)
) + tuple((r, 0) for r in (13, 14) for _ in range(4))


def _shuffled(seed: int | str) -> list[tuple[int, int]]:
    cards = list(PACK)
    random.Random(f"gouji-deal:{seed}").shuffle(cards)
    return cards


def deal_counts(seed: int | str) -> list[list[int]]:
    """Six hands as rank-count lists (index 0 = seat 1). Cards go round-robin from seat 1."""
    hands = [[0] * NRANKS for _ in range(6)]
    for i, (r, _suit) in enumerate(_shuffled(seed)):
        hands[i % 6][r] += 1
    return hands


def deal(seed: int | str) -> tuple[tuple[Rank, ...], ...]:
    """A seeded shuffle and deal of the 216 cards: six hands (seats 1..6) of 36, highest card first."""
    return tuple(counts_to_cards(h) for h in deal_counts(seed))


def first_leader(seed: int | str) -> int:
    """G12.1 上班 for a seeded deal: the first seat, in dealing order, to hold two 3s of one suit.

    (If no one does, the seat with most 3s, the earliest such seat on ties.)
    """
    return _leader_of(_shuffled(seed))


def _leader_of(cards: list[tuple[int, int]]) -> int:
    seen: dict[tuple[int, int], int] = {}
    threes = [0] * 7
    for i, (r, suit) in enumerate(cards):
        if r != 0:
            continue
        seat = i % 6 + 1
        threes[seat] += 1
        k = (seat, suit)
        seen[k] = seen.get(k, 0) + 1
        if seen[k] == 2:
            return seat
    return max(SEATS, key=lambda s: (threes[s], -s))


def new_game(preset: Preset | str = "tv_match", seed: int | str = 0, leader: int | None = None) -> Game:
    """A seeded deal with its 上班 leader (G12.1; the first game of `dagang` uses the same 亮3)."""
    if isinstance(preset, str):
        preset = load_preset(preset)
    cards = _shuffled(seed)  # one shuffle for the deal and its 上班 seat
    hands = [[0] * NRANKS for _ in range(6)]
    for i, (r, _suit) in enumerate(cards):
        hands[i % 6][r] += 1
    lead = _leader_of(cards) if leader is None else leader
    return Game(preset, hands={s: counts_to_cards(hands[s - 1]) for s in SEATS}, leader=lead)


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
