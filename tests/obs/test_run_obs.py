"""``python -m broadcast run`` against a real OBS, end to end, as the README's run command does it.

The studio's command, with OBS given by the environment (GOUJI_OBS_*), plays the demo match: the
corner bug, the opening bumpers, the 冠名/特约 films through OBS, three games on the scoreboard, the
英雄榜 and its 冠名 film, the credits; then it stops cleanly. The as-run log in its database holds what
OBS confirmed (and nothing the application only intended), every interval closed at the stop, the
episode's end, a chain that verifies, and never the password. The placements are the demo set without
the supporters' and spots' films (about a minute and a half of films the test does not need); a quick run
holds each film 2 s after OBS started it (its end in the as-run says "held").
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from broadcast.obs.headless import HeadlessObs
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.exposure import compute
from broadcast.sponsors.placements import load_placements

from .conftest import PASSWORD, ROOT

pytestmark = pytest.mark.obs


def _placements(tmp: Path) -> Path:
    shutil.copytree(ROOT / "sponsor_assets" / "demo", tmp / "set")
    path = tmp / "set" / "placements.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for k in ("supporters", "spots"):
        data.pop(k)
    data["rundown"]["breaks"] = [{"after": "opening", "items": ["xiaodangjia_15s", "yiheyuan_15s"]}]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.long
@pytest.mark.timeout(600)  # a real OBS through outages on a shared, loaded machine
def test_run_puts_the_show_on_a_real_obs_and_records_only_what_it_confirmed(
    obs_server: HeadlessObs, tmp_path: Path
) -> None:
    db = tmp_path / "studio.sqlite"
    env = dict(
        os.environ,
        GOUJI_OBS_HOST="127.0.0.1",
        GOUJI_OBS_PORT=str(obs_server.port),
        GOUJI_OBS_PASSWORD=PASSWORD,
        GOUJI_OBS_TIMEOUT="10",
    )
    env.pop("GOUJI_OBS_SETTINGS", None)
    args = ["--db", str(db), "--placements", str(_placements(tmp_path)), "--air-date", "2012-05-07"]
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "run",
            *args,
            "--port",
            "0",
            "--pace",
            "0",
            "--quick",
            "--exit-when-done",
            "--wait-obs",
            "120",
            # no 胜率 workers (not checked here): their two processes evaluated every play of the match,
            # on the OBS worker's critical path
            *("--winprob-workers", "0", "--commentators-port", "-1"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout
    assert "OBS 已连接，节目画面已确认" in out, out[-3000:]
    assert "中插 break" in out and "彩排完成" in out
    assert PASSWORD not in out and PASSWORD not in r.stderr
    assert PASSWORD.encode() not in db.read_bytes()
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT kind, subject, source, detail FROM asrun_events WHERE episode='彩排' ORDER BY id"
    ).fetchall()
    conn.close()
    kinds = [(k, s, src) for k, s, src, _d in rows]
    on = {s for k, s, src in kinds if k == "graphic_on" and src == "obs"}
    # (--quick holds the finale's graphics 0.2 s: OBS may never show one that the next change replaced
    # before it was applied — then it is not on air, and the 英雄榜冠名 film only follows a board that was)
    assert {"corner_bug", "bumper", "scoreboard"} <= on, on
    films = [s for k, s, src in kinds if k == "film_start" and src == "obs"]
    assert films[:2] == ["xiaodangjia_15s", "yiheyuan_15s"], films
    # the 英雄榜冠名 film airs only after a board that aired (with --quick the credits come 0.2 s after the
    # board: they may take program before OBS has started the film, which then never aired)
    assert "luxin_15s" not in films or "leaderboard" in on
    assert [s for k, s, _src in kinds if k == "film_end"] == films
    # a quick run holds each break film QUICK_FILM_S after OBS started it, then stops it (the next one is
    # asked for only then): each one's end says so, and the second started after the first ended
    ends = [(s, json.loads(d)) for k, s, src, d in rows if k == "film_end" and src == "obs"]
    assert [(s, d.get("stopped")) for s, d in ends[:2]] == [(f, "held") for f in films[:2]], ends
    order = [(k, s) for k, s, src in kinds if src == "obs" and k in ("film_start", "film_end")]
    assert order[:4] == [
        ("film_start", films[0]),
        ("film_end", films[0]),
        ("film_start", films[1]),
        ("film_end", films[1]),
    ]
    # one reel: the second film rolled straight from the first, program never back on the show between
    i, j = kinds.index(("film_end", films[0], "obs")), kinds.index(("film_start", films[1], "obs"))
    assert [s for k, s, _src in kinds[i:j] if k == "program_scene"] == [], kinds[i:j]
    assert not any(src == "app" for k, _s, src in kinds if k in ("graphic_on", "film_start", "program_scene"))
    # a clean stop: everything closed, OBS "stopped", the episode's end last
    assert kinds[-1][0] == "episode_end" and ("obs_down", "stopped", "obs") in kinds
    still_on: set[str] = set()
    for k, s, _src in kinds:
        if k == "graphic_on":
            still_on.add(s)
        elif k == "graphic_off":
            still_on.discard(s)
    assert still_on == set()
    # the report reads it back: chain verified, no OBS outage while the show ran
    rep = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "report",
            "彩排",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "r"),
            "--no-pdf",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert rep.returncode == 0, rep.stderr
    # the run anchored its chain: the signed heads agree with the rows, and the episode has its receipt
    assert "播出记录校验通过" in rep.stdout and "match the head ledger" in rep.stdout, rep.stdout
    assert "没有任何播出证据" not in rep.stdout
    assert Path(f"{db}.heads").is_file() and Path(f"{db}.receipts", "彩排.json").is_file()
    assert "回执 receipt:" in rep.stdout and ".asrun.json" in rep.stdout
    log = AsRunLog.open(db)
    info = log.episode("彩排")
    assert info is not None and info.ended is not None
    x = compute(
        load_placements(tmp_path / "set" / "placements.yaml"),
        "彩排",
        log.events("彩排"),
        info=info,
        link_at_start=log.link_before(info.started or 0.0),
        chain=log.verify(),
    )
    log.close()
    assert not [o for o in x.outages if o.cause in ("lost", "frozen")]
    cov = next(m for s in x.sponsors for m in s.metrics if "覆盖率" in m.what)
    assert cov.delivered > 50.0, cov  # the corner bug was up for the show (the films aside)
