"""bench/README.md's targets table and the sections its rows point to, registered as
bench/figures.py registers its own (issue 34, item 6); bench/figures.py adds ``FIGURES``.

Each bench script run here writes its tables into its ``--json`` file (bench/tables.py), so a
table of the page is a ``RenderedTable``: the page shows exactly its rendering from the kept
file (tests/test_figures_targets.py checks it without re-running anything). The numbers a
target's verdict rests on are figures: counts exact; a time ratio measured side by side
inside the interval its target states (at least the target, the ratio moving with the
machine's load), so a re-run that falls short of the target is reported as moved.
"""
from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.figure_base import Figure, Outputs, decoded
from bench.figures_docs import RenderedTable

PAGE = "bench/README.md"
KEPT = "bench/figures"
RATIO_CEILING = 1000.0
"""The upper end of a ratio's interval when the target states only a lower one."""


def kept(name: str) -> str:
    return f"{KEPT}/{name}"


def number(cell: object) -> float:
    """A table cell as a number: ``4.67x``, ``34,048``, ``95/95`` (the solved count) read alike."""
    found = re.search(r"-?[0-9][0-9,]*(\.[0-9]+)?", str(cell))
    if found is None:
        raise ValueError(f"no number in {cell!r}")
    return float(found.group(0).replace(",", ""))


def table_cell(file: str, table: str, column: str, **match: str) -> Callable[[Outputs], float]:
    """The number in ``column`` of the kept table's row whose cells equal ``match`` (column
    names with spaces written with underscores)."""
    def read(outputs: Outputs) -> float:
        kept_table = decoded(outputs[Path(file).name])["tables"][table]
        headers = kept_table["headers"]
        wanted = {headers.index(key.replace("_", " ")): value for key, value in match.items()}
        rows = [row for row in kept_table["rows"] if all(str(row[i]).strip() == value for i, value in wanted.items())]
        if len(rows) != 1:
            raise ValueError(f"{len(rows)} rows of {table} match {match}")
        return number(rows[0][headers.index(column)])
    return read


def cell_ratio(file: str, table: str, over: str, under: str, **match: str) -> Callable[[Outputs], float]:
    """One column of a kept table's row over another column of it, to 2 places."""
    def read(outputs: Outputs) -> float:
        numerator, denominator = table_cell(file, table, over, **match), table_cell(file, table, under, **match)
        return round(numerator(outputs) / denominator(outputs), 2)
    return read


def rendered(name: str, file: str, table: str) -> RenderedTable:
    """A page's table that is the kept run's table ``table``, rendered as the script prints
    it with ``--format github``."""
    def render(outputs: Outputs) -> list[str]:
        from bench import tables  # noqa: PLC0415 - bench/tables.py imports tabulate, only needed here
        return tables.render(decoded(outputs[Path(file).name]), table).splitlines()
    return RenderedTable(name, PAGE, (file,), render)


def at_least(name: str, shown: str, commands: tuple[tuple[str, ...], ...], file: str,
             read: Callable[[Outputs], float], target: float, what: str, *, cheap: bool = True) -> Figure:
    """A ratio whose target is a lower bound: it holds while a re-run stays at or above it."""
    return Figure(name, PAGE, shown, commands, (file,), read, target, RATIO_CEILING, cheap=cheap,
                  what=f"ratio (at least the target's {target:g}x; it moves with the load): {what}")


def exactly(name: str, shown: str, commands: tuple[tuple[str, ...], ...], file: str,
            read: Callable[[Outputs], float], count: float, what: str, *, cheap: bool = True) -> Figure:
    return Figure(name, PAGE, shown, commands, (file,), read, count, count, cheap=cheap, what=f"count: {what}")


# ---------------------------------------------------------------- the generator (bench_generate.py)

GENERATE = kept("generate_16x16.json")
GENERATE_RUN = (("python", "bench/bench_generate.py", "--size", "16", "--count", "20", "--seed", "1", "--json",
                 "{out}/generate_16x16.json"),)


def generate_value(key: str) -> Callable[[Outputs], float]:
    """bench_generate.py's CPU seconds a puzzle (to 1 place), or the givens of all its puzzles."""
    def read(outputs: Outputs) -> float:
        document = decoded(outputs["generate_16x16.json"])
        return float(sum(document["givens"])) if key == "givens" else round(float(document[key]), 1)
    return read


def _generate_figures() -> tuple[Figure, ...]:
    shown = "2.2 s of CPU each (`compare.py generate --size 16 --count 20 --seed 1`: 43.2 s of CPU"
    return (
        Figure("generate-16x16-cpu", PAGE, shown, GENERATE_RUN, (GENERATE,), generate_value("cpu_s_per_puzzle"), 0, 10,
               what="time: CPU seconds a locally minimal 16x16 takes compare.py generate, inside \"seconds\" "
                    "(under 10 s)"),
        exactly("generate-16x16-givens", shown, GENERATE_RUN, GENERATE, generate_value("givens"), 1876,
                "the givens of the 20 seeded puzzles, in all (the seed decides them)"),
    )


# ---------------------------------------------------------------- fast beside tdoku (bench_fast_tdoku.py)

TDOKU = kept("fast_tdoku.json")
TDOKU_RUN = (("python", "bench/bench_fast_tdoku.py", "--tdoku-lib", "/tmp/tdoku-src/libtdoku.so", "--repeats", "5",
              "--json", "{out}/fast_tdoku.json"),)
TDOKU_LIMITS = (("tdoku-top95-fast-ms", "top95", "fast ms", 0.05, "ms: fast's time per top95 puzzle"),
                ("tdoku-hardest-fast-ms", "forum_hardest_1106", "fast ms", 0.3,
                 "ms: fast's time per puzzle of the 1,106 hardest"),
                ("tdoku-top95-ratio", "top95", "fast / tdoku", 2.0, "ratio: fast's time over tdoku's on top95"),
                ("tdoku-hardest-ratio", "forum_hardest_1106", "fast / tdoku", 2.0,
                 "ratio: fast's time over tdoku's on the 1,106 hardest"),
                ("tdoku-17clue-ratio", "17_clue", "fast / tdoku", 2.5,
                 "ratio: fast's time over tdoku's on 3,000 17-clue puzzles"))
TDOKU_COUNTS = (("tdoku-top95-fast-guesses", "top95", "fast guesses", 9.0),
                ("tdoku-hardest-fast-guesses", "forum_hardest_1106", "fast guesses", 141.4),
                ("tdoku-hardest-general-decisions", "forum_hardest_1106", "general decisions", 398.3))


def _tdoku_figures() -> tuple[Figure, ...]:
    return (
        *(Figure(name, PAGE, TDOKU_SHOWN, TDOKU_RUN, (TDOKU,), table_cell(TDOKU, "tdoku", column, set=puzzle_set), 0,
                 limit, what=f"{what} (best of 5 per puzzle), inside the target's {limit:g}")
          for name, puzzle_set, column, limit, what in TDOKU_LIMITS),
        *(exactly(name, TDOKU_SHOWN, TDOKU_RUN, TDOKU, table_cell(TDOKU, "tdoku", column, set=puzzle_set), count,
                  f"{column} a puzzle on {puzzle_set}, counting to two")
          for name, puzzle_set, column, count in TDOKU_COUNTS),
    )


TDOKU_SHOWN = "**1.55x**, **1.57x**, **2.18x**"


# ---------------------------------------------------------------- dlx against Algorithm X

DLX = kept("dlx.json")
DLX_RUN = (("python", "bench/bench_dlx.py", "--repeat", "3", "--format", "github", "--json", "{out}/dlx.json"),)


def side_by_side_ratio(file: str, puzzle_set: str, method: str) -> Callable[[Outputs], float]:
    """The anchor's mean time over a method's (bench/side_by_side.py), to 2 places."""
    def read(outputs: Outputs) -> float:
        document: dict[str, Any] = decoded(outputs[Path(file).name])
        measured = document["measured"][puzzle_set]
        anchor = statistics.mean(measured[document["anchor"]]["times"])
        return round(float(anchor / statistics.mean(measured[method]["times"])), 2)
    return read


def _dlx_figures() -> tuple[Figure, ...]:
    shown = DLX_SHOWN
    return (
        at_least("dlx-top95-ratio", shown, DLX_RUN, DLX, side_by_side_ratio(DLX, "top95", "dlx"), 3.0,
                 "Assaf's Algorithm X's mean time over dlx's on top95, counting to two"),
        exactly("dlx-top95-nodes", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean nodes", set="top95",
                                                                    method="dlx"), 923.0,
                "dlx's mean rows tried per top95 puzzle, counting to two"),
        exactly("dlx-top95-updates", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean updates",
                                                                      set="top95", method="dlx"), 34048,
                "dlx's mean link updates per top95 puzzle"),
        exactly("dlx-hardest-nodes", shown, DLX_RUN, DLX, table_cell(DLX, "side by side", "mean nodes",
                                                                      set="hardest", method="dlx"), 411.0,
                "dlx's mean rows tried per hardest puzzle"),
    )


DLX_SHOWN = "6.81 against 32.27 ms: **4.74x**"


# ---------------------------------------------------------------- all backends side by side (bench_backends.py)

ALLB = kept("all_backends.json")
ALLB_RUN = (("python", "bench/bench_backends.py", "--solvers", "backtrack,mrv,mrv:inference=singles,cpsat,sat,csp",
             "--norvig", "/tmp/norvig/sudoku.py", "--norvig", "/tmp/norvig16/sudoku.py", "--timeout", "10",
             "--json", "{out}/all_backends.json"),)
ALLB_NODES = (("top95", "top95", "mrv", "mrv", 18.0), ("top95", "top95", "singles", "mrv:inference=singles", 43.6),
              ("16x16", "16x16_forum_samples", "mrv", "mrv", 27.5),
              ("16x16", "16x16_forum_samples", "singles", "mrv:inference=singles", 464.5),
              ("16x16", "16x16_forum_samples", "norvig", "norvig", 750.0),
              ("hardest", "hardest", "backtrack", "backtrack", 95455.2))


def _allb_figures() -> tuple[Figure, ...]:
    return tuple(
        exactly(f"allb-{short}-{name}-nodes", ALLB_SHOWN, ALLB_RUN, ALLB,
                table_cell(ALLB, "backends", "mean nodes", set=puzzle_set, solver=solver), count,
                f"{solver}'s mean nodes on {puzzle_set} (first solution)", cheap=False)
        for short, puzzle_set, name, solver, count in ALLB_NODES)


ALLB_SHOWN = "(18 against 44\n  decisions), faster on the 16x16 samples (27.5 against 464.5"


# ---------------------------------------------------------------- mip against PuLP's example

MIP = kept("mip.json")
MIP_RUN = (("python", "bench/bench_mip.py", "--format", "github", "--json", "{out}/mip.json"),)


def _mip_figures() -> tuple[Figure, ...]:
    shown = MIP_SHOWN
    return (
        at_least("mip-top95-ratio", shown, MIP_RUN, MIP, side_by_side_ratio(MIP, "top95", "mip"), 3.0,
                 "the PuLP example approach's mean time over mip's on top95, counting to two (needs pulp)"),
        exactly("mip-top95-nodes", shown, MIP_RUN, MIP, table_cell(MIP, "side by side", "mean nodes", method="mip"),
                0.0, "HiGHS's mean branch-and-bound nodes per top95 puzzle (presolve settles them)"),
        exactly("mip-top95-lp-iterations", shown, MIP_RUN, MIP,
                table_cell(MIP, "side by side", "mean LP iterations", method="mip"), 3,
                "HiGHS's mean LP iterations per top95 puzzle"),
    )


MIP_SHOWN = "15.34 against 178.49 ms: **11.64x**"


BESIDE = kept("beside_mrv.json")
BESIDE_RUN = (("python", "bench/bench_backends.py", "--solvers", "mrv,sat,cpsat,dlx,mip", "--norvig",
               "/tmp/norvig/sudoku.py", "--sets", "top95.txt", "hardest.txt", "--timeout", "10", "--json",
               "{out}/beside_mrv.json"),)


def _beside_figures() -> tuple[Figure, ...]:
    return tuple(
        exactly(f"beside-{puzzle_set}-{solver}-nodes", "`dlx` and `mip` beside `mrv`, `sat`, `cpsat` and Norvig's",
                BESIDE_RUN, BESIDE, table_cell(BESIDE, "backends", "mean nodes", set=puzzle_set, solver=solver), count,
                f"{solver}'s mean nodes on {puzzle_set}, first solution")
        for puzzle_set, solver, count in (("top95", "dlx", 471.3), ("top95", "mip", 0.0), ("top95", "mrv", 18.0),
                                          ("hardest", "dlx", 150.3)))


# ---------------------------------------------------------------- sat against pycosat's example

SAT = kept("sat.json")
SAT_RUN = (("python", "bench/bench_sat.py", "--repeat", "3", "--format", "github", "--example",
            "/tmp/pycosat_example/sudoku.py", "--json", "{out}/sat.json"),)


def sat_ratio(outputs: Outputs) -> float:
    """The example's approach's time per top95 puzzle over the sat backend's, to 1 place."""
    return round(float(decoded(outputs["sat.json"])["ratio"]), 1)


def _sat_figures() -> tuple[Figure, ...]:
    clauses = (("simplified", 2277), ("minimal", 8850), ("efficient", 11766), ("extended", 12009))
    return (
        at_least("sat-top95-ratio", SAT_SHOWN, SAT_RUN, SAT, sat_ratio, 3.0,
                 "pycosat's example approach's time per top95 puzzle over the sat backend's"),
        at_least("sat-top95-example-ratio", SAT_SHOWN, SAT_RUN, SAT,
                 table_cell(SAT, "side by side", "x sat backend", method="pycosat examples/sudoku.py itself"), 3.0,
                 "the example file itself (kept outside the repository) over the sat backend"),
        *(exactly(f"sat-top95-{encoding}-clauses", SAT_CLAUSES_SHOWN, SAT_RUN, SAT,
                  table_cell(SAT, "encodings", "clauses", set="top95", configuration=f"sat:encoding={encoding}"),
                  count, f"mean clauses of the {encoding} encoding per top95 puzzle")
          for encoding, count in clauses),
    )


SAT_SHOWN = "3.16 against 17.27 ms (its approach) and 17.20 ms (the file itself): **5.5x**"
SAT_CLAUSES_SHOWN = "(2277 against 8850 to 12009 on average)"


# ---------------------------------------------------------------- cpsat against OR-tools' sample

CPSAT = kept("cpsat_csp.json")
CPSAT_RUN = (("python", "bench/bench_cpsat_csp.py", "--repeats", "3", "--json", "{out}/cpsat_csp.json"),)


def _cpsat_figures() -> tuple[Figure, ...]:
    def encodings(column: str, puzzles: str, encoding: str) -> Callable[[Outputs], float]:
        return table_cell(CPSAT, "encodings", column, puzzles=puzzles, encoding=encoding)
    return (
        at_least("cpsat-top95-ratio", CPSAT_SHOWN, CPSAT_RUN, CPSAT,
                 table_cell(CPSAT, "baseline", "speed-up vs baseline", contender="cpsat boolean (default)"), 2.0,
                 "the sample approach's mean time per top95 puzzle over cpsat's default (boolean)", cheap=False),
        *(exactly(f"cpsat-top95-{encoding}-{column}", CPSAT_COUNTS_SHOWN, CPSAT_RUN, CPSAT,
                  encodings(column, "top95.txt", encoding), count,
                  f"cpsat's mean {column} per top95 puzzle with the {encoding} encoding (one worker)", cheap=False)
          for encoding, column, count in (("boolean", "branches", 23), ("boolean", "conflicts", 9.4),
                                          ("integer", "branches", 18), ("integer", "conflicts", 8.7))),
        Figure("cpsat-workers-top95", PAGE, CPSAT_WORKERS_SHOWN, CPSAT_RUN, (CPSAT,),
               cell_ratio(CPSAT, "workers", "2", "1 worker", puzzles="top95.txt", encoding="boolean"), 1.0,
               RATIO_CEILING, cheap=False,
               what="ratio: cpsat's time with 2 workers over 1 on top95 (boolean); one worker the faster above 1"),
        at_least("cpsat-enumeration-top95", CPSAT_ENUMERATION_SHOWN, CPSAT_RUN, CPSAT,
                 table_cell(CPSAT, "enumeration", "callback faster by", puzzles="top95 (unique)", encoding="boolean"),
                 1.0, "a blocking clause and a new solve over the solution callback, counting to two", cheap=False),
        at_least("cpsat-tuned-top95", CPSAT_TUNED_SHOWN, CPSAT_RUN, CPSAT,
                 table_cell(CPSAT, "presolve", "tuned faster by", puzzles="top95.txt", encoding="boolean"), 1.0,
                 "CP-SAT's defaults over the backend's tuned settings on top95 (boolean, 1 worker)", cheap=False),
        exactly("cpsat-csp-top95-hidden-solved", CPSAT_CSP_SHOWN, CPSAT_RUN, CPSAT,
                table_cell(CPSAT, "csp", "solved", encoding="hidden"), 95,
                "top95 puzzles csp's default encoding solves", cheap=False),
    )


CPSAT_SHOWN = "boolean (the default) 4.78 against 28.47 ms, **5.95x**"
CPSAT_WORKERS_SHOWN = "one worker is the fastest on every set and"
CPSAT_ENUMERATION_SHOWN = "enumerating with a solution callback against a blocking clause"
CPSAT_TUNED_SHOWN = "The backend's tuned settings against CP-SAT's defaults (1 worker):"
CPSAT_CSP_SHOWN = "`csp` on every top95 puzzle (encode and solve, one run each):"
CPSAT_COUNTS_SHOWN = "| top95.txt               | boolean    |  95 |"


# ---------------------------------------------------------------- six backends on top95 (compare.py)

SIX = kept("six_top95.json")
SIX_NAMES = ("pysat", "dimacs", "dlx", "mip", "sat", "cpsat")
SIX_RUN = (("python", "compare.py", "run", "puzzles/top95.txt", "--solvers", "pysat,dimacs,dlx,mip,sat,cpsat",
            "--json", "{out}/six_top95.json"),)


def summary_cell(value: float | None, digits: int, scale: float = 1.0) -> str:
    """A summary figure as the table shows it: scaled, to ``digits`` places, or - when there is none."""
    return "-" if value is None else f"{float(value) * scale:,.{digits}f}"


def six_table(outputs: Outputs) -> list[str]:
    """compare.py run's summary of the six backends on top95: solved, ms, and their counters."""
    lines = ["| configuration | solved | wrong | mean ms | median ms | mean nodes | nodes are | mean conflicts |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in decoded(outputs["six_top95.json"])["summary"]:
        lines.append(f"| {row['configuration']} | {row['solved']} | {row['wrong']} "
                     f"| {summary_cell(row['mean_s'], 2, 1e3)} | {summary_cell(row['median_s'], 2, 1e3)} "
                     f"| {summary_cell(row['mean_nodes'], 1)} "
                     f"| {row['nodes_are'] or '-'} | {summary_cell(row['mean_conflicts'], 1)} |")
    return lines


def summary_of(configuration: str, column: str, digits: int = 1) -> Callable[[Outputs], float]:
    def read(outputs: Outputs) -> float:
        rows = [row for row in decoded(outputs["six_top95.json"])["summary"] if row["configuration"] == configuration]
        return round(float(rows[0][column]), digits)
    return read


def _six_figures() -> tuple[Figure, ...]:
    counts: list[tuple[str, str, float, int]] = [(name, "solved", 95, 0) for name in SIX_NAMES]
    counts += [(name, "wrong", 0, 0) for name in SIX_NAMES]
    counts += SIX_COUNTS
    return tuple(exactly(f"six-top95-{name}-{column.replace('mean_', '')}", SIX_SHOWN, SIX_RUN, SIX,
                         summary_of(name, column, digits), count, f"{name}'s {column} over top95")
                 for name, column, count, digits in counts)


SIX_COUNTS: list[tuple[str, str, float, int]] = [
    ("dimacs", "mean_nodes", 13.5, 1), ("dimacs", "mean_conflicts", 9.3, 1), ("dlx", "mean_nodes", 471.3, 1),
    ("mip", "mean_nodes", 0.0, 1), ("cpsat", "mean_nodes", 22.6, 1), ("cpsat", "mean_conflicts", 9.4, 1)]
"""Each backend's mean counters (decisions, conflicts) that do not depend on the machine."""
SIX_SHOWN = "`dimacs` (cadical) 27.28 ms (13.5 decisions, 9.3 conflicts)"


# ---------------------------------------------------------------- Lynce & Ouaknine's study (bench_pysat.py)

STUDY = kept("pysat_study.json")
STUDY_RUN = (("python", "bench/bench_pysat.py", "--tables", "study", "--timeout", "30", "--json",
              "{out}/pysat_study.json"),)
STUDY_SETTLED = (("top95", 0, 95), ("forum_hardest_1106", 0, 0), ("16x16", 47, 60))
"""Per set: the puzzles unit propagation and failed literals settle over ``extended``."""


def _study_figures() -> tuple[Figure, ...]:
    figures = []
    for puzzle_set, up, failed in STUDY_SETTLED:
        for column, count, short in (("UP settles", up, "up"), ("failed literals settle", failed, "fl")):
            figures.append(exactly(
                f"study-{puzzle_set.split('_')[0]}-{short}-settled", STUDY_SHOWN, STUDY_RUN, STUDY,
                table_cell(STUDY, "study", column, set=puzzle_set, encoding="extended"), count,
                f"{puzzle_set}'s puzzles {column.split()[0]} over extended settles with no search", cheap=False))
    return tuple(figures)


STUDY_SHOWN = ("failed literals over `extended` settle 95/95 of top95, 0/375 of the forum's hardest, 60/75 16x16; "
               "unit propagation 0, 0, 47")


# ---------------------------------------------------------------- the hard sets (bench_hard.py)

HARD = kept("hard_9x9_16x16.json")
HARD_RUN = (("python", "bench/bench_hard.py", "--solvers", "fast,mrv,sat,cpsat:encoding=boolean,cpsat:encoding=integer",
             "--set", "puzzles/top95.txt", "--set", "puzzles/hardest.txt", "--set", "puzzles/forum_hardest_1106.txt",
             "--set", "puzzles/16x16_forum_samples.txt", "--set", "puzzles/generated_16x16.txt", "--jobs", "1",
             "--json", "{out}/hard_9x9_16x16.json"),)


def hard_ratio(puzzle_set: str, slower: str, faster: str) -> Callable[[Outputs], float]:
    """One configuration's mean time over another's on a set (bench_hard.py's runs), to 2 places."""
    def read(outputs: Outputs) -> float:
        runs = decoded(outputs["hard_9x9_16x16.json"])["runs"]
        def mean(solver: str) -> float:
            return statistics.fmean(run["seconds"] for run in runs if run["set"] == puzzle_set
                                    and run["solver"] == solver)
        return round(mean(slower) / mean(faster), 2)
    return read


def _hard_figures() -> tuple[Figure, ...]:
    hardest = "forum_hardest_1106.txt"
    return (
        Figure("hard-mrv-over-sat", PAGE, HARD_SHOWN, HARD_RUN, (HARD,), hard_ratio(hardest, "mrv", "sat"), 1.0,
               RATIO_CEILING, cheap=False,
               what="ratio: mrv's mean time over sat's on the 1,106 hardest; the target (at most 1) stays unmet "
                    "while it is above 1"),
        exactly("hard-mrv-hardest-nodes", HARD_SHOWN, HARD_RUN, HARD,
                table_cell(HARD, "hard", "mean nodes", set="forum_hardest_1106", solver="mrv"), 398.3,
                "mrv's mean decisions on the 1,106 hardest, counting to two", cheap=False),
        *(Figure(f"hard-cpsat-integer-over-boolean-{name}", PAGE, HARD_CPSAT_SHOWN, HARD_RUN, (HARD,),
                 hard_ratio(f"{name}.txt", "cpsat:encoding=integer", "cpsat:encoding=boolean"), 1.0, RATIO_CEILING,
                 cheap=False, what=f"ratio: cpsat's integer encoding's mean time over boolean's on {name}; "
                                   "boolean stays the faster while it is above 1")
          for name in HARD_CPSAT_SETS),
    )


HARD_SHOWN = "94.58 against 19.29 ms (4.9x slower)"
HARD_CPSAT_SHOWN = "hardest (1.25x) and the generated 16x16 (1.30x)"
HARD_CPSAT_SETS = ("forum_hardest_1106", "generated_16x16")


# ---------------------------------------------------------------- the harness's cost (bench_harness.py)

HARNESS = kept("harness.json")
HARNESS_RUN = (("python", "bench/bench_harness.py", "--count", "3000", "--rounds", "5", "--json",
                "{out}/harness.json"),)


def middle_round(rounds: list[dict[str, float]]) -> dict[str, float]:
    """The median round by throughput, as bench_harness.py reports it."""
    return sorted(rounds, key=lambda each: each["runs_per_s"])[len(rounds) // 2]


def harness_value(executor: str, key: str) -> Callable[[Outputs], float]:
    """A figure of an executor's median round: runs_per_s, overhead_ms, or vs_local (its
    throughput over local's median), to 2 places."""
    def read(outputs: Outputs) -> float:
        rounds = decoded(outputs["harness.json"])["rounds"]
        middle = middle_round(rounds[executor])
        if key == "vs_local":
            return round(middle["runs_per_s"] / middle_round(rounds["local"])["runs_per_s"], 2)
        return round(float(middle[key]), 2)
    return read


def harness_table(outputs: Outputs) -> list[str]:
    """Each executor's median round: runs a second, overhead and own time per run, against local."""
    rounds = decoded(outputs["harness.json"])["rounds"]
    local = middle_round(rounds["local"])["runs_per_s"]
    lines = ["| executor | rounds | runs/s | overhead ms/run | own ms/run | vs local |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, each in rounds.items():
        middle = middle_round(each)
        lines.append(f"| {name} | {len(each)} | {middle['runs_per_s']:.0f} | {middle['overhead_ms']:.3f} "
                     f"| {middle['own_s'] / middle['runs'] * 1000:.3f} | {middle['runs_per_s'] / local:.2f}x |")
    return lines


def _harness_figures() -> tuple[Figure, ...]:
    return (
        at_least("harness-dask-vs-local", HARNESS_SHOWN, HARNESS_RUN, HARNESS, harness_value("dask", "vs_local"), 0.5,
                 "Dask on a LocalCluster's runs a second over local's (median rounds)"),
        Figure("harness-local-overhead", PAGE, HARNESS_SHOWN, HARNESS_RUN, (HARNESS,),
               harness_value("local", "overhead_ms"), 0, 1.0, cheap=False,
               what="time (ms a run, wall-based, so the load inflates it): the harness's cost per run locally, "
                    "inside the target's 1 ms on a quiet machine"),
    )


HARNESS_SHOWN = "0.97 ms a run locally at load 0.7-1.3"


# ---------------------------------------------------------------- defaults for cages and Latin squares (compare.py)

QWH_INSTANCES = ((30, 0.45, 11), (30, 0.41, 12), (30, 0.43, 13), (30, 0.45, 14), (30, 0.41, 15), (30, 0.43, 16),
                 (25, 0.42, 21), (25, 0.42, 22))
"""(order, hole fraction, seed) of each ten QWH instances the defaults were chosen on."""
QWH_FILES = tuple(f"qwh{order}_{seed}.txt" for order, _, seed in QWH_INSTANCES)
QWH_CONFIGS = "fast,fast:branching=mrv,fast:branching=wdeg,fast:learning=conflicts,pysat"
DEFAULTS_QWH = kept("defaults_qwh.json")
DEFAULTS_QWH_RUN = (
    *(("python", "compare.py", "generate", "--variant", "latin", "--size", str(order), "--holes", str(holes),
       "--count", "10", "--seed", str(seed), ">", f"qwh{order}_{seed}.txt") for order, holes, seed in QWH_INSTANCES),
    ("python", "compare.py", "run", *(f"{{out}}/{name}" for name in QWH_FILES), "--solvers", QWH_CONFIGS,
     "--cpu-limit", "10", "--timeout", "60", "--json", "{out}/defaults_qwh.json"))
KILLER_CONFIGS = "cpsat,boolean=cpsat:encoding=boolean,mip,fast,mrv,csp,backtrack"
DEFAULTS_KILLERS = kept("defaults_killers.json")
DEFAULTS_KILLERS_RUN = (
    ("python", "compare.py", "generate", "--variant", "killer", "--killer-givens", "--count", "6", "--seed", "31",
     ">", "killers_givens.txt"),
    ("python", "compare.py", "run", "puzzles/generated_killer_9x9.txt", "{out}/killers_givens.txt", "--unique",
     "--solvers", KILLER_CONFIGS, "--cpu-limit", "20", "--timeout", "60", "--json", "{out}/defaults_killers.json"))


def solved_where(file: str, configuration: str, part: str) -> Callable[[Outputs], float]:
    """A configuration's solved puzzles over the sets whose file name holds ``part``."""
    def read(outputs: Outputs) -> float:
        rows = [row for row in decoded(outputs[file])["summary"] if row["configuration"] == configuration]
        return float(sum(row["solved"] for row in rows if part in row["file"]))
    return read


def defaults_table(file: str, parts: tuple[tuple[str, str], ...]) -> Callable[[Outputs], list[str]]:
    """Per configuration: solved of the puzzles, the largest decisions and the slowest CPU
    seconds, for each group of sets (by a part of their file names)."""
    def render(outputs: Outputs) -> list[str]:
        document = decoded(outputs[file])
        lines = ["| configuration | " + " | ".join(f"{label}: solved, largest decisions, slowest CPU s"
                                                    for label, _ in parts) + " |",
                 "| --- |" + " --- |" * len(parts)]
        for configuration in dict.fromkeys(run["configuration"] for run in document["runs"]):
            cells = []
            for _, part in parts:
                mine = [run for run in document["runs"] if run["configuration"] == configuration]
                runs = [run for run in mine if part in run["file"]]
                solved = solved_where(file, configuration, part)(outputs)
                nodes = [run["nodes"] for run in runs if run["nodes"] is not None]
                slowest = max(run["cpu_s"] or 0 for run in runs)
                cells.append(f"{solved:.0f} of {len(runs)}, {f'{max(nodes):,}' if nodes else '-'}, {slowest:.2f}")
            lines.append(f"| `{configuration}` | " + " | ".join(cells) + " |")
        return lines
    return render


def _defaults_figures() -> tuple[Figure, ...]:
    qwh = tuple(exactly(f"defaults-qwh30-{name.replace(':', '-').replace('=', '-')}-solved", DEFAULTS_QWH_SHOWN,
                        DEFAULTS_QWH_RUN, DEFAULTS_QWH, solved_where("defaults_qwh.json", name, "qwh30"), count,
                        f"QWH instances of order 30 {name} solves within 10 s of CPU")
                for name, count in DEFAULTS_QWH_SOLVED)
    killers = tuple(exactly(f"defaults-killers-{name}-solved", DEFAULTS_KILLERS_SHOWN, DEFAULTS_KILLERS_RUN,
                            DEFAULTS_KILLERS, solved_where("defaults_killers.json", name, "generated_killer"), count,
                            f"cages-only generated killers {name} proves unique within 20 s of CPU")
                    for name, count in DEFAULTS_KILLERS_SOLVED)
    return (*qwh, *killers)


DEFAULTS_QWH_SOLVED: tuple[tuple[str, int], ...] = (
    ("fast", 60), ("fast:branching=mrv", 59), ("fast:branching=wdeg", 60), ("fast:learning=conflicts", 60),
    ("pysat", 60))
DEFAULTS_KILLERS_SOLVED: tuple[tuple[str, int], ...] = (
    ("cpsat", 5), ("boolean", 5), ("mip", 5), ("fast", 5), ("mrv", 5), ("csp", 2), ("backtrack", 1))
DEFAULTS_QWH_SHOWN = "`fast`'s default solves 60 of 60 QWH of order 30 within 10 s of CPU each"
DEFAULTS_KILLERS_SHOWN = "cages-only 9x9 killers within 20 s of CPU (2 and 1 of 5)"


# ---------------------------------------------------------------- the README's first command (bench_first_run.py)

FIRST = kept("first_run.json")
FIRST_RUN = (("python", "bench/bench_first_run.py", "--runs", "1", "--json", "{out}/first_run.json"),)


def first_run_value(key: str) -> Callable[[Outputs], float]:
    """The fresh clone's first command: its wall seconds in all (``wall``), the kernels it
    compiled (``compiles``) or the warm run compiled again (``warm_compiles``)."""
    def read(outputs: Outputs) -> float:
        run = decoded(outputs["first_run.json"])["runs"][0]
        warm = [step for step in run["steps"] if step["step"].startswith("(warm)")]
        first = [step for step in run["steps"] if not step["step"].startswith("(warm)")]
        if key == "wall":
            return float(run["total_wall_s"])
        return float(sum(len(step["compiled"]) for step in (warm if key == "warm_compiles" else first)))
    return read


def first_run_table(outputs: Outputs) -> list[str]:
    """Each step of the first command on the fresh clone: wall and CPU seconds, the load, what it compiled."""
    run = decoded(outputs["first_run.json"])["runs"][0]
    lines = ["| step | wall s | CPU s | load | compiled |", "| --- | --- | --- | --- | --- |"]
    for step in run["steps"]:
        compiled = ", ".join(f"{what} {seconds:.1f} s" for what, seconds in step["compiled"].items()) or "-"
        lines.append(f"| `{step['step']}` | {step['wall_s']:.1f} | {step['cpu_s']:.1f} "
                     f"| {step['load_before']:.1f}-{step['load_after']:.1f} | {compiled} |")
    lines.append(f"| in all (the first three) | {run['total_wall_s']:.1f} | {run['total_cpu_s']:.1f} | | |")
    return lines


def _first_run_figures() -> tuple[Figure, ...]:
    return (
        Figure("first-run-wall", PAGE, FIRST_SHOWN, FIRST_RUN, (FIRST,), first_run_value("wall"), 0, 90, cheap=False,
               what="time: wall seconds of the README's first command on a fresh clone, inside the target's 90 s"),
        exactly("first-run-compiles", FIRST_SHOWN, FIRST_RUN, FIRST, first_run_value("compiles"), 1,
                "kernels the first run compiles (the default job's 9x9 kernel alone)", cheap=False),
        exactly("first-run-warm-compiles", FIRST_SHOWN, FIRST_RUN, FIRST, first_run_value("warm_compiles"), 0,
                "kernels the second run compiles (it loads them)", cheap=False),
    )


FIRST_SHOWN = "**74.0 s** of wall (60.7 s of CPU)"


# ---------------------------------------------------------------- memory flat (bench_streaming.py)

STREAMING = kept("streaming.json")
STREAMING_RUN = (("python", "bench/bench_streaming.py", "--lines", "20000,200000", "--json", "{out}/streaming.json"),)


def streaming_flat(outputs: Outputs) -> float:
    """The run's resident memory three quarters of the way through the largest input over the
    smallest's, to 2 places (1.00: flat)."""
    sizes = sorted(decoded(outputs["streaming.json"])["sizes"], key=lambda size: size["lines"])
    return round(sizes[-1]["q3_mb"] / sizes[0]["q3_mb"], 2)


def streaming_table(outputs: Outputs) -> list[str]:
    lines = ["| lines | peak RSS MB | RSS at 1/4 | 1/2 | 3/4 | worker peak | wall s | runs/s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    lines += [f"| {size['lines']} | {size['peak_mb']:.1f} | {size['q1_mb']:.1f} | {size['q2_mb']:.1f} "
              f"| {size['q3_mb']:.1f} | {size['worker_mb']:.1f} | {size['wall_s']:.0f} | {size['runs_per_s']:.0f} |"
              for size in decoded(outputs["streaming.json"])["sizes"]]
    return lines


def _streaming_figures() -> tuple[Figure, ...]:
    return (Figure("streaming-flat", PAGE, STREAMING_SHOWN, STREAMING_RUN, (STREAMING,), streaming_flat, 0.9, 1.1,
                   cheap=False, what="ratio of memory (not time): resident memory at 3/4 of 200,000 lines over "
                                     "at 3/4 of 20,000 with --db; flat within 10%"),)


STREAMING_SHOWN = "37.4 MB at 3/4 of 20,000 lines and 37.6 MB at 3/4 of 200,000 (1.00x)"


# ---------------------------------------------------------------- mrv against Norvig (bench_backends.py, 5 runs)

MRV_NORVIG = tuple(kept(f"mrv_norvig_{k}.json") for k in range(1, 6))
MRV_NORVIG_RUN = tuple(("python", "bench/bench_backends.py", "--solvers", "mrv", "--norvig", "/tmp/norvig/sudoku.py",
                        "--norvig", "/tmp/norvig16/sudoku.py", "--sets", "top95.txt", "16x16_forum_samples.txt",
                        "--json", f"{{out}}/mrv_norvig_{k}.json") for k in range(1, 6))


def mrv_norvig_ratio(puzzle_set: str, pick: Callable[[list[float]], float]) -> Callable[[Outputs], float]:
    """Norvig's mean time over mrv's on a set, in each of the five runs, picked (median, min), to 2 places."""
    def read(outputs: Outputs) -> float:
        ratios = [table_cell(file, "backends", "norvig / time", set=puzzle_set, solver="mrv")(outputs)
                  for file in MRV_NORVIG]
        return round(pick(ratios), 2)
    return read


def mrv_norvig_table(outputs: Outputs) -> list[str]:
    """Per set: Norvig's time over mrv's in each of the five runs, their median, and each side's mean ms."""
    lines = ["| set | Norvig's time over `mrv`'s, the 5 runs | median | `mrv` mean ms | Norvig mean ms |",
             "| --- | --- | --- | --- | --- |"]
    for puzzle_set in ("top95", "16x16_forum_samples"):
        def column(solver: str, name: str, puzzle_set: str = puzzle_set) -> list[float]:
            return [table_cell(file, "backends", name, set=puzzle_set, solver=solver)(outputs) for file in MRV_NORVIG]
        ratios, mine, norvig = column("mrv", "norvig / time"), column("mrv", "mean ms"), column("norvig", "mean ms")
        lines.append(f"| {puzzle_set} | {', '.join(f'{x:.2f}' for x in ratios)} | **{statistics.median(ratios):.2f}x** "
                     f"| {min(mine):.2f}-{max(mine):.2f} | {min(norvig):.2f}-{max(norvig):.2f} |")
    return lines


def _mrv_norvig_figures() -> tuple[Figure, ...]:
    return tuple(
        Figure(f"mrv-norvig-{short}-{which}", PAGE, MRV_NORVIG_SHOWN, MRV_NORVIG_RUN, MRV_NORVIG,
               mrv_norvig_ratio(puzzle_set, pick), low, RATIO_CEILING,
               what=f"ratio: Norvig's mean time over mrv's on {puzzle_set}, the {which} of 5 runs; {note}")
        for short, puzzle_set, which, pick, low, note in MRV_NORVIG_LIMITS)


MRV_NORVIG_LIMITS: tuple[tuple[str, str, str, Callable[[list[float]], float], float, str], ...] = (
    ("top95", "top95", "median", statistics.median, 4.0, "at least the target's 4x"),
    ("top95", "top95", "least", min, 4.0, "every run at least the target's 4x"),
    ("16x16", "16x16_forum_samples", "median", statistics.median, 4.0, "at least the target's 4x"),
    ("16x16", "16x16_forum_samples", "least", min, 4.0, "every run at least the target's 4x"))
MRV_NORVIG_SHOWN = "Norvig's time over `mrv`'s on top95: **6.58x**"


# ---------------------------------------------------------------- the Frisch 25x25 (bench_hard.py)

FRISCH = kept("frisch_sat_cpsat.json")
FRISCH_RUN = (("python", "bench/bench_hard.py", "--solvers", "sat,cpsat", "--set", "puzzles/25x25_gecode_frisch.txt",
               "--time-limit", "60", "--jobs", "1", "--json", "{out}/frisch_sat_cpsat.json"),)
FRISCH_MRV = kept("frisch_mrv.json")
FRISCH_MRV_RUN = (("python", "bench/bench_hard.py", "--solvers", "mrv", "--set", "puzzles/25x25_gecode_frisch.txt",
                   "--time-limit", "60", "--jobs", "1", "--first", "4", "--json", "{out}/frisch_mrv.json"),)


def proved(file: str, solver: str) -> Callable[[Outputs], float]:
    """The puzzles a configuration proved unique in a bench_hard.py run."""
    def read(outputs: Outputs) -> float:
        runs = decoded(outputs[Path(file).name])["runs"]
        return float(sum(run["status"] == "unique" for run in runs if run["solver"] == solver))
    return read


def frisch_table(outputs: Outputs) -> list[str]:
    """Seconds per Frisch puzzle and configuration (t: a timeout at the limit)."""
    runs = decoded(outputs["frisch_sat_cpsat.json"])["runs"]
    puzzles = sorted({run["puzzle"] for run in runs})
    lines = ["| puzzle | " + " | ".join(str(number) for number in puzzles) + " |",
             "|---|" + "---|" * len(puzzles)]
    for solver in dict.fromkeys(run["solver"] for run in runs):
        seconds = {run["puzzle"]: run for run in runs if run["solver"] == solver}
        lines.append(f"| {solver} | " + " | ".join(
            "t" if seconds[number]["status"] == "timeout" else f"{seconds[number]['seconds']:.1f}"
            for number in puzzles) + " |")
    return lines


def _frisch_figures() -> tuple[Figure, ...]:
    return (
        Figure("frisch-sat-proved", PAGE, FRISCH_SHOWN, FRISCH_RUN, (FRISCH,), proved(FRISCH, "sat"), 0, 17,
               cheap=False, what="count (of a machine-timed run): Frisch 25x25 puzzles sat proves unique within 60 s; "
                                 "the target (18) stays unmet while it is below 18"),
        exactly("frisch-cpsat-proved", FRISCH_SHOWN, FRISCH_RUN, FRISCH, proved(FRISCH, "cpsat"), FRISCH_CPSAT,
                "Frisch 25x25 puzzles cpsat proves unique within 60 s (a machine-timed count)", cheap=False),
        Figure("frisch-mrv-proved", PAGE, FRISCH_MRV_SHOWN, FRISCH_MRV_RUN, (FRISCH_MRV,), proved(FRISCH_MRV, "mrv"),
               0, 0, cheap=False, what="count: of the first 4 Frisch 25x25, those mrv proves unique within 60 s"),
    )


FRISCH_CPSAT = 14
FRISCH_SHOWN = "`sat` proved 10 of 18"
FRISCH_MRV_SHOWN = "0 of the first 4 within 60 s"


# ---------------------------------------------------------------- fast paths and readable twins (bench_fast_paths.py)

FAST_PATHS = kept("fast_paths.json")
FAST_PATHS_RUN = (("python", "bench/bench_fast_paths.py", "--json", "{out}/fast_paths.json"),)
FAST_PATHS_HEAD = "| configuration, set | puzzles | {} ms | {} ms | ratio of means | median ratio | nodes |"


def fast_paths_table(against: str) -> Callable[[Outputs], list[str]]:
    """bench_fast_paths.py's rows of one comparison (``before/now`` or ``fast/readable``), as printed."""
    def render(outputs: Outputs) -> list[str]:
        rows = [row for row in decoded(outputs["fast_paths.json"])["rows"] if row["against"] == against]
        return [FAST_PATHS_HEAD.format(*against.split("/")), "|---|---:|---:|---:|---:|---:|---|",
                *(row["line"] for row in rows)]
    return render


def fast_paths_value(against: str, label: str, key: str) -> Callable[[Outputs], float]:
    """A row's ratio (to 2 places), or 1 when its node counts were equal (0 when not)."""
    def read(outputs: Outputs) -> float:
        rows = [row for row in decoded(outputs["fast_paths.json"])["rows"]
                if row["against"] == against and row["label"] == label]
        return float(rows[0][key]) if key == "same_nodes" else round(float(rows[0][key]), 2)
    return read


def _fast_paths_figures() -> tuple[Figure, ...]:
    labels = ("mrv, top95", "mrv inference=singles, top95", "mrv, hardest", "backtrack, teaching", "dlx, top95",
              "dlx impl=readable, top95")
    same = tuple(exactly(f"fast-paths-{index}-same-nodes", FAST_PATHS_SHOWN, FAST_PATHS_RUN, FAST_PATHS,
                         fast_paths_value("before/now", label, "same_nodes"), 1,
                         f"1: {label} makes the same decisions now as before", cheap=False)
                 for index, label in enumerate(labels))
    ratios = tuple(Figure(f"fast-paths-{index}-ratio", PAGE, FAST_PATHS_SHOWN, FAST_PATHS_RUN, (FAST_PATHS,),
                          fast_paths_value("before/now", label, "ratio"), low, high, cheap=False,
                          what=f"ratio: {label}'s time now over before, {note}")
                   for index, label, low, high, note in FAST_PATHS_LIMITS)
    return (*same, *ratios)


FAST_PATHS_LIMITS: tuple[tuple[int, str, float, float, str], ...] = (
    (0, "mrv, top95", 0.0, 1.15, "unchanged within 15%"),
    (1, "mrv inference=singles, top95", 0.0, 1.15, "unchanged within 15%"),
    (2, "mrv, hardest", 0.0, 1.15, "unchanged within 15%"),
    (3, "backtrack, teaching", 0.0, 1.15, "unchanged within 15%"),
    (4, "dlx, top95", 0.0, 1.15, "unchanged within 15%"))
FAST_PATHS_SHOWN = "now / before 1.00-1.03"


# ---------------------------------------------------------------- the general kernel before the 9x9 one (bench_fast.py)

BEFORE_9X9 = kept("fast_before_9x9.json")
BEFORE_9X9_RUN = (("python", "bench/bench_fast.py", "--no-compile", "--configs", "fast:learning=none", "--compare", "",
                   "--repeats", "5", "--set", "puzzles/16x16_forum_samples.txt", "--set", "puzzles/generated_16x16.txt",
                   "--set", "puzzles/16x16_gecode_janko.txt", "--set", "puzzles/generated_25x25.txt", "--baseline",
                   "/tmp/_fast_before_9x9.py", "--json", "{out}/fast_before_9x9.json"),)
BEFORE_SETS = ("16x16_forum_samples", "generated_16x16", "16x16_gecode_janko", "generated_25x25")


def _before_9x9_figures() -> tuple[Figure, ...]:
    table = "now against before"
    return (
        *(exactly(f"before-9x9-{name}-same-nodes", BEFORE_9X9_SHOWN, BEFORE_9X9_RUN, BEFORE_9X9,
                  cell_ratio(BEFORE_9X9, table, "nodes now", "nodes before", set=name), 1,
                  f"1: the general kernel's mean decisions on {name} over those before the 9x9 kernel", cheap=False)
          for name in BEFORE_SETS),
        *(Figure(f"before-9x9-{name}-ratio", PAGE, BEFORE_9X9_SHOWN, BEFORE_9X9_RUN, (BEFORE_9X9,),
                 table_cell(BEFORE_9X9, table, "now / before", set=name), low, high, cheap=False,
                 what=f"ratio: the general kernel's time now over before the 9x9 kernel on {name} (within 15%)")
          for name, low, high in BEFORE_9X9_LIMITS),
    )


BEFORE_9X9_LIMITS: tuple[tuple[str, float, float], ...] = tuple((name, 0.0, 1.15) for name in BEFORE_SETS)
"""No slower than before: within 15%, the load's noise."""
BEFORE_9X9_SHOWN = "now / before 0.95-1.07"


# ---------------------------------------------------------------- runs a second without --batch (bench_run_rate.py)

RUN_RATE = kept("run_rate.json")
RUN_RATE_RUN = (("python", "bench/bench_run_rate.py", "--baseline", "/tmp/rate_base", "--puzzles", "20000", "--rounds",
                 "3", "--json", "{out}/run_rate.json"),)
PARENT_STAGES = kept("parent_stages.json")
PARENT_STAGES_RUN = (("python", "bench/bench_parent_stages.py", "--baseline", "/tmp/rate_base", "--puzzles", "5000",
                      "--rounds", "5", "--json", "{out}/parent_stages.json"),)


def run_rate_value(checkout: str, key: str) -> Callable[[Outputs], float]:
    """A checkout's median over the rounds of ``end_to_end`` or ``steady`` runs a second (to
    the unit) or its CPU ms a run (``cpu``, to 3 places)."""
    def read(outputs: Outputs) -> float:
        values = [row[key] for row in decoded(outputs["run_rate.json"])["rounds"][checkout]]
        middle = statistics.median(values)
        return round(middle * 1000, 3) if key == "cpu" else float(round(middle))
    return read


def run_rate_table(outputs: Outputs) -> list[str]:
    lines = ["| checkout | end to end runs/s | steady runs/s | start-up s | CPU ms/run | parent | workers |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for checkout, rounds in decoded(outputs["run_rate.json"])["rounds"].items():
        def middle(key: str, rounds: list[dict[str, float]] = rounds) -> float:
            return float(statistics.median(row[key] for row in rounds))
        lines.append(f"| {checkout} | {middle('end_to_end'):.0f} | {middle('steady'):.0f} | {middle('start'):.2f} "
                     f"| {middle('cpu') * 1000:.3f} | {middle('parent') * 1000:.3f} | {middle('workers') * 1000:.3f} |")
    return lines


def _run_rate_figures() -> tuple[Figure, ...]:
    return (
        Figure("run-rate-end-to-end", PAGE, RUN_RATE_SHOWN, RUN_RATE_RUN, (RUN_RATE,),
               run_rate_value("this", "end_to_end"), 2000, 10**6, cheap=False,
               what="runs a second end to end (median of 3 rounds, 20,000 puzzles): at least the target's "
                    "2,000 at the load it was kept at (1.0-1.4)"),
        Figure("run-rate-cpu", PAGE, RUN_RATE_SHOWN, RUN_RATE_RUN, (RUN_RATE,), run_rate_value("this", "cpu"), 0, 1.0,
               cheap=False, what="time: the process tree's CPU ms a run (median of 3 rounds), under 1 ms"),
        Figure("parent-stages-total", PAGE, "| total | 218.1 | 300.7 | 0.73 |", PARENT_STAGES_RUN, (PARENT_STAGES,),
               parent_stages_ratio, 0, 0.9, cheap=False,
               what="ratio: the parent's stages' CPU a run, this checkout over the baseline (best of 5 rounds each)"),
    )


def parent_stages_ratio(outputs: Outputs) -> float:
    """bench_parent_stages.py's total CPU a run, this checkout over the baseline, to 2 places."""
    figures = decoded(outputs["parent_stages.json"])["seconds_a_run"]
    return round(sum(figures["this"].values()) / sum(figures["baseline"].values()), 2)


RUN_RATE_SHOWN = "2,020 runs/s end to end, 2,314 steady, 0.693 ms of CPU a run"


def parent_stages_table(outputs: Outputs) -> list[str]:
    """bench_parent_stages.py's CPU microseconds a run by stage, this checkout and the baseline."""
    figures = decoded(outputs["parent_stages.json"])["seconds_a_run"]
    lines = ["| stage | this us/run | baseline us/run | this / baseline |", "| --- | --- | --- | --- |"]
    for stage in (*figures["this"], "total"):
        mine, base = ((sum(figures[side].values()) if stage == "total" else figures[side][stage])
                      for side in ("this", "baseline"))
        lines.append(f"| {stage} | {mine * 1e6:.1f} | {base * 1e6:.1f} | {mine / base:.2f} |")
    return lines


# ---------------------------------------------------------------- the fuzzer's planted bugs (bench_fuzz.py)

FUZZ = kept("fuzz.json")
FUZZ_RUN = (("python", "bench/bench_fuzz.py", "--json", "{out}/fuzz.json"),)


def fuzz_value(key: str) -> Callable[[Outputs], float]:
    """Of bench_fuzz.py's rows: the bugs ``found``, the ``slowest`` wall seconds, or the ``cases``'
    instance numbers added up (the seed decides them)."""
    def read(outputs: Outputs) -> float:
        rows = decoded(outputs["fuzz.json"])["rows"]
        if key == "found":
            return float(sum(row["found"] != "not found" for row in rows))
        if key == "slowest":
            return max(float(row["wall s"]) for row in rows)
        return float(sum(int(row["case"].split("/")[1]) for row in rows))
    return read


def fuzz_table(outputs: Outputs) -> list[str]:
    lines = ["| bug | seed | found as | case | instances | wall s | shrunk to |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {row['bug']} | {row['seed']} | {row['found']} | {row['case']} | {row['instances']} | {row['wall s']} "
              f"| {row['to']} |" for row in decoded(outputs["fuzz.json"])["rows"]]
    return lines


def _fuzz_figures() -> tuple[Figure, ...]:
    return (
        exactly("fuzz-found", FUZZ_SHOWN, FUZZ_RUN, FUZZ, fuzz_value("found"), 7, "planted bugs found and shrunk",
                cheap=False),
        Figure("fuzz-slowest", PAGE, FUZZ_SHOWN, FUZZ_RUN, (FUZZ,), fuzz_value("slowest"), 0, 150, cheap=False,
               what="time: the slowest bug's wall seconds to be found and shrunk, inside the target's 150 s"),
        exactly("fuzz-cases", FUZZ_SHOWN, FUZZ_RUN, FUZZ, fuzz_value("cases"), FUZZ_CASES,
                "the instance numbers each bug was found at (seed 1), added up", cheap=False),
    )


FUZZ_CASES = 146
FUZZ_SHOWN = "7 of 7 bugs found and shrunk (seed 1), the slowest in 36 s of wall"


# ---------------------------------------------------------------- the HTML report and the replay page

HTML = kept("html_report.json")
HTML_RUN = (("python", "bench/bench_html_report.py", "--json", "{out}/html_report.json"),)
FILTERS = ("text filter (typed)", "category filter", "set filter", "configurations differ")


def html_median(measure: str) -> Callable[[Outputs], float]:
    """The median over the openings of one of the page's own timings (ms), to 1 place."""
    def read(outputs: Outputs) -> float:
        return round(float(statistics.median(decoded(outputs["html_report.json"])["openings"][measure])), 1)
    return read


def html_table(outputs: Outputs) -> list[str]:
    """Each of the page's timings: the median and the largest over the openings (ms)."""
    openings = decoded(outputs["html_report.json"])["openings"]
    lines = [f"| measure (ms) | median of {len(next(iter(openings.values())))} | largest |", "| --- | --- | --- |"]
    lines += [f"| {name} | {statistics.median(values):.1f} | {max(values):.1f} |" for name, values in openings.items()]
    return lines


def _html_figures() -> tuple[Figure, ...]:
    def under(name: str, measure: str, limit: float) -> Figure:
        return Figure(name, PAGE, HTML_SHOWN, HTML_RUN, (HTML,), html_median(measure), 0, limit, cheap=False,
                      what=f"time (ms, median of the openings): {measure}, inside the target's {limit:g} ms")
    return (under("html-open", "open (to the first screen)", 2000),
            *(under(f"html-{measure.split()[0]}-filter", measure, 100) for measure in FILTERS))


HTML_SHOWN = "opens in 443.6 ms, every filter 17.0-44.6 ms"

REPLAY = kept("replay.json")
REPLAY_RUN = (("python", "bench/bench_replay.py", "--json", "{out}/replay.json"),)


def replay_value(key: str) -> Callable[[Outputs], float]:
    def read(outputs: Outputs) -> float:
        value = decoded(outputs["replay.json"])[key]
        return float(statistics.median(value) if isinstance(value, list) else value)
    return read


def _replay_figures() -> tuple[Figure, ...]:
    return (
        exactly("replay-events", REPLAY_SHOWN, REPLAY_RUN, REPLAY, replay_value("events"), 208331,
                "steps of plain backtracking on top95's first puzzle, stopped at 90,000 decisions"),
        Figure("replay-page-bytes", PAGE, REPLAY_SHOWN, REPLAY_RUN, (REPLAY,), replay_value("page_bytes"), 0, 1e6,
               what="size: the page's bytes, inside the target's \"sensible size\" (under 1 MB)"),
        Figure("replay-opened-ms", PAGE, REPLAY_SHOWN, REPLAY_RUN, (REPLAY,), replay_value("opened_ms"), 0, 2000,
               what="time (ms, median of the openings): to the first grid drawn, inside 2 s"),
    )


REPLAY_SHOWN = "208,331 events: a 452,437-byte page, opened in 615 ms"


# ---------------------------------------------------------------- clause learning on Frisch isomorphs

LEARNING = kept("learning_frisch.json")
LEARNING_RUN = (("python", "bench/bench_learning_frisch.py", "--baseline", "/tmp/f47base", "--puzzles",
                 "5,13,3,0,8,14,9", "--seeds", "0", "--cadical", "--jobs", "1", "--cpu-limit", "60", "--json",
                 "{out}/learning_frisch.json"),
                ("python", "bench/bench_learning_frisch.py", "--baseline", "/tmp/f47base", "--puzzles", "9,15",
                 "--seeds", "1", "--jobs", "1", "--cpu-limit", "60", "--json", "{out}/learning_frisch_seed1.json"))
"""(/tmp/f47base: ``git archive bcb3936 | tar -x -C /tmp/f47base``, main before the sixth pass's
inlined calls.)"""
LEARNING_SEED1 = kept("learning_frisch_seed1.json")
LEARNING_SHOWN = "#3 proved in 90,481 conflicts (CaDiCaL's proof: 106,651), #0 proved in"
LEARNING_ALL = kept("learning_frisch_all.json")
LEARNING_ALL_RUN = (("python", "bench/bench_learning_frisch.py", "--puzzles", ",".join(map(str, range(18))),
                     "--seeds", "0,1", "--jobs", "1", "--cpu-limit", "60", "--json", "{out}/learning_frisch_all.json"),)
LEARNING_ALL_SHOWN = "36 of the 36 isomorphs proved"


def learning_run(tree: str, puzzle: int, key: str) -> Callable[[Outputs], float]:
    """A field of one run of the kept bench_learning_frisch.py JSON (seed 0): proved as 1 or 0."""
    def read(outputs: Outputs) -> float:
        runs = [run for run in decoded(outputs[Path(LEARNING).name])["runs"]
                if run["tree"] == tree and run["puzzle"] == puzzle and run["seed"] == 0]
        if len(runs) != 1:
            raise ValueError(f"{len(runs)} runs of {tree} on #{puzzle}")
        return float(runs[0][key])
    return read


def _learning_figures() -> tuple[Figure, ...]:
    per_run = tuple(
        exactly(name, LEARNING_SHOWN, LEARNING_RUN, LEARNING, learning_run(tree, puzzle, key), count, what,
                cheap=False)
        for name, tree, puzzle, key, count, what in (
            ("learning-frisch-3-conflicts", "this", 3, "conflicts", 90481,
             "fast:learning=conflicts's conflicts to prove Frisch #3's isomorph (seed 0) unique"),
            ("learning-frisch-3-cadical-conflicts", "cadical", 3, "conflicts", 106651,
             "CaDiCaL's conflicts to prove the same CNF, its solution blocked, unsatisfiable"),
            ("learning-frisch-0-proved", "this", 0, "proved", 1,
             "whether fast:learning=conflicts proves Frisch #0's isomorph (seed 0) within 60 s of CPU (1: it does)"),
            ("learning-frisch-0-cadical-conflicts", "cadical", 0, "conflicts", 156166,
             "CaDiCaL's conflicts to prove #0's CNF, its solution blocked, unsatisfiable"),
        ))
    every = exactly("learning-frisch-all-proved", LEARNING_ALL_SHOWN, LEARNING_ALL_RUN, LEARNING_ALL,
                    learning_all_proved, 36,
                    "isomorphs of the 18 Frisch puzzles (seeds 0 and 1) fast:learning=conflicts proves within 60 s "
                    "of CPU each, one run at a time", cheap=False)
    return (*per_run, every)


def learning_all_proved(outputs: Outputs) -> float:
    """How many runs of the kept all-isomorphs JSON were proved within the limit."""
    return float(sum(bool(run["proved"]) for run in decoded(outputs[Path(LEARNING_ALL).name])["runs"]))


def learning_all_table(outputs: Outputs) -> list[str]:
    """Per Frisch puzzle, its two isomorphs' CPU seconds and conflicts, proved or not."""
    runs = {(run["puzzle"], run["seed"]): run for run in decoded(outputs[Path(LEARNING_ALL).name])["runs"]}
    seeds = sorted({seed for _, seed in runs})
    lines = ["| puzzle | " + " | ".join(f"seed {seed}: CPU s, conflicts" for seed in seeds) + " |",
             "|---|" + "---|" * len(seeds)]
    for puzzle in sorted({puzzle for puzzle, _ in runs}):
        cells = [f"{'' if run['proved'] else 'not proved '}{run['cpu']:.2f}, {run['conflicts']:,}"
                 if (run := runs.get((puzzle, seed))) else "(not run)" for seed in seeds]
        lines.append(f"| #{puzzle} | " + " | ".join(cells) + " |")
    return lines


def learning_table(outputs: Outputs) -> list[str]:
    """Per isomorph and tree of the kept bench_learning_frisch.py runs (both seeds): its CPU
    seconds and conflicts, proved or not within the limit."""
    runs = [run for name in ("learning_frisch.json", "learning_frisch_seed1.json")
            for run in decoded(outputs[name])["runs"]]
    trees = list(dict.fromkeys(run["tree"] for run in runs))
    lines = ["| isomorph | " + " | ".join(f"{tree}: CPU s, conflicts" for tree in trees) + " |",
             "|---|" + "---|" * len(trees)]
    for seed, puzzle in dict.fromkeys((run["seed"], run["puzzle"]) for run in runs):
        cells = []
        for tree in trees:
            found = [run for run in runs if (run["tree"], run["seed"], run["puzzle"]) == (tree, seed, puzzle)]
            if not found:
                cells.append("(not run)")
                continue
            run = found[0]
            cells.append(f"{'' if run['proved'] else 'not proved '}{run['cpu']:.2f}, {run['conflicts']:,}")
        lines.append(f"| #{puzzle} seed {seed} | " + " | ".join(cells) + " |")
    return lines


# ---------------------------------------------------------------- run --batch (bench_batch_run.py)

BATCH = kept("batch_run.json")
BATCH_RUN = (("python", "bench/bench_batch_run.py", "--cli", "10", "--plain", "0", "--json", "{out}/batch_run.json"),)


def _batch_figures() -> tuple[Figure, ...]:
    return (Figure("batch-cli-median", PAGE, "median **175,726/s**", BATCH_RUN, (BATCH,),
                   lambda outputs: float(decoded(outputs[Path(BATCH).name])["cli_median"]), 100_000, 10_000_000,
                   what="rate (at least the target's 100,000; it moves with the load): 17-clue puzzles a second "
                        "through compare.py run --batch by CPU time, reading to records, median of 10 passes"),)


FIGURES: tuple[Figure, ...] = (
    *_allb_figures(), *_generate_figures(), *_tdoku_figures(), *_dlx_figures(), *_mip_figures(), *_beside_figures(),
    *_sat_figures(), *_cpsat_figures(), *_six_figures(), *_study_figures(), *_hard_figures(), *_harness_figures(),
    *_defaults_figures(), *_first_run_figures(), *_html_figures(), *_replay_figures(),
    *_streaming_figures(), *_mrv_norvig_figures(), *_frisch_figures(), *_fast_paths_figures(),
    *_before_9x9_figures(), *_run_rate_figures(), *_fuzz_figures(), *_learning_figures(),
    *_batch_figures())
TABLES: tuple[RenderedTable, ...] = (rendered("all-backends", ALLB, "backends"),
                                     rendered("fast-tdoku", TDOKU, "tdoku"),
                                     rendered("dlx-side-by-side", DLX, "side by side"),
                                     rendered("mip-side-by-side", MIP, "side by side"),
                                     rendered("beside-mrv", BESIDE, "backends"),
                                     rendered("sat-encodings", SAT, "encodings"),
                                     rendered("sat-side-by-side", SAT, "side by side"),
                                     RenderedTable("six-top95", PAGE, (SIX,), six_table),
                                     rendered("pysat-study", STUDY, "study"),
                                     rendered("hard-9x9-16x16", HARD, "hard"),
                                     RenderedTable("harness", PAGE, (HARNESS,), harness_table),
                                     RenderedTable("first-run", PAGE, (FIRST,), first_run_table),
                                     RenderedTable("run-rate", PAGE, (RUN_RATE,), run_rate_table),
                                     RenderedTable("learning-frisch", PAGE, (LEARNING, LEARNING_SEED1),
                                                   learning_table),
                                     RenderedTable("learning-frisch-all", PAGE, (LEARNING_ALL,), learning_all_table),
                                     RenderedTable("parent-stages", PAGE, (PARENT_STAGES,), parent_stages_table),
                                     RenderedTable("fuzz", PAGE, (FUZZ,), fuzz_table),
                                     RenderedTable("streaming", PAGE, (STREAMING,), streaming_table),
                                     RenderedTable("mrv-norvig", PAGE, MRV_NORVIG, mrv_norvig_table),
                                     RenderedTable("frisch", PAGE, (FRISCH,), frisch_table),
                                     RenderedTable("fast-paths-before", PAGE, (FAST_PATHS,),
                                                   fast_paths_table("before/now")),
                                     RenderedTable("fast-paths-readable", PAGE, (FAST_PATHS,),
                                                   fast_paths_table("fast/readable")),
                                     rendered("fast-before-9x9", BEFORE_9X9, "now against before"),
                                     RenderedTable("defaults-qwh", PAGE, (DEFAULTS_QWH,),
                                                   defaults_table("defaults_qwh.json", (("order 30", "qwh30"),
                                                                                        ("order 25", "qwh25")))),
                                     RenderedTable("defaults-killers", PAGE, (DEFAULTS_KILLERS,),
                                                   defaults_table("defaults_killers.json",
                                                                  (("cages only (5)", "generated_killer"),
                                                                   ("with a few givens (6)", "killers_givens")))),
                                     RenderedTable("html-report", PAGE, (HTML,), html_table),
                                     *(rendered(f"cpsat-{part}", CPSAT, part)
                                       for part in ("baseline", "encodings", "workers", "enumeration", "presolve",
                                                    "csp")))
