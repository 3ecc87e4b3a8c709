"""Claims checked, not trusted, through the command line: a lying plugin is caught alone
(the judge's reference method refutes it) and in company; a run stopped by its budget
under --unique has not answered; --max-solutions counts, and every backend counts the
bundled 125-solution puzzle to exactly 125 (mip, which re-solves with a cut per solution, the
10-solution one)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from models import read_puzzles
from solvers import registry
from solvers.harness.results.database import open_database
from solvers.harness.results.judge import judge
from solvers.harness.tasks import Outcome

from .conftest import ROOT, compare, compare_here, puzzle_file

PLANTED = ROOT / "tests" / "plugins" / "planted.py"
REFERENCE = f"{ROOT / 'tests' / 'plugins' / 'reference.py'}:solve"

UNIQUE = ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8......."
TWO_SOLUTIONS = ".39...12....9.7...8..4.1..6.42...79...........91...54.5..1.9..3...8.5....14...87."
MANY = ROOT / "puzzles" / "special_9x9_multiple_solutions.txt"
MANY_125 = 7  # its eighth puzzle has 125 solutions (Sudopedia)


def runs_of(path: Path) -> dict[str, dict]:
    return {r["solver"]: r for r in json.loads(path.read_text())["runs"]}


def liar(tmp_path: Path, name: str, puzzle: str, *args: str, company: str = "") -> tuple[int, dict]:
    out = tmp_path / "run.json"
    plugins = ["--plugin", f"{PLANTED}:{name}"] + (["--plugin", REFERENCE] if company == "reference" else [])
    solvers = ",".join(s for s in (name, company) if s)
    done = compare("run", puzzle_file(tmp_path, puzzle), *plugins, "--solvers", solvers,
                   "--json", str(out), *args)
    return done.returncode, runs_of(out)


# ---------------------------------------------------------------- lying plugins

@pytest.mark.slow
@pytest.mark.parametrize("name, puzzle, args, words", [
    ("false_unsat", UNIQUE, (), "claims no solution, but the reference method found"),
    ("false_unique", TWO_SOLUTIONS, ("--unique",), "claims a unique solution, but the reference method"),
    ("duplicate_solution", UNIQUE, ("--unique",), "same solution more than once"),
    ("false_count", TWO_SOLUTIONS, ("--max-solutions", "5"), "claims a unique solution, but the reference"),
], ids=["false_unsat", "false_unique-unique", "duplicate", "false_count"])
def test_a_lying_plugin_alone_is_wrong_and_exits_1(tmp_path: Path, name: str, puzzle: str,
                                                   args: tuple[str, ...], words: str) -> None:
    status, runs = liar(tmp_path, name, puzzle, *args)
    assert status == 1
    assert runs[name]["category"] == "wrong" and words in runs[name]["reason"]


# false_unique beside the reference plugin under --unique is the very run of
# tests/test_compare.py's test_unique_claim_contradicted_by_two_solutions_is_wrong, which
# asserts what a case here would and more (the reference's two solutions, the summary's line)
@pytest.mark.slow
@pytest.mark.parametrize("name, puzzle, company, args", [
    ("false_unsat", UNIQUE, "mrv", ()),
    ("false_unique", TWO_SOLUTIONS, "mrv", ("--unique",)),  # mrv's two solutions refute it
], ids=["false_unsat-mrv", "false_unique-mrv-unique"])
def test_a_lying_plugin_in_company_is_wrong_and_the_honest_one_correct(
        tmp_path: Path, name: str, puzzle: str, company: str, args: tuple[str, ...]) -> None:
    status, runs = liar(tmp_path, name, puzzle, *args, company=company)
    assert status == 1
    assert runs[name]["category"] == "wrong"
    assert runs[company]["category"] == "correct"


@pytest.mark.slow
def test_an_honest_unique_claim_alone_is_proved_and_exits_0(tmp_path: Path) -> None:
    status, runs = liar(tmp_path, "false_unique", UNIQUE, "--unique")  # on a unique puzzle it tells the truth
    assert status == 0
    assert runs["false_unique"]["category"] == "correct" and runs["false_unique"]["proof"] == "proved"


@pytest.mark.slow
def test_a_false_unique_claim_nobody_asked_for_is_recorded_not_checked(tmp_path: Path) -> None:
    status, runs = liar(tmp_path, "false_unique", TWO_SOLUTIONS)  # asked for one solution, it gave one
    assert status == 0
    run = runs["false_unique"]
    assert (run["claim"], run["category"], run["proof"]) == ("unique solution", "correct", "not asked")


@pytest.mark.slow
def test_solve_with_a_lying_plugin_says_wrong_and_exits_1(tmp_path: Path) -> None:
    done = compare("solve", puzzle_file(tmp_path, UNIQUE), "--plugin", f"{PLANTED}:false_unsat")
    assert done.returncode == 1
    assert "WRONG answer from false_unsat" in done.stdout and "reference method found" in done.stdout


@pytest.mark.slow
def test_the_csv_and_json_record_the_proof_verdict(tmp_path: Path) -> None:
    out, table = tmp_path / "run.json", tmp_path / "run.csv"
    done = compare("run", puzzle_file(tmp_path, UNIQUE), "--solvers", "mrv", "--unique",
                   "--json", str(out), "--csv", str(table))
    assert done.returncode == 0, done.stderr
    assert runs_of(out)["mrv"]["proof"] == "proved"
    header, row = table.read_text().splitlines()[:2]
    columns = dict(zip(header.split(","), row.split(",")))
    assert columns["proof"] == "proved" and columns["verified_solutions"] == "1"


# ---------------------------------------------------------------- a budget is not an answer

@pytest.mark.slow
def test_under_unique_a_run_stopped_by_its_node_budget_is_unknown_not_solved(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    done = compare("run", "--solvers", "mrv:node_limit=3", "--unique", "--json", str(out))
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text())["runs"]
    stopped = [r for r in runs if r["status"] == "solved" and not r["complete"] and len(r["solutions"]) < 2]
    assert stopped, "the budget should stop some search after one solution"
    assert {r["category"] for r in stopped} == {"unknown"}
    assert all("node limit reached" in r["reason"] for r in stopped)


# ---------------------------------------------------------------- counting

@pytest.mark.slow  # proves a 125-solution count: a minute of proof checking
def test_the_judge_counts_and_proves_the_125_solutions() -> None:
    puzzle = list(read_puzzles(MANY))[MANY_125]
    result = registry.solve("fast", puzzle, max_solutions=200)
    outcome = Outcome(result.status, list(result.solutions), result.complete)
    (run,), _ = judge(puzzle, [("fast", outcome)], max_solutions=200, families={"fast": "mrv"})
    assert (run.category, run.verified_solutions, run.proof) == ("correct", 125, "proved")


# (puzzle index, its count): a backend that lists fewer than 125 solutions within its declared
# reach (mip re-solves with a cut per solution, over 9 s of CPU for the 125) counts the
# 10-solution puzzle (the same property, a smaller count); in the file alone, so that no
# backend also counts the many-solution grids of the file's first lines to 200
COUNTED = {name: (6, 10) if registry.get(name).declaration.reach.solutions < 125 else (MANY_125, 125)
           for name in registry.available_names()}


@pytest.fixture(scope="module")
def counted_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[subprocess.CompletedProcess[str], list]]:
    """For each puzzle of COUNTED, one run of every backend that counts it (one compare.py and
    one judging of the count for them all, not one per backend): its process and its saved
    runs. Each backend still runs in its own worker, as in a run of it alone."""
    lines = [line for line in MANY.read_text().splitlines() if line and not line.startswith("#")]
    made = {}
    for index in sorted({index for index, _ in COUNTED.values()}):
        folder = tmp_path_factory.mktemp(f"counted{index}")
        backends = [name for name, (counted, _) in COUNTED.items() if counted == index]
        out = folder / "run.json"
        done = compare("run", puzzle_file(folder, lines[index]), "--solvers", ",".join(backends),
                       "--max-solutions", "200", "--timeout", "120", "--json", str(out))
        made[index] = (done, json.loads(out.read_text())["runs"] if out.exists() else [])
    return made


@pytest.mark.slow
@pytest.mark.parametrize("backend", COUNTED)
def test_every_backend_counts_a_many_solution_puzzle_exactly(
        counted_runs: dict[int, tuple[subprocess.CompletedProcess[str], list]], backend: str) -> None:
    index, count = COUNTED[backend]
    done, runs = counted_runs[index]
    mine = [run for run in runs if run["solver"] == backend]
    assert len(mine) == 1, done.stdout + done.stderr
    (run,) = mine
    assert (run["category"], run["verified_solutions"], run["complete"]) == ("correct", count, True)
    assert run["proof"] in ("proved", "confirmed")
    assert done.returncode == 0, done.stdout + done.stderr  # none of the backends counting it is wrong


@pytest.mark.slow
def test_fewer_asked_than_there_are_gives_that_many_incomplete(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    lines = [line for line in MANY.read_text().splitlines() if line and not line.startswith("#")]
    done = compare("run", puzzle_file(tmp_path, lines[MANY_125]), "--solvers", "mrv",
                   "--max-solutions", "10", "--json", str(out))
    assert done.returncode == 0
    run = runs_of(out)["mrv"]
    assert (run["category"], run["verified_solutions"], run["complete"], run["proof"]) == \
        ("correct", 10, False, "")


@pytest.mark.slow
def test_solve_enumerates_every_solution(tmp_path: Path) -> None:
    lines = [line for line in MANY.read_text().splitlines() if line and not line.startswith("#")]
    done = compare("solve", puzzle_file(tmp_path, lines[MANY_125]), "--max-solutions", "200",
                   "--format", "line")
    assert done.returncode == 0, done.stderr
    grids = [line for line in done.stdout.splitlines() if line and not line.startswith("#")]
    assert len(grids) == len(set(grids)) == 125
    assert "NOT unique: exactly 125 solutions; the judge proved it" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("value", ["0", "-3", "many"])
@pytest.mark.parametrize("command", ["run", "solve"])
def test_a_bad_max_solutions_is_a_usage_error(tmp_path: Path, command: str, value: str) -> None:
    done = compare_here(command, puzzle_file(tmp_path, UNIQUE), "--solvers", "mrv", "--max-solutions", value)
    assert done.returncode == 2
    assert "--max-solutions" in done.stderr


def test_a_version_2_results_database_gains_the_proof_columns_on_open(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    open_database(path, create=True).connection.close()
    with sqlite3.connect(path) as connection:  # made as version 2 made it
        connection.execute("ALTER TABLE runs DROP COLUMN proof")
        connection.execute("ALTER TABLE runs DROP COLUMN verified_solutions")
        connection.execute('ALTER TABLE runs DROP COLUMN "order"')  # version 4's, after these
        connection.execute("UPDATE format SET value = '2' WHERE key = 'version'")
    reopened = open_database(path, create=False)
    columns = {row[1] for row in reopened.connection.execute("PRAGMA table_info(runs)")}
    reopened.connection.close()
    assert {"proof", "verified_solutions"} <= columns


@pytest.mark.slow
def test_fast_and_mrv_alone_on_unsat_puzzles_are_proved_never_confirmed_by_each_other(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    files = [str(ROOT / "puzzles" / name) for name in ("special_9x9_unsolvable.txt", "small_unsat.txt")]
    done = compare("run", *files, "--solvers", "fast,mrv", "--json", str(out))
    assert done.returncode == 0, done.stdout[-2000:]
    runs = json.loads(out.read_text())["runs"]
    unsat = [r for r in runs if r["status"] == "unsat"]
    assert len(unsat) >= 8 and {(r["category"], r["proof"]) for r in unsat} == {("correct", "proved")}
    assert all("also claimed by" in r["reason"] for r in unsat)  # the other's agreement, noted, proves nothing
