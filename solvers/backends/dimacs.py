"""The ``dimacs`` backend: any external SAT solver that reads DIMACS CNF, found on PATH.

The model is exported with the toolkit's own encodings (solvers/encodings/dimacs.py),
the solver runs as a separate process on a temporary file, and its answer is read back
through the same numbering. ``solver=`` names one of :data:`PROFILES` (looked up on
PATH; default the first found, in that order) or gives a path to a binary; a binary
whose name is not a profile is run as ``BINARY FILE`` and must print the
SAT-competition ``s``/``v`` lines.

The answer is translated explicitly: exit code 10 with ``s SATISFIABLE`` (or MiniSat's
result file ``SAT`` and a model) is a model, 20 with ``s UNSATISFIABLE`` (``UNSAT``) is
unsatisfiable, exit 0 with ``s UNKNOWN`` (``INDET``; CaDiCaL writes ``c UNKNOWN``) means
the solver gave up under its own time limit. An exit code that contradicts the output,
any other exit code, or output with no status is an ERROR carrying the end of the
solver's stderr.

Time limit. Where the solver has a flag for one (``-t``, ``--time=``, ``-cpu-lim=``,
``-L``) the remaining time, rounded up to whole seconds, is passed; in every case the
process runs in its own process group, which is killed at the limit (TIMEOUT), and dies
with the worker that started it. More solutions: the CNF is written again with one
blocking clause per grid found and the solver runs again (a fresh process each time).

Counters: the decisions, conflicts, propagations and restarts that the solver prints in
its statistics (CaDiCaL, Kissat, MiniSat, Glucose and ``picosat -v`` print them; summed
over the runs; one left out of a printed statistics section counts 0, as CaDiCaL omits
zero lines), and the exported CNF's variables and clauses. A solver that prints no
statistics leaves them unmeasured.
"""
from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from models import Grid, Model

from ..encodings.cnf import DESCRIPTIONS, ENCODINGS, Clause, encode, formula_family
from ..encodings.dimacs import SATISFIABLE, UNSATISFIABLE, DimacsError, cnf_text, read_answer
from ..options import Declaration, Option, Reach
from ..result import COUNT_ALL, SAMPLE, Counted, Result, Stats, Status, finish, with_count
from ._process import execute

__all__ = ["DECLARATION", "ENCODINGS", "PROFILES", "Profile", "found", "solve", "unavailable"]


@dataclass(frozen=True)
class Profile:
    """How to run one SAT solver: its arguments, time-limit flag, and where it writes its answer."""

    name: str
    install: str                          # how to get it
    quiet: tuple[str, ...] = ()           # arguments before the time flag
    time_flag: str | None = None          # '-t {}', '--time={}', ...: whole seconds
    result_file: bool = False             # MiniSat style: BINARY [options] CNF RESULT

    def command(self, binary: str, cnf: str, result: str, seconds: int | None) -> list[str]:
        timed = self.time_flag.format(seconds).split() if self.time_flag and seconds else []
        return [binary, *self.quiet, *timed, cnf, *([result] if self.result_file else [])]


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("kissat", "not packaged in Debian 12: build it from https://github.com/arminbiere/kissat",
            time_flag="--time={}"),
    Profile("cadical", "apt-get install cadical", time_flag="-t {}"),
    Profile("minisat", "apt-get install minisat", ("-verb=1",), "-cpu-lim={}", result_file=True),
    Profile("picosat", "apt-get install picosat", ("-v",), "-L {}"),
    Profile("glucose", "not packaged in Debian 12: build it from https://github.com/audemard/glucose",
            ("-verb=1",), "-cpu-lim={}", result_file=True),
)}
"""The solvers this backend knows, in the order the default is looked for."""



def _chosen(options: dict[str, Any]) -> dict[str, Any]:
    """The solver made explicit: none becomes the first known solver on PATH."""
    if options["solver"] is None:
        on_path = found()
        return {**options, "solver": next(iter(on_path), None)}
    return options


def _facts(options: dict[str, Any]) -> dict[str, Any]:
    """The binary a configuration runs and what it says its version is."""
    solver = options.get("solver")
    path = shutil.which(solver) if solver else None
    if path is None:
        return {}
    return {"binary": path, "binary_version": program_version(path)}


def program_version(path: str) -> str:
    """The first line a solver prints for --version (some print it on stderr), or why not."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=5,
                              check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unknown ({type(error).__name__})"
    lines = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return lines[0][:200] if lines else "unknown (it printed nothing)"


DECLARATION = Declaration(
    options=(
        Option("solver", "program", "the SAT solver: a known one (looked up on PATH) or a path "
               "to a binary that prints 's'/'v' lines; none: the first known one on PATH",
               default=None, choices=tuple(PROFILES),
               install={name: p.install for name, p in PROFILES.items()}),
        Option("encoding", "choice", "CNF encoding: " + "; ".join(
            f"{k} = {v}" for k, v in DESCRIPTIONS.items()), default=ENCODINGS[0], choices=ENCODINGS),
    ),
    counters={
        "nodes": "decisions the solver reports in its statistics (summed over its runs)",
        "conflicts": "conflicts the solver reports",
        "propagations": "propagations the solver reports",
        "restarts": "restarts the solver reports",
        "variables": "CNF variables of the exported encoding",
        "clauses": "CNF clauses of the exported encoding (blocking clauses not counted)",
    },
    constraints=frozenset({"all-different", "sum"}), family=formula_family,
    resolve=_chosen, facts=_facts, missing=lambda options: unavailable() if options["solver"] is None else None,
    notes="`apt-get install cadical`",
    program="a DIMACS SAT solver program (kissat, cadical, minisat, picosat, glucose on PATH, or solver=PATH)",
    reach=Reach(solutions=4),
)
STDERR_TAIL = 400
"""Characters of the solver's stderr quoted in an ERROR."""
_STAT = re.compile(r"^(?:c\s+)?(decisions|conflicts|propagations|restarts)\s*:\s*(\d+)"
                   r"|^c\s+(\d+)\s+(decisions|conflicts|propagations|restarts)\s*$", re.M)
_STATS = {"decisions": "nodes", "conflicts": "conflicts", "propagations": "propagations",
          "restarts": "restarts"}
OUT_OF_TIME, GAVE_UP = "out of time", "gave up"


def found() -> dict[str, str]:
    """The known solvers on PATH: name -> binary path, in profile order."""
    return {name: path for name in PROFILES if (path := shutil.which(name))}


def unavailable() -> str | None:
    """Why this backend cannot run here (no known solver on PATH), or None if it can."""
    if found():
        return None
    hints = "; ".join(f"{name}: {p.install}" for name, p in PROFILES.items())
    return (f"no DIMACS SAT solver on PATH (looked for {', '.join(PROFILES)}). Install one ({hints}), "
            "or pass solver=/path/to/binary")


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          solver: str | None = None, encoding: str = ENCODINGS[0]) -> Result:
    """Solve with an external DIMACS solver; more solutions by re-solving with blocking clauses."""
    return _solve(model, [], max_solutions, time_limit, solver, encoding)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, solver: str | None = None,
          encoding: str = ENCODINGS[0]) -> Result:
    """Count every solution (count mode): the solver run once per solution, each blocked in the
    next (the clauses grow with the count), keeping the first ``sample`` grids."""
    found = Counted(sample)
    return with_count(_solve(model, found, COUNT_ALL, time_limit, solver, encoding), found)


def _solve(model: Model, solutions: list[Grid], max_solutions: int, time_limit: float | None,
           solver: str | None, encoding: str) -> Result:
    """solve's work, each solution appended to ``solutions`` (a Counted list when counting)."""
    binary, profile = _resolve(solver)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    cnf = encode(model, encoding)
    stats = Stats(encode_time=time.perf_counter() - start, solve_time=0.0,
                  variables=cnf.num_vars, clauses=len(cnf.clauses))
    blocking: list[Clause] = []
    complete = limit_hit = budget_hit = False
    with tempfile.TemporaryDirectory(prefix="sudoku-dimacs-") as folder:
        while len(blocking) < max_solutions:
            began = time.perf_counter()
            answer = _run(binary, profile, cnf_text(model, cnf, blocking), Path(folder), deadline, stats)
            stats.solve_time = (stats.solve_time or 0.0) + time.perf_counter() - began
            if isinstance(answer, Result):
                answer.stats = stats
                return answer
            if answer == UNSATISFIABLE:
                complete = True
                break
            if answer in (OUT_OF_TIME, GAVE_UP):
                limit_hit, budget_hit = answer == OUT_OF_TIME, answer == GAVE_UP
                break
            grid = cnf.decode(lit for lit in cast(list[int], answer) if lit > 0)  # a model
            solutions.append(grid)
            blocking.append(cnf.blocking_clause(grid))
    return finish(solutions, complete, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message="time limit reached" if limit_hit else
                  "the solver gave up (UNKNOWN) before its limit" if budget_hit else "")


def _resolve(solver: str | None) -> tuple[str, Profile]:
    """The binary to run and its profile; ValueError naming what was looked for."""
    if solver is None:
        on_path = found()
        if not on_path:
            raise ValueError(unavailable())
        name = next(iter(on_path))
        return on_path[name], PROFILES[name]
    if solver in PROFILES:
        path = shutil.which(solver)
        if path is None:
            raise ValueError(f"solver {solver!r} is not on PATH; {PROFILES[solver].install}")
        return path, PROFILES[solver]
    if os.sep in solver or shutil.which(solver):
        path = shutil.which(solver) or solver
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise ValueError(f"solver {solver!r} is not an executable file")
        name = Path(path).name
        return path, PROFILES.get(name, Profile(name, "given by path"))
    raise ValueError(f"unknown solver {solver!r}; valid: {', '.join(PROFILES)} or a path to a binary")


def _run(binary: str, profile: Profile, text: str, folder: Path, deadline: float | None,
         stats: Stats) -> tuple[int, ...] | str | Result:
    """One run of the solver: the model's literals, UNSATISFIABLE, OUT_OF_TIME, GAVE_UP,
    or an ERROR Result saying what the solver did wrong."""
    cnf_path, result_path = folder / "puzzle.cnf", folder / "result.txt"
    cnf_path.write_text(text)
    result_path.unlink(missing_ok=True)
    remaining = None if deadline is None else deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:
        return OUT_OF_TIME
    seconds = None if remaining is None else max(1, math.ceil(remaining))
    command = profile.command(binary, str(cnf_path), str(result_path), seconds)
    code, out, err = execute(command, remaining)
    if code is None:
        return OUT_OF_TIME
    _add_counters(stats, out)
    output = result_path.read_text() if profile.result_file and result_path.exists() else out
    return _interpret(profile.name, code, output, err, timed=seconds is not None)


def _interpret(name: str, code: int, output: str, err: str, *, timed: bool) -> tuple[int, ...] | str | Result:
    """Exit code and answer, checked against each other."""
    try:
        answer = read_answer(output)
        status, literals = answer.status, answer.literals
    except DimacsError as error:
        if code == 0 and re.search(r"^c UNKNOWN\s*$", output, re.M):   # CaDiCaL's own time limit
            status, literals = "UNKNOWN", ()
        else:
            return _error(name, code, f"unreadable answer: {error}", err)
    expected = {SATISFIABLE: 10, UNSATISFIABLE: 20}.get(status, 0)
    if code != expected:
        return _error(name, code, f"exit code {code} with answer {status}", err)
    if status == SATISFIABLE:
        return literals
    if status == UNSATISFIABLE:
        return UNSATISFIABLE
    return OUT_OF_TIME if timed else GAVE_UP


def _error(name: str, code: int, what: str, err: str) -> Result:
    tail = err.strip()[-STDERR_TAIL:] or "(nothing on stderr)"
    return Result(Status.ERROR, message=f"{name} exited with code {code}: {what}; stderr: {tail}")


def _add_counters(stats: Stats, output: str) -> None:
    """Add the decisions, conflicts, propagations and restarts printed in the solver's statistics.

    A solver that prints statistics but leaves a counter out (CaDiCaL omits zero lines) is
    taken to have counted none of it in that run.
    """
    counted = {_STATS[m.group(1) or m.group(4)]: int(m.group(2) or m.group(3))
               for m in _STAT.finditer(output)}
    if not counted:
        return
    for field in _STATS.values():
        setattr(stats, field, (getattr(stats, field) or 0) + counted.get(field, 0))
