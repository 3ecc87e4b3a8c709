"""What every executor shares: the Executor protocol, the local one (runner.py's pool on this
machine), and the chunking helpers the Dask executor uses on both sides of the cluster."""
from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from ..tasks import Outcome, Task
from .runner import WorkerPool, default_jobs

CHUNK_SECONDS = 1.0
"""With --chunk-size auto (the default), a Dask chunk holds about this many seconds of one
runner worker's work, judged from the runs so far: enough that Dask's cost per chunk is
small beside it, little enough that an interruption loses little."""
FIRST_CHUNK = 16
LOCAL_CLUSTER_WORKERS = 1
"""Dask workers a LocalCluster gets: one, whose pool uses every core (more workers would
each start a pool of every core and fight over them)."""

OnOutcome = Callable[[int, Outcome], None]


class ExecutorError(ValueError):
    """A bad --executor, or Dask missing or unreachable; the message says which and how to fix it."""


class Executor(Protocol):
    """Runs tasks somewhere; on_outcome(number, outcome) for each, numbered in the order given."""

    def run(self, tasks: Iterable[Task], on_outcome: OnOutcome) -> None: ...

    def describe(self) -> str: ...

    def close(self) -> None: ...


class LocalExecutor:
    """runner's pool on this machine with ``jobs`` workers, kept between run() calls."""

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs or default_jobs()
        self.pool = WorkerPool(self.jobs)

    def run(self, tasks: Iterable[Task], on_outcome: OnOutcome) -> None:
        try:
            self.pool.run(tasks, on_outcome=on_outcome, keep=False)
        except BaseException:
            self.pool.close()  # workers cut off mid-task are not reused
            raise

    def describe(self) -> str:
        return (f"{self.jobs} run{'s' if self.jobs > 1 else ''} at a time on this machine, in worker "
                "processes of each configuration and grid side")

    def close(self) -> None:
        self.pool.close()


def numbered_chunks(tasks: Iterable[Task], size: Callable[[], int]) -> Iterator[list[tuple[int, Task]]]:
    """(number, task) pairs in lists of up to ``size()`` (asked for each list), read lazily."""
    numbered = enumerate(tasks)
    while chunk := list(itertools.islice(numbered, size())):
        yield chunk


def chunk_size(seconds_per_task: float | None, jobs: int) -> int:
    """Tasks for about CHUNK_SECONDS of each of ``jobs`` workers' time, at least two per worker.

    >>> chunk_size(None, 2), chunk_size(0.0005, 2), chunk_size(3.0, 4)
    (16, 4000, 8)
    """
    if seconds_per_task is None:
        return FIRST_CHUNK
    return max(2 * jobs, min(5000, round(CHUNK_SECONDS * jobs / max(seconds_per_task, 1e-4))))


_POOLS = threading.local()


def run_chunk(tasks: list[Task], jobs: int | None) -> list[Outcome]:
    """Run one chunk on this machine's pool (one per thread, kept between chunks so
    backends stay loaded); runs inside a Dask worker."""
    pool: WorkerPool | None = getattr(_POOLS, "pool", None)
    if pool is None:
        pool = _POOLS.pool = WorkerPool(jobs)
    try:
        return pool.run(tasks)
    except BaseException:
        _POOLS.pool = None  # a pool cut off mid-chunk is not reused
        pool.close()
        raise


def describe_cluster(info: dict[str, Any]) -> str:
    """'2 Dask workers (3 threads)' from a scheduler_info() dictionary."""
    workers = info.get("workers", {})
    threads = sum(w.get("nthreads", 1) for w in workers.values())
    return (f"{len(workers)} Dask worker{'s' if len(workers) != 1 else ''} "
            f"({threads} thread{'s' if threads != 1 else ''})")
