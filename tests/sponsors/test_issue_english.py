"""Every message of the placements checker has its English (the producer's English UI shows it).

Two checks: statically, every ``.error(`` / ``.warn(`` / ``.error_at(`` / ``Issue(`` call in
``broadcast/sponsors/placements`` passes an English text (so a new message without one fails); and on
real checker output, many broken files written with Latin names only, so any Han character left in an
English message is a missed translation.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from broadcast.sponsors.placements import Issue, PlacementError, load_placements, parse_placements
from tests.sponsors.conftest import AIR_DATE, DEMO_YAML, ROOT

HAN = re.compile(r"[\u4e00-\u9fff]")
PLACEMENTS = ROOT / "broadcast" / "sponsors" / "placements"
REPORTERS = {"error", "warn", "error_at"}


def _is_blank(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == ""


def _english_missing(call: ast.Call) -> str | None:
    """Why ``call`` (a reporter or an Issue) gives no English text; None when it does."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in REPORTERS:
        en = next((k.value for k in call.keywords if k.arg == "en"), None)
        if en is None:
            return "no en="
        if isinstance(en, ast.Tuple) and (len(en.elts) != 2 or _is_blank(en.elts[0])):
            return "en= without an English message"
        return None
    if isinstance(func, ast.Name) and func.id == "Issue":
        kw = {k.arg: k.value for k in call.keywords}
        if len(call.args) >= 7 and not _is_blank(
            call.args[6]
        ):  # Issue(file, line, col, msg, fix, level, en…)
            return None
        if "message_en" in kw and not _is_blank(kw["message_en"]):
            return None
        return "no message_en="
    return None


def test_every_message_call_in_the_checker_passes_english() -> None:
    missing: list[str] = []
    calls = 0
    for py in sorted(PLACEMENTS.glob("*.py")):
        for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"), str(py))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr in REPORTERS) or (
                isinstance(f, ast.Name) and f.id == "Issue"
            ):
                calls += 1
                why = _english_missing(node)
                if why:
                    missing.append(f"{py.relative_to(ROOT)}:{node.lineno}: {why}")
    assert calls >= 60, f"the walk found only {calls} message calls: did the reporters change name?"
    assert not missing, "messages without English:\n" + "\n".join(missing)


def test_the_static_check_fails_a_message_without_english() -> None:
    """The walk above can fail: a call without ``en=`` (or with a blank one) is reported."""
    for src in (
        'b.r.error(n, "坏了", "修")',
        'r.warn(n, "坏了", en=("", ""))',
        'Issue("f", 1, 1, "坏了", "修")',
    ):
        call = ast.parse(src).body[0].value  # type: ignore[attr-defined]
        assert _english_missing(call) is not None, src
    ok = ast.parse('b.r.error(n, "坏了", "修", en=("broken", "fix"))').body[0].value  # type: ignore[attr-defined]
    assert _english_missing(ok) is None


# -- real checker output ----------------------------------------------------------------------------------
@functools.cache
def _latin_names() -> dict[str, str]:
    """The demo's sponsor names → Latin brands (the demo read once, not once per broken file)."""
    demo = load_placements(DEMO_YAML, air_date=AIR_DATE)
    names: dict[str, str] = {}
    for i, sp in enumerate(demo.sponsors.values()):
        names[sp.full_name] = f"Brand{i} Ltd"
        names[sp.name] = f"Brand{i}"
    return names


def latin(text: str) -> str:
    """The demo YAML with every Chinese value replaced by Latin words: sponsor names consistently (the
    bumpers and ticker lines still name their sponsor), every other Han run by a token of its own."""
    names = _latin_names()
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, names[name])
    tokens: dict[str, str] = {}
    return re.sub(r"[\u4e00-\u9fff]+", lambda m: tokens.setdefault(m.group(0), f"w{len(tokens)}"), text)


def issues_of(path: Path, **kw: object) -> list[Issue]:
    try:
        p = load_placements(path, **kw)  # type: ignore[arg-type]
    except PlacementError as exc:
        return exc.issues
    return list(p.warnings)


# (old, new) edits of the Chinese demo text, applied before it is made Latin; each breaks something
BREAKS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("format: gouji-placements/1", "format: gouji-placements/9"),),
    (("title:\n  sponsor: xiaodangjia", "title:\n  sponsr: xiaodangjia"),),
    (("price: {yuan: 2000000, per: year}", "price: {yuan: 两百万, per: month}"),),
    (("price: {yuan: 1600000, per: year}", "price: {yuan: -5, per: week}"),),
    (("title:\n  sponsor: xiaodangjia\n", "title:\n  - {sponsor: xiaodangjia}\n  - {sponsor: babao}\n"),),
    (("special:\n  sponsor: yiheyuan\n", "special:\n  - {sponsor: yiheyuan}\n"),),
    (("shirts:\n  sponsor: mengshan\n", "shirts:\n  - {sponsor: mengshan}\n"),),
    (("signed: 2012-03-02,", "signed: 2012-02-01,"),),
    (("signed: 2012-03-02,", "signed: 2012-02-20,"),),
    (("special:\n  sponsor: yiheyuan", "special:\n  sponsor: xiaodangjia"),),
    (
        (
            "       contract: *may, price: *cell}\n    - {prize: 汽车保养券",
            "       contract: *may, price: *cell}\n#",
        ),
    ),
    (
        ("logo: logos/shunhe.png\n", "logo: logos/shunhe_new.png\n"),
        ("logo: logos/babao.png", "logo: /abs.png"),
    ),
    (("logo: logos/langya.png\n", "logo: logos/fake.png\n"), ("logo: logos/luxin.png", "logo: ../../x.png")),
    (("file: films/jiaxin_5s.mp4", "file: films/still.mp4"),),
    (("file: films/xiaodangjia_15s.mp4", "file: films/shunhe_10s.mp4"),),
    (
        (
            "film: {id: yiheyuan_15s, file: films/yiheyuan_15s.mp4, seconds: 15}",
            "film: {id: x, file: y, seconds: 10}",
        ),
    ),
    (
        (
            "contract: {start: 2012-04-01, end: 2012-12-30}\n  price: {yuan: 240000",
            "contract: {start: 2012-04-01, end: 2012-03-06}\n  price: {yuan: 240000",
        ),
    ),
    (
        (
            "contract: {start: 2012-04-01, end: 2012-12-30}\n  price: {yuan: 600000",
            "contract: {start: 2012-04-01, end: 2012-05-06}\n  price: {yuan: 600000",
        ),
    ),
    (("leaderboard:\n  sponsor: luxin", "leaderboard:\n  sponsor: luxing"),),
    (("text: 《够级大明星》栏目由“顺和家电”赞助播出", "text: 《够级大明星》栏目赞助播出"),),
    (
        (
            "    text: 《够级大明星》栏目由“小当家”独家冠名播出\n    seconds: 5",
            "    text: 《够级大明星》栏目由“小当家”独家冠名播出\n    seconds: 6",
        ),
    ),
    (("  - sponsor: jiaxin\n    seconds: 5", "  - sponsor: jiaxin\n    seconds: 7"),),
    (("price: {yuan: 1000, per: airing}", "price: {yuan: 10, per: airing}"),),
    (("items: [babao_15s, jiaxin_5s]", "items: [babao_15, luxin_15s]"), ("after: game 1", "after: game 7")),
    (("items: [babao_15s, jiaxin_5s]", "items: []"),),
    (
        ("    name: 顺和家电\n", "    name: 临沂顺和家电有限公司本部\n"),
        ("prize: 粮油礼包,", "prize: 粮油礼包再加一桶花生油和大米,"),
    ),
    (("    - 小当家便利店联盟队报名火热进行中\n", "    - 别家便利店报名火热进行中\n"),),
    (
        (
            "ticker:\n  sponsor: xiaodangjia\n  lines:",
            "ticker:\n  sponsor: xiaodangjia\n  lines: []\n  old_lines:",
        ),
    ),
    (
        ("  minimums: {mentions: 5}", "  minimums: {mentions: 2, film: x}"),
        ("jiaxin:\n    name", "jiaxin2:\n    name"),
    ),
    (("  on_air: {graphics: [commentary]", "  on_air: {draws: maybe, graphics: [nothing]"),),
    (("  on_air: {scenes: [九宫格特写]}", "  on_air: {scenes: 5}\n  minimums: {coverage: 1}"),),
    (("  on_air: {scenes: [桌面俯拍]}", "  minimums: {appearances: 2}"),),
    (("    - {prize: 电热水壶,", "    - {prize: 粮油礼包,"),),
    (("film: {id: shunhe_10s,", "film: {id: jinyimeng_10s,"),),
    (("contract: {signed: 2012-03-10, start", "contract: {signed: 3/10/2012, start"),),
    (
        ("  games: 3\n", "  games: 99\n  contestants: x\n"),
        ("    - after: opening\n", "    - after: opening\n      extra: 1\n"),
    ),
    (("sponsors:\n  xiaodangjia:", "sponsors:\n  Bad Id:\n    name: x\n  xiaodangjia:"),),
    (("  xiaodangjia:\n    name: 小当家", "  xiaodangjia:\n    name: [小当家"),),
    (("  contact: 市场部", "  contact: 市场部\n    name: again"),),
    (("  minimums: {mentions: 5}", "  minimums: {mentions: .nan}\n  notes: ~"),),
    (("  minimums: {mentions: 5}", "  minimums: [5]\n  on_air: [1]"),),
    (("credits:\n  lines:", "credits:\n  lines: {}\n  more:"),),
)


@pytest.mark.long  # about 90 real placement files checked
def test_real_checker_messages_are_all_in_english(demo_dir: Path) -> None:
    (demo_dir / "logos" / "fake.png").write_text("not a picture", encoding="utf-8")
    Image.new("RGB", (8, 8)).save(demo_dir / "films" / "still.png")
    (demo_dir / "films" / "still.mp4").write_bytes((demo_dir / "films" / "still.png").read_bytes())
    source = DEMO_YAML.read_text(encoding="utf-8")
    found: list[Issue] = []
    runs: list[Callable[[], list[Issue]]] = []
    for n, edits in enumerate(BREAKS):
        text = source
        for old, new in edits:
            assert old in text, f"break {n}: marker not in the demo yaml: {old!r}"
            text = text.replace(old, new, 1)
        path = demo_dir / f"broken{n}.yaml"
        path.write_text(latin(text), encoding="utf-8")
        runs.append(lambda path=path: issues_of(path, air_date=AIR_DATE))
    valid = demo_dir / "valid.yaml"
    valid.write_text(latin(source), encoding="utf-8")
    runs.append(lambda: issues_of(valid))  # no air date: a warning
    runs.append(lambda: issues_of(demo_dir / "missing.yaml"))
    (demo_dir / "empty.yaml").write_text("# nothing\n", encoding="utf-8")
    runs.append(lambda: issues_of(demo_dir / "empty.yaml"))
    for hostile in (
        "a: &x [1, *x]\n",
        "a: 1\n---\nb: 2\n",
        "[1, 2]\n",
        "sponsors: {}\ntitle: 1\nformat: x\n",
    ):
        runs.append(lambda hostile=hostile: _parsed(hostile, demo_dir))
    for run in runs:
        found.extend(run())
    assert len(found) >= 80, f"only {len(found)} issues: the broken inputs no longer break"
    assert {i.level for i in found} == {"error", "warning"}
    bad = [f"{i.message} → {i.message_en!r}" for i in found if not i.message_en or HAN.search(i.message_en)]
    bad += [f"{i.fix} → {i.fix_en!r}" for i in found if (i.fix and not i.fix_en) or HAN.search(i.fix_en)]
    assert not bad, f"{len(bad)} of {len(found)} messages lack English:\n" + "\n".join(sorted(set(bad)))
    # the Chinese stays as it was: str() and the Chinese text, and the English text picks the English
    i = next(i for i in found if i.fix)
    assert str(i).endswith(f"{i.message}；{i.fix}") and i.text() == f"{i.message}；{i.fix}"
    assert i.text("en") == f"{i.message_en}; {i.fix_en}" and i.located("en").endswith(i.text("en"))
    assert Issue("f", 1, 1, "坏了", "修").text("en") == "坏了；修"  # no English: the Chinese


def _parsed(text: str, base: Path) -> list[Issue]:
    try:
        parse_placements(text, "x.yaml", base=base, air_date=AIR_DATE)
    except PlacementError as exc:
        return exc.issues
    return []
