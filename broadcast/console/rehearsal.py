"""比赛 ▸ 打开牌谱… (Ctrl+O): a GJN record opens into a rehearsal, in a console window of its own.

The record is read and replayed by the engine first (:func:`broadcast.rehearsal.read_record`: within
``engine.gjn.MAX_BYTES``; full or partial hands, a test position; a bad file is one line
``file:line: [clause] why`` in the show's status bar and nothing is created). Then a new SQLite file
beside the project, ``<project>-assets/rehearsals/<record>.sqlite`` (:func:`broadcast.project.new_rehearsal`),
takes it as journaled actions — ``match.new`` with the record's ``[SeatN]`` names, ``game.new``, one
``game.play`` per move — and a second console window opens on it: no OBS, no pages, no season, its own
layout file beside its database. The show's window, its database and what is on air are never touched;
closing the rehearsal window is going back to the show.

In the rehearsal the operator steps through the record (PgUp/PgDn one move, Ctrl+PgUp/Ctrl+PgDn to
its start/end, Ctrl+Shift+G to the move selected in the record): each step is one journaled ``game.seek``
(the engine's pop/push), so the table is the engine's state at that move and the record shows the later
moves greyed. A decision typed at move k continues the game from there: checked by the engine like any
other, and once the operator confirms, the record's later moves are dropped from the rehearsal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox

from broadcast import project
from broadcast.console.controller import verdict_of
from broadcast.console.entry import read
from broadcast.qt.i18n import tr
from broadcast.rehearsal import GameRecord, RecordError, read_record


@dataclass(frozen=True)
class Rehearsal:
    """What a rehearsal window is about: the record, its database, and the show's (never written)."""

    record: GameRecord
    db: Path
    show_db: str

    @property
    def name(self) -> str:
        return Path(self.record.path).name


# what a rehearsal has no use for: with no studio, the cue list (GO), the graphics, the sponsor events and
# the 胜率 chart would act only on the rehearsal's own database, and took half a laptop screen
ONAIR_DOCKS = ("cues", "graphics", "sponsors", "winprob", "monitors")
ONAIR_MENUS = ("cues", "graphics", "sponsors")


def without_onair(window: Any) -> None:
    """A rehearsal's window: no on-air docks, menus, keys or status indicators (OBS, graphics pages,
    as-run, recording); the table and the record get the room."""
    window.drop_docks(ONAIR_DOCKS, ONAIR_MENUS)
    docks = getattr(window, "onair", None)
    if docks is not None:
        docks.status.without_onair()


def open_record(show: Any, path: str) -> Any:
    """The record at ``path`` in a new rehearsal window over a new rehearsal database; returns the
    window, or None when the record is refused (said in one line in ``show``'s status bar)."""
    from broadcast.core.db import DatabaseError

    while show.rehearsal is not None:  # Ctrl+O in a rehearsal: another rehearsal of the show's project
        show = show.parent()
    from broadcast.studio import open_store

    try:
        rec = read_record(path)
    except RecordError as exc:
        why = exc.zh if show.console.lang == "zh" else exc.en
        show.statusBar().showMessage(f"{exc.where}: [{exc.rule}] {why}")  # stays until the next message
        return None
    if show.new_window is None:  # a window not made by broadcast.console.app.build
        return None
    show_db = str(show.console.bridge.store.journal.path)
    db = project.new_rehearsal(show_db, rec.path)
    try:
        store = open_store(db)
    except DatabaseError as exc:
        show.statusBar().showMessage(str(exc))
        return None
    settings = QSettings(str(db.with_suffix(".ini")), QSettings.Format.IniFormat)
    for key in show.settings.allKeys():  # the operator's keys, language and window as in the show
        settings.setValue(key, show.settings.value(key))
    # no studio: no OBS, no pages, no season — nothing done in a rehearsal reaches the air or the season
    window = show.new_window(store, settings, show)
    window.rehearsal = window.panel.rehearsal = Rehearsal(rec, db, show_db)
    bridge = window.console.bridge

    def close() -> None:
        bridge.close()
        store.close()

    window.destroyed.connect(lambda *_: close())
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(close)
    show.rehearsals.append(window)

    def closed() -> None:
        if window in show.rehearsals:
            show.rehearsals.remove(window)
        show.focus_entry()  # back to the show: its window takes the keys again

    window.destroyed.connect(lambda *_: closed())
    window.panel.before_submit = lambda text: continue_from_here(window, text)
    put(window, rec)
    window.retranslate()
    show.statusBar().showMessage(
        tr("牌谱 {file} 已在彩排窗口打开：{db}（节目数据库没有改动；关掉彩排窗口即回到节目）").format(
            file=Path(rec.path).name, db=db
        ),
        30000,
    )
    return window


def put(window: Any, rec: GameRecord) -> None:
    """The record into the rehearsal's store: ``match.new`` (the [SeatN] names), ``game.new``, each move
    as ``game.play`` — journaled in order; the first refusal is said and stops the rest."""
    failed: list[Any] = []
    console = window.console

    def refused(exc: Any) -> None:
        if not shiboken6.isValid(window):  # closed while the record was still going in
            return
        if not failed:
            failed.append(exc)
            window._refused(exc)

    def done(_change: Any) -> None:
        if not failed and shiboken6.isValid(window):
            # the terminal's log says it too (a wrapper or a test waits on it: the table is at the last move)
            print(f"彩排已就绪 / the rehearsal is ready: {Path(rec.path).name} {len(rec.moves)}", flush=True)
            window.statusBar().showMessage(
                tr(
                    "彩排：牌谱 {file} 共 %n 步已放上牌桌（彩排数据库 {db}，节目数据库未动）",
                    "",
                    len(rec.moves),
                ).format(file=Path(rec.path).name, db=window.rehearsal.db.name),
                15000,
            )

    def started(_change: Any) -> None:
        if not shiboken6.isValid(window):
            return
        for i, line in enumerate(rec.moves):
            last = i == len(rec.moves) - 1
            console.act("game.play", {"line": line}, on_done=done if last else None, on_refused=refused)
        if not rec.moves:
            done(None)

    match: dict[str, Any] = {"rules": rec.rules}
    if rec.names:
        match["names"] = {str(s): n for s, n in rec.names.items()}

    def unnamed(exc: Any) -> None:  # a name the show cannot carry (too long for a seat): said, not fatal
        if not shiboken6.isValid(window):
            return
        v = verdict_of(exc)
        window.statusBar().showMessage(
            tr("牌谱的座位名没有用上：") + f"[{v.rule}] " + (v.zh if console.lang == "zh" else v.en or v.zh)
        )

    console.act("match.new", match, on_refused=unnamed)
    console.act("game.new", rec.new_payload(), on_done=started, on_refused=refused)


# -- stepping ---------------------------------------------------------------------------------------
def position(window: Any) -> tuple[int, int]:
    """(the move the table stands at, the moves of the record in all)."""
    g = window.console.state["game"]
    k = len(g["record"])
    return k, k + len(g["redo"])


def step(window: Any, where: str) -> None:
    """``back`` / ``forward`` one move, to the ``start`` / ``end``, or to the ``selected`` row."""
    if window.rehearsal is None:
        window.statusBar().showMessage(tr("逐步查看只在彩排窗口里（比赛 ▸ 打开牌谱…）"), 8000)
        return
    if window.console.busy:
        return  # the last step is still on its way: the next goes from where it lands
    k, n = position(window)
    # keys pressed faster than the steps come back (a held PgUp): each goes on from the last one asked
    # for, not from the table as it still stands — none is lost, none is a step to the same move twice
    going = getattr(window, "seeking", None)
    k = going if going is not None else k
    if where == "selected":
        rows = window.panel.record.selectionModel().selectedRows()
        to = rows[0].row() + 1 if rows else k
    else:
        to = {"back": k - 1, "forward": k + 1, "start": 0, "end": n}[where]
    to = max(0, min(n, to))
    if to == k:
        return
    window.seeking = to

    def landed(_answer: object) -> None:
        if getattr(window, "seeking", None) == to:
            window.seeking = None

    def refused(exc: object) -> None:
        landed(exc)
        window._refused(exc)

    window.console.act("game.seek", {"move": to}, on_done=landed, on_refused=refused)


def continue_from_here(window: Any, text: str) -> bool:
    """Before a decision typed in a rehearsal is sent: True lets it go as typed. At move k of a longer
    record, the record's own next move is a step forward; another legal decision asks first, as it drops
    the record's later moves; an illegal one goes on to be refused with its clause (nothing dropped)."""
    c = window.console
    redo = c.state["game"]["redo"]
    if not redo or c.mode().name != "play" or c.busy or c.verdict(text) is not None:
        return True
    entry = read(text)
    line = entry.line(c.game.pending_seat) if entry.complete else None
    if line is None:
        return True
    k, n = position(window)
    if line == redo[-1]:  # the record's own next move
        c.act("game.seek", {"move": k + 1}, on_refused=window._refused)
        window.panel.entry.clear()
        return False
    box = QMessageBox(
        QMessageBox.Icon.Question,
        tr("从这一步接着打"),
        tr(
            "从第{k}步接着打 {line}：牌谱后面的 %n 步（第{a}–{last}步）将从彩排中删除。接着打？", "", n - k
        ).format(k=k, line=line, a=k + 1, last=n),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        window,
    )
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setEscapeButton(QMessageBox.StandardButton.No)
    yes = box.button(QMessageBox.StandardButton.Yes)
    window.dialog = box
    box.finished.connect(lambda _r: window.focus_entry())
    box.finished.connect(lambda _r: c.submit(text) if box.clickedButton() is yes else None)
    box.open()
    return False
