"""``run --fail-on``: errors, timeouts and runs that gave up can fail the exit status, as a fuzz
finding's command needs; and the worker pool's keep_idle, which fuzz campaigns run on."""
from __future__ import annotations

from pathlib import Path

import pytest

from solvers.harness.engine.runner import WorkerPool
from solvers.harness.tasks import Configuration, Task

from .conftest import ROOT, compare, compare_here, load

RAISER = ["--solvers", "raiser", "--plugin", "tests/plugins/planted.py:raiser"]


# without --fail-on a run whose only failures are errors exits 0: tests/test_compare.py's
# test_errors_alone_do_not_fail_the_run_and_csv_parses (the raiser beside the reference)
@pytest.mark.parametrize(("args", "status"), [
    pytest.param(["--fail-on", "error"], 1, id="error-fails"),
    pytest.param(["--fail-on", "timeout,unknown"], 0, id="other-categories-pass", marks=pytest.mark.slow),
    pytest.param(["--fail-on", "error", "--db", "{tmp}/runs.sqlite"], 1, id="error-fails-with-db",
                 marks=pytest.mark.slow),
])
def test_a_run_that_errs_fails_the_exit_status_only_when_asked(tmp_path: Path, args: list[str], status: int) -> None:
    done = compare("run", "puzzles/small_4x4.txt", *RAISER, *[a.format(tmp=tmp_path) for a in args])
    assert done.returncode == status, done.stderr


def test_fail_on_refuses_a_category_it_does_not_know() -> None:
    done = compare_here("run", "puzzles/small_4x4.txt", "--solvers", "mrv", "--fail-on", "error,slow")
    assert done.returncode == 2
    assert "--fail-on: expected categories from error, timeout, unknown, memory-out" in done.stderr


@pytest.mark.slow
def test_keep_idle_workers_serve_alternating_keys_without_restarting() -> None:
    plugin = Configuration("reference", plugin=str(ROOT / "tests/plugins/reference.py:solve"), backend="reference")
    builtin = Configuration("mrv", backend="mrv")
    puzzle = load("small_4x4.txt")[0]
    pool = WorkerPool(2, keep_idle=True)
    try:
        workers = {outcome.worker for _ in range(5)
                   for outcome in pool.run([Task(plugin, puzzle), Task(builtin, puzzle), Task(builtin, puzzle)])}
    finally:
        pool.close()
    # never a worker per round (15 runs): the plugin's worker and at most one mrv worker per job
    # (the pool keeps idle workers of every key; a second mrv run may start while the first runs)
    assert 2 <= len(workers) <= 3
