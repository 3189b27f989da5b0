"""The Monitors dock: preview and program as the pages themselves (Qt WebEngine on the same URLs OBS
uses, scaled to fit) and, while OBS is connected, OBS's own program output — a screenshot a second, so
the operator sees what really airs.

The OBS picture is asked for with the bridge's ``submit()`` (a Future run on the bridge's worker) and
comes back by signal; the Qt thread never waits on OBS, and a new shot is asked for only once the last
one has answered.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QPixmap, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, tr
from broadcast.qt.monitor import MonitorFrame, PageMonitor

CTX = "Monitors"
SHOT_WIDTH = 480


class ObsShots(QObject):
    """A screenshot of OBS's program each second through ``bridge.submit`` (never blocking)."""

    shot = Signal(bytes)
    failed = Signal(str)

    def __init__(self, bridge: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.pending = False
        self.asked = 0
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.ask)
        self.timer.start()

    def ask(self) -> None:
        b = self.bridge
        if b is None or self.pending or not b.status.connected:
            return
        self.pending = True
        self.asked += 1

        def take(client: Any) -> bytes:
            scene = b.status.program_scene or str(
                client.request("GetCurrentProgramScene").get("currentProgramSceneName", "")
            )
            data: bytes = client.screenshot(scene, width=SHOT_WIDTH, fmt="jpg", quality=70)
            return data

        fut = b.submit(take)
        fut.add_done_callback(self._answer)

    def _answer(self, fut: Any) -> None:  # the bridge's worker thread: only emit
        self.pending = False
        exc = fut.exception()
        if exc is None:
            self.shot.emit(bytes(fut.result()))
        else:
            self.failed.emit(str(exc))


class ObsMonitor(MonitorFrame):
    def __init__(self, bridge: Any, parent: QWidget | None = None) -> None:
        super().__init__(QT_TRANSLATE_NOOP("", "OBS 节目输出（每秒一张）"), theme.DANGER, parent)
        self.bridge = bridge
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setWordWrap(True)
        self.picture.setStyleSheet(f"color: {theme.MUTED};")
        self.inner.addWidget(self.picture)
        self.pixmap = QPixmap()
        self.shots = ObsShots(bridge, self)
        self.shots.shot.connect(self._show, Qt.ConnectionType.QueuedConnection)
        self.shots.failed.connect(self._failed, Qt.ConnectionType.QueuedConnection)
        self.status_timer = QTimer(self)
        self.status_timer.setInterval(1000)
        self.status_timer.timeout.connect(self._offline_text)
        self.status_timer.start()
        self.received = 0
        self._offline_text()

    def retranslate(self) -> None:
        super().retranslate()
        self._offline_text()

    def _offline_text(self) -> None:
        b = self.bridge
        if b is None:
            self.pixmap = QPixmap()
            self.picture.setPixmap(QPixmap())
            self.picture.setText(tr("OBS 未启用（--no-obs）"))
        elif not b.status.connected:
            self.pixmap = QPixmap()
            self.picture.setPixmap(QPixmap())
            st = b.status
            reason = getattr(st, "line", "") or f"{st.message_zh} {st.detail}".strip()
            self.picture.setText(tr("OBS 未连接：{why}").format(why=reason))

    def _show(self, data: bytes) -> None:
        pm = QPixmap()
        if pm.loadFromData(data):
            self.received += 1
            self.pixmap = pm
            self._scale()

    def _failed(self, why: str) -> None:
        if self.pixmap.isNull():
            self.picture.setText(tr("OBS 截图失败：{why}").format(why=why))

    def _scale(self) -> None:
        if not self.pixmap.isNull():
            self.picture.setPixmap(
                self.pixmap.scaled(
                    self.picture.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._scale()


class MonitorsPanel(QWidget):
    def __init__(self, urls: dict[str, str] | None, bridge: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("monitorsPanel")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.setSpacing(8)
        self.pages: dict[str, PageMonitor] = {}
        self.note: QLabel | None = None
        if urls:
            for bus, caption, colour in (
                ("preview", QT_TRANSLATE_NOOP("", "预览 PVW（页面）"), "#35c46a"),
                ("program", QT_TRANSLATE_NOOP("", "节目 PGM（页面）"), theme.DANGER),
            ):
                m = PageMonitor(caption, colour, urls[bus])
                self.pages[bus] = m
                lay.addWidget(m, 1)
        else:
            self.note = QLabel(tr("图形服务器未运行：没有页面可看"))
            self.note.setObjectName("muted")
            lay.addWidget(self.note, 1)
        self.obs = ObsMonitor(bridge)
        lay.addWidget(self.obs, 1)

    def retranslate(self) -> None:
        """The captions and notes in the language just installed (the console's View ▸ language)."""
        for m in (*self.pages.values(), self.obs):
            m.retranslate()
        if self.note is not None:
            self.note.setText(tr("图形服务器未运行：没有页面可看"))


def register(window: Any, urls: dict[str, str] | None, bridge: Any) -> MonitorsPanel:
    panel = MonitorsPanel(urls, bridge)
    window.on_retranslate(panel.retranslate)
    window.add_dock(
        "monitors",
        QT_TRANSLATE_NOOP("Monitors", "监视器 MONITORS"),
        panel,
        Qt.DockWidgetArea.RightDockWidgetArea,
        CTX,
    )
    return panel
