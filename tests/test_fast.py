"""The compiled backend: the same answers as mrv, its counters, variants, counting, limits.

The shared contract (seeds, 4x4 to 16x16, variants, unsat, counting, time limit) runs
for ``fast`` through tests/test_backends.py; these tests cover what is its own.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the fast backend needs numba: pip install numba")

from models import Geometry, Group, Model, Puzzle, verify
from solvers import Status, registry
from solvers.backends import _fast, _fast_learning, fast, mrv

from .conftest import ROOT, load
from .killers import MULTIPLE as KILLER_MULTIPLE
from .killers import SEARCHING, UNIQUE
from .killers import UNSAT as KILLER_UNSAT

pytestmark = pytest.mark.backends("fast")  # pytest --backend NAME leaves the module out for others


def model(name: str, index: int) -> Model:
    return Model.from_puzzle(load(name)[index])


@pytest.mark.parametrize("branching", fast.BRANCHINGS)
@pytest.mark.parametrize("inference", fast.INFERENCES)
@pytest.mark.parametrize("name, index", [
    ("top95.txt", 0), ("top95.txt", 7), ("hardest.txt", 3), ("forum_hardest_1106.txt", 0),
    ("forum_hardest_1106.txt", 200), ("x_sudoku.txt", 1), ("jigsaw.txt", 2),
    ("generated_jigsaw_9x9.txt", 5), ("generated_x_9x9.txt", 3), ("small_6x6.txt", 0),
    ("generated_12x12.txt", 4), ("16x16_forum_samples.txt", 1), ("generated_25x25.txt", 6)])
def test_proves_the_same_unique_solution_as_mrv(branching: str, inference: str, name: str,
                                                index: int) -> None:
    puzzle = load(name)[index]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, inference=inference,
                        branching=branching, learning="none")  # no learning=auto on 25x25: the rules
    assert result.status is Status.SOLVED and result.unique is True and result.complete
    assert verify(puzzle, result.solution).ok
    assert result.solution == mrv.solve(Model.from_puzzle(puzzle)).solution


@pytest.mark.parametrize("max_solutions", [1, 2])
@pytest.mark.parametrize("inference", ["singles", "locked"])
@pytest.mark.parametrize("name, index", [
    ("top95.txt", 1), ("hardest.txt", 3), ("forum_hardest_1106.txt", 7), ("x_sudoku.txt", 0),
    ("jigsaw.txt", 0), ("generated_12x12.txt", 4), ("16x16_forum_samples.txt", 1),
    ("special_9x9_multiple_solutions.txt", 6)])
def test_makes_mrvs_decisions(name: str, index: int, inference: str, max_solutions: int) -> None:
    # the same rules to the same fixed point and the same branching, ties included, so the
    # compiled search walks mrv's tree: bench/README.md compares their speed on that basis
    puzzle = load(name)[index]
    quick = fast.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions, inference=inference,
                       kernel="general")
    slow = mrv.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions, inference=inference)
    assert quick.solutions == slow.solutions and quick.complete == slow.complete
    assert (quick.stats.nodes, quick.stats.backtracks) == (slow.stats.nodes, slow.stats.backtracks)


def test_singles_alone_take_no_decision_and_count_the_cells_they_fix() -> None:
    puzzle = load("easy50.txt")[0]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2)
    assert result.unique and result.stats.nodes == 0 and result.stats.backtracks == 0
    assert result.stats.fixed_cells == result.stats.propagations == 81 - puzzle.num_givens


def test_every_decision_is_taken_back_when_counting_to_the_end() -> None:
    stats = fast.solve(model("top95.txt", 3), max_solutions=2).stats
    assert stats.nodes >= 2 and stats.backtracks == stats.nodes
    assert stats.propagations > stats.fixed_cells


def test_locked_candidates_settle_a_puzzle_that_singles_must_search() -> None:
    locked = fast.solve(model("top95.txt", 0), max_solutions=2, inference="locked")
    singles = fast.solve(model("top95.txt", 0), max_solutions=2, inference="singles")
    assert locked.solution == singles.solution
    assert locked.stats.nodes == 0 < singles.stats.nodes


@pytest.mark.parametrize("branching", fast.BRANCHINGS)
@pytest.mark.parametrize("inference", fast.INFERENCES)
@pytest.mark.parametrize("index, count", [(3, 2), (4, 3), (5, 4), (6, 10), (7, 125)])
def test_counts_every_solution(branching: str, inference: str, index: int, count: int) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[index]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000, inference=inference,
                        branching=branching)
    assert result.complete and len(set(result.solutions)) == count
    assert all(verify(puzzle, s).ok for s in result.solutions)


def test_stops_at_max_solutions_beyond_one_buffer() -> None:
    result = fast.solve(model("empty.txt", 2), max_solutions=150)
    assert len(set(result.solutions)) == 150 and not result.complete
    assert result.status is Status.SOLVED


@pytest.mark.parametrize("inference", fast.INFERENCES)
@pytest.mark.parametrize("name", ["special_9x9_unsolvable.txt", "small_unsat.txt"])
def test_refutes_unsolvable_puzzles(inference: str, name: str) -> None:
    for puzzle in load(name):
        result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, inference=inference)
        assert result.status is Status.UNSAT and result.complete and not result.solutions


def test_givens_that_clash_are_unsat_with_a_message() -> None:
    givens = list(load("top95.txt")[0].givens)
    first = next(i for i, v in enumerate(givens) if v)
    row_mate = next(i for i in range(first - first % 9, first - first % 9 + 9) if not givens[i])
    givens[row_mate] = givens[first]
    puzzle = Puzzle(Geometry.of(3, 3), tuple(givens))
    result = fast.solve(Model.from_puzzle(puzzle))
    assert result.status is Status.UNSAT and "contradict" in result.message


def test_a_spent_node_budget_is_unknown() -> None:
    result = fast.solve(model("top95.txt", 3), max_solutions=2, node_limit=1)
    assert result.status is Status.UNKNOWN and result.stats.nodes == 1
    assert "node limit" in result.message


def test_a_budget_hit_after_a_solution_is_solved_but_incomplete() -> None:
    full = fast.solve(model("top95.txt", 3), max_solutions=2)
    first = fast.solve(model("top95.txt", 3), max_solutions=1)
    limited = fast.solve(model("top95.txt", 3), max_solutions=2, node_limit=first.stats.nodes)
    assert full.stats.nodes > first.stats.nodes
    assert limited.status is Status.SOLVED and not limited.complete and limited.unique is None


def test_wdeg_restarts_before_a_first_solution_and_stays_complete() -> None:
    puzzle = load("forum_hardest_1106.txt")[0]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, branching="wdeg",
                        inference="singles")
    assert result.unique is True and verify(puzzle, result.solution).ok
    if result.stats.nodes > 2 * _fast.RESTART_BASE:
        assert result.stats.restarts > 0


def test_a_zero_time_limit_gives_up_without_a_wrong_answer() -> None:
    result = fast.solve(model("top95.txt", 3), max_solutions=2, time_limit=0.0)
    assert result.status is Status.TIMEOUT and not result.solutions


def test_a_36x36_grid_is_within_reach() -> None:
    puzzle = Puzzle(Geometry.of(6, 6), (0,) * 36 * 36)
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2)
    assert len(result.solutions) == 2 and all(verify(puzzle, s).ok for s in result.solutions)


@pytest.mark.parametrize("option, value", [("inference", "pairs"), ("branching", "dom"),
                                           ("node_limit", -1)])
def test_bad_options_are_refused_by_the_one_entry(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"option '{option}' cannot be"):
        registry.get("fast").solve(model("top95.txt", 0), **{option: value})


def compiled_after(code: str, cache: str | None = None) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (numba's cache in the given directory, if any)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)} | ({"NUMBA_CACHE_DIR": cache} if cache else {})
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=600)


@pytest.mark.slow
def test_importing_fast_compiles_no_kernel_and_prepare_only_the_one_asked_for() -> None:
    kernels = ("from solvers.backends import _fast as g, _fast_bands as b, _fast_learning as l\n"
               "def shown(): print(len(g._kernel.signatures), len(b._kernel.signatures), "
               "len(l._kernel.signatures))\n")
    plain = compiled_after("import solvers.backends.fast as f\n" + kernels +
                           "shown(); f.prepare(learning='none'); shown()")
    assert plain.stdout.split() == ["0", "0", "0", "1", "1", "0"]  # general and 9x9, no learning
    nine = compiled_after("import solvers.backends.fast as f\nfrom models import Model, read_puzzles\n"
                          + kernels + "p = read_puzzles('puzzles/top95.txt').puzzles[0]\n"
                          "f.prepare(model=Model.from_puzzle(p)); shown()")
    assert nine.stdout.split() == ["0", "1", "0"]  # a 9x9 puzzle takes the 9x9 kernel only


@pytest.mark.slow
def test_the_registry_lets_fast_prepare_the_kernels_its_options_need() -> None:
    registry.get("fast").prepare({"learning": "conflicts", "inference": "singles"})
    assert len(_fast_learning._kernel.signatures) == 1


@pytest.mark.slow
def test_a_real_compile_is_said_on_stderr_and_a_cached_one_is_not(tmp_path: Path) -> None:
    # A one-line kernel in a module of its own, compiled through the same helper as fast's.
    (tmp_path / "tiny.py").write_text(
        "from numba import njit, types\n"
        "@njit(cache=True)\ndef double(x):\n    return 2 * x\n"
        "SIGNATURE = types.int64(types.int64)\n")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import tiny\n"
            "from solvers.backends._fast_kernels import compile_kernels\n"
            "compile_kernels('tiny', [(tiny.double, tiny.SIGNATURE)]); print(tiny.double(21))")
    first = compiled_after(code, str(tmp_path / "cache"))
    assert first.stdout.strip() == "42"
    assert "compiling tiny (first use" in first.stderr and " took " in first.stderr
    again = compiled_after(code, str(tmp_path / "cache"))
    assert again.stdout.strip() == "42" and "compiling" not in again.stderr


@pytest.mark.slow
def test_a_second_process_waits_for_a_compile_under_way_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # this test holds the kernels' lock as a compiling process would: the other one must wait
    # for it, say so, and go on once it is free
    import time

    from solvers.backends._fast_kernels import WAIT_NOTICE_S, compile_lock
    (tmp_path / "tiny.py").write_text(
        "from numba import njit, types\n"
        "@njit(cache=True)\ndef double(x):\n    return 2 * x\n"
        "SIGNATURE = types.int64(types.int64)\n")
    cache = str(tmp_path / "cache")
    monkeypatch.setenv("NUMBA_CACHE_DIR", cache)  # the lock is named for the cache, as the child's
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import tiny\n"
            "from solvers.backends._fast_kernels import compile_kernels\n"
            "compile_kernels('tiny lock', [(tiny.double, tiny.SIGNATURE)]); print(tiny.double(21))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": cache}
    with compile_lock("tiny lock"):
        child = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            said = child.stderr.readline() if child.stderr else ""  # blocks until it says it waits
            time.sleep(WAIT_NOTICE_S / 2)
            assert child.poll() is None  # still waiting for the lock
        except BaseException:
            child.kill()
            child.communicate()
            raise
    out, err = child.communicate(timeout=300)
    assert out.strip() == "42", said + err
    assert said.startswith("compiling tiny lock: waiting for another process"), said
    assert "compiling tiny lock: waited" in err


@pytest.mark.slow
def test_a_worker_waiting_for_the_9x9_kernel_compiles_no_other_meanwhile() -> None:
    # a run of 9x9 puzzles never needs the general kernel: a second worker starting while the
    # first compiles the 9x9 kernel waits for it, holding no core with a compile of its own
    from solvers.backends._fast_kernels import compile_lock
    code = ("import solvers.backends.fast as f\nfrom models import Model, read_puzzles\n"
            "from solvers.backends import _fast as g, _fast_bands as b\n"
            "p = read_puzzles('puzzles/top95.txt').puzzles[0]\n"
            "f.prepare(model=Model.from_puzzle(p)); print(len(g._kernel.signatures), len(b._kernel.signatures))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the same numba cache, so the same lock
    with compile_lock("fast's 9x9 kernel"):
        child = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            said = child.stderr.readline() if child.stderr else ""  # blocks until it says it waits
        except BaseException:
            child.kill()
            child.communicate()
            raise
    out, err = child.communicate(timeout=300)
    assert "waiting for another process" in said, said + err
    assert out.split() == ["0", "1"], err  # the 9x9 kernel loaded, the general one untouched


@pytest.mark.parametrize("branching", fast.BRANCHINGS)
@pytest.mark.parametrize("inference", fast.INFERENCES)
@pytest.mark.parametrize("name, index", [("small_4x4.txt", 0), ("top95.txt", 1), ("jigsaw.txt", 0)])
def test_a_group_smaller_than_the_grid_holds_each_value_at_most_once(
        name: str, index: int, inference: str, branching: str) -> None:
    # A 2-cell group is all-different but need not hold every value: no hidden single, no
    # locked candidate and no two-place branching may treat it as a full group.
    puzzle = load(name)[index]
    base = Model.from_puzzle(puzzle)
    known = mrv.solve(base).solution
    free = [c for c in range(base.num_cells) if not puzzle.givens[c]]
    apart = next((a, b) for a in free for b in free
                 if a < b and b not in base.peers[a] and known[a] != known[b])
    same = next((a, b) for a in free for b in free
                if a < b and b not in base.peers[a] and known[a] == known[b])
    kept = fast.solve(Model(puzzle, (*base.groups, Group("pair", apart))), max_solutions=2,
                      inference=inference, branching=branching)
    assert kept.unique is True and kept.solution == known
    refuted = fast.solve(Model(puzzle, (*base.groups, Group("pair", same))), max_solutions=2,
                         inference=inference, branching=branching)
    assert refuted.status is Status.UNSAT and refuted.complete


@pytest.mark.parametrize("name", ["top95.txt", "jigsaw.txt", "generated_12x12.txt"])
def test_the_built_tables_have_the_declared_types(name: str) -> None:
    # Tables is the one declaration of the layout: the kernel's signature reads its types
    # from it, so tables built otherwise would be refused at the call, not misread.
    from numba import typeof

    from solvers.backends._fast_kernels import TABLES, Tables
    tables, _ = _fast._tables_for(model(name, 0))
    assert typeof(tables) == TABLES and len(tables) == len(Tables._fields)


@pytest.mark.parametrize("max_solutions", [1, 2])
@pytest.mark.parametrize("inference", fast.INFERENCES)
@pytest.mark.parametrize("name", ["top95.txt", "special_9x9_multiple_solutions.txt",
                                  "special_9x9_unsolvable.txt", "16x16_forum_samples.txt"])
def test_a_batch_finds_what_one_call_per_puzzle_finds(name: str, inference: str,
                                                      max_solutions: int) -> None:
    puzzles = list(load(name)[:8])
    batch = fast.solve_batch(Model.from_puzzle(puzzles[0]), fast.givens_array(puzzles),
                             max_solutions=max_solutions, inference=inference)
    for index, puzzle in enumerate(puzzles):
        single = fast.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions,
                            inference=inference)
        assert batch.counts[index] == len(single.solutions), index
        assert batch.complete[index] == single.complete and batch.nodes[index] == single.stats.nodes
        if single.solutions:
            assert tuple(batch.solutions[index].tolist()) == single.solution
            assert verify(puzzle, single.solution).ok


def test_a_batch_node_limit_leaves_the_count_incomplete() -> None:
    puzzles = list(load("forum_hardest_1106.txt")[:3])
    batch = fast.solve_batch(Model.from_puzzle(puzzles[0]), fast.givens_array(puzzles),
                             node_limit=1)
    assert (batch.nodes <= 1).all() and not batch.complete.any()


@pytest.mark.parametrize("shape", [(3, 80), (81,), (2, 3, 81)])
def test_a_batch_of_the_wrong_shape_is_refused(shape: tuple[int, ...]) -> None:
    import numpy as np
    with pytest.raises(ValueError, match="shape"):
        fast.solve_batch(model("top95.txt", 0), np.zeros(shape, np.uint8))


def test_a_batch_given_out_of_range_is_a_contradiction_not_a_crash() -> None:
    givens = fast.givens_array([load("top95.txt")[0]])
    givens[0, 0] = 10
    batch = fast.solve_batch(model("top95.txt", 0), givens)
    assert batch.counts[0] == 0 and batch.complete[0]


KILLERS = {**UNIQUE, **SEARCHING}


@pytest.mark.parametrize("max_solutions", [1, 2])
@pytest.mark.parametrize("inference", ["singles", "locked"])
@pytest.mark.parametrize("name", list(KILLERS) + list(KILLER_MULTIPLE) + list(KILLER_UNSAT))
def test_makes_mrvs_decisions_on_killer_puzzles(name: str, inference: str, max_solutions: int) -> None:
    # the cage rule (_cages) reaches mrv's cage_combinations fixed point, so the trees agree
    puzzle = {**{k: p for k, (p, _) in KILLERS.items()}, **KILLER_MULTIPLE, **KILLER_UNSAT}[name]
    quick = fast.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions, inference=inference)
    slow = mrv.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions, inference=inference)
    assert quick.status is slow.status and quick.solutions == slow.solutions
    assert quick.complete == slow.complete
    assert (quick.stats.nodes, quick.stats.backtracks, quick.stats.propagations) == \
        (slow.stats.nodes, slow.stats.backtracks, slow.stats.propagations)


@pytest.mark.parametrize("branching", fast.BRANCHINGS)
@pytest.mark.parametrize("name", list(SEARCHING))
def test_subsets_and_wdeg_prove_a_killer_unique(name: str, branching: str) -> None:
    puzzle, solution = SEARCHING[name]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, inference="subsets",
                        branching=branching)
    assert result.unique is True and result.solution == tuple(map(int, solution))


@pytest.mark.parametrize("name, learning", [("25x25_gecode_frisch.txt", "conflicts"),
                                            ("generated_25x25.txt", "conflicts"),
                                            ("generated_16x16.txt", "none"), ("top95.txt", "none"),
                                            ("generated_qwh_15x15.txt", "none")])
def test_learning_auto_learns_on_grids_of_order_25_and_more(name: str, learning: str) -> None:
    model = Model.from_puzzle(load(name)[0])
    assert fast.DECLARATION.option("learning").default == "auto"
    assert fast.learning_for(model, "auto") == learning
    assert fast.needs(model) == ("learning" if learning == "conflicts" else fast.search_for(model))


def test_learning_auto_leaves_a_large_killer_to_depth_first_search() -> None:
    # the learning search cannot state a cage total: auto must not choose it
    from models import Cage
    killer = Puzzle(Geometry.for_size(25), (0,) * 625, cages=(Cage((0, 1), 3),))
    model = Model.from_puzzle(killer)
    assert model.cages and fast.learning_for(model, "auto") == "none"
    assert fast.learning_for(Model.from_puzzle(Puzzle(Geometry.for_size(25), (0,) * 625)), "auto") == "conflicts"


def test_the_learning_search_says_it_cannot_state_a_cage_total() -> None:
    result = fast.solve(Model.from_puzzle(UNIQUE["4x4-a"][0]), learning="conflicts")
    assert result.status is Status.UNSUPPORTED and "learning='none'" in result.message


def test_tables_follow_the_cages_of_a_model_sharing_its_groups() -> None:
    # same groups object, totals dropped: the cached tables must not keep the cage rule
    model = Model.from_puzzle(KILLER_UNSAT["4x4-total-too-big"])
    assert fast.solve(model, max_solutions=2).status is Status.UNSAT
    assert fast.solve(Model(model.puzzle, model.groups), max_solutions=2).status is Status.SOLVED


@pytest.mark.parametrize("name, index, strategy", [
    ("generated_qwh_15x15.txt", 0, "wdeg"), ("generated_qwh_15x15.txt", 2, "wdeg"),
    ("x_sudoku.txt", 1, "mrv"), ("jigsaw.txt", 1, "mrv")])
def test_auto_branching_is_wdeg_on_a_latin_square_and_mrv_elsewhere(name: str, index: int,
                                                                  strategy: str) -> None:
    # the default walks the named strategy's tree: the same decisions, the same solutions
    puzzle = load(name)[index]
    default = fast.solve(Model.from_puzzle(puzzle), max_solutions=2)
    named = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, branching=strategy)
    assert fast.DECLARATION.option("branching").default == "auto"
    assert fast.branching_for(Model.from_puzzle(puzzle), "auto") == strategy
    counters = ("nodes", "backtracks", "propagations", "restarts")
    assert default.solutions == named.solutions
    assert [getattr(default.stats, c) for c in counters] == [getattr(named.stats, c) for c in counters]
    assert all(verify(puzzle, s).ok for s in default.solutions)
