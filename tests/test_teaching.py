"""The teaching commands: ladder, explain (and its trace), render and replay."""
from __future__ import annotations

import importlib
import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from models import Model, Puzzle, verify
from solvers import registry
from solvers.harness.pictures.replay_page import render_page
from solvers.harness.pictures.steps import final_board, named_cells, replay
from solvers.human import traced as human
from solvers.trace import SCHEMA, Trace, check_event, describe, read_jsonl

from .chromium import CHROMIUM, Browser
from .conftest import ROOT, cli, compare, compare_here, load

TRACED = {name: importlib.import_module(backend.declaration.traces)
          for name, backend in registry.BACKENDS.items() if backend.declaration.traces}
"""The backends whose declaration names a readable twin that records a trace."""



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
    path.write_text("\n".join(to_line(load("teaching.txt")[i]) for i in (2, 13)) + "\n")
    # the bottom rung averages 9,647 decisions on these two (puzzle 4, the second before, cost
    # the run 1.2 s of CPU more): a generous limit keeps a loaded machine from cutting it
    done = compare("ladder", str(path), "--format", "markdown", "--timeout", "120")
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
    done = compare_here("explain", "puzzles/teaching.txt", "--max-steps", "40", "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    assert "    1. " in done.stdout and "   40. " in done.stdout and "   41. " not in done.stdout
    assert "hidden single: " in done.stdout and "cell forcing chain: " in done.stdout  # no guess needed
    assert "more steps" in done.stdout and done.stdout.rstrip().endswith("+")
    events = read_jsonl(trace)
    assert events[0]["kind"] == "start" and events[-1]["kind"] == "solved"


@pytest.mark.parametrize("solver", ["backtrack", "dlx", "mrv:inference=forward;branching=first"])
def test_explain_follows_each_traced_solver(solver: str) -> None:
    line = "1.....7.9.4...72..8.........7..1..6.3.......5.6..4..2.........8..53...7.7.2....46"
    done = compare_here("explain", "-", "--solver", solver, "--max-steps", "5", stdin=line + "\n")
    assert done.returncode == 0, done.stderr
    # dlx's first steps take columns with one row left: forced moves, named as such
    assert "    5. " in done.stdout and ("decision at depth" in done.stdout
                                         or "forced at depth" in done.stdout)


@pytest.mark.parametrize("args, words", [
    (["--solver", "sat"], "'sat' records no trace"), (["--solver", "mrv:inference=magic"], "valid"),
    (["--puzzle", "99"], "no puzzle 99"), (["nosuch.txt"], "no such file")])
def test_explain_refuses_bad_usage_with_exit_2(args: list[str], words: str) -> None:
    done = compare_here("explain", *(args if args[0] == "nosuch.txt" else ["puzzles/teaching.txt", *args]))
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
    done = compare_here("render", f"puzzles/{name}", "--puzzle", str(index + 1), "--solver", solver,
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
    done = compare_here("render", "puzzles/teaching.txt", "-o", str(tmp_path / output))
    assert done.returncode == 2 and ".png or .svg" in done.stderr


# ---------------------------------------------------------------- replay

@pytest.fixture(scope="module")
def replay_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    trace = folder / "t.jsonl"
    assert compare_here("explain", "puzzles/teaching.txt", "--solver", "mrv", "--trace", str(trace)).returncode == 0
    page = folder / "page.html"
    done = compare_here("replay", str(trace), "-o", str(page))
    assert done.returncode == 0, done.stderr
    return page


@pytest.mark.slow
def test_the_replay_page_stands_alone(replay_page: Path) -> None:
    text = replay_page.read_text()
    assert "<script" in text and "<style>" in text
    for outside in ("src=", "href=", "http:", "https:", "@import", "fetch("):
        assert outside not in text, outside


@pytest.mark.slow
@pytest.mark.parametrize("steps, status, words", [("3", 0, "(3 steps, "), ("0", 2, "--max-steps")])
def test_replay_keeps_the_first_n_steps_when_asked(replay_page: Path, tmp_path: Path, steps: str,
                                                   status: int, words: str) -> None:
    done = compare_here("replay", str(replay_page.parent / "t.jsonl"), "--max-steps", steps,
                        "-o", str(tmp_path / "p.html"))
    assert done.returncode == status and words in done.stdout + done.stderr, done.stderr
    assert (tmp_path / "p.html").exists() == (status == 0)


def test_replay_refuses_a_file_that_is_not_a_trace(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "place", "depth": 0, "cell": 1, "value": 2, "rule": "naked single"}\n')
    done = compare_here("replay", str(bad), "-o", str(tmp_path / "p.html"))
    assert done.returncode == 2 and "starts with a 'start' event" in done.stderr


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the page tests of this module (starting one takes seconds)."""
    if CHROMIUM is None:
        pytest.skip("no chromium installed to load the page in")
    with Browser(tmp_path_factory.mktemp("chromium")) as chromium:
        yield chromium


def shown(browser: Browser, element: str) -> str:
    return browser.evaluate(f"document.getElementById({element!r}).outerHTML")


def at_step(browser: Browser) -> int:
    return int(browser.evaluate("document.getElementById('status').dataset.step"))


@pytest.mark.slow
def test_a_browser_steps_the_page_forward_and_back(browser: Browser, replay_page: Path) -> None:
    browser.open(f"{replay_page.as_uri()}#steps=0")
    start, start_status = shown(browser, "grid"), shown(browser, "status")
    browser.open(f"{replay_page.as_uri()}#steps=7")
    seven, sentence = shown(browser, "grid"), browser.evaluate("document.getElementById('sentence').textContent")
    seven_status = shown(browser, "status")
    browser.open(f"{replay_page.as_uri()}#steps=7&back=7")
    back = shown(browser, "grid")
    assert 'data-step="0"' in start_status and 'data-step="7"' in seven_status
    assert start.count('class="cands"') > seven.count('class="cands"')
    assert seven != start
    assert back == start  # back 7 steps: the board at the start again
    events = read_jsonl(replay_page.parent / "t.jsonl")
    assert describe(events[7], 9) in sentence


@pytest.mark.slow
def test_the_keyboard_steps_jumps_and_plays(browser: Browser, replay_page: Path) -> None:
    browser.open(replay_page.as_uri())
    total = len(read_jsonl(replay_page.parent / "t.jsonl")) - 1
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        browser.press(key)
    assert at_step(browser) == 2
    browser.press("End")
    assert at_step(browser) == total
    browser.press("Home")
    assert at_step(browser) == 0
    browser.press(" ")  # space plays ...
    assert browser.wait_for("document.getElementById('status').dataset.step > 0")
    assert browser.evaluate("document.getElementById('play').getAttribute('aria-pressed')") == "true"
    browser.press(" ")  # ... and pauses
    assert browser.evaluate("document.getElementById('play').getAttribute('aria-pressed')") == "false"
    paused = at_step(browser)
    assert 0 < paused < total and at_step(browser) == paused
    # the controls are real buttons, reached with Tab and pressed with Enter
    browser.press("Tab")
    assert browser.evaluate("document.activeElement.tagName + '#' + document.activeElement.id") == "BUTTON#first"
    browser.press("Tab")
    browser.press("Tab")
    browser.press("Tab")  # start, back, play, next
    browser.press("Enter")
    assert at_step(browser) == paused + 1


@pytest.mark.slow
def test_autoplay_advances_at_the_chosen_speed_and_stops_at_the_end(browser: Browser,
                                                                    replay_page: Path) -> None:
    total = len(read_jsonl(replay_page.parent / "t.jsonl")) - 1
    browser.open(f"{replay_page.as_uri()}#steps={total - 30}&play&speed=100")
    assert browser.evaluate("document.getElementById('speed').value") == "100"
    browser.wait_for(f"document.getElementById('status').dataset.step == {total}")
    assert browser.evaluate("document.getElementById('play').getAttribute('aria-pressed')") == "false"
    assert browser.evaluate("document.getElementById('next').disabled") is True


@pytest.mark.slow
def test_a_contradiction_marks_the_unit_it_names_and_says_so(browser: Browser, replay_page: Path) -> None:
    events = read_jsonl(replay_page.parent / "t.jsonl")
    number = next(i for i, e in enumerate(events) if e["kind"] == "contradiction" and len(e["cells"]) > 1)
    browser.open(f"{replay_page.as_uri()}#steps={number}")
    marked = browser.evaluate("[...document.querySelectorAll('#grid td.named')].map(td => Number(td.dataset.cell))")
    assert sorted(marked) == sorted(events[number]["cells"])  # a whole row, column or box
    label = browser.evaluate(f"document.querySelectorAll('#grid td')[{marked[0]}].getAttribute('aria-label')")
    assert label.endswith("named by the contradiction")
    live = browser.evaluate("(e => e.getAttribute('aria-live') + '|' + e.textContent)"
                            "(document.getElementById('sentence'))")
    assert live == f"polite|step {number}: {describe(events[number], 9)}"
    # and the mark is seen: the screenshot is dark red just inside a named cell, not in the others
    pixels = screenshot_pixels(browser)
    named, other = (browser.evaluate(f"(r => [r.left, r.top, r.height])(document.querySelectorAll('#grid td')"
                                     f"[{cell}].getBoundingClientRect())")
                    for cell in (marked[0], next(c for c in range(81) if c not in marked)))
    assert reddish(pixels.getpixel((round(named[0]) + 2, round(named[1] + named[2] / 2))))
    assert not reddish(pixels.getpixel((round(other[0]) + 2, round(other[1] + other[2] / 2))))
    browser.press("ArrowRight")  # the next step names nothing
    assert browser.evaluate("document.querySelectorAll('#grid td.named').length") == 0


def screenshot_pixels(browser: Browser):  # returns a PIL image: PIL is imported only here
    image = pytest.importorskip("PIL.Image", reason="reading a screenshot needs pillow (matplotlib's)")
    return image.open(io.BytesIO(browser.screenshot())).convert("RGB")


def reddish(rgb: tuple[int, int, int]) -> bool:
    """The contradiction's mark, #b2182b, give or take the anti-aliasing."""
    red, green, blue = rgb
    return red > 140 and green < 80 and blue < 90


@pytest.mark.slow
def test_the_last_event_of_a_long_trace_is_on_the_page(browser: Browser, tmp_path: Path) -> None:
    _, trace = traced("backtrack", load("top95.txt")[0], node_limit=3_000)
    events = trace.events
    assert len(events) > 5_000
    page = tmp_path / "long.html"
    page.write_text(render_page(events, "long"))
    assert page.stat().st_size < 100 * len(events)  # compact: well under 100 bytes a step
    browser.open(page.as_uri())
    browser.evaluate("document.getElementById('next').focus()")
    browser.press("End")
    assert at_step(browser) == len(events) - 1
    sentence = browser.evaluate("document.getElementById('sentence').textContent")
    assert sentence == f"step {len(events) - 1}: {describe(events[-1], 9)}"


@pytest.mark.soak  # every rung over the whole teaching set, the textbook backtracker's included
def test_the_docs_ladder_table_is_what_the_ladder_computes_each_rung_needing_fewer_decisions() -> None:
    # docs/teaching.md's figures come from `compare.py ladder`: decisions do not depend on the
    # machine; and what the ladder is for: on the same puzzles each rung up it (the readable
    # code from hidden singles on) buys fewer decisions
    from solvers import registry
    from solvers.harness.commands.ladder import FAST, RUNGS

    page = (ROOT / "docs" / "teaching.md").read_text()
    block = page[page.index("$ python compare.py ladder --format markdown"):]
    rows = [line.split("|") for line in block.splitlines()[4:4 + len(RUNGS + FAST)]]
    assert len(rows) == len(RUNGS + FAST)
    totals = []
    for row, rung in zip(rows, RUNGS + FAST):
        assert row[3].strip() == rung.config
        backend = registry.get(rung.backend)
        decisions = [backend.solve(p, **rung.options).stats.nodes for p in load("teaching.txt")]
        assert row[5].strip() == f"{sum(decisions) / len(decisions):,.1f}", rung.name
        totals.append(sum(decisions))
    ladder = totals[:len(RUNGS)]
    assert ladder == sorted(ladder, reverse=True) and len(set(ladder)) == len(ladder), ladder


def test_explain_stops_a_long_search_at_its_node_budget() -> None:
    done = compare_here("explain", "puzzles/top95.txt", "--solver", "backtrack:node_limit=3000",
                        "--max-steps", "3")
    assert done.returncode == 0, done.stderr
    assert "unknown: " in done.stdout and "node limit reached" in done.stdout


def test_explain_shows_why_a_puzzle_has_no_solution() -> None:
    done = compare_here("explain", "puzzles/special_9x9_unsolvable.txt", "--puzzle", "2",
                        "--solver", "mrv:inference=none;branching=mrv")
    assert done.returncode == 0, done.stderr
    assert "contradiction: " in done.stdout and "backtrack: take back" in done.stdout
    assert "unsat: " in done.stdout


# ---------------------------------------------------------------- pictures tell the truth

CELL_FILL = re.compile(r'<g id="cell-r(\d+)c(\d+)">\s*<path d="[^"]*"[^>]*? style="fill: (#[0-9a-f]{6})')
LEGEND_ENTRY = re.compile(r'style="fill: (#[0-9a-f]{6})[^"]*"/>\s*</g>\s*<g id="text_\d+">\s*'
                          r'<!-- (.*?): (\d+) cells? -->')


@pytest.mark.slow
@pytest.mark.parametrize("solver", [*TRACED, "human"])
def test_the_render_legend_counts_the_cells_drawn_in_each_colour(tmp_path: Path, solver: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="render needs the plot extra")
    out = tmp_path / "picture.svg"
    # the real parser in this process (matplotlib imported once): render's own command line is
    # run by test_render_draws_any_size_and_variant
    status, _, err = cli(capsys, "render", str(ROOT / "puzzles" / "small_6x6.txt"), "--solver", solver, "-o", str(out))
    assert status == 0, err
    svg = out.read_text()
    drawn = Counter(fill for _, _, fill in CELL_FILL.findall(svg))
    legend = svg[svg.index('<g id="legend_1">'):]
    entries = {label: (fill, int(count)) for fill, label, count in LEGEND_ENTRY.findall(legend)}
    assert sum(drawn.values()) == 36 and sum(count for _, count in entries.values()) == 36
    assert {fill: count for fill, count in entries.values()} == dict(drawn)
    # every decision on the solution's path is drawn as one, every forced move as forced
    trace = any_trace(solver, load("small_6x6.txt")[0])
    board = final_board(trace.events)
    assert entries.get("decision of the search", ("", 0))[1] == board.how.count("decision")
    assert entries.get("forced (one option left)", ("", 0))[1] == board.how.count("forced")
    # the title states the search's total, apart from what is drawn
    decides = [e for e in trace.events if e["kind"] == "decide"]
    unforced = sum(1 for e in decides if not e["forced"])
    assert (f"{unforced:,} decision{'s' if unforced != 1 else ''} in all" if decides
            else "without a decision") in svg


def any_trace(name: str, puzzle: Puzzle) -> Trace:
    """The trace of a readable search, or of the human-style solver."""
    if name != "human":
        return traced(name, puzzle)[1]
    trace = Trace()
    human.solve(Model.from_puzzle(puzzle), trace=trace)
    return trace


# a puzzle each search solves quickly while making decisions, contradictions and forced moves
# (the human solver reasons its way through the bundled puzzles SE rates up to 9: a puzzle
# with no solution gives it a contradiction at once)
SMALL_ENOUGH = {"mrv": load("teaching.txt")[0], "dlx": load("teaching.txt")[0],
                "backtrack": load("small_6x6.txt")[0], "human": load("special_9x9_unsolvable.txt")[0]}


@pytest.mark.parametrize("name", TRACED)
def test_a_decision_is_forced_exactly_when_its_branch_had_one_option(name: str) -> None:
    _, trace = traced(name, SMALL_ENOUGH[name])
    previous: dict = {}
    for event in trace.events:
        if event["kind"] == "decide":
            # the first option of its branch (no sibling taken back just before) with none after it
            alone = not event["alternatives"] and not (
                previous.get("kind") == "backtrack" and previous["depth"] == event["depth"])
            assert event["forced"] is alone, event
        previous = event
    if name == "dlx":  # dlx's naked and hidden singles are columns with one row: forced moves
        assert sum(e.get("forced", False) for e in trace.events) > 0


@pytest.mark.parametrize("name", [*TRACED, "human"])
def test_a_contradiction_carries_the_cells_it_names(name: str) -> None:
    puzzle = SMALL_ENOUGH[name]
    trace = any_trace(name, puzzle)
    model = Model.from_puzzle(puzzle)
    groups = {g.name: g.cells for g in model.groups}
    contradictions = [e for e in trace.events if e["kind"] == "contradiction"]
    assert contradictions
    for event in contradictions:
        if "cell" in event:
            assert event["cells"] == [event["cell"]]
        elif "group" in event:
            assert tuple(event["cells"]) == groups[event["group"]]
        else:  # dlx: a column, 'r1c2 filled' (one cell) or '5 in row 3' (the group)
            where = event["column"].removesuffix(" filled")
            expected = groups[where.split(" in ", 1)[1]] if " in " in where else None
            assert tuple(event["cells"]) == expected if expected else len(event["cells"]) == 1
        assert named_cells(event, model) == tuple(event["cells"])
        old = {k: v for k, v in event.items() if k != "cells"}  # a trace written before the field
        if "column" not in old:
            assert named_cells(old, model) == tuple(event["cells"])
