"""The judge on its own: each claim checked by the checker and against the other backends."""
from __future__ import annotations

import pytest

from models import Cage, Puzzle, parse_puzzle
from models.proofs import ProofVerdict
from solvers import registry
from solvers.encodings.cnf import EncodingError
from solvers.harness.results import claims
from solvers.harness.results.claims import ClaimChecker
from solvers.harness.results.judge import judge
from solvers.harness.results.report import summarize
from solvers.harness.results.summary_table import default_keys, render
from solvers.harness.tasks import Outcome

PUZZLE = parse_puzzle(".3.....4.1.....1")         # 4x4, unique
SOLUTION = (4, 3, 1, 2, 1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 2, 1)
EMPTY = parse_puzzle("." * 16)                    # 4x4 with many solutions
UNSAT = parse_puzzle("12....34........")         # 4x4 without a solution, no clashing givens
TWO = parse_puzzle("12.4..12..4...21")            # 4x4 with exactly two solutions
TWO_SOLUTIONS = ((1, 2, 3, 4, 4, 3, 1, 2, 2, 1, 4, 3, 3, 4, 2, 1),
                 (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1))
OTHER = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
ANOTHER = (2, 1, 4, 3, 4, 3, 2, 1, 1, 2, 3, 4, 3, 4, 1, 2)


def solved(*grids: tuple[int, ...], complete: bool = False) -> Outcome:
    return Outcome("solved", list(grids), complete)


def categories(puzzle, max_solutions: int = 1, **outcomes: Outcome) -> dict[str, tuple[str, str]]:
    runs, _ = judge(puzzle, list(outcomes.items()), max_solutions=max_solutions)
    return {run.solver: (run.category, run.reason) for run in runs}


def test_the_known_solution_is_correct_and_asked_unique_claims_agree() -> None:
    result = categories(PUZZLE, 2, a=solved(SOLUTION, complete=True), b=solved(SOLUTION, complete=True))
    assert result["a"] == ("correct", "verified; unique (confirmed by b)")


@pytest.mark.parametrize("outcome, why", [
    (solved(), "returned no grid"),
    (solved(SOLUTION[:-1]), "solution has 15 cells"),
    (solved((0, *SOLUTION[1:])), "empty cell"),
    (solved(tuple(5 - v for v in SOLUTION)), "given 3 changed"),
    (solved(SOLUTION, SOLUTION), "same solution more than once"),
])
def test_bad_grids_are_wrong(outcome: Outcome, why: str) -> None:
    category, reason = categories(PUZZLE, bad=outcome)["bad"]
    assert category == "wrong" and why in reason


def test_unsat_claim_against_a_verified_solution_is_wrong() -> None:
    result = categories(PUZZLE, good=solved(SOLUTION), liar=Outcome("unsat", complete=True))
    assert result["liar"] == ("wrong", "claims no solution, but good found a verified solution")


def test_unconfirmed_unsat_claim_on_a_solvable_puzzle_is_refuted_by_the_reference() -> None:
    result = categories(PUZZLE, alone=Outcome("unsat", complete=True), slow=Outcome("timeout"))
    category, reason = result["alone"]
    assert category == "wrong"
    assert "claims no solution, but the reference method found another verified solution" in reason
    assert "4312123421433421" in reason  # the counterexample, the puzzle's solution


def test_a_unique_claim_nobody_asked_for_is_recorded_and_not_checked() -> None:
    checker = ClaimChecker()
    runs, _ = judge(TWO, [("fast", solved(TWO_SOLUTIONS[0], complete=True))], checker=checker)
    assert (runs[0].category, runs[0].proof, runs[0].claim) == ("correct", "not asked", "unique solution")
    assert "not asked for (not checked)" in runs[0].reason
    assert checker.checks == 0  # asked for one solution, it gave one: its "complete" is not re-derived


def test_a_claim_nobody_asked_for_that_another_run_refutes_is_still_wrong() -> None:
    result = categories(TWO, liar=solved(TWO_SOLUTIONS[0], complete=True), other=solved(TWO_SOLUTIONS[1]))
    assert result["liar"] == ("wrong", "claims a unique solution, but other found a different verified solution")


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


def proofs(puzzle, max_solutions: int = 1, families=None, checker=None, **outcomes: Outcome) -> dict:
    runs, _ = judge(puzzle, list(outcomes.items()), max_solutions=max_solutions, families=families,
                    checker=checker)
    return {run.solver: (run.category, run.proof, run.reason) for run in runs}


def test_the_two_solutions_of_the_test_puzzle_are_its_solutions() -> None:
    runs, _ = judge(TWO, [("both", solved(*TWO_SOLUTIONS))])
    assert runs[0].category == "correct" and runs[0].verified_solutions == 2


def test_a_true_unique_claim_alone_is_proved_by_a_checked_proof() -> None:
    category, proof, reason = proofs(PUZZLE, 2, alone=solved(SOLUTION, complete=True))["alone"]
    assert (category, proof) == ("correct", "proved")
    assert "DRUP proof checked" in reason


def test_a_true_unsat_claim_alone_is_proved() -> None:
    category, proof, _ = proofs(UNSAT, alone=Outcome("unsat", complete=True))["alone"]
    assert (category, proof) == ("correct", "proved")


def test_a_false_unique_claim_alone_is_wrong_with_the_counterexample() -> None:
    category, proof, reason = proofs(TWO, 2, liar=solved(TWO_SOLUTIONS[0], complete=True))["liar"]
    assert category == "wrong" and proof == ""
    assert "claims a unique solution, but the reference method found another verified solution" in reason
    assert "1234341221434321" in reason  # the other solution


def test_an_exact_count_claim_is_proved_and_a_short_count_refuted() -> None:
    result = proofs(TWO, max_solutions=5, full=solved(*TWO_SOLUTIONS, complete=True),
                    short=solved(TWO_SOLUTIONS[0], complete=True))
    assert result["full"][:2] == ("correct", "proved") and "exactly 2 solutions" in result["full"][2]
    assert result["short"][0] == "wrong"


def test_agreeing_method_families_confirm_each_other() -> None:
    result = proofs(PUZZLE, 2, families={"a": "mrv", "b": "cnf-simplified"}, a=solved(SOLUTION, complete=True),
                    b=solved(SOLUTION, complete=True))
    assert result["a"] == ("correct", "confirmed", "verified; unique (confirmed by b)")


@pytest.mark.parametrize("families", [{"a": "mrv", "b": "mrv"}, {"a": "mrv", "b": ""}, {"a": "", "b": ""}],
                         ids=["same-family", "one-plugin", "two-plugins"])
def test_agreement_of_a_plugin_or_the_same_family_confirms_nothing(families: dict) -> None:
    checker = ClaimChecker()
    result = proofs(TWO, 2, families=families, checker=checker, a=solved(TWO_SOLUTIONS[0], complete=True),
                    b=solved(TWO_SOLUTIONS[0], complete=True))
    assert result["a"][0] == "wrong" and result["b"][0] == "wrong"
    assert checker.checks == 1  # one re-derivation for both claims


@pytest.mark.parametrize("backend, twin", [("fast", "mrv"), ("mrv", "mrv:impl=readable"),
                                           ("sat", "pysat:encoding=simplified"),
                                           ("dlx", "dlx:impl=readable"), ("backtrack", "backtrack:impl=readable")])
def test_a_backend_and_its_twin_are_one_family(backend: str, twin: str) -> None:
    name, *options = twin.split(":")
    assert registry.get(backend).family() == registry.get(name).family(dict(o.split("=") for o in options))


def test_cnf_backends_on_different_encodings_are_different_families() -> None:
    assert registry.get("sat").family({"encoding": "minimal"}) != registry.get("pysat").family({"encoding": "extended"})


def test_fast_and_mrv_alone_on_an_unsat_puzzle_are_proved_not_confirmed_by_each_other() -> None:
    result = proofs(UNSAT, families={"fast": "mrv", "mrv": "mrv"}, fast=Outcome("unsat", complete=True),
                    mrv=Outcome("unsat", complete=True))
    assert result["fast"][:2] == ("correct", "proved") and result["mrv"][:2] == ("correct", "proved")


def test_a_claim_is_checked_once_per_puzzle_and_solutions() -> None:
    checker = ClaimChecker()
    for _ in range(3):  # e.g. three repetitions
        assert proofs(PUZZLE, 2, checker=checker, a=solved(SOLUTION, complete=True))["a"][1] == "proved"
    assert checker.checks == 1


def test_a_claim_the_reference_cannot_state_is_unchecked_and_says_why(monkeypatch) -> None:
    def cannot(*_args: object) -> None:
        raise EncodingError("no clauses for this constraint")
    monkeypatch.setattr(claims, "encode", cannot)
    category, proof, reason = proofs(PUZZLE, 2, alone=solved(SOLUTION, complete=True))["alone"]
    assert (category, proof) == ("unchecked", "unchecked")
    assert "cannot state this puzzle: no clauses for this constraint" in reason


def test_a_check_out_of_budget_is_unchecked_and_says_so() -> None:
    checker = ClaimChecker(budget_s=1e-6)
    category, proof, reason = proofs(PUZZLE, 2, checker=checker, alone=solved(SOLUTION, complete=True))["alone"]
    assert (category, proof) == ("unchecked", "unchecked")
    assert "budget of 1e-06 s" in reason


def test_a_proof_that_does_not_check_leaves_the_claim_unchecked(monkeypatch) -> None:
    monkeypatch.setattr(claims, "check_rup", lambda *_a, **_k: ProofVerdict(False, "lemma 1 does not follow", 1))
    category, proof, reason = proofs(UNSAT, alone=Outcome("unsat", complete=True))["alone"]
    assert (category, proof) == ("unchecked", "unchecked")
    assert "its proof did not check: lemma 1 does not follow" in reason


def test_an_unchecked_run_is_never_counted_solved() -> None:
    runs, _ = judge(PUZZLE, [("alone", solved(SOLUTION, complete=True))], max_solutions=2,
                    checker=ClaimChecker(budget_s=1e-6))
    (row,) = summarize(runs, unique=True, limit=10.0)
    assert (row["solved"], row["unchecked"]) == (0, 1)


@pytest.mark.parametrize("message, category", [("node limit reached", "unknown"),
                                               ("time limit reached", "timeout")])
def test_asked_for_two_a_run_that_stopped_after_one_has_not_answered(message: str, category: str) -> None:
    stopped = Outcome("solved", [TWO_SOLUTIONS[0]], False, message=message)
    judged, proof, reason = proofs(TWO, max_solutions=2, stopped=stopped)["stopped"]
    assert (judged, proof) == (category, "")
    assert "found 1 solution (verified) of the 2 asked for" in reason and message in reason


def test_asked_for_one_a_single_solution_is_an_answer() -> None:
    assert proofs(TWO, stopped=solved(TWO_SOLUTIONS[0]))["stopped"][0] == "correct"


def test_a_duplicate_among_many_solutions_is_wrong() -> None:
    runs, _ = judge(TWO, [("dup", solved(*TWO_SOLUTIONS, TWO_SOLUTIONS[1]))], max_solutions=10)
    assert runs[0].category == "wrong" and "same solution more than once" in runs[0].reason


def test_an_unsupported_run_is_its_own_category_and_no_disagreement() -> None:
    runs, disagreement = judge(PUZZLE, [
        ("dlx", Outcome("unsupported", message="exact cover cannot express a killer cage's total")),
        ("good", solved(SOLUTION, complete=True))])
    assert next((r.category, r.reason) for r in runs) == (
        "unsupported", "exact cover cannot express a killer cage's total")
    assert (runs[1].category, runs[1].proof) == ("correct", "not asked")
    assert disagreement is None


def test_the_summary_counts_unsupported_runs_apart_from_failures() -> None:
    runs, _ = judge(PUZZLE, [("dlx", Outcome("unsupported", message="no sums", time_s=0.5)),
                             ("good", solved(SOLUTION))])
    rows = {row["configuration"]: row for row in summarize(runs, limit=10.0)}
    assert (rows["dlx"]["unsupported"], rows["dlx"]["errors"], rows["dlx"]["wrong"]) == (1, 0, 0)
    assert rows["dlx"]["solved"] == 0 and rows["dlx"]["mean_s"] is None and rows["dlx"]["par"] is None
    assert rows["good"]["unsupported"] == 0
    both, good = list(rows.values()), [rows["good"]]
    assert "unsupported" in render(both, "table", default_keys(both))
    assert "unsupported" not in render(good, "table", default_keys(good))


@pytest.mark.parametrize("exclude_warmup", [False, True], ids=["all", "no-warmup"])
def test_the_summary_of_judged_runs_is_the_summary_of_their_records(exclude_warmup: bool) -> None:
    runs = []  # summarize reads a few fields of a Run directly: the rows must be the records' rows
    for index, (puzzle, outcomes) in enumerate([
            (PUZZLE, [("mrv", Outcome("solved", [SOLUTION], True, {"nodes": 3}, time_s=0.2, cpu_s=0.1)),
                      ("fast:x=1", Outcome("solved", [SOLUTION], False, {"conflicts": 2}, time_s=0.1,
                                           warmup=True)),
                      ("dlx", Outcome("unsupported", message="no sums", time_s=0.5))]),
            (TWO, [("mrv", Outcome("solved", [TWO_SOLUTIONS[0]], True, {"nodes": 5}, time_s=0.3)),
                   ("fast:x=1", Outcome("timeout", time_s=10.0, cpu_s=9.0)),
                   ("dlx", Outcome("error", message="boom", time_s=0.01))])]):
        judged, _ = judge(puzzle, outcomes, max_solutions=2)
        for run in judged:
            run.index, run.backend = index, run.solver.split(":")[0]
        runs += judged
    records = [run.as_dict() for run in runs]
    assert summarize(runs, unique=True, limit=10.0, exclude_warmup=exclude_warmup) == \
        summarize(records, unique=True, limit=10.0, exclude_warmup=exclude_warmup)


@pytest.mark.parametrize("cage, category, proof", [
    (Cage((4, 8), 6), "correct", "proved"),    # only the first of the two solutions has 4 + 2 here
    (Cage((0, 1), 3), "wrong", ""),            # both have 1 + 2: the claim of one is refuted
], ids=["cage-decides", "cage-allows-both"])
def test_a_killer_claim_is_checked_with_its_cage_totals(cage: Cage, category: str, proof: str) -> None:
    killer = Puzzle(TWO.geometry, TWO.givens, cages=(cage,))
    assert proofs(killer, 2, alone=solved(TWO_SOLUTIONS[0], complete=True))["alone"][:2] == (category, proof)
