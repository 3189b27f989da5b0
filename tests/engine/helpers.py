"""Position helpers for the engine tests."""

from __future__ import annotations

import re
from itertools import product

import pytest

from engine import Action, Game, IllegalAction
from engine.cards import NRANKS

#: a Chinese character: none may stand in an English message
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")


def game(hands: dict[int, str], leader: int = 1, rules: str = "tv_match") -> Game:
    return Game(rules, hands=hands, leader=leader)


def play(g: Game, *moves: str) -> Game:
    for m in moves:
        g.push(Action.parse(m))
    return g


def illegal(g: Game, move: str, rule: str) -> IllegalAction:
    a = Action.parse(move)
    assert a not in g.legal_plays()
    with pytest.raises(IllegalAction) as ei:
        g.push(a)
    assert ei.value.rule == rule, (ei.value.rule, str(ei.value))
    assert ei.value.zh and ei.value.en
    assert not CJK.search(ei.value.en), ei.value.en  # English complete, never mixed
    return ei.value


def legal(g: Game, move: str) -> None:
    a = Action.parse(move)
    assert a in g.legal_plays(), g.why_illegal(a)
    assert a in set(g.legal_plays())
    g.push(a)


def sub_multisets(h: list[int]) -> list[list[int]]:
    """Every non-empty sub-multiset of a hand of rank counts (the cards any play of it is made of)."""
    ranks = [r for r in range(NRANKS) if h[r]]
    out = []
    for combo in product(*[range(h[r] + 1) for r in ranks]):
        c = [0] * NRANKS
        for r, k in zip(ranks, combo, strict=True):
            c[r] = k
        if any(c):
            out.append(c)
    return out
