"""The csp backend's own promises: model size, reduced domains, enumeration that stops, edge cases."""
from __future__ import annotations

import pytest

pytest.importorskip("constraint")

from models import Geometry, Group, Model, Puzzle, parse_puzzle, verify
from solvers import (
    Status,
    registry,
)
from solvers.backends import _csp, csp
from solvers.encodings.domains import candidates

from .conftest import load


def empty(n: int) -> Puzzle:
    return Puzzle(Geometry.for_size(n), (0,) * (n * n))


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_empty_grid_has_a_variable_per_cell_and_a_constraint_per_group(n: int) -> None:
    built = _csp.encode(Model.from_puzzle(empty(n)))
    assert (built.variables, built.constraints) == (n * n, 3 * n)


def test_empty_9x9_numbers() -> None:
    built = _csp.encode(Model.from_puzzle(empty(9)))
    assert (built.variables, built.constraints) == (81, 27)


@pytest.mark.parametrize("encoding", csp.ENCODINGS)
@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"{name.removesuffix('.txt')}-{i}")
                                    for name, indexes in (("top95.txt", [0, 1, 2]), ("hardest.txt", [0]),
                                                          ("x_sudoku.txt", [0]), ("jigsaw.txt", [0]),
                                                          ("small_6x6.txt", [0]))
                                    for i, p in enumerate(load(name)) if i in indexes])
def test_each_encoding_solves_uniquely(encoding: str, puzzle: Puzzle) -> None:
    result = csp.solve(Model.from_puzzle(puzzle), max_solutions=2, encoding=encoding)
    assert result.status is Status.SOLVED and result.unique is True
    assert verify(puzzle, result.solution).ok


@pytest.mark.parametrize("encoding", csp.ENCODINGS)
def test_each_encoding_proves_unsat(encoding: str) -> None:
    for puzzle in load("small_unsat.txt") + load("special_9x9_unsolvable.txt")[:3]:
        result = csp.solve(Model.from_puzzle(puzzle), max_solutions=2, encoding=encoding)
        assert result.status is Status.UNSAT and result.complete, puzzle.source


def test_hidden_singles_are_only_placed_in_full_groups() -> None:
    # An extra 2-cell group must not demand all four values: that would make this puzzle unsat.
    puzzle = load("small_4x4.txt")[0]
    base = Model.from_puzzle(puzzle)
    known = csp.solve(base).solution
    free = [c for c in range(16) if not puzzle.givens[c]]
    pair = next((a, b) for a in free for b in free
                if a < b and b not in base.peers[a] and known[a] != known[b])
    model = Model(puzzle, (*base.groups, Group("pair", pair)))
    result = csp.solve(model, max_solutions=2, encoding="hidden")
    assert result.status is Status.SOLVED and result.solution == known


@pytest.mark.parametrize("puzzle", [pytest.param(load("top95.txt")[0], id="top95-0"),
                                    pytest.param(load("x_sudoku.txt")[0], id="x_sudoku-0"),
                                    pytest.param(load("jigsaw.txt")[0], id="jigsaw-0"),
                                    pytest.param(load("small_4x4.txt")[0], id="4x4-0")])
def test_only_empty_cells_are_variables(puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    built = _csp.encode(model)
    empties = [c for c in range(model.num_cells) if not model.givens[c]]
    assert built.variables == len(empties) == model.num_cells - puzzle.num_givens
    # the library drops single-variable constraints, so only groups with 2+ empty cells count
    assert built.constraints == sum(1 for g in model.groups
                                    if len([c for c in g.cells if c in empties]) >= 2)


@pytest.mark.parametrize("puzzle", [pytest.param(load("top95.txt")[0], id="top95-0"),
                                    pytest.param(load("jigsaw.txt")[0], id="jigsaw-0")])
def test_domains_leave_out_the_values_given_among_peers(puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    domains = candidates(model)
    for cell, given in enumerate(model.givens):
        if given:
            assert domains[cell] == (given,)
        else:
            seen = {model.givens[p] for p in model.peers[cell]}
            assert set(domains[cell]) == set(range(1, model.n + 1)) - seen


def test_enumeration_stops_at_max_solutions() -> None:
    # the empty grid has billions of solutions: only an iterator that stops can return
    result = csp.solve(Model.from_puzzle(empty(9)), max_solutions=3)
    assert result.status is Status.SOLVED and len(set(result.solutions)) == 3
    assert not result.complete and result.unique is False


def test_time_limit_is_checked_between_solutions() -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[6]  # 10 solutions
    result = csp.solve(Model.from_puzzle(puzzle), max_solutions=50, time_limit=0.0)
    assert result.status is Status.SOLVED and len(result.solutions) == 1
    assert not result.complete and "time limit" in result.message
    assert verify(puzzle, result.solution).ok


def test_a_fully_given_grid_is_its_own_unique_solution() -> None:
    known = load("seeds.solutions.txt")[0]
    result = csp.solve(Model.from_puzzle(known), max_solutions=2)
    assert result.status is Status.SOLVED and result.solution == known.givens and result.unique


def test_repeated_givens_are_unsat_with_the_reason() -> None:
    givens = [0] * 81
    givens[0] = givens[9] = 4  # two 4s in column 1
    result = csp.solve(Model.from_puzzle(Puzzle(Geometry.for_size(9), tuple(givens))))
    assert result.status is Status.UNSAT and result.complete and "column 1" in result.message


@pytest.mark.parametrize("solver", list(_csp.SOLVERS))
@pytest.mark.parametrize("puzzle", [pytest.param(load("small_6x6.txt")[0], id="6x6-0"),
                                    pytest.param(load("easy50.txt")[0], id="easy50-0")])
def test_every_library_solver_gives_the_unique_answer(solver: str, puzzle: Puzzle) -> None:
    result = csp.solve(Model.from_puzzle(puzzle), max_solutions=2, solver=solver)
    assert result.status is Status.SOLVED and result.unique is True
    assert verify(puzzle, result.solution).ok


def test_runs_are_repeatable() -> None:
    model = Model.from_puzzle(load("top95.txt")[1])
    first, second = csp.solve(model, max_solutions=2), csp.solve(model, max_solutions=2)
    assert first.solutions == second.solutions and first.status is Status.SOLVED


def test_stats_report_the_model_and_the_times() -> None:
    result = csp.solve(Model.from_puzzle(load("top95.txt")[0]))
    stats = result.stats
    assert stats.variables == 81 - 17 and stats.constraints == 27
    assert stats.encode_time > 0 and stats.solve_time > 0 and stats.nodes is None


def test_options_are_checked_by_the_one_entry() -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    with pytest.raises(ValueError, match="valid: backtracking"):
        registry.get("csp").solve(model, solver="quantum")
    with pytest.raises(ValueError, match="valid: hidden, alldiff"):
        registry.get("csp").solve(model, encoding="sat")


@pytest.mark.parametrize("encoding", csp.ENCODINGS)
def test_a_cage_whose_one_open_cell_cannot_make_its_total_is_unsat_not_an_error(encoding: str) -> None:
    # found by compare.py fuzz (docs/results.md): r4c4 may only be 1 (2 is in its box, 3 and 4
    # in its row), the cage needs 2 there; the library's sum pruned the domain empty, then
    # took its min (ValueError in python-constraint2 2.9.0)
    puzzle = parse_puzzle("..........2..34. cage=9:R4C2,R4C3,R4C4")
    result = registry.get("csp").solve(puzzle, max_solutions=4, encoding=encoding)
    assert (result.status, result.complete) == (Status.UNSAT, True)
