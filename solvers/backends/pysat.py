"""The ``pysat`` backend: python-sat's CDCL engines over the toolkit's own CNF encodings.

This module declares the backend; the method is in _pysat.py (which probes what the
installed python-sat's engines can do), imported only when a puzzle is solved.
"""
from __future__ import annotations

from typing import Any

from models import Model

from ..encodings.cnf import DESCRIPTIONS, formula_family
from ..encodings.isomorph import solve_isomorph
from ..options import Declaration, Option, seed
from ..result import COUNT_ALL, SAMPLE, Counted, Result, with_count

ENCODINGS = ("extended", "efficient", "minimal", "simplified")
"""Encodings, the first the default: warm ``extended`` was the fastest on top95, the forum's
hardest and the 16x16 samples (bench/README.md)."""
INFERENCES = ("none", "up", "failed-literal")
ENGINE_NAMES = ("cadical103", "cadical153", "cadical195", "cadical300", "ergo", "glucose3",
                "glucose4", "glucose42", "gluecard3", "gluecard4", "maplechrono", "maplecm",
                "maplesat", "mergesat3", "minicard", "minisat22", "minisatep")
"""python-sat's engines that honour assumptions and conflict budgets (a wheel may lack some:
the run then says so)."""
ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "minisat": "minisat22"}
SEARCH_ENGINE, PROPAGATION_ENGINE = "cadical195", "minisat22"
"""The engines when none is named: warm CaDiCaL 1.9.5 was the fastest counting to two on
top95 and the forum's hardest; MiniSat's propagate() took about a hundredth of CaDiCaL's
time per call (bench/README.md)."""


def _resolve(options: dict[str, Any]) -> dict[str, Any]:
    """The engine made explicit: an alias by its name, none by the default for the mode."""
    engine = options["engine"]
    if engine is None:
        engine = SEARCH_ENGINE if options["inference"] == "none" else PROPAGATION_ENGINE
    return {**options, "engine": ALIASES.get(engine, engine)}


DECLARATION = Declaration(
    options=(
        Option("engine", "choice", f"python-sat engine; none: {SEARCH_ENGINE} for search, "
               f"{PROPAGATION_ENGINE} for the inference modes; aliases "
               + ", ".join(f"{a}={n}" for a, n in ALIASES.items()),
               default=None, choices=(*ENGINE_NAMES, *ALIASES)),
        Option("encoding", "choice", "CNF encoding: " + "; ".join(
            f"{k} = {DESCRIPTIONS[k]}" for k in ENCODINGS), default=ENCODINGS[0], choices=ENCODINGS),
        Option("warm", "bool", "true: one solver per engine, encoding and geometry per worker, "
               "givens as assumptions; false: a fresh solver per puzzle (simplified: always)",
               default=True),
        Option("conflict_limit", "int", "work budget: at most this many conflicts per solver "
               "call; spending it gives unknown; none: no budget", default=None, low=1),
        Option("inference", "choice", "none: CDCL search; up: unit propagation only; "
               "failed-literal: failed literals to a fixed point (no search: unknown unless "
               "every cell is fixed)", default="none", choices=INFERENCES),
        seed("solve a random isomorph (values relabelled, rows and columns of a plain grid "
             "reordered), so the engine meets the variables in another order (the engines' own "
             "seeds change nothing unless their random decisions are switched on)"),
    ),
    counters={
        "nodes": "CDCL decisions (the engine's accum_stats, this puzzle's share)",
        "conflicts": "CDCL conflicts",
        "propagations": "literals propagated by the engine",
        "restarts": "CDCL restarts",
        "fixed_cells": "inference=up|failed-literal: open cells fixed without search",
        "variables": "CNF variables of the encoding, cage counters' included (activation "
                     "literals not counted)",
        "clauses": "CNF clauses of the encoding, one unit per given whether loaded or assumed "
                   "(blocking clauses not counted)",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="python-sat", imports="pysat", extra="pysat", resolve=_resolve, family=formula_family,
    notes="warm and incremental; propagation-only modes",
)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          engine: str | None = None, encoding: str = ENCODINGS[0], warm: bool = True,
          conflict_limit: int | None = None, inference: str = "none", seed: int | None = None) -> Result:
    """Solve (or only propagate) with a python-sat engine; up to max_solutions grids."""
    if seed is not None:
        return solve_isomorph(solve, model, seed, max_solutions=max_solutions, time_limit=time_limit,
                              engine=engine, encoding=encoding, warm=warm,
                              conflict_limit=conflict_limit, inference=inference)
    from ._pysat import solve as search  # noqa: PLC0415 - loads python-sat, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit, engine=engine,
                  encoding=encoding, warm=warm, conflict_limit=conflict_limit, inference=inference)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, engine: str | None = None,
          encoding: str = ENCODINGS[0], warm: bool = True, conflict_limit: int | None = None,
          inference: str = "none", seed: int | None = None) -> Result:
    """Count every solution (count mode), a clause blocking each one found (they grow with the
    count), keeping the first ``sample`` grids."""
    if seed is not None:
        return solve_isomorph(count, model, seed, time_limit=time_limit, sample=sample, engine=engine,
                              encoding=encoding, warm=warm, conflict_limit=conflict_limit, inference=inference)
    from ._pysat import solve as search  # noqa: PLC0415 - loads python-sat, only to count
    found = Counted(sample)
    return with_count(search(model, max_solutions=COUNT_ALL, time_limit=time_limit, engine=engine,
                             encoding=encoding, warm=warm, conflict_limit=conflict_limit,
                             inference=inference, found=found), found)

