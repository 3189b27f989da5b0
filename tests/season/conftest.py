"""Fixtures of the season tests: a demo season on a real SQLite file and on a real PostgreSQL server,
engine self-play records.

``season_db`` / ``demo_season`` run a test on both backends: a SQLite file, and a fresh database of the
session's one PostgreSQL server (Debian's, started in a temporary directory by :mod:`tests.pgserver`,
stopped at the end; a copy of the demo season is ``CREATE DATABASE … TEMPLATE`` of one built once).
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from broadcast.season.demo import build_demo_season
from engine import first_leader, gjn, new_game
from tests.pgserver import TempPostgres

BACKENDS = ("sqlite", "postgresql")
_names = itertools.count(1)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "season"


# the demo season on SQLite (``demo_db_master``, a private copy ``demo_db``) and the session's PostgreSQL
# server (``postgres``) are tests/conftest.py's: built and started once, shared with the other directories


def fresh_database(pg: TempPostgres, template: str = "template0") -> str:
    """A new, empty database of the session's server (its URL)."""
    return pg.create_database(f"t{os.getpid()}_{next(_names)}", template=template)


def _dropped(pg: TempPostgres, url: str) -> Iterator[str]:
    """``url`` for the test, its database dropped at the test's end (the session's server stays small)."""
    yield url
    pg.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture
def pg_url(postgres: TempPostgres) -> Iterator[str]:
    yield from _dropped(postgres, fresh_database(postgres))


@pytest.fixture(params=BACKENDS)
def season_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty season on each backend: a SQLite file's path, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "studio.sqlite")
        return
    pg = request.getfixturevalue("postgres")
    yield from _dropped(pg, fresh_database(pg))


@pytest.fixture(scope="session")
def demo_pg_master(postgres: TempPostgres) -> str:
    url = postgres.create_database("demo_master")
    build_demo_season(url, 2012)
    return "demo_master"


@pytest.fixture(params=BACKENDS)
def demo_season(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The demo season on each backend (a private copy: tests may write to it)."""
    if request.param == "sqlite":
        dst = tmp_path / "demo.sqlite"
        shutil.copy(request.getfixturevalue("demo_db_master"), dst)
        yield str(dst)
        return
    master = request.getfixturevalue("demo_pg_master")
    pg = request.getfixturevalue("postgres")
    yield from _dropped(pg, fresh_database(pg, template=master))


@pytest.fixture
def season_artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def selfplay(seed: str, names: dict[int, str] | None = None) -> tuple[str, dict[str, int]]:
    """A complete legal game by the engine's seeded self-play: (GJN text, team points)."""
    g = new_game("tv_match", seed=seed, leader=first_leader(seed))
    g.play_randomly(random.Random(f"gouji-play:{seed}"))
    tags = [("Event", f"test {seed}")] + [(f"Seat{s}", n) for s, n in (names or {}).items()]
    return gjn.write(gjn.from_game(g, tags)), dict(g.result().team_points)


def find_games(prefix: str, want: Callable[[int, int], bool], n: int = 1) -> list[str]:
    """Seeds whose self-play game's team points (odd, even) satisfy ``want``."""
    out = []
    for i in range(5000):
        seed = f"{prefix}-{i}"
        _, pts = selfplay(seed)
        if want(pts["odd"], pts["even"]):
            out.append(seed)
            if len(out) == n:
                return out
    raise AssertionError("no such game found")
