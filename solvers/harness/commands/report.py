"""``compare.py report``: tables from saved runs, without running anything again.

One run (a saved JSON, or a results database: --db FILE.sqlite [--where FILTER ...]):
          its summary; ``--scores`` PAR-K, solved and the virtual best solver per set;
          ``--per-puzzle --pivot configuration --field nodes`` one row per puzzle;
          ``--pair A,B`` configuration B against A, pair by pair (``--pair`` may be
          repeated: several comparisons at once, Holm-corrected).
Two runs: the paired comparison per configuration (wins, losses, ties, geometric-mean
          ratio with its interval, sign test, Holm-corrected p, verdict), the two runs'
          relative machine speed from their calibration probes (no significance claimed
          when it differs by more than 5% or a probe moved within a run), the change in
          counts, and the runs whose category changed; refused when their limits or
          puzzles differ.
"""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from ..pictures.plot import cactus_plot
from ..results import db_views, paired, records, report, scores, views
from ..results.database import open_database
from ..results.judge import fails
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
                          "time_s>0.5, category!=correct, puzzle=3 (puzzles counted from 1; the stored index "
                          "counts from 0); may be repeated (all must hold)")
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
    rep.add_argument("--pair", metavar="A,B", action="append", default=[],
                     help="configuration B against A within one run (with two runs: A of the "
                          "first against B of the second); may be repeated, the p-values then "
                          "Holm-corrected together")
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
        if args.format in ("table", "markdown"):
            print("\n" + textwrap.fill(scores.SCORES_FOOTNOTE.format(k=f"{args.par:g}"), 100))
    elif args.pair:
        print(_paired(old, None, args.format, [_labels(text) for text in args.pair]))
    else:
        print(_summary(old, runs, args))
    _write(args, newest)
    return EXIT_WRONG if any(fails(r["category"], r.get("termination")) for r in newest["runs"]) else EXIT_OK


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
    return EXIT_WRONG if any(row["wrong"] or row.get("unchecked") for row in document["summary"]) else EXIT_OK


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
    if args.format != "csv" and rows:
        text += "\n\n" + report.footnote(rows, par=args.par)
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
    pairs_text = _paired(old, new, args.format, [_labels(text) for text in args.pair] or [None])
    rows = report.compare_rows(old, new)
    changes = report.category_changes(old, new)
    if args.format == "json":
        return json.dumps({"paired": json.loads(pairs_text), "machine": paired.machine_speed(old, new),
                           "rows": rows, "changes": [c.__dict__ for c in changes]}, indent=2)
    text = pairs_text + "\n\n" + report.render_comparison(rows, changes, args.format)
    if args.format != "csv":
        text += "\n\n" + textwrap.fill(_COMPARISON_FOOTNOTE, 100)
    return text


def _paired(old: dict[str, Any], new: dict[str, Any] | None, fmt: str,
            comparisons: list[tuple[str, str] | None]) -> str:
    """The paired table of OLD against NEW (new None: configurations of one run), each
    comparison's pairs together, so their p-values are corrected together."""
    speed = paired.machine_speed(old, new)
    try:
        pairs = [pair for labels in comparisons
                 for pair in paired.pairs_between(old, old if new is None else new, labels=labels)]
    except paired.PairingError as error:
        raise UsageError(f"cannot compare these runs: {error}") from None
    rows = paired.summary_rows(pairs, refused=speed["refused"])
    if fmt in ("json", "csv"):
        return views.render(rows, fmt)
    shown = [{"configuration": r["configuration"], "pairs": r["pairs"], "new wins": r["wins"],
              "new loses": r["losses"], "ties": r["ties"], "new/old (geo. mean)": r["ratio"],
              "95% interval": _interval(r), "sign test p": r["sign_p"], "Holm p": r["holm_p"],
              "verdict": r["verdict"]} for r in rows]
    note = PAIRED_FOOTNOTE.format(tie=paired.TIE, resamples=paired.RESAMPLES, alpha=paired.ALPHA)
    speed_lines = [textwrap.fill(line, 100) for line in _speed_line(speed, new is None).splitlines()]
    return views.render(shown, fmt) + "\n\n" + "\n".join([*speed_lines, textwrap.fill(note, 100)])


def _speed_line(speed: dict[str, Any], one_run: bool) -> str:
    """What the calibration probes say about the machine(s)."""
    def moved(value: float | None) -> str:
        return "unknown" if value is None else f"{value:+.1%}"

    if one_run:
        line = f"Machine: the run's calibration probe moved {moved(speed['old_moved'])} from its start to its end"
        return line + (". Warning: more than 5%, but the configurations were interleaved, so "
                       "the pairs shared the drift." if speed["warning"] else ".")
    relative = speed["relative"]
    line = ("Machine speed: " + ("unknown (a run saved no calibration probe)" if relative is None else
            f"probe time NEW/OLD = {relative:.3f} (above 1: NEW's machine was slower)")
            + f"; the probe moved {moved(speed['old_moved'])} within OLD, "
            f"{moved(speed['new_moved'])} within NEW.")
    if speed["refused"]:
        line += f"\nNo significance claimed: {speed['refused']}."
    return line


PAIRED_FOOTNOTE = """Columns: pairs: puzzles run by both sides (one pair per puzzle and configuration); \
each side's time per puzzle is the upper median of its repetitions (the larger middle value of an \
even count), a run without a correct answer counted at the limit. new wins / new loses: pairs NEW \
is more than {tie:.0%} faster / slower; ties: within {tie:.0%}, or both unsolved. new/old (geo. \
mean): the geometric mean of NEW/OLD over the pairs at least one side solved (below 1: NEW is \
faster); 95% interval: a percentile bootstrap of it ({resamples} resamples of the pairs, seed 0), \
not corrected for several rows. sign test p: two-sided exact binomial test of wins against losses. \
Holm p: that p-value Holm-corrected over the rows of this table. verdict: NEW faster / slower when \
Holm p < {alpha:g} and the whole interval lies beyond {tie:.0%} either side of 1; otherwise no \
difference shown; not claimed, with two runs, when their calibration probes differ by more than \
5% or one moved by more than 5% within its run (machine drift)."""

_COMPARISON_FOOTNOTE = ("Counts old -> new are of puzzles (each puzzle's repetitions reduced first, "
                        "as in the summary); mean s old / new: mean over puzzles of the puzzle's "
                        "time (unsolved at the limit); new/old: their ratio.")


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
