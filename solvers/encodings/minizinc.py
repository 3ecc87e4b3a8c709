"""A model as MiniZinc text: what the ``minizinc`` backend solves and ``export --format minizinc``
writes, the same file for both.

The text is self-contained (data inline, no .dzn): one integer variable per cell, numbered
row by row from 1; a given fixes its cell; each of the model's groups (rows, columns, boxes,
regions, diagonals, extra groups, cages' cells) is one all-different constraint; each cage
total is one linear ``sum``. Its ``output`` prints the solution as one line in the
toolkit's line format (n <= 35; a larger grid prints n rows of integers, the grid format),
so ``minizinc --solver gecode FILE.mzn`` prints a line ``compare.py`` reads.

The all-different constraint is written ``all_different_int``, not ``alldifferent``: with
MiniZinc 2.6 and Gecode 6.2's constraint library (Debian 12's packages) ``alldifferent``
reaches Gecode as pairwise ``!=`` (MiniZinc's default decomposition), so Gecode's own
propagator and its consistency level are never used; ``all_different_int`` is Gecode's
native constraint there, and with any other solver MiniZinc's standard library maps it to
that solver's all-different (MiniZinc 2.6 warns that the name is deprecated).
``propagation=pairwise`` writes the decomposition on purpose, for comparison.

>>> from models import parse_puzzle, Model
>>> text = model_text(Model.from_puzzle(parse_puzzle("12..34....43..21")))
>>> print(*[line for line in text.splitlines() if "all_different_int(" in line or "row 1" in line], sep="\\n")
  {1, 2, 3, 4},  % row 1
constraint forall(g in index_set(group))(all_different_int([cell[i] | i in group[g]]) :: domain_propagation);
"""
from __future__ import annotations

from collections.abc import Iterable

from models import Model, Puzzle
from models.fields import write_fields
from models.symbols import MAX_SYMBOL_SIZE, SYMBOLS

from .comments import comment_text

PROPAGATIONS = {
    "domain": "Gecode's distinct with domain consistency (Regin's matching)",
    "bounds": "bounds consistency (Hall intervals)",
    "default": "no annotation: the solver's own level (Gecode 6.2 through FlatZinc searched as with bounds)",
    "pairwise": "no global constraint: cell != cell for every pair in a group (MiniZinc's own "
                "decomposition)",
}
"""How each group's all-different is stated and propagated, the default first."""
SEARCHES = {
    "solver": "the solver's own default search",
    "first_fail": "the cell with the fewest values left (MRV), smallest value first",
    "dom_w_deg": "the fewest values left per failure weight, smallest value first",
    "input_order": "cells in reading order, smallest value first",
}
"""The search annotation of the solve item, the default first."""
CELL = "cell"
"""The name of the cells' variable array (row by row, 1-based); the backend reads it back."""
_ANNOTATION = {"domain": " :: domain_propagation", "bounds": " :: bounds_propagation", "default": ""}


def model_text(model: Model, propagation: str = "domain", search: str = "solver", *,
               title: str = "") -> str:
    """The model as a MiniZinc program; ``title`` is a comment line on top (the puzzle's source)."""
    if propagation not in PROPAGATIONS or search not in SEARCHES:
        raise ValueError(f"unknown propagation {propagation!r} or search {search!r}; valid: "
                         f"{', '.join(PROPAGATIONS)}; {', '.join(SEARCHES)}")
    puzzle, n = model.puzzle, model.n
    return "\n".join([
        "% Sudoku as MiniZinc (sudoku-methods, solvers/encodings/minizinc.py)",
        *([f"% {comment_text(title)}"] if title else []),
        f"% {puzzle.geometry.label()} {puzzle.variant}, {len(model.groups)} all-different groups, "
        f"{len(model.cages)} cage totals, {puzzle.num_givens} givens",
        f"% all-different: {propagation} ({PROPAGATIONS[propagation]}); search: {search} "
        f"({SEARCHES[search]})",
        "% solve: minizinc --solver gecode THIS.mzn   (--all-solutions lists every solution)",
        "% cells are numbered 1..n*n row by row; the output is the solved puzzle "
        + ("in the line format (one symbol a cell, then any variant fields)" if n <= MAX_SYMBOL_SIZE
           else "in the grid format (any variant fields, then n rows of integers)"),
        *_include(propagation),
        "",
        f"int: n = {n};",
        f"array[1..n * n] of 0..n: given = {_ints(model.givens)};  % 0: empty",
        "array[int] of set of int: group = [" + _sets([(g.cells, g.name) for g in model.groups]) + "];",
        "array[int] of set of int: cage = [" + _sets([(c.cells, f"total {c.total}") for c in model.cages])
        + "];",
        f"array[int] of int: total = {_ints(c.total or 0 for c in model.cages)};",
        "",
        f"array[1..n * n] of var 1..n: {CELL};",
        f"constraint forall(i in 1..n * n where given[i] > 0)({CELL}[i] = given[i]);",
        _all_different(propagation),
        f"constraint forall(k in index_set(cage))(sum(i in cage[k])({CELL}[i]) = total[k]);",
        _solve(search),
        "",
        *_output(puzzle),
    ]) + "\n"


def _include(propagation: str) -> list[str]:
    if propagation == "pairwise":
        return []
    return ["% all_different_int, not alldifferent: MiniZinc 2.6 with Gecode 6.2's library turns",
            "% alldifferent into pairwise != (see solvers/encodings/minizinc.py)",
            'include "all_different_int.mzn";']


def _all_different(propagation: str) -> str:
    if propagation == "pairwise":
        return (f"constraint forall(g in index_set(group))(forall(i, j in group[g] where i < j)"
                f"({CELL}[i] != {CELL}[j]));")
    return (f"constraint forall(g in index_set(group))(all_different_int([{CELL}[i] | i in group[g]])"
            f"{_ANNOTATION[propagation]});")


def _solve(search: str) -> str:
    if search == "solver":
        return "solve satisfy;"
    return f"solve :: int_search({CELL}, {search}, indomain_min) satisfy;"


def _ints(values: Iterable[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _sets(sets: list[tuple[tuple[int, ...], str]]) -> str:
    """One set literal a line (cells 1-based), each with a comment naming it."""
    if not sets:
        return ""
    last = len(sets) - 1
    rows = [f"  {{{', '.join(str(c + 1) for c in cells)}}}{',' if i < last else ''}  % {comment_text(name)}"
            for i, (cells, name) in enumerate(sets)]
    return "\n" + "\n".join(rows) + "\n"


def _output(puzzle: Puzzle) -> list[str]:
    """The output item: the solved puzzle in the line format up to 35x35 (its variant fields
    after the symbols, so a jigsaw reads back as a jigsaw), else in the grid format. Fields
    hold letters, digits and = : , - only: nothing to escape in a MiniZinc string."""
    fields = " ".join(write_fields(puzzle))
    if puzzle.n <= MAX_SYMBOL_SIZE:
        symbols = ", ".join(f'"{s}"' for s in SYMBOLS[:puzzle.n])
        after = f" {fields}" if fields else ""
        return [f"array[1..n] of string: symbol = [{symbols}];",
                f'output [concat([symbol[fix({CELL}[i])] | i in 1..n * n]) ++ "{after}\\n"];']
    before = f'["{fields}\\n"] ++ ' if fields else ""
    return [f'output {before}[show({CELL}[i]) ++ if i mod n == 0 then "\\n" else " " endif | i in 1..n * n];']
