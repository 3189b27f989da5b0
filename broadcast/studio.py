"""The studio's composition: which components make up the show state, and the one way every command
(``run``, the console, the CLIs, the benchmarks) opens the project's store.

    from broadcast import studio
    store = studio.open_store("data/studio.sqlite")     # show + game + sponsors + season
    state = studio.default_state()                      # a fresh state of the same schema
    store.close()

A new component is added here (and only here): the core knows none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from broadcast.core import Component, ShowStore
from broadcast.core.schema import StateSchema, compose


def components() -> tuple[Component, ...]:
    """The studio's components, in the order their sections appear in the state."""
    from broadcast.game.component import COMPONENT as game
    from broadcast.qualifiers.component import COMPONENT as qualifiers
    from broadcast.season.component import COMPONENT as season
    from broadcast.show.component import COMPONENT as show
    from broadcast.sponsors.component import COMPONENT as sponsors
    from broadcast.winprob.component import COMPONENT as winprob

    return (show, game, sponsors, season, qualifiers, winprob)


def open_store(path: str | Path, *, extra: Iterable[Component] = (), **kw: Any) -> ShowStore:
    """Open (creating) the project database at ``path`` with the studio's components (plus ``extra``,
    e.g. a test's own actions) and replay its journal. ``kw`` goes to :class:`ShowStore`."""
    return ShowStore.open(path, components=(*components(), *extra), **kw)


def state_schema() -> StateSchema:
    """The schema of the studio's show state."""
    return compose(components())


def default_state() -> dict[str, Any]:
    """A fresh studio state holding every default the schema names."""
    return state_schema().default_state()


def validate(state: dict[str, Any]) -> None:
    """Raise ``StateInvalid`` if ``state`` is not a valid studio state."""
    state_schema().validate(state)
