"""Fixtures: a copy of the demo placement set (YAML + logos + films) to break on purpose."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from broadcast.sponsors.placements import Placements, load_placements

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo"
DEMO_YAML = DEMO / "placements.yaml"
AIR_DATE = date(2012, 5, 7)


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the demo set per test process, where each test writes its own broken files under
    names of their own (the checker reads only the files a placements file names): the demo's films are
    probed by ffprobe once per process, not once per test."""
    dst = tmp_path_factory.mktemp("placements") / "set"
    shutil.copytree(DEMO, dst)
    return dst


_variants = itertools.count(1)


@pytest.fixture
def demo() -> Placements:
    return load_placements(DEMO_YAML, air_date=AIR_DATE)


@pytest.fixture
def variant(demo_dir: Path) -> Callable[..., tuple[Path, str]]:
    """Write a modified copy of the demo YAML: variant(old, new) → (path, text)."""

    def make(*pairs: tuple[str, str]) -> tuple[Path, str]:
        text = DEMO_YAML.read_text(encoding="utf-8")
        for old, new in pairs:
            assert text.count(old) >= 1, f"marker not in demo yaml: {old!r}"
            text = text.replace(old, new, 1)
        path = demo_dir / f"broken-{next(_variants)}.yaml"
        path.write_text(text, encoding="utf-8")
        return path, text

    return make


def line_of(text: str, marker: str, nth: int = 1) -> int:
    """1-based line of the nth occurrence of marker."""
    pos = -1
    for _ in range(nth):
        pos = text.index(marker, pos + 1)
    return text.count("\n", 0, pos) + 1
