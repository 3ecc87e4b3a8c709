"""The ``minizinc`` backend: the model written in MiniZinc, solved by any solver configuration
MiniZinc lists (Gecode by default), run as a killable process.

The model is solvers/encodings/minizinc.py's text, the same file ``export --format minizinc``
writes: each group one all-different constraint (its consistency level the ``propagation``
option), each cage total one linear sum. The ``minizinc`` program flattens it and runs the
solver; this backend reads MiniZinc's JSON stream (``--json-stream``): each solution's cells,
the final status, and the statistics that MiniZinc and the solver print.

Statuses are translated explicitly (:data:`STATUSES`): ``ALL_SOLUTIONS`` is a search
exhausted, ``UNSATISFIABLE`` a proof that no grid exists, ``UNKNOWN`` a solver that stopped
without an answer; a solver that stops at the asked number of solutions prints no status.
Any other status, an ``error`` message or a failing exit code is an ERROR carrying what
MiniZinc said.

Several solutions: a configuration that can list all solutions (its ``-a`` flag) is asked
for ``-n K`` in one run; any other is run again with the grids found ruled out by one
constraint each, as the dimacs backend adds blocking clauses.

Time limit: MiniZinc's own ``--time-limit`` (flattening included); the ``minizinc`` driver
and the solver executable it starts (in a process group of its own) are killed together at
the limit plus a second's grace (backends/_process.py), so nothing outlives the run.

Counters, as the solver reports them (Gecode: nodes, failures, propagations, restarts;
summed over the runs); variables and constraints are the FlatZinc ones MiniZinc reports
after flattening. A puzzle that flattening alone refutes reaches no solver: its search
counters are 0.
"""
from __future__ import annotations

import json
import math
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models import Grid, Model

from ..encodings.minizinc import CELL, PROPAGATIONS, SEARCHES, model_text
from ..options import Declaration, Option
from ..result import SAMPLE, Counted, Result, Stats, Status, finish, unsupported, with_count
from ._minizinc_solvers import (
    INSTALL,
    MINIMUM_VERSION,
    PROGRAM,
    Configuration,
    default_configuration,
    find_configuration,
    installed,
    version_of,
)
from ._process import GRACE, execute, stream_lines

STDERR_TAIL = 400
"""Characters of MiniZinc's stderr quoted in an ERROR."""

STATUSES: dict[str, Status] = {
    "ALL_SOLUTIONS": Status.SOLVED,     # every solution printed: the search is exhausted
    "OPTIMAL_SOLUTION": Status.SOLVED,  # what some solvers say for a finished satisfy search
    "UNSATISFIABLE": Status.UNSAT,
    "UNKNOWN": Status.UNKNOWN,          # stopped (a limit) before any answer
    "ERROR": Status.ERROR,
    "UNBOUNDED": Status.ERROR,          # no objective here: a solver saying this is wrong
    "UNSAT_OR_UNBOUNDED": Status.ERROR,
}
"""Every final status MiniZinc's JSON stream may carry, translated; any other is an ERROR."""
COUNTED = {"nodes": "nodes", "failures": "conflicts", "propagations": "propagations",
           "restarts": "restarts"}
"""The solver's statistic -> the Stats counter it is added to."""


def _missing(options: dict[str, Any]) -> str | None:
    """Why MiniZinc cannot run here: the program is missing or too old, or it has no solver."""
    line, configurations = installed()
    if not line:
        return f"the program {PROGRAM!r} is not on PATH: {INSTALL}"
    if version_of(line) < MINIMUM_VERSION:
        return (f"needs MiniZinc {'.'.join(map(str, MINIMUM_VERSION))} or later (its --json-stream); "
                f"found {line!r}: {INSTALL}")
    if options["solver"] is None:
        listed = ", ".join(f"{c.name} ({c.problem})" for c in configurations) or "none"
        return f"MiniZinc lists no solver configuration it can run here (listed: {listed})"
    return None


def _resolve(options: dict[str, Any]) -> dict[str, Any]:
    """The solver made explicit (none: gecode if MiniZinc can run it, else MiniZinc's default),
    and a named one checked against what MiniZinc lists here."""
    line, _ = installed()
    if not line:
        return options
    if options["solver"] is not None:
        find_configuration(options["solver"])
        return options
    default = default_configuration()
    return {**options, "solver": None if default is None else default.short}


def _facts(options: dict[str, Any]) -> dict[str, Any]:
    """MiniZinc's version and the solver configuration a run uses."""
    line, _ = installed()
    if not line or options["solver"] is None:
        return {}
    chosen = find_configuration(options["solver"])
    return {"minizinc": line, "solver_id": chosen.id, "solver_version": chosen.version}


DECLARATION = Declaration(
    options=(
        Option("solver", "text", "a solver configuration `minizinc --solvers` lists (its id, the "
               "id's last part or its name; one MiniZinc cannot load is refused); none: gecode, "
               "or MiniZinc's default where it has no Gecode", default=None),
        Option("propagation", "choice", "how each group's all-different is stated: " + "; ".join(
            f"{k} = {v}" for k, v in PROPAGATIONS.items()), default="domain", choices=tuple(PROPAGATIONS)),
        Option("search", "choice", "the search annotation: " + "; ".join(
            f"{k} = {v}" for k, v in SEARCHES.items()), default="solver", choices=tuple(SEARCHES)),
    ),
    counters={
        "nodes": "search nodes the solver reports (Gecode: nodes)",
        "conflicts": "failures the solver reports (Gecode: failed nodes, a domain wiped out)",
        "propagations": "propagator executions the solver reports (Gecode)",
        "restarts": "restarts the solver reports",
        "variables": "FlatZinc variables after MiniZinc's flattening",
        "constraints": "FlatZinc constraints after MiniZinc's flattening",
    },
    constraints=frozenset({"all-different", "sum"}),
    resolve=_resolve, facts=_facts, missing=_missing,
    program=f"the program {PROGRAM!r} with a solver it can run: {INSTALL}",
    notes="`apt-get install minizinc`; `export --format minizinc`",
)


@dataclass
class Stream:
    """What one MiniZinc run printed on its JSON stream."""

    grids: list[Grid] = field(default_factory=list)
    status: str | None = None
    errors: list[str] = field(default_factory=list)
    statistics: dict[str, float] = field(default_factory=dict)
    searched: bool = False
    """Whether the solver itself reported statistics (it ran)."""


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          solver: str | None = None, propagation: str = "domain", search: str = "solver") -> Result:
    """Solve through the ``minizinc`` program; up to max_solutions grids."""
    chosen = find_configuration(solver) if solver is not None else default_configuration()
    if chosen is None:
        return Result(Status.ERROR, message=_missing({"solver": None}) or "no MiniZinc solver")
    return solve_with(chosen, max_solutions=max_solutions, time_limit=time_limit,
                      text=model_text(model, propagation, search),
                      enumerate_in_one_run={"-a", "-n"} <= set(chosen.flags))


def solve_with(chosen: Configuration, *, max_solutions: int, time_limit: float | None, text: str,
               enumerate_in_one_run: bool) -> Result:
    """Solve a model's MiniZinc text with one configuration: in one run (``-n K``) or run after
    run, each ruling out the grids found so far."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    stats = Stats(encode_time=0.0, solve_time=0.0)
    grids: list[Grid] = []
    with tempfile.TemporaryDirectory(prefix="sudoku-minizinc-") as folder:
        path = Path(folder) / "puzzle.mzn"
        while True:
            wanted = max_solutions - len(grids) if enumerate_in_one_run else 1
            path.write_text(text + "".join(map(_ruled_out, grids)))
            began = time.perf_counter()
            stream, limit_hit, failure = _run(path, chosen, wanted, deadline)
            _add_statistics(stats, stream, time.perf_counter() - began)
            if failure is not None:
                return Result(Status.ERROR, grids, False, stats, failure)
            grids += stream.grids
            if (stream.status is not None or limit_hit or len(grids) >= max_solutions
                    or enumerate_in_one_run or not stream.grids):
                break
    return translate(stream.status, grids, stats, limit_hit=limit_hit)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, solver: str | None = None,
          propagation: str = "domain", search: str = "solver") -> Result:
    """Count every solution (count mode): one run listing them all (``-a``), each solution
    line read as it comes and counted, the first ``sample`` kept (memory: one line's)."""
    chosen = find_configuration(solver) if solver is not None else default_configuration()
    if chosen is None:
        return Result(Status.ERROR, message=_missing({"solver": None}) or "no MiniZinc solver")
    if "-a" not in chosen.flags:
        return unsupported(f"MiniZinc's {chosen.id} cannot list every solution (-a): it cannot count")
    found, stats = Counted(sample), Stats(encode_time=0.0, solve_time=0.0)
    stream = Stream(grids=found)
    command = [shutil.which(PROGRAM) or PROGRAM, "--solver", chosen.id, "--json-stream", "--output-mode",
               "json", "--statistics", "-a"]
    if time_limit is not None:
        command += ["--time-limit", str(max(1, math.ceil(time_limit * 1000)))]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sudoku-minizinc-") as folder:
        path = Path(folder) / "puzzle.mzn"
        path.write_text(model_text(model, propagation, search))
        code, err = stream_lines([*command, str(path)], None if time_limit is None else time_limit + GRACE,
                                 lambda line: take_line(stream, line), death_signal=signal.SIGTERM,
                                 stderr_tail=STDERR_TAIL)
    elapsed = time.perf_counter() - began
    _add_statistics(stats, stream, elapsed)
    # no final status from a run with a time limit: MiniZinc stopped itself there (its clock starts later)
    limit_hit = code is None or (time_limit is not None and (elapsed >= time_limit or stream.status is None))
    if stream.errors:
        return with_count(Result(Status.ERROR, list(found), False, stats, f"MiniZinc: {'; '.join(stream.errors)}"),
                          found)
    if code not in (0, None) and stream.status is None:
        return Result(Status.ERROR, list(found), False, stats,
                      f"minizinc exited with code {code}; stderr: {err.strip() or '(nothing on stderr)'}")
    return with_count(translate(stream.status, found, stats, limit_hit=limit_hit), found)


def _ruled_out(grid: Grid) -> str:
    """A constraint that rules out one grid already found."""
    return f"constraint exists(i in 1..n * n)({CELL}[i] != {list(grid)}[i]);\n"


def _run(path: Path, chosen: Configuration, wanted: int, deadline: float | None
         ) -> tuple[Stream, bool, str | None]:
    """One run of MiniZinc: what it printed, whether the time limit stopped it, and why it
    failed (or None)."""
    remaining = None if deadline is None else deadline - time.perf_counter()
    if remaining is not None and remaining <= 0:
        return Stream(), True, None
    command = [shutil.which(PROGRAM) or PROGRAM, "--solver", chosen.id, "--json-stream",
               "--output-mode", "json", "--statistics", *(["-n", str(wanted)] if wanted > 1 else [])]
    if remaining is not None:
        command += ["--time-limit", str(max(1, math.ceil(remaining * 1000)))]
    code, out, err = execute([*command, str(path)], None if remaining is None else remaining + GRACE,
                             death_signal=signal.SIGTERM)  # minizinc then stops its solver too
    stream = read_stream(out)
    limit_hit = code is None or (deadline is not None and time.perf_counter() >= deadline)
    if stream.errors:
        return stream, limit_hit, f"MiniZinc: {'; '.join(stream.errors)}"
    if code not in (0, None) and stream.status is None:
        tail = err.strip()[-STDERR_TAIL:] or "(nothing on stderr)"
        return stream, limit_hit, f"minizinc exited with code {code}; stderr: {tail}"
    return stream, limit_hit, None


def read_stream(text: str) -> Stream:
    """The solutions, status, errors and statistics on MiniZinc's JSON stream (a line cut off
    by a kill is left out)."""
    stream = Stream()
    for line in text.splitlines():
        take_line(stream, line)
    return stream


def take_line(stream: Stream, line: str) -> None:
    """Add what one line of MiniZinc's JSON stream says to ``stream`` (a line that is not a
    JSON object is left out)."""
    try:
        message = json.loads(line)
    except ValueError:
        return
    if isinstance(message, dict):
        _take_message(stream, message, line)


def _take_message(stream: Stream, message: dict[str, Any], line: str) -> None:
    kind = message.get("type")
    if kind == "solution":
        grid = _grid(message)
        if grid is None:
            stream.errors.append(f"a solution without the {CELL} array: {line[:200]}")
        else:
            stream.grids.append(grid)
    elif kind == "status":
        stream.status = str(message.get("status"))
    elif kind == "error":
        stream.errors.append(f"{message.get('what', 'error')}: {message.get('message', '')}".strip())
    elif kind == "statistics" and isinstance(message.get("statistics"), dict):
        _merge(stream, message["statistics"])


def _grid(message: dict[str, Any]) -> Grid | None:
    """The cells of a solution message, or None if it has no list of whole numbers for them."""
    output = message.get("output")
    printed = output.get("json") if isinstance(output, dict) else None
    cells = printed.get(CELL) if isinstance(printed, dict) else None
    if not isinstance(cells, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in cells):
        return None
    return tuple(cells)


def _merge(stream: Stream, statistics: dict[str, Any]) -> None:
    numbers = {k: v for k, v in statistics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if any(name in numbers for name in COUNTED):
        stream.searched = True
    stream.statistics.update(numbers)


def _add_statistics(stats: Stats, stream: Stream, elapsed: float) -> None:
    """Add one run's times and counters to the stats (counters summed over the runs)."""
    found = stream.statistics
    flattening = float(found.get("flatTime", 0.0))
    stats.encode_time = (stats.encode_time or 0.0) + flattening
    stats.solve_time = (stats.solve_time or 0.0) + max(0.0, elapsed - flattening)
    if "flatIntVars" in found or "flatIntConstraints" in found:
        stats.variables = int(found.get("flatIntVars", 0) + found.get("flatBoolVars", 0))
        stats.constraints = int(found.get("flatIntConstraints", 0) + found.get("flatBoolConstraints", 0))
    if stream.searched or stream.status == "UNSATISFIABLE":  # refuted in flattening: no search at all
        for name, counter in COUNTED.items():
            setattr(stats, counter, (getattr(stats, counter) or 0) + int(found.get(name, 0)))


def translate(status: str | None, grids: list[Grid], stats: Stats, *, limit_hit: bool) -> Result:
    """The Result of a search whose last run ended with MiniZinc's ``status`` (None: it
    printed none, having stopped at the asked number of solutions or at the time limit),
    with every grid found over the runs. A status not in STATUSES is an ERROR."""
    verdict = STATUSES.get(status, Status.ERROR) if status is not None else None
    if verdict is Status.ERROR:
        known = status in STATUSES
        return Result(Status.ERROR, grids, False, stats,
                      f"MiniZinc said {status}" + ("" if known else ", a status this backend does not know"))
    if verdict is Status.UNSAT:
        if grids:  # the run after the last solution found no more: the search is exhausted
            return finish(grids, True, stats, limit_hit=False)
        return Result(Status.UNSAT, [], True, stats)
    complete = verdict is Status.SOLVED
    timed_out = limit_hit and not complete
    return finish(grids, complete, stats, limit_hit=timed_out, budget_hit=verdict is Status.UNKNOWN and not timed_out,
                  message="time limit reached" if timed_out else
                  "the solver stopped without an answer" if verdict is Status.UNKNOWN else "")
