"""Timing rules, one place: what a run's wall and CPU time are, and what counts as a timeout.

* Wall time is measured in the worker around the backend's call; CPU time is the
  worker's own (all its threads) plus any child processes it waited for.
* A run that ends after its limit is a timeout whatever it returned, and is recorded
  AT the limit; so is a backend's own TIMEOUT and a worker killed after the grace
  period. The grace the runner allows before killing never reaches a score.
"""
from __future__ import annotations

import resource
import time
from dataclasses import replace

from ...result import Status
from ..tasks import Outcome

LATE_STATUSES = (Status.SOLVED, Status.UNSAT, Status.UNKNOWN, Status.TIMEOUT)
"""Statuses turned into a timeout at the limit when the run took longer than its limit."""


def cpu_clock() -> float:
    """CPU seconds used so far by this process and its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def enforce_limit(outcome: Outcome, limit: float) -> Outcome:
    """The outcome as scored: a timeout at the limit when over it, or a TIMEOUT of its own.

    >>> from solvers.harness.tasks import Outcome
    >>> late = enforce_limit(Outcome(Status.SOLVED, [(1,)], time_s=1.3), 1.0)
    >>> late.status.value, late.time_s, late.solutions
    ('timeout', 1.0, [])
    >>> enforce_limit(Outcome(Status.TIMEOUT, time_s=0.7), 1.0).time_s
    1.0
    >>> enforce_limit(Outcome(Status.SOLVED, time_s=0.7), 1.0).status.value
    'solved'
    """
    if outcome.status not in LATE_STATUSES:
        return outcome
    if outcome.status == Status.TIMEOUT:
        return replace(outcome, time_s=limit, solutions=[], complete=False)
    if outcome.time_s <= limit:
        return outcome
    message = (f"returned {outcome.status.value} after {outcome.time_s:.3g} s, "
               f"past the limit of {limit:g} s: counted as a timeout")
    return replace(outcome, status=Status.TIMEOUT, time_s=limit, solutions=[], complete=False,
                   message=message)
