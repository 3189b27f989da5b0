"""The commentators' server stops cleanly: its pusher (the task that sends each change's view to the
pages) is ended with the server's loop, never left pending for the closed loop to destroy — Python's
"Task was destroyed but it is pending!" at the end of every ``run`` and console."""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import pytest

from broadcast.commentators.server import CommentatorsServer
from broadcast.studio import open_store


def test_stopping_the_commentators_server_leaves_no_task_pending(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = open_store(tmp_path / "studio.sqlite")
    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            desk = CommentatorsServer(store, port=0)
            desk.start()
            assert desk._push_task is not None and not desk._push_task.done()
            task = desk._push_task
            desk.stop()
            assert task.cancelled() and desk._push_task is None
            del desk, task
            gc.collect()
        assert not [r for r in caplog.records if "destroyed" in r.getMessage()]
    finally:
        store.close()
