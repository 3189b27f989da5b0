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
from broadcast.errors import count

__all__ = [
    "CHANGES",
    "GENESIS",
    "ChainCheck",
    "Finding",
    "Row",
    "Seal",
    "load_rows",
    "placements_sha256",
    "row_digest",
    "row_hash",
    "verify_chain",
]

GENESIS = "0" * 64  # the prev_hash of the first row


# kinds of change a check names (ChainCheck.change, verify.Finding.change), with their words
CHANGES: dict[str, tuple[str, str]] = {
    "edited": ("被改动", "edited"),
    "recomputed": ("被改动且其后的哈希全部重算", "edited, and every later hash recomputed"),
    "inserted": ("被插入", "inserted"),
    "deleted": ("被删除", "deleted"),
    "swapped": ("与下一条对调了顺序", "swapped with the next row"),
    "truncated": ("起的记录被截掉", "and every row after it cut off (truncated)"),
    "appended": ("是签名链头之后追加的", "appended after the last signed head"),
    "proof_replaced": ("的截图被替换", "proof picture replaced"),
    "proof_deleted": ("的截图被删除", "proof picture deleted"),
    "time_order": ("时间早于前一条（顺序不对）", "is earlier than the row before it (out of time order)"),
    "episode_edited": ("期次记录被改动", "episode row edited"),
    "prize_edited": ("奖金记录被改动", "prize row edited"),
    "unanchored": ("在最后一个签名链头之后，未被签名覆盖", "written after the last signed head: not covered"),
    "ledger": ("链头账本有问题", "the head ledger is damaged or missing"),
    "receipt": ("与回执不符", "does not match the receipt"),
}


@dataclass(frozen=True)
class Finding:
    row: int | None  # the first row concerned (None: not a row)
    change: str  # a key of chain.CHANGES
    zh: str
    en: str
    episode: str = ""

    @property
    def line_zh(self) -> str:
        where = (
            f"第 #{self.row} 条" if self.row is not None else (f"期次 {self.episode}" if self.episode else "")
        )
        return f"{where}{self.zh}"

    @property
    def line_en(self) -> str:
        where = (
            f"row #{self.row}: "
            if self.row is not None
            else (f"episode {self.episode}: " if self.episode else "")
        )
        return f"{where}{self.en}"


@dataclass(frozen=True)
class Row:
    """One stored as-run row as the chain sees it (``detail`` as stored: canonical JSON text)."""

    id: int
    ts: float
    kind: str
    subject: str
    source: str
    episode: str
    detail: str
    prev_hash: str
    hash: str

    @property
    def digest(self) -> str:
        return row_digest(self.ts, self.kind, self.subject, self.source, self.episode, self.detail)

    def computed_hash(self, prev: str) -> str:
        return row_hash(
            prev, self.id, self.ts, self.kind, self.subject, self.source, self.episode, self.detail
        )


ROW_SQL = "SELECT id, ts, kind, subject, source, episode, detail, prev_hash, hash FROM asrun_events"


def load_rows(conn: sqlite3.Connection, lock: threading.RLock | None = None, *, after: int = 0) -> list[Row]:
    with lock or threading.RLock():
        rows = conn.execute(ROW_SQL + " WHERE id > ? ORDER BY id", (after,)).fetchall()
    return [Row(int(r[0]), float(r[1]), *(str(x) for x in r[2:9])) for r in rows]


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
    change: str = ""  # the kind of change (CHANGES) at bad_id

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
            rows, proofs = count(self.rows, "row"), count(self.proofs, "proof")
            return f"as-run chain verified: {rows}, {proofs} unchanged; head #{self.head_id}"
        return f"as-run chain BROKEN at row #{self.bad_id}: {self.problem_en}"


@dataclass(frozen=True)
class Seal:
    """What a report prints of the chain's anchoring: the check against the head ledger, the
    episode's receipt (head, signature) and the studio key's fingerprint."""

    verified: bool  # the chain, the ledger's signed heads and the tables all agree
    verdict_zh: str
    verdict_en: str
    fingerprint: str  # the studio's public key (SHA256:…)
    public_key: str = ""  # base64 of its 32 raw bytes
    receipt_head: str = ""
    receipt_head_id: int = 0
    receipt_signature: str = ""
    receipt_time: str = ""


def row_hash(
    prev: str, rid: int, ts: float, kind: str, subject: str, source: str, episode: str, detail: str
) -> str:
    """SHA-256 of the previous row's hash and this row's fields (``detail`` as stored: canonical JSON)."""
    payload = json.dumps(
        [rid, float(ts), kind, subject, source, episode, detail], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(f"{prev}\n{payload}".encode()).hexdigest()


def row_digest(ts: float, kind: str, subject: str, source: str, episode: str, detail: str) -> str:
    """A row's content alone (no id, no link): what the head ledger keeps of every row, so that a row
    moved, inserted or deleted is told apart from one edited."""
    payload = json.dumps(
        [float(ts), kind, subject, source, episode, detail], ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def placements_sha256(text: str) -> str:
    """The hash of an episode's placements as stored (canonical JSON: file, digest, sponsors …)."""
    return hashlib.sha256(text.encode()).hexdigest()


def verify_chain(conn: sqlite3.Connection, lock: threading.RLock | None = None) -> ChainCheck:
    """Walk every as-run row in id order: ids follow each other, times never go back, each
    ``prev_hash`` is the hash of the row before it, each ``hash`` matches the row's fields, and every
    proof picture matches the hash in its row. Names the first row that breaks, and how."""
    lock = lock or threading.RLock()
    rows = load_rows(conn, lock)
    with lock:
        blobs = {int(r[0]): bytes(r[1]) for r in conn.execute("SELECT event_id, jpeg FROM asrun_proofs")}
    prev, head_id, proofs, last_ts = GENESIS, 0, 0, float("-inf")

    def broken(rid: int, change: str, zh: str, en: str) -> ChainCheck:
        return ChainCheck(False, len(rows), head_id, prev, rid, zh, en, proofs, change)

    for r in rows:
        if r.id != head_id + 1:
            return broken(
                head_id + 1,
                "deleted",
                f"不见了（编号从 #{head_id} 跳到 #{r.id}：记录被删除）",
                f"is missing (ids jump from #{head_id} to #{r.id}: rows deleted)",
            )
        if r.prev_hash != prev:
            return broken(
                r.id,
                "inserted",
                "与前一条的链接不符（前面的记录被删改或插入过）",
                "does not link to the row before it (a row before it was edited, inserted or deleted)",
            )
        want = r.computed_hash(prev)
        if r.hash != want:
            return broken(r.id, "edited", "内容与其哈希不符（被改动过）", "content was edited")
        if r.ts < last_ts:
            return broken(r.id, "time_order", *CHANGES["time_order"])
        if r.kind in (PROOF, "proof_failed") and (r.kind == PROOF or r.id in blobs or '"sha256"' in r.detail):
            detail = json.loads(r.detail or "{}")
            blob = blobs.get(r.id)
            if blob is None:
                return broken(r.id, "proof_deleted", "的截图不见了（被删除）", "proof picture deleted")
            if hashlib.sha256(blob).hexdigest() != detail.get("sha256"):
                return broken(
                    r.id,
                    "proof_replaced",
                    "的截图与记录的哈希不符（截图被替换）",
                    "proof picture does not match its hash (replaced)",
                )
            proofs += r.kind == PROOF
        prev, head_id, last_ts = want, r.id, r.ts
    return ChainCheck(True, len(rows), head_id, prev, proofs=proofs)
