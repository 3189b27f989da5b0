"""The compiled schema checks (broadcast/core/compiled.py) answer exactly as jsonschema does.

The store's validation takes the compiled check's "valid" and asks jsonschema whenever it says
"invalid" (for the error's words), so a compiled check that accepted what jsonschema refuses would let
a broken state be journaled and sent to the pages. These tests hold the two to the same verdict on the
studio's composed schema: its default state and a state from a played game, then every field of them
broken in every way (a value of each other JSON type, out of range, too long, an unknown key, a key
taken out), and the keyword semantics one by one.
"""

from __future__ import annotations

import copy
import functools
import math
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
from broadcast import studio
from broadcast.core import schema
from broadcast.core.compiled import compile_schema
from broadcast.studio import open_store

PROBES: list[Any] = [None, True, False, 0, -1, 2.5, 3.0, 10**9, "", "x" * 300, [], [None], {}, {"zz": 1}]


def _mutations(value: Any) -> Iterator[Any]:
    """``value`` broken at every place, one place at a time (each a fresh copy)."""
    for probe in PROBES:
        if probe is not value:
            yield copy.deepcopy(probe)
    if isinstance(value, dict):
        yield {**copy.deepcopy(value), "unknown_field": 1}
        for key in value:
            rest = copy.deepcopy(value)
            del rest[key]
            yield rest
            for sub in _mutations(value[key]):
                out = copy.deepcopy(value)
                out[key] = sub
                yield out
    elif isinstance(value, list) and value:
        yield [*copy.deepcopy(value), copy.deepcopy(value[-1])] * 20  # past any maxItems
        yield []
        for sub in _mutations(value[0]):
            out = copy.deepcopy(value)
            out[0] = sub
            yield out


@functools.cache
def _played() -> dict[str, Any]:
    """A state from a played game: built once for the module's 16 sections (each test takes a copy)."""
    with tempfile.TemporaryDirectory(prefix="played-") as tmp:
        return _played_state(Path(tmp))


def _played_state(tmp_path: Path) -> dict[str, Any]:
    store = open_store(tmp_path / "played.sqlite")
    try:
        store.dispatch(
            "match.new",
            {"teams": {"odd": {"name": "甲队"}, "even": {"name": "乙队"}}, "names": list("甲乙丙丁戊己")},
        )
        g = engine.new_game("tv_match", seed=5)
        engine.random_playout(g, seed=5)
        store.dispatch("game.new", {"leader": g.leader})
        for a in g.moves[:40]:
            store.dispatch("game.play", {"line": str(a)})
        store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard", "on": True})
        return copy.deepcopy(store.state)
    finally:
        store.close()


def test_every_section_of_the_studio_schema_is_compiled() -> None:
    sch = studio.state_schema()
    for key, sub in sch.schema["properties"].items():
        assert compile_schema(sub) is not None, key
    assert compile_schema(sch.schema) is not None


@pytest.mark.parametrize("section", studio.state_schema().sections)
def test_compiled_check_and_jsonschema_agree_on_every_broken_field(section: str) -> None:
    sch = studio.state_schema()
    sub = sch.schema["properties"][section]
    fast = compile_schema(sub)
    assert fast is not None
    slow = jsonschema.validators.validator_for(sch.schema)(sub)
    bases = [studio.default_state()[section], copy.deepcopy(_played()[section])]
    checked = refused = 0
    for base in bases:
        assert fast(base) and slow.is_valid(base)
        for broken in _mutations(base):
            want = slow.is_valid(broken)
            assert fast(broken) == want, (section, broken)
            checked += 1
            refused += not want
    assert refused > 0 and checked > refused  # the mutations do break the schema (and not always)


def test_the_store_refuses_the_same_states_with_the_same_words(tmp_path: Any) -> None:
    """What validation says of a broken state is jsonschema's first error, as before."""
    sch = studio.state_schema()
    cls = jsonschema.validators.validator_for(sch.schema)
    st = studio.default_state()
    for path, bad in (
        (("table", "seats", 0, "cards_left"), 99),
        (("table", "seats", 2, "status"), "dancing"),
        (("graphics", "program", "scoreboard", "on"), 1),
        (("show", "episode"), None),
    ):
        broken = copy.deepcopy(st)
        node = broken
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = bad
        errors = sorted(cls(sch.schema).iter_errors(broken), key=lambda e: list(e.absolute_path))
        want = errors[0]
        where = "/".join(str(p) for p in want.absolute_path)
        for sections in (None, [path[0]]):
            with pytest.raises(schema.StateInvalid) as info:
                sch.validate(broken, sections)
            assert info.value.en == f"show state invalid at {where}: {want.message}"


@pytest.mark.parametrize(
    ("node", "good", "bad"),
    [
        ({"type": "integer"}, [0, -3, 2.0, 10**30], [True, 2.5, "1", None, math.inf]),
        ({"type": "number"}, [0, 2.5, -1e300], [True, False, "1", None, [1]]),
        ({"type": "boolean"}, [True, False], [0, 1, None, "true"]),
        ({"type": ["string", "null"]}, ["", None], [0, False, []]),
        ({"type": "array"}, [[]], [(), {}, ""]),
        ({"enum": [1, "a", None]}, [1, 1.0, "a", None], [True, "A", 2, [1]]),
        ({"enum": [True]}, [True], [1, 1.0, "True"]),
        ({"const": 0}, [0, 0.0], [False, None, ""]),
        ({"minimum": 0, "maximum": 36}, [0, 36, 2.5, "x", None, True], [-1, 37, 36.5]),
        ({"exclusiveMinimum": 0, "exclusiveMaximum": 2}, [1, 1.5, "z"], [0, 2, -1]),
        ({"maxLength": 3, "minLength": 1}, ["王建军", "a", 12345], ["", "王建军啊"]),
        ({"pattern": "^#[0-9a-f]{6}$"}, ["#00ff00", 7], ["#00FF00", "x#00ff00"]),
        (
            {"maxItems": 2, "minItems": 1, "items": {"type": "integer"}},
            [[1], [1, 2], "s"],
            [[], [1, 2, 3], ["1"]],
        ),
        (
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            [{"a": 1}, {"a": 1, "b": "anything"}],
            [{}, {"a": "1"}, {"b": 1}, []],
        ),
        (
            {"properties": {"a": {}}, "additionalProperties": False},
            [{}, {"a": [1]}, 5],
            [{"b": 1}],
        ),
        (
            {"additionalProperties": {"type": "string"}},
            [{"x": "y"}, {}],
            [{"x": 1}],
        ),
    ],
)
def test_keyword_semantics_are_jsonschema_s(node: dict[str, Any], good: list[Any], bad: list[Any]) -> None:
    fast = compile_schema(node)
    assert fast is not None
    slow = jsonschema.Draft202012Validator(node)
    for value in good:
        assert slow.is_valid(value) and fast(value), value
    for value in bad:
        assert not slow.is_valid(value) and not fast(value), value


@pytest.mark.parametrize(
    "node",
    [
        {"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}},
        {"anyOf": [{"type": "string"}]},
        {"properties": {"a": {"patternProperties": {"^x": {"type": "string"}}}}},
        {"type": "object", "unevaluatedProperties": False},
        {"items": {"prefixItems": [{"type": "string"}]}},
        {"enum": [[1, 2]]},
    ],
)
def test_a_keyword_it_does_not_compile_leaves_the_schema_to_jsonschema(node: dict[str, Any]) -> None:
    assert compile_schema(node) is None


def test_a_component_using_an_uncompiled_keyword_is_still_validated(tmp_path: Any) -> None:
    """A section whose schema the compiler leaves alone is validated by jsonschema as before."""
    from broadcast.core import Component, ShowStore

    comp = Component(
        "odd",
        schema={
            "properties": {
                "odd": {
                    "type": "object",
                    "default": {"v": "a"},
                    "properties": {"v": {"anyOf": [{"type": "string", "maxLength": 2}]}},
                }
            }
        },
    )

    @comp.action("odd.set")
    def _set(state: Any, payload: Any, ctx: Any) -> None:
        state["odd"]["v"] = payload["v"]

    store = ShowStore.open(tmp_path / "odd.sqlite", components=[comp])
    try:
        store.dispatch("odd.set", {"v": "ok"})
        with pytest.raises(schema.StateInvalid, match="odd/v"):
            store.dispatch("odd.set", {"v": "too long"})
        assert store.state["odd"]["v"] == "ok" and store.journal.last_seq() == 1
    finally:
        store.close()


def _bounded(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema of ``node`` carrying a length or number bound, with where it is."""
    if isinstance(node, dict):
        if any(k in node for k in ("maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems")):
            yield path, node
        for key, sub in node.items():
            if key in ("properties",) and isinstance(sub, dict):
                for name, s in sub.items():
                    yield from _bounded(s, f"{path}/{name}")
            elif key in ("items", "additionalProperties"):
                yield from _bounded(sub, f"{path}/{key}")


def test_every_bound_of_the_studio_schema_agrees_at_and_past_its_edge() -> None:
    """Each maxLength/minLength/maximum/minimum/maxItems/minItems of the composed schema (the on-air text
    maxima among them), at the bound and one past it, on both sides: the compiled check's verdict is
    jsonschema's."""
    sch = studio.state_schema()
    edges = 0
    for where, node in _bounded(sch.schema):
        fast = compile_schema(node)
        assert fast is not None, where
        slow = jsonschema.Draft202012Validator(node)
        values: list[Any] = []
        for key, make in (
            ("maxLength", lambda n: ["字" * n, "字" * (n + 1), "a" * n + "\u0301"]),
            ("minLength", lambda n: ["x" * n, "x" * max(0, n - 1)]),
            ("maximum", lambda n: [n, n + 1, n + 0.5]),
            ("minimum", lambda n: [n, n - 1, n - 0.5]),
            ("maxItems", lambda n: [[None] * n, [None] * (n + 1)]),
            ("minItems", lambda n: [[None] * n, [None] * max(0, n - 1)]),
        ):
            if key in node:
                values += make(node[key])
        for value in values:
            assert fast(value) == slow.is_valid(value), (where, value)
            edges += 1
    assert edges > 20
