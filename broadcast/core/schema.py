"""The show state's JSON Schema, composed from the core's own section (``meta``, in ``schema.json``
beside this file) and the fragments its components ship, with the defaults it names."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from broadcast.core.compiled import Check, compile_schema
from broadcast.core.component import Component, defaults_of
from broadcast.core.text import describe_too_long
from broadcast.errors import GoujiError, plural

if TYPE_CHECKING:
    import jsonschema

SCHEMA_ID = "https://gouji-studio.local/show_state.schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


class StateInvalid(GoujiError):
    """A state that does not match the schema (a bug in a reducer, or a bad action payload)."""

    rule = "schema"


class TextTooLong(StateInvalid):
    """An on-air text longer than its field's ``maxLength`` (counted in characters, as the pages count):
    ``field`` is the state path (``table.seats[2].name``), ``limit`` the maximum, ``value`` the text.
    Its messages name the field and the maximum (:func:`broadcast.core.text.describe_too_long`)."""

    rule = "text.length"

    def __init__(self, field: str, limit: int, value: str) -> None:
        super().__init__("text.length", *describe_too_long(field, limit, value))
        self.field, self.limit, self.value = field, limit, value


class SchemaConflict(GoujiError):
    """Two components claim the same section or the same action type."""

    rule = "component"


@cache
def core_fragment() -> dict[str, Any]:
    text = resources.files("broadcast.core").joinpath("schema.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class StateSchema:
    """The whole state's schema: the core's ``meta`` plus each component's sections, in order."""

    def __init__(self, components: Sequence[Component]) -> None:
        props: dict[str, Any] = dict(core_fragment()["properties"])
        owner = {key: "core" for key in props}
        for comp in components:
            for key, sub in comp.sections.items():
                if key in owner:
                    raise SchemaConflict(
                        "component",
                        f"状态的 {key!r} 部分被 {owner[key]} 和 {comp.name} 同时占用",
                        f"section {key!r} claimed by both {owner[key]} and {comp.name}",
                    )
                owner[key] = comp.name
                props[key] = sub
        self.owner: dict[str, str] = owner
        self.schema: dict[str, Any] = {
            "$schema": DIALECT,
            "$id": SCHEMA_ID,
            "title": "ShowState",
            "description": "Everything the on-air pages receive (and the single source of truth of the "
            "studio). Pages render it and decide nothing.",
            "type": "object",
            "additionalProperties": False,
            "default": {},
            "properties": props,
        }
        # jsonschema's validators, made the first time a state needs one (below): every process that
        # opens a store composes the schema, and checking it against its dialect and importing jsonschema
        # cost ~0.5 s of CPU at each start, while the compiled checks answer every valid state
        # (tests/core/test_schema.py checks the studio's schema against its dialect)
        self._validator: jsonschema.protocols.Validator | None = None
        self._sections: dict[str, jsonschema.protocols.Validator] = {}
        # the fast "valid?" of each section and of the whole state (None: jsonschema alone); a state
        # they refuse is checked again by jsonschema, which names the error (broadcast/core/compiled.py)
        self._fast: dict[str, Check | None] = {key: compile_schema(sub) for key, sub in props.items()}
        self._fast_all = compile_schema(self.schema)
        self._default_json = json.dumps(defaults_of(self.schema), ensure_ascii=False)

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(self.schema["properties"])

    def default_state(self) -> dict[str, Any]:
        """A fresh state holding every default the schema names."""
        state: dict[str, Any] = json.loads(self._default_json)
        return state

    def text_limits(self) -> dict[str, int]:
        """Every text field with a declared maximum: ``{"show.title": 8, "table.seats[].name": 10,
        "sponsors.ticker[]": 60, …}`` (``[]``: every item of a list), in the schema's order."""
        known: dict[str, int] | None = self.__dict__.get("_text_limits")
        if known is None:
            known = self.__dict__["_text_limits"] = text_limits_of(self.schema)
        return dict(known)

    def too_long(self, field: str, value: str, *, shown: str = "") -> TextTooLong | None:
        """The refusal of ``value`` for the text field ``field`` (a :meth:`text_limits` key such as
        ``table.seats[].name``) when it is longer than the field's maximum, else None: for input checked
        before it becomes an action (a dialog, a multi-step job). ``shown``: the field as named in the
        refusal (``table.seats[2].name``), ``field`` by default."""
        limit = self.text_limits().get(field)
        if limit is None or len(value) <= limit:
            return None
        return TextTooLong(shown or field, limit, value)

    @property
    def _cls(self) -> type[jsonschema.protocols.Validator]:
        """jsonschema's validator class for the schema's dialect, the schema checked against it once."""
        cls: type[jsonschema.protocols.Validator] | None = self.__dict__.get("_jsonschema_cls")
        if cls is None:
            import jsonschema

            cls = jsonschema.validators.validator_for(self.schema)
            cls.check_schema(self.schema)
            self.__dict__["_jsonschema_cls"] = cls
        return cls

    def _whole_validator(self) -> jsonschema.protocols.Validator:
        if self._validator is None:
            self._validator = self._cls(self.schema)
        return self._validator

    def _section_validator(self, key: str) -> jsonschema.protocols.Validator:
        v = self._sections.get(key)
        if v is None:
            v = self._sections[key] = self._cls(self.schema["properties"][key])
        return v

    def validate(self, state: dict[str, Any], sections: Iterable[str] | None = None) -> None:
        """Validate the whole state, or only the named top-level sections (the ones an action changed:
        the others were valid before and are the same objects' values)."""
        if sections is None:
            if self._fast_all is not None and self._fast_all(state):
                return
            errors = sorted(self._whole_validator().iter_errors(state), key=lambda e: list(e.absolute_path))
            prefix: list[str] = []
        else:
            known = self.schema["properties"]
            extra = sorted(set(state) - set(known))
            if extra:
                raise StateInvalid(
                    "schema",
                    f"节目状态不合规：未知部分 {', '.join(extra)}",
                    f"show state invalid at (root): unknown {plural(len(extra), 'section')} "
                    f"{', '.join(extra)}",
                )
            errors = []
            for key in sections:
                if key not in state:
                    raise StateInvalid(
                        "schema",
                        f"节目状态不合规：缺少 {key!r} 部分",
                        f"show state invalid at (root): section {key!r} missing",
                    )
                fast = self._fast.get(key)
                if fast is not None and fast(state[key]):
                    continue
                errors = sorted(
                    self._section_validator(key).iter_errors(state[key]), key=lambda e: list(e.absolute_path)
                )
                if errors:
                    prefix = [key]
                    break
        if errors:
            for long in errors:  # an input too long for its box on air: said as such, naming the field
                text, limit = long.instance, long.validator_value
                if long.validator == "maxLength" and isinstance(text, str) and isinstance(limit, int):
                    raise TextTooLong(field_path([*prefix, *long.absolute_path]), limit, text)
            e = errors[0]
            where = "/".join(str(p) for p in [*prefix, *e.absolute_path]) or "(root)"
            raise StateInvalid(
                "schema",
                f"节目状态不合规：{where}：{e.message}",
                f"show state invalid at {where}: {e.message}",
            )


def text_limits_of(schema: Mapping[str, Any]) -> dict[str, int]:
    """Every field of ``schema`` (the composed schema, or one component's fragment) with a ``maxLength``:
    ``{"show.title": 8, "sponsors.ticker[]": 60, …}``, ``[]`` standing for every item of a list."""
    out: dict[str, int] = {}

    def walk(node: Mapping[str, Any], path: str) -> None:
        if "maxLength" in node:
            out[path] = int(node["maxLength"])
        for key, sub in node.get("properties", {}).items():
            walk(sub, f"{path}.{key}" if path else key)
        if isinstance(node.get("items"), Mapping):
            walk(node["items"], f"{path}[]")

    walk(schema, "")
    return out


def field_path(parts: Iterable[str | int]) -> str:
    """A state path as people read it: ``["table", "seats", 2, "name"]`` → ``table.seats[2].name``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(root)"


@cache
def compose(components: tuple[Component, ...]) -> StateSchema:
    """The schema of a set of components (built once per set: validators are costly to build)."""
    return StateSchema(components)
