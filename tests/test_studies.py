"""The classic studies' commands: compare.py study consistency (Simonis's table)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from solvers.harness.results import consistency_study, curves, tails

from .conftest import ROOT, compare, compare_here, load


@pytest.mark.parametrize("name, first", [("top95.txt", 4), ("small_6x6.txt", 3),
                                         ("16x16_forum_samples.txt", 1), ("jigsaw.txt", 1)])
def test_consistency_counts_never_fall_along_the_chains(name: str, first: int) -> None:
    result = consistency_study.measure(name, load(name)[:first], consistency_study.DEFAULT_LEVELS)
    assert consistency_study.chain_breaks(result) == []
    for chain in consistency_study.CHAINS:
        settled = [result.settled(level) for level in chain]
        fixed = [result.mean_fixed(level) for level in chain]
        assert settled == sorted(settled) and fixed == sorted(fixed), (chain, settled, fixed)


def test_a_chain_break_is_reported_naming_the_puzzle() -> None:
    made_up = consistency_study.SetResult("made-up", {
        "bounds": [consistency_study.Outcome(True, 5, 5, 0.0)],
        "gac": [consistency_study.Outcome(False, 3, 5, 0.0)]})
    assert consistency_study.chain_breaks(made_up) == ["made-up puzzle 1: gac fixed 3 cells, bounds 5"]


@pytest.mark.slow
def test_study_consistency_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "study.json"
    done = compare_here("study", "consistency", "puzzles/top95.txt", "puzzles/small_4x4.txt",
                        "--first", "2", "--levels", "singles,gac,sac", "--json", str(out))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[3:]}
    assert set(rows) == {"singles", "gac", "sac"}
    assert "2 settled" in rows["sac"]  # shaving settles the first two top95 puzzles
    saved = json.loads(out.read_text())
    top95 = saved["sets"][0]
    assert top95["puzzles"] == 2 and top95["levels"]["sac"]["settled"] == 2
    assert all(s <= g for s, g in zip(top95["levels"]["singles"]["fixed"],
                                      top95["levels"]["gac"]["fixed"]))


@pytest.mark.parametrize("args, message", [
    (("--levels", "gac,hyper"), "unknown level 'hyper'"),
    (("--first", "0"), "must be at least 1"),
    (("puzzles/no_such_file.txt",), "no_such_file"),
])
def test_study_consistency_refuses_a_wrong_value_with_exit_2(args: tuple[str, ...], message: str) -> None:
    done = compare_here("study", "consistency", *(args if args[0].endswith(".txt") else
                                             ("puzzles/small_4x4.txt", *args)))
    assert done.returncode == 2
    assert message in done.stderr


def test_study_names_the_known_studies_on_a_wrong_one() -> None:
    done = compare_here("study", "phase", "puzzles/small_4x4.txt")
    assert done.returncode == 2 and "consistency" in done.stderr


def test_hill_reads_the_slope_of_a_pareto_tail() -> None:
    # quantiles of a Pareto law with alpha = 1.5: P(X > x) = x^-1.5
    values = [(1 - (i + 0.5) / 400) ** (-1 / 1.5) for i in range(400)]
    assert tails.hill(values, 40) == pytest.approx(1.5, rel=0.1)


@pytest.fixture(scope="module")
def seeded_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved run of mrv and backtrack under 6 seeds on two files of 4 puzzles each (6x6 and
    4x4), read by the plot tests: one launch for both."""
    runs = tmp_path_factory.mktemp("seeded") / "runs.json"
    done = compare("run", "puzzles/small_6x6.txt", "puzzles/small_4x4.txt", "--solvers", "mrv,backtrack",
                   "--seeds", "6", "--json", str(runs))
    assert done.returncode == 0, done.stderr
    return runs


@pytest.mark.slow
def test_plot_survival_draws_and_prints_a_tail_index_per_configuration(seeded_runs: Path, tmp_path: Path) -> None:
    picture = tmp_path / "survival.png"
    done = compare_here("plot", "survival", str(seeded_runs), "--field", "nodes", "-o", str(picture))
    assert done.returncode == 0, done.stderr
    assert picture.stat().st_size > 0
    sets = done.stdout.split(" small_4x4.txt 4x4:")
    assert len(sets) == 2 and " small_6x6.txt 6x6:" in sets[0]  # a block per set
    for block in sets:  # a line per configuration in each
        lines = [line for line in block.splitlines() if line.startswith(("  mrv:", "  backtrack:"))]
        assert [line.split(":")[0].strip() for line in lines] == ["mrv", "backtrack"], block
    lines = [line for line in done.stdout.splitlines() if line.startswith(("  mrv:", "  backtrack:"))]
    assert all(f"{6 * 4} runs on 4 puzzles" in line for line in lines)  # 4 puzzles x 6 seeds, each file
    assert all("90% bootstrap interval" in line and "(0 of them cut by the limit)" in line
               for line in lines if "largest of" in line)


def test_plot_survival_refuses_an_unknown_field() -> None:
    done = compare_here("plot", "survival", "nothing.json", "--field", "conflicts_per_s")
    assert done.returncode == 2 and "--field" in done.stderr


@pytest.mark.slow
def test_plot_curve_draws_cost_against_givens_and_refuses_a_wrong_field(seeded_runs: Path, tmp_path: Path) -> None:
    runs = seeded_runs  # a point is the median of the runs at its x: six seeds a puzzle, six runs
    picture = tmp_path / "curve.png"
    done = compare_here("plot", "curve", str(runs), "--x", "givens", "--y", "nodes", "-o", str(picture))
    assert done.returncode == 0, done.stderr
    assert picture.stat().st_size > 0 and "points plotted" in done.stdout
    assert "peak of the median nodes against givens:" in done.stdout
    for label in ("mrv", "backtrack"):  # one curve per set: these two files never pooled
        assert f"  {label} on small_6x6.txt 6x6: givens = " in done.stdout
        assert f"  {label} on small_4x4.txt 4x4: givens = " in done.stdout
    for x, y, message in (("colour", "nodes", "--x must be a puzzle attribute"),
                          ("givens", "speed", "--y must be a run's measure")):
        done = compare_here("plot", "curve", str(runs), "--x", x, "--y", y, "-o", str(picture))
        assert done.returncode == 2 and message in done.stderr


def test_a_curve_point_is_the_median_and_quartiles_of_its_runs() -> None:
    runs = [{"file": "q.txt", "configuration": "a", "n": 2, "puzzle": "1..2", "nodes": v, "category": "correct"}
            for v in (1, 2, 3, 4, 100)]
    (point,) = curves.curve(runs, "holes", "nodes", None)["q.txt 2x2", "a"]
    assert (point.x, point.median, point.low, point.high, point.runs) == (0.5, 3, 2, 4, 5)


def test_the_peak_is_the_point_with_the_highest_median_the_first_of_a_tie() -> None:
    points = [curves.Point(x, median, median, median, 4)
              for x, median in ((0.3, 2.0), (0.42, 9.0), (0.45, 9.0), (0.6, 1.0))]
    top = curves.peak(points)
    assert top is not None and top.x == 0.42
    assert curves.peak([]) is None


def _bench(name: str) -> ModuleType:
    """A bench script loaded by path, with bench/ on sys.path as when it is run (for bench/common.py)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("start", "stop", "step", "expected"), [
    (0.30, 0.60, 0.03, [0.3, 0.33, 0.36, 0.39, 0.42, 0.45, 0.48, 0.51, 0.54, 0.57, 0.6]),
    (0.40, 0.44, 0.02, [0.4, 0.42, 0.44]),
    (0.42, 0.42, 0.05, [0.42]),
])
def test_the_qwh_sweep_runs_start_to_stop_inclusive(start: float, stop: float, step: float,
                                                   expected: list[float]) -> None:
    assert _bench("bench_qwh_phase").hole_fractions(start, stop, step) == expected


@pytest.mark.parametrize(("start", "stop", "step"), [(0.6, 0.3, 0.03), (0.3, 0.6, 0), (0, 0.5, 0.1),
                                                     (0.3, 1.0, 0.1)])
def test_the_qwh_sweep_refuses_an_empty_or_out_of_range_sweep(start: float, stop: float,
                                                              step: float) -> None:
    with pytest.raises(ValueError, match="0 < start <= stop < 1"):
        _bench("bench_qwh_phase").hole_fractions(start, stop, step)


def test_bench_qwh_phase_exits_2_on_a_bad_sweep() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_qwh_phase.py"), "--start", "0.7",
                           "--stop", "0.5"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "0 < start <= stop < 1" in done.stderr


@pytest.mark.parametrize("script", ["bench_tails", "bench_givens"])
def test_a_bench_script_takes_the_first_puzzles_of_a_file_skipping_comments(script: str) -> None:
    lines = ["# a comment", "1..2", "", "2..1", "..12"]
    assert _bench(script).first_puzzles(lines, 2) == ["1..2", "2..1"]
    assert _bench(script).first_puzzles(lines, 10) == ["1..2", "2..1", "..12"]


def test_the_givens_series_reads_a_comma_list() -> None:
    assert _bench("bench_givens").givens_levels("24, 27,30") == [24, 27, 30]


@pytest.mark.parametrize(("text", "message"), [("24,x", "whole numbers"), ("16,30", "from 17 to 80"),
                                                ("30,81", "from 17 to 80")])
def test_the_givens_series_refuses_a_wrong_value(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _bench("bench_givens").givens_levels(text)


def test_bench_givens_exits_2_on_a_wrong_givens_list() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_givens.py"), "--givens", "10"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "from 17 to 80" in done.stderr
