"""The Dask executor: chunks of tasks to a Dask cluster's workers, outcomes back as chunks finish.

Needs the ``[dist]`` extra (``dask[distributed]``). Without an address it starts a
LocalCluster of one Dask worker process with one thread (its pool of runner workers
uses every core; more Dask workers would each start such a pool and fight over the
cores). With an address it connects to a running scheduler; each Dask worker there
should have one thread (``--nthreads 1``), its pool taking the machine's cores.

Dask workers run as daemonic processes by default, and a daemonic process may not
start the runner's worker processes: the LocalCluster is started with that switched
off (kept off while it lives, so a worker its nanny restarts after a crash can run
chunks too), and workers elsewhere need ``DASK_DISTRIBUTED__WORKER__DAEMON=False``.

A chunk whose Dask worker dies is run again by Dask on another (or the restarted)
worker; its outcomes come back once, from the run that finished, so every task is
judged exactly once. A chunk Dask gives up on (its worker died every time it was
tried) is an ExecutorError: the sweep stops there, keeping the runs that finished.
"""
from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Iterable
from typing import Any

from ..tasks import Outcome, Task
from .execution import (
    LOCAL_CLUSTER_WORKERS,
    ExecutorError,
    OnOutcome,
    chunk_size,
    describe_cluster,
    numbered_chunks,
    run_chunk,
)
from .runner import default_jobs

CONNECT_TIMEOUT = "20s"
DAEMON_HINT = ("start the Dask workers with DASK_DISTRIBUTED__WORKER__DAEMON=False "
               "(a daemonic process may not start the toolkit's worker processes)")


def _distributed() -> Any:
    try:
        import distributed  # noqa: PLC0415 - an optional extra
    except ImportError:
        raise ExecutorError("--executor dask needs Dask distributed: "
                            "pip install -e '.[dist]' (or pip install 'dask[distributed]')") from None
    return distributed


class DaskExecutor:
    """Chunks of ``chunk`` tasks (None: sized from the runs so far, executors.chunk_size) on a
    Dask cluster; ``jobs`` runner workers per Dask worker (default: the cores of the machine
    the chunk lands on)."""

    def __init__(self, address: str | None, *, jobs: int | None = None, chunk: int | None = None):
        distributed = _distributed()
        import dask  # noqa: PLC0415 - Dask is an optional extra
        self.address, self.jobs, self.chunk, self.cluster = address, jobs, chunk, None
        self.seconds_per_task: float | None = None
        self._not_daemonic: Any = None
        try:
            if address is None:
                # Set for the executor's whole life, not only while the cluster starts: its
                # nannies run in this process and read it again when they restart a worker
                # that died; close() puts the previous value back.
                self._not_daemonic = dask.config.set({"distributed.worker.daemon": False})
                self.cluster = distributed.LocalCluster(
                    n_workers=LOCAL_CLUSTER_WORKERS, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            self.close()
            raise ExecutorError(f"--executor dask={address}: cannot reach the scheduler: {error}") from None

    def run(self, tasks: Iterable[Task], on_outcome: OnOutcome) -> None:
        """Keep two chunks per Dask thread in flight; hand each finished chunk's outcomes on."""
        distributed = _distributed()
        pool = self.jobs or max(self._on_every_worker(default_jobs).values(), default=1)
        chunks = numbered_chunks(tasks, lambda: self.chunk or chunk_size(self.seconds_per_task, pool))
        waiting = distributed.as_completed()
        numbers: dict[Any, list[int]] = {}
        try:
            for _ in range(2 * max(1, self._threads())):
                if not self._submit(chunks, waiting, numbers):
                    break
            for future in waiting:
                outcomes = self._result(future)
                self._learn(outcomes)
                for number, outcome in zip(numbers.pop(future), outcomes):
                    on_outcome(number, outcome)
                self._submit(chunks, waiting, numbers)
        except BaseException:
            for future in numbers:
                future.cancel()
            raise

    def _submit(self, chunks: Any, waiting: Any, numbers: dict[Any, list[int]]) -> bool:
        chunk = next(chunks, None)
        if chunk is None:
            return False
        future = self.client.submit(run_dask_chunk, [task for _, task in chunk], self.jobs, pure=False)
        numbers[future] = [number for number, _ in chunk]
        waiting.add(future)
        return True

    def _learn(self, outcomes: list[Outcome]) -> None:
        """Update the seconds a task takes (its run plus about a millisecond of harness)."""
        if outcomes:
            seconds = sum(o.time_s for o in outcomes) / len(outcomes) + 0.001
            known = self.seconds_per_task
            self.seconds_per_task = seconds if known is None else 0.7 * known + 0.3 * seconds

    def _on_every_worker(self, function: Any) -> dict[str, Any]:
        """client.run(function): ExecutorError if a Dask worker cannot run it (e.g. cannot import
        the toolkit: not installed there, or at another path)."""
        try:
            ran: dict[str, Any] = self.client.run(function)
            return ran
        except Exception as error:  # noqa: BLE001 - raised on a Dask worker, of any type
            raise ExecutorError(f"the Dask workers cannot run the toolkit ({type(error).__name__}: "
                                f"{error}); install it on every machine at the same version") from None

    @staticmethod
    def _result(future: Any) -> list[Outcome]:
        try:
            outcomes: list[Outcome] = future.result()
            return outcomes
        except DaemonError as error:
            raise ExecutorError(str(error)) from None
        except Exception as error:  # noqa: BLE001 - e.g. KilledWorker: Dask gave the chunk up
            why = ("its Dask worker died each time it was tried" if type(error).__name__ == "KilledWorker"
                   else "raised on the Dask worker")
            raise ExecutorError(f"a chunk of tasks failed on the Dask cluster, {why} "
                                f"({type(error).__name__}: {error})") from None

    def _threads(self) -> int:
        return sum(self.client.nthreads().values())

    def describe(self) -> str:
        where = "a LocalCluster on this machine" if self.address is None else self.address
        return f"Dask at {where}: {describe_cluster(self.client.scheduler_info())}"

    def close(self) -> None:
        for part in (getattr(self, "client", None), self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - closing after a failure: nothing more to do
                    pass
        if self._not_daemonic is not None:
            self._not_daemonic.__exit__(None, None, None)
            self._not_daemonic = None


class DaemonError(RuntimeError):
    """A Dask worker that cannot start worker processes."""


def run_dask_chunk(tasks: list[Task], jobs: int | None) -> list[Outcome]:
    """executors.run_chunk inside a Dask worker, after checking it may start processes."""
    if multiprocessing.current_process().daemon:
        raise DaemonError(f"the Dask worker cannot run the tasks: {DAEMON_HINT}")
    return run_chunk(tasks, jobs)
