"""A real, throwaway PostgreSQL server (Debian's) for the tests and the benchmarks: ``initdb`` and
``pg_ctl`` in a temporary directory on a free port, run as the ``postgres`` user when we are root (the
server refuses to run as root), stopped and removed at the end. Never a mock.

    with TempPostgres() as pg:
        url = pg.create_database("t1")          # postgresql://postgres@127.0.0.1:PORT/t1
        pg.drop_database("t1")
        pg.kill()                                # kill -9 of the server and its backends
        pg.start()                               # crash recovery, same port and data
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Self


def bindir() -> Path | None:
    """Debian's PostgreSQL binaries (the newest installed version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory_dir() -> str | None:
    """A RAM-backed folder for a test server's data (``/dev/shm``), or None where there is none."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None


PASSWORD_ROLE = "gouji_pw"  # the one role a server of these tests asks a password of (the others: trust)


class TempPostgres:
    """``in_memory``: the data directory in ``/dev/shm`` (the tests': a session creates a database per
    test, some hundred thousand files, which a loaded disk took minutes to remove at the end — inside
    the last test's time limit); the benchmarks keep theirs on disk, as a real server's."""

    def __init__(
        self, *, settings: dict[str, str] | None = None, in_memory: bool = True, root: Path | None = None
    ) -> None:
        """``root``: a folder of one's own for the server (a benchmark's kept season): its data used again
        when it holds a server already, and left in place by :meth:`stop` (:meth:`close` removes it)."""
        bins = bindir()
        if bins is None:
            raise RuntimeError("PostgreSQL is not installed (scripts/setup.sh installs Debian's postgresql)")
        self.bin = bins
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)
            self.root = root
        else:
            self.root = Path(tempfile.mkdtemp(prefix="gouji-pg-", dir=memory_dir() if in_memory else None))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.settings = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.root),
            "fsync": "off",  # a killed server loses nothing the OS has (the tests kill processes, not the OS)
            "full_page_writes": "off",
            "max_connections": "60",
            "shared_buffers": "64MB",
            **(settings or {}),
        }
        self._user: Any = None
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self.kept = (self.data / "PG_VERSION").exists()  # a kept server's data, started again
        if not self.kept:
            init = ["-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]
            self._run("initdb", *init, "--no-sync")  # a throwaway server: nothing to sync to disk
            # one role whose password is checked (the refused password's test); every other role: trust
            hba = self.data / "pg_hba.conf"
            hba.write_text(f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / tool), *args]
        if self._user is not None:
            cmd = [
                "setpriv",
                f"--reuid={self._user.pw_uid}",
                f"--regid={self._user.pw_gid}",
                "--clear-groups",
                *cmd,
            ]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120, cwd=self.root)

    @property
    def url(self) -> str:
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        opts = " ".join(f"-c {k}={v}" for k, v in self.settings.items())
        done = self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            f"-p {self.port} {opts}",
            "-w",
            "-t",
            "120",
            "start",
            check=False,
        )
        if done.returncode:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {done.stdout}{done.stderr}\n{tail}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill(self) -> None:
        """kill -9 of the server and every process it started (as a crash would), then wait until they
        are gone (the next start does crash recovery)."""
        pid = self.postmaster_pid()
        if pid is None:
            return
        try:  # stopped first: a backend it forked while its children were listed would outlive it
            os.kill(pid, signal.SIGSTOP)
        except ProcessLookupError:
            pass
        victims = [pid, *_children(pid)]
        for p in victims:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 30
        while any(_alive(p) for p in victims) and time.monotonic() < deadline:
            time.sleep(0.05)
        # a killed server leaves its lock file; its PID may linger as a zombie (a container's PID 1 need
        # not reap), which the next start would take for a running server
        (self.data / "postmaster.pid").unlink(missing_ok=True)
        for lock in self.root.glob(".s.PGSQL.*.lock"):
            lock.unlink(missing_ok=True)

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url_of(database), autocommit=True) as conn:
            conn.execute(statement.encode())

    def create_database(self, name: str, *, template: str = "template0") -> str:
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url_of(name)

    def drop_database(self, name: str) -> None:
        """Drop a database, its leftover connections ended (a test's database, at its end)."""
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        self.kill()
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _children(pid: int) -> list[int]:
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.split("/")[2]))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
