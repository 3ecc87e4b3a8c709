"""Pieces every command shares: usage errors, exit statuses, reading puzzles, choosing
configurations, picking one puzzle (--puzzle K), the shared options, progress and exit
statuses."""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import select
import stat
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from models import Puzzle, PuzzleError, iter_puzzles
from models.formats import FORMATS

from ..engine.runner import run_tasks
from ..engine.terminal import printable
from ..pictures.plot import PlotUnavailableError, check_plot_format, require_matplotlib
from ..results.claims import BUDGET_S
from ..results.judge import Run, fails
from ..results.judge_process import MEMORY_MB
from ..results.outputs import OutputError
from ..results.outputs import check_output_paths as check_paths
from ..results.summary_table import COLUMNS, parse_columns
from ..results.tables import TABLE_FORMATS
from ..tasks import COUNT_SAMPLE, MAX_COUNT, Outcome, Task
from .progress import Progress

ROOT = Path(__file__).resolve().parents[3]


def bundled_puzzles() -> Path:
    """The bundled puzzles: puzzles/ in a checkout, solvers/puzzles when installed."""
    checkout = ROOT / "puzzles"
    return checkout if (checkout / "default.txt").is_file() else Path(__file__).resolve().parents[2] / "puzzles"


DEFAULT_PUZZLES = bundled_puzzles() / "default.txt"


class Subcommands(Protocol):
    """What a command's ``add_parser`` is handed: the object ``add_subparsers`` returns."""

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser: ...
DEFAULT_TIMEOUT = 10.0
MAX_SECONDS = 1e7
"""The longest --timeout or --cpu-limit (about 116 days): the kernel's timers and the
clocks' arithmetic overflow on larger numbers (--cpu-limit 1e308 failed every run)."""
MAX_MEGABYTES = 1e9
"""The largest --memory-limit (a petabyte): RLIMIT_AS is a 64-bit count of bytes."""
MAX_JOBS = 1024
"""The most worker processes --jobs starts (each is a process: more is no faster on any machine)."""
MAX_PAR = 1e6
"""The largest PAR-K factor: an unsolved run counts K x the limit, which must stay a number."""
FIFO_NOTICE_S = 2.0
"""Seconds a FIFO may stay silent before the user is told the run waits for it."""
EXIT_OK, EXIT_WRONG, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class UsageError(Exception):
    """Bad usage or unreadable input: reported on stderr, exit status 2."""


def solving_options(parser: argparse.ArgumentParser) -> None:
    """--timeout, --unique and --plugin, shared by the commands that solve."""
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"wall-clock limit per run, enforced by killing the worker "
                             f"(default: {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--cpu-limit", type=seconds, default=None, metavar="SECONDS",
                        help="CPU-time limit per run (the worker's threads), enforced by the kernel's "
                             "CPU timer; a run over it is a timeout recorded with termination "
                             "'cputime' (default: none, the wall-clock --timeout only)")
    parser.add_argument("--unique", action="store_true",
                        help="ask for two solutions, to tell unique from multiple")
    parser.add_argument("--max-solutions", type=positive_int, default=None, metavar="N",
                        help="count and enumerate up to N solutions per run; a run that stops "
                             "with fewer without exhausting the search is judged unknown "
                             "(default: 1, or 2 with --unique)")
    parser.add_argument("--count", action="store_true",
                        help="count every solution without sending them back (each run records its "
                             f"count and {COUNT_SAMPLE} of its grids, verified); the judge checks each "
                             "count against another method family's or its own")
    parser.add_argument("--memory-limit", type=megabytes, default=None, metavar="MB",
                        help="address space a run may add to its worker (RLIMIT_AS); a run over "
                             "it is judged memory-out (default: no limit)")
    parser.add_argument("--plugin", action="append", default=[], metavar="SPEC",
                        help="add your own backend: path/to/file.py:function or module:function "
                             "(NAME=SPEC to name it); may be repeated")
    parser.add_argument("--judge-budget", type=seconds, default=BUDGET_S, metavar="SECONDS",
                        help="seconds the judge may spend on one claim no other method family "
                             "confirms (encoding, solving, checking its proof), in a process of its "
                             "own; a claim it cannot settle in time is unchecked, never solved "
                             f"(default: {BUDGET_S:g})")
    parser.add_argument("--judge-memory", type=megabytes, default=MEMORY_MB, metavar="MB",
                        help="address space the judge's process may add for a check; a check over "
                             f"it is unchecked (default: {MEMORY_MB:g})")


def solutions_wanted(args: argparse.Namespace) -> None:
    """UsageError when --count is given with --unique or --max-solutions (a count is every one)
    or with --batch (a batch does not count)."""
    if args.count and (args.unique or args.max_solutions is not None):
        other = "--unique" if args.unique else "--max-solutions"
        raise UsageError(f"--count counts every solution: leave out {other}")
    if args.count and getattr(args, "batch", False):
        raise UsageError("--count counts each puzzle in a worker: leave out --batch")


def input_options(parser: argparse.ArgumentParser) -> None:
    """The input layout options, shared by the commands that read puzzles."""
    parser.add_argument("--input-format", "--fmt", dest="fmt", choices=FORMATS,
                        default="auto", help="input layout (default: auto: f-puzzles JSON for .json "
                                             "files and input starting with '{'; --fmt is the old name)")
    parser.add_argument("--hex", action="store_true",
                        help="16x16 input in 0-based hex (0-9A-F), as some collections write it")


def check_output_paths(outputs: dict[str, str | None], inputs: Sequence[str]) -> None:
    """Every output path (option -> path) checked before the first run, UsageError (exit 2):
    outputs.check_output_paths' rules, writable, and a plot's format and matplotlib."""
    try:
        check_paths(list(outputs.values()), inputs)
        for option, path in outputs.items():
            if path and not os.access(Path(path).resolve().parent, os.W_OK):
                raise OutputError(f"{option} {path}: its folder is not writable")
        plot = outputs.get("--plot")
        if plot:
            check_plot_format(plot)
            require_matplotlib()
    except (OutputError, PlotUnavailableError) as error:
        raise UsageError(str(error)) from None


def picture_options(parser: argparse.ArgumentParser, csv_help: str, plot_help: str) -> None:
    """--csv, --plot and --title, shared by run and report."""
    parser.add_argument("--csv", metavar="OUT.csv", help=csv_help)
    parser.add_argument("--plot", metavar="FILE.png", help=plot_help)
    parser.add_argument("--title", default="", help="the plot's title")


def table_options(parser: argparse.ArgumentParser, formats: Sequence[str] = TABLE_FORMATS) -> None:
    """--format, --columns and --explain-columns: the summary table of run and report."""
    parser.add_argument("--format", choices=formats, default="table",
                        help="how to print the summary: table (default; on a terminal, the columns "
                             "that fit its width, COLUMNS or the terminal's), markdown, csv, json, "
                             "latex (a booktabs tabular)")
    parser.add_argument("--columns", type=columns_list, default=None, metavar="all|NAME,...",
                        help=f"the summary's columns: all, or names among {', '.join(COLUMNS)} "
                             "(default: those with something to say that fit the terminal)")
    parser.add_argument("--explain-columns", action="store_true",
                        help="say what each shown column is (on stderr, after the table)")


def columns_list(text: str) -> tuple[str, ...]:
    """The value of --columns: 'all' or known column names separated by commas."""
    try:
        return tuple(parse_columns(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def note_defaults(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Remember each option's flag and default, so refuse_unused can tell what was given."""
    parser.set_defaults(option_defaults={
        action.dest: (max(action.option_strings, key=len) if action.option_strings else action.dest,
                      action.default)
        for action in parser._actions if action.dest != "help"})
    return parser


def refuse_unused(args: argparse.Namespace, used: set[str], what: str) -> None:
    """UsageError naming the options given (set away from their default) that ``what`` does
    not use: an option is honoured or refused, never silently ignored."""
    defaults: dict[str, tuple[str, Any]] = getattr(args, "option_defaults", {})
    given = [flag for dest, (flag, default) in defaults.items()
             if dest not in used and getattr(args, dest, default) != default]
    if given:
        raise UsageError(f"{', '.join(given)} {'has' if len(given) == 1 else 'have'} no effect on "
                         f"{what}; leave {'it' if len(given) == 1 else 'them'} out")


def percent(text: str) -> float:
    """A percentage: a number at least 0 (the 10 of '10' or '10%')."""
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a percentage such as 10, not {text!r}") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a percentage of 0 or more, not {text}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (not inf, not nan)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number (finite, above 0), not {text}")
    return value


def seconds(text: str) -> float:
    """A time limit: a positive number of seconds, at most MAX_SECONDS."""
    value = positive_float(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SECONDS:g} seconds, not {text}")
    return value


def megabytes(text: str) -> float:
    """A memory limit: a positive number of megabytes, at most MAX_MEGABYTES."""
    value = positive_float(text)
    if value > MAX_MEGABYTES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_MEGABYTES:g} MB, not {text}")
    return value


def positive_int(text: str) -> int:
    """A whole number from 1 to MAX_COUNT (what a 64-bit count, and the results database, holds)."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def whole_number(text: str) -> int:
    """A whole number, negative or not, of at most 64 bits (from -MAX_COUNT to MAX_COUNT)."""
    try:
        value = int(text.strip()) if len(text) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text[:40]!r}")
    if abs(value) > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_COUNT:,} (a 64-bit whole number), "
                                         f"not {text}")
    return value


def worker_count(text: str) -> int:
    """A number of worker processes: 1 to MAX_JOBS."""
    value = positive_int(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_JOBS:,} worker processes, not {text}")
    return value


def par_factor(text: str) -> float:
    """A PAR-K factor: a positive number up to MAX_PAR."""
    value = positive_float(text)
    if value > MAX_PAR:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_PAR:g}, not {text}")
    return value


def run_with_progress(tasks: Sequence[Task], jobs: int) -> list[Outcome]:
    """Run the tasks, showing progress on stderr (progress.py)."""
    with Progress(len(tasks)) as progress:
        return run_tasks(tasks, jobs=jobs, on_outcome=progress)


def exit_status(runs: Sequence[Run], bad: Sequence[PuzzleError], fail_on: Sequence[str] = ()) -> int:
    """1 if any run is wrong, unchecked or had an answer too large to send back (judge.fails),
    or is in a category of ``fail_on`` (--fail-on; either outranks bad input), else 2 if a
    puzzle was bad, else 0."""
    if any(fails(run.category, run.termination) or run.category in fail_on for run in runs):
        return EXIT_WRONG
    return EXIT_USAGE if bad else EXIT_OK


FAILING = ("error", "timeout", "unknown", "memory-out")
"""The categories --fail-on may name (a wrong run always fails)."""


def fail_categories(text: str) -> tuple[str, ...]:
    """--fail-on's value: categories from FAILING, comma-separated.

    >>> fail_categories("error, timeout")
    ('error', 'timeout')
    """
    chosen = tuple(word.strip() for word in text.split(","))
    unknown = [word for word in chosen if word not in FAILING]
    if unknown or not text.strip():
        raise argparse.ArgumentTypeError(f"expected categories from {', '.join(FAILING)}, "
                                         f"comma-separated, not {text!r}")
    return tuple(dict.fromkeys(chosen))


def read_inputs(paths: Sequence[str], fmt: str, hex16: bool) -> tuple[list[Puzzle], list[PuzzleError]]:
    """Every good puzzle of every path; each bad one reported on stderr with where it is."""
    bad: list[PuzzleError] = []
    return list(iter_inputs(find_inputs(paths), fmt, hex16, bad)), bad


def find_inputs(paths: Sequence[str]) -> list[str]:
    """Each path as it will be read (a bundled collection by its name); UsageError for a
    missing one, before anything is read."""
    return [_readable(path) for path in paths]


def iter_inputs(paths: Sequence[str], fmt: str, hex16: bool, bad: list[PuzzleError], *,
                first: int | None = None,
                chosen: Callable[[str], Collection[int] | None] | None = None) -> Iterator[Puzzle]:
    """The good puzzles of find_inputs' paths, read lazily; each bad one is reported on
    stderr with where it is, and appended to ``bad``. ``first``: only the first N puzzles of
    each file (bad ones counted; the rest is not read); ``chosen(path)``: the indices to keep
    of that file (None: all)."""
    for path in paths:
        wanted = chosen(path) if chosen is not None else None
        for item in _items(path, fmt, hex16):
            index = item.index if isinstance(item, PuzzleError) else item.source.index
            if index is not None and first is not None and index >= first:
                break
            if index is not None and wanted is not None and index not in wanted:
                continue
            if isinstance(item, PuzzleError):
                print(f"compare.py: skipped bad puzzle: {printable(item)}", file=sys.stderr)
                bad.append(item)
            else:
                yield item


def _items(path: str, fmt: str, hex16: bool) -> Iterator[Puzzle | PuzzleError]:
    """Every puzzle of one path (find_inputs'), good or bad, in order, read lazily (a FIFO
    without hanging); UsageError if it cannot be read."""
    try:
        with contextlib.ExitStack() as stack:
            source: Any = path
            if path != "-" and stat.S_ISFIFO(os.stat(path).st_mode):
                source = stack.enter_context(_open_fifo(path))
            yield from iter_puzzles(source, fmt=fmt, hex16=hex16, name=None if source is path else path)
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror or error}") from None


# -- one numbering: a puzzle is picked by its place in its file, counted from 1 --------------

PUZZLE_HELP = ("which puzzle of the file, counted from 1 as people count; bad puzzles count too, "
               "so puzzle K is the one saved with index K-1")


def puzzle_number(text: str) -> int:
    """The value of an option that picks a puzzle (--puzzle K): a whole number. Its range
    depends on the file, so pick_puzzle checks it against the file's count."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, the puzzle's place in the file "
                                         f"counted from 1, not {text!r}") from None


def puzzle_option(parser: argparse.ArgumentParser, *, default: int | None = 1,
                  help_text: str = PUZZLE_HELP) -> None:
    """--puzzle K, the one spelling every command uses to pick one puzzle of a file (1-based);
    read it with pick_puzzle."""
    parser.add_argument("--puzzle", type=puzzle_number, default=default, metavar="K",
                        help=help_text if default is None else f"{help_text} (default: {default})")


def pick_puzzle(path: str, number: int, fmt: str, hex16: bool, option: str = "--puzzle") -> Puzzle:
    """Puzzle ``number`` of one path (as find_inputs gives it), counted from 1 with bad puzzles
    counted too (the records' index + 1), read only up to it. UsageError (exit 2) naming the
    option, the value and the file's count when the file has no such puzzle (0, negative or
    too large), or the puzzle's own error when it is a bad one."""
    seen = 0
    name = "standard input" if path == "-" else path
    for item in _items(path, fmt, hex16):
        seen += 1
        if seen == number:
            if isinstance(item, PuzzleError):
                raise UsageError(f"{option} {number}: that puzzle of {name} is bad: {item}")
            return item
    has = f"{seen} puzzle{'' if seen == 1 else 's'}" + (f", numbered 1 to {seen}" if seen > 1 else "")
    why = "puzzles are counted from 1" if number < 1 else f"there is no puzzle {number}"
    raise UsageError(f"{option} {number}: {why}; {name} has {has}")


def retired_option(parser: argparse.ArgumentParser, old: str, new: str, *, offset: int = 0,
                   why: str) -> None:
    """Refuse an option that has been replaced (exit 2), hidden from --help: the message says
    ``why`` and what to write now (``new`` with the value plus ``offset``), so the old
    spelling never silently means something else."""

    class Retired(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, _namespace: argparse.Namespace,
                     values: Any, _option_string: str | None = None) -> None:
            try:
                now = f"{new} {int(values) + offset}"
            except ValueError:
                now = f"{new} K"
            parser.error(f"{old} {values}: {why}; write {now}")

    parser.add_argument(old, action=Retired, help=argparse.SUPPRESS)


def _readable(path: str) -> str:
    """The path to read (a bundled set's by its bare name); UsageError saying what is wrong."""
    if path == "-":
        return path
    if not os.path.exists(path):
        bundled = bundled_puzzles() / Path(path).name
        if not bundled.is_file() or str(Path(path).parent) not in (".", "puzzles"):
            raise UsageError(f"{path}: no such file")
        return str(bundled)
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory, not a puzzle file")
    if not os.access(path, os.R_OK):
        raise UsageError(f"{path}: permission denied (not readable)")
    return path


@contextlib.contextmanager
def _open_fifo(path: str) -> Iterator[BinaryIO]:
    """A FIFO (a named pipe, or <(...) process substitution) opened for reading without
    hanging on open; says on stderr when no writer has sent anything after a while."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    if not poller.poll(FIFO_NOTICE_S * 1000):
        print(f"compare.py: {path} is a FIFO with nothing to read yet; waiting for a writer "
              "(Ctrl-C to stop)", file=sys.stderr)
        poller.poll()
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as stream:
        yield stream


def error_record(error: PuzzleError) -> dict[str, Any]:
    return {"file": error.file, "line": error.line, "index": error.index, "row": error.row,
            "column": error.column, "kind": error.kind, "message": str(error)}


def shown(path: Path) -> str:
    """A path relative to the working directory when it is below it (shorter in tables)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
