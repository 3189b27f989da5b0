"""English complete and never "1 game(s)": counts say "1 game" / "2 games" through the one helper
(``engine/english.py``; the Qt windows through Qt's numerus forms, the commentators' page through its
``count``). Static sweeps of the code's own English, so that a new "(s)" or "{n} games" fails here."""

from __future__ import annotations

import ast
import functools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from broadcast.sponsors.placements.model import Issue, PlacementError
from engine.english import count, plural

ROOT = Path(__file__).resolve().parents[1]
# a word with "(s)" stuck to it: "game(s)", "error(s)" ("Length (s)", seconds, is a unit, not a plural)
PAREN_S = re.compile(r"[A-Za-z]\(s\)")
JS_STRING = re.compile(r"""(['"`])((?:\\.|(?!\1)[^\\])*)\1""")  # a script's '…', "…" and `…`
# a number put straight before a plural noun in an f-string: "{n} games" reads "1 games" when n is 1
NOUNS = (
    "games|matches|cards|moves|rows|errors|problems|records|players|actions|seats|hands|lines|fields|proofs|"
    "ways|contracts|episodes|teams|decisions|sponsors|files|warnings|issues|mentions|shots|photos|entries|"
    "operations|pages|titles|steps|times|sections|settings|parameters|graphics|slots|cues|play-outs"
)
COUNTED = re.compile(r"\{([^{}]+)\} (?:[a-z-]+ )?(?:" + NOUNS + r")\b")
# counts that are never 1 (a limit, a pack's size exceeded) or are not counts at all (a preset's name)
NOT_A_COUNT = {
    ("broadcast/season/actions.py", "MAX_ROWS"),
    ("broadcast/season/importer.py", "MAX_ROWS"),
    ("broadcast/sponsors/placements/slots.py", "MAX_SUPPORTERS"),
    ("broadcast/sponsors/placements/breaks.py", "what"),  # "{what} items": the break's name
    ("broadcast/cli/qualifiers.py", "args.rules"),  # "tv_match games"
    ("engine/cli.py", "args.rules"),  # "tv_match records"
    ("engine/game.py", "self.preset.name"),  # the repr, for developers
    ("engine/cards.py", "n"),  # the module's own "1 card" / "n cards"
    ("engine/cards.py", "counts[r]"),  # more of a rank than the pack holds (> 16)
    ("engine/gjn.py", "total[r]"),  # idem
    ("engine/state.py", "total[r]"),  # idem
    ("broadcast/preflight.py", "contracts"),  # the plural branch of plural(contracts, …)
}
# English left with "(s)" on purpose, each with its reason (nothing else may join this list)
PAREN_S_LEFT: set[str] = set()  # none left: engine/cards.py says its jokers with count() too


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


@functools.cache
def _python_strings(top: str) -> tuple[tuple[str, int, str, bool], ...]:
    """(file, line, text, f-string?) of every string of the code under ``top``, docstrings left out."""
    found = []
    for path in sorted((ROOT / top).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        raw = path.read_bytes()
        starts = [0]
        for line in raw.splitlines(keepends=True):
            starts.append(starts[-1] + len(line))
        tree = ast.parse(raw)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                found.append((rel, node.lineno, node.value, False))
            elif (
                isinstance(node, ast.JoinedStr)
                and node.end_lineno is not None
                and node.end_col_offset is not None
            ):
                a = starts[node.lineno - 1] + node.col_offset  # offsets are in bytes of the UTF-8 source
                b = starts[node.end_lineno - 1] + node.end_col_offset
                found.append((rel, node.lineno, raw[a:b].decode("utf-8"), True))
    return tuple(found)


def test_an_english_count_says_one_and_many() -> None:
    assert count(1, "game") == "1 game" and count(2, "game") == "2 games" and count(0, "game") == "0 games"
    assert count(1, "match", "matches") == "1 match" and count(3, "match", "matches") == "3 matches"
    assert plural(1, "is", "are") == "is" and plural(5, "is", "are") == "are"
    assert plural(1, "field") == "field" and plural(2, "field") == "fields"


@pytest.mark.parametrize("top", ["broadcast", "engine", "scripts", "benchmarks"])
def test_no_english_of_the_code_says_word_s_in_parentheses(top: str) -> None:
    bad = [
        f"{f}:{line}: {text.strip()[:90]}"
        for f, line, text, fstring in _python_strings(top)
        if not fstring
        and PAREN_S.search(text)
        and f not in PAREN_S_LEFT  # the words, not the code of an f-string
    ]
    assert not bad, 'say it with engine.english.count / plural ("1 game", "2 games"):\n' + "\n".join(bad)


def _page_words(path: Path) -> list[str]:
    """What a page may show: a script's string literals, a page's text and attributes (not its code)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        text = re.sub(r"<script\b.*?</script>", "", text, flags=re.S)
        return [text]
    code = re.sub(r"/\*.*?\*/|(?:^|\s)//[^\n]*", " ", text, flags=re.S)  # comments may say "page's"
    return [m.group(2) for m in JS_STRING.finditer(code)]


def test_no_page_and_no_catalog_says_word_s_in_parentheses() -> None:
    pages = [
        p
        for pattern in ("overlays/**/*.js", "overlays/**/*.html", "broadcast/**/*.js", "broadcast/**/*.html")
        for p in ROOT.glob(pattern)
    ]
    assert pages
    bad = [f"{p.relative_to(ROOT)}: {said}" for p in pages for said in _page_words(p) if PAREN_S.search(said)]
    for ts in sorted((ROOT / "broadcast" / "i18n").glob("*.ts")):
        for m in ET.parse(ts).getroot().iter("message"):
            tr = m.find("translation")
            said = " ".join(tr.itertext()) if tr is not None else ""
            if PAREN_S.search(said):
                bad.append(f"{ts.name}: {m.findtext('source')} → {said.strip()}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("top", ["broadcast", "engine"])
def test_no_english_message_puts_a_number_straight_before_a_plural(top: str) -> None:
    """``f"{n} games"`` says "1 games" when n is 1: counts go through ``count(n, "game")``."""
    bad = []
    for f, line, text, fstring in _python_strings(top):
        if not fstring:
            continue
        for m in COUNTED.finditer(text):
            expr = m.group(1).split(":")[0].split("!")[0].strip()
            if (f, expr) not in NOT_A_COUNT:
                bad.append(f"{f}:{line}: {m.group(0)}")
    assert not bad, "\n".join(bad)


def test_the_commentators_page_counts_with_its_one_helper() -> None:
    js = (ROOT / "broadcast/commentators/page/commentators.js").read_text(encoding="utf-8")
    assert "const count = (n, one, many)" in js
    bad = [m.group(0) for m in re.finditer(r"\$\{[^{}]+\} (?:" + NOUNS + r")\b", js)]
    assert not bad, bad


def test_one_placements_error_is_one_error_and_its_english_is_english() -> None:
    issue = Issue(
        "p.yaml", 3, 1, "缺少赞助商", "加上 sponsor", message_en="the sponsor is missing", fix_en="add it"
    )
    e = PlacementError([issue])
    assert e.en.splitlines() == [
        "invalid placements: 1 error",
        "p.yaml:3:1: error: the sponsor is missing; add it",
    ]
    two = PlacementError([issue, issue])
    assert two.en.startswith("invalid placements: 2 errors\n")


def test_every_count_of_the_windows_has_its_english_one_and_many() -> None:
    """A count in the Qt windows is a numerus message ("%n"): its English has a singular and a plural
    form, different, the plural saying the number; no other English translation puts a number before
    a plural noun."""
    counts = 0
    bad = []
    for ts in sorted((ROOT / "broadcast" / "i18n").glob("*.ts")):
        for m in ET.parse(ts).getroot().iter("message"):
            tr = m.find("translation")
            if m.get("numerus") == "yes" and tr is not None:
                counts += 1
                forms = [f.text or "" for f in tr.iter("numerusform")]
                if len(forms) != 2 or forms[0] == forms[1] or "%n" not in forms[1]:
                    bad.append(f"{ts.name}: {m.findtext('source')} → {forms}")
            elif tr is not None and COUNTED.search(tr.text or ""):
                bad.append(f"{ts.name}: {m.findtext('source')} → {tr.text} (a count: tr('… %n …', '', n))")
    assert counts >= 20 and not bad, "\n".join(bad)


def test_the_windows_say_one_game_and_two_games_in_english_and_chinese_unchanged(qapp: object) -> None:
    from broadcast.qt import i18n

    src = "赛季比赛 {where}：赛季已存本场 %n 局"
    try:
        assert i18n.install("en")
        assert i18n.tr(src, "", 1).format(where="A–B") == "Season match A–B: the season holds 1 game of it"
        assert i18n.tr(src, "", 2).format(where="A–B") == "Season match A–B: the season holds 2 games of it"
        assert i18n.tr("还剩 %n 张", "SeatCard", 1) == "1 card left"
        assert i18n.tr("还剩 %n 张", "SeatCard", 0) == "0 cards left"
    finally:
        i18n.install("zh_CN")
    assert i18n.tr(src, "", 1).format(where="A–B") == "赛季比赛 A–B：赛季已存本场 1 局"
    assert i18n.tr("还剩 %n 张", "SeatCard", 12) == "还剩 12 张"
