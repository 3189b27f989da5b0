"""Exceptions carrying a clause id of RULES.md and bilingual messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Action


class IllegalAction(ValueError):
    """An action the rules forbid. ``rule`` is the clause id (``"G4.2"``); ``en``/``zh`` explain it.

    When raised while replaying a record, ``move`` (1-based), ``line`` and ``seat`` locate it.
    """

    def __init__(
        self,
        rule: str,
        en: str,
        zh: str,
        action: Action | None = None,
        move: int | None = None,
        line: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(f"{rule}: {en} / {zh}")
        self.rule = rule
        self.en = en
        self.zh = zh
        self.action = action
        self.move = move
        self.line = line
        self.seat = seat if seat is not None else (action.seat if action is not None else None)

    @property
    def message(self) -> str:
        return f"{self.en} / {self.zh}"


class GJNError(ValueError):
    """A malformed GJN record: ``filename:line: message``."""

    def __init__(self, message: str, line: int, filename: str = "<string>") -> None:
        super().__init__(f"{filename}:{line}: {message}")
        self.message = message
        self.line = line
        self.filename = filename
