"""models.proofs: the RUP checker accepts real proofs and rejects tampered ones."""
from __future__ import annotations

import time

import pytest

from models import Model, parse_puzzle
from models.proofs import ProofFormatError, check_rup, parse_proof
from solvers.encodings.cnf import encode

pysat_solvers = pytest.importorskip("pysat.solvers")

# every clause over three variables: unsatisfiable, but not by unit propagation alone
ALL_EIGHT = [[a * 1, b * 2, c * 3] for a in (1, -1) for b in (1, -1) for c in (1, -1)]
HAND_PROOF = ["1 2 0", "1 0", "2 0", "0"]

UNIQUE = ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8......."


def engine_proof(formula: list[list[int]], engine: str) -> list[str]:
    with pysat_solvers.Solver(name=engine, bootstrap_with=formula, with_proof=True) as solver:
        assert solver.solve() is False
        return list(solver.get_proof())


@pytest.fixture(scope="module")
def blocked() -> list[list[int]]:
    """A hard 9x9 puzzle's CNF with its one solution blocked: unsatisfiable."""
    cnf = encode(Model.from_puzzle(parse_puzzle(UNIQUE)), "extended")
    with pysat_solvers.Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        grid = cnf.decode(solver.get_model())
    return [*cnf.clauses, cnf.blocking_clause(grid)]


def test_a_hand_proof_is_accepted() -> None:
    verdict = check_rup(ALL_EIGHT, HAND_PROOF)
    assert verdict.ok and verdict.lemmas == 4


@pytest.mark.parametrize("proof, where", [
    (["1 2 0", "2 0", "0"], "lemma 3"),            # lemma "1 0" removed: the end fails
    (["1 0", "2 0", "0"], "lemma 1"),              # lemma "1 2 0" changed to "1 0"
    (["1 2 0"], "empty clause"),                   # the steps after the first missing
    (["1 2 0", "d 1 2 0", "1 0", "2 0", "0"], "lemma 2"),  # a needed lemma deleted
], ids=["lemma-removed", "lemma-changed", "truncated", "needed-lemma-deleted"])
def test_a_tampered_hand_proof_is_rejected_naming_the_step(proof: list[str], where: str) -> None:
    verdict = check_rup(ALL_EIGHT, proof)
    assert not verdict.ok and where in verdict.reason


def test_a_formula_with_a_model_has_no_proof() -> None:
    assert not check_rup(ALL_EIGHT[1:], HAND_PROOF)  # -1 -2 -3 ... one clause gone: satisfiable


@pytest.mark.parametrize("engine", ["glucose4", "cadical153"])
def test_a_real_engine_proof_is_accepted(blocked: list[list[int]], engine: str) -> None:
    verdict = check_rup(blocked, engine_proof(blocked, engine))
    assert verdict.ok, verdict.reason


def test_a_real_proof_without_its_lemmas_is_rejected(blocked: list[list[int]]) -> None:
    proof = engine_proof(blocked, "cadical153")
    lemmas = [line for line in proof if not line.startswith("d") and line.strip() != "0"]
    assert lemmas and not check_rup(blocked, ["0"])  # unit propagation alone does not refute it
    verdict = check_rup(blocked, [line for line in proof if line not in lemmas])
    assert not verdict.ok


def test_a_real_proof_checked_against_another_formula_is_rejected(blocked: list[list[int]]) -> None:
    proof = engine_proof(blocked, "cadical153")
    assert not check_rup(blocked[:-1], proof)  # without the blocking clause there is a model


def test_a_passed_deadline_stops_the_check() -> None:
    verdict = check_rup(ALL_EIGHT, HAND_PROOF, deadline=time.monotonic() - 1)
    assert not verdict.ok and verdict.timed_out


@pytest.mark.parametrize("line", ["1 2", "1 x 0", "1 0 2 0", "d"])
def test_a_malformed_proof_line_is_an_error_naming_the_line(line: str) -> None:
    with pytest.raises(ProofFormatError, match="proof line 2"):
        parse_proof(["1 0", line])


@pytest.mark.parametrize("variable", [10 ** 12, 2 ** 63, 10 ** 40])
def test_a_lemma_naming_a_huge_variable_is_checked_in_small_memory(variable: int) -> None:
    import tracemalloc
    proof = [f"{variable} 1 2 0", "1 2 0", "1 0", "2 0", "0"]  # the first lemma is weaker, still RUP
    tracemalloc.start()
    try:
        verdict = check_rup(ALL_EIGHT, proof)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert verdict.ok and verdict.lemmas == 5
    assert peak < 1 << 20  # one slot for the fresh variable, not an array up to its number


def test_a_lemma_on_a_fresh_variable_alone_is_rejected_naming_it() -> None:
    verdict = check_rup(ALL_EIGHT, [f"{10 ** 12} 0", "0"])
    assert not verdict.ok and f"{10 ** 12} 0 does not follow" in verdict.reason


@pytest.mark.parametrize("kind", ["deletions", "comments", "lemmas"])
def test_three_million_proof_lines_stop_at_the_deadline_unread(kind: str) -> None:
    read = 0
    line = {"deletions": "d 1 2 3 0", "comments": "c x", "lemmas": "1 2 3 0"}[kind]

    def lines():  # counts what the checker took: it must stop long before the end
        nonlocal read
        for _ in range(3_000_000):
            read += 1
            yield line
    verdict = check_rup(ALL_EIGHT, lines(), deadline=time.monotonic() + 0.05)
    assert verdict.timed_out and not verdict.ok
    assert read < 3_000_000


def test_a_deadline_passed_while_loading_the_formula_reads_no_proof_line() -> None:
    read = []

    def proof():
        read.append("0")
        yield "0"
    verdict = check_rup(ALL_EIGHT * 1000, proof(), deadline=time.monotonic() - 1)
    assert verdict.timed_out and "loading the formula" in verdict.reason and not read
