"""The result of a game (docs/rules.md G10, G11): :class:`GameResult`.

A plain dataclass in a module the compiled core leaves as Python (engine/native.py): results are
pickled, deep-copied and compared by callers as ordinary objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameResult:
    finish_order: list[int]
    titles: dict[int, str]
    team_points: dict[str, int]
    quan_san: bool
    opened: list[int]
    void: bool = False
    zha_shao: list[int] = field(default_factory=list)
    men: list[int] = field(default_factory=list)
    revolt: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "finish_order": list(self.finish_order),
            "titles": {str(s): t for s, t in sorted(self.titles.items())},
            "team_points": dict(self.team_points),
            "quan_san": self.quan_san,
            "opened": list(self.opened),
        }
