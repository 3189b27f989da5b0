"""The project's one error vocabulary, re-exported for the application: every error a person may see
is a :class:`GoujiError` with ``rule`` (a clause id or a code), ``zh`` and ``en``, constructed
``GoujiError(rule, zh, en)``. It lives in the engine (which must not import the application).

The English of a message counts with :func:`count` / :func:`plural` (``engine/english.py``, the one
place English plurals are made: "1 game", "2 games", never "game(s)")."""

from engine.english import count, plural
from engine.errors import GoujiError

__all__ = ["GoujiError", "count", "plural"]
