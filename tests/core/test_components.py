"""Components plug into the core: each ships its sections (a schema fragment) and its actions; the
application composes them; the core names none of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from broadcast import studio
from broadcast.core import Component, ShowStore, UnknownAction
from broadcast.core.schema import SchemaConflict

COUNTER = Component(
    "counter",
    schema={
        "properties": {
            "counter": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"n": {"type": "integer", "minimum": 0, "default": 0}},
                "default": {},
            }
        }
    },
)


@COUNTER.action("counter.add")
def _add(state, payload, ctx):  # noqa: ANN001
    state["counter"]["n"] += int(payload.get("by", 1))


def test_a_component_brings_its_section_and_actions_and_survives_a_reopen(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    with ShowStore.open(db, components=[COUNTER]) as store:
        assert set(store.state) == {"meta", "counter"}
        assert set(store.actions) == {"counter.add"}
        store.dispatch("counter.add", {"by": 2})
        store.dispatch("counter.add")
        with pytest.raises(UnknownAction):
            store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard"})
    with ShowStore.open(db, components=[COUNTER]) as again:
        assert again.state["counter"] == {"n": 3}
        assert again.seq == 2


def test_the_studio_composes_its_components_and_extra_ones(tmp_path: Path) -> None:
    names = [c.name for c in studio.components()]
    assert names == ["show", "game", "sponsors", "season", "qualifiers", "winprob"]
    with studio.open_store(tmp_path / "s.sqlite", extra=[COUNTER]) as store:
        owner = store.schema.owner
        assert owner["meta"] == "core"
        assert owner["graphics"] == owner["show"] == owner["lower_third"] == "show"
        assert owner["table"] == owner["game"] == "game"
        assert owner["sponsors"] == owner["jiugongge"] == owner["charity"] == "sponsors"
        assert owner["leaderboard"] == "season"
        assert owner["qualifiers"] == "qualifiers"
        assert owner["counter"] == "counter"
        assert store.actions["game.play"].component == "game"
        assert store.actions["leaderboard.set"].component == "season"
        store.dispatch("counter.add")
        store.dispatch("show.update", {"episode": "第3期"})
        assert store.state["counter"]["n"] == 1


def test_two_components_cannot_claim_one_section_or_one_action(tmp_path: Path) -> None:
    twin = Component("twin", schema=COUNTER.fragment)
    with pytest.raises(SchemaConflict, match="counter"):
        ShowStore.open(tmp_path / "a.sqlite", components=[COUNTER, twin])
    clash = Component("clash")

    @clash.action("counter.add")
    def _again(state, payload, ctx):  # noqa: ANN001
        pass

    with pytest.raises(SchemaConflict, match="counter.add"):
        ShowStore.open(tmp_path / "b.sqlite", components=[COUNTER, clash])


def test_close_is_idempotent_and_releases_the_file(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    store = studio.open_store(db)
    store.dispatch("bus.panic")
    store.close()
    store.close()
    assert store.state["meta"]["seq"] == 1  # the state stays readable
    with pytest.raises(Exception, match="closed"):
        store.journal.last_seq()
