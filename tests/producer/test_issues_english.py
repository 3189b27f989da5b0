"""The checker's messages follow the producer's UI language: the issues list, a field's issue line and the
contracts table's problems column show the English text in the English window, Chinese again after."""

from __future__ import annotations

import re
import shutil
from typing import Any

from tests.producer.conftest import DEMO, settle, type_into

HAN = re.compile(r"[\u4e00-\u9fff]")
BAD_END = "2012-03-01"  # the title sponsor's contract ending before it starts (2012-04-01)


def _issue_lines(w: Any) -> list[str]:
    return [w.issues.item(i).text() for i in range(w.issues.count())]


def _contracts_problems(w: Any) -> str:
    t = w.sponsors.contracts
    return " ".join(t.item(r, 5).text() for r in range(t.rowCount()) if t.item(r, 5) is not None)


def test_checker_messages_follow_the_ui_language(producer: Any, qtbot: Any) -> None:
    w = producer
    shutil.copytree(DEMO, w.ws.draft.path.parent, dirs_exist_ok=True)
    w.reload_file()
    settle(qtbot, w)
    assert w.ws.check is not None and w.ws.check.ok
    w.open_slot(("title",))
    type_into(w.slots.form, ("title", "contract", "end"), BAD_END)
    settle(qtbot, w)
    zh = [line for line in _issue_lines(w) if BAD_END in line]
    assert zh and "早于开始日期" in zh[0] and zh[0].startswith("✕ ")
    assert f":{w.ws.check.errors[0].line}:" in zh[0] and "错误:" in zh[0]  # as `sponsors check` says it
    w.sponsors.select("xiaodangjia")
    assert "早于开始日期" in _contracts_problems(w)

    w.set_language("en")
    try:
        en = [line for line in _issue_lines(w) if BAD_END in line]
        assert en == ["✕ " + w.ws.check.errors[0].located("en")], en
        assert "title sponsor contract ends 2012-03-01, before it starts 2012-04-01" in en[0]
        assert ": error: " in en[0] and "check the contract dates" in en[0] and not HAN.search(en[0])
        w.open_slot(("title",))
        field = w.slots.form.fields[("title", "contract", "end")]
        assert "before it starts 2012-04-01; check the contract dates" in field.issue.text()
        assert not HAN.search(field.issue.text())
        w.sponsors.select("xiaodangjia")
        problems = _contracts_problems(w)
        assert "before it starts" in problems and not HAN.search(problems), problems
    finally:
        w.set_language("zh_CN")
    back = [line for line in _issue_lines(w) if BAD_END in line]
    assert back == zh
    w.open_slot(("title",))
    assert "早于开始日期" in w.slots.form.fields[("title", "contract", "end")].issue.text()
