"""Solving one puzzle with a readable backend while recording its trace (explain, render)."""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from models import Model, Puzzle

from ... import registry
from ...result import Result, Status
from ...trace import Event, Trace
from ..engine.configs import ConfigurationError, parse_one
from . import uniqueness
from .common import UsageError, find_inputs, input_options, pick_puzzle, puzzle_option, seconds
from .progress import SolveWatch

TRACED = ("human", *(name for name, backend in registry.BACKENDS.items() if backend.declaration.traces))
"""The human-style solver and the backends whose declaration names a readable twin that
records its steps as trace events."""
# A trace holds a few events per decision; without a budget, plain backtracking on a hard
# puzzle would fill the memory with them before the time limit. node_limit=... overrides.
DEFAULT_NODE_LIMIT = 100_000
DEFAULT_TIMEOUT = 30.0
"""Seconds of wall clock before a traced solve stops (a shared machine stretches the human
solver's 2 s of CPU on a hard puzzle several times over)."""


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'mrv:inference=forward:branching=first' -> ('mrv', {...}), typed and checked against the
    backend's declaration; ';' and ',' separate options too."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name == "human":  # not a registered backend: its one option is the guess budget
        return name, _human_options(spec, rest)
    if name not in TRACED:
        what = "records no trace" if name in registry.names() else "is no backend"
        raise UsageError(f"--solver {spec}: {name!r} {what}; explain, render, replay and tree "
                         f"follow {', '.join(TRACED)} (their readable code records each step)")
    try:
        configuration = parse_one(spec.replace(",", ":"))
    except ConfigurationError as error:
        raise UsageError(f"--solver {spec}: {error}") from None
    options = dict(configuration.options)
    options.pop("impl", None)  # always the readable twin: it is the one that records
    return name, options


def _human_options(spec: str, rest: str) -> dict[str, Any]:
    """{'node_limit': N} from 'human:node_limit=N' (guesses count as nodes); {} from 'human'."""
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.replace(",", ":").replace(";", ":").split(":"))):
        key, _, value = item.partition("=")
        if key.strip() != "node_limit" or not value.strip().isdigit() or int(value) < 1:
            raise UsageError(f"--solver {spec}: human takes one option, node_limit=N (a positive "
                             f"number of guesses), not {item!r}")
        options["node_limit"] = int(value)
    return options


class WatchedTrace(Trace):
    """A trace that tells a SolveWatch how far the solve got, every WATCH_EVERY events."""

    WATCH_EVERY = 1024

    def __init__(self, watch: SolveWatch) -> None:
        super().__init__()
        self.watch, self.decisions = watch, 0

    def emit(self, kind: str, depth: int, **fields: Any) -> None:
        super().emit(kind, depth, **fields)
        self.decisions += kind == "decide"
        if len(self.events) % self.WATCH_EVERY == 0:
            self.watch.tick(len(self.events), self.decisions)


def traced_solve(puzzle: Puzzle, spec: str, time_limit: float | None,
                 unique_how: str = "prove", what: str = "solving") -> tuple[Result, Trace]:
    """Solve with the readable twin of the backend named in spec; the result and its trace.
    The human solver's uniqueness techniques are used when the puzzle is known to have one
    solution (``unique_how``: uniqueness.CHOICES); the start event says how it was known. A
    solve that runs long says how far it got on stderr, as ``what``."""
    name, options = parse_spec(spec)
    options.setdefault("node_limit", DEFAULT_NODE_LIMIT)
    known = None
    if name == "human":
        known = uniqueness.known(puzzle, unique_how)
        options["unique"] = known.unique
    module = importlib.import_module("solvers.human.traced" if name == "human"
                                     else registry.get(name).declaration.traces or "")
    trace = WatchedTrace(SolveWatch(what, time_limit, options["node_limit"]))
    result = module.solve(Model.from_puzzle(puzzle), time_limit=time_limit, trace=trace, **options)
    if known is not None and trace.events:
        trace.events[0]["uniqueness"] = known.why
    if result.status is Status.UNSUPPORTED:  # the method cannot state this puzzle: nothing to show
        raise UsageError(f"--solver {name} cannot solve this puzzle: {result.message}; "
                         f"choose human, mrv or backtrack")
    return result, trace


def solver_named(start: Event) -> str:
    """The solver a trace's start event names, with how uniqueness was known (human)."""
    return str(start["solver"]) + (f" ({start['uniqueness']})" if "uniqueness" in start else "")


def one_puzzle_options(parser: argparse.ArgumentParser, solver_help: str,
                       default: str | None = "mrv") -> None:
    """PATH, --puzzle, --solver, --timeout and the input options, shared by explain and render."""
    parser.add_argument("path", nargs="?", default="-", metavar="PATH",
                        help="a puzzle file, or '-' for standard input (the default)")
    puzzle_option(parser)
    parser.add_argument("--solver", default=default, metavar="CONFIG",
                        help=f"{solver_help}; the search stops after {DEFAULT_NODE_LIMIT:,} "
                             "nodes (human: guesses) unless the configuration sets node_limit")
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"stop the search after this long (default: {DEFAULT_TIMEOUT:g}; the human "
                             "solver's forcing nets take a few seconds on the hardest puzzles)")
    uniqueness.add_option(parser)
    input_options(parser)


def chosen_puzzle(args: argparse.Namespace, command: str) -> Puzzle:
    """Puzzle number --puzzle of PATH (common.pick_puzzle: counted from 1); UsageError if
    there is no such puzzle or it is bad."""
    if args.path == "-" and sys.stdin.isatty():
        print(f"compare.py {command}: reading a puzzle from standard input (paste it, end with "
              "Ctrl-D; or give a file)", file=sys.stderr)
    (path,) = find_inputs([args.path])
    return pick_puzzle(path, args.puzzle, args.fmt, args.hex)
