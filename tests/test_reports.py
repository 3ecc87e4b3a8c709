"""Results people share (issue 35) and labels a reviewer accepts (issue 34 item 5), through the
command line's real parser (``cli.main`` in this process, or compare.py as a user runs it):
tables that fit the terminal, the column key off stdout, LaTeX for every table, the
regression gate, per-set statistics and pictures, Hill intervals and censored runs,
progress, run --first/--sample and the smaller items. No test asserts a time."""
from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from solvers.harness.cli import build_parser
from solvers.harness.commands.progress import Progress, SolveWatch
from solvers.harness.engine.configs import ConfigurationError, parse_one
from solvers.harness.pictures import tree_svg
from solvers.harness.results import curves, paired, report, summary_table, tails
from solvers.harness.tasks import Outcome
from solvers.result import Status

from .conftest import ROOT, cli, compare, compare_here

P4 = str(ROOT / "puzzles" / "small_4x4.txt")
REQUIRED = ("puzzle set", "configuration", "solved", "wrong", "timeouts", "PAR-2", "median s", "mean s")


def run_record(index: int, label: str, time_s: float, *, file: str = "p.txt", n: int = 4, repeat: int = 0,
               category: str = "correct", nodes: int | None = 5, cpu_s: float | None = None,
               seed: int | None = None) -> dict[str, Any]:
    """One saved run, as the JSON document holds it."""
    return {"file": file, "index": index, "line": index + 1, "size": f"{n}x{n}", "n": n, "puzzle": "." * n * n,
            "solver": label, "configuration": label, "backend": "mrv", "repeat": repeat,
            "options": {} if seed is None else {"seed": seed},
            "status": "solved" if category == "correct" else category, "category": category,
            "time_s": time_s, "cpu_s": time_s if cpu_s is None else cpu_s, "solutions": [], "complete": True,
            "reason": "verified", "stats": {} if nodes is None else {"nodes": nodes}, "nodes": nodes}


def document(runs: list[dict[str, Any]], probe: tuple[float, float] = (0.01, 0.01),
             cpu_probe: tuple[float, float] | None = None) -> dict[str, Any]:
    start, end = probe
    cpu = cpu_probe or probe
    calibration = {"start": {"wall_s": start, "cpu_s": cpu[0]}, "end": {"wall_s": end, "cpu_s": cpu[1]},
                   "moved": end / start - 1}
    return {"kind": "sudoku-methods-run", "version": 2, "limit_s": 1.0, "options": {},
            "calibration": calibration, "runs": runs}


def saved(path: Path, runs: list[dict[str, Any]], **calibration: Any) -> str:
    path.write_text(json.dumps(document(runs, **calibration)), encoding="utf-8")
    return str(path)


def two_configurations(slower: float = 1.0, puzzles: int = 20, cpu_slower: float | None = None,
                       file: str = "p.txt", n: int = 4) -> list[dict[str, Any]]:
    """Configurations a and b on the same puzzles, b ``slower`` times a's wall time."""
    runs = []
    for index in range(puzzles):
        base = 0.01 + 0.001 * index
        runs.append(run_record(index, "a", base, file=file, n=n))
        cpu = base * (cpu_slower if cpu_slower is not None else slower)
        runs.append(run_record(index, "b", base * slower, cpu_s=cpu, file=file, n=n))
    return runs


@pytest.fixture
def many(tmp_path: Path) -> str:
    """A saved run of five configurations with long names on two sets."""
    runs = []
    for label in ("mrv", "sat:encoding=extended", "dlx", "cpsat:encoding=integer", "backtrack"):
        runs += [run_record(i, label, 0.01 * (i + 1), file="puzzles/forum_hardest_1106.txt", n=9) for i in range(4)]
        runs += [run_record(i, label, 0.02 * (i + 1), file="puzzles/generated_16x16.txt", n=16) for i in range(3)]
    return saved(tmp_path / "many.json", runs)


# ---------------------------------------------------------------- terminal tables

@pytest.mark.parametrize("width", [100, 80])
def test_the_default_table_fits_the_terminal_and_keeps_the_required_columns(
        width: int, many: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    status, out, err = cli(capsys, "report", many)
    assert status == 0, err
    assert max(len(line) for line in out.splitlines()) <= width, out
    header = out.splitlines()[0]
    assert all(column in header for column in REQUIRED), header
    assert "left out to fit" in err and "--columns all" in err


def test_a_terminal_too_narrow_for_the_required_columns_still_gets_them(
        many: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    status, out, _ = cli(capsys, "report", many)
    header = out.splitlines()[0]
    assert status == 0 and all(column in header for column in REQUIRED) and "puzzles" not in header


def test_without_a_terminal_or_columns_every_column_with_something_to_say_is_shown(
        many: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    status, out, err = cli(capsys, "report", many)
    header = out.splitlines()[0]
    assert status == 0 and "mean s 95% CI" in header and "mean nodes" in header and "left out" not in err


@pytest.mark.parametrize("wanted, expected", [("all", list(summary_table.ALL)),
                                              ("set,median_s,solved", ["set", "median_s", "solved"])])
def test_columns_all_or_a_named_list_shows_those_in_that_order(
        wanted: str, expected: list[str], many: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # a narrow terminal does not cut a list asked for
    status, out, _ = cli(capsys, "report", many, "--columns", wanted, "--format", "csv")
    assert status == 0
    header = out.splitlines()[0].split(",")
    raw = summary_table.raw_keys(expected)
    assert header == [f"par{2:g}" if k == "par" else k for k in raw]


def test_an_unknown_column_is_refused_naming_the_valid_ones(many: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "report", many, "--columns", "set,speed")
    assert status == 2 and "unknown column 'speed'" in err and "median_s" in err


def test_the_column_key_is_never_on_stdout_and_on_stderr_when_asked(
        many: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = cli(capsys, "report", many, "--format", "markdown")
    assert "Columns (" not in out and "--explain-columns" in err and "Columns (" not in err
    _, out, err = cli(capsys, "report", many, "--format", "markdown", "--explain-columns")
    assert "Columns (" not in out and "Columns (every count is of puzzles" in err
    assert "  solved: puzzles solved" in err and out.startswith("| puzzle set")


@pytest.mark.slow
def test_run_at_100_columns_fits_and_says_what_it_left_out() -> None:
    done = compare("run", P4, "--solvers", "mrv,sat,dlx", "--jobs", "1", env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 100, done.stdout
    assert all(column in done.stdout.splitlines()[0] for column in REQUIRED)
    assert "Columns (" not in done.stdout and "every answer checked" in done.stderr


# ---------------------------------------------------------------- LaTeX

LATEX_REPORTS = [("summary", []), ("scores", ["--scores"]), ("per puzzle", ["--per-puzzle"]),
                 ("pair", ["--pair", "a,b_x"]), ("two runs", ["{SECOND}"])]


@pytest.mark.parametrize("name, args", LATEX_REPORTS, ids=[n for n, _ in LATEX_REPORTS])
def test_every_report_table_is_a_booktabs_tabular_in_latex(
        name: str, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [{**r, "configuration": "b_x", "solver": "b_x"} if r["configuration"] == "b" else r
            for r in two_configurations()]
    first = saved(tmp_path / "first.json", runs)
    second = saved(tmp_path / "second.json", runs)
    status, out, err = cli(capsys, "report", first, *[second if a == "{SECOND}" else a for a in args],
                           "--format", "latex")
    assert status == 0, err
    assert out.count(r"\begin{tabular}") >= 1 and r"\toprule" in out and r"\bottomrule" in out
    tabular = out[out.index(r"\begin{tabular}"):out.index(r"\end{tabular}")]
    assert ("|" not in tabular and "b\\_x" in tabular) or name in ("summary", "scores", "per puzzle")


@pytest.mark.parametrize("args", [["list"], pytest.param(["study", "consistency", P4, "--levels", "naked"],
                                                        marks=pytest.mark.slow),
                                  ["rate", P4]], ids=["list", "study", "rate"])
def test_the_other_commands_tables_come_in_latex_too(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, *args, "--format", "latex")
    assert status == 0, err
    assert out.strip().startswith(r"% \usepackage{booktabs}") and r"\end{tabular}" in out
    outside = re.sub(r"\\begin\{tabular\}.*?\\end\{tabular\}", "", out, flags=re.DOTALL)
    assert not [line for line in outside.splitlines() if line.strip() and not line.startswith("%")], out


# ---------------------------------------------------------------- the regression gate

def test_fail_if_slower_exits_1_on_a_clearly_slower_run_and_0_on_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = saved(tmp_path / "old.json", [r for r in two_configurations() if r["configuration"] == "a"])
    slow = saved(tmp_path / "slow.json", [{**r, "time_s": r["time_s"] * 2}
                                           for r in two_configurations() if r["configuration"] == "a"])
    status, out, err = cli(capsys, "report", old, slow, "--fail-if-slower", "10")
    assert status == 1 and "NEW is slower by more than 10%" in err and "NEW slower" in out
    status, _, err = cli(capsys, "report", old, old, "--fail-if-slower", "10")
    assert status == 0 and "passed" in err
    status, _, err = cli(capsys, "report", old, slow, "--fail-if-slower", "150")  # 2x is not 2.5x
    assert status == 0


def test_fail_if_slower_says_what_the_drift_check_measured_and_claims_nothing_under_drift(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [r for r in two_configurations() if r["configuration"] == "a"]
    old = saved(tmp_path / "old.json", runs)
    drifted = saved(tmp_path / "new.json", [{**r, "time_s": r["time_s"] * 2, "cpu_s": r["cpu_s"] * 2} for r in runs],
                    probe=(0.01, 0.02),
                    cpu_probe=(0.01, 0.0101))
    status, out, err = cli(capsys, "report", old, drifted, "--fail-if-slower", "10")
    assert status == 0 and "not judged" in err and "moved +100.0%" in out and "probe wall time" in out
    status, out, _ = cli(capsys, "report", old, drifted, "--fail-if-slower", "10", "--basis", "cpu")
    assert "probe CPU time" in out  # the CPU probe did not move: the claim is made on CPU time
    assert status == 1


def test_basis_cpu_compares_cpu_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = saved(tmp_path / "one.json", two_configurations(slower=2.0, cpu_slower=1.0))
    status, out, _ = cli(capsys, "report", one, "--pair", "a,b", "--fail-if-slower", "10")
    assert status == 1
    status, out, _ = cli(capsys, "report", one, "--pair", "a,b", "--fail-if-slower", "10", "--basis", "cpu")
    assert status == 0 and "(cpu time)" in " ".join(out.split())


@pytest.mark.parametrize("value", ["ten", "-5"])
def test_fail_if_slower_refuses_a_value_that_is_no_percentage(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "report", "x.json", "x.json", "--fail-if-slower", value)
    assert status == 2 and "--fail-if-slower" in err


# ---------------------------------------------------------------- per set, never pooled

def test_a_paired_report_has_a_row_per_puzzle_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = two_configurations(file="p.txt", n=4) + two_configurations(file="q.txt", n=9)
    status, out, _ = cli(capsys, "report", saved(tmp_path / "r.json", runs), "--pair", "a,b", "--format", "json")
    rows = json.loads(out)
    assert status == 0 and [(r["set"], r["pairs"]) for r in rows] == [("p.txt 4x4", 20), ("q.txt 9x9", 20)]


def test_tails_curves_and_scatters_are_per_set() -> None:
    runs = [run_record(i, "a", 0.01 * (i + 1), file="p.txt", n=4, seed=s, repeat=s, nodes=i * 10 + s)
            for i in range(8) for s in range(4)]
    runs += [run_record(100 + i, "a", 0.01 * (i + 1), file="p.txt", n=9, seed=s, repeat=s, nodes=i * 100 + s)
             for i in range(8) for s in range(4)]  # one file may hold puzzles of two sizes
    found = tails.tails(runs, "nodes", 1.0)
    assert [(t.set, t.runs, t.puzzles) for t in found] == [("p.txt 4x4", 32, 8), ("p.txt 9x9", 32, 8)]
    records = [{**r, "n": r["n"]} for r in runs]
    assert set(curves.curve(records, "holes", "nodes", 1.0)) == {("p.txt 4x4", "a"), ("p.txt 9x9", "a")}
    from solvers.harness.pictures.plot import scatter_points
    both = runs + [{**r, "configuration": "b", "solver": "b"} for r in runs]
    assert set(scatter_points(both, "a", "b", 1.0)) == {"p.txt 4x4", "p.txt 9x9"}


def test_a_tail_index_comes_with_its_interval_and_the_runs_it_rests_on() -> None:
    values = [(1 - (i + 0.5) / 200) ** (-1 / 1.5) for i in range(200)]  # Pareto quantiles, alpha 1.5
    runs = [run_record(i, "a", 0.5, nodes=int(v * 100), seed=0) for i, v in enumerate(values)]
    (tail,) = tails.tails(runs, "nodes", 1.0)
    assert tail.k == 20 and tail.runs == 200 and tail.low is not None and tail.high is not None
    assert tail.low < tail.alpha < tail.high and tail.low < 1.5 < tail.high
    line = tails.describe(tail)[0]
    assert "90% bootstrap interval" in line and "from the 20 largest of 200 runs" in line


def test_pooled_repeats_without_seeds_are_warned_about() -> None:
    runs = [run_record(i, "a", 0.1, repeat=r, nodes=i + r) for i in range(10) for r in range(3)]
    (tail,) = tails.tails(runs, "nodes", 1.0)
    assert tail.unseeded_repeats and any("without solver seeds" in line for line in tails.describe(tail))
    seeded = [{**r, "options": {"seed": r["repeat"]}} for r in runs]
    (tail,) = tails.tails(seeded, "nodes", 1.0)
    assert not tail.unseeded_repeats


def test_runs_killed_with_no_count_are_counted_censored_and_kept_in_the_survival() -> None:
    runs = [run_record(i, "a", 0.1, nodes=10 * (i + 1), seed=0) for i in range(16)]
    runs += [run_record(16 + i, "a", 1.0, category="timeout", nodes=None, seed=0) for i in range(4)]
    (tail,) = tails.tails(runs, "nodes", 1.0)
    assert (tail.runs, tail.unknown) == (20, 4)
    assert "4 runs killed with no count" in " ".join(tails.describe(tail))
    _xs, ys = tails.survival([10.0 * (i + 1) for i in range(16)], unknown=4)
    assert ys[0] == 1.0 and ys[-1] == pytest.approx(5 / 20)  # the last known run, and the four beyond


# ---------------------------------------------------------------- pictures

@pytest.mark.slow
def test_plot_cactus_and_scatter_of_nodes_differ_from_the_time_plots(tmp_path: Path) -> None:
    runs = saved(tmp_path / "r.json", [{**r, "nodes": int(r["time_s"] * 1e5) % 97}
                                       for r in two_configurations(slower=1.5)])
    for kind, extra in (("cactus", []), ("scatter", ["--x", "a", "--y", "b"])):
        by_time, by_nodes = tmp_path / f"{kind}_time.png", tmp_path / f"{kind}_nodes.png"
        assert compare_here("plot", kind, runs, *extra, "-o", str(by_time)).returncode == 0
        done = compare_here("plot", kind, runs, *extra, "--field", "nodes", "-o", str(by_nodes))
        assert done.returncode == 0, done.stderr
        assert by_time.read_bytes() != by_nodes.read_bytes()


@pytest.mark.parametrize("kind, args", [("survival", ["--x", "a"]), ("curve", ["--x", "givens", "--y", "nodes",
                                                                               "--field", "nodes"]),
                                        ("cactus", ["--y", "b"])])
def test_a_picture_refuses_an_option_it_does_not_use(kind: str, args: list[str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "plot", kind, saved(tmp_path / "r.json", two_configurations()), *args,
                         "-o", str(tmp_path / "p.png"))
    assert status == 2 and "no effect on plot " + kind in err


def test_title_without_a_picture_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "report", saved(tmp_path / "r.json", two_configurations()), "--title", "T")
    assert status == 2 and "--title names a picture" in err


def test_a_wide_tree_fits_the_window_and_its_root_is_marked_start() -> None:
    assert 'width="900"' in tree_svg._size(900, 700)
    wide = tree_svg._size(3717, 2226)
    assert 'width="100%"' in wide and 'data-width="3717"' in wide and "max-width:3717px" in wide
    from solvers.harness.commands.tracing import traced_solve
    from tests.conftest import load
    _, trace = traced_solve(load("teaching.txt")[0], "mrv", 10)
    svg = tree_svg.search_tree(trace.events, "t").svg
    assert '>start</text>' in svg and "start (at the top)" in svg


def test_render_help_names_the_human_solver() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert "human" in sub.choices["render"].format_help()


# ---------------------------------------------------------------- labels

def test_p_values_under_the_smallest_float_print_as_below_it() -> None:
    assert paired.p_text(0.0) == "< 1e-300" and paired.p_text(3e-12) == "3e-12"


def test_a_solver_file_given_to_solvers_points_to_plugin() -> None:
    with pytest.raises(ConfigurationError, match=r"--plugin mine=my_solver.py:solve"):
        parse_one("mine=my_solver.py:solve")


def test_disagreements_end_with_a_line_counting_them_and_long_grids_are_shortened() -> None:
    claims = [{"solver": "a", "claim": "unique", "category": "wrong", "reason": "but found " + "1" * 256},
              {"solver": "b", "claim": "solved", "category": "correct", "reason": "verified"}]
    text = report.render_disagreements([{"file": "f", "index": i, "line": i + 1, "puzzle": ".", "claims": claims}
                                        for i in range(3)])
    assert text.splitlines()[-1] == "In all: 3 puzzles with a disagreement; judged wrong: a on 3."
    assert "1" * 82 not in text and "a grid of 256 symbols" in text


def test_list_of_one_backend_refuses_a_table_format(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "list", "mrv", "--format", "csv")
    assert status == 2 and "text (--format table) or JSON" in err


def test_the_notebook_says_which_extra_installs_jupyter() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    notebook = (ROOT / "docs" / "tour.ipynb").read_text()
    assert re.search(r'^notebook = \[.*jupyterlab', pyproject, re.MULTILINE)
    assert ".[notebook]" in notebook and "Run All" in notebook


# ---------------------------------------------------------------- progress

def test_the_time_left_leaves_out_a_workers_compile() -> None:
    now = [0.0]
    progress = Progress(10, stream=io.StringIO(), clock=lambda: now[0], enabled=False)
    progress.parallel = 2
    now[0] = 31.0  # one worker compiled for 30 s while the other ran
    progress(0, Outcome(Status.SOLVED, load_s=30.0))
    for _ in range(4):
        progress(0, Outcome(Status.SOLVED))
    # 31 s elapsed, 15 of them a compile's share: 16 s for 5 runs, so 16 s for the 5 left
    assert progress.line() == "solving: 5/10 runs, 50%, about 16 s left"


def test_progress_says_under_a_tenth_of_a_second_without_about() -> None:
    now = [0.0]
    progress = Progress(100, clock=lambda: now[0], enabled=False)
    now[0] = 0.01
    progress.advance(50)
    assert progress.line() == "solving: 50/100 runs, 50%, under 0.1 s left"


def test_a_long_solve_says_its_steps_against_its_budget_and_limit() -> None:
    now = [0.0]
    stream = io.StringIO()
    watch = SolveWatch("explain", 10.0, 1000, stream=stream, clock=lambda: now[0])
    watch.tick(100, 5)
    assert not stream.getvalue()  # nothing for a solve that ends quickly
    now[0] = 4.0
    watch.tick(4096, 100)
    assert stream.getvalue().startswith("explain: 4,096 steps, 100 of at most 1,000 decisions, "
                                        "4.0 s of the 10 s limit (40%")


def test_rate_shows_progress_with_its_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "rate", P4)
    assert status == 0 and "rating: 4/4 puzzles, 100%, took" in err


# ---------------------------------------------------------------- run --first, --sample

@pytest.mark.slow
def test_run_first_and_sample_choose_the_puzzles_and_record_how(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = compare("run", str(ROOT / "puzzles" / "generated_4x4.txt"), "--solvers", "mrv", "--jobs", "1",
                   "--sample", "5", "--sample-seed", "3", "--json", str(out))
    assert done.returncode == 0, done.stderr
    saved_run = json.loads(out.read_text())
    chosen = sorted(r["index"] for r in saved_run["runs"])
    assert len(chosen) == 5 and (saved_run["options"]["sample"], saved_run["options"]["sample_seed"]) == (5, 3)
    again = compare("run", str(ROOT / "puzzles" / "generated_4x4.txt"), "--solvers", "mrv", "--jobs", "1",
                    "--sample", "5", "--sample-seed", "3", "--json", str(out))
    assert sorted(r["index"] for r in json.loads(out.read_text())["runs"]) == chosen and again.returncode == 0
    done = compare("run", str(ROOT / "puzzles" / "generated_4x4.txt"), "--solvers", "mrv", "--jobs", "1",
                   "--first", "3", "--json", str(out))
    assert sorted(r["index"] for r in json.loads(out.read_text())["runs"]) == [0, 1, 2]
    assert "3/3 runs" in done.stderr


@pytest.mark.parametrize("args, message", [(["--sample-seed", "2"], "--sample-seed draws the puzzles of --sample"),
                                           (["--first", "2", "--sample", "2"], "give one of them"),
                                           (["--sample", "0"], "must be at least 1")])
def test_run_refuses_a_wrong_choice_of_puzzles(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "run", P4, "--solvers", "mrv", *args)
    assert status == 2 and message in err
