"""``compare.py report``: tables from saved runs, without running anything again.

One run (a saved JSON, or a results database: --db FILE.sqlite [--where FILTER ...]):
          its summary; ``--scores`` PAR-K, solved and the virtual best solver per set;
          ``--per-puzzle --pivot configuration --field nodes`` one row per puzzle;
          ``--pair A,B`` configuration B against A, pair by pair (``--pair`` may be
          repeated: several comparisons at once, Holm-corrected).
Two runs: the paired comparison per puzzle set and configuration (wins, losses, ties,
          geometric-mean ratio with its interval, sign test, Holm-corrected p, verdict), the
          drift check (the runs' relative machine speed from their calibration probes: no
          significance claimed when it differs by more than 5% or a probe moved within a
          run), the change in counts, and the runs whose category changed; refused when their
          limits or puzzles differ. ``--basis cpu`` compares CPU time; ``--fail-if-slower
          PCT`` exits 1 when NEW is slower by more than PCT percent (a CI gate).
More runs (or two with --merge): one table of all of them, a configuration in several told
          apart by its file's name: 'mrv (old)'; --scores and --per-puzzle work on it too.
Any number: ``--html OUT.html`` one self-contained interactive page of every run.
"""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from ..results import db_views, paired, paired_table, records, report, saved, scores, views
from ..results.database import open_database
from ..results.judge import fails
from ..results.merge import MergeError, merged_document
from ..results.outputs import write_atomic
from ..tasks import Outputs
from .common import (
    EXIT_OK,
    EXIT_WRONG,
    Subcommands,
    UsageError,
    check_output_paths,
    note_defaults,
    par_factor,
    percent,
    picture_options,
    refuse_unused,
    table_options,
)
from .summary import print_summary, show_table

ALWAYS = {"runs", "db", "where", "json", "csv", "plot", "title", "exclude_warmup", "html", "replays"}
"""The options every kind of report honours (the files it writes, which runs it reads)."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    rep = subparsers.add_parser("report", help="tables, scores and paired comparisons of saved runs",
                                description=__doc__.split("\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("runs", nargs="*", metavar="RUNS.json",
                     help="runs saved with --json: one, two (paired) or more (one merged table)")
    rep.add_argument("--db", metavar="FILE.sqlite", help="report from a results database instead")
    rep.add_argument("--where", action="append", default=[], metavar="FILTER",
                     help="with --db: only the runs meeting COLUMN OP VALUE (OP: = != < <= > >= "
                          "and ~ with * wildcards; = and != take a,b,c), e.g. configuration=mrv,sat, "
                          "time_s>0.5, category!=correct, puzzle=3 (puzzles counted from 1; the stored index "
                          "counts from 0); may be repeated (all must hold)")
    rep.add_argument("--json", metavar="OUT.json", help="with --db: save the selected runs as a "
                                                         "saved-run JSON document")
    table_options(rep)
    rep.add_argument("--par", type=par_factor, default=2.0, metavar="K",
                     help="PAR-K: unsolved runs count K x the limit (default: 2)")
    rep.add_argument("--scores", action="store_true", help="PAR-K, solved and the virtual best solver")
    rep.add_argument("--per-puzzle", action="store_true", help="one row per puzzle (see --pivot)")
    rep.add_argument("--pivot", choices=views.PIVOTS, default=None,
                     help="with --per-puzzle: one column per value of this (default: configuration)")
    rep.add_argument("--field", choices=views.FIELDS, default=None,
                     help="with --per-puzzle: what each cell shows (default: time_s)")
    rep.add_argument("--pair", metavar="A,B", action="append", default=[],
                     help="configuration B against A within one run (with two runs: A of the "
                          "first against B of the second); may be repeated, the p-values then "
                          "Holm-corrected together")
    rep.add_argument("--merge", action="store_true",
                     help="two runs: one table of both (as with three or more) instead of the "
                          "paired comparison")
    rep.add_argument("--basis", choices=paired.BASES, default=None,
                     help="paired comparisons: compare wall time (default) or CPU time; the drift "
                          "check then uses the calibration probe's CPU time too")
    rep.add_argument("--fail-if-slower", type=percent, default=None, metavar="PCT",
                     help="paired comparisons: exit 1 when NEW (or B) is slower than OLD (or A) by "
                          "more than PCT percent with the paired test's confidence (Holm p < 0.05, "
                          "the whole 95%% interval above 1 + PCT/100); 0 otherwise, also when the "
                          "drift check allows no claim (it says so)")
    rep.add_argument("--exclude-warmup", action="store_true", help="leave warm-up runs out")
    rep.add_argument("--html", metavar="OUT.html",
                     help="write one self-contained interactive page of every run of every input "
                          "(no network needed): sortable, filterable, with plots")
    rep.add_argument("--replays", metavar="DIR",
                     help="with --html: link each run to its replay page in DIR, named "
                          "FILESTEM-PUZZLE-CONFIGURATION.html or FILESTEM-PUZZLE.html")
    picture_options(rep, "write the (newer) run's per-run CSV", "cactus plot of the (newer) saved run")
    return note_defaults(rep)


def run(args: argparse.Namespace) -> int:
    if args.title and not (args.plot or args.html):
        raise UsageError("--title names a picture: give --plot FILE or --html FILE")
    if args.replays and not args.html:
        raise UsageError("--replays links the runs of an --html page: give --html OUT.html")
    if args.db:
        return report_database(args)
    if args.where or args.json:
        raise UsageError("--where and --json go with --db FILE.sqlite")
    if not args.runs:
        raise UsageError("give a saved run (RUNS.json) or --db FILE.sqlite")
    check_output_paths({"--csv": args.csv, "--plot": args.plot, "--html": args.html}, args.runs)
    documents = [_load(path, args.exclude_warmup) for path in args.runs]
    if args.html:
        return _html(args, documents, args.runs)
    if len(documents) == 2 and not (args.merge or args.scores or args.per_puzzle):
        return _two_runs(args, documents[0], documents[1])
    if args.merge and len(documents) < 2:
        raise UsageError("--merge joins two runs or more into one table; give them")
    try:
        document = merged_document(documents, args.runs)
    except MergeError as error:
        raise UsageError(str(error)) from None
    return _report(args, document)


def _load(path: str, exclude_warmup: bool) -> dict[str, Any]:
    document = report.load_document(path)
    if exclude_warmup:
        document["runs"] = [r for r in document["runs"] if not r.get("warmup")]
    return document


def _report(args: argparse.Namespace, document: dict[str, Any]) -> int:
    """One document (a run, or several merged): the view the options ask for."""
    runs = document["runs"]
    if args.per_puzzle:
        refuse_unused(args, ALWAYS | {"per_puzzle", "pivot", "field", "format", "merge"}, "--per-puzzle")
        print(views.render(views.pivot(runs, column=args.pivot or "configuration",
                                       field=args.field or "time_s"), args.format))
    elif args.scores:
        refuse_unused(args, ALWAYS | {"scores", "par", "format", "merge"}, "--scores")
        print(views.render(scores.score_rows(runs, _limit(document), args.par), args.format))
        if args.format in ("table", "markdown"):
            print("\n" + textwrap.fill(scores.SCORES_FOOTNOTE.format(k=f"{args.par:g}"), 100), file=sys.stderr)
    elif args.pair:
        refuse_unused(args, ALWAYS | {"pair", "format", "basis", "fail_if_slower"}, "--pair")
        return _paired(args, document, None, [_labels(text) for text in args.pair])
    else:
        refuse_unused(args, ALWAYS | {"format", "columns", "explain_columns", "par", "merge"}, "the summary")
        _summary(document, runs, args)
    _write(args, document)
    return EXIT_WRONG if any(fails(r["category"], r.get("termination")) for r in runs) else EXIT_OK


def report_database(args: argparse.Namespace) -> int:
    """report --db: the selected runs of a results database, through the same views; the
    plain summary is made run by run, the other views hold the selected runs."""
    if args.runs:
        raise UsageError("give saved runs (RUNS.json) or --db FILE.sqlite, not both")
    check_output_paths({"--csv": args.csv, "--plot": args.plot, "--json": args.json,
                        "--html": args.html}, [args.db])
    whole = bool(args.per_puzzle or args.scores or args.pair or args.csv or args.plot or args.json
                 or args.html)
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
        write_atomic(args.json, saved.document_text(document))
    if args.html:
        return _html(args, [document], [args.db])
    if whole:
        return _report(args, document)
    refuse_unused(args, ALWAYS | {"format", "columns", "explain_columns", "par"}, "the summary")
    _summary(document, [], args, rows=document["summary"])
    return EXIT_WRONG if any(row["wrong"] or row.get("unchecked") for row in document["summary"]) else EXIT_OK


def _summary(document: dict[str, Any], runs: list[dict[str, Any]], args: argparse.Namespace,
             rows: list[dict[str, Any]] | None = None) -> None:
    """The summary table of the runs (or of summary rows already made), the disagreements after it."""
    if rows is None:
        rows = report.summarize(runs, unique=document.get("options", {}).get("unique", False),
                                limit=scores.document_limit(document), par=args.par)
    if args.format == "json" or document.get("disagreements"):
        outputs = Outputs(format=args.format, columns=args.columns, explain_columns=args.explain_columns)
        print_summary(outputs, args.par, rows, bool(document.get("partial")),
                      document.get("disagreements", []), [], "")
    else:
        show_table(rows, args.format, args.columns, args.explain_columns, par=args.par)
    if document.get("partial") and args.format not in ("csv", "json"):
        print("(partial: the run was interrupted; only the runs that finished are here)", file=sys.stderr)


def _labels(text: str) -> tuple[str, str]:
    labels = tuple(part.strip() for part in text.split(","))
    if len(labels) != 2 or not all(labels):
        raise UsageError(f"--pair needs two configurations A,B, not {text!r}")
    return labels[0], labels[1]


def _two_runs(args: argparse.Namespace, old: dict[str, Any], new: dict[str, Any]) -> int:
    """The paired comparison of two runs, their counts old -> new and the changed runs."""
    refuse_unused(args, ALWAYS | {"pair", "format", "basis", "fail_if_slower"}, "a paired comparison")
    status = _paired(args, old, new, [_labels(text) for text in args.pair] or [None], tail=True)
    _write(args, new)
    return status


def _paired(args: argparse.Namespace, old: dict[str, Any], new: dict[str, Any] | None,
            comparisons: list[tuple[str, str] | None], tail: bool = False) -> int:
    """The paired table of OLD against NEW (new None: configurations of one run), each
    comparison's pairs together, so their p-values are corrected together; the gate's status."""
    basis = args.basis or "wall"
    speed = paired.machine_speed(old, new, basis)
    try:
        pairs = [pair for labels in comparisons
                 for pair in paired.pairs_between(old, old if new is None else new, labels=labels,
                                                  basis=basis)]
    except paired.PairingError as error:
        raise UsageError(f"cannot compare these runs: {error}") from None
    rows = paired.summary_rows(pairs, refused=speed["refused"])
    if tail and new is not None and args.format == "json":
        print(json.dumps({"paired": rows, "machine": speed, "rows": report.compare_rows(old, new),
                          "changes": [c.__dict__ for c in report.category_changes(old, new)]}, indent=2))
    else:
        text = paired_table.render(rows, args.format, speed, one_run=new is None)
        if tail and new is not None:
            text += "\n\n" + report.render_comparison(report.compare_rows(old, new),
                                                      report.category_changes(old, new), args.format)
            if args.format in ("table", "markdown"):
                text += "\n\n" + textwrap.fill(_COMPARISON_FOOTNOTE, 100)
        print(text)
    if args.fail_if_slower is None:
        return EXIT_WRONG if any(fails(r["category"], r.get("termination")) for r in (new or old)["runs"]) \
            else EXIT_OK
    failed, line = paired_table.gate_message(rows, args.fail_if_slower, speed["refused"])
    print(f"compare.py: {line}", file=sys.stderr)
    return EXIT_WRONG if failed else EXIT_OK


_COMPARISON_FOOTNOTE = ("Counts old -> new are of puzzles (each puzzle's repetitions reduced first, "
                        "as in the summary); mean s old / new: mean over puzzles of the puzzle's "
                        "time (unsolved at the limit); new/old: their ratio.")


def _limit(document: dict[str, Any]) -> float:
    limit = scores.document_limit(document)
    if limit is None:
        raise UsageError("the saved run does not say its time limit; PAR scores need it")
    return limit


def _html(args: argparse.Namespace, documents: list[dict[str, Any]], paths: list[str]) -> int:
    """--html: the interactive page of every run of every input."""
    from ..pictures.html_report import write_report  # noqa: PLC0415 - only this view needs the page

    refuse_unused(args, ALWAYS | {"par"}, "--html")
    try:
        count = write_report(documents, paths, args.html, title=args.title, par=args.par,
                             replays=args.replays)
    except MergeError as error:
        raise UsageError(str(error)) from None
    print(f"compare.py: {count:,} runs of {len(documents)} file{'s' if len(documents) > 1 else ''} "
          f"written to {args.html}", file=sys.stderr)
    merged = merged_document(documents, paths) if len(documents) > 1 else documents[0]
    _write(args, merged)
    return EXIT_WRONG if any(fails(r["category"], r.get("termination")) for d in documents for r in d["runs"]) \
        else EXIT_OK


def _write(args: argparse.Namespace, document: dict[str, Any]) -> None:
    if args.csv:
        write_atomic(args.csv, records.csv_text(document["runs"]))
    if args.plot:
        from ..pictures.plot import cactus_plot  # noqa: PLC0415 - matplotlib only when a plot is asked for

        cactus_plot(document["runs"], args.plot, limit=scores.document_limit(document), title=args.title)
