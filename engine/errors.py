"""The project's one error vocabulary: :class:`GoujiError`, with a rule, a Chinese and an English
message, and the engine's own errors derived from it.

Every error a person may see — a move the rules forbid, a malformed record, an action the show state
refuses, OBS, sponsors, seasons — is a ``GoujiError``, constructed one way::

    GoujiError(rule, zh, en)          # rule: a clause id of docs/rules.md ("G4.2") or a short code ("bus")

``where`` (keyword) names the file or ``file:line`` the error is about. Subclasses add keyword-only
context after these (``IllegalAction(..., action=, move=)``) or fix ``rule`` / ``zh`` as class
attributes (``ObsNotConnected(en="…")``); the few whose message is built from data (an OBS status code,
a list of placement issues) compute the three and pass them on. ``exc.rule``, ``exc.zh``, ``exc.en`` and
``exc.where`` are always set (``exc.message_zh`` / ``exc.message_en`` say the same); ``str(exc)`` is one
line for logs and commands: ``where: [rule] 中文 / English``.
The engine must not import the application, so the root lives here; ``broadcast.errors`` re-exports it.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import ClassVar, Protocol

_CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
_RULE = re.compile(r"[A-Za-z][A-Za-z0-9_./\-]{0,39}")


class GoujiError(Exception):
    """The root of every error of the project: ``GoujiError(rule, zh, en)``.

    ``rule`` is a clause id (``G4.2``) or a short code (``bus``, ``obs.auth``, ``placements``): never a
    sentence (a message passed where the rule belongs is refused loudly). ``en`` defaults to ``zh``.
    """

    rule: str = ""
    zh: str = ""
    en: str = ""
    show_rule: ClassVar[bool] = True  # str() shows [rule] (off where the location says it all)

    def __init__(self, rule: str = "", zh: str = "", en: str = "", *, where: str | PurePath = "") -> None:
        rule = rule or type(self).rule
        if rule and not _RULE.fullmatch(rule):
            raise TypeError(
                f"{type(self).__name__}(rule, zh, en): rule must be a clause id or a code, not {rule!r}"
            )
        if zh and en and _CJK.search(en) and not _CJK.search(zh):
            raise TypeError(f"{type(self).__name__}(rule, zh, en): the Chinese message comes second: {zh!r}")
        self.rule = rule
        self.zh = zh or type(self).zh or en
        self.en = en or type(self).en or self.zh
        self.where = str(where)
        super().__init__(self.rule, self.zh, self.en)

    def text(self) -> str:
        """One line: ``where: [rule] 中文 / English`` (the English left out when it says nothing more)."""
        body = self.zh if self.zh == self.en else f"{self.zh} / {self.en}"
        if self.show_rule and self.rule:
            body = f"[{self.rule}] {body}"
        if self.where and not body.startswith(f"{self.where}:"):
            body = f"{self.where}: {body}"
        return body

    def __str__(self) -> str:
        return self.text()

    @property
    def message_zh(self) -> str:
        return self.zh

    @property
    def message_en(self) -> str:
        return self.en


class Decision(Protocol):
    """What an :class:`IllegalAction` is about: an :class:`engine.actions.Action` (named by its shape, so
    that this module, the root of every error, imports nothing of the engine's)."""

    @property
    def seat(self) -> int: ...


class IllegalAction(GoujiError, ValueError):
    """An action the rules forbid: ``IllegalAction(rule, zh, en, action=, move=, line=, seat=)``, ``rule``
    the clause id (``"G4.2"``). When raised while replaying a record, ``move`` (1-based), ``line`` and
    ``seat`` locate it. ``str()`` and ``message`` keep the engine's ``en / zh`` order (the GJN JSON)."""

    def __init__(
        self,
        rule: str = "",
        zh: str = "",
        en: str = "",
        *,
        action: Decision | None = None,
        move: int | None = None,
        line: int | None = None,
        seat: int | None = None,
    ) -> None:
        self.action = action
        self.move = move
        self.line = line
        self.seat = seat if seat is not None else (action.seat if action is not None else None)
        super().__init__(rule, zh, en)

    def text(self) -> str:
        return f"{self.rule}: {self.en} / {self.zh}"

    @property
    def message(self) -> str:
        return f"{self.en} / {self.zh}"


class GJNError(GoujiError, ValueError):
    """A malformed GJN record: ``GJNError(message, line, filename, zh=)``; ``str()`` is
    ``filename:line: message`` (rule ``GJN``; the format's messages are English, a refused file's are
    ``中文 / English``)."""

    rule = "GJN"
    show_rule = False

    def __init__(self, message: str, line: int, filename: str = "<string>", *, zh: str = "") -> None:
        self.message = message
        self.line = line
        self.filename = filename
        super().__init__("GJN", zh or message, message, where=f"{filename}:{line}")
