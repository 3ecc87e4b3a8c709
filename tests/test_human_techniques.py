"""The human solver's chains, uniqueness techniques, almost locked sets, forcing chains and
nets: each on a bundled puzzle where the solver reaches for it (nothing lighter applies then),
its sentence naming its cells, digits and reason, and no step removing a digit of the solution;
the rarer shapes on a board set up by hand. The uniqueness techniques are used only when the
puzzle is known to have one solution."""
from __future__ import annotations

import re
from functools import cache

import pytest

from models import Geometry, Grid, Model, Puzzle
from models.cellnames import cell_name
from solvers import registry
from solvers.human import Board, Step, solve
from solvers.human.chains import x_chain, xy_chain
from solvers.human.solver import weight_of
from solvers.human.sue_de_coq import sue_de_coq
from solvers.human.uniqueness import CAVEAT, unique_rectangle

from .conftest import compare_here, load


@cache
def puzzle(name: str, position: int) -> Puzzle:
    return load(name)[position - 1]


@cache
def solution(name: str, position: int) -> Grid:
    found = registry.get("mrv").solve(puzzle(name, position), max_solutions=2).solutions
    assert len(found) == 1, f"{name} {position} has {len(found)} solutions"
    return found[0]


@cache
def reasoning(name: str, position: int, unique: bool = True) -> tuple[Step, ...]:
    """The steps before the first guess (the puzzles below need none)."""
    return tuple(solve(Model.from_puzzle(puzzle(name, position)), max_guesses=0, unique=unique).technique_steps())


def assert_sound(steps: list[Step], answer: Grid, where: str) -> None:
    for step in steps:
        assert all(answer[c] != d for c, d in step.eliminations), f"{where}: {step.text}"
        assert all(answer[c] == d for c, d in step.placements), f"{where}: {step.text}"


NEEDED = [
    ("skyscraper", "skyscraper on ", "generated_9x9.txt", 10),
    ("two-string kite", "two-string kite on ", "top95.txt", 41),
    ("turbot fish", "turbot fish on ", "exchange_diabolical_se60.txt", 14),
    ("empty rectangle", "empty rectangle on ", "top95.txt", 19),
    ("finned fish", "finned X-wing on ", "top95.txt", 39),
    ("finned fish", "sashimi ", "generated_9x9.txt", 13),
    ("simple colouring", "simple colouring on ", "exchange_diabolical_se60.txt", 36),
    ("X-chain", "X-chain on ", "exchange_diabolical_se60.txt", 27),
    ("grouped X-chain", "grouped X-chain on ", "top95.txt", 51),
    ("XY-loop", "XY-loop: ", "exchange_diabolical_se60.txt", 11),
    ("X-loop", "X-loop on ", "exchange_diabolical_se60.txt", 14),
    ("AIC", "AIC: ", "exchange_diabolical_se60.txt", 35),
    ("nice loop", "nice loop: ", "top95.txt", 55),
    ("grouped AIC", "grouped AIC: ", "hardest.txt", 8),
    ("ALS-XZ", "ALS-XZ: the almost locked sets ", "exchange_diabolical_se60.txt", 28),
    ("ALS-XY-wing", "ALS-XY-wing: the almost locked set ", "exchange_diabolical_se60.txt", 1),
    ("unique rectangle", "unique rectangle type 1: ", "exchange_diabolical_se60.txt", 47),
    ("unique rectangle", "unique rectangle type 2: ", "generated_9x9.txt", 19),
    ("unique rectangle", "unique rectangle type 4: ", "top95.txt", 61),
    ("unique rectangle", "unique rectangle hidden: ", "exchange_diabolical_se60.txt", 58),
    ("BUG+1", "BUG+1: every empty cell but ", "exchange_diabolical_se60.txt", 17),
    ("Nishio forcing chain", "Nishio forcing chain: were ", "top95.txt", 22),
    ("region forcing chain", "region forcing chain: ", "top95.txt", 16),
    ("forcing net", "forcing net (contradiction): were ", "top95.txt", 7),
]
"""(technique, how its sentence begins, file, 1-based position): the solver reaches for the
technique on that puzzle, before any guess, because nothing lighter applies at that moment."""
SLOW = [("cell forcing chain", "cell forcing chain: ", "top95.txt", 89),
        ("forcing net with basic techniques", "forcing net with basic techniques (contradiction): ", "hardest.txt", 2),
        ("forcing net", "forcing net (cell): ", "top95.txt", 66),
        ("forcing net", "forcing net (region): ", "top95.txt", 64)]


def check_needed(technique: str, words: str, name: str, position: int) -> None:
    steps = list(reasoning(name, position))
    used = [s for s in steps if s.technique == technique and s.text.startswith(words)]
    assert used, f"no {words!r}; used: {sorted({s.technique for s in steps})}"
    assert_sound(steps, solution(name, position), f"{name} {position}")
    n = puzzle(name, position).n
    for step in used:  # the sentence names each cell the step changes, and its digits
        for cell, digit in (*step.eliminations, *step.placements):
            assert cell_name(cell, n).lower() in step.text and re.search(rf"\b{digit}\b", step.text), step.text
        assert weight_of(step) >= 4.0, step.text  # past the subsets and the wings


@pytest.mark.parametrize("technique, words, name, position", NEEDED,
                         ids=[f"{w.split(':')[0].strip()}-{n.removesuffix('.txt')}-{p}" for _, w, n, p in NEEDED])
def test_a_puzzle_that_needs_the_technique_gets_a_sound_step_that_names_its_cells(
        technique: str, words: str, name: str, position: int) -> None:
    check_needed(technique, words, name, position)


@pytest.mark.slow
@pytest.mark.parametrize("technique, words, name, position", SLOW,
                         ids=[f"{w.split(':')[0].strip()}-{n.removesuffix('.txt')}-{p}" for _, w, n, p in SLOW])
def test_a_puzzle_that_needs_a_costly_forcing_chain_or_net_gets_one(
        technique: str, words: str, name: str, position: int) -> None:
    check_needed(technique, words, name, position)


def test_a_uniqueness_step_says_what_it_assumes() -> None:
    used = [s for s in reasoning("exchange_diabolical_se60.txt", 17) if s.technique in ("unique rectangle", "BUG+1")]
    assert used and all(s.text.endswith(f"({CAVEAT})") for s in used)


@pytest.mark.parametrize("name, position", [("exchange_diabolical_se60.txt", 47), ("exchange_diabolical_se60.txt", 17)])
def test_without_known_uniqueness_no_uniqueness_step_is_taken_and_the_puzzle_is_still_solved(
        name: str, position: int) -> None:
    steps = reasoning(name, position, unique=False)
    assert not [s for s in steps if s.technique in ("unique rectangle", "BUG+1")]
    done = solve(Model.from_puzzle(puzzle(name, position)), max_guesses=0)
    assert done.solutions == [solution(name, position)]


def test_a_puzzle_with_two_solutions_gets_no_unique_rectangle_from_explain() -> None:

    done = compare_here("explain", "puzzles/special_9x9_multiple_solutions.txt", "--puzzle", "4", "--max-steps", "500")
    assert done.returncode == 0, done.stderr
    assert "not unique (mrv found two solutions): uniqueness techniques off" in done.stdout
    assert "unique rectangle" not in done.stdout and "BUG+1" not in done.stdout


# --------------------------------------------------------------------- boards set up by hand

def board_with(candidates: dict[int, tuple[int, ...]], digit_only: dict[int, set[int]] | None = None) -> Board:
    """An empty 9x9 board whose listed cells hold only the listed digits; ``digit_only``: these
    digits stay only in these cells (taken out of every other cell)."""
    board = Board.start(Model.from_puzzle(Puzzle(Geometry.of(3, 3), (0,) * 81)))
    for digit, cells in (digit_only or {}).items():
        for cell in range(81):
            if cell not in cells:
                board.cand[cell] &= ~(1 << (digit - 1))
    for cell, digits in candidates.items():
        board.cand[cell] = sum(1 << (d - 1) for d in digits)
    return board


def cell(row: int, col: int) -> int:
    return (row - 1) * 9 + col - 1


def test_an_xy_chain_clears_its_end_digit_from_what_sees_both_ends() -> None:
    # r1c1 (1, 2), r1c5 (2, 3), r5c5 (3, 4), r5c8 (4, 1): one of the two ends is 1
    chain = {cell(1, 1): (1, 2), cell(1, 5): (2, 3), cell(5, 5): (3, 4), cell(5, 8): (4, 1)}
    step = xy_chain(board_with(chain))
    assert step is not None and step.technique == "XY-chain"
    assert step.text.startswith("XY-chain: (1=2)r1c1-(2=3)r1c5-(3=4)r5c5-(4=1)r5c8: one of its ends holds 1")
    assert sorted(step.eliminations) == [(cell(1, 8), 1), (cell(5, 1), 1)] and step.weight == 7.2


def test_a_remote_pair_clears_both_digits_from_what_sees_its_two_ends() -> None:
    # r1c1, r1c4, r2c5, r8c5 hold only 1 and 2, each seeing the next; 1 and 2 are nowhere else
    # but in r8c1, which sees the two ends (and no two neighbours of the chain together)
    chain = [cell(1, 1), cell(1, 4), cell(2, 5), cell(8, 5)]
    board = board_with({c: (1, 2) for c in chain}, {1: {*chain, cell(8, 1)}, 2: {*chain, cell(8, 1)}})
    step = xy_chain(board)
    assert step is not None and step.technique == "remote pair" and step.text.startswith("remote pair: ")
    assert sorted(step.eliminations) == [(cell(8, 1), 1), (cell(8, 1), 2)]
    assert step.weight == 7.2 and len(step.links) == 7  # eight nodes


def test_an_x_loop_makes_each_weak_link_hold_the_digit_once() -> None:
    # 1 lies only in r1c1 and r1c5 (row 1), r2c6 and r2c2 (row 2), and r3c4: a loop
    # r1c1=r1c5-r2c6=r2c2-r1c1 whose weak links in boxes 2 and 1 clear r3c4
    board = board_with({}, {1: {cell(1, 1), cell(1, 5), cell(2, 6), cell(2, 2), cell(3, 4)}})
    step = x_chain(board)
    assert step is not None and step.technique == "X-loop" and "closes a continuous loop" in step.text
    assert step.eliminations == ((cell(3, 4), 1),)
    assert [link.strong for link in step.links] == [True, False, True, False]


def test_a_sue_de_coq_shares_the_crossings_digits_between_line_and_box() -> None:
    # r1c1 and r1c2 (row 1 meets box 1) hold 1, 2, 3 and 4; r1c5 holds 1 and 2, r3c3 holds 3 and 4
    board = board_with({cell(1, 1): (1, 2, 3, 4), cell(1, 2): (1, 2, 3, 4), cell(1, 5): (1, 2), cell(3, 3): (3, 4)})
    step = sue_de_coq(board)
    assert step is not None and step.technique == "Sue de Coq"
    gone = set(step.eliminations)
    assert {(cell(1, 9), d) for d in (1, 2)} <= gone and {(cell(2, 2), d) for d in (3, 4)} <= gone
    assert (cell(1, 9), 3) not in gone and (cell(1, 3), 1) in gone  # the crossing's third cell too: it is in the line
    assert step.weight == 7.0


def test_a_unique_rectangle_type_3_makes_a_naked_set_with_its_extra_digits() -> None:
    # r1c1, r1c4 hold only 1 and 2; r2c1, r2c4 also 3 or 4; r2c6 holds 3 and 4: with the
    # extras of r2c1 and r2c4 it makes a naked pair in row 2
    board = board_with({cell(1, 1): (1, 2), cell(1, 4): (1, 2), cell(2, 1): (1, 2, 3), cell(2, 4): (1, 2, 4),
                        cell(2, 6): (3, 4)})
    step = unique_rectangle(board)
    assert step is not None and step.text.startswith("unique rectangle type 3: ")
    assert {(cell(2, 9), 3), (cell(2, 9), 4)} <= set(step.eliminations) and step.weight == 4.6
