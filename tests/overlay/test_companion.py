"""The Bitfocus Companion page export in docs/: what the generator makes, in Companion's page format, with
every button wired to an operation of the control API — each one pressed, as Companion's generic HTTP
module would send it, against a real server."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from datetime import date
from pathlib import Path

from broadcast import control
from broadcast.overlay import OverlayServer
from broadcast.overlay.companion_cli import SHIPPED, page_export
from broadcast.sponsors.cues import cue_list
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.rundown import build_rundown
from broadcast.studio import open_store
from tests.console.conftest import NAMES, TEAMS

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sponsor_assets" / "demo" / "placements.yaml"


def _buttons(export: dict) -> list[dict]:
    rows = export["page"]["controls"]
    return [rows[r][c] for r in sorted(rows, key=int) for c in sorted(rows[r], key=int)]


def test_the_shipped_export_is_the_generators_and_in_companions_page_format() -> None:
    p = load_placements(DEMO)
    export = page_export(placements=p)
    assert json.loads(SHIPPED.read_text(encoding="utf-8")) == export, (
        "docs/companion/gouji-console.companionconfig is stale: "
        "python -m broadcast companion --out docs/companion/gouji-console.companionconfig"
    )
    assert export["type"] == "page" and export["version"] == 8
    (conn_id, conn), *more = export["instances"].items()
    assert not more and conn["moduleId"] == "generic-http" and conn["config"]["prefix"].endswith("/api/")
    grid = export["page"]["gridSize"]
    assert (grid["maxColumn"] + 1) * (grid["maxRow"] + 1) == 32
    ops = set()
    for b in _buttons(export):
        (action,) = b["steps"]["0"]["action_sets"]["down"]
        assert action["definitionId"] == "post" and action["connectionId"] == conn_id
        assert action["options"]["url"] in control.OPERATIONS
        assert "Bearer $(custom:gouji_token)" in action["options"]["header"]  # never the token itself
        ops.add(action["options"]["url"])
    assert {"take", "cut", "panic", "go", "mention", "shot", "lower_third"} <= ops


def test_every_button_pressed_as_companion_sends_it(tmp_path: Path) -> None:
    token = "deck-token-3"
    p = load_placements(DEMO, air_date=date(2012, 5, 7))
    store = open_store(tmp_path / "s.sqlite")
    store.dispatch("sponsors.load", to_state(p))
    store.dispatch("cues.load", cue_list(build_rundown(p, episode="第1期")))
    store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
    srv = OverlayServer(store, port=0, token=token)
    srv.start()
    try:
        export = page_export(srv.base_url, p)
        prefix = next(iter(export["instances"].values()))["config"]["prefix"]
        for b in _buttons(export):
            opt = b["steps"]["0"]["action_sets"]["down"][0]["options"]
            headers = json.loads(opt["header"].replace("$(custom:gouji_token)", token))
            headers["Content-Type"] = opt["contenttype"]
            req = urllib.request.Request(
                prefix + opt["url"], data=opt["body"].encode(), method="POST", headers=headers
            )
            before = store.seq
            with urllib.request.urlopen(req, timeout=10) as r:
                assert r.status == 200, b["style"]["text"]
            assert store.seq > before, b["style"]["text"]
        sources = {
            s
            for (s,) in store.journal.connection.execute("SELECT DISTINCT source FROM journal WHERE seq > 3")
        }
        assert sources <= {"api", "cues"}
        assert store.state["sponsors"]["mentions"]["xiaodangjia"] == 1
        assert store.state["lower_third"]["name"] == "主持人"
    finally:
        srv.stop()
        store.close()


def test_the_command_writes_a_page_for_another_address_and_refuses_a_bad_one(tmp_path: Path) -> None:
    out = tmp_path / "deck.companionconfig"
    run = subprocess.run(
        [sys.executable, "-m", "broadcast", "companion", "--url", "http://10.0.0.5:9000", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    conn = next(iter(json.loads(out.read_text(encoding="utf-8"))["instances"].values()))
    assert conn["config"]["prefix"] == "http://10.0.0.5:9000/api/"
    bad = subprocess.run(
        [sys.executable, "-m", "broadcast", "companion", "--url", "10.0.0.5:9000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "http://" in bad.stderr and "Traceback" not in bad.stderr


def test_the_english_page_says_every_button_in_english() -> None:
    """``companion --lang en``: the same buttons wired the same way, worded in English (a sponsor's name
    as the placements give it); shipped as docs/companion/gouji-console-en.companionconfig."""
    import re

    from broadcast.overlay.companion_cli import SHIPPED_EN

    p = load_placements(DEMO)
    zh, en = page_export(placements=p), page_export(placements=p, lang="en")
    assert json.loads(SHIPPED_EN.read_text(encoding="utf-8")) == en, (
        "docs/companion/gouji-console-en.companionconfig is stale: python -m broadcast companion "
        "--lang en --out docs/companion/gouji-console-en.companionconfig"
    )
    sponsors = {sp.name for sp in p.sponsors.values()}
    han = re.compile(r"[\u4e00-\u9fff]")
    assert not han.search(en["page"]["name"])
    for a, b in zip(_buttons(zh), _buttons(en), strict=True):
        assert a["steps"] == b["steps"]  # the same operation with the same body
        words = [w for w in b["style"]["text"].split("\\n") if w not in sponsors]
        assert not any(han.search(w) for w in words), b["style"]["text"]
    texts = [b["style"]["text"] for b in _buttons(en)]
    assert "Score\\nPVW" in texts and "Lower 3rd\\nseat 3" in texts and "Mention\\n小当家" in texts
