"""Seasons, episodes, teams, players, matches and games in the project's SQLite file.

    sdb = SeasonDB.open("studio.sqlite")
    sid = sdb.create_season("2024春季赛", title="够级大明星 第一季")
    ...
    mid = sdb.create_match(sid, team_a, team_b, lineup={1: p1, 2: q1, 3: p2, 4: q2, 5: p3, 6: q3})
    sdb.record_game(mid, gjn_text)          # the engine replays the record; refused with its clause
    sdb.finish_match(mid)                   # the engine's match rules: extra game, lots, penalties

Team A of a match sits on the odd seats (1, 3, 5), team B on the even seats (2, 4, 6) (G1.2).
Every write is one transaction; the materialised totals are updated in the same transaction.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from broadcast.core import db
from broadcast.core.schema import text_limits_of
from broadcast.core.text import describe_invisible, describe_too_long, invisible
from broadcast.errors import GoujiError
from broadcast.season import scoring
from broadcast.season.migrations import COMPONENT, MIGRATIONS

ODD_SEATS = (1, 3, 5)
EVEN_SEATS = (2, 4, 6)
ROUND_NAMES = {0: "积分赛", 1: "第一轮", 2: "第二轮", 3: "第三轮", 4: "第四轮", 5: "第五轮"}


def round_name(n: int) -> str:
    return ROUND_NAMES.get(n, f"第{n}轮")


class SeasonError(GoujiError):
    """Bad input or a state the season does not allow: ``SeasonError(rule, zh, en, where=file)``, rule a
    clause (G11.2) or a code."""

    rule = "season"

    def text(self) -> str:
        """``[rule] file:line: 中文 / English`` (the season commands' line, the rule first)."""
        body = self.zh if self.zh == self.en else f"{self.zh} / {self.en}"
        where = f"{self.where}: " if self.where else ""
        return f"[{self.rule}] {where}{body}" if self.rule else f"{where}{body}"


def _visible(*, rule: str, **fields: str) -> None:
    """Refuse text holding an invisible control character (U+202E airs 王建军 as 军建王), naming the field."""
    for field, value in fields.items():
        code = invisible(value or "")
        if code:
            zh, en = describe_invisible(code, field)
            raise SeasonError(rule, zh, en)


# the on-air fields a season's names fill (its 英雄榜; the scoreboard's seats hold the same maximum)
PLAYER_NAME = "leaderboard.rows[].name"
TEAM_NAME = "leaderboard.rows[].team"
SEASON_LINE = "leaderboard.season"  # the season's title, then “ · 第N期后” (actions.leaderboard_payload)
AS_OF_ROOM = len(" · 第99期后")


@cache
def on_air_limits() -> dict[str, int]:
    """The maxima of the season's on-air texts: ``maxLength`` in its schema fragment (the one source the
    store refuses by and the pages and OBS graphics are sized for)."""
    fragment = resources.files("broadcast.season").joinpath("schema.json").read_text(encoding="utf-8")
    return text_limits_of(json.loads(fragment))


def too_long(label: str, value: str, field: str) -> tuple[str, str] | None:
    """(中文, English) when ``value`` is longer than the on-air field ``field`` holds, else None."""
    limit = on_air_limits()[field]
    return None if len(value) <= limit else describe_too_long(f"{label}（{field}）", limit, value)


def _season_fits(title: str, sponsor: str) -> None:
    """A season's title leaves room on the 英雄榜's season line for “ · 第N期后”; its sponsor is the
    英雄榜冠名's name (leaderboard.sponsor)."""
    room = on_air_limits()[SEASON_LINE] - AS_OF_ROOM
    if len(title) > room:
        raise SeasonError(
            "season", *describe_too_long(f"标题（{SEASON_LINE}，其后还有“ · 第N期后”）", room, title)
        )
    _fits(rule="season", 冠名=(sponsor, "leaderboard.sponsor"))


def _fits(*, rule: str, **fields: tuple[str, str]) -> None:
    """Refuse a name longer than its on-air field: ``label=(value, field)``, naming the field."""
    for label, (value, field) in fields.items():
        said = too_long(label, value or "", field)
        if said:
            raise SeasonError(rule, *said)


@dataclass(frozen=True)
class MatchResult:
    match_id: int
    score_a: int
    score_b: int
    winner: int | None
    decided_by: str
    lots_seed: int | None
    needs_extra_game: bool


class SeasonDB:
    """The season tables of one project database file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        db.migrate(conn, COMPONENT, MIGRATIONS)

    @classmethod
    def open(cls, path: str | Path) -> SeasonDB:
        return cls(db.connect(path))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SeasonDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (nested calls join the outer one)."""
        if self.conn.in_transaction:
            yield self.conn
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # a full disk makes SQLite roll back by itself
                self.conn.execute("ROLLBACK")
            raise

    # -- seasons, episodes, teams, players -----------------------------------------------------
    def create_season(
        self,
        name: str,
        *,
        title: str = "",
        rules: str = "tv_match",
        sponsor: str = "",
        sponsor_logo: str = "",
        ranking_players: str = "",
        ranking_teams: str = "",
    ) -> int:
        name = name.strip()
        if not name:
            raise SeasonError("season", "赛季名称不能为空", "season name is empty")
        _visible(rule="season", 赛季=name, 标题=title, 冠名=sponsor)
        _season_fits(title, sponsor)
        if self.conn.execute("SELECT 1 FROM season_seasons WHERE name=?", (name,)).fetchone():
            raise SeasonError("season", f"赛季已存在：{name}", "season exists")
        from broadcast.season.rankings import parse_spec  # validate specs before storing them

        if ranking_players:
            parse_spec(ranking_players, "players")
        if ranking_teams:
            parse_spec(ranking_teams, "teams")
        with self.transaction() as c:
            cur = c.execute(
                "INSERT INTO season_seasons(name, title, rules, sponsor, sponsor_logo, "
                "ranking_players, ranking_teams) VALUES(?,?,?,?,?,?,?)",
                (name, title or name, rules, sponsor, sponsor_logo, ranking_players, ranking_teams),
            )
            return int(cur.lastrowid or 0)

    def update_season(self, season_id: int, **fields: str) -> None:
        allowed = {"title", "sponsor", "sponsor_logo", "ranking_players", "ranking_teams"}
        bad = set(fields) - allowed
        if bad:
            raise SeasonError(
                "season",
                f"赛季没有这些字段：{', '.join(sorted(bad))}",
                f"unknown season field(s): {', '.join(sorted(bad))}",
            )
        from broadcast.season.rankings import parse_spec

        for key in ("ranking_players", "ranking_teams"):
            if fields.get(key):
                parse_spec(fields[key], key.split("_")[1])
        _visible(rule="season", 标题=fields.get("title", ""), 冠名=fields.get("sponsor", ""))
        _season_fits(fields.get("title", ""), fields.get("sponsor", ""))
        with self.transaction() as c:
            for k, v in fields.items():
                c.execute(f"UPDATE season_seasons SET {k}=? WHERE id=?", (v, season_id))

    def season(self, ref: str | int | None = None) -> sqlite3.Row:
        """A season by id or name; ``None`` means the only / most recent one."""
        if ref is None:
            row: sqlite3.Row | None = self.conn.execute(
                "SELECT * FROM season_seasons ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                raise SeasonError(
                    "season",
                    "数据库里还没有赛季",
                    "no season in this database (python -m broadcast season create NAME, or season demo)",
                )
            return row
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            row = self.conn.execute("SELECT * FROM season_seasons WHERE id=?", (int(ref),)).fetchone()
            if row is not None:
                return row
        row = self.conn.execute("SELECT * FROM season_seasons WHERE name=?", (str(ref),)).fetchone()
        if row is None:
            raise SeasonError("season", f"没有这个赛季：{ref}", "no such season")
        return row

    def seasons(self) -> list[sqlite3.Row]:
        return self.conn.execute("SELECT * FROM season_seasons ORDER BY id").fetchall()

    def add_episode(self, season_id: int, number: int, *, air_date: str = "", title: str = "") -> int:
        if number < 1:
            raise SeasonError(
                "episode", f"期数必须 ≥ 1：{number}", f"the episode number must be ≥ 1: {number}"
            )
        with self.transaction() as c:
            try:
                cur = c.execute(
                    "INSERT INTO season_episodes(season_id, number, title, air_date) VALUES(?,?,?,?)",
                    (season_id, number, title or f"第{number}期", air_date),
                )
            except sqlite3.IntegrityError as exc:
                raise SeasonError("episode", f"第{number}期已存在", f"episode {number} exists") from exc
            return int(cur.lastrowid or 0)

    def update_episode(
        self, season_id: int, number: int, *, air_date: str | None = None, title: str | None = None
    ) -> None:
        """Set an episode's air date (``YYYY-MM-DD`` or "") or title."""
        if air_date:
            try:
                date.fromisoformat(air_date)
            except ValueError as exc:
                raise SeasonError(
                    "episode",
                    f"播出日期应写成 YYYY-MM-DD：{air_date!r}",
                    f"air date must be YYYY-MM-DD: {air_date!r}",
                ) from exc
        self.episode(season_id, number)
        with self.transaction() as c:
            if air_date is not None:
                c.execute(
                    "UPDATE season_episodes SET air_date=? WHERE season_id=? AND number=?",
                    (air_date, season_id, number),
                )
            if title is not None:
                _visible(rule="episode", 标题=title)
                c.execute(
                    "UPDATE season_episodes SET title=? WHERE season_id=? AND number=?",
                    (title or f"第{number}期", season_id, number),
                )

    def episode(self, season_id: int, number: int) -> sqlite3.Row:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM season_episodes WHERE season_id=? AND number=?", (season_id, number)
        ).fetchone()
        if row is None:
            raise SeasonError("episode", f"没有第{number}期", f"no episode {number}")
        return row

    def episodes(self, season_id: int) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT * FROM season_episodes WHERE season_id=? ORDER BY number", (season_id,)
        ).fetchall()

    def add_team(self, season_id: int, name: str, *, sponsor: str = "", color: str = "") -> int:
        name = name.strip()
        if not name:
            raise SeasonError("team", "队名不能为空", "team name is empty")
        _visible(rule="team", 队名=name, 冠名=sponsor)
        _fits(rule="team", 队名=(name, TEAM_NAME), 冠名=(sponsor, TEAM_NAME))
        with self.transaction() as c:
            try:
                cur = c.execute(
                    "INSERT INTO season_teams(season_id, name, sponsor, color) VALUES(?,?,?,?)",
                    (season_id, name, sponsor, color),
                )
            except sqlite3.IntegrityError as exc:
                raise SeasonError("team", f"队伍已存在：{name}", "team exists") from exc
            tid = int(cur.lastrowid or 0)
            c.execute("INSERT INTO season_team_totals(season_id, team_id) VALUES(?,?)", (season_id, tid))
            return tid

    def update_team(self, team_id: int, **fields: str) -> None:
        """Change a team's ``name``, ``sponsor`` or ``color`` (#rrggbb)."""
        allowed = {"name", "sponsor", "color"}
        bad = set(fields) - allowed
        if bad:
            raise SeasonError(
                "team",
                f"没有这些队伍字段：{'、'.join(sorted(bad))}",
                f"unknown team field(s): {', '.join(sorted(bad))}",
            )
        if "name" in fields:
            fields["name"] = fields["name"].strip()
            if not fields["name"]:
                raise SeasonError("team", "队名不能为空", "team name is empty")
        color = fields.get("color", "")
        if color and not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
            raise SeasonError(
                "team", f"队伍颜色应写成 #RRGGBB：{color!r}", f"colour must be #RRGGBB: {color!r}"
            )
        _visible(rule="team", 队名=fields.get("name", ""), 冠名=fields.get("sponsor", ""))
        _fits(
            rule="team", 队名=(fields.get("name", ""), TEAM_NAME), 冠名=(fields.get("sponsor", ""), TEAM_NAME)
        )
        with self.transaction() as c:
            for k, v in fields.items():
                try:
                    c.execute(f"UPDATE season_teams SET {k}=? WHERE id=?", (v, team_id))
                except sqlite3.IntegrityError as exc:
                    raise SeasonError("team", f"队伍已存在：{v}", f"team exists: {v}") from exc

    def team_id(self, season_id: int, name: str) -> int | None:
        row = self.conn.execute(
            "SELECT id FROM season_teams WHERE season_id=? AND name=?", (season_id, name)
        ).fetchone()
        return int(row[0]) if row else None

    def teams(self, season_id: int) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT * FROM season_teams WHERE season_id=? ORDER BY id", (season_id,)
        ).fetchall()

    def add_player(
        self,
        season_id: int,
        name: str,
        *,
        team_id: int | None = None,
        code: str | None = None,
        gender: str = "",
        phone: str = "",
        photo: str = "",
        hometown: str = "",
        note: str = "",
    ) -> int:
        name = name.strip()
        if not name:
            raise SeasonError("player", "姓名不能为空", "player name is empty")
        _visible(rule="player", 姓名=name, 籍贯=hometown, 备注=note, 编号=code or "")
        _fits(rule="player", 姓名=(name, PLAYER_NAME))
        with self.transaction() as c:
            try:
                cur = c.execute(
                    "INSERT INTO season_players(season_id, team_id, code, name, gender, phone, photo, "
                    "hometown, note) VALUES(?,?,?,?,?,?,?,?,?)",
                    (season_id, team_id, code or None, name, gender, phone, photo, hometown, note),
                )
            except sqlite3.IntegrityError as exc:
                raise SeasonError("player", f"选手编号重复：{code}", "duplicate player code") from exc
            pid = int(cur.lastrowid or 0)
            c.execute("INSERT INTO season_player_totals(season_id, player_id) VALUES(?,?)", (season_id, pid))
            return pid

    def update_player(self, player_id: int, **fields: Any) -> None:
        """Change a player's ``name``, ``team_id``, ``code``, ``gender``, ``phone``, ``photo`` (a file name
        in the project's photo folder), ``hometown`` or ``note``."""
        allowed = {"name", "team_id", "code", "gender", "phone", "photo", "hometown", "note"}
        bad = set(fields) - allowed
        if bad:
            raise SeasonError(
                "player",
                f"没有这些选手字段：{'、'.join(sorted(bad))}",
                f"unknown player field(s): {', '.join(sorted(bad))}",
            )
        if "name" in fields:
            fields["name"] = str(fields["name"]).strip()
            if not fields["name"]:
                raise SeasonError("player", "姓名不能为空", "player name is empty")
        if fields.get("gender") not in (None, "", "男", "女"):
            raise SeasonError(
                "player",
                f"性别应为 男 或 女：{fields['gender']!r}",
                f"gender must be 男 or 女: {fields['gender']!r}",
            )
        if "code" in fields:
            fields["code"] = str(fields["code"] or "").strip() or None
        _visible(
            rule="player",
            **{
                label: str(fields.get(key) or "")
                for key, label in (("name", "姓名"), ("hometown", "籍贯"), ("note", "备注"), ("code", "编号"))
            },
        )
        _fits(rule="player", 姓名=(str(fields.get("name") or ""), PLAYER_NAME))
        with self.transaction() as c:
            for k, v in fields.items():
                try:
                    c.execute(f"UPDATE season_players SET {k}=? WHERE id=?", (v, player_id))
                except sqlite3.IntegrityError as exc:
                    raise SeasonError("player", f"选手编号重复：{v}", f"duplicate player code: {v}") from exc

    def players(self, season_id: int, team_id: int | None = None) -> list[sqlite3.Row]:
        if team_id is None:
            return self.conn.execute(
                "SELECT * FROM season_players WHERE season_id=? ORDER BY id", (season_id,)
            ).fetchall()
        return self.conn.execute(
            "SELECT * FROM season_players WHERE season_id=? AND team_id=? ORDER BY id", (season_id, team_id)
        ).fetchall()

    def find_players(self, season_id: int, name: str) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT * FROM season_players WHERE season_id=? AND name=? ORDER BY id", (season_id, name)
        ).fetchall()

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
    ) -> int:
        """A match of ``team_a`` (odd seats) against ``team_b`` (even seats); ``lineup`` seat → player."""
        if team_a == team_b:
            raise SeasonError("G1.2", "一场比赛需要两支不同的队伍", "a match needs two different teams")
        if sorted(lineup) != [1, 2, 3, 4, 5, 6]:
            raise SeasonError("G1.1", "上场名单必须是 1–6 号座位各一人", "the lineup needs seats 1–6")
        if len(set(lineup.values())) != 6:
            raise SeasonError("G1.1", "同一选手不能坐两个座位", "a player holds one seat")
        for seat, pid in lineup.items():
            row = self.conn.execute(
                "SELECT team_id, name FROM season_players WHERE id=? AND season_id=?", (pid, season_id)
            ).fetchone()
            if row is None:
                raise SeasonError("player", f"{seat}号座位：没有选手 #{pid}", "no such player")
            want = team_a if seat in ODD_SEATS else team_b
            if row["team_id"] != want:
                side = "单号（A队）" if seat in ODD_SEATS else "双号（B队）"
                raise SeasonError(
                    "G1.2",
                    f"{seat}号座位是{side}，{row['name']}不是这支队伍的队员",
                    f"seat {seat} belongs to the other team",
                )
        with self.transaction() as c:
            cur = c.execute(
                "INSERT INTO season_matches(season_id, episode_id, round, label, team_a, team_b) "
                "VALUES(?,?,?,?,?,?)",
                (season_id, episode_id, round_, label, team_a, team_b),
            )
            mid = int(cur.lastrowid or 0)
            c.executemany(
                "INSERT INTO season_lineups(match_id, seat, player_id) VALUES(?,?,?)",
                [(mid, s, p) for s, p in sorted(lineup.items())],
            )
            return mid

    def match(self, match_id: int) -> sqlite3.Row:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM season_matches WHERE id=?", (match_id,)
        ).fetchone()
        if row is None:
            raise SeasonError("match", f"没有这场比赛 #{match_id}", "no such match")
        return row

    def lineup(self, match_id: int) -> dict[int, sqlite3.Row]:
        rows = self.conn.execute(
            "SELECT l.seat, p.* FROM season_lineups l JOIN season_players p ON p.id=l.player_id "
            "WHERE l.match_id=? ORDER BY l.seat",
            (match_id,),
        ).fetchall()
        return {int(r["seat"]): r for r in rows}

    def games(self, match_id: int) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT * FROM season_games WHERE match_id=? ORDER BY number", (match_id,)
        ).fetchall()

    def matches(self, season_id: int, episode_id: int | None = None) -> list[sqlite3.Row]:
        if episode_id is None:
            return self.conn.execute(
                "SELECT * FROM season_matches WHERE season_id=? ORDER BY id", (season_id,)
            ).fetchall()
        return self.conn.execute(
            "SELECT * FROM season_matches WHERE season_id=? AND episode_id=? ORDER BY id",
            (season_id, episode_id),
        ).fetchall()

    def _open_match(self, match_id: int) -> sqlite3.Row:
        m = self.match(match_id)
        if m["status"] == "final":
            raise SeasonError("match", f"比赛 #{match_id} 已结束，不能再修改", "the match is final")
        return m

    def record_game(self, match_id: int, gjn_text: str, *, filename: str = "") -> int:
        """Replay ``gjn_text`` with the engine and store it as the match's next game.

        Refused (:class:`SeasonError` naming the clause) if the engine rejects the record, if the
        record's rules are not the season's, if its seat names disagree with the lineup, or if the
        match rules (G11.2) allow no further game.
        """
        m = self._open_match(match_id)
        season = self.season(int(m["season_id"]))
        games = self.games(match_id)
        if m["forfeit_team"] is not None:
            raise SeasonError("G11.2", "这场比赛已判弃权", "the match was forfeited")
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
                    "no further game: the match is decided",
                )
        extra = number > regular
        try:
            outcome = scoring.check_record(gjn_text, filename or f"match{match_id}-game{number}.gjn")
        except scoring.RecordRejected as e:
            raise SeasonError(e.rule, "牌谱被规则引擎拒绝", f"record rejected by the engine: {e}") from None
        if outcome.rules and outcome.rules != season["rules"]:
            raise SeasonError(
                "Rules",
                f"规则 {outcome.rules!r} 与赛季规则 {season['rules']!r} 不符",
                f"the record's rules {outcome.rules!r} are not the season's {season['rules']!r}",
                where=filename or "牌谱",
            )
        lineup = self.lineup(match_id)
        for seat, name in outcome.seat_names.items():
            if seat in lineup and name and name != lineup[seat]["name"]:
                raise SeasonError(
                    "Seat",
                    f"{seat}号座位是 {name!r}，上场名单是 {lineup[seat]['name']!r}",
                    f"seat {seat} is {name!r} in the record, {lineup[seat]['name']!r} in the lineup",
                    where=filename or "牌谱",
                )
        points_a = sum(outcome.points[s] for s in ODD_SEATS)
        points_b = sum(outcome.points[s] for s in EVEN_SEATS)
        with self.transaction() as c:
            cur = c.execute(
                "INSERT INTO season_games(match_id, number, extra, gjn, quan_san, points_a, points_b)"
                " VALUES(?,?,?,?,?,?,?)",
                (match_id, number, int(extra), gjn_text, int(outcome.quan_san), points_a, points_b),
            )
            gid = int(cur.lastrowid or 0)
            team_of = {s: (m["team_a"] if s in ODD_SEATS else m["team_b"]) for s in range(1, 7)}
            seat_rows = [
                (
                    gid,
                    s,
                    m["season_id"],
                    lineup[s]["id"],
                    team_of[s],
                    outcome.titles[s],
                    outcome.places.get(s),
                    outcome.points[s],
                    int(s in outcome.opened),
                )
                for s in range(1, 7)
            ]
            c.executemany(
                "INSERT INTO season_game_seats(game_id, seat, season_id, player_id, team_id, title, "
                "place, points, opened) VALUES(?,?,?,?,?,?,?,?,?)",
                seat_rows,
            )
            _add_to_totals(c, seat_rows)
            c.execute("UPDATE season_matches SET status='playing' WHERE id=?", (match_id,))
            return gid

    def add_penalty(
        self,
        match_id: int,
        team_id: int,
        reason: str,
        *,
        player_id: int | None = None,
        game_number: int | None = None,
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
            cur = c.execute(
                "INSERT INTO season_penalties(match_id, team_id, player_id, game_number, reason, "
                "points) VALUES(?,?,?,?,?,?)",
                (match_id, team_id, player_id, game_number, reason.strip(), points),
            )
            c.execute(f"UPDATE season_matches SET {col}={col}+? WHERE id=?", (points, match_id))
            c.execute(
                "UPDATE season_team_totals SET penalties=penalties+? WHERE team_id=?", (points, team_id)
            )
            return int(cur.lastrowid or 0)

    def penalties(self, match_id: int) -> list[sqlite3.Row]:
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
                "G11.2", f"比赛只打了{len(games)}局，需要{regular}局", f"a match is {regular} games"
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
            c.execute(
                "UPDATE season_team_totals SET matches=matches+1, wins=wins+1 WHERE team_id=?", (winner,)
            )
            c.execute(
                "UPDATE season_team_totals SET matches=matches+1, losses=losses+1 WHERE team_id=?", (loser,)
            )
        return MatchResult(
            match_id,
            decision.score_a,
            decision.score_b,
            winner,
            decision.decided_by,
            decision.lots_seed,
            False,
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
                "jiugongge", f"九宫格只有 1–9 格：{cell}", f"the 九宫格 has cells 1–9 only: {cell}"
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
            cur = c.execute(
                "INSERT INTO season_prizes(season_id, episode_id, player_id, cell, prize, sponsor, "
                "value_yuan) VALUES(?,?,?,?,?,?,?)",
                (season_id, episode_id, player_id, cell, prize, sponsor, value_yuan),
            )
            return int(cur.lastrowid or 0)

    def prizes(self, season_id: int, episode_id: int | None = None) -> list[sqlite3.Row]:
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

    # -- materialised totals ---------------------------------------------------------------------
    def rebuild_totals(self, season_id: int) -> None:
        """Recompute the materialised totals from the normalised rows (repair / verification)."""
        from broadcast.season.rankings import PLAYER_AGG_SQL, TEAM_TOTALS_SQL

        with self.transaction() as c:
            c.execute("DELETE FROM season_player_totals WHERE season_id=?", (season_id,))
            c.execute(
                "INSERT INTO season_player_totals(season_id, player_id, games, points, firsts, seconds, "
                "lasts, quan_san, opened) WITH agg AS (" + PLAYER_AGG_SQL + ") "
                "SELECT p.season_id, p.id, COALESCE(a.games,0), COALESCE(a.points,0), COALESCE(a.firsts,0), "
                "COALESCE(a.seconds,0), COALESCE(a.lasts,0), COALESCE(a.quan_san,0), COALESCE(a.opened,0) "
                "FROM season_players p LEFT JOIN agg a ON a.player_id=p.id WHERE p.season_id=?",
                (season_id, season_id),
            )
            c.execute("DELETE FROM season_team_totals WHERE season_id=?", (season_id,))
            c.execute(
                "INSERT INTO season_team_totals(season_id, team_id, matches, wins, losses, points, "
                "penalties, games, firsts, lasts) "
                + TEAM_TOTALS_SQL
                + " SELECT season_id, team_id, matches, wins, losses, points, penalties, games, "
                "firsts, lasts "
                "FROM team_totals",
                (season_id,) * 5,
            )


def _add_to_totals(c: sqlite3.Connection, seat_rows: Sequence[tuple[Any, ...]]) -> None:
    """Add one game's seat rows (game, seat, season, player, team, title, place, points, opened)."""
    c.executemany(
        "UPDATE season_player_totals SET games=games+1, points=points+?, firsts=firsts+?, seconds=seconds+?, "
        "lasts=lasts+?, quan_san=quan_san+?, opened=opened+? WHERE player_id=?",
        [
            (r[7], int(r[6] == 1), int(r[6] == 2), int(r[5] == "大落"), int(r[5] == "圈三"), r[8], r[3])
            for r in seat_rows
        ],
    )
    by_team: dict[int, list[int]] = {}
    for r in seat_rows:
        t = by_team.setdefault(int(r[4]), [0, 0, 0])
        t[0] += int(r[7])
        t[1] += int(r[6] == 1)
        t[2] += int(r[5] == "大落")
    c.executemany(
        "UPDATE season_team_totals SET games=games+1, points=points+?, firsts=firsts+?, "
        "lasts=lasts+? WHERE team_id=?",
        [(v[0], v[1], v[2], k) for k, v in by_team.items()],
    )
