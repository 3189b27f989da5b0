"""The 胜率 play-outs spread over worker processes (``python -m engine winprob``, the studio's
evaluator, ``benchmarks/winprob.py``): the only engine module that starts processes.

A :class:`Pool` keeps ``workers`` processes alive. They start when it is made — forked where the
system can fork, so make the pool before starting threads of your own (a fork copies no other thread,
nor a lock one held), else spawned. Each run sends the position as plain data
(:meth:`engine.winprob.Position.key`) with the chunks each worker is to play, and adds the chunks up
in their order: the figures are the same whatever the number of workers (a chunk's seed is its
index, :mod:`engine.winprob`). :meth:`Pool.cancel` stops the run under way: the workers look at a
shared counter before every play-out, and a run that sees it move returns None.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .game import Game
from .winprob import CHUNK, GAME_OVER, Position, Tally, WinprobError, chunks_for, combine

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
_generation: Any = None  # the shared run counter, in a worker
_positions: dict[str, Position] = {}  # a worker's last positions, by seed


def _init(generation: Any) -> None:
    global _generation
    _generation = generation
    os.environ.setdefault("GOUJI_WINPROB_WORKER", "1")
    _die_with_parent()


def _die_with_parent() -> None:
    """On Linux, have the kernel end this pool process when the process that made the pool dies, however
    it dies (a SIGKILL leaves no time for :meth:`Pool.close`): never an orphan playing out a position
    nobody waits for."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent was already gone before the request took effect
        os._exit(0)


def _run(key: Any, seed: str, jobs: list[tuple[int, int]], gen: int) -> list[Tally] | None:
    """In a worker: play the chunks ``jobs`` of the position ``key``; None once the run is stale."""
    from . import winprob

    pos = _positions.get(seed)
    if pos is None:
        pos = Position.of_key(key)
        if len(_positions) > 8:
            _positions.clear()
        _positions[seed] = pos
    out: list[Tally] = []
    for k, n in jobs:
        if _generation is not None and _generation.value != gen:
            return None
        out.append(winprob.chunk(pos, k, n, stop=_stale(gen)))
    return out


def _stale(gen: int) -> Any:
    def stop() -> bool:
        return _generation is not None and _generation.value != gen

    return stop


class Pool:
    """``workers`` evaluator processes. ``evaluate(game, playouts)`` blocks until the estimate is
    ready (or the run is cancelled by :meth:`cancel` from another thread: then None)."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = max(1, workers)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._generation = ctx.Value("q", 0, lock=False)
        self._exec = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=ctx, initializer=_init, initargs=(self._generation,)
        )
        self.warm_up()

    def warm_up(self) -> None:
        """Have every process started and ready (a fork starts them all at the first task)."""
        futures = [self._exec.submit(os.getpid) for _ in range(self.workers)]
        for f in futures:
            f.result()

    def cancel(self) -> None:
        """Stop the run under way (its workers stop before their next play-out)."""
        self._generation.value += 1

    @property
    def generation(self) -> int:
        """The run counter :meth:`cancel` moves on."""
        return int(self._generation.value)

    def evaluate(
        self, game: Game, playouts: int = 1000, generation: int | None = None
    ) -> dict[str, Any] | None:
        """The estimate of ``game``'s position with ``playouts`` play-outs over the workers, or None
        when :meth:`cancel` stopped it (or had already, when ``generation`` — :attr:`generation` read
        when the job was taken — is not the current one)."""
        if game.is_over():
            raise WinprobError(*GAME_OVER)
        t0 = time.perf_counter()
        pos = Position(game)
        gen = self.generation if generation is None else generation
        jobs = chunks_for(playouts)
        shares: list[list[tuple[int, int]]] = [[] for _ in range(self.workers)]
        for i, job in enumerate(jobs):
            shares[i % self.workers].append(job)
        key = pos.key()
        futures: list[Future[list[Tally] | None]] = [
            self._exec.submit(_run, key, pos.seed, share, gen) for share in shares if share
        ]
        tallies: list[Tally] = []
        cancelled = False
        for f in futures:
            got = f.result()
            if got is None:
                cancelled = True
            else:
                tallies += got
        if cancelled or int(self._generation.value) != gen:
            return None
        tallies.sort(key=lambda t: t.index)
        return combine(pos, tallies, time.perf_counter() - t0)

    def close(self) -> None:
        self.cancel()
        self._exec.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["CHUNK", "Pool"]
