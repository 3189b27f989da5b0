"""The console's mirror follows the record by its new decisions only (their lines and words kept per
move): after plays, undo, redo, a correction that drops later decisions and the next game, what it
shows equals a mirror built from nothing on the same state."""

from __future__ import annotations

from pathlib import Path

import engine
from broadcast.console.mirror import GameMirror
from broadcast.studio import open_store


def test_the_mirror_kept_in_step_equals_one_built_from_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path / "mirror.sqlite")
    mirror = GameMirror()
    seen = 0

    def check() -> None:
        nonlocal seen
        mirror.update(store.state)
        fresh = GameMirror()
        fresh.update(store.state)
        assert mirror.moves() == fresh.moves()
        assert [m.line for m in mirror.moves()] == store.state["game"]["record"]
        seen += 1

    try:
        store.dispatch("match.new", {"names": list("甲乙丙丁戊己")})
        for game_no, seed in ((1, 21), (2, 22)):
            g = engine.new_game("tv_match", seed=seed)
            engine.random_playout(g, seed=seed)
            store.dispatch("game.new", {"leader": g.leader, "game_no": game_no})
            check()
            lines = [str(a) for a in g.moves]
            for i, line in enumerate(lines, start=1):
                store.dispatch("game.play", {"line": line})
                check()
                if i % 17 == 0:
                    store.dispatch("game.undo", {"reason": "录入错误"})
                    check()
                    store.dispatch("game.redo", {"reason": "撤销错了"})
                    check()
                if i == 40:  # a correction: later decisions re-checked, the record cut where one fails
                    store.dispatch("game.correct", {"move": 20, "delete": True, "reason": "多录了一步"})
                    check()
                    store.dispatch(
                        "game.correct", {"move": 20, "insert": True, "line": lines[19], "reason": "漏录"}
                    )
                    check()
                    for again in lines[len(store.state["game"]["record"]) : i]:
                        store.dispatch("game.play", {"line": again})
                        check()
            assert store.state["table"]["phase"] == "over"
        assert seen > 400
        assert any(m.tags for m in mirror.moves()) and any(m.lead for m in mirror.moves())
    finally:
        store.close()
