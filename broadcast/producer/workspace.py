"""The producer's workspace behind the widgets: the placements draft, the checks as it changes, and every
piece of slow work (the checker, ffprobe, the season database, the as-run log, exports, the preview's
store) on one worker thread with results by signal — the console's pattern
(:class:`broadcast.qt.bridge.StoreBridge` over the preview's own store).

Widgets call :meth:`Workspace.edit` as the producer types; a check of the draft's text follows a moment
later on the worker and comes back as ``checked(Check)``; every form shows the issues about its fields.
Season data changes only through :class:`~broadcast.season.model.SeasonDB` (and the roster importer)
on the worker; placements change only through the draft, saved as text that validates.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from broadcast import project
from broadcast.errors import GoujiError, count
from broadcast.producer.draft import Check, Path_, PlacementsDraft
from broadcast.producer.preview import Base, PreviewStudio, View, preview_actions, sponsors_root

CHECK_DELAY_MS = 250  # after the last keystroke


class Workspace(QObject):
    checked = Signal(object)  # Check
    structure = Signal()  # slots or sponsors were added, removed or reordered: lists redraw
    saved = Signal(object)  # Check of the saved text
    notice = Signal(str)  # one line for the status bar
    previewed = Signal(object)  # (url, seq) or an error line
    open_slot = Signal(object)  # a slot moved (signing order): the window shows it at its new place

    def __init__(
        self,
        db: str | Path,
        placements: str | Path | None = None,
        parent: QObject | None = None,
        *,
        season: str | None = None,
    ) -> None:
        super().__init__(parent)
        from broadcast.producer.season import Places
        from broadcast.qt.bridge import StoreBridge

        self.db = Path(db)
        self.places = Places(self.db, season or str(self.db))  # the season: --season-db, else the project
        self.draft = PlacementsDraft.open(placements or project.placements_file(self.db))
        self.check: Check | None = None
        self.valid: Check | None = None  # the last check without errors (the preview and flags use it)
        self.generation = 0
        self.studio = PreviewStudio(self.db, sponsors_root(None, self._served_root()))
        self.bridge = StoreBridge(self.studio.store, self)
        self._handlers: dict[int, tuple[Callable[[Any], None] | None, Callable[[Any], None] | None]] = {}
        self.bridge.connect_queued("returned", self._returned)
        self.bridge.connect_queued("failed", self._failed)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_DELAY_MS)
        self._timer.timeout.connect(self.recheck)
        self.base = Base()
        self.closed = False
        self.recheck()

    def _served_root(self) -> Path:
        from broadcast.sponsors.placements.assets import served_root

        return served_root(self.draft.path.resolve().parent, None)

    # -- the worker -----------------------------------------------------------------------------------
    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        done: Callable[[Any], None] | None = None,
        failed: Callable[[Any], None] | None = None,
        **kw: Any,
    ) -> int:
        """``fn(*args, **kw)`` on the worker; ``done(value)`` / ``failed(exc)`` on the Qt thread."""
        ticket = self.bridge.ticket()
        self._handlers[ticket] = (done, failed)
        return self.bridge.call(fn, *args, ticket=ticket, **kw)

    def _returned(self, ticket: int, value: Any) -> None:
        done, _ = self._handlers.pop(ticket, (None, None))
        if done is not None and _alive(done):
            done(value)

    def _failed(self, ticket: int, exc: Any) -> None:
        _, failed = self._handlers.pop(ticket, (None, None))
        if failed is not None:
            if _alive(failed):
                failed(exc)
        elif not self.closed:
            self.notice.emit(f"{type(exc).__name__}: {exc}")

    def drain(self) -> None:
        """Until every queued piece of work has run (tests, closing)."""
        self.bridge.drain(60)

    # -- the draft ----------------------------------------------------------------------------------------
    def edit(self, path: Path_, value: Any, *, now: bool = False) -> None:
        """A field changed: write it to the draft and check again shortly (``now``: at once)."""
        self.draft.set(path, value)
        self.schedule(now=now)

    def reorder(self, path: Path_) -> Path_:
        """赞助播出 air in signing order: put the list in that order (once a signing date is typed in)
        and return where the slot at ``path`` went."""
        order = self.draft.order_supporters()
        if order == list(range(len(order))) or path[:1] != ("supporters",) or len(path) < 2:
            return path
        moved = ("supporters", order.index(int(path[1])), *path[2:])
        self.structure.emit()
        self.open_slot.emit(moved)
        self.schedule(now=True)
        return moved

    def changed_structure(self) -> None:
        self.draft.order_supporters()
        self.structure.emit()
        self.schedule(now=True)

    def schedule(self, *, now: bool = False) -> None:
        self.generation += 1
        if now:
            self._timer.stop()
            self.recheck()
        else:
            self._timer.start()

    def recheck(self) -> None:
        gen = self.generation
        text = self.draft.text()  # on the Qt thread: the document is only touched here
        self.run(self.draft.check, text=text, done=lambda c: self._checked(gen, c))

    def _checked(self, gen: int, check: Check) -> None:
        if gen != self.generation:
            return  # the draft changed since: a newer check is on its way
        self.check = check
        if check.ok:
            self.valid = check
        self.checked.emit(check)

    def save(self, *, force: bool = False) -> None:
        """Save the draft (validated, atomic); ``saved`` or a notice with the reasons."""
        from broadcast.core.files import WriteFailed
        from broadcast.producer.draft import SaveRefused

        self._timer.stop()
        self.generation += 1
        if self.draft.order_supporters() != sorted(self.draft.order_supporters()):
            self.structure.emit()
        try:
            check = self.draft.save(force=force)
        except SaveRefused as exc:
            self.check = Check(
                self.draft.text(), None, exc.issues, self.check.positions if self.check else {}
            )
            self.checked.emit(self.check)
            self.notice.emit(str(exc))
            raise
        except WriteFailed as exc:
            self.notice.emit(str(exc))
            raise
        self.check = self.valid = check
        self.checked.emit(check)
        self.saved.emit(check)

    # -- preview --------------------------------------------------------------------------------------------
    def preview(self, slot_key: str, view: View) -> None:
        """Compose the state for ``view`` of ``slot_key`` from the draft as it is now (checked first)."""
        text = self.draft.text()
        base = self.base

        def work() -> tuple[str, int] | str:
            check = self.draft.check(text=text)
            if check.placements is None:  # the producer is mid-edit: said on the preview, not an error
                errors = "；".join(i.message for i in check.errors[:3])
                return GoujiError(
                    "placements",
                    f"排期有错误，改正后才能预览：{errors}",
                    f"the placements have {count(len(check.errors), 'error')}: fix them to see the preview: "
                    + "; ".join(i.message_in("en") for i in check.errors[:3]),
                ).text()
            return self.studio.url, self.studio.show(preview_actions(check.placements, view, base))

        self.run(work, done=self.previewed.emit, failed=lambda e: self.previewed.emit(str(e)))

    def load_base(self) -> None:
        """The preview's show, table names and 英雄榜 from the season database (if it has a season)."""

        def work() -> Base:
            from broadcast.season.actions import leaderboard_payload
            from broadcast.season.model import SeasonDB, SeasonError

            if not self.places.season_exists:
                return Base()
            with SeasonDB.open(self.places.season) as sdb:
                try:
                    s = sdb.season()
                except SeasonError:
                    return Base()
                sid = int(s["id"])
                teams = sdb.teams(sid)[:2]
                names: list[str] = []
                for t in teams:
                    names += [str(p["name"]) for p in sdb.players(sid, int(t["id"]))[:3]]
                board = leaderboard_payload(sdb, sid, top=10)
            odd_even = [names[i // 2 + (3 if i % 2 else 0)] for i in range(6)] if len(names) == 6 else None
            return Base(
                teams=(str(teams[0]["name"]), str(teams[1]["name"])) if len(teams) == 2 else Base.teams,
                names=tuple(odd_even) if odd_even else Base.names,
                leaderboard=board,
            )

        def done(base: Base) -> None:
            self.base = base

        self.run(work, done=done, failed=lambda _e: None)

    # -- closing ---------------------------------------------------------------------------------------------
    def close(self) -> None:
        """Finish the queued work, stop the preview's server and remove its store (idempotent)."""
        if self.closed:
            return
        self.closed = True
        self._timer.stop()
        self.bridge.close()
        self.studio.close()


def _alive(handler: Callable[..., Any]) -> bool:
    """A result that comes back after its window was closed (a tab's widgets deleted) is dropped, not
    handed to a deleted widget."""
    import shiboken6

    owner = getattr(handler, "__self__", None)
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)


def air_dates(check: Check | None) -> Callable[[date], list[str]]:
    """For an episode's air date: the slots whose contract does not cover it (labels), from the last
    valid placements (``Contract.covers``)."""
    p = check.placements if check is not None else None

    def uncovered(day: date) -> list[str]:
        if p is None:
            return []
        return [
            f"{s.label}（{p.sponsor_name(s.sponsor)}，合同 {s.contract.start} 至 {s.contract.end}）"
            for s in p.slots
            if s.contract is not None and not s.contract.covers(day)
        ]

    return uncovered
