"""Matches, games, penalties, forfeits, results and the 九宫格 prizes (one layer of
:class:`~broadcast.season.model.SeasonDB`): every score comes from the rules engine (``scoring``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broadcast.errors import count
from broadcast.season import scoring
from broadcast.season.backend import Rec
from broadcast.season.texts import EVEN_SEATS, ODD_SEATS, SeasonError
from broadcast.season.totals import Totals

_MATCH_SQL = "SELECT * FROM season_matches WHERE id=?"
_SEASON_OF_MATCH_SQL = (
    "SELECT s.* FROM season_matches m JOIN season_seasons s ON s.id=m.season_id WHERE m.id=?"
)
_GAMES_SQL = "SELECT * FROM season_games WHERE match_id=? ORDER BY number"
_LINEUP_SQL = (
    "SELECT l.seat, p.* FROM season_lineups l JOIN season_players p ON p.id=l.player_id "
    "WHERE l.match_id=? ORDER BY l.seat"
)


def _found(rows: list[Rec], match_id: int) -> Rec:
    """The match of ``_MATCH_SQL``'s rows, or the refusal naming it."""
    if not rows:
        raise SeasonError("match", f"没有这场比赛 #{match_id}", f"no such match #{match_id}")
    return rows[0]


def _open(m: Rec) -> Rec:
    """The match, refused when it is final (nothing of it may change)."""
    if m["status"] == "final":
        raise SeasonError(
            "match", f"比赛 #{m['id']} 已结束，不能再修改", f"match #{m['id']} is final: it cannot be changed"
        )
    return m


def _replayed(gjn_text: str, filename: str) -> scoring.GameOutcome:
    """The engine's replay of a record (refused: :class:`SeasonError` naming the clause)."""
    try:
        return scoring.check_record(gjn_text, filename)
    except scoring.RecordRejected as e:
        raise SeasonError(e.rule, "牌谱被规则引擎拒绝", f"record rejected by the engine: {e}") from None


@dataclass(frozen=True)
class _Game:
    """A game checked against its match (:func:`_checked_game`), ready to store."""

    match: Rec
    number: int
    extra: bool
    lineup: dict[int, Rec]
    outcome: scoring.GameOutcome


def _next_game(m: Rec, season: Rec, games: list[Rec], number: int) -> tuple[int, bool]:
    """The number of the match's next game and whether it is an extra one; refused when the match rules
    (G11.2) allow no further game, or when the table's ``number`` (0: none) is not the next."""
    if m["forfeit_team"] is not None:
        raise SeasonError("G11.2", "这场比赛已判弃权", "the match was forfeited")
    if number and number != len(games) + 1:
        raise SeasonError(
            "G11.2",
            f"赛季里这场比赛已有{len(games)}局，不能记作第{number}局",
            f"the season has {count(len(games), 'game')} of this match: this cannot be game {number}",
        )
    number = len(games) + 1
    regular = scoring.match_games(season["rules"])
    if number > regular:
        decision = scoring.decide_match(
            [(g["points_a"], g["points_b"]) for g in games],
            int(m["penalty_a"]),
            int(m["penalty_b"]),
            rules=season["rules"],
        )
        if not decision.needs_extra_game:
            raise SeasonError(
                "G11.2",
                f"{regular}局已打完，比分 {decision.score_a}:{decision.score_b}，不能再加赛",
                f"{count(regular, 'regular game')} played, {decision.score_a}:{decision.score_b}: "
                "no extra game, the match is decided",
            )
    return number, number > regular


def _checked_game(
    m: Rec,
    season: Rec,
    games: list[Rec],
    seats: list[Rec],
    outcome: scoring.GameOutcome,
    number: int,
    filename: str,
) -> _Game:
    """The engine's replay of a record checked against its match (read before: the match open, the
    season, its games so far, the lineup): the next game the rules allow, the season's rules, the seats'
    names; refused (:class:`SeasonError` naming the clause) otherwise."""
    number, extra = _next_game(m, season, games, number)
    if outcome.rules and outcome.rules != season["rules"]:
        raise SeasonError(
            "Rules",
            f"规则 {outcome.rules!r} 与赛季规则 {season['rules']!r} 不符",
            f"the record's rules {outcome.rules!r} are not the season's {season['rules']!r}",
            where=filename or "牌谱",
        )
    lineup = {int(r["seat"]): r for r in seats}
    for seat, name in outcome.seat_names.items():
        if seat in lineup and name and name != lineup[seat]["name"]:
            raise SeasonError(
                "Seat",
                f"{seat}号座位是 {name!r}，上场名单是 {lineup[seat]['name']!r}",
                f"seat {seat} is {name!r} in the record, {lineup[seat]['name']!r} in the lineup",
                where=filename or "牌谱",
            )
    return _Game(m, number, extra, lineup, outcome)


@dataclass(frozen=True)
class MatchResult:
    match_id: int
    score_a: int
    score_b: int
    winner: int | None
    decided_by: str
    lots_seed: int | None
    needs_extra_game: bool


class Matches(Totals):
    """Matches and what happens in them."""

    # -- matches --------------------------------------------------------------------------------
    def create_match(
        self,
        season_id: int,
        team_a: int,
        team_b: int,
        lineup: dict[int, int],
        *,
        episode_id: int | None = None,
        round_: int = 0,
        label: str = "",
        uid: str | None = None,
    ) -> int:
        """A match of ``team_a`` (odd seats) against ``team_b`` (even seats); ``lineup`` seat → player.
        Given a ``uid`` (a table's own name for the match), creating it again returns the same match."""
        if uid:
            row = self.conn.execute("SELECT id FROM season_matches WHERE uid=?", (uid,)).fetchone()
            if row is not None:
                return int(row[0])
        self.check_lineup(season_id, team_a, team_b, lineup)
        with self.transaction() as c:
            new_id = c.insert(
                "INSERT INTO season_matches(season_id, episode_id, round, label, team_a, team_b, uid) "
                "VALUES(?,?,?,?,?,?,?)",
                (season_id, episode_id, round_, label, team_a, team_b, uid),
            )
            mid = new_id
            c.executemany(
                "INSERT INTO season_lineups(match_id, seat, player_id) VALUES(?,?,?)",
                [(mid, s, p) for s, p in sorted(lineup.items())],
            )
            return mid

    def check_lineup(self, season_id: int, team_a: int, team_b: int, lineup: dict[int, int]) -> None:
        """A lineup (seat → player) of ``team_a`` on the odd seats against ``team_b`` on the even ones,
        refused naming the clause: seats 1–6 each once, one seat a player (G1.1), each on their team's
        side (G1.2)."""
        if team_a == team_b:
            raise SeasonError("G1.2", "一场比赛需要两支不同的队伍", "a match needs two different teams")
        if sorted(lineup) != [1, 2, 3, 4, 5, 6]:
            raise SeasonError("G1.1", "上场名单必须是 1–6 号座位各一人", "the lineup needs seats 1–6")
        if len(set(lineup.values())) != 6:
            twice = sorted(s for s, p in lineup.items() if list(lineup.values()).count(p) > 1)
            seats = "、".join(f"{s}号" for s in twice)
            raise SeasonError(
                "G1.1",
                f"同一选手不能坐两个座位（{seats}是同一人）",
                f"a player holds one seat (seats {', '.join(map(str, twice))} are the same player)",
            )
        for seat, pid in lineup.items():
            row = self.conn.execute(
                "SELECT team_id, name FROM season_players WHERE id=? AND season_id=?", (pid, season_id)
            ).fetchone()
            if row is None:
                raise SeasonError(
                    "player", f"{seat}号座位：没有选手 #{pid}", f"seat {seat}: no player #{pid}"
                )
            want = team_a if seat in ODD_SEATS else team_b
            if row["team_id"] != want:
                side = "单号（A队）" if seat in ODD_SEATS else "双号（B队）"
                raise SeasonError(
                    "G1.2",
                    f"{seat}号座位是{side}，{row['name']}不是这支队伍的队员",
                    f"seat {seat} belongs to the other team: {row['name']} is not on it",
                )

    def match(self, match_id: int) -> Rec:
        return _found(self.conn.execute(_MATCH_SQL, (match_id,)).fetchall(), match_id)

    def lineup(self, match_id: int) -> dict[int, Rec]:
        return {int(r["seat"]): r for r in self.conn.execute(_LINEUP_SQL, (match_id,)).fetchall()}

    def games(self, match_id: int) -> list[Rec]:
        return self.conn.execute(_GAMES_SQL, (match_id,)).fetchall()

    def matches(self, season_id: int, episode_id: int | None = None) -> list[Rec]:
        if episode_id is None:
            return self.conn.execute(
                "SELECT * FROM season_matches WHERE season_id=? ORDER BY id", (season_id,)
            ).fetchall()
        return self.conn.execute(
            "SELECT * FROM season_matches WHERE season_id=? AND episode_id=? ORDER BY id",
            (season_id, episode_id),
        ).fetchall()

    def last_episode(self, season_id: int, *, with_games: bool = False) -> int | None:
        """The number of the last episode with a final match — or, ``with_games``, with a match that is
        final or has a game saved (None before the first): one look per episode at its matches' index,
        not a scan of the season's matches."""
        counted = "m.status='final'"
        if with_games:
            counted = f"({counted} OR EXISTS (SELECT 1 FROM season_games g WHERE g.match_id=m.id))"
        row = self.conn.execute(
            "SELECT MAX(e.number) FROM season_episodes e WHERE e.season_id=? AND EXISTS "
            f"(SELECT 1 FROM season_matches m WHERE m.episode_id=e.id AND {counted})",
            (season_id,),
        ).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def _open_match(self, match_id: int) -> Rec:
        return _open(self.match(match_id))

    def record_game(
        self,
        match_id: int,
        gjn_text: str,
        *,
        filename: str = "",
        uid: str | None = None,
        number: int = 0,
        outcome: scoring.GameOutcome | None = None,
    ) -> int:
        """Replay ``gjn_text`` with the engine and store it as the match's next game.

        Refused (:class:`SeasonError` naming the clause) if the engine rejects the record, if the
        record's rules are not the season's, if its seat names disagree with the lineup, or if the
        match rules (G11.2) allow no further game. ``outcome``: the engine's replay of ``gjn_text``, when
        the caller has it already.
        """
        found, seasons, games, seats = self.conn.together(  # one round trip on PostgreSQL
            [(_MATCH_SQL, (match_id,)), (_SEASON_OF_MATCH_SQL, (match_id,)), (_GAMES_SQL, (match_id,)),
             (_LINEUP_SQL, (match_id,))]
        )  # fmt: skip
        m = _open(_found(found, match_id))
        name = filename or f"match{match_id}-game{len(games) + 1}.gjn"
        if outcome is None:
            _next_game(m, seasons[0], games, number)  # refused before the replay when no game may follow
            outcome = _replayed(gjn_text, name)
        game = _checked_game(m, seasons[0], games, seats, outcome, number, filename)
        with self.conn.sent_together():
            return self._store_game(game, gjn_text, uid)

    def _store_game(self, game: _Game, gjn_text: str, uid: str | None) -> int:
        """Inside a write transaction: the checked game stored, its seats counted in the totals (two
        round trips on PostgreSQL, see :meth:`~broadcast.season.totals.Totals.count_game`); its id."""
        m, outcome = game.match, game.outcome
        team_of = {s: (m["team_a"] if s in ODD_SEATS else m["team_b"]) for s in range(1, 7)}
        seat_rows = [
            (
                None,  # the game's id: the seats find it by its match and number, in the same round trip
                s,
                m["season_id"],
                game.lineup[s]["id"],
                team_of[s],
                outcome.titles[s],
                outcome.places.get(s),
                outcome.points[s],
                int(s in outcome.opened),
            )
            for s in range(1, 7)
        ]
        points_a = sum(outcome.points[s] for s in ODD_SEATS)
        points_b = sum(outcome.points[s] for s in EVEN_SEATS)
        mid = int(m["id"])
        (new_id, *_) = self.count_game(
            int(m["season_id"]),
            seat_rows,
            first=[
                (
                    "INSERT INTO season_games(match_id, number, extra, gjn, quan_san, points_a, points_b, "
                    "uid) VALUES(?,?,?,?,?,?,?,?) RETURNING id",
                    (mid, game.number, int(game.extra), gjn_text, int(outcome.quan_san), points_a, points_b,
                     uid),
                ),
                (
                    "INSERT INTO season_game_seats(game_id, seat, season_id, player_id, team_id, title, "
                    "place, points, opened) VALUES((SELECT id FROM season_games WHERE match_id=? AND "
                    "number=?),?,?,?,?,?,?,?,?)",
                    [(mid, game.number, *r[1:]) for r in seat_rows],
                    "many",
                ),
                ("UPDATE season_matches SET status='playing' WHERE id=?", (mid,)),
            ],
        )  # fmt: skip
        return int(new_id[0][0])

    def add_penalty(
        self,
        match_id: int,
        team_id: int,
        reason: str,
        *,
        player_id: int | None = None,
        game_number: int | None = None,
        uid: str | None = None,
    ) -> int:
        """A referee's penalty (大声喧哗、偷看牌、发暗语…): the preset's points (2) off the team's score."""
        m = self._open_match(match_id)
        points = scoring.penalty_points(self.season(int(m["season_id"]))["rules"])
        if team_id not in (m["team_a"], m["team_b"]):
            raise SeasonError("G11.2", "受罚队伍不在这场比赛中", "the team is not in this match")
        if not reason.strip():
            raise SeasonError("G11.2", "请写明处罚原因", "give the reason")
        col = "penalty_a" if team_id == m["team_a"] else "penalty_b"
        with self.transaction() as c:
            self.changed(int(m["season_id"]))  # the season's writes take turns: the season's row first
            new_id = c.insert(
                "INSERT INTO season_penalties(match_id, team_id, player_id, game_number, reason, "
                "points, uid) VALUES(?,?,?,?,?,?,?)",
                (match_id, team_id, player_id, game_number, reason.strip(), points, uid),
            )
            c.execute(f"UPDATE season_matches SET {col}={col}+? WHERE id=?", (points, match_id))
            self.count_penalty(int(m["season_id"]), team_id, points)
            return new_id

    def penalties(self, match_id: int) -> list[Rec]:
        return self.conn.execute(
            "SELECT * FROM season_penalties WHERE match_id=? ORDER BY id", (match_id,)
        ).fetchall()

    def record_forfeit(self, match_id: int, team_id: int, reason: str = "迟到超过5分钟") -> MatchResult:
        """A team forfeits (弃权, G11.2): the other team wins the match; the match is final."""
        m = self._open_match(match_id)
        if team_id not in (m["team_a"], m["team_b"]):
            raise SeasonError("G11.2", "弃权队伍不在这场比赛中", "the team is not in this match")
        with self.transaction() as c:
            c.execute(
                "UPDATE season_matches SET forfeit_team=?, note=? WHERE id=?", (team_id, reason, match_id)
            )
            return self.finish_match(match_id)

    def finish_match(self, match_id: int, *, lots_seed: int | None = None) -> MatchResult:
        """Decide the match by the engine's match rules and make it final.

        Three games decide it; a tie needs one more game (record it, then finish again); still tied,
        lots are drawn with ``lots_seed`` (recorded; required then). A forfeit decides at once.
        """
        m = self._open_match(match_id)
        rules = self.season(int(m["season_id"]))["rules"]
        games = self.games(match_id)
        forfeit = None
        regular = scoring.match_games(rules)
        if m["forfeit_team"] is not None:
            forfeit = "a" if m["forfeit_team"] == m["team_a"] else "b"
        elif len(games) < regular:
            raise SeasonError(
                "G11.2", f"比赛只打了{len(games)}局，需要{regular}局", f"a match is {count(regular, 'game')}"
            )
        decision = scoring.decide_match(
            [(g["points_a"], g["points_b"]) for g in games],
            int(m["penalty_a"]),
            int(m["penalty_b"]),
            forfeit=forfeit,
            lots_seed=lots_seed,
            rules=rules,
        )
        if decision.needs_extra_game:
            return MatchResult(match_id, decision.score_a, decision.score_b, None, "", None, True)
        if decision.winner is None:
            raise SeasonError(
                "G11.2",
                "加赛后仍平，需要抽签：请给出抽签种子 --lots-seed",
                "tied after the extra game: lots need a recorded seed",
            )
        winner = m["team_a"] if decision.winner == "a" else m["team_b"]
        loser = m["team_b"] if decision.winner == "a" else m["team_a"]
        with self.transaction() as c:
            self.changed(int(m["season_id"]))  # the season's row first (as every write of the season)
            c.execute(
                "UPDATE season_matches SET status='final', score_a=?, score_b=?, winner=?, decided_by=?, "
                "lots_seed=? WHERE id=?",
                (
                    decision.score_a,
                    decision.score_b,
                    winner,
                    decision.decided_by,
                    decision.lots_seed,
                    match_id,
                ),
            )
            self.count_result(int(m["season_id"]), winner, loser)
        return MatchResult(
            match_id,
            decision.score_a,
            decision.score_b,
            winner,
            decision.decided_by,
            decision.lots_seed,
            False,
        )

    # -- pushed by a table (idempotent: keyed by the table's uid) --------------------------------------
    def push_game(
        self, match_id: int, uid: str, gjn_text: str, game_no: int, penalties: list[dict[str, Any]]
    ) -> int:
        """A table's finished game (and its penalties so far), once: the game already in the season under
        ``uid`` is not stored again — its id is returned. One transaction, taken in turn with the other
        tables of the season (:meth:`changed`), as late as it can be: three round trips in all on
        PostgreSQL (what the push needs to know, read at once; the game's rows with the season's turn, the
        totals and what the groups need; what moved in the groups with the ``COMMIT``), no savepoint; the
        engine's replay before any of it."""
        pens = [str(p["uid"]) for p in penalties]
        found, stored, seasons, games, seats, older, known = self.conn.together(  # one round trip
            [(_MATCH_SQL, (match_id,)), ("SELECT id FROM season_games WHERE uid=?", (uid,)),
             (_SEASON_OF_MATCH_SQL, (match_id,)), (_GAMES_SQL, (match_id,)), (_LINEUP_SQL, (match_id,)),
             ("SELECT id FROM season_games WHERE match_id=? AND gjn=? AND uid IS NULL", (match_id, gjn_text)),
             (f"SELECT uid FROM season_penalties WHERE uid IN ({','.join('?' * len(pens)) or 'NULL'})", pens)]
        )  # fmt: skip
        m = _found(found, match_id)
        if stored:  # acknowledged before (a uid stored stays): nothing to wait for
            return int(stored[0][0])
        filename = f"第{game_no}局.gjn"
        outcome = _replayed(gjn_text, filename)  # the engine's replay, before the season's turn is taken
        if older or len(known) < len(pens):  # an older build's copy, or a penalty to store first
            return self._push_game_in_turn(m, uid, gjn_text, game_no, penalties, outcome)
        game = _checked_game(_open(m), seasons[0], games, seats, outcome, game_no, filename)
        try:
            with self.conn.sent_together():
                return self._store_game(game, gjn_text, uid)
        except self.conn.IntegrityError:  # the same push from a table killed meanwhile won the race
            again = self.conn.execute("SELECT id FROM season_games WHERE uid=?", (uid,)).fetchone()
            if again is None:
                raise
            return int(again[0])

    def _push_game_in_turn(
        self,
        m: Rec,
        uid: str,
        gjn_text: str,
        game_no: int,
        penalties: list[dict[str, Any]],
        outcome: scoring.GameOutcome,
    ) -> int:
        """:meth:`push_game` when it has more to do than store the game: the season's turn taken first,
        then the older build's copy given its uid, or the new penalties stored before the game."""
        match_id = int(m["id"])
        with self.transaction():
            self.changed(int(m["season_id"]))
            row = self.conn.execute("SELECT id FROM season_games WHERE uid=?", (uid,)).fetchone()
            if row is not None:
                return int(row[0])
            row = self.conn.execute(  # stored by an older build (no uid): the same record is the same game
                "SELECT id FROM season_games WHERE match_id=? AND gjn=? AND uid IS NULL", (match_id, gjn_text)
            ).fetchone()
            if row is not None:
                self.conn.execute("UPDATE season_games SET uid=? WHERE id=?", (uid, row[0]))
                return int(row[0])
            self._push_penalties(match_id, penalties)
            return self.record_game(
                match_id, gjn_text, filename=f"第{game_no}局.gjn", uid=uid, number=game_no, outcome=outcome
            )

    def push_final(
        self,
        match_id: int,
        *,
        lots_seed: int | None,
        forfeit_team: int | None,
        reason: str,
        penalties: list[dict[str, Any]],
    ) -> Rec:
        """A table's decided match, once: a match already final is left as it is. Returns the match."""
        m = self.match(match_id)
        with self.transaction():
            self.changed(int(m["season_id"]))
            if self.match(match_id)["status"] != "final":
                self._push_penalties(match_id, penalties)
                if forfeit_team is not None:
                    self.record_forfeit(match_id, forfeit_team, reason or "弃权")
                else:
                    res = self.finish_match(match_id, lots_seed=lots_seed)
                    if res.needs_extra_game:
                        raise SeasonError(
                            "G11.2", "赛季记录显示还需要加赛", "the season says an extra game is needed"
                        )
        return self.match(match_id)

    def _push_penalties(self, match_id: int, penalties: list[dict[str, Any]]) -> None:
        for p in penalties:
            if self.conn.execute("SELECT 1 FROM season_penalties WHERE uid=?", (p["uid"],)).fetchone():
                continue
            self.add_penalty(
                match_id,
                int(p["team_id"]),
                str(p.get("reason") or "违背够级规则"),
                game_number=int(p.get("game_no", 1)),
                uid=str(p["uid"]),
            )

    # -- 九宫格 prizes ----------------------------------------------------------------------------
    def add_prize(
        self,
        season_id: int,
        player_id: int,
        cell: int,
        prize: str,
        *,
        sponsor: str = "",
        value_yuan: float = 0.0,
        episode_id: int | None = None,
    ) -> int:
        if not 1 <= cell <= 9:
            raise SeasonError(
                "jiugongge", f"九宫格只有 1–9 格：{cell}", f"the prize grid has cells 1–9 only: {cell}"
            )
        if (
            episode_id is not None
            and self.conn.execute(
                "SELECT 1 FROM season_prizes WHERE episode_id=? AND player_id=?", (episode_id, player_id)
            ).fetchone()
        ):
            raise SeasonError(
                "jiugongge", "每位选手每期只抽一次九宫格", "one draw per contestant per episode"
            )
        with self.transaction() as c:
            new_id = c.insert(
                "INSERT INTO season_prizes(season_id, episode_id, player_id, cell, prize, sponsor, "
                "value_yuan) VALUES(?,?,?,?,?,?,?)",
                (season_id, episode_id, player_id, cell, prize, sponsor, value_yuan),
            )
            return new_id

    def prizes(self, season_id: int, episode_id: int | None = None) -> list[Rec]:
        sql = (
            "SELECT z.*, p.name AS player, e.number AS episode FROM season_prizes z "
            "JOIN season_players p ON p.id=z.player_id LEFT JOIN season_episodes e ON e.id=z.episode_id "
            "WHERE z.season_id=?"
        )
        args: list[Any] = [season_id]
        if episode_id is not None:
            sql += " AND z.episode_id=?"
            args.append(episode_id)
        return self.conn.execute(sql + " ORDER BY z.id", args).fetchall()
