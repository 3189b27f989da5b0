"""docs/architecture.md states the direction of every import; this test holds the code to it (an AST
walk over engine/ and broadcast/, every import statement: lazy ones inside functions and those made
for type checking included): every import goes the way the table allows, and no modules import each
other round a circle."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Collection, Mapping
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


def _imports(name: str, path: Path, modules: Collection[str]) -> set[str]:
    """Project modules ``name`` imports (``from a import b`` counts as ``a.b`` when that is a module)."""
    return _imports_in(name, path.read_text(encoding="utf-8"), modules, package=path.name == "__init__.py")


@functools.cache
def _import_nodes(source: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement of a module's source, those inside functions and ``if`` blocks too."""
    return tuple(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom))


def _imports_in(name: str, source: str, modules: Collection[str], *, package: bool = False) -> set[str]:
    found: set[str] = set()
    for node in _import_nodes(source):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                pkg = ".".join([*base, *([node.module] if node.module else [])])
            else:
                pkg = node.module or ""
            for a in node.names:
                full = f"{pkg}.{a.name}"
                found.add(full if full in modules else pkg)
    tops = {m.split(".")[0] for m in modules}
    return {m for m in found if m.split(".")[0] in tops}


def _is_cli(module: str) -> bool:
    """A command line of the application (the engine's own CLI stays in the engine's group)."""
    if not module.startswith("broadcast."):
        return False
    last = module.rsplit(".", 1)[-1]
    return last == "cli" or last.endswith("_cli")


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


# both read every module's imports (parsing ~260 files: ~3 CPU-s): on one worker they parse them once
@pytest.mark.xdist_group("import-graph")
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


def test_no_component_package_holds_an_app() -> None:
    """A component's command lines open the studio's store: inside the component's package they would
    be imports from below the studio up to it (they live in broadcast/cli/)."""
    groups = _rules()
    studio = next(g for g in groups if g.name == "studio")
    components = [g for g in groups if g.name in studio.allowed and g.name != "core"]
    assert {g.name for g in components} >= {"show", "game", "sponsors", "season"}
    inside = [
        m
        for m in _modules()
        if _group_of(m, groups).name == "apps"
        and any(m == p or m.startswith(p + ".") for g in components for p in g.prefixes)
    ]
    assert not inside, f"apps inside a component's package (move them to broadcast/cli/): {inside}"


@pytest.mark.parametrize(
    ("module", "target", "ok"),
    [
        ("broadcast.core.store", "broadcast.game.actions", False),  # the core knows no component
        ("broadcast.core.store", "engine.errors", True),
        ("broadcast.core.store", "engine.game", False),
        ("engine.game", "broadcast.core", False),
        ("broadcast.game.actions", "broadcast.studio", False),
        ("broadcast.cli.season", "broadcast.studio", True),  # a command line is an app
        ("broadcast.obs.layout", "broadcast.app", False),  # only apps import apps
        ("broadcast.studio", "broadcast.overlay.server", False),
        ("broadcast.sponsors.placements", "broadcast.show.actions", True),
    ],
)
def test_the_rules_catch_what_they_should(module: str, target: str, ok: bool) -> None:
    groups = _rules()
    assert _allowed(_group_of(module, groups), target, groups) is ok


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Who imports whom among the project's modules."""
    return {
        name: {t for t in _imports(name, path, modules) if t in modules} for name, path in modules.items()
    }


def _circles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """Each set of modules that import each other round a circle (a strongly connected part of the
    graph larger than one module, or a module importing itself), as one circle through it:
    ``[a, b, c]`` for a → b → c → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[set[str]] = []
    for root in sorted(graph):  # Tarjan's algorithm, without recursion
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next((t for t in edges if t in graph), None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    part.add(m)
                    if m == node:
                        break
                if len(part) > 1 or node in graph[node]:
                    parts.append(part)
    return [_one_circle(graph, part) for part in sorted(parts, key=min)]


def _one_circle(graph: Mapping[str, Collection[str]], part: set[str]) -> list[str]:
    """The shortest circle from the first module of ``part`` back to itself, inside ``part``."""
    start = min(part)
    came: dict[str, str] = {}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for t in sorted(graph[node]):
            if t == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return path[::-1]
            if t in part and t not in came:
                came[t] = node
                todo.append(t)
    raise AssertionError(f"no circle through {start}")


# Circles still being taken apart by their owners (issue 21), each named by its modules: the list only
# shrinks — a circle not on it fails, and so does one on it that is gone (take it off the list).
BEING_UNTIED: dict[frozenset[str], str] = {}


# both read every module's imports (parsing ~260 files: ~3 CPU-s): on one worker they parse them once
@pytest.mark.xdist_group("import-graph")
def test_no_modules_import_each_other_round_a_circle() -> None:
    circles = _circles(_graph(_modules()))
    new = [c for c in circles if frozenset(c) not in BEING_UNTIED]
    gone = [why for key, why in BEING_UNTIED.items() if not any(frozenset(c) == key for c in circles)]
    assert not new, "modules that import each other (each line a circle: a → b → … → a):\n" + "\n".join(
        " → ".join([*c, c[0]]) for c in new
    )
    assert not gone, f"untied, take them off BEING_UNTIED: {gone}"


@pytest.mark.parametrize(
    ("sources", "circles"),
    [
        ({"p.a": "import p.b", "p.b": "from p import c", "p.c": "x = 1"}, []),
        ({"p.a": "import p.b", "p.b": "import p.a"}, [["p.a", "p.b"]]),
        ({"p.a": "import p.a"}, [["p.a"]]),
        # an import inside a function is an import too
        ({"p.a": "import p.b", "p.b": "def f():\n    from p.a import x\n    return x"}, [["p.a", "p.b"]]),
        # and one made for type checking only
        (
            {
                "p.a": "from p.b import B",
                "p.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import a",
            },
            [["p.a", "p.b"]],
        ),
        # relative imports, a longer circle, and a module outside it
        (
            {
                "p.a": "from . import b",
                "p.b": "from .c import x",
                "p.c": "from .a import y",
                "p.d": "from . import a",
            },
            [["p.a", "p.b", "p.c"]],
        ),
        # two circles
        (
            {"p.a": "import p.b", "p.b": "import p.a", "p.c": "import p.d", "p.d": "import p.c"},
            [["p.a", "p.b"], ["p.c", "p.d"]],
        ),
    ],
)
def test_the_circle_finder_finds_what_it_should(sources: dict[str, str], circles: list[list[str]]) -> None:
    graph = {n: _imports_in(n, src, sources) & set(sources) for n, src in sources.items()}
    assert _circles(graph) == circles
