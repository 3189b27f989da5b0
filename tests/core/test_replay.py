"""Crash recovery when the journal holds an entry this version refuses (a hand-edited file, a journal
from another version): the entry is named and skipped, and it changes nothing on replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broadcast.studio import open_store

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]
# match.update renames the seats first and then refuses the unknown team (G1.2): replayed on the
# store's own state instead of a copy, it would leave seat 1 renamed
HALF_DONE = {"names": {"1": "改名"}, "teams": {"green": {}}}


def _without_meta(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "meta"}


def test_an_entry_refused_on_replay_leaves_the_state_untouched(db_path: Path, tmp_path: Path) -> None:
    store = open_store(db_path)
    store.dispatch("match.new", {"names": NAMES})
    store.dispatch("game.new", {"leader": 3})
    ts = store.state["meta"]["updated"]
    store.journal.append("match.update", HALF_DONE, ts + 1)  # #3: refused when replayed
    store.journal.append("game.play", {"line": "3 TTTTT"}, ts + 2)  # #4
    store.journal.append("game.play", {"line": "6 JJJJ"}, ts + 3)  # #5: refused, G4.1
    store.journal.append("table.message", {"text": "裁判：继续"}, ts + 4)  # #6
    store.close()

    again = open_store(db_path)
    try:
        assert len(again.replay_errors) == 2, again.replay_errors
        assert again.replay_errors[0].startswith("journal #3 match.update: [G1.2]")
        assert again.replay_errors[1].startswith("journal #5 game.play: [G4.1]")
        # the same as a store that never saw the refused entries
        reference = open_store(tmp_path / "reference.sqlite")
        try:
            for type_, payload in (
                ("match.new", {"names": NAMES}),
                ("game.new", {"leader": 3}),
                ("game.play", {"line": "3 TTTTT"}),
                ("table.message", {"text": "裁判：继续"}),
            ):
                reference.dispatch(type_, payload)
            assert _without_meta(again.state) == _without_meta(reference.state)
        finally:
            reference.close()
        assert [s["name"] for s in again.state["table"]["seats"]] == NAMES
        assert again.state["game"]["record"] == ["3 TTTTT"]
        assert again.seq == 6
        # and the live game was rebuilt from that state: the next legal move goes on from it
        again.dispatch("game.play", {"line": "6 pass"})
        assert again.state["game"]["record"] == ["3 TTTTT", "6 pass"]
    finally:
        again.close()
