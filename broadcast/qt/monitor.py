"""An on-air page in a window: the pages themselves in Qt WebEngine (the URLs OBS uses), scaled so their
1920×1080 stage fits a 16:9 monitor with a caption. The console's Monitors dock and the producer's
slot preview both show pages this way.

Call :func:`prepare` before the QApplication exists (Qt WebEngine needs it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Qt, QUrl
from PySide6.QtGui import QColor, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from broadcast.qt.i18n import tr


def prepare() -> None:
    """Before the QApplication exists: what Qt WebEngine needs (shared GL contexts; ``--no-sandbox``
    as root, which it otherwise refuses)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        if "--no-sandbox" not in flags:
            os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = (flags + " --no-sandbox").strip()
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    try:
        import PySide6.QtWebEngineWidgets  # noqa: F401 - must be imported before the QApplication
    except ImportError:
        pass


class MonitorFrame(QWidget):
    """A 16:9 monitor with a caption; its content is a page view or the OBS picture. ``caption`` is the
    source string (marked with ``QT_TRANSLATE_NOOP("", …)``), translated here and on ``retranslate()``."""

    def __init__(self, caption: str, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.caption_source = caption
        self.caption = QLabel(tr(caption))
        self.caption.setStyleSheet(f"color: {colour}; font-weight: bold;")
        lay.addWidget(self.caption)
        self.box = QWidget()
        self.box.setObjectName("monitorBox")
        self.box.setStyleSheet(f"QWidget#monitorBox {{ background: #000; border: 2px solid {colour}; }}")
        self.box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.inner = QVBoxLayout(self.box)
        self.inner.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.box, 1)
        self.setMinimumSize(200, 130)

    def retranslate(self) -> None:
        self.caption.setText(tr(self.caption_source))

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, w: int) -> int:  # noqa: N802 - Qt API
        return int(w * 9 / 16) + 24

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(320, 204)


# the state the page has drawn (``window.__rendered``, recorded in the frame that drew it) once nothing
# short is moving on it — an entrance or an exit (up to 3 s) over; what moves by design (the ticker's crawl,
# the credits' roll) does not count — and its fonts and pictures are in; else -1
DRAWN_JS = """(() => {
  const r = window.__rendered;
  if (!r) return -1;
  if (document.fonts && document.fonts.status !== 'loaded') return -1;
  if (![...document.images].every((i) => i.complete)) return -1;
  for (const a of document.getAnimations()) {
    if (a.playState !== 'running') continue;
    const t = a.effect && a.effect.getComputedTiming();
    if (t && t.iterations !== Infinity && t.activeDuration <= 3000) return -1;
  }
  return r.seq;
})()"""


class PageMonitor(MonitorFrame):
    """An on-air page in Qt WebEngine, scaled so its 1920×1080 stage fits the monitor (CSS zoom set
    from the console, in an isolated script world: the page itself decides nothing and is unchanged)."""

    def __init__(self, caption: str, colour: str, url: str, parent: QWidget | None = None) -> None:
        super().__init__(caption, colour, parent)
        self.url = url
        self.view: Any = None
        self.loaded = False
        try:
            from PySide6.QtWebEngineWidgets import QWebEngineView
        except ImportError:
            self.inner.addWidget(QLabel(tr("没有 Qt WebEngine")))
            return
        self.view = QWebEngineView()
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.page().setBackgroundColor(QColor("#000000"))
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.view.loadFinished.connect(self._loaded)
        self.inner.addWidget(self.view)
        self.view.setUrl(QUrl(url))

    def drawn(self, answer: Callable[[int], None]) -> None:
        """Ask the page which state it has drawn and holds still (:data:`DRAWN_JS`); ``answer`` gets its
        number later on the Qt thread, or -1 (not loaded, still moving)."""
        if self.view is None or not self.loaded:
            answer(-1)
            return
        self.view.page().runJavaScript(
            DRAWN_JS, 0, resultCallback=lambda v: answer(int(v) if isinstance(v, int | float) else -1)
        )

    def _loaded(self, ok: bool) -> None:
        self.loaded = ok
        self._zoom()

    def _zoom(self) -> None:
        if self.view is None or not self.loaded:
            return
        from PySide6.QtWebEngineCore import QWebEngineScript

        z = max(0.05, self.view.width() / 1920)
        self.view.page().runJavaScript(
            f"document.documentElement.style.zoom = '{z:.4f}';"
            "document.documentElement.style.overflow = 'hidden';",
            QWebEngineScript.ScriptWorldId.ApplicationWorld,
        )

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._zoom()
