"""Where an on-air text may break onto another line: only between terms. One rule for the pages
(``overlays/js/terms.js``, the same code in JavaScript, held to the same cases by
tests/overlay/test_terms.py) and the native OBS graphics (:mod:`broadcast.obs.graphics.fit`).

A team name, a player name and a score (``11 : 11``) are each one term: a name breaks only at a space or
a middle dot of its own (``阿卜杜拉·买买提``), a score never. The names come from the state
(:func:`state_terms`). A text is fitted by shrinking it first; only a text that does not fit on one line
at its floor is broken, at the best kind of place it has:

1. ``SPACE``: at a space (also the ideographic space) or after a middle dot ``·``;
2. ``PUNCT``: after Chinese punctuation (，。、：；！？ and closing brackets);
3. ``HAN``: between two Chinese characters (never inside a Latin word or a number, never before a
   closing punctuation mark or after an opening one) — outside the terms;
4. ``INSIDE``: the last resort of a text that is one name and nothing else (a player's name at its
   maximum in a seat of the scoreboard) and fits on no line at its floor: between its characters.

:func:`pieces` cuts a text into the pieces no line may split at a given kind of place; :func:`lines`
chooses among the places between them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

SPACE, PUNCT, HAN, INSIDE = 1, 2, 3, 4  # the kinds of places a line may break, best first
DOTS = "·・"
CLOSING = "，。、；：！？）」』》〉】〕”’…,.;:!?)]}%"
OPENING = "（「『《〈【〔“‘([{"
SCORE = re.compile(r"\d+\s*[:：]\s*\d+")


@dataclass(frozen=True)
class Piece:
    """A run of a text no line splits at the places considered; ``sep`` the spaces after it (dropped at
    a line's end), ``kind`` the kind of place after it (0: the text's end)."""

    text: str
    sep: str
    kind: int


def _han(ch: str) -> bool:
    if not ch:
        return False
    if ch in CLOSING or ch in OPENING or ch in DOTS:
        return False
    return unicodedata.east_asian_width(ch) in "WF" and not ch.isspace()


def _protected(text: str, terms: Iterable[str]) -> list[int]:
    """``limit[i]``: the best kind of place the place before text[i] may break at: ``INSIDE`` outside
    every term, ``SPACE`` inside a name (its own spaces and dots), 0 inside a score."""
    limit = [INSIDE] * (len(text) + 1)
    for m in SCORE.finditer(text):
        for i in range(m.start() + 1, m.end()):
            limit[i] = 0
    for term in sorted({t for t in terms if len(t) > 1}, key=len, reverse=True):
        start = text.find(term)
        while start >= 0:
            for i in range(start + 1, start + len(term)):
                limit[i] = min(limit[i], SPACE)
            start = text.find(term, start + len(term))
    return limit


def _kind(before: str, after: str) -> int:
    """The kind of place between two characters (no space between them); 0: no break there."""
    if after in CLOSING or before in OPENING:
        return 0
    if before in DOTS:
        return SPACE
    if before in CLOSING:
        return PUNCT
    if _han(before) or _han(after):
        if after in DOTS:
            return 0
        return HAN
    return 0


def pieces(text: str, terms: Iterable[str] = (), kind: int = HAN) -> list[Piece]:
    """``text`` cut at every place of ``kind`` or better that the terms allow (``INSIDE``: at every
    place between two characters, terms or not)."""
    limit = [INSIDE] * (len(text) + 1) if kind >= INSIDE else _protected(text, terms)
    out: list[Piece] = []
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() and i > start:
            j = i
            while j < n and text[j].isspace():
                j += 1
            if j < n and min(limit[i], limit[j]) >= SPACE:
                out.append(Piece(text[start:i], text[i:j], SPACE))
                start = i = j
                continue
            i = j
            continue
        if i > start and not text[i - 1].isspace() and not ch.isspace():
            k = INSIDE if kind >= INSIDE else _kind(text[i - 1], ch)
            if k and k <= min(kind, limit[i]):
                out.append(Piece(text[start:i], "", k))
                start = i
        i += 1
    if start < n or not out:
        out.append(Piece(text[start:], "", 0))
    return out


def join(parts: Sequence[Piece]) -> str:
    """The pieces of one line as drawn (the spaces at its end dropped)."""
    text = "".join(p.text + p.sep for p in parts[:-1]) + (parts[-1].text if parts else "")
    return text


def lines(
    text: str, k: int, width: Callable[[str], float], terms: Iterable[str] = (), kind: int = HAN
) -> list[str] | None:
    """``text`` on ``k`` lines broken between terms at places of ``kind`` or better, balanced (the
    widest line, measured by ``width``, as narrow as it can be); None when there are not ``k`` pieces."""
    ps = pieces(text, tuple(terms), kind)
    if len(ps) < k:
        return None
    known: dict[str, float] = {}

    def measured(row: str) -> float:
        if row not in known:
            known[row] = width(row)
        return known[row]

    best: tuple[float, list[str]] | None = None
    for cuts in combinations(range(1, len(ps)), k - 1):
        bounds = (0, *cuts, len(ps))
        rows = [join(ps[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
        widest = max(measured(r) for r in rows)
        if best is None or widest < best[0]:
            best = (widest, rows)
    return None if best is None else best[1]


def breaks_inside_a_term(shown: Sequence[str], text: str, terms: Iterable[str] = ()) -> str:
    """Where lines as drawn (``shown``: the text of each line) break ``text`` at a place the rule does
    not allow: the two sides (``"小当家便利店联 / 盟队"``), or "" when every break is between terms (or
    ``text`` is one name with nowhere else to break, the last resort). For the audit, which reads the
    lines off the screen."""
    terms = tuple(terms)
    ps = pieces(text, terms, HAN)
    if len(ps) == 1:
        ps = pieces(text, terms, INSIDE)
    allowed = set()
    pos = 0
    for p in ps:
        pos += len(p.text)
        allowed.add(pos)
        pos += len(p.sep)
        allowed.add(pos)
    at = 0
    for row in shown[:-1]:
        row = row.strip()
        found = text.find(row, at) if row else at
        if found < 0:
            return ""
        end = found + len(row)
        if end not in allowed:
            return f"{text[max(0, end - 8) : end]} / {text[end : end + 8]}"
        at = end
    return ""


def state_terms(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The names in the state, each one term on air: the teams (their names and what airs), the players,
    the lower third's name, the 英雄榜's names and teams, the 九宫格's contestant."""
    out: list[str] = []
    table = state.get("table") or {}
    for team in (table.get("teams") or {}).values():
        out += [str(team.get("name") or ""), str(team.get("label") or "")]
    out += [str(s.get("name") or "") for s in table.get("seats") or []]
    draw = (state.get("jiugongge") or {}).get("draw") or {}
    out.append(str(draw.get("contestant") or ""))
    out.append(str((state.get("lower_third") or {}).get("name") or ""))
    for row in (state.get("leaderboard") or {}).get("rows") or []:
        out += [str(row.get("name") or ""), str(row.get("team") or "")]
    return tuple(sorted({t.strip() for t in out if len(t.strip()) > 1}))
