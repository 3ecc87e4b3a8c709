"""The pysat backend's own promises: every engine the wheel ships, counters, the warm solver
(reused, never polluted across puzzles), propagation-only answers, limits."""
from __future__ import annotations

import importlib

import pytest

from models import Model, Puzzle, verify
from solvers import Status, registry

from .conftest import load
from .killers import MULTIPLE as KILLER_MULTIPLE
from .killers import SOLUTION_4A, UNIQUE, killer, oracle_solutions
from .killers import UNSAT as KILLER_UNSAT

_pysat = pytest.importorskip("solvers.backends._pysat", reason="python-sat is not installed")
pysat = importlib.import_module("solvers.backends.pysat")
from pysat.solvers import SolverNames

BACKEND = registry.get("pysat")
HARD = load("top95.txt")[0]              # unit propagation alone does not finish it
MULTIPLE = [(load("special_9x9_multiple_solutions.txt")[i], c) for i, c in ((3, 2), (5, 4), (6, 10))]
SEARCH_ENCODINGS = ("minimal", "efficient", "extended")


def solve(puzzle: Puzzle, **options):
    result = BACKEND.solve(puzzle, **options)
    for solution in result.solutions:
        assert verify(puzzle, solution).ok, f"invalid solution with {options}"
    return result


def test_engines_are_every_solver_the_wheel_names_minus_the_excluded_with_a_reason() -> None:
    shipped = {name for name in vars(SolverNames) if not name.startswith("_")}
    assert set(_pysat.ENGINES) | set(_pysat.EXCLUDED) == shipped
    assert not set(_pysat.ENGINES) & set(_pysat.EXCLUDED)
    assert all(_pysat.EXCLUDED.values())
    assert {"cadical195", "glucose4", "minisat22"} <= set(_pysat.ENGINES)
    assert _pysat.ALIASES["cadical"] == "cadical195"


@pytest.mark.parametrize("encoding", pysat.ENCODINGS)
@pytest.mark.parametrize("engine", list(_pysat.ENGINES))
def test_every_engine_and_encoding_proves_a_hard_puzzle_unique_with_counters(engine: str,
                                                                            encoding: str) -> None:
    result = solve(HARD, engine=engine, encoding=encoding, warm=False, max_solutions=2)
    assert result.status is Status.SOLVED and result.unique is True
    stats = result.stats
    # Some work is counted; which counter is up to the engine: CaDiCaL 3's "lucky" phases can
    # finish a 9x9 with no decision, and the Maple engines do not count propagations.
    assert None not in (stats.nodes, stats.conflicts, stats.propagations, stats.restarts)
    assert stats.nodes + stats.conflicts + stats.propagations > 0
    assert stats.variables > 0 and stats.clauses > 0


@pytest.mark.parametrize("encoding", SEARCH_ENCODINGS)
def test_the_warm_solver_is_reused_and_blocking_clauses_never_reach_the_next_puzzle(encoding: str) -> None:
    multiple, count = MULTIPLE[2]
    first = solve(multiple, encoding=encoding, max_solutions=50)
    warm = [w for key, w in _pysat._POOL.items() if key[1] == encoding and key[-1] == "search"]
    assert len(first.solutions) == count and first.complete
    other = solve(HARD, encoding=encoding, max_solutions=2)
    again = solve(multiple, encoding=encoding, max_solutions=50)
    assert other.status is Status.SOLVED and other.unique is True
    assert sorted(again.solutions) == sorted(first.solutions) and again.complete
    assert [w for key, w in _pysat._POOL.items() if key[1] == encoding and key[-1] == "search"] == warm


@pytest.mark.parametrize("puzzle, count", [pytest.param(p, c, id=f"{c}-solutions") for p, c in MULTIPLE])
def test_warm_and_fresh_count_the_same_solutions(puzzle: Puzzle, count: int) -> None:
    warm = solve(puzzle, max_solutions=50, encoding="extended")
    fresh = solve(puzzle, max_solutions=50, encoding="extended", warm=False)
    assert len(set(warm.solutions)) == len(set(fresh.solutions)) == count
    assert set(warm.solutions) == set(fresh.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["cadical195", "minisat22"])  # slices of conflicts; interrupt()
def test_a_hard_25x25_stops_at_the_time_limit_and_the_next_puzzle_is_right(engine: str) -> None:
    hard = load("25x25_gecode_frisch.txt")[0]
    result = solve(hard, engine=engine, time_limit=0.3)
    assert result.status is Status.TIMEOUT and not result.solutions
    after = solve(HARD, engine=engine, max_solutions=2)
    assert after.status is Status.SOLVED and after.unique is True


@pytest.mark.slow
def test_a_spent_conflict_budget_is_unknown_not_a_guess() -> None:
    result = solve(load("25x25_gecode_frisch.txt")[0], conflict_limit=5)
    assert result.status is Status.UNKNOWN and not result.solutions
    assert "conflict limit of 5" in result.message


@pytest.mark.parametrize("inference", ["up", "failed-literal"])
def test_propagation_only_answers_unknown_with_fixed_cells_where_search_is_needed(inference: str) -> None:
    result = solve(HARD, inference=inference, encoding="minimal")
    assert result.status is Status.UNKNOWN and not result.solutions
    open_cells = sum(1 for v in HARD.givens if not v)
    assert 0 <= result.stats.fixed_cells < open_cells
    assert result.stats.nodes == 0


def test_failed_literals_fix_at_least_what_unit_propagation_fixes() -> None:
    for puzzle in load("top95.txt")[:10]:
        up = solve(puzzle, inference="up")
        probed = solve(puzzle, inference="failed-literal")
        assert probed.stats.fixed_cells >= up.stats.fixed_cells
        assert probed.status in (Status.SOLVED, Status.UNKNOWN)


@pytest.mark.parametrize("encoding", pysat.ENCODINGS)
@pytest.mark.parametrize("inference", ["up", "failed-literal"])
def test_propagation_only_solves_an_easy_puzzle_and_proves_it_unique(inference: str, encoding: str) -> None:
    easy = load("seeds.txt")[0]
    result = solve(easy, inference=inference, encoding=encoding, max_solutions=2)
    if result.status is Status.UNKNOWN:   # without "each value in each group": naked singles only
        assert inference == "up" and encoding in ("minimal", "efficient"), "only UP without hidden singles"
        assert result.stats.fixed_cells < 53 and not result.solutions
        return
    assert result.status is Status.SOLVED and result.unique is True
    assert result.stats.fixed_cells == sum(1 for v in easy.givens if not v)


@pytest.mark.parametrize("inference", ["up", "failed-literal"])
def test_propagation_only_never_claims_a_solution_of_an_unsolvable_puzzle(inference: str) -> None:
    for puzzle in load("small_unsat.txt") + load("special_9x9_unsolvable.txt"):
        result = solve(puzzle, inference=inference)
        assert result.status in (Status.UNSAT, Status.UNKNOWN) and not result.solutions


@pytest.mark.parametrize("options, message", [
    ({"engine": "no-such"}, "option 'engine' cannot be 'no-such'; valid: cadical103"),
    ({"inference": "guess"}, "option 'inference' cannot be 'guess'; valid: none, up, failed-literal"),
    ({"conflict_limit": 0}, "option 'conflict_limit' cannot be 0"),
    ({"encoding": "tiny"}, "option 'encoding' cannot be 'tiny'"),
])
def test_bad_options_are_refused_naming_the_valid_ones(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BACKEND.solve(HARD, **options)


def test_an_engine_that_cannot_propagate_alone_is_refused_for_inference() -> None:
    cannot = [name for name, engine in _pysat.ENGINES.items() if not engine.propagate]
    if not cannot:
        pytest.skip("every engine of this python-sat wheel can propagate alone")
    with pytest.raises(ValueError, match="cannot propagate alone"):
        BACKEND.solve(HARD, engine=cannot[0], inference="up")


@pytest.mark.parametrize("warm", [True, False])
@pytest.mark.parametrize("encoding", ["extended", "simplified"])
@pytest.mark.parametrize("name", sorted(KILLER_MULTIPLE) + sorted(KILLER_UNSAT))
def test_cage_counters_give_exactly_the_oracles_killer_solutions(name: str, encoding: str,
                                                                 warm: bool) -> None:
    puzzle = {**KILLER_MULTIPLE, **KILLER_UNSAT}[name]
    result = registry.solve("pysat", puzzle, max_solutions=50, encoding=encoding, warm=warm)
    assert set(result.solutions) == oracle_solutions(puzzle) and result.complete


def test_warm_solvers_with_the_same_cage_cells_and_other_totals_are_not_shared() -> None:
    puzzle = KILLER_MULTIPLE["4x4-few-cages"]
    other = killer(2, 2, SOLUTION_4A, "AA.. B... B.CC ....", totals={"A": 8})  # same cells
    assert Model.from_puzzle(other).groups == Model.from_puzzle(puzzle).groups
    for first, second in ((puzzle, other), (other, puzzle)):
        registry.solve("pysat", first, max_solutions=50)
        result = registry.solve("pysat", second, max_solutions=50)
        assert set(result.solutions) == oracle_solutions(second) and result.complete


@pytest.mark.parametrize("name", ["4x4-a", "9x9-b"])
def test_failed_literals_settle_a_killer_through_the_order_literals(name: str) -> None:
    puzzle, solution = UNIQUE[name]
    result = registry.solve("pysat", puzzle, inference="failed-literal")
    assert result.status is Status.SOLVED and result.solution == tuple(map(int, solution))
