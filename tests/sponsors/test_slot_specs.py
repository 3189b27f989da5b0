"""The placements' slot sections are one table of slot specs read by one builder; each slot knows where
it is written (for the producer's editor), and a malformed sponsor entry is an error, not a crash."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.sponsors.placements import (
    KIND_LABELS,
    SLOT_SPECS,
    PlacementError,
    Placements,
    load_placements,
)
from broadcast.sponsors.placements.load import OPTIONAL_SECTIONS, REQUIRED_SECTIONS
from engine.yamlread import compose
from tests.sponsors.conftest import AIR_DATE, DEMO_YAML, line_of

Variant = Callable[..., tuple[Path, str]]


def test_every_slot_kind_has_one_spec_and_every_section_is_a_key_of_the_file() -> None:
    assert sorted(s.kind for s in SLOT_SPECS) == sorted(KIND_LABELS)
    sections = [s.section for s in SLOT_SPECS]
    assert len(set(sections)) == len(sections)
    assert set(sections) <= set(REQUIRED_SECTIONS) | set(OPTIONAL_SECTIONS)
    assert "title" in REQUIRED_SECTIONS  # the 冠名 is the one slot every episode must have


def test_each_slot_knows_where_it_is_written(demo: Placements) -> None:
    root = compose(DEMO_YAML.read_text(encoding="utf-8"), str(DEMO_YAML))
    assert demo.slots and all(s.path for s in demo.slots)
    for s in demo.slots:
        node = root
        for step in s.path:  # walk the YAML to the place the slot came from
            node = {k.value: v for k, v in node.value}[step] if isinstance(step, str) else node.value[step]
        fields = {k.value: v for k, v in node.value}
        assert fields["sponsor"].value == s.sponsor, (s.key, s.path)
    assert demo.one("title").path == ("title",)  # type: ignore[union-attr]
    assert [s.path for s in demo.supporters] == [("supporters", i) for i in range(3)]
    assert demo.cells[4].path == ("jiugongge", "cells", 4)
    assert all(c.path == () for c in demo.credits()[:5])  # derived from the bumpers, not written


def test_a_sponsor_without_a_name_is_an_error_not_a_crash(variant: Variant) -> None:
    path, text = variant(("    name: 八宝豆豉\n", ""))
    with pytest.raises(PlacementError) as ei:
        load_placements(path, air_date=AIR_DATE)
    errs = [str(i) for i in ei.value.errors]
    assert any(e.startswith(f"{path}:{line_of(text, '  babao:')}:") and "'name'" in e for e in errs), errs


def test_a_nameless_sponsor_named_by_a_cross_rule_is_named_by_its_id(variant: Variant) -> None:
    path, text = variant(
        ("    name: 沂河源矿泉水\n", ""),
        ("items: [xiaodangjia_15s, yiheyuan_15s]", "items: [xiaodangjia_15s]"),
    )
    with pytest.raises(PlacementError) as ei:
        load_placements(path, air_date=AIR_DATE)
    errs = [str(i) for i in ei.value.errors]
    line = line_of(text, "film: {id: yiheyuan_15s")
    assert any(
        e.startswith(f"{path}:{line}:") and "（yiheyuan）的片子 yiheyuan_15s 每期应播 1 次" in e for e in errs
    ), errs


def test_a_list_where_one_exclusive_slot_is_sold(variant: Variant) -> None:
    path, text = variant(
        (
            "table:\n  sponsor: jinyimeng\n  contract: {start: 2012-04-01, end: 2012-12-30}\n",
            "table:\n  - sponsor: jinyimeng\n    contract: {start: 2012-04-01, end: 2012-12-30}\n",
        ),
        (
            "  price: {yuan: 240000, per: year}\n  on_air:",
            "    price: {yuan: 240000, per: year}\n    on_air:",
        ),
    )
    with pytest.raises(PlacementError) as ei:
        load_placements(path, air_date=AIR_DATE)
    errs = [str(i) for i in ei.value.errors]
    assert any(
        e.startswith(f"{path}:{line_of(text, 'table:')}:") and "桌面广告位是独家广告位" in e for e in errs
    )
