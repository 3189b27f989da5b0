"""docs/architecture.md states the direction of every import; this test holds the code to it (an AST
walk over engine/ and broadcast/, every import statement, lazy ones inside functions included)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


@dataclass(frozen=True)
class Group:
    name: str
    prefixes: tuple[str, ...]
    allowed: frozenset[str]  # group names, "*" for any; may also hold module prefixes (engine.errors)


def _rules() -> list[Group]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## The import rules", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    lines = [ln for ln in block.strip().splitlines()[1:] if ln.strip()]
    groups = []
    for ln in lines:
        name, rest = ln.split(None, 1)
        parts = re.split(r"\s{3,}", rest.strip())
        modules, allowed = parts[0].split(), (parts[1].split() if len(parts) > 1 else [])
        groups.append(Group(name, tuple(modules), frozenset(a for a in allowed if a != "-")))
    return groups


def _modules() -> dict[str, Path]:
    out = {}
    for top in ("engine", "broadcast"):
        for p in (ROOT / top).rglob("*.py"):
            parts = p.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = p
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Project modules ``name`` imports (``from a import b`` counts as ``a.b`` when that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                pkg = ".".join([*base, *([node.module] if node.module else [])])
            else:
                pkg = node.module or ""
            for a in node.names:
                full = f"{pkg}.{a.name}"
                found.add(full if full in modules else pkg)
    return {m for m in found if m.split(".")[0] in ("engine", "broadcast")}


def _is_cli(module: str) -> bool:
    """A command line of the application (the engine's own CLI stays in the engine's group)."""
    if not module.startswith("broadcast."):
        return False
    last = module.rsplit(".", 1)[-1]
    return last in ("cli", "clitools") or last.endswith("_cli")


def _group_of(module: str, groups: list[Group]) -> Group:
    apps = next(g for g in groups if g.name == "apps")
    if _is_cli(module) or any(module == p or module.startswith(p + ".") for p in apps.prefixes):
        return apps
    for g in groups:
        if any(module == p or module.startswith(p + ".") for p in g.prefixes):
            return g
    raise AssertionError(f"{module} belongs to no group of docs/architecture.md: add it to the table")


def _allowed(src: Group, target: str, groups: list[Group]) -> bool:
    dst = _group_of(target, groups)
    if dst.name == "apps":
        return src.name == "apps"
    if "*" in src.allowed or dst.name == src.name or dst.name in src.allowed:
        return True
    return any(target == p or target.startswith(p + ".") for p in src.allowed if "." in p)


def test_every_import_goes_the_way_docs_architecture_md_says() -> None:
    groups = _rules()
    assert {g.name for g in groups} >= {"engine", "core", "studio", "apps"}
    modules = _modules()
    wrong = []
    for name, path in sorted(modules.items()):
        src = _group_of(name, groups)
        for target in sorted(_imports(name, path, modules)):
            if not _allowed(src, target, groups):
                wrong.append(f"{path.relative_to(ROOT)}: {name} ({src.name}) imports {target}")
    assert not wrong, "imports against docs/architecture.md:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "target", "ok"),
    [
        ("broadcast.core.store", "broadcast.game.actions", False),  # the core knows no component
        ("broadcast.core.store", "engine.errors", True),
        ("broadcast.core.store", "engine.game", False),
        ("engine.game", "broadcast.core", False),
        ("broadcast.game.actions", "broadcast.studio", False),
        ("broadcast.season.cli", "broadcast.studio", True),  # a command line is an app
        ("broadcast.obs.layout", "broadcast.app", False),  # only apps import apps
        ("broadcast.studio", "broadcast.overlay.server", False),
        ("broadcast.sponsors.placements", "broadcast.show.actions", True),
    ],
)
def test_the_rules_catch_what_they_should(module: str, target: str, ok: bool) -> None:
    groups = _rules()
    assert _allowed(_group_of(module, groups), target, groups) is ok
