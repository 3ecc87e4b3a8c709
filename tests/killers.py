"""Small killer puzzles for the backend tests, built as Puzzles directly.

Each is a solution grid and a cage map (one symbol per cell, one symbol per cage,
'.' for a cell in no cage); the totals are read off the solution. The cage maps
were drawn at random around shuffled grids and kept when CP-SAT found exactly one
solution; the tests re-prove uniqueness with every backend. ``all_4x4_grids``
enumerates the 288 valid 4x4 grids by brute force, an oracle that shares nothing
with any backend.
"""
from __future__ import annotations

from functools import cache
from itertools import permutations

from models import Cage, Geometry, Puzzle


def killer(box_rows: int, box_cols: int, solution: str, cage_map: str, *,
           givens: str = "", totals: dict[str, int | None] | None = None) -> Puzzle:
    """The killer puzzle whose cages are the map's symbols, with totals from ``solution``
    (or ``totals``, symbol -> total, where a test wants another one; None drops it).
    ``givens`` is a line of digits and '.' (default: none)."""
    geometry = Geometry.of(box_rows, box_cols)
    n = geometry.n
    cage_map = "".join(cage_map.split())
    assert len(solution) == len(cage_map) == n * n
    values = [int(v) for v in solution]
    cells: dict[str, list[int]] = {}
    for cell, symbol in enumerate(cage_map):
        if symbol != ".":
            cells.setdefault(symbol, []).append(cell)
    chosen = totals or {}
    cages = tuple(Cage(tuple(c), chosen[s] if s in chosen else sum(values[x] for x in c))
                  for s, c in cells.items())
    grid = tuple(0 if v == "." else int(v) for v in givens) if givens else (0,) * (n * n)
    return Puzzle(geometry, grid, cages=cages)


SOLUTION_4A = "2341412334121234"
SOLUTION_4B = "4231132421433412"
SOLUTION_9A = "726538914583419267491762835915246378264873159837951642372185496158694723649327581"
SOLUTION_9B = "385496217127385946496127835871953624953264781264871593742518369639742158518639472"

UNIQUE: dict[str, tuple[Puzzle, str]] = {
    "4x4-a": (killer(2, 2, SOLUTION_4A, "FCCH DDAA DEBG EEBB"), SOLUTION_4A),
    "4x4-b": (killer(2, 2, SOLUTION_4B, "DDAA DGAE GGCC BBCF"), SOLUTION_4B),
    # cages plus one given; cage B holds the given
    "4x4-given": (killer(2, 2, SOLUTION_4B, "DDAA D.A. ..CC BBC.", givens="...." "...." "...." "3..."),
                  SOLUTION_4B),
    "9x9-a": (killer(3, 3, SOLUTION_9A, "RRREEIJJJ QQREHIAAA CcKKHIMMZ CCiKTIGGX FUBKTDGGX "
                                        "FUBSODDaa FUeLOYNNa ggeLbWddP hVVLWWfPP"), SOLUTION_9A),
    "9x9-b": (killer(3, 3, SOLUTION_9B, "WWiDaacOB YWTDeOOOB MMTDeeGRR MMfhegGLL bffhEEEEV "
                                        "bUXXZJASS bUHXZJAFF dNHPCJKKI dNPPCJQQI"), SOLUTION_9B),
}
"""name -> (a killer puzzle with exactly one solution, that solution)."""

SOLUTION_9C = "465831792729564183138927456816379524542618937973245861684193275257486319391752648"
SOLUTION_9D = "958173426137264598246985317613842975824759163795631284582397641461528739379416852"
SEARCHING: dict[str, tuple[Puzzle, str]] = {
    "9x9-big-cages-a": (killer(3, 3, SOLUTION_9C, "ONNJJJJUU NNNPJJGGG QCAEELLGG CCAAELKKR "
                                                  "WAAFEEKKI BBBFFDDDI VBBFFDDDI HHHMFMMTI XHHMMMSSS"),
                        SOLUTION_9C),
    "9x9-big-cages-b": (killer(3, 3, SOLUTION_9D, "KIIIUNNNJ KKKDDTTJJ KGGDDDQQQ AGGGCRRRQ "
                                                  "AAAGCFFFF AAVCCLEEP MMMMSLEEP OHHSSLEBP OHHHBBBBB"),
                        SOLUTION_9D),
}
"""name -> (a unique killer with larger cages, where cage reasoning alone does not finish and
mrv searches some hundreds of decisions: the twins' decisions are compared on these)."""

UNSAT: dict[str, Puzzle] = {
    # two cells of a 4x4 sum to at most 4 + 3 = 7
    "4x4-total-too-big": killer(2, 2, SOLUTION_4A, "AA.. .... .... ....", totals={"A": 8}),
    # a three-cell cage summing to 6 must hold 1, 2, 3; its given 4 rules that out
    "4x4-given-outside-combinations": killer(2, 2, SOLUTION_4A, "AAA. .... .... ....",
                                             totals={"A": 6}, givens="..4." + "." * 12),
    # each cage alone can be met, but together they cover row 1, which sums to 10, not 4 + 5
    "4x4-row-total-wrong": killer(2, 2, SOLUTION_4A, "AABB .... .... ....", totals={"A": 4, "B": 5}),
}
"""name -> a killer puzzle with no solution."""


@cache
def all_4x4_grids() -> tuple[tuple[int, ...], ...]:
    """Every valid 4x4 Sudoku grid (288), by trying every row permutation."""
    rows = list(permutations(range(1, 5)))
    boxes = [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]
    grids = []
    for a in rows:
        for b in rows:
            for c in rows:
                for d in rows:
                    grid = a + b + c + d
                    if all(len({grid[r * 4 + col] for r in range(4)}) == 4 for col in range(4)) and \
                            all(len({grid[x] for x in box}) == 4 for box in boxes):
                        grids.append(grid)
    return tuple(grids)


def oracle_solutions(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """The solutions of a 4x4 killer puzzle by brute force over all valid grids."""
    return {g for g in all_4x4_grids()
            if all(not v or g[i] == v for i, v in enumerate(puzzle.givens))
            and all(len({g[c] for c in cage.cells}) == len(cage.cells)
                    and (cage.total is None or sum(g[c] for c in cage.cells) == cage.total)
                    for cage in puzzle.cages)}


MULTIPLE: dict[str, Puzzle] = {
    # a few cages, some without a total: several solutions, counted by the oracle
    "4x4-few-cages": killer(2, 2, SOLUTION_4A, "AA.. B... B.CC ...."),
    "4x4-cage-without-total": killer(2, 2, SOLUTION_4A, "AAB. ..B. .... DD..", totals={"B": None}),
}
"""name -> a 4x4 killer puzzle with several solutions (the oracle counts them)."""
