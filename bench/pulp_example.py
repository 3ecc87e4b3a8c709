"""The anchor for bench_mip.py: the approach of PuLP's documented Sudoku example (PuLP + CBC).

PuLP's documentation models Sudoku ("A Sudoku Problem formulation", examples
sudoku1.py and sudoku2.py) with one binary LpVariable per (value, row, column) for
*every* cell, 729 on a 9x9; an arbitrary objective of 0; one equality per cell and
per row, column and box and value; each given as one more constraint ``x == 1``; the
problem handed to the default solver, CBC, through PuLP (which writes the model to a
file and runs the CBC program). To find further solutions, sudoku2.py adds a cut that
forbids the grid just found (at most 80 of its 81 ones) and solves again.

This is our own code written from that description, not a copy of the example, for
any boxed n x n grid. PuLP is a benchmark-only dependency: ``pip install pulp`` (it
ships CBC); bench_mip.py skips the anchor when it is absent.
"""
from __future__ import annotations

from collections.abc import Iterator

import pulp


def solutions(givens: tuple[int, ...], box_rows: int, box_cols: int) -> Iterator[tuple[int, ...]]:
    """Every solution as a grid tuple, one CBC solve each (a generator: take what you need)."""
    n = box_rows * box_cols
    values = rows = cols = range(n)
    problem = pulp.LpProblem("Sudoku", pulp.LpMinimize)
    x = pulp.LpVariable.dicts("x", (values, rows, cols), cat="Binary")
    problem += 0, "no objective"
    for r in rows:
        for c in cols:
            problem += pulp.lpSum(x[v][r][c] for v in values) == 1
    for v in values:
        for i in range(n):
            problem += pulp.lpSum(x[v][i][c] for c in cols) == 1
            problem += pulp.lpSum(x[v][r][i] for r in rows) == 1
            top, left = (i // box_rows) * box_rows, (i % box_rows) * box_cols
            problem += pulp.lpSum(x[v][top + dr][left + dc]
                                  for dr in range(box_rows) for dc in range(box_cols)) == 1
    for cell, value in enumerate(givens):
        if value:
            problem += x[value - 1][cell // n][cell % n] == 1
    solver = pulp.PULP_CBC_CMD(msg=False)
    while True:
        problem.solve(solver)
        if pulp.LpStatus[problem.status] != "Optimal":
            return
        ones = [x[v][r][c] for v in values for r in rows for c in cols if x[v][r][c].varValue > 0.5]
        grid = [0] * (n * n)
        for v in values:
            for r in rows:
                for c in cols:
                    if x[v][r][c].varValue > 0.5:
                        grid[r * n + c] = v + 1
        yield tuple(grid)
        problem += pulp.lpSum(ones) <= n * n - 1
