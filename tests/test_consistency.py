"""mrv's consistency levels (bounds, gac, sac) and search='none', fast and readable."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import Model, Puzzle, verify
from models.model import Group
from solvers import Status, registry
from solvers.backends import _consistency, mrv
from solvers.backends.readable import alldifferent
from solvers.backends.readable import mrv as readable_mrv

from .conftest import load
from .killers import UNIQUE

LEVELS = mrv.LEVELS
# a group of up to 5 cells, each with 1..4 candidates among the values 1..6
domains_of_a_group = st.lists(st.sets(st.integers(1, 6), min_size=1, max_size=4), min_size=1, max_size=5)


def assignments(domains: list[set[int]]) -> list[tuple[int, ...]]:
    """Every assignment of different values to the cells (brute force)."""
    return [a for a in itertools.product(*map(sorted, domains)) if len(set(a)) == len(a)]


def mask(domain: set[int]) -> int:
    return sum(1 << (v - 1) for v in domain)


def values(m: int) -> set[int]:
    return {v for v in range(1, m.bit_length() + 1) if m >> (v - 1) & 1}


def after(domains: list[set[int]], removed: list[tuple[int, int]]) -> list[set[int]]:
    left = [set(d) for d in domains]
    for position, value in removed:
        left[position].discard(value)
    return left


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(domains_of_a_group)
def test_gac_keeps_exactly_the_values_some_assignment_uses(domains: list[set[int]]) -> None:
    every = assignments(domains)
    supported = [{a[i] for a in every} for i in range(len(domains))]
    readable = alldifferent.arc_prunings(domains)
    cands = [mask(d) for d in domains]
    fast = _consistency.revise_gac(cands, range(len(domains)))
    if not every:
        assert readable is None and fast is None
        return
    assert after(domains, readable) == supported
    assert [values(c) for c in cands] == supported


@settings(max_examples=200, deadline=None)
@given(domains_of_a_group)
def test_bounds_keeps_each_supported_bound_and_removes_only_unsupported_bounds(
        domains: list[set[int]]) -> None:
    readable = alldifferent.bounds_prunings(domains)
    cands = [mask(d) for d in domains]
    fast = _consistency.revise_bounds(cands, range(len(domains)))
    if readable is None:
        assert fast is None
        assert not assignments(domains)  # sound: it fails only where nothing fits
        return
    left = after(domains, readable)
    assert [values(c) for c in cands] == left
    assert all(left)
    # every value removed was a bound when it went, so what is left inside the hull is untouched
    for d, kept in zip(domains, left):
        assert {v for v in d if min(kept) <= v <= max(kept)} == kept
    # each bound left has a support with every other cell anywhere within its own bounds
    intervals = [set(range(min(k), max(k) + 1)) for k in left]
    for i, kept in enumerate(left):
        for bound in (min(kept), max(kept)):
            assert assignments([*intervals[:i], {bound}, *intervals[i + 1:]])
    # and no value an assignment uses is removed
    for a in assignments(domains):
        assert all(v in k for v, k in zip(a, left))


def puzzles(*named: tuple[str, tuple[int, ...]]) -> list:
    return [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}")
            for name, indexes in named for i in indexes]


SMALL = [*puzzles(("small_4x4.txt", (0,)), ("small_6x6.txt", (0, 1)), ("small_unsat.txt", (0,)), ("top95.txt", (0,))),
         pytest.param(load("hardest.txt")[2], id="hardest-2", marks=pytest.mark.slow)]


def same_run(fast, slow) -> None:
    assert fast.status is slow.status
    assert fast.solutions == slow.solutions
    assert (fast.stats.nodes, fast.stats.backtracks, fast.stats.propagations,
            fast.stats.fixed_cells) == (slow.stats.nodes, slow.stats.backtracks,
                                        slow.stats.propagations, slow.stats.fixed_cells)


@pytest.mark.parametrize("search", mrv.SEARCHES)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("puzzle", SMALL)
def test_readable_twin_reaches_the_same_fixed_point_and_makes_the_same_decisions(
        puzzle: Puzzle, level: str, search: str) -> None:
    if level == "bounds" and search == "depth-first" and puzzle.geometry.n == 9:
        pytest.skip("bounds alone searches a 9x9 for long")
    model = Model.from_puzzle(puzzle)
    options = {"inference": level, "search": search, "max_solutions": 2}
    fast, slow = mrv.solve(model, **options), readable_mrv.solve(model, **options)
    same_run(fast, slow)
    for solution in fast.solutions:
        assert verify(puzzle, solution).ok


CHAIN_CASES = puzzles(("top95.txt", (0, 1, 2, 3, 4, 5)), ("x_sudoku.txt", (0,)), ("jigsaw.txt", (0,)),
                      ("16x16_gecode_janko.txt", (0,)), ("hardest.txt", (0,)))


@pytest.mark.parametrize("puzzle", CHAIN_CASES)
def test_each_level_fixes_at_least_what_a_weaker_one_fixes(puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    runs = {level: mrv.solve(model, inference=level, search="none")
            for level in ("singles", "bounds", "gac", "sac")}
    fixed = {level: run.stats.fixed_cells for level, run in runs.items()}
    assert fixed["bounds"] <= fixed["gac"] <= fixed["sac"], fixed
    assert fixed["singles"] <= fixed["gac"], fixed
    settled = {level: run.status is Status.SOLVED for level, run in runs.items()}
    assert settled["bounds"] <= settled["gac"] <= settled["sac"] and settled["singles"] <= settled["gac"]


def test_gac_settles_a_puzzle_that_singles_leave_open() -> None:
    puzzle = load("top95.txt")[0]
    singles = mrv.solve(Model.from_puzzle(puzzle), inference="singles", search="none")
    gac = registry.solve("mrv", puzzle, inference="gac", search="none")
    assert singles.status is Status.UNKNOWN and "search is needed" in singles.message
    assert gac.status is Status.SOLVED and gac.complete and gac.stats.nodes == 0
    assert verify(puzzle, gac.solutions[0]).ok
    assert gac.stats.fixed_cells == len(puzzle.givens) - puzzle.num_givens


@pytest.mark.parametrize("impl", ["fast", "readable"])
@pytest.mark.parametrize("inference", ["bounds", "gac", "sac", "singles", "forward"])
def test_search_none_leaves_open_cells_unknown_with_the_count_it_fixed(inference: str, impl: str) -> None:
    puzzle = load("hardest.txt")[0]
    result = registry.solve("mrv", puzzle, inference=inference, search="none", impl=impl)
    open_cells = len(puzzle.givens) - puzzle.num_givens
    if result.status is Status.SOLVED:
        assert result.stats.fixed_cells == open_cells
    else:
        assert result.status is Status.UNKNOWN
        assert 0 <= result.stats.fixed_cells < open_cells
        assert result.stats.nodes == 0


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_refutes_clashing_givens(level: str) -> None:
    for puzzle in load("small_unsat.txt"):
        assert mrv.solve(Model.from_puzzle(puzzle), inference=level, search="none").status is Status.UNSAT


@pytest.mark.slow
@pytest.mark.parametrize("level", ["gac", "sac"])
def test_a_group_smaller_than_the_grid_is_all_different_only(level: str) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[7]  # 125 solutions
    every = registry.solve("mrv", puzzle, max_solutions=200).solutions
    extra = (0, 40, 80)
    expected = {s for s in every if len({s[c] for c in extra}) == 3}
    base = Model.from_puzzle(puzzle)
    model = Model(puzzle, (*base.groups, Group("extra", extra)))
    result = mrv.solve(model, inference=level, max_solutions=200)
    assert set(result.solutions) == expected and result.complete


def test_unknown_search_is_an_error_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="depth-first"):
        registry.solve("mrv", load("seeds.txt")[0], search="breadth")


@pytest.mark.parametrize("impl", ["fast", "readable"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_cage_total_is_unsupported_at_the_consistency_levels(level: str, impl: str) -> None:
    puzzle = next(iter(UNIQUE.values()))[0]
    result = registry.solve("mrv", puzzle, inference=level, impl=impl)
    assert result.status is Status.UNSUPPORTED and "cage" in result.message
