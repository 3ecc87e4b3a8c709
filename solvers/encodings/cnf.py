"""CNF encodings of a Sudoku model: the variable numbering and the clause builders.

The encodings are those of Lynce and Ouaknine, "Sudoku as a SAT Problem" (2006),
stated over the model's all-different groups instead of rows, columns and boxes
(so an X-Sudoku adds its diagonals and a jigsaw swaps boxes for regions):

- ``minimal``: every cell has a value; no value twice in a group.
- ``efficient``: minimal + no cell has two values.
- ``extended``: efficient + every value appears in every group.
- ``simplified``: the extended clauses reduced by the givens before solving, as Kwon
  and Jain, "Optimized CNF Encoding for Sudoku Puzzles" (2006), do: variables the
  givens decide are removed, clauses they satisfy are dropped, literals they falsify
  are deleted, and the remaining variables are renumbered 1..k.

For an empty 9x9 grid (27 groups) the first three have 8,829, 11,745 and 11,988
clauses. In general, with n values, G groups of n cells each:
minimal ``n*n + G*n*C(n,2)``, efficient ``+ n*n*C(n,2)``, extended ``+ G*n``.
"No value twice in a group" is one binary clause per pair of cells of the group and
value, even where two groups share the pair (a row and a box), as in the paper.

Variable numbering (one function, :func:`variable`, owns it): cell c (0-based, reading
order, c = row*n + column) holding value v (1..n) is SAT variable ``c*n + v``, so the
variables are 1..n**3. The simplified encoding renumbers; its :class:`CNF` carries the
table back to these standard numbers.

The clauses that depend only on the encoding and the groups are built once per
(encoding, n, groups) and shared (:func:`geometry_clauses`); a puzzle adds only one unit
clause per given. Treat the clause lists as read-only: they are shared between puzzles.

>>> from models import parse_puzzle, Model
>>> cnf = encode(Model.from_puzzle(parse_puzzle("12..34....43..21")), "efficient")
>>> (cnf.num_vars, len(cnf.clauses), variable(5, 3, 4))
(64, 408, 23)
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from models import Grid, Group, Model

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

Clause = list[int]

GEOMETRY_CACHE_SIZE = 8
"""Clause sets kept (a 25x25 one holds ~750,000 clauses; each jigsaw layout is its own)."""


class EncodingError(ValueError):
    """An unknown encoding name, or a SAT model that does not describe a grid."""


def variable(cell: int, value: int, n: int) -> int:
    """The standard SAT variable for 'cell holds value': ``cell*n + value`` (1..n**3).

    >>> variable(0, 1, 9), variable(80, 9, 9)
    (1, 729)
    """
    return cell * n + value


def cell_value(var: int, n: int) -> tuple[int, int]:
    """The (cell, value) a standard variable stands for: the inverse of :func:`variable`.

    >>> cell_value(729, 9)
    (80, 9)
    """
    cell, rest = divmod(var - 1, n)
    return cell, rest + 1


def check_encoding(name: str) -> str:
    """The name if it is an encoding, else EncodingError listing the valid ones."""
    if name not in ENCODINGS:
        raise EncodingError(f"unknown encoding {name!r}; valid encodings: {', '.join(ENCODINGS)}")
    return name


@dataclass(frozen=True, eq=False)
class CNF:
    """A puzzle's clauses under one encoding, and how to read a model back into a grid.

    ``standard[k]`` is the standard variable number (see :func:`variable`) of SAT
    variable k, for the simplified encoding; None when the numbering is the standard one.
    """

    encoding: str
    n: int
    givens: Grid
    clauses: list[Clause]
    num_vars: int
    standard: tuple[int, ...] | None = None

    def cell_values(self, var: int) -> tuple[int, int]:
        """The (cell, value) of one of this CNF's variables."""
        return cell_value(var if self.standard is None else self.standard[var], self.n)

    def decode(self, literals: Iterable[int]) -> Grid:
        """The grid a model (its true literals; false ones are ignored) describes.

        Given cells keep their givens; every other cell must have exactly one true value.
        """
        n, grid, counts = self.n, list(self.givens), [0] * (self.n * self.n)
        standard = self.standard
        for lit in literals:
            if 0 < lit <= self.num_vars:
                cell, rest = divmod((lit if standard is None else standard[lit]) - 1, n)
                if self.givens[cell]:
                    continue
                grid[cell] = rest + 1
                counts[cell] += 1
        bad = [c for c, v in enumerate(self.givens) if not v and counts[c] != 1]
        if bad:
            cell = bad[0]
            raise EncodingError(f"the model gives cell r{cell // n + 1}c{cell % n + 1} "
                                f"{counts[cell]} values (expected exactly one)")
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> Clause:
        """A clause that rules out this grid's values in the empty cells (and nothing else)."""
        if self.standard is None:
            return [-variable(c, grid[c], self.n) for c, v in enumerate(self.givens) if not v]
        index = {s: k for k, s in enumerate(self.standard) if k}
        return [-index[variable(c, grid[c], self.n)] for c, v in enumerate(self.givens) if not v]


def encode(model: Model, encoding: str = ENCODINGS[0]) -> CNF:
    """The CNF of a model's groups and givens under the named encoding."""
    check_encoding(encoding)
    if encoding == "simplified":
        return _simplified(model)
    n = model.n
    base = geometry_clauses(encoding, n, model.groups)
    units = [[cell * n + v] for cell, v in enumerate(model.givens) if v]
    return CNF(encoding, n, model.givens, base + units, n * n * n)


@lru_cache(maxsize=GEOMETRY_CACHE_SIZE)
def geometry_clauses(encoding: str, n: int, groups: tuple[Group, ...]) -> list[Clause]:
    """The clauses of an empty grid with these groups (built once, shared: do not mutate)."""
    if encoding not in ("minimal", "efficient", "extended"):
        raise EncodingError(f"encoding {encoding!r} has no puzzle-independent clause set")
    cells = range(n * n)
    values = range(1, n + 1)
    clauses = [[c * n + v for v in values] for c in cells]
    if encoding in ("efficient", "extended"):
        clauses += [[-(c * n + a), -(c * n + b)] for c in cells for a, b in combinations(values, 2)]
    for group in groups:
        pairs = list(combinations(group.cells, 2))
        clauses += [[-(a * n + v), -(b * n + v)] for v in values for a, b in pairs]
    if encoding == "extended":
        clauses += [[c * n + v for c in group.cells] for group in groups for v in values]
    return clauses


def _simplified(model: Model) -> CNF:
    """Kwon & Jain: the extended encoding with everything the givens decide taken out."""
    n, givens, cell_groups = model.n, model.givens, model.cell_groups
    groups = [group.cells for group in model.groups]
    # Bitmask of the values each group already holds; a repeated given means unsatisfiable.
    conflict = False
    held: list[int] = []
    for cells in groups:
        mask = 0
        for c in cells:
            if givens[c]:
                bit = 1 << givens[c]
                conflict |= bool(mask & bit)
                mask |= bit
        held.append(mask)
    # Number the surviving variables (free cell c, value v held by none of c's groups)
    # 1, 2, ... in reading order, and collect them per cell and per (group, value).
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
            standard.append(c * n + value)
            var = len(standard) - 1
            row.append(var)
            for g in cell_groups[c]:
                in_group[g * (n + 1) + value].append(var)
        clauses.append(row)                                       # the cell has a value
        clauses += [[-a, -b] for a, b in combinations(row, 2)]    # ... and only one
    for g, mask in enumerate(held):
        for value in open_values[mask]:
            present = in_group[g * (n + 1) + value]
            clauses.append(present)                               # the value is in the group
            clauses += [[-a, -b] for a, b in combinations(present, 2)]  # ... only once
    if conflict:
        clauses.append([])  # two equal givens in a group: the empty clause, unsatisfiable
    return CNF("simplified", n, givens, clauses, len(standard) - 1, tuple(standard))


class _OpenValues(dict):
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
