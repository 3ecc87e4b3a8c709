"""The ``pysat`` backend: python-sat's CDCL engines over the toolkit's own CNF encodings.

The CNF is that of the ``sat`` backend (solvers/encodings/cnf.py); what python-sat adds
is a choice of engines (CaDiCaL, Glucose, MiniSat, ...), their counters, incremental
solving and unit propagation on its own.

Warm incremental mode (``warm=True``, the default). A worker process keeps one solver
per (engine, encoding, geometry) loaded with the clauses of the empty grid; a puzzle's
givens are passed as assumptions, so the engine is never rebuilt per puzzle. To count
solutions, each puzzle gets a fresh activation literal ``a``: its blocking clauses are
``(not a) or ...``, ``a`` is assumed while the puzzle is solved, and the unit clause
``not a`` is added when it is done, which satisfies (switches off) those blocking
clauses for every later puzzle. Learnt clauses are consequences of the empty grid's
clauses alone, so they stay valid for the next puzzle (and make the counters depend on
what the worker solved before; ``warm=False`` gives counts of a fresh solver). The
``simplified`` encoding is the puzzle's own clauses, so it is always solved fresh.

Limits. ``time_limit``: engines that can be interrupted (the MiniSat family) get a
``threading.Timer`` that calls ``interrupt()``; CaDiCaL cannot be interrupted in
python-sat, so it solves in slices of conflicts (1,000 first, growing, capped by the
rate measured) and the clock is checked between slices; learnt clauses are kept, so
little work is repeated. ``conflict_limit`` is a work budget per solver call (one call
per solution found): spending it gives UNKNOWN (or SOLVED but not complete).

Propagation only (``inference=up`` or ``failed-literal``): no search. ``up`` is unit
propagation of the clauses under the givens; ``failed-literal`` also tries each open
literal, and when propagating it meets a conflict asserts its negation, until nothing
changes (Lynce and Ouaknine's "failed literal" rule). The answer is SOLVED when every
cell is fixed (the grid is then checked, and unique), UNSAT on a conflict, otherwise
UNKNOWN; ``fixed_cells`` counts the open cells fixed. These modes use a solver that
never searches, so no learnt clause makes propagation stronger than the encoding.

Killer cages. The cage's digits differ because it is one of the groups; its total is a
cardinality constraint from python-sat's own ``pysat.card`` (the sequential counter)
over order literals: each open cell of a cage gets literals "value > k" for k = 1..n-1,
tied to its value literals (x = v implies > v-1 and not > v; > v-1 and not > v implies
x = v; > k implies > k-1), so the cell's value less one is the number of its order
literals that are true, and the total less the cage's givens and its open cells is how
many of the cage's order literals are true. (Repeating each value literal value - 1
times in the counter says the same with no order literals, but made a 9x9 killer's CNF
ten times larger.) The ``sat`` backend states the same total by the cage's digit
combinations instead (solvers/encodings/cnf.py), so the two SAT backends compare two
encodings of a sum. The new variables are numbered after the cells'. Warm solvers are
kept per set of cages too (the counters are part of their clauses).

Engines are listed from the installed python-sat at import, keeping those that honour
assumptions, conflict budgets and report statistics (``ENGINES``; see ``EXCLUDED``).
"""
from __future__ import annotations

import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from models import Grid, Model, verify

from ..encodings.cnf import CNF, Clause, Numbering, encode, geometry_clauses
from ..result import Result, Stats, Status, finish

__all__ = ["ALIASES", "ENCODINGS", "ENGINES", "EXCLUDED", "solve"]

ENCODINGS = ("extended", "efficient", "minimal", "simplified")
"""The first the default (pysat.py declares the same; a test checks)."""
INFERENCES = ("none", "up", "failed-literal")
WARM_CLAUSES = 3_000_000
"""Clauses the warm solvers of a worker may hold together (a 9x9 one holds 12,000, a 25x25
one 752,500); the least recently used go first. Several configurations alternating in one
worker (engines, encodings) each keep their solver."""
FIRST_SLICE = 1_000
"""Conflicts in the first slice of a time-limited run on an engine that cannot be interrupted."""


@dataclass(frozen=True)
class Engine:
    """One python-sat engine and what it supports beyond the basics."""

    name: str
    interrupt: bool     # interrupt() stops a running solve_limited
    propagate: bool     # propagate() exists (the inference modes need it)


def _probe(name: str) -> Engine | str:
    """The engine if it honours assumptions, conflict budgets and reports statistics, else why not."""
    try:
        solver = Solver(name=name, bootstrap_with=[[1, 2], [-1, 2]])
    except NoSuchSolverError:
        return "not built into this python-sat wheel"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if solver.solve(assumptions=[-2]) is not False:
                return "ignores assumptions"
        solver.conf_budget(10)
        solver.solve_limited(assumptions=[2])
        solver.conf_budget(-1)
        if not {"decisions", "conflicts", "propagations", "restarts"} <= set(solver.accum_stats()):
            return "reports no statistics"
    except NotImplementedError as error:
        return f"unsupported: {error}"
    return Engine(name, _supports(solver.interrupt, solver.clear_interrupt),
                  _supports(lambda: solver.propagate(assumptions=[1])))


def _supports(*calls: Callable[[], object]) -> bool:
    try:
        for call in calls:
            call()
    except NotImplementedError:
        return False
    return True


def _engines() -> tuple[dict[str, Engine], dict[str, str]]:
    engines, excluded = {}, {}
    for name in sorted(k for k in vars(SolverNames) if not k.startswith("_")):
        probed = _probe(name)
        if isinstance(probed, Engine):
            engines[name] = probed
        else:
            excluded[name] = probed
    return engines, excluded


ENGINES, EXCLUDED = _engines()
"""The usable engines by python-sat's name, and the others with the reason they are left out."""
ALIASES = {alias: name for alias, name in (("cadical", "cadical195"), ("glucose", "glucose4"),
                                           ("minisat", "minisat22")) if name in ENGINES}
DEFAULT_ENGINE = "cadical195" if "cadical195" in ENGINES else next(iter(ENGINES))
"""The engine for search when none is named: warm CaDiCaL 1.9.5 was the fastest counting to
two on top95 and the forum's hardest (470 puzzles); MiniSat won on one of the two 16x16 sets
and on first solutions in one run (bench/README.md: the machine was loaded, read it as close)."""
PROPAGATION_ENGINE = next((e for e in ("minisat22", "glucose4") if e in ENGINES and ENGINES[e].propagate),
                          DEFAULT_ENGINE)
"""The engine for inference=up|failed-literal when none is named: MiniSat's propagate() took
about a hundredth of CaDiCaL's time per call in python-sat (bench/README.md)."""

_STATS = ("decisions", "conflicts", "propagations", "restarts")
OUT_OF_TIME, OUT_OF_BUDGET = "out of time", "out of budget"


@dataclass
class _Warm:
    """A solver loaded with an empty grid's clauses, and the next free variable."""

    solver: Solver
    next_var: int
    clauses: int


_POOL: OrderedDict[tuple[Any, ...], _Warm] = OrderedDict()


def _warm(engine: str, encoding: str, model: Model, purpose: str, deadline: float | None) -> _Warm:
    """The worker's solver for this engine, encoding, geometry and purpose (search|propagate)."""
    key = (engine, encoding, model.n, model.groups, model.cages, purpose)
    if key in _POOL:
        _POOL.move_to_end(key)
        return _POOL[key]
    clauses = geometry_clauses(encoding, model.n, model.groups)
    # the counters of the cage totals, with every cell open: the givens come as assumptions
    counters, top = cage_counters(model, Numbering(model.n), (0,) * model.num_cells)
    clauses = clauses + counters if counters else clauses
    _POOL[key] = _Warm(_loaded(engine, clauses, deadline), top + 1, len(clauses))
    while len(_POOL) > 1 and sum(w.clauses for w in _POOL.values()) > WARM_CLAUSES:
        _POOL.popitem(last=False)[1].solver.delete()
    return _POOL[key]


class _OutOfTime(Exception):
    """The time limit ran out while the clauses were being loaded."""


LOAD_CHUNK = 50_000
"""Clauses loaded between two looks at the clock (a 25x25 holds 752,500)."""


def _loaded(engine: str, clauses: list[Clause], deadline: float | None) -> Solver:
    """A solver holding the clauses, loaded in chunks so a time limit is noticed (_OutOfTime)."""
    solver = Solver(name=engine)
    for first in range(0, len(clauses), LOAD_CHUNK):
        if deadline is not None and time.perf_counter() >= deadline:
            solver.delete()
            raise _OutOfTime
        for clause in clauses[first:first + LOAD_CHUNK]:
            solver.add_clause(clause)   # one by one: an empty clause (clashing givens) must count
    return solver


def _drop(warm: _Warm) -> None:
    """Forget a warm solver (after an interrupted solve, so the next puzzle starts clean)."""
    for key, value in list(_POOL.items()):
        if value is warm:
            del _POOL[key]
    warm.solver.delete()


@dataclass
class _Session:
    """One puzzle on one solver: what to assume, how to read models back, how to block one."""

    solver: Solver
    cnf: CNF
    assumptions: list[int]
    clauses: int
    warm: _Warm | None = None
    activation: int | None = None
    timed_out: bool = False
    stats_before: dict[str, int] = field(default_factory=dict)

    def block(self, grid: Grid) -> None:
        """Rule out this grid for the rest of this puzzle (and only this puzzle)."""
        clause = self.cnf.blocking_clause(grid)
        if self.warm is not None:
            if self.activation is None:
                self.activation = self.warm.next_var
                self.warm.next_var += 1
                self.assumptions.append(self.activation)
            clause = [*clause, -self.activation]
        self.solver.add_clause(clause)

    def close(self) -> None:
        """Switch this puzzle's blocking clauses off (warm), or free the solver (fresh); a warm
        solver stopped by the time limit is dropped, so the next puzzle starts clean."""
        if self.warm is None:
            self.solver.delete()
        elif self.timed_out:
            _drop(self.warm)
        elif self.activation is not None:
            self.solver.add_clause([-self.activation])


def _session(model: Model, engine: str, encoding: str, warm: bool, purpose: str,
             deadline: float | None) -> _Session:
    if warm and encoding != "simplified":
        held = _warm(engine, encoding, model, purpose, deadline)
        numbering = Numbering(model.n)
        givens = [numbering.var(c, v) for c, v in enumerate(model.givens) if v]
        cnf = CNF(encoding, model.givens, [], numbering, held.next_var - 1 - numbering.top)
        session = _Session(held.solver, cnf, givens, held.clauses + len(givens), held)
    else:
        # Unit clauses (givens; simplified's cells with one candidate) are assumed, not loaded:
        # propagate() reports only what follows from its assumptions, never level-0 facts.
        cnf = encode(model, encoding, cages=False)
        if model.cages:
            counters, top = cage_counters(model, cnf.numbering, model.givens)
            cnf = CNF(encoding, cnf.givens, cnf.clauses + counters, cnf.numbering,
                      top - cnf.numbering.top)
        units = [clause[0] for clause in cnf.clauses if len(clause) == 1]
        solver = _loaded(engine, [clause for clause in cnf.clauses if len(clause) != 1], deadline)
        session = _Session(solver, cnf, units, len(cnf.clauses))
    session.stats_before = _engine_stats(session.solver)
    return session


def _engine_stats(solver: Solver) -> dict[str, int]:
    stats = solver.accum_stats() or {}
    return {name: int(stats.get(name, 0)) for name in _STATS}


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          engine: str | None = None, encoding: str = ENCODINGS[0], warm: bool = True,
          conflict_limit: int | None = None, inference: str = "none",
          found: list[Grid] | None = None) -> Result:
    """Solve (or only propagate) with a python-sat engine; up to max_solutions grids
    (appended to ``found`` when given: a Counted list counts them, keeping a sample)."""
    if engine is None:
        engine = DEFAULT_ENGINE if inference == "none" else PROPAGATION_ENGINE
    engine = _engine(engine, inference)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    purpose = "search" if inference == "none" else "propagate"
    # failed-literal probing asserts what it learns as unit clauses: always on a scratch copy
    try:
        session = _session(model, engine, encoding, warm and inference != "failed-literal", purpose,
                           deadline)
    except _OutOfTime:
        return Result(Status.TIMEOUT, [], False, Stats(encode_time=time.perf_counter() - start),
                      "time limit reached while loading the clauses")
    stats = Stats(encode_time=time.perf_counter() - start, variables=session.cnf.num_vars,
                  clauses=session.clauses)
    began = time.perf_counter()
    if inference == "none":
        result = _search(session, ENGINES[engine], max_solutions, deadline, conflict_limit, stats,
                         [] if found is None else found)
    else:
        result = _infer(session, model, inference, deadline, stats)
    stats.solve_time = time.perf_counter() - began
    after = _engine_stats(session.solver)
    session.close()
    delta = {name: after[name] - session.stats_before[name] for name in _STATS}
    stats.nodes, stats.conflicts = delta["decisions"], delta["conflicts"]
    stats.propagations, stats.restarts = delta["propagations"], delta["restarts"]
    return result


def _engine(engine: str, inference: str) -> str:
    """The engine's python-sat name, if this python-sat build has it and it can do what is
    asked (the declaration lists every engine python-sat names; a wheel may lack some)."""
    name = ALIASES.get(engine, engine)
    if name not in ENGINES:
        raise ValueError(f"pysat engine {engine!r} is not usable in this python-sat: "
                         f"{EXCLUDED.get(name, 'unknown')}; usable: {', '.join(ENGINES)}")
    if inference != "none" and not ENGINES[name].propagate:
        raise ValueError(f"engine {name} cannot propagate alone; inference={inference} needs one of "
                         + ", ".join(e for e, v in ENGINES.items() if v.propagate))
    return name


def _search(session: _Session, engine: Engine, max_solutions: int, deadline: float | None,
            budget: int | None, stats: Stats, solutions: list[Grid]) -> Result:
    """CDCL search: solve, read the model back, block it and solve again for more."""
    complete = limit_hit = budget_hit = False
    message = ""
    counted = 0  # solutions found (the list may keep only a sample)
    while counted < max_solutions:
        answer = _solve_once(session, engine, deadline, budget)
        if answer is False:
            complete = True
            break
        if answer in (OUT_OF_TIME, OUT_OF_BUDGET):
            limit_hit, budget_hit = answer == OUT_OF_TIME, answer == OUT_OF_BUDGET
            session.timed_out = limit_hit
            message = "time limit reached" if limit_hit else f"conflict limit of {budget} reached"
            break
        model = session.solver.get_model()
        grid = session.cnf.decode(lit for lit in model if lit > 0)
        solutions.append(grid)
        counted += 1
        if counted < max_solutions:
            session.block(grid)
    return finish(solutions, complete, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=message)


def _solve_once(session: _Session, engine: Engine, deadline: float | None,
                budget: int | None) -> bool | str:
    """One satisfiability question: True, False, OUT_OF_TIME or OUT_OF_BUDGET."""
    solver, assumptions = session.solver, session.assumptions
    if deadline is None:
        if budget is None:
            return bool(solver.solve(assumptions=assumptions))
        solver.conf_budget(budget)
        answer = solver.solve_limited(assumptions=assumptions)
        return OUT_OF_BUDGET if answer is None else answer
    if engine.interrupt:
        return _solve_interrupted(solver, assumptions, deadline, budget)
    return _solve_in_slices(solver, assumptions, deadline, budget)


def _solve_interrupted(solver: Solver, assumptions: list[int], deadline: float,
                       budget: int | None) -> bool | str:
    """solve_limited with a timer that interrupts the engine at the deadline."""
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return OUT_OF_TIME
    fired = threading.Event()

    def stop() -> None:
        fired.set()
        solver.interrupt()

    timer = threading.Timer(remaining, stop)
    solver.conf_budget(-1 if budget is None else budget)
    timer.start()
    try:
        answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    if fired.is_set():
        solver.clear_interrupt()
    if answer is not None:
        return bool(answer)
    return OUT_OF_TIME if fired.is_set() else OUT_OF_BUDGET


def _solve_in_slices(solver: Solver, assumptions: list[int], deadline: float,
                     budget: int | None) -> bool | str:
    """Solve in growing slices of conflicts, checking the clock between them (learnt clauses kept)."""
    spent, size = 0, FIRST_SLICE
    while True:
        now = time.perf_counter()
        if now >= deadline:
            return OUT_OF_TIME
        if budget is not None:
            if spent >= budget:
                return OUT_OF_BUDGET
            size = min(size, budget - spent)
        before = solver.accum_stats().get("conflicts", 0)
        solver.conf_budget(size)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return bool(answer)
        used = max(solver.accum_stats().get("conflicts", 0) - before, 1)
        spent += used
        rate = used / max(time.perf_counter() - now, 1e-6)       # conflicts per second just measured
        size = max(100, int(min(size * 2, rate * (deadline - time.perf_counter()))))


def _infer(session: _Session, model: Model, inference: str, deadline: float | None,
           stats: Stats) -> Result:
    """Propagation only: SOLVED if every cell is fixed, UNSAT on a conflict, else UNKNOWN."""
    solver, assumed = session.solver, list(session.assumptions)
    consistent, implied = solver.propagate(assumptions=assumed)
    out_of_time = False
    if consistent and inference == "failed-literal":
        consistent, implied, out_of_time = _failed_literals(solver, implied, session.cnf.numbering.top,
                                                            deadline)
    if not consistent:
        stats.fixed_cells = 0
        return Result(Status.UNSAT, [], True, stats, f"{inference}: the givens lead to a conflict")
    grid, fixed = _fixed_grid(session.cnf, implied)
    stats.fixed_cells = fixed
    if 0 not in grid and verify(model, grid).ok:
        return Result(Status.SOLVED, [grid], True, stats, f"{inference} fixed every cell")
    if out_of_time:
        return Result(Status.TIMEOUT, [], False, stats, "time limit reached")
    open_cells = sum(1 for v in model.givens if not v)
    return Result(Status.UNKNOWN, [], False, stats,
                  f"{inference} fixed {fixed} of {open_cells} open cells; search is needed")


def _failed_literals(solver: Solver, implied: list[int], top: int,
                     deadline: float | None) -> tuple[bool, list[int], bool]:
    """Probe both polarities of every unassigned variable; a literal whose propagation
    conflicts is asserted false; repeat until a round changes nothing.
    Returns (consistent, implied literals, ran out of time).

    The solver is this puzzle's scratch copy: what is known is added as unit clauses, so a
    probe propagates only its own literal. A literal implied by a probe that succeeded is
    not probed in the same round: its consequences are a subset, so it cannot fail where
    that probe did not (the usual saving; the fixed point is the same)."""
    facts = set(implied)
    for literal in implied:
        solver.add_clause([literal])
    changed = True
    while changed:
        changed = False
        covered: set[int] = set()
        for var in range(1, top + 1):
            if var in facts or -var in facts:
                continue
            if deadline is not None and time.perf_counter() >= deadline:
                return True, list(facts), True
            for literal in (var, -var):
                if literal in covered:
                    continue
                consistent, consequences = solver.propagate(assumptions=[literal])
                if consistent:
                    covered.update(consequences)
                    continue
                consistent, consequences = solver.propagate(assumptions=[-literal])
                if not consistent:
                    return False, list(facts), False
                for fact in consequences:
                    solver.add_clause([fact])
                facts.update(consequences)
                covered, changed = set(), True
                break
    return True, list(facts), False


def cage_counters(model: Model, numbering: Numbering, givens: Grid) -> tuple[list[Clause], int]:
    """The cage totals as order literals and cardinality constraints (see the module
    docstring), and the largest variable used; ``givens`` are the cells taken as constants
    (all zeros: none). A (cell, value) the numbering does not keep is false and left out;
    a total out of reach is the empty clause."""
    clauses: list[Clause] = []
    top = numbering.top
    n = model.n
    for cage in model.cages:
        open_cells = [c for c in cage.cells if not givens[c]]
        rest = (cage.total or 0) - sum(givens[c] for c in cage.cells) - len(open_cells)
        above: list[int] = []  # every open cell's order literals
        for cell in open_cells:
            # more[k] = "the cell's value is more than k", for k = 1..n-1 (more[0] true, more[n] false)
            more = [0, *range(top + 1, top + n)]
            top += n - 1
            above += more[1:]
            clauses += [[-more[k], more[k - 1]] for k in range(2, n)]
            for value in range(1, n + 1):
                try:
                    x = numbering.var(cell, value)
                except KeyError:  # simplified: ruled out by the givens
                    x = 0
                if x and value > 1:
                    clauses.append([-x, more[value - 1]])
                if x and value < n:
                    clauses.append([-x, -more[value]])
                # more than value - 1 and not more than value: the value itself
                gap = ([-more[value - 1]] if value > 1 else []) + ([more[value]] if value < n else [])
                clauses.append(gap + ([x] if x else []))
        if not 0 <= rest <= len(above):
            clauses.append([])
        elif above:
            counter = CardEnc.equals(lits=above, bound=rest, top_id=top,
                                     encoding=EncType.seqcounter)
            clauses += counter.clauses
            top = max(top, counter.nv)
    return clauses, top


def _fixed_grid(cnf: CNF, literals: Iterable[int]) -> tuple[Grid, int]:
    """The givens plus every open cell with exactly one value set true; and how many those are."""
    n, top, cell_value = cnf.n, cnf.numbering.top, cnf.numbering.cell_value
    values: list[set[int]] = [set() for _ in range(n * n)]
    for lit in literals:
        if 0 < lit <= top:
            cell, value = cell_value(lit)
            values[cell].add(value)
    grid = list(cnf.givens)
    fixed = 0
    for cell, given in enumerate(cnf.givens):
        if not given and len(values[cell]) == 1:
            grid[cell] = next(iter(values[cell]))
            fixed += 1
    return tuple(grid), fixed
