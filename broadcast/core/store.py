"""The application core: one show state, changed only by journaled actions, observed by listeners.

    store = ShowStore.open("studio.sqlite", components=[...])   # replays the journal: crash recovery
    store = broadcast.studio.open_store("studio.sqlite")        # the studio's components composed
    store.subscribe(listener)                       # overlay server, OBS bridge, as-run recorder, console
    store.dispatch("graphic.set", {"bus": "preview", "graphic": "scoreboard", "on": True})
    store.close()

The core knows no component: each one (``broadcast.core.component.Component``) ships its schema
fragment and registers its reducers; the store composes the state's schema from them and dispatches
only the actions they registered. A dispatch runs the action's reducer on a copy of the state (which
may refuse it with :class:`ActionRefused`, naming the rule), validates the result against the schema,
appends the action to the journal (durable), swaps the state in and only then tells the listeners.
Reducers must be deterministic (time and randomness come from the payload or ``ctx.ts``) because
recovery re-runs them. Listeners run on the dispatching thread and must hand slow work to their own
thread (the overlay server's event loop, the OBS bridge's worker).
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core import db
from broadcast.core.component import ActionSpec, Component, Context, Payload, Reducer, State
from broadcast.core.journal import Journal
from broadcast.core.schema import SchemaConflict, StateSchema, compose

__all__ = [
    "ActionRefused",
    "ActionSpec",
    "Change",
    "Component",
    "Context",
    "Listener",
    "Payload",
    "Reducer",
    "ShowStore",
    "State",
    "UnknownAction",
]

log = logging.getLogger(__name__)


class ActionRefused(Exception):
    """An action the current state does not allow. ``rule`` is a clause id (G4.2) or a short code."""

    def __init__(self, message: str, *, rule: str = "", message_en: str = "") -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.message_en = message_en

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}" if self.rule else self.message


class UnknownAction(ActionRefused):
    pass


@dataclass(frozen=True)
class Change:
    """What listeners receive after every applied action."""

    seq: int
    ts: float
    type: str
    payload: Payload
    state: State  # the new state (treat as read-only)
    previous: State  # the state before
    changed: frozenset[str]  # top-level keys whose value differs
    source: str = "console"
    replayed: bool = False


Listener = Callable[[Change], None]


@dataclass
class _Sub:
    fn: Listener
    name: str
    errors: int = field(default=0)


class ShowStore:
    """The show state of one project database, composed from ``components`` (see the module doc)."""

    def __init__(
        self,
        journal: Journal,
        *,
        components: Iterable[Component],
        validate: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.components: tuple[Component, ...] = tuple(components)
        self._schema = compose(self.components)
        self._actions = _compose_actions(self.components)
        self._journal = journal
        self._validate = validate
        self._clock = clock
        self._lock = threading.RLock()
        self._subs: list[_Sub] = []
        self._state: State = self._schema.default_state()
        self.runtime: dict[str, Any] = {}
        self.replay_errors: list[str] = []
        self._closed = False
        self._replay()

    @classmethod
    def open(cls, path: str | Path, *, components: Iterable[Component], **kw: Any) -> ShowStore:
        """Open (creating) the project database at ``path`` and replay its journal."""
        return cls(Journal(db.connect(path)), components=components, **kw)

    def close(self) -> None:
        """Close the database connection (idempotent). Listeners are dropped; the state stays readable."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._subs.clear()
        self._journal.connection.close()

    def __enter__(self) -> ShowStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema(self) -> StateSchema:
        """The composed schema of this store's state."""
        return self._schema

    @property
    def actions(self) -> Mapping[str, ActionSpec]:
        """Every action type this store accepts, with its reducer and owning component."""
        return dict(self._actions)

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state. Do not mutate it; use :meth:`snapshot` for a private copy."""
        return self._state

    def snapshot(self) -> State:
        with self._lock:
            return copy.deepcopy(self._state)

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def seq(self) -> int:
        return int(self._state["meta"]["seq"])

    # -- listeners -----------------------------------------------------------------------------
    def subscribe(self, fn: Listener, name: str = "") -> Callable[[], None]:
        sub = _Sub(fn, name or getattr(fn, "__qualname__", repr(fn)))
        with self._lock:
            self._subs.append(sub)

        def unsubscribe() -> None:
            with self._lock:
                if sub in self._subs:
                    self._subs.remove(sub)

        return unsubscribe

    # -- changing ------------------------------------------------------------------------------
    def dispatch(self, type_: str, payload: Payload | None = None, *, source: str = "console") -> Change:
        """Apply one action; raises :class:`ActionRefused` (nothing journaled) if it is not allowed."""
        payload = dict(payload or {})
        with self._lock:
            spec = self._actions.get(type_)
            if spec is None:
                raise UnknownAction(
                    f"未知操作 {type_!r}", rule="action", message_en=f"unknown action {type_!r}"
                )
            ts = self._clock()
            seq = self._journal.last_seq() + 1
            new = copy.deepcopy(self._state)
            ctx = Context(ts=ts, seq=seq, replaying=False, runtime=self.runtime, source=source)
            spec.reducer(new, payload, ctx)
            new["meta"]["seq"] = seq
            new["meta"]["updated"] = ts
            changed = _diff(self._state, new)
            if self._validate:  # the untouched sections were valid already
                self._schema.validate(new, changed)
            real_seq = self._journal.append(type_, payload, ts, source)
            if real_seq != seq:  # another writer on the same file: keep the journal's numbering
                new["meta"]["seq"] = real_seq
            previous, self._state = self._state, new
            change = Change(real_seq, ts, type_, payload, new, previous, changed, source)
            subs = list(self._subs)
        self._notify(subs, change)
        return change

    def _notify(self, subs: list[_Sub], change: Change) -> None:
        for sub in subs:
            try:
                sub.fn(change)
            except Exception:  # a listener's failure must never break the show
                sub.errors += 1
                log.exception("listener %s failed on action #%d %s", sub.name, change.seq, change.type)

    def _replay(self) -> None:
        for entry in self._journal.entries():
            spec = self._actions.get(entry.type)
            if spec is None:
                self.replay_errors.append(f"journal #{entry.seq}: unknown action {entry.type!r} skipped")
                continue
            new = copy.deepcopy(self._state)
            ctx = Context(
                ts=entry.ts, seq=entry.seq, replaying=True, runtime=self.runtime, source=entry.source
            )
            try:
                spec.reducer(new, entry.payload, ctx)
            except ActionRefused as exc:
                self.replay_errors.append(f"journal #{entry.seq} {entry.type}: {exc}")
                continue
            new["meta"]["seq"] = entry.seq
            new["meta"]["updated"] = entry.ts
            self._state = new
        for msg in self.replay_errors:
            log.error("%s", msg)


def _compose_actions(components: Iterable[Component]) -> dict[str, ActionSpec]:
    out: dict[str, ActionSpec] = {}
    for comp in components:
        for type_, spec in comp.actions.items():
            if type_ in out:
                raise SchemaConflict(
                    f"action {type_!r} registered by both {out[type_].component} and {comp.name}"
                )
            out[type_] = spec
    return out


def _diff(a: State, b: State) -> frozenset[str]:
    return frozenset(k for k in b if a.get(k) != b.get(k) and k != "meta")
