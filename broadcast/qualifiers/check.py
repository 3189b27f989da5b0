"""What a Dask worker runs: a shard of records re-checked by the engine, summed per player.

:func:`check_shard` takes one task's :class:`Shard` — a run of JSON lines the worker reads itself from
the export (a byte range, checked against the digest of what the driver read) or is sent, or GJN
records as read by the driver — and returns a :class:`Checked`: the identities of the records counted,
one :class:`Refused` per record not counted (file, move, line, seat, clause, both languages), and the
shard's totals per player, packed one integer a player (:func:`pack`: what the driver merges is one
addition a player). Every record is replayed by the engine through the season's one door to it
(``broadcast.season.scoring.check_record``: the clause of an illegal move, 未完 G10.4, 流局 G10.5, seat
points that add up to the engine's team points). Nothing here keeps state between shards: the driver
commits each shard whole (so a record is counted once or not at all).
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from array import array
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from broadcast.core.text import invisible
from broadcast.errors import GoujiError
from broadcast.season.scoring import RecordRejected, check_record

from . import records
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
#: bits of one figure in a packed row (:func:`pack`): sums stay exact while every figure is under 2**63
FIELD = 64
_HALF = 1 << (FIELD - 1)
_BIAS = sum(_HALF << (FIELD * j) for j in range(WIDTH))  # every digit shifted to 0 … 2**64 - 1
_ROW = struct.Struct(f"<{WIDTH}Q")


def pack(values: Any) -> int:
    """A player's :data:`WIDTH` figures as one integer, a signed digit of :data:`FIELD` bits each: the
    sum of packed rows is the packed sum of the rows (points may be negative)."""
    return int.from_bytes(_ROW.pack(*[int(v) + _HALF for v in values]), "little") - _BIAS


def unpack(x: int) -> list[int]:
    """The figures of a packed row (or of a sum of packed rows)."""
    return [d - _HALF for d in _ROW.unpack((x + _BIAS).to_bytes(_ROW.size, "little"))]


def digest(data: bytes | memoryview) -> bytes:
    """What a shard's bytes are checked by (the worker read what the driver read)."""
    return hashlib.blake2b(data, digest_size=16, person=b"shard").digest()


@dataclass(slots=True)
class Shard:
    """One task's records. JSON lines numbered from ``first_line`` of ``source``: the bytes ``start`` …
    ``end`` of the file ``path``, read by the worker and checked against ``digest``, or sent as
    ``data``; ``skip`` the indexes of lines not to check (known already, or refused as they were read).
    GJN records: ``items`` as the driver read them."""

    source: str = ""
    first_line: int = 1
    path: str | None = None
    start: int = 0
    end: int = 0
    digest: bytes = b""
    data: bytes | None = None
    skip: frozenset[int] = frozenset()
    items: list[Item] = field(default_factory=list)


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
    #: the rows of ``stats`` packed (:func:`pack`), as a shard comes back (``stats`` then empty)
    packed: list[int] = field(default_factory=list)
    #: a shard that could not be read (the file changed, a worker cannot open it): one line, nothing counted
    error: tuple[str, str, str] | None = None  # (where, zh, en)

    def rows(self) -> list[int]:
        """The players' figures packed, in the order of ``ids``."""
        if self.packed or not self.ids:
            return self.packed
        s = self.stats
        return [pack(s[i * WIDTH : (i + 1) * WIDTH]) for i in range(len(self.ids))]


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
    for key, where, kind, text in items:
        _check(out, index, key, where, kind, text, rules)
    return out


def check_shard(shard: Shard, rules: str) -> Checked:
    """A Dask task: re-check a shard's records (:class:`Shard`); its players' rows packed."""
    if shard.items:
        out = check_batch(shard.items, rules)
    else:
        out = Checked()
        index: dict[str, int] = {}
        data = shard.data if shard.data is not None else _read(shard, out)
        if data is None:
            return out
        skip, source, first = shard.skip, shard.source, shard.first_line
        for i, line in enumerate(data.split(b"\n")):
            if i in skip or len(line) > records.LINE_MAX:
                continue  # known already, or refused by the driver as it read it
            text = records.line_text(line)
            if text is None:
                continue
            key = records.line_key(text)
            where = f"{source}:{first + i}"
            try:
                decoded = text.decode("utf-8")
            except UnicodeDecodeError:
                z, e = "第1行不是 UTF-8 文字", "line 1 is not UTF-8 text"
                out.refused.append(Refused(key, where, "encoding", z, e, None, 1, None))
                continue
            _check(out, index, key, where, "jsonl", decoded, rules)
    out.packed = out.rows()
    out.stats = array("q")
    return out


def _read(shard: Shard, out: Checked) -> bytes | None:
    """A shard's bytes from its file, or ``None`` and ``out.error`` when they are not what the driver
    read (the file changed during the import) or cannot be read here."""
    where = f"{shard.source}:{shard.first_line}"
    assert shard.path is not None
    try:
        with open(shard.path, "rb") as f:
            f.seek(shard.start)
            data = f.read(shard.end - shard.start)
    except OSError as e:
        out.error = (
            where,
            f"Dask 工作进程读不到这个文件（{e.strerror}）：集群的工作进程须能以同一路径读到来源文件，"
            "否则不要用 --shared-files",
            f"a Dask worker cannot read this file ({e.strerror}): the cluster's workers must see the "
            "sources at the same path, or leave out --shared-files",
        )
        return None
    if digest(data) != shard.digest:
        out.error = (
            where,
            "文件在导入过程中被改动了：这一段未计入；文件不再改动后，再运行同一命令",
            "the file changed during the import: this part was not counted; run the same command again "
            "once the file no longer changes",
        )
        return None
    return data


def _check(
    out: Checked, index: dict[str, int], key: bytes, where: str, kind: str, text: str, rules: str
) -> None:
    """One record re-checked: counted into ``out`` (its players' rows through ``index``) or refused."""
    stats = out.stats
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
            raise _Bad(Refusal("player", "同一位选手坐了两个座位", "one player holds two seats of the game"))
    except _Bad as bad:
        r = bad.refusal
        out.refused.append(Refused(key, where, r.rule, r.zh, r.en, r.move, r.line, r.seat))
        return
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
        return
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
