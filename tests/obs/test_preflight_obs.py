"""The pre-show check against the real OBS (the shared fixture's): the console's check, asking OBS on
the bridge's own thread, is green once the bridge has provisioned the show's scenes and sources, and red
naming the source when a film source was pointed at another file by hand (issue 19)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from broadcast import preflight as P
from broadcast.console.preflight import studio_check
from broadcast.obs import layout as L
from broadcast.obs.bridge import ObsBridge
from broadcast.obs.client import ObsClient
from broadcast.obs.headless import HeadlessObs
from broadcast.studio import open_store
from tests.obs.conftest import MemoryAirLog, bridge_settings


def test_the_pre_show_check_against_the_real_obs(obs_server: HeadlessObs, tmp_path: Path, film: Path) -> None:
    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    try:
        with ObsBridge(
            store, bridge_settings(obs_server), airlog=MemoryAirLog(), films={"preflight_film": film}
        ) as bridge:
            assert bridge.wait_connected(120), bridge.status
            check = studio_check(SimpleNamespace(args=None, db_path=db, bridge=bridge), None, store)
            (ok,) = [ln for ln in check(store.state) if ln.id == "obs"]
            assert ok.status == P.OK and "节目场景与源齐全" in ok.zh, ok
            assert ok.where == f"127.0.0.1:{obs_server.port}"
            name = L.film_input("preflight_film")
            c = ObsClient(bridge_settings(obs_server))
            c.connect()
            try:  # someone points the film source at another file by hand
                c.request(
                    "SetInputSettings",
                    {"inputName": name, "inputSettings": {"local_file": str(tmp_path / "other.mp4")}},
                )
            finally:
                c.close()
            (bad,) = [ln for ln in check(store.state) if ln.id == "obs"]
            assert bad.red and name in bad.zh and "obs provision" in bad.fix_zh
            bridge.provision()  # as it was (the shared OBS serves the next test)
    finally:
        store.close()


def test_the_command_is_all_green_against_a_provisioned_obs(obs_server: HeadlessObs, tmp_path: Path) -> None:
    """``python -m broadcast preflight --obs ws://…`` on a set-up table with the demo placements, once the
    studio's bridge provisioned OBS with the placements' films: every line green, exit 0."""
    import os
    import subprocess
    import sys

    from broadcast.sponsors.placements import load_placements

    demo = Path(__file__).resolve().parents[2] / "sponsor_assets" / "demo" / "placements.yaml"
    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    try:
        store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07"})
        store.dispatch(
            "match.new",
            {
                "teams": {"odd": {"name": "小当家联盟队"}, "even": {"name": "沂蒙山泉队"}},
                "names": ["张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰"],
            },
        )
        films = {fid: f.asset.path for fid, f in load_placements(demo).films.items()}
        with ObsBridge(store, bridge_settings(obs_server), airlog=MemoryAirLog(), films=films) as bridge:
            assert bridge.wait_connected(120), bridge.status
    finally:
        store.close()
    env = {**os.environ, "GOUJI_OBS_PASSWORD": bridge_settings(obs_server).password}
    r = subprocess.run(
        [sys.executable, "-m", "broadcast", "preflight", "--db", str(db), "--placements", str(demo)]
        + ["--obs", f"ws://127.0.0.1:{obs_server.port}"],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=tmp_path,
    )
    out = r.stdout.splitlines()
    assert r.returncode == 0, r.stdout + r.stderr
    assert out[0].startswith("✔ ") and "OBS 已连接，节目场景与源齐全" in out[0]
    assert not [ln for ln in out if ln.startswith("✘")] and out[-1] == "开录前检查全部通过"
