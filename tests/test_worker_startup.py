"""Which workers start when, and where they run (engine/startup.py).

A key's second worker starts only once its runs have waited as long as starting one takes:
a few quick runs are served by one worker even with a second job free; a run of slow runs
gets its second worker. A pool of one job keeps every worker on one CPU, so configurations
compared in one run share it; a pool of more jobs leaves placement to the system.
"""
from __future__ import annotations

import os
import time

import pytest

from solvers import registry
from solvers.harness.engine import runner, startup
from solvers.harness.engine.worker import worker_main
from solvers.harness.tasks import Configuration, Task

from .test_chunks import MRV, puzzles

SLOW_S = 0.4
"""How long each run of the slow worker takes: eight of them outlast START_CAP's wait."""


def slow_worker(*args: object) -> None:
    """The real worker, whose backend call sleeps SLOW_S first."""
    real = registry.Backend.solve

    def solve(self: registry.Backend, model, **kwargs):
        time.sleep(SLOW_S)
        return real(self, model, **kwargs)

    registry.Backend.solve = solve
    worker_main(*args)


def test_a_few_quick_runs_of_one_configuration_use_one_worker_though_a_second_job_is_free() -> None:
    outcomes = runner.run_tasks([Task(MRV, p) for p in puzzles(8)], jobs=2)
    assert all(o.solutions for o in outcomes)
    assert len({o.worker for o in outcomes}) == 1, [o.worker for o in outcomes]


@pytest.mark.slow
def test_slow_runs_of_one_configuration_get_a_second_worker_once_they_waited_a_start_up(monkeypatch) -> None:
    assert 8 * SLOW_S > startup.START_CAP + SLOW_S  # one worker alone would keep the others waiting past the cap
    monkeypatch.setattr(runner, "worker_main", slow_worker)
    outcomes = runner.run_tasks([Task(MRV, p) for p in puzzles(8)], jobs=2)
    assert all(o.solutions for o in outcomes)
    assert len({o.worker for o in outcomes}) == 2, [o.worker for o in outcomes]


def test_each_configuration_starts_its_own_first_worker_at_once() -> None:
    other = Configuration("backtrack", backend="backtrack")
    outcomes = runner.run_tasks([Task(solver, p) for p in puzzles(3) for solver in (MRV, other)], jobs=2)
    workers = {solver: {o.worker for o, t in zip(outcomes, range(6)) if t % 2 == index}
               for index, solver in enumerate(("mrv", "backtrack"))}
    assert all(len(pids) == 1 for pids in workers.values()) and workers["mrv"] != workers["backtrack"]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to choose")
def test_a_one_job_pool_keeps_every_worker_on_one_cpu_and_a_two_job_pool_leaves_them_be() -> None:
    allowed = os.sched_getaffinity(0)
    for jobs, expected in ((1, {max(allowed)}), (2, allowed)):
        pool = runner._Pool(jobs, None)
        try:
            pool.workers += [pool._spawn(f"key{number}") for number in range(2)]
            assert [os.sched_getaffinity(w.process.pid) for w in pool.workers] == [expected, expected], jobs
        finally:
            pool.close()


def test_the_start_policy_starts_a_worker_once_the_waits_add_up_to_a_start_up() -> None:
    policy = startup.StartPolicy()
    policy.loaded("k", 0.5)
    assert not policy.may_start("k", 10.0)  # the wait starts being counted
    assert not policy.may_start("k", 10.3)
    assert policy.next_look(10.3) == pytest.approx(10.5)
    assert policy.next_look(10.4) == pytest.approx(10.5)  # the wait since the last look counts too
    policy.not_blocked()  # the task went to the worker that fell free: 0.3 s kept
    assert not policy.may_start("k", 20.0)
    assert policy.may_start("k", 20.2)  # 0.3 + 0.2 s waited: a start-up's worth
    assert not policy.may_start("k", 30.0)  # spent: counting starts again


def test_a_first_workers_compile_counts_only_up_to_the_cap() -> None:
    policy = startup.StartPolicy()
    policy.loaded("fast", 90.0)
    assert policy.cost["fast"] == startup.START_CAP
