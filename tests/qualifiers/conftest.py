"""Fixtures of the qualifiers tests: a real Dask LocalCluster in its own process, synthetic records
(engine self-play, some made illegal) and an independent oracle of the totals they should give."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from broadcast.qualifiers import synthetic
from engine import gjn

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
# docs/rules.md G11.1: 头科 7, 二科 5, 三科 4, 四科 3, 二落 2, 大落 1; 圈三: the winners' 32 shared 14/10/8
TITLE_POINTS = {"头科": 7, "二科": 5, "三科": 4, "四科": 3, "二落": 2, "大落": 1}
QUAN_SAN_SHARES = {"头科": 14, "二科": 10, "三科": 8}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The scheduler address of a LocalCluster of 2 worker processes, started for the module that asks for
    it and stopped after it (not held through the rest of the session)."""
    errors = tmp_path_factory.mktemp("cluster") / "stderr.txt"  # Dask's own words, if it does not start
    with open(errors, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [PY, str(Path(__file__).with_name("cluster_main.py")), "2"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            start_new_session=True,
            cwd=ROOT,
        )
    assert proc.stdout is not None and proc.stdin is not None
    try:
        address = proc.stdout.readline().strip()
        assert address.startswith("tcp://"), (
            f"the cluster did not start: {address!r}; its stderr ends: "
            + errors.read_text(encoding="utf-8", errors="replace")[-3000:]
        )
        yield address
    finally:
        # the whole process group (the cluster's process, its nannies and workers) ended at once: the
        # tests have what they asked of it, and its orderly close (~1.7 s of the nannies stopping their
        # workers, then the exit) proves nothing here — the import's own cluster is closed in order by
        # the command (test_the_default_is_a_local_cluster_on_this_machine)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()


# the session's PostgreSQL server (``postgres``) is tests/conftest.py's, shared with the season's tests


@pytest.fixture(scope="session")
def pool() -> synthetic.Pool:
    return synthetic.Pool(size=16, bad=6, seed=3)


@pytest.fixture(scope="session")
def roster() -> list[synthetic.Player]:
    return synthetic.players(40, seed=3)


def expected_totals(recs: list[tuple[str, list[synthetic.Player], bool]]) -> dict[str, dict[str, int]]:
    """The players' totals computed here from the engine's check (not through the qualifiers' code)."""
    out: dict[str, dict[str, int]] = {}
    for text, seated, _ok in recs:
        res = gjn.check(text)
        if not res["ok"]:
            continue
        for seat, p in enumerate(seated, start=1):
            title = res["titles"][str(seat)]
            t = out.setdefault(p.id, {"games": 0, "points": 0, "firsts": 0, "lasts": 0, "quan_san": 0})
            t["games"] += 1
            if res["quan_san"]:
                t["points"] += QUAN_SAN_SHARES.get(title, 0)
            else:
                t["points"] += TITLE_POINTS[title]
            t["firsts"] += title == "头科"
            t["lasts"] += title == "大落"
            t["quan_san"] += title == "圈三"
    return out


def call(*args: str) -> subprocess.CompletedProcess[str]:
    """A command that starts no cluster (board, invite, export …), run in this process."""
    from broadcast.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as e:  # argparse
            rc = int(e.code or 0)
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "broadcast", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
