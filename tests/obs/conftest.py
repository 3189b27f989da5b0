"""Fixtures for the OBS bridge: a real OBS Studio started headless (own Xvfb, fresh HOME)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broadcast.core.airlog import AirEvent
from broadcast.obs.client import ObsClient
from broadcast.obs.errors import ObsError
from broadcast.obs.headless import HeadlessObs
from broadcast.obs.settings import ObsSettings

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "obs"
PASSWORD = "gouji-test-pw"
PICTURES = Path(tempfile.mkdtemp(prefix="gouji-test-obs-pictures-"))  # the bridges' rendered graphics


@pytest.fixture(scope="session", autouse=True)
def _pictures_folder() -> Iterator[None]:
    yield
    shutil.rmtree(PICTURES, ignore_errors=True)


class MemoryAirLog:
    """A small in-memory as-run recorder satisfying broadcast.core.airlog.AirLog."""

    def __init__(self) -> None:
        self.events: list[AirEvent] = []
        self.proofs: dict[int, tuple[bytes, int, int]] = {}
        self._lock = threading.Lock()

    def record(self, event: AirEvent) -> int:
        with self._lock:
            self.events.append(event)
            return len(self.events)

    def attach_proof(
        self,
        event_id: int | None,
        jpeg: bytes,
        width: int,
        height: int,
        ts: float = 0.0,
        scene: str = "",
        *,
        failed: str = "",
        check: dict[str, Any] | None = None,
        episode: str = "",
    ) -> int:
        with self._lock:
            detail = {"of": event_id, **({"reason": failed} if failed else {}), "check": check or {}}
            self.events.append(
                AirEvent(ts, "proof_failed" if failed else "proof", scene, "obs", detail=detail)
            )
            pid = len(self.events)
            self.proofs[event_id if event_id is not None else pid] = (jpeg, width, height)
            return pid

    def record_event(self, ts: float, kind: str, subject: str, detail: dict[str, Any]) -> int:
        return self.record(AirEvent(ts, kind, subject, "obs", detail=dict(detail)))

    def kinds(self, kind: str) -> list[AirEvent]:
        with self._lock:
            return [e for e in self.events if e.kind == kind]


def _need_obs() -> None:
    if not shutil.which("obs") or not shutil.which("Xvfb"):
        pytest.skip("OBS Studio / Xvfb not installed (scripts/setup.sh installs them)")


@pytest.fixture(scope="session")
def obs_artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


_SHARED: list[HeadlessObs] = []  # the OBS the tests that run one after another share (at most one)


@pytest.fixture
def obs_server(tmp_path_factory: pytest.TempPathFactory) -> HeadlessObs:
    """One OBS shared by the tests that need it, one after another (they use idempotent provisioning and
    their own bridges). It is stopped as soon as the next test does not need it (an idle OBS renders its
    canvas on half a core), and the tests that use it run on one worker (``xdist_group`` below)."""
    _need_obs()
    if not _SHARED:
        obs = HeadlessObs(tmp_path_factory.mktemp("obs-session"), password=PASSWORD)
        try:
            obs.start()
        except BaseException:  # a failed start still stops its Xvfb (and an OBS that came up too late)
            obs.close()
            raise
        _SHARED.append(obs)
    return _SHARED[0]


def _stop_shared() -> None:
    while _SHARED:
        _SHARED.pop().close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of the shared OBS run on one worker of a parallel run, one after another: one OBS."""
    for item in items:
        if "obs_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("obs"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield  # the test's own fixtures (bridges, clients) are gone: the OBS can stop
    if _SHARED and (nextitem is None or "obs_server" not in getattr(nextitem, "fixturenames", ())):
        _stop_shared()


def pytest_sessionfinish() -> None:
    _stop_shared()


@pytest.fixture
def obs_to_kill(obs_server: HeadlessObs) -> Iterator[HeadlessObs]:
    """The shared OBS, for a test that kills, freezes and restarts it (``kill``/``freeze``/``thaw``/
    ``start``): an OBS of its own cost a start of OBS and its Xvfb per test, and another of the shared
    one after it. Whatever the test did, the next test finds an OBS that answers or none: one left
    frozen is thawed, one left dead (or not answering) is closed and the next test starts a new one."""
    yield obs_server
    obs_server.thaw()
    if not (obs_server.running() and _answers(obs_server)):
        _stop_shared()


def restart_after_kill(obs: HeadlessObs) -> float:
    """Start OBS again after the test killed it (returns when its port is open). OBS 29 itself exited
    at start-up once right after a kill -9 (one full run in ~40; its log lost with the run's temporary
    folder): then its log's tail is printed (the test's captured output says why) and it is started once
    more — what the tests measure is the studio's side of the crash, not OBS's own start-up."""
    import sys

    from broadcast.obs.headless import HeadlessError

    try:
        return obs.start()
    except HeadlessError as exc:
        if not (obs.proc is not None and obs.proc.poll() is not None):
            raise  # not an exit at start-up (a port that never opened): the test says so
        tail = Path(obs.log_path).read_text(encoding="utf-8", errors="replace")[-4000:]
        print(f"OBS exited at start-up after a kill; starting it once more: {exc}\n{tail}", file=sys.stderr)
        return obs.start()


def _answers(obs: HeadlessObs) -> bool:
    try:
        c = ObsClient(bridge_settings(obs, timeout=5.0))
        c.connect()
        c.close()
    except ObsError:
        return False
    return True


def bridge_settings(obs: HeadlessObs, **kw: object) -> ObsSettings:
    base: dict[str, object] = dict(
        port=obs.port,
        password=PASSWORD,
        timeout=10.0,  # generous: tests share 2 cores with other sessions (OBS cuts took 3-5 s at load 15)
        connect_timeout=2.0,
        ping_interval=0.25,
        freeze_after=3.0,  # the freeze tests set 1.0 (the product's default) and measure it
        retry_interval=0.1,
        backoff_initial=0.1,
        backoff_max=0.4,
        pictures_dir=str(PICTURES),
    )
    base.update(kw)
    return ObsSettings(**base)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def film(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-second H.264 test film (the real 英雄榜冠名 film is 15 s)."""
    if not shutil.which("ffmpeg"):
        pytest.skip("ffmpeg not installed (scripts/setup.sh installs it)")
    out = tmp_path_factory.mktemp("films") / "guanming_2s.mp4"
    subprocess.run(
        [
            "ffmpeg",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc=size=320x180:rate=25",
            "-t",
            "2",
            "-pix_fmt",
            "yuv420p",
            "-c:v",
            "libx264",
            str(out),
        ],
        check=True,
        timeout=60,
    )
    return out
