"""The documented figures, each with the committed command that makes it (issue 34, item 6).

A ``Figure`` says where a number is shown (a page of the docs or bench/README.md, and the
text it is shown as), the commands that make it (run from the checkout's root; ``{out}`` is
the folder they write into, ``> FILE`` sends a command's stdout to a file there), the JSON
files they write that are kept in the checkout (``files``: where each is kept; the commands
write each under its base name into ``{out}``), how to read the number from those, and the
interval a new run must land in for the page to stay true: a count that does not depend on
the machine has an interval of one value; a ratio or a time has the interval its page
states. The kept files carry their provenance (commit, a clean tree, CPU model and flags,
package builds), and ``bench/check_figures.py`` re-runs the cheap figures (``cheap``:
minutes at most on a loaded 2-core machine) and says which moved. Figures with the same
commands are made by one run of them.
"""
from __future__ import annotations

import functools
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bench.figure_base import ROOT, Figure, Outputs, decoded
from bench.figures_docs import FIGURES as DOCS_FIGURES
from bench.figures_targets import FIGURES as TARGET_FIGURES

# ---------------------------------------------------------------- readers

def paired_ratio(run: str, pair: str) -> Callable[[Outputs], float]:
    """The geometric-mean ratio of ``compare.py report RUN --pair A,B`` (B's time over A's)."""
    def read(outputs: Outputs) -> float:
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "report", str(outputs[run]),
                               "--pair", pair, "--format", "json"], capture_output=True, text=True, check=True)
        rows = json.loads(done.stdout)  # --pair: the paired rows alone
        return round(float(rows[0]["ratio"]), 2)
    return read


def summary_value(run: str, configuration: str, column: str, digits: int = 1) -> Callable[[Outputs], float]:
    """A column of a saved run's summary row for one configuration (its only set), to ``digits``."""
    def read(outputs: Outputs) -> float:
        rows = [row for row in decoded(outputs[run])["summary"] if row["configuration"] == configuration]
        return round(float(rows[0][column]), digits)
    return read


def memory_ratio(mode: str, extreme: Callable[[list[float]], float]) -> Callable[[Outputs], float]:
    """The largest (or smallest) ratio of a way of measuring memory to the outside measurement."""
    def read(outputs: Outputs) -> float:
        rows = decoded(outputs["memory.json"])["accuracy"]
        return round(extreme([row[mode] / row["outside_mb"] for row in rows]), 2)
    return read


def hill_alpha(file: str, configuration: str) -> Callable[[Outputs], float]:
    """A configuration's Hill tail index of its node counts, as ``compare.py plot survival``
    prints it."""
    def read(outputs: Outputs) -> float:
        said = survival_says(outputs[file], outputs[file].stat().st_mtime_ns)
        found = re.search(rf"^\s*{re.escape(configuration)}: alpha = ([0-9.]+)", said, re.M)
        if found is None:
            raise ValueError(f"no alpha of {configuration} in plot survival's output")
        return float(found.group(1))
    return read


@functools.lru_cache(maxsize=16)
def survival_says(path: Path, modified: int) -> str:
    """What ``compare.py plot survival --field nodes`` prints for a saved run (once per file
    and version: ``modified`` is its mtime, so a re-written file is read again)."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "plot", "survival", str(path),
                               "--field", "nodes", "-o", str(Path(folder) / "s.png")],
                              capture_output=True, text=True, check=True)
    return done.stdout + done.stderr


def runs_of(document: Mapping[str, Any], configuration: str) -> list[dict[str, Any]]:
    return [run for run in document["runs"] if run["configuration"] == configuration]


def holes(puzzle: str) -> float:
    """The share of a line-format puzzle's cells left empty, to 2 places (its grid is the line's
    first word: a variant's ``variant=latin`` may follow)."""
    grid = puzzle.split()[0]
    return round(sum(c in ".0" for c in grid) / len(grid), 2)


def givens(puzzle: str) -> int:
    return sum(c not in ".0" for c in puzzle.split()[0])


def median_by(runs: list[dict[str, Any]], key: Callable[[dict[str, Any]], float],
              counter: str) -> dict[float, float]:
    """The median of a counter over the runs, by key."""
    groups: dict[float, list[float]] = {}
    for run in runs:
        groups.setdefault(key(run), []).append(run[counter])
    return {value: statistics.median(counts) for value, counts in sorted(groups.items())}


def peak_of(file: str, configuration: str, counter: str) -> Callable[[Outputs], float]:
    """The hole fraction where a configuration's median counter peaks (a QWH sweep)."""
    def read(outputs: Outputs) -> float:
        medians = median_by(runs_of(decoded(outputs[file]), configuration), lambda run: holes(run["puzzle"]),
                            counter)
        return max(medians, key=lambda fraction: (medians[fraction], -fraction))
    return read


def median_at(file: str, configuration: str, counter: str, count: int) -> Callable[[Outputs], float]:
    """A configuration's median counter over the puzzles with ``count`` givens."""
    def read(outputs: Outputs) -> float:
        medians = median_by(runs_of(decoded(outputs[file]), configuration), lambda run: givens(run["puzzle"]),
                            counter)
        return medians[count]
    return read


def settled(file: str, puzzle_set: str, level: str) -> Callable[[Outputs], float]:
    """Puzzles of a set a consistency level settles with no search."""
    def read(outputs: Outputs) -> float:
        sets = [each for each in decoded(outputs[file])["sets"] if each["name"].endswith(puzzle_set)]
        return float(sets[0]["levels"][level]["settled"])
    return read


# ---------------------------------------------------------------- the figures

def _paired_figures() -> tuple[Figure, ...]:
    """docs/experiments.md, "A paired A/B report": singles-only mrv against mrv on top95."""
    run = "bench/figures/ab_mrv_singles.json"
    commands = (("python", "compare.py", "run", "puzzles/top95.txt", "--solvers", "mrv,singles=mrv:inference=singles",
                 "--repeat", "3", "--seed", "1", "--jobs", "1", "--json", "{out}/ab_mrv_singles.json"),)
    page = "docs/experiments.md"
    return (
        Figure("ab-ratio", page, "1.13  0.959 - 1.33", commands, (run,),
               paired_ratio("ab_mrv_singles.json", "mrv,singles"), 0.959, 1.33,
               what="ratio of wall times (geometric mean over puzzles); the interval is the kept "
                    "run's 95% bootstrap interval"),
        Figure("ab-mrv-nodes", page, "18.0 for `mrv`", commands, (run,),
               summary_value("ab_mrv_singles.json", "mrv", "mean_nodes"), 18.0, 18.0,
               what="count: mrv's mean decisions per top95 puzzle"),
        Figure("ab-singles-nodes", page, "mean 43.6 per puzzle", commands, (run,),
               summary_value("ab_mrv_singles.json", "singles", "mean_nodes"), 43.6, 43.6,
               what="count: singles-only mrv's mean decisions per top95 puzzle"),
    )


ENCODINGS = ("simplified", "extended", "minimal", "efficient")


def _encoding_figures() -> tuple[Figure, ...]:
    """docs/experiments.md, "Ranking encodings": the four CNF encodings' mean conflicts."""
    solvers = ",".join(f"{name}=pysat:encoding={name}:warm=false" for name in ENCODINGS)
    commands = (("python", "compare.py", "run", "puzzles/generated_16x16.txt", "--timeout", "60",
                 "--solvers", solvers, "--json", "{out}/encodings_16x16.json"),)
    conflicts = {"simplified": 90.9, "extended": 95.0, "minimal": 1942.7, "efficient": 2012.1}
    return tuple(
        Figure(f"encoding-{name}-conflicts", "docs/experiments.md", f"| {name:<15} | {count:<16,.1f} |",
               commands, ("bench/figures/encodings_16x16.json",),
               summary_value("encodings_16x16.json", name, "mean_conflicts"), count, count,
               what="count: mean CaDiCaL conflicts per puzzle (a fresh solver per puzzle)")
        for name, count in conflicts.items())


def _tail_figures() -> tuple[Figure, ...]:
    """docs/experiments.md, "Heavy tails over seeds": the Hill index on the forum's hardest."""
    commands = (("python", "bench/bench_tails.py", "--set", "puzzles/forum_hardest_1106.txt", "--first", "30",
                 "--solvers", "fast=fast:kernel=general,wdeg=fast:branching=wdeg,mrv",
                 "--json", "{out}/tails_hardest.json", "--plot", "{out}/survival_hardest.png"),)
    return tuple(
        Figure(f"tails-{name}-alpha", "docs/experiments.md", f"{name}: alpha = {alpha:.2f} ({interval})", commands,
               ("bench/tails_hardest.json",), hill_alpha("tails_hardest.json", name), alpha, alpha,
               what="count-based: the Hill index of 240 runs' decisions (seeded, so the same on every machine)")
        for name, alpha, interval in (("fast", 3.38, "90% bootstrap interval 2.72-5.17"),
                                      ("wdeg", 6.10, "90% bootstrap interval 1.79-9.91")))


def _givens_figures() -> tuple[Figure, ...]:
    """docs/experiments.md, "Givens against cost": forward checking's median decisions."""
    commands = (("python", "bench/bench_givens.py", "--json", "{out}/givens.json", "--plot", "{out}/givens_nodes.png",
                 "--time-plot", "{out}/givens_time.png"),)
    return (Figure("givens-forward-17", "docs/experiments.md", "| `forward`: median decisions | 1081.5 |", commands,
                   ("bench/givens.json",), median_at("givens.json", "forward", "nodes", 17), 1081.5, 1081.5,
                   what="count: forward checking's median decisions on the 50 17-clue puzzles "),)


def scaling_nodes(file: str, backend: str, size: int) -> Callable[[Outputs], float]:
    """A backend's mean decisions over its solved runs at one grid side, as bench_scaling's
    table shows it (to the unit)."""
    def read(outputs: Outputs) -> float:
        nodes = [run["nodes"] for run in decoded(outputs[file])["runs"]
                 if run["backend"] == backend and run["size"] == size and run["status"] == "solved"
                 and run["nodes"] is not None]
        return float(round(statistics.fmean(nodes)))
    return read


def _qwh_tail_figures() -> tuple[Figure, ...]:
    """docs/experiments.md, "Heavy tails over seeds": the Hill index on QWH of order 25."""
    commands = (("python", "bench/bench_tails.py", "--json", "{out}/tails_qwh.json",
                 "--plot", "{out}/survival_qwh25.png"),)
    return tuple(
        Figure(f"tails-qwh-{name}-alpha", "docs/experiments.md", f"{name}: alpha = {alpha:.2f} ({interval})",
               commands, ("bench/tails_qwh.json",), hill_alpha("tails_qwh.json", name), alpha, alpha,
               what="count-based: the Hill index of 48 seeded runs' decisions (the same on every machine)")
        for name, alpha, interval in QWH_TAILS)


QWH_TAILS = (("fast", 1.05, "90% bootstrap interval 0.54-3.07"), ("wdeg", 2.05, "90% bootstrap interval 1.48-6.29"))


def _qwh_phase_figures() -> tuple[Figure, ...]:
    """docs/experiments.md and bench/README.md, the QWH phase transition: where each
    configuration's median counter peaks along the hole fraction."""
    commands = (("python", "bench/bench_qwh_phase.py", "--json", "{out}/qwh_phase.json", "--plot",
                 "{out}/qwh_phase.png", "--backtracks-plot", "{out}/qwh_phase_backtracks.png",
                 "--time-plot", "{out}/qwh_phase_time.png"),)
    return tuple(
        Figure(f"qwh-{name}-peak", "docs/experiments.md", f"{name}: holes = {peak:.2f}, median {median}",
               commands, ("bench/qwh_phase.json",), peak_of("qwh_phase.json", name, counter), peak, peak,
               what=f"count: the hole fraction where {name}'s median {counter} (4 instances) peaks")
        for name, counter, peak, median in QWH_PEAKS)


QWH_PEAKS = (("fast", "backtracks", 0.39, "986"), ("pysat", "conflicts", 0.57, "110"),
             ("cpsat", "conflicts", 0.57, "63.5"))


def _consistency_figures() -> tuple[Figure, ...]:
    """bench/README.md, Simonis's consistency levels: puzzles settled with no search by
    bounds, gac and sac (costly: sac on the forum's hardest takes most of half an hour)."""
    commands = (("python", "bench/bench_consistency.py", "--json", "{out}/consistency.json",
                 "--plot", "{out}/consistency.png"),)
    figures = []
    for label, puzzle_set, total, counts in SETTLED:
        shown = f"{label} {' / '.join(str(count) for count in counts)} of {total}"
        for level, count in zip(("bounds", "gac", "sac"), counts):
            figures.append(Figure(
                f"consistency-{puzzle_set.removesuffix('.txt')}-{level}", "bench/README.md", shown, commands,
                ("bench/consistency.json",), settled("consistency.json", puzzle_set, level), count, count,
                cheap=False, what=f"count: {puzzle_set}'s puzzles {level} settles with no search"))
    return tuple(figures)


SETTLED = (("top95", "top95.txt", 95, (0, 15, 95)), ("forum hardest", "forum_hardest_1106.txt", 375, (0, 0, 0)),
           ("Janko 16x16", "16x16_gecode_janko.txt", 55, (17, 47, 55)),
           ("blue's ultimate 16x16", "16x16_forum_blue_ultimate.txt", 15, (0, 0, 0)))


def _scaling_figures() -> tuple[Figure, ...]:
    """bench/README.md, cost against size: mean decisions of the backends that count them
    deterministically (costly: the textbook backtracker's timeouts take minutes)."""
    commands = (("python", "bench/bench_scaling.py", "--backends", "backtrack,mrv,cpsat,sat,csp", "--per-size", "6",
                 "--json", "{out}/scaling.json", "--plot", "{out}/scaling.png"),)
    return tuple(
        Figure(f"scaling-{backend}-{size}x{size}-nodes", "bench/README.md", shown, commands, ("bench/scaling.json",),
               scaling_nodes("scaling.json", backend, size), nodes, nodes, cheap=False,
               what=f"count: {backend}'s mean decisions over the solved {size}x{size} puzzles")
        for backend, size, nodes, shown in SCALING_NODES)


SCALING_NODES = (("backtrack", 9, 242083, "`backtrack` 242,083 at 9x9"), ("mrv", 9, 1, "`mrv` 1 at 9x9"),
                 ("mrv", 16, 137, "137 at 16x16"), ("mrv", 25, 657, "657 at 25x25"))


def _memory_figures() -> tuple[Figure, ...]:
    """docs/experiments.md: each way of measuring a run's peak memory against a fresh
    interpreter that ran the same solve (bench/bench_memory.py)."""
    commands = (("python", "bench/bench_memory.py", "--json", "{out}/memory.json"),)
    return tuple(
        Figure(f"memory-{mode.replace(' ', '-')}-{which}", "docs/experiments.md", shown, commands,
               ("bench/memory.json",), memory_ratio(mode, max if which == "most" else min), low, high,
               cheap=False,
               what=f"ratio of memory (not time): the {which} of the {mode} way's peak over a fresh interpreter's")
        for mode, which, low, high, shown in MEMORY)


MEMORY = (("per configuration and grid size", "most", 1.0, 1.25, "within 1.25x"),
          ("shared", "most", 5.0, 12.0, "read up to 9.4x there"))


def innies_total(counter: str, prefix: str) -> Callable[[Outputs], float]:
    """A bench_innies counter summed over the puzzles whose label starts with ``prefix``."""
    def read(outputs: Outputs) -> float:
        return float(sum(row[counter] for row in decoded(outputs["innies.json"])["puzzles"]
                         if row["puzzle"].startswith(prefix)))
    return read


def _innies_figures() -> tuple[Figure, ...]:
    """docs/teaching.md: what innies and outies change on the cages-only killers."""
    commands = (("python", "bench/bench_innies.py", "--json", "{out}/innies.json"),)
    page, kept = "docs/teaching.md", ("bench/figures/innies.json",)
    return (
        Figure("innies-steps-before", page, "fell from 30,194 to 1,790", commands, kept,
               innies_total("steps_before", "generated_killer_9x9"), 30194, 30194,
               what="count: rate's steps on the five generated killers without innies and outies"),
        Figure("innies-steps-after", page, "fell from 30,194 to 1,790", commands, kept,
               innies_total("steps_after", "generated_killer_9x9"), 1790, 1790,
               what="count: rate's steps on the five generated killers with them"),
        Figure("innies-killer-3-guesses-after", page, "| generated_killer_9x9 3 | 1502 | 44 |", commands, kept,
               innies_total("rate_guesses_after", "generated_killer_9x9 3"), 44, 44,
               what="count: rate's guesses on the third generated killer with innies and outies"),
    )


def _band_kernel_figures() -> tuple[Figure, ...]:
    """docs/backends.md: fast's 9x9 band kernel's guesses against the general kernel's
    decisions on the forum's hardest, counting to two."""
    commands = (("python", "compare.py", "run", "puzzles/forum_hardest_1106.txt", "--solvers",
                 "fast,general=fast:kernel=general", "--max-solutions", "2", "--json", "{out}/band_kernel.json"),)
    shown = "141 guesses a puzzle against 398 decisions"
    return tuple(
        Figure(f"band-kernel-{name}-nodes", "docs/backends.md", shown, commands, ("bench/figures/band_kernel.json",),
               summary_value("band_kernel.json", name, "mean_nodes", 0), count, count,
               what=f"count: {name}'s mean {kind} a puzzle (375 puzzles, counting to two)")
        for name, count, kind in (("fast", 141, "guesses"), ("general", 398, "decisions")))


def _target_run_figures() -> tuple[Figure, ...]:
    """bench/README.md's targets: csp on top95 within 10 s, and mrv, sat and cpsat proving
    every bundled 25x25 unique within 60 s (solved counts exact; the slowest run's time inside
    the target's limit, the interval the target states)."""
    csp = (("python", "compare.py", "run", "puzzles/top95.txt", "--solvers", "csp", "--timeout", "10",
            "--json", "{out}/csp_top95.json"),)
    unique = (("python", "compare.py", "run", "puzzles/generated_25x25.txt", "--solvers", "mrv,sat,cpsat", "--unique",
               "--timeout", "60", "--json", "{out}/unique_25x25.json"),)
    page = "bench/README.md"
    csp_kept, unique_kept = ("bench/figures/csp_top95.json",), ("bench/figures/unique_25x25.json",)
    return (
        Figure("csp-top95-solved", page, CSP_SHOWN, csp, csp_kept, summary_value("csp_top95.json", "csp", "solved", 0),
               95, 95, what="count: top95 puzzles csp solves within 10 s"),
        Figure("csp-top95-slowest", page, CSP_SHOWN, csp, csp_kept, summary_value("csp_top95.json", "csp", "max_s", 2),
               0, 10, what="time: csp's slowest top95 puzzle, inside the target's 10 s"),
        *(Figure(f"unique-25x25-{name}-solved", page, UNIQUE_SHOWN, unique, unique_kept,
                 summary_value("unique_25x25.json", name, "solved", 0), 12, 12,
                 what=f"count: bundled 25x25 puzzles {name} proves unique within 60 s")
          for name in ("mrv", "sat", "cpsat")),
        Figure("unique-25x25-mrv-slowest", page, UNIQUE_SHOWN, unique, unique_kept,
               summary_value("unique_25x25.json", "mrv", "max_s", 1), 0, 60,
               what="time: mrv's slowest proof of a bundled 25x25, inside the target's 60 s"),
    )


CSP_SHOWN = "95/95, the slowest 3.83 s"
UNIQUE_SHOWN = "all 12, each proved unique: the slowest 27.5 s (mrv)"


def human_value(*keys: str) -> Callable[[Outputs], float]:
    """A figure of bench_human.py's JSON, by its keys (``rate``, ``steps``)."""
    def read(outputs: Outputs) -> float:
        found: Any = decoded(outputs["human_speed.json"])
        for key in keys:
            found = found[key]
        return float(found)
    return read


def _human_figures() -> tuple[Figure, ...]:
    """bench/README.md, the human solver's speed: rate of 100 diabolical puzzles (its steps and
    guesses exact; its CPU seconds inside the target's minute)."""
    commands = (("python", "bench/bench_human.py", "--json", "{out}/human_speed.json"),)
    page, kept = "bench/README.md", ("bench/human_speed.json",)
    return (
        Figure("human-rate-steps", page, HUMAN_SHOWN, commands, kept, human_value("rate", "steps"), 6483, 6483,
               what="count: rate's steps over the 100 sampled diabolical puzzles"),
        Figure("human-rate-guesses", page, HUMAN_SHOWN, commands, kept, human_value("rate", "guesses"), 0, 0,
               what="count: rate's guesses over them"),
        Figure("human-rate-cpu", page, HUMAN_TARGET, commands, kept, human_value("rate", "cpu_s"), 0, 60,
               what="time: rate's CPU seconds for the 100, inside the target's minute"),
    )


HUMAN_SHOWN = "(6,483 steps, 0 guesses"
HUMAN_TARGET = "27.3 s of CPU for 100"


def se_value(file: str, key: str) -> Callable[[Outputs], float]:
    """A figure of rating_vs_se.py's JSON for one puzzle file."""
    def read(outputs: Outputs) -> float:
        rows = [row for row in decoded(outputs["rating_vs_se.json"])["files"] if row["file"] == file]
        return float(rows[0][key])
    return read


def _rating_figures() -> tuple[Figure, ...]:
    """docs/teaching.md and bench/README.md's targets: the human-style rating against Sudoku
    Explainer's (deterministic: the rating, and the bootstrap's seed)."""
    commands = (("python", "bench/rating_vs_se.py", "--json", "{out}/rating_vs_se.json"),)
    kept, sample, bundled = ("bench/figures/rating_vs_se.json",), "exchange_diabolical_sample320.txt", \
        "exchange_diabolical_se60.txt"
    teaching = "docs/teaching.md"
    return (
        Figure("se-sample-spearman", teaching, SE_SAMPLE_SHOWN, commands, kept, se_value(sample, "spearman"),
               0.83, 0.83, what="count-based: Spearman's rho with SE over the 320-puzzle evaluation sample"),
        Figure("se-sample-guessed", teaching, SE_SAMPLE_SHOWN, commands, kept, se_value(sample, "guessed"), 0, 0,
               what="count: puzzles of the evaluation sample that needed a guess"),
        Figure("se-bundled-spearman", teaching, SE_BUNDLED_SHOWN, commands, kept, se_value(bundled, "spearman"),
               0.79, 0.79, what="count-based: Spearman's rho with SE over the bundled 60"),
        Figure("se-target-spearman", "bench/README.md", "320 of 320 without a guess, Spearman **0.83**", commands, kept,
               se_value(sample, "spearman"), 0.83, 0.83, what="count-based: the targets row's Spearman"),
    )


SE_SAMPLE_SHOWN = "| evaluation sample | 320 (5.4 to 8.9) | 320 (100%) | **0.83** (0.78 to 0.87) |"
SE_BUNDLED_SHOWN = "| bundled 60 | 60 (5.4 to 8.9) | 60 (100%) | 0.79 (0.65 to 0.90) |"


FIGURES: tuple[Figure, ...] = (*_paired_figures(), *_encoding_figures(), *_tail_figures(), *_givens_figures(),
                               *_qwh_tail_figures(), *_qwh_phase_figures(), *_consistency_figures(),
                               *_scaling_figures(), *_memory_figures(),
                               *_innies_figures(), *_band_kernel_figures(), *_target_run_figures(),
                               *_human_figures(), *_rating_figures(), *DOCS_FIGURES,
                               *TARGET_FIGURES)
"""Every registered figure (bench/check_figures.py lists, checks and re-runs them)."""


def by_name() -> dict[str, Figure]:
    return {figure.name: figure for figure in FIGURES}
