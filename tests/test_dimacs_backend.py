"""The dimacs backend (external SAT solvers on PATH) and `compare.py decode`: every solver found
runs the same cases; translation of exit codes and answers, killing at the time limit, the
unavailable message, and the decode command's exit codes. Tests needing a binary skip, naming it."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from models import Model, Puzzle, verify
from solvers import BackendUnavailableError, Status, registry
from solvers.backends import dimacs
from solvers.encodings.cnf import encode
from solvers.encodings.dimacs import export_dimacs

from .conftest import ROOT, compare_here, load

pytestmark = pytest.mark.backends("dimacs")  # pytest --backend NAME leaves the module out for others

BACKEND = registry.get("dimacs")
SOLVERS = [pytest.param(name, marks=pytest.mark.skipif(
    shutil.which(name) is None, reason=f"{name} is not on PATH ({profile.install})"))
    for name, profile in dimacs.PROFILES.items()]
CASES = [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}") for name, i in
         [("seeds.txt", 0), ("top95.txt", 1), ("x_sudoku.txt", 0), ("jigsaw.txt", 0),
          ("small_6x6.txt", 0), ("16x16_forum_samples.txt", 1)]]


def solve(puzzle: Puzzle, **options):
    result = BACKEND.solve(puzzle, **options)
    assert result.status is not Status.ERROR, result.message
    for solution in result.solutions:
        assert verify(puzzle, solution).ok, f"invalid solution with {options}"
    return result


@pytest.mark.parametrize("puzzle", CASES)
@pytest.mark.parametrize("solver", SOLVERS)
def test_every_solver_found_proves_the_cases_unique_with_counters(solver: str, puzzle: Puzzle) -> None:
    result = solve(puzzle, solver=solver, max_solutions=2, time_limit=60)
    assert result.status is Status.SOLVED and result.unique is True
    assert result.stats.variables > 0 and result.stats.clauses > 0
    assert result.stats.propagations is not None and result.stats.nodes is not None


@pytest.mark.parametrize("solver", SOLVERS)
def test_every_solver_found_counts_all_solutions_and_proves_unsat(solver: str) -> None:
    ten = solve(load("special_9x9_multiple_solutions.txt")[6], solver=solver, max_solutions=50)
    assert len(set(ten.solutions)) == 10 and ten.complete
    for puzzle in load("small_unsat.txt") + load("special_9x9_unsolvable.txt")[:2]:
        result = solve(puzzle, solver=solver)
        assert result.status is Status.UNSAT and result.complete


@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended", "simplified"])
def test_every_encoding_goes_through_the_default_solver(encoding: str) -> None:
    if not dimacs.found():
        pytest.skip(dimacs.unavailable())
    puzzle = load("top95.txt")[2]
    result = solve(puzzle, encoding=encoding, max_solutions=2)
    assert result.status is Status.SOLVED and result.unique is True
    assert result.stats.variables == encode(_model(puzzle), encoding).num_vars


def _model(puzzle: Puzzle) -> Model:
    return Model.from_puzzle(puzzle)


def test_a_solver_given_by_path_is_run_with_its_profile() -> None:
    path = next(iter(dimacs.found().values()), None)
    if path is None:
        pytest.skip(dimacs.unavailable())
    result = solve(load("seeds.txt")[1], solver=path)
    assert result.status is Status.SOLVED


def test_no_solver_on_path_makes_the_backend_unavailable_with_the_install_hint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not BACKEND.available
    with pytest.raises(BackendUnavailableError, match="apt-get install cadical"):
        BACKEND.load()
    assert "dimacs" not in registry.available_names()


def test_list_says_why_dimacs_is_unavailable(tmp_path: Path) -> None:
    environment = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "list"], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert next(line for line in done.stdout.splitlines() if line.startswith("dimacs ")).split()[1] == "no"
    why = " ".join(done.stdout.split("\n\n", 1)[1].split())  # the note under the table, unwrapped
    assert "dimacs: backend 'dimacs' is unavailable: no DIMACS SAT solver on PATH" in why
    assert "apt-get install minisat" in why


def test_a_named_solver_not_on_path_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = _script(tmp_path, "cadical", "exit 3")      # keeps the backend available
    monkeypatch.setenv("PATH", str(fake.parent))
    with pytest.raises(ValueError, match="program 'picosat' is not on PATH; install it: apt-get install picosat"):
        BACKEND.solve(load("seeds.txt")[0], solver="picosat")


# ---------------------------------------------------------------- fake solvers: the translation

def _script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.parametrize("body, words", [
    ("echo boom >&2; exit 3", "exited with code 3"),
    ("echo 's SATISFIABLE'; echo 'v 1 0'; exit 20", "exit code 20 with answer SATISFIABLE"),
    ("echo 's UNSATISFIABLE'; exit 10", "exit code 10 with answer UNSATISFIABLE"),
    ("echo 'nothing useful'; exit 10", "unreadable answer"),
])
def test_an_answer_that_contradicts_itself_is_an_error_with_the_stderr_tail(tmp_path: Path, body: str,
                                                                          words: str) -> None:
    fake = _script(tmp_path, "fake-solver", body + "\n")
    result = dimacs.solve(_model(load("seeds.txt")[0]), solver=str(fake))   # needs no real solver
    assert result.status is Status.ERROR and not result.solutions
    assert words in result.message and "stderr:" in result.message
    if "boom" in body:
        assert result.message.endswith("boom")


def test_an_unknown_answer_without_a_time_limit_is_unknown(tmp_path: Path) -> None:
    fake = _script(tmp_path, "fake-solver", "echo 's UNKNOWN'; exit 0")
    result = dimacs.solve(_model(load("seeds.txt")[0]), solver=str(fake))
    assert result.status is Status.UNKNOWN and not result.solutions


def test_the_time_limit_kills_the_whole_process_group(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    fake = _script(tmp_path, "slow-solver", f"sleep 60 & echo $! > {pids}; echo $$ >> {pids}; wait")
    for limit in (0.5, 5.0):  # a loaded machine may not start the script within the first limit
        start = time.perf_counter()
        result = dimacs.solve(_model(load("seeds.txt")[0]), solver=str(fake), time_limit=limit)
        assert result.status is Status.TIMEOUT and time.perf_counter() - start < limit + 5
        if pids.exists():
            break
    for pid in map(int, pids.read_text().split()):
        assert not _alive(pid), f"process {pid} survived the time limit"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat")
    return state.exists() and state.read_text().split()[2] != "Z"


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_a_real_solver_on_a_hard_25x25_is_stopped_by_the_limit_and_leaves_no_process(solver: str) -> None:
    before = _solver_processes(solver)
    result = solve(load("25x25_gecode_frisch.txt")[0], solver=solver, encoding="extended", time_limit=0.5)
    assert result.status in (Status.TIMEOUT, Status.SOLVED)   # no time asserted: the machine is shared
    assert result.status is Status.SOLVED or "time limit" in result.message
    assert _solver_processes(solver) <= before, "the solver's process outlived the run"


def _solver_processes(solver: str) -> set[int]:
    """The live (non-zombie) children of this process whose command is this solver binary (not
    another program's solver: the machine may be shared)."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)
            name = fields[0].split("(", 1)[1]
        except (OSError, IndexError):
            continue
        state, parent = fields[1].split()[:2]
        if name == solver and state != "Z" and int(parent) == os.getpid():
            found.add(int(entry.parent.name))
    return found


# ---------------------------------------------------------------- compare.py decode

def decode(tmp_path: Path, answer: str, cnf: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "answer.txt").write_text(answer)
    (tmp_path / "puzzle.cnf").write_text(cnf)
    return compare_here("decode", str(tmp_path / "answer.txt"), "--cnf", str(tmp_path / "puzzle.cnf"))


def _answer(puzzle: Puzzle, grid: tuple[int, ...], encoding: str) -> str:
    cnf = encode(_model(puzzle), encoding)
    literals = [cnf.numbering.var(c, grid[c]) for c, v in enumerate(puzzle.givens) if not v]
    return "s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n"


SEED = load("seeds.txt")[0]


def _seed_solution() -> tuple[int, ...]:
    return registry.get("mrv").solve(SEED).solution


@pytest.mark.parametrize("encoding", ["extended", "simplified"])
def test_decode_prints_the_boxed_grid_and_says_it_is_valid(tmp_path: Path, encoding: str) -> None:
    done = decode(tmp_path, _answer(SEED, _seed_solution(), encoding), export_dimacs(SEED, encoding))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("+-------+") and "valid: the grid keeps the 28 givens" in done.stdout


def test_decode_says_plainly_when_the_grid_does_not_solve_the_puzzle(tmp_path: Path) -> None:
    wrong = list(_seed_solution())
    open_cells = [c for c, v in enumerate(SEED.givens) if not v]
    wrong[open_cells[0]], wrong[open_cells[1]] = wrong[open_cells[1]], wrong[open_cells[0]]
    if wrong == list(_seed_solution()):
        wrong[open_cells[0]] = wrong[open_cells[0]] % 9 + 1
    done = decode(tmp_path, _answer(SEED, tuple(wrong), "extended"), export_dimacs(SEED, "extended"))
    assert done.returncode == 1
    assert "DOES NOT MATCH the puzzle" in done.stdout and "duplicate" in done.stdout


def test_decode_an_answer_to_another_cnf_is_a_mismatch(tmp_path: Path) -> None:
    other = load("top95.txt")[0]
    answer = _answer(other, registry.get("mrv").solve(other).solution, "simplified")
    done = decode(tmp_path, answer, export_dimacs(SEED, "simplified"))
    assert done.returncode == 1 and "DOES NOT MATCH" in done.stdout


def test_decode_an_unsat_answer_says_there_is_no_solution(tmp_path: Path) -> None:
    done = decode(tmp_path, "s UNSATISFIABLE\n", export_dimacs(SEED, "extended"))
    assert done.returncode == 0 and "no solution" in done.stdout


@pytest.mark.parametrize("answer, cnf, words", [
    ("s SATISFIABLE\nv 1 x 0\n", None, "answer.txt: line 2: expected an integer, found 'x'"),
    ("s MAYBE\n", None, "answer.txt: line 1: unknown solver status 'MAYBE'"),
    ("s SATISFIABLE\nv 1 0\n", "p cnf 3 1\n1 2 0\n", "puzzle.cnf: the CNF file has no 'c encoding:'"),
    ("s SATISFIABLE\nv 1 0\n", "c encoding: extended\np cnf 2 5\n1 0\n", "puzzle.cnf: the header promises 5"),
])
def test_decode_a_malformed_file_exits_2_saying_which_and_where(tmp_path: Path, answer: str,
                                                                 cnf: str | None, words: str) -> None:
    done = decode(tmp_path, answer, cnf or export_dimacs(SEED, "extended"))
    assert done.returncode == 2 and words in done.stderr, done.stderr
