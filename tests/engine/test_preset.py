"""Presets as YAML data (G6.1, G9, G10.5, G11, G12 toggles): validation names file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import PresetError, load_preset
from engine.preset import PRESET_DIR, parse_preset

TV = (PRESET_DIR / "tv_match.yaml").read_text(encoding="utf-8")


def test_G11_both_presets_load() -> None:
    tv = load_preset("tv_match")
    dg = load_preset("dagang")
    assert tv.name == "tv_match" and not tv.bie_san and not tv.revolution
    assert tv.title_points == (7, 5, 4, 3, 2, 1) and tv.quan_san_points == 32
    assert dg.bie_san and dg.revolution
    assert dg.title_points == (4, 2, 0, 0, -2, -4) and dg.quan_san_points == 12
    assert tv.gouji_min_twos == dg.gouji_min_twos == 1  # G6.1 toggle


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_unknown_key_names_file_and_line(tmp_path: Path) -> None:
    text = TV.replace("bie_san: false", "bie_sna: false")
    f = tmp_path / "p.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(PresetError) as ei:
        load_preset(str(f))
    assert str(ei.value).startswith(f"{f}:{_line_of(text, 'bie_sna')}: unknown key 'bie_sna'")


@pytest.mark.parametrize(
    "old,new,fragment",
    [
        ("bie_san: false", "bie_san: 0", "expected true or false"),
        ("gouji_min_twos: 1", "gouji_min_twos: one", "expected an integer"),
        ("gouji_min_twos: 1", "gouji_min_twos: 3", "not one of"),
        ("scoring: tv_match", "scoring: tvmatch", "not one of"),
        ("title_points: [7, 5, 4, 3, 2, 1]", "title_points: [7, 5, 4]", "list of 6"),
        ("tributes: false", "tributes: true", "not supported yet"),
        ("da_dian: false", "da_dian: true", "da dian (G11.4) is not supported yet"),
    ],
)
def test_mistyped_values_name_the_line(old: str, new: str, fragment: str) -> None:
    text = TV.replace(old, new)
    with pytest.raises(PresetError) as ei:
        parse_preset(text, "t.yaml")
    assert ei.value.line == _line_of(text, new.split(":")[0] + ":")
    assert fragment in str(ei.value)


def test_duplicate_missing_and_syntax_errors() -> None:
    with pytest.raises(PresetError, match="duplicate key 'bie_san'"):
        parse_preset(TV + "bie_san: true\n", "t.yaml")
    with pytest.raises(PresetError, match="missing key 'bie_san'"):
        parse_preset(TV.replace("bie_san: false", ""), "t.yaml")
    with pytest.raises(PresetError) as ei:
        parse_preset("name: x\n  bad: [\n", "t.yaml")
    assert ei.value.line >= 1 and "t.yaml:" in str(ei.value)


def test_unknown_preset_name() -> None:
    with pytest.raises(PresetError, match="no preset named"):
        load_preset("tvmatch")
