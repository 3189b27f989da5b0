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
