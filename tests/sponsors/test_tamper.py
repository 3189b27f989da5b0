"""Proof of air that holds in a dispute (issue 22): every kind of edit to a copy of the as-run log —
made by someone with write access to the database, recomputing hashes where it helps them — is caught
by ``report --verify`` against the signed head ledger, naming the first row and the kind of change;
the untouched log passes; a third party checks the receipt with only the public key.

The log is the scripted episode of ``test_asrun_report.py`` (outages, a proof picture, 口播, prizes),
recorded anchored as the studio records it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.core.ledger import ledger_path
from broadcast.core.signing import StudioKey
from broadcast.sponsors.anchor import receipt_path
from broadcast.sponsors.chain import GENESIS, row_hash
from broadcast.sponsors.verify import verify_log
from tests.sponsors.test_asrun_report import EP, _jpeg, play

INSERT = (
    "INSERT INTO asrun_events(id, ts, kind, subject, source, episode, detail, prev_hash, hash) "
    "VALUES(?,?,?,?,?,?,?,?,?)"
)
Rows = list[list[object]]  # [ts, kind, subject, source, episode, detail] in id order


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from datetime import date

    from broadcast.sponsors.placements import load_placements
    from tests.sponsors.conftest import DEMO_YAML

    db = tmp_path_factory.mktemp("tamper") / "studio.sqlite"
    play(db, load_placements(DEMO_YAML, air_date=date(2012, 5, 7)))
    return db


def _copy(db: Path, to: Path) -> Path:
    to.mkdir()
    out = to / db.name
    shutil.copy(db, out)
    shutil.copy(ledger_path(db), ledger_path(out))  # the ledger travels with it: only the database is edited
    shutil.copytree(receipt_path(db, EP).parent, receipt_path(out, EP).parent)  # and the receipts
    return out


def _rows(conn: sqlite3.Connection) -> Rows:
    return [
        list(r)
        for r in conn.execute(
            "SELECT ts, kind, subject, source, episode, detail FROM asrun_events ORDER BY id"
        )
    ]


def _rewrite(conn: sqlite3.Connection, rows: Rows, pictures: dict[int, bytes] | None = None) -> None:
    """Write ``rows`` back as a fresh, self-consistent chain (ids 1…n, every hash recomputed): what a
    forger who knows the hashing does. ``pictures``: proof JPEGs by their new row id."""
    old = {int(r[0]): bytes(r[1]) for r in conn.execute("SELECT event_id, jpeg FROM asrun_proofs")}
    by_digest = {}
    for (rid,) in conn.execute("SELECT id FROM asrun_events WHERE kind='proof'"):
        d = json.loads(conn.execute("SELECT detail FROM asrun_events WHERE id=?", (rid,)).fetchone()[0])
        by_digest[d["sha256"]] = old[rid]
    conn.execute("DELETE FROM asrun_proofs")
    conn.execute("DELETE FROM asrun_events")
    prev = GENESIS
    for i, (ts, kind, subject, source, episode, detail) in enumerate(rows, 1):
        h = row_hash(prev, i, float(ts), str(kind), str(subject), str(source), str(episode), str(detail))  # type: ignore[arg-type]
        conn.execute(
            INSERT,
            (i, ts, kind, subject, source, episode, detail, prev, h),
        )
        if kind == "proof":
            sha = json.loads(str(detail))["sha256"]
            jpeg = (pictures or {}).get(i) or by_digest.get(sha, b"")
            conn.execute(
                "INSERT INTO asrun_proofs(event_id, jpeg, width, height) VALUES(?,?,640,360)", (i, jpeg)
            )
        prev = h
    conn.commit()


def _first(rows: Rows, kind: str, pred: Callable[[list[object]], bool] = lambda r: True) -> int:
    return next(i for i, r in enumerate(rows) if r[1] == kind and pred(r))


def _truncate(conn: sqlite3.Connection, rows: Rows) -> int:
    n = len(rows)
    conn.execute("DELETE FROM asrun_events WHERE id > ?", (n - 15,))
    conn.commit()
    return n - 14


def _append(conn: sqlite3.Connection, rows: Rows) -> int:
    last_id, last_hash = conn.execute("SELECT id, hash FROM asrun_events ORDER BY id DESC LIMIT 1").fetchone()
    ts, kind, subject, source, detail = (
        rows[-1][0],
        "graphic_on",
        "bumper",
        "obs",
        json.dumps({"item": "title"}),
    )
    h = row_hash(last_hash, last_id + 1, float(ts), kind, subject, source, EP, detail)  # type: ignore[arg-type]
    conn.execute(
        INSERT,
        (last_id + 1, ts, kind, subject, source, EP, detail, last_hash, h),
    )
    conn.commit()
    return int(last_id) + 1


def _recompute(conn: sqlite3.Connection, rows: Rows) -> int:
    # every bumper row given to the title sponsor, every later hash recomputed
    i = _first(rows, "graphic_on", lambda r: '"special"' in str(r[5]))
    for r in rows:
        if r[1] in ("graphic_on", "graphic_off") and '"special"' in str(r[5]):
            r[5] = str(r[5]).replace('"special"', '"title"')
    _rewrite(conn, rows)
    return i + 1


def _proof(conn: sqlite3.Connection, rows: Rows) -> int:
    i = _first(rows, "proof")
    fake = _jpeg((0, 200, 0))
    d = json.loads(str(rows[i][5]))
    d["sha256"] = hashlib.sha256(fake).hexdigest()
    rows[i][5] = json.dumps(d, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    _rewrite(conn, rows, {i + 1: fake})
    return i + 1


def _outages(conn: sqlite3.Connection, rows: Rows) -> int:
    i = _first(rows, "obs_down")
    _rewrite(conn, [r for r in rows if r[1] not in ("obs_down", "obs_up") or r[0] == rows[0][0]])
    return i + 1


def _episode_end(conn: sqlite3.Connection, rows: Rows) -> int:
    conn.execute("UPDATE asrun_episodes SET ended = started + 60 WHERE episode=?", (EP,))
    conn.commit()
    return _first(rows, "episode_end") + 1


def _swap(conn: sqlite3.Connection, rows: Rows) -> int:
    # two rows of the same moment (the corner bug and the 冠名 bumper at 0.2 s): time order still holds
    i = _first(rows, "graphic_on", lambda r: r[2] == "corner_bug")
    assert rows[i + 1][2] == "bumper" and rows[i][0] == rows[i + 1][0]
    rows[i], rows[i + 1] = rows[i + 1], rows[i]
    _rewrite(conn, rows)
    return i + 1


def _insert(conn: sqlite3.Connection, rows: Rows) -> int:
    i = _first(rows, "film_start")
    rows.insert(i, [rows[i][0], "mention", "xiaodangjia", "operator", EP, '{"name":"小当家"}'])
    _rewrite(conn, rows)
    return i + 1


def _deleted_proof(conn: sqlite3.Connection, rows: Rows) -> int:
    i = _first(rows, "proof")
    _rewrite(conn, rows[:i] + rows[i + 1 :])
    return i + 1


def _edit_in_place(conn: sqlite3.Connection, rows: Rows) -> int:
    i = _first(rows, "graphic_off", lambda r: '"special"' in str(r[5]))
    conn.execute("UPDATE asrun_events SET ts = ts + 2 WHERE id=?", (i + 1,))
    conn.commit()
    return i + 1


def _prize(conn: sqlite3.Connection, rows: Rows) -> int:
    conn.execute("UPDATE prize_log SET yuan = yuan * 10")
    conn.commit()
    return _first(rows, "prize") + 1


EDITS: dict[str, tuple[Callable[[sqlite3.Connection, Rows], int], str]] = {
    "the last 15 rows cut off": (_truncate, "truncated"),
    "a row appended with a correct hash": (_append, "appended"),
    "a row rewritten and every later hash recomputed": (_recompute, "recomputed"),
    "a proof JPEG replaced and its hash recomputed": (_proof, "proof_replaced"),
    "every outage deleted and the chain recomputed": (_outages, "deleted"),
    "the episode's end time edited": (_episode_end, "episode_edited"),
    "two rows swapped (chain recomputed)": (_swap, "swapped"),
    "a row inserted (chain recomputed)": (_insert, "inserted"),
    "a proof deleted (chain recomputed)": (_deleted_proof, "proof_deleted"),
    "a row edited in place": (_edit_in_place, "edited"),
    "a prize edited": (_prize, "prize_edited"),
}


def test_the_untouched_log_passes_and_names_its_signed_heads(shown: Path) -> None:
    v = verify_log(sqlite3.connect(shown), shown)
    assert v.ok, v.lines()
    assert v.anchored_id == v.chain.rows and v.anchors >= 2  # the episode's start and end at least
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli(["report", EP, "--db", str(shown), "--verify"]) == 0
    assert (
        "播出记录校验通过" in out.getvalue()
        and StudioKey.load_or_create().public.fingerprint in out.getvalue()
    )


@pytest.mark.parametrize("name", list(EDITS))
def test_every_kind_of_edit_is_caught_naming_the_row_and_the_kind(
    shown: Path, tmp_path: Path, name: str
) -> None:
    edit, change = EDITS[name]
    db = _copy(shown, tmp_path / "copy")
    conn = sqlite3.connect(db)
    row = edit(conn, _rows(conn))
    v = verify_log(conn, db)
    conn.close()
    assert not v.ok, name
    f = v.first
    assert f is not None and (f.change, f.row) == (change, row), (name, v.lines())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli(["report", EP, "--db", str(db), "--verify"]) == 1
    assert f"#{row}" in out.getvalue() and "FAILED" in out.getvalue(), out.getvalue()


def test_a_ledger_line_taken_out_or_signed_by_another_key_is_named(shown: Path, tmp_path: Path) -> None:
    db = _copy(shown, tmp_path / "copy")
    lines = ledger_path(db).read_bytes().splitlines(keepends=True)
    ledger_path(db).write_bytes(b"".join(lines[1:]))
    v = verify_log(sqlite3.connect(db), db)
    assert not v.ok and v.first is not None and v.first.change == "ledger" and "line 1" in v.first.en
    # the ledger's last line taken out and a row appended: the episode's receipt beside the file names it
    ledger_path(db).write_bytes(b"".join(lines[:-1]))
    conn = sqlite3.connect(db)
    row = _append(conn, _rows(conn))
    v = verify_log(conn, db)
    assert not v.ok and v.first is not None and (v.first.change, v.first.row) == ("appended", row), v.lines()
    other = StudioKey.load_or_create(tmp_path / "other").public
    shutil.copy(ledger_path(shown), ledger_path(db))
    v = verify_log(sqlite3.connect(db), db, key=other)
    assert not v.ok and any("signature" in f.en for f in v.findings), v.lines()
    ledger_path(db).unlink()
    v = verify_log(sqlite3.connect(db), db)
    assert not v.ok and any(f.change == "ledger" and "not found" in f.en for f in v.findings), v.lines()


def _third_party(tmp_path: Path, receipt: Path, *args: str) -> tuple[int, str]:
    """verify-receipt as a sponsor runs it: only the public key file and the receipt (no studio key)."""
    key = tmp_path / "studio.pub"
    key.write_text(StudioKey.load_or_create().public.pem())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli(["verify-receipt", str(receipt), "--key", str(key), *args])
    return rc, out.getvalue()


def test_a_third_party_checks_the_receipt_with_only_the_public_key(shown: Path, tmp_path: Path) -> None:
    receipt = receipt_path(shown, EP)
    r = json.loads(receipt.read_text())
    assert {"head", "head_id", "rows", "time", "signature", "fingerprint"} <= set(r)
    given = tmp_path / "given"
    given.mkdir()
    shutil.copy(receipt, given / "receipt.json")
    db = given / "studio.sqlite"
    shutil.copy(shown, db)  # no ledger, no private key: what the sponsor has
    rc, out = _third_party(tmp_path, given / "receipt.json", "--db", str(db))
    assert rc == 0 and "receipt verified" in out, out
    # the database edited after the show
    conn = sqlite3.connect(db)
    row = _recompute(conn, _rows(conn))
    conn.close()
    rc, out = _third_party(tmp_path, given / "receipt.json", "--db", str(db))
    assert rc == 1 and "FAILED" in out and f"#{r['head_id']}" in out, out
    # a forged receipt (its head changed to match the rewrite) fails its signature
    forged = dict(
        r,
        head=sqlite3.connect(db)
        .execute("SELECT hash FROM asrun_events WHERE id=?", (r["head_id"],))
        .fetchone()[0],
    )
    (given / "forged.json").write_text(json.dumps(forged))
    rc, out = _third_party(tmp_path, given / "forged.json", "--db", str(db))
    assert rc == 1 and "signature" in out
    assert row > 0


def test_the_exported_report_alone_is_checked_against_the_receipt(shown: Path, tmp_path: Path) -> None:
    from broadcast.sponsors.receipt import export_rows, load_receipt

    receipt = load_receipt(receipt_path(shown, EP))
    data = export_rows(sqlite3.connect(shown), receipt)
    export = tmp_path / "export.json"
    export.write_text(json.dumps(data, ensure_ascii=False))
    rc, out = _third_party(tmp_path, receipt_path(shown, EP), "--report", str(export))
    assert rc == 0, out
    # a picture replaced in the export
    pid = next(k for k in data["pictures"])
    data["pictures"][pid] = base64.b64encode(_jpeg((0, 0, 255))).decode()
    export.write_text(json.dumps(data, ensure_ascii=False))
    rc, out = _third_party(tmp_path, receipt_path(shown, EP), "--report", str(export))
    assert rc == 1 and f"#{pid}" in out
