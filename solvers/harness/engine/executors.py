"""Where a sweep's tasks run: on this machine, or in chunks on a Dask cluster.

``local``: the killable worker pool of runner.py on this machine.
``dask``: chunks of tasks go to the workers of a Dask cluster (a LocalCluster started
here, or a running scheduler at ``dask=tcp://HOST:8786``); each chunk runs through
runner.py's own pool on the machine that got it, kept alive between chunks, so the
outside time limit, crash isolation and warm-up marks are those of a local run.
Outcomes come back here, where they are judged exactly as local ones are.

Either way ``run(tasks, on_outcome)`` reads the tasks lazily and hands each outcome
over as it arrives (a Dask chunk's outcomes together), keeping none of them.
"""
from __future__ import annotations

from argparse import ArgumentTypeError
from typing import Any

from .dask_executor import DaskExecutor
from .execution import CHUNK_SECONDS, Executor, ExecutorError, LocalExecutor, OnOutcome

__all__ = ["Executor", "ExecutorError", "LocalExecutor", "OnOutcome", "executor_options",
           "make_executor", "parse_executor"]


def parse_executor(text: str) -> tuple[str, str | None]:
    """``local``, ``dask`` or ``dask=ADDRESS`` as (kind, address).

    >>> parse_executor("dask=tcp://10.0.0.5:8786"), parse_executor("local")
    (('dask', 'tcp://10.0.0.5:8786'), ('local', None))
    """
    kind, equals, address = text.strip().partition("=")
    if kind == "local" and not equals:
        return "local", None
    if kind == "dask" and (not equals or address.strip()):
        return "dask", address.strip() or None
    raise ExecutorError(f"--executor {text!r}: expected local, dask (a LocalCluster on this "
                        "machine) or dask=SCHEDULER_ADDRESS (e.g. dask=tcp://HOST:8786)")


def make_executor(text: str, *, jobs: int | None = None, chunk: int | None = None) -> Executor:
    """The executor an --executor value names; ExecutorError if it cannot be had."""
    kind, address = parse_executor(text)
    if kind == "local":
        return LocalExecutor(jobs)
    return DaskExecutor(address, jobs=jobs, chunk=chunk)


def executor_options(parser: Any) -> None:
    """--executor and --chunk-size, for run and the bench scripts."""
    parser.add_argument("--executor", default="local", metavar="local|dask[=ADDRESS]",
                        help="where the runs go: local (this machine's worker processes, the "
                             "default), dask (a Dask LocalCluster here) or dask=tcp://HOST:8786 "
                             "(a running Dask scheduler; needs the [dist] extra)")
    parser.add_argument("--chunk-size", type=_positive, default=None, metavar="N",
                        help=f"with Dask: tasks sent to a Dask worker at once (default: about "
                             f"{CHUNK_SECONDS:g} s of work for each of its runner workers, judged "
                             "from the runs so far)")


MAX_CHUNK = 1 << 20
"""The most tasks sent to a Dask worker at once (they are held in memory on both sides)."""


def _positive(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_CHUNK:
        raise ArgumentTypeError(f"must be a whole number of at least 1 and at most {MAX_CHUNK:,}, not {text[:40]}")
    return int(text)
