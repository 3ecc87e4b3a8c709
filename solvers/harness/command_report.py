"""``compare.py report``: the table of a saved run, or the change between two saved runs."""
from __future__ import annotations

import argparse
import json

from . import report
from .common import EXIT_OK, EXIT_WRONG, UsageError
from .judge import Category

NAME = "report"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    rep = subparsers.add_parser("report", help="the table from saved JSON, or the change between two",
                                description="Print the table of a saved run, or compare OLD with NEW.")
    rep.add_argument("old", metavar="OLD.json")
    rep.add_argument("new", nargs="?", metavar="NEW.json")
    rep.add_argument("--format", choices=report.TABLE_FORMATS, default="table")
    rep.add_argument("--plot", metavar="FILE.png", help="cactus plot of the (newer) saved run")
    return rep


def run(args: argparse.Namespace) -> int:
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
