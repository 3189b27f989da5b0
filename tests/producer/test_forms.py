"""The producer builds the sponsor placements with forms only, and the file they save is one that
``sponsors check`` accepts; the checker's words appear beside the field as they type; a file that
would not air is refused at its picker; a hand-written comment survives the producer's edits."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from broadcast.sponsors.placements import load_placements
from tests.producer.conftest import DEMO, ROOT, choose, settle, type_into

AIR = "2012-05-07"


def _text(v: Any) -> str:
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M")
    if isinstance(v, date):
        return v.isoformat()
    return str(v)


def fill_slot(qtbot: Any, w: Any, path: tuple[Any, ...], values: dict[str, Any]) -> tuple[Any, ...]:
    """Fill the open slot form from ``values`` (the demo file's entry) field by field, as typed."""
    form = w.slots.form
    assert form is not None and tuple(form.path) == path, (form and form.path, path)
    for key, value in values.items():
        form = w.slots.form
        if key == "sponsor":
            choose(form, (*path, "sponsor"), value)
        elif key == "contract":
            for part in ("start", "end"):
                type_into(form, (*path, "contract", part), _text(value[part]))
            if "signed" in value:  # last: the 赞助播出 may move to their signing order
                type_into(form, (*path, "contract", "signed"), _text(value["signed"]))
                settle(qtbot, w)
                form = w.slots.form
                path = tuple(form.path)
        elif key == "price":
            type_into(form, (*path, "price", "yuan"), str(value["yuan"]))
            choose(form, (*path, "price", "per"), value["per"])
        elif key == "seconds":
            choose(form, (*path, "seconds"), value)
        elif key == "bumper":
            type_into(form, (*path, "bumper", "text"), value["text"])
        elif key == "film":
            form.film.pick(DEMO / value["file"])
            settle(qtbot, w)
            assert not form.film.refused, form.film.refused
            assert w.ws.draft.get((*path, "film", "id")) == value["id"]
        elif key == "logo":
            form.logo.pick(DEMO / value)
            settle(qtbot, w)
            assert not form.logo.refused, form.logo.refused
        elif key == "minimums":
            for k, v in value.items():
                type_into(form, (*path, "minimums", k), str(v))
        elif key == "on_air":
            for k, v in value.items():
                type_into(form, (*path, "on_air", k), ", ".join(v))
        elif key == "lines":
            type_into(form, (*path, "lines"), "\n".join(value))
        else:
            type_into(form, (*path, key), str(value))
    settle(qtbot, w)
    return path


@pytest.mark.long
@pytest.mark.timeout(900)  # some 300 fields typed key by key, each checked: a guard, not a speed goal
def test_the_demo_placements_built_from_an_empty_file_with_forms_only(producer: Any, qtbot: Any) -> None:
    w = producer
    demo = yaml.safe_load((DEMO / "placements.yaml").read_text(encoding="utf-8"))
    assert not w.ws.draft.path.exists()
    tab = w.sponsors
    type_into(tab.header, ("season",), demo["season"])
    for sid, info in demo["sponsors"].items():
        tab.new_id.setText(sid)
        tab.findChild(type(tab.buy).__mro__[0], "addSponsor").click()
        settle(qtbot, w)
        assert tab.current() == sid
        type_into(tab.form, ("sponsors", sid, "name"), info["name"])
        if "full_name" in info:
            type_into(tab.form, ("sponsors", sid, "full_name"), info["full_name"])
        if "contact" in info:
            type_into(tab.form, ("sponsors", sid, "contact"), info["contact"])
        tab.form.logo.pick(DEMO / info["logo"])
        settle(qtbot, w)
    # exclusive slots, bought from the sponsor's page
    for section in (
        "title",
        "special",
        "jiugongge_board",
        "prize_stand",
        "table",
        "leaderboard",
        "commentary",
        "shirts",
        "ticker",
        "qualifiers",
    ):
        values = demo[section]
        tab.select(values["sponsor"])
        tab.buy_slot(section)
        settle(qtbot, w)
        fill_slot(qtbot, w, (section,), {k: v for k, v in values.items() if k != "sponsor"})
    # 赞助播出 entered out of signing order: the list puts itself in signing order
    for values in (demo["supporters"][2], demo["supporters"][0], demo["supporters"][1]):
        tab.select(values["sponsor"])
        tab.buy_slot("supporters")
        settle(qtbot, w)
        fill_slot(qtbot, w, tuple(w.slots.form.path), {k: v for k, v in values.items() if k != "sponsor"})
    for values in demo["spots"]:
        tab.select(values["sponsor"])
        tab.buy_slot("spots")
        settle(qtbot, w)
        fill_slot(qtbot, w, tuple(w.slots.form.path), {k: v for k, v in values.items() if k != "sponsor"})
    # the 九宫格: nine cells, each filled in its own form
    tab.select("xiaodangjia")
    tab.buy_slot("jiugongge")
    settle(qtbot, w)
    for i, cell in enumerate(demo["jiugongge"]["cells"]):
        w.open_slot(("jiugongge", "cells", i))
        fill_slot(qtbot, w, ("jiugongge", "cells", i), cell)
    for line in demo["credits"]["lines"]:
        tab.select(line["sponsor"])
        tab.buy_slot("credits")
        settle(qtbot, w)
        fill_slot(qtbot, w, tuple(w.slots.form.path), {"role": line["role"]})
    # the rundown's breaks
    w.open_slot(("rundown",))
    for _ in demo["rundown"]["breaks"]:
        w.slots.form.findChild(type(tab.buy).__mro__[0], "addBreak").click()
        settle(qtbot, w)
    form = w.slots.form
    for i, brk in enumerate(demo["rundown"]["breaks"]):
        choose(form, ("rundown", "breaks", i, "after"), brk["after"])
        type_into(form, ("rundown", "breaks", i, "items"), ", ".join(brk["items"]))
    settle(qtbot, w)
    assert w.ws.check is not None and w.ws.check.ok, [str(i) for i in w.ws.check.errors]
    assert w.save()
    saved = w.ws.draft.path
    assert saved == w.ws.db.parent / "studio-assets" / "sponsors" / "placements.yaml"
    # the command the producer's file must pass
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", str(saved), "--air-date", AIR],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    mine = load_placements(saved, air_date=date(2012, 5, 7))
    ref = load_placements(DEMO / "placements.yaml", air_date=date(2012, 5, 7))
    assert [s.sponsor for s in mine.supporters] == ["shunhe", "jinyimeng", "langya"]  # signing order

    def facts(p: Any) -> list[tuple[Any, ...]]:
        return sorted(
            (
                s.key,
                s.sponsor,
                s.contract and (s.contract.signed, s.contract.start, s.contract.end),
                s.price,
                s.bumper,
                s.film and (s.film.id, s.film.seconds),
                s.minimums,
                s.prize,
                s.slogan,
                s.lines,
                s.role,
                s.scenes,
                s.graphics,
                s.logo and s.logo.rel,
            )
            for s in p.slots
        )

    assert facts(mine) == facts(ref)
    assert {k: (v.name, v.full_name) for k, v in mine.sponsors.items()} == {
        k: (v.name, v.full_name) for k, v in ref.sponsors.items()
    }
    assert (mine.rundown.games, mine.rundown.contestants) == (ref.rundown.games, ref.rundown.contestants)
    assert [(b.after, b.items) for b in mine.rundown.breaks] == [
        (b.after, b.items) for b in ref.rundown.breaks
    ]
    # the logos and films were copied next to the database, and the file names them there
    assert (saved.parent / "logos" / "xiaodangjia.png").is_file()
    assert (saved.parent / "films" / "xiaodangjia_15s.mp4").is_file()
    assert all(s.film.asset.path.is_relative_to(saved.parent) for s in mine.slots if s.film is not None)


def test_an_invalid_edit_is_refused_at_its_field(producer: Any, qtbot: Any, tmp_path: Path) -> None:
    w = _with_demo(producer, qtbot)
    before = w.ws.draft.path.read_bytes()
    w.open_slot(("title",))
    form = w.slots.form
    type_into(form, ("title", "bumper", "text"), "《够级大明星》栏目由某超市独家冠名播出")
    settle(qtbot, w)
    field = form.fields[("title", "bumper")]
    assert field.issue.isVisible() or field.issues
    assert "标版文字没有出现企业名称“小当家”" in field.issue.text()
    # longer than the bumper's maximum on air (the schema's sponsors.bumpers[].text): refused there, named
    type_into(
        form,
        ("title", "bumper", "text"),
        "《够级大明星》栏目由“小当家”独家冠名播出，欢迎各位观众朋友收看本期精彩节目",
    )
    settle(qtbot, w)
    field = form.fields[("title", "bumper")]
    assert "sponsors.bumpers[].text" in field.issue.text() and "上屏最多 32 个字" in field.issue.text()
    assert not w.save()  # refused, with the reasons
    # the preview says why it cannot show the slot (a line on the preview, not an error in the log)
    from broadcast.producer.preview import View

    said: list[Any] = []
    w.ws.previewed.connect(said.append)
    w.ws.preview("('title',)", View("bumper", "", (("bumper", ""),)))
    settle(qtbot, w)
    assert said and isinstance(said[-1], str) and "排期有错误，改正后才能预览" in said[-1], said
    w.ws.previewed.disconnect(said.append)
    assert "1 个错误" in w.statusBar().currentMessage() or "错误" in w.statusBar().currentMessage()
    assert w.ws.draft.path.read_bytes() == before  # nothing written
    # a 赞助播出 contract ending before it starts: the checker's words at that date
    w.open_slot(("supporters", 0))
    form = w.slots.form
    type_into(form, ("supporters", 0, "contract", "end"), "2012-03-01")
    settle(qtbot, w)
    end = form.fields[("supporters", 0, "contract", "end")]
    assert "早于开始日期" in end.issue.text()
    # put right: the field clears and the save goes through
    type_into(form, ("supporters", 0, "contract", "end"), "2012-12-30")
    w.open_slot(("title",))
    type_into(w.slots.form, ("title", "bumper", "text"), "《够级大明星》栏目由“小当家”独家冠名播出")
    settle(qtbot, w)
    assert not w.slots.form.fields[("title", "bumper")].issues
    assert w.save()


def test_a_logo_of_the_wrong_type_is_refused(producer: Any, qtbot: Any, tmp_path: Path) -> None:
    w = _with_demo(producer, qtbot)
    fake = tmp_path / "logo.png"
    fake.write_bytes(b"GIF89a" + bytes(40))  # a GIF named .png: not an image the pages can use
    gif = tmp_path / "real.gif"
    from PIL import Image

    Image.new("RGB", (64, 64), (200, 0, 0)).save(gif, "GIF")
    w.sponsors.select("xiaodangjia")
    picker = w.sponsors.form.logo
    for bad in (fake, gif):
        picker.pick(bad)
        settle(qtbot, w)
        assert picker.refused, bad
        assert w.ws.draft.get(("sponsors", "xiaodangjia", "logo")) == "logos/xiaodangjia.png"
    assert "GIF" in picker.refused and "PNG、JPEG 或 WebP" in picker.refused
    logos = w.ws.draft.path.parent / "logos"
    assert sorted(p.name for p in logos.iterdir()) == sorted(p.name for p in (DEMO / "logos").iterdir())
    # a film of the wrong length for its slot: a 5 s film for the 冠名's 15 s
    w.open_slot(("title",))
    film = w.slots.form.film
    film.pick(DEMO / "films" / "jiaxin_5s.mp4")
    settle(qtbot, w)
    assert "实际长 5.0 秒，不是 15 秒" in film.refused
    assert w.ws.draft.get(("title", "film", "file")) == "films/xiaodangjia_15s.mp4"


def test_a_hand_comment_survives_an_edit(producer: Any, qtbot: Any) -> None:
    w = _with_demo(producer, qtbot)
    path = w.ws.draft.path
    text = path.read_text(encoding="utf-8")
    text = text.replace("special:\n", "# 制片手记：沂河源续约谈判中，先按原合同\nspecial:\n", 1)
    text = text.replace("  sponsor: yiheyuan\n", "  sponsor: yiheyuan  # 王经理 138…\n", 1)
    path.write_text(text, encoding="utf-8")
    w.reload_file()
    settle(qtbot, w)
    w.open_slot(("table",))
    type_into(w.slots.form, ("table", "price", "yuan"), "260000")
    assert w.save()
    after = path.read_text(encoding="utf-8")
    assert "# 制片手记：沂河源续约谈判中，先按原合同\nspecial:\n" in after
    assert "  sponsor: yiheyuan  # 王经理 138…\n" in after
    assert "price: {yuan: 260000, per: year}" in after
    changed = [(a, b) for a, b in zip(text.splitlines(), after.splitlines(), strict=True) if a != b]
    assert changed == [("  price: {yuan: 240000, per: year}", "  price: {yuan: 260000, per: year}")]


def _with_demo(w: Any, qtbot: Any) -> Any:
    """The demo set copied into the project (placements, logos, films) and opened."""
    import shutil

    folder = w.ws.draft.path.parent
    shutil.copytree(DEMO, folder, dirs_exist_ok=True)
    w.reload_file()
    settle(qtbot, w)
    assert w.ws.check is not None and w.ws.check.ok, [str(i) for i in w.ws.check.errors]
    return w
