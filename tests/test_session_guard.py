"""The session guard proven: deliberately hanging tests, each in a pytest of its own (a subprocess), end
that run within bounds, failing, with the stuck test named (``tests/session_guard.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 1  # the inner runs' pytest-timeout
GRACE = 2  # GOUJI_TEST_GRACE
BACKSTOP = 2  # GOUJI_GUARD_BACKSTOP
WAIT = 1  # GOUJI_GUARD_WAIT
EXIT_GRACE = 2  # GOUJI_EXIT_GRACE
# the backstop of the runs that only wait past it (C code holding the GIL; a worker idle past the exit
# grace): each second of it is a second of the suite
SHORT_BACKSTOP = 0.5
# start-up of a pytest and its plugins on a loaded 2-core machine, on top of the guard's own limits
SLACK = 60


def _run_inner(
    tmp_path: Path, source: str, *args: str, grace: float = GRACE, backstop: float = BACKSTOP
) -> tuple[int, str, float]:
    """Run ``source`` as a test file in a pytest of its own with the guard; (exit code, output, seconds)."""
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\ntimeout = {TIMEOUT}\ntimeout_method = signal\n", encoding="utf-8"
    )
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        GOUJI_TEST_GRACE=str(grace),
        GOUJI_GUARD_BACKSTOP=str(backstop),
        GOUJI_GUARD_WAIT=str(WAIT),
        GOUJI_EXIT_GRACE=str(EXIT_GRACE),
    )
    # only the plugins the guard works with (pytest-timeout, xdist): the suite's others (pytest-qt with
    # PySide6, hypothesis) took ~1.7 s of each inner pytest's start (10 of them here) and are no part of it
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_TIMEOUT", None)
    t0 = time.monotonic()
    try:
        r = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "tests.session_guard", "-p", "no:cacheprovider"]
            + ["-p", "pytest_timeout", "-p", "xdist.plugin"]
            + ["-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), "-q", *args, str(tmp_path)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the guarded run hung itself: {exc.stdout!r} {exc.stderr!r}") from exc
    return r.returncode, r.stdout + r.stderr, time.monotonic() - t0


def test_a_test_past_its_timeout_fails_by_name_and_what_tests_left_running_is_named_and_ended(
    tmp_path: Path,
) -> None:
    """pytest-timeout fails the sleeping test by name and the run goes on; the process another test
    started and forgot is named with its test and killed at the end, and the run fails. The hang of
    issue 16: a non-daemon thread whose stop flag a failing test never set keeps Python from exiting;
    the guard names it with its test, fails the run and ends the process. (One run for the three: each
    inner pytest costs its start-up.)"""
    pid_file = tmp_path / "server.pid"
    rc, out, seconds = _run_inner(
        tmp_path,
        f"""
        import subprocess
        import threading
        import time

        import pytest

        def test_sleeps_forever():
            while True:
                time.sleep(0.1)

        @pytest.mark.timeout(60)
        def test_starts_a_server_and_forgets_it():
            proc = subprocess.Popen(["sleep", "3600"])
            open({str(pid_file)!r}, "w").write(str(proc.pid))

        def test_starts_a_caller_and_fails_before_stopping_it():
            stop = threading.Event()
            caller = threading.Thread(target=lambda: [time.sleep(0.05) for _ in iter(stop.is_set, True)],
                                      name="resync-caller")
            caller.start()
            assert False, "the wait failed"
            stop.set()

        def test_after_it():
            assert True
        """,
        # pytest-timeout ends the sleeping test: the guard's watchdog (timeout + grace) must not fire while
        # its failure is reported — at load 20 that took over the default 2 s and the watchdog ended the
        # run (nothing here waits on the grace, so a long one costs nothing)
        grace=30,
    )
    assert rc == 1, out
    assert "FAILED test_inner.py::test_sleeps_forever" in out and "Timeout" in out, out
    assert "2 failed, 2 passed" in out, out
    assert "'sleep 3600', started in test_inner.py::test_starts_a_server_and_forgets_it" in out, out
    pid = int(pid_file.read_text())
    assert f"killed:\n  pid {pid}: sleep 3600" in out, out
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        state = "gone"
    assert state in ("gone", "Z", "X")
    assert "resync-caller" in out and "started in test_inner.py::test_starts_a_caller_and_fails" in out, out
    assert "EXIT HANG" in out, out
    assert seconds < TIMEOUT + WAIT + EXIT_GRACE + SLACK


# two workers of pytest-xdist (as scripts/test.sh runs the suite), each test in a group of its own so
# that each worker gets one
TWO_WORKERS = ("-n", "2", "--dist", "loadgroup")


def test_on_two_workers_the_one_that_finished_first_waits_for_the_other_quietly(tmp_path: Path) -> None:
    """A worker done with its tests waits, idle, for the controller: that is no hang at exit (the other
    worker runs on past the exit grace), and the run passes."""
    rc, out, seconds = _run_inner(
        tmp_path,
        f"""
        import time

        import pytest

        @pytest.mark.xdist_group("a")
        def test_quick():
            assert True

        @pytest.mark.xdist_group("b")
        @pytest.mark.timeout(60)
        def test_runs_past_the_exit_grace():  # and past the backstop an exit watch would arm
            time.sleep({EXIT_GRACE + SHORT_BACKSTOP + 1})
        """,
        *TWO_WORKERS,
        backstop=SHORT_BACKSTOP,
    )
    assert rc == 0, out
    assert "2 passed" in out and "EXIT HANG" not in out and "session guard" not in out, out
    assert seconds < EXIT_GRACE + SHORT_BACKSTOP + 1 + SLACK


def test_on_two_workers_a_thread_left_running_in_a_worker_fails_the_run_by_name(tmp_path: Path) -> None:
    """A worker's own exit status is not the run's: what it finds left running reaches the controller,
    which names it with its test and fails the run; the hung worker is ended at once."""
    rc, out, seconds = _run_inner(
        tmp_path,
        """
        import threading

        import pytest

        @pytest.mark.xdist_group("a")
        def test_starts_a_thread_and_forgets_it():
            threading.Thread(target=threading.Event().wait, name="forgotten-poller").start()

        @pytest.mark.xdist_group("b")
        def test_other():
            assert True
        """,
        *TWO_WORKERS,
    )
    assert rc == 1, out
    assert "2 passed" in out, out
    assert (
        "'forgotten-poller' (non-daemon), started in test_inner.py::test_starts_a_thread_and_forgets_it"
        in out
    )
    assert "session guard: ended the worker (pid " in out, out  # not after pytest-xdist's 10 s
    assert seconds < WAIT + SLACK


def test_a_test_that_will_not_stop_ends_the_run_with_its_name_and_stacks(tmp_path: Path) -> None:
    """A test that swallows pytest-timeout's failure and goes on: the watchdog ends the run."""
    rc, out, seconds = _run_inner(
        tmp_path,
        """
        import time

        def test_fails_first():
            assert False

        def test_ignores_its_timeout():
            while True:
                try:
                    time.sleep(0.1)
                except BaseException:
                    pass

        def test_never_reached():
            assert True
        """,
    )
    assert rc == 1, out
    assert "STUCK TEST: test_inner.py::test_ignores_its_timeout" in out, out
    assert "failed before the run was ended:\n  test_inner.py::test_fails_first" in out, out
    assert "in test_ignores_its_timeout" in out  # its stack
    assert "test_never_reached" not in out.split("STUCK TEST")[1]
    assert seconds < TIMEOUT + GRACE + SLACK


def test_a_test_stuck_in_c_code_holding_the_gil_is_ended_by_the_backstop(tmp_path: Path) -> None:
    """No signal handler and no Python thread runs while C code holds the GIL: faulthandler's C thread
    dumps the stacks (the test is in them) and exits."""
    rc, out, seconds = _run_inner(
        tmp_path,
        """
        def test_sums_for_hours():
            assert sum(range(10**14)) > 0
        """,
        # nothing else runs here to be given time: the stacks are dumped 1 s past the test's timeout (it
        # burns a core till then, taken from the suite's other worker)
        grace=0.5,
        backstop=SHORT_BACKSTOP,
    )
    assert rc == 1, out
    assert "Timeout" in out and "in test_sums_for_hours" in out, out
    assert seconds < TIMEOUT + 1 + SLACK
