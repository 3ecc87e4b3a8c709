"""An independent checker for solutions.

It shares no code with any solver, nor with ``Model``: it works out rows,
columns, boxes, diagonals and regions by its own arithmetic, so a mistake in
the shared model cannot make a wrong answer look right.

That independence is deliberate, and it is why this module repeats on purpose two
things the rest of ``models`` has once: the groups (``Model.groups``) and the scan for
a value held twice in a group (``models.find_duplicate``, which the reader and the
backends share). Were the checker to call them, a fault there would be made by the
solver and missed by the judge at once. Do not merge them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

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
    every killer cage all different with its total."""
    puzzle = cast("Puzzle", getattr(puzzle_or_model, "puzzle", puzzle_or_model))  # duck-typed: no import
    box_rows, box_cols = puzzle.geometry.box_rows, puzzle.geometry.box_cols
    n = box_rows * box_cols
    problems: list[str] = []
    if len(solution) != n * n:
        return Verdict((f"solution has {len(solution)} cells, expected {n * n}",))

    def where(cell: int) -> str:
        return f"row {cell // n + 1}, column {cell % n + 1}"

    in_range = [isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in solution]
    for cell, value in enumerate(solution):
        if not in_range[cell]:
            empty = type(value) is int and value == 0
            what = "empty cell (0)" if empty else f"value {value!r} out of range 1-{n}"
            problems.append(f"{what} at {where(cell)}")
        given = puzzle.givens[cell]
        if given and value != given:
            problems.append(f"given {given} changed to {value!r} at {where(cell)}")
    # Its own duplicate scan, not models.find_duplicate: see the module docstring.
    for name, cells in _groups(n, box_rows, box_cols, puzzle.diagonals, puzzle.regions):
        seen: dict[int, int] = {}
        for cell in cells:
            value = solution[cell]
            if not in_range[cell]:
                continue  # already reported; a duplicate of a bad value says nothing more
            if value in seen:
                problems.append(f"duplicate {value} in {name} at {_pair(name, seen[value], cell, n)}")
            else:
                seen[value] = cell
    problems += _cage_problems(puzzle, solution, in_range, where)
    return Verdict(tuple(problems))


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


def _groups(n: int, box_rows: int, box_cols: int, diagonals: bool,
            regions: Sequence[int] | None) -> list[tuple[str, list[int]]]:
    groups = [(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
    groups += [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)]
    if regions is None:
        for b in range(n):
            top, left = (b // box_rows) * box_rows, (b % box_rows) * box_cols
            groups.append((f"box {b + 1}", [(top + i // box_cols) * n + left + i % box_cols
                                             for i in range(n)]))
    else:
        by_region: dict[int, list[int]] = {}
        for cell, region in enumerate(regions):
            by_region.setdefault(region, []).append(cell)
        groups += [(f"region {r}", cells) for r, cells in sorted(by_region.items())]
    if diagonals:
        groups.append(("main diagonal", [i * (n + 1) for i in range(n)]))
        groups.append(("anti-diagonal", [(i + 1) * (n - 1) for i in range(n)]))
    return groups
