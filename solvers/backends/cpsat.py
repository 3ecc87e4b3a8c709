"""OR-tools CP-SAT backend: the model's groups as AllDifferent on integers, or as one-hot Booleans.

This module declares the backend; the method is in _cpsat.py (encodings, settings, status
translation), imported only when a puzzle is solved, so reading the declaration never
loads OR-tools.
"""
from __future__ import annotations

from typing import Any

from models import Model

from ..options import Declaration, Option
from ..result import COUNT_ALL, SAMPLE, Counted, Result, with_count

ENCODINGS = ("boolean", "integer")
"""The two encodings; the option also takes ``auto`` (the default), which picks one per model."""
ENCODING_CHOICES = ("auto", *ENCODINGS)
DEFAULT_WORKERS = 1
DEFAULT_SEED = 0

DECLARATION = Declaration(
    options=(
        Option("encoding", "choice", "boolean: one-hot Booleans, exactly-one; integer: "
               "AllDifferent on cell values; auto: integer when the puzzle has cage totals "
               "(a linear sum over integers propagates far better than over 0-1 literals), "
               "boolean otherwise", default="auto", choices=ENCODING_CHOICES),
        Option("workers", "int", "CP-SAT search workers (1: fastest on 9x9 and 16x16, see bench)",
               default=DEFAULT_WORKERS, low=1, high=256),
        Option("seed", "int", "CP-SAT random seed, for repeatable runs", default=DEFAULT_SEED,
               low=0, high=2**31 - 1),
        Option("parameters", "json", "further CP-SAT SatParameters, e.g. "
               '{"cp_model_presolve":true}; none: the tuned settings only', default=None),
    ),
    counters={
        "nodes": "CP-SAT branches",
        "conflicts": "CP-SAT conflicts",
        "propagations": "CP-SAT Boolean and integer propagations",
        "variables": "model variables",
        "constraints": "model constraints",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="ortools", imports="ortools", family="cp-sat",
    notes="`encoding=boolean` or `integer`",
)


def encoding_for(model: Model, encoding: str) -> str:
    """The encoding ``encoding`` names for this model: ``auto`` is ``integer`` when the model
    has cage totals (on the bundled cages-only killers, proving uniqueness took 0.15 s of CPU
    on average against 1.47 s with ``boolean``, docs/results.md) and ``boolean`` otherwise,
    the faster on every bundled set without cages (bench/README.md)."""
    if encoding != "auto":
        return encoding
    return "integer" if model.cages else "boolean"


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = "auto", workers: int = DEFAULT_WORKERS, seed: int = DEFAULT_SEED,
          parameters: dict[str, Any] | None = None) -> Result:
    """Solve with CP-SAT; up to max_solutions grids, stopping at time_limit seconds."""
    encoding = encoding_for(model, encoding)
    from ._cpsat import solve as search  # noqa: PLC0415 - loads OR-tools, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit, encoding=encoding,
                  workers=workers, seed=seed, parameters=parameters)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, encoding: str = "auto",
          workers: int = DEFAULT_WORKERS, seed: int = DEFAULT_SEED,
          parameters: dict[str, Any] | None = None) -> Result:
    """Count every solution (count mode): CP-SAT enumerates them all (one worker), each
    counted, the first ``sample`` kept."""
    from ._cpsat import solve as search  # noqa: PLC0415 - loads OR-tools, only to count
    found = Counted(sample)
    return with_count(search(model, max_solutions=COUNT_ALL, time_limit=time_limit,
                             encoding=encoding_for(model, encoding), workers=workers, seed=seed,
                             parameters=parameters, found=found), found)

