"""An independent checker for solutions.

It shares no code with any solver, nor with ``Model``: it works out rows,
columns, boxes (none in a Latin square), diagonals, regions, disjoint groups and the
knight's and king's moves by its own arithmetic, so a mistake in the shared model
cannot make a wrong answer look right. Cages and extra regions are lists of cells in
the puzzle itself, checked as they stand.

That independence is deliberate, and it is why this module repeats on purpose two
things the rest of ``models`` has once: the groups (``Model.groups``) and the scan for
a value held twice in a group (``models.find_duplicate``, which the reader and the
backends share). Were the checker to call them, a fault there would be made by the
solver and missed by the judge at once. Do not merge them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter, mul, sub
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # only for the type hints
    from .model import Model
    from .puzzle import Puzzle


@dataclass(frozen=True)
class Verdict:
    """``ok`` when the solution is complete and right; otherwise ``problems`` says what is wrong."""

    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "valid" if self.ok else "; ".join(self.problems)


def verify(puzzle_or_model: Puzzle | Model, solution: Sequence[int]) -> Verdict:
    """Check a full grid against a puzzle: shape, range, givens kept, every group all different,
    no equal digits a forbidden knight's or king's move apart, every killer cage all
    different with its total."""
    puzzle = cast("Puzzle", getattr(puzzle_or_model, "puzzle", puzzle_or_model))  # duck-typed: no import
    box_rows, box_cols = puzzle.geometry.box_rows, puzzle.geometry.box_cols
    n = box_rows * box_cols
    problems: list[str] = []
    if len(solution) != n * n:
        return Verdict((f"solution has {len(solution)} cells, expected {n * n}",))

    def where(cell: int) -> str:
        return f"row {cell // n + 1}, column {cell % n + 1}"

    # every value a plain int in 1..n (the usual answer): then one comparison a given, one set
    # a group; anything else is looked at value by value below
    plain = set(map(type, solution)) == {int} and min(solution) >= 1 and max(solution) <= n
    in_range = [True] * (n * n) if plain else \
        [isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in solution]
    kept = plain and not any(map(mul, puzzle.givens, map(sub, solution, puzzle.givens)))  # g * (v - g)
    for cell, (given, value) in enumerate(() if kept else zip(puzzle.givens, solution)):
        if not in_range[cell]:
            empty = type(value) is int and value == 0
            what = "empty cell (0)" if empty else f"value {value!r} out of range 1-{n}"
            problems.append(f"{what} at {where(cell)}")
        if given and value != given:
            problems.append(f"given {given} changed to {value!r} at {where(cell)}")
    # Its own duplicate scan, not models.find_duplicate: see the module docstring.
    rules = set(getattr(puzzle, "rules", ()))
    for name, cells, pick in _groups_of(n, box_rows, box_cols, puzzle.diagonals, _hashable(puzzle.regions),
                                        frozenset(rules), _hashable(getattr(puzzle, "extra_regions", ()))):
        if plain and (pick is None or len(set(pick(solution))) == len(cells)):
            continue  # all different
        seen: dict[int, int] = {}
        for cell in cells:
            value = solution[cell]
            if not in_range[cell]:
                continue  # already reported; a duplicate of a bad value says nothing more
            if value in seen:
                problems.append(f"duplicate {value} in {name} at {_pair(name, seen[value], cell, n)}")
            else:
                seen[value] = cell
    problems += _move_problems(n, rules, solution, in_range, where)
    problems += _cage_problems(puzzle, solution, in_range, where)
    return Verdict(tuple(problems))


def _move_problems(n: int, rules: set[str], solution: Sequence[int], in_range: list[bool],
                   where: Callable[[int], str]) -> list[str]:
    """Anti-knight and anti-king: any two cells a knight's (king's) move apart hold different digits."""
    moves: list[tuple[str, Callable[[int, int], bool]]] = []
    if "antiknight" in rules:
        moves.append(("knight's", _knight_apart))
    if "antiking" in rules:
        moves.append(("king's", _king_apart))
    problems = []
    for name, apart in moves:
        for a in range(n * n):
            for b in range(a + 1, min(n * n, a + 2 * n + 3)):
                dr, dc = b // n - a // n, b % n - a % n
                if (in_range[a] and in_range[b] and solution[a] == solution[b] and apart(dr, dc)):
                    problems.append(f"{solution[a]} twice a {name} move apart, at {where(a)} and {where(b)}")
    return problems


def _knight_apart(rows: int, cols: int) -> bool:
    return {abs(rows), abs(cols)} == {1, 2}


def _king_apart(rows: int, cols: int) -> bool:
    return max(abs(rows), abs(cols)) == 1


def _cage_problems(puzzle: Puzzle, solution: Sequence[int], in_range: list[bool],
                   where: Callable[[int], str]) -> list[str]:
    """Each killer cage: its digits all different and, where it has a total, summing to it."""
    problems = []
    for number, cage in enumerate(getattr(puzzle, "cages", ()), start=1):
        values = [solution[cell] for cell in cage.cells if in_range[cell]]
        if len(set(values)) < len(values):
            problems.append(f"cage {number} (from {where(cage.cells[0])}) repeats a digit")
        if cage.total is not None and len(values) == len(cage.cells) and sum(values) != cage.total:
            problems.append(f"cage {number} (from {where(cage.cells[0])}) sums to {sum(values)}, "
                            f"not {cage.total}")
    return problems


def _pair(name: str, first: int, second: int, n: int) -> str:
    """'columns 2 and 7' within a row, 'rows 1 and 4' within a column, full places elsewhere."""
    if name.startswith("row "):
        return f"columns {first % n + 1} and {second % n + 1}"
    if name.startswith("column "):
        return f"rows {first // n + 1} and {second // n + 1}"
    return (f"row {first // n + 1}, column {first % n + 1} "
            f"and row {second // n + 1}, column {second % n + 1}")


@lru_cache(maxsize=64)
def _groups_of(n: int, box_rows: int, box_cols: int, diagonals: bool, regions: tuple[int, ...] | None,
               rules: frozenset[str], extra_regions: tuple[tuple[int, ...], ...]
               ) -> tuple[tuple[str, tuple[int, ...], Callable[[Sequence[int]], tuple[int, ...]] | None], ...]:
    """_groups, worked out once per layout (verify runs once per answer; a layout is a value),
    each with a getter of its values (None for a group of one cell)."""
    return tuple((name, tuple(cells), itemgetter(*cells) if len(cells) > 1 else None) for name, cells in
                 _groups(n, box_rows, box_cols, diagonals, regions, set(rules), extra_regions))


def _hashable(cells: Sequence[Any] | None) -> Any:
    """A region map or a list of extra regions as tuples (None stays None)."""
    if cells is None:
        return None
    return tuple(tuple(item) if isinstance(item, (list, tuple)) else item for item in cells)


def _groups(n: int, box_rows: int, box_cols: int, diagonals: bool, regions: Sequence[int] | None,
            rules: set[str], extra_regions: Sequence[Sequence[int]]) -> list[tuple[str, list[int]]]:
    groups = [(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
    groups += [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)]
    if regions is None and box_rows > 1:  # boxes of one row are the rows: a Latin square
        for b in range(n):
            top, left = (b // box_rows) * box_rows, (b % box_rows) * box_cols
            groups.append((f"box {b + 1}", [(top + i // box_cols) * n + left + i % box_cols
                                             for i in range(n)]))
    elif regions is not None:
        by_region: dict[int, list[int]] = {}
        for cell, region in enumerate(regions):
            by_region.setdefault(region, []).append(cell)
        groups += [(f"region {r}", cells) for r, cells in sorted(by_region.items())]
    if diagonals or "main-diagonal" in rules:
        groups.append(("main diagonal", [i * (n + 1) for i in range(n)]))
    if diagonals or "anti-diagonal" in rules:
        groups.append(("anti-diagonal", [(i + 1) * (n - 1) for i in range(n)]))
    if "disjoint-groups" in rules:
        for place in range(n):  # the cell at this place of each box, place in reading order
            inner_row, inner_col = divmod(place, box_cols)
            groups.append((f"disjoint group {place + 1}",
                           [(top + inner_row) * n + left + inner_col
                            for top in range(0, n, box_rows) for left in range(0, n, box_cols)]))
    groups += [(f"extra region {i + 1}", list(cells)) for i, cells in enumerate(extra_regions)]
    return groups
