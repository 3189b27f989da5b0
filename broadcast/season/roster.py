"""Seasons, episodes, teams and players: the season's people and its calendar (one layer of
:class:`~broadcast.season.model.SeasonDB`)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from broadcast.errors import plural
from broadcast.season.backend import Rec
from broadcast.season.rankings import name_sort_key, parse_spec
from broadcast.season.store import SeasonStore
from broadcast.season.texts import (
    PLAYER_NAME,
    TEAM_NAME,
    SeasonError,
    episode_title,
    fits,
    no_look_alike,
    season_fits,
    visible,
)


class Roster(SeasonStore):
    """Seasons, episodes, teams and players."""

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
        visible(rule="season", 赛季=name, 标题=title, 冠名=sponsor)
        season_fits(title, sponsor)
        if self.conn.execute("SELECT 1 FROM season_seasons WHERE name=?", (name,)).fetchone():
            raise SeasonError("season", f"赛季已存在：{name}", f"the season exists already: {name}")
        if ranking_players:
            parse_spec(ranking_players, "players")
        if ranking_teams:
            parse_spec(ranking_teams, "teams")
        with self.transaction() as c:
            new_id = c.insert(
                "INSERT INTO season_seasons(name, title, rules, sponsor, sponsor_logo, "
                "ranking_players, ranking_teams) VALUES(?,?,?,?,?,?,?)",
                (name, title or name, rules, sponsor, sponsor_logo, ranking_players, ranking_teams),
            )
            return new_id

    def update_season(self, season_id: int, **fields: str) -> None:
        allowed = {"title", "sponsor", "sponsor_logo", "ranking_players", "ranking_teams"}
        bad = set(fields) - allowed
        if bad:
            raise SeasonError(
                "season",
                f"赛季没有这些字段：{', '.join(sorted(bad))}",
                f"unknown season {plural(len(bad), 'field')}: {', '.join(sorted(bad))}",
            )
        for key in ("ranking_players", "ranking_teams"):
            if fields.get(key):
                parse_spec(fields[key], key.split("_")[1])
        visible(rule="season", 标题=fields.get("title", ""), 冠名=fields.get("sponsor", ""))
        season_fits(fields.get("title", ""), fields.get("sponsor", ""))
        with self.transaction() as c:
            for k, v in fields.items():
                c.execute(f"UPDATE season_seasons SET {k}=? WHERE id=?", (v, season_id))

    def season(self, ref: str | int | None = None) -> Rec:
        """A season by id or name; ``None`` means the only / most recent one."""
        if ref is None:
            row: Rec | None = self.conn.execute(
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
            raise SeasonError("season", f"没有这个赛季：{ref}", f"no such season: {ref}")
        return row

    def seasons(self) -> list[Rec]:
        return self.conn.execute("SELECT * FROM season_seasons ORDER BY id").fetchall()

    def add_episode(self, season_id: int, number: int, *, air_date: str = "", title: str = "") -> int:
        episode_title(title)
        if number < 1:
            raise SeasonError(
                "episode", f"期数必须 ≥ 1：{number}", f"the episode number must be ≥ 1: {number}"
            )
        with self.transaction() as c:
            try:
                new_id = c.insert(
                    "INSERT INTO season_episodes(season_id, number, title, air_date) VALUES(?,?,?,?)",
                    (season_id, number, title or f"第{number}期", air_date),
                )
            except self.conn.IntegrityError as exc:
                raise SeasonError("episode", f"第{number}期已存在", f"episode {number} exists") from exc
            return new_id

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
                episode_title(title)
                c.execute(
                    "UPDATE season_episodes SET title=? WHERE season_id=? AND number=?",
                    (title or f"第{number}期", season_id, number),
                )

    def episode(self, season_id: int, number: int) -> Rec:
        row: Rec | None = self.conn.execute(
            "SELECT * FROM season_episodes WHERE season_id=? AND number=?", (season_id, number)
        ).fetchone()
        if row is None:
            raise SeasonError("episode", f"没有第{number}期", f"no episode {number}")
        return row

    def episodes(self, season_id: int) -> list[Rec]:
        return self.conn.execute(
            "SELECT * FROM season_episodes WHERE season_id=? ORDER BY number", (season_id,)
        ).fetchall()

    def add_team(self, season_id: int, name: str, *, sponsor: str = "", color: str = "") -> int:
        name = name.strip()
        if not name:
            raise SeasonError("team", "队名不能为空", "team name is empty")
        visible(rule="team", 队名=name, 冠名=sponsor)
        fits(rule="team", 队名=(name, TEAM_NAME), 冠名=(sponsor, TEAM_NAME))
        teams = self.conn.execute("SELECT name FROM season_teams WHERE season_id=?", (season_id,)).fetchall()
        no_look_alike("team", "队名 team", name, [str(r[0]) for r in teams])
        with self.transaction() as c:
            try:
                new_id = c.insert(
                    "INSERT INTO season_teams(season_id, name, sponsor, color) VALUES(?,?,?,?)",
                    (season_id, name, sponsor, color),
                )
            except self.conn.IntegrityError as exc:
                raise SeasonError("team", f"队伍已存在：{name}", f"the team exists already: {name}") from exc
            tid = new_id
            c.execute(
                "INSERT INTO season_team_totals(season_id, team_id, name_key) VALUES(?,?,?)",
                (season_id, tid, name_sort_key(name)),
            )
            return tid

    def update_team(self, team_id: int, **fields: str) -> None:
        """Change a team's ``name``, ``sponsor`` or ``color`` (#rrggbb)."""
        allowed = {"name", "sponsor", "color"}
        bad = set(fields) - allowed
        if bad:
            raise SeasonError(
                "team",
                f"没有这些队伍字段：{'、'.join(sorted(bad))}",
                f"unknown team {plural(len(bad), 'field')}: {', '.join(sorted(bad))}",
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
        visible(rule="team", 队名=fields.get("name", ""), 冠名=fields.get("sponsor", ""))
        fits(
            rule="team", 队名=(fields.get("name", ""), TEAM_NAME), 冠名=(fields.get("sponsor", ""), TEAM_NAME)
        )
        with self.transaction() as c:
            for k, v in fields.items():
                try:
                    c.execute(f"UPDATE season_teams SET {k}=? WHERE id=?", (v, team_id))
                except self.conn.IntegrityError as exc:
                    raise SeasonError("team", f"队伍已存在：{v}", f"team exists: {v}") from exc
            self.fill_name_keys()  # a new name: its sort key (the rename trigger cleared it)

    def team_id(self, season_id: int, name: str) -> int | None:
        row = self.conn.execute(
            "SELECT id FROM season_teams WHERE season_id=? AND name=?", (season_id, name)
        ).fetchone()
        return int(row[0]) if row else None

    def teams(self, season_id: int) -> list[Rec]:
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
        visible(rule="player", 姓名=name, 籍贯=hometown, 备注=note, 编号=code or "")
        fits(rule="player", 姓名=(name, PLAYER_NAME))
        if not code:  # namesakes in one team are told apart by their 编号; without one, a look-alike is one
            mates = self.conn.execute(
                "SELECT name FROM season_players "
                "WHERE season_id=? AND team_id IS NOT DISTINCT FROM ? AND code IS NULL",
                (season_id, team_id),
            ).fetchall()
            no_look_alike("player", "姓名 name", name, [str(r[0]) for r in mates])
        with self.transaction() as c:
            try:
                new_id = c.insert(
                    "INSERT INTO season_players(season_id, team_id, code, name, gender, phone, photo, "
                    "hometown, note) VALUES(?,?,?,?,?,?,?,?,?)",
                    (season_id, team_id, code or None, name, gender, phone, photo, hometown, note),
                )
            except self.conn.IntegrityError as exc:
                raise SeasonError(
                    "player", f"选手编号重复：{code}", f"player code used twice: {code}"
                ) from exc
            pid = new_id
            c.execute(
                "INSERT INTO season_player_totals(season_id, player_id, name_key) VALUES(?,?,?)",
                (season_id, pid, name_sort_key(name)),
            )
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
                f"unknown player {plural(len(bad), 'field')}: {', '.join(sorted(bad))}",
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
        visible(
            rule="player",
            **{
                label: str(fields.get(key) or "")
                for key, label in (("name", "姓名"), ("hometown", "籍贯"), ("note", "备注"), ("code", "编号"))
            },
        )
        fits(rule="player", 姓名=(str(fields.get("name") or ""), PLAYER_NAME))
        with self.transaction() as c:
            for k, v in fields.items():
                try:
                    c.execute(f"UPDATE season_players SET {k}=? WHERE id=?", (v, player_id))
                except self.conn.IntegrityError as exc:
                    raise SeasonError("player", f"选手编号重复：{v}", f"duplicate player code: {v}") from exc
            self.fill_name_keys()  # a new name: its sort key (the rename trigger cleared it)

    def players(self, season_id: int, team_id: int | None = None) -> list[Rec]:
        if team_id is None:
            return self.conn.execute(
                "SELECT * FROM season_players WHERE season_id=? ORDER BY id", (season_id,)
            ).fetchall()
        return self.conn.execute(
            "SELECT * FROM season_players WHERE season_id=? AND team_id=? ORDER BY id", (season_id, team_id)
        ).fetchall()

    def find_players(self, season_id: int, name: str) -> list[Rec]:
        return self.conn.execute(
            "SELECT * FROM season_players WHERE season_id=? AND name=? ORDER BY id", (season_id, name)
        ).fetchall()
