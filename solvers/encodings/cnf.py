"""CNF encodings of a Sudoku model: the variable numbering and the clause builders.

The encodings are those of Lynce and Ouaknine, "Sudoku as a SAT Problem" (2006),
stated over the model's all-different groups instead of rows, columns and boxes
(so an X-Sudoku adds its diagonals and a jigsaw swaps boxes for regions):

- ``minimal``: every cell has a value; no value twice in a group.
- ``efficient``: minimal + no cell has two values.
- ``extended``: efficient + every value appears in every group of n cells (a variant's
  smaller group only forbids repeats).
- ``simplified``: the extended clauses reduced by the givens before solving, as Kwon
  and Jain, "Optimized CNF Encoding for Sudoku Puzzles" (2006), do: variables the
  givens decide are removed, clauses they satisfy are dropped, literals they falsify
  are deleted, and the remaining variables are renumbered 1..k.

Killer cages (every encoding): a cage's digits differ because the cage is one of the
groups; its total is stated by the cage's *combinations*, the sets of distinct digits
of its size that sum to the total and hold its givens (solvers/encodings/cages.py).
With one selector variable per combination: at least one selector is true; a true
selector puts every open cell of the cage on one of its digits and each of its digits
in some open cell; digits in no combination leave the cage's cells (unit clauses); a
single combination needs no selector. Chosen over a pseudo-Boolean counter on the
value-weighted literals (what the ``pysat`` backend uses, through python-sat's card
module) because it is how a killer solver reasons, unit propagation on it prunes
a cell to the digits of the combinations left, and Sudoku cages have few combinations
(at most 12 for a 9x9 cage), so it is small. Selectors are numbered after the
(cell, value) variables; ``CNF.aux_vars`` counts them and decoding ignores them.

For an empty 9x9 grid (27 groups) the first three have 8,829, 11,745 and 11,988
clauses. In general, with n values, G groups of n cells each:
minimal ``n*n + G*n*C(n,2)``, efficient ``+ n*n*C(n,2)``, extended ``+ G*n``.
"No value twice in a group" is one binary clause per pair of cells of the group and
value, even where two groups share the pair (a row and a box), as in the paper.

Variable numbering (one object, :class:`Numbering`, owns it with its inverse): cell c
(0-based, reading order, c = row*n + column) holding value v (1..n) is SAT variable
``c*n + v``, so the variables are 1..n**3. The simplified encoding keeps only some of
them, numbered 1..k: its :class:`CNF` carries a :class:`Renumbering` instead.

The clauses that depend only on the encoding and the groups are built once per
(encoding, n, groups) and shared (:func:`geometry_clauses`); a puzzle adds only one unit
clause per given. Treat the clause lists as read-only: they are shared between puzzles.

>>> from models import parse_puzzle, Model
>>> cnf = encode(Model.from_puzzle(parse_puzzle("12..34....43..21")), "efficient")
>>> (cnf.num_vars, len(cnf.clauses), cnf.numbering.var(5, 3))
(64, 408, 23)
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from models import Grid, Group, Model, find_duplicate

from .cages import open_combinations

ENCODINGS = ("simplified", "minimal", "efficient", "extended")
"""Encoding names; the first is the default: ``simplified`` was the fastest with pycosat on
top95, hardest and 16x16 (about 2 ms per top95 puzzle against 3.5 ms for extended, the best
full encoding), because PicoSAT then loads about a fifth of the clauses (bench/README.md)."""

DESCRIPTIONS = {
    "minimal": "Lynce & Ouaknine minimal: each cell has a value; no value twice in a group",
    "efficient": "Lynce & Ouaknine efficient: minimal + each cell has at most one value",
    "extended": "Lynce & Ouaknine extended: efficient + each value appears in each group",
    "simplified": "extended reduced by the givens (Kwon & Jain): decided variables and "
                  "satisfied clauses removed, the rest renumbered",
}


def formula_family(options: dict[str, Any]) -> str:
    """The method family of a CNF backend's run (options.Declaration.family): its encoding.
    The engines (PicoSAT, CaDiCaL, Glucose, an external program) decide one formula built
    by this module, so a wrong formula fools each the same way: runs on one encoding are one
    family whatever engine decides them, and confirm nothing for each other.

    >>> formula_family({"encoding": "minimal", "engine": "cadical195"})
    'cnf-minimal'
    """
    return f"cnf-{options['encoding']}"


Clause = list[int]

GEOMETRY_CACHE_SIZE = 8
"""Clause sets kept (a 25x25 one holds ~750,000 clauses; each jigsaw layout is its own)."""


class EncodingError(ValueError):
    """An unknown encoding name, or a SAT model that does not describe a grid."""


class Numbering:
    """Which SAT variable stands for 'cell holds value', and back, like PySAT's IDPool.

    The standard numbering: cell c (0-based, reading order) holding value v (1..n) is
    variable ``c*n + v``, so the variables are 1..n**3. Every encoding, the DIMACS
    export and decoding and the sat backend number through this object.

    >>> numbering = Numbering(9)
    >>> numbering.var(0, 1), numbering.var(80, 9), numbering.cell_value(729), numbering.top
    (1, 729, (80, 9), 729)
    """

    renumbered = False

    def __init__(self, n: int) -> None:
        self.n = n

    @property
    def top(self) -> int:
        """The largest variable (also the number of variables)."""
        return self.n ** 3

    def var(self, cell: int, value: int) -> int:
        """The variable for 'cell holds value'."""
        return cell * self.n + value

    def cell_value(self, var: int) -> tuple[int, int]:
        """The (cell, value) a variable stands for: the inverse of :meth:`var`."""
        cell, rest = divmod(var - 1, self.n)
        return cell, rest + 1

    def cell_vars(self, cell: int) -> range:
        """One cell's variables, for values 1..n in order (so ``cell_vars(c)[v - 1]`` is var(c, v))."""
        first = cell * self.n
        return range(first + 1, first + self.n + 1)

    def describe(self) -> str:
        """The standard numbering in words and as a formula of row R, column C, value V."""
        n = self.n
        return (f"'row R, column C holds value V' (all 1..{n}) is variable "
                f"((R-1)*{n} + (C-1))*{n} + V, from 1 (r1c1=1) to {n ** 3} (r{n}c{n}={n})")


class Renumbering(Numbering):
    """Only some (cell, value) pairs kept, numbered 1..k in the order they were kept.

    ``standard[k]`` is the standard variable (see :class:`Numbering`) of variable k;
    ``standard[0]`` is unused. :meth:`var` raises KeyError for a pair that was not kept.

    >>> kept = Renumbering(4, (0, 7, 12))
    >>> kept.top, kept.var(2, 4), kept.cell_value(1)
    (2, 2, (1, 3))
    """

    renumbered = True

    def __init__(self, n: int, standard: tuple[int, ...]) -> None:
        super().__init__(n)
        self.standard = standard
        self._index: dict[int, int] | None = None

    @property
    def top(self) -> int:
        return len(self.standard) - 1

    def var(self, cell: int, value: int) -> int:
        if self._index is None:
            self._index = {s: k for k, s in enumerate(self.standard) if k}
        return self._index[super().var(cell, value)]

    def cell_value(self, var: int) -> tuple[int, int]:
        return super().cell_value(self.standard[var])


def check_encoding(name: str) -> str:
    """The name if it is an encoding, else EncodingError listing the valid ones."""
    if name not in ENCODINGS:
        raise EncodingError(f"unknown encoding {name!r}; valid encodings: {', '.join(ENCODINGS)}")
    return name


@dataclass(frozen=True, eq=False)
class CNF:
    """A puzzle's clauses under one encoding, and how to read a model back into a grid.

    ``numbering`` maps its variables to (cell, value): the standard :class:`Numbering`,
    or a :class:`Renumbering` for the simplified encoding.
    """

    encoding: str
    givens: Grid
    clauses: list[Clause]
    numbering: Numbering
    aux_vars: int = 0  # selectors of cage combinations, numbered after numbering.top

    @property
    def n(self) -> int:
        return self.numbering.n

    @property
    def num_vars(self) -> int:
        return self.numbering.top + self.aux_vars

    def decode(self, literals: Iterable[int]) -> Grid:
        """The grid a model (its true literals; false ones are ignored) describes.

        Given cells keep their givens; every other cell must have exactly one true value.
        """
        n, grid, counts = self.n, list(self.givens), [0] * (self.n * self.n)
        top, cell_value = self.numbering.top, self.numbering.cell_value
        for lit in literals:
            if 0 < lit <= top:
                cell, value = cell_value(lit)
                if self.givens[cell]:
                    continue
                grid[cell] = value
                counts[cell] += 1
        bad = [c for c, v in enumerate(self.givens) if not v and counts[c] != 1]
        if bad:
            cell = bad[0]
            raise EncodingError(f"the model gives cell r{cell // n + 1}c{cell % n + 1} "
                                f"{counts[cell]} values (expected exactly one)")
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> Clause:
        """A clause that rules out this grid's values in the empty cells (and nothing else)."""
        var = self.numbering.var
        return [-var(c, grid[c]) for c, v in enumerate(self.givens) if not v]


def encode(model: Model, encoding: str = ENCODINGS[0], *, cages: bool = True) -> CNF:
    """The CNF of a model's groups, givens and (unless ``cages`` is False, for a backend
    that states them its own way) cage totals under the named encoding."""
    check_encoding(encoding)
    if encoding == "simplified":
        cnf = _simplified(model)
    else:
        numbering = Numbering(model.n)
        base = geometry_clauses(encoding, model.n, model.groups)
        units = [[numbering.var(cell, v)] for cell, v in enumerate(model.givens) if v]
        cnf = CNF(encoding, model.givens, base + units, numbering)
    if not model.cages or not cages:
        return cnf
    clauses, selectors = cage_clauses(model, cnf.numbering)
    return CNF(cnf.encoding, cnf.givens, cnf.clauses + clauses, cnf.numbering, selectors)


def cage_clauses(model: Model, numbering: Numbering) -> tuple[list[Clause], int]:
    """The clauses of the model's cage totals by their combinations (see the module
    docstring), and the number of selector variables, numbered from numbering.top + 1.

    A (cell, value) the numbering does not keep (simplified: ruled out by the givens) is
    false and left out; a clause left with no literal is the empty clause, unsatisfiable.
    """
    givens, n = model.givens, model.n
    clauses: list[Clause] = []
    selectors = 0

    def var(cell: int, value: int) -> int | None:
        try:
            return numbering.var(cell, value)
        except KeyError:
            return None

    def some(pairs: Iterable[tuple[int, int]]) -> Clause:
        return [v for v in (var(c, x) for c, x in pairs) if v is not None]

    for cage in model.cages:
        open_cells = [c for c in cage.cells if not givens[c]]
        given = {givens[c] for c in cage.cells if givens[c]}
        needed = [sorted(digits - given) for digits in open_combinations(model, cage)]
        if not needed:
            clauses.append([])
            continue
        used = set().union(*needed)
        clauses += [[-v] for v in some((c, x) for c in open_cells for x in range(1, n + 1)
                                       if x not in used)]
        if len(needed) == 1:
            clauses += [some((c, x) for x in needed[0]) for c in open_cells]
            clauses += [some((c, x) for c in open_cells) for x in needed[0]]
            continue
        first = numbering.top + selectors + 1
        selectors += len(needed)
        clauses.append(list(range(first, first + len(needed))))
        for selector, digits in enumerate(needed, first):
            clauses += [[-selector, *some((c, x) for x in digits)] for c in open_cells]
            clauses += [[-selector, *some((c, x) for c in open_cells)] for x in digits]
    return clauses, selectors


@lru_cache(maxsize=GEOMETRY_CACHE_SIZE)
def geometry_clauses(encoding: str, n: int, groups: tuple[Group, ...]) -> list[Clause]:
    """The clauses of an empty grid with these groups (built once, shared: do not mutate)."""
    if encoding not in ("minimal", "efficient", "extended"):
        raise EncodingError(f"encoding {encoding!r} has no puzzle-independent clause set")
    numbering = Numbering(n)
    table = [numbering.cell_vars(c) for c in range(n * n)]  # table[c][v - 1] = var(c, v)
    clauses = [list(row) for row in table]
    if encoding in ("efficient", "extended"):
        clauses += [[-a, -b] for row in table for a, b in combinations(row, 2)]
    for group in groups:
        pairs = list(combinations(group.cells, 2))
        clauses += [[-table[a][i], -table[b][i]] for i in range(n) for a, b in pairs]
    if encoding == "extended":
        clauses += [[table[c][i] for c in group.cells]
                    for group in groups if len(group.cells) == n for i in range(n)]
    return clauses


def clause_count(model: Model, encoding: str = ENCODINGS[0]) -> int:
    """How many clauses ``encode(model, encoding, cages=False)`` makes, counted without
    making them (a 64x64 Latin square's simplified CNF has 24.8 million: several GB to build)."""
    check_encoding(encoding)
    n = model.n
    if encoding != "simplified":
        count = n * n + sum(n * _pairs(len(group.cells)) for group in model.groups) + sum(map(bool, model.givens))
        if encoding in ("efficient", "extended"):
            count += n * n * _pairs(n)
        if encoding == "extended":
            count += n * sum(len(group.cells) == n for group in model.groups)
        return count
    groups = [group.cells for group in model.groups]
    held = [sum({1 << model.givens[c] for c in cells if model.givens[c]}) for cells in groups]
    open_values, count = _open_values(n), 0
    in_group = [0] * (len(groups) * (n + 1))
    for c, given in enumerate(model.givens):
        if given:
            continue
        mask = 0
        for g in model.cell_groups[c]:
            mask |= held[g]
        values = open_values[mask]
        count += 1 + _pairs(len(values))
        for g in model.cell_groups[c]:
            for value in values:
                in_group[g * (n + 1) + value] += 1
    for g, mask in enumerate(held):
        for value in open_values[mask]:
            present = in_group[g * (n + 1) + value]
            count += (len(groups[g]) == n) + _pairs(present)
    return count + (find_duplicate(model.givens, model.groups) is not None)


def _pairs(k: int) -> int:
    return k * (k - 1) // 2


def _simplified(model: Model) -> CNF:
    """Kwon & Jain: the extended encoding with everything the givens decide taken out."""
    n, givens, cell_groups = model.n, model.givens, model.cell_groups
    groups = [group.cells for group in model.groups]
    # Bitmask of the values each group already holds.
    held = [sum({1 << givens[c] for c in cells if givens[c]}) for cells in groups]
    # Number the surviving variables (free cell c, value v held by none of c's groups)
    # 1, 2, ... in reading order, and collect them per cell and per (group, value).
    numbering = Numbering(n)
    standard = [0]
    in_group: list[list[int]] = [[] for _ in range(len(groups) * (n + 1))]
    clauses: list[Clause] = []
    open_values = _open_values(n)
    for c, given in enumerate(givens):
        if given:
            continue
        mask = 0
        for g in cell_groups[c]:
            mask |= held[g]
        row = []
        for value in open_values[mask]:
            standard.append(numbering.var(c, value))
            var = len(standard) - 1
            row.append(var)
            for g in cell_groups[c]:
                in_group[g * (n + 1) + value].append(var)
        clauses.append(row)                                       # the cell has a value
        clauses += [[-a, -b] for a, b in combinations(row, 2)]    # ... and only one
    for g, mask in enumerate(held):
        for value in open_values[mask]:
            present = in_group[g * (n + 1) + value]
            if len(groups[g]) == n:  # a smaller group need not hold every value
                clauses.append(present)                           # the value is in the group
            clauses += [[-a, -b] for a, b in combinations(present, 2)]  # ... only once
    if find_duplicate(givens, model.groups) is not None:
        clauses.append([])  # two equal givens in a group: the empty clause, unsatisfiable
    return CNF("simplified", givens, clauses, Renumbering(n, tuple(standard)))


class _OpenValues(dict[int, tuple[int, ...]]):
    """mask of held values -> the values 1..n not in it (filled on demand)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __missing__(self, mask: int) -> tuple[int, ...]:
        values = tuple(v for v in range(1, self.n + 1) if not mask >> v & 1)
        self[mask] = values
        return values


@cache
def _open_values(n: int) -> _OpenValues:
    return _OpenValues(n)
