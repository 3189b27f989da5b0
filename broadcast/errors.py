"""The project's one error vocabulary, re-exported for the application: every error a person may see
is a :class:`GoujiError` with ``rule`` (a clause id or a code), ``zh`` and ``en``, constructed
``GoujiError(rule, zh, en)``. It lives in the engine (which must not import the application)."""

from engine.errors import GoujiError

__all__ = ["GoujiError"]
