"""``compare.py report``: tables from saved runs, without running anything again.

One run (a saved JSON, or a results database: --db FILE.sqlite [--where FILTER ...]):
          its summary; ``--scores`` PAR-K, solved and the virtual best solver per set;
          ``--per-puzzle --pivot configuration --field nodes`` one row per puzzle;
          ``--pair A,B`` configuration B against A, pair by pair.
Two runs: the paired comparison per configuration (wins, losses, ties, geometric-mean
          ratio with its interval, sign test), the change in counts, and the runs whose
          category changed; refused when their limits or puzzles differ.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..pictures.plot import cactus_plot
from ..results import db_views, paired, records, report, scores, views
from ..results.database import open_database
from ..results.judge import Category
from ..results.outputs import write_atomic
from .common import (
    EXIT_OK,
    EXIT_WRONG,
    UsageError,
    check_output_paths,
    picture_options,
    positive_float,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    rep = subparsers.add_parser("report", help="tables, scores and paired comparisons of saved runs",
                                description=__doc__.split("\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("old", nargs="?", metavar="RUN.json", help="a run saved with --json")
    rep.add_argument("new", nargs="?", metavar="NEW.json", help="a second run: compare pair by pair")
    rep.add_argument("--db", metavar="FILE.sqlite", help="report from a results database instead")
    rep.add_argument("--where", action="append", default=[], metavar="FILTER",
                     help="with --db: only the runs meeting COLUMN OP VALUE (OP: = != < <= > >= "
                          "and ~ with * wildcards; = and != take a,b,c), e.g. configuration=mrv,sat, "
                          "time_s>0.5, category!=correct; may be repeated (all must hold)")
    rep.add_argument("--json", metavar="OUT.json", help="with --db: save the selected runs as a "
                                                         "saved-run JSON document")
    rep.add_argument("--format", choices=report.TABLE_FORMATS, default="table")
    rep.add_argument("--par", type=positive_float, default=2.0, metavar="K",
                     help="PAR-K: unsolved runs count K x the limit (default: 2)")
    rep.add_argument("--scores", action="store_true", help="PAR-K, solved and the virtual best solver")
    rep.add_argument("--per-puzzle", action="store_true", help="one row per puzzle (see --pivot)")
    rep.add_argument("--pivot", choices=views.PIVOTS, default="configuration",
                     help="with --per-puzzle: one column per value of this (default: configuration)")
    rep.add_argument("--field", choices=views.FIELDS, default="time_s",
                     help="with --per-puzzle: what each cell shows (default: time_s)")
    rep.add_argument("--pair", metavar="A,B", help="configuration B against A within one run (with "
                     "two runs: A of the first against B of the second)")
    rep.add_argument("--exclude-warmup", action="store_true", help="leave warm-up runs out")
    picture_options(rep, "write the (newer) run's per-run CSV", "cactus plot of the (newer) saved run")
    return rep


def run(args: argparse.Namespace) -> int:
    if args.db:
        return report_database(args)
    if args.where or args.json:
        raise UsageError("--where and --json go with --db FILE.sqlite")
    if not args.old:
        raise UsageError("give a saved run (RUN.json) or --db FILE.sqlite")
    inputs = [args.old] + ([args.new] if args.new else [])
    check_output_paths({"--csv": args.csv, "--plot": args.plot}, inputs)
    return _report(args, report.load_document(args.old),
                   report.load_document(args.new) if args.new else None)


def _report(args: argparse.Namespace, old: dict[str, Any], new: dict[str, Any] | None) -> int:
    newest = new or old
    runs = [r for r in newest["runs"] if not (args.exclude_warmup and r.get("warmup"))]
    if new is not None:
        print(_two_runs(old, newest, args))
    elif args.per_puzzle:
        print(views.render(views.pivot(runs, column=args.pivot, field=args.field), args.format))
    elif args.scores:
        print(views.render(scores.score_rows(runs, _limit(old), args.par), args.format))
    elif args.pair:
        print(_paired(old, old, args.format, _labels(args.pair)))
    else:
        print(_summary(old, runs, args))
    _write(args, newest)
    return EXIT_WRONG if any(r["category"] == Category.WRONG for r in newest["runs"]) else EXIT_OK


def report_database(args: argparse.Namespace) -> int:
    """report --db: the selected runs of a results database, through the same views; the
    plain summary is made run by run, the other views hold the selected runs."""
    if args.old or args.new:
        raise UsageError("give a saved run (RUN.json) or --db FILE.sqlite, not both")
    check_output_paths({"--csv": args.csv, "--plot": args.plot, "--json": args.json}, [args.db])
    whole = bool(args.per_puzzle or args.scores or args.pair or args.csv or args.plot or args.json)
    database = open_database(args.db, create=False)
    try:
        selection = db_views.parse_filters(args.where)
        document = db_views.document(database, selection, par=args.par, runs=whole,
                                     exclude_warmup=args.exclude_warmup)
    finally:
        database.close()
    if not document["summary"]:
        print(f"compare.py: no runs in {args.db}" + (" match --where" if args.where else ""),
              file=sys.stderr)
    if args.json:
        write_atomic(args.json, json.dumps(document, indent=1) + "\n")
    if whole:
        return _report(args, document, None)
    print(_summary(document, [], args, rows=document["summary"]))
    return EXIT_WRONG if any(row["wrong"] for row in document["summary"]) else EXIT_OK


def _summary(document: dict[str, Any], runs: list[dict[str, Any]], args: argparse.Namespace,
             rows: list[dict[str, Any]] | None = None) -> str:
    """The summary table of the runs (or of summary rows already made)."""
    if rows is None:
        rows = report.summarize(runs, unique=document.get("options", {}).get("unique", False),
                                limit=scores.document_limit(document), par=args.par)
    if args.format == "json":
        return json.dumps({"summary": rows, "partial": document.get("partial", False),
                           "disagreements": document.get("disagreements", [])}, indent=2)
    text = report.render_table(rows, args.format, par=args.par)
    if document.get("partial"):
        text += "\n\n(partial: the run was interrupted; only the runs that finished are here)"
    if args.format != "csv" and document.get("disagreements"):
        text += "\n\n" + report.render_disagreements(document["disagreements"])
    return text


def _labels(text: str) -> tuple[str, str]:
    labels = tuple(part.strip() for part in text.split(","))
    if len(labels) != 2 or not all(labels):
        raise UsageError(f"--pair needs two configurations A,B, not {text!r}")
    return labels[0], labels[1]


def _two_runs(old: dict[str, Any], new: dict[str, Any], args: argparse.Namespace) -> str:
    pairs_text = _paired(old, new, args.format, _labels(args.pair) if args.pair else None)
    rows = report.compare_rows(old, new)
    changes = report.category_changes(old, new)
    if args.format == "json":
        return json.dumps({"paired": json.loads(pairs_text), "rows": rows,
                           "changes": [c.__dict__ for c in changes]}, indent=2)
    return pairs_text + "\n\n" + report.render_comparison(rows, changes, args.format)


def _paired(old: dict[str, Any], new: dict[str, Any], fmt: str,
            labels: tuple[str, str] | None = None) -> str:
    try:
        pairs = paired.pairs_between(old, new, labels=labels)
    except paired.PairingError as error:
        raise UsageError(f"cannot compare these runs: {error}") from None
    rows = paired.summary_rows(pairs)
    if fmt in ("json", "csv"):
        return views.render(rows, fmt)
    shown = [{"configuration": r["configuration"], "pairs": r["pairs"], "new wins": r["wins"],
              "new loses": r["losses"], "ties": r["ties"], "new/old (geo. mean)": r["ratio"],
              "95% interval": _interval(r), "sign test p": r["sign_p"]} for r in rows]
    return (views.render(shown, fmt) + "\n\nPaired by puzzle and configuration; an unsolved run "
            f"counts at the limit; a tie is within {paired.TIE:.0%} or both unsolved; ratio below 1: "
            "NEW is faster.")


def _interval(row: dict[str, Any]) -> str:
    if row["ratio_low"] is None:
        return "-"
    return f"{row['ratio_low']:.3g} - {row['ratio_high']:.3g}"


def _limit(document: dict[str, Any]) -> float:
    limit = scores.document_limit(document)
    if limit is None:
        raise UsageError("the saved run does not say its time limit; PAR scores need it")
    return limit


def _write(args: argparse.Namespace, document: dict[str, Any]) -> None:
    if args.csv:
        write_atomic(args.csv, records.csv_text(document["runs"]))
    if args.plot:
        cactus_plot(document["runs"], args.plot, limit=scores.document_limit(document),
                    title=args.title)
