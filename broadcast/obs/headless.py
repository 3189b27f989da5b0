"""A real OBS Studio, headless: its own Xvfb display, a fresh HOME and a pre-written configuration.

Used by the test fixture (``tests/obs/conftest.py``) and by ``python -m broadcast obs launch`` to see
the bridge work against a local OBS without a desktop. Facts it relies on are in ``docs/obs.md``
("A real OBS, headless"): OBS 29 reads the websocket settings from ``global.ini``; it needs a real X
server (Xvfb), not Qt's offscreen platform; SIGINT stops it cleanly, SIGKILL simulates a crash.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from broadcast.errors import GoujiError

PROFILE = "GoujiStudio"
COLLECTION = "GoujiStudio"


class HeadlessError(GoujiError, RuntimeError):
    """OBS or Xvfb could not be started: ``HeadlessError("obs.headless", zh, en)``."""

    rule = "obs.headless"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, state Z, or a vanished process counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[-1].split()[0]
    return state not in ("Z", "X")


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


class HeadlessObs:
    """Start/stop/kill/freeze one OBS on its own display. Restarts keep the same HOME and port."""

    def __init__(
        self,
        root: Path | None = None,
        *,
        port: int | None = None,
        password: str = "",
        fps: int = 25,
        width: int = 1920,
        height: int = 1080,
    ) -> None:
        if fps not in (25, 50, 30, 60):
            raise ValueError("fps must be 25 or 50 (30/60 for tests)")
        self._own_root = root is None
        self.root = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="gouji-obs-"))
        self.port = port or free_port()
        self.password = password
        self.fps = fps
        self.width, self.height = width, height
        self.home = self.root / "home"
        self.xvfb: subprocess.Popen[bytes] | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.display = ""
        self.log_path = self.root / "obs.log"

    # -- configuration -------------------------------------------------------------------------
    def write_config(self) -> None:
        cfg = self.home / ".config" / "obs-studio"
        prof = cfg / "basic" / "profiles" / PROFILE
        scenes = cfg / "basic" / "scenes"
        for d in (prof, scenes, self.root / "runtime"):
            d.mkdir(parents=True, exist_ok=True)
        # OBS's settings hold the websocket password: its config folder is the user's alone, and OBS
        # (which rewrites global.ini with a save of its own) runs with umask 077 (see start)
        for d in (self.home / ".config", cfg, self.root / "runtime"):
            os.chmod(d, 0o700)
        auth = "true" if self.password else "false"
        ini = cfg / "global.ini"
        ini.touch(mode=0o600, exist_ok=True)
        os.chmod(ini, 0o600)
        ini.write_text(
            "[General]\nFirstRun=true\nEnableAutoUpdates=false\nConfirmOnExit=false\n"
            "LastVersion=486539264\n\n"
            f"[Basic]\nProfile={PROFILE}\nProfileDir={PROFILE}\nSceneCollection={COLLECTION}\n"
            f"SceneCollectionFile={COLLECTION}\n\n"
            "[BasicWindow]\nPreviewEnabled=false\nSysTrayEnabled=false\nSysTrayWhenStarted=false\n"
            "ShowTransitions=true\n\n"
            "[OBSWebSocket]\nFirstLoad=false\nServerEnabled=true\n"
            f"ServerPort={self.port}\nAlertsEnabled=false\nAuthRequired={auth}\n"
            f"ServerPassword={self.password}\n",
            encoding="utf-8",
        )
        (prof / "basic.ini").write_text(
            f"[General]\nName={PROFILE}\n\n"
            f"[Video]\nBaseCX={self.width}\nBaseCY={self.height}\nOutputCX={self.width}\n"
            f"OutputCY={self.height}\nFPSType=1\nFPSInt={self.fps}\n\n"
            "[Audio]\nSampleRate=48000\nChannelSetup=Stereo\n",
            encoding="utf-8",
        )
        coll = scenes / f"{COLLECTION}.json"
        if not coll.exists():
            coll.write_text(
                json.dumps(
                    {
                        "name": COLLECTION,
                        "current_scene": "Scene",
                        "current_program_scene": "Scene",
                        "scene_order": [{"name": "Scene"}],
                        "sources": [
                            {
                                "id": "scene",
                                "versioned_id": "scene",
                                "name": "Scene",
                                "settings": {"items": [], "id_counter": 0},
                            }
                        ],
                    }
                ),
                encoding="utf-8",
            )

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "WAYLAND", "XDG_"))}
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            XDG_RUNTIME_DIR=str(self.root / "runtime"),
            DISPLAY=self.display,
            LIBGL_ALWAYS_SOFTWARE="1",
            QT_QPA_PLATFORM="xcb",
        )
        return env

    # -- lifecycle -----------------------------------------------------------------------------
    def start_display(self) -> None:
        if self.xvfb is not None and self.xvfb.poll() is None:
            return
        if not shutil.which("Xvfb"):
            raise HeadlessError(
                "obs.headless",
                "Xvfb 未安装（apt-get install xvfb）",
                "Xvfb is not installed (apt-get install xvfb)",
            )
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
            pass_fds=(w,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(w)
        buf = b""
        deadline = time.monotonic() + 10
        os.set_blocking(r, False)
        while not buf.endswith(b"\n") and time.monotonic() < deadline:
            try:
                chunk = os.read(r, 16)
            except BlockingIOError:
                time.sleep(0.01)
                continue
            if not chunk:
                break
            buf += chunk
        os.close(r)
        if not buf.strip():
            self.xvfb.kill()
            raise HeadlessError("obs.headless", "Xvfb 没有报告显示编号", "Xvfb did not report a display")
        self.display = ":" + buf.decode().strip()

    def start(self, timeout: float = 20.0) -> float:
        """Start OBS (and Xvfb if needed); return the seconds until its websocket port opened."""
        if not shutil.which("obs"):
            raise HeadlessError(
                "obs.headless",
                "OBS Studio 未安装（apt-get install obs-studio）",
                "OBS Studio is not installed (apt-get install obs-studio)",
            )
        self.start_display()
        self.write_config()
        cmd = [
            "obs",
            "--multi",
            "--disable-missing-files-check",
            "--profile",
            PROFILE,
            "--collection",
            COLLECTION,
            "--websocket_port",
            str(self.port),
        ]
        # the password is in global.ini (mode 0600), never on the command line where ps and OBS's
        # own log would show it
        t0 = time.monotonic()
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child
        try:
            self.proc = subprocess.Popen(
                cmd,
                env=self._env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=str(self.root),
                start_new_session=True,
                umask=0o077,  # every file OBS writes (global.ini with the password) is 0600
            )
        finally:
            log.close()
        while time.monotonic() - t0 < timeout:
            if not process_alive(self.proc.pid):
                raise HeadlessError(
                    "obs.headless",
                    f"OBS 启动时退出，见 {self.log_path}",
                    f"OBS exited at start-up; see {self.log_path}",
                )
            if port_open(self.port):
                return time.monotonic() - t0
            time.sleep(0.02)
        self.stop()
        raise HeadlessError(
            "obs.headless",
            f"OBS 的 WebSocket 端口 {self.port} 在 {timeout:.0f} 秒内没有打开",
            f"OBS websocket port {self.port} did not open in {timeout:.0f}s",
        )

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def running(self) -> bool:
        return self.proc is not None and process_alive(self.proc.pid)

    def kill(self) -> None:
        """SIGKILL: a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self._reap(5.0)

    def freeze(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGCONT)

    def stop(self, timeout: float = 5.0) -> None:
        """SIGINT (OBS exits cleanly), then SIGKILL if it does not."""
        if self.proc is None:
            return
        if process_alive(self.proc.pid):
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGINT)
            if not self._reap(timeout):
                self.proc.send_signal(signal.SIGKILL)
                self._reap(5.0)
        else:
            self._reap(1.0)
        self.proc = None

    def _reap(self, timeout: float) -> bool:
        assert self.proc is not None
        try:
            self.proc.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def close(self) -> None:
        """Stop OBS and Xvfb; remove the temporary HOME if this object made it."""
        self.stop()
        if self.xvfb is not None:
            self.xvfb.terminate()
            try:
                self.xvfb.wait(5)
            except subprocess.TimeoutExpired:
                self.xvfb.kill()
                self.xvfb.wait(5)
            self.xvfb = None
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> HeadlessObs:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
