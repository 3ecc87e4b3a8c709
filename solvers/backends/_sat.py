"""The ``sat`` backend: the model as CNF (solvers/encodings/cnf.py), solved by PicoSAT through pycosat.

Each pycosat call starts a fresh solver, so the run is:

1. encode the model (the geometry clauses are cached; a puzzle adds only its own);
2. call ``pycosat.solve`` and translate its answer explicitly: a list is a model,
   ``"UNSAT"`` is unsatisfiable, ``"UNKNOWN"`` means the propagation limit was hit;
   anything else raises :class:`SolverError`;
3. for more solutions, add a clause blocking the grid just found and solve again.
   (``pycosat.itersolve`` keeps one solver, but it ends the iteration silently when
   its propagation limit is hit, so "no more solutions" and "gave up" look the same.)

Limits. ``prop_limit`` is a work budget: PicoSAT propagations per solver call, mapped
to pycosat's ``prop_limit``; hitting it ends the run (UNKNOWN, or SOLVED but not
complete if a solution was found). A pycosat call cannot be interrupted, so
``time_limit`` is enforced between calls: the solver runs in slices of growing
propagation limits (100,000 first, then x4) and the clock is checked after each; the
next slice is also capped at the propagations the last slice's rate allows in the
remaining time. PicoSAT is deterministic, so a slice no larger than the last one
could only fail again, and the run stops there. Every slice restarts from scratch:
at most about a third of the work is repeated, and easy puzzles need one slice.

``limit_by='process'`` (the default where the system can fork) keeps the first slice
and hands a question it does not settle to a forked process that runs
``pycosat.itersolve`` for all the solutions still wanted: one solver, so nothing is
repeated and the clauses it learned while finding the first grid serve the proof that
there is no second. The parent reads the grids from a pipe and kills the process at
the deadline (the process also sets an alarm to end itself, should the parent be killed
first). An ended iteration means no more solutions, since it runs without a
propagation limit; with ``prop_limit`` the run uses slices. ``limit_by='slices'``:
slices only.

pycosat reports no counters; stats hold the encoding's size and the encode and solve
times (propagations stay unmeasured).
"""
from __future__ import annotations

import contextlib
import math
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import BinaryIO, cast

import pycosat

from models import Grid, Model

from ..encodings.cnf import ENCODINGS, Clause, encode
from ..result import Result, Stats, finish

__all__ = ["ENCODINGS", "SolverError", "solve"]


FIRST_SLICE = 100_000
"""Propagations in the first slice of a time-limited run (a top95 puzzle needs far fewer)."""
GROWTH = 4
"""Each further slice may be this many times larger than the one before."""
FRESH_SOLUTIONS = 8
"""Solutions found by a fresh solver each (the first slice) before, with limit_by=process, one
solver in a forked process lists the rest."""
OUT_OF_TIME, OUT_OF_BUDGET = "out of time", "out of budget"


class SolverError(RuntimeError):
    """pycosat answered something that is neither a model, "UNSAT" nor "UNKNOWN"."""


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = ENCODINGS[0], prop_limit: int | None = None,
          limit_by: str = "process", found: list[Grid] | None = None) -> Result:
    """Solve with pycosat under the chosen encoding; up to max_solutions grids (appended to
    ``found`` when given: a Counted list counts them, keeping a sample)."""
    forking = (limit_by == "process" and time_limit is not None and prop_limit is None
               and hasattr(os, "fork"))
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    cnf = encode(model, encoding)
    stats = Stats(encode_time=time.perf_counter() - start, solve_time=0.0,
                  variables=cnf.num_vars, clauses=len(cnf.clauses))
    clauses: list[Clause] = cnf.clauses  # shared with the encoding cache: copied before adding
    solutions: list[Grid] = [] if found is None else found
    complete = limit_hit = budget_hit = False
    message = ""
    counted = 0  # solutions found (the list may keep only a sample)
    while counted < max_solutions:
        began = time.perf_counter()
        if deadline is not None and began > deadline:  # between solutions found by fresh solvers
            limit_hit, message = True, f"time limit of {time_limit} s reached"
            break
        if forking:
            # past a few solutions, one solver lists the rest (each fresh solver repeats the work)
            answer = _pycosat(clauses, cnf.num_vars, FIRST_SLICE) if counted < FRESH_SOLUTIONS else "UNKNOWN"
            if answer == "UNKNOWN":
                more, complete = _solve_in_process(clauses, cnf.num_vars, max_solutions - counted,
                                                   math.inf if deadline is None else deadline,
                                                   lambda model: solutions.append(cnf.decode(model)))
                stats.solve_time = (stats.solve_time or 0.0) + time.perf_counter() - began
                counted += more
                limit_hit = not complete and counted < max_solutions
                message = f"time limit of {time_limit} s reached" if limit_hit else ""
                break
        else:
            answer = _solve_within(clauses, cnf.num_vars, deadline, prop_limit)
        stats.solve_time = (stats.solve_time or 0.0) + time.perf_counter() - began
        if answer == "UNSAT":
            complete = True
            break
        if answer in (OUT_OF_TIME, OUT_OF_BUDGET):
            limit_hit, budget_hit = answer == OUT_OF_TIME, answer == OUT_OF_BUDGET
            message = (f"time limit of {time_limit} s reached" if answer == OUT_OF_TIME
                       else f"propagation limit of {prop_limit} reached")
            break
        grid = cnf.decode(cast(list[int], answer))  # neither UNSAT nor a limit: a model
        solutions.append(grid)
        counted += 1
        if counted < max_solutions:
            if clauses is cnf.clauses:
                clauses = list(clauses)
            clauses.append(cnf.blocking_clause(grid))
    return finish(solutions, complete, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=message)


def _solve_within(clauses: list[Clause], num_vars: int, deadline: float | None,
                  budget: int | None) -> list[int] | str:
    """One satisfiability question: a model, "UNSAT", OUT_OF_TIME or OUT_OF_BUDGET."""
    if deadline is None:
        answer = _pycosat(clauses, num_vars, budget or 0)
        return OUT_OF_BUDGET if answer == "UNKNOWN" else answer
    limit = FIRST_SLICE if budget is None else min(FIRST_SLICE, budget)
    while time.perf_counter() < deadline:
        began = time.perf_counter()
        answer = _pycosat(clauses, num_vars, limit)
        now = time.perf_counter()
        if answer != "UNKNOWN":
            return answer
        if budget is not None and limit >= budget:
            return OUT_OF_BUDGET
        rate = limit / max(now - began, 1e-6)          # propagations per second just measured
        next_limit = int(min(limit * GROWTH, rate * (deadline - now)))
        if budget is not None:
            next_limit = min(next_limit, budget)
        if next_limit <= limit:                         # deterministic: it would fail again
            break
        limit = next_limit
    return OUT_OF_TIME


def _solve_in_process(clauses: list[Clause], num_vars: int, wanted: int, deadline: float,
                      take: Callable[[list[int]], None]) -> tuple[int, bool]:
    """Up to `wanted` models from one PicoSAT in a forked process, stopped at the deadline,
    each handed to ``take`` as it arrives; how many, and whether the process saw the end of
    the solutions."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(write_end, clauses, num_vars, wanted, deadline - time.perf_counter())
    os.close(write_end)
    models = 0
    ended, buffer = False, b""
    try:
        while not ended and models < wanted:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                break
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                raise SolverError("the PicoSAT process ended without an answer")
            buffer += chunk
            while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8], "little"):
                size = int.from_bytes(buffer[:8], "little")
                item, buffer = pickle.loads(buffer[8:8 + size]), buffer[8 + size:]
                if item is None:
                    ended = True
                else:
                    take(item)
                    models += 1
    finally:
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return models, ended


def _child(fd: int, clauses: list[Clause], num_vars: int, wanted: int, seconds: float) -> None:
    """In the forked process: send each model of pycosat.itersolve, then None if the
    solutions ran out; end by the alarm once past the deadline, whoever stops it."""
    try:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)  # a handler inherited from the parent
        signal.alarm(max(1, math.ceil(seconds) + 1))   # could not stop PicoSAT's C loop
        with os.fdopen(fd, "wb") as pipe:
            for found in pycosat.itersolve(clauses, vars=num_vars):
                _send(pipe, found)
                wanted -= 1
                if wanted == 0:
                    break
            else:
                _send(pipe, None)
    finally:
        os._exit(0)


def _send(pipe: BinaryIO, item: object) -> None:
    """One pickled item, its length first."""
    data = pickle.dumps(item)
    pipe.write(len(data).to_bytes(8, "little") + data)
    pipe.flush()


def _pycosat(clauses: list[Clause], num_vars: int, prop_limit: int) -> list[int] | str:
    """pycosat.solve with its three documented answers checked; anything else raises."""
    answer = pycosat.solve(clauses, vars=num_vars, prop_limit=prop_limit)
    if isinstance(answer, list):
        model: list[int] = answer
        return model
    if answer in ("UNSAT", "UNKNOWN"):
        return str(answer)
    raise SolverError(f"pycosat returned {answer!r}, expected a model, 'UNSAT' or 'UNKNOWN'")

