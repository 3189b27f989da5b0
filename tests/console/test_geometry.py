"""The console's real window fits the screen it opens on, 1366×768 to 3840×2160 (issue 19): under Xvfb
with a real window manager (openbox), measured from inside by tests/console/geometry_probe.py.

First start: maximised; the entry line, GO, the status bar and the record (five rows or more at
1366×768) whole on the screen; the next cue in view; no clipped or covered text. A layout saved on a
bigger screen, opened on a laptop: the compact layout, everything on screen, the next cue (several GOs
later) in view. ``--geometry`` is obeyed as given. Screenshots in test-artifacts/console/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.console.process import ROOT, SHOTS, xvfb

pytestmark = [pytest.mark.long, pytest.mark.timeout(400)]  # real windows, two starts in one test


@pytest.fixture(scope="module")
def at_230(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project database as the probe's ``--moves 230`` makes it (the demo placements, a game at move
    230), journaled once for the module: the probes that start on it open a copy."""
    from tests.console.geometry_probe import _store

    db = tmp_path_factory.mktemp("geometry") / "studio.sqlite"
    store, _placements = _store(db, 230, 0)
    store.close()
    return db


def at_move_230(master: Path, tmp: Path) -> None:
    shutil.copy(master, tmp / "studio.sqlite")


def probe(display: str, tmp: Path, *args: str, shot: str = "") -> dict[str, Any]:
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
    env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)
    cmd = [sys.executable, "-m", "tests.console.geometry_probe", "--db", str(tmp / "studio.sqlite")]
    cmd += ["--settings", str(tmp / "console.ini"), *args]
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        cmd += ["--shot", str(SHOTS / shot)]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("PROBE ")), None)
    assert r.returncode == 0 and line, r.stdout[-2000:] + r.stderr[-3000:]
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    return dict(json.loads(line[len("PROBE ") :]))


def fits(p: dict[str, Any]) -> None:
    assert not p["never_came"], p  # what the probe waited for before measuring never came
    sx, sy, sw, sh = p["screen"]
    fx, fy, fw, fh = p["frame"]
    assert sx <= fx and sy <= fy and fx + fw <= sx + sw and fy + fh <= sy + sh, p  # inside the screen
    for part in ("entry", "go", "status", "record"):
        assert p[part], f"{part} is not whole on the screen: {p}"
    assert p["next_visible"], f"the next cue ({p['next']}) is out of view: {p}"
    assert not p["findings"], "\n".join(p["findings"])


@pytest.mark.parametrize("size", ["1366x768", "1920x1080"])
def test_the_first_start_is_maximised_and_everything_is_on_screen(
    size: str, tmp_path: Path, at_230: Path
) -> None:
    at_move_230(at_230, tmp_path)
    with xvfb(size) as display:
        p = probe(display, tmp_path, "--moves", "230", "--gos", "8", shot=f"first-start-{size}.png")
    assert p["maximized"], p
    fits(p)
    assert p["record_rows"] >= 5, p
    assert p["compact"] is (size == "1366x768")


def test_a_first_start_on_a_big_screen_and_its_layout_opened_fitted_on_a_laptop(
    tmp_path: Path, at_230: Path
) -> None:
    """The first start at 3840×2160 (as above), then the same settings and database on a laptop: a
    restart, five GOs later. One start on the big screen serves both (it saved the layout)."""
    at_move_230(at_230, tmp_path)
    with xvfb("3840x2160") as display:
        big = probe(display, tmp_path, "--moves", "230", "--gos", "8", shot="first-start-3840x2160.png")
    assert big["maximized"], big
    fits(big)
    assert big["record_rows"] >= 5, big
    assert big["compact"] is False, big
    with xvfb("1366x768") as display:  # the same settings and database on a laptop: a restart
        small = probe(display, tmp_path, "--gos", "5", "--lang", "en", shot="restart-from-4k-1366x768-en.png")
    assert small["compact"], small
    fits(small)
    assert small["record_rows"] >= 5 and small["next"] == 14, small  # 8 GOs before the restart, 5 after


def test_geometry_is_obeyed(tmp_path: Path) -> None:
    with xvfb("1920x1080") as display:
        p = probe(
            display, tmp_path, "--moves", "30", "--geometry", "1366x768+40+30", shot="geometry-1366x768.png"
        )
    assert p["client"] == [1366, 768] and not p["maximized"], p
    assert p["at"] == [40, 30] and p["compact"], p  # a laptop-sized window is laid out as on a laptop
    fits(p)
