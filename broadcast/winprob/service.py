"""The studio's 胜率 evaluator: after every decision, the new figures from a worker process.

    service = WinprobService(store)        # workers=2, playouts=1000
    service.start()                        # the worker process, a listener on the store
    …
    service.stop()

The evaluation never runs in the studio's process: not on the Qt thread, not on the thread that
dispatched the decision. The store's listener only notes the newest position (a dict of plain data
and its digest) and wakes the sender thread, which writes it to the worker's stdin; a position newer
than the one being evaluated cancels that run in the worker (:mod:`broadcast.winprob.worker`). The
reader thread takes each answer from the worker's stdout and dispatches ``winprob.estimate`` — which
the store refuses if the record moved on meanwhile (then the newer position is already on its way).
If the worker dies it is started again (at most every few seconds) and given the newest position.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from broadcast.core import ActionRefused
from broadcast.core.store import Change
from broadcast.winprob.actions import position_key

log = logging.getLogger(__name__)

RESTART_S = 3.0  # the least time between two starts of the worker


def figures(est: dict[str, Any]) -> dict[str, Any]:
    """The engine's estimate (``engine.winprob``) as the state keeps it (``winprob.current``)."""
    out: dict[str, Any] = {
        "odd": float(est["win"]["odd"]),
        "even": float(est["win"]["even"]),
        "level": float(est["level"]),
        "points_odd": float(est["points"]["odd"]),
        "points_even": float(est["points"]["even"]),
        "playouts": int(est["playouts"]),
        "hands": str(est["hands"]),
        "seconds": float(est["seconds"]),
    }
    seats = []
    for key, seat in sorted((est.get("seats") or {}).items(), key=lambda kv: int(kv[0])):
        title = str(seat.get("title") or "")
        dist = seat.get("titles") or {}
        points = seat.get("points")
        seats.append(
            {
                "seat": int(key),
                "title": title,
                "chance": float(dist.get(title, 0.0)) if title else 0.0,
                "place": min(6.0, max(1.0, float(seat.get("place") or 1.0))),
                "points": None if points is None else float(points),
            }
        )
    out["seats"] = seats
    ci = est.get("ci")
    if ci:
        out["odd_ci"] = [float(x) for x in ci["win"]["odd"]]
        out["even_ci"] = [float(x) for x in ci["win"]["even"]]
    return out


def job_of(state: dict[str, Any], playouts: int) -> dict[str, Any] | None:
    """The worker's job for the record's current position, or None when there is nothing to evaluate
    (no game dealt, the evaluator switched off)."""
    g = state["game"]
    if g["leader"] is None or not state["winprob"]["on"]:
        return None
    return {
        "position": position_key(state),
        "rules": state["table"]["rules"],
        "leader": g["leader"],
        "seed": g["seed"],
        "hands": list(g["hands"]),
        "counts": list(g["counts"]),
        "record": list(g["record"]),
        "playouts": playouts,
    }


class WinprobService:
    """The worker process and the three small jobs around it (note, send, read)."""

    def __init__(
        self,
        store: Any,
        *,
        workers: int = 2,
        playouts: int = 1000,
        python: str = sys.executable,
        on_answer: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.store = store
        self.workers = workers
        self.playouts = playouts
        self.python = python
        self.on_answer = on_answer  # tests and the benchmark: every answer, applied or not
        self._cond = threading.Condition()
        self._want: dict[str, Any] | None = None  # the newest position, not yet sent
        self._sent = ""  # the digest of the last position sent
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopping = False
        self._threads: list[threading.Thread] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._started_at = 0.0
        self.answers = 0  # estimates applied
        self.errors: list[str] = []

    # -- life ----------------------------------------------------------------------------------
    def start(self) -> None:
        self._spawn()
        self._unsubscribe = self.store.subscribe(self._listener, name="winprob")
        sender = threading.Thread(target=self._send_loop, name="winprob-send", daemon=True)
        sender.start()
        self._threads.append(sender)
        self.note(self.store.state)

    def stop(self, timeout: float = 10.0) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        proc = self._proc
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()  # the worker ends at the end of its input
            except OSError:
                pass
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:  # the worker and its pool: its session, all at once
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout)
        for t in self._threads:
            t.join(timeout)
        self._threads.clear()

    def __enter__(self) -> WinprobService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _spawn(self) -> None:
        self._started_at = time.monotonic()
        env = dict(os.environ)
        self._proc = subprocess.Popen(
            [
                self.python,
                "-m",
                "broadcast.winprob.worker",
                "--workers",
                str(self.workers),
                "--playouts",
                str(self.playouts),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own group: a Ctrl-C at the studio's terminal is the studio's
        )
        reader = threading.Thread(
            target=self._read_loop, args=(self._proc,), name="winprob-read", daemon=True
        )
        reader.start()
        self._threads = [t for t in self._threads if t.is_alive()] + [reader]

    # -- the store's side: note the newest position (quick: no evaluation here) -----------------------
    def _listener(self, change: Change) -> None:
        if change.type == "winprob.estimate" or not ({"game", "table", "winprob"} & change.changed):
            return
        self.note(change.state)

    def note(self, state: dict[str, Any]) -> None:
        """Have the position of ``state`` evaluated (the newest one wins)."""
        job = job_of(state, self.playouts)
        if job is None:
            return
        with self._cond:
            if job["position"] == self._sent and self._want is None:
                return
            self._want = job
            self._cond.notify_all()

    # -- the worker's side -----------------------------------------------------------------------
    def _send_loop(self) -> None:
        while True:
            with self._cond:
                while self._want is None and not self._stopping:
                    self._cond.wait()
                job, self._want = self._want, None
                if self._stopping or job is None:
                    return
            proc = self._proc
            if proc is None or proc.poll() is not None:
                self._restart(job)
                continue
            try:
                assert proc.stdin is not None
                proc.stdin.write(json.dumps(job, ensure_ascii=False).encode() + b"\n")
                proc.stdin.flush()
                self._sent = job["position"]
            except (OSError, ValueError):
                self._restart(job)

    def _restart(self, job: dict[str, Any]) -> None:
        """The worker is gone: start it again (not more often than every RESTART_S) and resend."""
        wait = RESTART_S - (time.monotonic() - self._started_at)
        with self._cond:
            if wait > 0 and self._cond.wait_for(lambda: self._stopping, wait):
                return
            if self._stopping:
                return
            if self._want is None:
                self._want = job
        log.warning("winprob: the evaluator's worker ended; starting it again")
        self._spawn()

    def _read_loop(self, proc: subprocess.Popen[bytes]) -> None:
        out: IO[bytes] | None = proc.stdout
        if out is None:
            return
        for line in out:
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if not isinstance(answer, dict):
                continue
            if self.on_answer is not None:
                self.on_answer(answer)
            self._apply(answer)
        with self._cond:
            if self._stopping:
                return
            self._sent = ""
        self.note(self.store.state)  # the worker ended: the sender starts another with the newest position

    def _apply(self, answer: dict[str, Any]) -> None:
        if "error" in answer:
            self.errors.append(str(answer["error"]))
            return
        try:
            payload = {
                "position": answer.get("position"),
                "estimate": figures(answer["estimate"]),
                "seat": int(answer.get("seat", 0)),
                "tags": [str(t) for t in answer.get("tags", [])],
            }
            self.store.dispatch("winprob.estimate", payload, source="winprob")
            self.answers += 1
        except ActionRefused:
            pass  # of a position gone when it came: the newer one is already on its way
        except Exception as exc:  # noqa: BLE001 - an answer that cannot be applied never stops the show
            log.exception("winprob: answer not applied")
            self.errors.append(str(exc))
