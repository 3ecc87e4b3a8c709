"""``compare.py generate``: puzzles with a unique solution (solvers/generate/cli.py)."""
from __future__ import annotations

import argparse

from ..generate.cli import add_generate_parser, run_generate

NAME = "generate"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    return add_generate_parser(subparsers)


def run(args: argparse.Namespace) -> int:
    return run_generate(args)
