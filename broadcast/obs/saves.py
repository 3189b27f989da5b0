"""OBS saves its scene collection when asked, so that after a crash it comes back showing the show.

OBS saves its scene collection when a scene is renamed, not when we cut, move, show or set something:
renaming the empty 存档 scene and back makes it save, so that after a crash OBS comes back showing the
show as it last was (program scene, shown items, transforms, pictures) and the re-sync has next to
nothing to change — no cut waiting for OBS's UI. :class:`CollectionSaver` coalesces a burst of changes
into one save and asks at most once every ``SAVE_GAP`` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from broadcast.obs import layout as L
from broadcast.obs.client import ObsClient

__all__ = ["SAVE_AFTER", "SAVE_AFTER_CUT", "SAVE_GAP", "CollectionSaver"]

SAVE_AFTER = 1.0  # OBS is asked to save its scene collection this long after a change (coalesced) …
SAVE_AFTER_CUT = 0.3  # … and soon after a cut (a program scene OBS did not save costs a re-sync a cut) …
SAVE_GAP = 1.0  # … but at most once a second: a save is work for OBS's UI thread, which cuts wait for


class CollectionSaver:
    def __init__(
        self, after: Callable[[float, Callable[[], None]], None], client: Callable[[], ObsClient | None]
    ) -> None:
        self._after = after
        self._client = client
        self.reset()

    def reset(self) -> None:
        """A new connection: nothing asked yet."""
        self._save_at = 0.0  # when OBS is next asked to save its collection (monotonic; 0 = not asked)
        self._saved_at = 0.0  # when it was last asked

    def soon(self, delay: float) -> None:
        """Have OBS save its scene collection in ``delay`` seconds (one save for a burst of changes)."""
        now = time.monotonic()
        due = max(now + delay, self._saved_at + SAVE_GAP)
        if self._save_at and self._save_at <= due:
            return
        self._save_at = due
        self._after(due - now, self.save)

    def save(self) -> None:
        """Rename the 存档 scene and back (sent without waiting: only OBS's UI thread has work to do)."""
        if not self._save_at or time.monotonic() < self._save_at - 0.001:
            return  # an earlier save was done, or a later one is due
        self._save_at = 0.0
        self._saved_at = time.monotonic()
        client = self._client()
        if client is None or not client.connected:
            return
        client.post(
            [
                ("SetSceneName", {"sceneName": L.SCENE_SAVE, "newSceneName": L.SCENE_SAVE_ASIDE}),
                ("SetSceneName", {"sceneName": L.SCENE_SAVE_ASIDE, "newSceneName": L.SCENE_SAVE}),
            ]
        )
