"""What a sweep shows and saves when it ends, shared by ``run`` in memory and ``run --db``:
the summary on stdout, the options saved with the results, and the --json/--csv/--plot files."""
from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from models import PuzzleError

from ..engine.runner import default_jobs, grace_for
from ..engine.startup import shared_cpu
from ..engine.stopping import quiet_stdout
from ..engine.terminal import printable
from ..results import claims, records, report, saved, summary_table, tables
from ..results.experiment import Results
from ..results.judge import Disagreement, Run
from ..results.outputs import OutputWriteError, write_atomic
from ..results.provenance import provenance
from ..tasks import Experiment, Outputs
from .common import EXIT_OK, EXIT_USAGE, error_record


def show_and_save(status: int, bad: Sequence[PuzzleError], show: Callable[[], None],
                  saves: Sequence[Callable[[], None]]) -> int:
    """Print the summary, then write each file asked for, each on its own: one that cannot be
    written stops none of the others. A closed stdout (``| head``) keeps the files and the
    status (stderr, closed too, is silenced by the command line, never stops a write); a
    failed write is said and makes the status non-zero (a wrong run's 1 outranks its 2)."""
    try:
        show()
    except BrokenPipeError:
        quiet_stdout()
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    failed = False
    for write in saves:
        try:
            write()
        except OSError as error:
            said = error if isinstance(error, OutputWriteError) else f"cannot save: {error}"
            print(f"compare.py: error: {printable(said)}", file=sys.stderr)
            failed = True
    return status if status != EXIT_OK or not failed else EXIT_USAGE


def print_summary(outputs: Outputs, par: float, rows: list[dict[str, Any]], partial: bool,
                  disagreements: Sequence[Disagreement | dict[str, Any]],
                  failures: Sequence[Run | dict[str, Any]], legend: str) -> None:
    """The summary table (or JSON) on stdout, the errors and the disagreements after it (on
    stderr under CSV or LaTeX, which must stay whole); the legend and the column key on stderr."""
    if outputs.format == "json":
        print(json.dumps({"summary": summary_table.json_rows(rows, outputs.columns), "partial": partial,
                          "disagreements": [d.as_dict() if isinstance(d, Disagreement) else d
                                            for d in disagreements]}, indent=2))
        return
    show_table(rows, outputs.format, outputs.columns, outputs.explain_columns, par=par, legend=legend)
    extra = "\n\n".join(t for t in (report.render_failures(failures),
                                    report.render_disagreements(disagreements)) if t)
    if extra:
        print("\n" + extra, file=sys.stdout if outputs.format in ("table", "markdown") else sys.stderr)


def show_table(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None,
               explain: bool, *, par: float, legend: str = "") -> None:
    """The summary table on stdout, fitted to the terminal in the text format; on stderr the
    legend, the columns left out to fit, and the key (with ``explain``) or how to ask for it."""
    width = tables.terminal_width() if fmt == "table" else None
    keys, dropped = summary_table.choose_keys(rows, columns, fmt, width)
    print(summary_table.render(rows, fmt, keys, par=par, width=width), flush=True)
    if fmt == "csv" or not rows:
        return
    notes = [legend.strip("\n")] if legend else []
    notes.append(summary_table.left_out_note(dropped, width, par=par))
    notes.append(summary_table.footnote(keys, par=par) if explain
                 else "What each column is: --explain-columns.")
    print("\n".join(note for note in notes if note), file=sys.stderr, flush=True)


def run_options(experiment: Experiment, where: str) -> dict[str, Any]:
    """The options a run saves with its results (JSON document, database sweep)."""
    return {"command": "run", "paths": list(experiment.paths),
            "solvers": [s.name for s in experiment.configurations],
            "plugins": list(experiment.plugins), "timeout_s": experiment.time_limit,
            "kill_after_s": experiment.time_limit + grace_for(experiment.time_limit),
            "jobs": experiment.jobs or (default_jobs() if experiment.executor == "local" else None),
            "memory_limit_mb": experiment.memory_limit, "cpu_limit_s": experiment.cpu_limit,
            "executor": experiment.executor, "ran_on": where,
            "unique": experiment.unique, "max_solutions": experiment.max_solutions,
            "counting": experiment.counting,
            "claim_check": {"engine": claims.ENGINE, "encoding": claims.ENCODING,
                            "budget_s": experiment.judge_budget, "memory_mb": experiment.judge_memory},
            "repeat": experiment.repeat, "seeds": experiment.seeds, "seed": experiment.seed,
            "par": experiment.par,
            "first": experiment.first, "sample": experiment.sample,
            "sample_seed": experiment.sample_seed if experiment.sample is not None else None,
            "exclude_warmup": experiment.exclude_warmup, "fmt": experiment.input_format,
            "hex": experiment.hex16}


def environment(experiment: Experiment, load_started: list[float] | None,
                ended: bool = True, calibration: dict[str, Any] | None = None) -> dict[str, Any]:
    """The provenance saved with a sweep's results (the load as it ended read now, if ``ended``;
    the calibration probe once the sweep has run)."""
    found = provenance(experiment.configurations, limit=experiment.time_limit,
                       repeat=experiment.repeat, seed=experiment.seed, load_started=load_started,
                       ended=ended)
    jobs = experiment.jobs or default_jobs()
    found["workers_cpu"] = shared_cpu(jobs) if experiment.executor == "local" else None
    return {**found, "calibration": calibration} if calibration else found


def saves(experiment: Experiment, outputs: Outputs, results: Results, where: str,
          bad: Sequence[PuzzleError], provenance: dict[str, Any]) -> list[Callable[[], None]]:
    """The writes of --json, --csv and --plot of a sweep kept in memory, one per file asked for."""
    def save_json(path: str) -> None:
        document = report.build_document(
            results.runs, results.disagreements, options=run_options(experiment, where),
            partial=results.partial, environment=provenance,
            input_errors=[error_record(e) for e in bad])
        write_atomic(path, saved.document_text(document))
        print(f"compare.py: runs saved to {path}", file=sys.stderr)

    def save_csv(path: str) -> None:
        write_atomic(path, records.csv_text(results.runs))
        print(f"compare.py: one line per run written to {path}", file=sys.stderr)

    def save_plot(path: str) -> None:
        draw_cactus([r.as_dict() for r in results.runs], path, experiment.time_limit, outputs.title)

    return bound_writes({outputs.json: save_json, outputs.csv: save_csv, outputs.plot: save_plot})


def bound_writes(writes: dict[str | None, Callable[[str], None]]) -> list[Callable[[], None]]:
    """Each write whose path was given, bound to its path."""
    return [functools.partial(write, path) for path, write in writes.items() if path]


def draw_cactus(runs: list[dict[str, Any]], path: str, limit: float, title: str) -> None:
    """--plot: the cactus plot of these runs (matplotlib is loaded only here)."""
    from ..pictures.plot import cactus_plot  # noqa: PLC0415 - matplotlib only when a plot is asked for

    cactus_plot(runs, path, limit=limit, title=title)
    print(f"compare.py: cactus plot written to {path}", file=sys.stderr)


def legend(count: int, experiment: Experiment, where: str) -> str:
    """The lines under the summary table: what was run (what each column is follows it)."""
    repeats = (f" x {experiment.seeds} solver seeds" if experiment.seeds else
               f" x {experiment.repeat} repetitions" if experiment.repeat > 1 else "")
    warm = "; warm-up runs left out" if experiment.exclude_warmup else ""
    return (f"\n{count} puzzles x {len(experiment.configurations)} configurations{repeats}; every "
            f"answer checked by models.verify; times are the harness's wall clock over each "
            f"backend call; limit {experiment.time_limit:g} s per run (a run past it is a "
            f"timeout, recorded at the limit); {where}{warm}."
            f"\nA claim of no, one or exactly k solutions that the run was asked for is proved by the "
            f"judge (a CDCL re-derivation with a checked proof; a count, by its own counter) unless "
            f"a backend of another method family confirms it; one it cannot settle within "
            f"{experiment.judge_budget:g} s is unchecked, never solved (exit status 1).")
