"""What a Dask worker runs: a batch of records re-checked by the engine, summed per player.

:func:`check_batch` takes records as read (:class:`broadcast.qualifiers.records.Raw` fields, plain
tuples so that they travel cheaply) and returns a :class:`Checked`: the identities of the records
counted, one :class:`Refused` per record not counted (file, move, line, seat, clause, both languages),
and the batch's totals per player. Every record is replayed by the engine through the season's one
door to it (``broadcast.season.scoring.check_record``: the clause of an illegal move, 未完 G10.4, 流局
G10.5, seat points that add up to the engine's team points). Nothing here keeps state between
batches: the driver commits each batch whole (so a batch is counted once or not at all).
"""

from __future__ import annotations

import json
import re
from array import array
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from broadcast.core.text import invisible
from broadcast.errors import GoujiError
from broadcast.season.scoring import RecordRejected, check_record

from .records import RECORD_MAX, Refusal

#: a platform id and a name as stored (the board's on-air name has its own maximum, docs/qualifiers.md)
PLAYER_ID_MAX = 64
PLAYER_NAME_MAX = 32
#: the per-player totals, in this order, in :attr:`Checked.stats`
STATS = ("games", "points", "place1", "place2", "place3", "place4", "place5", "place6", "quan_san", "opened")
WIDTH = len(STATS)
_ID_TAG = re.compile(r'\[\s*Id([1-6])\s+"((?:[^"\\]|\\.)*)"\s*\]')

#: one record as shipped to a worker: (identity, where, kind "gjn"|"jsonl", text)
Item = tuple[bytes, str, str, str]


class Refused(NamedTuple):
    key: bytes
    where: str
    rule: str
    zh: str
    en: str
    move: int | None
    line: int | None
    seat: int | None


@dataclass
class Checked:
    """A batch's outcome. ``stats`` holds :data:`WIDTH` integers per player of ``ids`` (see :data:`STATS`)."""

    counted: list[bytes] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    stats: array[int] = field(default_factory=lambda: array("q"))


class _Bad(GoujiError):
    """A record not counted: its :class:`Refusal`, raised out of the checks and listed by check_batch."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.rule, refusal.zh, refusal.en)
        self.refusal = refusal


def _player_text(value: Any, what: tuple[str, str], seat: int, limit: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise _Bad(Refusal("player", f"{seat}号没有{what[0]}", f"seat {seat} has no {what[1]}", seat=seat))
    text: str = value.strip()
    code = invisible(text)
    if code:
        raise _Bad(
            Refusal(
                "name",
                f"{seat}号的{what[0]}含不可见的控制字符 {code}",
                f"seat {seat}'s {what[1]} holds the invisible control character {code}",
                seat=seat,
            )
        )
    if len(text) > limit:
        raise _Bad(
            Refusal(
                "name",
                f"{seat}号的{what[0]}太长（{len(text)} 个字，最多 {limit}）",
                f"seat {seat}'s {what[1]} is too long ({len(text)} characters, at most {limit})",
                seat=seat,
            )
        )
    return text


def _from_json(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A JSON line's record and its six players (docs/qualifiers.md), or :class:`_Bad`."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise _Bad(
            Refusal(
                "json",
                f"不是有效的 JSON（第{e.colno}列：{e.msg}）",
                f"not valid JSON (column {e.colno}: {e.msg})",
            )
        ) from None
    except RecursionError:
        raise _Bad(Refusal("json", "JSON 嵌套太深", "JSON nested too deep")) from None
    if not isinstance(obj, dict):
        raise _Bad(Refusal("json", "每行应是一个 JSON 对象 {…}", "each line must be a JSON object {…}"))
    gjn = obj.get("gjn")
    if not isinstance(gjn, str) or not gjn.strip():
        raise _Bad(Refusal("json", "缺少牌谱字段 gjn（字符串）", 'missing the record: "gjn" (a string)'))
    if len(gjn.encode("utf-8")) > RECORD_MAX:
        raise _Bad(
            Refusal(
                "size",
                f"牌谱太大：最多 {RECORD_MAX:,} 字节（规则引擎的上限）",
                f"record too large: a GJN record is at most {RECORD_MAX:,} bytes (the engine's limit)",
            )
        )
    players = obj.get("players")
    if not isinstance(players, list) or len(players) != 6:
        raise _Bad(
            Refusal(
                "json",
                "players 应列出 6 位选手 [{seat, id, name}, …]",
                'players must list the 6 players [{"seat", "id", "name"}, …]',
            )
        )
    seated: dict[int, tuple[str, str]] = {}
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise _Bad(Refusal("json", f"players[{i}] 应是对象", f"players[{i}] must be an object"))
        seat = p.get("seat", i + 1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 6 or seat in seated:
            raise _Bad(
                Refusal(
                    "json",
                    f"players[{i}].seat 应是 1…6 且不重复",
                    f"players[{i}].seat must be 1…6, each once",
                )
            )
        pid = _player_text(p.get("id"), ("平台编号", "platform id"), seat, PLAYER_ID_MAX)
        name = _player_text(p.get("name", pid), ("昵称", "name"), seat, PLAYER_NAME_MAX)
        seated[seat] = (pid, name)
    return gjn, [seated[s] for s in range(1, 7)]


def _from_tags(text: str, names: dict[int, str]) -> list[tuple[str, str]]:
    """A GJN file's players: ``[IdN "platform id"]`` and ``[SeatN "name"]`` (the name is the id where
    there is no Id tag)."""
    ids = {
        int(m.group(1)): m.group(2).replace('\\"', '"').replace("\\\\", "\\") for m in _ID_TAG.finditer(text)
    }
    out = []
    for seat in range(1, 7):
        raw_id = ids.get(seat) or names.get(seat)
        if raw_id is None:
            raise _Bad(
                Refusal(
                    "player",
                    f'记录没有{seat}号选手（[Id{seat} "平台编号"] 或 [Seat{seat} "昵称"]）',
                    f'the record names no player for seat {seat} ([Id{seat} "platform id"] or '
                    f'[Seat{seat} "name"])',
                    seat=seat,
                )
            )
        pid = _player_text(raw_id, ("平台编号", "platform id"), seat, PLAYER_ID_MAX)
        name = _player_text(names.get(seat) or pid, ("昵称", "name"), seat, PLAYER_NAME_MAX)
        out.append((pid, name))
    return out


def check_batch(items: list[Item], rules: str) -> Checked:
    """Re-check every record of ``items`` with the engine; count those of preset ``rules`` it accepts."""
    out = Checked()
    index: dict[str, int] = {}
    stats = out.stats
    for key, where, kind, text in items:
        try:
            if kind == "jsonl":
                gjn_text, players = _from_json(text)
            else:
                gjn_text, players = text, []
            try:
                outcome = check_record(gjn_text, where)
            except RecordRejected as e:
                raise _Bad(Refusal(e.rule, e.zh, e.en, e.move, e.line, e.seat)) from None
            if outcome.rules != rules:
                raise _Bad(
                    Refusal(
                        "rules",
                        f"这是 {outcome.rules} 规则的牌局，本次海选按 {rules} 计分",
                        f"a {outcome.rules} game: these qualifiers score {rules}",
                    )
                )
            if not players:
                players = _from_tags(gjn_text, outcome.seat_names)
            if len({pid for pid, _ in players}) != 6:
                raise _Bad(
                    Refusal("player", "同一位选手坐了两个座位", "one player holds two seats of the game")
                )
        except _Bad as bad:
            r = bad.refusal
            out.refused.append(Refused(key, where, r.rule, r.zh, r.en, r.move, r.line, r.seat))
            continue
        except Exception as exc:  # noqa: BLE001 - a fault of the checker: listed, never counted
            out.refused.append(
                Refused(
                    key,
                    where,
                    "engine",
                    f"规则引擎检查这条记录时出错：{type(exc).__name__}: {exc}",
                    f"the engine failed on this record: {type(exc).__name__}: {exc}",
                    None,
                    None,
                    None,
                )
            )
            continue
        out.counted.append(key)
        opened = set(outcome.opened)
        for seat, (pid, name) in enumerate(players, start=1):
            i = index.get(pid)
            if i is None:
                i = index[pid] = len(out.ids)
                out.ids.append(pid)
                out.names.append(name)
                stats.extend((0,) * WIDTH)
            base = i * WIDTH
            stats[base] += 1
            stats[base + 1] += outcome.points[seat]
            place = outcome.places.get(seat)
            if place is not None:
                stats[base + 1 + place] += 1
            elif outcome.quan_san:
                stats[base + 8] += 1
            if seat in opened:
                stats[base + 9] += 1
    return out
