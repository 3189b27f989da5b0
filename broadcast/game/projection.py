"""What the engine decided, written into the show state: ``state.table`` (what the pages and the native
OBS graphics render, deciding nothing) and ``state.game.record``, then the match's totals and decision.
"""

from __future__ import annotations

from typing import Any

from broadcast.core import State
from broadcast.game.live import LiveGame
from broadcast.game.match import decide
from engine.words import QUAN_SAN, TEAMS, VOID, label_of


def project(state: State, live: LiveGame) -> None:
    """Write what the engine decided into ``state.table`` and ``state.game.record``: the pages and the
    OBS graphics render these fields and decide nothing (titles so far, 报牌, 无头, who passed …).

    Its cost does not grow with the game: the record's lines are written only for the new moves, the
    top play's move and its burn are found from the end, and the match decision is the engine's,
    computed once per distinct set of results and penalties (``broadcast.game.match.decide``).
    ``tests/game/test_projection.py`` holds it to a projection from scratch over whole matches."""
    game = live.game
    moves = game.moves
    table = state["table"]
    over = game.is_over()
    titles = game.titles_so_far()
    result = game.result() if over else None
    quan_san = bool(result and result.quan_san)
    passed = game.passed_this_round()
    reporting = game.report_counts()  # G5.6 报牌
    burner = game.burner
    opened = set(game.opened)
    for seat in table["seats"]:
        s = seat["seat"]
        seat["cards_left"] = max(0, min(36, int(game.cards_left(s))))
        title = titles.get(s)
        seat["title"] = title
        st = game.status(s)
        if title == QUAN_SAN:
            seat["status"] = "quan_san"
        elif st == "revolt":
            seat["status"] = "sitting_out"
        elif title is not None or st != "in_play":
            seat["status"] = "out"
        elif burner == s:
            seat["status"] = "burning"
        elif game.is_wutou(s):
            seat["status"] = "wutou"
        else:
            seat["status"] = "playing"
        seat["opened"] = s in opened
        seat["passed"] = s in passed
        seat["baopai"] = s in reporting
    table["turn"] = None if over else game.pending_seat
    top = game.last_play
    if top is None:
        table["last_play"] = None
    else:
        seat_no, play = top
        move_no = next(i for i in range(len(moves), 0, -1) if moves[i - 1].kind == "play")
        burn = False
        for m, ev, _s in reversed(game.events()):  # in move order: stop before the top play's move
            if m < move_no:
                break
            if m == move_no and ev in ("burn", "fan_shao"):
                burn = True
                break
        table["last_play"] = {
            "seat": int(seat_no),
            "cards": str(play),
            "label": label_of(play),
            "gouji": bool(play.is_gouji(game.preset.gouji_min_twos)),
            "burn": burn,
        }
    table["jipaiqi"] = {k: int(v) for k, v in game.jokers_and_twos_out().items()}
    table["phase"] = "over" if over else "playing"
    table["quan_san"] = quan_san
    record = live.record(moves)
    state["game"]["record"] = record
    table["moves"] = len(record)  # what a figure of a position (the 胜率) is checked against on air
    table["last_move"] = record[-1] if record else ""
    # this game's result in the match strip, and the match totals
    results = [r for r in table["results"] if r["game_no"] != table["game_no"]]
    if result is not None:
        results.append(
            {
                "game_no": table["game_no"],
                "odd": int(result.team_points["odd"]),
                "even": int(result.team_points["even"]),
                "quan_san": quan_san,
            }
        )
        results.sort(key=lambda r: r["game_no"])
        table["message"] = _over_message(table, result)
    elif table["message"].startswith(f"第{table['game_no']}局结束"):
        table["message"] = ""
    table["results"] = results
    totals(state)


def _over_message(table: dict[str, Any], result: Any) -> str:
    odd = table["teams"]["odd"]["label"]
    even = table["teams"]["even"]["label"]
    head = f"第{table['game_no']}局结束"
    if result.void:
        return f"{head}：{VOID}"
    pts = result.team_points
    line = f"{head}　{odd} {pts['odd']} : {pts['even']} {even}"
    return f"{line}　圈三！" if result.quan_san else line


def totals(state: State) -> None:
    """The teams' points (games won less penalties) and the engine's match decision (G11.2): extra
    game, lots, forfeit, winner."""
    table = state["table"]
    for team in TEAMS:
        won = sum(int(r[team]) for r in table["results"])
        lost = sum(int(p["points"]) for p in state["game"]["penalties"] if p["team"] == team)
        table["teams"][team]["points"] = won - lost
    decide(state)
