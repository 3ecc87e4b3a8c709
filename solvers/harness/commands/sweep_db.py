"""``compare.py run --db FILE.sqlite [--resume]``: a sweep written run by run to a results
database, never held in memory, and summarised from the database when it ends.

The table, --json, --csv and --plot then cover this sweep's selection of the database:
its puzzle files, configurations, limit, solutions asked for and repetitions (with
--resume, the runs of earlier invocations too).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence

from models import Puzzle, PuzzleError

from ..engine.executors import Executor
from ..results import db_views, records, resume, saved
from ..results.database import DatabaseStore, ResultsDatabase, open_database
from ..results.db_views import Selection
from ..results.experiment import Tally, say_partial, stream_experiment
from ..results.outputs import atomic_path, write_atomic
from ..results.provenance import load_average
from ..tasks import Experiment, Outputs
from .common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    UsageError,
    error_record,
    find_inputs,
)
from .progress import Progress
from .summary import bound_writes, draw_cactus, environment, print_summary, run_options, show_and_save


def database_options(parser: argparse.ArgumentParser) -> None:
    """--db and --resume."""
    parser.add_argument("--db", metavar="FILE.sqlite",
                        help="write every run to this SQLite results database as it finishes "
                             "(created if missing; runs are then not kept in memory)")
    parser.add_argument("--resume", action="store_true",
                        help="with --db: skip the tasks the database already holds (same puzzle, "
                             "configuration, repetition, limits), run the rest; refused when the "
                             "limits, --unique, a configuration, a plugin file or an input file "
                             "changed since")


def sweep_to_database(experiment: Experiment, outputs: Outputs, puzzles: Iterator[Puzzle],
                      executor: Executor, bad: list[PuzzleError], progress: Progress) -> int:
    """Run the sweep into outputs.db, then print and save its summary from the database."""
    if outputs.db is None:
        raise UsageError("a sweep into a database needs --db FILE.sqlite")
    database = open_database(outputs.db, create=True)
    try:
        held = database.count_runs() + database.count_pending()
        if held and not outputs.resume:
            raise UsageError(f"{outputs.db} already holds {held} runs: add --resume to continue that "
                             "sweep, or name a new file")
        identity = resume.sweep_identity(experiment, find_inputs(experiment.paths))
        refused = resume.refusal(database.sweeps(), identity, outputs.db) if held else ""
        if refused:
            raise UsageError(refused)
        files: set[str] = set()
        where = executor.describe()
        load_started = load_average()
        sweep = database.start_sweep({**run_options(experiment, where), "identity": identity},
                                     environment(experiment, load_started, ended=False))
        store = DatabaseStore(database, sweep, resume=outputs.resume)
        with progress:
            tally = stream_experiment(_noting_files(puzzles, files), experiment, executor=executor,
                                      store=store, progress=progress, on_skip=progress.shrink)
        database.finish_sweep(sweep, partial=tally.partial,
                              provenance=environment(experiment, load_started,
                                                     calibration=tally.calibration))
        _say_done(outputs, tally, store.taken)
        selection = _selection(experiment, files)
        rows = db_views.summary_rows(database, selection, unique=experiment.max_solutions >= 2,
                                     limit=experiment.time_limit, par=experiment.par,
                                     exclude_warmup=experiment.exclude_warmup)
        legend = (f"\n{sum(r['runs'] for r in rows)} runs in {outputs.db} for these puzzle files, "
                  f"configurations, limit and repetitions; ran on {where}.")
        wrong = (any(r["wrong"] for r in rows) or _failing(database, selection)
                 or _fails(database, selection, outputs.fail_on))
        status = (EXIT_INTERNAL if tally.crashed else EXIT_USAGE if tally.failed
                  else EXIT_INTERRUPTED if tally.partial else EXIT_WRONG if wrong
                  else EXIT_USAGE if bad else EXIT_OK)
        return show_and_save(
            status, bad,
            lambda: print_summary(outputs, experiment.par, rows, tally.partial,
                                  db_views.disagreements(database, selection),
                                  db_views.errors(database, selection), legend),
            _exports(experiment, outputs, database, selection, bad))
    finally:
        database.close()


def _fails(database: ResultsDatabase, selection: Selection, fail_on: Sequence[str]) -> bool:
    """Whether a run of the selection ended in a category of --fail-on."""
    return bool(fail_on) and any(run["category"] in fail_on
                                 for run in database.runs(selection.sql, selection.params))


def _failing(database: ResultsDatabase, selection: Selection) -> bool:
    """Whether a selected run was unchecked or had an answer too large to send back
    (judge.fails; the wrong ones the summary counts)."""
    chosen = selection.and_("category = 'unchecked' OR termination = 'answer-size'")
    return next(iter(database.runs(chosen.sql, chosen.params)), None) is not None


def _noting_files(puzzles: Iterator[Puzzle], files: set[str]) -> Iterator[Puzzle]:
    for puzzle in puzzles:
        files.add(puzzle.source.file)
        yield puzzle


def _say_done(outputs: Outputs, tally: Tally, taken: int) -> None:
    """How many runs this sweep wrote: those another sweep of the same file wrote first (two
    --resume at once) are not counted, so the counts of two writers add up to the rows."""
    say_partial(tally)
    skipped = f"; {tally.skipped} recorded before, skipped" if outputs.resume else ""
    also = (f"; {taken} more finished here but another sweep running at the same time had written "
            "them first (its runs kept)") if taken else ""
    print(f"compare.py: {tally.finished - taken} runs written to {outputs.db}{also}{skipped}",
          file=sys.stderr)


def _selection(experiment: Experiment, files: set[str]) -> db_views.Selection:
    """This sweep's runs in the database."""
    chosen = sorted(files)
    labels = [s.name for s in experiment.configurations]
    return db_views.Selection(
        f"file IN ({', '.join('?' * len(chosen))}) AND configuration IN ({', '.join('?' * len(labels))}) "
        "AND limit_s = ? AND max_solutions = ? AND repeat < ?",
        [*chosen, *labels, float(experiment.time_limit), experiment.max_solutions, experiment.repeat])


def _exports(experiment: Experiment, outputs: Outputs, database: ResultsDatabase,
             selection: db_views.Selection, bad: Sequence[PuzzleError]) -> list[Callable[[], None]]:
    """The writes of --json, --csv and --plot of this sweep's selection, from the database."""
    def save_json(path: str) -> None:
        document = db_views.document(database, selection, par=experiment.par)
        document["input_errors"] = [error_record(e) for e in bad]
        write_atomic(path, saved.document_text(document))
        print(f"compare.py: runs saved to {path}", file=sys.stderr)

    def save_csv(path: str) -> None:
        write_csv(path, database, selection)
        print(f"compare.py: one line per run written to {path}", file=sys.stderr)

    def save_plot(path: str) -> None:
        draw_cactus(list(database.runs(selection.sql, selection.params)), path,
                    experiment.time_limit, outputs.title)

    return bound_writes({outputs.json: save_json, outputs.csv: save_csv, outputs.plot: save_plot})


def write_csv(path: str, database: ResultsDatabase, selection: db_views.Selection) -> None:
    """The per-run CSV of the selection, written run by run."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8") as handle:
        handle.write(records.csv_text([]))
        for run in database.runs(selection.sql, selection.params):
            handle.write(records.csv_text([run]).split("\n", 1)[1])
