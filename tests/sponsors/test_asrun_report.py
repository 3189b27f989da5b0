"""As-run → exposure arithmetic on a scripted episode in a real SQLite file; the report files open.

The script (times relative to T0, the episode start) is short enough to check by hand:

  0   show.update → episode starts; corner bug on (app); 冠名 bumper on, off at 5 (full)
  5   独家特约 bumper on, off at 8 (3 s: not a full airing)
  10  冠名 15 s film (app playout) until 25
  30  scoreboard on (app); 口播 小当家 ×5 at 40…80; table shots at 50 and 60
  100 OBS connects: the app hands over (closes its intervals); OBS reports from 102
  102 OBS: corner bug on (never goes off: closed at the episode end, flagged), scoreboard on
  110–120 and 130–135 OBS program scene 桌面俯拍 (the table top): two more appearances
  140–155 OBS: 八宝豆豉 15 s spot (booked twice: 1/2)
  200 OBS: scoreboard off; the app's own graphic.set is ignored while OBS is connected
  210, 220 九宫格 draws (cells 5 and 1)
  230–250 OBS: 英雄榜; 255–270 its 15 s film (follows within 5 s)
  prizes 800 + 450.5 → charity 125.05;  300 the episode ends
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook
from PIL import Image

from broadcast.core.airlog import FILM_END, FILM_START, GRAPHIC_OFF, GRAPHIC_ON, PROGRAM_SCENE, AirEvent
from broadcast.sponsors.asrun import AsRunLog, AsRunRecorder
from broadcast.sponsors.exposure import EpisodeExposure, Metric, compute
from broadcast.sponsors.placements import Placements
from broadcast.sponsors.report import write_reports
from broadcast.sponsors.simulate import ScriptClock, air_start
from broadcast.studio import open_store
from tests.sponsors.conftest import DEMO_YAML, ROOT

EP = "第7期"
T0 = air_start("2012-05-07")


def _jpeg(color: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (640, 360), color).save(buf, "JPEG")
    return buf.getvalue()


def play(db: Path, p: Placements) -> int:
    clock = ScriptClock(T0)
    store = open_store(db, clock=clock)
    log = AsRunLog.open(db)
    rec = AsRunRecorder(store, log, clock=clock)
    d = store.dispatch

    def at(t: float) -> None:
        clock.now = T0 + t

    def obs(t: float, kind: str, subject: str, **detail: object) -> int:
        return log.record(AirEvent(T0 + t, kind, subject, "obs", detail=dict(detail)))

    def prog(g: str, on: bool, item: str = "") -> None:
        d("graphic.set", {"bus": "program", "graphic": g, "on": on, **({"item": item} if item else {})})

    d("sponsors.load", p.to_state())
    d("show.update", {"episode": EP, "air_date": "2012-05-07"})
    prog("corner_bug", True, "yiheyuan")
    prog("bumper", True, "title")
    at(5)
    prog("bumper", True, "special")  # item change: title off, special on
    at(8)
    prog("bumper", False)
    at(10)
    rec.film_started("xiaodangjia_15s", sponsor="xiaodangjia")
    at(25)
    rec.film_ended("xiaodangjia_15s")
    at(30)
    prog("scoreboard", True, "game 1")
    for t in (40, 50, 60, 70, 80):
        at(t)
        d("sponsor.mention", {"sponsor": "xiaodangjia"})
        if t in (50, 60):
            d("sponsor.shot", {"slot": "table"})
    rec.flush()
    rec.set_obs_connected(True, ts=T0 + 100)
    rec.flush()
    obs(102, GRAPHIC_ON, "corner_bug", item="yiheyuan")
    proof_event = obs(102, GRAPHIC_ON, "scoreboard", item="game 1")
    log.attach_proof(proof_event, _jpeg((220, 0, 220)), 640, 360)  # magenta: no logo uses it
    obs(110, PROGRAM_SCENE, "桌面俯拍")
    obs(120, PROGRAM_SCENE, "全景")
    obs(130, PROGRAM_SCENE, "桌面俯拍")
    obs(135, PROGRAM_SCENE, "全景")
    obs(140, FILM_START, "babao_15s", sponsor="babao")
    obs(155, FILM_END, "babao_15s")
    at(200)
    prog("scoreboard", False)  # OBS is the source now: the app records nothing
    obs(200, GRAPHIC_OFF, "scoreboard", item="game 1")
    at(210)
    d("jiugongge.draw", {"contestant": "王建国", "cell": 4})
    at(220)
    d("jiugongge.draw", {"contestant": "<script>李秀英</script>", "cell": 0})
    d("charity.update", {"prize": {"contestant": "王建国", "yuan": 800, "note": "擂台奖金"}})
    d("charity.update", {"prize": {"contestant": "<script>李秀英</script>", "yuan": 450.5}})
    obs(230, GRAPHIC_ON, "leaderboard", item="rank")
    obs(250, GRAPHIC_OFF, "leaderboard", item="rank")
    obs(255, FILM_START, "luxin_15s")
    obs(270, FILM_END, "luxin_15s")
    at(300)
    rec.end_episode()
    rec.flush()
    assert rec.errors == []
    rec.close()
    log.close()
    store.close()
    return proof_event


@pytest.fixture(scope="module")
def episode(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Placements, EpisodeExposure, int]:
    from datetime import date

    from broadcast.sponsors.placements import load_placements

    p = load_placements(DEMO_YAML, air_date=date(2012, 5, 7))
    db = tmp_path_factory.mktemp("asrun") / "studio.sqlite"
    proof = play(db, p)
    log = AsRunLog.open(db)
    x = compute(
        p, EP, log.events(EP), info=log.episode(EP), prizes=log.prizes(EP), season_prizes=log.prizes()
    )
    log.close()
    return db, p, x, proof


def _near(c: tuple[int, ...], ref: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, ref, strict=False))


def m(x: EpisodeExposure, sponsor: str, slot: str, what: str) -> Metric:
    hits = [k for k in x.sponsor(sponsor).metrics if k.slot_key == slot and what in k.what]
    assert len(hits) == 1, [(k.slot_key, k.what) for k in x.sponsor(sponsor).metrics]
    return hits[0]


def test_asrun_rows_in_sqlite(episode: tuple[Path, Placements, EpisodeExposure, int]) -> None:
    db, _p, x, _ = episode
    log = AsRunLog.open(db)
    info = log.episode(EP)
    assert info is not None and info.started == pytest.approx(T0) and info.ended == pytest.approx(T0 + 300)
    assert info.placements["digest"] and info.air_date == "2012-05-07"
    ev = log.events(EP)
    app_graphics = [
        (e.ts - T0, e.kind, e.subject, e.detail.get("item"))
        for e in ev
        if e.source == "app" and e.kind in (GRAPHIC_ON, GRAPHIC_OFF)
    ]
    assert app_graphics == [
        (0, GRAPHIC_ON, "corner_bug", "yiheyuan"),
        (0, GRAPHIC_ON, "bumper", "title"),
        (5, GRAPHIC_OFF, "bumper", "title"),
        (5, GRAPHIC_ON, "bumper", "special"),
        (8, GRAPHIC_OFF, "bumper", "special"),
        (30, GRAPHIC_ON, "scoreboard", "game 1"),
        (100, GRAPHIC_OFF, "scoreboard", "game 1"),
        (100, GRAPHIC_OFF, "corner_bug", "yiheyuan"),
    ]
    draws = [e.detail for e in ev if e.kind == "draw"]
    assert draws[0] == {
        "draw": 1,
        "contestant": "王建国",
        "cell": 4,
        "prize": "煎饼礼盒",
        "sponsor": "langya",
        "sponsor_name": "琅琊煎饼坊",
    }
    assert [e.source for e in ev if e.kind == "mention"] == ["operator"] * 5
    assert [(pr.contestant, pr.yuan) for pr in log.prizes(EP)] == [
        ("王建国", 800.0),
        ("<script>李秀英</script>", 450.5),
    ]
    log.close()


def test_exposure_arithmetic(episode: tuple[Path, Placements, EpisodeExposure, int]) -> None:
    _db, _p, x, _ = episode
    assert x.duration == pytest.approx(300) and x.film_seconds == pytest.approx(45)
    # bumpers: 冠名 5 s full; 独家特约 cut at 3 s; 赞助播出 never aired
    assert (
        m(x, "xiaodangjia", "title", "标版").delivered,
        m(x, "xiaodangjia", "title", "标版").shortfall,
    ) == (1, False)
    special = m(x, "yiheyuan", "special", "标版")
    assert special.delivered == 0 and special.shortfall and "3.0 秒（不完整）" in special.note
    assert m(x, "shunhe", "supporter:1", "标版").shortfall
    # the corner bug: app 0–100, hand-over, OBS 102–end (never switched off) = one interval over 300 s,
    # minus the 45 s of films → 255 of 255 programme seconds
    cov = m(x, "yiheyuan", "special", "覆盖率")
    assert cov.delivered == 100.0 and not cov.shortfall
    assert any("corner_bug" in f and "截断" in f for f in x.flags)
    assert any("OBS 与应用" in f for f in x.flags)
    # the scoreboard (title name on the game platform): app 30–100 + OBS 102–200 merged → 1 × 170 s
    plat = m(x, "xiaodangjia", "title", "游戏平台")
    assert plat.delivered == 1 and "共 170 秒" in plat.note
    # 口播: 5 marked, owed 5 (冠名) + 1 (奖品展示台)
    mention = m(x, "xiaodangjia", "mentions", "口播")
    assert (mention.promised, mention.delivered, mention.shortfall) == (6, 5, True)
    # table top: 2 operator shots + 2 OBS scenes = 4 < 5
    table = m(x, "jinyimeng", "table", "出镜")
    assert (table.promised, table.delivered, table.shortfall) == (5, 4, True)
    # the board under the grid: each draw close-up counts, 2 < 4
    board = m(x, "shunhe", "jiugongge_board", "出镜")
    assert (board.promised, board.delivered, board.shortfall) == (4, 2, True)
    # films: 冠名 15 s once (app), 八宝豆豉 1 of 2 (OBS), 英雄榜 film right after the 英雄榜
    assert m(x, "xiaodangjia", "title", "宣传片").delivered == 1
    spot = m(x, "babao", "spot:babao_15s", "中插")
    assert (spot.promised, spot.delivered, spot.shortfall) == (2, 1, True)
    assert m(x, "luxin", "leaderboard", "紧接英雄榜").delivered == 1
    assert m(x, "luxin", "leaderboard", "出镜").delivered == 1
    # draws per cell
    assert m(x, "langya", "cell:4", "九宫格抽中").delivered == 1
    assert m(x, "xiaodangjia", "cell:0", "九宫格抽中").delivered == 1
    assert m(x, "mengshan", "cell:6", "九宫格抽中").delivered == 0
    # 爱心基金: 10 % of 1250.5
    assert (x.prize_total, x.charity, x.season_charity) == (1250.5, 125.05, 125.05)


def test_report_files_open(
    episode: tuple[Path, Placements, EpisodeExposure, int], tmp_path: Path, artifacts: Path
) -> None:
    db, p, x, proof = episode
    log = AsRunLog.open(db)
    files = write_reports(x, p, tmp_path, proofs=log.proofs(EP))
    log.close()
    assert files.xlsx is not None and files.html is not None and files.pdf is not None
    wb = load_workbook(files.xlsx)
    assert {"汇总", "播出记录", "九宫格抽奖", "爱心基金", "小当家", "金沂蒙酒业"} <= set(wb.sheetnames)
    ws = wb["汇总"]
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    head = rows.index(["赞助商", "广告位", "项目", "每期承诺", "实际", "单位", "结果", "说明"])
    table_row = next(i for i, r in enumerate(rows) if r[0] == "金沂蒙酒业" and r[1] == "桌面广告位")
    assert rows[table_row][3:7] == ["5", "4", "次", "未达标"] and table_row > head
    assert ws.cell(row=table_row + 1, column=5).fill.fgColor.rgb.endswith("FFC7CE")
    ok_row = next(i for i, r in enumerate(rows) if r[0] == "小当家" and r[2] == "5秒标版（完整播出）")
    assert rows[ok_row][6] == "达标" and not ws.cell(row=ok_row + 1, column=5).fill.fgColor.rgb.endswith(
        "FFC7CE"
    )
    charity = [[c.value for c in row] for row in wb["爱心基金"].iter_rows()]
    assert ["本期爱心基金（10%）", None, 125.05, None] in charity
    draws = [[c.value for c in row] for row in wb["九宫格抽奖"].iter_rows()]
    assert draws[1][2:] == ["王建国", 5, "煎饼礼盒", "琅琊煎饼坊"]
    text = files.html.read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;李秀英&lt;/script&gt;" in text
    assert text.count("data:image/jpeg;base64,") == 1  # the OBS proof, on 小当家's page
    assert "http://" not in text and "src='/" not in text and 'src="/' not in text  # self-contained
    assert set(files.sponsor_pdfs) == set(p.sponsors)
    # render the PDF's pages to images and keep them for a person to look at
    out = artifacts / "sponsors"
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(files.pdf, out / "report.pdf")
    shutil.copy(files.xlsx, out / "report.xlsx")
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        pytest.skip("pdftoppm (poppler-utils) missing")
    for old in out.glob("*.png"):
        old.unlink()
    subprocess.run(
        [pdftoppm, "-r", "70", "-png", "-f", "1", "-l", "2", str(files.pdf), str(out / "report")],
        check=True,
        timeout=60,
    )
    xdj = files.sponsor_pdfs["xiaodangjia"]
    shutil.copy(xdj, out / "report_xiaodangjia.pdf")
    subprocess.run([pdftoppm, "-r", "70", "-png", str(xdj), str(out / "xiaodangjia")], check=True, timeout=60)
    pages = sorted(out.glob("report-*.png"))
    assert len(pages) == 2
    with Image.open(pages[0]) as im:
        gray = im.convert("L")
        assert gray.width > 500 and gray.getextrema()[0] < 80  # real ink on the page
        # the shortfall rows are printed red (#ffc7ce background)
        assert (
            sum(n for n, c in im.convert("RGB").getcolors(1 << 20) or [] if _near(c, (255, 199, 206))) > 2000
        )
    magenta = 0
    for page in sorted(out.glob("xiaodangjia-*.png")):  # 小当家's pages carry the (magenta) proof thumbnail
        with Image.open(page) as im:
            magenta += sum(
                n for n, c in im.convert("RGB").getcolors(1 << 20) or [] if _near(c, (220, 0, 220), 40)
            )
    assert magenta > 2000


def test_report_cli(episode: tuple[Path, Placements, EpisodeExposure, int], tmp_path: Path) -> None:
    db, _p, _x, _ = episode
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "report",
            EP,
            "--db",
            str(db),
            "--out",
            str(tmp_path),
            "--no-pdf",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith("金沂蒙酒业"))
    assert "✗" in line and "桌面广告位 上屏/出镜次数 4/5次" in line
    assert (tmp_path / f"赞助商播出报告_{EP}.xlsx").is_file()
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "report", "第99期", "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 2 and "没有 '第99期' 的播出记录" in r.stderr and EP in r.stderr
