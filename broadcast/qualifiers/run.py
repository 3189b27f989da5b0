"""An import on Dask distributed: the sources cut into shards here, the records checked by the workers.

The driver (this process) reads the sources in runs of whole JSON lines (or GJN records one at a time),
takes each record's identity, drops what the database has seen (and repeats within the run), and hands
the workers shards of about :data:`BATCH` records (``check.check_shard``): a JSON-lines export's shard is
a byte range the worker reads from the file itself (checked against the digest of what the driver read)
where the workers see the same files — a LocalCluster, or ``shared_files`` — and its bytes otherwise.
A shard comes back as the identities counted, the refusals and one packed row a player; finished
shards are merged (one addition a player) and committed together at a checkpoint
(``store.QualifierDB.commit_totals``: one UPSERT a player). At most ``window`` shards are in flight, so
memory does not grow with the sources. A LocalCluster of ``workers`` processes is started on this
machine unless ``scheduler`` names a running cluster's scheduler (``tcp://HOST:8786``): the same code
either way. Killed at any point, the same command continues: what was committed is recognised and
skipped, what was not is read and checked again.
"""

from __future__ import annotations

import importlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from . import records
from .check import Checked, Item, Refused, Shard, check_shard, digest
from .store import QualifierDB, QualifierError, Totals

#: records a task (a shard) at most: about 2 s of a worker's engine, few enough tasks for the scheduler
BATCH = 2000
#: a shard of GJN records read here is also closed at this many bytes (what one task carries)
BATCH_BYTES = 4 << 20
#: finished shards are committed together this often (seconds), or at this many records
CHECKPOINT_SECONDS = 60.0
CHECKPOINT_RECORDS = 200_000


@dataclass
class Summary:
    read: int = 0
    counted: int = 0
    refused: int = 0
    skipped: int = 0  # read before (this or an earlier import) or twice in this one
    errors: list[str] = field(default_factory=list)  # sources that could not be read (to the end)
    seconds: float = 0.0
    workers: int = 0
    refused_rows: list[Refused] = field(default_factory=list)  # the first ones, for the listing

    @property
    def rate(self) -> float:
        return (self.counted + self.refused) / self.seconds if self.seconds > 0 else 0.0


class Bar:
    """The progress bar on stderr: the share of the sources' bytes read, records and records/s."""

    def __init__(
        self, meter: records.Meter, stream: TextIO | None = None, enabled: bool | None = None
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(self.stream.isatty()) if enabled is None else enabled
        self.meter = meter
        self.t0 = time.monotonic()
        self._last = 0.0

    def line(self, s: Summary) -> str:
        total = self.meter.total or 1
        frac = min(self.meter.poll() / total, 1.0)
        filled = int(frac * 24)
        secs = max(time.monotonic() - self.t0, 1e-9)
        done = s.counted + s.refused
        rate = done / secs
        return (
            f"海选导入 {'█' * filled}{'░' * (24 - filled)} {frac * 100:5.1f}% "
            f"{s.read:,} 条 records · {rate:,.0f} 条/s records/s · 计入 counted {s.counted:,} · "
            f"拒绝 refused {s.refused:,} · 已有 skipped {s.skipped:,}"
        )

    def update(self, s: Summary, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < 0.25):
            return
        self._last = now
        self.stream.write("\r" + self.line(s) + "\x1b[K")
        self.stream.flush()

    def close(self, s: Summary) -> None:
        if self.enabled:
            self.update(s, force=True)
            self.stream.write("\n")
            self.stream.flush()


#: a cluster without the watching a long CPU-bound import does not need, which costs CPU all along
#: (measured: an idle 2-worker LocalCluster took 5 % of a core in this process and 2.5 % in each worker):
#: the workers' statistical profiler (a stack sample every 10 ms), the event loops' health check every
#: 20 ms, the nannies' memory check every 100 ms, the system monitor every 0.5 s with its disk counters
#: and the GIL poll, the scheduler's work stealing (the import hands out the shards itself), and the
#: LocalCluster's notebook widget refresh every 0.5 s
LEAN: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.tick.limit": "30s",
    "distributed.worker.memory.monitor-interval": "2s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.disk": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.scheduler.work-stealing": False,
    "distributed.deploy.cluster-repr-interval": "60s",
}


@contextmanager
def dask_client(scheduler: str | None, workers: int) -> Iterator[Any]:
    """A Dask client: of a LocalCluster of ``workers`` processes (one thread each) on this machine, or of
    the cluster whose scheduler is at ``scheduler``. Closed (and the LocalCluster stopped) at the end."""
    dd: Any = importlib.import_module("dask.distributed")  # untyped: held as Any
    dask: Any = importlib.import_module("dask")
    quiet = logging.CRITICAL
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(quiet)
    cluster = None
    if scheduler:
        try:
            client = dd.Client(scheduler, timeout="30s")
        except (OSError, TimeoutError) as e:
            raise QualifierError(
                "scheduler",
                f"连不上 Dask 调度器 {scheduler}（{e}）：先在集群上启动 dask scheduler 和 dask worker",
                f"cannot reach the Dask scheduler at {scheduler} ({e}): start dask scheduler and dask "
                "worker on the cluster first",
                where=scheduler,
            ) from None
    else:
        with dask.config.set(LEAN):  # the nannies hand the configuration to their workers
            cluster = dd.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # this machine only
                dashboard_address="127.0.0.1:0",  # no fixed port (another cluster may hold 8787)
                silence_logs=quiet,
            )
        client = dd.Client(cluster)
    try:
        yield client
    finally:
        with suppress(Exception):
            client.close()
        if cluster is not None:
            with suppress(Exception):
                cluster.close()


async def _warm() -> bool:
    """Run on every worker as the import starts: the engine and the checks loaded before the first shard
    arrives (meanwhile the command reads its first run), not in the first shard's time. A coroutine: Dask
    runs only those without waiting for their answer."""
    importlib.import_module("broadcast.qualifiers.check")
    return True


def worker_threads(client: Any) -> int:
    return max(int(sum(client.nthreads().values())), 1)


class Interrupts:
    """Ctrl-C (SIGINT) raised only where it leaves the import's objects whole: inside :meth:`held` it
    waits and is raised as the block ends. Dask's objects are not made to be cut in half: a Ctrl-C in
    the middle of ``client.submit`` left a Future without its ``_cleared``, whose ``__del__`` printed a
    traceback. Waiting (for a batch, for the next record) stays interruptible at once.

    ``with interrupts.installed():`` puts the handler in place in the main thread (elsewhere no signal
    arrives, and a program's own SIGINT handler is left alone)."""

    def __init__(self) -> None:
        self._held = 0
        self._pending = False
        self.fired = False  # a Ctrl-C came (kept: one raised inside a ``__del__`` is lost there)

    @contextmanager
    def installed(self) -> Iterator[None]:
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield
            return
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    @property
    def waiting(self) -> bool:
        """A Ctrl-C came inside a held block and waits for it to end."""
        return self._pending

    def check(self) -> None:
        """At a point where the import's objects are whole: a Ctrl-C that came is raised (again). Python
        drops an exception raised inside a ``__del__`` or a callback Dask runs and logs — a Ctrl-C
        landing in a Future's ``__del__`` printed its traceback and the import ran on to exit 0."""
        if self.fired and not self._held:
            raise KeyboardInterrupt

    def _on_sigint(self, _signum: int, _frame: FrameType | None) -> None:
        self.fired = True
        if self._held:
            self._pending = True  # raised when the block that holds it ends
            return
        raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
        if self._pending and not self._held:
            self._pending = False
            raise KeyboardInterrupt


class _Checkpoint:
    """What finished since the last commit: committed together, in one transaction."""

    def __init__(self) -> None:
        self.counted: list[bytes] = []
        self.refused: list[Refused] = []
        self.totals = Totals()
        self.keys: list[bytes] = []
        self.skipped = 0
        self.records = 0
        self.since = time.monotonic()


class Importer:
    """One import: ``Importer(qdb, client, rules=…).run(paths)`` → :class:`Summary`.

    Finished shards are committed together at a checkpoint — every ``checkpoint`` seconds or
    :data:`CHECKPOINT_RECORDS` records, and at the end — in one transaction (the players' sums of many
    shards merged first: one UPSERT a player). A kill loses at most the work since the last checkpoint,
    which the same command does again; ``checkpoint=0`` commits every shard. ``shared_files``: the
    workers read a JSON-lines export's shards from the file themselves (they see it at the same path:
    always so on a LocalCluster); otherwise the shards' bytes are sent to them.
    """

    def __init__(
        self,
        qdb: QualifierDB,
        client: Any,
        *,
        rules: str = "tv_match",
        batch: int = BATCH,
        checkpoint: float = CHECKPOINT_SECONDS,
        bar: Callable[[records.Meter], Bar] | None = None,
        keep_refusals: int = 20,
        shared_files: bool = True,
    ) -> None:
        self.qdb = qdb
        self.client = client
        self.rules = rules
        self.batch = max(1, batch)
        self.checkpoint = max(0.0, checkpoint)
        self.make_bar = bar or Bar
        self.keep = keep_refusals
        self.shared_files = shared_files
        self.summary = Summary()
        self._cp = _Checkpoint()
        self._inflight: set[bytes] = set()
        self._import_id = 0
        self.interrupts = Interrupts()

    def run(self, paths: Sequence[Path]) -> Summary:
        """Import ``paths``. Ctrl-C: what finished is committed, the shards in flight are cancelled
        (their futures released while the client is open), and ``KeyboardInterrupt`` goes on up."""
        with self.interrupts.installed():
            return self._run(paths)

    def _fresh(self, keys: list[bytes]) -> list[bool]:
        """Which of ``keys`` are to be checked: neither in the database nor read before in this run
        (in flight, or earlier in ``keys``); those are in flight from now on."""
        known = self.qdb.seen(keys)
        inflight = self._inflight
        out = []
        for k in keys:
            new = k not in known and k not in inflight
            if new:
                inflight.add(k)
            out.append(new)
        return out

    def _run(self, paths: Sequence[Path]) -> Summary:
        dd: Any = importlib.import_module("dask.distributed")
        held = self.interrupts.held
        s = self.summary
        s.workers = worker_threads(self.client)
        self.client.run(_warm, wait=False)
        window = 2 * s.workers + 1
        meter = records.Meter()
        meter.total = records.total_size(list(paths))
        bar = self.make_bar(meter)
        self._import_id = self.qdb.start_import(str(p) for p in paths)
        pending: dict[Any, tuple[list[bytes], list[Refused], int]] = {}
        done = dd.as_completed()
        t0 = time.monotonic()

        def finished(fut: Any) -> None:
            self.interrupts.check()
            with held():  # the shard is taken and added whole, or not at all
                keys, early, skipped = pending.pop(fut)
                try:
                    checked: Checked = fut.result()
                except Exception as e:  # noqa: BLE001 - a lost worker, a task that could not run
                    raise QualifierError(
                        "worker",
                        f"Dask 工作进程出错（{type(e).__name__}: {e}）；再运行同一命令会从中断处继续",
                        f"a Dask worker failed ({type(e).__name__}: {e}); run the same command again to "
                        "continue where it stopped",
                    ) from None
                if checked.error is not None:  # nothing of it counted; its records stay unread
                    where, zh, en = checked.error
                    s.errors.append(str(records.SourceError(zh, en, where=where)))
                    self._add(Checked(), [], 0, keys)
                    return
                self._add(checked, early, skipped, keys)

        def submit(shard: Shard | None, fresh: list[bytes], early: list[Refused], skipped: int) -> None:
            if shard is None:  # nothing left to check in it
                with held():
                    self._add(Checked(), early, skipped, fresh)
                return
            self.interrupts.check()
            while len(pending) >= window:
                finished(next(done))
                bar.update(s)
            with held():  # a Future made whole and known to the import, or not made at all
                fut = self.client.submit(check_shard, shard, self.rules, pure=False)
                pending[fut] = (fresh, early, skipped)
                done.add(fut)

        def ship(buf: list[records.Raw]) -> None:
            """GJN records read here (and refusals of records that could not be read)."""
            fresh_of = self._fresh([r.key for r in buf])
            items: list[Item] = []
            early: list[Refused] = []
            fresh: list[bytes] = []
            for r, new in zip(buf, fresh_of, strict=True):
                if not new:
                    continue
                fresh.append(r.key)
                if r.refusal is not None:
                    f = r.refusal
                    early.append(Refused(r.key, r.where, f.rule, f.zh, f.en, f.move, f.line, f.seat))
                else:
                    items.append((r.key, r.where, r.kind, r.text))
            skipped = len(buf) - len(fresh)
            submit(Shard(items=items) if items else None, fresh, early, skipped)

        def ship_lines(run: records.Lines) -> None:
            """A run of JSON lines, in shards of at most ``batch`` lines."""
            body, lines = run.body, run.lines
            view = memoryview(body)
            for i0, i1, a, b in records.cuts(run, self.batch):
                keys: list[bytes] = []
                at: list[int] = []
                early_raw: dict[int, records.Raw] = {}
                for i in range(i0, i1):
                    line = lines[i]
                    if len(line) > records.LINE_MAX:
                        r = records.line_too_long(f"{run.source}:{run.first_line + i}")
                        early_raw[i - i0] = r
                        keys.append(r.key)
                    else:
                        text = records.line_text(line)
                        if text is None:
                            continue
                        keys.append(records.line_key(text))
                    at.append(i - i0)
                s.read += len(keys)
                skip = set(early_raw)
                fresh: list[bytes] = []
                early: list[Refused] = []
                for key, j, new in zip(keys, at, self._fresh(keys), strict=True):
                    if not new:
                        skip.add(j)
                        continue
                    fresh.append(key)
                    too_long = early_raw.get(j)
                    if too_long is not None and too_long.refusal is not None:
                        f = too_long.refusal
                        early.append(Refused(key, too_long.where, f.rule, f.zh, f.en, f.move, f.line, f.seat))
                skipped = len(keys) - len(fresh)
                if len(skip) == len(at):
                    submit(None, fresh, early, skipped)
                else:
                    shard = Shard(run.source, run.first_line + i0, skip=frozenset(skip))
                    if run.path is not None and self.shared_files:
                        shard.path, shard.start, shard.end = run.path, run.start + a, run.start + b
                        shard.digest = digest(view[a:b])
                    else:
                        shard.data = body[a:b]
                    submit(shard, fresh, early, skipped)
                bar.update(s)

        buf: list[records.Raw] = []
        size = 0
        try:
            for path in paths:
                try:
                    for unit in records.units(path, meter):
                        if isinstance(unit, records.Lines):
                            ship_lines(unit)
                            continue
                        s.read += 1
                        buf.append(unit)
                        size += len(unit.text)
                        if len(buf) >= self.batch or size >= BATCH_BYTES:
                            ship(buf)
                            buf, size = [], 0
                            bar.update(s)
                except records.SourceError as e:
                    s.errors.append(str(e))
            if buf:
                ship(buf)
            for fut in done:
                finished(fut)
                bar.update(s)
            self.interrupts.check()  # a Ctrl-C lost in Dask's code as the last shard came: not a finish
        except KeyboardInterrupt:  # Ctrl-C: what finished is kept; the same command goes on from there
            with held():  # a second Ctrl-C waits for this
                if pending:
                    with suppress(Exception):  # a scheduler already gone has nothing left to cancel
                        self.client.cancel(list(pending))
                pending.clear()
                done.clear()
                self._commit()
            bar.close(s)
            raise
        self._commit()
        self.qdb.finish_import(self._import_id)
        s.seconds = time.monotonic() - t0
        bar.close(s)
        return s

    def _add(self, checked: Checked, early: list[Refused], skipped: int, keys: list[bytes]) -> None:
        """A finished shard joins the checkpoint (committed now if the checkpoint is due)."""
        cp = self._cp
        cp.counted.extend(checked.counted)
        cp.refused.extend(checked.refused)
        cp.refused.extend(early)
        cp.totals.add(checked)
        cp.skipped += skipped
        cp.keys.extend(keys)
        cp.records += len(checked.counted) + len(checked.refused) + len(early)
        s = self.summary
        s.counted += len(checked.counted)
        s.refused += len(checked.refused) + len(early)
        s.skipped += skipped
        room = self.keep - len(s.refused_rows)
        if room > 0:
            s.refused_rows.extend([*checked.refused, *early][:room])
        if cp.records >= CHECKPOINT_RECORDS or time.monotonic() - cp.since >= self.checkpoint:
            self._commit()

    def _commit(self) -> None:
        cp = self._cp
        if cp.counted or cp.refused or cp.skipped:
            self.qdb.commit_totals(self._import_id, cp.counted, cp.refused, cp.totals, cp.skipped)
        self._inflight.difference_update(cp.keys)
        self._cp = _Checkpoint()
