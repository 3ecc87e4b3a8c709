"""The contract's time limit, for every registered backend: a backend that can stop itself stops
at a short limit without a wrong answer (the harness limits the others from outside). Apart from
tests/test_backends.py so that the two files, the contract's costliest in the quick tier, can
run on different xdist workers (``--dist loadfile`` keeps each file on one)."""
from __future__ import annotations

import pytest

from models import Model
from solvers import Status
from solvers.registry import Backend

from .conftest import cpu_seconds, load
from .test_backends import solve


def test_time_limit_is_honoured_without_a_wrong_answer(backend: Backend) -> None:
    if not backend.interruptible:
        pytest.skip(f"{backend.name} cannot be interrupted from inside; the harness limits it from outside")
    puzzle = load("25x25_gecode_frisch.txt")[0]
    solve(backend, load("seeds.txt")[0])  # loaded and warm: the bound below is the search's, not an import's
    # nor a compile's: prepared for this puzzle's kind, as the harness does before the clock
    # (fast compiles its learning kernel for a 25x25 grid when numba's cache is cold)
    backend.prepare({}, Model.from_puzzle(puzzle))
    start = cpu_seconds()  # not the wall clock: a loaded machine stretches that, not the work done
    result = solve(backend, puzzle, time_limit=0.2)
    spent = cpu_seconds() - start
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
    assert result.status is Status.SOLVED or not result.solutions
    assert spent < 0.2 + 5.0, f"a 0.2 s limit took {spent:.1f} s of CPU"
