"""Roster import: CSV (UTF-8, UTF-8 with BOM, GBK) and XLSX; all or nothing; errors name file:row N."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from broadcast.__main__ import main as cli
from broadcast.season.importer import ImportError_, import_file
from broadcast.season.model import SeasonDB

GOOD = [
    ["姓名", "队伍", "性别", "电话", "编号", "籍贯", "备注"],
    ["王建国", "小当家便利店联盟队", "男", "13805391234", "A01", "兰山区", ""],
    ["李秀英", "小当家便利店联盟队", "女", "0539-8123456", "A02", "河东区", "队长"],
    ["张志强", "沂河源矿泉水队", "男", "", "B01", "", ""],
]


def _csv(path: Path, rows: list[list[str]], encoding: str) -> Path:
    path.write_bytes("\r\n".join(",".join(r) for r in rows).encode(encoding) + b"\r\n")
    return path


def _xlsx(path: Path, rows: list[list[object]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "选手名单"
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


@pytest.fixture
def season(db_path: Path) -> tuple[SeasonDB, int]:
    sdb = SeasonDB.open(db_path)
    return sdb, sdb.create_season("导入测试")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gbk"])
def test_csv_in_every_encoding_excel_saves(
    season: tuple[SeasonDB, int], tmp_path: Path, encoding: str
) -> None:
    sdb, sid = season
    rep = import_file(sdb, sid, _csv(tmp_path / "名单.csv", GOOD, encoding))
    assert (rep.added, rep.updated) == (3, 0)
    assert sorted(rep.teams_created) == ["小当家便利店联盟队", "沂河源矿泉水队"]
    names = {p["name"]: p for p in sdb.players(sid)}
    assert names["李秀英"]["gender"] == "女" and names["李秀英"]["phone"] == "0539-8123456"
    assert names["王建国"]["hometown"] == "兰山区"


def test_a_utf8_roster_without_a_bom_is_read_as_utf8_even_when_its_bytes_are_also_gbk(
    season: tuple[SeasonDB, int], tmp_path: Path
) -> None:
    """UTF-8 is tried before GB18030: these UTF-8 bytes are also valid GB18030 (濮撳悕 …), so only the
    order of the two decides that the names come in as written."""
    rows = [["姓名", "队伍"], ["张伟", "红队"], ["李娜", "红队"], ["王强", "蓝队"]]
    path = _csv(tmp_path / "名单.csv", rows, "utf-8")
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and raw.decode("gb18030") != raw.decode("utf-8")
    sdb, sid = season
    rep = import_file(sdb, sid, path)
    assert (rep.added, sorted(rep.teams_created)) == (3, ["红队", "蓝队"])
    assert sorted(p["name"] for p in sdb.players(sid)) == sorted(["张伟", "李娜", "王强"])


def test_xlsx_with_numeric_phone_and_aliases(season: tuple[SeasonDB, int], tmp_path: Path) -> None:
    sdb, sid = season
    rows: list[list[object]] = [
        ["选手姓名", "战队", "手机号", "sex", "年龄"],
        ["刘德胜", "兰山够级协会队", 13912345678, "M", 56],
    ]
    rep = import_file(sdb, sid, _xlsx(tmp_path / "r.xlsx", rows))
    assert rep.added == 1 and rep.ignored_columns == ["年龄"]
    p = sdb.players(sid)[0]
    assert (p["name"], p["phone"], p["gender"]) == ("刘德胜", "13912345678", "男")


def test_bad_rows_are_reported_with_row_numbers_and_nothing_is_imported(
    season: tuple[SeasonDB, int], tmp_path: Path
) -> None:
    sdb, sid = season
    rows = [r[:] for r in GOOD] + [
        ["", "沂河源矿泉水队", "男", "", "B02", "", ""],
        ["赵六", "沂河源矿泉水队", "未知", "12345", "A01", "", ""],
    ]
    path = _csv(tmp_path / "bad.csv", rows, "utf-8")
    with pytest.raises(ImportError_) as exc:
        import_file(sdb, sid, path)
    errs = exc.value.errors
    assert any(e.startswith(f"{path}:row 5: ") and "姓名为空" in e for e in errs)
    assert any(e.startswith(f"{path}:row 6: ") and "性别" in e for e in errs)
    assert any(e.startswith(f"{path}:row 6: ") and "电话" in e for e in errs)
    assert any(e.startswith(f"{path}:row 6: ") and "编号 A01" in e and "第 2 行" in e for e in errs)
    assert sdb.players(sid) == [] and sdb.teams(sid) == []


def test_missing_photo_and_missing_name_column(season: tuple[SeasonDB, int], tmp_path: Path) -> None:
    sdb, sid = season
    (tmp_path / "wang.jpg").write_bytes(b"\xff\xd8\xff")
    path = _csv(tmp_path / "p.csv", [["姓名", "照片"], ["王五", "wang.jpg"], ["李四", "nope.jpg"]], "utf-8")
    with pytest.raises(ImportError_) as exc:
        import_file(sdb, sid, path)
    assert exc.value.errors == [f"{path}:row 3: 照片文件不存在：nope.jpg / photo file not found"]
    path2 = _csv(tmp_path / "h.csv", [["队伍", "电话"], ["甲", "13800000000"]], "utf-8")
    with pytest.raises(ImportError_, match="row 1: 缺少“姓名”列"):
        import_file(sdb, sid, path2)
    assert sdb.players(sid) == []


def test_reimport_updates_instead_of_duplicating(season: tuple[SeasonDB, int], tmp_path: Path) -> None:
    sdb, sid = season
    import_file(sdb, sid, _csv(tmp_path / "a.csv", GOOD, "utf-8"))
    changed = [r[:] for r in GOOD]
    changed[3][3] = "13700001111"
    rep = import_file(sdb, sid, _csv(tmp_path / "b.csv", changed, "utf-8"))
    assert (rep.added, rep.updated) == (0, 3)
    assert len(sdb.players(sid)) == 3
    assert sdb.find_players(sid, "张志强")[0]["phone"] == "13700001111"


def test_dry_run_keeps_nothing(season: tuple[SeasonDB, int], tmp_path: Path) -> None:
    sdb, sid = season
    rep = import_file(sdb, sid, _csv(tmp_path / "a.csv", GOOD, "utf-8"), dry_run=True)
    assert rep.added == 3 and sdb.players(sid) == [] and sdb.teams(sid) == []


def test_cli_import_exit_status_and_one_line_per_error(
    db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    SeasonDB.open(db_path).close()
    assert cli(["season", "create", "第一季", "--db", str(db_path)]) == 0
    good = _csv(tmp_path / "good.csv", GOOD, "gbk")
    assert cli(["import", str(good), "--db", str(db_path)]) == 0
    assert "新增 3 名" in capsys.readouterr().out
    bad = _xlsx(tmp_path / "bad.xlsx", [["姓名", "性别"], ["甲", "男"], ["乙", "x"]])
    assert cli(["import", str(bad), "--db", str(db_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"{bad}:row 3: 性别") and err[-1].startswith("未导入任何数据")
    assert "Traceback" not in "\n".join(err)
    not_xlsx = tmp_path / "fake.xlsx"
    not_xlsx.write_text("hello")
    assert cli(["import", str(not_xlsx), "--db", str(db_path)]) == 2
    assert "不是有效的 XLSX" in capsys.readouterr().err
    with SeasonDB.open(db_path) as sdb:
        assert len(sdb.players(int(sdb.season()["id"]))) == 3
    # a roster bringing many teams: the line names the first ten and how many in all
    many = _csv(
        tmp_path / "many.csv",
        [["姓名", "队伍"]] + [[f"选手{i:02d}", f"新队{i:02d}"] for i in range(12)],
        "utf-8",
    )
    assert cli(["import", str(many), "--db", str(db_path)]) == 0
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert "新队00、" in line and "新队09…（共 12 支 / 12 in all）" in line and "新队10" not in line
