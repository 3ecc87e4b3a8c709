"""Runs (backend, puzzle) tasks in worker processes under a wall-clock limit enforced from outside.

Each worker is a fresh interpreter (the 'spawn' start method, the same on every
platform). A task's clock starts when its worker has loaded the backend and says
so; the backend is given the limit itself, and a worker still busy ``grace``
seconds after the limit is killed, its task recorded as a timeout, and a new
worker started. A worker that dies (os._exit, a signal, a crash in a C extension)
gives an error for its task. Either way the other tasks go on, and every outcome
is kept in task order.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from models import Puzzle, as_model

from .. import registry
from ..registry import Backend
from ..result import Result, Stats, Status
from .timing import cpu_clock, enforce_limit

LOAD_LIMIT = 120.0
"""Seconds a new worker may take to start and import a backend before it is given up."""


@dataclass(frozen=True)
class SolverRef:
    """How a worker finds a backend: a label, the registered backend (or a plugin spec to
    import), and the options the backend is called with."""

    name: str
    plugin: str | None = None
    backend: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    def load(self) -> Backend:
        if self.plugin is None:
            backend = registry.get(self.backend or self.name)
            backend.load()
            return backend
        from .plugins import load_function, parse_spec  # noqa: PLC0415 - only plugins need it
        spec = parse_spec(self.plugin)
        return Backend.from_function(self.name, load_function(spec), description=f"plugin {spec.text}")


@dataclass(frozen=True)
class Task:
    """One run: a backend on a puzzle, asked for up to max_solutions within time_limit seconds."""

    solver: SolverRef
    puzzle: Puzzle
    max_solutions: int = 1
    time_limit: float = 10.0
    repeat: int = 0
    """Which repetition of this (puzzle, configuration) this run is, from 0."""


@dataclass
class Outcome:
    """What a run gave, as plain data: status, raw solutions, stats dict, message, wall and
    CPU seconds (timing.py's rules), and whether it was its configuration's first run in a
    fresh worker (warmup: imports and caches are cold)."""

    status: Status
    solutions: list[tuple[Any, ...]] = field(default_factory=list)
    complete: bool = False
    stats: dict[str, float | int] = field(default_factory=dict)
    message: str = ""
    time_s: float = 0.0
    cpu_s: float = 0.0
    warmup: bool = False


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def grace_for(limit: float) -> float:
    """Extra seconds a backend gets to return its own TIMEOUT before its worker is killed."""
    return max(1.0, 0.2 * limit)


def run_tasks(tasks: Iterable[Task], *, jobs: int | None = None,
              on_outcome: Callable[[int, Outcome], None] | None = None,
              keep: bool = True) -> list[Outcome]:
    """Run every task on up to ``jobs`` workers; outcomes in task order, one per task.

    Tasks are taken from the iterable only as workers fall free, so a generator is read
    lazily; with ``keep=False`` outcomes go only to ``on_outcome`` (nothing is kept, the
    list returned is empty), for sweeps too large to hold."""
    pool = WorkerPool(jobs)
    try:
        return pool.run(tasks, on_outcome=on_outcome, keep=keep)
    finally:
        pool.close()


class WorkerPool:
    """run_tasks' workers kept alive between batches, so backends stay loaded (the Dask
    executor keeps one in each Dask worker); close() ends them."""

    def __init__(self, jobs: int | None = None):
        self._pool = _Pool(max(1, jobs or default_jobs()), None)

    def run(self, tasks: Iterable[Task], *, on_outcome: Callable[[int, Outcome], None] | None = None,
            keep: bool = True) -> list[Outcome]:
        """run_tasks on these workers."""
        self._pool.on_outcome = on_outcome
        return self._pool.run(tasks, keep=keep)

    def close(self) -> None:
        self._pool.close()


# ---------------------------------------------------------------- the parent side

@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: int | None = None
    deadline: float = 0.0
    started: float | None = None


class _Pool:
    def __init__(self, jobs: int, on_outcome: Callable[[int, Outcome], None] | None):
        self.jobs = jobs
        self.on_outcome = on_outcome
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []

    def run(self, tasks: Iterable[Task], keep: bool = True) -> list[Outcome]:
        """Run the tasks, pulled lazily; workers still alive from an earlier run are reused."""
        self.source = enumerate(tasks)
        self.tasks: dict[int, Task] = {}  # the tasks in flight, by number
        self.outcomes: dict[int, Outcome] | None = {} if keep else None
        self.more = True
        while True:
            for worker in self.workers:
                if worker.task is None:
                    self._give(worker, self._pull())
            while len(self.workers) < self.jobs and (following := self._pull()) is not None:
                self.workers.append(self._spawn())
                self._give(self.workers[-1], following)
            if not any(w.task is not None for w in self.workers):
                break
            self._wait()
        return [] if self.outcomes is None else [self.outcomes[n] for n in sorted(self.outcomes)]

    def _pull(self) -> tuple[int, Task] | None:
        """The next (number, task) from the source, or None when it is exhausted."""
        following = next(self.source, None) if self.more else None
        self.more = following is not None
        return following

    def _give(self, worker: _Worker, following: tuple[int, Task] | None) -> None:
        if following is not None:
            self.tasks[following[0]] = following[1]
            self._send(worker, following[0])

    def close(self) -> None:
        for worker in self.workers:
            if worker.task is None and worker.process.is_alive():
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        for worker in self.workers:
            worker.process.join(timeout=1.0 if worker.task is None else 0)
            _kill(worker)
        self.workers = []

    def _spawn(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker_main, args=(child,), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _send(self, worker: _Worker, number: int) -> None:
        worker.task, worker.started = number, None
        worker.deadline = time.monotonic() + LOAD_LIMIT
        try:
            worker.conn.send((number, self.tasks[number]))
        except (OSError, ValueError):  # died while idle: its death is noticed in _wait
            pass

    def _wait(self) -> None:
        busy = [w.deadline for w in self.workers if w.task is not None]
        timeout = max(0.0, min(busy) - time.monotonic()) if busy else None
        handles = [w.conn for w in self.workers] + [w.process.sentinel for w in self.workers]
        wait(handles, timeout)
        for index, worker in enumerate(self.workers):
            if not self._drain(worker) or not worker.process.is_alive():
                self._died(worker)
                self.workers[index] = self._spawn()
            elif worker.task is not None and time.monotonic() >= worker.deadline:
                self._overdue(worker)
                self.workers[index] = self._spawn()

    def _drain(self, worker: _Worker) -> bool:
        """Read every message waiting from a worker; False if its pipe is closed."""
        try:
            while worker.conn.poll():
                message = worker.conn.recv()
                if message[0] == "started" and message[1] == worker.task:
                    worker.started = time.monotonic()
                    worker.deadline = worker.started + self.tasks[worker.task].time_limit \
                        + grace_for(self.tasks[worker.task].time_limit)
                elif message[0] == "done" and message[1] == worker.task:
                    self._record(worker.task, message[2])
                    worker.task = None
        except (EOFError, OSError):
            return False
        return True

    def _died(self, worker: _Worker) -> None:
        worker.process.join(timeout=1.0)
        if worker.task is not None:
            code = worker.process.exitcode
            self._record(worker.task, Outcome(
                Status.ERROR, message=f"worker process died: {_describe_exit(code)}",
                time_s=_elapsed(worker)))
            worker.task = None
        _kill(worker)

    def _overdue(self, worker: _Worker) -> None:
        number = worker.task
        assert number is not None
        limit = self.tasks[number].time_limit
        if worker.started is None:
            outcome = Outcome(Status.ERROR, message=f"backend did not load within {LOAD_LIMIT:.0f} s")
        else:
            elapsed = _elapsed(worker)
            outcome = Outcome(Status.TIMEOUT, time_s=limit,
                              message=f"killed after {elapsed:.1f} s (limit {limit:g} s)")
        worker.task = None
        _kill(worker)
        self._record(number, outcome)

    def _record(self, number: int, outcome: Outcome) -> None:
        outcome = enforce_limit(outcome, self.tasks.pop(number).time_limit)
        if self.outcomes is not None:
            self.outcomes[number] = outcome
        if self.on_outcome is not None:
            self.on_outcome(number, outcome)


def _elapsed(worker: _Worker) -> float:
    return 0.0 if worker.started is None else time.monotonic() - worker.started


def _kill(worker: _Worker) -> None:
    if worker.process.is_alive():
        worker.process.kill()
        worker.process.join(timeout=5.0)
    worker.conn.close()


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


# ---------------------------------------------------------------- the worker side

def _worker_main(conn: Connection) -> None:
    """Serve tasks until told to stop (None) or the parent goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    backends: dict[SolverRef, Backend] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        number, task = message
        warmup = task.solver not in backends
        try:
            if warmup:
                backends[task.solver] = task.solver.load()
            backend = backends[task.solver]
        except Exception as error:  # noqa: BLE001 - reported as this run's error
            conn.send(("done", number, Outcome(Status.ERROR, message=_describe(error))))
            continue
        conn.send(("started", number))
        outcome = _solve(backend, task)
        outcome.warmup = warmup
        try:
            conn.send(("done", number, outcome))
        except Exception as error:  # noqa: BLE001 - e.g. solutions that cannot be pickled
            conn.send(("done", number, Outcome(Status.ERROR, time_s=outcome.time_s,
                                               message=f"result could not be sent: {_describe(error)}")))


def _solve(backend: Backend, task: Task) -> Outcome:
    # Backend.solve's steps, but the answer is checked before anything of it is used.
    function, model = backend.load(), as_model(task.puzzle)
    start, cpu_start = time.perf_counter(), cpu_clock()
    try:
        result = function(model, max_solutions=task.max_solutions, time_limit=task.time_limit,
                          **dict(task.solver.options))
        if isinstance(result, Result) and isinstance(result.stats, Stats):
            result.stats.wall_time = time.perf_counter() - start
    except BaseException as error:  # noqa: BLE001 - a backend's failure, SystemExit included
        if isinstance(error, KeyboardInterrupt):
            raise
        return Outcome(Status.ERROR, message=_describe(error, trace=True),
                       time_s=time.perf_counter() - start, cpu_s=cpu_clock() - cpu_start)
    outcome = _outcome(result, time.perf_counter() - start)
    outcome.cpu_s = cpu_clock() - cpu_start
    return outcome


def _outcome(result: object, elapsed: float) -> Outcome:
    """A backend's Result as plain data; anything that is not a proper Result is an error."""
    if not isinstance(result, Result):
        return Outcome(Status.ERROR, time_s=elapsed,
                       message=f"backend returned {type(result).__name__}, not a Result")
    if not isinstance(result.status, Status):
        return Outcome(Status.ERROR, time_s=elapsed,
                       message=f"backend returned unknown status {result.status!r}")
    try:
        solutions = [tuple(solution) for solution in result.solutions]
        stats = result.stats.as_dict()
    except Exception as error:  # noqa: BLE001 - malformed solutions or stats
        return Outcome(Status.ERROR, time_s=elapsed,
                       message=f"backend returned a malformed Result: {_describe(error)}")
    return Outcome(result.status, solutions, bool(result.complete), stats,
                   str(result.message or ""), float(stats.get("wall_time", elapsed)))


def _describe(error: BaseException, trace: bool = False) -> str:
    text = f"{type(error).__name__}: {error}"
    if trace:
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            last = frames[-1]
            text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text
