"""Issue 22 items 4, 5 and 9 through the real command line: the summary's and the paired
report's footnotes, the run order rotated and recorded, the calibration probe saved and
read, the A/A check, and several comparisons Holm-corrected. No test asserts a time."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, compare, compare_here

TIMED = ROOT / "tests" / "plugins" / "timed.py"
AA_PUZZLES = str(ROOT / "puzzles" / "generated_4x4.txt")  # 20 puzzles: enough for a sign test to be able to reject

pytestmark = pytest.mark.slow  # each test runs compare.py; the shared A/A sweep is 200 runs


def saved(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def aa_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same configuration twice in one interleaved run (an A/A test), saved. Five
    repetitions, as a study on a shared machine would take: with three, a burst of the other
    test worker's load over a few runs of one configuration moved its medians enough to call
    it different in 2 of 3 full suites (alone, and under a CPU burner, it passed every time)."""
    out = tmp_path_factory.mktemp("aa") / "aa.json"
    done = compare("run", AA_PUZZLES, "--solvers", "a=mrv,b=mrv", "--repeat", "5", "--jobs", "1",
                   "--timeout", "5", "--json", str(out), fresh=True)
    assert done.returncode == 0, done.stderr
    return out


def test_the_same_configuration_twice_in_one_interleaved_run_is_not_called_different(aa_run: Path) -> None:
    done = compare_here("report", str(aa_run), "--pair", "a,b", "--format", "json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["pairs"] == 20
    assert row["verdict"] == "no difference shown", row


def test_a_one_job_run_keeps_its_workers_on_one_cpu_and_its_pair_report_says_no_placement_warning(
        aa_run: Path) -> None:
    assert isinstance(saved(aa_run)["workers_cpu"], int)
    done = compare_here("report", str(aa_run), "--pair", "a,b")
    assert done.returncode == 0, done.stderr
    assert "not kept on one CPU" not in done.stdout


def test_a_pair_report_of_a_two_job_run_warns_that_its_workers_did_not_share_a_cpu(aa_run: Path,
                                                                                  tmp_path: Path) -> None:
    document = saved(aa_run)
    document["workers_cpu"] = None  # as a run with --jobs 2 saves it
    two_jobs = tmp_path / "two.json"
    two_jobs.write_text(json.dumps(document), encoding="utf-8")
    done = compare_here("report", str(two_jobs), "--pair", "a,b")
    assert done.returncode == 0, done.stderr
    assert "Warning: the configurations' workers were not kept on one CPU" in done.stdout
    assert "--jobs 1" in done.stdout


def test_a_clearly_slower_configuration_is_called_slower(tmp_path: Path) -> None:
    out = tmp_path / "slow.json"
    done = compare("run", AA_PUZZLES, "--plugin", f"slow={TIMED}:slow", "--solvers",
                   "quick=slow:seconds=0,lazy=slow:seconds=0.03", "--json", str(out))
    assert done.returncode == 0, done.stderr
    report = compare_here("report", str(out), "--pair", "quick,lazy", "--format", "json")
    (row,) = json.loads(report.stdout)
    assert (row["losses"], row["verdict"]) == (20, "NEW slower")


def test_each_group_runs_its_configurations_in_a_rotated_recorded_order(aa_run: Path) -> None:
    runs = saved(aa_run)["runs"]
    groups: dict[tuple[int, int], dict[str, int]] = {}
    for run in runs:
        groups.setdefault((run["index"], run["repeat"]), {})[run["configuration"]] = run["order"]
    assert all(sorted(orders.values()) == [0, 1] for orders in groups.values())
    first = Counter(min(orders, key=orders.__getitem__) for orders in groups.values())
    assert abs(first["a"] - first["b"]) <= 1 and first["a"] + first["b"] == 20 * 5  # puzzles x repetitions


def test_a_run_saves_its_calibration_probe_from_start_and_end(aa_run: Path) -> None:
    calibration = saved(aa_run)["calibration"]
    assert calibration["start"]["wall_s"] > 0 and calibration["end"]["wall_s"] > 0
    assert calibration["moved"] == pytest.approx(calibration["end"]["wall_s"] / calibration["start"]["wall_s"] - 1)
    assert "integer recurrence" in calibration["probe"]


def test_the_column_key_says_what_every_column_is(aa_run: Path) -> None:
    done = compare_here("report", str(aa_run), "--explain-columns")
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0]
    for column in ("puzzles", "runs", "solved", "PAR-2", "mean s", "mean s 95% CI", "median s", "IQR s",
                   "max s", "mean cpu s", "mean nodes"):
        assert column in header, column
        assert f"\n  {column}: " in done.stderr, column
    assert "every count is of puzzles, not runs" in done.stderr and "Columns (" not in done.stdout
    assert "spread s" not in done.stdout


def _calibrated(source: Path, target: Path, start: float, end: float) -> str:
    document = saved(source)
    document["calibration"] = {"probe": "test", "start": {"wall_s": start}, "end": {"wall_s": end},
                               "moved": end / start - 1}
    target.write_text(json.dumps(document), encoding="utf-8")
    return str(target)


@pytest.mark.parametrize("old, new, refused", [((0.010, 0.010), (0.0101, 0.0101), False),
                                               ((0.010, 0.010), (0.012, 0.012), True),
                                               ((0.010, 0.013), (0.011, 0.011), True)])
def test_two_runs_state_their_machine_speed_and_refuse_a_claim_under_drift(
        aa_run: Path, tmp_path: Path, old: tuple[float, float], new: tuple[float, float], refused: bool) -> None:
    first = _calibrated(aa_run, tmp_path / "old.json", *old)
    second = _calibrated(aa_run, tmp_path / "new.json", *new)
    done = compare_here("report", first, second)
    assert done.returncode == 0, done.stderr
    assert "Machine speed: probe wall time NEW/OLD = " in done.stdout
    assert ("No significance claimed" in done.stdout) == refused
    assert ("not claimed: machine drift" in done.stdout) == refused
    data = json.loads(compare_here("report", first, second, "--format", "json").stdout)
    assert data["machine"]["relative"] == pytest.approx(sum(new) / sum(old))


def test_a_run_without_calibration_is_compared_but_no_significance_claimed(aa_run: Path, tmp_path: Path) -> None:
    document = saved(aa_run)
    del document["calibration"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document), encoding="utf-8")
    done = compare_here("report", str(old), str(aa_run))
    assert done.returncode == 0, done.stderr
    assert "Machine speed: unknown" in done.stdout and "No significance claimed" in done.stdout


def test_several_pairs_at_once_are_holm_corrected(aa_run: Path) -> None:
    done = compare_here("report", str(aa_run), "--pair", "a,b", "--pair", "b,a", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [r["configuration"] for r in rows] == ["b vs a", "a vs b"]
    assert all(r["holm_p"] is None or r["holm_p"] >= r["sign_p"] for r in rows)
    table = compare_here("report", str(aa_run), "--pair", "a,b", "--pair", "b,a")
    assert "Holm p" in table.stdout and "Holm p: that p-value Holm-corrected" in " ".join(table.stdout.split())


@pytest.mark.parametrize("pair, message", [("a", "--pair needs two configurations"),
                                           ("a,nosuch", "no runs of configuration 'nosuch'")])
def test_a_wrong_pair_is_a_usage_error(aa_run: Path, pair: str, message: str) -> None:
    done = compare_here("report", str(aa_run), "--pair", "a,b", "--pair", pair)
    assert done.returncode == 2 and message in done.stderr, done.stderr
