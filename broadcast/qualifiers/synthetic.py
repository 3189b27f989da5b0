"""Synthetic qualifier exports from the engine's self-play (tests, ``benchmarks/qualifiers.py``, trials).

A pool of self-played games (``engine.deal.new_game`` + random legal play, written by ``engine.gjn``) is
dealt out to ``records`` games between ``players`` platform players; each record is made unique by its
``[Event]`` tag, so that every one is a distinct record with the checking cost of a real game. A share
``illegal`` of them are mutations the engine refuses (a record cut short: 未完 G10.4; a move given to a
seat that may not act; a play of cards the seat does not hold), each verified refused when the pool is
built. Written as a JSON-lines export (docs/qualifiers.md) or as GJN files.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine import gjn
from engine.deal import new_game

_SURNAMES = (
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
)
_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰建国红梅海燕志鹏俊峰"


@dataclass(frozen=True)
class Player:
    id: str
    name: str


def players(n: int, seed: int = 0) -> list[Player]:
    rng = random.Random(f"qualifiers-players:{seed}")
    out = []
    for i in range(n):
        name = rng.choice(_SURNAMES) + "".join(rng.choice(_GIVEN) for _ in range(rng.choice((1, 2))))
        out.append(Player(f"QL{100000 + i}", name))
    return out


def _game_text(seed: str) -> str:
    g = new_game("tv_match", seed=seed)
    g.play_randomly(random.Random(f"qualifiers-play:{seed}"))
    return gjn.write_game(g, [("Site", "齐鲁棋牌网")])


def _mutated(text: str, rng: random.Random) -> str | None:
    """An illegal version of a legal record (or None when the mutation happened to be legal)."""
    lines = text.rstrip("\n").split("\n")
    first = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("["))
    moves = list(range(first, len(lines)))
    how = rng.randrange(3)
    if how == 0:  # cut short: 未完
        out = lines[: len(lines) - rng.randint(1, min(5, len(moves) - 1))]
    elif how == 1:  # a move by a seat that may not act
        i = rng.choice(moves[1:])
        seat, act = lines[i].split(" ", 1)
        other = rng.choice([s for s in "123456" if s != seat])
        out = [*lines[:i], f"{other} {act}", *lines[i + 1 :]]
    else:  # a play of cards the seat does not hold
        plays = [i for i in moves if lines[i].split(" ", 1)[1] not in ("pass", "yield")]
        i = rng.choice(plays)
        seat = lines[i].split(" ", 1)[0]
        out = [*lines[:i], f"{seat} RRRR", *lines[i + 1 :]]
    bad = "\n".join(out) + "\n"
    return None if gjn.check(bad)["ok"] else bad


class Pool:
    """``size`` legal self-played records and ``bad`` refused mutations of them."""

    def __init__(self, size: int = 200, bad: int = 20, seed: int = 0) -> None:
        self.legal = [_game_text(f"q{seed}-{i}") for i in range(size)]
        rng = random.Random(f"qualifiers-bad:{seed}")
        self.illegal: list[str] = []
        while len(self.illegal) < bad:
            m = _mutated(rng.choice(self.legal), rng)
            if m is not None:
                self.illegal.append(m)


def records(
    pool: Pool, count: int, roster: list[Player], *, illegal: float = 0.01, seed: int = 0
) -> Iterator[tuple[str, list[Player], bool]]:
    """``count`` (GJN text, six players, legal?) — every text distinct (its ``[Event]``)."""
    rng = random.Random(f"qualifiers-records:{seed}")
    for i in range(count):
        bad = rng.random() < illegal
        base = rng.choice(pool.illegal if bad else pool.legal)
        seated = rng.sample(roster, 6)
        yield f'[Event "网络海选 第{seed}-{i + 1}局"]\n' + base, seated, not bad


def jsonl_line(n: int, text: str, seated: list[Player]) -> str:
    ps = ", ".join(
        f'{{"seat": {s}, "id": {json.dumps(p.id)}, "name": {json.dumps(p.name, ensure_ascii=False)}}}'
        for s, p in enumerate(seated, start=1)
    )
    return f'{{"game": "QL-G{n:08d}", "players": [{ps}], "gjn": {json.dumps(text, ensure_ascii=False)}}}\n'


def gjn_file(text: str, seated: list[Player]) -> str:
    """A GJN record naming its players by tags: ``[IdN]`` (platform id) and ``[SeatN]`` (name)."""
    head, _, rest = text.partition("\n")
    tags = "".join(f'[Id{s} "{p.id}"] [Seat{s} "{p.name}"]\n' for s, p in enumerate(seated, start=1))
    return f"{head}\n{tags}{rest}"


def write_jsonl(
    path: Path,
    pool: Pool,
    count: int,
    roster: list[Player],
    *,
    illegal: float = 0.01,
    seed: int = 0,
    first: tuple[Path, int] | None = None,
) -> tuple[int, int]:
    """Write a JSON-lines export of ``count`` records, and its first N records as an export of their own
    when ``first`` = (path, N) is given (the same lines); the numbers of legal records in both."""
    legal = legal_first = 0
    head, n_first = first if first is not None else (Path(os.devnull), 0)
    with path.open("w", encoding="utf-8") as f, head.open("w", encoding="utf-8") as g:
        rows = records(pool, count, roster, illegal=illegal, seed=seed)
        for n, (text, seated, ok) in enumerate(rows, start=1):
            line = jsonl_line(n, text, seated)
            f.write(line)
            legal += ok
            if n <= n_first:
                g.write(line)
                legal_first += ok
    return legal, legal_first
