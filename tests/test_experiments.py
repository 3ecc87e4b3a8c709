"""Experiments end to end through the command line: configurations, sound timing, scores,
paired reports, analysis-ready output, plots, and no lost work (issue 10).

The planted plugins in tests/plugins/timed.py answer correctly in a planted time, so
these tests need none of the built-in backends; no test asserts how long anything took.
"""
from __future__ import annotations

import csv
import io
import json
import os
import pty
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from solvers.harness.results.records import CSV_COLUMNS

from .conftest import ROOT, compare, compare_here, interruptible, puzzle_file

PLUGINS = ROOT / "tests" / "plugins"
REFERENCE = f"ref={PLUGINS / 'reference.py'}:solve"
TIMED = PLUGINS / "timed.py"
SLEEPER = f"sleeper={PLUGINS / 'planted.py'}:sleeper"
PUZZLES = (".1.2...3.....4..", "..42......3..4..", "....34......23.4")



def timed(name: str) -> str:
    return f"{name}={TIMED}:{name}"


@pytest.fixture()
def puzzles(tmp_path: Path) -> str:
    return puzzle_file(tmp_path, *PUZZLES, name="small.txt")


def saved(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- configurations

@pytest.fixture(scope="module")
def configured_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One saved run (read only by its tests) of the planted plugin under two configurations
    and of mrv under one, with a seed and a limit of its own: one launch for the four tests
    of what a saved run keeps and how it is reported."""
    folder = tmp_path_factory.mktemp("configured")
    out = folder / "run.json"
    done = compare("run", puzzle_file(folder, *PUZZLES, name="small.txt"), "--plugin", timed("slow"),
                   "--solvers", "quick=slow:seconds=0,lazy=slow:seconds=0.01,s=mrv:inference=singles",
                   "--json", str(out), "--seed", "7", "--timeout", "3")
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.slow
def test_one_plugin_runs_under_two_configurations_and_the_json_keeps_their_options(configured_run: Path) -> None:
    document = saved(configured_run)
    runs = [r for r in document["runs"] if r["configuration"] != "s"]  # the plugin's
    options = {(r["configuration"], json.dumps(r["options"])) for r in runs}
    assert options == {("quick", '{"seconds": 0}'), ("lazy", '{"seconds": 0.01}')}
    assert {r["backend"] for r in runs} == {"slow"}
    assert [c["configuration"] for c in document["configurations"]] == ["quick", "lazy", "s"]


@pytest.mark.slow
def test_the_json_keeps_each_configurations_resolved_options(configured_run: Path) -> None:
    from solvers import registry

    (described,) = [c for c in saved(configured_run)["configurations"] if c["configuration"] == "s"]
    assert described["options"] == {"inference": "singles"}
    assert described["resolved_options"]["inference"] == "singles"
    assert set(described["resolved_options"]) == set(registry.get("mrv").options)


@pytest.mark.parametrize("command", ["run", "solve", "export"])
def test_a_bad_configuration_exits_2_in_every_command(command: str, puzzles: str) -> None:
    flag = "--solvers" if command == "run" else "--solver"
    done = compare_here(command, puzzles, flag, "sat:encoding=tseitin")
    assert done.returncode == 2 and "valid: " in done.stderr, done.stderr


# ---------------------------------------------------------------- sound timing

@pytest.fixture(scope="module")
def late_runs(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """The runs of one sweep under a 0.3 s limit of the planted plugin that answers past its
    limit and of the one that gives up (each in its own worker): one launch for both cases."""
    folder = tmp_path_factory.mktemp("late")
    out = folder / "run.json"
    done = compare("run", puzzle_file(folder, *PUZZLES, name="small.txt"), "--plugin", timed("late"),
                   "--plugin", timed("gives_up"), "--solvers", "late,gives_up", "--timeout", "0.3",
                   "--json", str(out))
    assert done.returncode == 0, done.stderr
    return saved(out)["runs"]


@pytest.mark.slow
@pytest.mark.parametrize("plugin, message", [("late", "past the limit"), ("gives_up", "planted timeout")])
def test_a_run_past_its_limit_or_giving_up_is_a_timeout_at_the_limit(
        plugin: str, message: str, late_runs: list[dict]) -> None:
    runs = [run for run in late_runs if run["configuration"] == plugin]
    assert len(runs) == len(PUZZLES)
    for run in runs:
        assert (run["category"], run["time_s"]) == ("timeout", 0.3), run
        assert message in run["message"]


@pytest.mark.slow
def test_a_killed_sleeper_is_recorded_at_the_limit_and_scores_par2_at_twice_it(
        puzzles: str, tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", puzzles, "--plugin", REFERENCE, "--plugin", SLEEPER, "--solvers", "ref,sleeper",
                   "--timeout", "0.5", "--json", str(out), "--format", "csv")
    assert done.returncode == 0, done.stderr
    summary = {r["configuration"]: r for r in csv.DictReader(io.StringIO(done.stdout))}
    assert float(summary["sleeper"]["par2"]) == 1.0
    assert float(summary["ref"]["par2"]) < 0.5
    assert {r["time_s"] for r in saved(out)["runs"] if r["configuration"] == "sleeper"} == {0.5}
    scores = compare_here("report", str(out), "--scores", "--par", "10", "--format", "json")
    rows = {r["configuration"]: r for r in json.loads(scores.stdout)}
    assert rows["sleeper"]["par10"] == 5.0 and rows["sleeper"]["solved"] == 0
    assert rows["virtual best"]["solved"] == len(PUZZLES)
    assert rows["virtual best"]["par10"] == rows["ref"]["par10"]


@pytest.mark.slow
def test_repeat_records_every_repetition_and_marks_warmups(puzzles: str, tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", puzzles, "--plugin", REFERENCE, "--solvers", "ref", "--repeat", "3", "--jobs", "1",
                   "--json", str(out), "--format", "csv")
    assert done.returncode == 0, done.stderr
    runs = saved(out)["runs"]
    assert sorted(r["repeat"] for r in runs) == sorted(list(range(3)) * len(PUZZLES))
    assert sum(r["warmup"] for r in runs) == 1  # one worker, one configuration
    assert all(r["cpu_s"] >= 0 for r in runs)
    row = next(csv.DictReader(io.StringIO(done.stdout)))
    assert (row["runs"], row["puzzles"]) == (str(3 * len(PUZZLES)), str(len(PUZZLES)))
    assert row["iqr_s"] != "" and float(row["mean_s_low"]) <= float(row["mean_s"]) <= float(row["mean_s_high"])
    again = compare_here("report", str(out), "--exclude-warmup", "--format", "csv")
    assert next(csv.DictReader(io.StringIO(again.stdout)))["runs"] == str(3 * len(PUZZLES) - 1)


# ---------------------------------------------------------------- analysis-ready output

@pytest.mark.slow
@pytest.mark.parametrize("flags", [(), ("--unique", "--repeat", "2")])
def test_the_per_run_csv_has_one_schema_whatever_the_flags(flags: tuple[str, ...], puzzles: str,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "runs.csv"
    done = compare("run", puzzles, "--plugin", REFERENCE, "--solvers", "ref", "--csv", str(out), *flags)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert {(r["file"], r["n"], r["box"], r["variant"]) for r in rows} == {(puzzles, "4", "2x2", "standard")}
    assert rows[0]["conflicts"] == ""  # a counter this backend lacks stays empty


@pytest.mark.slow
def test_two_files_of_one_name_stay_apart(tmp_path: Path) -> None:
    paths = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "set.txt"
        path.write_text(PUZZLES[0] + "\n")
        paths.append(str(path))
    done = compare("run", *paths, "--plugin", REFERENCE, "--solvers", "ref", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert [r["file"] for r in csv.DictReader(io.StringIO(done.stdout))] == paths


@pytest.mark.slow
def test_provenance_is_saved_with_every_run(configured_run: Path) -> None:
    document = saved(configured_run)
    assert document["toolkit"]["version"] == compare_here("--version").stdout.split()[-1]
    assert (document["limit_s"], document["repeat"], document["seed"]) == (3.0, 1, 7)
    assert document["python"]["version"] and document["machine"]["cpu"]
    assert "tabulate" in document["packages"] and document["partial"] is False
    if Path("/proc/cpuinfo").exists():  # the CPU's flags say which instructions compiled code could use
        assert " sse2 " in f" {document['machine']['cpu_flags']} "
    build = document["builds"]["python-sat"]  # python-sat's build, not only its version
    assert build is None or len(build["record_sha256"]) == 16
    if (ROOT / ".git").exists():
        git = document["toolkit"]["git"]
        assert len(git["commit"]) == 40 and isinstance(git["dirty"], bool)
        assert git["clean"] == (not git["dirty"] and not git["untracked"])


@pytest.mark.slow
def test_the_teaching_pivot_has_one_row_per_puzzle_and_a_column_per_configuration(configured_run: Path) -> None:
    done = compare_here("report", str(configured_run), "--per-puzzle", "--pivot", "configuration", "--field",
                        "nodes", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["puzzle"] for r in rows] == ["1", "2", "3"]  # counted from 1, as --puzzle counts
    assert {"quick", "lazy", "s"} <= set(rows[0])
    assert rows[0]["quick"] == rows[0]["lazy"]  # one solver under two configurations: the same search


# ---------------------------------------------------------------- paired reports

@pytest.fixture(scope="module")
def saved_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The module's saved runs, each made once by compare.py and only read by the tests: the
    planted plugin at no delay under 5 s ("old") and under 4 s ("limit 4"), at 0.05 s a puzzle
    ("slower"), and one run of two configurations at 0 and 0.05 s ("two")."""
    tmp = tmp_path_factory.mktemp("saved")
    puzzles = puzzle_file(tmp, *PUZZLES, name="small.txt")
    runs = {"old": ("s=slow:seconds=0", "5"), "limit 4": ("s=slow:seconds=0", "4"),
            "slower": ("s=slow:seconds=0.05", "5"), "two": ("quick=slow:seconds=0,lazy=slow:seconds=0.05", "5")}
    paths = {}
    for name, (solvers, timeout) in runs.items():
        path = tmp / f"{name.replace(' ', '_')}.json"
        done = compare("run", puzzles, "--plugin", timed("slow"), "--solvers", solvers, "--json", str(path),
                       "--timeout", timeout)
        assert done.returncode == 0, done.stderr
        paths[name] = str(path)
    return paths


@pytest.mark.slow
def test_a_paired_report_on_two_saved_runs(saved_runs: dict[str, str]) -> None:
    old, new = saved_runs["old"], saved_runs["slower"]
    done = compare_here("report", old, new, "--format", "json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)["paired"]
    assert (row["configuration"], row["pairs"], row["losses"], row["wins"]) == ("s", 3, 3, 0)
    assert row["ratio"] > 1 and row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
    assert row["sign_p"] == 0.25  # 3 losses of 3: two-sided exact binomial
    table = compare_here("report", old, new)
    assert "new/old (geo. mean)" in table.stdout and "sign test p" in table.stdout


@pytest.mark.slow
def test_two_configurations_of_one_run_pair_with_pair(saved_runs: dict[str, str]) -> None:
    out = saved_runs["two"]
    done = compare_here("report", out, "--pair", "quick,lazy", "--format", "json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert (row["configuration"], row["losses"], row["wins"]) == ("lazy vs quick", 3, 0)
    wrong = compare_here("report", out, "--pair", "quick,nosuch")
    assert wrong.returncode == 2 and "no runs of configuration 'nosuch'" in wrong.stderr


@pytest.mark.slow
@pytest.mark.parametrize("difference, reason", [("limit", "the limits differ"),
                                                ("puzzles", "the puzzles differ")])
def test_a_paired_report_refuses_runs_that_differ(difference: str, reason: str, saved_runs: dict[str, str],
                                                  tmp_path: Path) -> None:
    old = saved_runs["old"]
    if difference == "limit":
        new = saved_runs["limit 4"]
    else:  # the same run less its first puzzle
        document = saved(Path(old))
        document["runs"] = document["runs"][1:]
        new = str(tmp_path / "fewer.json")
        Path(new).write_text(json.dumps(document))
    done = compare_here("report", old, new)
    assert done.returncode == 2 and reason in done.stderr, done.stderr


# ---------------------------------------------------------------- pictures

@pytest.mark.slow
@pytest.mark.parametrize("kind, extra", [("cactus", ("--title", "Two configurations")),
                                         ("scatter", ("--x", "quick", "--y", "lazy"))])
def test_plots_from_a_saved_run(kind: str, extra: tuple[str, ...], saved_runs: dict[str, str],
                                tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need matplotlib")
    picture = tmp_path / f"{kind}.svg"
    done = compare_here("plot", kind, saved_runs["two"], "-o", str(picture), *extra)
    assert done.returncode == 0, done.stderr
    assert picture.read_text().lstrip().startswith("<?xml")


# ---------------------------------------------------------------- no lost work, no surprises

@pytest.mark.parametrize("flag, path, reason", [
    ("--json", "missing/run.json", "does not exist"),
    ("--plot", "run.gif", "unknown plot format 'gif'"),
    ("--csv", "INPUT", "refusing to write over one of the inputs"),
])
def test_bad_output_paths_exit_2_before_the_first_run(flag: str, path: str, reason: str,
                                                      puzzles: str, tmp_path: Path) -> None:
    target = puzzles if path == "INPUT" else str(tmp_path / path)
    before = Path(puzzles).read_text()
    done = compare_here("run", puzzles, "--plugin", SLEEPER, "--solvers", "sleeper", "--timeout", "60",
                        flag, target)
    assert done.returncode == 2 and reason in done.stderr, done.stderr
    assert Path(puzzles).read_text() == before  # the input is untouched


@pytest.mark.slow
def test_ctrl_c_saves_what_finished_as_partial_and_exits_130(puzzles: str, tmp_path: Path) -> None:
    out, mark = tmp_path / "run.json", tmp_path / "sleeping"
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "compare.py"), "run", puzzles, "--plugin", REFERENCE,
         "--plugin", SLEEPER, "--solvers", "ref,sleeper", "--jobs", "1", "--timeout", "120", "--json", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "SLEEPER_MARK": str(mark)}, preexec_fn=interruptible)
    deadline = time.monotonic() + 120  # the sweep is under way once the sleeper holds its worker
    while not mark.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and "partial" in stderr
    document = saved(out)
    assert document["partial"] is True
    assert len(document["runs"]) < 2 * len(PUZZLES)


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly() -> None:
    done = subprocess.run(f"'{sys.executable}' compare.py list | head -c 10", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stderr == "" and len(done.stdout) == 10


@pytest.mark.parametrize("word, hint", [("rn", "did you mean 'run'"), ("repot", "did you mean 'report'"),
                                        ("xyzzy", "commands: run")])
def test_a_mistyped_command_suggests_the_nearest(word: str, hint: str) -> None:
    done = compare_here(word)
    assert done.returncode == 2 and "unknown command" in done.stderr and hint in done.stderr


@pytest.mark.slow
def test_input_format_is_the_name_and_fmt_still_works(puzzles: str) -> None:
    for flag in ("--input-format", "--fmt"):
        done = compare("run", puzzles, "--plugin", REFERENCE, "--solvers", "ref", flag, "line")
        assert done.returncode == 0, done.stderr
    assert "--input-format" in compare_here("run", "--help").stdout


@pytest.mark.slow
def test_solve_on_a_terminal_says_it_reads_stdin() -> None:
    controller, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, str(ROOT / "compare.py"), "solve", "--plugin", REFERENCE],
                               cwd=ROOT, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    os.write(controller, (PUZZLES[0] + "\n").encode() + b"\x04")
    stdout, stderr = process.communicate(timeout=120)
    os.close(controller)
    os.close(terminal)
    assert "reading puzzles from standard input" in stderr
    assert process.returncode == 0 and "solved by ref" in stdout, stderr


def test_the_console_script_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["sudoku-compare"] == "solvers.harness.cli:main"


def _has_build_backend() -> bool:
    """Whether this interpreter has the setuptools pyproject.toml asks for to build."""
    (required,) = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    try:
        import setuptools
    except ImportError:
        return False
    return required.startswith("setuptools>=") and (
        int(setuptools.__version__.split(".")[0]) >= int(required.removeprefix("setuptools>=")))


@pytest.mark.slow
def test_an_installed_copy_finds_its_bundled_puzzles_from_any_folder(tmp_path: Path) -> None:
    target = tmp_path / "site"
    # the test extra installs the build backend: building beside it, not in an isolated
    # environment of its own, saves installing setuptools again (3-4 s of CPU)
    isolation = ["--no-build-isolation"] if _has_build_backend() else []
    built = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", *isolation, "--target",
                            str(target), str(ROOT)], capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        pytest.skip(f"pip could not build the package here: {built.stderr.strip()[-200:]}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, str(target / "bin" / "sudoku-compare"), "run",
                           "--plugin", REFERENCE, "--solvers", "ref"], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "default.txt" in done.stdout


# ---------------------------------------------------------------- the bench scripts

def bench(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


BACKENDS_ARGS = ("--sets", "generated_4x4.txt", "--limit", "2")
SCALING_ARGS = ("--sizes", "4", "--per-size", "2")


@pytest.mark.slow
@pytest.mark.parametrize("script, args, plugin, status", [
    *[("bench_backends.py", BACKENDS_ARGS, plugin, status)
      for plugin, status in (("invalid_grid", 1), ("raiser", 1), (None, 0))],
    # bench_scaling.py passes an errored run's status through as it passes a solved one's (the
    # wrong answer is its own check) to common.exit_status, which the raiser case above covers:
    # a wrong and a clean run here (each a plot, 1-1.5 s of CPU for matplotlib alone)
    *[("bench_scaling.py", SCALING_ARGS, plugin, status) for plugin, status in (("invalid_grid", 1), (None, 0))],
])
def test_bench_scripts_take_configurations_and_fail_on_a_wrong_or_errored_run(
        script: str, args: tuple[str, ...], plugin: str | None, status: int, tmp_path: Path) -> None:
    chosen = ["--solvers", "ref:seconds=0" if plugin is None else f"ref,{plugin}"]
    planted = [] if plugin is None else ["--plugin", f"{PLUGINS / 'planted.py'}:{plugin}"]
    outputs = ["--json", str(tmp_path / "s.json"), "--plot", str(tmp_path / "s.png")] \
        if script == "bench_scaling.py" else []
    done = bench(script, "--plugin", REFERENCE, *planted, *chosen, *args, *outputs)
    assert done.returncode == status, done.stderr
    if status:
        assert "wrong or errored" in done.stderr


def test_a_bench_script_refuses_a_bad_configuration_before_running() -> None:
    done = bench("bench_backends.py", "--solvers", "mrv:colour=red")
    assert done.returncode == 2 and "unknown option 'colour'" in done.stderr
