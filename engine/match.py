"""Matches (G11.2): three games, totals, an extra game on a tie, then lots drawn with a recorded seed;
referee penalties (-2 each) and forfeits (弃权)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .preset import Preset, load_preset
from .seats import SEATS
from .state import GameResult

TEAMS = ("odd", "even")
PENALTY_REASONS = {
    "noise": "大声喧哗 / loud talk",
    "peeking": "偷看牌 / peeking at cards",
    "signals": "发暗语、发肢体暗号 / secret signals",
    "other": "违背够级规则 / other breach",
}


def _other(team: str) -> str:
    return "even" if team == "odd" else "odd"


@dataclass(frozen=True)
class Penalty:
    team: str
    reason: str
    points: int
    after_game: int  # games completed when the penalty was given


class Match:
    """One match between the odd seats {1,3,5} and the even seats {2,4,6}.

    ``seed`` is the recorded seed for drawing lots (抽签) if the extra game still ties.
    """

    def __init__(self, preset: Preset | str = "tv_match", seed: int | str = 0) -> None:
        self.preset = load_preset(preset) if isinstance(preset, str) else preset
        self.seed = seed
        self.games: list[GameResult] = []
        self.void_games = 0
        self.penalties: list[Penalty] = []
        self.forfeited: str | None = None

    # -- input
    def add_game(self, result: GameResult) -> bool:
        """Record a finished game. A void game (流局, G10.5) is not counted and returns False."""
        if self.is_over:
            raise ValueError("the match is already decided")
        if result.void:
            self.void_games += 1
            return False
        self.games.append(result)
        return True

    def add_penalty(self, team: str, reason: str = "other") -> Penalty:
        """G11.2 罚则: each referee penalty costs the offending team ``penalty_points`` (2)."""
        if team not in TEAMS:
            raise ValueError(f"team must be 'odd' or 'even', got {team!r}")
        p = Penalty(team, reason, self.preset.penalty_points, len(self.games))
        self.penalties.append(p)
        return p

    def forfeit(self, team: str) -> None:
        """G11.2: a player more than 5 minutes late forfeits (弃权): the other team wins."""
        if team not in TEAMS:
            raise ValueError(f"team must be 'odd' or 'even', got {team!r}")
        if self.forfeited is None:
            self.forfeited = team

    # -- state
    @property
    def totals(self) -> dict[str, int]:
        t = {"odd": 0, "even": 0}
        for g in self.games:
            for k in TEAMS:
                t[k] += g.team_points[k]
        for p in self.penalties:
            t[p.team] -= p.points
        return t

    @property
    def games_played(self) -> int:
        return len(self.games)

    @property
    def needs_extra_game(self) -> bool:
        """Three games played and the totals tie: one more game (加打一局)."""
        if self.forfeited is not None:
            return False
        t = self.totals
        return len(self.games) == self.preset.match_games and t["odd"] == t["even"]

    @property
    def needs_game(self) -> bool:
        return not self.is_over

    @property
    def drawn_lots(self) -> str | None:
        """After the extra game still ties: the team drawn by lot, from ``random.Random`` seeded with
        ``f"gouji-lots:{seed}"`` (reproducible from the recorded seed)."""
        if self.forfeited is not None:
            return None
        t = self.totals
        if len(self.games) >= self.preset.match_games + 1 and t["odd"] == t["even"]:
            return random.Random(f"gouji-lots:{self.seed}").choice(TEAMS)
        return None

    @property
    def winner(self) -> str | None:
        if self.forfeited is not None:
            return _other(self.forfeited)
        n = len(self.games)
        if n < self.preset.match_games:
            return None
        t = self.totals
        if t["odd"] != t["even"]:
            return "odd" if t["odd"] > t["even"] else "even"
        return self.drawn_lots

    @property
    def decided_by(self) -> str | None:
        """'forfeit', 'points', 'extra_game', 'lots' or None."""
        if self.winner is None:
            return None
        if self.forfeited is not None:
            return "forfeit"
        if len(self.games) == self.preset.match_games:
            return "points"
        return "lots" if self.drawn_lots is not None else "extra_game"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.preset.name,
            "seed": self.seed,
            "games": [g.to_json() for g in self.games],
            "penalties": [
                {"team": p.team, "reason": p.reason, "points": -p.points, "after_game": p.after_game}
                for p in self.penalties
            ],
            "forfeited": self.forfeited,
            "totals": self.totals,
            "needs_extra_game": self.needs_extra_game,
            "drawn_lots": self.drawn_lots,
            "winner": self.winner,
            "decided_by": self.decided_by,
        }


def next_leader(preset: Preset, previous: GameResult | None, shang_ban: int) -> int:
    """G12: who leads the next game. ``tv_match``: the 上班 seat (``shang_ban``) every game.
    ``dagang``: the previous game's 大落; the first game (or after 圈三 / 流局, a fresh 开牌) by 亮3."""
    if preset.first_leader == "shang_ban" or previous is None or previous.void or previous.quan_san:
        return shang_ban
    for s in SEATS:
        if previous.titles.get(s) == "大落":
            return s
    return shang_ban
