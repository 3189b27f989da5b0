"""An in-memory state source with the store's listener interface, for previewing pages on a given
state (``serve --demo``) and for tests of the pages. It validates every state against the schema, so a
page never receives what the real store could not hold. The studio itself always uses ShowStore."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from typing import Any

from broadcast.core.schema import StateSchema
from broadcast.core.store import Change


class MemoryStore:
    def __init__(self, state: dict[str, Any] | None = None, *, schema: StateSchema | None = None) -> None:
        if schema is None:
            from broadcast.studio import state_schema

            schema = state_schema()
        self.schema = schema
        self._lock = threading.RLock()
        self._state = copy.deepcopy(state) if state is not None else self.schema.default_state()
        schema.validate(self._state)
        self._subs: list[Callable[[Change], None]] = []

    @property
    def state(self) -> dict[str, Any]:
        return self._state

    @property
    def seq(self) -> int:
        return int(self._state["meta"]["seq"])

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(self._state)

    def subscribe(
        self, fn: Callable[[Change], None], name: str = "", *, early: bool = False
    ) -> Callable[[], None]:
        """``early`` as the store's (nothing here is journaled: every listener is told at once)."""
        with self._lock:
            self._subs.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subs:
                    self._subs.remove(fn)

        return unsubscribe

    def replace(self, state: dict[str, Any], type_: str = "memory.replace") -> Change:
        """Swap in a whole new state (validated); listeners get a Change naming the sections that differ."""
        new = copy.deepcopy(state)
        with self._lock:
            prev = self._state
            new.setdefault("meta", {})
            new["meta"]["seq"] = int(prev["meta"]["seq"]) + 1
            new["meta"]["updated"] = time.time()
            self.schema.validate(new)
            changed = frozenset(k for k in new if k != "meta" and prev.get(k) != new.get(k))
            self._state = new
            change = Change(new["meta"]["seq"], new["meta"]["updated"], type_, {}, new, prev, changed)
            subs = list(self._subs)
        for fn in subs:
            fn(change)
        return change

    def update(self, **sections: Any) -> Change:
        """Replace whole top-level sections: ``update(table={...})``."""
        new = copy.deepcopy(self._state)
        new.update(copy.deepcopy(sections))
        return self.replace(new, "memory.update")

    def edit(self, fn: Callable[[dict[str, Any]], None]) -> Change:
        """Apply ``fn`` to a copy of the state and swap it in."""
        new = copy.deepcopy(self._state)
        fn(new)
        return self.replace(new, "memory.edit")
