"""The show state's schema compiled to plain Python checks: the fast "is it valid?" of every dispatch.

``jsonschema`` walks its schema anew for every instance (7–10 ms for the sections a game decision
changes, on this machine); the state's schema is fixed once the components are composed, so it is
compiled here, once, into nested closures that answer only *valid or not* (about 20× faster). They
are exactly as strict as ``jsonschema`` and never decide alone that a state is invalid:

* a keyword this module does not compile (``$ref``, ``anyOf``, ``patternProperties`` …: whatever a
  component may add one day) makes :func:`compile_schema` return ``None`` for that schema, and the
  caller validates it with ``jsonschema`` as before;
* a state the compiled check refuses is validated again with ``jsonschema``, which names the error
  (so the message is the one it always was) — and if ``jsonschema`` finds none, the state is valid.

So the verdict is always ``jsonschema``'s; ``tests/core/test_compiled_schema.py`` holds the two to the
same answers on the composed schema (valid states, and every kind of break of every field).

The semantics are those of draft 2020-12 as ``jsonschema`` implements them: ``integer`` is an ``int``
that is not a ``bool``, or an integral ``float``; ``number`` is any ``int``/``float`` but not a
``bool``; an ``enum`` or ``const`` tells ``True`` from ``1``; ``minLength``/``maxLength`` count code
points; ``pattern`` is ``re.search``; a keyword applies only to the instances of its own type.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# keywords that only describe (no assertion in draft 2020-12 as jsonschema validates by default)
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "readOnly",
        "writeOnly",
        "deprecated",
        "format",  # an annotation unless a format checker is asked for (the store asks for none)
    }
)
_ASSERTIONS = frozenset(
    {
        "type",
        "properties",
        "additionalProperties",
        "required",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "enum",
        "const",
    }
)


def _is_integer(x: Any) -> bool:
    t = type(x)
    if t is int:
        return True
    if t is float:
        return x.is_integer()  # type: ignore[no-any-return]
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    t = type(x)
    if t is int or t is float:
        return True
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": _is_integer,
    "number": _is_number,
}


def _scalar_key(v: Any) -> tuple[str, Any] | None:
    """A hashable key under which two JSON scalars are equal exactly when jsonschema's ``equal`` says
    so (``True`` is not ``1``; ``1`` is ``1.0``); ``None`` for a value that is not a plain scalar."""
    if v is None:
        return ("null", None)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, str):
        return ("str", v)
    if _is_number(v):
        if v != v:  # NaN equals nothing
            return None
        return ("num", v)
    return None


def compile_schema(schema: Any) -> Check | None:
    """A function telling whether an instance is valid against ``schema``, or ``None`` when the
    schema uses something this module does not compile (validate with jsonschema then)."""
    try:
        check = _compile(schema)
    except _NotCompiled:
        return None

    def safe(instance: Any) -> bool:
        try:
            return check(instance)
        except Exception:  # e.g. a complex number compared with a bound: jsonschema decides
            return False

    return safe


class _NotCompiled(Exception):
    pass


def _compile(node: Any) -> Check:
    if node is True:
        return lambda x: True
    if node is False:
        return lambda x: False
    if not isinstance(node, dict):
        raise _NotCompiled(repr(node))
    for key in node:
        if key not in _ASSERTIONS and key not in _ANNOTATIONS and not key.startswith("x-"):
            raise _NotCompiled(key)
    checks: list[Check] = []

    if "type" in node:
        names = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if not names or any(n not in _TYPES for n in names):
            raise _NotCompiled(f"type {node['type']!r}")
        checks.append(_TYPES[names[0]] if len(names) == 1 else _any_of(tuple(_TYPES[n] for n in names)))

    if "enum" in node or "const" in node:
        values = node["enum"] if "enum" in node else [node["const"]]
        if not isinstance(values, list):
            raise _NotCompiled("enum")
        keys = [_scalar_key(v) for v in values]
        if any(k is None for k in keys):
            raise _NotCompiled("enum of non-scalars")
        checks.append(_one_of_values(frozenset(keys)))

    # each group of keywords applies only to instances of its own type
    for applies, group in (
        (_TYPES["object"], _object_checks(node)),
        (_TYPES["array"], _array_checks(node)),
        (_is_number, _number_checks(node)),
        (_TYPES["string"], _string_checks(node)),
    ):
        if group is not None:
            checks.append(_only_for(applies, group))

    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    return _all_of(tuple(checks))


def _any_of(tests: tuple[Check, ...]) -> Check:
    return lambda x: any(t(x) for t in tests)


def _all_of(tests: tuple[Check, ...]) -> Check:
    if len(tests) == 2:
        a, b = tests
        return lambda x: a(x) and b(x)
    return lambda x: all(t(x) for t in tests)


def _one_of_values(allowed: frozenset[tuple[str, Any] | None]) -> Check:
    return lambda x: _scalar_key(x) in allowed


def _only_for(applies: Check, check: Check) -> Check:
    return lambda x: not applies(x) or check(x)


def _object_checks(node: dict[str, Any]) -> Check | None:
    props_schema = node.get("properties", {})
    if not isinstance(props_schema, dict):
        raise _NotCompiled("properties")
    props = {k: _compile(v) for k, v in props_schema.items()}
    required = node.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise _NotCompiled("required")
    required_t = tuple(required)
    extra: Check | None
    extra_forbidden = False
    if "additionalProperties" not in node:
        extra = None
    elif node["additionalProperties"] is False:
        extra, extra_forbidden = None, True
    else:
        extra = _compile(node["additionalProperties"])
    if not props and not required_t and extra is None and not extra_forbidden:
        return None

    def check(obj: dict[str, Any]) -> bool:
        for r in required_t:
            if r not in obj:
                return False
        for key, value in obj.items():
            sub = props.get(key)
            if sub is not None:
                if not sub(value):
                    return False
            elif extra_forbidden:
                return False
            elif extra is not None and not extra(value):
                return False
        return True

    return check


def _array_checks(node: dict[str, Any]) -> Check | None:
    items = _compile(node["items"]) if "items" in node else None
    if "items" in node and not isinstance(node["items"], dict | bool):
        raise _NotCompiled("items")
    lo = node.get("minItems")
    hi = node.get("maxItems")
    for bound in (lo, hi):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise _NotCompiled("minItems/maxItems")
    if items is None and lo is None and hi is None:
        return None

    def check(arr: list[Any]) -> bool:
        n = len(arr)
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            return False
        if items is not None:
            for v in arr:
                if not items(v):
                    return False
        return True

    return check


def _number_checks(node: dict[str, Any]) -> Check | None:
    bounds = []
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if key in node:
            b = node[key]
            if not _is_number(b):
                raise _NotCompiled(key)
            bounds.append((key, b))
    if not bounds:
        return None
    lo = node.get("minimum")
    hi = node.get("maximum")
    xlo = node.get("exclusiveMinimum")
    xhi = node.get("exclusiveMaximum")

    def check(x: Any) -> bool:
        if lo is not None and x < lo:
            return False
        if hi is not None and x > hi:
            return False
        if xlo is not None and x <= xlo:
            return False
        return not (xhi is not None and x >= xhi)

    return check


def _string_checks(node: dict[str, Any]) -> Check | None:
    lo = node.get("minLength")
    hi = node.get("maxLength")
    for bound in (lo, hi):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise _NotCompiled("minLength/maxLength")
    pattern = node.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        raise _NotCompiled("pattern")
    search = re.compile(pattern).search if pattern is not None else None
    if lo is None and hi is None and search is None:
        return None

    def check(s: str) -> bool:
        n = len(s)
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            return False
        return search is None or search(s) is not None

    return check
