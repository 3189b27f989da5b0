"""``serve --db``'s follower applies only the actions appended since its state, one by one, and is never
left on an old state: a journal cut shorter is loaded anew (issue 13). A real writer store and a real
follower on the same SQLite file."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from broadcast.core import Change
from broadcast.overlay.cli import JournalFollower
from broadcast.studio import open_store


def _wait(cond, timeout: float = 10.0) -> bool:  # noqa: ANN001
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def test_the_follower_applies_each_new_action_and_never_replays_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    writer = open_store(db, checkpoint_every=100)
    for i in range(300):  # a journal before the follower starts
        writer.dispatch("show.update", {"round": f"第{i}轮"})
    follower = JournalFollower(db, 0.01)
    assert follower.seq == 300 and follower.store.replayed == 0  # from the checkpoint at #300
    seen: list[Change] = []
    lock = threading.Lock()

    def listen(ch: Change) -> None:
        with lock:
            seen.append(ch)

    follower.store.subscribe(listen)
    follower.start()
    try:
        for i in range(40):
            writer.dispatch("graphic.set", {"bus": "program", "graphic": "ticker", "on": i % 2 == 0})
            if i % 10 == 0:
                time.sleep(0.05)
        writer.dispatch("show.update", {"episode": "第15期"})
        assert _wait(lambda: follower.seq == writer.seq)
        with lock:
            got = list(seen)
        assert [ch.seq for ch in got] == list(range(301, 342))  # every new action, in order, once
        assert all(ch.replayed and ch.type != "journal.reload" for ch in got)
        assert follower.store.state == writer.state
    finally:
        follower.stop()
        writer.close()


def test_a_journal_cut_shorter_under_the_follower_is_loaded_anew(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    writer = open_store(db)
    for i in range(30):
        writer.dispatch("show.update", {"round": f"第{i}轮"})
    writer.close()
    follower = JournalFollower(db, 0.01)
    follower.start()
    try:
        c = sqlite3.connect(db)
        c.execute("DELETE FROM journal WHERE seq > 12")  # e.g. an older copy of the file put back
        c.commit()
        c.close()
        assert _wait(lambda: follower.seq == 12)
        fresh = open_store(db, use_checkpoints=False)
        assert follower.store.state["show"] == fresh.state["show"]
        assert follower.store.state["show"]["round"] == "第11轮"
        fresh.close()
    finally:
        follower.stop()
