"""``python -m broadcast console [--db FILE]``: the operator console on the project database.

The studio around it (demo season on first use, sponsor placements, the as-run recorder, the overlay
server, the OBS bridge) is started exactly as ``run`` starts it (:class:`broadcast.runtime.Studio`); the
console is one more view of the same store. Without a display it says so in one line and exits 2
(``QT_QPA_PLATFORM=offscreen`` runs it without one, for tests and automation).

``--record FILE`` opens a GJN record in a rehearsal window as 比赛 ▸ 打开牌谱… does
(:mod:`broadcast.console.rehearsal`); a bad one is one line ``file:line: [clause] why`` and exit 2.

``--type-from FILE`` (``-`` = stdin) types each line of the file into the entry line followed by
Enter, as an operator would, and prints ``已确认 confirmed #seq: line`` once a decision is on screen and
``未接受 refused [clause]: why`` once a refusal is under the entry line, ``下一条 next cue: id`` once the
cue list shows another cue as next: for automation and the crash tests (which wait on these lines,
never on time).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import Any

from PySide6.QtCore import QObject, QSettings, QTimer, Signal

from broadcast.console.layout import parse_geometry
from broadcast.console.startup import start_studio
from broadcast.qt.display import has_display
from broadcast.runtime import Studio, add_studio_arguments


def register(parser: argparse.ArgumentParser) -> None:
    add_studio_arguments(parser)
    parser.add_argument("--lang", choices=("zh_CN", "en"), default=None, help="界面语言 / UI language")
    parser.add_argument("--settings", default=None, help="界面设置文件 (INI) / window layout file")
    parser.add_argument("--geometry", default=None, help="窗口 WxH+X+Y / window geometry")
    parser.add_argument(
        "--no-monitors", action="store_true", help="不显示页面监视器（省 CPU）/ no page monitors (saves CPU)"
    )
    parser.add_argument(
        "--type-from", default=None, help="从文件逐行输入（- = 标准输入）/ type lines from a file"
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="GJN",
        help="同时在彩排窗口打开牌谱（比赛 ▸ 打开牌谱…）/ also open the GJN record in a rehearsal window",
    )


def settings_at(path: str | None) -> QSettings:
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings("gouji-studio", "console")


def build(
    store: Any,
    settings: QSettings,
    *,
    recovered: int = 0,
    lang: str | None = None,
    studio: Any = None,
    runner: Any = None,
    monitors: bool | None = None,
    placements: Any = None,
    preflight_gate: bool = False,
) -> Any:
    """The console over ``store`` (a QApplication must exist): bridge, controller, main window with
    the on-air docks (``broadcast.console.docks``: graphics, monitors when a studio serves pages, cue
    list, sponsor events, status bar). Returns the window; ``window.console.bridge`` is the bridge
    (close it before the store), ``window.onair`` the docks."""
    from PySide6.QtWidgets import QApplication

    from broadcast.console.controller import Console
    from broadcast.console.window import MainWindow
    from broadcast.qt import i18n, theme
    from broadcast.qt.bridge import StoreBridge

    app = QApplication.instance()
    assert isinstance(app, QApplication), "a QApplication must exist"
    theme.apply(app)
    i18n.install(lang or str(settings.value("language", "zh_CN")))
    bridge = StoreBridge(store)
    console = Console(bridge)
    window = MainWindow(console, settings)
    from broadcast.console import docks

    window.onair = docks.install(
        window,
        studio,
        runner=runner,
        monitors=(studio is not None) if monitors is None else monitors,
        placements=placements,
    )
    if preflight_gate:  # the episode's first GO runs the pre-show check (console/preflight.py)
        window.preflight.gate(window.onair.onair)
        server = getattr(studio, "server", None)
        if server is not None:  # the HTTP control API's (a Stream Deck's) GO too
            server.before_go = window.preflight.api_gate
    _producer_menu(window)
    window.new_window = _new_window
    window.restore_layout()
    window.retranslate()
    if recovered:
        window.show_recovered(recovered)
    return window


def _new_window(store: Any, settings: QSettings, parent: Any) -> Any:
    """Another console window over ``store``, a window of ``parent`` (closed with it, deleted when
    closed), with no studio around it (no OBS, pages or season): a rehearsal's
    (:mod:`broadcast.console.rehearsal`). Shown; the caller sets it up before the events run."""
    from PySide6.QtCore import Qt

    from broadcast.console.rehearsal import without_onair
    from broadcast.qt import i18n

    window = build(store, settings, lang=i18n.current(), studio=None, monitors=False)
    without_onair(window)
    window.setParent(parent, Qt.WindowType.Window)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    show_window(window)
    return window


def _producer_menu(window: Any) -> None:
    """制片(&P) → the producer's workspace (:mod:`broadcast.producer`) as a window of the console, on the
    same database."""
    from broadcast.producer.app import open_from_console

    window.hotkeys.bind("producer.open", lambda: open_from_console(window))


class _Typist(QObject):
    """Feeds ``--type-from`` lines to the entry line on the Qt thread, and says on stdout what the window
    shows as it shows it (a decision recorded, a refusal, the next cue, a dialog painted on the screen):
    what a program driving the console waits on."""

    line = Signal(str)

    def __init__(self, window: Any, source: str) -> None:
        super().__init__(window)
        self.window = window
        self.line.connect(self._type)
        stream = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()
        window.console.journaled.connect(self._confirmed)
        window.console.rejected.connect(self._refused)  # after the entry line's own: its text is set
        self._next: str | None = None
        window.console.stateChanged.connect(self._cue_list)  # after the cue list's own: it is redrawn
        self._cue_list()
        monitors = getattr(getattr(window, "onair", None), "monitors", None)
        if monitors is not None and monitors.pages:
            _MonitorsDrawn(window, monitors.pages)
        from PySide6.QtGui import QGuiApplication

        app = QGuiApplication.instance()
        assert isinstance(app, QGuiApplication)
        app.focusWindowChanged.connect(self._focused)

    def _read(self, stream: Any) -> None:
        for raw in stream:
            self.line.emit(raw.rstrip("\n"))

    def _type(self, text: str) -> None:
        from PySide6.QtCore import QCoreApplication, Qt
        from PySide6.QtGui import QKeyEvent

        entry = self.window.panel.entry
        for ch in text:
            for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
                QCoreApplication.postEvent(entry, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))
        for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
            QCoreApplication.postEvent(
                entry, QKeyEvent(kind, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)
            )

    def _confirmed(self, number: int, line: str) -> None:
        """A decision typed from the file is in the journal (the window shows it as written)."""
        seq = self.window.console.state["meta"]["seq"]
        print(f"已确认 confirmed #{seq}: {number} {line}", flush=True)

    def _cue_list(self) -> None:
        """The cue list's next cue, once it shows another (what the GO key will run)."""
        cues = getattr(getattr(self.window, "onair", None), "cues", None)
        view = cues.next_view() if cues is not None else None
        nxt = None if view is None else str(view.cue["id"])
        if nxt != self._next:
            self._next = nxt
            print(f"下一条 next cue: {nxt or '-'}", flush=True)

    def _refused(self, verdict: Any) -> None:
        """A refusal is under the entry line (the engine's, or the store's)."""
        print(f"未接受 refused [{verdict.rule}]: {verdict.en}", flush=True)

    def _focused(self, handle: Any, tries: int = 0) -> None:
        """A window of the console other than the main one (a dialog, the keys sheet) took the keys: once
        it is exposed, it is painted and handed to the window system at once, then said — a photo taken
        after that line shows it whole (nothing else tells when a dialog was drawn)."""
        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QApplication

        if handle is None or not handle.isVisible():
            return
        widget = next((w for w in QApplication.topLevelWidgets() if w.windowHandle() is handle), None)
        if widget is None or widget is self.window:
            return
        if not handle.isExposed():  # mapped but not yet shown by the window system: look again soon
            if tries < 500:
                QTimer.singleShot(10, lambda: self._focused(handle, tries + 1))
            return
        widget.repaint()  # painted into its window now (not at the next update), flushed
        QGuiApplication.sync()  # and the window system has drawn it
        print(f"已显示 shown: {widget.windowTitle()}", flush=True)


class _MonitorsDrawn(QObject):
    """``--type-from``: "监视器已画好 monitors drawn #N" once every page monitor has drawn state N (the
    latest the console has) and holds still — on two looks in a row, 50 ms apart — the monitors then
    repainted and handed to the window system: a photo taken after that line shows the graphics whole
    (nothing else tells when Qt WebEngine has painted). Said again for each newer state."""

    POLL_MS = 50

    def __init__(self, window: Any, pages: dict[str, Any]) -> None:
        super().__init__(window)
        self.window = window
        self.pages = pages
        self._drawn = {bus: -1 for bus in pages}  # each page's last answer
        self._quiet = 0
        self._said = -1
        self._timer = QTimer(self)
        self._timer.setInterval(self.POLL_MS)
        self._timer.timeout.connect(self._look)
        window.console.stateChanged.connect(self._arm)
        window.console.estimated.connect(self._arm)  # an estimate is a state of its own (the pages get it)
        self._arm()

    def _arm(self) -> None:
        self._quiet = 0
        self._timer.start()

    def _answer(self, bus: str, seq: int) -> None:
        self._drawn[bus] = seq

    def _look(self) -> None:
        from PySide6.QtGui import QGuiApplication

        seq = int(self.window.console.state["meta"]["seq"])
        for bus, page in self.pages.items():
            page.drawn(lambda n, bus=bus: self._answer(bus, n))  # answered before the next look
        still = all(n >= seq for n in self._drawn.values())
        self._quiet = self._quiet + 1 if still else 0
        if self._quiet < 2:
            return
        self._timer.stop()
        if seq <= self._said:
            return
        for page in self.pages.values():
            page.repaint()
        QGuiApplication.sync()
        self._said = seq
        print(f"监视器已画好 monitors drawn #{seq}", flush=True)


def main(args: argparse.Namespace) -> int:
    if not has_display():
        print(
            "没有图形显示（DISPLAY 未设置），导播台无法打开 / no display (DISPLAY is not set): the console "
            "cannot open; use `python -m broadcast run --headless`, or QT_QPA_PLATFORM=offscreen",
            file=sys.stderr,
        )
        return 2
    if os.geteuid() == 0:  # Qt WebEngine (monitors) refuses to run as root without it
        os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")
    from PySide6.QtWidgets import QApplication

    from broadcast.qt.monitor import prepare
    from broadcast.rehearsal import RecordError, read_record
    from broadcast.sponsors.cuerunner import CueRunner

    if args.record:  # a bad record is one line before anything starts (the window would say it too)
        try:
            read_record(args.record)
        except RecordError as exc:
            print(str(exc), file=sys.stderr)
            return 2

    prepare()  # Qt WebEngine, before the QApplication

    studio_args = argparse.Namespace(**vars(args))
    studio = Studio(studio_args)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("gouji-console")
    app.setOrganizationName("gouji-studio")
    window = None
    runner = None
    stopping = _quit_on_signals(app)  # before anything is said: a SIGTERM at any moment closes cleanly
    try:
        start_studio(app, studio, args.geometry)  # a window at once, even while the database is held
        runner = CueRunner(studio.store, bridge=studio.bridge)  # timed cues end, films play via OBS
        runner.start()
        window = build(
            studio.store,
            settings_at(args.settings),
            recovered=studio.recovered,
            lang=args.lang,
            studio=studio,
            runner=runner,
            monitors=not args.no_monitors,
            preflight_gate=True,
        )
        show_window(window, args.geometry)
        window.panel.entry.setFocus()
        if args.type_from:
            _Typist(window, args.type_from)
        if args.record:
            from broadcast.console.rehearsal import open_record

            open_record(window, args.record)
        print("导播台已打开 / the console is open", flush=True)
        rc = 0 if stopping.is_set() else app.exec()
    except KeyboardInterrupt:
        rc = 130
    finally:
        if runner is not None:
            runner.stop()
        if window is not None:
            window.console.bridge.close()
        studio.stop()
    return int(rc)


def _quit_on_signals(app: Any) -> threading.Event:
    """SIGTERM / SIGINT close the window properly (layout saved, store closed) instead of killing the
    process mid-way; a timer lets Python's signal handlers run while Qt's event loop waits. Installed
    before the studio starts: a signal that arrives before the event loop runs is remembered (the
    returned event) and the loop is not entered, one that arrives later quits it."""
    import signal

    from PySide6.QtCore import QTimer

    stopping = threading.Event()

    def _on_signal(_s: int, _f: object) -> None:
        stopping.set()
        app.closeAllWindows()
        QTimer.singleShot(0, app.quit)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _on_signal)
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(200)
    return stopping


def show_window(window: Any, geometry: str | None = None) -> None:
    """Show the console's window: at ``--geometry`` when given (obeyed as given), else maximised on its
    screen the first time (no layout saved yet), else at the saved geometry cut to this screen
    (:mod:`broadcast.console.layout`)."""
    if geometry:
        _set_geometry(window, geometry)
        window.show()
    elif window.first_start:
        window.showMaximized()
    else:
        window.show()
        window.layout_.fit()


def _set_geometry(window: Any, spec: str) -> None:
    x, y, w, h = parse_geometry(spec)
    window.layout_.for_size(w, h)
    window.setGeometry(x, y, w, h)
