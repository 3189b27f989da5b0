"""The projection of each decision is incremental (the record's new lines only, the match decision once
per distinct results): after every action of whole recorded matches — plays, undo, redo, a different
decision after an undo, corrections that drop later decisions, penalties, the next game — the state
equals a projection from nothing (the game replayed from its record, no line or decision kept), and the
top play's burn flag and the record are what the engine's whole history says."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from broadcast.core.component import Context
from broadcast.game import live as live_mod
from broadcast.game import match as match_mod
from broadcast.game import projection
from broadcast.studio import open_store


def _from_nothing(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` projected again from its record alone, with nothing kept from before."""
    # a deep copy of the plain state: pickle's (0.14 ms) rather than copy.deepcopy's (0.40 ms), ~1,400 times
    out = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    ctx = Context(ts=0.0, seq=1, replaying=True, runtime={}, source="test")
    match_mod._decision.cache_clear()
    live = live_mod.live_game(out, ctx)  # a fresh game replayed from the record, empty line cache
    assert live.lines == [] and live.actions == []
    projection.project(out, live)
    game = live.game
    # what the full history says, written out here independently of project()
    assert out["game"]["record"] == [str(a) for a in game.moves]
    top = game.last_play
    if top is not None:
        moves = game.moves
        move_no = max(i for i, a in enumerate(moves, start=1) if a.kind == "play")
        burn = any(m == move_no and ev in ("burn", "fan_shao") for m, ev, _s in game.events())  # G7
        assert out["table"]["last_play"]["burn"] is burn
    return out


def _check(store: Any) -> None:
    state = store.state
    if state["game"]["leader"] is None:
        return
    assert _from_nothing(state) == state


@pytest.mark.parametrize("seed", [3])
@pytest.mark.long  # ~1,300 projections, each replayed from nothing
def test_every_projection_of_whole_matches_equals_one_from_nothing(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = open_store(tmp_path / "match.sqlite")
    try:
        store.dispatch("match.new", {"names": list("甲乙丙丁戊己")})
        burns = 0
        for game_no in range(1, 4):
            g = engine.new_game("tv_match", seed=seed * 10 + game_no)
            engine.random_playout(g, seed=seed * 10 + game_no)
            store.dispatch("game.new", {"leader": g.leader, "game_no": game_no})
            _check(store)
            lines = [str(a) for a in g.moves]
            i = 0
            while i < len(lines):
                store.dispatch("game.play", {"line": lines[i]})
                i += 1
                _check(store)
                burns += bool(store.state["table"]["last_play"] and store.state["table"]["last_play"]["burn"])
                r = rng.random()
                if r < 0.06:  # take it back and key it again
                    store.dispatch("game.undo", {"reason": "录入错误"})
                    _check(store)
                    store.dispatch("game.redo", {"reason": "撤销错了"})
                    _check(store)
                elif r < 0.09:  # take it back, key another legal decision, then take that back too
                    store.dispatch("game.undo", {"reason": "录入错误"})
                    live = live_mod.live_game(store.state, Context(0.0, 0, False, store.runtime, "test"))
                    other = [a for a in live.game.legal_plays() if str(a) != lines[i - 1]]
                    if other:
                        store.dispatch("game.play", {"line": str(rng.choice(other))})
                        _check(store)
                        store.dispatch("game.undo", {"reason": "录入错误"})
                        _check(store)
                    store.dispatch("game.play", {"line": lines[i - 1]})
                    _check(store)
                elif r < 0.10 and i > 5:  # a correction: delete an earlier decision (later ones re-checked)
                    n = rng.randrange(1, i)
                    store.dispatch("game.correct", {"move": n, "delete": True, "reason": "多录了一步"})
                    _check(store)
                    store.dispatch(
                        "game.correct", {"move": n, "insert": True, "line": lines[n - 1], "reason": "漏录"}
                    )
                    _check(store)
                    record = store.state["game"]["record"]
                    if record != lines[:i]:  # later decisions were dropped: key them again
                        assert record == lines[: len(record)]
                        for line in lines[len(record) : i]:
                            store.dispatch("game.play", {"line": line})
                            _check(store)
            assert store.state["table"]["phase"] == "over"
            if game_no == 2:
                store.dispatch("match.penalty", {"team": "even", "reason": "偷看牌"})
                _check(store)
        assert store.state["game"]["record"] == lines
        assert len(store.state["table"]["results"]) == 3 and store.state["match"]["result"]["games"] == 3
        assert burns > 0  # the matches did burn (G7): the burn flag was checked set, not only unset
    finally:
        store.close()


def test_the_record_lines_follow_pops_and_replacements() -> None:
    """The line cache of the live game: moves taken back, replaced by others of the same length."""
    g = engine.new_game("tv_match", seed=5)
    engine.random_playout(g, seed=5)
    lines = [str(a) for a in g.moves]
    live = live_mod.LiveGame((), engine.new_game("tv_match", seed=5))
    game = live.game
    for line in lines[:30]:
        game.push(engine.Action.parse(line))
    assert live.record(game.moves) == lines[:30]
    for _ in range(3):
        game.pop()
    assert live.record(game.moves) == lines[:27]
    while True:  # back to a decision that had another legal choice; key that one instead
        undone = str(game.pop())
        other = [a for a in game.legal_plays() if str(a) != undone]
        if other:
            break
    n = len(game.moves)
    game.push(other[0])
    assert live.record(game.moves) == [*lines[:n], str(other[0])]
    out = live.record(game.moves)
    out.append("changed")  # the state's list is its own: the cache does not change with it
    assert live.record(game.moves) == [*lines[:n], str(other[0])]
