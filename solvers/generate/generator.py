"""Puzzle generation: a random complete grid, then clues removed while the solution stays unique.

The generator searches with its own small engine (search.py: naked and hidden singles, the
cell with the fewest candidates) over the model's public structure, and reaches every
backend through the registry, as any user's script does: no backend's internals.

1. A random complete grid comes from that search with its value order shuffled by a
   seeded ``random.Random``. The search is complete, so every valid grid of the
   geometry (and variant) can come out first: no fixed pattern is relabelled. Jigsaw
   grids first get random connected regions (boxes reshaped by random swaps of
   neighbouring cells); a region map that has no complete grid within a node budget is
   thrown away and another one drawn.
2. Clues are removed in a random order (or in pairs symmetric about the centre).
   A clue stays if removing it lets a second solution in. The check is one search for
   a solution that *differs* in the removed cell (its value excluded there): none means
   still unique. A search longer than CHECK_NODE_BUDGET decisions is settled by the
   ``cpsat`` backend (integer encoding, one worker) counting the puzzle's solutions to
   two. Removing clues only ever adds solutions, so a clue that had to stay once stays
   necessary: a single pass ends at a locally minimal puzzle.
3. Every finished puzzle is checked again by the ``mrv`` backend counting to two
   solutions (through the registry), which also gives its difficulty: the decisions
   ``mrv`` needs, and whether naked and hidden singles alone solve it.

Everything random draws from one ``random.Random`` seeded per puzzle, so a seed gives
the same puzzles on every machine and Python version (string seeds are hashed stably).

>>> made = generate(4, seed=7)
>>> made.puzzle.geometry.label(), made.difficulty.unique
('4x4', True)
>>> generate(4, seed=7).puzzle == made.puzzle
True
"""
from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from models import Geometry, Grid, Model, Puzzle, to_line, verify

from .. import registry
from .search import SinglesSearch

VARIANTS = ("standard", "x", "jigsaw")
FILL_NODE_BUDGET = 2000      # decisions allowed to fill one grid before starting afresh
REGION_ATTEMPTS = 200        # jigsaw region maps tried before giving up
TARGET_ATTEMPTS = 20         # fresh grids tried to reach a requested number of givens
CHECK_NODE_BUDGET = 100      # mrv decisions of one uniqueness count before CP-SAT takes over
MEASURE_NODE_LIMIT = 50_000  # mrv decisions allowed when measuring difficulty


class GenerationError(RuntimeError):
    """A request that could not be met (for instance a number of givens never reached)."""


@dataclass(frozen=True)
class GridSearch:
    """The bound on finding one complete grid, and who hears of each region map that gave
    none (a jigsaw draws region maps until one can be filled): ``seconds`` (None: only
    REGION_ATTEMPTS maps), ``on_miss(maps tried, seconds so far)``."""

    seconds: float | None = None
    on_miss: Callable[[int, float], None] | None = None


@dataclass(frozen=True)
class Difficulty:
    """How hard a puzzle is: its givens, whether singles solve it, and mrv's decisions.

    ``mrv_nodes`` counts the decisions the mrv backend makes to find the solution and
    prove it unique (count to two); 0 means propagation alone settles it.
    """

    givens: int
    singles: bool
    mrv_nodes: int
    unique: bool | None

    def comment(self) -> str:
        """The trailing comment written after the puzzle in line format."""
        nodes = f"{self.mrv_nodes}" if self.unique is not None else f">{self.mrv_nodes - 1}"
        return f"givens={self.givens} singles={'yes' if self.singles else 'no'} mrv_nodes={nodes}"


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution, difficulty, and whether it is locally minimal."""

    puzzle: Puzzle
    solution: Grid
    difficulty: Difficulty
    minimal: bool

    def line(self) -> str:
        """The puzzle in line format with its difficulty as a trailing comment."""
        minimal = " minimal=yes" if self.minimal else ""
        return f"{to_line(self.puzzle)}  # {self.difficulty.comment()}{minimal}"


# ---------------------------------------------------------------- complete grids

def random_regions(n: int, rng: random.Random, swaps: int | None = None,
                   may_trade: Callable[[int, int], bool] | None = None) -> Grid:
    """A random jigsaw region map: n connected regions of n cells, numbered 1..n.

    Starts from the boxes of the usual geometry and repeatedly trades a border cell of
    one region for a border cell of a neighbouring region, keeping a trade only when
    both regions stay connected (so every region keeps n cells); ``may_trade(a, b)``, if
    given, must also allow the two cells (e.g. that they hold the same digit of a grid).
    """
    geometry = Geometry.for_size(n)
    regions = [0] * geometry.cells
    for number, box in enumerate(geometry.boxes, start=1):
        for cell in box:
            regions[cell] = number
    wanted = swaps if swaps is not None else 2 * geometry.cells
    done = attempts = 0
    while done < wanted and attempts < 50 * wanted:
        attempts += 1
        a = rng.randrange(geometry.cells)
        ra = regions[a]
        others = sorted({regions[b] for b in neighbours(a, n)} - {ra})
        if not others:
            continue
        rb = rng.choice(others)
        # a cell of region rb touching region ra somewhere other than at a
        borders = [b for b in range(geometry.cells) if regions[b] == rb
                   and (may_trade is None or may_trade(a, b))
                   and any(regions[c] == ra and c != a for c in neighbours(b, n))]
        if not borders:
            continue
        b = rng.choice(borders)
        regions[a], regions[b] = rb, ra
        if connected(regions, ra, n) and connected(regions, rb, n):
            done += 1
        else:
            regions[a], regions[b] = ra, rb
    return tuple(regions)


def neighbours(cell: int, n: int) -> list[int]:
    """The cells above, below, left and right of a cell of an n x n grid."""
    row, col = divmod(cell, n)
    return [r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < n and 0 <= c < n]


def connected(regions: list[int], region: int, n: int) -> bool:
    """Whether the cells of one region of a region map touch edge to edge, all of them."""
    cells = [c for c, r in enumerate(regions) if r == region]
    seen = {cells[0]}
    todo = deque(seen)
    while todo:
        for b in neighbours(todo.popleft(), n):
            if b not in seen and regions[b] == region:
                seen.add(b)
                todo.append(b)
    return len(seen) == len(cells)


def random_solution(template: Puzzle, rng: random.Random,
                    node_budget: int = FILL_NODE_BUDGET, restarts: int = 20) -> Grid | None:
    """A random complete grid for the template's geometry and variant (givens kept), or None.

    Each attempt searches with a shuffled value order and gives up after
    ``node_budget`` decisions (heavy tails are cut short by starting afresh).
    """
    search = SinglesSearch(Model.from_puzzle(template))
    start = search.start(template.givens)
    if start is None:
        return None
    for _ in range(restarts):
        found = search.search(start, rng, node_budget)
        if found.solution is not None:
            return found.solution
        if not found.ran_out:
            return None  # the search space is exhausted: no grid exists
    return None


def random_full_grid(size: int, rng: random.Random, variant: str = "standard",
                     search: GridSearch | None = None) -> Puzzle:
    """A complete random grid as a Puzzle with every cell given (jigsaw: with random regions);
    GenerationError when none is found within ``search``'s bound."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    search = search or GridSearch()
    geometry = Geometry.for_size(size)
    empty = (0,) * geometry.cells
    started = time.monotonic()
    tried = 0
    for tried in range(1, (REGION_ATTEMPTS if variant == "jigsaw" else 1) + 1):
        regions = random_regions(size, rng) if variant == "jigsaw" else None
        template = Puzzle(geometry, empty, diagonals=variant == "x", regions=regions)
        solution = random_solution(template, rng, restarts=3 if variant == "jigsaw" else 20)
        if solution is not None:
            return template.with_givens(solution)
        spent = time.monotonic() - started
        if search.seconds is None or spent <= search.seconds:
            if search.on_miss is not None:
                search.on_miss(tried, spent)
            continue
        raise GenerationError(
            f"found no complete {geometry.label()} {variant} grid in {search.seconds:g} s "
            f"({tried} region map{'s' if tried > 1 else ''} tried); the random search seldom "
            "fills a jigsaw above 12x12 in that time: try a smaller --size, or more --grid-timeout")
    raise GenerationError(f"found no complete {geometry.label()} {variant} grid "
                          f"(tried {tried} region maps)")


# ---------------------------------------------------------------- removing clues

def symmetric_orbits(n: int) -> list[tuple[int, ...]]:
    """Cells grouped with their mirror image through the centre (180-degree rotation)."""
    cells = n * n
    return [(c,) if c == cells - 1 - c else (c, cells - 1 - c) for c in range(cells) if c <= cells - 1 - c]


def still_unique(search: SinglesSearch, puzzle: Puzzle, removed: tuple[int, ...], solution: Grid,
                 node_budget: int | None = None) -> bool:
    """Whether the puzzle (with ``removed`` already emptied) still has only ``solution``.

    Any other solution differs from ``solution`` in some removed cell, so one search per
    removed cell, with that cell's solution value excluded, finds it if it exists. A
    search that needs more than ``node_budget`` decisions hands the question to CP-SAT
    (the ``cpsat`` backend counting to two), whose all-different propagation and learning
    settle the hard cases in a steady fraction of a second where plain singles search can
    take many seconds.
    """
    base = search.start(puzzle.givens)
    if base is None:
        raise GenerationError("a generated grid contradicts itself")  # cannot happen for a solution
    for cell in removed:
        cands = base[:]
        cands[cell] &= ~(1 << (solution[cell] - 1))
        if not cands[cell] or not search.propagate(cands, [cell]):
            continue
        found = search.search(cands, None, node_budget, avoid=solution)
        if found.solution is not None:
            return False
        if found.ran_out:
            return _cpsat_counts_one(puzzle)
    return True


def _cpsat_counts_one(puzzle: Puzzle) -> bool:
    """Whether the ``cpsat`` backend (integer encoding, one worker: deterministic, and kind to
    shared machines) finds exactly one solution, counting to two."""
    counted = registry.solve("cpsat", puzzle, max_solutions=2, encoding="integer", workers=1)
    if counted.complete or len(counted.solutions) == 2:
        return len(counted.solutions) == 1
    raise GenerationError(f"CP-SAT gave no answer ({counted.status}: {counted.message}) on a "
                          "uniqueness check")


def remove_clues(full: Puzzle, rng: random.Random, *, target: int | None = None,
                 symmetric: bool = False) -> tuple[Puzzle, bool]:
    """Empty cells in random order while the solution stays unique.

    Stops at ``target`` givens if given, otherwise when no clue (no symmetric pair)
    can go. Returns the puzzle and whether it is locally minimal: no single clue can
    go (a symmetric result is checked clue by clue; a target run is reported False).
    """
    solution = full.givens
    search = SinglesSearch(Model.from_puzzle(full))
    orbits = symmetric_orbits(full.n) if symmetric else [(c,) for c in range(full.geometry.cells)]
    rng.shuffle(orbits)
    givens = list(solution)
    count = len(givens)
    for orbit in orbits:
        if target is not None and count == target:
            break
        if target is not None and count - len(orbit) < target:
            continue  # would overshoot the target (a pair when one clue is left to remove)
        for cell in orbit:
            givens[cell] = 0
        if still_unique(search, full.with_givens(tuple(givens)), orbit, solution, CHECK_NODE_BUDGET):
            count -= len(orbit)
        else:
            for cell in orbit:
                givens[cell] = solution[cell]
    puzzle = full.with_givens(tuple(givens))
    if target is not None:
        return puzzle, False  # stopped early, so not known to be minimal
    return puzzle, not symmetric or is_locally_minimal(puzzle, solution)


def is_locally_minimal(puzzle: Puzzle, solution: Grid) -> bool:
    """Whether removing any single clue of a unique puzzle lets a second solution in."""
    search = SinglesSearch(Model.from_puzzle(puzzle))
    givens = list(puzzle.givens)
    for cell, value in enumerate(puzzle.givens):
        if value:
            givens[cell] = 0
            if still_unique(search, puzzle.with_givens(tuple(givens)), (cell,), solution, CHECK_NODE_BUDGET):
                return False
            givens[cell] = value
    return True


# ---------------------------------------------------------------- difficulty

def solved_by_singles(puzzle: Puzzle) -> bool:
    """Whether naked and hidden singles alone fill every cell."""
    cands = SinglesSearch(Model.from_puzzle(puzzle)).start(puzzle.givens)
    return cands is not None and all(not c & (c - 1) for c in cands)


def measure(puzzle: Puzzle, node_limit: int | None = MEASURE_NODE_LIMIT) -> tuple[Difficulty, Grid | None]:
    """Difficulty of a puzzle, from the mrv backend counting to two solutions.

    If mrv needs more than ``node_limit`` decisions, ``mrv_nodes`` is that limit plus
    one (a lower bound) and ``unique`` is None (mrv did not finish).
    """
    result = registry.get("mrv").solve(puzzle, max_solutions=2, node_limit=node_limit)
    nodes = result.stats.nodes or 0
    if not result.complete and node_limit is not None:
        nodes = node_limit + 1
    difficulty = Difficulty(puzzle.num_givens, solved_by_singles(puzzle), nodes, result.unique)
    return difficulty, result.solution


# ---------------------------------------------------------------- the whole recipe

def check_request(size: int, givens: int | None, symmetric: bool, variant: str) -> Geometry:
    """The geometry for a request, or ValueError saying what is wrong with it."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    geometry = Geometry.for_size(size)  # GeometryError (a ValueError) for a bad size
    if givens is None:
        return geometry
    if not 0 <= givens <= geometry.cells:
        raise ValueError(f"--givens {givens} is outside 0..{geometry.cells} for {geometry.label()}")
    if givens < size - 1:
        raise ValueError(f"--givens {givens} cannot give a unique {size}x{size} puzzle: with fewer "
                         f"than {size - 1} givens two values never appear and can be swapped")
    if symmetric and size % 2 == 0 and givens % 2:
        raise ValueError(f"--givens {givens} is odd, but symmetric {size}x{size} puzzles have "
                         "an even number of givens (every clue has a mirror image)")
    return geometry


def generate(size: int, *, seed: int | str = 0, givens: int | None = None,
             symmetric: bool = False, variant: str = "standard", tries: int = 1,
             measure_limit: int | None = MEASURE_NODE_LIMIT,
             max_mrv_nodes: int | None = None, search: GridSearch | None = None) -> Generated:
    """One puzzle with a unique solution: locally minimal, or with exactly ``givens`` givens.

    ``tries`` puzzles are made and the hardest kept (most mrv decisions, then not
    solvable by singles). With a givens target, grids that cannot reach it are replaced
    by fresh ones, up to TARGET_ATTEMPTS; GenerationError says the fewest reached.
    Uniqueness is proved during removal; mrv's count to two (within ``measure_limit``
    decisions) confirms it independently and measures the difficulty. With
    ``max_mrv_nodes``, puzzles that mrv cannot settle within that many decisions are
    replaced by fresh ones (up to TARGET_ATTEMPTS), for sets every method should finish.
    ``search`` bounds the search for each complete grid (random_full_grid).
    """
    check_request(size, givens, symmetric, variant)
    if tries < 1:
        raise ValueError(f"tries must be at least 1, not {tries}")
    rng = random.Random(f"sudoku-generator/{seed}")
    made: list[Generated] = []
    fewest = None
    reached = attempts = 0
    while len(made) < tries:
        if attempts == max(TARGET_ATTEMPTS, 2 * tries):  # only a target or a bound can fail
            if givens is not None and not reached:
                raise GenerationError(
                    f"no {size}x{size} {variant} puzzle with {givens} givens in {attempts} attempts; "
                    f"the fewest reached was {fewest} (removal stops at a locally minimal puzzle)")
            raise GenerationError(
                f"only {len(made)} of {tries} {size}x{size} {variant} puzzles in {attempts} attempts "
                f"were settled by mrv within {max_mrv_nodes} decisions")
        attempts += 1
        full = random_full_grid(size, rng, variant, search)
        puzzle, minimal = remove_clues(full, rng, target=givens, symmetric=symmetric)
        fewest = puzzle.num_givens if fewest is None else min(fewest, puzzle.num_givens)
        if givens is not None and puzzle.num_givens != givens:
            continue
        reached += 1
        limit = measure_limit if max_mrv_nodes is None else \
            min(max_mrv_nodes, measure_limit or max_mrv_nodes)
        difficulty, solution = measure(puzzle, limit)
        if max_mrv_nodes is not None and difficulty.unique is None:
            continue  # too hard for mrv within the bound: draw another
        if difficulty.unique is False or solution not in (None, full.givens) \
                or not verify(puzzle, full.givens):
            raise GenerationError(f"mrv contradicts the generated puzzle: {to_line(puzzle)}")
        made.append(Generated(puzzle, full.givens, difficulty, minimal))
    return max(made, key=lambda g: (g.difficulty.mrv_nodes, not g.difficulty.singles))
