"""``compare.py plot cactus|scatter|survival RUNS.json ...``: the pictures, from saved runs.

cactus:  one panel per grid size, one line per configuration, the limit drawn.
scatter: configuration --y against --x, puzzle by puzzle, log-log, timeouts on the
         limit's edge, the diagonal drawn. With two saved runs and no --x/--y, the
         configuration they share (the first run on x, the second on y).
curve:   --y (a run's measure: time_s, nodes, ...) against --x (a puzzle's attribute:
         holes, givens, n), the median and the interquartile band per configuration.
survival: P(cost > x) per configuration, log-log (--field time_s or nodes), and the Hill
         estimate of each tail index with the runs it rests on (run with --seeds K).
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from ..pictures.plot import cactus_plot, curve_plot, scatter_plot, survival_plot
from ..results import report, scores
from ..results.curves import ATTRIBUTES, MEASURES, curve, peak
from ..results.paired import PairingError
from ..results.records import record
from ..results.tails import FIELDS, Tail, tails
from .common import EXIT_OK, UsageError, check_output_paths


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    plot = subparsers.add_parser("plot", help="cactus or scatter plot of saved runs",
                                 description=__doc__.split("\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    plot.add_argument("kind", choices=("cactus", "scatter", "survival", "curve"))
    plot.add_argument("runs", nargs="+", metavar="RUNS.json")
    plot.add_argument("-o", "--output", metavar="FILE", help="the picture (default: KIND.png)")
    plot.add_argument("--x", metavar="CONFIG|FIELD", help="scatter: the configuration on the x "
                      f"axis; curve: the puzzle attribute ({', '.join(ATTRIBUTES)})")
    plot.add_argument("--y", metavar="CONFIG|FIELD", help="scatter: the configuration on the y "
                      "axis; curve: the run's measure (time_s, cpu_s, nodes, backtracks, ...)")
    plot.add_argument("--field", choices=FIELDS, default="time_s",
                      help="survival: the cost, time_s (default) or nodes")
    plot.add_argument("--title", default="", help="the plot's title")
    return plot


def run(args: argparse.Namespace) -> int:
    output = args.output or f"{args.kind}.png"
    check_output_paths({"--plot": output}, args.runs)
    documents = [report.load_document(path) for path in args.runs]
    limit = _common_limit(documents, args.runs)
    runs = _merged(documents, args.runs)
    if args.kind == "cactus":
        cactus_plot(runs, output, limit=limit, title=args.title)
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
        survival_plot(runs, output, field=args.field, limit=limit, title=args.title)
        print_tails(tails([record(r) for r in runs], args.field, limit), args.field)
    else:
        x, y = _axes(args, documents, runs)
        try:
            count = scatter_plot(runs, output, x, y, limit=limit, title=args.title)
        except PairingError as error:
            raise UsageError(f"cannot plot {y} against {x}: {error}") from None
        print(f"compare.py: {count} puzzles plotted", flush=True)
    print(f"compare.py: {args.kind} plot written to {output}")
    return EXIT_OK


def print_tails(found: list[Tail], field: str) -> None:
    """The Hill estimates, one line per configuration."""
    print(f"tail index (Hill) of {field}: alpha < 1 infinite mean, < 2 infinite variance")
    for tail in found:
        alpha = f"{tail.alpha:.2f}" if tail.alpha is not None else "-"
        print(f"  {tail.configuration}: alpha = {alpha} from the {tail.k} largest of {tail.runs} "
              f"runs ({tail.censored} of them cut by the limit)")


def print_peaks(runs: list[dict[str, Any]], x: str, y: str, limit: float | None) -> None:
    """Where each configuration's median y is highest, one line per configuration."""
    records = [{**record(r), "puzzle": r.get("puzzle")} for r in runs]
    print(f"peak of the median {y} against {x}:")
    for label, points in curve(records, x, y, limit).items():
        top = peak(points)
        if top is not None:
            print(f"  {label}: {x} = {top.x:g}, median {top.median:.4g} "
                  f"(quartiles {top.low:.4g}-{top.high:.4g}, {top.runs} runs)")


def _common_limit(documents: list[dict[str, Any]], paths: list[str]) -> float:
    limits: list[float] = []
    for document, path in zip(documents, paths):
        limit = scores.document_limit(document)
        if limit is None:
            raise UsageError(f"{path}: the saved run does not say its time limit")
        limits.append(limit)
    if any(not math.isclose(limit, limits[0]) for limit in limits):
        raise UsageError("the runs' limits differ (" + ", ".join(f"{x:g} s" for x in limits)
                         + "): their times cannot share one picture")
    return limits[0]


def _merged(documents: list[dict[str, Any]], paths: list[str]) -> list[dict[str, Any]]:
    """Every run of every document; a configuration in several documents is told apart by
    the document's file name: 'mrv (old)'."""
    labels = [{r.get("configuration", r["solver"]) for r in d["runs"]} for d in documents]
    shared = {label for label in labels[0] if all(label in other for other in labels[1:])} \
        if len(documents) > 1 else set()
    merged = []
    for document, path in zip(documents, paths):
        for run in document["runs"]:
            label = run.get("configuration", run["solver"])
            if label in shared:
                label = f"{label} ({Path(path).stem})"
            merged.append({**run, "configuration": label, "solver": label})
    return merged


def _axes(args: argparse.Namespace, documents: list[dict[str, Any]],
          runs: list[dict[str, Any]]) -> tuple[str, str]:
    labels = list(dict.fromkeys(r["configuration"] for r in runs))
    if args.x and args.y:
        x, y = args.x, args.y
    elif len(labels) == 2:
        x, y = labels
    else:
        raise UsageError("say which two configurations to plot with --x and --y; the runs have: "
                         + ", ".join(labels))
    for label in (x, y):
        if label not in labels:
            raise UsageError(f"no configuration {label!r} in the runs; they have: {', '.join(labels)}")
    return x, y
