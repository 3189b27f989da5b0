"""The producer's real window under Xvfb (xcb, 1920×1080): ``python -m broadcast producer`` on a project
with the demo season, the demo placements and three aired episodes in its as-run log, each tab chosen
from the keyboard (xdotool) and photographed; then the same window opened from the console's 制片 menu
(Ctrl+Shift+P). Screenshots go to test-artifacts/producer/ for a person to look at."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from broadcast import project
from tests.console.process import StudioProcess, need, xvfb
from tests.producer.conftest import DEMO, ROOT

SHOTS = ROOT / "test-artifacts" / "producer"
TABS = ("1-sponsors", "2-slots-preview", "3-roster-season", "4-season-delivery")

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def project_db(tmp_path_factory: pytest.TempPathFactory, demo_db_master: Path) -> Path:
    """A project as a producer finds it mid-season: the demo season (15 episodes from 2012-05-07), the
    demo placements in its own folder, two players with photos, three episodes in the as-run log."""
    from broadcast.producer import season as season_work
    from broadcast.season.model import SeasonDB
    from broadcast.sponsors.placements import load_placements
    from tests.producer.asrun import season_log

    db = tmp_path_factory.mktemp("producer-shots") / "studio.sqlite"
    shutil.copy(demo_db_master, db)  # the demo season (built once for the run)
    shutil.copytree(DEMO, project.sponsors_dir(db), dirs_exist_ok=True)
    with SeasonDB.open(db) as sdb:
        sid = int(sdb.season()["id"])
        players = sdb.players(sid)[:2]
    for i, p in enumerate(players):
        photo = db.parent / f"photo{i}.png"
        Image.new("RGB", (300, 400), ((180, 60, 40), (40, 90, 170))[i]).save(photo)
        season_work.set_photo(db, int(p["id"]), photo, str(p["name"]))
    season_log(db, load_placements(project.placements_file(db)))
    return db


class Window(StudioProcess):
    """``python -m broadcast CMD`` with a window on the display (own session: stopped with its children)."""

    def __init__(self, cmd: list[str], display: str) -> None:
        super().__init__(cmd, display=display, shots=SHOTS)

    def window(self, name: str, timeout: float = 60) -> str:
        """The id of the visible window whose title contains ``name``, once the window manager has made
        it the active window (the keys go to it)."""
        deadline = time.monotonic() + timeout
        while True:
            r = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--name", name],
                env=self.env,
                capture_output=True,
                text=True,
                timeout=30,
            )
            ids = r.stdout.split()
            if ids:
                self.xdotool("windowactivate", "--sync", ids[0])
                return ids[0]
            assert time.monotonic() < deadline, f"no window {name!r}:\n" + "".join(self.output[-30:])
            assert self.proc.poll() is None, "exited:\n" + "".join(self.output[-30:])
            time.sleep(0.1)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--clearmodifiers", *keys)

    def drawn(self, n: int) -> None:
        """Until the producer's window says it has drawn all it was loading for the ``n``-th time
        (``GOUJI_SAY_READY=1``: at its opening, then after each Ctrl+N: the worker idle, the check done,
        the preview page showing the latest preview state)."""
        self.wait_for(f"is drawn #{n}:", timeout=120)


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """One display for the module's windows (each test's processes are stopped before the next starts)."""
    need("Xvfb", "xdotool", "import")
    with pytest.MonkeyPatch.context() as mp, xvfb("1920x1080") as d:
        mp.setenv("GOUJI_SAY_READY", "1")  # the windows say when they have drawn (Window.drawn)
        yield d


def _busy(path: Path) -> float:
    """How much the picture varies (a blank or single-colour screen is near 0)."""
    return float(sum(ImageStat.Stat(Image.open(path).convert("L")).stddev))


@pytest.mark.long
def test_each_tab_of_the_producers_window(project_db: Path, display: str, tmp_path: Path) -> None:
    w = Window(
        [
            "producer",
            "--db",
            str(project_db),
            "--geometry",
            "1920x1080",
            "--settings",
            str(tmp_path / "producer.ini"),
        ],
        display,
    )
    try:
        w.wait_for("制片工作台已打开")
        w.window("制片工作台")
        w.drawn(1)  # the page preview and the season's tables filled in
        shots = []
        for i, name in enumerate(TABS, start=1):
            w.key(f"ctrl+{i}")
            w.drawn(i + 1)
            shots.append(w.screenshot(f"producer-{name}.png"))
        for p in shots:
            assert Image.open(p).size == (1920, 1080)
            assert _busy(p) > 20, p
        assert len({p.read_bytes() for p in shots}) == len(shots)  # four different screens
    finally:
        w.stop()
    # the same window in English (--lang en)
    w = Window(
        ["producer", "--db", str(project_db), "--geometry", "1920x1080", "--lang", "en", "--no-web"],
        display,
    )
    try:
        w.wait_for("制片工作台已打开")
        w.window("Producer's workspace")
        w.drawn(1)
        for n, i in enumerate((1, 4), start=2):
            w.key(f"ctrl+{i}")
            w.drawn(n)
            assert _busy(w.screenshot(f"producer-en-{TABS[i - 1]}.png")) > 20
    finally:
        w.stop()


def test_the_producers_window_from_the_console(project_db: Path, display: str, tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    shutil.copy(project_db, db)
    shutil.copytree(project.assets_dir(project_db), project.assets_dir(db))
    c = Window(
        [
            "console",
            "--db",
            str(db),
            "--port",
            "0",
            "--no-obs",
            "--no-monitors",
            "--geometry",
            "1920x1080+0+0",
            "--settings",
            str(tmp_path / "console.ini"),
        ],
        display,
    )
    try:
        c.wait_for("console is open")
        c.window("导播台")  # active: Ctrl+Shift+P goes to it
        c.key("ctrl+shift+p")
        c.window("制片工作台")
        c.drawn(1)
        path = c.screenshot("producer-from-console.png")
        assert _busy(path) > 20
    finally:
        c.stop()
