"""Hostile backends: each attacks the harness itself rather than giving a wrong answer.

They reach what any code in a worker can reach: every pipe or socket the process holds
(the result channel among them, whatever its design), fork, signals, other modules,
stdout. Each must end as an error, timeout or memory-out for its own run, with the
rest of the batch intact and no process left behind. Children they start carry
``HOSTILE_CHILD`` in their argv, so a test can look for survivors.
"""
from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time

from reference import (
    solve as reference_solve,  # the plugin's folder is on sys.path (at its end)
)

from models import Model
from solvers.result import Result, Stats, Status

CHILD_MARK = "HOSTILE_CHILD"


def _channels() -> list[int]:
    """Every pipe or socket descriptor of this process but stdin, stdout and stderr."""
    found = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        if fd > 2 and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            found.append(fd)
    return found


def _write_all(data: bytes) -> None:
    for fd in _channels():
        with contextlib.suppress(OSError):
            os.write(fd, data)


def pipe_stall(model: Model, **kwargs: object) -> Result:
    """Writes the first bytes of a message into every pipe, then sleeps."""
    _write_all(b"SKR1\x00\x00")
    time.sleep(3600)
    return Result(Status.ERROR, message="woke up")


def pipe_garbage(model: Model, **kwargs: object) -> Result:
    """Writes garbage (and a pickle) into every pipe, then answers correctly."""
    _write_all(b"\x80\x04\x95garbage that is no message at all\n" * 4)
    return reference_solve(model, **kwargs)


def forks_children(model: Model, **kwargs: object) -> Result:
    """Starts a long sleep, a child that leaves the session, and then hangs."""
    subprocess.Popen(["bash", "-c", f"exec -a {CHILD_MARK} sleep 300"], stdin=subprocess.DEVNULL)
    subprocess.Popen([sys.executable, "-c", f"import time; time.sleep(300)  # {CHILD_MARK}"],
                     start_new_session=True, stdin=subprocess.DEVNULL)
    time.sleep(3600)
    return Result(Status.ERROR, message="woke up")


def leaves_child(model: Model, **kwargs: object) -> Result:
    """Starts a long sleep and answers correctly at once (the sleep must not outlive the run)."""
    subprocess.Popen(["bash", "-c", f"exec -a {CHILD_MARK} sleep 300"], stdin=subprocess.DEVNULL)
    return reference_solve(model, **kwargs)


def ignores_sigterm(model: Model, **kwargs: object) -> Result:
    """Ignores SIGTERM and SIGINT and spins the CPU."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        pass


def patches_mrv(model: Model, **kwargs: object) -> Result:
    """Replaces the built-in mrv's solve with one that answers 'no solution', then answers."""
    import solvers.backends.mrv as mrv

    def wrong(model: Model, **options: object) -> Result:
        return Result(Status.UNSAT, [], True, Stats())

    mrv.solve = wrong
    import solvers.registry as registry
    for backend in registry.BACKENDS.values():
        object.__setattr__(backend, "function", wrong)
    return reference_solve(model, **kwargs)


def huge_answer(model: Model, **kwargs: object) -> Result:
    """Returns the right solution 200,000 times."""
    result = reference_solve(model, max_solutions=1)
    return Result(Status.SOLVED, result.solutions * 200_000, False, result.stats)


def stdout_flood(model: Model, **kwargs: object) -> Result:
    """Prints a few megabytes to stdout, then answers correctly."""
    line = "PLUGIN-NOISE " * 8 + "\n"
    for _ in range(40_000):
        sys.stdout.write(line)
    sys.stdout.flush()
    os.write(1, b"PLUGIN-NOISE raw\n")
    return reference_solve(model, **kwargs)


def nan_stats(model: Model, **kwargs: object) -> Result:
    """Answers correctly but with a NaN counter."""
    result = reference_solve(model, **kwargs)
    result.stats.nodes = float("nan")
    return result


def unconvertible(model: Model, **kwargs: object) -> Result:
    """Returns a solution made of objects that are not numbers."""
    return Result(Status.SOLVED, [tuple(object() for _ in model.givens)], False, Stats())


def hogs_memory(model: Model, **kwargs: object) -> Result:
    """Allocates memory without end (run it under --memory-limit)."""
    hoard = []
    while True:
        hoard.append(bytearray(16 * 1024 * 1024))


def forges_answer(model: Model, **kwargs: object) -> Result:
    """Writes a well-framed answer with a negative time into every pipe, then hangs."""
    import json
    import struct

    for task in range(0, 64):
        body = json.dumps({"kind": "done", "task": task, "outcome": {
            "status": "solved", "solutions": [], "time_s": -1.0}}).encode()
        _write_all(b"SKR1" + struct.pack(">I", len(body)) + body)
    time.sleep(3600)
    return Result(Status.ERROR, message="woke up")
