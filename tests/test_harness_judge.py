"""The judge on its own: each claim checked by the checker and against the other backends."""
from __future__ import annotations

import pytest

from models import parse_puzzle
from solvers.harness.results.judge import judge
from solvers.harness.results.report import render_table, summarize
from solvers.harness.tasks import Outcome

PUZZLE = parse_puzzle(".3.....4.1.....1")         # 4x4, unique
SOLUTION = (4, 3, 1, 2, 1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 2, 1)
EMPTY = parse_puzzle("." * 16)                    # 4x4 with many solutions
OTHER = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
ANOTHER = (2, 1, 4, 3, 4, 3, 2, 1, 1, 2, 3, 4, 3, 4, 1, 2)


def solved(*grids: tuple[int, ...], complete: bool = False) -> Outcome:
    return Outcome("solved", list(grids), complete)


def categories(puzzle, **outcomes: Outcome) -> dict[str, tuple[str, str]]:
    runs, _ = judge(puzzle, list(outcomes.items()))
    return {run.solver: (run.category, run.reason) for run in runs}


def test_the_known_solution_is_correct_and_unique_claims_agree() -> None:
    result = categories(PUZZLE, a=solved(SOLUTION, complete=True), b=solved(SOLUTION, complete=True))
    assert result["a"] == ("correct", "verified; unique (confirmed by b)")


@pytest.mark.parametrize("outcome, why", [
    (solved(), "returned no grid"),
    (solved(SOLUTION[:-1]), "solution has 15 cells"),
    (solved((0,) + SOLUTION[1:]), "empty cell"),
    (solved(tuple(5 - v for v in SOLUTION)), "given 3 changed"),
    (solved(SOLUTION, SOLUTION), "same solution more than once"),
])
def test_bad_grids_are_wrong(outcome: Outcome, why: str) -> None:
    category, reason = categories(PUZZLE, bad=outcome)["bad"]
    assert category == "wrong" and why in reason


def test_unsat_claim_against_a_verified_solution_is_wrong() -> None:
    result = categories(PUZZLE, good=solved(SOLUTION), liar=Outcome("unsat", complete=True))
    assert result["liar"] == ("wrong", "claims no solution, but good found a verified solution")


def test_unconfirmed_unsat_claim_says_so() -> None:
    result = categories(PUZZLE, alone=Outcome("unsat", complete=True), slow=Outcome("timeout"))
    assert result["alone"][0] == "correct" and "no other backend proved it" in result["alone"][1]


def test_unique_claim_against_two_verified_solutions_is_wrong() -> None:
    runs, disagreement = judge(EMPTY, [("many", solved(OTHER, ANOTHER)),
                                       ("claims_unique", solved(OTHER, complete=True))])
    assert [r.category for r in runs] == ["correct", "wrong"]
    assert disagreement is not None
    assert [c["claim"] for c in disagreement.claims] == ["2 solutions", "unique solution"]


def test_different_single_solutions_without_claims_are_both_correct() -> None:
    result = categories(EMPTY, a=solved(OTHER), b=solved(ANOTHER))
    assert {c for c, _ in result.values()} == {"correct"}


def test_timeouts_and_errors_keep_their_messages() -> None:
    result = categories(PUZZLE, t=Outcome("timeout", message="killed after 2.0 s"),
                        e=Outcome("error", message="RuntimeError: boom"))
    assert result == {"t": ("timeout", "killed after 2.0 s"), "e": ("error", "RuntimeError: boom")}


def test_a_run_over_its_memory_limit_is_memory_out_not_error() -> None:
    result = categories(PUZZLE, hog=Outcome("memory-out", message="over the memory limit of 300 MB"),
                        good=solved(SOLUTION))
    assert result["hog"] == ("memory-out", "over the memory limit of 300 MB")
    assert result["good"][0] == "correct"


def test_an_unsupported_run_is_its_own_category_and_no_disagreement() -> None:
    runs, disagreement = judge(PUZZLE, [
        ("dlx", Outcome("unsupported", message="exact cover cannot express a killer cage's total")),
        ("good", solved(SOLUTION, complete=True))])
    assert [(r.category, r.reason) for r in runs] == [
        ("unsupported", "exact cover cannot express a killer cage's total"),
        ("correct", "verified; unique (not contradicted, but no other backend proved it)")]
    assert disagreement is None


def test_the_summary_counts_unsupported_runs_apart_from_failures() -> None:
    runs, _ = judge(PUZZLE, [("dlx", Outcome("unsupported", message="no sums", time_s=0.5)),
                             ("good", solved(SOLUTION))])
    rows = {row["configuration"]: row for row in summarize(runs, limit=10.0)}
    assert (rows["dlx"]["unsupported"], rows["dlx"]["errors"], rows["dlx"]["wrong"]) == (1, 0, 0)
    assert rows["dlx"]["solved"] == 0 and rows["dlx"]["mean_s"] is None and rows["dlx"]["par"] is None
    assert rows["good"]["unsupported"] == 0
    assert "unsupported" in render_table(list(rows.values()), "text")
    assert "unsupported" not in render_table([rows["good"]], "text")
