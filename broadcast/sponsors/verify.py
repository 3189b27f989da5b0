"""``report --verify``: the as-run log checked against itself, its head ledger and the studio's key.

Three checks, each naming the first row that fails and the kind of change (``chain.CHANGES``):

1. the chain itself (:func:`~broadcast.sponsors.chain.verify_chain`): ids, time order, links,
   hashes, proof pictures — catches an edit made without recomputing the hashes;
2. the head ledger (:mod:`broadcast.core.ledger`, lines signed with the studio's key): every row
   anchored there must still be in the database with the same content at the same place — catches a
   truncation, an appended row, a row edited with every later hash recomputed, a replaced or deleted
   proof, deleted outages, an insert and a swap;
3. the tables the report reads beside the chain: each episode's start, end, air date and placements,
   and the prize log, must be what their chained rows state.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broadcast.core.airlog import EPISODE_END, EPISODE_START
from broadcast.core.ledger import LedgerReading, ledger_path, read_ledger
from broadcast.core.signing import PublicKey, StudioKey
from broadcast.errors import count
from broadcast.sponsors.anchor import receipt_path
from broadcast.sponsors.chain import (
    CHANGES,
    ChainCheck,
    Finding,
    Row,
    Seal,
    load_rows,
    placements_sha256,
    verify_chain,
)
from broadcast.sponsors.receipt import ReceiptError, check_signature, load_receipt

__all__ = ["Verdict", "compare_rows", "verify_log"]

KIND = "asrun"
PLACEMENTS, PRIZE = "placements", "prize"


@dataclass
class Verdict:
    chain: ChainCheck
    findings: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    ledger: Path | None = None
    anchored_id: int = 0  # the last row the ledger signs for
    anchors: int = 0
    fingerprint: str = ""

    @property
    def ok(self) -> bool:
        return self.chain.ok and not self.findings

    @property
    def first(self) -> Finding | None:
        return self.findings[0] if self.findings else None

    def lines(self) -> list[str]:
        c = self.chain
        if self.ok:
            out = [
                f"播出记录校验通过：{c.rows} 条记录、{c.proofs} 张截图与链头账本一致"
                f"（{self.anchors} 个签名链头，签到 #{self.anchored_id}）；链头 #{c.head_id}",
                f"  as-run verified: {count(c.rows, 'row')} and {count(c.proofs, 'proof')} "
                "match the head ledger "
                f"({self.anchors} signed heads, up to #{self.anchored_id}); head #{c.head_id}",
            ]
        else:
            f = self.first or _from_chain(c)
            out = [f"播出记录校验未通过：{f.line_zh}", f"  as-run log FAILED verification: {f.line_en}"]
            out += [f"  另 also: {g.line_zh} / {g.line_en}" for g in self.findings[1:4]]
        out += [f"  注意 note: {w.line_zh} / {w.line_en}" for w in self.warnings]
        return out


def _from_chain(c: ChainCheck) -> Finding:
    return Finding(c.bad_id, c.change or "edited", c.problem_zh, c.problem_en)


def _word(change: str, kind: str = "") -> tuple[str, str]:
    zh, en = CHANGES[change]
    return (f"（{kind}）{zh}", f"({kind}) {en}") if kind else (zh, en)


def compare_rows(
    anchored: list[tuple[str, str]], rows: list[Row], closed: bool
) -> tuple[Finding | None, Finding | None]:
    """The first difference between the rows the ledger signed for (``anchored``: digest and kind of
    rows 1…n) and the database's, and a warning for rows after the last signed head. ``closed``: the
    last ledger line was written at an episode's end or the log's close (no row may follow)."""
    have = [r.digest for r in rows]
    for i, (digest, kind) in enumerate(anchored):
        if i < len(rows) and rows[i].digest == digest and rows[i].id == i + 1:
            continue
        rid = i + 1
        if i >= len(rows):
            return Finding(rid, "truncated", *_word("truncated", kind)), None
        nxt = anchored[i + 1][0] if i + 1 < len(anchored) else None
        if nxt is not None and i + 1 < len(rows) and have[i] == nxt and have[i + 1] == digest:
            return Finding(rid, "swapped", *_word("swapped", kind)), None
        gone = _shift(have[i], [d for d, _k in anchored[i + 1 :]])
        if gone is not None:
            change = "proof_deleted" if kind == "proof" else "deleted"
            zh, en = _word(change, kind)
            more = f"（连同其后共 {gone + 1} 条）" if gone else ""
            return Finding(
                rid, change, zh + more, en + (f" (and {gone} more after it)" if gone else "")
            ), None
        if _shift(digest, have[i + 1 :]) is not None:
            return Finding(rid, "inserted", *_word("inserted", rows[i].kind)), None
        change = "proof_replaced" if kind == "proof" and rows[i].kind == "proof" else "recomputed"
        return Finding(rid, change, *_word(change, kind)), None
    if len(rows) > len(anchored):
        r = rows[len(anchored)]
        if closed:
            return Finding(r.id, "appended", *_word("appended", r.kind)), None
        zh, en = CHANGES["unanchored"]
        n = len(rows) - len(anchored)
        return None, Finding(r.id, "unanchored", f"起 {n} 条{zh}", f"and {count(n - 1, 'row')} after it {en}")
    return None, None


def _shift(digest: str, later: list[str]) -> int | None:
    """How many places later ``digest`` comes (0-based: 0 = the very next one), or None."""
    try:
        return later.index(digest)
    except ValueError:
        return None


def _anchored(reading: LedgerReading) -> tuple[list[tuple[str, str]], bool, int, list[Finding]]:
    """The rows the ledger signs for (digest, kind, from row 1), whether the last line closed the log,
    the number of anchors, and what is wrong with the ledger."""
    out: list[tuple[str, str]] = []
    problems: list[Finding] = []
    closed, anchors = False, 0
    for rec in reading.of_kind(KIND):
        b = rec.body
        try:
            start, rows = int(b["from_id"]), [(str(d), str(k)) for d, k in b["rows"]]
            head_id = int(b["head_id"])
        except (KeyError, TypeError, ValueError):
            problems.append(
                Finding(None, "ledger", f"账本第 {rec.n} 行格式不对", f"ledger line {rec.n} malformed")
            )
            break
        if start != len(out) + 1 or head_id != len(out) + len(rows):
            problems.append(
                Finding(
                    None,
                    "ledger",
                    f"账本第 {rec.n} 行与前面的链头接不上",
                    f"ledger line {rec.n} does not follow",
                )
            )
            break
        out += rows
        anchors += 1
        closed = str(b.get("event")) in ("end", "close")
    return out, closed, anchors, problems


def check_tables(conn: sqlite3.Connection, rows: list[Row]) -> list[Finding]:
    """The episodes table and the prize log against what their chained rows state."""
    out: list[Finding] = []
    state: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.kind in (EPISODE_START, EPISODE_END, PLACEMENTS):
            st = state.setdefault(r.subject, {"row": r.id})
            d = json.loads(r.detail or "{}")
            if r.kind == EPISODE_START:
                st.update({"row": r.id, "ended": None})
                st.update({k: d[k] for k in ("air_date", "started", "placements_sha256") if k in d})
            elif r.kind == EPISODE_END:
                st.update({"row": r.id, "ended": r.ts})
            else:
                st.update({"row": r.id, "placements_sha256": d.get("placements_sha256")})
    table = conn.execute(
        "SELECT episode, air_date, started, ended, placements FROM asrun_episodes"
    ).fetchall()
    for ep, air, started, ended, placements in table:
        got = state.pop(str(ep)) if str(ep) in state else None
        if got is None:
            out.append(
                Finding(
                    None,
                    "episode_edited",
                    "没有链上的开始记录（期次记录被插入）",
                    "has no chained start (inserted)",
                    str(ep),
                )
            )
            continue
        st = got
        have = {
            "air_date": str(air),
            "started": None if started is None else float(started),
            "ended": None if ended is None else float(ended),
            "placements_sha256": placements_sha256(str(placements)),
        }
        for k, v in have.items():
            if k in st and st[k] != v:
                word = {
                    "air_date": "播出日期",
                    "started": "开始时间",
                    "ended": "结束时间",
                    "placements_sha256": "排期",
                }[k]
                out.append(
                    Finding(
                        st["row"],
                        "episode_edited",
                        f"所述期次 {ep} 的{word}与期次表不符（期次表被改动）",
                        f"states episode {ep}'s {k} otherwise than the episodes table (the table was edited)",
                        str(ep),
                    )
                )
                break
    for ep, st in state.items():
        out.append(
            Finding(
                st["row"],
                "episode_edited",
                f"的期次 {ep} 不在期次表中（被删除）",
                f"episode {ep} missing from the table",
                ep,
            )
        )
    out += _check_prizes(conn, rows)
    return out


def _check_prizes(conn: sqlite3.Connection, rows: list[Row]) -> list[Finding]:
    """The prize log against its chained ``prize`` rows."""
    out: list[Finding] = []
    prizes: dict[int, tuple[Row, dict[str, Any]]] = {}
    for row in rows:
        detail = json.loads(row.detail or "{}") if row.kind == PRIZE else {}
        if "prize_id" in detail:
            prizes[int(detail["prize_id"])] = (row, detail)
    for pid, ts, ep, contestant, yuan, note in conn.execute(
        "SELECT id, ts, episode, contestant, yuan, note FROM prize_log ORDER BY id"
    ).fetchall():
        chained = prizes.pop(int(pid), None)
        if chained is None:
            if prizes or any(r.kind == PRIZE for r in rows):
                out.append(
                    Finding(
                        None,
                        "prize_edited",
                        f"奖金记录 {pid} 不在链上（被插入）",
                        f"prize {pid} not in the chain (inserted)",
                        str(ep),
                    )
                )
            continue
        r, d = chained
        if (r.subject, r.episode, float(d["yuan"]), str(d["note"]), float(d["ts"])) != (
            str(contestant),
            str(ep),
            float(yuan),
            str(note),
            float(ts),
        ):
            out.append(
                Finding(
                    r.id,
                    "prize_edited",
                    f"所述奖金 {pid} 与奖金表不符（被改动）",
                    f"states prize {pid} otherwise than the prize log (edited)",
                    str(ep),
                )
            )
    for pid, (r, _d) in prizes.items():
        out.append(
            Finding(
                r.id,
                "prize_edited",
                f"所述奖金 {pid} 不在奖金表中（被删除）",
                f"prize {pid} deleted from the prize log",
                r.episode,
            )
        )
    return out


def seal_for(verdict: Verdict, key: PublicKey, receipt: dict[str, Any] | None) -> Seal:
    """What the report prints of the check, the episode's receipt and the key."""
    lines = verdict.lines()
    return Seal(
        verified=verdict.ok,
        verdict_zh=lines[0],
        verdict_en=lines[1].strip(),
        fingerprint=key.fingerprint,
        public_key=key.b64,
        receipt_head=str(receipt["head"]) if receipt else "",
        receipt_head_id=int(receipt["head_id"]) if receipt else 0,
        receipt_signature=str(receipt["signature"]) if receipt else "",
        receipt_time=str(receipt.get("time_text", "")) if receipt else "",
    )


def verify_log(
    conn: sqlite3.Connection,
    database: str | Path,
    *,
    key: PublicKey | None = None,
    lock: threading.RLock | None = None,
) -> Verdict:
    """Everything ``report --verify`` checks. ``key``: the public key to check the ledger's signatures
    with (default: this studio's own)."""
    lock = lock or threading.RLock()
    chain = verify_chain(conn, lock)
    rows = load_rows(conn, lock)
    path = ledger_path(database)
    if key is None:
        key = StudioKey.load_or_create().public
    v = Verdict(chain, ledger=path, fingerprint=key.fingerprint)
    reading = read_ledger(path, key)
    if not reading.exists:
        zh, en = CHANGES["ledger"]
        v.findings.append(
            Finding(
                None,
                "ledger",
                f"：找不到 {path.name}，无法证明记录未被重写",
                f": {path.name} not found: the rows cannot be shown unchanged",
            )
        )
    for line, zh, en in reading.problems:
        v.findings.append(
            Finding(None, "ledger", f"：{path.name} 第 {line} 行{zh}", f": {path.name} line {line}: {en}")
        )
    anchored, closed, v.anchors, problems = _anchored(reading)
    v.findings += problems
    v.anchored_id = len(anchored)
    first, warning = compare_rows(anchored, rows, closed)
    if not chain.ok:
        broken = _from_chain(chain)
        # the same row in both: the ledger says how it moved, the chain that it was edited in place
        if first is None or (broken.row or 0) < (first.row or 0):
            first = broken
        elif broken.row == first.row and first.change == "recomputed":
            first = broken
    if first is not None:
        v.findings.insert(0, first)
    if warning is not None:
        v.warnings.append(warning)
    v.findings += check_tables(conn, rows)
    v.findings += check_receipts(database, rows, key)
    if first is None and v.findings and v.findings[0].change == "ledger":
        v.findings.sort(key=lambda f: f.change == "ledger")  # a row named by a receipt comes first
    return v


def check_receipts(database: str | Path, rows: list[Row], key: PublicKey) -> list[Finding]:
    """The receipts beside the database: each signed head must still be its row's hash, and no row of
    its episode may follow it."""
    folder = receipt_path(database, "x").parent
    out: list[Finding] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            r = load_receipt(path)
        except ReceiptError:
            continue
        bad = check_signature(r, key)
        if bad is not None:
            out.append(Finding(None, "receipt", f"：{path.name} {bad.zh}", f": {path.name}: {bad.en}"))
            continue
        head_id, ep = int(r["head_id"]), str(r["episode"])
        if head_id > len(rows) or rows[head_id - 1].hash != str(r["head"]):
            at = min(head_id, len(rows) + 1)
            out.append(
                Finding(
                    at,
                    "receipt",
                    f"与回执 {path.name} 的链头不符",
                    f"does not match the head of receipt {path.name}",
                )
            )
            continue
        later = next((x for x in rows[head_id:] if x.episode == ep), None)
        if later is not None:
            zh, en = _word("appended", later.kind)
            out.append(
                Finding(
                    later.id,
                    "appended",
                    f"{zh}（在回执 {path.name} 之后）",
                    f"{en} (after receipt {path.name})",
                )
            )
    return out
