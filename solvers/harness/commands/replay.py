"""``compare.py replay``: a trace (from ``explain --trace``) as one self-contained HTML page
that steps through the solve forward and back, with candidates shown."""
from __future__ import annotations

import argparse
from pathlib import Path

from ...trace import TraceError, read_trace
from ..pictures.replay_page import render_page
from ..results.outputs import write_atomic
from .common import EXIT_OK, UsageError, check_output_paths, positive_int


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    replay = subparsers.add_parser(
        "replay", help="turn a trace into an HTML page that steps through the solve",
        description="Write one HTML page (no network, no server) that replays a trace written "
                    "by 'explain --trace': buttons or the arrow keys step forward and back; "
                    "empty cells show their candidates. Open PAGE.html#steps=N to start N steps in.")
    replay.add_argument("trace", metavar="TRACE.jsonl", help="a trace from explain --trace")
    replay.add_argument("-o", "--output", required=True, metavar="FILE.html", help="the page to write")
    replay.add_argument("--max-steps", type=positive_int, default=5000, metavar="N",
                        help="keep at most the first N steps in the page (default: 5000)")
    return replay


def run(args: argparse.Namespace) -> int:
    if not Path(args.trace).is_file():
        raise UsageError(f"{args.trace}: no such file")
    check_output_paths({"-o": args.output}, [args.trace])
    try:
        events, total = read_trace(args.trace, keep=args.max_steps + 1)
    except (TraceError, UnicodeDecodeError) as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"{args.trace}: cannot read: {error.strerror or error}") from None
    page = render_page(events, args.max_steps, f"{Path(args.trace).name}: {events[0]['solver']}", total)
    try:
        write_atomic(args.output, page)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error.strerror or error}") from None
    print(f"wrote {args.output} ({min(total - 1, args.max_steps):,} steps)")
    return EXIT_OK
