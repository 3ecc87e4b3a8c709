"""Runs (backend, puzzle) tasks in worker processes under a wall-clock limit enforced from outside.

Each worker is a fresh interpreter (the 'spawn' start method) in a session of its own
(sandbox.py), its stdout sent to stderr. A task's clock starts when its worker has
loaded the backend and says so; the backend is given the limit itself, and a worker
still busy ``grace`` seconds after the limit is killed with its whole process group
(children included), its task recorded as a timeout. A worker that dies gives an
error for its task (memory-out under a memory limit). Either way the other tasks go
on, and every outcome is kept in task order.

Measured from outside: a killed run's CPU time and peak memory are read from /proc just
before the kill (timing.proc_cpu_seconds, memory.high_water_mb); a worker ended by its CPU
timer is a timeout at the CPU limit. Every outcome is stamped here, never by the worker,
with the host, the worker's process id and the run's sequence number (the order this pool
started its runs in).

Trust: the answer comes back as JSON frames (channel.py) read without blocking and
checked here (``outcome_from``): a stalled frame runs into the limit, garbage or a
malformed answer is an error for that run and the end of that worker. Plugins never
share a worker with the built-in backends or with another plugin: workers are
dedicated to one isolation key (``Task.key``).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import secrets
import signal
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from typing import Any

from ...result import Status
from ..tasks import Configuration, Outcome, Task
from .channel import ChannelError, FrameReader, read_available
from .memory import high_water_mb
from .sandbox import kill_marked, kill_tree
from .timing import CPU_LIMIT_SIGNALS, CPUTIME, MEMORY, WALLTIME, enforce_limit, proc_cpu_seconds
from .worker import worker_main

LOAD_LIMIT = 300.0
"""Seconds a new worker may take to start and import a backend before it is given up. Generous
because the first import of `fast` on a machine compiles its kernels: 13 s on a quiet 2-core
machine, 132 s on the same machine at load average 8 (bench/README.md)."""
LOOKAHEAD = 64
"""Tasks read ahead, at most, while looking for one an idle worker (of its key) can take."""
MESSAGE_CHARS = 2000
"""The longest message kept from a worker."""


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
              fresh_plugin_workers: bool = False, keep: bool = True) -> list[Outcome]:
    """Run every task on up to ``jobs`` workers; outcomes in task order, one per task.

    ``tasks`` may be any iterable, read only as workers fall free;
    with ``keep=False`` outcomes go only to ``on_outcome`` (nothing is kept, the list
    returned is empty), for sweeps too large to hold. A plugin's worker serves that
    plugin only; with ``fresh_plugin_workers`` it serves one task and is ended
    (bench/bench_isolation.py measures what that costs)."""
    pool = WorkerPool(jobs, fresh_plugin_workers=fresh_plugin_workers)
    try:
        return pool.run(tasks, on_outcome=on_outcome, keep=keep)
    finally:
        pool.close()


class WorkerPool:
    """run_tasks' workers kept alive between batches, so backends stay loaded (the
    executors keep one per sweep, and one in each Dask worker); close() ends them."""

    def __init__(self, jobs: int | None = None, *, fresh_plugin_workers: bool = False):
        self._pool = _Pool(max(1, jobs or default_jobs()), None, fresh_plugin_workers)

    def run(self, tasks: Iterable[Task], *, on_outcome: Callable[[int, Outcome], None] | None = None,
            keep: bool = True) -> list[Outcome]:
        """run_tasks on these workers."""
        self._pool.on_outcome = on_outcome
        return self._pool.run(tasks, keep=keep)

    def close(self) -> None:
        """End every worker, holding back SIGINT, SIGTERM and SIGHUP meanwhile."""
        blocked = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        old = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
        try:
            self._pool.close()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


# ---------------------------------------------------------------- the parent side

@dataclass
class _Worker:
    process: Any
    tasks: Connection
    results: Connection
    key: str
    token: str
    reader: FrameReader = field(default_factory=FrameReader)
    task: int | None = None
    deadline: float = 0.0
    started: float | None = None
    retire: bool = False
    """Set after a memory-out: the worker's heap may be in any state, so it is not reused."""
    inbox: list[dict[str, Any]] = field(default_factory=list)
    sequence: int | None = None
    """The running task's place in the order this pool started its runs."""
    cpu_at_start: float | None = None
    """The worker's CPU seconds (/proc) when the running task's clocks started, as it said."""
    peak_reset: bool = False
    """Whether the worker reset its memory high-water mark for the running task."""


class _Pool:
    def __init__(self, jobs: int, on_outcome: Callable[[int, Outcome], None] | None,
                 fresh_plugin_workers: bool = False):
        self.jobs = jobs
        self.fresh_plugin_workers = fresh_plugin_workers
        self.on_outcome = on_outcome
        self.context = multiprocessing.get_context("spawn")
        self.token = secrets.token_hex(6)
        self.serial = 0
        self.sequence = 0
        self.host = socket.gethostname()
        self.slots: list[_Worker | None] = [None] * jobs
        self.tasks: dict[int, Task] = {}  # read and not yet recorded, by number
        self.outcomes: dict[int, Outcome] | None = {}

    def run(self, tasks: Iterable[Task], keep: bool = True) -> list[Outcome]:
        """Run the tasks, read only as workers fall free; live workers of an earlier run
        are reused."""
        self.outcomes = {} if keep else None
        self.source: Iterator[tuple[int, Task]] | None = enumerate(tasks)
        self.count = 0
        waiting: list[int] = []
        while True:
            self._dispatch(waiting)
            if not waiting and not self._busy():
                break
            self._wait()
        return [] if self.outcomes is None else [self.outcomes[number] for number in range(self.count)]

    def _busy(self) -> list[_Worker]:
        return [w for w in self.slots if w is not None and w.task is not None]

    def _pull(self) -> int | None:
        """The number of the next task read from the source, or None when it is used up."""
        following = next(self.source, None) if self.source is not None else None
        if following is None:
            self.source = None
            return None
        number, task = following
        self.tasks[number], self.count = task, number + 1
        return number

    def _take(self, waiting: list[int], key: str) -> int | None:
        """The first task of this key, waiting or read now (reading at most LOOKAHEAD
        ahead: the others wait for a worker of their key)."""
        match = next((n for n in waiting if self.tasks[n].key == key), None)
        if match is not None:
            waiting.remove(match)
            return match
        while len(waiting) < LOOKAHEAD and (number := self._pull()) is not None:
            if self.tasks[number].key == key:
                return number
            waiting.append(number)
        return None

    def _dispatch(self, waiting: list[int]) -> None:
        """Give each idle worker the first task of its key; free or idle slots of other
        keys go to the first waiting task no worker can take."""
        for worker in self.slots:
            if worker is not None and worker.task is None:
                match = self._take(waiting, worker.key)
                if match is not None:
                    self._send(worker, match)
        for index, worker in enumerate(self.slots):
            if worker is None or worker.task is None:
                number = waiting.pop(0) if waiting else self._pull()
                if number is None:
                    return
                if worker is not None:
                    self._end(worker)
                spawned = self.slots[index] = self._spawn(self.tasks[number].key)
                self._send(spawned, number)

    def close(self) -> None:
        for worker in self.slots:
            if worker is not None and worker.task is None and worker.process.is_alive():
                try:
                    worker.tasks.send(None)
                except OSError:
                    pass
        for worker in self.slots:
            if worker is not None:
                worker.process.join(timeout=1.0 if worker.task is None else 0)
                self._end(worker)
        self.slots = [None] * self.jobs
        kill_marked(self.token)  # any stray still marked as one of this pool's

    def _spawn(self, key: str) -> _Worker:
        self.serial += 1
        token = f"{self.token}.{self.serial}"
        task_reader, task_writer = self.context.Pipe(duplex=False)
        result_reader, result_writer = self.context.Pipe(duplex=False)
        process = self.context.Process(target=worker_main, daemon=True,
                                       args=(task_reader, result_writer, os.getpid(), token))
        process.start()
        task_reader.close()
        result_writer.close()
        os.set_blocking(result_reader.fileno(), False)
        return _Worker(process, task_writer, result_reader, key, token)

    def _send(self, worker: _Worker, number: int) -> None:
        worker.task, worker.started = number, None
        worker.sequence, worker.cpu_at_start, worker.peak_reset = self.sequence, None, False
        self.sequence += 1
        worker.deadline = time.monotonic() + LOAD_LIMIT
        try:
            worker.tasks.send((number, self.tasks[number]))
        except (OSError, ValueError):  # died while idle: its death is noticed in _wait
            pass

    def _wait(self) -> None:
        live = [w for w in self.slots if w is not None]
        busy = [w.deadline for w in live if w.task is not None]
        timeout = min(3600.0, max(0.0, min(busy) - time.monotonic())) if busy else None
        wait([w.results for w in live] + [w.process.sentinel for w in live], timeout)
        for index, worker in enumerate(self.slots):
            if worker is None:
                continue
            problem = self._drain(worker)
            if problem is not None:
                self._broken(worker, problem)
                self.slots[index] = None
            elif not worker.process.is_alive():
                self._died(worker)
                self.slots[index] = None
            elif worker.retire and worker.task is None:
                self._end(worker)
                self.slots[index] = None
            elif worker.task is not None and time.monotonic() >= worker.deadline:
                self._overdue(worker)
                self.slots[index] = None

    def _drain(self, worker: _Worker) -> str | None:
        """Read what a worker sent; the reason the channel is broken, or None."""
        data, closed = read_available(worker.results.fileno())
        try:
            messages = worker.reader.feed(data)
            for message in messages:
                self._message(worker, message)
        except ChannelError as error:
            return str(error)
        if closed and worker.process.is_alive():
            worker.process.join(timeout=1.0)
            if worker.process.is_alive():
                return "the worker closed its result channel"
        return None

    def _message(self, worker: _Worker, message: dict[str, Any]) -> None:
        kind, number = message.get("kind"), message.get("task")
        if worker.task is None or number != worker.task or isinstance(number, bool):
            raise ChannelError(f"a message for task {number!r} while running {worker.task!r}")
        task = self.tasks[number]
        if kind == "started" and worker.started is None:
            worker.started = time.monotonic()
            worker.deadline = worker.started + task.time_limit + grace_for(task.time_limit)
            cpu = message.get("cpu")
            worker.cpu_at_start = float(cpu) if isinstance(cpu, (int, float)) and _time(cpu) else None
            worker.peak_reset = message.get("peak_reset") is True
        elif kind == "done":
            outcome = outcome_from(message.get("outcome"), task)
            worker.retire = outcome.status == Status.MEMORY_OUT or (
                self.fresh_plugin_workers and worker.key.startswith("plugin:"))
            self._record(number, outcome, worker)
            worker.task = None
        else:
            raise ChannelError(f"an unexpected message {str(kind)[:40]!r}")

    def _broken(self, worker: _Worker, problem: str) -> None:
        if worker.task is not None:
            outcome = Outcome(Status.ERROR, message=f"result channel: {problem}", time_s=_elapsed(worker))
            self._record(worker.task, self._measured(outcome, worker), worker)
            worker.task = None
        self._end(worker)

    def _died(self, worker: _Worker) -> None:
        worker.process.join(timeout=1.0)
        if worker.task is not None:
            task, code = self.tasks[worker.task], worker.process.exitcode
            status, termination, cpu = Status.ERROR, None, None
            message = f"worker process died: {_describe_exit(code)}"
            if task.cpu_limit is not None and code is not None and -code in CPU_LIMIT_SIGNALS:
                status, termination, cpu = Status.TIMEOUT, CPUTIME, task.cpu_limit
                message = (f"killed by its CPU timer at the CPU limit of {task.cpu_limit:g} s "
                           f"after {_elapsed(worker):.3g} s")
            elif task.memory_limit is not None and code is not None and code < 0:
                status, termination = Status.MEMORY_OUT, MEMORY
                message += f" under a memory limit of {task.memory_limit:g} MB: counted as memory-out"
            self._record(worker.task, Outcome(status, message=message, time_s=_elapsed(worker),
                                              cpu_s=cpu, termination=termination), worker)
            worker.task = None
        self._end(worker)

    def _overdue(self, worker: _Worker) -> None:
        number = worker.task
        assert number is not None
        limit = self.tasks[number].time_limit
        if worker.started is None:
            outcome = Outcome(Status.ERROR, message=f"backend did not load within {LOAD_LIMIT:.0f} s")
        else:
            outcome = self._measured(Outcome(Status.TIMEOUT, time_s=limit, termination=WALLTIME), worker)
            used = "" if outcome.cpu_s is None else f", {outcome.cpu_s:.3g} s of CPU"
            outcome.message = f"killed after {_elapsed(worker):.1f} s{used} (limit {limit:g} s)"
        worker.task = None
        self._end(worker)
        self._record(number, outcome, worker)

    def _end(self, worker: _Worker) -> None:
        """Kill the worker's whole group and marked strays; close its pipes."""
        kill_tree(worker.process.pid, worker.token)
        worker.process.join(timeout=5.0)
        worker.tasks.close()
        worker.results.close()

    def _measured(self, outcome: Outcome, worker: _Worker) -> Outcome:
        """A run about to be killed, with what /proc says its worker used since it started."""
        now = proc_cpu_seconds(worker.process.pid)
        if now is not None and worker.cpu_at_start is not None:
            outcome.cpu_s = max(0.0, now - worker.cpu_at_start)
        if worker.peak_reset:
            outcome.peak_memory_mb = high_water_mb(worker.process.pid)
        return outcome

    def _record(self, number: int, outcome: Outcome, worker: _Worker) -> None:
        task = self.tasks.pop(number)
        outcome = enforce_limit(replace(outcome, host=self.host, worker=worker.process.pid,
                                        sequence=worker.sequence), task.time_limit, task.cpu_limit)
        if self.outcomes is not None:
            self.outcomes[number] = outcome
        if self.on_outcome is not None:
            self.on_outcome(number, outcome)


def _elapsed(worker: _Worker) -> float:
    return 0.0 if worker.started is None else time.monotonic() - worker.started


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def check_loads(solvers: Sequence[Configuration], limit: float = LOAD_LIMIT) -> dict[Configuration, str | None]:
    """Load each configuration's backend in a worker of its own (in parallel, never in this
    process): None for each that loads, else why it does not. Used to check plugins early."""
    pool = _Pool(max(1, len(solvers)), None)
    workers = [pool._spawn(f"check:{number}") for number in range(len(solvers))]
    answers: dict[int, str | None] = {}
    deadline = time.monotonic() + limit
    try:
        for worker, solver in zip(workers, solvers):
            worker.tasks.send(("load", solver))
        while len(answers) < len(workers) and time.monotonic() < deadline:
            pending = [number for number in range(len(workers)) if number not in answers]
            wait([workers[n].results for n in pending] + [workers[n].process.sentinel for n in pending],
                 max(0.0, deadline - time.monotonic()))
            answers.update({n: _load_answer(workers[n]) for n in pending if _answered(workers[n])})
    finally:
        for worker in workers:
            pool._end(worker)
        kill_marked(pool.token)
    return {solver: answers.get(number, f"did not load within {limit:g} s")
            for number, solver in enumerate(solvers)}


def _answered(worker: _Worker) -> bool:
    """Whether a loading worker has answered (or failed); its answer goes to worker.inbox."""
    data, closed = read_available(worker.results.fileno())
    try:
        worker.inbox += worker.reader.feed(data)
    except ChannelError as error:
        worker.inbox = [{"kind": "loaded", "error": f"result channel: {error}"}]
    if not worker.inbox and (closed or not worker.process.is_alive()):
        worker.inbox = [{"kind": "loaded", "error": "the worker died while loading"}]
    return bool(worker.inbox)


def _load_answer(worker: _Worker) -> str | None:
    message = worker.inbox[0]
    error = message.get("error") if message.get("kind") == "loaded" else "an unexpected message"
    return None if error is None else str(error)[:MESSAGE_CHARS]


# ---------------------------------------------------------------- checking what came back

class _Malformed(ValueError):
    pass


def outcome_from(data: Any, task: Task) -> Outcome:
    """The worker's answer as an Outcome, if every field is what it should be; else an
    error naming the first thing wrong (more solutions than asked, a NaN time, ...)."""
    try:
        return _checked(data, task)
    except _Malformed as problem:
        return Outcome(Status.ERROR, message=f"malformed answer from the worker: {problem}")


def _checked(data: Any, task: Task) -> Outcome:
    if not isinstance(data, dict):
        raise _Malformed(f"an answer of type {type(data).__name__}")
    try:
        status = Status(str(data.get("status")))
    except ValueError:
        raise _Malformed(f"unknown status {str(data.get('status'))[:40]!r}") from None
    solutions = data.get("solutions", [])
    if not isinstance(solutions, list) or len(solutions) > task.max_solutions:
        raise _Malformed(f"{len(solutions) if isinstance(solutions, list) else 'no list of'} "
                         f"solutions, at most {task.max_solutions} asked for")
    cells = task.puzzle.geometry.cells
    for solution in solutions:
        if not isinstance(solution, list) or len(solution) > 4 * cells or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in solution):
            raise _Malformed("a solution that is not a list of integers of the grid's size")
    stats = data.get("stats", {})
    if not isinstance(stats, dict) or not all(_time(v) for v in stats.values()):
        raise _Malformed("stats that are not finite non-negative numbers")
    times = {"time_s": data.get("time_s", 0.0), "cpu_s": data.get("cpu_s"),
             "peak_memory_mb": data.get("peak_memory_mb")}
    for name, value in times.items():
        if not _time(value) and (name == "time_s" or value is not None):
            raise _Malformed(f"{name} {value!r} is not a finite non-negative number")
    complete, warmup, message = data.get("complete", False), data.get("warmup", False), data.get("message", "")
    if not isinstance(complete, bool) or not isinstance(warmup, bool) or not isinstance(message, str):
        raise _Malformed("complete, warmup or message of the wrong type")
    termination = data.get("termination")
    if termination not in (None, MEMORY) or (termination == MEMORY and status != Status.MEMORY_OUT):
        raise _Malformed(f"termination {str(termination)[:40]!r} is not one a worker may report")
    cpu, peak = times["cpu_s"], times["peak_memory_mb"]
    return Outcome(status, [tuple(s) for s in solutions], complete, dict(stats),
                   message[:MESSAGE_CHARS], float(times["time_s"]), None if cpu is None else float(cpu),
                   warmup, None if peak is None else float(peak), termination)


def _time(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)
