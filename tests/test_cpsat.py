"""The CP-SAT backend's own promises: encoding sizes, both encodings solving, status mapping, determinism."""
from __future__ import annotations

import pytest

pytest.importorskip("ortools")

from ortools.sat.python import cp_model

from models import Geometry, Model, Puzzle, verify
from solvers import (
    Status,
    registry,
)
from solvers.backends import _cpsat, cpsat

from .conftest import load
from .killers import MULTIPLE, UNIQUE, UNSAT, oracle_solutions

ENCODINGS = cpsat.ENCODINGS


def empty(n: int) -> Puzzle:
    return Puzzle(Geometry.for_size(n), (0,) * (n * n))


def expected_size(model: Model, encoding: str) -> tuple[int, int]:
    """(variables, constraints) by formula, from the groups and givens only."""
    n, givens = model.n, model.givens
    empties = [c for c in range(model.num_cells) if not givens[c]]
    if encoding == "integer":
        # one variable per empty cell, one AllDifferent per group
        return len(empties), len(model.groups)
    # one Boolean per (empty cell, value not given among its peers);
    # exactly-one per empty cell and per (group, value not given in the group)
    variables = sum(n - len({givens[p] for p in model.peers[c]} - {0}) for c in empties)
    per_group = sum(n - len({givens[c] for c in g.cells} - {0}) for g in model.groups)
    return variables, len(empties) + per_group


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_empty_grid_sizes_follow_the_formulas(n: int) -> None:
    model = Model.from_puzzle(empty(n))
    integer, boolean = _cpsat.encode(model, "integer"), _cpsat.encode(model, "boolean")
    assert (integer.variables, integer.constraints) == (n * n, 3 * n)
    assert (boolean.variables, boolean.constraints) == (n ** 3, n * n + 3 * n * n)


@pytest.mark.parametrize("encoding, size", [("integer", (81, 27)), ("boolean", (729, 324))])
def test_empty_9x9_numbers(encoding: str, size: tuple[int, int]) -> None:
    built = _cpsat.encode(Model.from_puzzle(empty(9)), encoding)
    assert (built.variables, built.constraints) == size


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("puzzle", [pytest.param(load("top95.txt")[0], id="top95-0"),
                                    pytest.param(load("x_sudoku.txt")[0], id="x_sudoku-0"),
                                    pytest.param(load("jigsaw.txt")[0], id="jigsaw-0"),
                                    pytest.param(load("16x16_forum_samples.txt")[0], id="16x16-0")])
def test_sizes_of_a_puzzle_are_reduced_by_its_givens(encoding: str, puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    built = _cpsat.encode(model, encoding)
    assert (built.variables, built.constraints) == expected_size(model, encoding)
    # the counts describe the model CP-SAT really receives
    proto = built.cp.proto
    assert len(proto.constraints) == built.constraints
    constants = len(set(model.givens) - {0}) if encoding == "integer" else 0  # one per given value
    assert len(proto.variables) == built.variables + constants


def test_top95_first_puzzle_sizes() -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    assert _cpsat.encode(model, "integer").variables == 81 - model.puzzle.num_givens
    assert _cpsat.encode(model, "integer").constraints == 27


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"{name.removesuffix('.txt')}-{i}")
                                    for name, indexes in (("seeds.txt", [0, 1]), ("top95.txt", [0, 1]),
                                                          ("hardest.txt", [0]),
                                                          ("16x16_forum_samples.txt", [0]),
                                                          ("small_6x6.txt", [0]), ("x_sudoku.txt", [0]),
                                                          ("jigsaw.txt", [0]))
                                    for i, p in enumerate(load(name)) if i in indexes])
def test_each_encoding_solves_uniquely(encoding: str, puzzle: Puzzle) -> None:
    result = cpsat.solve(Model.from_puzzle(puzzle), max_solutions=2, time_limit=30, encoding=encoding)
    assert result.status is Status.SOLVED and result.unique is True
    assert verify(puzzle, result.solution).ok
    assert result.stats.variables and result.stats.constraints and result.stats.nodes is not None


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", UNIQUE)
def test_each_encoding_proves_a_killer_unique(encoding: str, name: str) -> None:
    puzzle, solution = UNIQUE[name]
    result = cpsat.solve(Model.from_puzzle(puzzle), max_solutions=2, time_limit=30, encoding=encoding)
    assert result.unique is True and result.solution == tuple(map(int, solution))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", UNSAT)
def test_each_encoding_refutes_an_impossible_killer(encoding: str, name: str) -> None:
    result = cpsat.solve(Model.from_puzzle(UNSAT[name]), max_solutions=2, encoding=encoding)
    assert result.status is Status.UNSAT and result.complete


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", MULTIPLE)
def test_each_encoding_finds_every_killer_solution_the_oracle_finds(encoding: str, name: str) -> None:
    puzzle = MULTIPLE[name]
    result = cpsat.solve(Model.from_puzzle(puzzle), max_solutions=50, encoding=encoding)
    assert set(result.solutions) == oracle_solutions(puzzle) and result.complete


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_cage_total_is_one_more_constraint(encoding: str) -> None:
    model = Model.from_puzzle(UNIQUE["4x4-a"][0])
    without_totals = Model(model.puzzle, model.groups)
    assert (_cpsat.encode(model, encoding).constraints
            == _cpsat.encode(without_totals, encoding).constraints + len(model.cages))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_counts_ten_solutions(encoding: str) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[6]
    result = cpsat.solve(Model.from_puzzle(puzzle), max_solutions=50, encoding=encoding)
    assert len(set(result.solutions)) == 10 and result.complete
    assert all(verify(puzzle, s).ok for s in result.solutions)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"unsat-{i}")
                                    for i, p in enumerate(load("small_unsat.txt")
                                                          + load("special_9x9_unsolvable.txt"))])
def test_each_encoding_proves_unsat(encoding: str, puzzle: Puzzle) -> None:
    result = cpsat.solve(Model.from_puzzle(puzzle), max_solutions=2, time_limit=30, encoding=encoding)
    assert result.status is Status.UNSAT and result.complete and not result.solutions


def test_repeated_givens_are_unsat_with_the_reason() -> None:
    givens = [0] * 81
    givens[0] = givens[5] = 7  # two 7s in row 1
    result = cpsat.solve(Model.from_puzzle(Puzzle(Geometry.for_size(9), tuple(givens))))
    assert result.status is Status.UNSAT and "row 1" in result.message


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_time_limit_gives_timeout_or_a_verified_solution(encoding: str) -> None:
    puzzle = load("25x25_gecode_frisch.txt")[0]
    result = cpsat.solve(Model.from_puzzle(puzzle), time_limit=0.2, encoding=encoding)
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
    if result.status is Status.SOLVED:
        assert verify(puzzle, result.solution).ok
    else:
        assert not result.solutions and not result.complete


@pytest.mark.parametrize("cp_status, status", [
    (cp_model.OPTIMAL, Status.SOLVED), (cp_model.FEASIBLE, Status.SOLVED),
    (cp_model.INFEASIBLE, Status.UNSAT), (cp_model.UNKNOWN, Status.TIMEOUT),
    (cp_model.MODEL_INVALID, Status.ERROR)])
def test_every_cpsat_status_is_translated(cp_status, status: Status) -> None:
    assert _cpsat.translate(cp_status) is status


def test_the_mapping_covers_every_status_this_ortools_has() -> None:
    assert set(_cpsat.STATUSES) == set(type(cp_model.OPTIMAL).__members__.values())


@pytest.mark.parametrize("unknown", [99, "OPTIMAL", None])
def test_an_unknown_status_raises(unknown) -> None:
    with pytest.raises(_cpsat.UnknownStatusError):
        _cpsat.translate(unknown)


def test_an_invalid_model_is_an_error_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    # Make CP-SAT reject the model: a clause on a variable that does not exist.
    original = _cpsat.encode

    def broken(*args, **kwargs):
        built = original(*args, **kwargs)
        built.cp.proto.constraints.add().bool_or.literals.append(10_000)
        return built

    monkeypatch.setattr(_cpsat, "encode", broken)  # the method module, where solve looks it up
    result = cpsat.solve(Model.from_puzzle(load("top95.txt")[0]))
    assert result.status is Status.ERROR and "MODEL_INVALID" in result.message
    assert not result.solutions


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("puzzle", [pytest.param(empty(9), id="empty-9x9"),
                                    pytest.param(load("hardest.txt")[0], id="hardest-0"),
                                    pytest.param(load("16x16_forum_samples.txt")[1], id="16x16-1")])
def test_default_runs_are_repeatable(encoding: str, puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    first, second = (cpsat.solve(model, max_solutions=2, encoding=encoding) for _ in range(2))
    assert first.solutions == second.solutions
    assert (first.stats.nodes, first.stats.conflicts) == (second.stats.nodes, second.stats.conflicts)


def test_options_are_checked_by_the_one_entry() -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    with pytest.raises(ValueError, match="valid: auto, boolean, integer"):
        registry.get("cpsat").solve(model, encoding="unary")
    with pytest.raises(ValueError, match="option 'workers' cannot be 0"):
        registry.get("cpsat").solve(model, workers=0)


@pytest.mark.parametrize("options", [{"workers": 2}, {"seed": 7},
                                     {"parameters": {"cp_model_presolve": True}}])
def test_solver_options_still_give_verified_answers(options: dict) -> None:
    puzzle = load("top95.txt")[2]
    result = cpsat.solve(Model.from_puzzle(puzzle), **options)
    assert result.status is Status.SOLVED and verify(puzzle, result.solution).ok


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_fully_given_grid_is_its_own_unique_solution(encoding: str) -> None:
    known = load("seeds.solutions.txt")[0]
    result = cpsat.solve(Model.from_puzzle(known), max_solutions=2, encoding=encoding)
    assert result.status is Status.SOLVED and result.solution == known.givens and result.unique


def test_solve_raises_on_a_status_it_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cp_model.CpSolver, "solve", lambda self, model, callback=None: 42)
    with pytest.raises(_cpsat.UnknownStatusError, match="42"):
        cpsat.solve(Model.from_puzzle(load("top95.txt")[0]))


def test_the_lean_model_still_skips_ortools_camelcase_aliases() -> None:
    # _cpsat._LeanCpModel overrides OR-tools' private CpModel._add_pre_pep8_methods, which
    # saves about 0.1 ms per model build (bench/README.md). If this fails, OR-tools has
    # renamed or dropped the hook: delete _LeanCpModel (or follow the new hook), re-measure.
    assert hasattr(cp_model.CpModel, "_add_pre_pep8_methods"), \
        "OR-tools no longer has CpModel._add_pre_pep8_methods: _cpsat._LeanCpModel is dead code"
    assert "NewIntVar" in vars(cp_model.CpModel()), "CpModel() no longer attaches CamelCase aliases"
    lean = _cpsat._LeanCpModel()
    assert "NewIntVar" not in vars(lean) and not hasattr(lean, "NewIntVar")
    assert lean.new_int_var(1, 9, "x") is not None  # the snake_case API is all there


@pytest.mark.parametrize("name, expected", [("top95.txt", "boolean"), ("generated_killer_9x9.txt", "integer"),
                                            ("generated_qwh_15x15.txt", "boolean")])
def test_auto_encoding_is_integer_with_cage_totals_and_boolean_otherwise(name: str, expected: str) -> None:
    puzzle = load(name)[0]
    model = Model.from_puzzle(puzzle)
    assert cpsat.DECLARATION.option("encoding").default == "auto"
    assert cpsat.encoding_for(model, "auto") == expected
    assert cpsat.encoding_for(model, "boolean") == "boolean"
    default = cpsat.solve(model, max_solutions=2, time_limit=30)
    named = cpsat.solve(model, max_solutions=2, time_limit=30, encoding=expected)
    assert default.solutions and default.solutions == named.solutions
    assert all(verify(puzzle, s).ok for s in default.solutions)
    assert (default.stats.variables, default.stats.constraints) == (named.stats.variables,
                                                                   named.stats.constraints)
