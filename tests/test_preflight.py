"""The pre-show check (issue 19): each line green or red with what to do — OBS against the layout
provisioning makes (the unit tests' fake obs-websocket), the rundown's assets and the contracts on the
air date (a broken copy of the demo placements), the episode/teams/seats, the disk space of a whole show;
and ``python -m broadcast preflight`` on a real SQLite file (exit 0/1/2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import namedtuple
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from broadcast import preflight as P
from broadcast.obs import layout as L
from broadcast.obs.errors import ObsUnreachable
from broadcast.obs.provision import provision
from broadcast.studio import default_state, open_store
from tests.obs.test_unit import DEBIAN_KINDS, FakeObs

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "sponsor_assets" / "demo"
AIR = date(2012, 5, 7)
Usage = namedtuple("Usage", "total used free")


@pytest.fixture(scope="module")
def demo_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dst = tmp_path_factory.mktemp("preflight") / "set"
    shutil.copytree(DEMO, dst)
    return dst


def _variant(folder: Path, name: str, old: str, new: str) -> Path:
    text = (DEMO / "placements.yaml").read_text(encoding="utf-8")
    assert old in text
    path = folder / f"{name}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_no(path: Path, marker: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text.count("\n", 0, text.index(marker)) + 1


def _by(lines: list[P.Line], ident: str) -> list[P.Line]:
    return [ln for ln in lines if ln.id == ident]


# -- the rundown's assets and the contracts ------------------------------------------------------
def test_the_demo_placements_are_green_on_an_air_date_they_cover(demo_copy: Path) -> None:
    lines, p = P.check_placements(demo_copy / "placements.yaml", AIR, "第1期")
    assert p is not None and not P.red(lines)
    (assets,) = _by(lines, "assets")
    (contracts,) = _by(lines, "contracts")
    assert assets.status == P.OK and f"{len(p.films)} 条宣传片" in assets.zh and "decodable" in assets.en
    assert contracts.status == P.OK and "2012-05-07" in contracts.zh


def test_a_missing_asset_is_red_naming_the_file_and_its_line(demo_copy: Path) -> None:
    path = _variant(demo_copy, "missing", "file: films/jiaxin_5s.mp4", "file: films/gone_5s.mp4")
    lines, p = P.check_placements(path, AIR)
    assert p is None
    (bad,) = _by(lines, "assets")
    assert bad.red and "films/gone_5s.mp4" in bad.zh and "films/gone_5s.mp4" in bad.en
    assert bad.where == f"{path}:{_line_no(path, 'films/gone_5s.mp4')}"
    assert bad.fix_zh and bad.fix_en and "✘" == P.MARK[bad.status]
    assert not _by(lines, "contracts") or all(ln.red for ln in _by(lines, "contracts")) is False


def test_a_film_of_the_wrong_length_is_red(demo_copy: Path) -> None:
    path = _variant(demo_copy, "length", "file: films/xiaodangjia_15s.mp4", "file: films/shunhe_10s.mp4")
    lines, _p = P.check_placements(path, AIR)
    (bad,) = _by(lines, "assets")
    assert bad.red and "实际长 10.0 秒" in bad.zh and "not 15 s" in bad.en and "剪成 15 秒" in bad.fix_zh


def test_an_expired_contract_is_red_and_an_unknown_air_date_too(demo_copy: Path) -> None:
    path = _variant(
        demo_copy,
        "expired",
        "contract: {start: 2012-04-01, end: 2012-12-30}\n  price: {yuan: 240000",
        "contract: {start: 2012-04-01, end: 2012-05-06}\n  price: {yuan: 240000",
    )
    lines, _p = P.check_placements(path, AIR)
    (bad,) = _by(lines, "contracts")
    assert bad.red and "不包含本期播出日期 2012-05-07" in bad.zh and "does not cover" in bad.en
    assert not _by(lines, "assets")  # the assets are fine: no line claims otherwise, none is green either
    lines, p = P.check_placements(demo_copy / "placements.yaml", None)
    (unknown,) = _by(lines, "contracts")
    assert p is not None and unknown.red and "--air-date" in unknown.fix_zh
    (green,) = _by(lines, "assets")
    assert green.status == P.OK


def test_no_placements_file_is_red() -> None:
    (line,), p = P.check_placements(None, AIR)
    assert p is None and line.red and line.id == "placements" and "--placements" in line.fix_en


# -- the episode, teams and seats ----------------------------------------------------------------
def _seated() -> dict[str, Any]:
    st = default_state()
    st["show"]["episode"], st["show"]["round"] = "第16期", "半决赛"
    st["table"]["teams"]["odd"]["name"], st["table"]["teams"]["even"]["name"] = "小当家队", "琅琊队"
    for seat, name in zip(
        st["table"]["seats"], ("王一", "李二", "张三", "赵四", "钱五", "孙六"), strict=True
    ):
        seat["name"] = name
    st["match"]["season"] = {"season_id": 1, "match_id": 1, "episode": "第16期"}
    return st


def test_the_table_not_set_up_is_red_and_a_seated_match_green() -> None:
    lines = P.check_setup(default_state())
    assert [ln.id for ln in P.red(lines)] == ["episode", "teams", "seats"]
    assert "1号、2号、3号、4号、5号、6号" in _by(lines, "seats")[0].zh
    assert all("Ctrl+N" in ln.fix_zh and "Ctrl+N" in ln.fix_en for ln in P.red(lines))
    lines = P.check_setup(_seated())
    assert not P.red(lines) and all(ln.status == P.OK for ln in lines)
    assert (
        "小当家队 对 琅琊队" in _by(lines, "teams")[0].zh and "第16期 · 半决赛" in _by(lines, "episode")[0].zh
    )
    st = _seated()
    st["table"]["seats"][3]["name"] = "4号位"  # the table's placeholder is nobody
    st["match"]["season"] = None
    lines = P.check_setup(st)
    assert [ln.text("en") for ln in P.red(lines)] == [
        "no player in seat 4 — Match → New match (Ctrl+N): the episode, teams and players from the season"
    ]


def test_a_match_outside_the_season_is_amber() -> None:
    st = _seated()
    st["match"]["season"] = None
    lines = P.check_setup(st)
    assert not P.red(lines) and [ln.status for ln in _by(lines, "seats")] == [P.OK, P.WARN]


# -- disk space ----------------------------------------------------------------------------------
def test_disk_space_for_a_whole_show(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    est = P.estimate(db, films=8)
    # the proofs' budget: every sponsor graphic at most once per PROOF_EVERY of two hours, every film,
    # each taken up to twice, at 40 KiB — the biggest part of a show's writes
    assert est.proof_count == 2 * (len(L.SPONSOR_GRAPHICS) * 240 + 8)
    assert est.proofs == est.proof_count * P.PROOF_BYTES_640 and est.total < est.needed == 2 * est.total
    (ok,) = P.check_disk(db, est, usage=lambda _p: Usage(10**12, 0, 10**11))
    assert ok.status == P.OK and "磁盘空间足够" in ok.zh and ok.where == str(tmp_path)
    (full,) = P.check_disk(db, est, usage=lambda _p: Usage(10**9, 10**9 - 5 * 2**20, 5 * 2**20))
    assert full.red and "剩余 5.0 MB" in full.zh and "5.0 MB free" in full.en
    assert P.human(est.needed - 5 * 2**20) in full.fix_zh and "--db" in full.fix_en


def test_the_disk_check_reads_the_real_free_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "studio.sqlite"
    real = shutil.disk_usage(tmp_path)
    (line,) = P.check_disk(db, P.estimate(db))
    assert line.status == (P.OK if real.free >= P.estimate(db).needed else P.FAIL)
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: Usage(100, 99, 1))
    (tiny,) = P.check_disk(db, P.estimate(db))
    assert tiny.red and "剩余 1 B" in tiny.zh


def test_the_estimate_uses_the_sizes_this_database_holds(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    with open_store(db) as store:
        for n in range(5):
            store.dispatch("show.update", {"subtitle": "第" + "长" * 11}, source="test")
            del n
    from broadcast.sponsors.asrun import AsRunLog

    log = AsRunLog.open(db)
    try:
        from broadcast.core.airlog import AirEvent

        eid = log.record(AirEvent(1.0, "graphic_on", "corner_bug", "obs", episode="第1期"))
        log.attach_proof(eid, b"\xff\xd8" + b"\x00" * 199_998, 640, 360, 1.0, "节目")  # a big camera picture
    finally:
        log.close()
    est = P.estimate(db)
    assert est.proofs == int(est.proof_count * 200_000)


# -- OBS against the provisioned layout (the unit tests' fake obs-websocket) ----------------------
def test_obs_as_provisioned_is_green_and_what_is_missing_red(tmp_path: Path) -> None:
    obs = FakeObs(DEBIAN_KINDS)
    film = tmp_path / "f.mp4"
    lay = L.build_layout(default_state(), browser=False, films={"f": film})
    provision(obs, lay)
    (ok,) = P.check_obs(obs, lay, "127.0.0.1:4455")
    assert ok.status == P.OK and f"{len(lay.scenes)} 个场景" in ok.zh and "native sources" in ok.en
    del obs.scenes[L.SCENE_CREDITS]
    seat = L.graphic_items(lay, L.SCENE_GAME)["scoreboard"][0].source
    obs.scenes[L.SCENE_GAME] = [i for i in obs.scenes[L.SCENE_GAME] if i["sourceName"] != seat]
    obs.inputs[L.film_input("f")][1]["local_file"] = str(tmp_path / "other.mp4")
    lines = P.check_obs(obs, lay, "127.0.0.1:4455")
    assert all(ln.red for ln in lines) and len(lines) == 3
    text = "\n".join(ln.text() for ln in lines)
    assert f"缺少节目场景：{L.SCENE_CREDITS}" in text and f"{L.SCENE_GAME}/{seat}" in text
    assert "影片·f" in text and all("obs provision" in ln.fix_zh for ln in lines)


def test_obs_unreachable_is_one_red_line_with_the_reason() -> None:
    class Down(FakeObs):
        def pipeline(self, calls: Any, *, timeout: float | None = None) -> Any:
            raise ObsUnreachable(
                zh="127.0.0.1:4455 没有程序在监听", en="nothing is listening at 127.0.0.1:4455"
            )

    (line,) = P.check_obs(Down(DEBIAN_KINDS), L.build_layout(default_state(), browser=False))
    assert line.red and "没有程序在监听" in line.zh and "nothing is listening" in line.en
    assert "WebSocket" in line.fix_zh and "WebSocket" in line.fix_en


# -- the command line ----------------------------------------------------------------------------
def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GOUJI_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "broadcast", "preflight", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
    )


def test_the_command_prints_green_and_red_lines_and_exits_1_on_red(tmp_path: Path, demo_copy: Path) -> None:
    db = tmp_path / "studio.sqlite"
    with open_store(db) as store:
        store.dispatch("show.update", {"episode": "第1期"}, source="test")
        seq = store.seq
    before = db.read_bytes()
    common = ("--db", str(db), "--placements", str(demo_copy / "placements.yaml"), "--no-obs")
    r = _cli(*common, "--air-date", "2012-05-07", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    out = r.stdout.splitlines()
    assert out[0].startswith("✘ OBS 未连接：没有启用（--no-obs）——启动 OBS")
    assert any(ln.startswith("✔ ") and "节目流程的素材齐全" in ln for ln in out)
    assert any(ln.startswith("✔ ") and "本期：第1期" in ln for ln in out)
    assert any(ln.startswith("✘ ") and "没有队名" in ln for ln in out)
    assert out[-1] == "开录前检查：3 项未通过" and "Traceback" not in r.stderr
    with open_store(db) as store:  # read-only: nothing journaled, the file as it was
        assert store.seq == seq
    assert db.read_bytes() == before
    r = _cli(*common, "--json", "--lang", "en", cwd=tmp_path)  # no air date: the contracts unchecked
    lines = json.loads(r.stdout)
    assert r.returncode == 1 and [ln["id"] for ln in lines if ln["status"] == "fail"] == [
        "obs",
        "contracts",
        "teams",
        "seats",
    ]
    assert lines[0]["en"] == "OBS not connected: switched off (--no-obs)"


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    r = _cli("--db", str(tmp_path / "nope.sqlite"), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().count("\n") == 0 and "nope.sqlite" in r.stderr and "no such database" in r.stderr
    bad = tmp_path / "damaged.sqlite"
    bad.write_bytes(b"this is not a database, only forty-odd bytes of text" * 40)
    r = _cli("--db", str(bad), "--no-obs", cwd=tmp_path)
    assert r.returncode == 2 and "damaged.sqlite" in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0
    db = tmp_path / "ok.sqlite"
    open_store(db).close()
    for args in (("--air-date", "7 May"),):
        r = _cli("--db", str(db), *args, cwd=tmp_path)
        assert r.returncode == 2 and args[1] in r.stderr and r.stderr.strip().count("\n") == 0


def test_the_air_date_given_else_the_shows_else_the_seasons(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "season.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE season_episodes(season_id INTEGER, number INTEGER, air_date TEXT)")
    conn.execute("INSERT INTO season_episodes VALUES (1, 3, '2012-05-21'), (1, 4, '')")
    conn.commit()
    conn.close()
    st = _seated()
    st["match"]["season"] = {"season_id": 1, "match_id": 9, "episode": "第3期"}
    assert P.season_air_date(db, st) == date(2012, 5, 21)
    assert P.air_date_of(st) is None and P.air_date_of(st, "2012-06-01") == date(2012, 6, 1)
    st["show"]["air_date"] = "2012-05-14"
    assert P.air_date_of(st) == date(2012, 5, 14)
    st["match"]["season"]["episode"] = "第4期"  # the season has no date for it
    assert P.season_air_date(db, st) is None
    st["match"]["season"] = None
    assert P.season_air_date(db, st) is None and P.season_air_date(tmp_path / "none.sqlite", st) is None
