"""Quasigroup with holes: valid Latin squares, uniform over all squares of small orders,
exactly the asked fraction of holes, deterministic by seed, satisfiable by construction."""
from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest

from models import verify
from solvers import Status, registry
from solvers.generate.qwh import punch_holes, qwh, random_latin_square


def all_latin_squares(n: int) -> set[tuple[int, ...]]:
    """Every Latin square of order n, by brute force over row permutations."""
    rows = list(permutations(range(1, n + 1)))
    squares: set[tuple[int, ...]] = set()

    def extend(chosen: list[tuple[int, ...]]) -> None:
        if len(chosen) == n:
            squares.add(sum(chosen, ()))
            return
        for row in rows:
            if all(row[c] != other[c] for other in chosen for c in range(n)):
                extend([*chosen, row])
    extend([])
    return squares


@pytest.mark.parametrize("n, samples, bound", [(3, 600, 40),
                                                pytest.param(4, 1200, 700, marks=pytest.mark.slow)])
def test_the_chain_reaches_every_latin_square_about_equally_often(n: int, samples: int, bound: int) -> None:
    # the bounds are far in the tail of chi-square with 11 (order 3) and 575 (order 4) degrees
    # of freedom; walking to the nearest proper square instead gives 819 for order 4 here
    every = all_latin_squares(n)
    rng = random.Random(f"uniformity/{n}")
    seen = Counter(random_latin_square(n, rng, moves=4 * n ** 2) for _ in range(samples))
    assert set(seen) <= every and (n > 3 or set(seen) == every)
    expected = samples / len(every)
    chi_square = sum((count - expected) ** 2 / expected for count in seen.values())
    assert chi_square < bound


@pytest.mark.parametrize("n", [2, 5, 15, 22])
def test_a_random_square_is_latin(n: int) -> None:
    made = qwh(n, 0.0, seed=n)
    assert made.puzzle.givens == made.solution and verify(made.puzzle, made.solution).ok


@pytest.mark.parametrize("n, fraction, holes", [(10, 0.42, 42), (15, 0.4, 90), (7, 1.0, 49), (7, 0.0, 0)])
def test_the_holes_are_the_asked_fraction_of_the_cells(n: int, fraction: float, holes: int) -> None:
    made = qwh(n, fraction, seed="h")
    assert n * n - made.puzzle.num_givens == holes
    assert all(g in (0, s) for g, s in zip(made.puzzle.givens, made.solution))
    assert made.puzzle.variant == "latin"


def test_holes_fall_everywhere_over_many_instances() -> None:
    rng = random.Random(3)
    hit = Counter(cell for _ in range(400) for cell, v in
                  enumerate(punch_holes(tuple(range(1, 26)), 0.4, rng)) if v == 0)
    assert set(hit) == set(range(25)) and max(hit.values()) < 2 * min(hit.values())


def test_a_seed_gives_the_same_instance_and_another_seed_another() -> None:
    assert qwh(12, 0.45, seed=5) == qwh(12, 0.45, seed=5)
    assert qwh(12, 0.45, seed=5).solution != qwh(12, 0.45, seed=6).solution


@pytest.mark.parametrize("fraction", [-0.1, 1.5])
def test_a_hole_fraction_outside_0_to_1_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError, match="the hole fraction is from 0 to 1"):
        qwh(5, fraction)


def test_every_backend_completes_a_small_qwh_instance(backend: registry.Backend) -> None:
    made = qwh(8, 0.42, seed="every")
    result = backend.solve(made.puzzle, time_limit=30.0)
    assert result.status is Status.SOLVED, f"{result.status}: {result.message}"
    assert verify(made.puzzle, result.solutions[0]).ok
