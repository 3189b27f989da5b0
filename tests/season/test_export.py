"""Exports read back: CSV, XLSX (openpyxl), JSON, the 1920×1080 PNG, GJN records re-checked by the engine."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from broadcast.__main__ import main as cli
from broadcast.season.model import SeasonDB
from broadcast.season.progress import Progress
from broadcast.season.rankings import compute, rank_label
from broadcast.season.render import font
from engine import gjn

PLACEMENTS = Path(__file__).resolve().parents[2] / "sponsor_assets" / "demo" / "placements.yaml"
HOSTILE = "<script>alert(1)</script>"
# the 英雄榜 PNG's first row, 姓名 column: x 330 and 300 px wide; the row spans y 390-444
NAME_W = 300
NAME_CELL = (330, 390, 330 + NAME_W, 444)


def _ranking(db: Path, kind: str = "players") -> list[tuple[str, str, int]]:
    with SeasonDB.open(db) as sdb:
        rows = compute(sdb.conn, int(sdb.season()["id"]), kind).rows  # type: ignore[arg-type]
        return [(rank_label(r), r.name, r.points) for r in rows]


def test_leaderboard_csv_xlsx_json_read_back(demo_db: Path, tmp_path: Path) -> None:
    want = _ranking(demo_db)
    for fmt in ("csv", "xlsx", "json"):
        out = tmp_path / f"lb.{fmt}"
        assert cli(["export", "leaderboard", "--db", str(demo_db), "--out", str(out), "--quiet"]) == 0
        assert out.is_file() and not (tmp_path / f"lb.{fmt}.part").exists()
    raw = (tmp_path / "lb.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM: Excel opens it as UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:4] == ["名次", "姓名", "队伍", "积分"]
    assert [(r[0], r[1], int(r[3])) for r in rows[1:]] == want
    wb = openpyxl.load_workbook(tmp_path / "lb.xlsx")
    ws = wb.worksheets[0]
    assert ws.title == "英雄榜（选手）"
    assert "英雄榜" in str(ws["A1"].value)
    assert [c.value for c in ws[2]][:4] == ["名次", "姓名", "队伍", "积分"]
    assert ws["A2"].font.b and ws["A2"].fill.fgColor.rgb.endswith("B22222")
    assert ws.freeze_panes == "A3"
    got = [(str(r[0]), r[1], r[3]) for r in ws.iter_rows(min_row=3, values_only=True)]
    assert got == want
    data = json.loads((tmp_path / "lb.json").read_text(encoding="utf-8"))
    assert data["kind"] == "players" and data["spec"].startswith("points desc")
    assert [(r["rank_label"], r["name"], r["points"]) for r in data["rows"]] == want


def test_team_leaderboard_and_episode_results(demo_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "teams.xlsx"
    assert (
        cli(["export", "leaderboard", "--kind", "teams", "--db", str(demo_db), "--out", str(out), "--quiet"])
        == 0
    )
    ws = openpyxl.load_workbook(out).worksheets[0]
    assert [c.value for c in ws[2]][:3] == ["名次", "队伍", "冠名"]
    assert [r[1] for r in ws.iter_rows(min_row=3, values_only=True)] == [
        n for _, n, _ in _ranking(demo_db, "teams")
    ]
    # the episode with the lots draw (第12期 in the demo)
    res = tmp_path / "ep12.xlsx"
    assert (
        cli(["export", "results", "--episode", "12", "--db", str(demo_db), "--out", str(res), "--quiet"]) == 0
    )
    wb = openpyxl.load_workbook(res)
    assert wb.sheetnames == ["比赛结果", "每局名次", "九宫格奖品"]
    head = [c.value for c in wb["比赛结果"][2]]
    row = dict(zip(head, next(wb["比赛结果"].iter_rows(min_row=3, values_only=True)), strict=True))
    assert row["决胜方式"] == "抽签" and row["抽签种子"] is not None and row["加赛"]
    assert len(list(wb["每局名次"].iter_rows(min_row=3))) == 4 * 6
    assert len(list(wb["九宫格奖品"].iter_rows(min_row=3))) == 6
    js = tmp_path / "ep12.json"
    assert (
        cli(["export", "results", "--episode", "12", "--db", str(demo_db), "--out", str(js), "--quiet"]) == 0
    )
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["matches"][0]["decided_by"] == "lots" and len(data["prizes"]) == 6


def test_png_is_1920x1080_with_sponsor_and_not_blank(
    demo_db: Path, tmp_path: Path, season_artifacts: Path
) -> None:
    out = tmp_path / "英雄榜.png"
    assert (
        cli(
            [
                "export",
                "leaderboard",
                "--db",
                str(demo_db),
                "--out",
                str(out),
                "--placements",
                str(PLACEMENTS),
            ]
        )
        == 0
    )
    img = Image.open(out)
    assert img.size == (1920, 1080) and img.format == "PNG"
    stat = ImageStat.Stat(img.convert("L"))
    assert stat.stddev[0] > 20  # text and rows, not a flat fill
    # the sponsor pill (gold) sits under the title
    pill = img.convert("RGB").crop((760, 190, 1160, 240))
    assert max(ImageStat.Stat(pill).mean) > 150
    shutil.copy(out, season_artifacts / "leaderboard_players.png")
    teams = tmp_path / "teams.png"
    assert (
        cli(
            [
                "export",
                "leaderboard",
                "--kind",
                "teams",
                "--db",
                str(demo_db),
                "--out",
                str(teams),
                "--sponsor",
                "鲁信汽车城",
            ]
        )
        == 0
    )
    assert Image.open(teams).size == (1920, 1080)
    shutil.copy(teams, season_artifacts / "leaderboard_teams.png")


def _ink(img: Image.Image) -> Image.Image:
    """1-bit mask of the gold ink the top three names are drawn in (on the dark red rows)."""
    r, g, _ = img.convert("RGB").split()
    return ImageChops.logical_and(
        r.point(lambda v: 255 if v > 180 else 0).convert("1"),
        g.point(lambda v: 255 if v > 120 else 0).convert("1"),
    )


def _count(mask: Image.Image) -> int:
    return int(mask.convert("L").histogram()[255])


def _name_as_drawn(text: str, size: tuple[int, int]) -> Image.Image:
    """``text`` as the 姓名 cell shows a name: Noto Sans CJK SC bold, 34 px or the largest even size
    down to 14 that fits the column's 300 px, left-aligned on the row's middle."""
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    px = 34
    while px > 14 and probe.textlength(text, font=font(px)) > NAME_W:
        px -= 2
    img = Image.new("L", size, 0)
    ImageDraw.Draw(img).text((0, size[1] // 2), text, font=font(px), fill=255, anchor="lm")
    return img.point(lambda v: 255 if v > 128 else 0).convert("1")


def _overlap(a: Image.Image, b: Image.Image) -> float:
    union = _count(ImageChops.logical_or(a, b))
    return _count(ImageChops.logical_and(a, b)) / union if union else 0.0


def test_png_renders_a_hostile_name_as_text(demo_db: Path, tmp_path: Path) -> None:
    """The stored characters are drawn as they are, in the first row's 姓名 cell and inside it: not
    escaped, not stripped of what looks like markup, not spilling into the next column."""
    with SeasonDB.open(demo_db) as sdb:
        sdb.conn.execute(
            "UPDATE season_players SET name=? WHERE id=("
            "SELECT player_id FROM season_player_totals ORDER BY points DESC LIMIT 1)",
            (HOSTILE,),
        )
    assert _ranking(demo_db)[0][1] == HOSTILE
    out = tmp_path / "x.png"
    assert cli(["export", "leaderboard", "--db", str(demo_db), "--out", str(out), "--quiet"]) == 0
    img = Image.open(out)
    assert img.size == (1920, 1080)
    cell = _ink(img.crop(NAME_CELL))
    assert _overlap(cell, _name_as_drawn(HOSTILE, cell.size)) > 0.9
    for wrong in ("&lt;script&gt;alert(1)&lt;/script&gt;", "alert(1)", "<script>alert(1)"):
        assert _overlap(cell, _name_as_drawn(wrong, cell.size)) < 0.5, wrong
    # nothing of the name past its column: the gap before 队伍's colour bar stays clear
    _, y0, x1, y1 = NAME_CELL
    assert _count(_ink(img.crop((x1, y0, x1 + 6, y1)))) == 0


def test_records_of_an_episode_are_rechecked_by_the_engine(demo_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "records"
    assert (
        cli(["export", "records", "--episode", "9", "--db", str(demo_db), "--out", str(out), "--quiet"]) == 0
    )
    files = sorted(out.glob("*.gjn"))
    assert len(files) == 4 and files[-1].name.endswith("-extra.gjn")  # 第9期: three games and 加赛
    with SeasonDB.open(demo_db) as sdb:
        stored = sdb.conn.execute(
            "SELECT g.points_a, g.points_b FROM season_games g JOIN season_matches m ON "
            "m.id=g.match_id JOIN season_episodes e ON e.id=m.episode_id WHERE e.number=9 "
            "ORDER BY g.number"
        ).fetchall()
    for f, (a, b) in zip(files, stored, strict=True):
        res = gjn.check(f.read_text(encoding="utf-8"), str(f))
        assert res["ok"], res
        assert (res["team_points"]["odd"], res["team_points"]["even"]) == (a, b)
    index = list(csv.reader(io.StringIO((out / "index.csv").read_text(encoding="utf-8-sig"))))
    assert len(index) == 5 and index[0][0] == "文件"


def _xlsx_values(path: Path) -> list[list[tuple[object, ...]]]:
    return [list(ws.iter_rows(values_only=True)) for ws in openpyxl.load_workbook(path).worksheets]


def _json_without_time(path: Path) -> object:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("generated", None)
    return data


def test_export_all_for_an_episode(demo_db: Path, tmp_path: Path) -> None:
    """``export all`` writes exactly the files of each single export, with the same content."""
    out = tmp_path / "all"
    assert cli(["export", "all", "--episode", "15", "--db", str(demo_db), "--out", str(out), "--quiet"]) == 0
    tag = "第15期"
    kinds = {"选手": "players", "队伍": "teams"}
    want = {f"英雄榜_{k}_{tag}.{fmt}" for k in kinds for fmt in ("csv", "xlsx", "json", "png")}
    want |= {f"比赛结果_{tag}.{fmt}" for fmt in ("csv", "xlsx", "json")} | {f"牌谱_{tag}"}
    assert {p.name for p in out.iterdir()} == want
    one = tmp_path / "one"
    one.mkdir()
    for zh, kind in kinds.items():
        for fmt in ("csv", "xlsx", "json", "png"):
            single = one / f"{kind}.{fmt}"
            args = ["export", "leaderboard", "--kind", kind, "--db", str(demo_db), "--out", str(single)]
            assert cli([*args, "--quiet"]) == 0
            mine = out / f"英雄榜_{zh}_{tag}.{fmt}"
            if fmt == "csv":
                assert mine.read_bytes() == single.read_bytes()
            elif fmt == "xlsx":
                assert _xlsx_values(mine) == _xlsx_values(single)
            elif fmt == "json":
                assert _json_without_time(mine) == _json_without_time(single)
            else:
                a, b = Image.open(mine), Image.open(single)
                assert (
                    a.size == (1920, 1080)
                    and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
                ), f"{mine.name} differs from the single export"
        players_csv = (out / f"英雄榜_选手_{tag}.csv").read_bytes().decode("utf-8-sig")
        assert [(r[0], r[1], int(r[3])) for r in list(csv.reader(io.StringIO(players_csv)))[1:]] == _ranking(
            demo_db
        )
    for fmt in ("csv", "xlsx", "json"):
        single = one / f"results.{fmt}"
        args = ["export", "results", "--episode", "15", "--db", str(demo_db), "--out", str(single), "--quiet"]
        assert cli(args) == 0
        mine = out / f"比赛结果_{tag}.{fmt}"
        if fmt == "xlsx":
            assert _xlsx_values(mine) == _xlsx_values(single)
        elif fmt == "json":
            assert _json_without_time(mine) == _json_without_time(single)
            assert _json_without_time(mine)["matches"]  # type: ignore[index]
        else:
            assert mine.read_bytes() == single.read_bytes()
    records = one / "records"
    assert (
        cli(["export", "records", "--episode", "15", "--db", str(demo_db), "--out", str(records), "--quiet"])
        == 0
    )
    mine_records = out / f"牌谱_{tag}"
    names = sorted(p.name for p in mine_records.iterdir())
    assert names == sorted(p.name for p in records.iterdir()) and "index.csv" in names and len(names) > 1
    for name in names:
        assert (mine_records / name).read_bytes() == (records / name).read_bytes(), name
        if name.endswith(".gjn"):
            assert gjn.check((mine_records / name).read_text(encoding="utf-8"), name)["ok"]


def test_bad_export_requests_exit_2_without_traceback(
    demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["export", "leaderboard", "--db", str(demo_db), "--out", str(tmp_path / "x.docx")]) == 2
    assert "未知格式" in capsys.readouterr().err
    assert (
        cli(["export", "results", "--episode", "99", "--db", str(demo_db), "--out", str(tmp_path / "r.csv")])
        == 2
    )
    assert "第99期" in capsys.readouterr().err
    assert (
        cli(
            ["export", "leaderboard", "--db", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "a.csv")]
        )
        == 2
    )
    assert not (tmp_path / "none.sqlite").exists()
    assert (
        cli(
            [
                "export",
                "leaderboard",
                "--db",
                str(demo_db),
                "--spec",
                "charm desc",
                "--out",
                str(tmp_path / "a.csv"),
            ]
        )
        == 2
    )
    assert "charm" in capsys.readouterr().err
    assert (
        cli(
            [
                "export",
                "leaderboard",
                "--db",
                str(demo_db),
                "--out",
                str(tmp_path / "a.png"),
                "--sponsor",
                "X",
                "--sponsor-logo",
                str(tmp_path / "missing.png"),
            ]
        )
        == 2
    )
    assert "missing.png" in capsys.readouterr().err


def test_progress_bar_draws_only_when_enabled() -> None:
    buf = io.StringIO()
    with Progress(200, "导出", enabled=True, stream=buf, interval=0) as bar:
        for _ in range(200):
            bar.advance()
    text = buf.getvalue()
    assert "100.0% 200/200" in text and text.endswith("\n") and "\r" in text
    quiet = io.StringIO()
    with Progress(10, "x", stream=quiet) as bar:  # a StringIO is not a TTY: off by default
        bar.advance(10)
    assert quiet.getvalue() == ""


def test_xlsx_plain_rows_keep_booleans_and_a_workbook_has_a_sheet(tmp_path: Path) -> None:
    """What test_board's plain-rows test does not hold: true/false stay booleans (not the numbers 1/0,
    though bool is an int), a NUL is dropped, and an export of no table is still a workbook Excel opens."""
    from broadcast.season.export import Table, write_xlsx

    rows: list[list[object]] = [[1, True, "a\x00b"], [2, False, 10**12]]
    out = tmp_path / "b.xlsx"
    assert write_xlsx([Table("明细", "标题", ["一", "二", "三"], [8] * 3, rows, ["a"] * 3)], out) == 2
    got = list(openpyxl.load_workbook(out).worksheets[0].iter_rows(min_row=3, values_only=True))
    assert got == [(1, True, "ab"), (2, False, 10**12)] and type(got[0][1]) is bool
    assert write_xlsx([], tmp_path / "empty.xlsx") == 0
    assert len(openpyxl.load_workbook(tmp_path / "empty.xlsx").worksheets) == 1
