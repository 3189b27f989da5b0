"""The native graphics as pictures (broadcast/obs/graphics/raster.py): one PNG per graphic and state,
drawn where the design says, named by its content, written once and whole."""

from __future__ import annotations

import copy
import os
import time
from pathlib import Path

from PIL import Image, ImageChops

from broadcast.obs import layout as L
from broadcast.obs.graphics import raster as R
from broadcast.obs.graphics import scoreboard as SB
from broadcast.obs.spec import IMAGE, TEXT, InputSpec
from broadcast.overlay.demo import demo_state
from broadcast.studio import default_state


def _pictures(state: dict[str, object]) -> dict[str, R.Picture]:
    return L.build_layout(state, browser=False).pictures


def test_the_same_state_is_the_same_file_and_a_change_a_new_one(tmp_path: Path) -> None:
    store = R.PictureStore(tmp_path / "pics")
    first = _pictures(demo_state())
    paths = store.ensure(list(first.values()))
    assert all(p.is_file() and p.parent == tmp_path / "pics" for p in paths)
    assert len({p.name for p in paths}) == len(paths)  # one file per graphic
    written = {p: p.read_bytes() for p in paths}
    times = {p: p.stat().st_mtime_ns for p in paths}
    time.sleep(0.02)
    again = store.ensure(list(_pictures(demo_state()).values()))
    assert again == paths and {p: p.read_bytes() for p in again} == written  # not drawn twice
    # nor touched: OBS reloads a shown picture whose file changed time (its texture is empty meanwhile
    # in a picture of the scene OBS takes then — the 九宫格 and the credits credited bare)
    assert {p: p.stat().st_mtime_ns for p in again} == times
    st = demo_state()
    st["table"]["seats"][0]["cards_left"] = 3
    changed = _pictures(st)
    assert changed["scoreboard"].digest != first["scoreboard"].digest
    assert {g for g in first if changed[g].digest != first[g].digest} == {"scoreboard"}
    assert not list((tmp_path / "pics").glob(".*"))  # no half-written file left behind


def test_a_picture_shows_the_state_where_the_design_puts_it() -> None:
    st = demo_state()
    before = R.render(_pictures(st)["scoreboard"])
    st["table"]["seats"][0].update(name="王大锤", cards_left=7)
    after = R.render(_pictures(st)["scoreboard"])
    fx, fy, fw, fh = _pictures(st)["scoreboard"].frame
    assert before.size == after.size == (fw, fh)
    x0 = SB.SCOREBOARD[0] + SB.SEAT_POS[1][0] - fx
    y0 = SB.SCOREBOARD[1] + SB.TABLE_TOP + SB.SEAT_POS[1][1] - fy
    seat1 = (x0, y0, x0 + SB.SEAT_CELL[0], y0 + SB.SEAT_CELL[1])
    diff = ImageChops.difference(before, after)
    assert diff.crop(seat1).getbbox(alpha_only=False) is not None, "seat 1's cell did not change"
    # (the last play line names seat 1's player too: only compare the seats' area above it)
    rest = Image.new("L", diff.size, 255)
    rest.paste(0, seat1)
    rest.paste(0, (0, fh - 92, fw, fh))
    assert Image.composite(diff, Image.new("RGBA", diff.size), rest).getbbox(alpha_only=False) is None


def test_a_long_text_is_shrunk_into_its_box_never_enlarged() -> None:
    def op(text: str) -> InputSpec:
        from broadcast.obs.graphics.paint import text_settings

        return InputSpec(
            "t", TEXT, text_settings(text, 40, font="Noto Sans CJK SC"), "", 100, 50, 1, None, (300, 60)
        )

    short, long = R.op_box(op("张三")), R.op_box(op("欧阳" * 30))
    assert short is not None and long is not None
    assert long[2] <= 300 and long[3] <= 60
    assert short[2] < 300 and short[3] == R.op_box(op("李四"))[3]  # type: ignore[index]
    assert long[0] == short[0] == 100  # the left edge stays where the item's point is (ALIGN_LEFT)


def test_a_logo_replaced_under_the_same_name_is_a_new_picture(tmp_path: Path) -> None:
    logo = tmp_path / "logo.png"
    Image.new("RGBA", (40, 20), (200, 0, 0, 255)).save(logo)
    op = InputSpec("logo", IMAGE, {"file": str(logo)}, "", 10, 10, 5, (100, 100))
    pic = R.Picture("corner_bug", (0, 0, 120, 120), (op,))
    img = R.render(pic)
    # scaled into its box keeping its shape (OBS's scale-to-inner), centred: 100×50 at (10, 35)
    assert img.getchannel("A").getbbox() == (10, 35, 110, 85)
    assert img.getpixel((60, 60))[:3] == (200, 0, 0)
    digest = pic.digest
    Image.new("RGBA", (40, 20), (0, 0, 200, 255)).save(logo)
    os.utime(logo, ns=(1, os.stat(logo).st_mtime_ns + 1_000_000))
    assert R.Picture("corner_bug", (0, 0, 120, 120), (op,)).digest != digest


def test_credits_rows_stay_aligned_in_the_picture() -> None:
    st = default_state()
    st["sponsors"]["credits"] = [
        {"role": "独家冠名", "name": "小当家便利店"},
        {"role": "鸣谢", "name": "琅琊煎饼坊"},
    ]
    pic = _pictures(st)["credits"]
    img = R.render(pic)
    fx, fy, _fw, _fh = pic.frame
    roles, names = pic.op("片尾·职务"), pic.op("片尾·名单")
    ink_of = img.convert("L").point(lambda v: 255 if v > 90 else 0)  # light words on the dark card
    # each column's ink, row by row: the two columns' rows at the same heights
    rows_of = []
    for x0, x1 in ((roles.x - 380 - fx, roles.x - fx), (names.x - fx, names.x + 440 - fx)):
        band = ink_of.crop((int(x0), 0, int(x1), img.height))
        ink = [y for y in range(band.height) if band.crop((0, y, band.width, y + 1)).getbbox()]
        starts = [y for k, y in enumerate(ink) if k == 0 or y > ink[k - 1] + 1]
        rows_of.append(starts)
    below = [[y for y in r if y > names.y - fy - 4] for r in rows_of]  # the rows under the title
    assert len(below[0]) == len(below[1]) >= 2
    assert all(abs(a - b) <= 6 for a, b in zip(below[0], below[1], strict=True))


def test_the_store_keeps_the_newest_pictures(tmp_path: Path) -> None:
    store = R.PictureStore(tmp_path)
    st = copy.deepcopy(default_state())
    pics = []
    for n in range(6):
        st["show"]["title"] = f"第{n}期"
        pics.append(_pictures(st)["ticker"])
    paths = store.ensure(pics)
    for k, p in enumerate(paths):
        os.utime(p, ns=(k * 10**9, k * 10**9))
    store.prune(keep=3)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == sorted(p.name for p in paths[3:])
    # the oldest file asked for again (OBS shows it again) is kept: the pictures used last, not the files
    # written last
    store.ensure([pics[3]])
    store.ensure(pics[:1])  # drawn again: the newest
    store.prune(keep=2)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == sorted([paths[0].name, paths[3].name])
