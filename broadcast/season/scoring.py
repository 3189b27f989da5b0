"""The season's only door to the rules engine: game records (``engine.gjn``) and match rules
(``engine.match``, G11.2). Nothing here re-implements a rule; it adapts the engine's results to rows.

Per-seat points: the engine scores teams (G11.1). A seat's points are its title's points from the
preset (``title_points``: 头科 7 … 大落 1 in ``tv_match``). At 圈三 (串三户) the winning team's
``quan_san_points`` (32) are shared by its three players in proportion to their titles' points
(7:5:4 → 14, 10, 8), the remainder to 头科, and the 圈三 team's players score 0. The seat points of a
team always add up to the engine's team points (checked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from broadcast.errors import GoujiError
from engine import GameResult, GJNError, gjn, load_preset
from engine import match as engine_match
from engine.preset import Preset

ODD, EVEN = (1, 3, 5), (2, 4, 6)


class RecordRejected(GoujiError):
    """The engine refuses a record: ``RecordRejected(rule, zh, en, filename=, line=, move=, seat=)``,
    ``rule`` the clause id, ``line``/``move`` locating it; ``str()``: ``file:line: [rule] 中文 / English``."""

    def __init__(
        self,
        rule: str = "",
        zh: str = "",
        en: str = "",
        *,
        filename: str,
        line: int | None = None,
        move: int | None = None,
        seat: int | None = None,
    ) -> None:
        self.filename = filename
        self.line = line
        self.move = move
        self.seat = seat
        super().__init__(rule, zh, en, where=f"{filename}:{line}" if line else filename)


@dataclass
class GameOutcome:
    rules: str
    finish_order: list[int]
    titles: dict[int, str]
    places: dict[int, int]
    points: dict[int, int]
    team_points: dict[str, int]
    quan_san: bool
    opened: list[int]
    seat_names: dict[int, str] = field(default_factory=dict)


@cache
def preset(rules: str) -> Preset:
    return load_preset(rules)


def seat_points(p: Preset, finish_order: list[int], quan_san: bool) -> dict[int, int]:
    tp = list(p.title_points)
    pts = dict.fromkeys(range(1, 7), 0)
    if quan_san:
        winners = finish_order[:3]
        base = sum(tp[:3])
        shares = [tp[i] * p.quan_san_points // base for i in range(3)]
        shares[0] += p.quan_san_points - sum(shares)
        for seat, share in zip(winners, shares, strict=True):
            pts[seat] = share
    else:
        for i, seat in enumerate(finish_order):
            pts[seat] = tp[i]
    return pts


def check_record(text: str, filename: str = "<record>") -> GameOutcome:
    """Replay a GJN record with the engine; raises :class:`RecordRejected` naming the clause."""
    try:
        rec = gjn.parse(text, filename)
        result = gjn.check_record(rec)
    except GJNError as e:
        raise RecordRejected(e.rule or "GJN", e.zh, e.en, filename=filename, line=e.line) from None
    if not result.get("ok"):
        err = result.get("error", {})
        en, _, zh = str(err.get("message", "rejected")).partition(" / ")  # the engine's "en / zh"
        raise RecordRejected(
            str(err.get("rule") or "GJN"),
            zh or en,
            en,
            filename=filename,
            line=err.get("line"),
            move=err.get("move"),
            seat=err.get("seat"),
        )
    order = [int(s) for s in result["finish_order"]]
    if not order:
        raise RecordRejected(
            "G10.5", "流局不计入比赛", "a void game (流局) does not count", filename=filename
        )
    titles = {int(k): str(v) for k, v in result["titles"].items()}
    p = preset(rec.rules)
    quan_san = bool(result["quan_san"])
    pts = seat_points(p, order, quan_san)
    team = {k: int(v) for k, v in result["team_points"].items()}
    if p.scoring == "tv_match" and (
        sum(pts[s] for s in ODD) != team["odd"] or sum(pts[s] for s in EVEN) != team["even"]
    ):
        raise RecordRejected(
            "G11.1",
            f"座位得分 {pts} 与规则引擎的队伍得分 {team} 对不上",
            f"seat points {pts} do not add up to the engine's team points {team}",
            filename=filename,
        )
    return GameOutcome(
        rules=rec.rules,
        finish_order=order,
        titles=titles,
        places={s: i + 1 for i, s in enumerate(order)},
        points=pts,
        team_points=team,
        quan_san=quan_san,
        opened=[int(s) for s in result.get("opened", [])],
        seat_names=rec.names(),
    )


@dataclass
class Decision:
    score_a: int
    score_b: int
    winner: str | None  # "a", "b" or None
    decided_by: str  # points / extra_game / lots / forfeit / ""
    needs_extra_game: bool
    lots_seed: int | None
    engine: dict[str, Any]


def _result_from_points(a: int, b: int) -> GameResult:
    """A stand-in GameResult carrying only what ``engine.match`` reads (team points)."""
    return GameResult(
        finish_order=[1], titles={}, team_points={"odd": a, "even": b}, quan_san=False, opened=[]
    )


def decide_match(
    games: list[tuple[int, int]],
    penalties_a: int,
    penalties_b: int,
    *,
    forfeit: str | None = None,
    lots_seed: int | None = None,
    rules: str = "tv_match",
) -> Decision:
    """Score a match with ``engine.match.Match``: team A = odd seats, team B = even seats.

    ``penalties_a`` / ``penalties_b`` are penalty *counts×points* already summed; they are entered
    as that many engine penalties of ``penalty_points`` each. Lots are drawn only with ``lots_seed``.
    """
    p = preset(rules)
    m = engine_match.Match(p, seed=lots_seed if lots_seed is not None else 0)
    for i, (a, b) in enumerate(games):
        if m.is_over:
            raise ValueError(f"game {i + 1} was played after the match was decided")
        m.add_game(_result_from_points(a, b))
    for side, total in (("odd", penalties_a), ("even", penalties_b)):
        if total % p.penalty_points:
            raise ValueError(f"penalty total {total} is not a multiple of {p.penalty_points}")
        for _ in range(total // p.penalty_points):
            m.add_penalty(side)
    if forfeit is not None:
        m.forfeit("odd" if forfeit == "a" else "even")
    totals = m.totals
    lots_needed = m.drawn_lots is not None
    if lots_needed and lots_seed is None:
        return Decision(totals["odd"], totals["even"], None, "lots", False, None, m.to_json())
    winner = m.winner
    return Decision(
        totals["odd"],
        totals["even"],
        None if winner is None else ("a" if winner == "odd" else "b"),
        m.decided_by or "",
        m.needs_extra_game,
        lots_seed if lots_needed else None,
        m.to_json(),
    )


def match_games(rules: str = "tv_match") -> int:
    return preset(rules).match_games


def penalty_points(rules: str = "tv_match") -> int:
    return preset(rules).penalty_points
