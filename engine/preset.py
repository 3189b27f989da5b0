"""Rule presets (docs/rules.md: `tv_match`, `dagang`) loaded from YAML data files.

Every key is checked against :data:`SCHEMA`; an unknown, duplicated, missing or mistyped key raises
:class:`PresetError` naming ``file:line`` (taken from the YAML node marks of :mod:`engine.yamlread`, the
project's one YAML reader). The shipped presets are package data: ``engine/presets/`` beside this module,
in a source tree and in an installed wheel alike (``importlib.resources`` cost every process ~10 ms to
import, for the same folder).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import GoujiError
from .yamlread import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    YamlError,
    as_bool,
    as_int,
    compose,
    decode,
    read,
)

PRESET_DIR = Path(__file__).resolve().parent / "presets"
PRESETS = PRESET_DIR


class PresetError(GoujiError, ValueError):
    """A preset file that cannot be used: ``PresetError(filename, line, message)``; ``str()`` is
    ``filename:line: message`` (rule ``preset``; the messages are English)."""

    rule = "preset"
    show_rule = False

    def __init__(self, filename: str, line: int, message: str) -> None:
        self.filename = filename
        self.line = line
        self.message = message
        super().__init__("preset", message, message, where=f"{filename}:{line}")


@dataclass(frozen=True)
class Preset:
    name: str
    gouji_min_twos: int = 1
    bie_san: bool = False
    revolution: bool = False
    scoring: str = "tv_match"
    title_points: tuple[int, ...] = (7, 5, 4, 3, 2, 1)
    quan_san_points: int = 32
    opening_scored: bool = False
    tributes: bool = False
    da_dian: bool = False
    first_leader: str = "shang_ban"
    report_max: int = 10
    match_games: int = 3
    penalty_points: int = 2
    source: str = "<default>"


# key -> (type tag, allowed values or None, clause)
SCHEMA: dict[str, tuple[str, tuple[Any, ...] | None, str]] = {
    "name": ("str", None, "-"),
    "gouji_min_twos": ("int", (1, 2), "G6.1"),
    "bie_san": ("bool", None, "G9"),
    "revolution": ("bool", None, "G10.5"),
    "scoring": ("str", ("tv_match", "dagang"), "G11"),
    "title_points": ("int6", None, "G11"),
    "quan_san_points": ("int", None, "G11"),
    "opening_scored": ("bool", (False,), "G6.5"),
    "tributes": ("bool", (False,), "G11.4"),
    "da_dian": ("bool", (False,), "G11.4"),
    "first_leader": ("str", ("shang_ban", "previous_da_luo"), "G12"),
    "report_max": ("int", None, "G5.6"),
    "match_games": ("int", None, "G11.2"),
    "penalty_points": ("int", None, "G11.2"),
}
_UNSUPPORTED = {
    "tributes": "tributes (G11.4) are not supported yet: set tributes: false",
    "da_dian": "da dian (G11.4) is not supported yet: set da_dian: false",
    "opening_scored": "opening scoring (G6.5/G11.4) comes with da dian and is not supported yet: set false",
}


def _scalar(node: Node, kind: str, filename: str, key: str) -> Any:
    line = node.start_mark.line + 1
    if not isinstance(node, ScalarNode):
        raise PresetError(filename, line, f"{key}: expected a {kind}, got a {type(node).__name__}")
    val = node.value
    if kind == "bool":
        flag = as_bool(node)
        if flag is None:
            raise PresetError(filename, line, f"{key}: expected true or false, got {val!r}")
        return flag
    if kind == "int":
        number = as_int(node)
        if number is None:
            raise PresetError(filename, line, f"{key}: expected an integer, got {val[:40]!r}")
        return number
    if node.tag != "tag:yaml.org,2002:str":
        raise PresetError(filename, line, f"{key}: expected a string, got {val!r}")
    return val


def parse_preset(text: str, filename: str = "<string>") -> Preset:
    try:
        root = compose(text, filename)
    except YamlError as e:
        raise PresetError(filename, e.line, f"{e.zh} / {e.en}") from None
    if root is None or not isinstance(root, MappingNode):
        line = root.start_mark.line + 1 if root is not None else 1
        raise PresetError(filename, line, "a preset is a mapping of keys to values")
    values: dict[str, Any] = {}
    for knode, vnode in root.value:
        line = knode.start_mark.line + 1
        if not isinstance(knode, ScalarNode):
            raise PresetError(filename, line, "keys must be plain names")
        key = knode.value
        if key not in SCHEMA:
            close = [k for k in SCHEMA if k.replace("_", "") == key.replace("_", "").lower()]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise PresetError(filename, line, f"unknown key {key!r}{hint}")
        if key in values:
            raise PresetError(filename, line, f"duplicate key {key!r}")
        kind, allowed, clause = SCHEMA[key]
        vline = vnode.start_mark.line + 1
        if kind == "int6":
            if not isinstance(vnode, SequenceNode) or len(vnode.value) != 6:
                raise PresetError(filename, vline, f"{key}: expected a list of 6 integers")
            value: Any = tuple(_scalar(n, "int", filename, key) for n in vnode.value)
        else:
            value = _scalar(vnode, kind, filename, key)
        if allowed is not None and value not in allowed:
            if key in _UNSUPPORTED:
                raise PresetError(filename, vline, f"{key}: {_UNSUPPORTED[key]}")
            raise PresetError(
                filename, vline, f"{key} ({clause}): {value!r} is not one of {', '.join(map(repr, allowed))}"
            )
        values[key] = value
    for key in SCHEMA:
        if key not in values:
            raise PresetError(filename, root.end_mark.line + 1, f"missing key {key!r}")
    return Preset(source=filename, **values)


#: shipped presets by name, parsed once per process (a Preset is immutable)
_SHIPPED: dict[str, Preset] = {}


def preset_names() -> tuple[str, ...]:
    """The presets shipped with the engine (``engine/presets/*.yaml``), sorted."""
    return tuple(sorted(f.name[: -len(".yaml")] for f in PRESETS.iterdir() if f.name.endswith(".yaml")))


def load_preset(name_or_path: str | Path) -> Preset:
    """Load ``tv_match``, ``dagang`` (shipped in engine/presets/) or a YAML file by path.

    A shipped preset is read and validated once per process and the same immutable object is returned
    afterwards (YAML parsing would otherwise dominate the cost of a self-played game); a path is read
    every time.
    """
    s = str(name_or_path)
    if isinstance(name_or_path, str) and "/" not in s and not s.endswith((".yaml", ".yml")):
        cached = _SHIPPED.get(s)
        if cached is not None:
            return cached
        if s not in preset_names():
            raise PresetError(s, 0, f"no preset named {s!r} (known: {', '.join(preset_names())})")
        _SHIPPED[s] = preset = _read_preset(f"engine/presets/{s}.yaml", (PRESETS / f"{s}.yaml").read_bytes())
        return preset
    try:
        raw = read(s)  # over the size limit: refused before it is read
    except OSError as e:
        raise PresetError(s, 0, f"cannot read preset: {e.strerror}") from None
    except YamlError as e:
        raise PresetError(s, e.line, f"{e.zh} / {e.en}") from None
    return _read_preset(s, raw)


def _read_preset(shown: str, raw: bytes) -> Preset:
    try:
        text = decode(raw, shown)
    except YamlError as e:
        raise PresetError(shown, e.line, f"{e.zh} / {e.en}") from None
    return parse_preset(text, shown)
