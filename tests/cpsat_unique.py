"""An independent uniqueness check with OR-tools CP-SAT used directly (no backend module).

Counts solutions up to two: solve, then forbid that solution and solve again.
Used by tests/test_generator.py and, for the bundled sets, from the command line:

    python -m tests.cpsat_unique puzzles/generated_*.txt

which prints one line per file and exits 1 if any puzzle is not proved unique.
"""
from __future__ import annotations

import sys
import time

from ortools.sat.python import cp_model

from models import Model, Puzzle, read_puzzles


def count_solutions(puzzle: Puzzle, limit: int = 2, time_limit: float = 120.0) -> int | None:
    """How many solutions (0, 1, or ``limit`` meaning at least that many); None if CP-SAT gave up."""
    model = Model.from_puzzle(puzzle)
    cp = cp_model.CpModel()
    cells = [cp.NewIntVar(v, v, f"c{i}") if v else cp.NewIntVar(1, model.n, f"c{i}")
             for i, v in enumerate(puzzle.givens)]
    for group in model.groups:
        cp.AddAllDifferent([cells[i] for i in group.cells])
    found = 0
    while found < limit:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = time_limit
        status = solver.Solve(cp)
        if status == cp_model.INFEASIBLE:
            return found
        if status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            return None
        found += 1
        differs = []
        for i, v in enumerate(puzzle.givens):
            if not v:
                flag = cp.NewBoolVar(f"d{found}_{i}")
                cp.Add(cells[i] != solver.Value(cells[i])).OnlyEnforceIf(flag)
                differs.append(flag)
        if not differs:
            return found  # every cell given: nothing else can differ
        cp.AddBoolOr(differs)
    return found


def main(paths: list[str]) -> int:
    bad = 0
    for path in paths:
        batch = read_puzzles(path)
        start = time.perf_counter()
        counts = [count_solutions(p) for p in batch.puzzles]
        not_unique = [i + 1 for i, c in enumerate(counts) if c != 1]
        bad += len(not_unique) + len(batch.errors)
        verdict = "all unique" if not not_unique and not batch.errors else \
            f"NOT proved unique: puzzles {not_unique}; read errors: {len(batch.errors)}"
        print(f"{path}: {len(batch.puzzles)} puzzles, {verdict} (CP-SAT, {time.perf_counter() - start:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
