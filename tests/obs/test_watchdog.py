"""The freeze verdict (broadcast/obs/watchdog.py): a stopped OBS is frozen at once, a starved one that
still works is not (a false outage would credit nothing for time that aired), a remote one is given
the time its recent answers took. The judge is pure; the process probe reads a real process's /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from broadcast.obs.headless import free_port
from broadcast.obs.settings import ObsSettings, SettingsError
from broadcast.obs.watchdog import SETTLE, FreezeJudge, LocalProcess, ProcessSample


class Proc:
    """A scripted OBS process: its state letter and CPU ticks, changed by the test."""

    def __init__(self) -> None:
        self.state, self.cpu = "S", 100

    def sample(self) -> ProcessSample:
        return ProcessSample(self.state, self.cpu)


def test_a_stopped_obs_is_frozen_as_soon_as_the_silence_is_long_enough() -> None:
    proc = Proc()
    judge = FreezeJudge(1.2, 6.0, proc)
    assert not judge.frozen(0.7, 10.0)
    proc.state = "T"  # SIGSTOP
    assert not judge.frozen(1.1, 10.4)
    assert judge.frozen(1.2, 10.5) and "T" in judge.reason


def test_a_starved_obs_that_still_uses_cpu_is_not_frozen_before_freeze_max() -> None:
    proc = Proc()
    judge = FreezeJudge(1.2, 6.0, proc)
    now = 100.0
    for quiet in (0.6, 1.2, 2.0, 3.5, 5.9):
        proc.cpu += 2  # a few ticks of CPU: OBS works, its answers are late
        assert not judge.frozen(quiet, now + quiet), quiet
    assert judge.frozen(6.0, now + 6.0) and "silent" in judge.reason


def test_an_obs_that_uses_no_cpu_at_all_is_frozen_once_watched_a_moment() -> None:
    proc = Proc()
    judge = FreezeJudge(1.2, 6.0, proc)
    assert not judge.frozen(0.6, 50.0)  # the silence's start: CPU time noted
    assert not judge.frozen(1.2, 50.0 + SETTLE / 2)  # not watched long enough to tell
    assert judge.frozen(1.3, 50.0 + SETTLE + 0.1) and "no CPU" in judge.reason


def test_a_new_silence_starts_a_new_watch() -> None:
    proc = Proc()
    judge = FreezeJudge(1.2, 6.0, proc)
    judge.frozen(0.6, 1.0)
    proc.cpu += 5
    assert not judge.frozen(0.1, 2.0)  # OBS answered: the watch is over
    assert not judge.frozen(0.6, 3.0)
    assert not judge.frozen(1.2, 3.1)  # CPU unchanged since 3.0, but only 0.1 s watched
    assert judge.frozen(1.5, 3.0 + SETTLE + 0.1)


def test_our_own_starved_thread_looks_again_before_judging() -> None:
    proc = Proc()
    proc.state = "T"
    judge = FreezeJudge(1.2, 6.0, proc)
    assert not judge.frozen(2.0, 5.0, lag=1.5)  # we slept 1.5 s ourselves: read what came first
    assert judge.frozen(2.0, 5.1, lag=0.0)


def test_a_remote_obs_gets_the_time_its_recent_answers_took() -> None:
    judge = FreezeJudge(1.2, 6.0, None)
    judge.answered(0.0, 0.01)
    assert not judge.frozen(1.1, 1.0)
    assert judge.frozen(1.2, 1.1)
    slow = FreezeJudge(1.2, 6.0, None)
    slow.answered(10.0, 1.0)  # a loaded machine: an answer took a second
    assert slow.patience() == pytest.approx(3.0)
    assert not slow.frozen(2.5, 12.0)
    assert slow.frozen(3.0, 12.5)
    slow.answered(30.0, 0.01)  # ten seconds later the slow answer is forgotten
    assert slow.patience() == pytest.approx(1.2)
    very = FreezeJudge(1.2, 6.0, None)
    very.answered(0.0, 5.0)
    assert very.patience() == 6.0  # never more than freeze_max


def test_freeze_max_is_checked() -> None:
    with pytest.raises(SettingsError, match="freeze_max"):
        ObsSettings(freeze_after=2.0, freeze_max=1.0)


def test_the_process_behind_a_loopback_port_is_found_and_seen_stopped() -> None:
    port = free_port()
    code = (
        "import socket, sys, time\n"
        "s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()\n"
        "print('up', flush=True)\n"
        "while True: sum(range(20000)); time.sleep(0.001)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "up"
        proc = LocalProcess.find("127.0.0.1", port)
        assert proc is not None and proc.pid == child.pid
        assert LocalProcess.find("192.0.2.1", port) is None  # not this machine: nothing to look at
        first = proc.sample()
        assert first is not None and first.state in "RS"
        deadline = time.monotonic() + 30
        while (s := proc.sample()) is not None and s.cpu <= first.cpu and time.monotonic() < deadline:
            time.sleep(0.05)
        assert s is not None and s.cpu > first.cpu  # it works: its CPU time moves
        os.kill(child.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 30
        while (s := proc.sample()) is not None and s.state != "T" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert s is not None and s.state == "T"
        judge = FreezeJudge(1.2, 6.0, proc)
        assert judge.frozen(1.2, time.monotonic())
        os.kill(child.pid, signal.SIGCONT)
    finally:
        child.kill()
        child.wait(10)
    assert proc.sample() == ProcessSample("X", 0)  # gone
