"""The repository stands on its own: every rule clause the code, the tests and the docs cite is in the
project's own rules reference (docs/rules.md), and nothing cites a document a reader of the repository
does not have (the shared rule, sponsorship and OBS notes the project was started from)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
CLAUSE = re.compile(r"\bG(1[0-2]|[1-9])(?:\.(\d+))?\b")
OUTSIDE = re.compile(r"RULES\.md|SPONSORSHIP\.md|OBS_HEADLESS\.md|QT_HEADLESS\.md|shared/(?:seeds|design)")
SCANNED = ("engine", "broadcast", "tests", "docs", "overlays", "scripts", "benchmarks", "sponsor_assets")
SUFFIXES = {
    ".py",
    ".md",
    ".js",
    ".yaml",
    ".yml",
    ".json",
    ".html",
    ".css",
    ".gjn",
    ".sh",
    ".j2",
    ".ts",
    ".txt",
}


def _files() -> list[Path]:
    out = [ROOT / "README.md"]
    for top in SCANNED:
        out += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    return [p for p in out if p != RULES and "__pycache__" not in p.parts]


def defined(text: str) -> set[str]:
    """The clause ids docs/rules.md defines: its sections (``## G4 …``) and clauses (``**G4.4**``, and
    the clauses G8 states as one paragraph)."""
    ids = {f"G{m}" for m in re.findall(r"^## G(\d+) ", text, flags=re.M)}
    ids |= set(re.findall(r"\*\*(G\d+\.\d+)\*\*", text))
    return ids


def cited(text: str) -> set[str]:
    return {f"G{a}.{b}" if b else f"G{a}" for a, b in CLAUSE.findall(text)}


def test_every_clause_cited_is_in_docs_rules_md() -> None:
    have = defined(RULES.read_text(encoding="utf-8"))
    assert {"G1", "G12", "G4.4", "G6.4", "G10.3", "G11.2"} <= have
    missing: dict[str, list[str]] = {}
    for p in _files():
        for cid in cited(p.read_text(encoding="utf-8", errors="replace")) - have:
            missing.setdefault(cid, []).append(str(p.relative_to(ROOT)))
    assert not missing, "clauses cited but not in docs/rules.md: " + "; ".join(
        f"{c} ({', '.join(sorted(fs)[:3])})" for c, fs in sorted(missing.items())
    )


def test_nothing_cites_a_document_outside_the_repository() -> None:
    found = []
    for p in _files():
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "cite docs/rules.md, docs/sponsorship.md or docs/obs.md instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("refused (G4.4): 小王", {"G4.4"}),
        ("docs/rules.md G3-G10, G11", {"G3", "G10", "G11"}),
        ('ActionRefused("G11.2", …)', {"G11.2"}),
        ("G13.1 GJN G0 AG4.2", set()),  # no such section; not clause ids
    ],
)
def test_what_counts_as_a_clause_id(text: str, ids: set[str]) -> None:
    assert cited(text) == ids


def test_a_clause_missing_from_the_reference_is_found() -> None:
    have = defined("## G4 Beating\n- **G4.1** same size\n- **G4.2** higher\n")
    assert have == {"G4", "G4.1", "G4.2"}
    assert cited("G4.3 refused; G4.1 ok") - have == {"G4.3"}
