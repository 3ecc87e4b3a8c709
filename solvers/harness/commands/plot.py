"""``compare.py plot cactus|scatter|survival RUNS.json ...``: the pictures, from saved runs.

cactus:  puzzles solved within a --field value (time_s, cpu_s, nodes, ...), one panel per
         grid size, one line per configuration, the limit drawn for a time.
scatter: configuration --y against --x, puzzle by puzzle, one panel per puzzle set (file
         and size), log-log, unsolved on the edge (the limit for a time), the diagonal drawn.
         With exactly two configurations in the runs, --x and --y may be left out. --field:
         the measure, as for cactus.
curve:   --y (a run's measure: time_s, nodes, ...) against --x (a puzzle's attribute:
         holes, givens, n), the median and the interquartile band per configuration, one
         panel per puzzle set.
survival: P(cost > x) per configuration, one panel per puzzle set, log-log (--field), and
         the Hill estimate of each tail index with its bootstrap interval and the runs it
         rests on (run with --seeds K); runs killed with no count are counted and drawn.
Several saved runs share one picture when their limits agree; a configuration in more than
one is told apart by its file's name: 'mrv (old)'. An option a picture does not use is refused.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..pictures.plot import cactus_plot, curve_plot, scatter_plot, survival_plot
from ..results import report
from ..results.curves import ATTRIBUTES, MEASURES, curve, peak
from ..results.measures import FIELDS
from ..results.merge import MergeError, common_limit, merged_runs
from ..results.paired import PairingError
from ..results.records import record
from ..results.tails import Tail, describe, tails
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths, note_defaults, refuse_unused

USES = {"cactus": {"field"}, "scatter": {"x", "y", "field"}, "survival": {"field"}, "curve": {"x", "y"}}
"""The options each kind of picture honours beyond the files and the title; the others are refused."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    plot = subparsers.add_parser("plot", help="cactus, scatter, survival or curve plot of saved runs",
                                 description=__doc__.split("\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    plot.add_argument("kind", choices=("cactus", "scatter", "survival", "curve"))
    plot.add_argument("runs", nargs="+", metavar="RUNS.json")
    plot.add_argument("-o", "--output", metavar="FILE", help="the picture (default: KIND.png)")
    plot.add_argument("--x", metavar="CONFIG|FIELD", help="scatter: the configuration on the x "
                      f"axis; curve: the puzzle attribute ({', '.join(ATTRIBUTES)})")
    plot.add_argument("--y", metavar="CONFIG|FIELD", help="scatter: the configuration on the y "
                      "axis; curve: the run's measure (time_s, cpu_s, nodes, backtracks, ...)")
    plot.add_argument("--field", choices=FIELDS, default=None,
                      help="cactus, scatter, survival: the measure, time_s (the harness's wall time "
                           "over the call, the default), cpu_s or a counter such as nodes")
    plot.add_argument("--title", default="", help="the plot's title")
    return note_defaults(plot)


def run(args: argparse.Namespace) -> int:
    refuse_unused(args, {"kind", "runs", "output", "title", *USES[args.kind]}, f"plot {args.kind}")
    output = args.output or f"{args.kind}.png"
    check_output_paths({"--plot": output}, args.runs)
    documents = [report.load_document(path) for path in args.runs]
    try:
        limit = common_limit(documents, args.runs)
    except MergeError as error:
        raise UsageError(str(error)) from None
    runs = merged_runs(documents, args.runs) if len(documents) > 1 else documents[0]["runs"]
    field = args.field or "time_s"
    if args.kind == "cactus":
        cactus_plot(runs, output, limit=limit, title=args.title, field=field)
    elif args.kind == "curve":
        if args.x not in ATTRIBUTES:
            raise UsageError(f"plot curve: --x must be a puzzle attribute, one of "
                             f"{', '.join(ATTRIBUTES)}; not {args.x!r}")
        if args.y not in MEASURES:
            raise UsageError(f"plot curve: --y must be a run's measure, one of "
                             f"{', '.join(MEASURES)}; not {args.y!r}")
        count = curve_plot(runs, output, x=args.x, y=args.y, limit=limit, title=args.title)
        print(f"compare.py: {count} points plotted", flush=True)
        print_peaks(runs, args.x, args.y, limit)
    elif args.kind == "survival":
        survival_plot(runs, output, field=field, limit=limit, title=args.title)
        print_tails(tails(runs, field, limit), field)
    else:
        x, y = _axes(args, runs)
        try:
            count = scatter_plot(runs, output, x, y, limit=limit, title=args.title, field=field)
        except PairingError as error:
            raise UsageError(f"cannot plot {y} against {x}: {error}") from None
        print(f"compare.py: {count} puzzles plotted", flush=True)
    print(f"compare.py: {args.kind} plot written to {output}")
    return EXIT_OK


def print_tails(found: list[Tail], field: str) -> None:
    """The Hill estimates, per puzzle set one line per configuration, with their intervals."""
    print(f"tail index (Hill) of {field}: alpha < 1 infinite mean, < 2 infinite variance")
    for name in dict.fromkeys(tail.set for tail in found):
        print(f" {name}:")
        for tail in found:
            if tail.set == name:
                print("\n".join(describe(tail)))


def print_peaks(runs: list[dict[str, Any]], x: str, y: str, limit: float | None) -> None:
    """Where each configuration's median y is highest, per puzzle set one line per configuration."""
    records = [{**record(r), "puzzle": r.get("puzzle")} for r in runs]
    print(f"peak of the median {y} against {x}:")
    for (name, label), points in curve(records, x, y, limit).items():
        top = peak(points)
        if top is not None:
            print(f"  {label} on {name}: {x} = {top.x:g}, median {top.median:.4g} "
                  f"(quartiles {top.low:.4g}-{top.high:.4g}, {top.runs} runs)")


def _axes(args: argparse.Namespace, runs: list[dict[str, Any]]) -> tuple[str, str]:
    labels = list(dict.fromkeys(r.get("configuration", r["solver"]) for r in runs))
    if args.x and args.y:
        x, y = args.x, args.y
    elif len(labels) == 2 and not (args.x or args.y):
        x, y = labels
    else:
        raise UsageError("say which two configurations to plot with --x and --y; the runs have: "
                         + ", ".join(labels))
    for label in (x, y):
        if label not in labels:
            raise UsageError(f"no configuration {label!r} in the runs; they have: {', '.join(labels)}")
    return x, y
