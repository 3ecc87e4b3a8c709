"""The manual's figures (docs/experiments.md, docs/results.md, docs/teaching.md) and the
sections of bench/README.md no target points to, registered as bench/figures.py registers
its own (issue 34, item 6); bench/figures.py adds ``FIGURES`` to its list.

A table whose cells are all read from kept JSON files is a ``RenderedTable``: the page must
show exactly what its ``render`` makes of the kept files (tests/test_figures_docs.py checks
it without re-running anything), and the numbers its text relies on are figures as well.
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.figure_base import ROOT, Figure, Outputs, decoded


@dataclass(frozen=True)
class RenderedTable:
    """A table of a page made from kept JSON files: its lines are ``render``'s."""

    name: str
    page: str
    files: tuple[str, ...]
    render: Callable[[Outputs], list[str]]

    def kept(self) -> dict[str, Path]:
        """The kept files by base name (a missing one left out)."""
        return {Path(file).name: ROOT / file for file in self.files if (ROOT / file).exists()}

    def problems(self) -> list[str]:
        """What is wrong: a kept file missing, or the page not showing the rendering."""
        outputs = self.kept()
        missing = [file for file in self.files if Path(file).name not in outputs]
        if missing:
            return [f"no kept {', '.join(missing)}"]
        page = (ROOT / self.page).read_text(encoding="utf-8")
        lines = self.render(outputs)
        return [] if "\n".join(lines) in page else [f"{self.page} does not show the table {self.name} as rendered:\n"
                                                      + "\n".join(lines)]


def row(*cells: object) -> str:
    """A Markdown table row."""
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


# ---------------------------------------------------------------- docs/teaching.md

TEACHING = "docs/teaching.md"
INNIES = "bench/figures/innies.json"


def innies_table(outputs: Outputs) -> list[str]:
    """Each killer's guesses and score with and without innies and outies (bench_innies.py)."""
    lines = ["| puzzle | rate guesses before | after | score before | after | explain guesses before | after |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for each in decoded(outputs["innies.json"])["puzzles"]:
        lines.append(row(each["puzzle"], each["rate_guesses_before"], each["rate_guesses_after"],
                         each["score_before"], each["score_after"], each["explain_guesses_before"],
                         each["explain_guesses_after"]))
    return lines


SE = "bench/figures/rating_vs_se.json"
SE_FILES = (("evaluation sample", "exchange_diabolical_sample320.txt"), ("bundled 60", "exchange_diabolical_se60.txt"))


def se_file(outputs: Outputs, file: str) -> dict[str, Any]:
    return next(each for each in decoded(outputs["rating_vs_se.json"])["files"] if each["file"] == file)


def se_table(outputs: Outputs) -> list[str]:
    """The agreement with Sudoku Explainer per file (bench/rating_vs_se.py)."""
    lines = ["| file | puzzles (SE rating) | solved without a guess | Spearman with SE (95% bootstrap interval) "
             "| CPU a puzzle: median, max |", "|---|---|---|---|---|"]
    for label, file in SE_FILES:
        each = se_file(outputs, file)
        ratings = [band["se"] for band in each["by_rating"]]
        kept, alone = each["kept"], each["kept"] - each["guessed"]
        spearman = f"{each['spearman']:.2f}"
        lines.append(row(label, f"{kept} ({min(ratings):.1f} to {max(ratings):.1f})",
                         f"{alone} ({100 * alone / kept:.0f}%)",
                         f"{'**' + spearman + '**' if file.endswith('320.txt') else spearman} "
                         f"({each['low']:.2f} to {each['high']:.2f})",
                         f"{each['median_cpu_s']:.2f} s, {each['max_cpu_s']:.1f} s"))
    return lines


def se_by_rating_table(outputs: Outputs) -> list[str]:
    """Per SE rating on the evaluation sample: puzzles, our median score, our two most common
    hardest techniques; the ratings in two halves side by side."""
    bands = se_file(outputs, SE_FILES[0][1])["by_rating"]
    cells = [[f"{band['se']:.1f}", band["puzzles"], f"{band['median']:.1f}",
              ", ".join(name for name, _ in band["techniques"][:2])] for band in bands]
    half = (len(cells) + 1) // 2
    left, right = cells[:half], cells[half:] + [["", "", "", ""]] * (2 * half - len(cells))
    half_header = "SE | puzzles | ours | our hardest (most common two)"
    lines = [f"| {half_header} | {half_header} |", "|---|---:|---:|---|---|---:|---:|---|"]
    return lines + [row(*one, *other) for one, other in zip(left, right)]


RATE = "bench/figures/rate_sets.json"
RATE_COMMANDS = (("python", "bench/bench_rate_sets.py", "--json", "{out}/rate_sets.json"),)


def rate_set(outputs: Outputs, name: str) -> dict[str, Any]:
    return next(each for each in decoded(outputs["rate_sets.json"])["sets"] if each["name"] == name)


def rate_table(outputs: Outputs) -> list[str]:
    """rate's summary of each collection (bench_rate_sets.py)."""
    lines = ["| set (20 puzzles each) | hardest technique needed | score min | lower quartile | median "
             "| upper quartile | max |", "|---|---|---:|---:|---:|---:|---:|"]
    for each in decoded(outputs["rate_sets.json"])["sets"]:
        techniques = ", ".join(f"{name} {count}" for name, count in each["summary"]["techniques"].items())
        guesses = [record["guesses"] for record in each["puzzles"] if record["guesses"]]
        if guesses:
            techniques += f" ({min(guesses)} to {max(guesses)} guesses)"
        score = each["summary"]["score"]
        quartiles = (f"{score[key]:.2f}" for key in ("min", "q1", "median", "q3", "max"))
        lines.append(row(each["name"], techniques, *quartiles))
    return lines


def rate_value(name: str, read: Callable[[dict[str, Any]], float]) -> Callable[[Outputs], float]:
    return lambda outputs: float(read(rate_set(outputs, name)))


def _rate_figures() -> tuple[Figure, ...]:
    """The medians that rise in the order the collections are known for, and what the
    forum's hardest cost the complete search."""
    hardest = "forum hardest (SE > 11)"
    def guesses(each: dict[str, Any]) -> list[int]:
        return [record["guesses"] for record in each["puzzles"]]
    return (
        *(Figure(f"rate-{key}-median", TEACHING, f"| {name} |", RATE_COMMANDS, (RATE,),
                 rate_value(name, lambda each: each["summary"]["score"]["median"]), median, median,
                 what=f"count-based: rate's median score on {name}'s 20")
          for key, name, median in (("easy50", "easy50", 1.5), ("top95", "top95", 4.3),
                                    ("hardest", hardest, 14.205))),
        Figure("rate-hardest-complete", TEACHING, "all 20 rated to the end", RATE_COMMANDS, (RATE,),
               rate_value(hardest, lambda each: sum(record["complete"] for record in each["puzzles"])), 20, 20,
               what="count: the forum's hardest rated to the end within the limit"),
        Figure("rate-hardest-median-guesses", TEACHING, "makes 5 to 49 guesses (18.5 the median", RATE_COMMANDS,
               (RATE,), rate_value(hardest, lambda each: statistics.median(guesses(each))), 18.5, 18.5,
               what="count: the median guesses of the complete search on the forum's hardest"),
        Figure("rate-hardest-cpu", TEACHING, "4.0 s of CPU on average", RATE_COMMANDS, (RATE,),
               rate_value(hardest, lambda each: round(each["cpu_s"] / len(each["puzzles"]), 1)), 2.0, 7.0,
               what="time: CPU seconds a puzzle of the forum's hardest (4.0 at load 4-7, 3.4 at load 5; a "
                    "stated tolerance of 2-7 s for the machine and its load)"),
    )


# ---------------------------------------------------------------- docs/experiments.md

EXPERIMENTS = "docs/experiments.md"


def number(value: float) -> str:
    """A count or a median of counts as the tables show it: 1081.5, 52.5, 46."""
    return f"{value:g}" if abs(value) < 1e6 else f"{value:,.0f}"


def medians(outputs: Outputs, file: str, configuration: str, counter: str,
            key: Callable[[dict[str, Any]], float]) -> dict[float, float]:
    """A configuration's median counter over its runs of a saved run, by key (sorted)."""
    groups: dict[float, list[float]] = {}
    for run in decoded(outputs[file])["runs"]:
        if run["configuration"] == configuration:
            groups.setdefault(key(run), []).append(run[counter])
    return {value: statistics.median(counts) for value, counts in sorted(groups.items())}


def givens_of(run: dict[str, Any]) -> float:
    return sum(c not in ".0" for c in run["puzzle"].split()[0])


def holes_of(run: dict[str, Any]) -> float:
    grid = run["puzzle"].split()[0]
    return round(sum(c in ".0" for c in grid) / len(grid), 2)


GIVENS_ROWS = (("`forward`: median decisions", "forward", "nodes"),
               ("`forward`: median backtracks", "forward", "backtracks"),
               ("`mrv`: median decisions", "mrv", "nodes"),
               ("`fast` (its 9x9 band kernel): median guesses", "fast", "nodes"))


def givens_table(outputs: Outputs) -> list[str]:
    """Median counters by the number of givens (bench_givens.py)."""
    puzzles = Counter(givens_of(run) for run in decoded(outputs["givens.json"])["runs"]
                      if run["configuration"] == "forward")
    lines = [row("givens (puzzles)", *(f"{count:g} ({puzzles[count]})" for count in sorted(puzzles))),
             row(*["---"] * (len(puzzles) + 1)).replace(" ", "")]
    for label, configuration, counter in GIVENS_ROWS:
        found = medians(outputs, "givens.json", configuration, counter, givens_of)
        lines.append(row(label, *(number(found[count]) for count in sorted(puzzles))))
    return lines


QWH_ROWS = (("fast", "backtracks"), ("pysat", "conflicts"), ("cpsat", "conflicts"))


def qwh_table(outputs: Outputs) -> list[str]:
    """Each configuration's median counter along the hole fraction, its peak in bold
    (bench_qwh_phase.py)."""
    lines = ["| configuration | measure | medians |", "|---|---|---|"]
    for configuration, counter in QWH_ROWS:
        found = medians(outputs, "qwh_phase.json", configuration, counter, holes_of)
        peak = max(found, key=lambda fraction: (found[fraction], -fraction))
        shown = [f"**{number(value)}**" if fraction == peak else number(value) for fraction, value in found.items()]
        lines.append(row(configuration, counter, ", ".join(shown)))
    return lines


CONSISTENCY_SETS = ("puzzles/top95.txt", "puzzles/forum_hardest_1106.txt", "puzzles/16x16_gecode_janko.txt",
                    "puzzles/16x16_forum_blue_ultimate.txt")


def consistency_table(outputs: Outputs) -> list[str]:
    """Puzzles each level settles with no search, and the open cells it fixes
    (bench_consistency.py)."""
    found = decoded(outputs["consistency.json"])
    sets = {each["name"]: each for each in found["sets"]}
    lines = [row("level", *(f"{name.removeprefix('puzzles/')} ({sets[name]['puzzles']})" for name in CONSISTENCY_SETS),
                 "what it is"), row(*["---"] * (len(CONSISTENCY_SETS) + 2)).replace(" ", "")]
    for level, what in found["levels"].items():
        cells = []
        for name in CONSISTENCY_SETS:
            got = sets[name]["levels"][level]
            cells.append(f"{got['settled']} settled, {got['mean_fixed']:.1f} fixed ({100 * got['fixed_share']:.0f}%)")
        lines.append(row(level, *cells, what))
    return lines


def encodings_table(outputs: Outputs) -> list[str]:
    """The four CNF encodings on the generated 16x16 (a saved run's summary)."""
    summary = {each["configuration"]: each for each in decoded(outputs["encodings_16x16.json"])["summary"]}
    lines = ["| configuration | mean conflicts | mean nodes | solved | PAR-2 | median s | max s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name in ("simplified", "extended", "minimal", "efficient"):
        each = summary[name]
        lines.append(row(name, f"{each['mean_conflicts']:,.1f}", f"{each['mean_nodes']:,.1f}", each["solved"],
                         f"{each['par']:.3g}", f"{each['median_s']:.3g}", f"{each['max_s']:.3g}"))
    return lines


def consistency_settled(puzzle_set: str, level: str) -> Callable[[Outputs], float]:
    """Puzzles of a set a consistency level settles with no search."""
    def read(outputs: Outputs) -> float:
        sets = {each["name"]: each for each in decoded(outputs["consistency.json"])["sets"]}
        return float(sets[puzzle_set]["levels"][level]["settled"])
    return read


CONSISTENCY = (("python", "bench/bench_consistency.py", "--json", "{out}/consistency.json",
                "--plot", "{out}/consistency.png"),)


def _consistency_figures() -> tuple[Figure, ...]:
    """The counts the text under the consistency table compares (costly: sac on the forum's
    hardest takes most of half an hour)."""
    return tuple(
        Figure(f"experiments-consistency-{name}-{level}", EXPERIMENTS, shown, CONSISTENCY, ("bench/consistency.json",),
               consistency_settled(puzzle_set, level), count, count, cheap=False,
               what=f"count: {puzzle_set}'s puzzles {level} settles with no search")
        for name, puzzle_set, level, count, shown in (
            ("top95", "puzzles/top95.txt", "gac", 15, "15 of top95 against 0"),
            ("top95", "puzzles/top95.txt", "singles", 0, "15 of top95 against 0"),
            ("janko", "puzzles/16x16_gecode_janko.txt", "gac", 47, "Janko's 16x16 47 against 43"),
            ("janko", "puzzles/16x16_gecode_janko.txt", "singles", 43, "Janko's 16x16 47 against 43"),
            ("hardest", "puzzles/forum_hardest_1106.txt", "sac", 0, "settled by *no* level")))


def _givens_figures() -> tuple[Figure, ...]:
    """The counts the text under the givens table relies on (bench_givens.py)."""
    commands = (("python", "bench/bench_givens.py", "--json", "{out}/givens.json", "--plot", "{out}/givens_nodes.png",
                 "--time-plot", "{out}/givens_time.png"),)
    def median_at(configuration: str, counter: str, count: int) -> Callable[[Outputs], float]:
        return lambda outputs: medians(outputs, "givens.json", configuration, counter, givens_of)[count]
    return (
        Figure("givens-forward-backtracks-35", EXPERIMENTS, "| `forward`: median backtracks |", commands,
               ("bench/givens.json",), median_at("forward", "backtracks", 35), 0, 0,
               what="count: forward checking's median backtracks on the 35-given puzzles"),
        Figure("givens-mrv-17", EXPERIMENTS, "| `mrv`: median decisions | 0 |", commands,
               ("bench/givens.json",), median_at("mrv", "nodes", 17), 0, 0,
               what="count: mrv's median decisions on the 17-clue puzzles (propagation settles most)"),
    )


def count(value: float | None) -> str:
    """A counter as the tables show it: thousands separated, one decimal when fractional."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def decimal(value: float) -> str:
    """Three significant digits, never in exponent form: 0.0000685, 0.0242, 1.25."""
    shown = f"{value:.3g}"
    return f"{float(shown):.7f}".rstrip("0") if "e" in shown else shown


def summary_of(outputs: Outputs, file: str) -> dict[str, dict[str, Any]]:
    """A saved run's summary rows by configuration (its only set)."""
    return {each["configuration"]: each for each in decoded(outputs[file])["summary"]}


def default_run_table(outputs: Outputs) -> list[str]:
    """``python compare.py``'s summary, the columns that say the most (a saved run)."""
    lines = ["| configuration | puzzles | solved | wrong | median s | mean cpu s | mean nodes | nodes are |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name, each in summary_of(outputs, "default_run.json").items():
        lines.append(row(name, each["puzzles"], each["solved"], each["wrong"], decimal(each["median_s"]),
                         decimal(each["mean_cpu_s"]), count(each["mean_nodes"]), each["nodes_are"] or "-"))
    return lines


def default_nodes(configuration: str) -> Callable[[Outputs], float]:
    return lambda outputs: round(float(summary_of(outputs, "default_run.json")[configuration]["mean_nodes"]), 1)


DEFAULT_RUN = "bench/figures/default_run.json"


def _default_run_figures() -> tuple[Figure, ...]:
    """The default run's counts: every puzzle solved, and the decisions of the backends whose
    search is deterministic."""
    commands = (("python", "compare.py", "--json", "{out}/default_run.json"),)
    def fewest_solved(outputs: Outputs) -> float:
        return float(min(each["solved"] for each in summary_of(outputs, "default_run.json").values()))
    solved = Figure("default-run-solved", EXPERIMENTS, "Every backend, the textbook backtracker too, solved all 13",
                    commands, (DEFAULT_RUN,), fewest_solved, 13, 13,
                    what="count: the fewest default puzzles a backend solved (all 13)")
    return (solved, *(
        Figure(f"default-run-{name}-nodes", EXPERIMENTS, f"| {name} |", commands, (DEFAULT_RUN,), default_nodes(name),
               nodes, nodes, what=f"count: {name}'s mean {kind} over the 13 default puzzles")
        for name, nodes, kind in DEFAULT_NODES))


DEFAULT_NODES = (("mrv", 19.3, "decisions"), ("dlx", 380.7, "rows tried"), ("fast", 4.6, "guesses (its band kernel)"))
"""(configuration, mean nodes, what they are) registered for the default run."""


HARDEST = "bench/figures/hardest_pivot.json"
PIVOT = ("backtrack", "mrv", "singles", "sat", "cpsat")


def pivot_table(outputs: Outputs) -> list[str]:
    """Each configuration's nodes per puzzle of hardest.txt (``report --per-puzzle --pivot``)."""
    runs = decoded(outputs["hardest_pivot.json"])["runs"]
    nodes = {(run["index"], run["configuration"]): run["nodes"] for run in runs}
    lines = [row("puzzle", *PIVOT), row(*["---:"] * (len(PIVOT) + 1))]
    for index in sorted({run["index"] for run in runs}):
        lines.append(row(index + 1, *(count(nodes[index, name]) for name in PIVOT)))
    return lines


def _pivot_figures() -> tuple[Figure, ...]:
    """The textbook backtracker's calls against mrv's decisions on the eleven hardest."""
    commands = (("python", "compare.py", "run", "puzzles/hardest.txt", "--solvers",
                 "backtrack,mrv,singles=mrv:inference=singles,sat,cpsat", "--json", "{out}/hardest_pivot.json"),)
    def total(name: str) -> Callable[[Outputs], float]:
        return lambda outputs: float(sum(run["nodes"] for run in decoded(outputs["hardest_pivot.json"])["runs"]
                                         if run["configuration"] == name))
    return tuple(Figure(f"pivot-{name}-total", EXPERIMENTS, shown, commands, (HARDEST,), total(name), value, value,
                        what=f"count: {name}'s nodes summed over the eleven hardest")
                 for name, value, shown in PIVOT_TOTALS)


PIVOT_TOTALS = (("backtrack", 1050007, "1,050,007 calls"), ("mrv", 101, "101 decisions"),
                ("singles", 93, "93 for singles-only"))


# ---------------------------------------------------------------- docs/results.md

RESULTS = "docs/results.md"
SCALING = "bench/scaling.json"
SCALING_BACKENDS = ("backtrack", "mrv", "cpsat", "sat", "csp")


def seconds(value: float) -> str:
    """A time as the results tables show it: ms under a second, 2-3 significant digits."""
    return f"{value * 1000:.2g} ms" if value < 0.01 else f"{value * 1000:.3g} ms" if value < 1 else f"{value:.3g} s"


def scaling_table(outputs: Outputs) -> list[str]:
    """Mean time per solved puzzle by size and backend, or how many ran past the limit
    (bench_scaling.py's kept run)."""
    found = decoded(outputs["scaling.json"])
    lines = [row("size", *SCALING_BACKENDS), row(*["---"] * (len(SCALING_BACKENDS) + 1))]
    for size in sorted({run["size"] for run in found["runs"]}):
        cells = []
        for backend in SCALING_BACKENDS:
            runs = [run for run in found["runs"] if run["backend"] == backend and run["size"] == size]
            late = sum(run["status"] == "timeout" for run in runs)
            solved = [run["time"] for run in runs if run["status"] == "solved"]
            cells.append(f"{late} of {len(runs)} over {found['time_limit']:g} s" if late
                         else seconds(statistics.fmean(solved)))
        lines.append(row(f"{size}x{size}", *cells))
    return lines


def scaling_nodes(backend: str, size: int) -> Callable[[Outputs], float]:
    def read(outputs: Outputs) -> float:
        nodes = [run["nodes"] for run in decoded(outputs["scaling.json"])["runs"]
                 if run["backend"] == backend and run["size"] == size and run["status"] == "solved"]
        return float(round(statistics.fmean(nodes)))
    return read


def _scaling_figures() -> tuple[Figure, ...]:
    """The textbook backtracker's calls the text under the scaling table quotes (costly: its
    timeouts take minutes)."""
    commands = (("python", "bench/bench_scaling.py", "--backends", "backtrack,mrv,cpsat,sat,csp", "--per-size", "6",
                 "--json", "{out}/scaling.json", "--plot", "{out}/scaling.png"),)
    return (Figure("results-scaling-backtrack-9x9-nodes", RESULTS, "242,083 calls per 9x9 puzzle on average",
                   commands, (SCALING,), scaling_nodes("backtrack", 9), 242083, 242083, cheap=False,
                   what="count: the textbook backtracker's mean calls on the six generated 9x9"),)


def ms(value: float) -> str:
    """Milliseconds, 2-3 significant digits."""
    return f"{value * 1000:.2g} ms" if value < 0.01 else f"{value * 1000:.3g} ms"


HARD_SETS = "bench/figures/hard_sets.json"
HARD_COLUMNS = ("fast", "mrv", "sat", "cpsat", "cpsat-integer")


def hard_sets_table(outputs: Outputs) -> list[str]:
    """Median time a puzzle per set, with `fast`'s guesses or decisions and `mrv`'s decisions
    (a saved run, counting to two)."""
    summary = decoded(outputs["hard_sets.json"])["summary"]
    lines = [row("set", "`fast` (mean guesses on 9x9, decisions on 16x16)", "`mrv` (mean decisions)", "`sat`",
                 "`cpsat` (`boolean`)", "`cpsat` (`integer`)"), "| --- | --- | --- | --- | --- | --- |"]
    for name in dict.fromkeys(each["set"] for each in summary):
        rows = {each["configuration"]: each for each in summary if each["set"] == name}
        cells = []
        for configuration in HARD_COLUMNS:
            each = rows[configuration]
            cell = ms(each["median_s"])
            if configuration in ("fast", "mrv"):
                cell += f" ({count(round(each['mean_nodes'], 1))})"
            cells.append(cell)
        file, size = name.split()
        lines.append(row(f"{file.removesuffix('.txt')} ({size}, {rows['fast']['puzzles']})", *cells))
    return lines


def hard_nodes(name: str, configuration: str) -> Callable[[Outputs], float]:
    def read(outputs: Outputs) -> float:
        rows = [each for each in decoded(outputs["hard_sets.json"])["summary"]
                if each["set"] == name and each["configuration"] == configuration]
        return round(float(rows[0]["mean_nodes"]), 1)
    return read


def _hard_sets_figures() -> tuple[Figure, ...]:
    """The decisions the text under the hard sets' table relies on."""
    commands = (("python", "compare.py", "run", "puzzles/top95.txt", "puzzles/forum_hardest_1106.txt",
                 "puzzles/generated_16x16.txt", "--solvers", "fast,mrv,sat,cpsat,cpsat-integer=cpsat:encoding=integer",
                 "--max-solutions", "2", "--json", "{out}/hard_sets.json"),)
    return tuple(Figure(f"hard-sets-{key}-{configuration}-nodes", RESULTS, shown, commands, (HARD_SETS,),
                        hard_nodes(name, configuration), value, value,
                        what=f"count: {configuration}'s mean nodes a puzzle of {name}, counting to two")
                 for key, name, configuration, value, shown in HARD_NODES)


HARD_NODES = (("hardest", "forum_hardest_1106.txt 9x9", "mrv", 398.3, "costs `mrv` 398.3"),
              ("hardest", "forum_hardest_1106.txt 9x9", "fast", 141.4, "| forum_hardest_1106 (9x9, 375) | "),
              ("top95", "top95.txt 9x9", "mrv", 29.8, "settle a top95 puzzle in 29.8 decisions"),
              ("16x16", "generated_16x16.txt 16x16", "mrv", 950.0, "| generated_16x16 (16x16, 55) |"))


KILLERS = "bench/figures/killers_9x9.json"


def killers_table(outputs: Outputs) -> list[str]:
    """Every backend on the generated killers, proving uniqueness (a saved run's summary)."""
    lines = ["| backend | solved (unique) | timeouts | unsupported | median s | max s | mean cpu s | mean nodes |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name, each in summary_of(outputs, "killers_9x9.json").items():
        ran = each["runs"] > each["unsupported"]
        mean = each["mean_nodes"]
        nodes = f"{count(round(mean, 1))} {each['nodes_are']}" if mean is not None else ""
        times = [decimal(each[key]) if ran else "" for key in ("median_s", "max_s", "mean_cpu_s")]
        lines.append(row(name, each["solved"], each["timeouts"], each["unsupported"], *times, nodes))
    return lines


def _killer_figures() -> tuple[Figure, ...]:
    """What the text under the killers' table relies on: who solves all five, and the
    decisions of the two backends that make the same ones."""
    commands = (("python", "compare.py", "run", "puzzles/generated_killer_9x9.txt", "--unique", "--timeout", "30",
                 "--json", "{out}/killers_9x9.json"),)
    def solved(name: str) -> Callable[[Outputs], float]:
        return lambda outputs: float(summary_of(outputs, "killers_9x9.json")[name]["solved"])
    def nodes(name: str) -> Callable[[Outputs], float]:
        return lambda outputs: round(float(summary_of(outputs, "killers_9x9.json")[name]["mean_nodes"]), 1)
    return (*(Figure(f"killers-{name}-solved", RESULTS, f"| {name} | 5 |", commands, (KILLERS,), solved(name), 5, 5,
                     cheap=False, what=f"count: generated killers {name} proves unique within 30 s")
              for name in ("fast", "sat", "cpsat", "dimacs")),
            *(Figure(f"killers-{name}-nodes", RESULTS, "the same 4,060.4 mean decisions", commands, (KILLERS,),
                     nodes(name), 4060.4, 4060.4, cheap=False,
                     what=f"count: {name}'s mean decisions on the generated killers")
              for name in ("fast", "mrv")))


QWH_ORDERS = "bench/figures/qwh_orders.json"


def qwh_orders_table(outputs: Outputs) -> list[str]:
    """Each backend's time on one QWH instance of each order, ``-`` past the limit."""
    found = decoded(outputs["qwh_orders.json"])
    names = [each["configuration"] for each in found["configurations"]]
    runs = {(run["n"], run["configuration"]): run for run in found["runs"]}
    lines = [row("order", *names), row(*["---"] * (len(names) + 1))]
    for order in sorted({run["n"] for run in found["runs"]}):
        cells = []
        for name in names:
            run = runs[order, name]
            cells.append(f"{decimal(run['time_s'])} s" if run["status"] == "solved" else "-")
        lines.append(row(order, *cells))
    return lines


def _qwh_order_figures() -> tuple[Figure, ...]:
    """The decisions the text under the QWH table compares: restarts (`fast`) against
    depth-first mrv (`mrv`) on the same instances."""
    commands = (*(("python", "compare.py", "generate", "--variant", "latin", "--size", str(order), "--holes", "0.42",
                   "--count", "1", "--seed", "23", "-o", f"{{out}}/qwh_{order}.txt") for order in (15, 20, 25, 30)),
                ("python", "compare.py", "run", *(f"{{out}}/qwh_{order}.txt" for order in (15, 20, 25, 30)),
                 "--timeout", "10", "--json", "{out}/qwh_orders.json"))
    def nodes(name: str, order: int) -> Callable[[Outputs], float]:
        return lambda outputs: float(next(run["nodes"] for run in decoded(outputs["qwh_orders.json"])["runs"]
                                          if run["configuration"] == name and run["n"] == order))
    return tuple(Figure(f"qwh-orders-{name}-{order}-nodes", RESULTS, shown, commands, (QWH_ORDERS,), nodes(name, order),
                        value, value, what=f"count: {name}'s decisions on the QWH instance of order {order}")
                 for name, order, value, shown in (("fast", 30, 18952, "18,952 decisions at order 30"),
                                                   ("fast", 20, 26, "(26 and\n1,073 against"),
                                                   ("fast", 25, 1073, "(26 and\n1,073 against"),
                                                   ("mrv", 20, 34, "depth-first mrv's 34 and 2,834"),
                                                   ("mrv", 25, 2834, "depth-first mrv's 34 and 2,834")))


CP_STUDY = ("bench/figures/cp/nine.json", "bench/figures/cp/sixteen.json", "bench/figures/cp/killer.json")
CP_SETS = (("nine.json", "top95.txt", "top95 (9x9)"), ("nine.json", "hardest.txt", "hardest (11, 9x9)"),
           ("sixteen.json", "generated_16x16.txt", "generated 16x16 (55)"),
           ("killer.json", "generated_killer_9x9.txt", "generated killers (5, 9x9, no givens)"))
CP_LABELS = {"minizinc": "minizinc (Gecode, domain)", "choco": "choco (AC)", "asp": "asp (basic)"}


def cp_runs(outputs: Outputs, file: str, puzzles: str) -> dict[str, list[dict[str, Any]]]:
    """A study part's runs on one puzzle file, by configuration (in the run's order)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for run in decoded(outputs[file])["runs"]:
        if Path(run["file"]).name == puzzles:
            found.setdefault(run["configuration"], []).append(run)
    return found


def mean_of(runs: list[dict[str, Any]], field: str) -> float | None:
    """A counter's mean over every run that reports it (timeouts included), as bench_cp.py's
    table takes it."""
    values = [float(run[field]) for run in runs if isinstance(run.get(field), (int, float))]
    return statistics.mean(values) if values else None


def cp_table(outputs: Outputs) -> list[str]:
    """bench_cp.py's study: solved, median time and mean counters per set and configuration."""
    lines = ["| set | configuration | solved | median s | mean nodes | mean conflicts |",
             "| --- | --- | --- | --- | --- | --- |"]
    for file, puzzles, label in CP_SETS:
        for number, (name, runs) in enumerate(cp_runs(outputs, file, puzzles).items()):
            solved = sum(run["category"] == "correct" for run in runs)
            median = statistics.median(float(run["time_s"]) for run in runs)
            nodes, conflicts = (mean_of(runs, field) for field in ("nodes", "conflicts"))
            lines.append(row(label if number == 0 else "", CP_LABELS.get(name, name), f"{solved}/{len(runs)}",
                             decimal(median),
                             count(None if nodes is None else round(nodes, 1)),
                             count(None if conflicts is None else round(conflicts, 1))))
    return lines


LATIN_SEARCH = "bench/figures/latin_search.json"
LATIN_CONFIGS = ("fast", "fast:branching=mrv", "fast:learning=conflicts")


def latin_search_table(outputs: Outputs) -> list[str]:
    """`fast`'s three searches on five QWH instances of each order (first solution, 10 s
    limit): how many each solved, their mean time; the table sits in a list, so indented."""
    runs = decoded(outputs["latin_search.json"])["runs"]
    lines = [row("order", "`fast` (wdeg, restarts)", "`fast:branching=mrv`", "`fast:learning=conflicts`"),
             "| --- | --- | --- | --- |"]
    for order in sorted({run["n"] for run in runs}):
        cells = []
        for name in LATIN_CONFIGS:
            mine = [run for run in runs if run["n"] == order and run["configuration"] == name]
            solved = [run["time_s"] for run in mine if run["status"] == "solved"]
            late = len(mine) - len(solved)
            cell = f"{len(solved)}, mean {decimal(statistics.fmean(solved))} s" if solved else "0"
            cells.append(cell + (f", {late} past the limit" if late else ""))
        lines.append(row(order, *cells))
    return [f"  {line}" for line in lines]


def _latin_search_figures() -> tuple[Figure, ...]:
    """How many of the twenty each search solves (restarts and learning all of them)."""
    orders = (15, 20, 25, 30)
    commands = (*(("python", "compare.py", "generate", "--variant", "latin", "--size", str(order), "--holes", "0.42",
                   "--count", "5", "--seed", "23", "-o", f"{{out}}/qwh5_{order}.txt") for order in orders),
                ("python", "compare.py", "run", *(f"{{out}}/qwh5_{order}.txt" for order in orders), "--solvers",
                 ",".join(LATIN_CONFIGS), "--timeout", "10", "--json", "{out}/latin_search.json"))
    def solved(name: str) -> Callable[[Outputs], float]:
        return lambda outputs: float(sum(run["status"] == "solved" and run["configuration"] == name
                                         for run in decoded(outputs["latin_search.json"])["runs"]))
    return tuple(Figure(f"latin-search-{key}-solved", RESULTS, "restarts and learning both solve all 20", commands,
                        (LATIN_SEARCH,), solved(name), 20, 20,
                        what=f"count: QWH instances (five of each order 15-30) {name} solves within 10 s")
                 for key, name in (("wdeg", "fast"), ("learning", "fast:learning=conflicts")))


def cp_mean(file: str, puzzles: str, configuration: str, field: str) -> Callable[[Outputs], float]:
    """A study configuration's mean counter on one puzzle file, to one decimal."""
    def read(outputs: Outputs) -> float:
        found = mean_of(cp_runs(outputs, file, puzzles)[configuration], field)
        return float("nan") if found is None else round(found, 1)
    return read


def _cp_figures() -> tuple[Figure, ...]:
    """The counts the text under the CP study's table compares (the runs that finish: their
    counters do not depend on the machine; costly: the study's timeouts take minutes)."""
    commands = (("python", "bench/bench_cp.py", "study", "{out}"),)
    return tuple(Figure(f"cp-{key}-{configuration}-{field}", RESULTS, shown, commands, CP_STUDY,
                        cp_mean(file, puzzles, configuration, field), value, value, cheap=False,
                        what=f"count: {configuration}'s mean {field} on {puzzles} (every run finished)")
                 for key, file, puzzles, configuration, field, value, shown in CP_COUNTS)


CP_COUNTS: tuple[tuple[str, str, str, str, str, float, str], ...] = (
    ("top95", "nine.json", "top95.txt", "minizinc", "nodes", 22.4, "needs 22.4 Gecode nodes"),
    ("top95", "nine.json", "top95.txt", "mzn-bounds", "nodes", 323.5, "bounds needs 323.5"),
    ("top95", "nine.json", "top95.txt", "mzn-pairwise", "nodes", 1036.6, "decomposition 1,036.6"),
    ("top95", "nine.json", "top95.txt", "cpsat", "nodes", 30.7, "(22.4 against 30.7 on top95"),
    ("top95", "nine.json", "top95.txt", "asp", "nodes", 275.1, "needs 275.1 choices per top95 puzzle"),
    ("top95", "nine.json", "top95.txt", "asp-extended", "nodes", 20.1, "hidden singles: 20.1"),
    ("16x16", "sixteen.json", "generated_16x16.txt", "minizinc", "nodes", 232.5, "the gap becomes 232.5 nodes"),
    ("16x16", "sixteen.json", "generated_16x16.txt", "cpsat", "nodes", 271.7, "232.5 against 271.7 on 16x16"),
    ("16x16", "sixteen.json", "generated_16x16.txt", "choco", "nodes", 127.8, "AC against BC is 127.8"),
    ("16x16", "sixteen.json", "generated_16x16.txt", "asp", "nodes", 3409.5, "3,409.5 per 16x16"),
    ("16x16", "sixteen.json", "generated_16x16.txt", "asp-extended", "nodes", 132.5, "20.1 and 132.5 choices"),
    ("killers", "killer.json", "generated_killer_9x9.txt", "cpsat", "nodes", 6763.4, "needs 6,763.4 branches"),
)


# ---------------------------------------------------------------- bench/README.md

README = "bench/README.md"


def scaling_cell(runs: list[dict[str, Any]], limit: float) -> str:
    """solved/total, the mean time (a timeout counted at the limit, then shown ``>=``), and the
    mean nodes and conflicts of the solved runs where the backend counts them."""
    solved = [run for run in runs if run["status"] == "solved"]
    late = len(runs) - len(solved)
    mean = statistics.fmean(limit if run["status"] != "solved" else run["time"] for run in runs)
    cell = f"{len(solved)}/{len(runs)}, {'>=' if late else ''}{mean:.4f} s"
    for counter, label in (("nodes", "nodes"), ("conflicts", "conflicts")):
        counts = [run[counter] for run in solved if run[counter] is not None]
        if counts:
            cell += f", {round(statistics.fmean(counts))} {label}"
    return cell


def scaling_readme_table(outputs: Outputs) -> list[str]:
    """bench_scaling.py's kept run per size and backend, as its section shows it."""
    found = decoded(outputs["scaling.json"])
    lines = [row("size", *(f"`{backend}`" for backend in SCALING_BACKENDS)),
             row(*["---"] * (len(SCALING_BACKENDS) + 1))]
    for size in sorted({run["size"] for run in found["runs"]}):
        cells = [scaling_cell([run for run in found["runs"] if run["backend"] == backend and run["size"] == size],
                              found["time_limit"]) for backend in SCALING_BACKENDS]
        lines.append(row(f"{size}x{size}", *cells))
    return lines


MEMORY_WAYS = (("one worker for all (the harness before workers were split)", "shared"),
               ("a worker per configuration", "per configuration"),
               ("a worker per configuration and grid side (the harness's)", "per configuration and grid size"),
               ("one worker, growth over a measured baseline", "baseline"),
               ("a fresh worker per run", "fresh per run"))


def memory_table(outputs: Outputs) -> list[str]:
    """Each way of measuring a run's peak against the outside measurement (bench_memory.py)."""
    rows = decoded(outputs["memory.json"])["accuracy"]
    lines = ["| way of measuring | peak over the outside measurement | runs within 0.8-1.5x |", "| --- | --- | --- |"]
    for label, mode in MEMORY_WAYS:
        ratios = [each[mode] / each["outside_mb"] for each in rows]
        within = sum(0.8 <= ratio <= 1.5 for ratio in ratios)
        lines.append(row(label, f"{min(ratios):.2f} - {max(ratios):.2f}", f"{within} of {len(ratios)}"))
    return lines


def _memory_figures() -> tuple[Figure, ...]:
    """The harness's way of measuring memory against the outside measurement, as the memory
    section of bench/README.md shows it (costly: minutes of fresh interpreters)."""
    def most(outputs: Outputs) -> float:
        rows = decoded(outputs["memory.json"])["accuracy"]
        return round(float(max(each["per configuration and grid size"] / each["outside_mb"] for each in rows)), 2)
    return (Figure("readme-memory-harness-most", README, "| a worker per configuration and grid side (the harness's) |",
                   (("python", "bench/bench_memory.py", "--json", "{out}/memory.json"),), ("bench/memory.json",), most,
                   1.0, 1.25, cheap=False,
                   what="ratio of memory: the harness's largest peak over a fresh interpreter's (within 1.25x)"),)


# ---------------------------------------------------------------- the registrations

FIGURES: tuple[Figure, ...] = (*_rate_figures(), *_default_run_figures(), *_pivot_figures(),
                               *_consistency_figures(), *_givens_figures(),
                               *_scaling_figures(), *_memory_figures(), *_hard_sets_figures(),
                               *_killer_figures(), *_qwh_order_figures(),
                               *_latin_search_figures(), *_cp_figures())
"""The figures of the manual's pages registered here (bench/figures.py adds them to its own)."""

TABLES: tuple[RenderedTable, ...] = (
    RenderedTable("rate-sets", TEACHING, (RATE,), rate_table),
    RenderedTable("innies", TEACHING, (INNIES,), innies_table),
    RenderedTable("rating-vs-se", TEACHING, (SE,), se_table),
    RenderedTable("rating-vs-se-by-rating", TEACHING, (SE,), se_by_rating_table),
    RenderedTable("default-run", EXPERIMENTS, (DEFAULT_RUN,), default_run_table),
    RenderedTable("hardest-pivot", EXPERIMENTS, (HARDEST,), pivot_table),
    RenderedTable("givens", EXPERIMENTS, ("bench/givens.json",), givens_table),
    RenderedTable("qwh-phase", EXPERIMENTS, ("bench/qwh_phase.json",), qwh_table),
    RenderedTable("consistency", EXPERIMENTS, ("bench/consistency.json",), consistency_table),
    RenderedTable("hard-sets", RESULTS, (HARD_SETS,), hard_sets_table),
    RenderedTable("killers", RESULTS, (KILLERS,), killers_table),
    RenderedTable("qwh-orders", RESULTS, (QWH_ORDERS,), qwh_orders_table),
    RenderedTable("cp-study", RESULTS, CP_STUDY, cp_table),
    RenderedTable("latin-search", RESULTS, (LATIN_SEARCH,), latin_search_table),
    RenderedTable("scaling", RESULTS, (SCALING,), scaling_table),
    RenderedTable("scaling-readme", README, (SCALING,), scaling_readme_table),
    RenderedTable("memory", README, ("bench/memory.json",), memory_table),
    RenderedTable("encodings", EXPERIMENTS, ("bench/figures/encodings_16x16.json",), encodings_table),
)
"""The tables made whole from kept JSON files."""


def spliced(text: str, old_header: str, lines: list[str]) -> str:
    """A page's text with the table whose header line is ``old_header`` replaced by ``lines``."""
    page = text.split("\n")
    start = page.index(old_header)
    end = start
    while end < len(page) and page[end].lstrip().startswith("|"):
        end += 1
    return "\n".join([*page[:start], *lines, *page[end:]])


def main(argv: list[str] | None = None) -> int:
    """Print each table as rendered from the kept files; with --write NAME HEADER, put one into
    its page in place of the table whose header line is HEADER."""
    import argparse  # noqa: PLC0415 - the command line only
    parser = argparse.ArgumentParser(description="the manual's tables as rendered from the kept JSON files")
    parser.add_argument("--write", nargs=2, metavar=("NAME", "HEADER"), help="replace a page's table by its rendering")
    args = parser.parse_args(argv)
    tables = {table.name: table for table in TABLES}
    if args.write:
        name, header = args.write
        if name not in tables:
            parser.error(f"no table named {name}; the tables: {', '.join(tables)}")
        table = tables[name]
        page = ROOT / table.page
        text = page.read_text(encoding="utf-8")
        if header not in text.split("\n"):
            parser.error(f"{table.page} has no line {header!r}")
        page.write_text(spliced(text, header, table.render(table.kept())), encoding="utf-8")
        return 0
    failed = False
    for table in TABLES:
        try:
            print(f"{table.name} ({table.page}):", *table.render(table.kept()), "", sep="\n")
        except (KeyError, IndexError, ValueError, StopIteration) as error:
            print(f"{table.name} ({table.page}): the kept files give no table: {type(error).__name__}: {error}\n")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
