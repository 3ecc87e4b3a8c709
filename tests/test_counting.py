"""Count mode (--count): every backend counts without keeping its grids (a sample is kept and
verified), memory bounded by the search, and the judge checks each count against another
method family's or its own counter, saying when it could not."""
from __future__ import annotations

import json
import subprocess
import tracemalloc
from csv import DictReader
from pathlib import Path

import pytest

from models import Cage, Model, Puzzle, parse_puzzle
from solvers import registry
from solvers.encodings.symmetry import relabelled
from solvers.harness.results.claims import Check, ClaimChecker
from solvers.harness.results.judge import judge
from solvers.harness.tasks import Outcome
from solvers.result import Counted, Result, Stats, Status

from .conftest import Case, compare, compare_here, on_every_backend

EMPTY_4 = parse_puzzle("." * 16)                 # 288 grids
UNSAT_4 = parse_puzzle("12....34........")       # none
TWO = parse_puzzle(".39...12....9.7...8..4.1..6.42...79...........91...54.5..1.9..3...8.5....14...87.")
HIDDEN = ".......................2.3......3.2...1.4......5....6..3......4.7..8...962...7..."  # 17,204
ROW3_6 = parse_puzzle("123" + "." * 33)         # 6x6, three givens: 28,200,960 / 120 = 235,008
TWO_4 = parse_puzzle("12.4..12..4...21")         # 4x4 with exactly two solutions
TWO_4_SOLUTIONS = ((1, 2, 3, 4, 4, 3, 1, 2, 2, 1, 4, 3, 3, 4, 2, 1),
                   (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))

CASES = [Case((EMPTY_4, 288), "empty-4x4", side=4, solutions=12),  # 12 with the first row fixed
         Case((TWO, 2), "two-9x9", side=9, solutions=2), Case((UNSAT_4, 0), "unsat-4x4", side=4)]


@pytest.mark.parametrize("backend_name, puzzle, expected", on_every_backend(CASES))
def test_every_backend_counts_exactly_keeping_only_a_sample(backend: registry.Backend, puzzle: Puzzle,
                                                            expected: int) -> None:
    result = backend.count(puzzle, time_limit=60, sample=3)
    assert (result.count, result.complete or expected == 0) == (expected, True), result.message
    assert result.status == (Status.UNSAT if expected == 0 else Status.SOLVED)
    assert len(result.solutions) == min(3, expected) == len(set(result.solutions))


@pytest.mark.parametrize("spec", ["backtrack:impl=readable", "mrv:impl=readable", "dlx:impl=readable",
                                  "mrv:inference=none:branching=first", "fast:seed=7", "pysat:seed=2"])
def test_readable_twins_and_seeded_runs_count_alike(spec: str) -> None:
    name, *options = spec.split(":")
    backend = registry.get(name)
    parsed = backend.declaration.parse(tuple(option.split("=")) for option in options)
    assert backend.count(EMPTY_4, time_limit=60, **parsed).count == 288


@pytest.mark.slow
def test_fast_counts_235008_grids_in_memory_of_its_search_not_of_the_count() -> None:
    registry.get("fast").count(EMPTY_4)  # kernels loaded before measuring
    tracemalloc.start()
    try:
        result = registry.get("fast").count(ROW3_6, time_limit=120, sample=16)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (result.count, result.complete, len(result.solutions)) == (235_008, True, 16)
    assert peak < 8 * 1024 * 1024  # holding the grids as tuples would take over 70 MB


def test_a_plugin_is_counted_by_its_distinct_grids() -> None:
    def repeats(model: Model, *, max_solutions: int = 1, time_limit: float | None = None) -> Result:
        return Result(Status.SOLVED, [*TWO_4_SOLUTIONS, TWO_4_SOLUTIONS[0]], True, Stats())
    result = registry.Backend.from_function("mine", repeats).count(TWO_4, sample=1)
    assert (result.count, result.solutions) == (2, [TWO_4_SOLUTIONS[0]])


def test_a_programs_lines_are_counted_as_they_come_and_it_is_killed_at_its_timeout() -> None:
    from solvers.backends._process import stream_lines

    seen: list[str] = []
    code, err = stream_lines(["sh", "-c", "seq 3; echo oops >&2"], 30, seen.append)
    assert (code, seen, err) == (0, ["1", "2", "3"], "oops\n")
    lines: list[str] = []
    code, _ = stream_lines(["sh", "-c", "echo one; exec sleep 30"], 0.3, lines.append)
    assert (code, lines) == (None, ["one"])


def test_a_backend_without_a_count_says_it_cannot() -> None:
    template = registry.Backend("template", "the template", "solvers.backends._template")
    result = template.count(EMPTY_4)
    assert result.status == Status.UNSUPPORTED and "cannot count" in result.message


@pytest.mark.parametrize("puzzle, factor", [
    (EMPTY_4, 24), (TWO_4, None), (Puzzle(EMPTY_4.geometry, (0,) * 16, cages=(Cage((0, 1), 3),)), None)],
    ids=["no-givens", "givens", "cage-total"])
def test_relabelling_is_used_only_where_every_solution_relabelled_is_one(puzzle: Puzzle, factor: int | None) -> None:
    reduced = relabelled(Model.from_puzzle(puzzle))
    assert (reduced.factor if reduced else None) == factor


def test_counted_keeps_its_sample_and_counts_every_grid() -> None:
    found = Counted(keep=2)
    found += [(1,), (2,)]
    found.extend([(3,)])
    found.append((4,))
    assert (list(found), found.total) == ([(1,), (2,)], 4)


# ---------------------------------------------------------------- the judge on counts

def counted(count: int, *grids: tuple[int, ...], complete: bool = True, message: str = "") -> Outcome:
    return Outcome(Status.SOLVED if count else Status.UNSAT, list(grids), complete, count=count, message=message)


def verdicts(puzzle: Puzzle, families: dict[str, str], checker: ClaimChecker | None = None,
             **outcomes: Outcome) -> dict[str, tuple[str, str, str]]:
    runs, _ = judge(puzzle, list(outcomes.items()), max_solutions=16, families=families, checker=checker)
    return {run.solver: (run.category, run.proof, run.reason) for run in runs}


def test_agreeing_counts_of_two_families_confirm_each_other() -> None:
    result = verdicts(EMPTY_4, {"a": "mrv", "b": "exact-cover"}, a=counted(288, TWO_4_SOLUTIONS[0]),
                      b=counted(288, TWO_4_SOLUTIONS[1]))
    assert result["a"] == ("correct", "confirmed", "verified; exactly 288 solutions (confirmed by b)")


def test_a_count_alone_is_checked_by_the_judges_own_counter() -> None:
    checker = ClaimChecker()
    right = verdicts(EMPTY_4, {"a": "mrv"}, checker, a=counted(288, TWO_4_SOLUTIONS[0]))["a"]
    wrong = verdicts(EMPTY_4, {"a": "mrv"}, checker, a=counted(287, TWO_4_SOLUTIONS[0]))["a"]
    assert right[:2] == ("correct", "confirmed") and "the judge's counter found 12 grids" in right[2]
    assert wrong[0] == "wrong" and "claims exactly 287 solutions, but the judge's counter" in wrong[2]


def test_a_count_with_every_grid_sent_is_proved() -> None:
    result = verdicts(TWO_4, {"a": "mrv"}, a=counted(2, *TWO_4_SOLUTIONS))["a"]
    assert result[:2] == ("correct", "proved")


def test_a_count_below_the_grids_verified_is_wrong() -> None:
    result = verdicts(TWO_4, {"a": "mrv", "b": "exact-cover"}, a=counted(5, TWO_4_SOLUTIONS[0]),
                      b=counted(1, TWO_4_SOLUTIONS[1]))
    assert result["b"][0] == "wrong"


def test_a_count_the_judge_cannot_recount_in_its_budget_is_unchecked() -> None:
    hidden = parse_puzzle(HIDDEN)
    sample = registry.get("fast").count(hidden, sample=1).solutions[0]
    result = verdicts(hidden, {"a": "mrv"}, ClaimChecker(budget_s=1e-9), a=counted(17_204, sample))["a"]
    assert result[:2] == ("unchecked", "unchecked") and "budget of 1e-09 s" in result[2]


def test_disagreeing_counts_are_settled_by_the_judge() -> None:
    result = verdicts(EMPTY_4, {"a": "mrv", "b": "exact-cover"}, a=counted(288, TWO_4_SOLUTIONS[0]),
                      b=counted(300, TWO_4_SOLUTIONS[1]))
    assert result["a"][:2] == ("correct", "confirmed") and result["b"][0] == "wrong"


def test_an_unfinished_count_is_a_timeout_that_says_how_far_it_got() -> None:
    stopped = counted(40, TWO_4_SOLUTIONS[0], complete=False, message="time limit reached")
    category, proof, reason = verdicts(EMPTY_4, {"a": "mrv"}, a=stopped)["a"]
    assert (category, proof) == ("timeout", "")
    assert "counted at least 40 solutions (1 solution of them verified)" in reason


def test_a_count_check_is_asked_once() -> None:
    checker = ClaimChecker()
    for _ in range(2):
        verdicts(EMPTY_4, {"a": "mrv"}, checker, a=counted(288, TWO_4_SOLUTIONS[0]))
    assert checker.checks == 1 and checker.settle(Check(EMPTY_4, count=288)).proof == "confirmed"


# ---------------------------------------------------------------- through the command line

def puzzle_file(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


CountRun = tuple[subprocess.CompletedProcess[str], list[dict], list[dict]]
"""A count run's process, its saved runs and its CSV rows."""


@pytest.fixture(scope="module")
def count_run(tmp_path_factory: pytest.TempPathFactory) -> CountRun:
    """One ``run --count`` of fast on the empty 6x6 (puzzle 1) and on HIDDEN (puzzle 2): its
    process, its saved runs and its CSV rows, both in puzzle order (one launch and one numba
    start for the two counts)."""
    folder = tmp_path_factory.mktemp("counted")
    out, csv = folder / "run.json", folder / "run.csv"
    done = compare("run", puzzle_file(folder, "." * 36, HIDDEN), "--solvers", "fast", "--count", "--timeout", "60",
                   "--json", str(out), "--csv", str(csv))
    runs = sorted(json.loads(out.read_text())["runs"], key=lambda run: run["index"]) if out.exists() else []
    rows = list(DictReader(csv.read_text(encoding="utf-8").splitlines())) if csv.exists() else []
    rows.sort(key=lambda row: int(row["index"]))
    return done, runs, rows


@pytest.mark.slow
def test_run_count_gives_28200960_for_the_empty_6x6(count_run: CountRun) -> None:
    done, runs, _ = count_run
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    run = runs[0]
    assert (run["count"], run["category"], run["proof"], len(run["solutions"])) == (28_200_960, "correct",
                                                                                     "confirmed", 16)


@pytest.mark.slow
def test_run_count_gives_a_hidden_count_in_the_thousands_checked_by_the_judge(count_run: CountRun) -> None:
    done, runs, rows = count_run
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    run = runs[1]
    assert (run["count"], run["verified_solutions"], run["proof"]) == (17_204, 16, "confirmed")
    assert rows[1]["count"] == "17204"


@pytest.mark.slow
def test_solve_count_prints_the_count_and_the_judges_check(tmp_path: Path) -> None:
    done = compare("solve", puzzle_file(tmp_path, "." * 16, "12....34........"), "--solver", "dlx", "--count",
                   "--format", "line")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "# 288 solutions (12 of them verified): counted by dlx" in done.stdout
    assert "confirmed by the judge's own count" in done.stdout
    assert "# 0 solutions: counted by dlx" in done.stdout


@pytest.mark.slow
def test_an_answer_too_large_to_send_back_fails_the_run_never_a_silent_exit_0(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    # 150,000 grids of 36 cells: some 11 MB of answer, over the channel's 8 MB frame (250,000
    # before: the same refusal after more enumerating)
    done = compare("run", puzzle_file(tmp_path, "." * 36), "--solvers", "fast", "--max-solutions", "150000",
                   "--timeout", "120", "--json", str(out))
    assert done.returncode == 1
    (run,) = json.loads(out.read_text())["runs"]
    assert (run["category"], run["termination"]) == ("error", "answer-size")
    assert "--count counts without sending every grid" in run["message"]


@pytest.mark.parametrize("other", [("--unique",), ("--max-solutions", "5")], ids=["unique", "max-solutions"])
def test_count_with_unique_or_max_solutions_is_a_usage_error(tmp_path: Path, other: tuple[str, ...]) -> None:
    done = compare_here("run", puzzle_file(tmp_path, "." * 16), "--solvers", "mrv", "--count", *other)
    assert done.returncode == 2 and "--count counts every solution: leave out" in done.stderr
