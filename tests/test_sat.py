"""The sat backend's own promises: encoding sizes, numbering, cached clauses, pycosat answers, limits."""
from __future__ import annotations

import itertools
import os
import time
from math import comb

import pycosat
import pytest

from models import Geometry, Model, Puzzle, parse_puzzle, verify
from solvers import Status, registry
from solvers.backends import _sat, sat
from solvers.encodings.cages import combinations
from solvers.encodings.cnf import (
    ENCODINGS,
    EncodingError,
    Numbering,
    Renumbering,
    encode,
    geometry_clauses,
)

from .conftest import cpu_seconds, load
from .killers import MULTIPLE, UNIQUE, UNSAT, oracle_solutions

STANDARD = ("minimal", "efficient", "extended")


def empty(n: int, **variant) -> Model:
    return Model.from_puzzle(Puzzle(Geometry.for_size(n), (0,) * (n * n), **variant))


# Lynce & Ouaknine, "Sudoku as a SAT Problem", for the empty 9x9 grid.
@pytest.mark.parametrize("encoding, clauses", [("minimal", 8829), ("efficient", 11745),
                                               ("extended", 11988)])
def test_empty_9x9_has_the_papers_clause_counts(encoding: str, clauses: int) -> None:
    cnf = encode(empty(9), encoding)
    assert (cnf.num_vars, len(cnf.clauses)) == (729, clauses)


def expected_clauses(encoding: str, n: int, groups: int) -> int:
    """The paper's counts for n values and `groups` groups of n cells each."""
    minimal = n * n + groups * n * comb(n, 2)          # cell has a value; no repeat in a group
    if encoding == "minimal":
        return minimal
    efficient = minimal + n * n * comb(n, 2)           # + no cell has two values
    return efficient if encoding == "efficient" else efficient + groups * n  # + value in group


@pytest.mark.parametrize("n", [4, 6, 9, 16])
@pytest.mark.parametrize("encoding", STANDARD)
def test_clause_counts_follow_the_general_formula(encoding: str, n: int) -> None:
    cnf = encode(empty(n), encoding)
    assert cnf.num_vars == n ** 3
    assert len(cnf.clauses) == expected_clauses(encoding, n, 3 * n)


@pytest.mark.parametrize("encoding", STANDARD)
def test_variants_change_the_groups_not_the_formula(encoding: str) -> None:
    x = encode(empty(9, diagonals=True), encoding)
    assert len(x.clauses) == expected_clauses(encoding, 9, 29)  # two diagonals more
    regions = load("jigsaw.txt")[0].regions
    jigsaw = encode(empty(9, regions=regions), encoding)
    assert len(jigsaw.clauses) == expected_clauses(encoding, 9, 27)
    assert jigsaw.clauses != encode(empty(9), encoding).clauses  # regions, not boxes


@pytest.mark.parametrize("encoding", STANDARD)
def test_givens_add_one_unit_clause_each_to_the_shared_geometry_clauses(encoding: str) -> None:
    first, second = (Model.from_puzzle(p) for p in load("top95.txt")[:2])
    base = geometry_clauses(encoding, 9, first.groups)
    assert geometry_clauses(encoding, 9, second.groups) is base  # built once per geometry
    for model in (first, second):
        cnf = encode(model, encoding)
        assert all(a is b for a, b in zip(cnf.clauses, base))
        units = cnf.clauses[len(base):]
        assert units == [[Numbering(9).var(c, v)] for c, v in enumerate(model.givens) if v]


def test_simplified_equals_extended_on_an_empty_grid() -> None:
    cnf = encode(empty(9), "simplified")
    assert (cnf.num_vars, len(cnf.clauses)) == (729, 11988)


def test_simplified_keeps_only_what_the_givens_leave_open() -> None:
    # 1 2 . . / 3 4 . . / . . 4 3 / . . 2 1: every empty cell has one candidate left, so
    # 8 variables; clauses: 8 one-literal cell clauses, and "value v is in group g" for
    # every value missing from a group: 2 per row (8), 2 per column (8), 4 for each of
    # the two empty boxes (8); no pair has two candidates, so no binary clauses: 32.
    cnf = encode(Model.from_puzzle(parse_puzzle("12..34....43..21")), "simplified")
    assert (cnf.num_vars, len(cnf.clauses)) == (8, 32)
    assert all(len(clause) == 1 for clause in cnf.clauses[:8])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_simplified_variables_are_the_candidates_left_by_the_givens(index: int) -> None:
    model = Model.from_puzzle(load("top95.txt")[index])
    givens, peers = model.givens, model.peers
    candidates = {(c, v) for c in range(81) if not givens[c] for v in range(1, 10)
                  if all(givens[p] != v for p in peers[c])}
    cnf = encode(model, "simplified")
    assert {cnf.numbering.cell_value(var) for var in range(1, cnf.num_vars + 1)} == candidates
    assert len(cnf.clauses) < len(encode(model, "extended").clauses) / 4


# Pinned sizes for top95 puzzle 1 (17 givens), so an encoding change shows up here.
@pytest.mark.parametrize("encoding, size", [("minimal", (729, 8846)), ("efficient", (729, 11762)),
                                            ("extended", (729, 12005)),
                                            ("simplified", (301, 2780))])
def test_pinned_sizes_for_a_top95_puzzle(encoding: str, size: tuple[int, int]) -> None:
    cnf = encode(Model.from_puzzle(load("top95.txt")[0]), encoding)
    assert (cnf.num_vars, len(cnf.clauses)) == size


@pytest.mark.parametrize("n", [4, 9, 16, 25])
def test_variable_numbering_is_a_bijection_onto_1_to_n_cubed(n: int) -> None:
    numbering = Numbering(n)
    numbers = [numbering.var(c, v) for c in range(n * n) for v in range(1, n + 1)]
    assert sorted(numbers) == list(range(1, n ** 3 + 1)) and numbering.top == n ** 3
    assert all(numbering.cell_value(numbering.var(c, v)) == (c, v)
               for c in range(n * n) for v in range(1, n + 1))
    assert all(list(numbering.cell_vars(c)) == [numbering.var(c, v) for v in range(1, n + 1)]
               for c in range(n * n))


def test_the_simplified_renumbering_is_a_bijection_between_kept_pairs_and_1_to_k() -> None:
    givens = load("top95.txt")[0].givens
    cnf = encode(Model.from_puzzle(load("top95.txt")[0]), "simplified")
    numbering = cnf.numbering
    assert isinstance(numbering, Renumbering) and numbering.renumbered
    pairs = [numbering.cell_value(var) for var in range(1, cnf.num_vars + 1)]
    assert [numbering.var(c, v) for c, v in pairs] == list(range(1, cnf.num_vars + 1))
    with pytest.raises(KeyError):
        numbering.var(*next((c, v) for c, v in enumerate(givens) if v))  # a given keeps none


def test_decode_rejects_a_model_with_two_values_in_a_cell() -> None:
    model = Model.from_puzzle(parse_puzzle("12..34....43..21"))
    cnf = encode(model, "minimal")
    solution = sat.solve(model).solution
    literals = [cnf.numbering.var(c, v) for c, v in enumerate(solution)]
    assert cnf.decode(literals) == solution and verify(model, solution).ok
    with pytest.raises(EncodingError, match="r1c3 2 values"):
        cnf.decode([*literals, cnf.numbering.var(2, 4)])


SAMPLES = [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}") for name, i in
           [("seeds.txt", 0), ("top95.txt", 3), ("hardest.txt", 1), ("x_sudoku.txt", 0),
            ("jigsaw.txt", 1), ("small_6x6.txt", 0), ("16x16_forum_samples.txt", 0)]]


@pytest.mark.parametrize("puzzle", SAMPLES)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_solves_and_proves_uniqueness(encoding: str, puzzle: Puzzle) -> None:
    result = sat.solve(Model.from_puzzle(puzzle), max_solutions=2, encoding=encoding)
    assert result.status is Status.SOLVED and result.unique is True
    assert verify(puzzle, result.solution).ok
    assert result.stats.variables and result.stats.clauses
    assert result.stats.encode_time is not None and result.stats.solve_time is not None


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_counts_ten_solutions(encoding: str) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[6]
    result = sat.solve(Model.from_puzzle(puzzle), max_solutions=50, encoding=encoding)
    assert len(set(result.solutions)) == 10 and result.complete


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_blocking_clauses_leave_the_cached_clauses_untouched(encoding: str) -> None:
    model = Model.from_puzzle(load("special_9x9_multiple_solutions.txt")[6])
    before = len(encode(model, encoding).clauses)
    sat.solve(model, max_solutions=5, encoding=encoding)
    assert len(encode(model, encoding).clauses) == before


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_equal_givens_in_a_group_are_unsat(encoding: str) -> None:
    givens = list(load("top95.txt")[0].givens)
    first = next(c for c, v in enumerate(givens) if v)
    row_mate = next(c for c in range(first - first % 9, first - first % 9 + 9) if not givens[c])
    givens[row_mate] = givens[first]
    result = sat.solve(Model.from_puzzle(load("top95.txt")[0].with_givens(tuple(givens))),
                       encoding=encoding)
    assert result.status is Status.UNSAT and result.complete


def fake_pycosat(monkeypatch: pytest.MonkeyPatch, answer: object) -> list[int]:
    """Make pycosat.solve answer `answer` and record the propagation limits it was given."""
    limits: list[int] = []

    def fake(clauses, vars=0, prop_limit=0):
        limits.append(prop_limit)
        time.sleep(0.002)
        return answer
    monkeypatch.setattr(_sat.pycosat, "solve", fake)
    return limits


@pytest.mark.parametrize("answer", [None, "INDET", 20, ("model",)])
def test_an_answer_pycosat_does_not_document_raises(monkeypatch: pytest.MonkeyPatch,
                                                    answer: object) -> None:
    fake_pycosat(monkeypatch, answer)
    with pytest.raises(_sat.SolverError, match="pycosat returned"):
        sat.solve(Model.from_puzzle(load("seeds.txt")[0]))


def test_a_spent_budget_is_unknown_not_a_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_pycosat(monkeypatch, "UNKNOWN")
    result = sat.solve(Model.from_puzzle(load("seeds.txt")[0]), prop_limit=500)
    assert result.status is Status.UNKNOWN and not result.solutions and not result.complete
    assert "propagation limit of 500" in result.message


def test_time_limit_runs_growing_slices_until_the_clock_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = fake_pycosat(monkeypatch, "UNKNOWN")
    result = sat.solve(Model.from_puzzle(load("seeds.txt")[0]), time_limit=0.05, limit_by="slices")
    assert result.status is Status.TIMEOUT and "time limit" in result.message
    assert limits[0] == _sat.FIRST_SLICE and len(limits) >= 2
    assert all(a < b <= a * _sat.GROWTH for a, b in itertools.pairwise(limits))


def test_time_slices_never_exceed_the_work_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = fake_pycosat(monkeypatch, "UNKNOWN")
    result = sat.solve(Model.from_puzzle(load("seeds.txt")[0]), time_limit=5.0,
                       prop_limit=3 * _sat.FIRST_SLICE)
    assert result.status is Status.UNKNOWN and "propagation limit" in result.message
    assert limits == [_sat.FIRST_SLICE, 3 * _sat.FIRST_SLICE]


@pytest.mark.slow
def test_a_small_work_budget_stops_a_hard_search() -> None:
    # the minimal encoding needs over a million propagations on this 16x16 puzzle
    puzzle = load("16x16_forum_samples.txt")[0]
    result = sat.solve(Model.from_puzzle(puzzle), encoding="minimal", prop_limit=1000)
    assert result.status is Status.UNKNOWN and not result.solutions
    assert sat.solve(Model.from_puzzle(puzzle), encoding="minimal").status is Status.SOLVED


def child_processes() -> set[int]:
    """The process ids of this process's children (Linux /proc), for leak checks."""
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


@pytest.mark.parametrize("index", [0, 5])
def test_a_forked_solver_finds_what_the_slices_find(monkeypatch: pytest.MonkeyPatch, index: int) -> None:
    # a first slice of 10 propagations cannot settle a top95 puzzle, so the forked solver runs
    model = Model.from_puzzle(load("top95.txt")[index])
    sliced = sat.solve(model, max_solutions=2, time_limit=30, limit_by="slices")
    monkeypatch.setattr(_sat, "FIRST_SLICE", 10)
    forked = sat.solve(model, max_solutions=2, time_limit=30)
    assert forked.status is Status.SOLVED and forked.unique is True
    assert forked.solutions == sliced.solutions and verify(model, forked.solution).ok


def test_a_forked_solver_counts_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # line 7 has exactly 10 solutions: the forked solver sends all ten, then the end
    puzzle = load("special_9x9_multiple_solutions.txt")[6]
    monkeypatch.setattr(_sat, "FIRST_SLICE", 10)
    forked = sat.solve(Model.from_puzzle(puzzle), max_solutions=50, time_limit=30)
    assert len(forked.solutions) == len(set(forked.solutions)) == 10 and forked.complete
    assert all(verify(puzzle, s).ok for s in forked.solutions)


@pytest.mark.skipif(not hasattr(os, "fork") or not os.path.isdir("/proc"), reason="needs fork and /proc")
def test_a_forked_solver_is_stopped_at_the_deadline() -> None:
    # the first 25x25 Frisch puzzle keeps PicoSAT busy far longer than half a second
    model = Model.from_puzzle(load("25x25_gecode_frisch.txt")[0])
    before = child_processes()
    began = cpu_seconds()  # its own and the reaped solver's: a loaded machine stretches the wall time
    result = sat.solve(model, max_solutions=2, time_limit=0.5)
    assert result.status in (Status.TIMEOUT, Status.SOLVED) and not result.complete
    assert "time limit" in result.message
    assert cpu_seconds() - began < 5
    assert child_processes() <= before  # the solver process was killed and reaped


@pytest.mark.parametrize("options, message", [({"encoding": "tseitin"}, "option 'encoding'"),
                                              ({"prop_limit": 0}, "option 'prop_limit'"),
                                              ({"limit_by": "threads"}, "option 'limit_by'")])
def test_bad_options_are_refused_by_the_one_entry(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        registry.get("sat").solve(Model.from_puzzle(load("seeds.txt")[0]), **options)


def test_unknown_encoding_lists_the_valid_ones() -> None:
    with pytest.raises(EncodingError, match="valid encodings: " + ", ".join(ENCODINGS)):
        encode(empty(4), "tseitin")


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", sorted(MULTIPLE) + sorted(UNSAT))
def test_every_encoding_finds_exactly_the_oracles_killer_solutions(encoding: str, name: str) -> None:
    puzzle = {**MULTIPLE, **UNSAT}[name]
    result = sat.solve(Model.from_puzzle(puzzle), max_solutions=50, encoding=encoding)
    assert set(result.solutions) == oracle_solutions(puzzle) and result.complete


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_cage_selectors_come_after_the_cell_variables_and_decode_ignores_them(encoding: str) -> None:
    puzzle, solution = UNIQUE["4x4-a"]
    cnf = encode(Model.from_puzzle(puzzle), encoding)
    # a cage with several combinations gets one selector each; one with a single combination none
    assert cnf.aux_vars == sum(len(combinations(len(c.cells), c.total, 4)) for c in puzzle.cages
                               if len(combinations(len(c.cells), c.total, 4)) > 1) > 0
    assert cnf.num_vars == cnf.numbering.top + cnf.aux_vars
    answer = pycosat.solve(cnf.clauses, vars=cnf.num_vars)
    assert cnf.decode(lit for lit in answer if lit > 0) == tuple(map(int, solution))
