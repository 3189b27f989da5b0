"""Corrections of a season match once it is set up (one layer of
:class:`~broadcast.season.model.SeasonDB`): its lineup, who sits in which seat, with the operator's reason.

    sdb.correct_lineup(mid, {1: p1, 2: q1, 3: p2, 4: q2, 5: p3, 6: q3}, "座位录错", uid="m12/c7")

What a referee and a producer expect of a billing and ranking record: the season credits each game to
the players who played it. So a correction says from which game of the match it holds (``from_game``):

* from game 1 (the default: the lineup was keyed wrong at the start) every game of the match already in
  the season is corrected too: each moved seat's row goes to the right player, the record's ``[SeatN]``
  names are rewritten and the record is replayed by the engine (the points must stay what they were),
  and the totals of every player it moved are counted again from their games, with the head-to-head
  scores of everyone at those tables, so that the 英雄榜 equals a recomputation;
* from a later game (a substitution the referee allowed between games) the games before it keep the
  players who played them; the games from it on are corrected as above.

Refused, naming the rule: a final match (nothing of it changes); a lineup that is not seats 1–6 each once,
a player in two seats (G1.1), a player not on the side's team (G1.2); teams that are not the match's two;
the sides exchanged (the odd seats' team to the even seats) once a game or a penalty of the match is in
the season (its points and penalties were counted for the sides: start the match again); nothing changed;
no reason. Every correction is kept in ``season_corrections`` (what it was, what it became, the games it
corrected, the reason); the table's ``uid`` makes a correction pushed again a no-op.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from broadcast.errors import count
from broadcast.season.backend import Rec, SeasonConn
from broadcast.season.matches import Matches, _replayed
from broadcast.season.rankings import PLAYER_AGG_SQL
from broadcast.season.texts import SeasonError
from engine import gjn

_RECOUNT_COLUMNS = ("games", "points", "firsts", "seconds", "lasts", "quan_san", "opened")


@dataclass(frozen=True)
class LineupCorrected:
    """A correction the season holds: the lineups before and after (odd team, even team, seats 1–6's
    players) and the numbers of the match's games it corrected."""

    correction_id: int
    match_id: int
    before: tuple[int, ...]
    after: tuple[int, ...]
    games: tuple[int, ...]


def _lineup_row(odd: int, even: int, lineup: dict[int, int]) -> tuple[int, ...]:
    return (odd, even, *(lineup[s] for s in range(1, 7)))


class Corrections(Matches):
    """Corrections of a match's set-up (see the module's doc)."""

    def correct_lineup(
        self,
        match_id: int,
        lineup: dict[int, int],
        reason: str,
        *,
        odd: int | None = None,
        even: int | None = None,
        from_game: int = 1,
        uid: str | None = None,
    ) -> LineupCorrected:
        """Seat → player of the match from game ``from_game`` on (``odd``/``even``: the teams on the odd
        and the even seats, the match's own by default); see the module's doc for what is refused."""
        if uid:
            done = self._correction(uid)
            if done is not None:
                return done
        m = self._open_match(match_id)
        sid = int(m["season_id"])
        odd = int(m["team_a"]) if odd is None else odd
        even = int(m["team_b"]) if even is None else even
        if {odd, even} != {int(m["team_a"]), int(m["team_b"])}:
            raise SeasonError(
                "G1.2",
                "只能在这场比赛的两支队伍之间更正上场名单",
                "a lineup is corrected between the match's own two teams",
            )
        if not reason.strip():
            raise SeasonError("season", "请写明更正的原因", "give the correction's reason")
        self.check_lineup(sid, odd, even, lineup)
        old = {s: int(r["id"]) for s, r in self.lineup(match_id).items()}
        before = _lineup_row(int(m["team_a"]), int(m["team_b"]), old)
        after = _lineup_row(odd, even, lineup)
        if before == after:
            raise SeasonError("season", "上场名单没有改动", "the lineup did not change")
        games = self.games(match_id)
        swapped = odd != int(m["team_a"])
        if swapped and (games or self.penalties(match_id)):
            zh = "、".join(f"第{int(g['number'])}局" for g in games) or "罚分"
            en = ", ".join(f"game {int(g['number'])}" for g in games) or "a penalty"
            raise SeasonError(
                "G1.2",
                f"赛季里已存入这场比赛的{zh}，是按原来的单双号队伍计分的：比赛中不能换边（请重新开这场比赛）",
                f"the season holds {en} of this match, counted for the sides as they were: the sides"
                " cannot be exchanged mid-match (start the match again)",
            )
        if not 1 <= from_game <= len(games) + 1:
            raise SeasonError(
                "season",
                f"赛季里这场比赛有{len(games)}局：更正只能从第1–{len(games) + 1}局起",
                f"the season has {count(len(games), 'game')} of this match: a correction holds from game"
                f" 1–{len(games) + 1}",
            )
        moved = [s for s in range(1, 7) if lineup[s] != old[s]]
        names = {s: str(r["name"]) for s, r in self._players(lineup).items()}
        corrected = [g for g in games if int(g["number"]) >= from_game and moved]
        with self.transaction() as c:
            self.changed(sid)  # the season's writes take turns: the season's row first
            c.executemany(
                "UPDATE season_lineups SET player_id=? WHERE match_id=? AND seat=?",
                [(lineup[s], match_id, s) for s in moved],
            )
            if swapped:
                c.execute("UPDATE season_matches SET team_a=?, team_b=? WHERE id=?", (odd, even, match_id))
            if corrected:
                self._correct_games(c, sid, corrected, moved, lineup, names)
            cid = c.insert(
                "INSERT INTO season_corrections(match_id, kind, was, now, games, reason, uid) "
                "VALUES(?,?,?,?,?,?,?)",
                (
                    match_id,
                    "lineup",
                    json.dumps(before),
                    json.dumps(after),
                    json.dumps([int(g["number"]) for g in corrected]),
                    reason.strip(),
                    uid,
                ),
            )
        return LineupCorrected(cid, match_id, before, after, tuple(int(g["number"]) for g in corrected))

    def corrections(self, match_id: int) -> list[Rec]:
        """The match's corrections, oldest first."""
        return self.conn.execute(
            "SELECT * FROM season_corrections WHERE match_id=? ORDER BY id", (match_id,)
        ).fetchall()

    # -- inside ------------------------------------------------------------------------------------------
    def _correction(self, uid: str) -> LineupCorrected | None:
        row = self.conn.execute("SELECT * FROM season_corrections WHERE uid=?", (uid,)).fetchone()
        if row is None:
            return None
        return LineupCorrected(
            int(row["id"]),
            int(row["match_id"]),
            tuple(json.loads(row["was"])),
            tuple(json.loads(row["now"])),
            tuple(json.loads(row["games"] or "[]")),
        )

    def _players(self, lineup: dict[int, int]) -> dict[int, Rec]:
        ids = sorted(set(lineup.values()))
        rows = self.conn.execute(
            f"SELECT * FROM season_players WHERE id IN ({','.join('?' * len(ids))})", ids
        ).fetchall()
        by_id = {int(r["id"]): r for r in rows}
        return {s: by_id[p] for s, p in lineup.items()}

    def _correct_games(
        self,
        c: SeasonConn,
        sid: int,
        games: list[Rec],
        moved: list[int],
        lineup: dict[int, int],
        names: dict[int, str],
    ) -> None:
        """The match's ``games`` played by ``lineup`` on the ``moved`` seats: seat rows, records, totals."""
        ids = [int(g["id"]) for g in games]
        marks = ",".join("?" * len(ids))
        seats = c.execute(
            f"SELECT game_id, seat, player_id, points FROM season_game_seats WHERE game_id IN ({marks})", ids
        ).fetchall()
        at_tables = {int(r["player_id"]) for r in seats} | set(lineup.values())
        recount = {int(r["player_id"]) for r in seats if int(r["seat"]) in moved}
        recount |= {lineup[s] for s in moved}
        before = self._rows(c, "players", sorted(at_tables))
        for g in games:
            record = gjn.parse(str(g["gjn"]), f"第{int(g['number'])}局.gjn")
            for s in moved:
                record.set_tag(f"Seat{s}", names[s])
            text = gjn.write(record)
            outcome = _replayed(text, f"第{int(g['number'])}局.gjn")  # the engine re-checks the record
            stored = {int(r["seat"]): int(r["points"]) for r in seats if int(r["game_id"]) == int(g["id"])}
            if any(outcome.points[s] != stored[s] for s in stored):
                raise SeasonError(
                    "season",
                    f"第{int(g['number'])}局的牌谱重放后得分与赛季记录不符，没有更正",
                    f"game {int(g['number'])}'s record replays to other points than the season holds:"
                    " nothing corrected",
                )
            c.execute("UPDATE season_games SET gjn=? WHERE id=?", (text, int(g["id"])))
        c.executemany(
            "UPDATE season_game_seats SET player_id=? WHERE game_id=? AND seat=?",
            [(lineup[s], gid, s) for gid in ids for s in moved],
        )
        self._recount_players(c, sid, sorted(recount))
        self._regroup(sid, "players", before)

    @staticmethod
    def _recount_players(c: SeasonConn, sid: int, players: list[int]) -> None:
        """The totals of ``players`` counted again from their games (those left without one: zero)."""
        marks = ",".join("?" * len(players))
        sql = PLAYER_AGG_SQL.replace("WHERE season_id=?", f"WHERE season_id=? AND player_id IN ({marks})")
        counted: dict[int, tuple[Any, ...]] = {
            int(r[0]): tuple(int(v or 0) for v in r[1:]) for r in c.execute(sql, [sid, *players]).fetchall()
        }
        zero = (0,) * len(_RECOUNT_COLUMNS)
        sets = ", ".join(f"{col}=?" for col in _RECOUNT_COLUMNS)
        c.executemany(
            f"UPDATE season_player_totals SET {sets} WHERE player_id=?",
            [(*counted.get(p, zero), p) for p in players],
        )


__all__ = ["Corrections", "LineupCorrected"]
