"""The one text policy of every entry (the store's actions, the console's and the producer's dialogs,
the season's commands and model, the roster import, the control API).

* Invisible characters are refused, naming the field and the character (:func:`invisible`): format
  and control characters (bidi overrides such as U+202E, which airs 王建军 as 军建王; zero-width spaces
  and joiners), every default-ignorable code point (variation selectors, U+034F, the Hangul fillers
  U+3164/U+115F/U+1160/U+FFA0, which show blank on air …), U+2800 (a blank braille pattern) and line
  or paragraph separators.
* A name or a title must contain a visible character (:func:`visible`): a team named only spaces or
  fillers would air as nothing (:func:`refusal` says which field and why).
* Names are compared on their confusable skeleton (Unicode TR39) after NFKC, with case and spacing
  folded: :func:`name_key`, so "王建军" and a look-alike (full-width forms, compatibility ideographs,
  Cyrillic "а" for Latin "a", "0" for "O" …) are the same name. The confusable classes come from
  Unicode's confusables data as the ``confusable-homoglyphs`` package ships it.
* Every on-air text field has a maximum (``maxLength`` in its component's schema fragment, counted in
  characters: code points, 汉字 and letters alike, as the pages count); a longer text is refused at the
  action, naming the field and its maximum (:func:`describe_too_long`, used by the store).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources

ALLOWED_CONTROLS = frozenset("\n")  # a line break is text (multi-line fields); nothing else invisible

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt, 15.0): shown as nothing
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
BLANK_SYMBOLS = frozenset("\u2800\u2028\u2029")  # a blank braille pattern; line/paragraph separators
# one character class of both (a character of either is invisible whatever its category)
_IGNORED_OR_BLANK = re.compile(
    "["
    + "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b != a else "") for a, b in DEFAULT_IGNORABLE)
    + "".join(re.escape(ch) for ch in sorted(BLANK_SYMBOLS))
    + "]"
)


@lru_cache(maxsize=1 << 14)
def is_invisible(ch: str) -> bool:
    """Shown as nothing (or not at all): default-ignorable, format, control (but a line break),
    surrogate, non-character, or a blank symbol."""
    if ch in ALLOWED_CONTROLS:
        return False
    if unicodedata.category(ch) in ("Cf", "Cc", "Cs"):
        return True
    o = ord(ch)
    if 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE:  # non-characters
        return True
    return _IGNORED_OR_BLANK.match(ch) is not None


def invisible(text: str) -> str | None:
    """The first invisible character in ``text`` as ``U+202E``, or ``None`` (:func:`is_invisible`)."""
    if text.isprintable() and _IGNORED_OR_BLANK.search(text) is None:
        # the common case at C speed (a 100,000-row roster is checked field by field): no control,
        # format, surrogate, unassigned (non-characters), separator or private-use character, and none
        # default-ignorable or blank whatever its category — nothing is_invisible() could refuse
        return None
    for ch in text:
        if is_invisible(ch):
            return f"U+{ord(ch):04X}"
    return None


def visible(text: str) -> bool:
    """``text`` has at least one character that shows: a letter, digit, punctuation mark or symbol
    that is not invisible (spaces, fillers and marks alone show nothing)."""
    return any(unicodedata.category(ch)[0] in "LNPS" and not is_invisible(ch) for ch in text)


def describe_blank(field: str) -> tuple[str, str]:
    """The refusal (中文, English) of a name or title that shows nothing."""
    return (
        f"{field} 没有可见的文字（只有空格或不可见的字符），请输入名字",
        f"{field} has no visible character (only spaces or invisible characters): enter a name",
    )


def refusal(
    field: str, value: str, *, name: bool = False, limit: int | None = None
) -> tuple[str, str] | None:
    """Why ``value`` may not be the text of ``field`` (中文, English), or ``None``: an invisible
    character; for a name or title (``name``) no visible character at all; more than ``limit``
    characters. Every entry asks this one function."""
    code = invisible(value)
    if code:
        return describe_invisible(code, field)
    if name and not visible(value):
        return describe_blank(field)
    if limit is not None and len(value) > limit:
        return describe_too_long(field, limit, value)
    return None


def describe_invisible(code: str, field: str) -> tuple[str, str]:
    """The refusal (中文, English) for an invisible character ``code`` found in ``field``."""
    what = _char_name(code)
    return (
        f"{field} 含不可见的字符 {code}{what}（会让文字倒序、显示为空白或出现看不见的差别），"
        "请删除后重新输入",
        f"{field} holds the invisible character {code}{what} (it reverses text, shows blank or hides a "
        "difference on air): remove it and enter the text again",
    )


def _char_name(code: str) -> str:
    try:
        return f" {unicodedata.name(chr(int(code[2:], 16)))}"
    except (ValueError, IndexError):
        return ""


# an action's payload fields that hold a name or a title (the last key of the field's path)
NAME_KEYS = frozenset({"name", "names", "title", "team", "teams", "sponsor", "contestant", "host"})
# texts that go on reports rather than on air: their maxima (on-air texts declare theirs as maxLength
# in their component's schema fragment)
REPORT_TEXT_MAX = {"episode.title": 24}  # the sponsor report's and the as-run's episode line


def payload_refusal(value: object, path: str = "") -> tuple[str, str] | None:
    """In an action's payload (the store's and the control API's entry): the refusal (中文, English) of
    its first string with an invisible character, or of a name or title (:data:`NAME_KEYS`) that is
    not empty and shows nothing; ``None`` when every text passes."""
    found = find_invisible(value, path)
    if found is not None:
        return describe_invisible(found[1], found[0])
    blank = _find_blank(value, path, named=False)
    return describe_blank(blank) if blank is not None else None


def _find_blank(value: object, path: str, named: bool) -> str | None:
    if isinstance(value, str):
        return (path or "(value)") if named and value and not visible(value) else None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _find_blank(v, f"{path}.{k}" if path else str(k), named or str(k) in NAME_KEYS)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            found = _find_blank(v, f"{path}[{i}]", named)
            if found:
                return found
    return None


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


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case folded, spaces and invisible characters removed,
    then the confusable skeleton (王建军 = 王建军 = 王 建 军 = 王建军 + U+FE00; "Ivan" = "Ιvаn")."""
    plain = unicodedata.normalize("NFKC", name).casefold()
    return skeleton("".join(ch for ch in plain if not ch.isspace() and not is_invisible(ch)))


def skeleton(text: str) -> str:
    """TR39's skeleton: each character replaced by its confusable class's representative (after NFD),
    then NFD again; two texts with the same skeleton look the same."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@cache
def _prototypes() -> dict[str, str]:
    """One representative per class of characters Unicode's confusables data says look alike (the
    classes joined from its pairs, and each letter with its other case; the representative is the
    smallest code point: only compared, never shown)."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    )
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def join(x: str, y: str) -> None:
        a, b = find(x), find(y)
        if a != b:
            parent[max(a, b)] = min(a, b)

    for ch, alikes in data.items():
        if len(ch) != 1:
            continue
        for entry in alikes:
            other = str(entry.get("c", "")).strip("\u200e\u200f")
            if len(other) == 1:
                join(ch, other)
    # names are compared without case: a Latin letter's class holds both cases ("O", "o", "0"). Only
    # ASCII letters: other scripts' case pairs would join classes that do not look alike (Warang Citi's
    # capital AT looks like "O", its small letter like "6")
    for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        join(ch, ch.lower())
    return {c: find(c) for c in parent}


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
