"""The command line: ``compare.py [run|solve|export|list|report|generate] ...``; see ``compare.py -h``."""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from models import Puzzle, PuzzleError, read_puzzles, to_grid, to_line, to_pretty

from .. import registry
from ..encodings.cnf import ENCODINGS
from ..encodings.dimacs import export_dimacs
from ..generate.cli import add_generate_parser, run_generate
from ..result import Status
from . import configs, report
from .judge import Category, Disagreement, Run, judge
from .plugins import PluginError, load_backend, parse_spec
from .runner import Outcome, SolverRef, Task, default_jobs, grace_for, run_tasks

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PUZZLES = ROOT / "puzzles" / "default.txt"
DEFAULT_TIMEOUT = 10.0
COMMANDS = ("run", "solve", "export", "list", "report", "generate")
EXIT_OK, EXIT_WRONG, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad usage or unreadable input: reported on stderr, exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 all right, 1 something wrong, 2 bad usage)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in (*COMMANDS, "-h", "--help"):
        args_list.insert(0, "run")
    args = build_parser().parse_args(args_list)
    try:
        return args.handler(args)
    except (UsageError, PluginError, report.ReportError) as error:
        print(f"compare.py: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("compare.py: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_WRONG


# ---------------------------------------------------------------- the parser

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="compare.py",
        description="Run Sudoku backends side by side, verify every answer, and tabulate. "
                    "With no command, 'run' on the bundled default puzzles.",
        epilog="Exit status: 0 nothing wrong, 1 some answer wrong, 2 bad usage or bad input.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser("run", help="run backends on puzzle files and tabulate (the default)",
                              description="Run backends on every puzzle, verify, categorise, tabulate.")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help=f"puzzle files, '-' for stdin (default: {_shown(DEFAULT_PUZZLES)})")
    run.add_argument("--solvers", metavar="A,B,...",
                     help="backends to run, by name (default: every available one and every plugin)")
    _solving_options(run)
    run.add_argument("--jobs", "-j", type=_positive_int, default=None, metavar="N",
                     help="worker processes in parallel (default: the number of cores)")
    run.add_argument("--format", choices=report.TABLE_FORMATS, default="table",
                     help="how to print the summary (default: table)")
    run.add_argument("--json", metavar="OUT.json", help="save the whole run as JSON")
    run.add_argument("--plot", metavar="FILE.png", help="draw a cactus plot (needs matplotlib)")
    _input_options(run)
    run.set_defaults(handler=cmd_run)

    solve = commands.add_parser("solve", help="solve puzzles with one backend and print them",
                                description="Solve each puzzle with one backend and print it for people.")
    solve.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files or '-' (default: stdin)")
    solve.add_argument("--solver", metavar="NAME", help="the backend (default: mrv, or the plugin)")
    _solving_options(solve)
    solve.add_argument("--format", choices=("pretty", "line", "grid"), default="pretty",
                       help="pretty: boxed grid and verdict; line/grid: the solution, verdict as '#' comment")
    _input_options(solve)
    solve.set_defaults(handler=cmd_solve, jobs=None)

    export = commands.add_parser("export", help="write a puzzle's CNF in DIMACS format",
                                 description="Write the CNF of one puzzle (the sat backend's encodings).")
    export.add_argument("path", metavar="PATH", help="puzzle file or '-'")
    export.add_argument("--encoding", metavar="NAME", help="CNF encoding (default: the sat backend's first)")
    export.add_argument("--index", type=int, default=0, metavar="I",
                        help="which puzzle of the file, 0-based (default: 0)")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    _input_options(export)
    export.set_defaults(handler=cmd_export)

    listing = commands.add_parser("list", help="the backends, their encodings, packages and versions")
    listing.add_argument("--plugin", action="append", default=[], metavar="SPEC", help="list a plugin too")
    listing.add_argument("--format", choices=report.TABLE_FORMATS, default="table")
    listing.set_defaults(handler=cmd_list)

    rep = commands.add_parser("report", help="the table from saved JSON, or the change between two",
                              description="Print the table of a saved run, or compare OLD with NEW.")
    rep.add_argument("old", metavar="OLD.json")
    rep.add_argument("new", nargs="?", metavar="NEW.json")
    rep.add_argument("--format", choices=report.TABLE_FORMATS, default="table")
    rep.add_argument("--plot", metavar="FILE.png", help="cactus plot of the (newer) saved run")
    rep.set_defaults(handler=cmd_report)

    add_generate_parser(commands).set_defaults(handler=run_generate)
    return parser


def _solving_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"wall-clock limit per run, enforced by killing the worker "
                             f"(default: {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--unique", action="store_true",
                        help="ask for two solutions, to tell unique from multiple")
    parser.add_argument("--plugin", action="append", default=[], metavar="SPEC",
                        help="add your own backend: path/to/file.py:function or module:function "
                             "(NAME=SPEC to name it); may be repeated")


def _input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fmt", choices=("auto", "line", "grid"), default="auto",
                        help="input layout (default: auto)")
    parser.add_argument("--hex", action="store_true",
                        help="16x16 input in 0-based hex (0-9A-F), as some collections write it")


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


# ---------------------------------------------------------------- run

def cmd_run(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solvers = resolve_solvers(args.solvers, plugins)
    if args.plot:
        from .plot import PlotUnavailableError, require_matplotlib  # noqa: PLC0415
        try:
            require_matplotlib()
        except PlotUnavailableError as error:
            raise UsageError(str(error)) from None
    paths = args.paths or [_shown(DEFAULT_PUZZLES)]
    puzzles, bad = read_inputs(paths, args.fmt, args.hex)
    if not puzzles:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    jobs = args.jobs or default_jobs()
    max_solutions = 2 if args.unique else 1
    runs, disagreements = run_and_judge(puzzles, solvers, max_solutions, args.timeout, jobs)

    rows = report.summarize(runs, unique=args.unique)
    if args.format == "json":
        print(json.dumps({"summary": rows, "disagreements": [d.as_dict() for d in disagreements]},
                         indent=2))
    else:
        print(report.render_table(rows, args.format))
        if args.format != "csv":
            print(_legend(len(puzzles), solvers, args.timeout, jobs))
        extra = "\n\n".join(t for t in (report.render_failures(runs),
                                        report.render_disagreements(disagreements)) if t)
        if extra:
            print("\n" + extra, file=sys.stdout if args.format != "csv" else sys.stderr)
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)

    if args.json:
        options = {"command": "run", "paths": paths, "solvers": [s.name for s in solvers],
                   "plugins": list(args.plugin), "timeout_s": args.timeout,
                   "kill_after_s": args.timeout + grace_for(args.timeout), "jobs": jobs,
                   "unique": args.unique, "max_solutions": max_solutions, "fmt": args.fmt,
                   "hex": args.hex}
        document = report.build_document(
            runs, disagreements, environment=environment(solvers), options=options,
            input_errors=[_error_record(e) for e in bad])
        _write_json(args.json, document)
    if args.plot:
        from .plot import cactus_plot  # noqa: PLC0415
        cactus_plot([r.as_dict() for r in runs], args.plot)
        print(f"compare.py: cactus plot written to {args.plot}", file=sys.stderr)
    return exit_status(runs, bad)


def run_and_judge(puzzles: Sequence[Puzzle], solvers: Sequence[SolverRef], max_solutions: int,
                  timeout: float, jobs: int) -> tuple[list[Run], list[Disagreement]]:
    """Every solver on every puzzle in worker processes, then each puzzle's runs judged together."""
    tasks = [Task(solver, puzzle, max_solutions, timeout) for puzzle in puzzles for solver in solvers]
    outcomes = _run_with_progress(tasks, jobs)
    runs: list[Run] = []
    disagreements: list[Disagreement] = []
    width = len(solvers)
    for number, puzzle in enumerate(puzzles):
        mine = outcomes[number * width:(number + 1) * width]
        judged, disagreement = judge(puzzle, [(s.name, o) for s, o in zip(solvers, mine)])
        runs += judged
        if disagreement:
            disagreements.append(disagreement)
    return runs, disagreements


def _run_with_progress(tasks: Sequence[Task], jobs: int) -> list[Outcome]:
    from tqdm import tqdm  # noqa: PLC0415 - only the command line shows progress

    with tqdm(total=len(tasks), unit="run", desc="solving", file=sys.stderr, leave=False,
              disable=not sys.stderr.isatty()) as bar:
        return run_tasks(tasks, jobs=jobs, on_outcome=lambda _number, _outcome: bar.update())


def exit_status(runs: Sequence[Run], bad: Sequence[PuzzleError]) -> int:
    """1 if any run is wrong (it outranks bad input), else 2 if a puzzle was bad, else 0."""
    if any(run.category == Category.WRONG for run in runs):
        return EXIT_WRONG
    return EXIT_USAGE if bad else EXIT_OK


def _legend(count: int, solvers: Sequence[SolverRef], timeout: float, jobs: int) -> str:
    return (f"\n{count} puzzles x {len(solvers)} backends; every answer checked by models.verify. "
            f"Times in seconds per run,\ntimeouts included at the time they were stopped; "
            f"limit {timeout:g} s per run; {jobs} worker process{'es' if jobs > 1 else ''}.")


# ---------------------------------------------------------------- solve

def cmd_solve(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solver = _one_solver(args.solver, plugins)
    puzzles, bad = read_inputs(args.paths or ["-"], args.fmt, args.hex)
    max_solutions = 2 if args.unique else 1
    tasks = [Task(solver, puzzle, max_solutions, args.timeout) for puzzle in puzzles]
    outcomes = _run_with_progress(tasks, default_jobs()) if tasks else []
    wrong = False
    for number, (puzzle, outcome) in enumerate(zip(puzzles, outcomes)):
        (run,), _ = judge(puzzle, [(solver.name, outcome)])
        wrong |= run.category == Category.WRONG
        if number:
            print()
        print(_solve_text(puzzle, run, outcome, args.format, args.unique))
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    if wrong:
        return EXIT_WRONG
    return EXIT_USAGE if bad or not puzzles else EXIT_OK


def _solve_text(puzzle: Puzzle, run: Run, outcome: Outcome, fmt: str, unique: bool) -> str:
    where = f"{run.file} puzzle {run.index}" + (f" (line {run.line})" if run.line else "")
    variant = "" if puzzle.variant == "standard" else f" {puzzle.variant}-sudoku"
    head = f"{where}: {puzzle.geometry.label()}{variant}, {puzzle.num_givens} givens"
    verdict = _verdict(run, outcome, unique)
    grid = None
    if run.category == Category.CORRECT and outcome.solutions:
        solved = puzzle.with_givens(tuple(outcome.solutions[0]))
        grid = {"pretty": to_pretty, "line": to_line, "grid": to_grid}[fmt](solved)
    if fmt == "pretty":
        return "\n".join(x for x in (head, grid, verdict) if x)
    return "\n".join(x for x in (f"# {head}", f"# {verdict}", grid) if x)


def _verdict(run: Run, outcome: Outcome, unique: bool) -> str:
    counters = ", ".join(f"{outcome.stats[k]:,} {k}" for k in ("nodes", "backtracks", "conflicts")
                         if k in outcome.stats)
    took = f"in {report.seconds(run.time_s)} s" + (f", {counters}" if counters else "")
    if run.category == Category.WRONG:
        return f"WRONG answer from {run.solver} {took}: {run.reason}"
    if run.category in (Category.TIMEOUT, Category.UNKNOWN, Category.ERROR):
        return f"no answer from {run.solver}: {run.category}: {run.reason}"
    if run.status == Status.UNSAT:
        return f"no solution: proved by {run.solver} {took}"
    text = f"solved by {run.solver} {took}"
    if unique:
        if len(outcome.solutions) >= 2:
            text += "; NOT unique: at least 2 solutions (the first shown)"
        elif outcome.complete:
            text += "; unique"
        else:
            text += "; uniqueness unknown (the search stopped early)"
    return text


def _one_solver(name: str | None, plugins: dict[str, SolverRef]) -> SolverRef:
    if name is None:
        if plugins:
            return next(iter(plugins.values()))
        available = registry.available_names()
        if not available:
            raise UsageError("no backend is available: install one, or give --plugin")
        name = "mrv" if "mrv" in available else available[0]
    return resolve_solvers(name, plugins, add_plugins=False)[0]


# ---------------------------------------------------------------- export

def cmd_export(args: argparse.Namespace) -> int:
    puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
    if bad and not puzzles:
        raise UsageError("no good puzzle to export")
    if not 0 <= args.index < len(puzzles):
        raise UsageError(f"--index {args.index} is out of range: {args.path} has "
                         f"{len(puzzles)} good puzzle(s)")
    cnf = export_cnf(puzzles[args.index], args.encoding)
    if len(puzzles) > 1:
        print(f"compare.py: exported puzzle {args.index} of {len(puzzles)} (choose with --index)",
              file=sys.stderr)
    if args.output:
        try:
            Path(args.output).write_text(cnf, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or error}") from None
    else:
        sys.stdout.write(cnf)
    return EXIT_USAGE if bad else EXIT_OK


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package)."""
    encoding = encoding or ENCODINGS[0]
    try:
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None


# ---------------------------------------------------------------- list

def cmd_list(args: argparse.Namespace) -> int:
    rows = [_backend_row(backend) for backend in registry.BACKENDS.values()]
    for spec_text in args.plugin:
        spec = parse_spec(spec_text)
        rows.append(_backend_row(load_backend(spec)))
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    elif args.format == "csv":
        print(",".join(rows[0]))
        for row in rows:
            print(",".join(_csv_cell(v) for v in row.values()))
    else:
        from tabulate import tabulate  # noqa: PLC0415
        print(tabulate([list(r.values()) for r in rows], headers=list(rows[0]), disable_numparse=True,
                       tablefmt="github" if args.format == "markdown" else "simple"))
    return EXIT_OK


def _backend_row(backend: registry.Backend) -> dict[str, str]:
    try:
        backend.load()
        available, encodings = "yes", ", ".join(backend.encodings) or "-"
        counters = "; ".join(f"{name} = {meaning}" for name, meaning in backend.counters.items()) or "-"
    except registry.BackendUnavailableError as error:
        available, encodings, counters = f"no: {error}", "?", "?"
    return {"backend": backend.name, "available": available, "package": backend.package or "-",
            "version": backend.version, "encodings": encodings,
            "time limit": "honoured inside" if backend.interruptible else "killed from outside",
            "counters": counters, "description": backend.description}


def _csv_cell(value: str) -> str:
    return f'"{value}"' if "," in value or '"' in value else value


# ---------------------------------------------------------------- report

def cmd_report(args: argparse.Namespace) -> int:
    old = report.load_document(args.old)
    newest = old
    if args.new is None:
        rows = report.summarize(old["runs"], unique=old.get("options", {}).get("unique", False))
        if args.format == "json":
            print(json.dumps({"summary": rows, "disagreements": old.get("disagreements", [])}, indent=2))
        else:
            print(report.render_table(rows, args.format))
            if args.format != "csv" and old.get("disagreements"):
                print("\n" + report.render_disagreements(old["disagreements"]))
    else:
        newest = report.load_document(args.new)
        rows = report.compare_rows(old, newest)
        print(report.render_comparison(rows, report.category_changes(old, newest), args.format))
    if args.plot:
        from .plot import PlotUnavailableError, cactus_plot  # noqa: PLC0415
        try:
            cactus_plot(newest["runs"], args.plot)
        except PlotUnavailableError as error:
            raise UsageError(str(error)) from None
    return EXIT_WRONG if any(r["category"] == Category.WRONG for r in newest["runs"]) else EXIT_OK


# ---------------------------------------------------------------- shared pieces

def load_plugins(specs: Sequence[str]) -> dict[str, SolverRef]:
    """Each --plugin spec loaded once here (to fail early) and named; workers load it again."""
    plugins: dict[str, SolverRef] = {}
    for text in specs:
        spec = parse_spec(text)
        load_backend(spec)
        if spec.name in registry.BACKENDS or spec.name in plugins:
            raise UsageError(f"plugin name {spec.name!r} is already taken; name it with NAME={text}")
        plugins[spec.name] = SolverRef(spec.name, plugin=text)
    return plugins


def resolve_solvers(requested: str | None, plugins: dict[str, SolverRef], *,
                    add_plugins: bool = True) -> list[SolverRef]:
    """The configurations to run (see configs.py for the syntax), or every available backend,
    then any plugins not named."""
    if requested is None:
        chosen = [SolverRef(name, backend=name) for name in registry.available_names()]
    else:
        chosen = [plugins[text.strip()] if text.strip() in plugins else _registered(text, plugins)
                  for text in configs.split_list(requested)]
        labels = [ref.name for ref in chosen]
        twice = sorted({label for label in labels if labels.count(label) > 1})
        if twice:
            raise UsageError(f"configuration {twice[0]!r} is named twice; label one with LABEL=")
    if add_plugins:
        chosen += [ref for ref in plugins.values() if ref not in chosen]
    if not chosen:
        raise UsageError("no backend to run: none of the registered backends is available here "
                         "(see 'compare.py list'); install one, or add your own with --plugin")
    return chosen


def _registered(text: str, plugins: dict[str, SolverRef]) -> SolverRef:
    try:
        configuration = configs.parse_one(text)
    except configs.ConfigurationError as error:
        message = str(error)
        if plugins and message.startswith("unknown backend"):
            message += f"; plugins: {', '.join(plugins)}"
        raise UsageError(message) from None
    try:
        registry.get(configuration.backend).load()
    except registry.BackendUnavailableError as error:
        raise UsageError(str(error)) from None
    return SolverRef(configuration.label, backend=configuration.backend,
                     options=configuration.options)


def read_inputs(paths: Sequence[str], fmt: str, hex16: bool) -> tuple[list[Puzzle], list[PuzzleError]]:
    """Every good puzzle of every path; each bad one reported on stderr with where it is."""
    puzzles: list[Puzzle] = []
    bad: list[PuzzleError] = []
    for path in paths:
        if path != "-" and not Path(path).is_file():
            raise UsageError(f"{path}: no such file")
        try:
            batch = read_puzzles(path, fmt=fmt, hex16=hex16)
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"{path}: cannot read: {error}") from None
        for error in batch.errors:
            print(f"compare.py: skipped bad puzzle: {error}", file=sys.stderr)
        puzzles += batch.puzzles
        bad += batch.errors
    return puzzles, bad


def environment(solvers: Sequence[SolverRef]) -> dict[str, Any]:
    """Versions and machine, saved with every run."""
    backends = {}
    for ref in solvers:
        backend = registry.get(ref.name) if ref.plugin is None else None
        backends[ref.name] = {
            "version": backend.version if backend else "plugin",
            "package": (backend.package if backend else None),
            "plugin": ref.plugin,
        }
    return {
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": {"version": platform.python_version(),
                   "implementation": platform.python_implementation()},
        "machine": {"platform": platform.platform(), "machine": platform.machine(),
                    "processor": platform.processor(), "cores": os.cpu_count(),
                    "usable_cores": default_jobs()},
        "backends": backends,
        "packages": {name: _version(name) for name in ("tabulate", "tqdm", "matplotlib")},
    }


def _version(package: str) -> str | None:
    from importlib import metadata  # noqa: PLC0415
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _error_record(error: PuzzleError) -> dict[str, Any]:
    return {"file": error.file, "line": error.line, "index": error.index, "row": error.row,
            "column": error.column, "kind": error.kind, "message": str(error)}


def _write_json(path: str, document: dict[str, Any]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=1)
            handle.write("\n")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _shown(path: Path) -> str:
    """A path relative to the working directory when it is below it (shorter in tables)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
