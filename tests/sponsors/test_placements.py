"""Placements: the demo set is valid; every broken rule is an error naming file:line and a fix."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from broadcast.sponsors.placements import PlacementError, Placements, load_placements, to_state
from tests.sponsors.conftest import AIR_DATE, DEMO_YAML, ROOT, line_of

Variant = Callable[..., tuple[Path, str]]


def errors_of(path: Path, **kw: object) -> list[str]:
    with pytest.raises(PlacementError) as exc:
        load_placements(path, air_date=kw.get("air_date", AIR_DATE))  # type: ignore[arg-type]
    return [str(i) for i in exc.value.errors]


def assert_error(errors: list[str], path: Path, line: int, *words: str) -> str:
    hits = [e for e in errors if e.startswith(f"{path}:{line}:") and all(w in e for w in words)]
    assert hits, f"no error at {path}:{line} with {words}; got:\n" + "\n".join(errors)
    assert "；" in hits[0], "every error says how to fix it"
    return hits[0]


def test_demo_set_is_valid_and_complete(demo: Placements) -> None:
    assert [s.sponsor for s in demo.bumpers_in_order()] == [
        "xiaodangjia",
        "yiheyuan",
        "shunhe",
        "jinyimeng",
        "langya",
    ]
    assert len(demo.cells) == 9 and [c.index for c in demo.cells] == list(range(9))
    assert demo.one("title").sponsor == "xiaodangjia"  # type: ignore[union-attr]
    assert demo.one("title").minimums["mentions"] == 5  # type: ignore[union-attr]
    assert demo.one("table").minimums["appearances"] == 5  # type: ignore[union-attr]
    assert demo.one("jiugongge_board").minimums["appearances"] == 4  # type: ignore[union-attr]
    kinds = {s.kind for s in demo.slots}
    assert kinds == {
        "title",
        "special",
        "supporter",
        "spot",
        "cell",
        "jiugongge_board",
        "prize_stand",
        "table",
        "leaderboard",
        "commentary",
        "shirts",
        "ticker",
        "credits",
        "qualifiers",  # the 网络海选冠名 on the qualifier board (docs/qualifiers.md)
    }
    films = demo.films
    assert {f: films[f].seconds for f in films} == {
        "xiaodangjia_15s": 15,
        "yiheyuan_15s": 15,
        "shunhe_10s": 10,
        "jinyimeng_10s": 10,
        "langya_10s": 10,
        "babao_15s": 15,
        "jiaxin_5s": 5,
        "luxin_15s": 15,
    }
    for f in films.values():
        assert f.asset.path.stat().st_size <= 200_000
        assert abs(f.asset.seconds - f.seconds) <= 0.5
    st = to_state(demo)
    assert st["sponsors"]["title"]["logo"] == "/assets/sponsors/demo/logos/xiaodangjia.png"
    assert [b["id"] for b in st["sponsors"]["bumpers"]] == [
        "title",
        "special",
        "supporter_1",
        "supporter_2",
        "supporter_3",
    ]
    assert st["cells"][0]["prize"] == "粮油礼包" and st["cells"][8]["sponsor"] == "鲁信汽车城"


def test_demo_check_cli_passes() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", str(DEMO_YAML), "--air-date", "2012-05-07"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert (
        "排期有效" in r.stdout
        and "顺和家电（2012-02-20） → 金沂蒙酒业（2012-03-02） → 琅琊煎饼坊" in r.stdout
    )


def test_yaml_syntax_error_names_line(variant: Variant) -> None:
    path, text = variant(("  xiaodangjia:\n    name: 小当家", "  xiaodangjia:\n    name: [小当家"))
    errs = errors_of(path)
    assert len(errs) == 1 and "YAML 语法错误" in errs[0]
    assert errs[0].startswith(f"{path}:")


def test_unknown_key_suggests_the_right_one(variant: Variant) -> None:
    path, text = variant(("title:\n  sponsor: xiaodangjia", "title:\n  sponsr: xiaodangjia"))
    errs = errors_of(path)
    assert_error(errs, path, line_of(text, "sponsr: xiaodangjia"), "sponsr", "是不是 'sponsor'")


def test_wrong_type_is_an_error(variant: Variant) -> None:
    path, text = variant(("price: {yuan: 2000000, per: year}", "price: {yuan: 两百万, per: year}"))
    assert_error(errors_of(path), path, line_of(text, "两百万"), "应为整数")


def test_only_one_title_sponsor(variant: Variant) -> None:
    path, text = variant(
        (
            "title:\n  sponsor: xiaodangjia\n",
            "title:\n  - {sponsor: xiaodangjia}\n  - {sponsor: babao}\nold_title:\n  sponsor: xiaodangjia\n",
        )
    )
    assert_error(errors_of(path), path, line_of(text, "title:\n"), "冠名只能有一家")


def test_at_most_three_supporters(variant: Variant) -> None:
    fourth = (
        "  - sponsor: babao\n    contract: {signed: 2012-03-20, start: 2012-04-01, end: 2012-12-30}\n"
        "    price: {yuan: 1200000, per: year}\n    bumper: {text: 《够级大明星》栏目由“八宝豆豉”赞助播出}\n"
        "    film: {id: babao_10s, file: films/shunhe_10s.mp4, seconds: 10}\n\n# 中插广告"
    )
    path, text = variant(("\n# 中插广告", "\n" + fourth))
    assert_error(errors_of(path), path, line_of(text, "- sponsor: babao"), "最多 3 家", "这里有 4 家")


def test_supporters_must_be_in_signing_order(variant: Variant) -> None:
    path, text = variant(("signed: 2012-03-02,", "signed: 2012-02-01,"))
    err = assert_error(errors_of(path), path, line_of(text, "signed: 2012-02-01"), "按签约先后", "金沂蒙酒业")
    assert "移到第 1 家之前" in err


def test_supporters_signed_the_same_day_need_a_time(variant: Variant) -> None:
    path, text = variant(("signed: 2012-03-02,", "signed: 2012-02-20,"))
    assert_error(errors_of(path), path, line_of(text, "signed: 2012-02-20", 2), "签约时间相同", "签约时刻")


def test_exclusive_slot_held_once(variant: Variant) -> None:
    dup = (
        "# 够级英雄榜冠名",
        "table:\n  sponsor: babao\n  contract: {start: 2012-04-01, end: 2012-12-30}\n"
        "  price: {yuan: 240000, per: year}\n\n# 够级英雄榜冠名",
    )
    path, text = variant(dup)
    assert_error(errors_of(path), path, line_of(text, "table:", 2), "'table' 出现了两次")


def test_one_broadcast_package_per_sponsor(variant: Variant) -> None:
    path, text = variant(
        ("special:\n  sponsor: yiheyuan", "special:\n  sponsor: xiaodangjia"),
        ("栏目由“沂河源矿泉水”独家特约播出", "栏目由“小当家”独家特约播出"),
    )
    assert_error(errors_of(path), path, line_of(text, "special:\n"), "同时是冠名", "独家特约播出")


def test_exactly_nine_cells(variant: Variant) -> None:
    cell9 = (
        "    - {prize: 汽车保养券, sponsor: luxin, slogan: 临沂人的购车首选, logo: logos/luxin.png,\n"
        "       contract: *may, price: *cell}\n"
    )
    path, text = variant((cell9, ""))
    assert_error(errors_of(path), path, line_of(text, "cells:"), "正好 9 格", "这里有 8 格")


def test_missing_asset(variant: Variant) -> None:
    path, text = variant(("logo: logos/shunhe.png\n", "logo: logos/shunhe_new.png\n"))
    assert_error(errors_of(path), path, line_of(text, "logos/shunhe_new.png"), "文件不存在")


def test_logo_that_is_not_an_image(variant: Variant, demo_dir: Path) -> None:
    (demo_dir / "logos" / "fake.png").write_text("not a picture", encoding="utf-8")
    path, text = variant(("logo: logos/langya.png\n", "logo: logos/fake.png\n"))
    assert_error(errors_of(path), path, line_of(text, "logos/fake.png"), "不是可用的图片")


def test_film_that_is_not_a_video(variant: Variant, demo_dir: Path) -> None:
    Image.new("RGB", (8, 8)).save(demo_dir / "films" / "still.png")
    (demo_dir / "films" / "still.mp4").write_bytes((demo_dir / "films" / "still.png").read_bytes())
    path, text = variant(("file: films/jiaxin_5s.mp4", "file: films/still.mp4"))
    assert_error(errors_of(path), path, line_of(text, "films/still.mp4"), "不是 MP4/MOV 视频")


def test_film_of_the_wrong_length(variant: Variant) -> None:
    path, text = variant(("file: films/xiaodangjia_15s.mp4", "file: films/shunhe_10s.mp4"))
    assert_error(
        errors_of(path), path, line_of(text, "file: films/shunhe_10s.mp4"), "实际长 10.0 秒", "不是 15 秒"
    )


def test_contract_must_cover_the_air_date(variant: Variant) -> None:
    path, text = variant(
        (
            "contract: {start: 2012-04-01, end: 2012-12-30}\n  price: {yuan: 240000",
            "contract: {start: 2012-04-01, end: 2012-05-06}\n  price: {yuan: 240000",
        )
    )
    err = assert_error(
        errors_of(path), path, line_of(text, "end: 2012-05-06"), "不包含本期播出日期 2012-05-07"
    )
    assert "桌面广告位" in err
    # the same file is fine for an episode inside the contract
    assert load_placements(path, air_date=AIR_DATE.replace(day=6)).one("table") is not None


def test_unknown_sponsor_reference(variant: Variant) -> None:
    path, text = variant(("leaderboard:\n  sponsor: luxin", "leaderboard:\n  sponsor: luxing"))
    assert_error(errors_of(path), path, line_of(text, "sponsor: luxing"), "没有在 sponsors 里登记", "'luxin'")


def test_bumper_must_name_the_sponsor(variant: Variant) -> None:
    path, text = variant(("text: 《够级大明星》栏目由“顺和家电”赞助播出", "text: 《够级大明星》栏目赞助播出"))
    assert_error(
        errors_of(path), path, line_of(text, "text: 《够级大明星》栏目赞助播出"), "没有出现企业名称“顺和家电”"
    )


def test_spot_length_must_be_sellable(variant: Variant) -> None:
    path, text = variant(("  - sponsor: jiaxin\n    seconds: 5", "  - sponsor: jiaxin\n    seconds: 7"))
    assert_error(errors_of(path), path, line_of(text, "seconds: 7"), "不在可售规格内")


def test_breaks_name_real_films_and_air_spots_as_bought(variant: Variant) -> None:
    path, text = variant(("items: [babao_15s, jiaxin_5s]", "items: [babao_15, jiaxin_5s]"))
    errs = errors_of(path)
    assert_error(
        errs, path, line_of(text, "items: [babao_15, jiaxin_5s]"), "'babao_15' 不在排期里", "babao_15s"
    )
    assert_error(errs, path, line_of(text, "film: {id: babao_15s"), "每期应播 2 次", "只排了 1 次")


def test_errors_are_all_reported_and_nothing_half_loaded(variant: Variant) -> None:
    path, text = variant(
        ("sponsor: luxin\n  contract", "sponsor: nobody\n  contract"),
        ("seconds: 5\n    contract", "seconds: 7\n    contract"),
    )
    errs = errors_of(path)
    assert len(errs) >= 2
    lines = [int(e.split(":")[1]) for e in errs]
    assert lines == sorted(lines)


def test_check_cli_exit_2_one_line_per_error_no_traceback(variant: Variant) -> None:
    path, text = variant(("sponsor: luxin\n  contract", "sponsor: nobody\n  contract"))
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", str(path), "--air-date", "2012-05-07"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{line_of(text, 'sponsor: nobody')}:") and "nobody" in first
    assert "排期未加载" in r.stderr.splitlines()[-1]


def test_bad_air_date_and_missing_file_exit_2() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", "nope.yaml"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2 and r.stderr.startswith("nope.yaml:1:1:") and "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "sponsors", "check", str(DEMO_YAML), "--air-date", "5/7/2012"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2 and "YYYY-MM-DD" in r.stderr


def test_an_on_air_text_longer_than_its_maximum_is_an_error_naming_the_field(variant: Variant) -> None:
    """Issue 13: the placements' on-air texts are held to the schema's maxima (maxLength), at their line:
    a sponsor's short name (sponsors.title.name, 10), a 九宫格 prize (12), a ticker line (60)."""
    long_line = "小当家提醒您：" + "够级" * 30
    path, text = variant(
        ("    name: 顺和家电\n", "    name: 临沂顺和家电有限公司本部\n"),
        ("prize: 粮油礼包,", "prize: 粮油礼包再加一桶花生油和大米,"),
        ("    - 小当家便利店联盟队报名火热进行中\n", f"    - {long_line}\n"),
    )
    errs = errors_of(path)
    assert_error(
        errs, path, line_of(text, "name: 临沂顺和家电有限公司本部"), "上屏最多 10 个字", "sponsors.title.name"
    )
    assert_error(
        errs, path, line_of(text, "prize: 粮油礼包再加"), "上屏最多 12 个字", "jiugongge.cells[].prize"
    )
    assert_error(errs, path, line_of(text, long_line), "上屏最多 60 个字", "sponsors.ticker[]")
