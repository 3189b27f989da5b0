"""Rule presets (RULES.md: `tv_match`, `dagang`) loaded from YAML data files.

Every key is checked against :data:`SCHEMA`; an unknown, duplicated, missing or mistyped key raises
:class:`PresetError` naming ``file:line`` (taken from the YAML node marks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

PRESET_DIR = Path(__file__).resolve().parent / "presets"


class PresetError(ValueError):
    def __init__(self, filename: str, line: int, message: str) -> None:
        super().__init__(f"{filename}:{line}: {message}")
        self.filename = filename
        self.line = line
        self.message = message


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
    "tributes": "tributes (点贡/烧贡/闷贡/落贡, G11.4) are not supported yet: set tributes: false",
    "da_dian": "打点 (G11.4) is not supported yet: set da_dian: false",
    "opening_scored": "开点 scoring (G6.5/G11.4) comes with 打点 and is not supported yet: set false",
}


def _scalar(node: yaml.Node, kind: str, filename: str, key: str) -> Any:
    line = node.start_mark.line + 1
    if not isinstance(node, yaml.ScalarNode):
        raise PresetError(filename, line, f"{key}: expected a {kind}, got a {type(node).__name__}")
    tag = node.tag
    val = node.value
    if kind == "bool":
        if tag != "tag:yaml.org,2002:bool":
            raise PresetError(filename, line, f"{key}: expected true or false, got {val!r}")
        return val.lower() in ("true", "yes", "on")
    if kind == "int":
        if tag != "tag:yaml.org,2002:int":
            raise PresetError(filename, line, f"{key}: expected an integer, got {val!r}")
        return int(val)
    if tag != "tag:yaml.org,2002:str":
        raise PresetError(filename, line, f"{key}: expected a string, got {val!r}")
    return val


def parse_preset(text: str, filename: str = "<string>") -> Preset:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 1
        raise PresetError(filename, line, f"YAML syntax: {e.problem or e}") from None
    except yaml.YAMLError as e:  # pragma: no cover - defensive
        raise PresetError(filename, 1, f"YAML: {e}") from None
    if root is None or not isinstance(root, yaml.MappingNode):
        line = root.start_mark.line + 1 if root is not None else 1
        raise PresetError(filename, line, "a preset is a mapping of keys to values")
    values: dict[str, Any] = {}
    for knode, vnode in root.value:
        line = knode.start_mark.line + 1
        if not isinstance(knode, yaml.ScalarNode):
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
            if not isinstance(vnode, yaml.SequenceNode) or len(vnode.value) != 6:
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
        path = PRESET_DIR / f"{s}.yaml"
        if not path.exists():
            raise PresetError(s, 0, f"no preset named {s!r} (known: tv_match, dagang)")
        _SHIPPED[s] = preset = _read_preset(path)
        return preset
    return _read_preset(Path(s))


def _read_preset(path: Path) -> Preset:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PresetError(str(path), 0, f"cannot read preset: {e.strerror}") from None
    return parse_preset(text, str(path))
