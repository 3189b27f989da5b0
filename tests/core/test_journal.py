"""The journal's checkpoints, running hash and head file, and copy-on-write dispatch (issue 13).

A restart loads the newest checkpoint and replays only what follows it, and always comes back to the
state the whole journal describes; an edit, a removed row or a cut-off tail (the -wal file deleted or
emptied) is reported at start, and the numbers of lost actions are never given out again. Real SQLite
files, real processes killed with SIGKILL."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.core.journal import state_dir
from broadcast.studio import open_store
from engine.english import plural

ROOT = Path(__file__).resolve().parents[2]


def _fill(db: Path, n: int, every: int = 50) -> None:
    store = open_store(db, checkpoint_every=every)
    for i in range(n):
        if i % 3 == 0:
            store.dispatch("show.update", {"round": f"第{i}轮"})
        else:
            store.dispatch("graphic.set", {"bus": "preview", "graphic": "ticker", "on": i % 2 == 0})
    store.close()


def _full_replay(db: Path) -> dict:
    store = open_store(db, use_checkpoints=False)
    state = store.state
    store.close()
    return state


def test_a_restart_loads_the_newest_checkpoint_and_replays_only_the_tail(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    _fill(db, 230)
    store = open_store(db, checkpoint_every=50)
    assert (store.loaded_from, store.replayed, store.seq) == (200, 30, 230)
    assert store.state == _full_replay(db)
    assert store.replay_errors == []
    kept = sqlite3.connect(db).execute("SELECT seq FROM journal_checkpoints ORDER BY seq").fetchall()
    assert [r[0] for r in kept] == [100, 150, 200]  # the newest three are kept
    store.close()


def test_a_checkpoint_from_other_software_is_not_used_and_a_fresh_one_is_written(tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite"
    _fill(db, 120, every=50)
    c = sqlite3.connect(db)
    c.execute("UPDATE journal_checkpoints SET fingerprint='an older build'")
    c.commit()
    c.close()
    store = open_store(db, checkpoint_every=500)  # 120 replayed is short of 500: no new checkpoint
    assert (store.loaded_from, store.replayed) == (0, 120)
    assert store.state == _full_replay(db)
    store.close()
    store = open_store(db, checkpoint_every=100)  # a long replay writes a checkpoint at its end
    assert store.replayed == 120
    store.close()
    again = open_store(db, checkpoint_every=100)
    assert (again.loaded_from, again.replayed) == (120, 0)
    again.close()


def test_dispatch_copies_only_the_sections_the_action_touches(tmp_path: Path) -> None:
    store = open_store(tmp_path / "studio.sqlite")
    before = store.state
    change = store.dispatch("show.update", {"episode": "第9期"})
    after = store.state
    assert change.changed == frozenset({"show"})
    for key in after:
        if key in ("show", "meta"):
            assert after[key] is not before[key]
        else:
            assert after[key] is before[key], key  # shared, not copied
    assert before["show"]["episode"] != "第9期"  # the state before is left as it was
    # a reducer that fails half-way leaves the current state untouched
    snapshot = store.snapshot()
    try:
        store.dispatch("graphic.set", {"bus": "preview", "graphic": "no-such-graphic"})
    except Exception:
        pass
    assert store.state == snapshot
    store.close()


_WRITER = """
import sys
from broadcast.studio import open_store
store = open_store(sys.argv[1], checkpoint_every=7)
if sys.argv[2:] == ["wal-only"]:  # SQLite never copies the -wal into the main file (no auto-checkpoint)
    store.journal.connection.execute("PRAGMA wal_autocheckpoint=0")
i = store.seq
print("ready", flush=True)
while True:
    i += 1
    if i % 2:
        store.dispatch("show.update", {"round": f"第{i}轮"})
    else:
        store.dispatch("graphic.set", {"bus": "program", "graphic": "ticker", "on": i % 4 == 0})
"""


def _head_seq(db: Path) -> int:
    try:
        return int(Path(f"{db}-head").read_text().split()[0])
    except (OSError, ValueError, IndexError):  # not written yet, or being written
        return 0


def _kill_writer(db: Path, after: float, *args: str) -> None:
    """A writer process dispatching as fast as it can, killed ``after`` seconds once it has confirmed
    its first action (the head file says so: a loaded machine may take longer than ``after`` to start)."""
    before = _head_seq(db)
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db), *args], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 60
    while _head_seq(db) <= before and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    time.sleep(after)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    proc.stdout.close()


@pytest.mark.long  # writer processes killed at random moments, then replayed
def test_kills_at_random_moments_lose_nothing_and_the_checkpointed_restart_equals_a_full_replay(
    tmp_path: Path,
) -> None:
    db = tmp_path / "studio.sqlite"
    for after in (0.3, 0.55, 0.8, 0.45):
        _kill_writer(db, after)
        store = open_store(db, checkpoint_every=7)
        journal_seq = sqlite3.connect(db).execute("SELECT MAX(seq) FROM journal").fetchone()[0]
        assert store.seq == journal_seq and store.replay_errors == []
        assert 0 <= store.replayed < 7 + 1
        assert store.state == _full_replay(db)
        store.close()
    assert cli(["verify-journal", "--db", str(db)]) == 0


def test_a_deleted_or_emptied_wal_is_reported_and_the_lost_numbers_are_not_reused(tmp_path: Path) -> None:
    for how in ("delete", "empty"):
        db = tmp_path / f"{how}.sqlite"
        _fill(db, 40)  # closed cleanly: everything in the main file
        # then more actions and a SIGKILL. SQLite copies the -wal into the main file by itself once
        # it passes 1000 pages (about 390 actions here): the writer is told not to, so that every
        # action after #40 is only in the -wal whatever the machine's speed (a kill right after such
        # a copy leaves nothing to lose — the head may even lag the last commit by one: the kill fell
        # between its commit and its confirmation)
        _kill_writer(db, 0.4, "wal-only")
        wal = Path(f"{db}-wal")
        assert wal.stat().st_size > 0
        head_seq = int(Path(f"{db}-head").read_text().split()[0])  # the last confirmed action
        assert head_seq > 40
        # the head's second copy is written first: a kill between the two writes leaves it one ahead,
        # and the journal then knows it reached that action
        where = str(db.resolve())
        copies = [f.read_text() for f in state_dir().glob("*.head")]
        second = [int(c.split()[0]) for c in copies if c.split("\n")[1].strip() == where]
        assert len(second) == 1 and second[0] - head_seq in (0, 1), (second, head_seq)
        head_seq = second[0]
        # the -wal taken away (or emptied), as an operator or a disk tool might do
        Path(f"{db}-shm").unlink(missing_ok=True)
        if how == "delete":
            wal.unlink()
        else:
            wal.write_bytes(b"")
        store = open_store(db)
        assert store.seq == 40 < head_seq  # what was only in the -wal is gone …
        n = head_seq - store.seq
        said = f"{n} confirmed {plural(n, 'action is', 'actions are')} lost"
        lost = [e for e in store.replay_errors if said in e]
        assert len(lost) == 1 and str(db) in lost[0], store.replay_errors  # … and that is said
        assert f"#{store.seq + 1}–#{head_seq}" in lost[0]
        change = store.dispatch("show.update", {"round": "决赛"})
        assert change.seq == head_seq + 1  # never a number that was confirmed once before
        store.close()
        again = open_store(db)  # said once: the loss is recorded, the next start is clean
        assert again.replay_errors == [] and again.seq == head_seq + 1
        again.close()
        assert cli(["verify-journal", "--db", str(db)]) == 1  # the full check keeps naming the loss


def test_a_head_one_behind_the_journal_is_a_kill_between_commit_and_confirmation_not_a_loss(
    tmp_path: Path,
) -> None:
    """The head file is written after the action's commit and before the action is confirmed (the
    listeners told, dispatch returning): a kill between the two leaves the head one behind a journal
    that is whole. That is no loss, and the start says nothing."""
    db = tmp_path / "studio.sqlite"
    _fill(db, 40)
    c = sqlite3.connect(db)
    digest = c.execute("SELECT hash FROM journal WHERE seq=39").fetchone()[0]
    c.close()
    Path(f"{db}-head").write_text(f"{39:020d} {digest}".ljust(63) + "\n")
    store = open_store(db)
    assert store.seq == 40 and store.replay_errors == []
    store.close()
    assert cli(["verify-journal", "--db", str(db)]) == 0


def test_an_edited_or_removed_row_is_named_at_start_and_by_verify_journal(tmp_path: Path, capsys) -> None:
    db = tmp_path / "studio.sqlite"
    _fill(db, 60, every=1000)  # no checkpoint: the start-up replay checks every row
    c = sqlite3.connect(db)
    c.execute("""UPDATE journal SET payload='{"round":"改过的"}' WHERE seq=10""")
    c.execute("DELETE FROM journal WHERE seq=20")
    c.commit()
    c.close()
    store = open_store(db)
    errors = store.replay_errors
    assert any("#10" in e and "hash does not chain" in e for e in errors)
    assert any("#21" in e and "hash does not chain" in e for e in errors)  # the row after the hole
    assert any("1 action is missing from inside the journal" in e for e in errors)  # one, not "action(s)"
    store.close()
    capsys.readouterr()
    assert cli(["verify-journal", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "#10" in out and "#21" in out and "problems found" in out


def test_a_checkpoint_whose_journal_row_was_replaced_is_not_used(tmp_path: Path) -> None:
    """A checkpoint names the journal row it stands for by that row's hash: once the row has been
    replaced by another (here #100, the newest checkpoint's), a start does not trust that checkpoint; it
    starts from the one before and comes to what the journal now says."""
    db = tmp_path / "studio.sqlite"
    _fill(db, 120, every=50)
    c = sqlite3.connect(db)
    c.execute(
        "UPDATE journal SET type='show.update', payload=?, hash=? WHERE seq=100",
        ('{"title":"换过"}', "f" * 64),
    )
    c.commit()
    c.close()
    store = open_store(db, checkpoint_every=1000)
    assert store.loaded_from == 50 and store.replayed == 70
    assert store.state["show"]["title"] == "换过"
    assert store.state == _full_replay(db)
    store.close()


def test_verify_journal_finds_a_checkpoint_that_differs_from_the_full_replay(tmp_path: Path, capsys) -> None:
    db = tmp_path / "studio.sqlite"
    _fill(db, 120, every=50)
    assert cli(["verify-journal", "--db", str(db)]) == 0
    assert "journal intact" in capsys.readouterr().out
    c = sqlite3.connect(db)
    state = c.execute("SELECT state FROM journal_checkpoints WHERE seq=100").fetchone()[0]
    c.execute("UPDATE journal_checkpoints SET state=? WHERE seq=100", (state.replace("第", "弟"),))
    c.commit()
    c.close()
    assert cli(["verify-journal", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "checkpoint #100 differs from the full replay in: show" in out


def _second_head(db: Path) -> int:
    """The last action number in the head's second copy (outside the folder, named by the database's
    identity), checked against the head file beside ``db``: the second copy is written first, so a kill
    between the two writes leaves it one action ahead."""
    head_seq = int(Path(f"{db}-head").read_text().split()[0])
    seconds = [
        int(p.read_text().split()[0])
        for p in state_dir().glob("*.head")
        if str(db.resolve()) in p.read_text()
    ]
    assert len(seconds) == 1 and seconds[0] in (head_seq, head_seq + 1), (seconds, head_seq)
    return seconds[0]


def test_a_copy_of_the_sqlite_alone_names_the_actions_it_lacks(tmp_path: Path) -> None:
    """Copying only the .sqlite (no -wal, no -head) while the studio runs: the copy lacks what was only
    in the -wal. The head's second copy (outside the folder, named by the database's identity) names
    that loss at the copy's start, with the file it was copied from; the original is not disturbed."""
    db = tmp_path / "studio.sqlite"
    _fill(db, 40)
    _kill_writer(db, 0.4, "wal-only")  # actions after #40 only in the -wal
    head_seq = _second_head(db)
    elsewhere = tmp_path / "backup"
    elsewhere.mkdir()
    copy = elsewhere / "studio.sqlite"
    copy.write_bytes(db.read_bytes())  # the .sqlite alone
    store = open_store(copy)
    assert store.seq == 40
    said = [e for e in store.replay_errors if "not in this copy" in e]
    assert len(said) == 1 and str(db.resolve()) in said[0] and f"#{head_seq}" in said[0], store.replay_errors
    assert store.dispatch("show.update", {"round": "复赛"}).seq == head_seq + 1  # no number reused
    store.close()
    assert cli(["verify-journal", "--db", str(copy)]) == 1  # the loss stays on record
    original = open_store(db)  # the original has all of it, and its own head: nothing to say
    assert original.seq >= head_seq and original.replay_errors == []  # (the kill may fall after a commit)
    original.close()
    # the -wal and the head file both deleted beside the original itself: named as a cut
    _kill_writer(db, 0.3, "wal-only")
    head_seq = _second_head(db)  # the head file is deleted below: the store reads its second copy
    Path(f"{db}-shm").unlink(missing_ok=True)
    Path(f"{db}-wal").unlink()
    Path(f"{db}-head").unlink()
    store = open_store(db)
    n = head_seq - store.seq
    said = f"{n} confirmed {plural(n, 'action is', 'actions are')} lost"
    lost = [e for e in store.replay_errors if said in e]
    assert len(lost) == 1 and f"#{store.seq + 1}–#{head_seq}" in lost[0], store.replay_errors
    store.close()
