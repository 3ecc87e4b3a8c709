"""The fuzzer's parts, in this process: instances and their proved verdicts, symmetries that keep a
puzzle's groups, the metamorphic relations, the oracles, ddmin, and the finding's files."""
from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from models import Cage, Geometry, Model, Puzzle, find_duplicate, parse_puzzle, read_text, verify
from solvers import registry
from solvers.generate.instances import FAMILIES, VERDICTS, Alternatives, random_instance
from solvers.harness.engine.configs import parse_one
from solvers.harness.fuzz import findings
from solvers.harness.fuzz.campaign import Tally, _count
from solvers.harness.fuzz.cases import draw_case
from solvers.harness.fuzz.mutators import KINDS, Symmetry, draw, preserves, random_symmetry
from solvers.harness.fuzz.oracles import failure_of
from solvers.harness.fuzz.relations import Answer, Mutant, mutant_for, violated
from solvers.harness.fuzz.shrink import ddmin, parts_of, rebuild, shrink
from solvers.harness.tasks import Configuration

from .conftest import ROOT, load

COUNTED = {0: "none", 1: "unique", 2: "several"}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("verdict", VERDICTS)
def test_an_instance_has_the_verdict_it_says_as_sat_counts_it(family: str, verdict: str) -> None:
    made = random_instance(random.Random(f"verdict/{family}/{verdict}"), 6, family, verdict)
    result = registry.get("sat").solve(made.puzzle, max_solutions=2)
    assert COUNTED[len(result.solutions)] == made.verdict == verdict
    assert find_duplicate(made.puzzle.givens, Model.from_puzzle(made.puzzle).groups) is None
    if made.solution is not None:
        assert verify(made.puzzle, made.solution)


def test_an_instance_of_a_seed_is_the_same_every_time() -> None:
    first = random_instance(random.Random("again"), 9, "killer", "several")
    assert random_instance(random.Random("again"), 9, "killer", "several") == first


def test_most_unsolvable_12x12_instances_need_search_to_refute() -> None:
    # a wrong given that propagation (naked and hidden singles) does not refute at once
    made = [random_instance(random.Random(f"search/{i}"), 12, "standard", "none") for i in range(4)]
    hidden = [m for m in made if not Alternatives(m.puzzle).refuted(m.puzzle.givens)]
    assert len(hidden) >= 3


# -- symmetries ---------------------------------------------------------------------------

@pytest.mark.parametrize("family", FAMILIES)
def test_a_random_symmetry_maps_the_solution_to_a_solution_of_the_mutant(family: str) -> None:
    rng = random.Random(f"symmetry/{family}")
    for _ in range(6):
        made = random_instance(rng, rng.choice((4, 6, 9)), family, "unique")
        symmetry = random_symmetry(made.puzzle, rng)
        assert symmetry is not None
        assert made.solution is not None
        assert verify(symmetry.apply(made.puzzle), symmetry.grid(made.solution))


@pytest.mark.parametrize(("puzzle", "kind"), [
    pytest.param(load("x_sudoku.txt")[0], "permute bands", id="bands-move-the-x-diagonals"),
    pytest.param(load("small_6x6.txt")[0], "transpose", id="transpose-turns-2x3-boxes"),
    pytest.param(load("generated_killer_9x9.txt")[0], "relabel digits", id="relabel-breaks-cage-totals"),
])
def test_a_symmetry_that_would_not_keep_the_groups_is_refused(puzzle: Puzzle, kind: str) -> None:
    rng = random.Random(1)
    assert not any(preserves(puzzle, symmetry) for symmetry in (draw(kind, puzzle, rng) for _ in range(5))
                   if symmetry.cells != tuple(range(len(symmetry.cells))))


def test_every_kind_of_symmetry_keeps_a_plain_9x9() -> None:
    puzzle = load("top95.txt")[0]
    assert all(preserves(puzzle, draw(kind, puzzle, random.Random(2))) for kind in KINDS)


# -- relations ----------------------------------------------------------------------------

GRID = parse_puzzle("1234341221434321").givens
OTHER = parse_puzzle("1234432121433412").givens
ELSE = parse_puzzle("2143341212344321").givens  # 2 in r1c1, where the others hold 1
EMPTY = Puzzle(Geometry.for_size(4), (0,) * 16)
SWAP = Symmetry("relabel digits", tuple(range(16)), (0, 2, 1, 3, 4))


def _one(*grids: tuple[int, ...], exact: bool = True) -> Answer:
    return Answer(frozenset(grids), exact)


@pytest.mark.parametrize(("mutant", "before", "after", "broken"), [
    pytest.param(Mutant("symmetry", "relabel", EMPTY, SWAP), _one(GRID), _one(SWAP.grid(GRID)), False,
                 id="symmetry-mapped-unique-holds"),
    pytest.param(Mutant("symmetry", "relabel", EMPTY, SWAP), _one(GRID), _one(GRID), True,
                 id="symmetry-unmapped-unique-breaks"),
    pytest.param(Mutant("symmetry", "relabel", EMPTY, SWAP), _one(GRID), _one(), True,
                 id="symmetry-sat-against-unsat-breaks"),
    pytest.param(Mutant("symmetry", "relabel", EMPTY, SWAP), _one(GRID, exact=False),
                 _one(OTHER, exact=False), False, id="symmetry-two-lower-bounds-hold"),
    pytest.param(Mutant("one given more", "r1c1=1", EMPTY, cell=0, digit=1), _one(GRID, exact=False),
                 _one(), True, id="more-unsat-breaks"),
    pytest.param(Mutant("one given more", "r1c2=2", EMPTY, cell=1, digit=2), _one(GRID, OTHER),
                 _one(GRID, OTHER), False, id="more-same-two-hold"),
    pytest.param(Mutant("one given more", "r2c1=3", EMPTY, cell=4, digit=3), _one(GRID, OTHER),
                 _one(GRID, OTHER), True, id="more-solution-without-the-digit-breaks"),
    pytest.param(Mutant("one given less", "r1c1 emptied", EMPTY, cell=0, digit=1), _one(GRID),
                 _one(OTHER), True, id="less-lost-a-solution-breaks"),
    pytest.param(Mutant("one given less", "r1c1 emptied", EMPTY, cell=0, digit=1), _one(GRID),
                 _one(GRID, ELSE), False, id="less-gained-a-solution-holds"),
    pytest.param(Mutant("one given less", "r1c1 emptied", EMPTY, cell=0, digit=1), _one(GRID),
                 _one(GRID, OTHER), True, id="less-gained-one-the-original-lacks-breaks"),
])
def test_a_relation_is_broken_only_by_answers_that_cannot_both_be_true(
        mutant: Mutant, before: Answer, after: Answer, broken: bool) -> None:
    assert (violated(mutant, before, after) is not None) == broken


def test_a_relation_made_again_for_a_smaller_puzzle_keeps_its_cell_and_digit() -> None:
    puzzle = parse_puzzle("12..34....43..21")
    less = Mutant("one given less", "r1c2 emptied", puzzle, cell=1, digit=2)
    assert mutant_for(less, puzzle.with_givens((1, 2) + (0,) * 14)).puzzle.givens[:2] == (1, 0)
    assert mutant_for(less, puzzle.with_givens((1, 0) + (0,) * 14)) is None


# -- oracles ------------------------------------------------------------------------------

@pytest.mark.parametrize(("category", "reason", "elsewhere", "kind", "signature"), [
    ("wrong", "invalid solution: duplicate 3 in row 1", True, "wrong", "wrong"),
    ("error", "worker process died: killed by signal SIGSEGV", True, "crash", "crash"),
    ("error", "result channel: garbage", True, "crash", "crash"),
    ("error", "malformed answer from the worker: 3 cells", True, "malformed", "malformed"),
    ("error", "backend returned dict, not a Result", True, "malformed", "malformed"),
    ("error", "KeyError: 7 (at mine.py:3 in solve)", True, "error", "error KeyError"),
    ("timeout", "killed after 2.0 s (limit 1 s)", True, "hang", "hang"),
    ("timeout", "killed after 2.0 s (limit 1 s)", False, None, None),
    ("unknown", "node limit reached", True, None, None),
    ("unsupported", "no sums", True, None, None),
    ("unchecked", "claim not confirmed", True, None, None),
    ("correct", "verified", True, None, None),
])
def test_a_judged_run_is_the_finding_its_category_and_reason_say(
        category: str, reason: str, elsewhere: bool, kind: str | None, signature: str | None) -> None:
    failure = failure_of(category, reason, answered_elsewhere=elsewhere)
    assert (failure and failure.kind, failure and failure.signature) == (kind, signature)


def test_the_tally_counts_unchecked_claims_gave_up_and_unsupported_runs_apart() -> None:
    tally = Tally()
    _count(tally, draw_case(1, 0, [4], ["standard"], ["unique"]),
           [(False, "unchecked"), (True, "unchecked"), (False, "unknown"), (False, "unsupported"),
            (True, "timeout"), (False, "correct")])
    assert (tally.cases, tally.unchecked, tally.gave_up, tally.unsupported, tally.slow_references) == (1, 2, 1, 1, 1)


# -- shrinking ----------------------------------------------------------------------------

def test_ddmin_ends_at_the_parts_the_failure_needs() -> None:
    parts = [("given", cell) for cell in range(40)]
    kept, minimal = ddmin(parts, lambda left: {("given", 3), ("given", 31)} <= set(left))
    assert (sorted(kept), minimal) == ([("given", 3), ("given", 31)], True)


def test_ddmin_stops_at_its_deadline_and_says_so() -> None:
    kept, minimal = ddmin([("given", cell) for cell in range(40)], lambda left: True, deadline=0.0)
    assert (len(kept), minimal) == (40, False)


def test_shrinking_removes_cages_rules_and_diagonals_the_failure_does_not_need() -> None:
    puzzle = Puzzle(Geometry.for_size(4), (1,) + (0,) * 15, diagonals=True, rules=("antiknight",),
                    cages=(Cage((0, 1), 3), Cage((14, 15), 7)))
    small, _, minimal = shrink(puzzle, lambda p: any(c.total == 7 for c in p.cages))
    assert (small.num_givens, small.cages, small.diagonals, small.rules, minimal) == (
        0, (Cage((14, 15), 7),), False, (), True)


def test_shrinking_keeps_a_pinned_given() -> None:
    puzzle = parse_puzzle("12..34....43..21")
    small, _, _ = shrink(puzzle, lambda p: True, pinned=[("given", 15)])
    assert small.givens == (0,) * 15 + (1,)


def test_jigsaw_regions_give_way_to_boxes_only_where_no_two_givens_then_clash() -> None:
    jigsaw = load("jigsaw.txt")[0]
    box = Geometry.for_size(9).boxes[0]
    a, b = next((a, b) for a in box for b in box if jigsaw.regions[a] != jigsaw.regions[b]
                and a // 9 != b // 9 and a % 9 != b % 9)
    crowded = jigsaw.with_givens(tuple(5 if cell in (a, b) else 0 for cell in range(81)))
    assert ("regions", 0) in parts_of(crowded)
    assert rebuild(crowded, {("regions", 0)}) is None
    alone = rebuild(jigsaw.with_givens(tuple(5 if cell == a else 0 for cell in range(81))), {("regions", 0)})
    assert alone is not None and alone.regions is None


# -- the finding's files ------------------------------------------------------------------

def _finding(solver: Configuration, mode: str = "unique") -> findings.Finding:
    original = parse_puzzle("12..34....43..21")
    return findings.Finding("wrong", "wrong", solver, mode, "4/2", "claims a unique solution, but...",
                            original, "standard", "several", puzzle=original.with_givens((1,) + (0,) * 15),
                            minimal=True, tests=9, time_limit=2.0)


def test_the_command_names_the_plugin_from_the_project_root_with_the_mode_and_the_failing_categories(
        tmp_path: Path) -> None:
    plugin = Configuration("mine", plugin=f"mine={ROOT / 'tests/plugins/fuzzbugs.py'}:raises", backend="mine")
    words = shlex.split(findings.command(_finding(plugin), tmp_path / "finding-1.txt"))
    assert words[:3] == ["python", "compare.py", "run"]
    assert words[words.index("--plugin") + 1] == "mine=tests/plugins/fuzzbugs.py:raises"
    assert words[words.index("--solvers") + 1] == "mine"
    assert "--unique" in words and words[words.index("--fail-on") + 1] == "error,timeout"
    assert words[words.index("--timeout") + 1] == "2"


def test_findings_json_holds_exactly_the_named_fields_and_the_file_reads_back_as_the_shrunk_puzzle(
        tmp_path: Path) -> None:
    finding = _finding(parse_one("mrv"), mode="count")
    (path,) = findings.write(tmp_path, [finding])
    (record,) = json.loads((tmp_path / "findings.json").read_text())["findings"]
    assert tuple(record) == findings.FIELDS
    assert record["mode"] == "count" and "--max-solutions 4" in record["command"]
    assert read_text(path.read_text()).puzzles[0].givens == finding.shrunk.givens


@pytest.mark.slow
def test_a_seed_draws_the_same_cases_in_processes_with_different_hash_seeds() -> None:
    code = ("from solvers.harness.fuzz.cases import draw_case; from models import to_line; "
            "print([to_line(p) for i in range(12) for p in draw_case(5, i, (4, 6, 9), "
            "('standard', 'x', 'jigsaw', 'killer', 'extra', 'latin'), ('plain',)).puzzles])")
    drawn = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": hash_seed}).stdout for hash_seed in ("1", "2")]
    assert drawn[0] == drawn[1] and drawn[0].count("variant=") > 5
