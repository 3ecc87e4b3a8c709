"""fast with learning='conflicts': the same answers and counts as depth-first search, limits kept.

Every answer is checked with models.verify; solution sets are compared with
``learning='none'`` (whose answers tests/test_fast.py compares with mrv), so a learnt
clause that cut off a solution would show as a missing one here.
"""
from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba", reason="the fast backend needs numba: pip install numba")

from models import Geometry, Model, Puzzle, verify
from models.model import Group
from solvers import Result, Status, registry
from solvers.backends import _fast_drive, _fast_learning, fast

from .conftest import ROOT, load

pytestmark = pytest.mark.backends("fast")  # pytest --backend NAME leaves the module out for others


def learn(puzzle: Puzzle, **options: object) -> object:
    return fast.solve(Model.from_puzzle(puzzle), learning="conflicts", **options)


@pytest.mark.parametrize("name, index", [
    ("small_4x4.txt", 0), ("small_6x6.txt", 0), ("seeds.txt", 0), ("top95.txt", 0),
    ("top95.txt", 7), ("hardest.txt", 3), ("forum_hardest_1106.txt", 0),
    ("forum_hardest_1106.txt", 200), ("x_sudoku.txt", 1), ("jigsaw.txt", 2),
    ("generated_x_9x9.txt", 3), ("generated_12x12.txt", 4), ("16x16_forum_samples.txt", 1),
    ("generated_16x16.txt", 0), ("generated_25x25.txt", 6)])
def test_proves_the_same_unique_solution_as_search(name: str, index: int) -> None:
    puzzle = load(name)[index]
    result = learn(puzzle, max_solutions=2)
    plain = fast.solve(Model.from_puzzle(puzzle), max_solutions=2)
    assert result.status is Status.SOLVED and result.unique is True and result.complete
    assert verify(puzzle, result.solution).ok
    assert result.solution == plain.solution


@pytest.mark.parametrize("name, index", [
    *[("special_9x9_multiple_solutions.txt", i) for i in range(8)],
    *[("special_16x16_multiple_solutions.txt", i) for i in range(3)],
    ("special_9x9_valid_edge_cases.txt", 0), ("empty.txt", 0)])
def test_counts_the_same_solutions_as_search(name: str, index: int) -> None:
    puzzle = load(name)[index]
    result = learn(puzzle, max_solutions=200)
    plain = fast.solve(Model.from_puzzle(puzzle), max_solutions=200)
    assert result.complete == plain.complete
    if plain.complete:  # every solution found: the same set
        assert set(result.solutions) == set(plain.solutions)
    else:  # both stopped at the cap, each with distinct solutions
        assert len(result.solutions) == len(plain.solutions) == 200
    assert len(set(result.solutions)) == len(result.solutions)
    assert all(verify(puzzle, s).ok for s in result.solutions)


@pytest.mark.parametrize("name", ["special_9x9_unsolvable.txt", "small_unsat.txt"])
def test_refutes_unsolvable_puzzles(name: str) -> None:
    for index, puzzle in enumerate(load(name)):
        result = learn(puzzle, max_solutions=2)
        assert (index, result.status, result.complete) == (index, Status.UNSAT, True)
        assert not result.solutions


def test_givens_that_clash_are_unsat_with_a_message() -> None:
    givens = list(load("top95.txt")[0].givens)
    first = next(i for i, v in enumerate(givens) if v)
    row_mate = next(i for i in range(first - first % 9, first - first % 9 + 9) if not givens[i])
    givens[row_mate] = givens[first]
    result = learn(Puzzle(Geometry.of(3, 3), tuple(givens)))
    assert result.status is Status.UNSAT and "contradict" in result.message


def test_a_hard_puzzle_learns_from_conflicts_and_restarts() -> None:
    puzzle = load("forum_hardest_1106.txt")[1]
    result = learn(puzzle, max_solutions=2)
    assert result.unique is True and verify(puzzle, result.solution).ok
    assert result.stats.conflicts > 0 and result.stats.nodes > 0
    assert result.stats.backtracks > 0 and result.stats.restarts is not None


def test_a_spent_node_budget_is_unknown() -> None:
    result = learn(load("forum_hardest_1106.txt")[1], max_solutions=2, node_limit=3)
    assert result.status is Status.UNKNOWN and result.stats.nodes == 3
    assert "node limit" in result.message


def test_a_budget_hit_after_a_solution_is_solved_but_incomplete() -> None:
    puzzle = load("forum_hardest_1106.txt")[1]
    first = learn(puzzle, max_solutions=1)
    full = learn(puzzle, max_solutions=2)
    assert full.stats.nodes > first.stats.nodes
    limited = learn(puzzle, max_solutions=2, node_limit=first.stats.nodes)
    assert limited.status is Status.SOLVED and not limited.complete and limited.unique is None


def test_a_zero_time_limit_gives_up_without_a_wrong_answer() -> None:
    result = learn(load("top95.txt")[3], max_solutions=2, time_limit=0.0)
    assert result.status is Status.TIMEOUT and not result.solutions


def test_stops_at_max_solutions_beyond_one_buffer() -> None:
    puzzle = load("empty.txt")[2]
    result = learn(puzzle, max_solutions=150)
    assert len(set(result.solutions)) == 150 and not result.complete
    assert all(verify(puzzle, s).ok for s in result.solutions)


def test_a_group_smaller_than_the_grid_holds_no_repeat() -> None:
    # a group of fewer than n cells is at-most-one for each value, not exactly-one: the
    # answers are the plain puzzle's 125 solutions without a repeat in the extra group
    base = Model.from_puzzle(load("special_9x9_multiple_solutions.txt")[7])
    every = fast.solve(base, max_solutions=1000)
    assert every.complete and len(every.solutions) == 125
    cells = (0, 40, 80)
    expected = {s for s in every.solutions if len({s[c] for c in cells}) == len(cells)}
    model = Model(base.puzzle, (*base.groups, Group("diagonal part", cells)))
    result = fast.solve(model, max_solutions=1000, learning="conflicts")
    assert result.complete and set(result.solutions) == expected and 0 < len(expected) < 125


@pytest.mark.slow
def test_a_minimal_frisch_25x25_is_proved_unique() -> None:
    # depth-first search finds no solution of this one in 10 s (bench/README.md)
    puzzle = load("25x25_gecode_frisch.txt")[1]
    result = learn(puzzle, max_solutions=2)
    assert result.unique is True and verify(puzzle, result.solution).ok


def test_an_unknown_learning_is_refused() -> None:
    with pytest.raises(ValueError, match="learning"):
        registry.get("fast").solve(Model.from_puzzle(load("top95.txt")[0]), learning="nogoods")


def test_a_learning_run_compiles_the_learning_kernel_for_its_one_signature() -> None:
    learn(load("small_4x4.txt")[0])
    assert len(_fast_learning._kernel.signatures) == 1


def tuned(puzzle: Puzzle, tuning: _fast_learning.Tuning, cap: int) -> Result:
    return _fast_learning.solve(Model.from_puzzle(puzzle), max_solutions=cap, tuning=tuning)


def _opened(name: str, index: int, cell: int) -> Puzzle:
    """A puzzle with one given removed (forum_hardest_1106 #0 without cell 48: 453 solutions,
    some 500 conflicts to count them)."""
    puzzle = load(name)[index]
    givens = list(puzzle.givens)
    givens[cell] = 0
    return Puzzle(puzzle.geometry, tuple(givens))


_HARSH = {  # each lever pushed far past its default, so it acts many times on a small puzzle
    "reduction every 10 conflicts, nothing kept": _fast_learning.Tuning(
        reduce_every=10, reduce_step=0, keep_lbd=0),
    "a bound of 5 learnt clauses": _fast_learning.Tuning(bound=5, keep_lbd=0, first_mode=20),
    "dynamic LBD, reductions, short stable restarts": _fast_learning.Tuning(
        dynamic_lbd=True, reduce_every=10, reduce_step=0, restart_unit=1, first_mode=5),
}


@pytest.mark.parametrize("lever", list(_HARSH))
@pytest.mark.parametrize("puzzle", [
    _opened("forum_hardest_1106.txt", 0, 48), load("special_9x9_multiple_solutions.txt")[7],
    load("special_9x9_unsolvable.txt")[0], load("forum_hardest_1106.txt")[1]],
    ids=["453 solutions", "125 solutions", "unsolvable", "unique"])
def test_a_harsh_lever_keeps_the_counts_of_search(lever: str, puzzle: Puzzle) -> None:
    # restarts and reductions drop learnt clauses, never a blocking clause or a solution
    result = tuned(puzzle, _HARSH[lever], 1000)
    plain = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000)
    assert plain.complete and result.complete and result.status == plain.status
    assert set(result.solutions) == set(plain.solutions) and len(set(result.solutions)) == len(result.solutions)
    assert all(verify(puzzle, s).ok for s in result.solutions)


def test_a_harsh_lever_acts_many_times() -> None:
    result = tuned(_opened("forum_hardest_1106.txt", 0, 48),
                   _HARSH["reduction every 10 conflicts, nothing kept"], 1000)
    assert len(result.solutions) == 453 and result.complete
    assert result.stats.restarts is not None and result.stats.conflicts is not None
    assert result.stats.restarts >= result.stats.conflicts // 20 > 0


_RESTARTING = _fast_learning.Tuning(restart_unit=1, first_mode=5, reduce_every=10, reduce_step=0)
"""Restarts every few conflicts, so level 0 grows (learnt units) and is compacted many times."""


@pytest.mark.parametrize("puzzle", [
    _opened("forum_hardest_1106.txt", 0, 48), load("special_9x9_multiple_solutions.txt")[7],
    load("forum_hardest_1106.txt")[1], load("generated_16x16.txt")[0]],
    ids=["453 solutions", "125 solutions", "unique 9x9", "unique 16x16"])
def test_compacting_the_constraints_at_level_0_keeps_the_search_step_for_step(puzzle: Puzzle) -> None:
    # dropping the members fixed at level 0 changes what is scanned, not what is found
    on = tuned(puzzle, _RESTARTING, 1000)
    off = tuned(puzzle, _RESTARTING._replace(compact=False), 1000)
    assert on.complete and on.solutions == off.solutions
    assert (on.stats.conflicts, on.stats.nodes, on.stats.propagations) == (
        off.stats.conflicts, off.stats.nodes, off.stats.propagations)
    assert on.stats.conflicts and on.stats.restarts


def test_a_solve_leaves_the_shared_constraint_tables_untouched() -> None:
    puzzle = load("forum_hardest_1106.txt")[1]
    model = Model.from_puzzle(puzzle)
    groups = tuple(g.cells for g in model.groups)
    before = [t.copy() for t in _fast_learning._constraint_tables(9, 81, groups)]
    learn(puzzle, max_solutions=2)
    after = _fast_learning._constraint_tables(9, 81, groups)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def test_each_variable_row_lists_its_count_then_the_constraints_that_hold_it() -> None:
    model = Model.from_puzzle(load("jigsaw.txt")[2])
    cmem, records, vcons = _fast_learning._constraint_tables(
        9, 81, tuple(g.cells for g in model.groups))
    holders: dict[int, list[int]] = {}
    for k in range(len(records)):
        for var in cmem[k, :records[k, _fast_learning._CSIZE]]:
            holders.setdefault(int(var), []).append(k)
    width = vcons.shape[1]
    assert width & (width - 1) == 0  # a power of two: a row never straddles a cache line
    for var in range(81 * 9):
        count = int(vcons[var, 0])
        assert count < width and [int(k) for k in vcons[var, 1:count + 1]] == holders[var]
    assert records[:, _fast_learning._NTRUE].sum() == records[:, _fast_learning._NFALSE].sum() == 0


@pytest.mark.parametrize("name, index", [("forum_hardest_1106.txt", 0), ("generated_16x16.txt", 0),
                                         ("generated_25x25.txt", 6)])
def test_each_constraint_record_counts_its_members_true_and_false_where_the_search_paused(
        monkeypatch: pytest.MonkeyPatch, name: str, index: int) -> None:
    seen = _spied(monkeypatch)
    result = _fast_learning.solve(Model.from_puzzle(load(name)[index]), max_solutions=2,
                                  node_limit=40)
    assert result.stats.nodes >= 40 and not result.complete  # paused mid-search, above level 0
    search = seen[0]
    cmem, records = search.cons[0], search.cons[1]
    values = search.search.vb[_fast_learning._VALUE]
    for k in range(len(records)):
        members = values[cmem[k, :records[k, _fast_learning._CSIZE]]]
        assert records[k, _fast_learning._NTRUE] == (members == 1).sum()
        assert records[k, _fast_learning._NFALSE] == (members == 0).sum()


def test_a_tuning_that_would_drop_blocking_clauses_is_refused() -> None:
    with pytest.raises(ValueError, match="keep_lbd"):
        tuned(load("top95.txt")[0], _fast_learning.Tuning(keep_lbd=-1), 2)


def _frisch_bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "bench_learning_frisch.py"), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=False, env=env)


@pytest.mark.slow
def test_the_frisch_bench_proves_an_easy_isomorph_with_its_conflicts_and_refuses_a_bad_tuning() -> None:
    done = _frisch_bench("--puzzles", "16", "--seeds", "3", "--cpu-limit", "30",
                         "--tuning", '{"keep_lbd": 2}', "--cadical")
    assert done.returncode == 0, done.stderr
    assert "#16 seed 3 this" in done.stdout and "proved True" in done.stdout
    assert "proved 1 of 1" in done.stdout and "conflicts" in done.stdout
    assert "cadical: proved 1 of 1" in done.stdout and "find " in done.stdout
    wrong = _frisch_bench("--puzzles", "16", "--tuning", '{"keep_lbd": -1}')
    assert wrong.returncode == 2 and "keep_lbd" in wrong.stderr and "#16" not in wrong.stdout


def test_the_frisch_bench_refuses_cadical_runs_without_the_program() -> None:
    done = _frisch_bench("--puzzles", "16", "--cadical", env={"PATH": "/nonexistent"})
    assert done.returncode == 2 and "no cadical program" in done.stderr and "#16" not in done.stdout


@pytest.mark.parametrize("spare", [0, 1, 2, 3])
def test_the_store_grows_wherever_the_kernel_asks_for_room(spare: int) -> None:
    # the kernel asks for room (GROW) while fewer than variables + 4 literals are free (a
    # clause as long as the trail, its 2-literal header, a spare); a store grown one short
    # of that sent the search into a loop of GROW answers until its time limit (Frisch #6
    # under seed 1: 5,096 conflicts in 60 s of CPU)
    variables = 729
    need = variables + 2 + _fast_learning._HEAD
    db = _fast_learning._new_store(variables, 4096, 64)
    st = np.zeros(_fast_learning._SLOTS, np.int64)
    st[_fast_learning._USED] = 4096 - variables - spare
    st[_fast_learning._NCL] = 63 - min(spare, 2)
    grown = _fast_learning._grown(db, st, variables)
    assert st[_fast_learning._USED] + need <= len(grown[0])
    assert st[_fast_learning._NCL] + 1 < len(grown[1])
    assert len(grown[2]) == len(grown[4]) == 2 * _fast_learning._pool_entries(len(grown[1]), variables)


def _watch_entries(db: tuple[np.ndarray, ...], st: np.ndarray) -> dict[int, list[int]]:
    """Each literal's watch list as clause codes, checked to lie inside the pool's used
    part without overlapping another list."""
    wat, wl = db[2], db[3]
    lists, spans = {}, []
    for lit in range(len(wl)):
        offset, length, cap = (int(x) for x in wl[lit, :3])
        assert 0 <= length <= cap and offset + cap <= st[_fast_learning._WTOP] <= len(wat) // 2
        if cap:
            spans.append((offset, offset + cap))
        lists[lit] = [int(wat[2 * (offset + k)]) for k in range(length)]
    spans.sort()
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    return lists


def _assert_watches_consistent(db: tuple[np.ndarray, ...], st: np.ndarray) -> None:
    # every stored clause is watched by its first two literals, once each, and nothing else;
    # a watch's code is where the clause's literals start, after its length and index
    clits, cinfo = db[0], db[1]
    lists = _watch_entries(db, st)
    expected: dict[int, list[int]] = {lit: [] for lit in lists}
    for c in range(int(st[_fast_learning._NCL])):
        start, size = int(cinfo[c, 0]), int(cinfo[c, 1])
        assert (clits[start - 2], clits[start - 1]) == (size, c)  # its header: length, index
        for w in range(2):
            expected[int(clits[start + w])].append(2 * start + (size == 2))
    assert {lit: sorted(codes) for lit, codes in lists.items()} == expected


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[_fast_learning._Learning]:
    """The searches _fast_learning.solve hands its driver, kept for a look afterwards."""
    seen: list[_fast_learning._Learning] = []
    drive = _fast_learning.drive

    def spy(search: _fast_learning._Learning, max_solutions: int, deadline: float | None,
            node_limit: int | None, first_chunk: int) -> _fast_drive.Drive:
        seen.append(search)
        return drive(search, max_solutions, deadline, node_limit, first_chunk)
    monkeypatch.setattr(_fast_learning, "drive", spy)
    return seen


def test_the_watches_stay_consistent_after_reductions_and_packing_keeps_each_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _spied(monkeypatch)
    result = tuned(_opened("forum_hardest_1106.txt", 0, 48),
                   _HARSH["reduction every 10 conflicts, nothing kept"], 1000)
    assert len(result.solutions) == 453 and result.complete and result.stats.restarts
    search = seen[0]
    db, st = search.db, search.st
    assert st[_fast_learning._NCL] > 0
    _assert_watches_consistent(db, st)
    before = _watch_entries(db, st)
    _fast_learning._pack(db, st)  # as when the pool runs out mid-propagation: each list kept in order
    assert _watch_entries(db, st) == before and st[_fast_learning._PACKS] == 1
    _assert_watches_consistent(db, st)



@pytest.mark.parametrize("puzzle", [
    _opened("forum_hardest_1106.txt", 0, 48), load("forum_hardest_1106.txt")[1],
    load("generated_16x16.txt")[0]], ids=["453 solutions", "unique 9x9", "unique 16x16"])
def test_every_shrunk_learnt_clause_holds_in_every_solution(
        monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle) -> None:
    # stopped at the first solution, each learnt clause follows from the puzzle alone (no
    # blocking clause took part), so every solution of the puzzle satisfies it
    seen = _spied(monkeypatch)
    keep_all = _fast_learning.Tuning(reduce_every=100000)
    result = tuned(puzzle, keep_all, 1)
    assert len(result.solutions) == 1
    db, st = seen[0].db, seen[0].st
    assert st[_fast_learning._SHRUNK] > 0 and st[_fast_learning._NCL] > 0  # shrinking acted
    n = Model.from_puzzle(puzzle).n
    solutions = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000).solutions
    clits, cinfo = db[0], db[1]
    learnt = [c for c in range(int(st[_fast_learning._NCL])) if cinfo[c, 2] > 0]
    assert learnt
    for c in learnt:  # (LBD 0: the clause blocking the solution found, stored as it stops)
        start, size = int(cinfo[c, 0]), int(cinfo[c, 1])
        lits = [int(x) for x in clits[start:start + size]]
        for solution in solutions:
            # literal 2 * var (var true) or 2 * var + 1 (var false), var = cell * n + value - 1
            assert any((solution[(lit >> 1) // n] == (lit >> 1) % n + 1) == (lit & 1 == 0)
                       for lit in lits), f"learnt clause {c} excludes a solution"


@pytest.mark.parametrize("puzzle", [
    _opened("forum_hardest_1106.txt", 0, 48), load("special_9x9_unsolvable.txt")[0],
    load("generated_16x16.txt")[0]], ids=["453 solutions", "unsolvable", "unique 16x16"])
def test_shrinking_keeps_the_counts_of_search(puzzle: Puzzle) -> None:
    on = tuned(puzzle, _HARSH["reduction every 10 conflicts, nothing kept"], 1000)
    off = tuned(puzzle, _HARSH["reduction every 10 conflicts, nothing kept"]._replace(shrink=False), 1000)
    assert on.complete and off.complete and on.status == off.status
    assert sorted(on.solutions) == sorted(off.solutions)


_PHASING = _fast_learning.Tuning(first_mode=5, restart_unit=1, rephase_every=2, target_phases=True,
                                  focus_after_solution=False)
"""Stable mode every few conflicts, rephased every few more: target phases decide often."""


@pytest.mark.parametrize("focus", [True, False], ids=["focused after a solution", "modes go on"])
@pytest.mark.parametrize("targets", [True, False], ids=["target phases", "always cell=value"])
@pytest.mark.parametrize("puzzle", [
    _opened("forum_hardest_1106.txt", 0, 48), load("special_9x9_multiple_solutions.txt")[7],
    load("special_9x9_unsolvable.txt")[0], load("generated_16x16.txt")[0]],
    ids=["453 solutions", "125 solutions", "unsolvable", "unique 16x16"])
def test_target_phases_and_focus_keep_the_counts_of_search(puzzle: Puzzle, targets: bool,
                                                            focus: bool) -> None:
    result = tuned(puzzle, _PHASING._replace(target_phases=targets, focus_after_solution=focus), 1000)
    plain = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000)
    assert plain.complete and result.complete and result.status == plain.status
    assert sorted(result.solutions) == sorted(plain.solutions)
    assert len(set(result.solutions)) == len(result.solutions)


@pytest.mark.parametrize("targets", [True, False], ids=["target phases", "always cell=value"])
def test_stable_mode_decides_cell_not_value_only_with_target_phases(
        monkeypatch: pytest.MonkeyPatch, targets: bool) -> None:
    seen = _spied(monkeypatch)
    result = tuned(_opened("forum_hardest_1106.txt", 0, 48), _PHASING._replace(target_phases=targets), 1000)
    assert len(result.solutions) == 453 and result.complete
    st = seen[0].st
    assert st[_fast_learning._SWITCHES] > 2  # stable mode came, more than once
    assert (st[_fast_learning._NEGATED] > 0) == targets
    assert (st[_fast_learning._REPHASES] > 0) == targets


@pytest.mark.parametrize("tuning", [_fast_learning.Tuning(rephase_every=-1)], ids=["rephase_every -1"])
def test_a_negative_rephase_interval_is_refused(tuning: _fast_learning.Tuning) -> None:
    with pytest.raises(ValueError, match="counts >= 1"):
        tuned(load("top95.txt")[0], tuning, 2)


@pytest.mark.parametrize("focus", [True, False], ids=["focused after a solution", "modes go on"])
def test_after_a_solution_the_search_stays_focused_only_with_focus(
        monkeypatch: pytest.MonkeyPatch, focus: bool) -> None:
    seen = _spied(monkeypatch)
    result = tuned(_opened("forum_hardest_1106.txt", 0, 48),
                   _PHASING._replace(focus_after_solution=focus), 1000)
    assert len(result.solutions) == 453 and result.complete
    st = seen[0].st
    stays = st[_fast_learning._STABLE] == 0 and st[_fast_learning._MODE_END] > st[_fast_learning._CONFLICTS] + 10**9
    assert stays == focus and bool(st[_fast_learning._TARGETS]) == (not focus)
