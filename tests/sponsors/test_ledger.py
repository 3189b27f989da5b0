"""The head ledger and the studio's key (broadcast/core/ledger.py, signing.py): append-only, fsync'd,
signed lines beside the database; a line taken out, edited or signed by another key is named."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from broadcast.core.ledger import HeadLedger, ledger_path, read_ledger
from broadcast.core.signing import PublicKey, SigningError, StudioKey


def test_the_key_is_made_once_private_0600_and_its_public_half_exported(tmp_path: Path) -> None:
    key = StudioKey.load_or_create(tmp_path / "k")
    priv = tmp_path / "k" / "studio-ed25519.key"
    assert stat.S_IMODE(priv.stat().st_mode) == 0o600
    again = StudioKey.load_or_create(tmp_path / "k")
    assert again.public == key.public  # the same key at the next start
    pub = PublicKey.load(tmp_path / "k" / "studio-ed25519.pub")
    assert pub == key.public and key.public.fingerprint.startswith("SHA256:") and len(key.public.raw) == 32
    sig = key.sign(b"head")
    assert pub.verify(sig, b"head") and not pub.verify(sig, b"head2")
    other = StudioKey.load_or_create(tmp_path / "other")
    assert not other.public.verify(sig, b"head")
    priv.write_text("not a key")
    with pytest.raises(SigningError) as err:
        StudioKey.load(priv)
    assert "studio-ed25519.key" in str(err.value) and "damaged" in err.value.en


def test_lines_are_chained_signed_and_any_kind_can_be_appended(tmp_path: Path) -> None:
    key = StudioKey.load_or_create(tmp_path / "k")
    db = tmp_path / "studio.sqlite"
    led = HeadLedger.beside(db, key)
    assert led.path == ledger_path(db) == tmp_path / "studio.sqlite.heads"
    led.append("asrun", {"head_id": 3, "head": "a" * 64})
    led.append("journal", {"seq": 812, "head": "b" * 64})  # another chain's head: its own kind
    led.append("asrun", {"head_id": 5, "head": "c" * 64})
    r = read_ledger(led.path, key.public)
    assert r.ok and [x.n for x in r.records] == [1, 2, 3]
    assert [x.body["head_id"] for x in r.of_kind("asrun")] == [3, 5]
    assert r.of_kind("journal")[0].body == {"seq": 812, "head": "b" * 64}
    assert not read_ledger(tmp_path / "none.heads", key.public).exists

    lines = led.path.read_bytes().splitlines(keepends=True)
    # a line taken out of the middle
    cut = tmp_path / "cut.heads"
    cut.write_bytes(lines[0] + lines[2])
    bad = read_ledger(cut, key.public)
    assert not bad.ok and bad.problems[0][0] == 2 and "deleted" in bad.problems[0][2]
    # an edited body (its signature no longer verifies)
    obj = json.loads(lines[2])
    obj["body"]["head_id"] = 4
    edited = tmp_path / "edited.heads"
    edited.write_bytes(lines[0] + lines[1] + json.dumps(obj).encode() + b"\n")
    bad = read_ledger(edited, key.public)
    assert not bad.ok and bad.problems[0][0] == 3 and "signature" in bad.problems[0][2]
    # a ledger written with another key
    other = StudioKey.load_or_create(tmp_path / "other")
    assert not read_ledger(led.path, other.public).ok


def test_append_is_fsynced_and_never_interleaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    key = StudioKey.load_or_create(tmp_path / "k")
    led = HeadLedger(tmp_path / "x.heads", key)
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    led.append("asrun", {"head_id": 1})
    assert synced  # the line is on the disk when append returns
    other = HeadLedger(tmp_path / "x.heads", key)  # a second writer (another ledger object)
    ts = [
        threading.Thread(target=lambda w=w: [w.append("asrun", {"i": i}) for i in range(20)])
        for w in (led, other)
    ]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r = read_ledger(led.path, key.public)
    assert r.ok and len(r.records) == 41


def test_a_last_line_cut_short_by_a_crash_is_mended_by_the_next_append(tmp_path: Path) -> None:
    """A crash mid-write leaves a last line without its newline: reading names it and says what comes
    next; the next append keeps the fragment aside (.torn-…) and goes on from the line before — a line
    that lost only its newline gets it back. The ledger then verifies whole."""
    key = StudioKey.load_or_create(tmp_path / "k")
    led = HeadLedger.beside(tmp_path / "studio.sqlite", key)
    for i in range(3):
        led.append("asrun", {"head_id": i, "head": "a" * 64})
    whole = led.path.read_bytes()
    third = whole.splitlines(keepends=True)[2]
    led.path.write_bytes(whole[: len(whole) - len(third) // 2])  # the third line's write cut in half
    torn = read_ledger(led.path, key.public)
    assert not torn.ok and torn.problems[0][0] == 3 and "next append sets it aside" in torn.problems[0][2]
    led.append("asrun", {"head_id": 3, "head": "b" * 64})
    r = read_ledger(led.path, key.public)
    assert r.ok and [x.n for x in r.records] == [1, 2, 3] and r.records[2].body["head_id"] == 3
    (kept,) = tmp_path.glob("studio.sqlite.heads.torn-*")
    assert kept.read_bytes() == third[: len(third) - len(third) // 2]  # the fragment, kept as it was
    assert len(led.mended) == 1 and kept.name in led.mended[0]
    # only the newline lost: the line is whole and stays
    led.path.write_bytes(led.path.read_bytes()[:-1])
    led.append("asrun", {"head_id": 4, "head": "c" * 64})
    r = read_ledger(led.path, key.public)
    assert r.ok and [x.body["head_id"] for x in r.records] == [0, 1, 3, 4]
    assert "newline" in led.mended[1] and len(list(tmp_path.glob("*.torn-*"))) == 1
