"""Killer puzzles through the real command line: explain names the cage reasoning, render and
replay draw the cages, export carries them into the CNF and decode checks the sums, and dlx
is reported unsupported (not an error, not a failure) in run's table and JSON."""
from __future__ import annotations

import json
from pathlib import Path

import pycosat
import pytest

from models import to_line
from solvers.encodings.dimacs import read_dimacs
from solvers.harness.pictures.replay_page import unpacked

from .conftest import compare, compare_here
from .killers import UNIQUE, all_4x4_grids


@pytest.fixture
def killer_file(tmp_path: Path) -> Path:
    """Two killers in line format (cage fields after the cells): a 4x4 and a 9x9."""
    path = tmp_path / "killers.txt"
    path.write_text(to_line(UNIQUE["4x4-a"][0]) + "\n" + to_line(UNIQUE["9x9-b"][0]) + "\n")
    return path


@pytest.mark.slow
def test_explain_names_the_cage_combinations(killer_file: Path) -> None:
    done = compare_here("explain", str(killer_file), "--max-steps", "40")
    assert done.returncode == 0, done.stderr
    assert "cage combinations: cage 7 in two cells (cage 2): only 3 and 4, so 1 leaves r1c2 and r1c3" \
        in done.stdout
    assert "cage 8 in three cells (cage 4): only 1, 3 and 4, so 1 and 4 leave r3c1" in done.stdout
    assert "naked single: r3c1 = 3, its only candidate left" in done.stdout
    assert done.stdout.rstrip().endswith("+-----+-----+")  # the solved grid


@pytest.mark.slow
def test_explain_shows_combinations_still_open_and_digits_a_cage_must_hold(killer_file: Path) -> None:
    done = compare_here("explain", str(killer_file), "--puzzle", "2", "--max-steps", "5")
    assert done.returncode == 0, done.stderr
    assert "cage 8 in three cells (cage 3): only 1+2+5 or 1+3+4, so 6, 7, 8 and 9 leave" in done.stdout
    assert "so 1 must be in the cage and leaves r1c5, r1c6, r2c5" in done.stdout


def test_explain_with_exact_cover_says_why_it_cannot(killer_file: Path) -> None:
    done = compare_here("explain", str(killer_file), "--solver", "dlx")
    assert done.returncode == 2
    assert "dlx cannot solve this puzzle: exact cover cannot express a killer cage's total" in done.stderr


@pytest.mark.slow
def test_render_draws_the_cages(killer_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "killer.svg"
    done = compare_here("render", str(killer_file), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "killer cage (total top left)" in text  # the legend entry
    assert text.count("stroke-dasharray") >= 8  # dashed cage sides (at least one per cage)
    bad = compare_here("render", str(killer_file), "-o", str(tmp_path / "killer.txt"))
    assert bad.returncode == 2 and not (tmp_path / "killer.txt").exists()


@pytest.mark.slow
def test_replay_page_carries_each_cage_outline_and_total(killer_file: Path, tmp_path: Path) -> None:
    trace, out = tmp_path / "killer.jsonl", tmp_path / "killer.html"
    traced = compare_here("explain", str(killer_file), "--trace", str(trace))
    assert traced.returncode == 0, traced.stderr
    done = compare_here("replay", str(trace), "-o", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    data = unpacked(page)
    cages = data["cages"]
    assert [c["total"] for c in cages] == [cage.total for cage in UNIQUE["4x4-a"][0].cages]
    assert cages[1] == {"sides": {"1": [1, 0, 1, 1], "2": [1, 1, 1, 0]}, "corner": 1, "total": 7}
    assert "cage 7 in two cells (cage 2): only 3 and 4" in data["texts"]  # the step's sentence


@pytest.mark.slow
def test_export_carries_the_cages_and_decode_checks_the_sums(killer_file: Path, tmp_path: Path) -> None:
    puzzle, solution = UNIQUE["4x4-a"]
    cnf_path = tmp_path / "killer.cnf"
    done = compare_here("export", str(killer_file), "--encoding", "extended", "-o", str(cnf_path))
    assert done.returncode == 0, done.stderr
    dimacs = read_dimacs(cnf_path.read_text())
    assert dimacs.field("puzzle") == to_line(puzzle)  # the cages ride in the puzzle line
    model = pycosat.solve(dimacs.clauses, vars=dimacs.num_vars)
    answer = tmp_path / "answer.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    good = compare_here("decode", str(answer), "--cnf", str(cnf_path), "--format", "line")
    assert good.returncode == 0, good.stderr
    assert "".join(map(str, map(int, solution))) in good.stdout
    # a valid Sudoku grid that breaks the cages: decode says it does not solve the puzzle
    other = next(g for g in all_4x4_grids() if g != tuple(map(int, solution)))
    answer.write_text("s SATISFIABLE\nv " + " ".join(str(c * 4 + v) for c, v in enumerate(other)) + " 0\n")
    wrong = compare_here("decode", str(answer), "--cnf", str(cnf_path))
    assert wrong.returncode == 1 and "DOES NOT MATCH the puzzle" in wrong.stdout and "cage" in wrong.stdout


@pytest.mark.slow
def test_run_reports_exact_cover_unsupported_without_failing(killer_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    done = compare("run", str(killer_file), "--solvers", "mrv,dlx", "--unique", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unsupported" in done.stdout
    runs = json.loads(out.read_text())["runs"]
    dlx = [r for r in runs if r["solver"] == "dlx"]
    assert {r["category"] for r in dlx} == {"unsupported"} and len(dlx) == 2
    assert all("exact cover cannot express" in r["reason"] for r in dlx)
    assert {r["category"] for r in runs if r["solver"] == "mrv"} == {"correct"}
