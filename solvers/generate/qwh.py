"""Quasigroup with holes (QWH): a uniformly random Latin square with holes punched at random.

The Latin square comes from Jacobson and Matthews' Markov chain (1996), which walks over
Latin squares and "improper" squares. Think of a square of order n as an n x n x n cube of
0/1 entries f(row, column, symbol) with every line summing to 1. An improper square has
one entry equal to -1 (and so two 1s in each of its three lines). One move:

- from a proper square, pick an entry (r, c, s) that is 0; from an improper one, start at
  the -1 entry;
- in each of the three lines through it pick a 1: (r', c, s), (r, c', s), (r, c, s')
  (the only one in a proper square; one of the two at random in an improper one);
- add 1 to (r, c, s), (r, c', s'), (r', c, s'), (r', c', s) and subtract 1 from
  (r', c, s), (r, c', s), (r, c, s'), (r', c', s').

Every line still sums to 1; if (r', c', s') went to -1 the square is improper, else proper.
The chain's stationary distribution is uniform on the proper squares. It starts from the
cyclic square and runs ``moves`` moves (default n**3); a square still improper then is not
corrected by walking to the nearest proper one (that favours the proper squares next to
improper ones: measured, a chi-square of 1835 on the 576 squares of order 4), but the chain
runs another n*n moves and looks again, as sampling a long chain at fixed times does.
Holes are then chosen as a uniformly random set of round(fraction * n*n) cells, so the
instance is satisfiable by construction (the square itself fills it).

Everything random draws from one ``random.Random`` seeded from the seed string, so a seed
gives the same instance on every machine.

>>> made = qwh(5, 0.4, seed=1)
>>> made.puzzle.variant, 25 - made.puzzle.num_givens
('latin', 10)
>>> qwh(5, 0.4, seed=1) == made
True
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from models import Geometry, Grid, Puzzle, verify
from models.geometry import MAX_SIZE, MIN_LATIN


@dataclass(frozen=True)
class QWH:
    """A quasigroup-with-holes instance and the Latin square it was punched from."""

    puzzle: Puzzle
    solution: Grid


class _Cube:
    """The incidence cube of a (possibly improper) Latin square, by its lines' 1-entries.

    ``rows[c][s]`` lists the rows r with f(r, c, s) = 1, ``cols[r][s]`` the columns and
    ``syms[r][c]`` the symbols; ``bad`` is the -1 entry of an improper square, or None.
    """

    def __init__(self, n: int):
        self.n = n
        self.rows: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        self.cols: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        self.syms: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        self.bad: tuple[int, int, int] | None = None
        for r in range(n):
            for c in range(n):
                self._add(r, c, (r + c) % n)

    def _add(self, r: int, c: int, s: int) -> None:
        if self.bad == (r, c, s):
            self.bad = None  # -1 + 1 = 0
            return
        self.rows[c][s].append(r)
        self.cols[r][s].append(c)
        self.syms[r][c].append(s)

    def _remove(self, r: int, c: int, s: int) -> None:
        if s in self.syms[r][c]:
            self.rows[c][s].remove(r)
            self.cols[r][s].remove(c)
            self.syms[r][c].remove(s)
        else:  # 0 - 1: the one -1 entry
            self.bad = (r, c, s)

    def move(self, rng: random.Random) -> None:
        """One step of the chain."""
        n = self.n
        if self.bad is None:
            while True:
                r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
                if s not in self.syms[r][c]:
                    break
        else:
            r, c, s = self.bad
        r2 = rng.choice(self.rows[c][s])
        c2 = rng.choice(self.cols[r][s])
        s2 = rng.choice(self.syms[r][c])
        for entry in ((r, c, s), (r, c2, s2), (r2, c, s2), (r2, c2, s)):
            self._add(*entry)
        for entry in ((r2, c, s), (r, c2, s), (r, c, s2), (r2, c2, s2)):
            self._remove(*entry)

    def square(self) -> Grid:
        """The proper square as values 1..n in reading order."""
        return tuple(self.syms[r][c][0] + 1 for r in range(self.n) for c in range(self.n))


def random_latin_square(n: int, rng: random.Random, moves: int | None = None) -> Grid:
    """A uniformly random Latin square of order n (Jacobson and Matthews' chain)."""
    if not MIN_LATIN <= n <= MAX_SIZE:
        raise ValueError(f"a Latin square has an order from {MIN_LATIN} to {MAX_SIZE}, not {n}")
    cube = _Cube(n)
    for _ in range(n ** 3 if moves is None else moves):
        cube.move(rng)
    while cube.bad is not None:
        for _ in range(n * n):
            cube.move(rng)
    return cube.square()


def punch_holes(square: Grid, fraction: float, rng: random.Random) -> Grid:
    """The square with round(fraction * cells) cells, chosen uniformly at random, emptied."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"the hole fraction is from 0 to 1, not {fraction}")
    holes = set(rng.sample(range(len(square)), round(fraction * len(square))))
    return tuple(0 if cell in holes else value for cell, value in enumerate(square))


def qwh(n: int, holes: float, seed: int | str = 0, moves: int | None = None) -> QWH:
    """A QWH instance of order n with a fraction ``holes`` of its cells empty."""
    rng = random.Random(f"qwh/{n}/{seed}")
    square = random_latin_square(n, rng, moves)
    puzzle = Puzzle(Geometry.latin_square(n), punch_holes(square, holes, rng))
    if not verify(puzzle, square):  # the chain keeps every line summing to 1; checked anyway
        raise RuntimeError(f"the Markov chain left an invalid square: {verify(puzzle, square)}")
    return QWH(puzzle, square)
