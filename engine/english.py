"""English counts, the one place they are made: ``count(1, "game")`` is "1 game", ``count(2, "game")``
"2 games" — never "game(s)" (Chinese needs no plural: 1 局, 2 局).

Every English message that counts something says it with :func:`count` (the number and its noun) or
:func:`plural` (the noun alone, for "unknown fields a, b"); the Qt windows use Qt's numerus forms
(``tr("… %n …", "", n)``) instead. ``tests/test_english_plurals.py`` fails any "(s)" in the code's
English and any count that reads "1 games".
"""

from __future__ import annotations

__all__ = ["count", "plural"]


def plural(n: int, one: str, many: str = "") -> str:
    """The noun for ``n`` things: ``one`` for exactly 1, else ``many`` (by default ``one`` + "s")."""
    return one if n == 1 else (many or one + "s")


def count(n: int, one: str, many: str = "") -> str:
    """``n`` and its noun: ``count(1, "match", "matches")`` is "1 match", ``count(0, "error")`` "0 errors"."""
    return f"{n} {plural(n, one, many)}"
