"""The command line: ``compare.py COMMAND ...``; builds the parser and dispatches, nothing else.

Each command is a module ``command_<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``; to add one, add its name to COMMANDS.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .common import EXIT_USAGE, EXIT_WRONG, UsageError
from .configs import ConfigurationError
from .plugins import PluginError
from .report import ReportError

COMMANDS = ("run", "solve", "export", "list", "report", "plot", "generate")
DEFAULT_COMMAND = "run"


def command_module(name: str) -> ModuleType:
    """The module of one command, ``solvers.harness.command_<name>``."""
    return importlib.import_module(f"{__package__}.command_{name}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 all right, 1 something wrong, 2 bad usage)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in (*COMMANDS, "-h", "--help"):
        args_list.insert(0, DEFAULT_COMMAND)
    args = build_parser().parse_args(args_list)
    try:
        return args.handler(args)
    except (UsageError, ConfigurationError, PluginError, ReportError) as error:
        print(f"compare.py: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("compare.py: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_WRONG


def build_parser() -> argparse.ArgumentParser:
    """The parser with one subcommand per entry of COMMANDS."""
    parser = argparse.ArgumentParser(
        prog="compare.py",
        description="Run Sudoku backends side by side, verify every answer, and tabulate. "
                    "With no command, 'run' on the bundled default puzzles.",
        epilog="Exit status: 0 nothing wrong, 1 some answer wrong, 2 bad usage or bad input.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = command_module(name)
        module.add_parser(subparsers).set_defaults(handler=module.run)
    return parser
