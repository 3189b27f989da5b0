"""Components plug into the core: each owns some top-level sections of the show state (its schema
fragment, a JSON file beside its code) and the actions that change them.

    # broadcast/game/record.py: a table of reducers, filled where they are written
    ACTIONS = Actions()

    @ACTIONS.action("game.undo")
    def game_undo(state: State, payload: Payload, ctx: Context) -> None: ...

    # broadcast/game/component.py: the component names its sections and every table of its actions
    COMPONENT = Component("game", schema=SCHEMA, actions=(actions.ACTIONS, match.ACTIONS, record.ACTIONS))

Nothing registers by being imported: a component is given its tables by name (a component of one
module may decorate with ``@COMPONENT.action`` in that module). The core knows no component by name:
the application composes them
(``ShowStore.open(path, components=[...])``; the studio's set is ``broadcast.studio.open_store``).
Reducers are plain functions; they must be deterministic (time and randomness come from the payload
or ``ctx.ts``) because crash recovery re-runs them from the journal.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

State = dict[str, Any]
Payload = dict[str, Any]


@dataclass
class Context:
    """What a reducer may use besides the state and the payload."""

    ts: float
    seq: int
    replaying: bool
    runtime: dict[str, Any]  # non-serialisable helpers rebuilt by replay (e.g. the engine's Game)
    source: str = "console"


Reducer = Callable[[State, Payload, Context], None]


@dataclass(frozen=True)
class ActionSpec:
    type: str
    reducer: Reducer
    component: str = ""
    doc: str = ""


class Actions:
    """A table of reducers by action type, filled by decorating them (``@ACTIONS.action("game.undo")``)
    and handed to a :class:`Component` by name."""

    def __init__(self) -> None:
        self._reducers: dict[str, Reducer] = {}

    def action(self, type_: str) -> Callable[[Reducer], Reducer]:
        """Add a reducer for an action type (refused if the type is in the table already)."""

        def deco(fn: Reducer) -> Reducer:
            old = self._reducers.get(type_)
            if old is not None and old is not fn:
                raise RuntimeError(f"action {type_!r} written twice")
            self._reducers[type_] = fn
            return fn

        return deco

    def items(self) -> list[tuple[str, Reducer]]:
        return list(self._reducers.items())


class Fragment:
    """A component's schema fragment: a JSON object whose ``properties`` are the top-level sections it
    owns (each a JSON Schema with defaults), given as a file (path or package resource) or as the parsed
    object; read once, when first used. A component's reducers take its defaults from here (what a
    reset puts back), so they need not import the component that composes them."""

    def __init__(self, source: Traversable | Path | Mapping[str, Any] | None = None) -> None:
        self._source = source

    @cached_property
    def data(self) -> dict[str, Any]:
        """The fragment: ``{"properties": {section: schema, …}, …}``."""
        src = self._source
        if src is None:
            return {"properties": {}}
        if isinstance(src, Mapping):
            data: dict[str, Any] = copy.deepcopy(dict(src))
        else:
            data = json.loads(src.read_text(encoding="utf-8"))
        props = data.get("properties")
        if not isinstance(props, dict):
            raise ValueError(f"the schema fragment {self._where()} has no 'properties' object")
        return data

    def _where(self) -> str:
        return "given as an object" if isinstance(self._source, Mapping) else str(self._source)

    @property
    def sections(self) -> Mapping[str, Any]:
        """The top-level sections, each with its JSON Schema."""
        props: dict[str, Any] = self.data["properties"]
        return props

    def defaults(self, section: str) -> Any:
        """A fresh copy of one section's defaults (what a reset puts back)."""
        if section not in self.sections:
            raise KeyError(f"the schema fragment {self._where()} has no section {section!r}")
        return defaults_of(self.sections[section])


class Component:
    """One part of the studio: the state sections it owns and the actions it registers.

    ``schema`` is the component's :class:`Fragment` (or what one is made of: a file, a package resource
    or the parsed object). A component may own no section (its actions then change others' sections).
    ``actions`` are the tables of its reducers (:class:`Actions`), named where the component is composed.
    """

    def __init__(
        self,
        name: str,
        *,
        schema: Fragment | Traversable | Path | Mapping[str, Any] | None = None,
        actions: Iterable[Actions] = (),
    ) -> None:
        self.name = name
        self._schema = schema if isinstance(schema, Fragment) else Fragment(schema)
        self._actions: dict[str, ActionSpec] = {}
        for table in actions:
            for type_, fn in table.items():
                self.action(type_)(fn)

    def __repr__(self) -> str:
        return f"Component({self.name!r}, sections={list(self.sections)}, actions={len(self._actions)})"

    def action(self, type_: str) -> Callable[[Reducer], Reducer]:
        """Register a reducer for an action type: ``@COMPONENT.action("graphic.take")``."""

        def deco(fn: Reducer) -> Reducer:
            old = self._actions.get(type_)
            if old is not None and old.reducer is not fn:
                raise RuntimeError(f"component {self.name}: action {type_!r} registered twice")
            self._actions[type_] = ActionSpec(type_, fn, self.name, (fn.__doc__ or "").strip())
            return fn

        return deco

    @property
    def actions(self) -> Mapping[str, ActionSpec]:
        return dict(self._actions)

    @property
    def fragment(self) -> dict[str, Any]:
        """The schema fragment: ``{"properties": {section: schema, …}, …}``."""
        return self._schema.data

    @property
    def sections(self) -> Mapping[str, Any]:
        """The top-level sections this component owns, each with its JSON Schema."""
        return self._schema.sections

    def defaults(self, section: str) -> Any:
        """A fresh copy of one owned section's defaults (what a reset puts back)."""
        return self._schema.defaults(section)


def defaults_of(node: dict[str, Any]) -> Any:
    """The default value a (sub)schema names, objects filled in from their properties' defaults."""
    val = _defaults(node)
    return None if val is _MISSING else val


def _defaults(node: dict[str, Any]) -> Any:
    if node.get("type") == "object" and "properties" in node:
        base = copy.deepcopy(node.get("default", {}))
        for key, sub in node["properties"].items():
            if key not in base:
                val = _defaults(sub)
                if val is not _MISSING:
                    base[key] = val
        return base
    if "default" in node:
        return copy.deepcopy(node["default"])
    return _MISSING


_MISSING = object()
