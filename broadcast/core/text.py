"""On-air text hygiene, shared by every input (actions, rosters, the season's tables).

* Invisible format and control characters (bidi overrides such as U+202E, which airs 王建军 as 军建王;
  zero-width spaces and joiners, which make two names look the same) are refused at input, naming the
  field: :func:`invisible` finds the first one.
* Names are compared after NFKC normalisation (full-width and half-width forms, compatibility
  ideographs …) with case and spacing folded: :func:`name_key`, so a look-alike duplicate is a duplicate.
* Every on-air text field has a maximum (``maxLength`` in its component's schema fragment, counted in
  characters: code points, 汉字 and letters alike, as the pages count); a longer text is refused at the
  action, naming the field and its maximum (:func:`describe_too_long`, used by the store).
"""

from __future__ import annotations

import unicodedata

ALLOWED_CONTROLS = frozenset("\n")  # a line break is text (multi-line fields); nothing else invisible


def invisible(text: str) -> str | None:
    """The first invisible character in ``text`` as ``U+202E``, or ``None``. Invisible: Unicode format
    characters (category Cf: bidi embeddings/overrides/isolates and marks, zero-width space/joiners,
    word joiner, BOM, soft hyphen …) and control characters other than a line break."""
    for ch in text:
        if ch in ALLOWED_CONTROLS:
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Cc") or ch in ("\u2028", "\u2029"):
            return f"U+{ord(ch):04X}"
    return None


def describe_invisible(code: str, field: str) -> tuple[str, str]:
    """The refusal (中文, English) for an invisible character ``code`` found in ``field``."""
    return (
        f"{field} 含不可见的控制字符 {code}（会让文字倒序或出现看不见的差别），请删除后重新输入",
        f"{field} holds the invisible control character {code} (it reverses text or hides a difference "
        "on air): remove it and enter the text again",
    )


def find_invisible(value: object, path: str = "") -> tuple[str, str] | None:
    """In a JSON-like value (an action's payload): the first ``(field path, U+XXXX)`` whose string
    holds an invisible character, keys included; ``None`` when all is visible text."""
    if isinstance(value, str):
        code = invisible(value)
        return (path or "(value)", code) if code else None
    if isinstance(value, dict):
        for k, v in value.items():
            where = f"{path}.{k}" if path else str(k)
            code = invisible(str(k))
            if code:
                return where, code
            found = find_invisible(v, where)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            found = find_invisible(v, f"{path}[{i}]")
            if found:
                return found
    return None


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, spaces removed (王建军 = 王建军 = 王 建 军)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(folded.split())


def shown(text: str, limit: int = 24) -> str:
    """A text quoted in a one-line message: line breaks as spaces, cut after ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def describe_too_long(field: str, limit: int, value: str) -> tuple[str, str]:
    """The refusal (中文, English) of an on-air text longer than its field's maximum. Characters are counted
    as the schema's maxLength and the pages count them: one per code point, 汉字 and letters alike."""
    n = len(value)
    return (
        f"{field} 太长：最多 {limit} 个字，“{shown(value)}”有 {n} 个字（汉字、字母、数字、空格都算一个字），"
        "请缩短后重新输入",
        f"{field} is too long: at most {limit} characters, “{shown(value)}” has {n} (汉字, letters, digits "
        "and spaces count one each): shorten it",
    )
