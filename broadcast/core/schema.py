"""The show state's JSON Schema (``broadcast/schema/show_state.schema.json``) and its defaults."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "show_state.schema.json"

GRAPHICS = (
    "scoreboard",
    "leaderboard",
    "jiugongge",
    "corner_bug",
    "bumper",
    "ticker",
    "credits",
    "commentary",
    "lower_third",
    "jipaiqi",
)
BUSES = ("preview", "program")


class StateInvalid(Exception):
    """A state that does not match the schema (a bug in a reducer, or a bad action payload)."""


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    v: jsonschema.protocols.Validator = cls(schema())
    return v


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


@cache
def _default_state_json() -> str:
    return json.dumps(_defaults(schema()), ensure_ascii=False)


def default_state() -> dict[str, Any]:
    """A fresh state holding every default the schema names."""
    state: dict[str, Any] = json.loads(_default_state_json())
    return state


@cache
def _section_validator(key: str) -> jsonschema.protocols.Validator:
    sub = schema()["properties"][key]
    cls = jsonschema.validators.validator_for(schema())
    v: jsonschema.protocols.Validator = cls(sub)
    return v


def validate(state: dict[str, Any], sections: Iterable[str] | None = None) -> None:
    """Validate the whole state, or only the named top-level sections (the ones an action changed:
    the others were valid before and are the same objects' values)."""
    if sections is None:
        errors = sorted(_validator().iter_errors(state), key=lambda e: list(e.absolute_path))
        prefix: list[str] = []
    else:
        known = schema()["properties"]
        extra = sorted(set(state) - set(known))
        if extra:
            raise StateInvalid(f"show state invalid at (root): unknown section(s) {', '.join(extra)}")
        errors = []
        for key in sections:
            if key not in state:
                raise StateInvalid(f"show state invalid at (root): section {key!r} missing")
            errors = sorted(
                _section_validator(key).iter_errors(state[key]), key=lambda e: list(e.absolute_path)
            )
            if errors:
                prefix = [key]
                break
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in [*prefix, *e.absolute_path]) or "(root)"
        raise StateInvalid(f"show state invalid at {where}: {e.message}")
