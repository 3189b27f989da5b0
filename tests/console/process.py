"""``python -m broadcast console`` as a real process for the tests: offscreen or on an Xvfb display of a
given size, fed through ``--type-from -`` (lines typed into the entry line as key presses), its
``已确认`` lines read as they come."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "console"


def need(*tools: str) -> None:
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (scripts/setup.sh installs them)")


@contextlib.contextmanager
def xvfb(size: str, *, wm: bool = True) -> Iterator[str]:
    """An Xvfb display of ``size`` (WxH) on a number Xvfb picks itself, with a real window manager
    (Debian's openbox, installed by scripts/setup.sh) as on a studio PC: windows get frames, focus,
    maximising and the WM's placement; yields ":N"."""
    need("Xvfb")
    if wm:
        need("openbox", "xprop")
    r, w = os.pipe()
    # -noreset: by default Xvfb resets when its last client leaves — the _wait_for_wm probe leaving
    # before openbox had connected reset it, and openbox then failed 'to open the display' (seen when
    # several displays started at once on a loaded machine)
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{size}x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    assert number, "Xvfb did not report a display"
    display = f":{number}"
    manager = None
    said = tempfile.TemporaryFile()  # what openbox says (read only if it exits before taking the display)
    own = tempfile.TemporaryDirectory()  # openbox's cache for this display alone: its log (what it says
    try:  # when it cannot start goes there, not to stderr) read by _wait_for_wm, never another's
        if wm:
            env = dict(os.environ, DISPLAY=display, XDG_CACHE_HOME=own.name)
            manager = subprocess.Popen(
                ["openbox", "--sm-disable"], env=env, stdout=subprocess.DEVNULL, stderr=said
            )
            _wait_for_wm(env, manager, said, Path(own.name) / "openbox" / "openbox.log")
        yield display
    finally:
        said.close()
        if manager is not None:
            manager.terminate()
            manager.wait(10)
        proc.terminate()
        proc.wait(10)
        own.cleanup()


def _wait_for_wm(env: dict[str, str], manager: subprocess.Popen[bytes], said: Any, log: Path) -> None:
    """Until the window manager has taken the display (it names itself on the root window). If it exits
    first, what it said on stderr and in its log (openbox writes its messages there) is the error."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if manager.poll() is not None:
            said.seek(0)
            why = said.read().decode(errors="replace")[-2000:]
            if log.exists():
                why += log.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise AssertionError(f"openbox exited ({manager.returncode}): {why}")
        cmd = ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=10).stdout
        if "window id" in out:
            return
        time.sleep(0.1)
    raise AssertionError("openbox did not take the display")


class StudioProcess:
    """``python -m broadcast ARGS`` as a process of its own session (stopped with its children), on an
    Xvfb display or offscreen; its output read line by line as it comes (``on_line`` sees each)."""

    def __init__(self, args: list[str], *, display: str | None = None, shots: Path = SHOTS) -> None:
        env = dict(os.environ)
        if display is None:
            env["QT_QPA_PLATFORM"] = "offscreen"
        else:
            env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb")
        env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)
        env["PYTHONFAULTHANDLER"] = "1"  # a crash in Qt's C++ prints where Python was, not just an exit
        self.env = env
        self.shots = shots
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "broadcast", *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.output: list[str] = []
        self.lines: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def on_line(self, line: str) -> None:
        """Each line of output as it comes (before ``wait_for`` sees it)."""

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self.on_line(line)
            self.lines.put(line)

    def wait_for(self, marker: str, timeout: float = 180) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.proc.poll() is None, self._gone()
                continue
            if marker in line:
                return line
        raise AssertionError(f"no {marker!r}:\n" + "".join(self.output[-30:]))

    def _gone(self) -> str:
        """What the process said before it went, and how it went (its exit status or signal)."""
        self._reader.join(10)  # its last lines are read (the pipe is at its end)
        return f"exited ({self.proc.returncode}):\n" + "".join(self.output[-40:])

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:  # the process is gone: say what it printed last
            self.proc.wait(30)
            self._reader.join(10)  # it has read the last lines (the pipe is at its end)
            raise AssertionError(
                f"exited ({self.proc.returncode}) before {line!r} was typed:\n" + "".join(self.output[-30:])
            ) from None

    def xdotool(self, *args: str) -> str:
        return subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30, check=True
        ).stdout

    def screenshot(self, name: str) -> Path:
        """The whole display, as a person sees it."""
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / name
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True, timeout=60)
        return path

    def kill(self) -> None:
        """SIGKILL, no warning: what a power cut or a crash does to the process."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(60)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill()
        self._reader.join(10)  # everything it printed on the way out is in ``output``


class ConsoleProcess(StudioProcess):
    """One console process fed through ``--type-from -``; ``confirmed`` holds "n line" of every decision
    the console showed as recorded."""

    def __init__(self, db: Path, settings: Path, *, display: str | None = None, geometry: str = "") -> None:
        self.confirmed: list[str] = []
        self._news = threading.Condition()
        args = ["console", "--db", str(db), "--port", "0", "--no-obs", "--no-monitors"]
        args += ["--winprob-workers", "0", "--commentators-port", "-1"]  # not what these tests check
        args += ["--settings", str(settings), "--type-from", "-"]
        if geometry:
            args += ["--geometry", geometry]
        super().__init__(args, display=display)

    def on_line(self, line: str) -> None:
        if "已确认 confirmed #" in line:
            with self._news:
                self.confirmed.append(line.split(": ", 1)[1].strip())
                self._news.notify_all()

    def wait_confirmed(self, n: int, timeout: float = 120) -> None:
        """Until the console has shown ``n`` decisions as recorded (it must stay alive meanwhile)."""
        deadline = time.monotonic() + timeout
        with self._news:
            while len(self.confirmed) < n:
                assert self.proc.poll() is None, "exited:\n" + "".join(self.output[-30:])
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.confirmed)} of {n} confirmed:\n" + "".join(self.output[-30:])
                self._news.wait(min(left, 1.0))  # woken by each confirmation; the 1 s looks at the process

    def focus(self) -> None:
        """Find the window by the process (once it is mapped) and give it the keyboard, as a person
        clicking into it; returns once the window manager has made it the active window."""
        wid = self.xdotool("search", "--sync", "--onlyvisible", "--pid", str(self.proc.pid)).split()[0]
        self.xdotool("windowactivate", "--sync", wid)
