"""The puzzle generator: unique puzzles for every geometry and variant, reproducible, as requested.

Uniqueness is checked with OR-tools CP-SAT used directly (tests/cpsat_unique.py),
not with the mrv backend and search the generator itself relies on.
"""
from __future__ import annotations

import random
from collections import deque

import pytest

from models import Geometry, Model, Puzzle, read_text, verify
from solvers.generate import generator
from solvers.generate.generator import Generated, GenerationError, generate
from solvers.generate.search import SinglesSearch
from solvers.harness.commands.generate import main as generate_main

from .conftest import load
from .cpsat_unique import count_solutions

CASES = [  # (size, variant, seed)
    (4, "standard", 1), (4, "standard", 2), (6, "standard", 1), (6, "standard", 2),
    (9, "standard", 1), (9, "standard", 2), (12, "standard", 1),
    (9, "x", 1), (9, "x", 2), (9, "jigsaw", 1), (9, "jigsaw", 2), (6, "x", 3), (6, "jigsaw", 3),
]


@pytest.fixture(scope="module")
def made() -> dict[tuple[int, str, int], Generated]:
    return {case: generate(case[0], seed=case[2], variant=case[1]) for case in CASES}


def case_id(case: tuple[int, str, int]) -> str:
    return f"{case[0]}x{case[0]}-{case[1]}-seed{case[2]}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_generated_puzzle_is_unique_by_an_independent_solver(made, case) -> None:
    result = made[case]
    assert result.puzzle.n == case[0] and result.puzzle.variant == case[1]
    assert count_solutions(result.puzzle) == 1
    assert result.difficulty.unique is True


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_solution_is_valid_and_keeps_the_givens(made, case) -> None:
    result = made[case]
    assert verify(result.puzzle, result.solution).ok
    assert all(g in (0, s) for g, s in zip(result.puzzle.givens, result.solution))


@pytest.mark.parametrize("case", [c for c in CASES if c[0] <= 6] + [(9, "standard", 1)], ids=case_id)
def test_default_puzzle_is_locally_minimal(made, case) -> None:
    result = made[case]
    assert result.minimal
    for cell, value in enumerate(result.puzzle.givens):
        if value:
            fewer = list(result.puzzle.givens)
            fewer[cell] = 0
            assert count_solutions(result.puzzle.with_givens(tuple(fewer))) == 2, f"clue {cell} not needed"


def test_16x16_with_a_givens_target_is_unique() -> None:
    result = generate(16, seed=3, givens=150)
    assert result.puzzle.num_givens == 150
    assert count_solutions(result.puzzle) == 1


def test_same_seed_gives_the_same_puzzles_and_another_seed_others() -> None:
    first = [generate(9, seed=f"5/{i}").puzzle for i in range(3)]
    again = [generate(9, seed=f"5/{i}").puzzle for i in range(3)]
    other = [generate(9, seed=f"6/{i}").puzzle for i in range(3)]
    assert first == again
    assert not set(first) & set(other)
    assert generate(9, seed=4, variant="jigsaw").puzzle == generate(9, seed=4, variant="jigsaw").puzzle


@pytest.mark.slow
def test_every_4x4_grid_is_reachable() -> None:
    # 4x4 has exactly 288 valid grids; a relabelled fixed pattern would give at most 24
    template = Puzzle(Geometry.for_size(4), (0,) * 16)
    rng = random.Random(0)
    grids = {generator.random_solution(template, rng) for _ in range(4000)}
    assert all(verify(template, g).ok for g in grids)
    assert len(grids) == 288


@pytest.mark.parametrize("size,givens", [(4, 8), (6, 20), (9, 30), (9, 81), (12, 100)])
def test_givens_request_is_honoured(size: int, givens: int) -> None:
    result = generate(size, seed=1, givens=givens)
    assert result.puzzle.num_givens == givens
    assert count_solutions(result.puzzle) == 1


@pytest.mark.parametrize("size,givens,message", [
    (9, -1, "outside 0..81"), (9, 82, "outside 0..81"),
    (9, 7, "fewer than 8 givens"), (16, 200, None)])
def test_impossible_givens_are_refused_before_any_work(size: int, givens: int, message: str | None) -> None:
    if message is None:  # a sane request passes the check
        generator.check_request(size, givens, False, "standard")
        return
    with pytest.raises(ValueError, match=message):
        generate(size, seed=1, givens=givens)


@pytest.mark.slow
def test_unreached_givens_target_fails_naming_the_fewest_reached() -> None:
    # 9x9 needs 17 givens at least; random locally minimal ones have about 22-26
    with pytest.raises(GenerationError, match=r"with 18 givens in 20 attempts; the fewest reached was 2\d"):
        generate(9, seed=0, givens=18)


@pytest.mark.parametrize("size,givens", [(9, None), (9, 31), (16, 180), (6, None), (12, None)])
def test_symmetric_puzzles_are_symmetric_through_the_centre(size: int, givens: int | None) -> None:
    result = generate(size, seed=2, givens=givens, symmetric=True)
    g = result.puzzle.givens
    assert all(bool(g[c]) == bool(g[len(g) - 1 - c]) for c in range(len(g)))
    assert count_solutions(result.puzzle) == 1
    if givens is not None:
        assert result.puzzle.num_givens == givens


def test_odd_givens_cannot_be_symmetric_on_an_even_grid() -> None:
    with pytest.raises(ValueError, match="even number of givens"):
        generate(16, seed=1, givens=151, symmetric=True)


@pytest.mark.parametrize("size", [6, 9, 12])
def test_random_regions_are_connected_and_not_the_boxes(size: int) -> None:
    regions = generator.random_regions(size, random.Random(size))
    geometry = Geometry.for_size(size)
    assert sorted(regions) == sorted(list(range(1, size + 1)) * size)
    for region in range(1, size + 1):
        cells = {c for c, r in enumerate(regions) if r == region}
        seen, todo = {min(cells)}, deque([min(cells)])
        while todo:
            row, col = divmod(todo.popleft(), size)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < size and 0 <= c < size and r * size + c in cells and r * size + c not in seen:
                    seen.add(r * size + c)
                    todo.append(r * size + c)
        assert seen == cells, f"region {region} is not connected"
    assert {frozenset(c for c, r in enumerate(regions) if r == k) for k in range(1, size + 1)} \
        != {frozenset(box) for box in geometry.boxes}


def test_singles_measure_on_known_puzzles() -> None:
    easy = load("easy50.txt")[0]   # Norvig's easy set: singles alone solve these
    locked = load("top95.txt")[0]  # beyond singles, but mrv's locked candidates need no decision
    hard = load("top95.txt")[3]    # needs search even with locked candidates
    measured = {name: generator.measure(p)[0] for name, p in
                (("easy", easy), ("locked", locked), ("hard", hard))}
    assert measured["easy"].singles and measured["easy"].mrv_nodes == 0
    assert not measured["locked"].singles and measured["locked"].mrv_nodes == 0
    assert not measured["hard"].singles and measured["hard"].mrv_nodes > 0
    assert all(d.unique for d in measured.values())


def test_difficulty_is_consistent_for_generated_puzzles(made) -> None:
    for result in made.values():
        if result.difficulty.singles:
            assert result.difficulty.mrv_nodes == 0  # nothing left to decide after singles
        assert result.difficulty.givens == result.puzzle.num_givens


def test_tries_keep_the_hardest() -> None:
    single = [generate(9, seed=f"t/{i}").difficulty.mrv_nodes for i in range(1)]
    best = generate(9, seed="t/0", tries=4)
    assert best.difficulty.mrv_nodes >= single[0]
    assert count_solutions(best.puzzle) == 1


def test_command_writes_readable_puzzles_with_their_difficulty(tmp_path) -> None:
    out = tmp_path / "made.txt"
    assert generate_main(["--size", "6", "--count", "3", "--seed", "9", "--variant", "x", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# python compare.py generate --size 6 --count 3 --seed 9 --variant x\n")
    batch = read_text(text)
    assert not batch.errors and len(batch.puzzles) == 3
    assert all(p.variant == "x" and count_solutions(p) == 1 for p in batch.puzzles)
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert all(" # givens=" in line and "singles=" in line and "mrv_nodes=" in line for line in lines)
    assert generate_main(["--size", "6", "--count", "3", "--seed", "9", "--variant", "x",
                          "-o", str(tmp_path / "again.txt")]) == 0
    assert (tmp_path / "again.txt").read_text() == text


@pytest.mark.parametrize("argv,status,message", [
    (["--size", "9", "--givens", "100"], 2, "outside 0..81"),
    (["--size", "7"], 2, "not a valid grid"),
    (["--size", "9", "--givens", "18", "--seed", "0"], 1, "the fewest reached was"),
])
def test_command_refuses_clearly(argv: list[str], status: int, message: str, capsys) -> None:
    assert generate_main(argv) == status
    assert message in capsys.readouterr().err


def test_subcommand_plugs_into_a_parser_with_subcommands(tmp_path) -> None:
    import argparse

    from solvers.harness.commands.generate import add_parser as add_generate_parser

    parser = argparse.ArgumentParser(prog="compare.py")
    add_generate_parser(parser.add_subparsers(dest="command"))
    out = tmp_path / "x.txt"
    args = parser.parse_args(["generate", "--size", "4", "--count", "2", "--seed", "1", "--givens", "6",
                              "--symmetric", "-o", str(out)])
    assert args.func(args) == 0
    puzzles = read_text(out.read_text()).puzzles
    assert [p.num_givens for p in puzzles] == [6, 6]


@pytest.mark.parametrize("case, node_budget", [
    pytest.param(case, budget, id=f"{check}-{case_id(case)}",
                 marks=[pytest.mark.slow] if budget is None and case[1] == "jigsaw" else [])  # 1 s of CPU
    for budget, check in ((0, "cpsat-check"), (None, "mrv-search"))
    # the 9x9 jigsaw of seed 1 takes the generator's search some 0.9 s of CPU to prove unique;
    # seed 2's took 7 s through the same search
    for case in ((9, "standard", 1), (9, "jigsaw", 1), (6, "x", 3))])
def test_both_uniqueness_checks_agree_on_one_clue_more_or_less(made, case, node_budget) -> None:
    # node_budget=0 hands every check to the cpsat backend (counting to two), None keeps it in
    # the generator's own search: both must keep a locally minimal puzzle unique and see a
    # clue go too far.
    result = made[case]
    givens = list(result.puzzle.givens)
    search = SinglesSearch(Model.from_puzzle(result.puzzle))
    empty = tuple(c for c, v in enumerate(givens) if not v)
    cell = next(c for c, v in enumerate(givens) if v)
    assert generator.still_unique(search, result.puzzle, empty, result.solution, node_budget)
    givens[cell] = 0
    fewer = result.puzzle.with_givens(tuple(givens))
    assert not generator.still_unique(search, fewer, (cell,), result.solution, node_budget)
