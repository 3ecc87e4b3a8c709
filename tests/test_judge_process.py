"""The judge's checks in a process of their own (results/judge_process.py): settled there,
remembered, bounded in time and memory from outside, and whatever befalls that process an
unchecked verdict with the reason, never the end of the caller."""
from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from models import Puzzle, parse_puzzle
from models.geometry import Geometry
from solvers.harness.results.claims import Check
from solvers.harness.results.judge_process import KILL_GRACE, JudgeProcess

UNIQUE = parse_puzzle(".3.....4.1.....1")         # 4x4, unique
SOLUTION = (4, 3, 1, 2, 1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 2, 1)
UNSAT = parse_puzzle("12....34........")         # 4x4 without a solution
EMPTY_36 = Puzzle(Geometry(6, 6), (0,) * 36 * 36)  # its CNF takes seconds and hundreds of MB to build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prlimit")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def referee():
    judge = JudgeProcess()
    yield judge
    judge.close()


def test_a_check_is_settled_in_another_process_and_remembered(referee: JudgeProcess) -> None:
    unique, unsat = Check(UNIQUE, frozenset({SOLUTION})), Check(UNSAT)
    assert referee.submit(unique) is None and referee.submit(unsat) is None  # never blocks
    verdicts = {}
    deadline = time.monotonic() + 120
    while len(verdicts) < 2 and time.monotonic() < deadline:
        verdicts.update(referee.ready(timeout=1.0))
    assert {check: v.proof for check, v in verdicts.items()} == {unique: "proved", unsat: "proved"}
    pid = referee._server.process.pid
    assert pid != os.getpid() and alive(pid)
    assert referee.submit(unique).proof == "proved"  # from memory: not asked again
    assert referee.checks == 2 and not referee.busy


def test_closing_the_judge_leaves_no_process(referee: JudgeProcess) -> None:
    assert referee.settle(Check(UNSAT)).proof == "proved"
    pid = referee._server.process.pid
    referee.close()
    assert not alive(pid)


@pytest.mark.slow
def test_a_check_past_its_budget_is_killed_and_unchecked_and_the_next_is_settled() -> None:
    judge = JudgeProcess(budget_s=0.3)
    try:
        judge.settle(Check(UNSAT))  # started and warm: the budget below is the check's alone
        first = judge._server.process.pid
        started = time.monotonic()
        verdict = judge.settle(Check(EMPTY_36))  # its encoding alone outlasts 0.3 s
        took = time.monotonic() - started
        assert verdict.proof == "unchecked" and "past its budget of 0.3 s" in verdict.reason
        assert took < 0.3 + KILL_GRACE + 5  # killed, not waited for
        assert not alive(first)
        assert judge.settle(Check(UNIQUE, frozenset({SOLUTION}))).proof == "proved"  # a fresh process
    finally:
        judge.close()


@pytest.mark.slow
def test_a_check_out_of_memory_is_unchecked_and_the_process_goes_on() -> None:
    judge = JudgeProcess(memory_mb=40)
    try:
        verdict = judge.settle(Check(EMPTY_36))
        assert verdict.proof == "unchecked" and "ran out of the judge's memory (40 MB" in verdict.reason
        assert judge.settle(Check(UNSAT)).proof == "proved"
    finally:
        judge.close()


@pytest.mark.slow
def test_a_judge_process_killed_mid_check_gives_an_unchecked_verdict_saying_so() -> None:
    judge = JudgeProcess(budget_s=60)
    try:
        judge.settle(Check(UNSAT))
        pid = judge._server.process.pid
        assert judge.submit(Check(EMPTY_36)) is None
        time.sleep(0.5)
        os.kill(pid, signal.SIGKILL)
        (check, verdict), = judge.ready(timeout=30)
        assert check == Check(EMPTY_36) and verdict.proof == "unchecked"
        assert "died during the check (killed by signal SIGKILL)" in verdict.reason
    finally:
        judge.close()
