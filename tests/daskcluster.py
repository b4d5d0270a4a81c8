"""Real local Dask clusters for the tests of every engine: one of two worker processes shared by the session
(:func:`dask_client` in conftest.py), and fragile ones whose workers a test ends (:func:`kill_workers_once_busy`)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def local_cluster(n_workers: int = 2, **config: Any) -> Iterator[Any]:
    """A client of a real local cluster of ``n_workers`` worker processes (one thread each) under the Dask ``config``
    given (e.g. ``{"distributed.scheduler.allowed-failures": 0}``), closed on leaving."""
    import dask
    import distributed

    with dask.config.set(config), warnings.catch_warnings():  # the scheduler's HTTP server moves off a taken port
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        cluster = distributed.LocalCluster(
            n_workers=n_workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
        )
        client = distributed.Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            client.close()
            cluster.close()


def fragile_cluster() -> contextlib.AbstractContextManager[Any]:
    """A one-worker cluster whose scheduler gives a task up when its worker dies once (allowed-failures 0)."""
    return local_cluster(1, **{"distributed.scheduler.allowed-failures": 0})


def kill_workers_once_busy(client: Any) -> None:
    """In the background: once a task runs, end every worker process (as an out-of-memory kill would)."""

    def kill() -> None:
        for _ in range(300):
            time.sleep(0.1)
            if any(client.processing().values()):
                time.sleep(0.3)
                with contextlib.suppress(Exception):  # the worker dies mid-call: its comm closes
                    client.run(os._exit, 1)
                return

    threading.Thread(target=kill, daemon=True).start()
