"""Timing rules, one place: what a run's wall and CPU time are, and what counts as a timeout.

* Wall and CPU time are read in the worker over the same span, the backend's call and
  nothing else: wall first and CPU second at the start, CPU first and wall second at the
  end, so the CPU span lies inside the wall span (``Clocks``). CPU time is the worker's
  own (all its threads) plus any child processes it waited for. No garbage collection
  runs inside the span (``collector_paused``: bench/README.md measures why).
* A run killed from outside has the CPU its worker used as /proc read it just before the
  kill (``proc_cpu_seconds``, in clock ticks of 10 ms), or None where that cannot be read:
  never a made-up 0.0. ``cpu_s`` None means "not measured" everywhere.
* ``--cpu-limit`` is enforced by the kernel's per-process CPU timer (ITIMER_PROF, set by
  the worker around the call, its signal left at its default action: the worker ends);
  the parent reads that death as a timeout at the CPU limit.
* A run that ends after its limit (wall, or CPU when one is set) is a timeout whatever it
  returned, and is recorded AT the wall limit, its CPU capped at the CPU limit (the wall
  limit when none is set); so is a backend's own TIMEOUT and a worker killed after the
  grace period. ``termination`` says which limit ended it, in BenchExec's words:
  ``walltime`` or ``cputime`` (``memory`` for a memory-out). The grace the runner allows
  before killing never reaches a score.
"""
from __future__ import annotations

import contextlib
import gc
import os
import resource
import signal
import time
from collections.abc import Iterator
from dataclasses import replace

from ...result import Status
from ..tasks import Outcome

LATE_STATUSES = (Status.SOLVED, Status.UNSAT, Status.UNKNOWN, Status.TIMEOUT)
"""Statuses turned into a timeout at the limit when the run took longer than its limit."""
WALLTIME, CPUTIME, MEMORY = "walltime", "cputime", "memory"
"""What ended a run early (BenchExec's ``terminationreason`` words)."""
CPU_LIMIT_SIGNALS = (signal.SIGPROF, signal.SIGXCPU)
"""A worker killed by one of these was stopped by its CPU limit."""


def cpu_clock() -> float:
    """CPU seconds used so far by this process and its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cpu_clock_resolution(samples: int = 200) -> float:
    """The CPU clock's resolution, measured: the smallest step it was seen to take (at least
    what the platform declares). The rule "CPU time never exceeds wall time by more than
    this" holds for single-threaded backends."""
    declared = time.get_clock_info("process_time").resolution
    steps: list[float] = []
    last = time.process_time()
    while len(steps) < samples:
        now = time.process_time()
        if now != last:
            steps.append(now - last)
            last = now
    return max(declared, min(steps))


class Clocks:
    """Wall and CPU seconds over one span; the CPU span nested inside the wall span."""

    def __init__(self) -> None:
        self.wall_s = self.cpu_s = 0.0
        self._wall = self._cpu = 0.0

    def start(self) -> None:
        self._wall = time.perf_counter()
        self._cpu = cpu_clock()

    def stop(self) -> None:
        self.cpu_s = cpu_clock() - self._cpu
        self.wall_s = time.perf_counter() - self._wall


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside the block: collect first (outside the timed span), disable
    during, re-enable after (as ``timeit`` does). The worker freezes what it imported
    (``gc.freeze``) so the collection before each run is short."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def cpu_limited(seconds: float | None) -> Iterator[None]:
    """Within the block this process ends (SIGPROF, default action) once it has used
    ``seconds`` of CPU (all its threads; not its children): the kernel enforces it."""
    if seconds is None:
        yield
        return
    old = signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def proc_cpu_seconds(pid: int | str = "self") -> float | None:
    """CPU seconds a process has used (user + system, its own and its waited-for children's),
    as /proc/PID/stat counts them (clock ticks); None where that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        ticks = sum(int(fields[index]) for index in (11, 12, 13, 14))  # utime stime cutime cstime
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def enforce_limit(outcome: Outcome, limit: float, cpu_limit: float | None = None) -> Outcome:
    """The outcome as scored: a timeout at the limit when over either limit, or a TIMEOUT of its own.

    >>> from solvers.harness.tasks import Outcome
    >>> late = enforce_limit(Outcome(Status.SOLVED, [(1,)], time_s=1.3, cpu_s=1.2), 1.0)
    >>> late.status.value, late.time_s, late.cpu_s, late.solutions, late.termination
    ('timeout', 1.0, 1.0, [], 'walltime')
    >>> enforce_limit(Outcome(Status.TIMEOUT, time_s=0.7), 1.0).time_s
    1.0
    >>> enforce_limit(Outcome(Status.SOLVED, time_s=0.7), 1.0).status.value
    'solved'
    >>> hog = enforce_limit(Outcome(Status.SOLVED, [(1,)], time_s=0.7, cpu_s=1.4), 5.0, cpu_limit=1.0)
    >>> hog.status.value, hog.time_s, hog.cpu_s, hog.termination
    ('timeout', 5.0, 1.0, 'cputime')
    """
    if outcome.status not in LATE_STATUSES:
        return outcome
    cap = cpu_limit if cpu_limit is not None else limit
    cpu = None if outcome.cpu_s is None else min(outcome.cpu_s, cap)
    if outcome.status == Status.TIMEOUT:
        return replace(outcome, time_s=limit, cpu_s=cpu, solutions=[], complete=False,
                       termination=outcome.termination or WALLTIME)
    over_cpu = cpu_limit is not None and outcome.cpu_s is not None and outcome.cpu_s > cpu_limit
    if outcome.time_s <= limit and not over_cpu:
        return outcome
    if over_cpu:
        message = (f"returned {outcome.status.value} after {outcome.cpu_s:.3g} s of CPU, past the "
                   f"CPU limit of {cpu_limit:g} s: counted as a timeout")
    else:
        message = (f"returned {outcome.status.value} after {outcome.time_s:.3g} s, "
                   f"past the limit of {limit:g} s: counted as a timeout")
    return replace(outcome, status=Status.TIMEOUT, time_s=limit, cpu_s=cpu, solutions=[],
                   complete=False, message=message, termination=CPUTIME if over_cpu else WALLTIME)
