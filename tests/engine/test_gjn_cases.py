"""Data-driven GJN cases (like python-chess's perft files): each cases/*.gjn has the expected
``check --json`` object in cases/*.json. The message text is compared only for presence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import gjn

CASES = sorted((Path(__file__).parent / "cases").glob("*.gjn"))


def _strip_message(obj: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(obj))
    if "error" in out:
        assert out["error"]["message"], "an error needs a message"
        assert " / " in out["error"]["message"], "English / Chinese"
        out["error"]["message"] = "..."
    return out


def test_there_are_legal_and_illegal_cases() -> None:
    names = [p.stem for p in CASES]
    assert sum(n.startswith("legal") or n.startswith("selfplay") for n in names) >= 5
    assert sum(n.startswith("illegal") for n in names) >= 5


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    got = gjn.check(path.read_text(encoding="utf-8"), str(path))
    assert list(got) == list(expected)  # same keys, same order
    assert _strip_message(got) == _strip_message(expected)
    if got["ok"]:
        assert set(got) == {"ok", "finish_order", "titles", "team_points", "quan_san", "opened"}
    else:
        assert set(got["error"]) == {"move", "line", "seat", "rule", "message"}
