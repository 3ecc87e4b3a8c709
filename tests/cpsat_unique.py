"""An independent uniqueness check with OR-tools CP-SAT used directly (no backend module).

Counts solutions up to two: solve, then forbid that solution and solve again.
Used by tests/test_generator.py and, for the bundled sets, from the command line:

    python -m tests.cpsat_unique [--mrv SECONDS] puzzles/generated_*.txt

which prints one line per file and exits 1 if any puzzle is not proved unique.
``--mrv SECONDS`` also counts to two with the mrv backend (through the registry, at
most SECONDS per puzzle), so each puzzle is checked by two different methods.
"""
from __future__ import annotations

import sys
import time

from models import Model, Puzzle, read_puzzles


def count_solutions(puzzle: Puzzle, limit: int = 2, time_limit: float = 120.0) -> int | None:
    """How many solutions (0, 1, or ``limit`` meaning at least that many); None if CP-SAT gave up."""
    from ortools.sat.python import cp_model  # OR-tools (and pandas) imported only when counting

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


def mrv_unique(puzzle: Puzzle, time_limit: float) -> bool | None:
    """The mrv backend's verdict counting to two: True unique, False not, None out of time."""
    from solvers import registry
    return registry.get("mrv").solve(puzzle, max_solutions=2, time_limit=time_limit).unique


def main(argv: list[str]) -> int:
    mrv_limit = None
    if argv[:1] == ["--mrv"]:
        mrv_limit, argv = float(argv[1]), argv[2:]
    bad = 0
    for path in argv:
        batch = read_puzzles(path)
        start = time.perf_counter()
        counts = [count_solutions(p) for p in batch.puzzles]
        not_unique = [i + 1 for i, c in enumerate(counts) if c != 1]
        bad += len(not_unique) + len(batch.errors)
        verdict = "all unique" if not not_unique and not batch.errors else \
            f"NOT proved unique: puzzles {not_unique}; read errors: {len(batch.errors)}"
        line = f"{path}: {len(batch.puzzles)} puzzles; CP-SAT: {verdict} ({time.perf_counter() - start:.1f} s)"
        if mrv_limit is not None:
            start = time.perf_counter()
            verdicts = [mrv_unique(p, mrv_limit) for p in batch.puzzles]
            wrong = [i + 1 for i, v in enumerate(verdicts) if v is False]
            unknown = [i + 1 for i, v in enumerate(verdicts) if v is None]
            bad += len(wrong)
            line += (f"; mrv: {sum(v is True for v in verdicts)} unique"
                     + (f", NOT unique {wrong}" if wrong else "")
                     + (f", out of time ({mrv_limit:g} s) on {unknown}" if unknown else "")
                     + f" ({time.perf_counter() - start:.1f} s)")
        print(line, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
