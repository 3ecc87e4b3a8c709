"""One clock (issue 34, item 4): a run's ``time_s`` is the harness's wall time over the
backend's call, the sending back of its solutions left out; the worker's stamps of the call
are checked against the parent's clock (a claim of more than the parent saw is impossible
and flagged); the backend's own time is a field of its own (``backend_s``), never longer
than the call. No test here asserts a speed: the only times asserted are a planted sleep's
floor and orderings that hold by construction."""
from __future__ import annotations

import pytest

from models import Geometry, Puzzle
from solvers import registry
from solvers.harness.engine.answers import MAX_KEPT_CELLS
from solvers.harness.engine.configs import parse_one
from solvers.harness.engine.runner import run_tasks
from solvers.harness.engine.timing import Seen, judged_times
from solvers.harness.engine.worker import solve as worker_solve
from solvers.harness.tasks import Configuration, Outcome, Task, backend_seconds
from solvers.result import Status

from .conftest import ROOT, load

TIMED = ROOT / "tests" / "plugins" / "timed.py"
NINE = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."


@pytest.fixture(scope="module")
def shipped() -> dict[str, Outcome]:
    """Runs of the ``ships`` plugin (tests/plugins/timed.py) through the runner, by label:
    ``big`` answers 40,000 grids (3.2 million values, about 6 MB of JSON, built and sent after
    the call) after a planted 0.2 s; ``boasts`` says its solve took 5 s."""
    puzzle = Puzzle(Geometry.for_size(9), tuple(0 if c == "." else int(c) for c in NINE))
    configurations = {
        "big": Configuration("big", plugin=f"{TIMED}:ships", backend="ships",
                             options=(("copies", 40000), ("seconds", 0.2))),
        "boasts": Configuration("boasts", plugin=f"{TIMED}:ships", backend="ships", options=(("own", 5),)),
    }
    tasks = [Task(configuration, puzzle, 40000, 30.0) for configuration in configurations.values()]
    return dict(zip(configurations, run_tasks(tasks, jobs=2)))


@pytest.mark.slow
def test_the_call_is_timed_without_sending_its_solutions_back(shipped: dict[str, Outcome]) -> None:
    # before, the parent's span over the sending replaced the worker's time
    run = shipped["big"]
    assert len(run.solutions) == MAX_KEPT_CELLS // 81  # 12,345 of the 40,000 kept (engine/answers.py's bound)
    assert "the harness measured" not in run.message, run.message
    assert run.time_s == run.stats["wall_time"]  # the worker's stamps stood
    own = backend_seconds(run.stats, run.time_s)
    assert own is not None and 0.2 <= own <= run.time_s  # the planted sleep's floor; own inside the call


@pytest.mark.slow
def test_a_backend_claiming_more_time_than_the_call_took_has_its_own_time_left_out(
        shipped: dict[str, Outcome]) -> None:
    run = shipped["boasts"]
    assert run.stats["solve_time"] == 5 and backend_seconds(run.stats, run.time_s) is None
    assert "the backend's own clock said 5 s, longer than the" in run.message, run.message


SLOW_TO_LOAD = {"fast", "cpsat", "minizinc"}
"""Backends whose first solve costs over a second (a compile, OR-tools, the minizinc program)."""


def backend_cases() -> list:
    return [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_TO_LOAD else name
            for name in registry.names()]


@pytest.mark.parametrize("backend_name", backend_cases())
def test_every_backends_own_time_lies_within_the_harnesss_time_over_the_call(
        backend: registry.Backend) -> None:
    task = Task(parse_one(backend.name), load("small_4x4.txt")[0], max_solutions=2, time_limit=20.0)
    outcome = worker_solve(backend, task)
    assert outcome["status"] == "solved", outcome
    own = backend_seconds(outcome["stats"])
    if own is None:
        pytest.skip(f"{backend.name} reports no time of its own")
    assert own <= outcome["time_s"]
    assert backend_seconds(outcome["stats"], outcome["time_s"]) == own  # kept as backend_s


def test_stamps_outside_what_the_parent_saw_are_impossible_and_flagged() -> None:
    seen = Seen(sent=10.0, started=(10.0, 10.0), finished=(10.4, 10.4), answered=(10.5, 10.5),
                span=(9.0, 10.3))  # a call that began a second before it was handed over
    outcome = judged_times(Outcome(Status.SOLVED, time_s=1.3), seen, None, None, True)
    assert outcome.time_s == pytest.approx(0.4)  # the most the parent saw
    assert outcome.message.startswith("impossible: the call's stamps lie outside the 0.4 s the harness saw")


def test_an_answer_long_after_the_finished_mark_makes_the_whole_span_the_calls() -> None:
    # one grid sent back 3 s after the mark: not shipping, so the work counts
    seen = Seen(sent=0.0, started=(0.0, 0.0), finished=(0.01, 0.01), answered=(3.0, 3.0),
                span=(0.0, 0.01), values=81)
    outcome = judged_times(Outcome(Status.SOLVED, time_s=0.01), seen, None, None, True)
    assert outcome.time_s == 3.0 and "the harness measured 3 s" in outcome.message


def test_an_honest_call_keeps_its_stamps_however_long_the_answer_took_to_send() -> None:
    seen = Seen(sent=0.0, started=(0.0, 0.0), finished=(0.25, 0.25), answered=(2.0, 2.0),
                span=(0.0, 0.25), values=25 * 161_280)
    outcome = judged_times(Outcome(Status.SOLVED, time_s=0.25, stats={"solve_time": 0.24}), seen,
                           None, None, True)
    assert (outcome.time_s, outcome.message) == (0.25, "")
    assert backend_seconds(outcome.stats, outcome.time_s) == 0.24
