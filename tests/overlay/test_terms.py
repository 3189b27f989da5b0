"""Line breaks only between terms, one rule for the pages and the native OBS graphics: a team name, a
player name and a score are each one term (a name breaks only at a space or · of its own); a text is
shrunk first and only then broken, at a space or ·, then after Chinese punctuation, then between Chinese
characters outside the terms. The same cases go through terms.py and, in Chromium, through
overlays/js/terms.js."""

from __future__ import annotations

from typing import Any

import pytest

from broadcast import tokens as T
from broadcast.obs.graphics.fit import fit_text
from broadcast.obs.graphics.terms import HAN, INSIDE, PUNCT, SPACE, breaks_inside_a_term, pieces, state_terms
from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore
from tests.overlay.conftest import open_page

TEAM = "小当家便利店联盟队"
LATIN_TEAM = "LINYI STARS"
# (text, terms, kind, the pieces no line may split)
CASES: list[tuple[str, tuple[str, ...], int, list[str]]] = [
    ("本场胜者：小当家便利店联盟队　11 : 11", (TEAM,), SPACE, ["本场胜者：小当家便利店联盟队", "11 : 11"]),
    ("本场胜者：小当家便利店联盟队　11 : 11", (TEAM,), PUNCT, ["本场胜者：", TEAM, "11 : 11"]),
    ("本场胜者：小当家便利店联盟队　11 : 11", (TEAM,), HAN, ["本", "场", "胜", "者：", TEAM, "11 : 11"]),
    # without the team among the terms the name may break between its characters — with it, never
    ("第3局结束　小当家便利店联盟队 11 : 11 双号队", (TEAM, "双号队"), HAN,
     ["第", "3", "局", "结", "束", TEAM, "11 : 11", "双号队"]),
    # a name breaks only at a space or · of its own; a score never
    ("LINYI STARS 11 : 11 SHANDONG KINGS", (LATIN_TEAM, "SHANDONG KINGS"), HAN,
     ["LINYI", "STARS", "11 : 11", "SHANDONG", "KINGS"]),
    ("LINYI STARS 11 : 11 SHANDONG KINGS", (), SPACE, ["LINYI", "STARS", "11 : 11", "SHANDONG", "KINGS"]),
    ("张三·李四", (), SPACE, ["张三·", "李四"]),
    ("阿卜杜拉·买买提 被烧", ("阿卜杜拉·买买提",), HAN, ["阿卜杜拉·", "买买提", "被", "烧"]),
    # the last resort of a lone name that fits on no line: between its characters
    ("临沂沂蒙山", ("临沂沂蒙山",), HAN, ["临沂沂蒙山"]),
    ("临沂沂蒙山", ("临沂沂蒙山",), INSIDE, ["临", "沂", "沂", "蒙", "山"]),
    ("（加赛决出）", (), HAN, ["（加", "赛", "决", "出）"]),
    ("Gouji 够级 2012", (), HAN, ["Gouji", "够", "级", "2012"]),
    ("11：9", (), HAN, ["11：9"]),
    ("", (), HAN, [""]),
]  # fmt: skip


def _texts(text: str, terms: tuple[str, ...], kind: int) -> list[str]:
    return [p.text for p in pieces(text, terms, kind)]


@pytest.mark.parametrize(("text", "terms", "kind", "want"), CASES)
def test_pieces_keep_every_term_whole(text: str, terms: tuple[str, ...], kind: int, want: list[str]) -> None:
    assert _texts(text, terms, kind) == want
    joined = "".join(p.text + p.sep for p in pieces(text, terms, kind))
    assert joined == text  # nothing lost, nothing added


@pytest.mark.browser
def test_the_pages_cut_texts_at_the_same_places(page: Any) -> None:
    """overlays/js/terms.js gives the same pieces for every case (and the same names of a state)."""
    with OverlayServer(MemoryStore(demo_state()), port=0) as srv:
        open_page(page, srv.url("program"))
        got = page.evaluate(
            """async (cases) => {
              const m = await import('/overlay/js/terms.js');
              return cases.map(([text, terms, kind]) => m.pieces(text, terms, kind));
            }""",
            [[c[0], list(c[1]), c[2]] for c in CASES],
        )
        js_terms = page.evaluate(
            "async (s) => (await import('/overlay/js/terms.js')).stateTerms(s)", demo_state()
        )
    for (text, terms, kind, _want), js in zip(CASES, got, strict=True):
        py = [{"text": p.text, "sep": p.sep, "kind": p.kind} for p in pieces(text, terms, kind)]
        assert js == py, text
    assert js_terms == list(state_terms(demo_state()))


@pytest.mark.parametrize("alphabet", ["cjk", "latin"])
def test_the_end_of_game_banner_with_team_names_at_their_maxima_breaks_between_terms(alphabet: str) -> None:
    """The scoreboard's banner at the pages' size (26 px, two lines of 656 px), both teams' names at their
    maximum (10 characters: full-width 汉字, or the widest Latin capitals with a space): shrunk first, then
    broken only between the names and the score; never inside a name."""
    if alphabet == "cjk":
        odd, even = "临沂沂蒙山泉小当家队", "金沂蒙酒业琅琊煎饼坊"
    else:
        odd, even = "WM@QW GOM@D", "QWGOM @DWHW"
    text = f"第12局结束　{odd} 11 : 11 {even}　圈三！加赛决出胜负"  # 46 of the 48 characters
    terms = (odd, even)
    fitted = fit_text(text, 26, (656, 64), bold=True, lines=2, terms=terms)
    assert fitted.how != "ellipsis" and fitted.size >= fitted.floor
    rows = fitted.text.split("\n")
    assert len(rows) == 2  # it did not fit on one line at its floor, so it broke …
    assert breaks_inside_a_term(rows, text, terms) == ""  # … between terms
    assert odd in fitted.text.replace("\n", "") and "11 : 11" in "".join(rows)
    # shrink first: a banner that fits on one line at its floor stays on one line
    short = f"本场胜者：{odd}　11 : 11"
    one = fit_text(short, 26, (656, 64), bold=True, lines=2, terms=terms)
    assert "\n" not in one.text and one.size >= one.floor
    assert T.fit_floor("text", 26) <= one.size


def test_the_audit_reads_a_break_inside_a_term() -> None:
    assert breaks_inside_a_term(["小当家便利店联", "盟队 11 : 11"], f"{TEAM} 11 : 11", (TEAM,)) != ""
    assert breaks_inside_a_term([TEAM, "11 : 11"], f"{TEAM} 11 : 11", (TEAM,)) == ""
    assert breaks_inside_a_term(["小当家 11 :", "11"], "小当家 11 : 11", ()) != ""  # a score split
