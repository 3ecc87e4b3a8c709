"""``compare.py replay``: a trace (from ``explain --trace``) as one self-contained HTML page
that replays the whole solve forward and back, or by itself, with candidates shown."""
from __future__ import annotations

import argparse
from pathlib import Path

from ...trace import TraceError, read_trace
from ..pictures.replay_page import render_page
from ..results.outputs import write_atomic
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths, positive_int


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    replay = subparsers.add_parser(
        "replay", help="turn a trace into an HTML page that steps through the solve",
        description="Write one HTML page (no network, no server) that replays a whole trace "
                    "written by 'explain --trace': buttons, a slider or the arrow keys step "
                    "forward and back, space plays and pauses at the chosen speed; empty cells "
                    "show their candidates, a contradiction marks the cell, row, column or box "
                    "it names, and a live region reads each step for screen readers. Open "
                    "PAGE.html#steps=N to start N steps in, PAGE.html#play to start playing.")
    replay.add_argument("trace", metavar="TRACE.jsonl", help="a trace from explain --trace")
    replay.add_argument("-o", "--output", required=True, metavar="FILE.html", help="the page to write")
    replay.add_argument("--max-steps", type=positive_int, default=None, metavar="N",
                        help="keep only the first N steps in the page (default: the whole trace)")
    return replay


def run(args: argparse.Namespace) -> int:
    if not Path(args.trace).is_file():
        raise UsageError(f"{args.trace}: no such file")
    check_output_paths({"-o": args.output}, [args.trace])
    keep = None if args.max_steps is None else args.max_steps + 1  # the start event and N steps
    try:
        events, _total = read_trace(args.trace, keep=keep)
    except (TraceError, UnicodeDecodeError) as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"{args.trace}: cannot read: {error.strerror or error}") from None
    page = render_page(events, f"{Path(args.trace).name}: {events[0]['solver']}", args.max_steps)
    try:
        write_atomic(args.output, page)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error.strerror or error}") from None
    print(f"wrote {args.output} ({len(events) - 1:,} steps, {len(page.encode()) / 1e6:,.1f} MB)")
    return EXIT_OK
