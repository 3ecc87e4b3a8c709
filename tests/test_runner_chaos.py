"""The runner under random faults, and its checks of what comes back.

Chaos: 80 quick tasks of a plugin that fails at random (tests/plugins/chaos.py:
raising, exiting, killing itself, garbage in the pipe, huge answers, NaN stats, sleeping,
stalling mid-frame) beside the built-in mrv; every task gets exactly one outcome, the one
its fault calls for, mrv's runs are all solved, and the workers' pipes and output readers
are all gone afterwards.
"""
from __future__ import annotations

import importlib.util
import math
import os
import sys
import threading
from collections import Counter
from multiprocessing import resource_tracker

import pytest

from models import Geometry, Puzzle
from solvers.harness.engine import zygote
from solvers.harness.engine.answers import outcome_from
from solvers.harness.engine.runner import run_tasks
from solvers.harness.tasks import Configuration, Outcome, Task
from solvers.result import Status

from .conftest import ROOT
from .grids import shuffled

CHAOS = ROOT / "tests" / "plugins" / "chaos.py"
SEED = "54"
"""With the 80 puzzles below, a seed under which every kind of fault happens (1 to 14 times each),
so that the test asserts every kind's outcome. Before: 160 puzzles under seed 7, with 31 faults
that end or spoil a worker (11 here), each a worker started again: most of the test's CPU."""
STATUS_OF_FAULT = {
    "answer": Status.SOLVED, "raise": Status.ERROR, "exit": Status.ERROR, "kill": Status.ERROR,
    "garbage": Status.ERROR, "huge": Status.ERROR, "nan": Status.ERROR, "not_result": Status.ERROR,
    "sleep": Status.TIMEOUT, "stall": Status.TIMEOUT,
}


def chaos_module():
    sys.path.append(str(CHAOS.parent))
    spec = importlib.util.spec_from_file_location("chaos_for_test", CHAOS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def puzzles(count: int) -> list[Puzzle]:
    import random
    rng = random.Random(5)
    geometry = Geometry.for_size(4)
    found: dict[tuple[int, ...], Puzzle] = {}
    while len(found) < count:
        full = shuffled(geometry, rng)
        givens = tuple(v if rng.random() < 0.6 else 0 for v in full)
        found.setdefault(givens, Puzzle(geometry, givens))
    return list(found.values())


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the chaos plugin reads /proc")
def test_chaos_every_task_has_exactly_one_outcome_and_the_right_one_and_leaves_no_fd_or_thread() -> None:
    chaos = chaos_module()
    resource_tracker.ensure_running()  # started by the first spawn, its pipe kept for good: not a leak
    zygote.ensure_running()  # the workers' server, likewise
    fds, threads = len(os.listdir("/proc/self/fd")), threading.active_count()
    plugin = Configuration("chaos", plugin=f"{CHAOS}:solve", backend="chaos", options=(("seed", SEED),))
    mrv = Configuration("mrv", backend="mrv")
    tasks = [Task(solver, puzzle, 1, 0.5) for puzzle in puzzles(80) for solver in (plugin, mrv)]
    seen: Counter[int] = Counter()
    outcomes = run_tasks(iter(tasks), jobs=2, on_outcome=lambda number, _outcome: seen.update([number]))
    assert len(outcomes) == len(tasks)
    assert seen == Counter(range(len(tasks)))
    faults = Counter()
    for task, outcome in zip(tasks, outcomes):
        if task.solver is mrv:
            assert outcome.status == Status.SOLVED, outcome
            continue
        fault = chaos.fault_of(task.puzzle.givens, SEED)
        faults[fault] += 1
        assert outcome.status == STATUS_OF_FAULT[fault], (fault, outcome)
    assert set(faults) == set(STATUS_OF_FAULT), faults  # every kind of fault really happened
    assert (len(os.listdir("/proc/self/fd")), threading.active_count()) == (fds, threads)


# ---------------------------------------------------------------- what the parent accepts

TASK = Task(Configuration("x"), Puzzle(Geometry.for_size(4), (0,) * 16), max_solutions=2)
SIZE = (TASK.max_solutions, TASK.puzzle.geometry.cells)
GOOD = {"status": "solved", "solutions": [[1] * 16], "complete": False, "stats": {"nodes": 3},
        "message": "", "time_s": 0.1, "cpu_s": 0.1, "warmup": False}


@pytest.mark.parametrize("change, problem", [
    ({"status": "fine"}, "unknown status"),
    ({"solutions": [[1] * 16] * 3}, "3 solutions, at most 2 asked for"),
    ({"solutions": "no"}, "no list of solutions"),
    ({"solutions": [["1"] * 16]}, "not a list of integers"),
    ({"solutions": [[True] * 16]}, "not a list of integers"),
    ({"time_s": -1.0}, "time_s = -1.0 is not"),
    ({"time_s": math.nan}, "time_s = nan is not"),
    ({"time_s": 10 ** 400}, "time_s = an integer of 401 digits is not"),
    ({"cpu_s": math.inf}, "cpu_s = inf is not"),
    ({"stats": {"nodes": -4}}, "stat 'nodes' = -4 is not"),
    ({"stats": {"nodes": "many"}}, "stat 'nodes' = 'many' is not"),
    ({"stats": {"nodes": 2 ** 64 - 1}}, "stat 'nodes' = 18446744073709551615 is not an integer from 0"),
    ({"stats": {"nodes": 10 ** 400}}, "stat 'nodes' = an integer of 401 digits"),
    ({"stats": {"nodes": 2.5}}, "stat 'nodes' = 2.5 is not an integer"),
    ({"stats": {"solve_time": 1e300}}, "stat 'solve_time' = 1e+300 is not a finite number"),
    ({"stats": {"x" * 100: 1}}, "not a name of 1 to 64 characters"),
    ({"stats": [1, 2]}, "stats = [1, 2] is not a mapping"),
    ({"complete": "yes"}, "complete = 'yes' is not a bool"),
    ({"status": ["solved"]}, "unknown status ['solved']"),
    ({"termination": "walltime"}, "termination 'walltime' is not one a worker may report"),
])
def test_a_malformed_answer_is_an_error_that_says_why(change: dict, problem: str) -> None:
    outcome = outcome_from({**GOOD, **change}, *SIZE)
    assert outcome.status == Status.ERROR
    assert problem in outcome.message


def test_a_well_formed_answer_is_taken_as_it_is() -> None:
    assert outcome_from(GOOD, *SIZE) == Outcome(Status.SOLVED, [(1,) * 16], False, {"nodes": 3},
                                               "", 0.1, 0.1, False)


def test_garbage_is_no_answer() -> None:
    assert outcome_from(["solved"], *SIZE).status == Status.ERROR
