"""How runs are measured, through the real command line (issue 22): wall and CPU over the same
span, a killed run's CPU read from outside, --cpu-limit, each run's own peak memory, and where
and when each run ran. The only time rule asserted is the clock-resolution one: for a
single-threaded backend, CPU time never exceeds wall time by more than the CPU clock's
measured resolution. Caps at a limit are rules of the record, not timings."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from solvers.harness.engine.timing import cpu_clock_resolution
from solvers.harness.results.database import VERSION

from .conftest import ROOT, cli, compare, compare_here

TIMED = ROOT / "tests" / "plugins" / "timed.py"
SMALL = ".3.....4.1.....1\n.....1.2..3....1\n.1.....4...3.4..\n"
NINE = str(ROOT / "puzzles" / "easy50.txt")
SINGLE_THREADED = ["mrv", "sat", "dlx", "backtrack", "sleeps_in_bursts"]


def plugin(*functions: str) -> list[str]:
    """The --plugin options that name these functions of tests/plugins/timed.py."""
    return [word for function in functions for word in ("--plugin", f"{function}={TIMED}:{function}")]


@pytest.fixture()
def small(tmp_path: Path) -> str:
    path = tmp_path / "small.txt"
    path.write_text(SMALL)
    return str(path)


@pytest.fixture()
def one(tmp_path: Path) -> str:
    path = tmp_path / "one.txt"
    path.write_text(SMALL.splitlines()[0] + "\n")
    return str(path)


def runs_of(path: Path) -> list[dict]:
    return json.loads(path.read_text())["runs"]


@pytest.fixture(scope="module")
def single_threaded_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, list[dict]]:
    """One run of every single-threaded configuration, twice on each small puzzle (one
    compare.py for them all; each configuration still measured in its own worker): its exit
    status, stderr and runs."""
    folder = tmp_path_factory.mktemp("single")
    (folder / "small.txt").write_text(SMALL)
    out = folder / "runs.json"
    done = compare("run", str(folder / "small.txt"), *plugin("sleeps_in_bursts"), "--solvers",
                   ",".join(SINGLE_THREADED), "--timeout", "20", "--repeat", "2", "--json", str(out))
    return done.returncode, done.stderr, runs_of(out) if out.exists() else []


@pytest.mark.slow
@pytest.mark.parametrize("configuration", SINGLE_THREADED)
def test_cpu_never_exceeds_wall_by_more_than_the_clock_resolution(
        configuration: str, single_threaded_runs: tuple[int, str, list[dict]]) -> None:
    resolution = cpu_clock_resolution()
    status, stderr, every = single_threaded_runs
    assert status == 0, stderr
    runs = [r for r in every if r["configuration"] == configuration]
    assert runs and all(r["category"] == "correct" and r["cpu_s"] is not None for r in runs)
    over = [(r["cpu_s"], r["time_s"]) for r in runs if r["cpu_s"] > r["time_s"] + resolution]
    assert not over, f"CPU above wall by more than {resolution:g} s: {over}"


@pytest.mark.slow
def test_a_wall_clock_kill_records_the_cpu_read_from_outside_capped_at_the_limit(
        one: str, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    done = compare("run", one, *plugin("spins"), "--solvers", "spin=spins", "--timeout", "0.5",
                   "--jobs", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    for run in runs_of(out):
        assert run["category"] == "timeout" and run["termination"] == "walltime"
        assert run["time_s"] == 0.5
        assert run["cpu_s"] is not None and 0 < run["cpu_s"] <= 0.5  # measured, never 0.0; capped


@pytest.mark.slow
def test_cpu_limit_ends_a_spinning_run_as_a_cputime_timeout_and_spares_a_quick_one(
        one: str, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    done = compare("run", one, *plugin("spins"), "--solvers", "mrv,spin=spins", "--cpu-limit", "0.3",
                   "--timeout", "30", "--json", str(out))
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text())
    assert document["options"]["cpu_limit_s"] == 0.3
    for run in document["runs"]:
        if run["configuration"] == "mrv":
            assert run["category"] == "correct" and run["termination"] is None
        else:
            assert run["category"] == "timeout" and run["termination"] == "cputime"
            assert run["cpu_s"] == 0.3 and run["time_s"] == 30  # a timeout counts at the limits
            assert "CPU limit" in run["reason"]


@pytest.mark.slow
def test_the_wall_limit_still_ends_a_run_under_a_larger_cpu_limit(one: str, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    done = compare("run", one, *plugin("slow"), "--solvers", "nap=slow:seconds=60", "--cpu-limit", "30",
                   "--timeout", "0.3", "--jobs", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert {(r["category"], r["termination"]) for r in runs_of(out)} == {("timeout", "walltime")}


@pytest.mark.slow
def test_solve_takes_a_cpu_limit_too(one: str) -> None:
    done = compare("solve", one, *plugin("spins"), "--solver", "spins", "--cpu-limit", "0.2",
                   "--timeout", "30")
    assert done.returncode == 0, done.stderr
    assert "timeout" in done.stdout.lower()


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "ten"])
@pytest.mark.parametrize("command", ["run", "solve"])
def test_a_wrong_cpu_limit_is_exit_2(command: str, value: str, small: str, capsys: pytest.CaptureFixture[str]) -> None:
    # an argument check: the real parser in this process (compare.py's own command line runs
    # --cpu-limit in the tests above)
    status, _, err = cli(capsys, command, small, "--cpu-limit", value)
    assert status == 2 and "--cpu-limit" in err, err


@pytest.mark.slow
def test_peak_memory_is_the_runs_own_not_the_workers_lifetime(small: str, tmp_path: Path) -> None:
    # one configuration, one worker: the first puzzle's run touches 200 MB, the others none
    out = tmp_path / "runs.json"
    done = compare("run", small, *plugin("allocates"), "--solvers", "allocates:megabytes=200:first_only=true",
                   "--jobs", "1", "--timeout", "60", "--json", str(out))
    assert done.returncode == 0, done.stderr
    runs = sorted(runs_of(out), key=lambda r: r["sequence"])
    assert len({r["worker"] for r in runs}) == 1  # one worker served them all, in turn
    assert runs[0]["peak_memory_mb"] > 200
    assert all(run["peak_memory_mb"] is not None and run["peak_memory_mb"] < 200 for run in runs[1:])


@pytest.fixture(scope="module")
def saved_sweep(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A sweep of mrv and sat, twice on each small puzzle, saved as JSON and CSV (only read)."""
    folder = tmp_path_factory.mktemp("saved")
    (folder / "small.txt").write_text(SMALL)
    out, csv = folder / "runs.json", folder / "runs.csv"
    done = compare("run", str(folder / "small.txt"), "--solvers", "mrv,sat", "--repeat", "2", "--json", str(out),
                   "--csv", str(csv))
    assert done.returncode == 0, done.stderr
    return out, csv


@pytest.mark.slow
def test_each_run_records_host_worker_and_order_and_the_sweep_its_load(saved_sweep: tuple[Path, Path]) -> None:
    out, csv = saved_sweep
    document = json.loads(out.read_text())
    runs = document["runs"]
    assert sorted(r["sequence"] for r in runs) == list(range(len(runs)))
    assert all(r["host"] == document["machine"]["host"] and isinstance(r["worker"], int) for r in runs)
    assert all(len(document["load"][when]) == 3 for when in ("started", "ended"))
    header = csv.read_text().splitlines()[0].split(",")
    assert {"peak_memory_mb", "termination", "host", "worker", "sequence"} <= set(header)


@pytest.fixture(scope="module")
def database_sweep(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The small puzzles' file and a database a sweep of mrv under a CPU limit wrote into."""
    folder = tmp_path_factory.mktemp("database")
    (folder / "small.txt").write_text(SMALL)
    db = folder / "runs.sqlite"
    assert compare("run", str(folder / "small.txt"), "--solvers", "mrv", "--cpu-limit", "5",
                   "--db", str(db)).returncode == 0
    return str(folder / "small.txt"), db


@pytest.mark.slow
def test_a_version_1_database_is_migrated_and_keeps_its_runs(database_sweep: tuple[str, Path],
                                                             tmp_path: Path) -> None:
    small, db = database_sweep[0], tmp_path / "runs.sqlite"
    shutil.copyfile(database_sweep[1], db)  # a copy of what a sweep wrote
    with sqlite3.connect(db) as connection:  # make it what version 1 wrote
        for column in ("peak_memory_mb", "termination", "host", "worker", "sequence", "proof",
                       "verified_solutions", "order"):
            connection.execute(f'ALTER TABLE runs DROP COLUMN "{column}"')
        connection.execute("UPDATE format SET value = '1' WHERE key = 'version'")
    connection.close()
    done = compare_here("report", "--db", str(db), "--format", "json")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as connection:
        version = connection.execute("SELECT value FROM format WHERE key = 'version'").fetchone()[0]
        host = connection.execute("SELECT COUNT(*) FROM runs WHERE host IS NULL").fetchone()[0]
    connection.close()
    assert version == str(VERSION) and host == 3
    resumed = compare("run", small, "--solvers", "mrv,sat", "--cpu-limit", "5", "--db", str(db), "--resume")
    assert resumed.returncode == 0, resumed.stderr


@pytest.mark.slow
def test_a_database_sweep_keeps_the_measures_and_the_load(database_sweep: tuple[str, Path]) -> None:
    with sqlite3.connect(database_sweep[1]) as connection:
        rows = connection.execute("SELECT host, worker, sequence, peak_memory_mb FROM runs").fetchall()
        provenance = json.loads(connection.execute("SELECT provenance FROM sweeps").fetchone()[0])
    connection.close()
    assert len(rows) == 3 and all(host and worker and sequence is not None for host, worker, sequence, _ in rows)
    assert provenance["load"]["started"] and provenance["load"]["ended"]


@pytest.mark.slow
def test_a_wrong_peak_memory_in_a_saved_run_is_refused_by_report(saved_sweep: tuple[Path, Path],
                                                                tmp_path: Path) -> None:
    out = tmp_path / "runs.json"  # a copy of a saved sweep, with one value changed
    document = json.loads(saved_sweep[0].read_text())
    document["runs"][0]["peak_memory_mb"] = "lots"
    out.write_text(json.dumps(document))
    done = compare_here("report", str(out))
    assert done.returncode == 2 and "peak_memory_mb" in done.stderr
