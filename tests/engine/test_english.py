"""The engine's words in English are English throughout (the guide: English complete, never mixed):
every refusal a seat can meet, the titles, the referee report. The Chinese says the same in Chinese."""

from __future__ import annotations

import random

from engine import Action, Game, new_game
from engine.cards import Play
from engine.seats import SEATS, TITLE_EN, TITLES
from engine.words import TITLE_NAMES_EN

from .helpers import CJK


def test_the_titles_have_english_names_without_chinese() -> None:
    assert TITLE_EN == ("first", "second", "third", "fourth", "fifth", "last")
    assert len(TITLE_EN) == len(TITLES)
    assert [TITLE_NAMES_EN[t] for t in TITLES] == list(TITLE_EN)
    assert not any(CJK.search(w) for w in TITLE_NAMES_EN.values())


def _attempts(g: Game, rng: random.Random) -> list[Action]:
    """Actions of every seat at this decision, most of them refused: passes, yields, revolts, the pending
    seat's legal plays made by every other seat (burns, out of turn), and a few made-up plays."""
    out = [Action.parse(f"{s} {k}") for s in SEATS for k in ("pass", "yield", "revolt")]
    plays = [a.cards for a in g.legal_plays() if a.cards is not None]
    for pl in rng.sample(plays, min(4, len(plays))):
        out += [Action(s, "play", pl) for s in SEATS]
    for text in ("3", "33", "AAAA", "22R", "BR", "KKKKB", "TTTTT"):
        out.append(Action(rng.choice(SEATS), "play", Play.parse(text)))
    return out


def test_every_refusal_met_in_random_games_is_english_in_english_and_chinese_in_chinese() -> None:
    rules_seen: set[str] = set()
    for i in range(6):
        rules = "dagang" if i % 2 else "tv_match"
        g = new_game(rules, seed=f"english-{i}")
        rng = random.Random(i)
        k = 0
        while not g.is_over():
            if k % 3 == 0:
                for a in _attempts(g, rng):
                    e = g.why_illegal(a)
                    if e is not None:
                        rules_seen.add(e.rule)
                        assert e.en and not CJK.search(e.en), (e.rule, e.en)
                        assert CJK.search(e.zh), (e.rule, e.zh)
            g.push(g.random_action(rng))
            k += 1
        for a in _attempts(g, rng):  # the game is over: G10.4 for everyone
            e = g.why_illegal(a)
            assert e is not None and not CJK.search(e.en), e
            rules_seen.add(e.rule)
    # the sweep met the clauses that keep a seat out, not one message only
    assert {"G5.1", "G5.2", "G5.5", "G10.1", "G10.4", "G10.5"} <= rules_seen, rules_seen
    assert len(rules_seen) >= 8, rules_seen
