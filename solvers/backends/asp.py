"""The ``asp`` backend: the model as an answer set program, grounded and solved by clingo
(Potassco's Python API).

The program is solvers/encodings/asp.py's text, the same file ``export --format asp``
writes: facts for the puzzle, a choice rule giving each cell one digit, cardinality
constraints for the groups, ``#sum`` for cage totals. clingo's solver (clasp) is
conflict-driven: it learns a nogood from each conflict, as a CDCL SAT solver learns a
clause, but over the program's own atoms and aggregates.

Several solutions by enumeration: clingo lists up to max_solutions answer sets in one
search, and says whether it exhausted the search space, so ``--unique`` asks for two.
clingo's answer is translated explicitly (:func:`translate`): unsatisfiable is UNSAT,
satisfiable with the space exhausted is complete, interrupted is the time limit, and
anything else is an error.

Time limit: the search runs in clingo's own thread and is cancelled at the limit;
grounding is not interruptible (a 25x25 grid grounds in well under a second).

Counters: clasp's choices (nodes), conflicts and restarts; variables and constraints of
the ground program as clasp's generator counts them.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from models import Grid, Model

from ..encodings.asp import ATOM, ENCODINGS, program_text
from ..options import Declaration, Option
from ..result import SAMPLE, Counted, Result, Stats, Status, finish, with_count

CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many")
"""clingo's preset configurations (--configuration); auto is clingo's own default."""

DECLARATION = Declaration(
    options=(
        Option("encoding", "choice", "the rules: " + "; ".join(f"{k} = {v}" for k, v in ENCODINGS.items()),
               default="basic", choices=tuple(ENCODINGS)),
        Option("configuration", "choice", "clingo's preset search configuration (--configuration)",
               default="auto", choices=CONFIGURATIONS),
    ),
    counters={
        "nodes": "clasp choices (decisions)",
        "conflicts": "clasp conflicts",
        "restarts": "clasp restarts",
        "variables": "variables of the ground program, as clasp's generator counts them",
        "constraints": "constraints of the ground program, binary and ternary ones included, as clasp's "
                       "generator counts them",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="clingo", imports="clingo", extra="cp",
    notes="the `cp` extra; `export --format asp`",
)


class UnknownAnswerError(RuntimeError):
    """clingo answered in a way this backend does not know how to translate."""


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = "basic", configuration: str = "auto") -> Result:
    """Ground and solve with clingo; up to max_solutions answer sets."""
    return _solve(model, [], max_solutions, time_limit, encoding, configuration)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, encoding: str = "basic",
          configuration: str = "auto") -> Result:
    """Count every answer set (count mode, --models=0), the first ``sample`` kept."""
    found = Counted(sample)
    return with_count(_solve(model, found, 0, time_limit, encoding, configuration), found)


def _solve(model: Model, grids: list[Grid], models: int, time_limit: float | None, encoding: str,
           configuration: str) -> Result:
    """solve's work: up to ``models`` answer sets (0: all), appended to ``grids`` (a Counted
    list when counting)."""
    import clingo  # noqa: PLC0415 - the solver library, loaded only to solve

    start = time.perf_counter()
    control = clingo.Control([f"--models={models}", f"--configuration={configuration}"],
                             logger=_quiet)
    control.add("base", [], program_text(model, encoding))
    control.ground([("base", [])])
    stats = Stats(encode_time=time.perf_counter() - start)
    on_model = _collector(model, grids)
    began = time.perf_counter()
    remaining = None if time_limit is None else max(0.0, time_limit - (began - start))
    with control.solve(on_model=on_model, async_=True) as handle:
        finished = handle.wait(remaining)
        if not finished:
            handle.cancel()
        answer = handle.get()
    stats.solve_time = time.perf_counter() - began
    _read_counters(stats, control.statistics)
    return translate(answer, grids, stats, cancelled=not finished)


def _quiet(_code: Any, _message: str) -> None:
    """clingo's warnings (none are expected from this program) are not printed."""


def _collector(model: Model, grids: list[Grid]) -> Callable[[Any], None]:
    """on_model: each answer set's value(R,C,V) atoms as a grid."""
    n = model.n

    def on_model(answer: Any) -> None:
        grid = [0] * (n * n)
        for atom in answer.symbols(shown=True):
            if atom.name == ATOM and len(atom.arguments) == 3:
                row, column, digit = (argument.number for argument in atom.arguments)
                grid[(row - 1) * n + column - 1] = digit
        grids.append(tuple(grid))
    return on_model


def translate(answer: Any, grids: Sequence[Grid], stats: Stats, *, cancelled: bool) -> Result:
    """The Result of clingo's SolveResult; UnknownAnswerError for one it cannot be."""
    if answer.unsatisfiable:
        if grids:
            raise UnknownAnswerError(f"clingo said unsatisfiable after {len(grids)} answer sets")
        return Result(Status.UNSAT, [], True, stats)
    if answer.satisfiable:
        return finish(list(grids), bool(answer.exhausted), stats, limit_hit=cancelled and not answer.exhausted)
    if answer.unknown:
        return finish([], False, stats, limit_hit=cancelled,
                      message="" if cancelled else "clingo stopped without an answer")
    raise UnknownAnswerError(f"clingo gave an answer that is neither satisfiable, unsatisfiable nor "
                             f"unknown: {answer}")


def _read_counters(stats: Stats, statistics: Any) -> None:
    solvers = statistics["solving"]["solvers"]
    stats.nodes = int(solvers["choices"])
    stats.conflicts = int(solvers["conflicts"])
    stats.restarts = int(solvers["restarts"])
    generator = statistics["problem"]["generator"]
    stats.variables = int(generator["vars"])
    stats.constraints = int(generator["constraints"] + generator["constraints_binary"]
                            + generator["constraints_ternary"])
