"""Fixtures of the season tests: a demo season on a real SQLite file, engine self-play records."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.season.demo import build_demo_season
from engine import first_leader, gjn, new_game

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "season"


@pytest.fixture(scope="session")
def demo_db_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    build_demo_season(path, 2012)
    return path


@pytest.fixture
def demo_db(demo_db_master: Path, tmp_path: Path) -> Path:
    """A private copy of the demo season (tests may write to it)."""
    dst = tmp_path / "demo.sqlite"
    shutil.copy(demo_db_master, dst)
    return dst


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
