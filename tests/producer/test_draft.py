"""The producer's placements draft writes each section's text once per edit of it, and its text is always
the text written from scratch: after every kind of edit, with YAML anchors shared inside a section and
between sections, and when a value is changed behind the draft's back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from broadcast.producer.draft import PlacementsDraft

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


def fresh_text(draft: PlacementsDraft) -> str:
    """The draft's text with nothing kept from an earlier call."""
    kept = dict(draft._texts)
    draft._texts.clear()
    try:
        return draft.text()
    finally:
        draft._texts.update(kept)


def dumps(draft: PlacementsDraft, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sections the draft writes out from now on, in order."""
    written: list[str] = []
    dump = draft._dump

    def counted(key: str) -> str:
        written.append(key)
        return dump(key)

    monkeypatch.setattr(draft, "_dump", counted)
    return written


@pytest.fixture
def demo(tmp_path: Path) -> PlacementsDraft:
    path = tmp_path / "placements.yaml"
    shutil.copy(DEMO, path)
    return PlacementsDraft.open(path)


def test_an_unedited_file_is_its_own_text(demo: PlacementsDraft) -> None:
    assert demo.text() == DEMO.read_text(encoding="utf-8") == fresh_text(demo)


def test_each_edit_writes_only_the_section_it_changed_and_the_text_is_always_the_fresh_one(
    demo: PlacementsDraft, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = dumps(demo, monkeypatch)
    edits: list[tuple[str, Any]] = [
        ("set", (("ticker", "lines", 0), "第一行改了")),
        ("set", (("ticker", "lines", 0), "第一行又改了")),
        ("set", (("title", "sponsor"), "yiheyuan")),
        ("append", (("ticker", "lines"), "加了一行")),
        ("move", (("ticker", "lines"), 0, 1)),
        ("remove", (("ticker", "lines", 1),)),
        ("set", (("title", "sponsor"), "xiaodangjia")),  # back as read: the section's text as read
    ]
    for name, args in edits:
        getattr(demo, name)(*args)
        before = len(written)
        text = demo.text()
        section = args[0][0]
        assert set(written[before:]) <= {section}, (name, args, written[before:])
        before = len(written)
        assert demo.text() == text  # asked again, nothing is written again
        assert written[before:] == []
        assert text == fresh_text(demo), (name, args)
        del written[before:]  # (what the fresh text wrote)
    assert written.count("ticker") == 5  # once per edit of it
    assert "title:\n  sponsor: xiaodangjia" in demo.text().replace("'", "")


def test_an_edit_through_an_alias_writes_its_own_place_and_leaves_the_anchor(
    demo: PlacementsDraft,
) -> None:
    before = demo.text()
    assert before.count("*may") == 8
    demo.set(("jiugongge", "cells", 3, "contract", "end"), "2012-06-30")
    text = demo.text()
    assert text == fresh_text(demo)
    assert text.count("*may") == 7  # the edited cell has its own contract now, the others still share
    assert demo.get(("jiugongge", "cells", 4, "contract", "end")).isoformat() == "2012-05-31"


SHARED = (
    "format: gouji-placements/1\nshow: 够级大明星\n"
    "title:\n  sponsor: a\n  contract: &c {start: 2012-05-01, end: 2012-05-31}\n"
    "special:\n  sponsor: b\n  contract: *c\n"
)


@pytest.mark.parametrize(
    "edit",
    [
        (("title", "sponsor"), "z"),  # the section holding the anchor, elsewhere than the shared node
        (("title", "contract", "end"), "2012-06-30"),  # the shared node, through its anchor
        (("special", "sponsor"), "z"),  # the section holding the alias
        (("special", "contract", "end"), "2012-06-30"),  # the shared node, through its alias
        (("title",), {"sponsor": "z"}),  # the anchor's section replaced whole
    ],
)
def test_a_section_sharing_a_node_with_another_is_written_with_it(
    tmp_path: Path, edit: tuple[tuple[str, ...], Any]
) -> None:
    """Sections are written one by one: with one of them written out, the other is too (in full), so the
    text never holds an alias whose anchor is gone — it reads back with every value as edited."""
    from ruamel.yaml import YAML

    path = tmp_path / "placements.yaml"
    path.write_text(SHARED, encoding="utf-8")
    draft = PlacementsDraft.open(path)
    assert draft.text() == SHARED
    where, value = edit
    draft.set(where, value)
    text = draft.text()
    assert text == fresh_text(draft)
    back = YAML(typ="safe").load(text)  # an alias without its anchor would not read
    # the value edited in its own place only (the draft copies a shared node before changing it)
    expected = json.loads(json.dumps(YAML(typ="safe").load(SHARED), default=str))
    node = expected
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    assert json.dumps(back, default=str, sort_keys=True) == json.dumps(expected, default=str, sort_keys=True)


def test_an_edit_that_leaves_the_values_as_they_were_still_writes_what_the_draft_holds(
    demo: PlacementsDraft,
) -> None:
    """The same date typed again into a shared contract (that place made its own: the section's values
    are as read, so its text is as read), and a number replaced by a flag that Python counts equal
    (1 == True) is written as the flag: the values compare the same, the text does not."""
    demo.text()
    same = demo.get(("jiugongge", "cells", 5, "contract", "end"))
    demo.set(("jiugongge", "cells", 5, "contract", "end"), same)
    assert demo.text() == fresh_text(demo)
    assert demo.text().count("*may") == 8
    demo.set(("ticker", "lines", 1), 1)
    demo.text()
    demo.set(("ticker", "lines", 1), True)
    assert demo.text() == fresh_text(demo)
    assert "    - true\n" in demo.text()


def test_a_value_changed_behind_the_drafts_back_is_written(demo: PlacementsDraft) -> None:
    demo.set(("ticker", "lines", 0), "改过")
    demo.text()
    lines = demo.get(("ticker", "lines"))
    lines.append("直接加的")  # not through the draft
    assert "直接加的" in demo.text()
    assert demo.text() == fresh_text(demo)


def test_reload_and_save_forget_what_was_kept(demo: PlacementsDraft) -> None:
    demo.set(("ticker", "lines", 0), "没存的")
    assert "没存的" in demo.text()
    demo.reload()
    assert "没存的" not in demo.text()
    assert demo.text() == DEMO.read_text(encoding="utf-8")
