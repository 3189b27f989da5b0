"""The session guard: no test can hang the run (a pytest plugin, loaded by ``tests/conftest.py``).

pytest-timeout fails a test that runs past its ``timeout`` (setup and teardown included) and the run
goes on. This guard covers what it cannot:

* a test that does not stop when pytest-timeout fails it (it swallows the failure, or its teardown
  blocks): a watchdog thread ends the whole run ``GOUJI_TEST_GRACE`` seconds (60) after the test's
  own timeout, naming the test, with every thread's stack; the run exits 1;
* a test stuck inside C code that holds the GIL (no signal handler and no Python thread can run):
  ``faulthandler``'s own C thread dumps the stacks (the test function is in them) and exits 1,
  ``GOUJI_GUARD_BACKSTOP`` seconds (30) after the watchdog should have fired;
* the whole run past ``GOUJI_SESSION_TIMEOUT`` seconds (4800, inside CI's 90 minutes): ended the
  same way, naming the test;
* threads a test started and left running (the hang at exit that ``--timeout`` never sees): at the
  end of the run every non-daemon thread still alive ``GOUJI_GUARD_WAIT`` seconds (10) after the last
  test is named with the test it appeared in, the run fails, and if Python still cannot exit
  ``GOUJI_EXIT_GRACE`` seconds (30) later the process ends with the run's exit status;
* processes a test started and left running (OBS, Xvfb, Chromium, servers): named with their test,
  killed, and the run fails. Whenever the guard ends a run it kills them too.

Reports go to the terminal's stderr (a copy taken before pytest captures it), so they show even while
a test's output is being captured.

Under pytest-xdist each worker guards its own tests (the stuck test, the backstop, its threads and
processes left running); what a worker finds left running fails the whole run through the controller
(``workeroutput``). A worker that has finished waits, idle, for the controller to close it: the exit
watch is the controller's alone, and when it ends a run it kills the workers with its other children.
A worker whose threads keep it from exiting is ended by the controller as soon as its report is in.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest


def _env_seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            out.extend(int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split())
        except OSError:
            continue
    return out


def descendants(pid: int | None = None) -> dict[int, str]:
    """Live (not zombie) descendant processes of ``pid`` (this process): pid → command line."""
    out: dict[int, str] = {}
    todo = _children(os.getpid() if pid is None else pid)
    while todo:
        p = todo.pop()
        try:
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[-1].split()[0]
            cmd = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if state not in ("Z", "X"):
            out[p] = cmd.strip() or f"[pid {p}]"
        todo.extend(_children(p))
    return out


def _executor_worker(t: threading.Thread) -> bool:
    """Idle pool workers (concurrent.futures, asyncio's default executor) end at exit by themselves."""
    return t.name.startswith(("ThreadPoolExecutor-", "asyncio_"))


@dataclass
class _Running:
    nodeid: str
    started: float
    limit: float  # seconds from ``started`` after which the guard ends the run (0: none)


class SessionGuard:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.worker = hasattr(config, "workerinput")  # a pytest-xdist worker (the controller watches exit)
        self.from_workers: list[str] = []  # what workers found left running (the controller's report)
        self.fd = os.dup(2)  # the terminal's stderr: pytest is not capturing while plugins configure
        self.grace = _env_seconds("GOUJI_TEST_GRACE", 60)
        self.backstop = _env_seconds("GOUJI_GUARD_BACKSTOP", 30)
        self.session_limit = _env_seconds("GOUJI_SESSION_TIMEOUT", 4800)
        self.wait = _env_seconds("GOUJI_GUARD_WAIT", 10)
        self.exit_grace = _env_seconds("GOUJI_EXIT_GRACE", 30)
        self.started = time.monotonic()
        self.running: _Running | None = None
        self.thread_origin: dict[threading.Thread, str] = {}  # thread → the test it appeared in
        self.process_origin: dict[int, tuple[str, str]] = {}  # pid → (test, command line)
        self.exitstatus = 0
        self.failed: list[str] = []  # tests failed so far (named again if the guard ends the run)
        self._stop = threading.Event()
        self._fired = threading.Lock()
        self._watchdog = threading.Thread(target=self._watch, name="session-guard", daemon=True)
        self._watchdog.start()

    # -- reporting -------------------------------------------------------------------------------
    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        while data:
            try:
                n = os.write(self.fd, data)
            except OSError:
                return
            data = data[n:]

    def _stacks(self, threads: list[threading.Thread] | None = None) -> str:
        frames = sys._current_frames()
        out = []
        for t in threading.enumerate() if threads is None else threads:
            frame = frames.get(t.ident or -1)
            kind = "daemon" if t.daemon else "non-daemon"
            origin = self.thread_origin.get(t)
            head = f"--- thread {t.name!r} ({kind}{', started in ' + origin if origin else ''})\n"
            out.append(head + ("".join(traceback.format_stack(frame)) if frame else "  (no frame)\n"))
        return "".join(out)

    def kill_descendants(self) -> list[str]:
        killed = []
        for pid, cmd in descendants().items():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                continue
            origin = self.process_origin.get(pid, ("", ""))[0]
            killed.append(f"  pid {pid}: {cmd[:160]}" + (f"  (started in {origin})" if origin else ""))
        return killed

    def end_run(self, why: str, status: int = 1) -> None:
        """Report ``why`` with every thread's stack, kill our child processes and exit now."""
        if not self._fired.acquire(blocking=False):
            return
        self.write(f"\n{'!' * 30} session guard {'!' * 30}\n{why}\n\n{self._stacks()}\n")
        if self.failed:
            self.write("failed before the run was ended:\n" + "".join(f"  {n}\n" for n in self.failed))
        killed = self.kill_descendants()
        if killed:
            self.write("killed the processes left running:\n" + "\n".join(killed) + "\n")
        self.write(f"session guard: run ended, exit status {status}\n")
        os._exit(status)

    # -- the watchdog ----------------------------------------------------------------------------
    def _watch(self) -> None:
        while not self._stop.wait(0.25):
            now = time.monotonic()
            run = self.running
            if run is not None and run.limit and now - run.started > run.limit:
                self.end_run(
                    f"STUCK TEST: {run.nodeid} has run {now - run.started:.0f} s, past its timeout and "
                    f"{self.grace:.0f} s of grace: pytest-timeout could not stop it; ending the run"
                )
            if now - self.started > self.session_limit:
                where = f"running {run.nodeid}" if run else "between tests"
                self.end_run(
                    f"SESSION TIMEOUT: the run passed GOUJI_SESSION_TIMEOUT={self.session_limit:.0f} s "
                    f"({where}); ending the run"
                )

    def stop(self) -> None:
        self._stop.set()

    # -- per test --------------------------------------------------------------------------------
    def timeout_of(self, item: pytest.Item) -> float:
        marker = item.get_closest_marker("timeout")
        value: object = None
        if marker is not None:
            value = marker.kwargs.get("timeout", marker.args[0] if marker.args else None)
        if value is None:
            value = item.config.getoption("timeout", None)
        if value is None:
            try:
                value = os.environ.get("PYTEST_TIMEOUT") or item.config.getini("timeout")
            except ValueError:  # pytest-timeout not loaded
                value = 0
        try:
            return float(value or 0)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return 0.0

    def before(self, item: pytest.Item) -> tuple[set[int], set[int]]:
        timeout = self.timeout_of(item)
        limit = timeout + self.grace if timeout > 0 else 0.0
        self.running = _Running(item.nodeid, time.monotonic(), limit)
        if limit:
            faulthandler.dump_traceback_later(limit + self.backstop, exit=True, file=self.fd)
        threads = {t.ident for t in threading.enumerate() if t.ident is not None}
        return threads, set(descendants())

    def after(self, item: pytest.Item, seen: tuple[set[int], set[int]]) -> None:
        faulthandler.cancel_dump_traceback_later()
        self.running = None
        threads, procs = seen
        for t in threading.enumerate():
            if t.ident not in threads and t.is_alive():
                self.thread_origin.setdefault(t, item.nodeid)
        for pid, cmd in descendants().items():
            if pid not in procs:
                self.process_origin.setdefault(pid, (item.nodeid, cmd))

    # -- end of the run --------------------------------------------------------------------------
    def leftovers(self) -> tuple[list[threading.Thread], dict[int, str]]:
        deadline = time.monotonic() + self.wait
        while True:
            threads = [
                t
                for t in threading.enumerate()
                if t is not threading.main_thread()
                and not t.daemon
                and t.is_alive()
                and not _executor_worker(t)
            ]
            procs = descendants()
            if (not threads and not procs) or time.monotonic() > deadline:
                return threads, procs
            time.sleep(0.1)

    def finish(self, session: pytest.Session) -> None:
        threads, procs = self.leftovers()
        lines = []
        for t in threads:
            origin = self.thread_origin.get(t, "an unknown test")
            lines.append(f"  thread {t.name!r} (non-daemon), started in {origin}")
        for pid, cmd in procs.items():
            origin = self.process_origin.get(pid, ("an unknown test", ""))[0]
            lines.append(f"  process {pid} {cmd[:160]!r}, started in {origin}")
        if lines:
            report = (
                "\nsession guard: tests left these running after the last test ended "
                "(a test must stop its threads in a finally, and kill what it starts):\n"
                + "\n".join(lines)
                + "\n"
            )
            self.write(report)
            if self.worker:  # the controller fails the run (a worker's own exit status is not used)
                self.config.workeroutput["session_guard"] = report  # type: ignore[attr-defined]
                if threads:  # this worker cannot exit: the controller ends it once it has its report
                    self.config.workeroutput["session_guard_hung"] = os.getpid()  # type: ignore[attr-defined]
            killed = self.kill_descendants()
            if killed:
                self.write("killed:\n" + "\n".join(killed) + "\n")
            if threads:
                self.write(self._stacks(threads))
            if session.exitstatus == 0:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if self.from_workers:
            self.write("".join(self.from_workers))
            if session.exitstatus == 0:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self.exitstatus = int(session.exitstatus)

    def guard_exit(self) -> None:
        """Python joins non-daemon threads before it exits: if that hangs, end the process anyway.

        The run's garbage is collected now (finalisers run, an unraisable exception is still reported by
        pytest); what is still reachable (every module a worker imported, Qt's and Dask's included) is
        frozen out of the collections that follow — pytest's own five at its clean-up and the
        interpreter's at exit walked it all again each time: 7.2 → 0.7 s from a Qt module's summary
        line to the process's end, load 29."""
        gc.collect()
        gc.freeze()
        self.stop()
        if self.worker:  # idle until the controller closes it; the controller's exit watch covers it
            return
        status = self.exitstatus or 1

        def last_resort() -> None:
            time.sleep(self.exit_grace)
            self.end_run(
                f"EXIT HANG: the run is over but Python has not exited after {self.exit_grace:.0f} s "
                "(threads below are still running)",
                status,
            )

        threading.Thread(target=last_resort, name="session-guard-exit", daemon=True).start()
        faulthandler.dump_traceback_later(self.exit_grace + self.backstop, exit=True, file=self.fd)


_KEY = pytest.StashKey[SessionGuard]()


_GUARD: list[SessionGuard] = []


def pytest_configure(config: pytest.Config) -> None:
    guard = SessionGuard(config)
    config.stash[_KEY] = guard
    _GUARD[:] = [guard]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    guard = item.config.stash[_KEY]
    seen = guard.before(item)
    try:
        return (yield)
    finally:
        guard.after(item, seen)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        guard = _GUARD[0] if _GUARD else None
        if guard is not None and report.nodeid not in guard.failed:
            guard.failed.append(
                f"{report.nodeid} ({report.when})" if report.when != "call" else report.nodeid
            )


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """(pytest-xdist, in the controller) a worker is done: what it found left running fails the run."""
    guard = _GUARD[0] if _GUARD else None
    output = getattr(node, "workeroutput", {})
    found = output.get("session_guard")
    if guard is not None and found:
        guard.from_workers.append(str(found))
    hung = output.get("session_guard_hung")
    if guard is not None and hung and int(hung) in descendants():
        # threads keep that worker from exiting; its report is in and nothing else is to come from it: it
        # is ended now (pytest-xdist would wait 10 s for it to exit, then kill it)
        worker = int(hung)
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while worker in descendants() and time.monotonic() < deadline:
            time.sleep(0.05)
        if worker not in descendants():
            guard.write(f"session guard: ended the worker (pid {worker}) its threads kept from exiting\n")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    guard = session.config.stash.get(_KEY, None)
    if guard is not None:
        guard.finish(session)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    guard = config.stash.get(_KEY, None)
    if guard is not None:
        guard.guard_exit()
