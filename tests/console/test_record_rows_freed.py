"""A console keyed game after game stays as light as when it opened: the record's rows are restyled in
place when written, not replaced by new items the model kept after Qt dropped them. (They were kept:
~57,000 dead ``QStandardItem``s more with each game typed through ``--type-from``, the console's memory
and every collection of the interpreter growing game by game until it was opened again.)"""

from __future__ import annotations

import gc
from typing import Any

from broadcast.console.mirror import MoveInfo
from broadcast.console.models import RecordModel


def _alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o).__name__ == "QStandardItem")


def _game(model: RecordModel, n: int) -> None:
    """A game of ``n`` decisions as the console shows it: each typed decision first pending (greyed),
    then written, the record reset when the next game begins."""
    moves = [
        MoveInfo(i, 1 + i % 6, "pass" if i % 4 == 0 else "play", f"{1 + i % 6} 3", "三")
        for i in range(1, n + 1)
    ]
    names = {s: f"选手{s}" for s in range(1, 7)}
    for k in range(1, n + 1):
        model.set_record(moves[:k], names, pending_from=k - 1)
        model.set_record(moves[:k], names)


def test_the_record_keeps_only_the_rows_it_shows_game_after_game(qapp: Any) -> None:
    model = RecordModel()
    before = _alive()
    seen = []
    for _ in range(3):
        model.set_record([], {})  # the next game: the record starts again
        _game(model, 30)
        seen.append(_alive() - before)
    # game 3 holds what game 1 held: the 30 rows on show, 5 cells each — nothing of the games before
    assert seen == [30 * len(RecordModel.COLUMNS)] * 3
    assert model.index(29, 2).data() == "3" and model.index(29, 0).data(RecordModel.MoveRole).number == 30
    model.set_record([], {})
    assert _alive() == before
