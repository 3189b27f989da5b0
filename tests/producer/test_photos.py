"""A player's photo the producer adds is copied next to the database, goes onto the seat when the
season's match is set up, onto the lower third when the operator calls it for that seat, and is served
at /assets/photos/ to the real page (Debian Chromium loads it)."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from broadcast import control, project
from broadcast.core import ActionRefused
from broadcast.overlay.server import OverlayServer
from broadcast.producer import season as season_work
from broadcast.season.live import start_match
from broadcast.season.model import SeasonDB
from broadcast.studio import open_store


def test_a_players_photo_reaches_the_lower_third(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "studio.sqlite"
    sid = season_work.create_season(db, "第一季")
    odd = season_work.add_team(db, sid, "小当家便利店联盟队")
    even = season_work.add_team(db, sid, "沂河源矿泉水队")
    names = ["张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰"]
    pids = [season_work.add_player(db, sid, n, odd if i % 2 == 0 else even) for i, n in enumerate(names)]
    src = tmp_path / "zhang.png"
    Image.new("RGB", (240, 320), (200, 40, 30)).save(src)
    stored = season_work.set_photo(db, pids[0], src, "A01")
    assert stored == "A01.png" and (project.photos_dir(db) / stored).read_bytes() == src.read_bytes()
    with SeasonDB.open(db) as sdb:  # a photo kept as a path (the importer without the project) stays off air
        sdb.update_player(pids[1], photo="/somewhere/li.png")
    store = open_store(db)
    server = OverlayServer(store, port=0, asset_roots=project.asset_roots(db))
    server.start()
    try:
        start_match(store, db, season=sid, episode=1, odd=odd, even=even, lineup=dict(enumerate(pids, 1)))
        seats = store.state["table"]["seats"]
        assert [s["photo"] for s in seats] == ["A01.png", "", "", "", "", ""]
        control.run(store, "lower_third", {"seat": 1})
        lt = store.state["lower_third"]
        assert (lt["name"], lt["photo"]) == ("张立国", "A01.png")
        control.run(store, "lower_third", {"seat": 2})
        assert store.state["lower_third"]["photo"] == ""  # no photo: none shown, not the last one's
        control.run(store, "lower_third", {"seat": 1})
        with urllib.request.urlopen(f"{server.base_url}/assets/photos/A01.png", timeout=10) as r:
            assert r.status == 200 and r.read() == src.read_bytes()
        ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
        try:
            page = ctx.new_page()
            page.goto(server.url("preview"))
            page.wait_for_function(
                "s => window.__rendered && window.__rendered.seq >= s", arg=store.seq, timeout=30000
            )
            page.wait_for_function(
                "() => { const i = document.querySelector('.lower-third.has-photo img.lt-photo');"
                " return i && i.complete && i.naturalWidth === 240; }",
                timeout=30000,
            )
        finally:
            ctx.close()
        # a path where a file name belongs is refused at the action
        with pytest.raises(ActionRefused, match="不是路径"):
            store.dispatch("match.update", {"photos": {1: "../studio.sqlite"}})
    finally:
        server.stop()
        store.close()
