"""Every command that reads a YAML file answers hostile input with one line and exit 2, never a
traceback (issue 13: a file nested 5,000 deep gave RecursionError and 2,989 lines). They all read
through engine.yamlread, the one YAML reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from broadcast.cli.tools import sponsor_from_placements
from broadcast.obs.settings import ObsSettings, SettingsError
from broadcast.season.model import SeasonError
from engine import PresetError, load_preset

ROOT = Path(__file__).resolve().parents[1]
DEEP = "a: " + "[" * 5000 + "]" * 5000 + "\n"
HOSTILE = {
    "deep": DEEP,
    "self-anchor": "a: &x [1, *x]\n",
    "two-documents": "a: 1\n---\nb: 2\n",
    "control-character": "a: 1\nb: x\x07y\n",
}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "broadcast", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_sponsors_check_answers_hostile_yaml_in_one_line(tmp_path: Path, kind: str) -> None:
    f = tmp_path / f"{kind}.yaml"
    f.write_text(HOSTILE[kind], encoding="utf-8")
    r = _cli("sponsors", "check", str(f))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "RecursionError" not in r.stderr
    assert r.stderr.startswith(f"{f}:") and r.stderr.split(":")[1].isdigit()
    assert len(r.stderr.strip().splitlines()) <= 2  # the error, and "排期未加载" under it


def test_sponsors_check_names_the_line_of_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "gbk.yaml"
    f.write_bytes("format: gouji-placements/1\nshow: 够级大明星\n".encode("gbk"))
    r = _cli("sponsors", "check", str(f))
    assert r.returncode == 2 and r.stderr.startswith(f"{f}:2:") and "UTF-8" in r.stderr


def test_obs_settings_file_nested_5000_deep(tmp_path: Path) -> None:
    f = tmp_path / "obs.yaml"
    f.write_text("obs:\n  host: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=rf"^{f}:2: invalid YAML: nested too deeply"):
        ObsSettings.load(str(f))
    r = _cli("obs", "status", "--settings", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and f"{f}:2:" in r.stderr


def test_obs_settings_duplicate_key_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "obs.yaml"
    f.write_text("obs:\n  port: 4455\n  port: 4456\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=rf"^{f}:3: invalid YAML: key 'port' is written twice"):
        ObsSettings.load(str(f))


def test_placements_read_by_export_for_the_leaderboard_sponsor(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(DEEP, encoding="utf-8")
    with pytest.raises(SeasonError, match=rf"{f}:1:\d+: 嵌套过深"):
        sponsor_from_placements(f)
    f.write_bytes(b"leaderboard:\n  sponsor: \xb0\xcb\n")
    with pytest.raises(SeasonError, match=rf"{f}:2:\d+: 文件不是 UTF-8"):
        sponsor_from_placements(f)


def test_preset_file_nested_5000_deep_and_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text("name: x\nbie_san: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(PresetError) as ei:
        load_preset(str(f))
    assert ei.value.line == 2 and "nested too deeply" in str(ei.value)
    f.write_bytes(b"name: x\nbie_san: \xff\n")
    with pytest.raises(PresetError) as ei:
        load_preset(str(f))
    assert ei.value.line == 2 and "UTF-8" in str(ei.value)
