"""The evaluator's worker process: ``python -m broadcast.winprob.worker [--workers 2] [--playouts 1000]``,
started by :class:`broadcast.winprob.service.WinprobService` (never by hand).

It reads jobs from stdin, one JSON object a line — the game as the show state describes it
(``rules``, ``leader``, ``seed``, ``hands``, ``counts``, ``record``) with the ``position`` digest it
stands for — and writes each estimate to stdout, one JSON object a line: ``{"position", "estimate",
"seat", "tags"}`` (``engine.winprob``'s figures, and what happened in the record's last decision), or
``{"position", "error"}`` when the record cannot be evaluated. Only the newest job matters: a job
arriving while another runs cancels it (its figures would be of a position already gone). The
play-outs run in the engine's pool of worker processes (``engine.winprob_pool``), made before this
process starts its reader thread. Closing stdin ends the process.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from typing import Any

from broadcast.core import ActionRefused
from broadcast.game.adapter import replay
from engine.winprob import WinprobError, finished, last_moment
from engine.winprob_pool import Pool

MAX_LINE = 4 << 20  # a job is a game: a few kilobytes
NICE = 10  # the worker and its pool yield the processors to the studio when both want them


class Jobs:
    """The newest job, handed from the reader thread to the main loop (older ones are dropped)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.cond = threading.Condition()
        self.latest: dict[str, Any] | None = None
        self.running = False
        self.generation = 0  # the pool's run counter when the job was taken
        self.closed = False

    def offer(self, job: dict[str, Any]) -> None:
        with self.cond:
            self.latest = job
            if self.running:
                self.pool.cancel()  # a newer decision: the run under way is of a position gone
            self.cond.notify()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            if self.running:
                self.pool.cancel()
            self.cond.notify()

    def take(self) -> dict[str, Any] | None:
        with self.cond:
            while self.latest is None and not self.closed:
                self.cond.wait()
            job, self.latest = self.latest, None
            self.running = job is not None
            self.generation = self.pool.generation
            return job

    def done(self) -> None:
        with self.cond:
            self.running = False


def read(jobs: Jobs) -> None:
    for line in sys.stdin.buffer:
        if len(line) > MAX_LINE:
            continue
        try:
            job = json.loads(line)
        except ValueError:
            continue
        if isinstance(job, dict):
            jobs.offer(job)
    jobs.close()


def evaluate(pool: Pool, job: dict[str, Any], playouts: int, generation: int) -> dict[str, Any] | None:
    """The answer line of one job (None: cancelled)."""
    state = {
        "table": {"rules": job.get("rules", "tv_match")},
        "game": {
            "leader": job.get("leader"),
            "seed": job.get("seed"),
            "hands": list(job.get("hands") or []),
            "counts": list(job.get("counts") or []),
            "record": list(job.get("record") or []),
        },
    }
    out: dict[str, Any] = {"position": job.get("position")}
    try:
        game = replay(state)
        if game.is_over():
            est: dict[str, Any] | None = finished(game, 0.0)
        else:
            est = pool.evaluate(game, int(job.get("playouts") or playouts), generation)
    except (ActionRefused, WinprobError, ValueError) as exc:
        out["error"] = str(exc)
        return out
    if est is None:
        return None
    out["estimate"] = est
    out["seat"], out["tags"] = last_moment(game)
    return out


def _terminated(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m broadcast.winprob.worker")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--playouts", type=int, default=1000)
    a = p.parse_args(argv)
    try:  # the studio's own work (the operator's typing, the pages, OBS) comes first
        os.nice(NICE)
    except OSError:
        pass
    try:  # and the play-outs run only on processor time the studio leaves (SCHED_IDLE): any of the
        # studio's or the pages' threads that wakes takes the processor at once, where a SCHED_BATCH
        # play-out kept it to the end of its slice (issue 25: typing never slowed); on an idle
        # processor they run at full speed, as before (the pool's processes inherit both)
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux
        pass
    signal.signal(signal.SIGTERM, _terminated)  # a polite end closes the pool (finally, below)
    pool = Pool(max(1, min(a.workers, 16)))  # forked now, before the reader thread exists
    jobs = Jobs(pool)
    threading.Thread(target=read, args=(jobs,), name="winprob-jobs", daemon=True).start()
    try:
        while True:
            job = jobs.take()
            if job is None:
                return 0
            try:
                answer = evaluate(pool, job, max(1, min(a.playouts, 100_000)), jobs.generation)
            finally:
                jobs.done()
            if answer is not None:
                sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
                sys.stdout.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    finally:
        pool.close()


if __name__ == "__main__":
    raise SystemExit(main())
