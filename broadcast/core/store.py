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
appends the action to the journal (durable), swaps the state in and only then tells the listeners:
first the pages' (``subscribe(early=True)``: committed, a kill -9 keeps it), then, once the journal is
synced to the disk (a power cut keeps it too), the others — the console among them, so what it shows
as confirmed survives both.
Reducers must be deterministic (time and randomness come from the payload or ``ctx.ts``) because
recovery re-runs them. Listeners run on the dispatching thread and must hand slow work to their own
thread (the overlay server's event loop, the OBS bridge's worker). Listeners hear the changes in the
order they were made, even when several threads dispatch at once (the console's store thread, the OBS
bridge's, the cue runner's): a dispatch tells its listeners only once those of the change before it
have been told (:meth:`ShowStore._notify_in_turn`), so a listener keeping "the latest state" (the
console, the OBS bridge, the overlay server) never ends on an older one.

The copy a reducer works on is copy-on-write (:class:`_Draft`): a top-level section is copied the first
time the reducer touches it, the others are shared with the state before, so an action costs what
its sections cost, not what the whole state costs. Every ``checkpoint_every`` actions (100; or
``checkpoint_seconds``) the state is stored with the journal position it belongs to (in a transaction
of its own once that action's listeners were told: serialising the whole state is kept off the
decision's way to air); opening a store loads the newest checkpoint written by the same software
(:func:`fingerprint`) and replays only the actions after it. ``python -m broadcast verify-journal``
replays the whole journal from the start and compares.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import json
import logging
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core.component import ActionSpec, Component, Context, Payload, Reducer, State
from broadcast.core.journal import Checkpoint, Journal
from broadcast.core.schema import SchemaConflict, StateSchema, TextTooLong, compose
from broadcast.core.text import payload_refusal
from broadcast.errors import GoujiError

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

TURN_WAIT = 30.0  # seconds a dispatch waits for the listeners of the change before its own to be told


class ActionRefused(GoujiError):
    """An action the current state does not allow: ``ActionRefused(rule, zh, en)``, ``rule`` a clause
    id (G4.2) or a short code. Nothing is journaled. ``str()`` is ``[rule] 中文`` (what the operator sees)."""

    @property
    def message(self) -> str:
        return self.zh

    def text(self) -> str:
        return f"[{self.rule}] {self.zh}" if self.rule else self.zh


class UnknownAction(ActionRefused):
    rule = "action"


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


def _clone(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), several times faster than ``copy.deepcopy``:
    pickle's C code does the walk."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


class _Draft(dict[str, Any]):
    """The state a reducer changes: a shallow copy whose top-level sections are deep-copied the first
    time they are reached (read or written), so the sections the reducer never touches stay shared
    with the state before (which nobody mutates)."""

    __slots__ = ("touched",)

    def __init__(self, base: State) -> None:
        super().__init__(base)
        self.touched: set[str] = set()

    def _own(self, key: str) -> None:
        if key not in self.touched and dict.__contains__(self, key):
            dict.__setitem__(self, key, _clone(dict.__getitem__(self, key)))
        self.touched.add(key)

    def __getitem__(self, key: str) -> Any:
        self._own(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            self._own(key)
        return dict.get(self, key, default)

    def __setitem__(self, key: str, value: Any) -> None:
        self.touched.add(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.touched.add(key)
        dict.__delitem__(self, key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._own(key)
        return dict.setdefault(self, key, default)

    def pop(self, key: str, *default: Any) -> Any:
        self.touched.add(key)
        return dict.pop(self, key, *default)

    def update(self, *args: Any, **kw: Any) -> None:
        other = dict(*args, **kw)
        self.touched.update(other)
        dict.update(self, other)

    def values(self) -> Any:
        for key in list(dict.keys(self)):
            self._own(key)
        return dict.values(self)

    def items(self) -> Any:
        for key in list(dict.keys(self)):
            self._own(key)
        return dict.items(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: copy.deepcopy(v, memo) for k, v in dict.items(self)}


def peek(state: State, key: str) -> Any:
    """Section ``key`` of a reducer's ``state`` read without the copy its draft takes when a section is
    first reached: for a reducer that only reads that section (it must change nothing it peeks; the
    section stays the very object of the state before, which nobody mutates). A plain dict is read
    as it is."""
    return dict.__getitem__(state, key)


def _apply(
    reducer: Reducer, state: State, payload: Payload, ctx: Context, *, diff: bool = True
) -> tuple[State, frozenset[str]]:
    """Run ``reducer`` on a copy-on-write draft of ``state``: the new state (sharing every section the
    reducer did not touch) and the top-level sections whose value changed (``diff=False``: the ones
    it touched, without comparing them)."""
    draft = _Draft(state)
    reducer(draft, payload, ctx)
    new = dict(dict.items(draft))
    keys = (draft.touched | (set(new) ^ set(state))) - {"meta"}
    if diff:
        keys = {k for k in keys if k not in new or k not in state or new[k] != state[k]}
    changed = frozenset(keys)
    meta = dict(new.get("meta") or {})
    meta["seq"], meta["updated"] = ctx.seq, ctx.ts
    new["meta"] = meta
    return new, changed


_FINGERPRINTS: dict[tuple[str, ...], str] = {}


def fingerprint(schema: StateSchema, actions: Mapping[str, ActionSpec]) -> str:
    """What a checkpoint was made by: the composed schema, the action types and the source of every
    module holding a reducer. A checkpoint of other software is not used: after an upgrade the first
    start replays the whole journal once and writes a new one. (A change deeper down, e.g. in the
    rules engine, keeps the checkpoint: it holds the state as it was on air; ``verify-journal``
    shows whether a replay with today's code comes to the same.)"""
    mods = sorted({spec.reducer.__module__ for spec in actions.values()})
    key = (json.dumps(schema.schema, sort_keys=True), *sorted(actions), *mods)
    got = _FINGERPRINTS.get(key)
    if got is not None:
        return got
    h = hashlib.blake2b(digest_size=16)
    for part in key:
        h.update(part.encode("utf-8") + b"\x00")
    files: set[str] = set()
    for spec in actions.values():
        try:
            files.add(inspect.getfile(spec.reducer))
        except (TypeError, OSError):
            continue
    for name in sorted(files):
        try:
            h.update(Path(name).read_bytes())
        except OSError:
            h.update(name.encode())
    _FINGERPRINTS[key] = h.hexdigest()
    return _FINGERPRINTS[key]


@dataclass
class _Sub:
    fn: Listener
    name: str
    errors: int = field(default=0)
    early: bool = field(default=False)


class ShowStore:
    """The show state of one project database, composed from ``components`` (see the module doc)."""

    def __init__(
        self,
        journal: Journal,
        *,
        components: Iterable[Component],
        validate: bool = True,
        clock: Callable[[], float] = time.time,
        checkpoint_every: int = 100,
        checkpoint_seconds: float = 60.0,
        use_checkpoints: bool = True,
    ) -> None:
        self.components: tuple[Component, ...] = tuple(components)
        self._schema = compose(self.components)
        self._actions = _compose_actions(self.components)
        self._journal = journal
        self._validate = validate
        self._clock = clock
        self._lock = threading.RLock()
        self._subs: list[_Sub] = []
        # the listeners hear the changes in order: each dispatch's change is numbered under the lock,
        # and told once the one before it has been (_notify_in_turn)
        self._turns = threading.Condition(threading.Lock())
        self._issued = 0  # changes numbered
        self._told = 0  # changes whose listeners have all been told, in order
        self.sync_errors = 0  # actions committed whose sync to the disk failed (each one logged)
        self._telling = threading.local()  # this thread is telling listeners (a listener dispatching)
        self._state: State = self._schema.default_state()
        self.runtime: dict[str, Any] = {}
        self.replay_errors: list[str] = []
        self._closed = False
        self.checkpoint_every = max(1, int(checkpoint_every))
        self.checkpoint_seconds = float(checkpoint_seconds)
        self._fingerprint = fingerprint(self._schema, self._actions)
        self._last_checkpoint = (0, time.monotonic())  # (seq, when) of the newest checkpoint
        self.loaded_from: int = 0  # the checkpoint position the last load started from (0 = none)
        self.replayed: int = 0  # actions replayed by the last load
        self._load(use_checkpoints)

    @classmethod
    def open(
        cls, path: str | Path, *, components: Iterable[Component], readonly: bool = False, **kw: Any
    ) -> ShowStore:
        """Open (creating) the project database at ``path`` and bring the state back: the newest
        checkpoint, then the actions after it. ``readonly`` for a follower (no write at all)."""
        return cls(Journal.open(path, readonly=readonly), components=components, **kw)

    @property
    def fingerprint(self) -> str:
        return self._fingerprint

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
    def subscribe(self, fn: Listener, name: str = "", *, early: bool = False) -> Callable[[], None]:
        """Call ``fn(change)`` after every action. ``early``: for what only displays the state (the
        overlay server's pages) — told as soon as the action is committed to the journal (a process
        killed from then on keeps it), before the journal's sync to the disk, which every other
        listener and the dispatcher wait for (then it survives a power cut too: what the console calls
        confirmed). An early listener runs under the store's lock, in the order of the actions: it must
        only hand the change on (never dispatch, never wait)."""
        sub = _Sub(fn, name or getattr(fn, "__qualname__", repr(fn)), early=early)
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
        said = payload_refusal(payload)  # the one text policy (broadcast.core.text): invisible, blank names
        if said is not None:  # U+202E airs 王建军 as 军建王; a zero-width space hides a look-alike
            raise ActionRefused("text", *said)
        with self._lock:
            spec = self._actions.get(type_)
            if spec is None:
                raise UnknownAction("action", f"未知操作 {type_!r}", f"unknown action {type_!r}")
            ts = self._clock()
            seq = self._journal.last_seq() + 1
            ctx = Context(ts=ts, seq=seq, replaying=False, runtime=self.runtime, source=source)
            new, changed = _apply(spec.reducer, self._state, payload, ctx)
            if self._validate:  # the untouched sections were valid already
                try:
                    self._schema.validate(new, changed)
                except TextTooLong as exc:  # longer than its box on air holds: refused, the field named
                    raise ActionRefused(exc.rule, exc.zh, exc.en) from None
            last_checkpoint = self._last_checkpoint
            due = self._checkpoint_due(seq)
            try:
                real_seq = self._journal.append(type_, payload, ts, source, sync=False)
            except BaseException:
                self._last_checkpoint = last_checkpoint  # not written: due again with the next action
                raise
            if real_seq != seq:  # another writer on the same file: keep the journal's numbering
                new["meta"] = dict(new["meta"], seq=real_seq)
                if due:  # the state was computed without the other writer's actions: no checkpoint of it
                    due, self._last_checkpoint = False, last_checkpoint
            previous, self._state = self._state, new
            change = Change(real_seq, ts, type_, payload, new, previous, changed, source)
            subs = [s for s in self._subs if not s.early]
            # the pages first: committed (a kill -9 keeps it), while the disk syncs it
            self._notify([s for s in self._subs if s.early], change)
            commit = self._journal.committed
            self._issued += 1
            turn = self._issued
        # outside the lock: the next action (a typed decision behind an estimate) need not wait for
        # this one's fsync to be committed and shown; it waits only for its own
        self._sync(change, commit)
        self._notify_in_turn(turn, subs, change)
        if due:  # after the listeners: the whole state's text costs the decision's path nothing
            self._write_checkpoint(new, real_seq, last_checkpoint)
        return change

    def _sync(self, change: Change, commit: int) -> None:
        try:
            self._journal.sync(commit)
        except OSError as exc:  # committed, only not known to be on the disk: said, never a traceback
            self.sync_errors += 1
            log.error(
                "action #%d %s: the journal %s could not be synced to the disk (%s): a power cut now "
                "could lose it",
                change.seq,
                change.type,
                self._journal.path,
                exc,
            )

    def _notify_in_turn(self, turn: int, subs: list[_Sub], change: Change) -> None:
        """Tell the listeners of the ``turn``-th change once those of the change before it are told.
        Without the wait, a thread that made a change and was then held up by the scheduler told its
        listeners after a later change's: a console or bridge keeping ``change.state`` as the latest
        then kept an older state until the next change (issue 20: the console's cue list showed the
        credits as next after they were GO'd). A listener that dispatches is told at once (it cannot
        wait for its own turn to end); a listener that never returns holds the others for at most
        :data:`TURN_WAIT` seconds (said in the log)."""
        depth = getattr(self._telling, "depth", 0)
        if depth == 0:
            with self._turns:
                if not self._turns.wait_for(lambda: self._told >= turn - 1, TURN_WAIT):
                    log.error(
                        "listeners of action #%d %s told out of turn: the change before it still being told"
                        " after %.0f s",
                        change.seq,
                        change.type,
                        TURN_WAIT,
                    )
        self._telling.depth = depth + 1
        try:
            self._notify(subs, change)
        finally:
            self._telling.depth = depth
            with self._turns:
                self._told = max(self._told, turn)
                self._turns.notify_all()

    def _notify(self, subs: list[_Sub], change: Change) -> None:
        for sub in subs:
            try:
                sub.fn(change)
            except Exception:  # a listener's failure must never break the show
                sub.errors += 1
                log.exception("listener %s failed on action #%d %s", sub.name, change.seq, change.type)

    # -- checkpoints and recovery ------------------------------------------------------------------
    def _checkpoint_due(self, seq: int) -> bool:
        """Whether a checkpoint is due with action ``seq`` (every N actions or T s); marked as written
        (so that one dispatch writes it), put back by :meth:`_write_checkpoint` if the disk refuses."""
        last_seq, last_when = self._last_checkpoint
        due = seq - last_seq >= self.checkpoint_every or (
            seq > last_seq and time.monotonic() - last_when >= self.checkpoint_seconds
        )
        if not due or self._journal.readonly:
            return False
        self._last_checkpoint = (seq, time.monotonic())
        return True

    def _write_checkpoint(self, state: State, seq: int, before: tuple[int, float]) -> None:
        """Store ``state``, the state at journal position ``seq``, as a checkpoint (its own transaction,
        after the action's listeners were told); refused by the disk: due again with the next action."""
        with self._lock:
            ok = self._journal.write_checkpoint(
                seq, float(state["meta"]["updated"]), self._fingerprint, _state_text(state, seq)
            )
            if not ok and self._last_checkpoint[0] == seq:
                self._last_checkpoint = before

    def checkpoint(self) -> bool:
        """Store the current state as a checkpoint now (e.g. after a long replay); False if refused."""
        with self._lock:
            seq = self.seq
            if seq == 0 or self._journal.last_seq() != seq:
                return False
            ok = self._journal.write_checkpoint(
                seq, float(self._state["meta"]["updated"]), self._fingerprint, _state_text(self._state, seq)
            )
            if ok:
                self._last_checkpoint = (seq, time.monotonic())
            return ok

    def _load(self, use_checkpoints: bool) -> None:
        cp: Checkpoint | None = None
        if use_checkpoints:
            cp = self._journal.latest_checkpoint(self._fingerprint)
            if cp is not None and set(cp.state) != set(self._state):
                cp = None  # sections added or removed since: not this state
        self.replay_errors.extend(self._journal.check(since=cp.seq if cp is not None else 0))
        if cp is not None:
            self._state = cp.state
            self.loaded_from = cp.seq
            self._last_checkpoint = (cp.seq, time.monotonic())
        start = cp.seq if cp is not None else 0
        prev = cp.hash if cp is not None else self._journal.hash_at(0)
        self.replayed = self._replay(self._journal.entries(start, prev_hash=prev))
        self.replay_errors.extend(self._journal.damaged)
        self._journal.damaged.clear()
        for msg in self.replay_errors:
            log.error("%s", msg)
        if use_checkpoints and self.replayed >= self.checkpoint_every and not self._journal.readonly:
            self.checkpoint()  # a long replay (first start after an upgrade): the next start is quick

    def _replay(self, entries: Iterable[Any], *, notify: bool = False) -> int:
        """Apply journal entries to the state (no journaling); returns how many were applied."""
        n = 0
        for entry in entries:
            spec = self._actions.get(entry.type)
            if spec is None:
                self.replay_errors.append(f"journal #{entry.seq}: unknown action {entry.type!r} skipped")
                continue
            ctx = Context(
                ts=entry.ts, seq=entry.seq, replaying=True, runtime=self.runtime, source=entry.source
            )
            try:
                new, changed = _apply(spec.reducer, self._state, entry.payload, ctx, diff=notify)
            except ActionRefused as exc:
                self.replay_errors.append(f"journal #{entry.seq} {entry.type}: {exc}")
                continue
            previous, self._state = self._state, new
            n += 1
            if notify:
                change = Change(
                    entry.seq, entry.ts, entry.type, entry.payload, new, previous, changed, entry.source, True
                )
                self._notify(list(self._subs), change)
        return n

    def rebuild(self, each: Callable[[int, State], None] | None = None) -> int:
        """Replay the whole journal from its first action into a fresh state, checking every row's hash
        (nothing is written; checkpoints are not used): the slow, complete check of what a restart
        loads. ``each(seq, state)`` is called after every applied action. Returns how many applied;
        :attr:`replay_errors` then holds what this replay found."""
        from broadcast.core.journal import GENESIS

        with self._lock:
            self._state = self._schema.default_state()
            self.runtime.clear()
            self.replay_errors = list(self._journal.check())
            n = 0
            for entry in self._journal.entries(0, prev_hash=GENESIS):
                n += self._replay([entry])
                if each is not None:
                    each(entry.seq, self._state)
            self.replay_errors.extend(self._journal.damaged)
            self._journal.damaged.clear()
            return n

    def catch_up(self) -> int:
        """Apply the actions another process appended to the journal since this state (a follower:
        ``serve --db``); listeners hear each one (``replayed=True``). Returns how many were applied.
        If the journal no longer reaches this state (cut, or replaced), the state is loaded anew."""
        with self._lock:
            seq = self.seq
            last = self._journal.last_seq()
            if last == seq:
                return 0
            if last < seq or (seq and self._journal.hash_at(seq) is None):
                previous = self._state
                self._state = self._schema.default_state()
                self.runtime.clear()
                self._load(True)
                changed = frozenset(
                    k for k in self._state if k != "meta" and previous.get(k) != self._state[k]
                )
                change = Change(self.seq, time.time(), "journal.reload", {}, self._state, previous, changed)
                self._notify(list(self._subs), change)
                return self.replayed
            return self._replay(self._journal.entries(seq), notify=True)


def _compose_actions(components: Iterable[Component]) -> dict[str, ActionSpec]:
    out: dict[str, ActionSpec] = {}
    for comp in components:
        for type_, spec in comp.actions.items():
            if type_ in out:
                raise SchemaConflict(
                    "component",
                    f"操作 {type_!r} 被 {out[type_].component} 和 {comp.name} 重复注册",
                    f"action {type_!r} registered by both {out[type_].component} and {comp.name}",
                )
            out[type_] = spec
    return out


def _state_text(state: State, seq: int) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))
