"""Components plug into the core: each owns some top-level sections of the show state (its schema
fragment, a JSON file beside its code) and the actions that change them.

    # broadcast/game/actions.py
    COMPONENT = Component("game", schema=resources.files(__package__) / "schema.json")

    @COMPONENT.action("game.play")
    def game_play(state: State, payload: Payload, ctx: Context) -> None: ...

The core knows no component by name: the application composes them
(``ShowStore.open(path, components=[...])``; the studio's set is ``broadcast.studio.open_store``).
Reducers are plain functions; they must be deterministic (time and randomness come from the payload
or ``ctx.ts``) because crash recovery re-runs them from the journal.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
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


class Component:
    """One part of the studio: the state sections it owns and the actions it registers.

    ``schema`` is the component's fragment: a JSON object whose ``properties`` are the top-level
    sections it owns (each a JSON Schema with defaults), given as a file (path or package resource) or
    as the parsed object. A component may own no section (its actions then change others' sections).
    """

    def __init__(self, name: str, *, schema: Traversable | Path | Mapping[str, Any] | None = None) -> None:
        self.name = name
        self._schema_source = schema
        self._actions: dict[str, ActionSpec] = {}

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

    @cached_property
    def fragment(self) -> dict[str, Any]:
        """The schema fragment: ``{"properties": {section: schema, …}, …}``."""
        src = self._schema_source
        if src is None:
            return {"properties": {}}
        if isinstance(src, Mapping):
            data: dict[str, Any] = copy.deepcopy(dict(src))
        else:
            data = json.loads(src.read_text(encoding="utf-8"))
        props = data.get("properties")
        if not isinstance(props, dict):
            raise ValueError(f"component {self.name}: its schema fragment has no 'properties' object")
        return data

    @property
    def sections(self) -> Mapping[str, Any]:
        """The top-level sections this component owns, each with its JSON Schema."""
        props: dict[str, Any] = self.fragment["properties"]
        return props

    def defaults(self, section: str) -> Any:
        """A fresh copy of one owned section's defaults (what a reset puts back)."""
        from broadcast.core.schema import defaults_of

        if section not in self.sections:
            raise KeyError(f"component {self.name} owns no section {section!r}")
        return defaults_of(self.sections[section])
