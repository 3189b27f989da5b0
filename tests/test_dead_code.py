"""No dead code: vulture (configured in pyproject.toml, ``[tool.vulture]``) finds no unused definition in
engine/ or broadcast/. Tests, benchmarks and scripts count as users; ``tests/vulture_whitelist.py`` names
what only Qt or a library uses, and reducers are called by action type."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FINDING = re.compile(
    r"^((?:engine|broadcast)/\S+\.py):\d+: (?:unused|unreachable|unsatisfiable) .*?'([^']*)'"
)

# Definitions their owners are removing or putting to use (issue 21), "path:name": the list only
# shrinks — a finding not on it fails, and so does one on it that is gone (take it off the list).
BEING_REMOVED: dict[str, str] = {
    "broadcast/console/dialogs.py:picked": "qt",
    "broadcast/console/docks/__init__.py:_onair_runner": "qt",
    "broadcast/console/docks/status.py:_unlisten": "qt",
    "broadcast/obs/graphics/raster.py:mtime_ns": "program",
    "broadcast/obs/layout.py:graphics_on_scene": "program",
    "broadcast/obs/layout.py:resolve_asset": "program",
    "broadcast/obs/status.py:obs_version": "program",
    "broadcast/obs/status.py:down_since": "program",
    "broadcast/producer/draft.py:preserve_quotes": "qt",
    "broadcast/producer/files.py:place_logo": "qt",
    "broadcast/producer/files.py:place_film": "qt",
    "broadcast/producer/forms.py:error_text": "qt",
    "broadcast/producer/forms.py:bumper_edit": "qt",
    "broadcast/producer/forms.py:slot_title": "qt",
    "broadcast/show/zones.py:on_program": "program",
    "broadcast/sponsors/rundown.py:film_url": "program",
    "broadcast/sponsors/rundown.py:slot_for_film": "program",
    "broadcast/tokens.py:layer_name": "program",
    "engine/cards.py:FOUR": "engine",
    "engine/cards.py:FIVE": "engine",
    "engine/cards.py:SEVEN": "engine",
    "engine/cards.py:EIGHT": "engine",
    "engine/cards.py:NINE": "engine",
    "engine/cards.py:is_wild": "engine",
    "engine/cards.py:TOTAL_CARDS": "engine",
    "engine/cards.py:big_jokers": "engine",
    "engine/cards.py:small_jokers": "engine",
    "engine/cards.py:is_pure_gouji": "engine",
    "engine/game.py:purchased_threes": "engine",
    "engine/game.py:burn_window_open": "engine",
    "engine/game.py:is_legal": "engine",
    "engine/game.py:push_str": "engine",
    "engine/match.py:void_games": "engine",
    "engine/preset.py:opening_scored": "engine",
    "engine/preset.py:tributes": "engine",
    "engine/preset.py:da_dian": "engine",
    "engine/gameresult.py:zha_shao": "engine",
}


def findings(output: str) -> list[tuple[str, str]]:
    """``(path:name, line)`` of every finding in engine/ or broadcast/ vulture printed."""
    out = []
    for line in output.splitlines():
        m = FINDING.match(line)
        if m:
            out.append((f"{m.group(1)}:{m.group(2)}", line))
    return out


def test_vulture_finds_nothing_unused_in_engine_or_broadcast() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode in (0, 3), run.stderr  # 3: vulture found something (listed below)
    found = findings(run.stdout)
    new = [line for key, line in found if key not in BEING_REMOVED]
    gone = [key for key in BEING_REMOVED if key not in {k for k, _ in found}]
    assert not new, (
        "unused code (remove it, or name in tests/vulture_whitelist.py who uses it):\n" + "\n".join(new)
    )
    assert not gone, f"no longer found, take them off BEING_REMOVED: {gone}"


@pytest.mark.parametrize(
    ("line", "key"),
    [
        (
            "broadcast/obs/layout.py:217: unused function 'graphics_on_scene' (60% confidence)",
            "broadcast/obs/layout.py:graphics_on_scene",
        ),
        ("engine/cards.py:22: unused variable 'FOUR' (60% confidence)", "engine/cards.py:FOUR"),
        ("broadcast/x.py:3: unreachable code after 'return' (100% confidence)", "broadcast/x.py:return"),
        ("tests/engine/test_referee.py:47: unsatisfiable 'ternary' condition (100% confidence)", None),
    ],
)
def test_what_counts_as_a_finding(line: str, key: str | None) -> None:
    assert [k for k, _ in findings(line)] == ([key] if key else [])
