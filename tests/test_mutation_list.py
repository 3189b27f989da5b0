"""The mutation list follows the code (scripts/mutation.py): every mutant's piece of code is still in its
file, at the occurrence it names, and every test it names still exists — else a full run reports the
mutant *stale* and the behaviour it stood for goes unchecked (seven had gone stale unnoticed when the
engine's rules and the as-run chain were split into new files)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _mutation() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gouji_mutation_list", ROOT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is made
    spec.loader.exec_module(mod)
    return mod


def test_every_mutant_names_code_that_is_there_and_tests_that_exist() -> None:
    m = _mutation()
    names = [x.name for x in m.MUTANTS]
    assert len(names) == len(set(names)), "two mutants share a name"
    stale, gone = [], []
    for x in m.MUTANTS:
        text = (ROOT / x.file).read_text(encoding="utf-8")
        mutated = m._apply(text, x)
        if mutated is None or mutated == text:
            stale.append(f"{x.name}: {x.file} no longer holds {x.old!r}")
        for t in x.tests:
            path, _, node = t.partition("::")
            if not (ROOT / path).exists():
                gone.append(f"{x.name}: {path}")
            elif node:
                func = re.sub(r"\[.*\]$", "", node.split("::")[-1])
                if not re.search(rf"^\s*(async )?def {re.escape(func)}\(", (ROOT / path).read_text(), re.M):
                    gone.append(f"{x.name}: {t}")
    assert stale == [] and gone == []


def test_a_mutant_whose_code_has_moved_is_reported_stale() -> None:
    m = _mutation()
    x = m.Mutant("moved", "engine/rules.py", "this text is in no file", "x", ("tests/engine",), "nothing")
    assert m._apply("some code", x) is None
    assert m._apply("a this text is in no file b", x) == "a x b"
