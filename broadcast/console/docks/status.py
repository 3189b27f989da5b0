"""The status bar's on-air half: OBS (connected / reconnecting, with the reason and since when), the
overlay pages connected, as-run recording, the wall clock and the recording time.

The bridge's status listener runs on the bridge's worker thread; it only emits a signal. The rest is
read once a second on the Qt thread from values already in memory (never SQLite, never OBS).
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel

from broadcast.clock import STUDIO_TZ
from broadcast.qt import theme
from broadcast.qt.i18n import tr

CTX = "StatusBar"


def hms(ts: float) -> str:
    return datetime.fromtimestamp(ts, STUDIO_TZ).strftime("%H:%M:%S")


def duration(seconds: float) -> str:
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60:02d}:{rest % 60:02d}"


def dot(colour: str, text: str) -> str:
    return f'<span style="color:{colour}">●</span> {text}'


class _StatusRelay(QObject):
    changed = Signal(object)


class StatusWidgets:
    def __init__(self, window: Any, studio: Any = None, clock: Any = time.time) -> None:
        self.window = window
        self.console = window.console
        self.studio = studio
        self.clock = clock
        bar = window.statusBar()
        self.obs = self._label("statusObs")
        self.pages = self._label("statusPages")
        self.asrun = self._label("statusAsrun")
        self.wall = self._label("statusClock")
        self.recording = self._label("statusRecording")
        for w in (self.obs, self.pages, self.asrun, self.wall, self.recording):
            bar.addPermanentWidget(w)
        self.bridge = getattr(studio, "bridge", None)
        self.obs_status: Any = self.bridge.status if self.bridge is not None else None
        self.relay = _StatusRelay(window)
        self.relay.changed.connect(self._obs_changed, Qt.ConnectionType.QueuedConnection)
        if self.bridge is not None:
            self._unlisten = self.bridge.add_status_listener(self.relay.changed.emit)
        self.timer = QTimer(window)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def onair_labels(self) -> tuple[QLabel, ...]:
        """The indicators of the show's air chain: OBS, the graphics pages, the as-run log, the recording."""
        return (self.obs, self.pages, self.asrun, self.recording)

    def without_onair(self) -> None:
        """A rehearsal's window: no air chain, so its indicators ("OBS 未启用", "录制 未开始" …) would
        only be noise there; the wall clock stays."""
        for w in self.onair_labels():
            w.hide()

    def _label(self, name: str) -> QLabel:
        w = QLabel()
        w.setObjectName(name)
        w.setTextFormat(Qt.TextFormat.RichText)
        w.setStyleSheet("padding: 0 10px;")
        return w

    def _obs_changed(self, status: Any) -> None:
        self.obs_status = status
        self.refresh()

    def obs_text(self) -> str:
        st = self.obs_status
        if self.studio is None or (self.bridge is None and st is None):
            return dot(theme.MUTED, tr("OBS 未启用"))
        since = f" · {tr('自')} {hms(st.since)}" if getattr(st, "since", 0) else ""
        if st.connected:
            where = ""
            settings = getattr(self.bridge, "settings", None)
            if settings is not None:
                where = f" ({settings.host}:{settings.port})"
            scene = f" · {st.program_scene}" if st.program_scene else ""
            return dot(theme.OK, tr("OBS 已连接") + where + scene + since)
        reason = (getattr(st, "detail", "") or "").strip()
        text = st.message_zh + (f"：{reason}" if reason else "")
        colour = theme.DANGER if st.state in ("reconnecting", "auth_failed") else theme.WARN
        return dot(colour, text + since)

    def refresh(self) -> None:
        now = self.clock()
        self.obs.setText(self.obs_text())
        self.obs.setToolTip(getattr(self.obs_status, "line", "") or "")
        server = getattr(self.studio, "server", None)
        if server is not None:
            n = server.client_count
            self.pages.setText(dot(theme.OK if n else theme.WARN, tr("图形页 %n 个", "", n)))
        else:
            self.pages.setText(dot(theme.MUTED, tr("图形服务器未运行")))
        rec = getattr(self.studio, "recorder", None)
        episode = self.console.state["show"]["episode"]
        if rec is not None:
            errors = len(getattr(rec, "errors", []))
            if errors:
                self.asrun.setText(dot(theme.DANGER, tr("播出记录出错 {n} 次").format(n=errors)))
            else:
                self.asrun.setText(dot(theme.OK, tr("播出记录中 {ep}").format(ep=episode).strip()))
        else:
            self.asrun.setText(dot(theme.MUTED, tr("播出记录未启动")))
        self.wall.setText(hms(now))
        started = self.recording_started()
        if started:
            self.recording.setText(tr("录制 {t}").format(t=duration(now - started)))
        else:
            self.recording.setText(tr("录制 未开始"))

    def recording_started(self) -> float:
        """The first GO of the episode's cue list (the recording's start), 0 before it."""
        from broadcast.console.preflight import recording_started

        return recording_started(self.console.state["cues"])


def install(window: Any, studio: Any = None) -> StatusWidgets:
    return StatusWidgets(window, studio)
