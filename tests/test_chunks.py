"""Chunks: quick runs of one key handed to a worker several at a time (engine/chunks.py).

Each run of a chunk keeps its own outcome: a run that hangs is killed at its limit and
recorded as the one timeout, a memory-out is that run's alone, and the runs after it go to
a fresh worker; with chunks or without, the same outcomes in the same order. The faults are
put inside the backend's call by a worker entry that wraps the real one (a plugin is never
chunked, so a built-in backend must misbehave).
"""
from __future__ import annotations

import random
import time

import pytest

from models import Geometry, Puzzle
from solvers import registry
from solvers.harness.engine import chunks, runner
from solvers.harness.engine.worker import worker_main
from solvers.harness.tasks import Configuration, Outcome, Task
from solvers.result import Status

from .grids import shuffled

MRV = Configuration("mrv", backend="mrv")
BACKTRACK = Configuration("backtrack", backend="backtrack")
FAULTY = 2
"""The place in ``puzzles()`` of the run that misbehaves: the second of the first chunk
(the first run goes alone, until the key's run time is known)."""


def puzzles(count: int, n: int = 4, seed: int = 3) -> list[Puzzle]:
    """Distinct small puzzles (60% of a valid grid's cells given)."""
    rng, geometry = random.Random(seed), Geometry.for_size(n)
    found: dict[tuple[int, ...], Puzzle] = {}
    while len(found) < count:
        givens = tuple(v if rng.random() < 0.6 else 0 for v in shuffled(geometry, rng))
        found.setdefault(givens, Puzzle(geometry, givens))
    return list(found.values())


FAULT_GIVENS = puzzles(FAULTY + 1)[FAULTY].givens


def hanging_worker(*args: object) -> None:
    """The real worker, whose backend call never returns on FAULT_GIVENS."""
    real = registry.Backend.solve

    def solve(self: registry.Backend, model, **kwargs):
        if tuple(model.givens) == FAULT_GIVENS:
            time.sleep(120)
        return real(self, model, **kwargs)

    registry.Backend.solve = solve
    worker_main(*args)


def hungry_worker(*args: object) -> None:
    """The real worker, whose backend call asks for 64 GB on FAULT_GIVENS (a real MemoryError
    under the task's memory limit)."""
    real = registry.Backend.solve

    def solve(self: registry.Backend, model, **kwargs):
        if tuple(model.givens) == FAULT_GIVENS:
            bytearray(64 << 30)
        return real(self, model, **kwargs)

    registry.Backend.solve = solve
    worker_main(*args)


def run(tasks: list[Task], jobs: int = 1) -> list[Outcome]:
    return runner.run_tasks(tasks, jobs=jobs)


@pytest.mark.slow
def test_a_chunk_whose_second_run_hangs_ends_as_one_timeout_and_keeps_the_other_runs(monkeypatch) -> None:
    monkeypatch.setattr(runner, "worker_main", hanging_worker)
    tasks = [Task(MRV, p, time_limit=0.2) for p in puzzles(6)]
    outcomes = run(tasks)
    assert [o.status for o in outcomes] == [Status.TIMEOUT if i == FAULTY else Status.SOLVED
                                            for i in range(6)]
    assert outcomes[FAULTY].termination == "walltime" and outcomes[FAULTY].time_s == 0.2
    assert "killed after" in outcomes[FAULTY].message
    pids = [o.worker for o in outcomes]
    assert pids[1] == pids[FAULTY], "the hanging run was not in the chunk of the run before it"
    assert pids[FAULTY + 1] != pids[FAULTY] and len(set(pids[FAULTY + 1:])) == 1, \
        "the rest of the chunk was not given to one fresh worker"
    assert sorted(o.sequence for o in outcomes) == list(range(6))


@pytest.mark.slow
def test_a_memory_out_in_a_chunk_is_that_runs_alone_and_the_rest_go_to_a_fresh_worker(monkeypatch) -> None:
    monkeypatch.setattr(runner, "worker_main", hungry_worker)
    tasks = [Task(MRV, p, memory_limit=1500) for p in puzzles(6)]
    outcomes = run(tasks)
    assert [o.status for o in outcomes] == [Status.MEMORY_OUT if i == FAULTY else Status.SOLVED
                                            for i in range(6)]
    pids = [o.worker for o in outcomes]
    assert pids[1] == pids[FAULTY] and pids[FAULTY + 1] != pids[FAULTY]
    assert all(o.solutions for i, o in enumerate(outcomes) if i != FAULTY)


def essentials(outcomes: list[Outcome]) -> list[tuple[object, ...]]:
    return [(o.status, o.solutions, o.complete, o.stats.get("nodes")) for o in outcomes]


@pytest.mark.slow
def test_outcomes_and_their_order_are_the_same_with_chunks_and_without(monkeypatch) -> None:
    fours = puzzles(24)
    tasks = [Task(solver, p, max_solutions=2) for p in fours[:12] for solver in (MRV, BACKTRACK)]
    tasks += [Task(MRV, p, max_solutions=2) for p in fours[12:]]  # a run of one key
    taken: list[int] = []
    real = runner._Pool._chunk

    def spied(self: runner._Pool, task: Task, worker: object) -> list[int]:
        more = real(self, task, worker)
        taken.append(len(more))
        return more

    monkeypatch.setattr(runner._Pool, "_chunk", spied)
    chunked = run(tasks, 2)
    assert max(taken) >= 4, f"no chunk of 5 runs or more was handed over: {taken}"
    monkeypatch.setattr(chunks.ChunkSizes, "size", lambda self, key, **options: 1)
    alone = run(tasks, 2)
    assert essentials(chunked) == essentials(alone)
    assert all(o.status == Status.SOLVED for o in chunked)
    assert sorted(o.sequence for o in chunked) == list(range(len(tasks)))


@pytest.mark.parametrize(("solvers", "jobs", "interleaved"), [
    ((MRV, BACKTRACK), 1, True), ((MRV,), 1, False), ((MRV, BACKTRACK), 2, False)],
    ids=["two-configurations-one-job", "one-configuration", "two-jobs"])
def test_configurations_compared_by_one_job_take_turns_in_short_chunks(
        monkeypatch, solvers: tuple[Configuration, ...], jobs: int, interleaved: bool) -> None:
    asked: set[bool] = set()
    real = chunks.ChunkSizes.size

    def spied(self: chunks.ChunkSizes, key: str, *, interleaved: bool = False) -> int:
        asked.add(interleaved)
        return real(self, key, interleaved=interleaved)

    monkeypatch.setattr(chunks.ChunkSizes, "size", spied)
    outcomes = run([Task(solver, p) for p in puzzles(6) for solver in solvers], jobs)
    assert all(o.status == Status.SOLVED for o in outcomes)
    # the first chunk may be sized before the second configuration's first task is read
    assert (True in asked) if interleaved else asked == {False}, asked
