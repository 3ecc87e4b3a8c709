"""``compare.py run --db FILE.sqlite [--resume]``: a sweep written run by run to a results
database, never held in memory, and summarised from the database when it ends.

The table, --json, --csv and --plot then cover this sweep's selection of the database:
its puzzle files, configurations, limit, solutions asked for and repetitions (with
--resume, the runs of earlier invocations too).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence

from models import Puzzle, PuzzleError

from . import db_views, records
from .common import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, EXIT_WRONG, UsageError, error_record, progress_bar
from .database import DatabaseStore, ResultsDatabase, open_database
from .executors import Executor
from .experiment import Tally, say_partial, stream_experiment
from .outputs import atomic_path, write_atomic
from .provenance import provenance
from .runner import SolverRef


def database_options(parser: argparse.ArgumentParser) -> None:
    """--db and --resume."""
    parser.add_argument("--db", metavar="FILE.sqlite",
                        help="write every run to this SQLite results database as it finishes "
                             "(created if missing; runs are then not kept in memory)")
    parser.add_argument("--resume", action="store_true",
                        help="with --db: skip the tasks the database already holds (same puzzle, "
                             "configuration, repetition, limit), run the rest")


def sweep_to_database(args: argparse.Namespace, puzzles: Iterator[Puzzle], solvers: Sequence[SolverRef],
                      executor: Executor, paths: Sequence[str], bad: list[PuzzleError]) -> int:
    """Run the sweep into args.db, then print and save its summary from the database."""
    from .command_run import print_summary, run_options, show_and_save  # noqa: PLC0415 - its caller's helpers

    database = open_database(args.db, create=True)
    try:
        held = database.count_runs() + database.count_pending()
        if held and not args.resume:
            raise UsageError(f"{args.db} already holds {held} runs: add --resume to continue that "
                             "sweep, or name a new file")
        files: set[str] = set()
        sweep = database.start_sweep(run_options(args, paths, solvers, executor.describe()),
                                     provenance(solvers, limit=args.timeout, repeat=args.repeat,
                                                seed=args.seed))
        with progress_bar(None) as progress:
            tally = stream_experiment(_noting_files(puzzles, files), solvers,
                                      max_solutions=2 if args.unique else 1, time_limit=args.timeout,
                                      executor=executor, store=DatabaseStore(database, sweep, resume=args.resume),
                                      repeat=args.repeat, seed=args.seed,
                                      memory_limit=args.memory_limit, progress=progress,
                                      seeded=bool(getattr(args, "seeds", None)))
        database.finish_sweep(sweep, partial=tally.partial)
        _say_done(args, tally)
        selection = _selection(args, files, solvers)
        rows = db_views.summary_rows(database, selection, unique=args.unique, limit=args.timeout,
                                     par=args.par, exclude_warmup=args.exclude_warmup)
        legend = (f"\n{sum(r['runs'] for r in rows)} runs in {args.db} for these puzzle files, "
                  f"configurations, limit and repetitions; ran on {executor.describe()}.")
        wrong = any(r["wrong"] for r in rows)
        status = (EXIT_INTERRUPTED if tally.partial else EXIT_WRONG if wrong
                  else EXIT_USAGE if bad else EXIT_OK)
        return show_and_save(
            status, bad,
            lambda: print_summary(args, rows, tally.partial,
                                  db_views.disagreements(database, selection),
                                  db_views.errors(database, selection), legend),
            lambda: _export(args, database, selection, bad))
    finally:
        database.close()


def _noting_files(puzzles: Iterator[Puzzle], files: set[str]) -> Iterator[Puzzle]:
    for puzzle in puzzles:
        files.add(puzzle.source.file)
        yield puzzle


def _say_done(args: argparse.Namespace, tally: Tally) -> None:
    say_partial(tally)
    skipped = f"; {tally.skipped} recorded before, skipped" if args.resume else ""
    print(f"compare.py: {tally.finished} runs written to {args.db}{skipped}", file=sys.stderr)


def _selection(args: argparse.Namespace, files: set[str],
               solvers: Sequence[SolverRef]) -> db_views.Selection:
    """This sweep's runs in the database."""
    chosen = sorted(files)
    labels = [s.name for s in solvers]
    return db_views.Selection(
        f"file IN ({', '.join('?' * len(chosen))}) AND configuration IN ({', '.join('?' * len(labels))}) "
        "AND limit_s = ? AND max_solutions = ? AND repeat < ?",
        [*chosen, *labels, float(args.timeout), 2 if args.unique else 1, args.repeat])


def _export(args: argparse.Namespace, database: ResultsDatabase, selection: db_views.Selection,
            bad: Sequence[PuzzleError]) -> None:
    """--json, --csv and --plot of this sweep's selection, from the database."""
    if args.json:
        document = db_views.document(database, selection, par=args.par)
        document["input_errors"] = [error_record(e) for e in bad]
        write_atomic(args.json, json.dumps(document, indent=1) + "\n")
        print(f"compare.py: runs saved to {args.json}", file=sys.stderr)
    if args.csv:
        write_csv(args.csv, database, selection)
        print(f"compare.py: one line per run written to {args.csv}", file=sys.stderr)
    if args.plot:
        from .plot import cactus_plot  # noqa: PLC0415
        cactus_plot(list(database.runs(selection.sql, selection.params)), args.plot,
                    limit=args.timeout, title=args.title)
        print(f"compare.py: cactus plot written to {args.plot}", file=sys.stderr)


def write_csv(path: str, database: ResultsDatabase, selection: db_views.Selection) -> None:
    """The per-run CSV of the selection, written run by run."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8") as handle:
        handle.write(records.csv_text([]))
        for run in database.runs(selection.sql, selection.params):
            handle.write(records.csv_text([run]).split("\n", 1)[1])

