"""Backends that lie with values: numbers out of every range, forged frames, faked clocks.

Each answers the puzzle correctly (from the reference solver) but hands the harness one
value it must not take at face value. The value must spoil that run alone (an error, or a
timeout measured by the harness's own clock); every other run is kept, judged and saved.
"""
from __future__ import annotations

import contextlib
import json
import os
import resource
import stat
import struct
import sys
import time
from typing import Any

from reference import solve as reference_solve  # the plugin's folder is on sys.path

from models import Model
from solvers.result import Result, Stats, Status


def huge_stat(model: Model, **kwargs: object) -> Result:
    """A counter of 10**400: no float holds it, no database column either."""
    result = reference_solve(model, **kwargs)
    result.stats.nodes = 10 ** 400
    return result


def wide_stat(model: Model, **kwargs: object) -> Result:
    """A counter of 2**64 - 1: JSON holds it, SQLite's INTEGER does not."""
    result = reference_solve(model, **kwargs)
    result.stats.nodes = 2 ** 64 - 1
    return result


def foreign_stat(model: Model, **kwargs: object) -> Result:
    """Stats as a mapping with a float counter and a value of 1e308 * 10 (inf once summed)."""
    result = reference_solve(model, **kwargs)
    result.stats = {"nodes": 2.5, "encode_time": 1e308}  # type: ignore[assignment]  # the point: not Stats
    return result


def _pipes() -> list[int]:
    """Every pipe descriptor of this process above stderr (the result channel among them)."""
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if int(name) > 2 and stat.S_ISFIFO(os.fstat(int(name)).st_mode):
                found.append(int(name))
        except OSError:
            continue
    return found


def _task_number() -> int:
    """The number of the task being run, read from the worker's frames on the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if "number" in frame.f_locals and isinstance(frame.f_locals["number"], int):
            return frame.f_locals["number"]
        frame = frame.f_back  # type: ignore[assignment]  # None ends the walk
    raise RuntimeError("no task number on the stack")


def _send(body: bytes) -> None:
    """One well-framed message into every pipe (only the result channel takes it)."""
    for fd in _pipes():
        with contextlib.suppress(OSError):
            os.write(fd, b"SKR1" + struct.pack(">I", len(body)) + body)


def forged_time(model: Model, **kwargs: object) -> Result:
    """Writes its own answer frame, with the right solution and a time_s of 10**400, then exits."""
    answer = reference_solve(model, **kwargs)
    outcome = {"status": "solved", "solutions": [list(s) for s in answer.solutions],
               "complete": answer.complete, "stats": {}, "message": "", "time_s": 10 ** 400,
               "cpu_s": 0.0, "warmup": False}
    _send(json.dumps({"kind": "done", "task": _task_number(), "outcome": outcome}).encode())
    os._exit(0)


def deep_frame(model: Model, **kwargs: object) -> Result:
    """Writes a frame of 200,000 nested lists (a recursive decoder overflows), then hangs."""
    _send(b'{"kind":"done","task":0,"outcome":' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    time.sleep(3600)
    return reference_solve(model, **kwargs)


CLOCKS = ("perf_counter", "monotonic", "process_time", "time", "thread_time", "perf_counter_ns",
          "monotonic_ns", "process_time_ns", "time_ns", "thread_time_ns")


def _stopped(clock: Any) -> Any:
    value = clock()
    return lambda *args: value


def fake_clocks(model: Model, *, seconds: float = 2.6, **kwargs: object) -> Result:
    """Stops every clock it can reach (the time module's, os.times, resource.getrusage, and
    every reference to one held by any loaded module, the harness's included), answers,
    then sleeps ``seconds``: by its clocks the run took no time at all."""
    originals = {getattr(time, name): _stopped(getattr(time, name)) for name in CLOCKS}
    originals[os.times] = _stopped(os.times)
    usage = {who: resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)}
    originals[resource.getrusage] = lambda who: usage[who]
    sleep = time.sleep
    for module in list(sys.modules.values()):
        for name, value in list(vars(module).items()):
            try:
                if value in originals:
                    setattr(module, name, originals[value])
            except Exception:  # noqa: BLE001 - an unhashable or uncomparable attribute
                continue
    answer = reference_solve(model, **kwargs)
    sleep(float(seconds))
    return answer


def forged_fast(model: Model, *, seconds: float = 2.6, claimed: float = 2e-05, **kwargs: object) -> Result:
    """Sleeps ``seconds``, then writes its own answer frame: the right solution, in ``claimed`` s."""
    answer = reference_solve(model, **kwargs)
    time.sleep(float(seconds))
    outcome = {"status": "solved", "solutions": [list(s) for s in answer.solutions],
               "complete": answer.complete, "stats": {"nodes": 1}, "message": "", "time_s": claimed,
               "cpu_s": 1e-05, "cpu_children_s": 0.0, "children": False, "warmup": False}
    _send(json.dumps({"kind": "done", "task": _task_number(), "outcome": outcome}).encode())
    time.sleep(3600)
    return answer


def busy_judge(model: Model, **kwargs: object) -> Result:
    """On a grid of side 25 or more, a false "no solution" at once, which keeps the judge busy
    for seconds; on a smaller grid, forged_fast: asleep 4 s, then its own frame saying 1.9 s
    (a time a harness that read its answers only after judging could not rule out)."""
    if model.n >= 25:
        return Result(Status.UNSAT, [], True, Stats())
    return forged_fast(model, seconds=4.0, claimed=1.9)


def answers_then_exits(model: Model, **kwargs: object) -> Result:
    """Writes its own correct answer frame and exits at once, as a backend that answers from a
    process of its own and quits might: the answer reaches the harness just as the worker dies."""
    answer = reference_solve(model, **kwargs)
    outcome = {"status": "solved", "solutions": [list(s) for s in answer.solutions],
               "complete": answer.complete, "stats": {"nodes": 1}, "message": "", "time_s": 0.001,
               "cpu_s": 0.001, "warmup": False}
    _send(json.dumps({"kind": "done", "task": _task_number(), "outcome": outcome}).encode())
    os._exit(0)


def forged_finish(model: Model, *, seconds: float = 2.6, **kwargs: object) -> Result:
    """Writes a false ``finished`` mark at once (a call of 20 microseconds), then works for
    ``seconds`` and writes its own answer frame: its work passed off as sending the answer."""
    number, now = _task_number(), time.monotonic()
    _send(json.dumps({"kind": "finished", "task": number, "span": [now, now + 2e-05]}).encode())
    answer = reference_solve(model, **kwargs)
    time.sleep(float(seconds))
    outcome = {"status": "solved", "solutions": [list(s) for s in answer.solutions],
               "complete": answer.complete, "stats": {"nodes": 1}, "message": "", "time_s": 2e-05,
               "cpu_s": 1e-05, "cpu_children_s": 0.0, "children": False, "warmup": False}
    _send(json.dumps({"kind": "done", "task": number, "outcome": outcome}).encode())
    time.sleep(3600)
    return answer
