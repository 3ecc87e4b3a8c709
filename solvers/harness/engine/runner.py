"""Runs (backend, puzzle) tasks in worker processes under a wall-clock limit enforced from outside.

Each worker starts clean (forked from a server that imported only the worker's modules,
or a fresh interpreter: zygote.py) in a session of its own (sandbox.py), its stdout and
stderr sent into a pipe the parent reads (output.py: shown on this process's stderr
escaped, labelled and bounded). A worker first loads a configuration's
backend (its own exchange, under LOAD_LIMIT: imports and a compile never count as a run);
then each run is handed over (quick runs of one key several in a message: chunks.py), and
the parent notes on its own clock when the worker's marks around the call (``started``,
``finished``) and its answer arrive: timing.judged_times checks the worker's stamps of the
call against those and against /proc's count of the worker's CPU, and the parent's readings
decide whether a run was late, whatever the backend did to the clocks it can reach. The
backend is given the limit itself, and a worker still busy ``grace`` seconds after the limit
is killed with its whole process group (children included), its task recorded as a timeout.
A worker that dies gives an error for its task (memory-out under a memory limit). Either way
the other tasks go on, and every outcome is kept in task order. When a run ends, whatever
processes it left behind are killed (sandbox.end_strays), not only when its worker is.

Measured from outside: a killed run's CPU time and peak memory are read from /proc just
before the kill (timing.proc_cpu_seconds, memory.high_water_mb); a worker ended by its CPU
timer is a timeout at the CPU limit. A memory limit is set on the worker by the parent,
soft and hard (sandbox.cap_memory). Every outcome is stamped here, never by the worker,
with the host, the worker's process id, whether it was a warmup run and the run's
sequence number (the order this pool started its runs in).

Trust: the answer comes back as JSON frames (channel.py) read without blocking and
checked field by field (answers.py): a stalled frame runs into the limit, garbage or a
malformed answer is an error for that run and the end of that worker.

Workers are dedicated to one key (``Task.key``): a configuration on grids of one side (and
a memory limit), so that no two configurations share a worker (a plugin never shares one
with the built-in backends or another plugin) and a run's peak memory is its own. At most
``jobs`` run at once; idle workers wait for later runs of their key (IDLE_WORKERS at most),
and tasks start in the order they come.
"""
from __future__ import annotations

import contextlib
import math
import os
import secrets
import select
import signal
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from ... import registry
from ...result import Status
from ..tasks import MAX_SECONDS, Configuration, Outcome, Task
from . import zygote
from .answers import AnswerError, amount, check_answer
from .channel import ChannelError, FrameReader, read_available
from .chunks import ChunkSizes
from .memory import high_water_mb
from .output import OutputForwarder
from .sandbox import cap_memory, end_strays, kill_marked, kill_tree
from .startup import StartPolicy, pin, shared_cpu
from .timing import (
    CPU_LIMIT_SIGNALS,
    CPUTIME,
    MEMORY,
    WALLTIME,
    Seen,
    Window,
    enforce_limit,
    judged_times,
    proc_cpu_seconds,
    proc_cpu_split,
)
from .worker import worker_main

LOAD_LIMIT = 300.0
"""Seconds a new worker may take to start and import a backend before it is given up. Generous
because the first import of `fast` on a machine compiles its kernels: 13 s on a quiet 2-core
machine, 132 s on the same machine at load average 8 (bench/README.md)."""
IDLE_WORKERS = 16
"""Idle workers kept for later runs of their key, at most (each holds its backend loaded, some
20 to 150 MB); past that the one used least recently is ended."""
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
    executors keep one per sweep, and one in each Dask worker); close() ends them. With
    ``keep_idle`` an idle worker is replaced by one of another key only when no worker
    of that key is alive: small batches that alternate between a few keys (a fuzz
    campaign: a plugin and the built-in references) then never restart a worker."""

    def __init__(self, jobs: int | None = None, *, fresh_plugin_workers: bool = False,
                 keep_idle: bool = False):
        self._pool = _Pool(max(1, jobs or default_jobs()), None, fresh_plugin_workers)
        self._pool.keep_idle = keep_idle

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
    output: OutputForwarder
    """Forwards what the worker (and its children) write to fd 1 and 2 to this process's stderr."""
    reader: FrameReader = field(default_factory=FrameReader)
    task: int | None = None
    loading: bool = False
    """Whether the task's backend is being loaded (the run not yet handed over)."""
    deadline: float = 0.0
    sent: float | None = None
    """When the running task was handed over (time.monotonic, the parent's clock)."""
    cpu_sent: tuple[float, float] | None = None
    """The worker's own and its children's CPU seconds (/proc) at the hand-over."""
    last_read: float = 0.0
    """When the parent last read (and emptied) the worker's result pipe (time.monotonic)."""
    arrival: tuple[float, float] = (0.0, 0.0)
    """Between which times what the parent last read arrived: from the read before to the
    moment the parent looked, when it was waiting already; the moment it woke, otherwise."""
    retire: bool = False
    """Set after a memory-out: the worker's heap may be in any state, so it is not reused."""
    inbox: list[dict[str, Any]] = field(default_factory=list)
    sequence: int | None = None
    """The running task's place in the order this pool started its runs in."""
    peak_reset: bool = False
    """Whether the worker reset its memory high-water mark for the running task."""
    started: bool = False
    """Whether the worker said the running task's clocks are starting."""
    started_at: Window | None = None
    """Between which of the parent's looks the ``started`` mark arrived."""
    finished_at: Window | None = None
    """Between which of the parent's looks the ``finished`` mark arrived."""
    span: tuple[float, float] | None = None
    """The call's stamps the ``finished`` mark carried (time.monotonic)."""
    loaded: set[tuple[Configuration, Any]] = field(default_factory=set)
    """The configurations whose backends this worker has loaded, each with what it prepared
    for (registry.Backend.needs: fast's kernel for a kind of puzzle; None for the rest)."""
    ran: set[Configuration] = field(default_factory=set)
    """The configurations this worker has been handed a run of."""
    warmup: bool = False
    """Whether the running task is its configuration's first run in this worker."""
    capped: float | None = None
    """The memory limit (MB) the parent set on this worker, for good."""
    clean: bool = True
    """No strays of an earlier run were killed since the last hand-over (so none was reaped
    inside this run's span, and /proc's count of its children's CPU is the run's)."""
    load_began: float = 0.0
    """When the worker was told to load the running task's backend (time.monotonic)."""
    load_s: float = 0.0
    """Seconds it spent loading and preparing it (a compile), reported with the outcome."""
    born: float = 0.0
    """When it was spawned (time.monotonic)."""
    ready: bool = False
    """Whether it has loaded a backend once (its start-up is then known: startup.py)."""
    queue: list[int] = field(default_factory=list)
    """The runs of its chunk after the running one, sent and not yet begun (chunks.py)."""
    since: float = 0.0
    """The parent's latest look before what it last read was written (time.monotonic): the
    earliest the run after an answer read then can have begun."""


class _Pool:
    def __init__(self, jobs: int, on_outcome: Callable[[int, Outcome], None] | None,
                 fresh_plugin_workers: bool = False):
        self.jobs = jobs
        self.fresh_plugin_workers = fresh_plugin_workers
        self.on_outcome = on_outcome
        self.context = zygote.context()
        self.drain_sentinels = self.context.get_start_method() == "spawn"
        """Whether a worker's sentinel pipe is its own (spawned): else the fork server writes the
        worker's exit status into it, which is for Process.is_alive to read."""
        self.token = secrets.token_hex(6)
        self.serial = 0
        self.sequence = 0
        self.host = socket.gethostname()
        self.workers: list[_Worker] = []
        """Every live worker, the one used least recently first; at most ``jobs`` busy."""
        self.tasks: dict[int, Task] = {}  # read and not yet recorded, by number
        self.outcomes: dict[int, Outcome] | None = {}
        self.requeued: list[int] = []
        """Tasks whose worker died before their run started, to be given to a fresh one."""
        self.retried: set[int] = set()
        self.keep_idle = False
        """Asked by WorkerPool(keep_idle=True) (fuzz): idle workers of every key are kept anyway
        (up to IDLE_WORKERS, the least recently used ended first), so it changes nothing here."""
        self.sizes = ChunkSizes()
        self.configurations: set[Configuration] = set()
        """The configurations of the tasks read so far: with two or more and one job, their runs
        are compared, and chunks are kept short (chunks.py)."""
        self.policy = StartPolicy()
        self.cpu = shared_cpu(jobs)
        """The one CPU every worker is kept on (jobs 1), or None (startup.py)."""
        self.waiting: list[int] = []
        """Tasks read (or given back) and not yet handed to a worker, in their order."""
        self.answered: list[tuple[int, Outcome, int, int | None, float, float]] = []
        """Answers read and checked, to be recorded once the free workers have new tasks:
        (task number, outcome, worker pid, sequence, the parent's least wall time, load s)."""

    def run(self, tasks: Iterable[Task], keep: bool = True) -> list[Outcome]:
        """Run the tasks, read only as workers fall free; live workers of an earlier run
        are reused."""
        self.outcomes = {} if keep else None
        self.source: Iterator[tuple[int, Task]] | None = enumerate(tasks)
        self.count = 0
        waiting: list[int] = []
        self.waiting = waiting
        try:
            while True:
                waiting[:0], self.requeued = self.requeued, []
                self._dispatch(waiting)
                self._hand_on()  # the answers just read, while the workers run their next tasks
                if not waiting and not self._busy():
                    break
                self._wait()
        finally:
            self._hand_on()  # nothing read is lost, not even on Ctrl-C
        return [] if self.outcomes is None else [self.outcomes[number] for number in range(self.count)]

    def _hand_on(self) -> None:
        """Record the answers checked since the last call (judging and storing them is the
        caller's heavier work, done here after the free workers were given new tasks)."""
        while self.answered:
            self._stamped(*self.answered.pop(0))

    def _busy(self) -> list[_Worker]:
        return [w for w in self.workers if w.task is not None]

    def _pull(self) -> int | None:
        """The number of the next task read from the source, or None when it is used up."""
        following = next(self.source, None) if self.source is not None else None
        if following is None:
            self.source = None
            return None
        number, task = following
        self.tasks[number], self.count = task, number + 1
        self.configurations.add(task.solver)
        return number

    def _dispatch(self, waiting: list[int]) -> None:
        """Start the next tasks in their order while fewer than ``jobs`` run, each on an idle
        worker of its key (the one used last), else on a new one."""
        while len(self._busy()) < self.jobs:
            number = waiting.pop(0) if waiting else self._pull()
            if number is None:
                return
            worker = self._worker_for(self.tasks[number].key)
            if worker is None:  # it waits, in its place, for a worker of its key
                waiting.insert(0, number)
                return
            self._send(worker, number)

    def _worker_for(self, key: str) -> _Worker | None:
        """An idle worker of this key, marked used last; else a new one (the least recently
        used idle worker ended first when IDLE_WORKERS are kept already) when one is worth
        starting (startup.py), else None: the task waits for a busy worker of its key."""
        idle = [w for w in self.workers if w.task is None]
        match = next((w for w in reversed(idle) if w.key == key and not w.retire), None)
        if match is None and not self._worth_starting(key):
            return None
        self.policy.not_blocked()
        if match is None:
            while len(idle) >= IDLE_WORKERS:
                self._forget(idle.pop(0))
            match = self._spawn(key)
        else:
            self.workers.remove(match)
        self.workers.append(match)
        return match

    def _worth_starting(self, key: str) -> bool:
        """Whether a new worker of ``key`` should start now: none alive can take the task later
        (a plugin's fresh workers serve one task each), or its live ones run (not load) and its
        runs have waited a start-up's worth (startup.StartPolicy)."""
        live = [w for w in self.workers if w.key == key and not w.retire]
        if not live or (self.fresh_plugin_workers and key.startswith("plugin:")):
            return True
        if any(w.loading or not w.ready for w in live):
            self.policy.not_blocked()  # a second worker would have to load as well
            return False
        return self.policy.may_start(key, time.monotonic())

    def _forget(self, worker: _Worker) -> None:
        """End a worker and drop it from the pool."""
        self._end(worker)
        self.workers.remove(worker)

    def close(self) -> None:
        for worker in self.workers:
            if worker.task is None and worker.process.is_alive():
                with contextlib.suppress(OSError):
                    worker.tasks.send(None)
        for worker in self.workers:
            _join(worker.process, 1.0 if worker.task is None else 0.0)
            self._end(worker)
        self.workers = []
        kill_marked(self.token)  # any stray still marked as one of this pool's

    def _spawn(self, key: str) -> _Worker:
        self.serial += 1
        token = f"{self.token}.{self.serial}"
        task_reader, task_writer = self.context.Pipe(duplex=False)
        result_reader, result_writer = self.context.Pipe(duplex=False)
        output_reader, output_writer = self.context.Pipe(duplex=False)
        process = self.context.Process(target=worker_main, daemon=True,
                                       args=(task_reader, result_writer, output_writer, os.getpid(), token,
                                             dict(os.environ)))
        born = time.monotonic()
        process.start()
        if process.pid is not None:
            pin(process.pid, self.cpu)
        task_reader.close()
        result_writer.close()
        output_writer.close()  # the worker and its children hold the only write ends: EOF when they are gone
        os.set_blocking(result_reader.fileno(), False)
        os.set_blocking(process.sentinel, False)
        output = OutputForwarder(os.dup(output_reader.fileno()))
        output_reader.close()
        return _Worker(process, task_writer, result_reader, key, token, output, born=born)

    def _send(self, worker: _Worker, number: int) -> None:
        """Give the worker a task: load its backend first if the worker has not yet."""
        worker.task, worker.sent, worker.cpu_sent, worker.started = number, None, None, False
        worker.sequence, worker.peak_reset = self.sequence, False
        worker.started_at = worker.finished_at = worker.span = None
        self.sequence += 1
        task = self.tasks[number]
        solver = task.solver
        worker.output.run_started(solver.name)
        need = needs(task)
        if (solver, need) in worker.loaded:
            self._hand_over(worker)
            return
        worker.loading, worker.deadline = True, time.monotonic() + LOAD_LIMIT
        worker.load_began = time.monotonic()
        try:  # the puzzle goes along when the backend prepares for a kind of puzzle
            worker.tasks.send(("load", solver, None if need in (None, "count") else task.puzzle))
        except (OSError, ValueError):  # died while idle: its death is noticed in _wait
            pass

    def _hand_over(self, worker: _Worker) -> None:
        """Start the run of the worker's (loaded) task: cap its memory, take the parent's
        readings of its clock and CPU, send it."""
        number = worker.task
        assert number is not None
        task = self.tasks[number]
        capped = False
        if task.memory_limit is not None:
            if worker.capped is None and cap_memory(worker.process.pid, task.memory_limit):
                worker.capped = task.memory_limit
            capped = worker.capped == task.memory_limit
        worker.loading, worker.warmup = False, task.solver not in worker.ran
        worker.ran.add(task.solver)
        worker.queue = self._chunk(task, worker)
        worker.cpu_sent = proc_cpu_split(worker.process.pid)
        worker.sent = worker.last_read = time.monotonic()
        worker.deadline = worker.sent + task.time_limit + grace_for(task.time_limit)
        try:
            worker.tasks.send(("runs", [(n, self.tasks[n]) for n in [number, *worker.queue]], capped))
        except (OSError, ValueError):  # died while idle: its death is noticed in _wait
            pass

    def _chunk(self, task: Task, worker: _Worker) -> list[int]:
        """The tasks to go with this one in its worker's chunk (chunks.py): the next ones of
        its key whose configuration the worker has loaded for their need (a seed is a
        configuration of its own), looked for among the next few; the others stay waiting
        in their order."""
        key = task.key
        size = self.sizes.size(key, interleaved=self.jobs == 1 and len(self.configurations) > 1)
        if size == 1:
            return []
        taken: list[int] = []
        passed: list[int] = []
        while len(taken) < size - 1 and len(passed) < size:
            number = self.waiting.pop(0) if self.waiting else self._pull()
            if number is None:
                break
            other = self.tasks[number]
            if other.key == key and (other.solver, needs(other)) in worker.loaded:
                taken.append(number)
            else:
                passed.append(number)
        self.waiting[:0] = passed
        return taken

    def _next_in_chunk(self, worker: _Worker, cpu: tuple[float, float] | None) -> None:
        """The run after the one just answered becomes the worker's current run: it began
        after the answer was written (``since``), its limit runs from when the parent read
        the answer (never earlier than it began), its CPU is counted from ``cpu`` (/proc
        read as the answer was handled)."""
        number = worker.queue.pop(0)
        task = self.tasks[number]
        worker.task, worker.started, worker.peak_reset = number, False, False
        worker.started_at = worker.finished_at = worker.span = None
        worker.sequence, self.sequence = self.sequence, self.sequence + 1
        worker.output.run_started(task.solver.name)
        worker.warmup = task.solver not in worker.ran
        worker.ran.add(task.solver)
        worker.cpu_sent, worker.sent = cpu, worker.since
        worker.deadline = worker.last_read + task.time_limit + grace_for(task.time_limit)

    def _wait(self) -> None:
        live = list(self.workers)
        moments = [w.deadline for w in live if w.task is not None]
        look = self.policy.next_look(time.monotonic())  # when a waiting key may start a worker
        moments += [] if look is None else [look]
        timeout = min(3600.0, max(0.0, min(moments) - time.monotonic())) if moments else None
        handles = [w.results.fileno() for w in live] + [w.process.sentinel for w in live]
        called = time.monotonic()
        waiting = _ready(handles, 0)  # what arrived while this process was busy elsewhere
        if not waiting:
            _ready(handles, timeout)
        arrived = {}
        for each in live:  # read (and time) every answer before handling any
            arrived[id(each)] = read_available(each.results.fileno())
            now = time.monotonic()
            ready = each.results.fileno() in waiting
            each.arrival = (each.last_read, now) if ready else (now, now)  # read by now: a streaming
            # worker (a chunk) may have written more after the look at `called`
            each.since = each.last_read if ready else called
            each.last_read = now
            if self.drain_sentinels:  # a spawned worker holds its sentinel's other end: whatever a
                read_available(each.process.sentinel)  # backend wrote into it is read (else wait spins)
        for worker in live:
            problem = self._drain(worker, *arrived.get(id(worker), (b"", False)))
            if problem is not None:
                self._broken(worker, problem)
            elif not worker.process.is_alive():
                # it may have written its answer between the read above and its exit
                problem = self._drain(worker, *read_available(worker.results.fileno()))
                if problem is None:
                    self._died(worker)
                else:
                    self._broken(worker, problem)
            elif worker.retire and worker.task is None:
                self._end(worker)
            elif worker.task is not None and time.monotonic() >= worker.deadline:
                self._overdue(worker)
            else:
                continue
            self.workers.remove(worker)

    def _drain(self, worker: _Worker, data: bytes, closed: bool) -> str | None:
        """Handle what a worker sent; the reason the channel is broken, or None."""
        try:
            messages = worker.reader.feed(data)
            for message in messages:
                self._message(worker, message)
        except ChannelError as error:
            return str(error)
        if closed and worker.process.is_alive():
            _join(worker.process, 1.0)
            if worker.process.is_alive():
                return "the worker closed its result channel"
        return None

    def _message(self, worker: _Worker, message: dict[str, Any]) -> None:
        kind, number = message.get("kind"), message.get("task")
        if worker.task is None:
            raise ChannelError(f"a message {str(kind)[:40]!r} while running no task")
        task = self.tasks[worker.task]
        if kind == "loaded" and worker.loading:
            worker.load_s = time.monotonic() - worker.load_began
            if not worker.ready:
                worker.ready = True
                self.policy.loaded(worker.key, time.monotonic() - worker.born)
            error = message.get("error")
            if error is None:
                worker.loaded.add((task.solver, needs(task)))
                self._hand_over(worker)
            else:
                number = worker.task
                worker.task, worker.loading = None, False
                self._record(number, Outcome(Status.ERROR, message=str(error)[:MESSAGE_CHARS],
                                             warmup=True), worker)
        elif worker.loading or number != worker.task or isinstance(number, bool):
            raise ChannelError(f"a message {str(kind)[:40]!r} for task {str(number)[:40]} "
                               f"while running {worker.task!r}")
        elif kind == "started" and not worker.started:
            worker.started, worker.peak_reset = True, message.get("peak_reset") is True
            worker.started_at = worker.arrival
        elif kind == "finished" and worker.started and worker.finished_at is None:
            worker.finished_at, worker.span = worker.arrival, _stamps(message.get("span"))
        elif kind == "done":
            self._done(worker, message.get("outcome"), task)
        else:
            raise ChannelError(f"an unexpected message {str(kind)[:40]!r}")

    def _done(self, worker: _Worker, answer: Any, task: Task) -> None:
        """A run's answer: checked, its times judged by the parent's clocks, its strays killed,
        recorded."""
        number, sent = worker.task, worker.sent
        assert number is not None and sent is not None
        now, before = proc_cpu_split(worker.process.pid), worker.cpu_sent
        cpu = None if now is None or before is None else (max(0.0, now[0] - before[0]),
                                                          max(0.0, now[1] - before[1]))
        seen = Seen(sent, worker.arrival, worker.started_at, worker.finished_at, worker.span)
        try:
            outcome = check_answer(answer, task.max_solutions, task.puzzle.geometry.cells, counting=task.count)
            seen = Seen(sent, worker.arrival, worker.started_at, worker.finished_at, worker.span,
                        sum(map(len, outcome.solutions)))
            outcome = judged_times(outcome, seen, cpu, _children_seconds(answer), worker.clean)
        except AnswerError as problem:  # the harness's own readings stand
            outcome = Outcome(Status.ERROR, message=f"malformed answer from the worker: {problem}",
                              time_s=min(seen.call()[1], MAX_SECONDS),
                              cpu_s=None if cpu is None else sum(cpu))
        wall = seen.call()[:2]
        outcome.warmup = worker.warmup  # a new Outcome: check_answer's, judged_times' or the error's
        children = not isinstance(answer, dict) or answer.get("children") is not False
        if worker.key.startswith("plugin:") or children:  # a plugin's worker may lie
            worker.clean = end_strays(worker.process.pid, quick=children) == 0
        else:
            worker.clean = True
        worker.retire = outcome.status == Status.MEMORY_OUT or (
            self.fresh_plugin_workers and worker.key.startswith("plugin:"))
        worker.task = None
        self.answered.append((number, outcome, worker.process.pid, worker.sequence, wall[0], worker.load_s))
        worker.load_s = 0.0
        self.sizes.seen(worker.key, outcome.time_s, children=children)
        if worker.queue and (worker.retire or children):  # its next run is not to be trusted
            worker.retire = True                          # to it: a fresh worker takes the rest
            self._give_back(worker)
        elif worker.queue:
            self._next_in_chunk(worker, now)

    def _broken(self, worker: _Worker, problem: str) -> None:
        if worker.task is not None:
            outcome = Outcome(Status.ERROR, message=f"result channel: {problem}", time_s=_elapsed(worker),
                              warmup=worker.loading or worker.warmup)
            number = worker.task
            worker.task = None
            self._record(number, self._measured(outcome, worker), worker)
        self._end(worker)

    def _died(self, worker: _Worker) -> None:
        """A worker's death: its task is recorded by how it died, unless its run had not
        started. A worker can die just after answering (a backend that exits, or kills its
        own process) with the next task already sent; that task is not to blame, and goes
        once more to a fresh worker (a second death before its start is recorded)."""
        _join(worker.process, 1.0)
        if worker.task is not None and not worker.started and worker.task not in self.retried:
            self.retried.add(worker.task)
            self.requeued.append(worker.task)
            worker.task = None
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
            number = worker.task
            worker.task = None
            self._record(number, Outcome(status, message=message, time_s=_elapsed(worker), cpu_s=cpu,
                                         termination=termination, warmup=worker.loading or worker.warmup),
                         worker)
        self._end(worker)

    def _overdue(self, worker: _Worker) -> None:
        number = worker.task
        assert number is not None
        limit = self.tasks[number].time_limit
        if worker.loading:
            outcome = Outcome(Status.ERROR, message=f"backend did not load within {LOAD_LIMIT:.0f} s",
                              warmup=True)
        else:
            outcome = self._measured(Outcome(Status.TIMEOUT, time_s=limit, termination=WALLTIME), worker)
            used = "" if outcome.cpu_s is None else f", {outcome.cpu_s:.3g} s of CPU"
            outcome.message = f"killed after {_elapsed(worker):.1f} s{used} (limit {limit:g} s)"
        worker.task = None
        self._end(worker)
        self._record(number, outcome, worker)

    def _give_back(self, worker: _Worker) -> None:
        """The runs of the worker's chunk not yet begun go to another worker, in their order."""
        self.requeued += worker.queue
        worker.queue = []

    def _end(self, worker: _Worker) -> None:
        """Kill the worker's whole group and marked strays; close its pipes, the last of its
        output forwarded. The rest of its chunk goes to another worker."""
        self._give_back(worker)
        kill_tree(worker.process.pid, worker.token)
        _join(worker.process, 5.0)
        worker.tasks.close()
        worker.results.close()
        worker.output.close()

    def _measured(self, outcome: Outcome, worker: _Worker) -> Outcome:
        """A run about to be killed, with what /proc says its worker used since it started."""
        now = proc_cpu_seconds(worker.process.pid)
        if now is not None and worker.cpu_sent is not None and not worker.loading:
            outcome.cpu_s = max(0.0, now - sum(worker.cpu_sent))
        if worker.peak_reset:
            outcome.peak_memory_mb = high_water_mb(worker.process.pid)
        return outcome

    def _record(self, number: int, outcome: Outcome, worker: _Worker, wall: float | None = None) -> None:
        """Stamp the outcome (host, worker, sequence), judge it against the limits (``wall``:
        the parent's reading of the run's wall time, when it has one) and hand it on."""
        self._stamped(number, outcome, worker.process.pid, worker.sequence, wall, worker.load_s)
        worker.load_s = 0.0

    def _stamped(self, number: int, outcome: Outcome, pid: int, sequence: int | None,
                 wall: float | None, load_s: float) -> None:
        """_record with the worker's pid, the run's sequence number and the worker's load time
        before it as they were."""
        task = self.tasks.pop(number)
        outcome.host, outcome.worker, outcome.sequence, outcome.load_s = self.host, pid, sequence, load_s
        outcome = enforce_limit(outcome, task.time_limit, task.cpu_limit, wall)
        if self.outcomes is not None:
            self.outcomes[number] = outcome
        if self.on_outcome is not None:
            self.on_outcome(number, outcome)


def _ready(fds: Sequence[int], timeout: float | None) -> set[int]:
    """The descriptors readable (or closed) within ``timeout`` seconds (None: no limit): one
    poll(2) call, without multiprocessing.connection.wait's selector built for each call."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    while True:
        try:
            return {fd for fd, _ in poller.poll(None if timeout is None else math.ceil(timeout * 1000))}
        except InterruptedError:  # a signal handled meanwhile (Python retries; an older one may not)
            continue


def _join(process: Any, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for a worker to end. Not Process.join: that trusts the
    process's sentinel pipe, which the worker holds the other end of (a backend that writes
    into it would make join wait for ever)."""
    deadline = time.monotonic() + timeout
    while process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)


def _elapsed(worker: _Worker) -> float:
    return 0.0 if worker.sent is None or worker.loading else time.monotonic() - worker.sent


def _stamps(value: Any) -> tuple[float, float]:
    """The call's stamps from a ``finished`` mark: two finite numbers, the first not after the
    second; ChannelError otherwise (the worker's channel is then broken)."""
    if isinstance(value, list) and len(value) == 2 and all(
            type(stamp) in (int, float) and math.isfinite(stamp) for stamp in value) and value[0] <= value[1]:
        return float(value[0]), float(value[1])
    raise ChannelError(f"a finished mark with stamps {str(value)[:60]} that are not two times in order")


def _children_seconds(answer: dict[str, Any]) -> float | None:
    """The worker's count of the CPU its waited-for children used in the run, if well-formed."""
    try:
        return amount("cpu_children_s", answer.get("cpu_children_s"), MAX_SECONDS)
    except AnswerError:
        return None


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def needs(task: Task) -> Any:
    """What the task's backend must prepare before this run (registry.Backend.needs: fast's
    kernel for this kind of puzzle), None when nothing but loading it (plugins: always None).
    A worker loaded for one need is loaded again (before the clock) for another. A need
    depends on the puzzle's layout, never its givens: it is worked out once per layout."""
    if task.solver.plugin is not None or task.solver.backend_name not in registry.BACKENDS:
        return None
    if task.count:  # a count: the backend prepared for every kind of puzzle (fast: its general kernel too)
        return "count"
    puzzle = task.puzzle
    key = (task.solver, puzzle.geometry, puzzle.diagonals, puzzle.regions, puzzle.rules,
           puzzle.extra_regions, puzzle.cages)
    if key not in _NEEDS:
        if len(_NEEDS) >= 4096:
            _NEEDS.clear()
        _NEEDS[key] = registry.get(task.solver.backend_name).needs(puzzle, task.solver.options_dict)
    return _NEEDS[key]


_NEEDS: dict[tuple[Any, ...], Any] = {}
"""needs() per (configuration, layout), so each layout's is worked out once."""


def check_loads(solvers: Sequence[Configuration], limit: float = LOAD_LIMIT) -> dict[Configuration, str | None]:
    """Load each configuration's backend in a worker of its own (in parallel, never in this
    process): None for each that loads, else why it does not. Used to check plugins early."""
    pool = _Pool(max(1, len(solvers)), None)
    workers = [pool._spawn(f"check:{number}") for number in range(len(solvers))]
    answers: dict[int, str | None] = {}
    deadline = time.monotonic() + limit
    try:
        for worker, solver in zip(workers, solvers):
            worker.output.run_started(solver.name)
            worker.tasks.send(("check", solver))
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
