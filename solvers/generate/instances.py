"""Cheap random instances for fuzzing: every size, variant family and verdict, each verdict proved.

An instance starts from a random complete grid of its structure (``generator.random_solution``:
the boxes or jigsaw regions, diagonals, whole-grid rules), with killer cages grown over it
(``killer.grow_cages``, totals read off the grid) or extra regions of cells whose digits
differ in it. Givens are then dug out in random order down to a random target, a given
going only when mrv's singles search proves that the grid stays the only solution
(``generator.other_solution``). That gives the three verdicts:

- ``unique``: the dug puzzle;
- ``several``: the dug puzzle without a given whose removal was seen to let a second
  solution in (and perhaps more givens: removing a given never removes a solution);
- ``none``: the dug puzzle (dug deeper, so that search is needed) plus one wrong given, a
  digit the cell does not hold in the one solution and no given peer holds. No two givens
  clash, and where one can be found, propagation (naked and hidden singles, cage
  combinations) does not see the contradiction either: only search reveals it.

Everything draws from the ``random.Random`` handed in, so a seed gives the same instance.

>>> made = random_instance(random.Random("doc"), 6, "x", "none")
>>> (made.puzzle.variant, made.verdict, made.solution)
('x', 'none', None)
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from models import Cage, Geometry, Grid, Model, Puzzle, find_duplicate
from models.geometry import valid_size

from .. import registry
from .generator import GenerationError, random_regions, random_solution
from .killer import default_max_cage, grow_cages
from .search import SinglesSearch

FAMILIES = ("standard", "x", "jigsaw", "killer", "extra", "latin")
"""The variant families: a plain Sudoku, X-Sudoku, jigsaw regions, killer cages with totals
(over a standard, X or jigsaw grid), extra groups (extra regions and whole-grid rules) and
Latin squares (rows and columns only)."""
VERDICTS = ("unique", "several", "none")
SIZES = (4, 6, 8, 9, 10, 12, 14, 15, 16)
"""Every side from 4 to 16 that boxes of at least 2x2 tile (25 on request)."""
EXTRA_RULES = ("antiknight", "antiking", "disjoint-groups", "main-diagonal", "anti-diagonal")
BIG_CAGE = 3
"""The largest killer cage beyond 16x16: a cage of five cells of 1-25 has 53,130 digit
combinations, and one unsolvable 25x25 killer took over four minutes to make with them."""
DIG_NODE_BUDGET = 50
"""Decisions one search for another solution may take (beyond it: not proved either way)."""
KILLER_THIN_TRIES = 6
"""Givens tried for removal when thinning a killer (each try is an mrv count: 0.1 s on 12x12)."""
CAGE_NODE_BUDGET = 200
"""The same for the mrv backend counting to two, on a killer (its value order tries the grid's
value first, so another solution takes it more decisions to meet)."""
PIN_SHARE = 4
"""Each round of digging gives back a quarter of the cells where the other solution differs
(at least one): far from unique, fewer rounds; near it, one cell at a time."""
THIN_ALL = 9
"""Up to this side every given is tried when thinning; beyond it, 2n of them (time)."""
SEARCH_ONLY_TRIES = 40
"""Wrong givens tried, looking for one that propagation alone does not refute."""
SHAPE_ATTEMPTS = 8
"""Structures tried (rules, region maps) before settling for a plainer one."""


@dataclass(frozen=True)
class Instance:
    """A generated puzzle, its proved verdict, a solution (None when it has none) and the
    variant family it was drawn for."""

    puzzle: Puzzle
    verdict: str
    solution: Grid | None
    family: str


def random_instance(rng: random.Random, size: int, family: str, verdict: str) -> Instance:
    """One instance of a family at a side (a Latin square for ``latin``) aiming at a verdict.

    The verdict returned is always the proved one: ``several`` comes out ``unique`` in the
    rare grid whose structure alone fixes it (a killer whose cages leave no freedom).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; choose one of {', '.join(FAMILIES)}")
    if verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r}; choose one of {', '.join(VERDICTS)}")
    if not valid_size(size):
        raise ValueError(f"size {size} is not a Sudoku side (4, 6, 8, 9, 10, 12, ...)")
    full, solution = _full(rng, size, family)
    kept = rng.uniform(0.15, 0.45) if verdict == "none" else rng.uniform(0.2, 0.8)
    target = round(kept * full.geometry.cells * (0.5 if full.cages else 1.0))
    unique, several = dig(full, solution, rng, target)
    if verdict == "none":
        return Instance(wrong_given(thinned(unique, solution, rng), solution, rng), "none", None, family)
    if verdict == "several":
        several = several or opened(unique, solution, rng)
    if verdict == "unique" or several is None:
        return Instance(unique, "unique", solution, family)
    return Instance(several, "several", solution, family)


def _full(rng: random.Random, size: int, family: str) -> tuple[Puzzle, Grid]:
    """A structure of the family with every cell given, and its grid."""
    shape = family if family != "killer" else rng.choice(("standard", "standard", "x", "jigsaw"))
    for attempt in range(SHAPE_ATTEMPTS + 1):
        rules = _rules(rng) if family == "extra" and attempt < SHAPE_ATTEMPTS else ()
        template = _template(size, shape, rules)
        solution = random_solution(template, rng, restarts=3 if rules else 20)
        if solution is not None:
            break
    if solution is None:
        raise GenerationError(f"no complete {template.geometry.label()} {shape} grid found")
    full = template.with_givens(solution)
    if shape == "jigsaw":
        full = replace(full, regions=regions_over(solution, size, rng))
    return _with_groups(full, solution, rng, family), solution


def _rules(rng: random.Random) -> tuple[str, ...]:
    """Whole-grid rules for an extra-groups instance: none (extra regions only), one or two."""
    return tuple(rng.sample(EXTRA_RULES, rng.choice((0, 1, 1, 1, 2))))


def _template(size: int, shape: str, rules: tuple[str, ...]) -> Puzzle:
    """The empty structure a complete grid is drawn for (a jigsaw's regions come after)."""
    empty = (0,) * (size * size)
    if shape == "latin":
        return Puzzle(Geometry.latin_square(size), empty)
    return Puzzle(Geometry.for_size(size), empty, diagonals=shape == "x", rules=rules)


def regions_over(solution: Grid, n: int, rng: random.Random, swaps: int | None = None) -> Grid:
    """Random jigsaw regions that a complete standard grid satisfies: its boxes reshaped by
    trades of two cells holding the same digit between neighbouring regions (each region
    keeps one of each digit), a trade kept only when both regions stay connected."""
    wanted = swaps if swaps is not None else n * n // 2
    return random_regions(n, rng, wanted, may_trade=lambda a, b: solution[a] == solution[b])


def _with_groups(full: Puzzle, solution: Grid, rng: random.Random, family: str) -> Puzzle:
    """The full puzzle with the groups read off its grid: killer cages, extra regions."""
    n = full.n
    if family == "killer":
        cages = grow_cages(solution, n, rng, default_max_cage(n) if n <= 16 else BIG_CAGE)
        kept = [cells for cells in cages if rng.random() < 0.85] or cages[:1]
        return Puzzle(full.geometry, full.givens, full.diagonals, full.regions, cages=tuple(
            Cage(tuple(sorted(cells)), sum(solution[c] for c in cells)) for cells in kept))
    if family == "extra" and (not full.rules or rng.random() < 0.4):
        regions = tuple(_distinct_cells(solution, n, rng) for _ in range(rng.randint(1, 3)))
        return Puzzle(full.geometry, full.givens, full.diagonals, full.regions,
                      rules=full.rules, extra_regions=regions)
    return full


def _distinct_cells(solution: Grid, n: int, rng: random.Random) -> tuple[int, ...]:
    """2 to n random cells whose digits in the grid all differ, in reading order."""
    wanted = rng.randint(2, n)
    cells: list[int] = []
    digits: set[int] = set()
    for cell in rng.sample(range(n * n), n * n):
        if solution[cell] not in digits:
            cells.append(cell)
            digits.add(solution[cell])
            if len(cells) == wanted:
                break
    return tuple(sorted(cells))


class Alternatives:
    """Solutions other than a grid, of one structure as its givens change: the generator's
    singles search (search.py), trying the grid's value last in every cell, where the groups
    are all there is; the mrv backend counting to two where cages have totals (the search
    knows no sums)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.singles = SinglesSearch(Model.from_puzzle(puzzle))
        self.sums = any(cage.total is not None for cage in puzzle.cages)

    def other(self, givens: Sequence[int], solution: Grid) -> tuple[Grid | None, bool]:
        """A solution of the givens other than ``solution`` (one of theirs), and whether the
        budget ran out first: (None, False) proves ``solution`` the only one. The search meets
        any other solution before ``solution`` itself: it leaves the path to it at some
        decision, by a value tried earlier."""
        if self.sums:
            counted = registry.get("mrv").solve(self.puzzle.with_givens(tuple(givens)), max_solutions=2,
                                                node_limit=CAGE_NODE_BUDGET,
                                                inference="singles")
            other = next((tuple(s) for s in counted.solutions if tuple(s) != tuple(solution)), None)
            return other, other is None and not counted.complete
        cands = self.singles.start(givens)
        if cands is None:
            raise GenerationError("givens that contradict their own solution")  # cannot happen
        found = self.singles.search(cands, None, DIG_NODE_BUDGET, avoid=solution)
        if found.solution is None or tuple(found.solution) == tuple(solution):
            return None, found.ran_out
        return tuple(found.solution), False

    def refuted(self, givens: Sequence[int]) -> bool:
        """Whether propagation alone refutes the givens: naked and hidden singles over the
        groups (a cage as the all-different group it also is; its total not used)."""
        return self.singles.start(givens) is None


def dig(full: Puzzle, solution: Grid, rng: random.Random, target: int) -> tuple[Puzzle, Puzzle | None]:
    """Random cells emptied down to ``target`` givens, then givens put back until the grid
    is the only solution: each round, one search finds another solution (mrv's singles,
    ``Alternatives``) and cells where it differs from the grid are given
    again (a quarter of them, at least one; a sixteenth of all empty cells when the search
    ran out of budget). Returns the unique puzzle and the last puzzle seen to have another
    solution (None if there was none)."""
    others = Alternatives(full)
    givens = list(solution)
    for cell in rng.sample(range(len(givens)), max(0, len(givens) - target)):
        givens[cell] = 0
    several: Puzzle | None = None
    while True:
        other, ran_out = others.other(givens, solution)
        if other is None and not ran_out:
            break
        empty = [cell for cell, value in enumerate(givens) if not value]
        if other is not None:
            several = full.with_givens(tuple(givens))
            empty = [cell for cell in empty if other[cell] != solution[cell]]
        for cell in rng.sample(empty, -(-len(empty) // (PIN_SHARE if other is not None else 16))):
            givens[cell] = solution[cell]
    return full.with_givens(tuple(givens)), several


def thinned(puzzle: Puzzle, solution: Grid, rng: random.Random) -> Puzzle:
    """A unique puzzle with givens removed in random order where each removal is proved to keep
    the grid the only solution (every given tried up to THIN_ALL, so the puzzle is then
    locally minimal; 2n of them on larger grids, KILLER_THIN_TRIES on a killer): sparse, so
    that propagation alone rarely solves it and a wrong given added to it is one only search
    refutes."""
    others = Alternatives(puzzle)
    givens = list(puzzle.givens)
    held = [cell for cell, value in enumerate(givens) if value]
    tries = KILLER_THIN_TRIES if others.sums else len(held) if puzzle.n <= THIN_ALL else 2 * puzzle.n
    tries = min(tries, len(held))
    for cell in rng.sample(held, tries):
        givens[cell] = 0
        other, ran_out = others.other(givens, solution)
        if other is not None or ran_out:
            givens[cell] = solution[cell]
    return puzzle.with_givens(tuple(givens))


def opened(puzzle: Puzzle, solution: Grid, rng: random.Random) -> Puzzle | None:
    """A unique puzzle's givens emptied in random order, one, then two, four... at a time
    (a killer: a quarter of them, then half, then the rest; each check is an mrv count),
    until another solution is found: that puzzle (None if every given went without one)."""
    others = Alternatives(puzzle)
    givens = list(puzzle.givens)
    held = rng.sample([cell for cell, value in enumerate(givens) if value], puzzle.num_givens)
    step = max(1, len(held) // 4) if others.sums else 1
    while held:
        for cell in held[:step]:
            givens[cell] = 0
        del held[:step]
        step *= 2
        other, _ = others.other(givens, solution)
        if other is not None:
            return puzzle.with_givens(tuple(givens))
    return None


def wrong_given(puzzle: Puzzle, solution: Grid, rng: random.Random) -> Puzzle:
    """A unique puzzle plus a given its one solution does not hold there (so: no solution),
    clashing with no given peer; preferably one that propagation alone does not refute."""
    model = Model.from_puzzle(puzzle)
    others = Alternatives(puzzle)
    empty = [cell for cell, value in enumerate(puzzle.givens) if not value]
    if not empty:
        raise GenerationError("a puzzle with no empty cell has no wrong given to add")
    chosen: Puzzle | None = None
    for _ in range(SEARCH_ONLY_TRIES):
        cell = rng.choice(empty)
        taken = {puzzle.givens[peer] for peer in model.peers[cell]} | {solution[cell]}
        free = [v for v in range(1, puzzle.n + 1) if v not in taken]
        if not free:
            continue
        givens = list(puzzle.givens)
        givens[cell] = rng.choice(free)
        candidate = puzzle.with_givens(tuple(givens))
        if find_duplicate(candidate.givens, model.groups) is not None:
            continue
        chosen = candidate
        if not others.refuted(candidate.givens):
            break  # propagation does not see it: only search does
    if chosen is None:
        raise GenerationError("found no wrong given that clashes with no peer")
    return chosen
