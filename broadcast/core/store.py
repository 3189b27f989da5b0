"""The application core: one show state, changed only by journaled actions, observed by listeners.

    store = ShowStore.open("studio.sqlite")        # replays the journal: crash recovery
    store.subscribe(listener)                       # overlay server, OBS bridge, as-run recorder, console
    store.dispatch("graphic.take", {"bus": "preview", "graphic": "scoreboard", "on": True})

A dispatch runs the action's reducer on a copy of the state (which may refuse it with
:class:`ActionRefused`, naming the rule), validates the result against the schema, appends the action
to the journal (durable), swaps the state in and only then tells the listeners. Reducers are plain
functions registered with :func:`action`; they must be deterministic (time and randomness come from
the payload or ``ctx.ts``) because recovery re-runs them. Listeners run on the dispatching thread and
must hand slow work to their own thread (the overlay server's event loop, the OBS bridge's worker).
"""

from __future__ import annotations

import copy
import importlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core import db, schema
from broadcast.core.journal import Journal

log = logging.getLogger(__name__)

State = dict[str, Any]
Payload = dict[str, Any]

# Modules whose import registers reducers. Each component adds its own module here.
ACTION_MODULES: tuple[str, ...] = (
    "broadcast.core.actions",
    "broadcast.sponsors.actions",
    "broadcast.table",
    "broadcast.season.actions",
)


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


@dataclass
class Context:
    """What a reducer may use besides the state and the payload."""

    ts: float
    seq: int
    replaying: bool
    runtime: dict[str, Any]  # non-serialisable helpers rebuilt by replay (e.g. the engine's Game)
    source: str = "console"


Reducer = Callable[[State, Payload, Context], None]


@dataclass(frozen=True)
class ActionSpec:
    type: str
    reducer: Reducer
    doc: str = ""


_ACTIONS: dict[str, ActionSpec] = {}


def action(type_: str) -> Callable[[Reducer], Reducer]:
    """Register a reducer for an action type: ``@action("graphic.take")``."""

    def deco(fn: Reducer) -> Reducer:
        if type_ in _ACTIONS and _ACTIONS[type_].reducer is not fn:
            raise RuntimeError(f"action {type_!r} registered twice")
        _ACTIONS[type_] = ActionSpec(type_, fn, (fn.__doc__ or "").strip())
        return fn

    return deco


def registered_actions() -> dict[str, ActionSpec]:
    load_action_modules()
    return dict(_ACTIONS)


def load_action_modules() -> None:
    for name in ACTION_MODULES:
        importlib.import_module(name)


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
    def __init__(
        self, journal: Journal, *, validate: bool = True, clock: Callable[[], float] = time.time
    ) -> None:
        load_action_modules()
        self._journal = journal
        self._validate = validate
        self._clock = clock
        self._lock = threading.RLock()
        self._subs: list[_Sub] = []
        self._state: State = schema.default_state()
        self.runtime: dict[str, Any] = {}
        self.replay_errors: list[str] = []
        self._replay()

    @classmethod
    def open(cls, path: str | Path, **kw: Any) -> ShowStore:
        return cls(Journal(db.connect(path)), **kw)

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
            spec = _ACTIONS.get(type_)
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
                schema.validate(new, changed)
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
            spec = _ACTIONS.get(entry.type)
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


def _diff(a: State, b: State) -> frozenset[str]:
    return frozenset(k for k in b if a.get(k) != b.get(k) and k != "meta")
