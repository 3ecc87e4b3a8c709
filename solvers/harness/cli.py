"""The command line: ``compare.py COMMAND ...``; builds the parser and dispatches, nothing else.

Each command is a module ``commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``; to add one, add its name to COMMANDS.
"""
from __future__ import annotations

import argparse
import difflib
import importlib
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .. import __version__
from .commands.common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
)
from .engine.configs import ConfigurationError
from .engine.executors import ExecutorError
from .engine.plugins import PluginError
from .engine.stopping import (
    exit_status_for,
    guard_stderr,
    quiet_stdout,
    received,
    reopen_closed_streams,
    stop_on_signals,
)
from .engine.terminal import escaped_stdout, escaped_warnings, printable
from .results.database import DatabaseError
from .results.outputs import OutputWriteError
from .results.report import ReportError

COMMANDS = ("run", "solve", "export", "decode", "list", "report", "plot", "generate", "study", "fuzz",
            "ladder", "explain", "rate", "render", "replay", "tree")  # the last six: for teaching
DEFAULT_COMMAND = "run"
OUTPUT_OPTIONS = ("json", "csv", "plot", "db", "output", "html")
"""The options naming files a command writes: a broken pipe must not pass for success with any given."""
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""A broken pipe that stopped a command before the files it was asked for were written."""


def command_module(name: str) -> ModuleType:
    """The module of one command, ``solvers.harness.commands.<name>``."""
    return importlib.import_module(f"{__package__}.commands.{name}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 all right, 1 something wrong, 2 bad
    usage or input, 3 an internal error: one line, the traceback with --debug). A closed
    stderr is silenced, never an error of its own."""
    reopen_closed_streams()
    with guard_stderr():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args_list
    args_list = [a for a in args_list if a != "--debug"]
    if args_list and _unknown_command(args_list[0]):
        return EXIT_USAGE
    if not args_list or args_list[0] not in (*COMMANDS, "-h", "--help", "--version"):
        args_list.insert(0, DEFAULT_COMMAND)
    args = None
    try:
        with stop_on_signals():
            parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
            args, unknown = parser.parse_known_args(args_list)
            if unknown:
                raise UsageError(unknown_arguments(parser, args.command, unknown))
            with escaped_stdout(), escaped_warnings():  # text from files never drives the terminal
                status = args.handler(args)
        return exit_status_for() if status == EXIT_INTERRUPTED or received else status
    except (UsageError, ConfigurationError, PluginError, ReportError, DatabaseError,
            ExecutorError, OutputWriteError) as error:
        print(f"compare.py: error: {printable(error, lines=True)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("compare.py: interrupted", file=sys.stderr)
        return exit_status_for()
    except BrokenPipeError:  # e.g. piped into head: stop quietly, but not as a success if files were asked for
        quiet_stdout()
        wanted = [name for name in OUTPUT_OPTIONS if getattr(args, name, None)]
        if wanted:
            print(f"compare.py: error: output closed early; --{wanted[0]} may not be written",
                  file=sys.stderr)
            return EXIT_BROKEN_PIPE
        return EXIT_OK
    except MemoryError:  # the machine's (or a ulimit's) limit, not a bug: say so
        print("compare.py: error: out of memory: the input is too large for the memory this "
              "process may use (more memory, or a smaller input, a lighter encoding)", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:  # noqa: BLE001 - a bug of ours: one line, the traceback on request
        if debug:
            traceback.print_exc()
        print(f"compare.py: internal error: {type(error).__name__}: {printable(error, lines=True)}"
              + ("" if debug else " (run again with --debug for the traceback)"), file=sys.stderr)
        return EXIT_INTERNAL


def _unknown_command(word: str) -> bool:
    """True (and says so, with the nearest command) when the first word looks like a
    mistyped command rather than a puzzle file or an option of the default command."""
    if word in COMMANDS or word.startswith("-") or os.path.exists(word) or any(
            c in word for c in "./\\"):
        return False
    near = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else f"; commands: {', '.join(COMMANDS)}"
    print(f"compare.py: error: unknown command {word!r}{hint} (a puzzle file must exist)",
          file=sys.stderr)
    return True


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser that remembers its option strings and its commands' parsers, which
    argparse keeps only in private attributes (the hint for a mistyped flag needs them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.flags: list[str] = []  # before argparse's own __init__ adds --help
        self.commands: dict[str, argparse.ArgumentParser] = {}
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.flags.extend(action.option_strings)
        return action


def unknown_arguments(parser: CommandParser, command: str | None, unknown: Sequence[str]) -> str:
    """The message for arguments no option takes, with the nearest flag of that command.

    >>> unknown_arguments(build_parser(), "run", ["--timout", "5"])
    "unrecognized argument '--timout' for 'run'; did you mean '--timeout'? (compare.py run --help)"
    """
    chosen = parser.commands.get(command or "", parser)
    flags = chosen.flags if isinstance(chosen, CommandParser) else []
    first = next((word for word in unknown if word.startswith("-")), unknown[0])
    near = difflib.get_close_matches(first.split("=", 1)[0], flags, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    where = f" for {command!r}" if command else ""
    return (f"unrecognized argument {first!r}{where}{hint} "
            f"(compare.py {command + ' ' if command else ''}--help)")


def build_parser(only: str | None = None) -> CommandParser:
    """The parser with one subcommand per entry of COMMANDS, or with ``only`` that one: a
    command line that names its command parses the same either way, and importing the other
    commands' modules (the human solver, the fuzzer, plotting) cost each launch 0.1-0.3 s of CPU."""
    parser = CommandParser(
        prog="compare.py",
        description="Run Sudoku backends side by side, verify every answer, and tabulate. "
                    "With no command, 'run' on the bundled default puzzles.",
        epilog="Exit status: 0 nothing wrong, 1 some answer wrong, 2 bad usage or bad input, "
               "3 an internal error; 128+N when stopped by signal N (130 Ctrl-C, 143 SIGTERM; 141 "
               "when a closed pipe stopped a command before its output files were written).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error, print the traceback (anywhere on the line)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = command_module(name)
        parser.commands[name] = module.add_parser(subparsers)
        parser.commands[name].set_defaults(handler=module.run)
    return parser
