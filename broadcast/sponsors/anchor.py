"""The as-run chain anchored outside the database: signed heads in the head ledger, and receipts.

While the studio records (``AsRunLog.open(path, anchored=True)``), :class:`Anchor` appends an ``asrun``
line to the head ledger beside the database (:mod:`broadcast.core.ledger`) at each episode's start,
every ``ANCHOR_EVERY`` seconds while rows keep coming, at each episode's end and when the log closes.
The line's body::

    {"event": "start|periodic|end|close", "episode": "第16期", "from_id": 201, "head_id": 240,
     "head": "<hash of row 240>", "rows": [["<digest of row 201>", "graphic_on"], …]}

``rows`` holds, for every row from ``from_id`` to ``head_id``, its content digest
(:func:`~broadcast.sponsors.chain.row_digest`: the row without its id and links) and kind, so that a
later check tells a row edited from one inserted, deleted or moved, and names it.

At each episode's end a **receipt** is written to ``<database>.receipts/<episode>.json`` — what the
producer hands the sponsor with the report::

    {"format": "gouji-asrun-receipt/1", "episode": …, "air_date": …, "database": "studio.sqlite",
     "head_id": 240, "head": "…", "rows": 240, "episode_rows": 180, "first_id": 61,
     "time": 1764570000.25, "time_text": "2026-12-01 20:40:00 北京时间",
     "public_key": "<base64 of the 32 raw bytes>", "fingerprint": "SHA256:…", "signature": "<base64>"}

signed (Ed25519) over its canonical JSON without ``signature``. ``python -m broadcast verify-receipt``
checks one with only the public key.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from broadcast.clock import STUDIO_TZ
from broadcast.core.ledger import HeadLedger, LedgerRecord, canonical, read_ledger
from broadcast.core.signing import PublicKey
from broadcast.sponsors.chain import load_rows

__all__ = ["ANCHOR_EVERY", "RECEIPT_FORMAT", "Anchor", "receipt_path", "sign_receipt"]

log = logging.getLogger(__name__)

ANCHOR_EVERY = 120.0  # seconds between two anchors while rows keep coming
RECEIPT_FORMAT = "gouji-asrun-receipt/1"
KIND = "asrun"


def receipt_path(database: str | Path, episode: str) -> Path:
    safe = re.sub(r'[\\/:*?"<>|\x00-\x1f]', "_", episode).strip(". ") or "episode"
    return Path(f"{Path(database)}.receipts") / f"{safe}.json"


def time_text(ts: float) -> str:
    return datetime.fromtimestamp(ts, STUDIO_TZ).strftime("%Y-%m-%d %H:%M:%S") + " 北京时间"


def sign_receipt(body: dict[str, Any], sign: Callable[[bytes], str]) -> dict[str, Any]:
    unsigned = {k: v for k, v in body.items() if k != "signature"}
    return {**unsigned, "signature": sign(canonical(unsigned))}


def receipt_signed_bytes(receipt: dict[str, Any]) -> bytes:
    return canonical({k: v for k, v in receipt.items() if k != "signature"})


def last_anchored(path: Path, key: PublicKey | None) -> tuple[int, str]:
    """The last as-run head the ledger holds (0, "" for none)."""
    reading = read_ledger(path, key)
    for rec in reversed(reading.of_kind(KIND)):
        try:
            return int(rec.body["head_id"]), str(rec.body["head"])
        except (KeyError, TypeError, ValueError):
            continue
    return 0, ""


class Anchor:
    def __init__(
        self,
        conn: Callable[[], sqlite3.Connection],
        lock: threading.RLock,
        ledger: HeadLedger,
        database: Path,
    ) -> None:
        self._conn = conn
        self._lock = lock
        self.ledger = ledger
        self.database = database
        self.last_id, self.last_head = last_anchored(ledger.path, ledger.key.public)
        self._anchoring = threading.Lock()  # one anchor at a time (never the log's lock: see anchor)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors: list[str] = []

    def start(self, every: float = ANCHOR_EVERY) -> None:
        """Anchor every ``every`` seconds while rows keep coming (a daemon thread)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(every,), name="asrun-anchor", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None

    def _run(self, every: float) -> None:
        while not self._stop.wait(every):
            self.anchor("periodic")

    def anchor(self, event: str, episode: str = "") -> LedgerRecord | None:
        """Append the rows since the last anchor and the head to the ledger (nothing new: nothing,
        except at an episode's end, which always gets its line and receipt). Never raises: a ledger
        that cannot be written is said in the log and in ``errors`` (the show goes on)."""
        try:
            # the log's lock only while reading: signing and fsync (seconds on a busy disk) must never
            # hold up the OBS bridge's writes
            with self._anchoring:
                rows = load_rows(self._conn(), self._lock, after=self.last_id)
                if not rows and event != "end":
                    return None
                head_id = rows[-1].id if rows else self.last_id
                head = rows[-1].hash if rows else self.last_head
                body = {
                    "event": event,
                    "episode": episode,
                    "from_id": self.last_id + 1,
                    "head_id": head_id,
                    "head": head,
                    "rows": [[r.digest, r.kind] for r in rows],
                }
                rec = self.ledger.append(KIND, body)
                self.last_id, self.last_head = head_id, head
                if event == "end" and episode:
                    with self._lock:
                        counts = self._receipt_counts(episode, head_id)
                    self.write_receipt(episode, head_id, head, rec.ts, counts)
                return rec
        except (OSError, sqlite3.Error, ValueError) as exc:
            msg = f"链头账本写入失败 / head ledger not written ({self.ledger.path}): {exc}"
            log.error("%s", msg)
            self.errors.append(msg)
            return None

    def _receipt_counts(self, episode: str, head_id: int) -> tuple[int, int, str]:
        conn = self._conn()
        n, first = conn.execute(
            "SELECT COUNT(*), MIN(id) FROM asrun_events WHERE episode=? AND id<=?", (episode, head_id)
        ).fetchone()
        air = conn.execute("SELECT air_date FROM asrun_episodes WHERE episode=?", (episode,)).fetchone()
        return int(n), int(first or 0), str(air[0]) if air else ""

    def write_receipt(
        self, episode: str, head_id: int, head: str, ts: float, counts: tuple[int, int, str]
    ) -> Path:
        n, first, air_date = counts
        key = self.ledger.key
        body: dict[str, Any] = {
            "format": RECEIPT_FORMAT,
            "episode": episode,
            "air_date": air_date,
            "database": self.database.name,
            "head_id": head_id,
            "head": head,
            "rows": head_id,
            "episode_rows": n,
            "first_id": first,
            "time": ts,
            "time_text": time_text(ts),
            "public_key": key.public.b64,
            "fingerprint": key.public.fingerprint,
        }
        receipt = sign_receipt(body, key.sign)
        path = receipt_path(self.database, episode)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(receipt, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path
