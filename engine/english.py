"""English counts, the one place they are made: ``count(1, "game")`` is "1 game", ``count(2, "game")``
"2 games" — never "game(s)" (Chinese needs no plural: 1 局, 2 局).

Every English message that counts something says it with :func:`count` (the number and its noun) or
:func:`plural` (the noun alone, for "unknown fields a, b"); the Qt windows use Qt's numerus forms
(``tr("… %n …", "", n)``) instead. ``tests/test_english_plurals.py`` fails any "(s)" in the code's
English and any count that reads "1 games".

:func:`argparse_both` says a command-line parser's own (English) complaint in Chinese first, for both
command lines' one-line refusals (``python -m broadcast`` and ``python -m engine``).
"""

from __future__ import annotations

import re

__all__ = ["argparse_both", "count", "plural"]


def plural(n: int, one: str, many: str = "") -> str:
    """The noun for ``n`` things: ``one`` for exactly 1, else ``many`` (by default ``one`` + "s")."""
    return one if n == 1 else (many or one + "s")


def count(n: int, one: str, many: str = "") -> str:
    """``n`` and its noun: ``count(1, "match", "matches")`` is "1 match", ``count(0, "error")`` "0 errors"."""
    return f"{n} {plural(n, one, many)}"


# argparse's own messages (English) said in Chinese first: the line is "中文 / English" as every other
_ARGPARSE_ZH: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"the following arguments are required: (.+)"), "缺少参数 {0}"),
    (re.compile(r"unrecognized arguments: (.+)"), "不认识的参数 {0}"),
    (re.compile(r"argument (\S+): invalid (?:int|float) value: (.+)"), "参数 {0} 要一个数，不是 {1}"),
    (
        re.compile(r"argument (\S+): invalid choice: (\S+) \(choose from (.+)\)"),
        "参数 {0} 没有 {1} 这一项（可选 {2}）",
    ),
    (re.compile(r"argument (\S+): expected one argument"), "参数 {0} 后面要有一个值"),
    (re.compile(r"argument (\S+): not allowed with argument (\S+)"), "参数 {0} 不能与 {1} 同时使用"),
    (re.compile(r"one of the arguments (.+) is required"), "须给出其中一个参数：{0}"),
)


def argparse_both(message: str) -> str:
    """An argparse message as ``中文 / English`` (a message of its own, already in both, as it is)."""
    for pattern, zh in _ARGPARSE_ZH:
        m = pattern.fullmatch(message)
        if m:
            return f"{zh.format(*m.groups())} / {message}"
    return message
