"""A run's peak memory is its own (issue 34, item 3): what an earlier run loaded into a worker
(another backend's library, this backend's caches for a larger grid) never counts. Each run
has a worker of its configuration and grid side (tasks.Task.key; bench/bench_memory.py
measured the other ways), and each recorded peak is checked against an outside measurement:
the resident high-water mark (VmHWM) of a fresh interpreter that imports what a worker
imports, solves the same puzzle through the registry and exits, with no harness code
measuring it. Memory is compared as ratios; no test asserts a time."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from solvers import registry
from solvers.harness.engine.configs import parse_one

from .conftest import PUZZLES, ROOT, compare

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="peaks are read from /proc")
NINE = str(PUZZLES / "hardest.txt")
EASY = str(PUZZLES / "easy50.txt")
"""For every backend's peak: a 9x9 each solves in milliseconds (a worker's peak is its imports
and its model, not the search's depth; backtrack takes 0.4 s of CPU on hardest.txt's first)."""
OUTSIDE = """
import json, resource, sys
import multiprocessing.connection, solvers.harness.engine.worker  # what a worker has imported
from models import read_puzzles
from solvers import registry
puzzle = read_puzzles(sys.argv[1]).puzzles[int(sys.argv[2])]
result = registry.get(sys.argv[3]).solve(puzzle, **json.loads(sys.argv[4]))
assert result.status.value == "solved", result
own = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024)
"""
"""A fresh interpreter's peak (MB) for one solve: its own high-water mark, or its biggest
child's (an external SAT solver), as the worker counts them."""


def outside_peak(configuration: str, path: str, index: int) -> float:
    chosen = parse_one(configuration)
    done = subprocess.run([sys.executable, "-c", OUTSIDE, path, str(index), chosen.backend_name,
                           json.dumps(chosen.options_dict)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=True)
    return float(done.stdout.split()[-1])


def peaks(tmp_path: Path, name: str, *args: str) -> dict[str, list[float]]:
    """Each configuration's recorded peaks (MB) from one sweep, in the order the runs started."""
    saved = tmp_path / f"{name}.json"
    done = compare("run", *args, "--jobs", "1", "--timeout", "120", "--json", str(saved))
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, list[float]] = {}
    for run in sorted(json.loads(saved.read_text())["runs"], key=lambda run: run["sequence"]):
        found.setdefault(run["configuration"], []).append(run["peak_memory_mb"])
    return found


AFTER_CPSAT = ("sat", "mrv")


@pytest.fixture(scope="module")
def after_cpsat(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[float]]:
    """One sweep of cpsat and then each of AFTER_CPSAT (one worker at a time): each
    configuration's peaks (one launch, one OR-tools load, for every case)."""
    return peaks(tmp_path_factory.mktemp("after"), "after", NINE, "--first", "3", "--solvers",
                 ",".join(["cpsat", *AFTER_CPSAT]))


@pytest.mark.slow
@pytest.mark.parametrize("configuration", AFTER_CPSAT)
def test_a_peak_after_cpsat_loaded_or_tools_in_the_same_sweep_is_the_runs_alone(
        configuration: str, tmp_path: Path, after_cpsat: dict[str, list[float]]) -> None:
    # before: sat 144-150 MB after another configuration had run in its worker, 22.7 MB alone;
    # mrv 23 MB or 98 MB depending on whether cpsat had loaded OR-tools first
    alone = peaks(tmp_path, "alone", NINE, "--first", "3", "--solvers", configuration)[configuration]
    after = after_cpsat
    assert min(after["cpsat"]) > 2 * max(alone)  # OR-tools was loaded: this sweep tells them apart
    assert statistics.median(after[configuration]) <= 1.5 * statistics.median(alone)


@pytest.mark.slow
def test_a_small_grid_after_a_large_one_of_the_same_configuration_does_not_inherit_its_caches(
        tmp_path: Path) -> None:
    # the extended encoding of a 25x25 leaves some 130 MB of cached clauses in its process
    big = str(PUZZLES / "generated_25x25.txt")
    extended = "sat:encoding=extended"
    alone = peaks(tmp_path, "alone", NINE, "--first", "1", "--solvers", extended)[extended]
    both = peaks(tmp_path, "both", big, NINE, "--first", "1", "--solvers", extended)[extended]
    assert both[0] > 3 * alone[0]  # the 25x25 ran first and is large
    assert both[1] <= 1.5 * alone[0]


@pytest.fixture(scope="module")
def every_backend(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """One sweep of every available backend on the first 9x9 of easy50.txt: its run by backend."""
    available = [name for name in registry.names() if registry.get(name).available]
    saved = tmp_path_factory.mktemp("every") / "runs.json"
    done = compare("run", EASY, "--first", "1", "--solvers", ",".join(available), "--timeout", "120",
                   "--json", str(saved))
    assert done.returncode == 0, done.stderr[-2000:]
    return {run["configuration"]: run for run in json.loads(saved.read_text())["runs"]}


@pytest.mark.slow
def test_each_peak_agrees_with_a_fresh_interpreter_running_the_same_solve(
        backend_name: str, every_backend: dict[str, dict]) -> None:
    if backend_name not in every_backend:
        pytest.skip(f"{backend_name} is not available here: {registry.get(backend_name).unavailable()}")
    run = every_backend[backend_name]
    assert run["category"] == "correct", run
    if backend_name == "fast":  # a first fresh interpreter fills numba's cache, as the worker's prepare did
        outside_peak(backend_name, EASY, 0)  # (a compile's memory is no part of the solve's peak)
    outside = outside_peak(backend_name, EASY, 0)
    assert 0.8 * outside <= run["peak_memory_mb"] <= 1.25 * outside, (run["peak_memory_mb"], outside)


@pytest.mark.slow
def test_the_seeds_of_one_configuration_share_its_workers(tmp_path: Path) -> None:
    # a worker per seed would start (and load) one per run when seeds outnumber the idle workers kept
    saved = tmp_path / "runs.json"
    done = compare("run", NINE, "--first", "2", "--solvers", "mrv", "--seeds", "20", "--jobs", "1",
                   "--json", str(saved))
    assert done.returncode == 0, done.stderr[-2000:]
    runs = json.loads(saved.read_text())["runs"]
    assert len(runs) == 40 and len({run["worker"] for run in runs}) == 1
