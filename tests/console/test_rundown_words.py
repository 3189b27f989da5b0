"""The rundown's generated cue texts and notes in the console's UI language: an English console shows no
Chinese in them but the show data the producer typed (sponsors, a bumper's text, prizes, ad lines)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from broadcast.console.docks.cues import CueModel
from broadcast.qt import i18n
from broadcast.sponsors.cues import cue_list, rows
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.rundown import build_rundown
from broadcast.studio import open_store

DEMO = Path(__file__).resolve().parents[2] / "sponsor_assets" / "demo" / "placements.yaml"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def test_an_english_consoles_cue_list_has_its_generated_words_in_english(tmp_path: Path, qapp: Any) -> None:
    p = load_placements(DEMO, air_date=date(2012, 5, 7))
    typed = {p.sponsor_name(s.sponsor) for s in p.slots} | {s.role for s in p.slots if s.role}
    for s in p.slots:
        typed |= {s.prize, s.slogan, *s.lines, s.bumper.text if s.bumper else ""}
    typed.discard("")
    store = open_store(tmp_path / "studio.sqlite")
    try:
        store.dispatch("sponsors.load", to_state(p))
        store.dispatch("cues.load", cue_list(build_rundown(p, episode="第1期")))  # draws: 选手1 … stand-ins
        model = CueModel()
        model.set_views(rows(store.state["cues"], 0.0))
        label, notes = CueModel.COLUMNS.index("label"), CueModel.COLUMNS.index("notes")

        def shown() -> list[str]:
            return [
                str(model.data(model.index(r, c))) for r in range(model.rowCount()) for c in (label, notes)
            ]

        assert i18n.install("zh_CN")  # whatever language an earlier test left
        chinese = shown()
        assert i18n.install("en")
        try:
            english = shown()
        finally:
            i18n.install("zh_CN")
        assert chinese == shown()  # the Chinese UI: the rundown's words as they were
        assert chinese[0].startswith("右上角标上屏") and "Player 1" in " ".join(english)
        leftover = []
        for text in english:
            for t in sorted(typed, key=len, reverse=True):  # show data stays as typed
                text = text.replace(t, "")
            if CJK.search(text):
                leftover.append(text)
        assert not leftover, leftover
    finally:
        store.close()
