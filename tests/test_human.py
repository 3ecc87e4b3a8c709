"""The human-style solver (solvers/human): every technique on a puzzle or a candidate state
that needs it, named in its sentence; no step ever removes the solution's digit; explain
shows the techniques and rate rates, through the real command line."""
from __future__ import annotations

import hashlib
import json
import math
import random
import re
import statistics
from functools import cache
from pathlib import Path

import pytest

from models import Geometry, Grid, Model, Puzzle, to_line
from models.cellnames import cell_name
from solvers import registry
from solvers.harness.pictures.steps import final_board
from solvers.human import TECHNIQUES, Board, Event, Step, rate, solve, traced
from solvers.human.fish import fish
from solvers.human.innies import innies_outies, innies_outies_several
from solvers.human.subsets import hidden_subset, naked_subset
from solvers.trace import Trace, check_event, describe

from .conftest import ROOT, compare_here, load
from .killers import SEARCHING, SOLUTION_4A, UNIQUE, killer


@cache
def puzzle(name: str, position: int) -> Puzzle:
    """The position-th (1-based) puzzle of a bundled file."""
    return load(name)[position - 1]


def solutions(puzzle: Puzzle) -> list[Grid]:
    """Up to two solutions, by a method that shares no code with the human solver."""
    return registry.get("mrv").solve(puzzle, max_solutions=2).solutions


def reasoning(puzzle: Puzzle) -> list[Step]:
    """The steps before the first guess (the search stops there)."""
    return solve(Model.from_puzzle(puzzle), max_guesses=0).technique_steps()


def assert_sound(steps: list[Step], known: list[Grid], where: str) -> None:
    for step in steps:
        for grid in known:
            assert all(grid[c] != d for c, d in step.eliminations), f"{where}: {step.text}"
            assert all(grid[c] == d for c, d in step.placements), f"{where}: {step.text}"


# --------------------------------------------------------------------- each technique

NEEDED = [("hidden single", "easy50.txt", 1), ("naked single", "easy50.txt", 3),
          ("claiming", "easy50.txt", 6), ("pointing", "easy50.txt", 7),
          ("naked pair", "easy50.txt", 7), ("X-wing", "easy50.txt", 7),
          ("hidden pair", "top95.txt", 4), ("XY-wing", "top95.txt", 76),
          ("naked triple", "top95.txt", 5), ("XYZ-wing", "top95.txt", 94),
          ("hidden triple", "top95.txt", 78), ("swordfish", "hardest.txt", 9)]
"""(technique, file, 1-based position): the solver reaches for the technique on that puzzle
before any guess, because nothing easier applies at that moment (the chains, uniqueness
techniques and nets: tests/test_human_techniques.py)."""


@pytest.mark.parametrize("technique, name, position", NEEDED,
                         ids=[f"{t}-{n.removesuffix('.txt')}-{p}" for t, n, p in NEEDED])
def test_a_puzzle_that_needs_the_technique_gets_a_sound_step_named_for_it(
        technique: str, name: str, position: int) -> None:
    steps = reasoning(puzzle(name, position))
    used = [s for s in steps if s.technique == technique]
    assert used, f"{technique} not used; used: {sorted({s.technique for s in steps})}"
    words = f"locked candidates ({technique})" if technique in ("pointing", "claiming") else technique
    assert all(s.text.startswith(words) for s in used), used[0].text
    assert_sound(used, solutions(puzzle(name, position)), f"{name} {position}")


def empty_board(n: int = 9) -> Board:
    box = {4: (2, 2), 9: (3, 3)}[n]
    return Board.start(Model.from_puzzle(Puzzle(Geometry.of(*box), (0,) * (n * n))))


def mask(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def test_a_naked_quad_clears_its_four_digits_from_the_rest_of_the_row() -> None:
    board = empty_board()
    for cell, digits in zip(range(4), ((1, 2), (2, 3), (3, 4), (1, 4))):
        board.cand[cell] = mask(*digits)
    step = naked_subset(4)(board)
    assert step is not None and step.technique == "naked quad"
    assert step.text.startswith("naked quad 1, 2, 3 and 4 in r1c1, r1c2, r1c3 and r1c4: ")
    assert "row 1" in step.text
    assert sorted(step.eliminations) == [(c, d) for c in range(4, 9) for d in (1, 2, 3, 4)]


def test_a_hidden_quad_clears_the_other_candidates_of_its_four_cells() -> None:
    board = empty_board()
    for cell in range(4, 9):
        board.cand[cell] &= ~mask(1, 2, 3, 4)
    step = hidden_subset(4)(board)
    assert step is not None and step.technique == "hidden quad"
    assert step.text.startswith("hidden quad 1, 2, 3 and 4 in r1c1, r1c2, r1c3 and r1c4: within row 1")
    assert sorted(step.eliminations) == [(c, d) for c in range(4) for d in range(5, 10)]


def test_a_jellyfish_clears_its_digit_from_the_rest_of_four_columns() -> None:
    board = empty_board()
    for row in range(4):  # in rows 1-4, digit 1 fits only in columns 1-4 (two places a row)
        for col in range(9):
            if col not in (row, (row + 1) % 4):
                board.cand[row * 9 + col] &= ~mask(1)
    step = fish(4)(board)
    assert step is not None and step.technique == "jellyfish"
    assert step.text.startswith("jellyfish on 1: in rows 1, 2, 3 and 4, 1 fits only in columns 1, 2, 3 and 4")
    assert sorted(step.eliminations) == sorted((r * 9 + c, 1) for r in range(4, 9) for c in range(4))


def test_cage_combinations_clear_what_no_filling_of_a_killer_cage_uses() -> None:
    killer, answer = UNIQUE["4x4-a"]
    steps = reasoning(killer)
    cage_steps = [s for s in steps if s.technique == "cage combinations"]
    assert cage_steps and all(s.text.startswith("cage combinations: cage ") for s in cage_steps)
    assert_sound(steps, [tuple(int(v) for v in answer)], "4x4-a")


def test_innies_and_outies_fix_a_cell_from_the_sum_of_one_house() -> None:
    board = Board.start(Model.from_puzzle(killer(2, 2, SOLUTION_4A, "AAAB ...B .... ....")))
    innie = innies_outies(board)
    assert innie is not None and innie.placements == ((3, 1),)
    assert innie.text == ("innies and outies: row 1 sums to 10; the cage inside it (cage 1) "
                          "sums to 9, so r1c4 = 1 (an innie)")
    board.apply(innie)
    outie = innies_outies(board)
    assert outie is not None and outie.placements == ((7, 3),)
    assert outie.text == ("innies and outies: row 1 sums to 10; cages 1 and 2 cover it and sum "
                          "to 13, so r2c4 = 3 (an outie)")
    assert innies_outies(empty_board(4)) is None and innies_outies_several(empty_board(4)) is None  # no cages


def test_innies_of_two_rows_fix_the_cell_the_cages_inside_them_leave() -> None:
    board = Board.start(Model.from_puzzle(killer(2, 2, SOLUTION_4A, "AABB AAB. CC.. ....")))
    step = innies_outies_several(board)
    assert step is not None and step.placements == ((7, 3),)
    assert step.text == ("innies and outies of several houses: rows 1 and 2 sum to 20; the cages "
                         "inside them (cages 1 and 2) sum to 17, so r2c4 = 3 (an innie)")


def test_a_cage_poking_out_of_a_row_ties_its_outie_to_the_innies_it_leaves() -> None:
    board = Board.start(Model.from_puzzle(killer(2, 2, SOLUTION_4A, "AA.. A... .... ....")))
    step = innies_outies(board)
    assert step is not None and step.eliminations == ((4, 1),)
    assert step.text == ("innies and outies: row 1 sums to 10; cage 1 sums to 9 and covers it but "
                         "for r1c3 and r1c4, so r1c3 + r1c4 - r2c1 = 1 (innies and outies), which "
                         "rules out 1 in r2c1")


@pytest.mark.parametrize("technique", ["innies and outies", "innies and outies of several houses"])
def test_a_cages_only_killer_needs_innies_and_outies_and_each_step_names_its_digits(technique: str) -> None:
    each, answer = SEARCHING["9x9-big-cages-a"]  # 33 guesses without the two techniques, 0 with
    steps = reasoning(each)
    used = [s for s in steps if s.technique == technique]
    assert used, f"{technique} not used; used: {sorted({s.technique for s in steps})}"
    for step in used:
        assert step.text.startswith(f"{technique}: "), step.text
        placed = [f"{cell_name(c, 9).lower()} = {d} (an " for c, d in step.placements]
        assert all(words in step.text for words in placed), step.text
        ruled_out = step.text.partition("which rules out ")[2]
        for cell, digit in step.eliminations:
            assert cell_name(cell, 9).lower() in ruled_out and re.search(rf"\b{digit}\b", ruled_out), step.text
    assert_sound(steps, [tuple(int(v) for v in answer)], "9x9-big-cages-a")
    assert rate(Model.from_puzzle(each)).guesses == 0


def test_a_puzzle_beyond_the_techniques_is_rated_by_its_guesses() -> None:
    beyond = Model.from_puzzle(puzzle("top95.txt", 90))
    singles = tuple(t for t in TECHNIQUES if t.name in ("hidden single", "naked single"))
    rating = rate(beyond, techniques=singles)  # a student who knows only singles
    assert rating.technique == "guess" and rating.guesses >= 2
    assert rating.score == pytest.approx(10.0 + math.log2(rating.guesses), abs=0.01)
    first = solve(beyond, max_guesses=1, techniques=singles).events
    guess = next(i for i, e in enumerate(first) if e.kind == "guess")
    assert guess > 0 and first[guess - 1].kind == "step"  # reasoning went as far as it could
    easy = rate(Model.from_puzzle(puzzle("easy50.txt", 1)))
    assert (easy.technique, easy.score, easy.guesses) == ("hidden single", 1.2, 0)
    assert rate(beyond, unique=True).guesses == 0  # with every technique it needs none


# --------------------------------------------------------------------- soundness everywhere

QUICK_SETS = ["easy50.txt", "small_6x6.txt", "generated_4x4.txt", "generated_jigsaw_killer_6x6.txt",
              "generated_qwh_15x15.txt"]


def on_the_true_path(events: list[Event], answer: Grid) -> list[Step]:
    """The steps taken while every guess on the current path agrees with ``answer``: those
    reason from true premises, so they must be sound too, not only the steps before a guess."""
    path: list[bool] = []
    found = []
    for event in events:
        if event.kind == "guess":
            path.append(answer[event.cell] == event.digit)
        elif event.kind == "backtrack":
            path.pop()
        elif event.step is not None and all(path):
            found.append(event.step)
    return found


def check_file(name: str, count: int | None = None, seed: int | None = None) -> None:
    """Every puzzle of the file (or ``count`` of them, the first or drawn with ``seed``), solved
    to the end (uniqueness techniques on where the puzzle has one solution)."""
    puzzles = list(enumerate(load(name), 1))
    chosen = puzzles[:count] if seed is None else random.Random(seed).sample(puzzles, count or len(puzzles))
    for position, each in chosen:
        known = solutions(each)
        done = solve(Model.from_puzzle(each), max_solutions=2, unique=len(known) == 1)
        assert_sound(done.technique_steps(), known, f"{name} {position}")
        if len(known) == 1:
            assert_sound(on_the_true_path(done.events, known[0]), known, f"{name} {position}")
        assert sorted(done.solutions) == sorted(known), f"{name} {position}"


@pytest.mark.parametrize("name", QUICK_SETS)
def test_no_step_removes_a_solution_digit_and_the_solutions_are_the_known_ones(name: str) -> None:
    check_file(name)


@pytest.mark.parametrize("name", sorted(UNIQUE) + sorted(SEARCHING))
def test_no_step_on_a_killer_removes_a_solution_digit(name: str) -> None:
    each, answer = {**UNIQUE, **SEARCHING}[name]
    known = tuple(int(v) for v in answer)
    done = solve(Model.from_puzzle(each), max_solutions=2)
    assert_sound(on_the_true_path(done.events, known), [known], name)
    assert done.solutions == [known], name


SWEEP = [("top95.txt", 6), ("exchange_diabolical_se60.txt", 6), ("hardest.txt", 3), ("x_sudoku.txt", 3),
         ("jigsaw.txt", 1), ("generated_x_9x9.txt", 1), ("generated_killer_9x9.txt", 2),
         ("16x16_forum_samples.txt", 1), ("forum_hardest_1905_11plus_sample20.txt", 1)]
"""The soundness sweep over the hard, large and variant sets: a sample of each, drawn with seed
37 (each costs a few seconds of CPU). The full tier takes the sets whose sample costs under
about 4 s; the others (over 5 s each) are in the soak tier (--soak)."""
SOAKED = {"hardest.txt", "x_sudoku.txt", "generated_x_9x9.txt", "top95.txt"}


@pytest.mark.slow
@pytest.mark.parametrize("name, count", [
    pytest.param(name, count, id=name, marks=pytest.mark.soak if name in SOAKED else ()) for name, count in SWEEP])
def test_no_step_removes_a_solution_digit_on_the_hard_large_and_variant_sets(name: str, count: int) -> None:
    check_file(name, count, seed=37)


# --------------------------------------------------------------------- the rating's order

@pytest.mark.soak  # a study over three whole sets
def test_median_scores_order_easy50_below_top95_below_the_forum_hardest() -> None:
    medians = []
    for name in ("easy50.txt", "top95.txt", "forum_hardest_1905_11plus_sample20.txt"):
        sample = random.Random(5).sample(load(name), 3)
        medians.append(statistics.median(rate(Model.from_puzzle(p), unique=True).score for p in sample))
    assert medians[0] < medians[1] < medians[2], medians


def test_the_evaluation_sample_holds_the_bank_records_unchanged() -> None:
    """Each puzzle of the evaluation sample is the record its comment names: the first 12 hex
    digits of the SHA1 of its 81 digits, as the bank keys its records."""
    lines = (ROOT / "puzzles" / "exchange_diabolical_sample320.txt").read_text(encoding="utf-8").splitlines()
    records = [line.split("#") for line in lines if line and not line.startswith("#")]
    assert len(records) == 320
    for digits, comment in records:
        assert hashlib.sha1(digits.strip().encode()).hexdigest()[:12] == comment.split(", ")[1], comment


# --------------------------------------------------------------------- the command line

def test_explain_shows_the_human_techniques_by_default() -> None:
    done = compare_here("explain", "puzzles/top95.txt", "--puzzle", "5", "--max-steps", "400")
    assert done.returncode == 0, done.stderr
    assert "solver human (proved unique by mrv)" in done.stdout
    for words in ("naked triple ", "skyscraper on ", "two-string kite on ", "hidden single: "):
        assert words in done.stdout, words
    assert done.stdout.rstrip().endswith("+-------+-------+-------+")  # the solved grid


def test_explain_refuses_an_option_the_human_solver_lacks() -> None:
    done = compare_here("explain", "puzzles/easy50.txt", "--solver", "human:magic=1")
    assert done.returncode == 2 and "human takes one option, node_limit=N" in done.stderr
    done = compare_here("explain", "puzzles/easy50.txt", "--uniqueness", "sure")
    assert done.returncode == 2 and "--uniqueness: invalid choice: 'sure'" in done.stderr


def test_explain_takes_the_users_word_for_uniqueness_when_asked() -> None:
    done = compare_here("explain", "puzzles/exchange_diabolical_se60.txt", "--puzzle", "17", "--uniqueness", "assume",
                        "--max-steps", "300")
    assert done.returncode == 0, done.stderr
    assert "solver human (assumed unique (--uniqueness assume))" in done.stdout
    assert "BUG+1: " in done.stdout and "(this assumes the puzzle has one solution)" in done.stdout


def test_rate_prints_the_table_and_writes_one_record_per_puzzle(tmp_path: Path) -> None:
    path, out = tmp_path / "two.txt", tmp_path / "rated.json"
    path.write_text(to_line(puzzle("easy50.txt", 1)) + "\n" + to_line(puzzle("easy50.txt", 7)) + "\n")
    done = compare_here("rate", str(path), "--json", str(out), "--each")
    assert done.returncode == 0, done.stderr
    assert "hidden single" in done.stdout and "X-wing" in done.stdout and "median" in done.stdout
    document = json.loads(out.read_text())
    assert [(r["position"], r["technique"], r["score"]) for r in document["puzzles"]] == [
        (1, "hidden single", 1.2), (2, "X-wing", 3.2)]
    assert document["summary"]["techniques"] == {"hidden single": 1, "X-wing": 1}
    assert document["summary"]["score"]["median"] == pytest.approx(2.2)


def test_rate_proves_uniqueness_before_using_it_and_says_how_it_knew(tmp_path: Path) -> None:
    path, out = tmp_path / "two.txt", tmp_path / "rated.json"
    path.write_text(to_line(puzzle("exchange_diabolical_se60.txt", 17)) + "\n"
                    + to_line(load("special_9x9_multiple_solutions.txt")[3]) + "\n")
    done = compare_here("rate", str(path), "--json", str(out))
    assert done.returncode == 0, done.stderr
    first, second = json.loads(out.read_text())["puzzles"]
    assert first["uniqueness"] == "proved unique by mrv" and "BUG+1" in first["uses"]
    assert second["uniqueness"].startswith("not unique") and second["solutions"] == 2
    assert "unique rectangle" not in second["uses"] and "BUG+1" not in second["uses"]
    assert "rating: 2/2 puzzles, 100%" in done.stderr  # progress goes to standard error
    off = compare_here("rate", str(path), "--json", str(out), "--uniqueness", "off", "--sample", "1", "--seed", "0")
    record = json.loads(out.read_text())["puzzles"][0]
    assert off.returncode == 0 and record["uniqueness"] == "uniqueness techniques off (--uniqueness off)"
    assert "BUG+1" not in record["uses"] and "unique rectangle" not in record["uses"]


@pytest.mark.parametrize("args, words", [
    (["puzzles/malformed.txt"], "malformed.txt, line 5: bad character 'x'"),
    (["puzzles/easy50.txt", "--sample", "51"], "--sample 51: "),
    (["puzzles/easy50.txt", "--uniqueness", "maybe"], "--uniqueness: invalid choice: 'maybe'")])
def test_rate_refuses_bad_input_with_exit_2_saying_where(args: list[str], words: str) -> None:
    done = compare_here("rate", *args)
    assert done.returncode == 2 and words in done.stderr, done.stderr


# --------------------------------------------------------------------- the trace

@pytest.mark.parametrize("name, position", [
    ("teaching.txt", 14), pytest.param("x_sudoku.txt", 1, marks=pytest.mark.slow),  # 1.6 s of CPU: it needs search
    ("generated_jigsaw_killer_6x6.txt", 1)])
def test_the_human_trace_follows_the_schema_and_replays_to_the_answer(name: str, position: int) -> None:
    each, trace = puzzle(name, position), Trace()
    result = traced.solve(Model.from_puzzle(each), trace=trace)
    for event in trace.events:
        check_event(event)
        assert describe(event, each.n)
    steps = [e for e in trace.events if e["kind"] in ("place", "eliminate")]
    assert all(describe(e, each.n) == e["explanation"] for e in steps)
    assert tuple(final_board(trace.events).values) == result.solutions[0] == solutions(each)[0]
    assert result.stats.nodes == sum(e["kind"] == "decide" for e in trace.events)
