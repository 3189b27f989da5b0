"""Shared fixtures. Qt runs offscreen; artifacts (screenshots, reports) go to test-artifacts/."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# no test can hang the run: stuck tests, leftover threads and processes end it, named (see the module)
pytest_plugins = ("tests.session_guard",)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the studio's signing key (broadcast/core/signing.py) is one per test run, never the user's own
os.environ.setdefault("GOUJI_STUDIO_KEY_DIR", tempfile.mkdtemp(prefix="gouji-key-"))
# the journal's second copy of each database's head (broadcast.core.journal.state_dir): not in ~/.local
os.environ.setdefault("GOUJI_STATE_DIR", tempfile.mkdtemp(prefix="gouji-heads-"))

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One real headless Debian Chromium per session, driven by Playwright (never a downloaded browser);
    one for every part that uses it (Playwright's sync API allows one per thread)."""
    from playwright.sync_api import sync_playwright

    from broadcast.chromium import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is not installed (apt-get install chromium, or scripts/setup.sh)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


VIEWPORT = {"width": 1920, "height": 1080}

# In the tests' pages the endless and long animations (the ticker's crawl, the turn mark's pulse, the
# credits' roll: over 3 s) are held where they start: a page with a running one is drawn afresh at every
# frame, all 1920×1080 of it in software, for as long as it is open. A shot moves them to the moment it
# shows (``SETTLE``: held or running, the same frame); nothing in the pages waits on their end.
HOLD = """addEventListener('animationstart', () => {
  for (const a of document.getAnimations()) {
    if (a.__held || a.playState !== 'running' || !a.effect) continue;
    const end = a.effect.getComputedTiming().endTime;
    if (end === Infinity || end > 3000) { a.__held = true; a.pause(); }
  }
}, true);"""


class TestPage:
    """The worker's one page as one test sees it (the ``page`` fixture): what the test listens to and
    the page errors it collects are its own; the rest is the Playwright page's."""

    __test__ = False  # not a test class

    def __init__(self, page: Any) -> None:
        self._page = page
        self._listeners: list[tuple[str, Any]] = []
        self.errors: list[str] = []
        self.on("pageerror", lambda e: self.errors.append(str(e)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    def on(self, event: str, handler: Any) -> None:
        self._listeners.append((event, handler))
        self._page.on(event, handler)

    def once(self, event: str, handler: Any) -> None:
        self._listeners.append((event, handler))
        self._page.once(event, handler)

    def release(self) -> bool:
        """The page left as the next test finds it: its listeners gone, on a blank document (the last
        page's sockets closed, nothing left drawing), at 1920×1080; False if it could not be."""
        for event, handler in self._listeners:
            try:
                self._page.remove_listener(event, handler)
            except (KeyError, ValueError):
                pass  # a ``once`` handler that ran
        try:
            self._page.goto("about:blank")
            if self._page.viewport_size != VIEWPORT:
                self._page.set_viewport_size(VIEWPORT)
        except Exception:
            return False
        return True


@pytest.fixture(scope="session")
def _pages_context(browser: Any) -> Iterator[Any]:
    # bypass_csp lets Playwright evaluate its helpers; the pages' own CSP is checked over HTTP
    ctx = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    ctx.add_init_script(HOLD)
    yield ctx
    ctx.close()


_PAGE: list[Any] = []  # the worker's one page (a new page costs Chromium ~2 s of CPU: a renderer, 1920×1080)


def _hand_on(kept: list[Any], context: Any) -> Iterator[TestPage]:
    """The one page kept in ``kept`` (made in ``context`` the first time, or again after a crash), for
    one test; back on a blank document after it (``TestPage.release``), or dropped if it would not go."""
    if not kept or kept[0].is_closed():
        kept[:] = [context.new_page()]
    pg = TestPage(kept[0])
    yield pg
    if not pg.release():
        with contextlib.suppress(Exception):  # already closed or crashed
            kept.pop().close()


@pytest.fixture
def page(_pages_context: Any) -> Iterator[TestPage]:
    """A 1920×1080 page of the session's Chromium: one page per worker, handed from test to test on a
    blank document (``TestPage.release``); one that crashed or would not go blank is replaced."""
    yield from _hand_on(_PAGE, _pages_context)


@pytest.fixture(scope="session")
def _other_context(browser: Any) -> Iterator[Any]:
    # no HOLD: a page here runs its animations as a browser source does
    ctx = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    yield ctx
    ctx.close()


_OTHER: list[Any] = []


@pytest.fixture
def other_page(_other_context: Any) -> Iterator[TestPage]:
    """A second 1920×1080 page beside ``page``, for a test that watches two pages at once (preview and
    program) or a page as a browser source shows it (its animations run, none held). It is in a context
    of its own: a second page of ``page``'s context would be a tab behind it, drawn at a throttled frame
    rate (a settle of two frames took 2 s there). Kept per worker like ``page`` (a new context cost
    ~1.2 s of Chromium's CPU: a renderer started)."""
    yield from _hand_on(_OTHER, _other_context)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.sqlite"


@pytest.fixture(scope="session")
def demo_db_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo season (seed 2012) on a SQLite file, built once for the whole run and shared by the
    workers of a parallel run (the first builds it under a lock, the others wait and use it). Read-only:
    a test copies it before it writes (``demo_db``, the console's ``demo_window``)."""
    from broadcast.season.demo import build_demo_season

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # gw0, gw1 … have their own basetemp under the run's
        shared = shared.parent
    path = shared / "demo-season-2012" / "demo.sqlite"
    path.parent.mkdir(exist_ok=True)
    with open(path.parent / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            part = path.with_name("building.sqlite")
            if part.exists():
                part.unlink()
            build_demo_season(part, 2012)
            part.rename(path)
    return path


@pytest.fixture
def demo_db(demo_db_master: Path, tmp_path: Path) -> Path:
    """A private copy of the demo season (tests may write to it)."""
    dst = tmp_path / "demo.sqlite"
    shutil.copy(demo_db_master, dst)
    return dst


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """The session's PostgreSQL server (Debian's, in a temporary directory: tests/pgserver.py), one per
    test session or xdist worker, shared by every test directory that needs one (each test its own
    databases)."""
    from tests.pgserver import TempPostgres, bindir

    if bindir() is None:
        if os.environ.get("GOUJI_NO_SKIP"):
            pytest.fail("PostgreSQL is not installed: scripts/setup.sh installs Debian's postgresql")
        pytest.skip("PostgreSQL is not installed (scripts/setup.sh installs it)")
    pg = TempPostgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Under the project's test command (GOUJI_NO_SKIP=1) a skipped real part (OBS, Chromium …) fails:
    the test command installs everything, so a skip there can only hide a missing install step."""
    outcome = yield
    rep = outcome.get_result()
    if os.environ.get("GOUJI_NO_SKIP") == "1" and rep.skipped and not hasattr(rep, "wasxfail"):
        rep.outcome = "failed"
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
        rep.longrepr = f"skipped under GOUJI_NO_SKIP=1 (a real part is missing): {reason}"


# the time each test module took (its tests' setup, call and teardown summed; on two workers the controller
# hears every report): the run's end lists the costliest modules beside pytest's 25 slowest tests, so
# that a slow suite shows where its time goes — most of it is not in any single slow test
_MODULE_SECONDS: dict[str, float] = {}
_MODULE_TESTS: dict[str, int] = {}


# and, on two workers, each worker's busy seconds and when its last report came (from the first one): the
# run's end shows how long one worker stood idle while the other finished
_WORKER_BUSY: dict[str, float] = {}
_WORKER_LAST: dict[str, float] = {}
_FIRST_REPORT: list[float] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    module = report.nodeid.split("::")[0]
    _MODULE_SECONDS[module] = _MODULE_SECONDS.get(module, 0.0) + report.duration
    if report.when == "call":
        _MODULE_TESTS[module] = _MODULE_TESTS.get(module, 0) + 1
    node = getattr(report, "node", None)  # set on the controller of a parallel run
    if node is not None:
        worker = str(getattr(getattr(node, "gateway", None), "id", node))
        now = time.monotonic()
        _FIRST_REPORT[:] = _FIRST_REPORT or [now - report.duration]
        _WORKER_BUSY[worker] = _WORKER_BUSY.get(worker, 0.0) + report.duration
        _WORKER_LAST[worker] = now - _FIRST_REPORT[0]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if len(_MODULE_SECONDS) < 2 or config.getoption("durations", None) is None:
        return
    total = sum(_MODULE_SECONDS.values())
    ranked = sorted(_MODULE_SECONDS.items(), key=lambda kv: -kv[1])[:25]
    terminalreporter.write_sep("=", f"costliest 25 modules (of {total:.0f} s spent in tests, all workers)")
    for module, seconds in ranked:
        n = _MODULE_TESTS.get(module, 0)
        terminalreporter.write_line(f"{seconds:8.2f}s {100 * seconds / total:5.1f}% {n:4d} tests  {module}")
    if len(_WORKER_LAST) > 1:
        ends = sorted(_WORKER_LAST.values())
        terminalreporter.write_line(
            "workers: "
            + ", ".join(
                f"{w} busy {_WORKER_BUSY[w]:.0f} s, last test ended at {_WORKER_LAST[w]:.0f} s"
                for w in sorted(_WORKER_LAST)
            )
            + f"; idle tail {ends[-1] - ends[0]:.1f} s"
        )


# a test that asks for one of these fixtures (or runs on the season's PostgreSQL backend) uses a real
# part, and is marked so; the fast tier (``scripts/test.sh --fast``) leaves them out
REAL_PARTS = {
    "obs_server": "obs",
    "obs_to_kill": "obs",
    "browser": "browser",
    "qtbot": "qt",
    "postgres": "postgres",
    "pg_url": "postgres",
}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist names each test's group from its marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of a module that share a module-scoped fixture go to one worker (``xdist_group``).
    Tests using a real OBS, Chromium, Qt or PostgreSQL are marked ``obs``/``browser``/``qt``/
    ``postgres``. The tests marked ``long`` run first (in their order), the rest after them as
    collected: on two workers (scripts/test.sh) a long test that started last would be the run's tail
    alone."""
    for item in items:
        # a module's tests that share a module-scoped fixture (a built wheel, a project database) run
        # on one worker, one after another: split over two, each worker would build it again
        info = getattr(item, "_fixtureinfo", None)
        if info is not None and item.get_closest_marker("xdist_group") is None:
            shared = [
                name
                for name, defs in info.name2fixturedefs.items()
                if defs and defs[-1].scope == "module" and name in item.fixturenames
            ]
            if shared:
                item.add_marker(pytest.mark.xdist_group(f"{item.nodeid.split('::')[0]}:{shared[0]}"))
        marks = {REAL_PARTS[f] for f in getattr(item, "fixturenames", ()) if f in REAL_PARTS}
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            marks.add("postgres")
        for mark in marks:
            if item.get_closest_marker(mark) is None:
                item.add_marker(mark)
    # and the tests of the shared OBS (tests/obs/conftest.py) after the others of their kind, so that on
    # their worker they follow one another (an OBS of their own in between would stop the shared one)
    items[:] = sorted(
        items,
        key=lambda item: (
            item.get_closest_marker("long") is None,
            "obs_server" in getattr(item, "fixturenames", ()),
        ),
    )
