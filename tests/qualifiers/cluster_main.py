"""A real Dask LocalCluster (2 worker processes, one thread each) in a process of its own, for the tests.

Prints the scheduler's address on its first line, then runs until its standard input closes (or it is
killed): the test fixture owns the process group and ends it.
"""

from __future__ import annotations

import logging
import sys

import dask
from dask.distributed import LocalCluster

from broadcast.qualifiers.run import LEAN


def main() -> None:
    with dask.config.set(LEAN):  # as the import's own cluster: no watching that costs CPU while it waits
        cluster = LocalCluster(
            n_workers=int(sys.argv[1]) if len(sys.argv) > 1 else 2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        )
    print(cluster.scheduler_address, flush=True)
    sys.stdin.read()
    cluster.close()


if __name__ == "__main__":
    main()
