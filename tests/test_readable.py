"""The readable twins of backtrack and mrv, and the inference ladder of the readable mrv."""
from __future__ import annotations

import pytest

from models import Model, Puzzle, verify
from models.model import Group
from solvers import Status, registry
from solvers.backends import backtrack, mrv
from solvers.backends.readable import backtrack as readable_backtrack
from solvers.backends.readable import mrv as readable_mrv

from .conftest import load
from .killers import MULTIPLE, SEARCHING, UNIQUE, UNSAT

pytestmark = pytest.mark.backends("backtrack", "mrv")  # pytest --backend NAME leaves the module out for others


def cases(*named: tuple[str, tuple[int, ...]]) -> list:
    return [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}")
            for name, indexes in named for i in indexes]


MRV_CASES = cases(("top95.txt", (0, 1, 5, 11)), ("hardest.txt", (0, 3)), ("x_sudoku.txt", (0,)),
                  ("jigsaw.txt", (0,)), ("small_4x4.txt", (0,)), ("small_6x6.txt", (0,)),
                  ("small_unsat.txt", (0, 1)), ("special_9x9_multiple_solutions.txt", (6,)),
                  ("special_9x9_unsolvable.txt", (0,)), ("16x16_forum_samples.txt", (0,)),
                  ("empty.txt", (0, 1, 2)), ("teaching.txt", (0, 5)))
# puzzles plain backtracking finishes in at most some 15,000 nodes, even when proving uniqueness
BACKTRACK_CASES = cases(("easy50.txt", (0, 4, 7)), ("teaching.txt", (2, 13)), ("small_4x4.txt", (0,)),
                        ("small_6x6.txt", (1,)), ("small_unsat.txt", (0, 1)),
                        ("special_9x9_multiple_solutions.txt", (0, 5)), ("empty.txt", (0, 1)))
# killer puzzles: the cages' bounds prune both twins alike (9x9-a is too hard for plain backtracking)
KILLER_CASES = ([pytest.param(puzzle, id=f"killer-{name}") for name, (puzzle, _) in UNIQUE.items()]
                + [pytest.param(puzzle, id=f"killer-{name}")
                   for name, puzzle in {**UNSAT, **MULTIPLE}.items()])
BACKTRACK_CASES += [case for case in KILLER_CASES if case.id != "killer-9x9-a"]
MRV_CASES += KILLER_CASES


def same_run(fast, slow) -> None:
    assert fast.status is slow.status
    assert fast.solutions == slow.solutions  # the same solutions, in the same order
    assert fast.complete == slow.complete
    assert (fast.stats.nodes, fast.stats.backtracks, fast.stats.propagations) == \
        (slow.stats.nodes, slow.stats.backtracks, slow.stats.propagations)


MANY_SOLUTIONS = {"empty-0", "empty-1", "empty-2", "special_9x9_multiple_solutions-6",
                  *(f"killer-{name}" for name in MULTIPLE)}
"""The cases with more than one solution (3 or more each): only on these does listing up to 20 walk a tree
that listing 2 does not (on the others both stop at the same place)."""
MRV_RUNS = [pytest.param(*case.values, max_solutions, id=f"{case.id}-{max_solutions}")
            for case in MRV_CASES for max_solutions in (1, 2, 20)
            if max_solutions < 20 or case.id in MANY_SOLUTIONS]


@pytest.mark.parametrize("value_order", mrv.VALUE_ORDERS)
@pytest.mark.parametrize("inference", ["singles", "locked"])
@pytest.mark.parametrize("puzzle, max_solutions", MRV_RUNS)
def test_readable_mrv_makes_the_fast_ones_decisions(puzzle: Puzzle, max_solutions: int,
                                                    inference: str, value_order: str) -> None:
    model = Model.from_puzzle(puzzle)
    options = {"max_solutions": max_solutions, "inference": inference, "value_order": value_order}
    fast, slow = mrv.solve(model, **options), readable_mrv.solve(model, **options)
    same_run(fast, slow)
    for solution in slow.solutions:
        assert verify(puzzle, solution).ok


@pytest.mark.parametrize("max_solutions", [1, 2])
@pytest.mark.parametrize("puzzle", BACKTRACK_CASES)
def test_readable_backtrack_walks_the_fast_ones_tree(puzzle: Puzzle, max_solutions: int) -> None:
    model = Model.from_puzzle(puzzle)
    same_run(backtrack.solve(model, max_solutions=max_solutions),
             readable_backtrack.solve(model, max_solutions=max_solutions))


@pytest.mark.parametrize("puzzle", BACKTRACK_CASES)
def test_the_bottom_rung_is_the_textbook_backtracker(puzzle: Puzzle) -> None:
    # one decision per value placed: the backtracker's calls less the root call
    model = Model.from_puzzle(puzzle)
    textbook = backtrack.solve(model, max_solutions=2)
    bottom = readable_mrv.solve(model, max_solutions=2, inference="none", branching="first")
    assert bottom.solutions == textbook.solutions and bottom.complete == textbook.complete
    if textbook.stats.nodes == 0:  # refuted before any search (a cage its givens cannot complete)
        assert bottom.stats.nodes == 0 and bottom.status is textbook.status is Status.UNSAT
    else:
        assert bottom.stats.nodes == textbook.stats.nodes - 1


@pytest.mark.parametrize("budget", [1, 7, 30])
@pytest.mark.parametrize("name, twin, fast", [("mrv", readable_mrv, mrv),
                                              ("backtrack", readable_backtrack, backtrack)])
def test_twins_stop_at_the_same_node_budget(name: str, twin, fast, budget: int) -> None:
    model = Model.from_puzzle(load("teaching.txt")[0])
    quick, slow = fast.solve(model, node_limit=budget), twin.solve(model, node_limit=budget)
    assert (quick.status, quick.solutions, quick.stats.nodes) == (slow.status, slow.solutions, slow.stats.nodes)
    # stopped while swapping one value for the next, the fast backtracker has not yet counted
    # the old one as taken back; the recursive one has
    assert 0 <= slow.stats.backtracks - quick.stats.backtracks <= (name == "backtrack")


@pytest.mark.parametrize("name, options", [  # the slow-tier ones search the most (8,163 and 2,423 nodes)
    pytest.param("backtrack", {"impl": "readable"}, marks=pytest.mark.slow), ("mrv", {"impl": "readable"}),
    pytest.param("mrv", {"inference": "forward", "branching": "first"}, marks=pytest.mark.slow),
    ("mrv", {"inference": "none"}),
    ("dlx", {"impl": "readable"})])
def test_the_options_reach_the_readable_code(name: str, options: dict) -> None:
    # teaching.txt's puzzle 14 takes each of these under 0.2 s of CPU (puzzle 4 took up to 2.6 s)
    result = registry.solve(name, load("teaching.txt")[13], max_solutions=2, **options)
    assert result.status is Status.SOLVED and result.unique is True
    assert verify(load("teaching.txt")[13], result.solution).ok


@pytest.mark.parametrize("name, bad", [("mrv", {"inference": "guess"}), ("mrv", {"branching": "last"}),
                                       ("mrv", {"impl": "quick"}), ("backtrack", {"impl": "quick"})])
def test_an_unknown_choice_is_refused_with_the_valid_ones(name: str, bad: dict) -> None:
    with pytest.raises(ValueError, match="valid"):
        registry.solve(name, load("teaching.txt")[0], **bad)


RUNGS = [("none", "first"), ("forward", "first"), ("forward", "mrv"), ("naked", "mrv"),
         ("singles", "mrv"), ("locked", "mrv")]


# A variant's rungs run on x_sudoku.txt's puzzle 2: the readable mrv knows a variant only by its
# model's groups, so a jigsaw (its forward-checking rung 8 s of CPU) went through the same code;
# the jigsaw's singles and locked candidates are compared with mrv's above.
@pytest.mark.parametrize("puzzle", cases(("teaching.txt", (2, 13)), ("easy50.txt", (4,)),
                                         ("small_6x6.txt", (2,)), ("x_sudoku.txt", (1,))))
def test_each_rung_solves_and_proves_uniqueness(puzzle: Puzzle) -> None:
    model = Model.from_puzzle(puzzle)
    answers = set()
    # the variants take plain backtracking and forward checking on the first cell too long
    rungs = RUNGS[2:] if puzzle.variant != "standard" else RUNGS
    for inference, branching in rungs:
        result = readable_mrv.solve(model, max_solutions=2, inference=inference, branching=branching)
        assert result.status is Status.SOLVED and result.unique is True, (inference, branching)
        assert verify(puzzle, result.solution).ok
        answers.add(result.solution)
    assert len(answers) == 1


def test_a_refuted_decision_counts_no_propagations() -> None:
    # propagations only count cells the rules fixed on branches that survived, as in mrv
    model = Model.from_puzzle(load("hardest.txt")[0])
    result = readable_mrv.solve(model)
    assert result.stats.propagations == mrv.solve(model).stats.propagations
    assert 0 < result.stats.propagations < model.num_cells * (result.stats.nodes + 1)


def test_clashing_givens_are_unsat_with_the_clash_named() -> None:
    puzzle = load("small_4x4.txt")[0]
    clashing = list(puzzle.givens)
    first = clashing.index(next(v for v in clashing if v))
    clashing[first + 1 if clashing[first + 1] == 0 else first + 2] = clashing[first]
    result = readable_mrv.solve(Model.from_puzzle(puzzle.with_givens(tuple(clashing))))
    assert result.status is Status.UNSAT and "twice" in result.message


@pytest.mark.parametrize("inference", ["singles", "locked"])
def test_readable_mrv_lets_a_small_group_go_without_a_value(inference: str) -> None:
    # A 3-cell group is all-different only: no hidden single, locked candidate or
    # two-place branch may demand every value of it. 68 of the 125 solutions keep it.
    puzzle = load("special_9x9_multiple_solutions.txt")[7]
    base = Model.from_puzzle(puzzle)
    model = Model(puzzle, (*base.groups, Group("extra", (0, 40, 80))))
    slow = readable_mrv.solve(model, max_solutions=200, inference=inference)
    fast = mrv.solve(model, max_solutions=200, inference=inference)
    assert len(slow.solutions) == 68 and slow.complete
    assert set(slow.solutions) == set(fast.solutions)
    assert (slow.stats.nodes, slow.stats.backtracks) == (fast.stats.nodes, fast.stats.backtracks)


@pytest.mark.slow
# 9x9-big-cages-a: the readable twin searches the other (b) through the same code for 4.9 s of
# CPU, not 1.5; mrv's decisions on b are compared with fast's (tests/test_fast.py)
@pytest.mark.parametrize("name", ["9x9-big-cages-a"])
def test_readable_mrv_makes_the_fast_ones_decisions_on_killers_that_need_search(name: str) -> None:
    model = Model.from_puzzle(SEARCHING[name][0])
    same_run(mrv.solve(model, max_solutions=2), readable_mrv.solve(model, max_solutions=2))
