"""One English word for one 够级 term on every surface (engine/glossary.py, docs/rules.md "Glossary").

A referee reading the console's refusal and the commentators reading the badges see the same word: the
engine's word tables (badges, events, titles, the 胜率 history's moments, the commentators' page), the
referee's messages, the English catalogs and the docs all say a term as ``GLOSSARY`` does, and no
surface says one of the words the glossary rejected ("false burn" for 诈烧, "opposite out" for 无头 …).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from engine.glossary import GLOSSARY, TITLE_TERMS

ROOT = Path(__file__).resolve().parents[1]
HAN = re.compile(r"[\u3400-\u9fff]")

#: the other English the surfaces said for a term before the glossary settled it (and a few a
#: translator would reach for): none of them may come back anywhere
REJECTED: dict[str, tuple[str, ...]] = {
    "诈烧": (r"\bfalse burn", r"\bfake burn", r"\bbluff(?:ed)? burn"),
    "无头": (r"\bopposite out\b", r"\bno head\b"),
    "闷": (r"\bstuck with only 3s", r"\bstuck with three\b", r"\bstuck with 3s only\b"),
    "革命": (r"\b(?:a|the|declares?|declared|two or more) revolts?\b",),
    "对头": (r"\(across\)", r"\bpartner across\b", r"\bopposite (?:seat )?partner\b"),
    "圈三": (r"\bquan san\b", r"\bcircled three\b"),
    "头科": (r"\b1st out\b", r"\b1st-out\b"),
    "大落": (r"\blast out\b",),
    "够级牌": (r"\bgouji card\b",),
    "四户乱缠": (r"\bfour way\b", r"\bfour-house\b"),
}
SURFACES = ("engine", "broadcast", "overlays", "docs", "README.md")
SUFFIXES = {".py", ".ts", ".md", ".js", ".html", ".css", ".yaml", ".json"}


def _surface_files() -> list[Path]:
    out: list[Path] = []
    for top in SURFACES:
        path = ROOT / top
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES)
        out.extend(p for p in files if "__pycache__" not in p.parts and p.is_file())
    return out


def test_the_glossary_is_english_and_its_rejected_words_are_not_its_own() -> None:
    assert GLOSSARY["诈烧"] == "failed burn" and GLOSSARY["革命"] == "revolution"
    assert GLOSSARY["无头"] == "headless" and GLOSSARY["闷"] == "stuck with 3s"
    assert not [w for w in GLOSSARY.values() if HAN.search(w) or not w.strip()], GLOSSARY
    assert len(set(GLOSSARY.values())) == len(GLOSSARY), "two terms share one English word"
    for term, patterns in REJECTED.items():
        for pattern in patterns:
            assert not re.search(pattern, GLOSSARY[term], re.I), (term, pattern)


def test_the_engines_word_tables_say_the_glossarys_words() -> None:
    """The console's badges and events, titles, seat statuses, the 胜率 moments and the commentators'
    page: wherever a table names a glossary term, its English is the glossary's."""
    from broadcast.commentators.view import STATUS_EN, STATUS_ZH
    from engine.seats import TITLE_EN, TITLES
    from engine.winprob import MOMENTS
    from engine.words import EVENT_NAMES, KIND_NAMES, SEAT_WORDS, STATUS_NAMES, TITLE_NAMES_EN, gouji_word

    pairs = [
        *(
            p
            for table in (EVENT_NAMES, SEAT_WORDS, KIND_NAMES, STATUS_NAMES, MOMENTS)
            for p in table.values()
        ),
        *TITLE_NAMES_EN.items(),
        *zip(TITLES, TITLE_EN, strict=True),
        *((STATUS_ZH[k], STATUS_EN[k]) for k in STATUS_EN),
        ("够级", gouji_word("en")),
    ]
    named = [(zh, en) for zh, en in pairs if zh in GLOSSARY]
    assert len(named) >= 30, named
    assert [(zh, en) for zh, en in named if en != GLOSSARY[zh]] == []
    assert TITLES == TITLE_TERMS and STATUS_EN["zha_shao"] == MOMENTS["zha_shao"][1] == "failed burn"
    assert (
        SEAT_WORDS["wutou"] == ("无头", "headless") and KIND_NAMES["revolt"][1] == "revolution (iron third)"
    )


def test_the_referees_messages_say_the_glossarys_words() -> None:
    """G10.1 for a seat stuck with 3s (闷), one that made a failed burn (诈烧), one that declared a
    revolution (革命); G6.2/G8 for a headless seat (无头): the words of the badges."""
    from tests.engine.helpers import game, illegal, legal, play

    g = game({1: "KK33", 2: "55", 3: "TQQQ7", 4: "AA99", 5: "66", 6: "88"}, rules="dagang")
    play(g, "1 KK", "4 AA")
    assert g.status(1) == "men"
    e = illegal(g, "1 pass", "G10.1")
    assert e.en.startswith(f"seat 1 is {GLOSSARY['闷']} and out of the game"), e.en
    play(g, "5 pass", "6 pass", "2 pass", "3 pass", "4 9", "5 pass", "6 pass", "2 pass", "3 T", "4 pass")
    play(g, "6 pass", "3 QQQ")
    e = illegal(g, "5 pass", "G6.2")
    assert f"it is {GLOSSARY['无头']} because its opposite, seat 1, is {GLOSSARY['闷']}" in e.en, e.en

    g = game({1: "TTTTT4", 2: "JJJJJB8", 3: "6", 4: "QQQQQ9", 5: "KKKKK7", 6: "8"})
    play(g, "1 TTTTT", "2 JJJJJ", "5 pass")
    legal(g, "2 8")  # a burn play without a joker before the end: 诈烧 (G7.4)
    e = illegal(g, "2 pass", "G10.1")
    assert e.en.startswith(f"seat 2 made a {GLOSSARY['诈烧']} and is out of the game"), e.en

    g = game({1: "KK", 2: "5", 3: "6", 4: "7", 5: "8", 6: "9"}, rules="dagang")
    legal(g, "1 revolt")
    e = illegal(g, "1 pass", "G10.1")
    assert e.en.startswith(f"seat 1 declared a {GLOSSARY['革命']} and sits the game out"), e.en
    play(g, "2 5")
    e = illegal(g, "3 revolt", "G10.5")
    assert e.en == f"a {GLOSSARY['革命']} must be declared before the first lead", e.en

    # G4.4 says its jokers as the glossary does, counted ("1 small joker", never "1 small joker(s)")
    g = game({1: "TTTB4", 2: "5", 3: "JJJ26", 4: "7", 5: "8", 6: "9"})
    play(g, "1 TTTB")
    e = illegal(g, "3 JJJ2", "G4.4")
    assert e.en.endswith("TTTB carries 1 small joker: a beat needs at least 1 big joker, JJJ2 has 0"), e.en


def test_the_english_catalogs_say_a_term_as_the_glossary_does() -> None:
    """A catalog message that is a 够级 term alone (a column 头科, a turn line's （对头）) translates to
    the glossary's word."""
    seen = []
    for ts in sorted((ROOT / "broadcast" / "i18n").glob("*.ts")):
        for m in ET.parse(ts).getroot().iter("message"):
            source = re.sub(r"[（）()\s]", "", m.findtext("source") or "")
            if source in GLOSSARY:
                said = re.sub(r"[()]", "", (m.findtext("translation") or "").strip()).lower()
                seen.append((ts.name, source, said, GLOSSARY[source]))
    assert len(seen) >= 4, seen
    assert [s for s in seen if s[2] != s[3]] == []


def test_docs_rules_glossary_is_the_engines() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\S+) \| ([^|]+?) \| (G[\d.]+) \|$", section, re.M)
    assert {zh: en for zh, en, _ in rows} == GLOSSARY
    assert len(rows) == len(GLOSSARY)


def test_no_surface_says_a_term_differently() -> None:
    """engine/, broadcast/ (catalogs included), overlays/, docs/ and README: none of the rejected
    English for any term anywhere."""
    patterns = [(term, re.compile("|".join(ps), re.I)) for term, ps in REJECTED.items()]
    hits: list[str] = []
    for path in _surface_files():
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            hits.extend(
                f"{path.relative_to(ROOT)}:{n}: {term} is {GLOSSARY[term]!r}, not: {line.strip()[:90]}"
                for term, pattern in patterns
                if pattern.search(line)
            )
    assert len(_surface_files()) > 300
    assert hits == [], "\n".join(hits)
