"""Shared fixtures. Qt runs offscreen; artifacts (screenshots, reports) go to test-artifacts/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.sqlite"
