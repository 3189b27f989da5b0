"""The words the console shows for decisions, rule events and titles, in the UI language. Pure: no Qt.

Every word comes from the engine's word tables (:mod:`engine.words`: ``五个10 够级`` / ``five 10s
gouji``, ``烧牌`` / ``burn``, ``头科`` / ``first``); this module only puts a seat in front of the events
that belong to one (``3号开点`` / ``seat 3 opened``). ``lang`` is "zh" or "en"; :func:`lang_of` turns
the UI language ("zh_CN" or "en") into it.
"""

from __future__ import annotations

from typing import Any

from engine import words as engine_words
from engine.cards import parse_counts, play_from_counts

# events said with the seat they belong to
SEAT_EVENTS = ("open", "men", "zha_shao", "jie_feng", "finish")


def lang_of(ui: str) -> str:
    """The engine's language for a UI language ("zh_CN" → "zh", "en" → "en")."""
    return "en" if ui == "en" else "zh"


def decision_words(action: Any, lang: str, gouji_min_twos: int = 1) -> str:
    """What a decision is called: a play's words (``五个10 够级``), else ``过`` / ``让牌`` …"""
    if action.kind == "play":
        return engine_words.play_words(action.cards, lang, gouji_min_twos)
    return engine_words.kind_word(action.kind, lang)


def event_words(event: str, seat: int, title: str | None, lang: str) -> str:
    """A rule event as the record's event column says it: ``烧牌``, ``3号开点``, ``3号出完 头科`` /
    ``burn``, ``seat 3 opened``, ``seat 3 played out, first``."""
    word = engine_words.event_word(event, lang)
    if event not in SEAT_EVENTS:
        return word
    if lang == "en":
        said = f"seat {seat} {word}"
        return f"{said}, {engine_words.title_word(title, lang)}" if event == "finish" and title else said
    said = f"{seat}号{word}"
    return f"{said} {title}" if event == "finish" and title else said


def seat_label(seat: int, name: str, lang: str, sep: str = " ") -> str:
    """A seat where the seat is shown beside its player (a seat card, the record's seat column, a list of
    seats): ``3 张三`` with the name entered, else the seat alone in ``lang`` (``3号位`` / ``Seat 3``) —
    never the number twice (``3 Seat 3``)."""
    entered = engine_words.entered_name(seat, name)
    return f"{seat}{sep}{entered}" if entered else engine_words.seat_name(seat, "", lang)


def seat_who(seat: int, name: str, lang: str) -> str:
    """A seat as a sentence names it (``轮到 {who}`` / ``{who} to act``): ``3号 张三`` / ``Seat 3 张三``
    with the name entered, else ``3号位`` / ``Seat 3``."""
    entered = engine_words.entered_name(seat, name)
    if not entered:
        return engine_words.seat_name(seat, "", lang)
    return f"Seat {seat} {entered}" if lang == "en" else f"{seat}号 {entered}"


def top_play_words(last_play: dict[str, Any], lang: str) -> str:
    """The top play of the table state (``{"cards": "TTTTT", "label": "五个10", …}``) in ``lang``:
    the state's Chinese label, or the engine's English words for its cards."""
    if lang != "en":
        return str(last_play["label"])
    play = play_from_counts(parse_counts(str(last_play["cards"])))
    return engine_words.play_label_en(play.base, play.n, play.twos, play.smalls, play.bigs)


def title_words(title: str, lang: str) -> str:
    return engine_words.title_word(title, lang)


def preset_words(preset: str, lang: str) -> str:
    return engine_words.preset_name(preset, lang)


def burn_word(lang: str) -> str:
    return engine_words.event_word("burn", lang)
