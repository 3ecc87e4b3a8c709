"""The worker side of the runner: load a backend, run it, send its answer as plain data.

A worker starts clean (zygote.py) and first isolates itself (sandbox.isolate: its own
session, death with its parent, a marker its children inherit) and points its stdout and
stderr (fd 1 and 2, which its children inherit) at the output pipe the parent reads
(output.py), so nothing a backend prints reaches machine-readable output or reaches the
terminal unescaped. It then
serves tasks from the parent (pickled: that direction is trusted) and answers on the
result channel with frames of JSON (channel.py: the parent trusts none of it). The
answer is cut down here first, so a backend returning 200,000 solutions costs nothing
to send: more solutions than asked for is an error for that run.

Measuring (timing.py, memory.py): each backend's imports are frozen out of the garbage
collector's reach once loaded (gc.freeze), and each run is timed with the collector paused,
its wall and CPU clocks over the same span, its peak memory its own. Around the call the
worker writes two small marks, ``started`` just before it and ``finished`` just after it
with the call's stamps, so the parent can check the stamps on its own clock before the
answer (perhaps megabytes of solutions) is built and sent.
"""
from __future__ import annotations

import gc
import math
import operator
import os
import signal
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from models import as_model

from ...registry import Backend
from ...result import Result, Stats, Status
from .channel import write_frame
from .memory import PeakMemory
from .plugins import load_backend
from .sandbox import isolate, limit_memory, reap_children
from .timing import ANSWER_SIZE, MEMORY, Clocks, collector_paused, cpu_limited

MEMORY_WORDS = ("MemoryError", "bad_alloc", "std::bad_alloc", "out of memory", "Cannot allocate memory")


def worker_main(tasks: Connection, results: Connection, output: Connection, parent_pid: int,
                token: str, environ: dict[str, str] | None = None) -> None:
    """Serve the parent's messages until told to stop (None) or the parent goes away:
    ("check", configuration) loads a backend only to say whether it loads; ("load",
    configuration) loads and prepares one for the runs to come; ("runs", [(number, task),
    ...], limited) runs tasks of a loaded backend one after another, each answered as it
    ends (a chunk: runner.py; ``limited``: the parent has already capped this process's
    memory, see sandbox.cap_memory); a memory-out ends the worker and the rest of its chunk.
    Whatever is written to fd 1 or 2 from here on goes into ``output``; ``environ`` is the
    parent's environment when it started this worker."""
    isolate(parent_pid, token, environ)
    os.dup2(output.fileno(), 1)  # never the parent's stdout or terminal: the parent shows it escaped
    os.dup2(output.fileno(), 2)
    output.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    fd = results.fileno()
    backends: dict[Any, Backend] = {}
    warm: set[Any] = set()  # the configurations that have run here
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "check":  # only load a backend (a plugin checked before a run)
            write_frame(fd, {"kind": "loaded", "error": _load_error(message[1])})
            continue
        if message[0] == "load":  # ("load", configuration, puzzle or None)
            write_frame(fd, {"kind": "loaded", "error": _prepared(backends, message[1], message[2])})
            continue
        _, runs, limited = message
        for number, task in runs:
            if not _serve(fd, backends, number, task, limited):
                return  # a memory-out: the heap may be in any state, the parent starts a new worker
            if task.solver not in warm:  # what a backend builds on its first call (numba's
                warm.add(task.solver)    # dispatch and type caches, tables) is frozen like its
                gc.collect()             # imports: the collection before each later run then
                gc.freeze()              # visits only what that run's predecessor left


def _serve(fd: int, backends: dict[Any, Backend], number: int, task: Any, limited: bool) -> bool:
    """Run one task and send its marks and answer; False after a memory-out."""
    reap_children()  # strays of an earlier run, killed by the parent since

    def started(peak_reset: bool) -> None:
        write_frame(fd, {"kind": "started", "task": number, "peak_reset": peak_reset})

    def finished(span: tuple[float, float]) -> None:
        write_frame(fd, {"kind": "finished", "task": number, "span": list(span)})

    outcome = solve(backends[task.solver], task, started, capped=limited, finished=finished)
    outcome["children"] = reap_children()
    try:
        write_frame(fd, {"kind": "done", "task": number, "outcome": outcome})
    except ValueError as error:  # e.g. a message over the channel's size
        write_frame(fd, {"kind": "done", "task": number, "outcome": {
            "status": "error", "time_s": outcome.get("time_s", 0.0), "cpu_s": outcome.get("cpu_s"),
            "cpu_children_s": outcome.get("cpu_children_s"), "children": outcome["children"],
            "termination": ANSWER_SIZE,
            "message": f"the answer could not be sent back: {describe(error)} (--count counts "
                       "without sending every grid)"}})
    return bool(outcome["status"] != Status.MEMORY_OUT)


def _prepared(backends: dict[Any, Backend], solver: Any, puzzle: Any = None) -> str | None:
    """Load and prepare a configuration's backend for the runs to come (outside any run's
    clocks, e.g. fast's compile; for puzzles of the kind given, if one is), then freeze what
    it imported out of the collector's reach; None, or why it failed."""
    try:
        backend = backends.get(solver) or load_backend(solver)
        backend.prepare(dict(solver.options), None if puzzle is None else as_model(puzzle))
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        return str(error) if type(error).__name__ == "PluginError" else describe(error)
    backends[solver] = backend
    gc.collect()
    gc.freeze()  # what the backend imported is never traversed again
    return None


def _load_error(solver: Any) -> str | None:
    try:
        load_backend(solver)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        return str(error) if type(error).__name__ == "PluginError" else describe(error)
    return None


def solve(backend: Backend, task: Any, started: Callable[[bool], None] | None = None, *,
          capped: bool = False, finished: Callable[[tuple[float, float]], None] | None = None
          ) -> dict[str, Any]:
    """Run the backend on the task under its memory and CPU limits, the collector paused; its
    answer as plain data with the span's wall and CPU seconds and peak memory. ``started``
    is told (with whether the peak could be reset) just before the clocks start, ``finished``
    the call's stamps just after they stop. The memory limit is set here unless ``capped``
    (the parent set it). The backend is called through its one validated entry, Backend.solve."""
    model = as_model(task.puzzle)
    options = dict(task.solver.options)
    limit = getattr(task, "memory_limit", None)
    clocks, result, failure = Clocks(), None, None
    with collector_paused():
        memory = PeakMemory()
        if started is not None:
            started(memory.reset)
        try:
            if not capped:
                limit_memory(limit)
            with cpu_limited(getattr(task, "cpu_limit", None)):
                clocks.start()
                try:
                    if getattr(task, "count", False):
                        result = backend.count(model, time_limit=task.time_limit, sample=task.max_solutions,
                                               **options)
                    else:
                        result = backend.solve(model, max_solutions=task.max_solutions,
                                               time_limit=task.time_limit, **options)
                finally:
                    clocks.stop()
                    if finished is not None:
                        finished(clocks.span)
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            failure = error
        peak = memory.peak_mb()
    if failure is None:
        outcome = plain_outcome(result, clocks.wall_s, task.max_solutions, getattr(task, "count", False))
    else:
        status = Status.MEMORY_OUT if _is_memory(failure) and limit is not None else Status.ERROR
        outcome = {"status": str(status), "time_s": clocks.wall_s,
                   "message": describe(failure, trace=True)}
        if status == Status.MEMORY_OUT:
            outcome["message"] = f"over the memory limit of {limit:g} MB: {outcome['message']}"
            outcome["termination"] = MEMORY
    outcome["cpu_s"], outcome["peak_memory_mb"] = clocks.cpu_s, peak
    outcome["cpu_children_s"] = clocks.children_s
    return outcome


def _is_memory(error: BaseException) -> bool:
    return isinstance(error, MemoryError) or any(word in f"{type(error).__name__}: {error}"
                                                 for word in MEMORY_WORDS)


def plain_outcome(result: object, elapsed: float, max_solutions: int, counting: bool = False) -> dict[str, Any]:
    """A backend's Result as JSON-able data; anything that is not a proper Result is an error.
    ``counting``: the Result of a count, whose ``count`` goes with it."""
    def error(message: str) -> dict[str, Any]:
        return {"status": "error", "time_s": elapsed, "message": message}

    if not isinstance(result, Result):
        return error(f"backend returned {type(result).__name__}, not a Result")
    if not isinstance(result.status, Status):
        return error(f"backend returned unknown status {result.status!r}")
    try:
        count = len(result.solutions)
    except TypeError:
        return error("backend returned solutions that are not a list")
    if count > max_solutions:
        return error(f"backend returned {count} solutions, more than the {max_solutions} asked for")
    try:
        solutions = [list(solution) if type(solution) in (tuple, list) and set(map(type, solution)) <= {int}
                     else [operator.index(value) for value in solution] for solution in result.solutions]
        stats = result.stats.as_dict() if isinstance(result.stats, Stats) else dict(result.stats)
        stats = {str(k): _number(v) for k, v in stats.items()}
        message = str(result.message or "")[:2000]
    except Exception as error_:  # noqa: BLE001 - malformed solutions or stats
        return error(f"backend returned a malformed Result: {describe(error_)}")
    stats["wall_time"] = elapsed
    answer = {"status": str(result.status), "solutions": solutions, "complete": bool(result.complete),
              "stats": stats, "message": message, "time_s": elapsed}
    if counting and result.count is not None:
        if isinstance(result.count, bool) or not isinstance(result.count, int):
            return error(f"backend returned a count that is not a whole number: {result.count!r}"[:200])
        answer["count"] = result.count
    return answer


def _number(value: Any) -> int | float:
    number: int | float
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            number = operator.index(value)  # e.g. a numpy integer
        except TypeError:
            number = float(value)
    else:
        number = value
    if isinstance(number, float) and not math.isfinite(number):
        raise ValueError(f"a stat that is not a finite number: {number}")
    return number


def describe(error: BaseException, trace: bool = False) -> str:
    """The error's type and text, and with ``trace`` where it was raised."""
    text = f"{type(error).__name__}: {error}"
    if trace:
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            last = frames[-1]
            text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text
