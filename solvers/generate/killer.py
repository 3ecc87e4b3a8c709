"""Killer puzzles with a unique solution: cages of a random full grid, totals read off it.

Two recipes, both ending where no further step keeps the solution unique:

- cages only (``givens=False``): every cell starts as a cage of its own (its total is its
  digit, so the solution is unique), then neighbouring cages are merged in random order
  (never past ``max_cage`` cells, never two cages sharing a digit) whenever the merged
  puzzle still has one solution;
- cages plus a few givens (``givens=True``): a random partition into cages of 2 to
  ``max_cage`` cells grown from random cells, every digit given, then givens removed in
  random order while the solution stays unique.

Each step's uniqueness is proved by a cage-aware backend counting to two solutions
(``mrv`` by default: its cage combinations settle a 9x9 step in milliseconds where CP-SAT
took seconds, 3.3 s against 26 s for the same 63 proofs of seed 1); an answer cut short by
its time limit counts as "not unique", so a step is kept only when proved. The finished
puzzle is proved unique again by a second backend of another paradigm (``sat``: cages as
digit combinations in CNF) and its solution checked by the independent checker. The full grid comes from the Sudoku
generator (``generator.random_full_grid``), so killers can be standard, X or jigsaw.

>>> made = generate_killer(4, seed=1)
>>> made.puzzle.variant, made.puzzle.num_givens, sum(len(c.cells) for c in made.puzzle.cages)
('killer', 0, 16)
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from models import Cage, Grid, Puzzle, verify

from .. import registry
from .generator import GenerationError, GridSearch, neighbours, random_full_grid

KILLER_VARIANTS = ("standard", "x", "jigsaw")
"""The grids under the cages."""
CHECK_SECONDS = 20.0
"""Time limit of one uniqueness proof (a step not proved within it is not taken)."""

Uniqueness = Callable[[Puzzle], bool]


@dataclass(frozen=True)
class Killer:
    """A killer puzzle, its solution, and how many uniqueness proofs its making took."""

    puzzle: Puzzle
    solution: Grid
    checks: int

    def comment(self) -> str:
        """What the line format writes after the puzzle."""
        sizes = [len(cage.cells) for cage in self.puzzle.cages]
        return (f"cages={len(sizes)} largest={max(sizes)} givens={self.puzzle.num_givens} "
                f"checks={self.checks}")


def proved_unique(backend: str = "cpsat", time_limit: float = CHECK_SECONDS) -> Uniqueness:
    """A uniqueness test by a registered backend counting to two solutions (False when
    it finds two, or cannot tell within the time limit)."""
    chosen = registry.get(backend)

    def unique(puzzle: Puzzle) -> bool:
        return chosen.solve(puzzle, max_solutions=2, time_limit=time_limit).unique is True
    return unique


def default_max_cage(n: int) -> int:
    """The largest cage by default: 5 cells, fewer on small grids (at most n - 1)."""
    return max(2, min(5, n - 1))


def generate_killer(size: int, *, seed: int | str = 0, variant: str = "standard", givens: bool = False,
                    max_cage: int | None = None, unique: Uniqueness | None = None,
                    confirm: Uniqueness | None = None, search: GridSearch | None = None) -> Killer:
    """One killer puzzle with a unique solution (see the module docstring for the recipes);
    ``search`` bounds the search for its complete grid."""
    if variant not in KILLER_VARIANTS:
        raise ValueError(f"unknown killer variant {variant!r}; choose one of {', '.join(KILLER_VARIANTS)}")
    largest = default_max_cage(size) if max_cage is None else max_cage
    if not 2 <= largest <= size:
        raise ValueError(f"the largest cage has 2 to {size} cells (its digits differ), not {largest}")
    rng = random.Random(f"killer/{variant}/{size}/{seed}")
    unique = unique or proved_unique("mrv")
    full = random_full_grid(size, rng, variant, search)
    solution = full.givens
    if givens:
        cages = grow_cages(solution, size, rng, largest)
        puzzle, checks = _remove_givens(full, cages, rng, unique)
    else:
        puzzle, checks = _merge_cages(full.with_givens((0,) * len(solution)), solution, rng, largest, unique)
    if not verify(puzzle, solution):
        raise GenerationError(f"the generated killer does not accept its own solution: {verify(puzzle, solution)}")
    if not (confirm or proved_unique("sat"))(puzzle):
        raise GenerationError("a second backend does not confirm the generated killer is unique")
    return Killer(puzzle, solution, checks)


def grow_cages(solution: Grid, n: int, rng: random.Random, largest: int) -> list[list[int]]:
    """A random partition into connected cages of distinct digits, each aiming at 2 to
    ``largest`` cells (a cell left with no free neighbour stays a cage of one)."""
    owner = [-1] * len(solution)
    cages: list[list[int]] = []
    order = list(range(len(solution)))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        cage, digits, target = [start], {solution[start]}, rng.randint(2, largest)
        owner[start] = len(cages)
        while len(cage) < target:
            free = sorted({b for a in cage for b in neighbours(a, n)
                           if owner[b] < 0 and solution[b] not in digits})
            if not free:
                break
            cell = rng.choice(free)
            cage.append(cell)
            digits.add(solution[cell])
            owner[cell] = len(cages)
        cages.append(cage)
    return cages


def _cages_of(groups: list[list[int]], solution: Grid) -> tuple[Cage, ...]:
    return tuple(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)) for cells in groups)


def _remove_givens(full: Puzzle, groups: list[list[int]], rng: random.Random,
                   unique: Uniqueness) -> tuple[Puzzle, int]:
    """Cages plus every given, then givens removed in random order while unique."""
    solution = full.givens
    puzzle = Puzzle(full.geometry, solution, full.diagonals, full.regions, cages=_cages_of(groups, solution))
    givens = list(solution)
    order = list(range(len(givens)))
    rng.shuffle(order)
    checks = 0
    for cell in order:
        givens[cell] = 0
        checks += 1
        if not unique(puzzle.with_givens(tuple(givens))):
            givens[cell] = solution[cell]
    return puzzle.with_givens(tuple(givens)), checks


def _merge_cages(empty: Puzzle, solution: Grid, rng: random.Random, largest: int,
                 unique: Uniqueness) -> tuple[Puzzle, int]:
    """Cages of one cell each, then neighbouring cages merged in random order while unique."""
    n = empty.n
    groups: dict[int, list[int]] = {cell: [cell] for cell in range(len(solution))}
    owner = list(range(len(solution)))
    tried: set[tuple[int, int]] = set()
    checks = 0
    while True:
        pairs = sorted({(min(owner[a], owner[b]), max(owner[a], owner[b]))
                        for a in range(len(solution)) for b in neighbours(a, n) if owner[a] != owner[b]})
        pairs = [(x, y) for x, y in pairs if (x, y) not in tried
                 and len(groups[x]) + len(groups[y]) <= largest
                 and not {solution[c] for c in groups[x]} & {solution[c] for c in groups[y]}]
        if not pairs:
            break
        x, y = rng.choice(pairs)
        tried.add((x, y))
        merged = {key: cells for key, cells in groups.items() if key != y}
        merged[x] = groups[x] + groups[y]
        checks += 1
        if unique(_with_cages(empty, merged, solution)):
            groups = merged
            for cell in groups[x]:
                owner[cell] = x
    return _with_cages(empty, groups, solution), checks


def _with_cages(empty: Puzzle, groups: dict[int, list[int]], solution: Grid) -> Puzzle:
    return Puzzle(empty.geometry, empty.givens, empty.diagonals, empty.regions,
                  cages=_cages_of([groups[key] for key in sorted(groups)], solution))
