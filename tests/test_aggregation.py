"""The one aggregation basis (issue 22 item 4): per puzzle over repetitions first, then over
puzzles; even repetition counts; "solved" meaning one thing in the summary, the scores and
the paired report; unknown CPU never counted as 0; a reproducible bootstrap interval; Holm."""
from __future__ import annotations

from typing import Any

import pytest

from solvers.harness.results import paired, report, scores, summary_table
from solvers.harness.results.aggregate import mean_interval, reduce_puzzle, upper_median

LIMIT = 1.0


def run(index: int, category: str = "correct", time_s: float = 0.1, *, cpu_s: float | None = 0.1,
        label: str = "a", repeat: int = 0, status: str | None = None, nodes: int | None = 5) -> dict[str, Any]:
    """A saved run record, as the JSON document holds it."""
    return {"file": "p.txt", "index": index, "line": index + 1, "puzzle": "." * 16, "size": "4x4",
            "solver": label, "configuration": label, "repeat": repeat,
            "status": status or ("solved" if category == "correct" else category),
            "category": category, "time_s": time_s, "cpu_s": cpu_s, "solutions": ["1" * 16],
            "complete": True, "stats": {"nodes": nodes} if nodes is not None else {}}


def summary_row(runs: list[dict[str, Any]], label: str = "a") -> dict[str, Any]:
    rows = report.summarize(runs, limit=LIMIT, par=2.0)
    return next(r for r in rows if r["configuration"] == label)


# ---------------------------------------------------------------- one puzzle's repetitions

def test_a_solved_and_a_timed_out_repetition_leave_the_puzzle_unsolved_at_the_limit() -> None:
    outcome = reduce_puzzle([run(0, time_s=0.2), run(0, "timeout", LIMIT, repeat=1)], LIMIT)
    assert (outcome.verdict, outcome.time_s, outcome.score(LIMIT, 2.0)) == ("timeout", LIMIT, 2.0)


def test_two_solved_of_three_repetitions_solve_the_puzzle_at_the_upper_median() -> None:
    records = [run(0, time_s=0.3), run(0, "timeout", LIMIT, repeat=1), run(0, time_s=0.1, repeat=2)]
    outcome = reduce_puzzle(records, LIMIT)
    assert (outcome.verdict, outcome.time_s, outcome.score(LIMIT, 2.0)) == ("solved", 0.3, 0.3)


def test_an_even_count_of_solved_repetitions_takes_the_larger_middle_time() -> None:
    outcome = reduce_puzzle([run(0, time_s=0.2), run(0, time_s=0.4, repeat=1)], LIMIT)
    assert outcome.time_s == 0.4 and upper_median([0.2, 0.4]) == 0.4


def test_one_wrong_repetition_makes_the_puzzle_wrong_even_when_most_were_correct() -> None:
    records = [run(0), run(0, repeat=1), run(0, "wrong", repeat=2)]
    assert reduce_puzzle(records, LIMIT).verdict == "wrong"


def test_unknown_cpu_is_left_out_not_counted_as_zero() -> None:
    outcome = reduce_puzzle([run(0, "timeout", LIMIT, cpu_s=None), run(0, cpu_s=0.4, repeat=1),
                             run(0, cpu_s=0.2, repeat=2)], LIMIT)
    assert outcome.cpu_s == 0.4
    row = summary_row([run(0, "timeout", LIMIT, cpu_s=None), run(1, cpu_s=0.12)])
    assert row["mean_cpu_s"] == 0.12


def test_cpu_is_capped_at_the_limit() -> None:
    assert reduce_puzzle([run(0, "timeout", LIMIT, cpu_s=1.7)], LIMIT).cpu_s == LIMIT


# ---------------------------------------------------------------- over puzzles

def test_the_summary_counts_puzzles_not_runs_and_its_verdicts_add_up() -> None:
    runs = [run(0), run(0, repeat=1), run(1, "timeout", LIMIT), run(1, "timeout", LIMIT, repeat=1),
            run(2, "error", 0.01), run(2, time_s=0.2, repeat=1)]
    row = summary_row(runs)
    assert (row["puzzles"], row["runs"], row["solved"], row["timeouts"], row["errors"]) == (3, 6, 1, 1, 1)
    assert row["solved"] + row["timeouts"] + row["errors"] + row["unknown"] + row["wrong"] == row["puzzles"]


def test_the_summary_the_scores_and_the_paired_report_agree_on_solved() -> None:
    runs = [run(0, time_s=0.2), run(0, "timeout", LIMIT, repeat=1),      # half: unsolved
            run(1, time_s=0.2), run(1, time_s=0.3, repeat=1),            # solved
            run(2, "unknown", 0.1), run(2, time_s=0.2, repeat=1)]        # half: unsolved
    row = summary_row(runs)
    (score,) = scores.score_rows(runs, LIMIT, 2.0)
    document = {"limit_s": LIMIT, "runs": runs}
    solved_pairs = sum(p.old_solved for p in paired.pairs_between(document, document))
    assert row["solved"] == score["solved"] == solved_pairs == 1
    assert row["par"] == pytest.approx(score["par2"]) == pytest.approx((2.0 + 0.3 + 2.0) / 3)


def test_an_unsat_answer_counts_as_solved_and_as_of_which_unsat() -> None:
    row = summary_row([run(0, status="unsat"), run(1)])
    assert (row["solved"], row["unsat"]) == (2, 1)


def test_mean_nodes_is_over_puzzles_of_the_correct_repetitions() -> None:
    runs = [run(0, nodes=2), run(0, nodes=4, repeat=1), run(0, nodes=100, repeat=2), run(1, nodes=10),
            run(2, "timeout", LIMIT, nodes=10_000)]
    assert summary_row(runs)["mean_nodes"] == (4 + 10) / 2


def test_the_interval_of_the_mean_is_reproducible_and_holds_the_mean() -> None:
    runs = [run(i, time_s=0.01 * (i + 1)) for i in range(12)]
    first, again = summary_row(runs), summary_row(runs)
    assert first["mean_s_low"] < first["mean_s"] < first["mean_s_high"]
    assert (first["mean_s_low"], first["mean_s_high"]) == (again["mean_s_low"], again["mean_s_high"])
    assert first["iqr_s"] == pytest.approx(0.055)


def test_one_puzzle_has_no_interval() -> None:
    assert mean_interval([0.3]) == (None, None)


def test_the_footnote_names_every_shown_column() -> None:
    rows = report.summarize([run(0), run(0, repeat=1), run(1)], limit=LIMIT)
    note = summary_table.footnote(summary_table.default_keys(rows))
    for header in ("solved", "PAR-2", "mean s", "mean s 95% CI", "median s", "IQR s", "mean cpu s"):
        assert f"  {header}: " in note, header
    assert "not runs" in note and "upper median" in note and "2000 resamples" in note


# ---------------------------------------------------------------- several comparisons

@pytest.mark.parametrize("p_values, expected", [([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),
                                                ([0.2], [0.2]), ([None, 0.01], [None, 0.01])])
def test_holm_corrects_several_p_values_step_down(p_values: list, expected: list) -> None:
    assert paired.holm(p_values) == pytest.approx(expected)


@pytest.mark.parametrize("wins, losses", [(40, 0), (400, 0), (2000, 0)])
def test_a_tiny_p_value_is_never_rounded_to_0_and_a_single_pair_keeps_it(wins: int, losses: int) -> None:
    p = paired.sign_test(wins, losses)
    assert p is not None
    (holm,) = paired.holm([p])
    assert holm == p  # Holm over one row is the p-value itself
    shown = paired.p_text(holm)
    assert shown != "0" and float(shown.lstrip("< ")) > 0
    assert shown == ("< 1e-300" if p < 1e-300 else f"{p:.3g}")


def test_mean_nodes_leaves_out_a_puzzle_solved_in_only_half_its_repetitions() -> None:
    runs = [run(0, nodes=4), run(0, "timeout", LIMIT, nodes=None, repeat=1),   # 1 of 2: unsolved
            run(0, nodes=6, repeat=2), run(0, "timeout", LIMIT, nodes=None, repeat=3),
            run(1, nodes=10)]                                                 # solved
    row = summary_row(runs)
    assert (row["solved"], row["mean_nodes"]) == (1, 10)
    assert "unsolved puzzles left out" in summary_table.MEANINGS["mean_nodes"]


def test_a_clear_but_small_difference_is_not_called_different() -> None:
    row = {"holm_p": 0.001, "ratio_low": 0.97, "ratio_high": 0.99}
    assert paired.verdict(row) == "no difference shown"
    assert paired.verdict({**row, "ratio_low": 0.5, "ratio_high": 0.9}) == "NEW faster"


@pytest.mark.parametrize("new_probe, refused", [(0.0100, False), (0.0110, True), (0.0090, True)])
def test_runs_on_machines_of_different_speed_get_no_significance_claim(new_probe: float,
                                                                        refused: bool) -> None:
    def calibrated(probe: float) -> dict[str, Any]:
        side = {"wall_s": probe}
        return {"calibration": {"start": side, "end": side, "moved": 0.0}}

    speed = paired.machine_speed(calibrated(0.0100), calibrated(new_probe))
    assert speed["relative"] == pytest.approx(new_probe / 0.0100)
    assert bool(speed["refused"]) == refused
