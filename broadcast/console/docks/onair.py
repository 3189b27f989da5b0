"""The console's on-air operations: every key and button of the docks calls :meth:`OnAir.run`, which
runs :func:`broadcast.control.run` (the same table the HTTP control API uses) on the console's store
thread. A refusal (a drawn cell, a GO that is no longer the next cue) comes back as ``refused`` with
the rule and the words in Chinese and English; nothing blocks the Qt thread."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from broadcast import control
from broadcast.console import keys
from broadcast.console.controller import Console
from broadcast.console.hotkeys import HotkeyRegistry, native
from broadcast.qt.i18n import tr


class OnAir(QObject):
    done = Signal(str, object)  # operation, the last Change
    refused = Signal(str, str, str)  # operation, Chinese, English

    def __init__(
        self, console: Console, parent: QObject | None = None, hotkeys: HotkeyRegistry | None = None
    ) -> None:
        super().__init__(parent)
        self.console = console
        self.hotkeys = hotkeys
        # asked before every GO with the GO to run (the pre-show check on the episode's first GO:
        # broadcast.console.preflight); None: GO at once
        self.before_go: Callable[[Callable[[], object]], None] | None = None

    def key(self, id_: str) -> str:
        """The key operation ``id_`` has now, as the keyboard names it (the key table's default when
        there is no window)."""
        if self.hotkeys is not None:
            return self.hotkeys.native(id_)
        k = keys.BY_ID[id_].keys
        return native(k[0]) if k else ""

    def run(self, name: str, **params: Any) -> int:
        """Run operation ``name`` (see broadcast.control.OPERATIONS) on the store thread (a GO once
        :attr:`before_go` lets it: then 0 is returned)."""
        if name == "go" and self.before_go is not None:
            self.before_go(functools.partial(self._run, name, params))
            return 0
        return self._run(name, params)

    def _run(self, name: str, params: dict[str, Any]) -> int:
        store = self.console.bridge.store
        fn = functools.partial(control.run, store, name, params, source="console")
        return self.console.call(
            fn,
            on_done=lambda change: self.done.emit(name, change),
            on_failed=lambda exc: self._refused(name, exc),
        )

    def _refused(self, name: str, exc: Any) -> None:
        zh = getattr(exc, "zh", None) or getattr(exc, "message", None) or str(exc)
        en = getattr(exc, "en", None) or getattr(exc, "message_en", None) or str(exc)
        rule = getattr(exc, "rule", "")
        if rule:
            zh = f"[{rule}] {zh}"
        self.refused.emit(name, zh, en)
        self.console.notice.emit(tr("未执行：{zh} / {en}").format(zh=zh, en=en))
