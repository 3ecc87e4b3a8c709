"""The constraint model every backend encodes: cells, domains and all-different groups."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import compress

from .geometry import Geometry
from .puzzle import Cage, Grid, Puzzle

CACHED_LAYOUTS = 256
"""Group layouts kept in memory: every jigsaw region map is its own layout, so the cache
is bounded (a file of 10,000 jigsaws would otherwise keep 10,000 of them)."""


@dataclass(frozen=True)
class Group:
    """Cells that must all hold different values, with a name for messages ('row 3')."""

    name: str
    cells: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Model:
    """Variables are cells 0..n*n-1 with domain 1..n; a given fixes its cell.

    Backends must encode exactly ``groups`` (rows, columns, boxes and any
    variant groups), ``cages`` and ``givens``, nothing they know about Sudoku besides.
    A cage's cells are also one of the ``groups`` (its digits differ); ``cages`` holds
    the sums, the constraint kind a backend may not support (it then says so).
    """

    puzzle: Puzzle
    groups: tuple[Group, ...]
    cages: tuple[Cage, ...] = ()

    @staticmethod
    def from_puzzle(puzzle: Puzzle) -> Model:
        """Rows, columns, boxes (or jigsaw regions; none in a Latin square), diagonals for
        X-Sudoku, the groups of each rule, extra regions, and cages."""
        groups = _groups_for(puzzle.geometry.box_rows, puzzle.geometry.box_cols,
                             puzzle.diagonals, puzzle.regions, puzzle.rules, puzzle.extra_regions)
        if not puzzle.cages:
            return Model(puzzle, groups)
        cage_groups = tuple(Group(f"cage {i + 1}", cage.cells) for i, cage in enumerate(puzzle.cages))
        return Model(puzzle, groups + cage_groups,
                     tuple(cage for cage in puzzle.cages if cage.total is not None))

    @property
    def n(self) -> int:
        return self.puzzle.geometry.n

    @property
    def num_cells(self) -> int:
        return self.puzzle.geometry.cells

    @property
    def givens(self) -> Grid:
        return self.puzzle.givens

    def domain(self, cell: int) -> tuple[int, ...]:
        """The values a cell may take before any propagation."""
        given = self.givens[cell]
        return (given,) if given else tuple(range(1, self.n + 1))

    @cached_property
    def cell_groups(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indexes of the groups that contain it."""
        return _tables(self.num_cells, self.groups)[0]

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a group with it (sorted)."""
        return _tables(self.num_cells, self.groups)[1]


@dataclass(frozen=True)
class Duplicate:
    """A value held twice in one group: the group, the value, and its first two cells."""

    group: Group
    value: int
    first: int
    second: int


def find_duplicate(values: Sequence[int], groups: Iterable[Group]) -> Duplicate | None:
    """The first group (in the given order) holding a value twice, or None; 0 is an empty cell.

    The one scan for repeated givens: the reader's located error, the backends' "the
    givens hold 5 twice in row 3" and the simplified CNF's empty clause all use it. The
    checker (models/checker.py) deliberately does not: see its docstring.

    >>> model = Model.from_puzzle(Puzzle(Geometry.for_size(4), (1, 0, 0, 1) + (0,) * 12))
    >>> duplicate = find_duplicate(model.givens, model.groups)
    >>> duplicate.group.name, duplicate.value, duplicate.first, duplicate.second
    ('row 1', 1, 0, 3)
    """
    if isinstance(groups, tuple) and not _may_repeat(values, groups):
        return None  # the usual case, settled by one pass over the filled cells
    for group in groups:
        seen: dict[int, int] = {}
        for cell in group.cells:
            value = values[cell]
            if not value:
                continue
            if value in seen:
                return Duplicate(group, value, seen[value], cell)
            seen[value] = cell
    return None


def _may_repeat(values: Sequence[int], groups: tuple[Group, ...]) -> bool:
    """Whether some group may hold a value twice: one pass over the filled cells, a bit mask of
    values per group (False settles it; True, or a value that is not a whole number from 0,
    leaves it to find_duplicate's scan in order, which says where)."""
    cached = _CELL_GROUPS.get(id(groups))
    if cached is None or cached[0] is not groups:
        if len(_CELL_GROUPS) >= 64:
            _CELL_GROUPS.clear()
        index: dict[int, list[int]] = {}
        for number, group in enumerate(groups):
            for cell in group.cells:
                index.setdefault(cell, []).append(number)
        cached = _CELL_GROUPS[id(groups)] = (groups, {cell: tuple(found) for cell, found in index.items()})
    cell_groups, masks = cached[1], [0] * len(groups)
    try:
        for cell in compress(range(len(values)), values):  # the filled cells only
            value = values[cell]
            if value > _MASK_VALUES:
                return True
            bit = 1 << value
            for number in cell_groups.get(cell, ()):
                if masks[number] & bit:
                    return True
                masks[number] |= bit
    except (TypeError, ValueError):  # not a whole number from 0: the scan in order judges it
        return True
    return False


_MASK_VALUES = 1024
"""Values up to this fit _may_repeat's masks; a larger one is left to the scan."""
_CELL_GROUPS: dict[int, tuple[tuple[Group, ...], dict[int, tuple[int, ...]]]] = {}
"""Per tuple of groups (by identity, the tuple kept so its id is not reused): the groups of
each cell. Model.from_puzzle gives one tuple per layout (cached), so this holds a few."""


def as_model(puzzle_or_model: Puzzle | Model) -> Model:
    """Accept either a Puzzle or a Model where a Model is needed."""
    if isinstance(puzzle_or_model, Model):
        return puzzle_or_model
    return Model.from_puzzle(puzzle_or_model)


@lru_cache(maxsize=CACHED_LAYOUTS)
def _groups_for(box_rows: int, box_cols: int, diagonals: bool, regions: Grid | None,
                rules: tuple[str, ...] = (), extra_regions: tuple[tuple[int, ...], ...] = ()
                ) -> tuple[Group, ...]:
    geometry = Geometry.of(box_rows, box_cols)
    n = geometry.n
    groups = [Group(f"row {i + 1}", cells) for i, cells in enumerate(geometry.rows)]
    groups += [Group(f"column {i + 1}", cells) for i, cells in enumerate(geometry.cols)]
    if regions is None:
        groups += [Group(f"box {i + 1}", cells) for i, cells in enumerate(geometry.boxes)]
    else:
        for region in sorted(set(regions)):
            cells = tuple(c for c, r in enumerate(regions) if r == region)
            groups.append(Group(f"region {region}", cells))
    if diagonals or "main-diagonal" in rules:
        groups.append(Group("main diagonal", tuple(i * n + i for i in range(n))))
    if diagonals or "anti-diagonal" in rules:
        groups.append(Group("anti-diagonal", tuple(i * n + (n - 1 - i) for i in range(n))))
    if "antiknight" in rules:
        groups += _pairs("knight's move", n, ((1, -2), (1, 2), (2, -1), (2, 1)))
    if "antiking" in rules:
        groups += _pairs("king's move", n, ((1, -1), (1, 1)))
    if "disjoint-groups" in rules:
        groups += [Group(f"disjoint group {place + 1}", tuple(box[place] for box in geometry.boxes))
                   for place in range(n)]
    groups += [Group(f"extra region {i + 1}", cells) for i, cells in enumerate(extra_regions)]
    return tuple(groups)


def _pairs(name: str, n: int, steps: tuple[tuple[int, int], ...]) -> list[Group]:
    """Two-cell groups: each cell with the cells a step below it (steps go down a row or more)."""
    pairs = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        for down, right in steps:
            if row + down < n and 0 <= col + right < n:
                other = (row + down) * n + col + right
                pairs.append(Group(f"{name} r{row + 1}c{col + 1}-r{row + down + 1}c{col + right + 1}",
                                   (cell, other)))
    return pairs


@lru_cache(maxsize=CACHED_LAYOUTS)
def _tables(num_cells: int, groups: tuple[Group, ...]
            ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Cell-to-group and peer tables, computed once per distinct set of groups."""
    cell_groups: list[list[int]] = [[] for _ in range(num_cells)]
    peers: list[set[int]] = [set() for _ in range(num_cells)]
    for index, group in enumerate(groups):
        for cell in group.cells:
            cell_groups[cell].append(index)
            peers[cell].update(group.cells)
    return (tuple(tuple(g) for g in cell_groups),
            tuple(tuple(sorted(p - {cell})) for cell, p in enumerate(peers)))
