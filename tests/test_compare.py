"""compare.py end to end, through the command line, as a user runs it.

The planted backends in tests/plugins/ each fail in one way; the reference plugin is a
small trusted solver, so these tests need none of the built-in backends.
"""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from models import parse_puzzle, read_puzzles, verify
from solvers import registry

from .conftest import ROOT, compare, compare_here, puzzle_file

PLUGINS = ROOT / "tests" / "plugins"
REFERENCE = f"{PLUGINS / 'reference.py'}:solve"
PLANTED = PLUGINS / "planted.py"

HARD_9X9 = ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8......."
SMALL_4X4 = ".3.....4.1.....1"
OTHER_4X4 = ".....1.2..3....1"
UNSOLVABLE = "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3.."
TWO_SOLUTIONS = ".39...12....9.7...8..4.1..6.42...79...........91...54.5..1.9..3...8.5....14...87."

# planted plugin -> the category every one of its runs must get
PLANTED_CATEGORIES = {
    "invalid_grid": "wrong", "changes_given": "wrong", "false_unsat": "wrong",
    "sleeper": "timeout", "raiser": "error", "exits": "error", "self_kill": "error",
    "not_a_result": "error",
}



def planted(name: str) -> str:
    return f"{PLANTED}:{name}"


# ---------------------------------------------------------------- the default run

@pytest.mark.slow
def test_default_run_tabulates_every_available_backend() -> None:
    available = registry.available_names()
    done = compare()
    if not available:
        assert done.returncode == 2
        assert "no backend to run" in done.stderr
        return
    assert done.returncode == 0, done.stdout + done.stderr
    table = done.stdout.split("\n\n")[0]
    for name in available:
        assert f" {name} " in table
    assert "default.txt 9x9" in table  # 9x9 only: a first run compiles fast's 9x9 kernel alone
    assert "wrong" in table and "Disagreement" not in done.stdout


# each package a backend imports, hidden from compare.py and its workers (sys.modules[name] =
# None: find_spec answers None and an import fails), as on a machine with only some installed
HIDDEN = ("ortools", "pycosat", "constraint", "highspy", "pysat", "numba", "clingo", "pychoco")


@pytest.mark.slow  # four interpreters: 1.6 s of CPU
def test_every_backend_run_without_some_packages_says_which_it_left_out_and_the_extra(
        tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in HIDDEN))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PATH": str(tmp_path)}  # no dimacs, no minizinc
    done = compare("run", puzzle_file(tmp_path, SMALL_4X4), env=env)
    assert done.returncode == 0, done.stderr
    left = dict(line.strip().split(": ", 1) for line in done.stderr.splitlines() if line.startswith("  "))
    assert set(left) == set(registry.names()) - {"backtrack", "mrv", "dlx"}, done.stderr
    assert "sudoku-methods[pysat]" in left["pysat"] and "sudoku-methods[cp]" in left["asp"]
    assert "pip install ortools" in left["cpsat"]
    table = done.stdout.split("\n\n")[0]
    assert all(f" {name} " in table for name in ("backtrack", "mrv", "dlx"))
    assert not any(f" {name} " in table for name in left)


@pytest.mark.slow
def test_default_set_with_a_plugin_is_all_correct(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", "--plugin", REFERENCE, "--solvers", "reference", "--json", str(out))
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text())
    default = read_puzzles(ROOT / "puzzles" / "default.txt")
    assert not default.errors
    assert {p.n for p in default.puzzles} == {9}
    assert len(document["runs"]) == len(default.puzzles)
    assert {r["category"] for r in document["runs"]} == {"correct"}
    rows = {(row["set"], row["backend"]): row for row in document["summary"]}
    assert rows[("default.txt 9x9", "reference")]["solved"] == len(default.puzzles)


# ---------------------------------------------------------------- planted wrong backends

@pytest.fixture(scope="module")
def planted_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict]:
    tmp = tmp_path_factory.mktemp("planted")
    path = puzzle_file(tmp, OTHER_4X4, SMALL_4X4)  # one side: one worker per configuration
    out = tmp / "run.json"
    plugins = [arg for name in PLANTED_CATEGORIES for arg in ("--plugin", planted(name))]
    done = compare("run", path, "--plugin", REFERENCE, *plugins, "--solvers", "reference",
                   "--timeout", "1", "--jobs", "2", "--json", str(out))
    return done, json.loads(out.read_text())


def test_planted_run_exits_1_and_keeps_every_run(planted_run) -> None:
    done, document = planted_run
    assert done.returncode == 1, done.stderr
    solvers = ["reference", *PLANTED_CATEGORIES]
    assert [(r["index"], r["solver"]) for r in document["runs"]] == [
        (index, solver) for index in (0, 1) for solver in solvers]


@pytest.mark.parametrize("solver", PLANTED_CATEGORIES)
def test_planted_backend_is_categorised(planted_run, solver: str) -> None:
    _, document = planted_run
    runs = [r for r in document["runs"] if r["solver"] == solver]
    assert [r["category"] for r in runs] == [PLANTED_CATEGORIES[solver]] * 2, runs


def test_reference_stays_correct_beside_the_planted_ones(planted_run) -> None:
    _, document = planted_run
    for run in (r for r in document["runs"] if r["solver"] == "reference"):
        assert run["category"] == "correct"
        assert verify(parse_puzzle(run["puzzle"]), parse_puzzle(run["solutions"][0]).givens).ok


@pytest.mark.parametrize("solver, words", [
    ("invalid_grid", "duplicate"), ("changes_given", "given"),
    ("false_unsat", "claims no solution, but reference"), ("sleeper", "killed after"),
    ("raiser", "planted failure in raiser"), ("exits", "exit code 3"), ("self_kill", "SIGKILL"),
    ("not_a_result", "not a Result"),
])
def test_planted_failure_says_why(planted_run, solver: str, words: str) -> None:
    _, document = planted_run
    for run in (r for r in document["runs"] if r["solver"] == solver):
        assert words in run["reason"], run


def test_disagreement_report_names_puzzle_claims_and_reasons(planted_run) -> None:
    done, document = planted_run
    assert [d["puzzle"] for d in document["disagreements"]] == [OTHER_4X4, SMALL_4X4]
    for puzzle in (OTHER_4X4, SMALL_4X4):
        assert f"  {puzzle}\n" in done.stdout
    assert "false_unsat    no solution" in done.stdout


def test_timeout_is_recorded_with_its_time(planted_run) -> None:
    _, document = planted_run
    for run in (r for r in document["runs"] if r["solver"] == "sleeper"):
        assert run["status"] == "timeout" and run["time_s"] >= 1.0


def test_json_has_the_documented_keys(planted_run) -> None:
    _, document = planted_run
    assert {"python", "machine", "backends", "options", "runs"} <= set(document)
    assert document["machine"]["cores"] >= 1 and document["python"]["version"]
    assert document["options"]["timeout_s"] == 1.0 and document["options"]["jobs"] == 2
    for run in document["runs"]:
        assert {"file", "index", "puzzle", "solver", "status", "solutions", "complete", "time_s",
                "stats", "category"} <= set(run)
        assert run["status"] in ("solved", "unsat", "timeout", "error")
        assert run["category"] in ("correct", "wrong", "timeout", "error")
        assert isinstance(run["stats"], dict) and isinstance(run["solutions"], list)


# ---------------------------------------------------------------- claims checked against each other

@pytest.mark.slow
def test_unique_claim_contradicted_by_two_solutions_is_wrong(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", puzzle_file(tmp_path, TWO_SOLUTIONS), "--unique", "--plugin", REFERENCE,
                   "--plugin", planted("false_unique"), "--solvers", "reference", "--json", str(out))
    assert done.returncode == 1
    runs = {r["solver"]: r for r in json.loads(out.read_text())["runs"]}
    assert runs["reference"]["category"] == "correct" and len(runs["reference"]["solutions"]) == 2
    assert runs["false_unique"]["category"] == "wrong"
    assert "multiple" in done.stdout.splitlines()[0]


@pytest.mark.slow
def test_true_unsat_claim_beside_a_plugin_is_correct_and_proved(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", puzzle_file(tmp_path, UNSOLVABLE), "--plugin", REFERENCE,
                   "--plugin", planted("false_unsat"), "--solvers", "reference", "--json", str(out))
    assert done.returncode == 0, done.stdout
    runs = {r["solver"]: r for r in json.loads(out.read_text())["runs"]}
    assert runs["reference"]["status"] == runs["false_unsat"]["status"] == "unsat"
    assert runs["false_unsat"]["category"] == "correct"
    assert "also claimed by reference" in runs["false_unsat"]["reason"]
    # but a plugin's agreement proves nothing: the judge's reference method proved it
    assert runs["false_unsat"]["proof"] == runs["reference"]["proof"] == "proved"
    assert "DRUP proof checked" in runs["false_unsat"]["reason"]


@pytest.mark.slow
def test_errors_alone_do_not_fail_the_run_and_csv_parses(tmp_path: Path) -> None:
    done = compare("run", puzzle_file(tmp_path, SMALL_4X4), "--plugin", REFERENCE,
                   "--plugin", planted("raiser"), "--solvers", "reference", "--format", "csv")
    assert done.returncode == 0
    rows = {r["backend"]: r for r in csv.DictReader(io.StringIO(done.stdout))}
    assert rows["reference"]["solved"] == "1" and rows["raiser"]["errors"] == "1"
    assert "planted failure" in done.stderr


# ---------------------------------------------------------------- bad input and usage

@pytest.mark.slow
def test_bad_puzzles_exit_2_with_location_and_the_good_ones_run(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", "puzzles/malformed.txt", "--plugin", REFERENCE, "--solvers", "reference",
                   "--json", str(out))
    assert done.returncode == 2
    assert "puzzles/malformed.txt, line 5: bad character 'x'" in done.stderr
    assert "puzzles/malformed.txt, line 15: duplicate 6" in done.stderr
    document = json.loads(out.read_text())
    assert [r["category"] for r in document["runs"]] == ["correct"] * 3
    assert len(document["input_errors"]) == len(read_puzzles(ROOT / "puzzles/malformed.txt").errors)


@pytest.mark.slow
@pytest.mark.parametrize("args, words", [
    (["run", "no/such/file.txt", "--plugin", REFERENCE], "no/such/file.txt: no such file"),
    (["run", "--solvers", "nosuch"], "unknown backend 'nosuch'; valid backends: backtrack"),
    (["run", "--plugin", "tests/plugins/planted.py:nosuch"], "has no function 'nosuch'"),
    (["run", "--timeout", "-1"], "must be a positive number"),
])
def test_bad_usage_exits_2_and_says_why(args: list[str], words: str) -> None:
    done = compare_here(*args)
    assert done.returncode == 2
    assert words in done.stderr


@pytest.mark.slow
def test_run_reads_stdin() -> None:
    done = compare("run", "-", "--plugin", REFERENCE, "--solvers", "reference", "--format", "markdown",
                   stdin=SMALL_4X4 + "\n" + HARD_9X9 + "\n")
    assert done.returncode == 0
    assert "| <stdin> 4x4" in done.stdout and "| <stdin> 9x9" in done.stdout


# ---------------------------------------------------------------- solve, list, export, report

@pytest.mark.slow
def test_solve_prints_known_solutions_in_line_format() -> None:
    seeds = (ROOT / "puzzles/seeds.txt").read_text()
    done = compare("solve", "-", "--plugin", REFERENCE, "--format", "line", stdin=seeds)
    assert done.returncode == 0
    lines = [line for line in done.stdout.splitlines() if line and not line.startswith("#")]
    known = read_puzzles(ROOT / "puzzles/seeds.solutions.txt").puzzles
    assert [parse_puzzle(line).givens for line in lines] == [p.givens for p in known]


@pytest.mark.slow
def test_solve_pretty_says_givens_unique_and_no_solution(tmp_path: Path) -> None:
    done = compare("solve", puzzle_file(tmp_path, SMALL_4X4, UNSOLVABLE, TWO_SOLUTIONS),
                   "--plugin", REFERENCE, "--unique")
    assert done.returncode == 0
    blocks = done.stdout.split("\n\n")
    assert "4x4, 4 givens" in blocks[0] and "+-----+-----+" in blocks[0]
    assert "; unique" in blocks[0]
    assert "no solution: proved by reference" in blocks[1]
    assert "NOT unique" in blocks[2]


def test_list_names_every_registered_backend() -> None:
    done = compare_here("list", "--format", "json")
    assert done.returncode == 0
    rows = json.loads(done.stdout)
    assert [r["backend"] for r in rows] == registry.names()
    for row in rows:
        assert row["available"] == "yes" or row["available"].startswith("no: ")


@pytest.mark.parametrize("name", [name for name in registry.names() if registry.get(name).declaration.program])
def test_list_names_the_program_a_backend_runs_as_what_it_needs(name: str) -> None:
    done = compare_here("list", name)
    assert done.returncode == 0, done.stderr
    needs = next(line for line in done.stdout.splitlines() if line.startswith("needs:"))
    assert "nothing beyond Python" not in needs and "program" in needs, needs


def test_export_writes_dimacs(tmp_path: Path) -> None:
    out = tmp_path / "puzzle.cnf"
    done = compare_here("export", puzzle_file(tmp_path, HARD_9X9), "-o", str(out))
    assert done.returncode == 0, done.stderr
    header = next(line for line in out.read_text().splitlines() if line.startswith("p "))
    assert header.split()[:2] == ["p", "cnf"]


@pytest.mark.slow
def test_report_reprints_and_compares_saved_runs(planted_run, tmp_path: Path) -> None:
    _, document = planted_run
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document))
    again = compare_here("report", str(old), "--format", "json")
    assert again.returncode == 1  # the saved run holds wrong answers
    assert json.loads(again.stdout)["summary"] == document["summary"]

    slower = json.loads(json.dumps(document))  # as if false_unsat now ran out of time instead
    for run in slower["runs"]:
        if run["solver"] == "false_unsat":
            run.update(status="timeout", category="timeout", solutions=[], time_s=1.5)
    new = tmp_path / "new.json"
    new.write_text(json.dumps(slower))
    change = compare_here("report", str(old), str(new), "--format", "json",
                          "--plot", str(tmp_path / "cactus.png"))
    assert change.returncode == 1  # the other planted backends are still wrong
    compared = json.loads(change.stdout)
    row = next(r for r in compared["rows"] if r["set"] == "puzzles.txt 4x4"
               and r["configuration"] == "false_unsat")
    assert (row["wrong"], row["timeouts"]) == ("2 -> 0", "0 -> 2")  # both puzzles are 4x4
    assert {(c["solver"], c["old"], c["new"]) for c in compared["changes"]} == {
        ("false_unsat", "wrong", "timeout")}
    assert (tmp_path / "cactus.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_refuses_a_file_that_is_not_a_saved_run(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"runs": []}')
    done = compare_here("report", str(path))
    assert done.returncode == 2 and "not a saved compare.py run" in done.stderr


@pytest.mark.slow
def test_generate_writes_reproducible_unique_puzzles() -> None:
    # once in a fresh interpreter and once in this one: two processes, two hash seeds
    first = compare("generate", "--size", "6", "--count", "3", "--seed", "11")
    again = compare_here("generate", "--size", "6", "--count", "3", "--seed", "11")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    batch = read_puzzles(io.StringIO(first.stdout))
    assert len(batch.puzzles) == 3 and not batch.errors
    for puzzle in batch.puzzles:  # unique, by a backend the generator did not use for removal
        result = registry.get("sat").solve(puzzle, max_solutions=2)
        assert result.unique is True


def test_generate_refuses_an_impossible_givens_count() -> None:
    done = compare_here("generate", "--size", "9", "--givens", "5")
    assert done.returncode == 2 and "cannot give a unique 9x9 puzzle" in done.stderr


@pytest.mark.slow
def test_configurations_run_one_backend_with_different_options() -> None:
    # the first two puzzles of top95 (not its 95): the labels are what is asserted
    done = compare("run", "puzzles/top95.txt", "--first", "2", "--solvers",
                   "sat:encoding=extended,min=sat:encoding=minimal,mrv:inference=singles",
                   "--format", "csv", "--timeout", "20")
    assert done.returncode == 0, done.stderr
    for label in ("sat:encoding=extended", "min", "mrv:inference=singles"):
        assert f",{label}," in done.stdout


@pytest.mark.parametrize("spec, message", [
    ("sat:encoding=tseitin", "valid: simplified, minimal, efficient, extended"),
    ("mrv:inference=magic", "valid: none, forward, naked, singles, locked"),
    ("mrv:colour=red", "unknown option 'colour'; valid: inference, search, value_order, node_limit"),
    ("nosuch", "unknown backend 'nosuch'; valid backends: backtrack"),
    ("sat,sat", "named twice"),
])
def test_a_bad_configuration_exits_2_before_anything_runs(spec: str, message: str) -> None:
    done = compare_here("run", "puzzles/top95.txt", "--solvers", spec)
    assert done.returncode == 2 and message in done.stderr, done.stderr
