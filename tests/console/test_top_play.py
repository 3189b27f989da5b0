"""The top-play oval in the middle of the table never breaks a line inside a term (``两个7``, a player's
name, ``seat 3``): it breaks between terms and shrinks the words to fit the oval instead."""

from __future__ import annotations

from typing import Any

from broadcast.console.widgets import NBSP, TopPlay
from broadcast.qt import theme

TOP = "上手 3号 两个7 够级"
TURN = "轮到 4号 赵海峰\n（对头）"


def _terms(lines: list[str]) -> list[str]:
    return [t for line in lines for t in line.split(" ") if t]


def _oval(qtbot: Any, w: int, h: int, top: str = TOP, turn: str = TURN) -> TopPlay:
    oval = TopPlay()
    qtbot.addWidget(oval)
    oval.resize(w, h)
    oval.set_lines(top, turn)
    oval.grab()  # paint it: what was painted is what layout_text() says
    return oval


def test_a_narrow_oval_breaks_between_terms_and_never_inside_one(qtbot: Any) -> None:
    oval = _oval(qtbot, 190, 130)
    (px, lines), (_px2, turn_lines) = oval.laid_out
    assert _terms(lines) == TOP.split(" "), lines  # every term whole, in order
    assert "两个7" in _terms(lines) and not any(line.endswith("两个") for line in lines)
    assert _terms(turn_lines) == ["轮到", "4号", "赵海峰", "（对头）"] and turn_lines[-1] == "（对头）"
    assert oval.layout_text() == oval.laid_out


def test_a_term_wider_than_the_oval_shrinks_the_words_instead_of_breaking(qtbot: Any) -> None:
    long_top = f"上手 3号 两个A带一个大王{NBSP}够级"
    wide = _oval(qtbot, 900, 400, long_top)
    narrow = _oval(qtbot, 230, 140, long_top)
    (big, _), _ = wide.laid_out
    (small, lines), _ = narrow.laid_out
    assert big == theme.SIZE_TOP  # room enough: the full size, nothing shrunk
    assert small < big  # not enough: smaller words …
    assert f"两个A带一个大王{NBSP}够级" in _terms(lines)  # … and the term still whole on one line


def test_the_console_keeps_a_plays_words_together(window: Any, qtbot: Any) -> None:
    from tests.console.conftest import new_match, settle, type_line

    new_match(window, qtbot)
    type_line(qtbot, window, "1")  # 上班 seat 1 (hands unknown: any pair may be played)
    type_line(qtbot, window, "77")
    settle(qtbot, window)
    label = window.console.state["table"]["last_play"]["label"]
    assert label == "两个7", label
    window.table.top.resize(180, 120)
    window.table.top.grab()
    (_px, lines), _ = window.table.top.laid_out
    assert "两个7" in _terms(lines), lines
