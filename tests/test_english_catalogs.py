"""The windows' catalogs keep the two languages apart: a source string (the Chinese UI) is Chinese —
never "中文 / English", which the Chinese window would show with its English and the English window
translate again —, and the English translation of a string says no Chinese word but names (the
``tests/console/test_i18n.py`` windows check what is on screen; this checks every string at once)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAN = re.compile(r"[\u3400-\u9fff]")
PAIR = re.compile(r"[\u3400-\u9fff][^/]*\s?/\s[A-Za-z]{3,}")  # 中文 / English in one string


def _messages() -> list[tuple[str, str, str]]:
    out = []
    for ts in sorted((ROOT / "broadcast" / "i18n").glob("*.ts")):
        for m in ET.parse(ts).getroot().iter("message"):
            tr = m.find("translation")
            said = " ".join(t.strip() for t in tr.itertext() if t.strip()) if tr is not None else ""
            out.append((ts.name, m.findtext("source") or "", said))
    return out


def test_no_chinese_source_carries_its_english_along() -> None:
    messages = _messages()
    assert len(messages) > 500
    bad = [f"{ts}: {src}" for ts, src, _ in messages if PAIR.search(src)]
    assert not bad, "the Chinese window would show the English too:\n" + "\n".join(bad)


# names, not words: the language switch names each language in its own script (as every program does),
# the show's title, and an example of what is typed (a sponsor's name: the data is Chinese)
NAMES = re.compile(r"中文界面|英文界面|《[^》]*》|e\.g\. [^\s(]+")


def test_no_english_translation_says_a_chinese_word() -> None:
    bad = [f"{ts}: {src} → {said}" for ts, src, said in _messages() if HAN.search(NAMES.sub("", said))]
    assert not bad, "\n".join(bad)


def test_every_message_of_the_catalogs_is_finished() -> None:
    """No message left unfinished, obsolete or vanished in the committed catalogs, and a count has its
    two English forms (``tests/console/test_i18n.py`` runs lupdate over the code for the strings the
    catalogs lack)."""
    bad = []
    for ts in sorted((ROOT / "broadcast" / "i18n").glob("*.ts")):
        for m in ET.parse(ts).getroot().iter("message"):
            tr = m.find("translation")
            kind = tr.get("type") if tr is not None else "missing"
            forms = [f.text or "" for f in tr.iter("numerusform")] if tr is not None else []
            empty = (
                not all(forms)
                if m.get("numerus") == "yes"
                else not (tr is not None and (tr.text or "").strip())
            )
            if kind or empty:
                bad.append(f"{ts.name}: {m.findtext('source')} ({kind or 'empty'})")
    assert not bad, "\n".join(bad)


def test_the_engines_english_words_are_english_not_pinyin() -> None:
    """The show's words in English (the console's titles and events, the commentators' page): 圈三 is
    "shut out", never the pinyin "quan san" (G10.3)."""
    from engine.words import EVENT_NAMES, KIND_NAMES, QUAN_SAN, SEAT_WORDS, TITLE_NAMES_EN

    assert TITLE_NAMES_EN[QUAN_SAN] == "shut out" and EVENT_NAMES["quan_san"][1] == "shut out"
    english = [
        *TITLE_NAMES_EN.values(),
        *(en for table in (EVENT_NAMES, SEAT_WORDS, KIND_NAMES) for _, en in table.values()),
    ]
    pinyin = re.compile(r"\b(?:quan|san|shao|zha|jie|feng|wutou|gouji|men|kou)\b")
    assert not [w for w in english if HAN.search(w) or pinyin.search(w)], english
