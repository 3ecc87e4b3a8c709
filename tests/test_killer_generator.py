"""The killer generator and the generate command's killer, QWH and f-puzzles options.

Uniqueness of 4x4 killers is checked by brute force over all 576 Latin squares of order 4
with the independent checker; larger ones by a backend of another paradigm than the
generator's (mip, where the generator proves with mrv and confirms with sat).
"""
from __future__ import annotations

import subprocess
from collections import deque
from functools import cache
from pathlib import Path

import pytest

from models import Puzzle, read_puzzles, verify
from solvers import registry
from solvers.generate.generator import neighbours
from solvers.generate.killer import Killer, generate_killer

from .conftest import cli, compare_here
from .test_qwh import all_latin_squares


@cache
def latin4() -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(all_latin_squares(4)))


def solutions_4x4(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution of a 4x4 puzzle: the Latin squares the independent checker accepts."""
    return [grid for grid in latin4() if verify(puzzle, grid).ok]


SMALL = [(4, "standard", False, 1), (4, "standard", False, 2), (4, "standard", True, 3),
         (4, "x", False, 4), (4, "jigsaw", True, 5)]
LARGER = [(6, "x", False, 6), (6, "jigsaw", True, 7)]


class Made(dict):
    """Each case's killer, made the first time a test asks for it."""

    def __missing__(self, case: tuple) -> Killer:
        self[case] = generate_killer(case[0], variant=case[1], givens=case[2], seed=case[3])
        return self[case]


@pytest.fixture(scope="module")
def made() -> Made:
    return Made()


def case_id(case: tuple) -> str:
    return f"{case[0]}x{case[0]}-{case[1]}-{'givens' if case[2] else 'cages'}-seed{case[3]}"


CASES = SMALL + [pytest.param(case, marks=pytest.mark.slow, id=case_id(case)) for case in LARGER]


@pytest.mark.parametrize("case", SMALL, ids=case_id)
def test_a_4x4_killer_has_exactly_its_solution_by_brute_force(made, case) -> None:
    killer = made[case]
    assert solutions_4x4(killer.puzzle) == [killer.solution]


@pytest.mark.slow
@pytest.mark.parametrize("case", LARGER, ids=case_id)
def test_a_6x6_killer_is_unique_by_another_paradigm(made, case) -> None:
    killer = made[case]
    result = registry.get("mip").solve(killer.puzzle, max_solutions=2, time_limit=60.0)
    assert result.unique is True and result.solution == killer.solution


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in SMALL] + [None] * len(LARGER))
def test_cages_are_connected_distinct_within_size_and_sum_to_their_totals(made, case) -> None:
    killer = made[case]
    n, solution = killer.puzzle.n, killer.solution
    assert killer.puzzle.variant == ("killer" if case[1] == "standard" else f"{case[1]}-killer")
    covered = [cell for cage in killer.puzzle.cages for cell in cage.cells]
    assert sorted(covered) == list(range(n * n))  # a partition of the grid
    for cage in killer.puzzle.cages:
        assert len(cage.cells) <= min(5, n - 1)
        assert len({solution[c] for c in cage.cells}) == len(cage.cells)
        assert cage.total == sum(solution[c] for c in cage.cells)
        seen, todo = {cage.cells[0]}, deque([cage.cells[0]])
        while todo:
            for other in neighbours(todo.popleft(), n):
                if other in cage.cells and other not in seen:
                    seen.add(other)
                    todo.append(other)
        assert seen == set(cage.cells)
    if not case[2]:
        assert killer.puzzle.num_givens == 0


def test_givens_left_in_a_4x4_killer_are_each_needed(made) -> None:
    killer = made[(4, "jigsaw", True, 5)]
    for cell, value in enumerate(killer.puzzle.givens):
        if value:
            fewer = list(killer.puzzle.givens)
            fewer[cell] = 0
            assert len(solutions_4x4(killer.puzzle.with_givens(tuple(fewer)))) > 1


def test_merged_cages_stop_where_one_more_merge_lets_a_second_solution_in(made) -> None:
    killer = made[(4, "standard", False, 1)]
    assert len(killer.puzzle.cages) < 16  # cages were merged
    assert killer.checks >= 16 - len(killer.puzzle.cages)


def test_a_seed_gives_the_same_killer() -> None:
    assert generate_killer(4, seed="s").puzzle == generate_killer(4, seed="s").puzzle


@pytest.mark.parametrize("kwargs, words", [({"variant": "latin"}, "unknown killer variant"),
                                           ({"max_cage": 1}, "the largest cage has 2 to 4 cells")])
def test_bad_killer_requests_are_refused(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        generate_killer(4, **kwargs)


def run(*argv: str) -> subprocess.CompletedProcess:
    return compare_here("generate", *argv)


@pytest.mark.slow
def test_the_command_writes_unique_killers_as_f_puzzles_json(tmp_path: Path) -> None:
    out = tmp_path / "killers.json"
    ran = run("--size", "4", "--variant", "killer", "--count", "2", "--seed", "3",
              "--format", "fpuzzles", "-o", str(out))
    assert ran.returncode == 0, ran.stderr
    batch = read_puzzles(out)
    assert not batch.errors and len(batch.puzzles) == 2
    assert all(p.variant == "killer" and len(solutions_4x4(p)) == 1 for p in batch.puzzles)


@pytest.mark.slow
def test_the_command_writes_qwh_instances_in_line_and_grid_format(tmp_path: Path) -> None:
    line, grid = tmp_path / "qwh.txt", tmp_path / "qwh40.txt"
    assert run("--size", "9", "--variant", "latin", "--holes", "0.42", "--count", "3",
               "-o", str(line)).returncode == 0
    puzzles = read_puzzles(line).puzzles
    assert [(p.variant, 81 - p.num_givens) for p in puzzles] == [("latin", 34)] * 3
    assert run("--size", "36", "--variant", "latin", "--holes", "0.5", "--format", "grid",
               "-o", str(grid)).returncode == 0
    [big] = read_puzzles(grid).puzzles
    assert (big.n, big.variant, big.num_givens) == (36, "latin", 648)


@pytest.mark.parametrize("argv, words", [
    (["--variant", "latin"], "give --holes FRACTION"),
    (["--variant", "latin", "--holes", "1.5"], "--holes 1.5: the fraction of empty cells is from 0 to 1"),
    (["--variant", "killer", "--holes", "0.4"], "--holes applies to --variant latin"),
    (["--variant", "killer", "--size", "5"], "--size 5 is not a valid grid for a killer"),
    (["--variant", "killer", "--size", "4", "--max-cage", "9"], "--max-cage 9: a cage has 2 to 4 cells"),
    (["--variant", "killer", "--symmetric"], "--symmetric applies to the Sudoku variants"),
    (["--killer-givens"], "--killer-givens and --max-cage apply to killer"),
    (["--variant", "latin", "--holes", "0.4", "--size", "36"], "choose --format grid or fpuzzles"),
])
def test_the_command_refuses_options_that_do_not_fit(argv: list[str], words: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # an argument check: the real parser in this process (a compare.py launch adds nothing here)
    status, _, err = cli(capsys, "generate", *argv)
    assert status == 2 and words in err, err
