"""The as-run hash chain: each row carries the hash of the row before it and its own.

Every row of ``asrun_events`` carries ``prev_hash`` (the hash of the row before it, :data:`GENESIS` for
the first) and ``hash`` (SHA-256 over the previous hash and the row's fields), so editing, inserting or
deleting a row after the show breaks the chain at that row; :func:`verify_chain` walks it. A
proof-of-air JPEG is a row of its own whose detail holds the picture's SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass

from broadcast.core.airlog import PROOF

__all__ = ["GENESIS", "ChainCheck", "row_hash", "verify_chain"]

GENESIS = "0" * 64  # the prev_hash of the first row


@dataclass(frozen=True)
class ChainCheck:
    """The result of walking the as-run chain: ``ok`` or where and why it breaks."""

    ok: bool
    rows: int
    head_id: int
    head_hash: str
    bad_id: int | None = None
    problem_zh: str = ""
    problem_en: str = ""
    proofs: int = 0

    @property
    def summary_zh(self) -> str:
        if self.ok:
            return (
                f"播出记录链校验通过：{self.rows} 条记录、{self.proofs} 张截图未被改动；链头 #{self.head_id}"
            )
        return f"播出记录链校验未通过：第 #{self.bad_id} 条 {self.problem_zh}"

    @property
    def summary_en(self) -> str:
        if self.ok:
            proofs = f"{self.proofs} proofs"
            return f"as-run chain verified: {self.rows} rows, {proofs} unchanged; head #{self.head_id}"
        return f"as-run chain BROKEN at row #{self.bad_id}: {self.problem_en}"


def row_hash(
    prev: str, rid: int, ts: float, kind: str, subject: str, source: str, episode: str, detail: str
) -> str:
    """SHA-256 of the previous row's hash and this row's fields (``detail`` as stored: canonical JSON)."""
    payload = json.dumps(
        [rid, float(ts), kind, subject, source, episode, detail], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(f"{prev}\n{payload}".encode()).hexdigest()


def verify_chain(conn: sqlite3.Connection, lock: threading.RLock | None = None) -> ChainCheck:
    """Walk every as-run row in id order: each ``prev_hash`` must be the hash of the row before it and
    each ``hash`` must match the row's fields; every proof picture must match the hash in its row."""
    lock = lock or threading.RLock()
    with lock:
        rows = conn.execute(
            "SELECT id, ts, kind, subject, source, episode, detail, prev_hash, hash FROM asrun_events "
            "ORDER BY id"
        ).fetchall()
        blobs = {int(r[0]): bytes(r[1]) for r in conn.execute("SELECT event_id, jpeg FROM asrun_proofs")}
    prev, head_id, proofs = GENESIS, 0, 0
    for r in rows:
        rid = int(r[0])
        if r[7] != prev:
            return ChainCheck(
                False,
                len(rows),
                head_id,
                prev,
                rid,
                "与前一条的链接不符（前面的记录被删改或插入过）",
                "does not link to the row before it (a row before it was edited, inserted or deleted)",
            )
        want = row_hash(prev, rid, r[1], r[2], r[3], r[4], r[5], r[6])
        if r[8] != want:
            return ChainCheck(
                False, len(rows), head_id, prev, rid, "内容与其哈希不符（被改动过）", "content was edited"
            )
        if r[2] == PROOF:
            detail = json.loads(r[6] or "{}")
            blob = blobs.get(rid)
            if blob is None or hashlib.sha256(blob).hexdigest() != detail.get("sha256"):
                return ChainCheck(
                    False,
                    len(rows),
                    head_id,
                    prev,
                    rid,
                    "的截图与记录的哈希不符（截图被替换或删除）",
                    "proof picture does not match its hash (replaced or deleted)",
                )
            proofs += 1
        prev, head_id = want, rid
    return ChainCheck(True, len(rows), head_id, prev, proofs=proofs)
