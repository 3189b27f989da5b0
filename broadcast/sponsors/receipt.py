"""Checking an episode's receipt with only the studio's public key (``python -m broadcast verify-receipt``).

A receipt (``anchor.py`` writes it at each episode's end) states the as-run chain's head — the hash of
row ``head_id`` — signed with the studio's Ed25519 key. A third party checks:

1. the signature, with the public key they were given (``--key``; without it the key inside the
   receipt, whose fingerprint they compare with the one printed on the report);
2. against the database (``--db``): every row up to ``head_id`` links and hashes to exactly the signed
   head, with its proof pictures, and no row of the episode follows the head; or
3. against the exported report alone (``--report 赞助商播出报告_<期>.asrun.json``): the rows of the
   episode as exported hash, from the first one's link, to exactly the signed head.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from broadcast.core.files import read_at_most
from broadcast.core.signing import PublicKey, SigningError
from broadcast.errors import GoujiError
from broadcast.sponsors.anchor import RECEIPT_FORMAT, receipt_path, receipt_signed_bytes
from broadcast.sponsors.chain import CHANGES, GENESIS, Finding, Row, load_rows, verify_chain

__all__ = [
    "EXPORT_FORMAT",
    "ReceiptError",
    "check_db",
    "check_export",
    "check_signature",
    "export_rows",
    "load_receipt",
]

RECEIPT_LIMIT = 64 * 1024
EXPORT_LIMIT = 256 * 1024 * 1024
EXPORT_FORMAT = "gouji-asrun-export/1"
FIELDS = ("format", "episode", "head_id", "head", "rows", "time", "public_key", "fingerprint", "signature")


class ReceiptError(GoujiError):
    """A file that is not a receipt (or not an export): one line naming it."""

    rule = "receipt"


def _load_json(path: Path, limit: int, what: str) -> dict[str, Any]:
    try:
        size = path.stat().st_size
        if size > limit:
            raise ReceiptError(
                "receipt", f"{what}过大（{size} 字节，上限 {limit}）", f"too large ({size} bytes)", where=path
            )
        raw = read_at_most(path, limit)  # a device (/dev/zero) says size 0: cut at the limit all the same
        if len(raw) > limit:
            raise ReceiptError(
                "receipt", f"{what}过大（超过 {limit} 字节）", f"too large (over {limit} bytes)", where=path
            )
        data = json.loads(raw)
    except OSError as exc:
        raise ReceiptError(
            "receipt", f"无法读取{what}（{exc.strerror}）", f"cannot read ({exc.strerror})", where=path
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ReceiptError(
            "receipt", f"不是{what}（JSON 错误：{exc}）", f"not valid JSON ({exc})", where=path
        ) from None
    except RecursionError:  # brackets nested thousands deep: the parser's recursion, never a traceback
        raise ReceiptError(
            "receipt", f"不是{what}（JSON 嵌套过深）", "not valid JSON (nested too deeply)", where=path
        ) from None
    if not isinstance(data, dict):
        raise ReceiptError("receipt", f"不是{what}", "not what it should be (a JSON object)", where=path)
    return data


def load_receipt(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    r = _load_json(p, RECEIPT_LIMIT, "回执")
    missing = [f for f in FIELDS if f not in r]
    if r.get("format") != RECEIPT_FORMAT or missing:
        lack = ", ".join(missing) or "format"
        raise ReceiptError(
            "receipt", f"不是播出记录回执（缺 {lack}）", f"not an as-run receipt (no {lack})", where=p
        )
    try:
        int(r["head_id"]), str(r["head"]), PublicKey.from_b64(str(r["public_key"]))
    except (TypeError, ValueError, SigningError):
        raise ReceiptError("receipt", "回执字段格式不对", "malformed receipt", where=p) from None
    return r


def receipt_for(database: str | Path, episode: str) -> dict[str, Any] | None:
    """The episode's receipt beside the database (None: there is none, or it is not a receipt)."""
    path = receipt_path(database, episode)
    if not path.is_file():
        return None
    try:
        return load_receipt(path)
    except ReceiptError:
        return None


def check_signature(receipt: dict[str, Any], key: PublicKey | None) -> Finding | None:
    """None when the receipt is signed by ``key`` (default: the key it carries)."""
    own = PublicKey.from_b64(str(receipt["public_key"]))
    if key is not None and key != own:
        return Finding(
            None,
            "receipt",
            f"回执上的公钥（{own.fingerprint}）不是给定的公钥（{key.fingerprint}）",
            f"the receipt's key ({own.fingerprint}) is not the given key ({key.fingerprint})",
        )
    use = key or own
    if str(receipt.get("fingerprint")) != use.fingerprint or not use.verify(
        str(receipt["signature"]), receipt_signed_bytes(receipt)
    ):
        return Finding(
            None,
            "receipt",
            "回执签名不符（回执被改动，或不是这把密钥签的）",
            "the receipt's signature does not verify",
        )
    return None


def _segment(rows: list[Row], receipt: dict[str, Any], prev: str) -> Finding | None:
    """Rows (ids in order) hash from ``prev`` to exactly the receipt's head at its ``head_id``."""
    head_id, head = int(receipt["head_id"]), str(receipt["head"])
    last_ts = float("-inf")
    expect = rows[0].id if rows else head_id + 1
    for r in rows:
        if r.id != expect:
            return Finding(expect, "deleted", *CHANGES["deleted"])
        if r.prev_hash != prev:
            return Finding(r.id, "inserted", "与前一条的链接不符", "does not link to the row before it")
        h = r.computed_hash(prev)
        if h != r.hash:
            return Finding(r.id, "edited", *CHANGES["edited"])
        if r.ts < last_ts:
            return Finding(r.id, "time_order", *CHANGES["time_order"])
        prev, last_ts, expect = h, r.ts, expect + 1
        if r.id == head_id:
            if h != head:
                return Finding(
                    r.id,
                    "recomputed",
                    "的哈希不是回执签名的链头（记录被改动并重算）",
                    "is not the signed head (rows rewritten)",
                )
            return None
    if not rows or rows[-1].id < head_id:
        return Finding((rows[-1].id + 1) if rows else head_id, "truncated", *CHANGES["truncated"])
    return None


def check_db(receipt: dict[str, Any], conn: sqlite3.Connection) -> Finding | None:
    """The database's rows against the receipt (None: they are what was signed)."""
    head_id, episode = int(receipt["head_id"]), str(receipt["episode"])
    rows = load_rows(conn)
    upto = [r for r in rows if r.id <= head_id]
    bad = _segment(upto, receipt, GENESIS)
    if bad is not None:
        return bad
    chain = verify_chain(conn)  # the proof pictures (and the rows after the head)
    if not chain.ok and chain.bad_id is not None and chain.bad_id <= head_id:
        return Finding(chain.bad_id, chain.change or "edited", chain.problem_zh, chain.problem_en)
    later = [r for r in rows if r.id > head_id and r.episode == episode]
    if later:
        return Finding(
            later[0].id,
            "appended",
            f"（{later[0].kind}）是回执之后追加到本期的",
            f"({later[0].kind}) added to the episode after the receipt",
        )
    return None


def export_rows(conn: sqlite3.Connection, receipt: dict[str, Any]) -> dict[str, Any]:
    """The exported report's as-run rows: from the episode's first row to the receipt's head, with each
    proof picture (base64 JPEG) — what ``check_export`` recomputes."""
    first, head_id = int(receipt["first_id"]), int(receipt["head_id"])
    rows = [r for r in load_rows(conn, after=first - 1) if r.id <= head_id]
    pictures = {
        str(int(eid)): base64.b64encode(bytes(blob)).decode()
        for eid, blob in conn.execute(
            "SELECT event_id, jpeg FROM asrun_proofs WHERE event_id BETWEEN ? AND ?", (first, head_id)
        )
    }
    return {
        "format": EXPORT_FORMAT,
        "receipt": receipt,
        "rows": [
            [r.id, r.ts, r.kind, r.subject, r.source, r.episode, r.detail, r.prev_hash, r.hash] for r in rows
        ],
        "pictures": pictures,
    }


def check_export(receipt: dict[str, Any], path: str | Path) -> Finding | None:
    """The exported report's rows against the receipt."""
    p = Path(path)
    data = _load_json(p, EXPORT_LIMIT, "导出的播出记录")
    if data.get("format") != EXPORT_FORMAT or not isinstance(data.get("rows"), list):
        raise ReceiptError(
            "receipt", f"不是导出的播出记录（{EXPORT_FORMAT}）", "not an as-run export", where=p
        )
    try:
        rows = [Row(int(r[0]), float(r[1]), *(str(x) for x in r[2:9])) for r in data["rows"]]
    except (TypeError, ValueError, IndexError):
        raise ReceiptError("receipt", "导出的记录格式不对", "malformed rows", where=p) from None
    if not rows:
        return Finding(None, "truncated", "导出中没有记录", "the export holds no rows")
    bad = _segment(rows, receipt, rows[0].prev_hash)
    if bad is not None:
        return bad
    pictures = data.get("pictures") or {}
    for r in rows:
        if r.kind == "proof":
            want = json.loads(r.detail or "{}").get("sha256")
            try:
                got = hashlib.sha256(
                    base64.b64decode(str(pictures.get(str(r.id), "")), validate=True)
                ).hexdigest()
            except ValueError:
                got = ""
            if got != want:
                return Finding(r.id, "proof_replaced", *CHANGES["proof_replaced"])
    return None
