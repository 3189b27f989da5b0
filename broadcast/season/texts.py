"""The season's words and its on-air texts: the error it raises, round names, seats, and the checks that
a name fits the on-air field it fills (the maxima of the season's schema fragment) and holds no invisible
control character."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from broadcast.core.schema import text_limits_of
from broadcast.core.text import REPORT_TEXT_MAX, describe_too_long, name_key, refusal
from broadcast.errors import GoujiError

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


def visible(*, rule: str, **fields: str) -> None:
    """The text policy (:func:`broadcast.core.text.refusal`): no invisible character (U+202E airs 王建军
    as 军建王), and a text that is given shows something, naming the field."""
    for field, value in fields.items():
        said = refusal(field, value or "", name=bool(value))
        if said:
            raise SeasonError(rule, *said)


def episode_title(title: str) -> None:
    """An episode's title: the text policy, at most the report's episode line (REPORT_TEXT_MAX)."""
    said = refusal("标题 title", title, name=bool(title), limit=REPORT_TEXT_MAX["episode.title"])
    if said:
        raise SeasonError("episode", *said)


def no_look_alike(rule: str, label: str, name: str, existing: list[str]) -> None:
    """A name that looks the same as one the season has (the confusable skeleton after NFKC) is the
    same name: refused, naming both."""
    key = name_key(name)
    for other in existing:
        if other != name and name_key(other) == key:
            raise SeasonError(
                rule,
                f"{label}“{name}”与已有的“{other}”在屏幕上看起来相同，请区分",
                f"{label} “{name}” looks the same on air as “{other}”, which the season has: tell them apart",
            )


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


def season_fits(title: str, sponsor: str) -> None:
    """A season's title leaves room on the 英雄榜's season line for “ · 第N期后”; its sponsor is the
    英雄榜冠名's name (leaderboard.sponsor)."""
    room = on_air_limits()[SEASON_LINE] - AS_OF_ROOM
    if len(title) > room:
        raise SeasonError(
            "season", *describe_too_long(f"标题（{SEASON_LINE}，其后还有“ · 第N期后”）", room, title)
        )
    fits(rule="season", 冠名=(sponsor, "leaderboard.sponsor"))


def fits(*, rule: str, **fields: tuple[str, str]) -> None:
    """Refuse a name longer than its on-air field: ``label=(value, field)``, naming the field."""
    for label, (value, field) in fields.items():
        said = too_long(label, value or "", field)
        if said:
            raise SeasonError(rule, *said)
