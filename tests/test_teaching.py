"""The teaching commands: ladder, explain (and its trace), render and replay."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from models import Model, Puzzle, verify
from solvers.backends.readable import backtrack, dlx, mrv
from solvers.harness.pictures.steps import final_board, replay
from solvers.trace import SCHEMA, Trace, check_event, describe, read_jsonl

from .conftest import ROOT, compare, load

TRACED = {"mrv": mrv, "backtrack": backtrack, "dlx": dlx}



def traced(name: str, puzzle: Puzzle, **options) -> tuple[object, Trace]:
    trace = Trace()
    return TRACED[name].solve(Model.from_puzzle(puzzle), trace=trace, **options), trace


TRACE_CASES = [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}")
               for name, i in (("teaching.txt", 13), ("easy50.txt", 4), ("small_6x6.txt", 0),
                               ("small_unsat.txt", 0), ("x_sudoku.txt", 0), ("jigsaw.txt", 0))]


@pytest.mark.parametrize("puzzle", TRACE_CASES)
@pytest.mark.parametrize("name", TRACED)
def test_a_trace_follows_the_schema_and_replays_to_the_answer(name: str, puzzle: Puzzle) -> None:
    if name == "backtrack" and puzzle.variant != "standard":
        pytest.skip("plain backtracking takes too long on this variant puzzle")
    result, trace = traced(name, puzzle)
    for event in trace.events:
        check_event(event)
        describe(event, puzzle.n)  # every event has words
    decisions = [e for e in trace.events if e["kind"] == "decide"]
    # backtrack's nodes count the root call too
    assert len(decisions) == result.stats.nodes - (name == "backtrack")
    board = final_board(trace.events)
    if result.solutions:
        assert tuple(board.values) == result.solutions[0]
        assert verify(puzzle, tuple(board.values)).ok
    else:
        assert trace.events[-1]["kind"] in ("backtrack", "contradiction")


def test_every_rule_of_the_top_rung_shows_in_its_trace() -> None:
    _, trace = traced("mrv", load("teaching.txt")[0])
    kinds = {(e["kind"], e.get("rule")) for e in trace.events}
    assert {("place", "naked single"), ("place", "hidden single"),
            ("eliminate", "locked candidates"), ("decide", "fewest candidates")} <= kinds
    assert {e["kind"] for e in trace.events} == set(SCHEMA)


@pytest.mark.slow
def test_a_backtrack_restores_the_board_before_its_decision() -> None:
    _, trace = traced("mrv", load("teaching.txt")[0], inference="forward", branching="first")
    boards = {}
    for event, board, _ in replay(trace.events):
        if event["kind"] == "decide":
            boards[event["depth"]] = board
        if event["kind"] == "backtrack":
            decided = boards.pop(event["depth"])
            assert board.values[event["cell"]] == 0 and decided.values[event["cell"]] == event["value"]


def test_sentences_name_rule_value_cell_and_group() -> None:
    n = 9
    assert describe({"kind": "place", "depth": 0, "cell": 22, "value": 7, "rule": "hidden single",
                     "group": "box 2"}, n) == "hidden single: 7 can go only in r3c5 within box 2"
    assert describe({"kind": "eliminate", "depth": 0, "value": 4, "cells": [45, 46],
                     "rule": "locked candidates", "group": "box 5", "other": "row 6"}, n) == \
        "locked candidates: 4 in box 5 lies in row 6, so removed from r6c1, r6c2"


@pytest.mark.slow
def test_ladder_prints_one_row_per_rung_with_fewer_decisions_up_the_ladder(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("\n".join(to_line(p) for p in load("teaching.txt")[2:4]) + "\n")
    done = compare("ladder", str(path), "--format", "markdown")
    assert done.returncode == 0, done.stderr
    rows = [line.split("|") for line in done.stdout.splitlines()[3:] if line.startswith("|")]
    assert [r[2].strip() for r in rows[:6]] == [
        "backtracking", "forward checking", "+ fewest candidates (MRV)", "+ naked singles",
        "+ hidden singles", "+ locked candidates"]
    assert all(r[4].strip() == "2/2" for r in rows)
    decisions = [float(r[5].replace(",", "")) for r in rows[:6]]
    assert decisions == sorted(decisions, reverse=True)
    assert rows[6][5] == rows[5][5]  # the fast mrv makes the top rung's decisions


def test_explain_prints_numbered_sentences_and_writes_the_trace(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    done = compare("explain", "puzzles/teaching.txt", "--max-steps", "40", "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    assert "    1. " in done.stdout and "   40. " in done.stdout and "   41. " not in done.stdout
    assert "hidden single: " in done.stdout and "decision at depth 1: try " in done.stdout
    assert "more steps" in done.stdout and done.stdout.rstrip().endswith("+")
    events = read_jsonl(trace)
    assert events[0]["kind"] == "start" and events[-1]["kind"] == "solved"


@pytest.mark.parametrize("solver", ["backtrack", "dlx", "mrv:inference=forward;branching=first"])
def test_explain_follows_each_traced_solver(solver: str) -> None:
    line = "1.....7.9.4...72..8.........7..1..6.3.......5.6..4..2.........8..53...7.7.2....46"
    done = compare("explain", "-", "--solver", solver, "--max-steps", "5", stdin=line + "\n")
    assert done.returncode == 0, done.stderr
    assert "    5. " in done.stdout and "decision at depth" in done.stdout


@pytest.mark.parametrize("args, words", [
    (["--solver", "sat"], "not 'sat'"), (["--solver", "mrv:inference=magic"], "valid"),
    (["--puzzle", "99"], "no puzzle 99"), (["nosuch.txt"], "no such file")])
def test_explain_refuses_bad_usage_with_exit_2(args: list[str], words: str) -> None:
    done = compare("explain", *(args if args[0] == "nosuch.txt" else ["puzzles/teaching.txt", *args]))
    assert done.returncode == 2 and words in done.stderr, done.stderr


def to_line(puzzle: Puzzle) -> str:
    from models import to_line as line
    return line(puzzle)


def test_a_bad_trace_line_is_named(tmp_path: Path) -> None:
    from solvers.trace import TraceError
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"kind": "start", "depth": 0}) + "\n")
    with pytest.raises(TraceError, match="line 1: start event lacks n"):
        read_jsonl(path)


# ---------------------------------------------------------------- render

@pytest.mark.slow
@pytest.mark.parametrize("name, index, solver, suffix", [
    ("teaching.txt", 0, "mrv", "png"), ("jigsaw.txt", 0, "mrv", "svg"), ("x_sudoku.txt", 0, "dlx", "png"),
    ("16x16_forum_samples.txt", 0, "mrv", "svg"), ("small_6x6.txt", 0, "backtrack", "png")])
def test_render_draws_any_size_and_variant(tmp_path: Path, name: str, index: int, solver: str,
                                           suffix: str) -> None:
    pytest.importorskip("matplotlib", reason="render needs the plot extra")
    out = tmp_path / f"picture.{suffix}"
    done = compare("render", f"puzzles/{name}", "--puzzle", str(index + 1), "--solver", solver,
                   "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    if suffix == "png":
        assert data.startswith(b"\x89PNG") and len(data) > 10_000
    else:
        text = data.decode()
        assert "<svg" in text and "given (bold)" in text and "single" in text  # the legend
        # a picture per cell value: every symbol of the solution appears as text
        assert text.count("<g id=\"text_") >= load(name)[index].n ** 2


def test_render_colours_each_filled_cell_by_how_it_was_placed() -> None:
    _, trace = traced("mrv", load("teaching.txt")[0])
    board = final_board(trace.events)
    givens = load("teaching.txt")[0].givens
    assert all((how == "given") == bool(given) for how, given in zip(board.how, givens))
    assert {"decision", "naked single", "hidden single"} <= set(board.how)


@pytest.mark.parametrize("output", ["out.gif", "out"])
def test_render_refuses_a_format_it_cannot_write(tmp_path: Path, output: str) -> None:
    done = compare("render", "puzzles/teaching.txt", "-o", str(tmp_path / output))
    assert done.returncode == 2 and ".png or .svg" in done.stderr


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def replay_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    trace = folder / "t.jsonl"
    assert compare("explain", "puzzles/teaching.txt", "--trace", str(trace)).returncode == 0
    page = folder / "page.html"
    done = compare("replay", str(trace), "-o", str(page))
    assert done.returncode == 0, done.stderr
    return page


@pytest.mark.slow
def test_the_replay_page_stands_alone(replay_page: Path) -> None:
    text = replay_page.read_text()
    assert "<script" in text and "<style>" in text
    for outside in ("src=", "href=", "http:", "https:", "@import", "fetch("):
        assert outside not in text, outside


def test_replay_refuses_a_file_that_is_not_a_trace(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "place", "depth": 0, "cell": 1, "value": 2, "rule": "naked single"}\n')
    done = compare("replay", str(bad), "-o", str(tmp_path / "p.html"))
    assert done.returncode == 2 and "starts with a 'start' event" in done.stderr


CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)


def browser_dom(page: Path, fragment: str, profile: Path) -> str:
    """The page's DOM after its script ran, as headless chromium dumps it."""
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         f"--user-data-dir={profile}", "--dump-dom", f"{page.as_uri()}#{fragment}"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def grid_of(dom: str) -> str:
    start = dom.index('<table class="grid"')
    return dom[start:dom.index("</table>", start)]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed to load the page in")
def test_a_browser_steps_the_page_forward_and_back(replay_page: Path, tmp_path: Path) -> None:
    start = browser_dom(replay_page, "steps=0", tmp_path / "a")
    seven = browser_dom(replay_page, "steps=7", tmp_path / "b")
    back = browser_dom(replay_page, "steps=7&back=7", tmp_path / "c")
    assert 'data-step="0"' in start and 'data-step="7"' in seven
    assert grid_of(start).count('class="cands"') > grid_of(seven).count('class="cands"')
    assert grid_of(seven) != grid_of(start)
    assert grid_of(back) == grid_of(start)  # back 7 steps: the board at the start again
    sentence = seven[seven.index('id="sentence"'):].split("<", 1)[0]
    events = read_jsonl(replay_page.parent / "t.jsonl")
    assert describe(events[7], 9) in sentence


@pytest.mark.slow
def test_the_docs_ladder_table_is_what_the_ladder_computes() -> None:
    # docs/teaching.md's figures come from `compare.py ladder`: decisions do not depend on the machine
    from solvers import registry
    from solvers.harness.commands.ladder import FAST, RUNGS

    page = (ROOT / "docs" / "teaching.md").read_text()
    block = page[page.index("$ python compare.py ladder --format markdown"):]
    rows = [line.split("|") for line in block.splitlines()[4:12]]
    assert len(rows) == len(RUNGS + FAST)
    for row, rung in zip(rows, RUNGS + FAST):
        assert row[3].strip() == rung.config
        backend = registry.get(rung.backend)
        decisions = [backend.solve(p, **rung.options).stats.nodes for p in load("teaching.txt")]
        assert row[5].strip() == f"{sum(decisions) / len(decisions):,.1f}", rung.name


def test_explain_stops_a_long_search_at_its_node_budget() -> None:
    done = compare("explain", "puzzles/top95.txt", "--solver", "backtrack:node_limit=3000",
                   "--max-steps", "3")
    assert done.returncode == 0, done.stderr
    assert "unknown: " in done.stdout and "node limit reached" in done.stdout


def test_explain_shows_why_a_puzzle_has_no_solution() -> None:
    done = compare("explain", "puzzles/special_9x9_unsolvable.txt", "--puzzle", "2",
                   "--solver", "mrv:inference=none;branching=mrv")
    assert done.returncode == 0, done.stderr
    assert "contradiction: " in done.stdout and "backtrack: take back" in done.stdout
    assert "unsat: " in done.stdout
