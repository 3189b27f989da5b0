"""Is a silent OBS frozen, or only starved of CPU by a loaded machine?

A frozen OBS (SIGSTOP, a hung process) and a busy one look alike on the socket for a while: neither
answers. Declaring the busy one frozen is a false outage — the as-run log then credits nothing for an
interval that did air — so silence alone decides only up to ``freeze_after``; past it the verdict asks
what can be seen of OBS:

* **the OBS process**, when OBS listens on this machine (it does: the bridge hands it file paths): its
  state in ``/proc`` (stopped by a signal, a zombie, gone → frozen at once) and its CPU time (it moved
  during the silence → it is working, only starved: not frozen before ``freeze_max``; it did not move →
  frozen);
* otherwise **the answers' own times**: a link whose pings have lately come back late gets that much
  more time (three times the slowest answer of the last ten seconds, between ``freeze_after`` and
  ``freeze_max``).

A bridge whose own thread was starved (it woke up long after it meant to) looks again before judging:
the answers may be waiting, unread, in its sockets. :class:`FreezeJudge` is pure (time and the process
are passed in) and unit-tested; :class:`LocalProcess` reads ``/proc``.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

STOPPED_STATES = frozenset("TtZXx")  # stopped (signal), traced, zombie, dead
RTT_WINDOW = 10.0  # seconds of answer times remembered
RTT_FACTOR = 3.0  # a remote link gets this many times its slowest recent answer
SETTLE = 0.3  # seconds of CPU-time watching before "no CPU at all" counts
LOOPBACK = ("127.0.0.1", "localhost", "::1", "0.0.0.0", "")


@dataclass(frozen=True)
class ProcessSample:
    state: str  # /proc/PID/stat's state letter; "X" once the process is gone
    cpu: int  # utime + stime, in clock ticks


class ProcessProbe(Protocol):
    def sample(self) -> ProcessSample | None: ...


class LocalProcess:
    """The process that listens on a loopback TCP port (Linux ``/proc``); ``None`` from :meth:`find`
    when OBS is elsewhere or the process cannot be read."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    @classmethod
    def find(cls, host: str, port: int) -> LocalProcess | None:
        if host not in LOOPBACK or not Path("/proc/net/tcp").exists():
            return None
        inodes = _listening_inodes(port)
        if not inodes:
            return None
        wanted = {f"socket:[{i}]" for i in inodes}
        me = os.getpid()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            try:
                for fd in (entry / "fd").iterdir():
                    if os.readlink(fd) in wanted:
                        return cls(int(entry.name))
            except OSError:  # another user's process, or it just ended
                continue
        return None

    def sample(self) -> ProcessSample | None:
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except FileNotFoundError:
            return ProcessSample("X", 0)
        except OSError:
            return None
        fields = stat.rsplit(")", 1)[-1].split()
        try:
            return ProcessSample(fields[0], int(fields[11]) + int(fields[12]))
        except (IndexError, ValueError):
            return None


def _listening_inodes(port: int) -> set[str]:
    out: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                out.add(parts[9])
    return out


class FreezeJudge:
    """The freeze verdict for one link. Call :meth:`answered` with each ping's round trip and
    :meth:`frozen` with how long OBS has been silent."""

    def __init__(self, freeze_after: float, freeze_max: float, process: ProcessProbe | None = None) -> None:
        self.freeze_after = freeze_after
        self.freeze_max = max(freeze_max, freeze_after)
        self.process = process
        self._rtts: deque[tuple[float, float]] = deque()
        self._base: tuple[float, int] | None = None  # (when, CPU time) at the start of this silence
        self.reason = ""  # why the last verdict was "frozen" (for the log and the outage's detail)

    def answered(self, now: float, rtt: float) -> None:
        self._rtts.append((now, rtt))
        while self._rtts and self._rtts[0][0] < now - RTT_WINDOW:
            self._rtts.popleft()

    def patience(self) -> float:
        """How long a link without a process to look at may stay silent."""
        slowest = max((r for _t, r in self._rtts), default=0.0)
        return min(self.freeze_max, max(self.freeze_after, RTT_FACTOR * slowest))

    def frozen(self, quiet: float, now: float, *, lag: float = 0.0) -> bool:
        """``quiet``: seconds since OBS's last message; ``lag``: how late the caller's own loop woke."""
        if quiet < self.freeze_after / 2:
            self._base = None
            return False
        sample = self.process.sample() if self.process is not None else None
        if sample is not None and self._base is None:
            self._base = (now, sample.cpu)
        if quiet < self.freeze_after or lag > self.freeze_after / 2:
            return False  # not yet; or we were starved ourselves: read what came meanwhile first
        if quiet >= self.freeze_max:
            self.reason = f"silent {quiet:.1f}s"
            return True
        if sample is not None:
            if sample.state in STOPPED_STATES:
                self.reason = f"process state {sample.state} (stopped or gone)"
                return True
            base_t, base_cpu = self._base or (now, sample.cpu)
            if sample.cpu > base_cpu:
                return False  # working, only starved of CPU: not a freeze (yet)
            if now - base_t < SETTLE:
                return False
            self.reason = f"no CPU time for {now - base_t:.1f}s"
            return True
        if quiet >= self.patience():
            self.reason = f"silent {quiet:.1f}s (answers lately up to {self.patience() / RTT_FACTOR:.2f}s)"
            return True
        return False
