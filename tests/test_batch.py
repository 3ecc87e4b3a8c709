"""run --batch and solve --batch: the array reader, the array checker, the batch entry's
answers checked and judged as columns, and the command lines.

The reader and the checker are held to the regular ones (read_puzzles, verify) on every
bundled file and layout; the columns' summary to report.summarize over the same runs.
"""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from models import Model, Puzzle, read_puzzles, verify
from models.checker_many import verify_many
from models.puzzle_arrays import PuzzleArray, gather, read_arrays
from solvers import registry
from solvers.harness.engine.batch import run_batch
from solvers.harness.engine.batch import verify as verify_answer
from solvers.harness.results import report
from solvers.harness.results.batch_runs import CATEGORIES, judge_batch, runs_of, summary_rows
from solvers.harness.results.judge import Category
from solvers.harness.tasks import Configuration

from .conftest import PUZZLES, compare, compare_here, load

pytest.importorskip("numba", reason="the fast backend needs numba: pip install numba")

FAST = Configuration("fast", backend="fast")
BIG = {"17_clue.txt"}
"""Read by the regular reader in seconds: compared in the slow tier."""


def _flat(arrays: list[PuzzleArray]) -> list[Puzzle]:
    return sorted((a.puzzle(i) for a in arrays for i in range(len(a))), key=lambda p: p.source.index)


def _same_as_the_regular_reader(path: Path) -> None:
    arrays, errors = read_arrays(path)
    batch = read_puzzles(path)
    mine = _flat(arrays)
    assert mine == batch.puzzles and [p.source for p in mine] == [p.source for p in batch.puzzles]
    assert [(str(e), e.line, e.index) for e in errors] == [(str(e), e.line, e.index) for e in batch.errors]


@pytest.mark.parametrize("name", [p.name for p in sorted(PUZZLES.glob("*.txt")) if p.name not in BIG]
                         + ["generated_killer_9x9.json"])
def test_reading_arrays_gives_what_the_regular_reader_gives(name: str) -> None:
    _same_as_the_regular_reader(PUZZLES / name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BIG))
def test_reading_a_large_file_into_arrays_gives_what_the_regular_reader_gives(name: str) -> None:
    _same_as_the_regular_reader(PUZZLES / name)


LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SIXTEEN = load("16x16_forum_samples.txt")[0]


@pytest.mark.parametrize("text", [
    pytest.param(f"# a comment\r\n{LINE}\r\n\r\n{LINE}  # trailing comment\r\n", id="crlf-and-comments"),
    pytest.param(f"{LINE}\n{LINE[:-1]}x\n44{LINE[2:]}\n{LINE[:-1]}A\n", id="bad-symbol-repeat-range"),
    pytest.param(f"{LINE}\n" + "".join(str(v) if v < 10 else chr(55 + v) if v else "."
                                       for v in SIXTEEN.givens) + f"\n{LINE}\n", id="mixed-sizes"),
    pytest.param(f"{LINE}\n12..34....43..21\n", id="a-4x4-line-falls-back"),
    pytest.param(f"{LINE}\r\n{LINE}\r\n{LINE[::-1]}", id="crlf-lines-at-one-step-no-last-newline"),
    pytest.param(f"{LINE}\n\n{LINE}\n{LINE[::-1]}\n# end\n", id="lines-at-uneven-steps"),
    pytest.param("".join(f"4{'.' * (c - 1)}4{'.' * (80 - c)}\n" for c in (3, 27, 10))
                 + "".join(f"A{'.' * (c - 1)}A{'.' * (255 - c)}\n" for c in (3, 64, 17)),
                 id="a-repeat-in-a-row-a-column-or-a-box-alone-9x9-and-16x16"),
    pytest.param("6 . 5 . . 3 . 4 .\n" * 9, id="grid-falls-back"),
    pytest.param(f"{LINE} variant=x\n", id="fields-fall-back"),
])
def test_reading_arrays_of_odd_files_gives_what_the_regular_reader_gives(tmp_path: Path, text: str) -> None:
    path = tmp_path / "odd.txt"
    path.write_bytes(text.encode())
    _same_as_the_regular_reader(path)


def _solved(puzzle: Puzzle) -> tuple[int, ...]:
    result = registry.solve("mrv", puzzle)
    assert result.solution is not None
    return result.solution


LAYOUTS = [("top95.txt", 0), ("x_sudoku.txt", 0), ("jigsaw.txt", 1), ("generated_jigsaw_killer_6x6.txt", 2),
           ("16x16_forum_samples.txt", 0), ("small_6x6.txt", 0), ("generated_qwh_15x15.txt", 0)]


@pytest.mark.parametrize("name, index", LAYOUTS)
def test_the_array_checker_agrees_with_verify(name: str, index: int) -> None:
    puzzle = load(name)[index]
    right = list(_solved(puzzle))
    free = [c for c, v in enumerate(puzzle.givens) if not v]
    given = next((c for c, v in enumerate(puzzle.givens) if v), free[2])  # a killer may have none
    swapped = list(right)
    swapped[free[0]], swapped[free[1]] = swapped[free[1]], swapped[free[0]]
    changed = list(right)
    changed[given] = right[given] % puzzle.n + 1
    empty = list(right)
    empty[free[-1]] = 0
    grids = [right, swapped, changed, empty]
    ok = verify_many(puzzle, np.array([puzzle.givens] * 4, np.uint8), np.array(grids, np.uint8))
    assert ok.tolist() == [verify(puzzle, g).ok for g in grids] and ok.tolist()[0]


def _latin(n: int) -> list[int]:
    """Rows and columns each hold 1..n; the boxes do not."""
    return [(r + c) % n + 1 for r in range(n) for c in range(n)]


def _wrong_grid(kind: str, right: list[int], n: int) -> list[int]:
    """The solution made wrong in one way."""
    grid = list(right)
    if kind == "columns-repeat":  # the first row again as the second: every row still holds 1..n
        grid[n:2 * n] = grid[:n]
    elif kind == "boxes-repeat":
        grid = _latin(n)
    elif kind == "zero":
        grid[-1] = 0
    elif kind == "above-n":
        grid[-1] = n + 1
    elif kind == "far-above-n":
        grid[-1] = 200
    elif kind == "negative":
        grid[-1] = -right[-1]
    return grid


@pytest.mark.parametrize("name", ["top95.txt", "small_6x6.txt", "16x16_forum_samples.txt"])
@pytest.mark.parametrize("kind", ["columns-repeat", "boxes-repeat", "zero", "above-n", "far-above-n",
                                  "negative"])
def test_the_array_checker_rejects_each_kind_of_wrong_grid(name: str, kind: str) -> None:
    puzzle = load(name)[0]
    blank = Puzzle(puzzle.geometry, (0,) * len(puzzle.givens))  # no given to break first
    right = list(_solved(puzzle))
    wrong = _wrong_grid(kind, right, puzzle.n)
    grids = np.array([right, wrong, right], np.int64)
    ok = verify_many(blank, np.zeros(grids.shape, np.uint8), grids)
    assert ok.tolist() == [True, False, True] and not verify(blank, wrong).ok


def _answer(name: str, count: int | None = None, **options: object) -> tuple[PuzzleArray, object]:
    arrays, _ = read_arrays(PUZZLES / name)
    array = arrays[0] if count is None else PuzzleArray(
        arrays[0].template, arrays[0].givens[:count], arrays[0].lines[:count], arrays[0].indexes[:count])
    answer = run_batch(Configuration("fast", backend="fast", options=tuple(options.items())), array,
                       max_solutions=2, time_limit=10.0)
    verify_answer(answer)
    return array, answer


def test_fast_alone_has_a_batch_entry_and_refuses_options_it_has_no_batch_kernel_for() -> None:
    assert [name for name in registry.names() if registry.get(name).batch] == ["fast"]
    model = Model.from_puzzle(load("top95.txt")[0])
    with pytest.raises(ValueError, match="learning"):
        registry.get("fast").solve_batch(model, np.zeros((1, 81), np.uint8), learning="conflicts")
    with pytest.raises(ValueError, match="seed"):
        registry.get("fast").solve_batch(model, np.zeros((1, 81), np.uint8), seed=3)


def test_a_batch_answers_every_puzzle_verified_its_asked_claims_unchecked_never_solved() -> None:
    _, answer = _answer("top95.txt")
    (judged,) = judge_batch([answer], 2)  # asked for two: "unique" is the answer, and unchecked
    assert answer.verified.all() and not answer.error
    assert all(CATEGORIES[c] == Category.UNCHECKED for c in judged.category) and judged.unchecked.all()
    run = runs_of(judged, [3])[0]
    assert (run.proof, run.category, run.claim, run.index) == ("unchecked", "unchecked", "unique solution", 3)
    assert verify(load("top95.txt")[3], tuple(int(ch) for ch in run.solutions[0])).ok


def test_a_batch_asked_for_one_solution_records_its_claims_as_not_asked() -> None:
    _, answer = _answer("top95.txt")
    (judged,) = judge_batch([answer], 1)  # judged as asked for one: "unique" was not asked
    assert all(CATEGORIES[c] == Category.CORRECT for c in judged.category) and not judged.unchecked.any()
    run = runs_of(judged, [3])[0]
    assert (run.proof, run.category) == ("not asked", "correct")


def test_a_wrong_solution_from_the_batch_entry_is_judged_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    from solvers.backends import fast

    real = fast.solve_batch

    def corrupting(*args: object, **kwargs: object) -> object:
        batch = real(*args, **kwargs)
        batch.grids[1, 0, :2] = batch.grids[1, 0, 1::-1].copy()  # two cells swapped in puzzle 2
        return batch

    monkeypatch.setattr(fast, "solve_batch", corrupting)
    _, answer = _answer("hardest.txt")
    (judged,) = judge_batch([answer], 2)
    assert CATEGORIES[judged.category[1]] == Category.WRONG and "duplicate" in answer.problems[1]
    assert (judged.category == CATEGORIES.index(Category.UNCHECKED)).sum() == len(judged) - 1


@pytest.mark.parametrize("broken", ["shape", "count", "value"])
def test_a_malformed_batch_answer_is_every_runs_error(monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    from solvers.backends import fast

    real = fast.solve_batch

    def malformed(*args: object, **kwargs: object) -> object:
        batch = real(*args, **kwargs)
        fields = batch._asdict()
        if broken == "shape":
            fields["counts"] = fields["counts"][:-1]
        elif broken == "count":
            fields["counts"] = fields["counts"] + 5
        else:
            fields["grids"] = fields["grids"] + 20
        return SimpleNamespace(**fields)

    monkeypatch.setattr(fast, "solve_batch", malformed)
    _, answer = _answer("hardest.txt")
    (judged,) = judge_batch([answer], 2)
    assert answer.error and (judged.category == CATEGORIES.index(Category.ERROR)).all()


def test_another_configurations_solution_refutes_a_claim_of_uniqueness() -> None:
    array, answer = _answer("special_9x9_multiple_solutions.txt", 5)
    liar = run_batch(FAST, array, max_solutions=2, time_limit=10.0)
    liar.counts = np.minimum(liar.counts, 1)  # says "unique" where there are several
    liar.complete = np.ones(len(liar.counts), bool)
    verify_answer(liar)
    liar_judged, honest = judge_batch([liar, answer], 2)
    several = answer.counts >= 2
    assert several.any() and liar_judged.refuted[several].all()
    assert (liar_judged.category[several] == CATEGORIES.index(Category.WRONG)).all()
    assert (honest.category == CATEGORIES.index(Category.CORRECT)).all()


def test_each_puzzles_own_time_limit_and_node_limit_end_it_without_an_answer() -> None:
    _, _late = _answer("forum_hardest_1106.txt", 60)
    arrays, _ = read_arrays(PUZZLES / "forum_hardest_1106.txt")
    short = run_batch(FAST, PuzzleArray(arrays[0].template, arrays[0].givens[:60], arrays[0].lines[:60],
                                        arrays[0].indexes[:60]), max_solutions=2, time_limit=0.0)
    verify_answer(short)
    (judged,) = judge_batch([short], 2)
    assert short.timed_out.any() and (judged.category[short.timed_out] == CATEGORIES.index(Category.TIMEOUT)).all()
    _, budget = _answer("forum_hardest_1106.txt", 20, node_limit=1)
    (spent,) = judge_batch([budget], 2)
    assert (spent.category == CATEGORIES.index(Category.UNKNOWN)).all() and (budget.nodes <= 1).all()


def test_the_summary_from_the_columns_is_reports_summary_of_the_same_runs() -> None:
    _, full = _answer("forum_hardest_1106.txt", 40)
    _, spent = _answer("forum_hardest_1106.txt", 40, node_limit=100)
    judged = judge_batch([full], 2) + judge_batch([spent], 2)
    spent.configuration = judged[1].answer.configuration = Configuration(
        "fast:node_limit=100", backend="fast", options=(("node_limit", 100),))
    mine = summary_rows(judged, unique=True, limit=10.0, par=2.0)
    theirs = report.summarize([r for j in judged for r in runs_of(j)], unique=True, limit=10.0, par=2.0)
    assert len(mine) == 2 and mine == theirs


def test_puzzles_from_a_stream_are_gathered_by_layout() -> None:
    puzzles = [*load("top95.txt")[:3], *load("x_sudoku.txt")[:2], load("top95.txt")[5]]
    arrays, errors = gather(puzzles)
    assert [len(a) for a in arrays] == [4, 2] and not errors
    assert [int(i) for i in arrays[0].indexes] == [0, 1, 2, 5]


@pytest.mark.slow
def test_run_batch_tabulates_every_puzzle_and_says_what_it_did_not_check(tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    ran = compare("run", "puzzles/default.txt", "puzzles/16x16_forum_samples.txt", "--solvers",
                  "fast,general=fast:kernel=general", "--batch", "--unique", "--json", str(out),
                  "--format", "markdown")
    assert ran.returncode == 1, ran.stderr  # claims asked (--unique) and unchecked: never a silent 0
    assert "unchecked" in ran.stdout and "--batch: each file solved by the batch entry" in ran.stderr
    assert "default.txt 9x9" in ran.stdout and "16x16_forum_samples.txt 16x16" in ran.stdout
    assert "runs read, solved, checked and judged" in ran.stderr
    document = json.loads(out.read_text())
    assert len(document["runs"]) == 2 * (13 + 2) and document["options"]["batch"] is True
    assert {r["proof"] for r in document["runs"]} == {"unchecked"}
    shown = compare_here("report", str(out))
    assert shown.returncode == 1 and "16x16_forum_samples.txt 16x16" in shown.stdout


@pytest.mark.slow
def test_solve_batch_prints_what_solve_prints() -> None:
    one = compare("solve", "puzzles/hardest.txt", "--solver", "fast", "--format", "line", "--unique")
    many = compare("solve", "puzzles/hardest.txt", "--solver", "fast", "--format", "line", "--unique",
                   "--batch")
    assert (one.returncode, many.returncode) == (0, 1), many.stderr  # proved alone; unchecked in a batch
    grids = [[line for line in out.stdout.splitlines() if not line.startswith("#")] for out in (one, many)]
    assert grids[0] == grids[1] and len([g for g in grids[1] if g]) == 11
    assert many.stdout.count("UNCHECKED answer from fast") == 11 and "--batch re-derives no claim" in many.stdout


@pytest.mark.parametrize("arguments, said", [
    (["--solvers", "sat"], "has no batch entry; backends that have one: fast"),
    pytest.param(["--solvers", "fast", "--memory-limit", "100"], "leave out --memory-limit",
                 marks=pytest.mark.slow),
    pytest.param(["--solvers", "fast", "--jobs", "2"], "leave out --jobs", marks=pytest.mark.slow),
    pytest.param(["--solvers", "fast:learning=conflicts"], "no batch kernel for learning=conflicts",
                 marks=pytest.mark.slow),
])
def test_what_a_batch_cannot_do_is_a_usage_error(arguments: list[str], said: str) -> None:
    ran = compare("run", "puzzles/hardest.txt", "--batch", *arguments)
    assert ran.returncode == 2 and said in ran.stderr
